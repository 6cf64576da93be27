use glam::Vec3;
use isect::algo::slab::PreparedRay;
use isect::broad::Bvh;
use isect::shape::{Aabb, Ray};
struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }
}
fn cpu() -> u64 { std::fs::read_to_string("/proc/thread-self/schedstat").unwrap().split_whitespace().next().unwrap().parse().unwrap() }
fn main() {
    let mut rng = Rng(11);
    let mut boxes = Vec::new();
    for i in 0..1000 {
        for j in 0..1000 {
            if rng.unit() < 0.1 {
                let min = Vec3::new(i as f32 + 0.1, j as f32 + 0.1, 0.0);
                boxes.push(Aabb {
                    min,
                    max: min + Vec3::new(0.8, 0.8, 1.0),
                });
            }
        }
    }
    let mut rng = Rng(13);
    let rays: Vec<Ray<Vec3>> = (0..10_000)
        .map(|_| {
            let origin = Vec3::new(rng.unit() * 1000.0, rng.unit() * 1000.0, 0.5);
            let angle = rng.unit() * std::f32::consts::TAU;
            Ray::new(origin, Vec3::new(angle.cos(), angle.sin(), 0.0) * 100.0).unwrap()
        })
        .collect();
    let t0 = cpu();
    let mut bvh = Bvh::build(&boxes);
    for _ in 0..4 { bvh = Bvh::build(&boxes); }
    println!("build {:.2}ms nodes {}", (cpu() - t0) as f64 / 1e6, bvh.node_count());
    for _ in 0..3 {
        let t0 = cpu();
        let mut leaves = 0usize;
        let mut hits = 0;
        for ray in &rays {
            let p = PreparedRay::new(ray, 1.0);
            let h = bvh.cast_ray(ray, 1.0, |i, _| {
                leaves += 1;
                p.interval(&boxes[i as usize]).map(|h| h.0)
            });
            hits += h.is_some() as usize;
        }
        println!(
            "rays {:.2}ms leaves/ray {} hits {} ",
            (cpu() - t0) as f64 / 1e6,
            leaves as f64 / 1e4,
            hits,
        );
    }
}
