//! Scratch profiling driver (not committed).
use glam::DVec3;
#[path = "../tests/support/rng.rs"]
mod rng;
fn main() {
    let ns: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    for n in ns {
        let mut r = rng::Rng(42);
        let mut pts = Vec::new();
        while pts.len() < n {
            let p = DVec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
            let l = p.length();
            if l > 1e-3 && l <= 1.0 {
                pts.push(p / l);
            }
        }
        for _ in 0..5 {
            let t = std::time::Instant::now();
            isect::shape::ConvexPolyhedron::<f64>::from_points(&pts).unwrap();
            println!("poly {:?}", t.elapsed());
        }
    }
}
