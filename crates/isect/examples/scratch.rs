use isect::d3_f64::DVec3;
use isect::shape::ConvexPolyhedron;
fn main() {
    let pts = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.3283064365386965e-15, 99.62465763621609, -0.0),
        DVec3::new(2.3283064365386965e-15, 99.62465763621609, -0.0),
        DVec3::new(4.0, -4.0, -99.67804551124571),
        DVec3::new(2.7036294305560206e-11, 0.0, 0.0),
    ];
    let hull = isect::algo::hull_3d::convex_hull_3d(&pts).unwrap();
    println!("{hull:?}");
    let poly = ConvexPolyhedron::<f64>::from_points(&pts).unwrap();
    println!("{poly:?}");
    for f in poly.faces() {
        println!(
            "face {:?} n {:?} d {:?} origin sd {}",
            f.vertex_indices(),
            f.plane().normal(),
            f.plane().d(),
            f.plane().signed_distance(DVec3::ZERO)
        );
    }
}
