//! Found by the hull sweep (case seed 0x538154127b096493, 3D f64): a polyhedron built
//! from points did not contain four of its own vertices — they were 1e-13 outside
//! their rounded face planes and `contains_point` had no slack. Fixed by the slack
//! `POLYHEDRON_PLANE_ULPS · ε · scale` in `ConvexPolyhedron::contains_point`.

use isect::d3_f64::DVec3;
use isect::shape::ConvexPolyhedron;

/// A flat-ish cloud (most points near x = -0.388) with a few far points.
const POINTS: [[f64; 3]; 20] = [
    [
        -251.59158444500767,
        -24.73121978160163,
        -0.008375289168915652,
    ],
    [
        -0.3968048799910484,
        -20.454766262040156,
        4.499372376238361e-5,
    ],
    [
        -791.9674882051754,
        479.53094997251293,
        3.2281507236148176e-5,
    ],
    [
        -0.3884306431080601,
        -52.48900914671921,
        0.0007742807703395614,
    ],
    [-0.3884302159764229, -24.73121978160163, 96.54445992170669],
    [
        -0.38294422856878074,
        -24.731222119549642,
        -0.0009677184927638519,
    ],
    [
        -0.3887537865880547,
        -24.73121978160163,
        3.2281507236148176e-5,
    ],
    [-0.38842180609470045, -24.72906997519886, -223.0228211604082],
    [
        -0.38843562953811817,
        -16.656313307973647,
        0.03641558600652062,
    ],
    [
        -0.3884306383658076,
        -24.73121978160163,
        -0.009212921783469713,
    ],
    [
        -0.3892301544733506,
        -24.73121978160163,
        2.8168682429793134e-5,
    ],
    [
        -0.38833750945151846,
        -24.7312197785448,
        -0.11064260328576798,
    ],
    [
        -0.38833750945151846,
        -24.7312197785448,
        -0.11064260328576798,
    ],
    [
        -0.3894306431080601,
        -24.738980159894922,
        3.2281507236148176e-5,
    ],
    [-0.3884305738090491, -24.731219856624698, 541.7972359842415],
    [
        -0.38843064310805997,
        -24.730279068023275,
        -0.004276647767073106,
    ],
    [
        -0.38843064310805997,
        -24.730279068023275,
        -0.004276647767073106,
    ],
    [-0.38843065086596973, -24.73121978789384, 22.90018565133829],
    [
        -0.3948959979401495,
        -24.731225624260894,
        0.16718753466831485,
    ],
    [
        -0.4271813884369629,
        -24.731219714800133,
        3.2224606939819206e-5,
    ],
];

/// Every input point, and so every vertex, of a hull lies in the hull.
#[test]
fn hull_contains_its_input_points() {
    let pts: Vec<DVec3> = POINTS.iter().map(|&p| DVec3::from_array(p)).collect();
    let hull = ConvexPolyhedron::<f64>::from_points(&pts).expect("a solid cloud");
    for (i, p) in pts.iter().enumerate() {
        assert!(hull.contains_point(*p), "input {i} {p} outside its hull");
    }
    for v in hull.vertices() {
        assert!(hull.contains_point(*v), "vertex {v} outside its hull");
    }
}

/// The same in f32 on a unit-scale box rotated off the axes (rounded planes).
#[test]
fn hull_contains_its_vertices_f32() {
    let q = isect::d3::Quat::from_axis_angle(isect::d3::Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let pts: Vec<isect::d3::Vec3> = (0..8)
        .map(|i| {
            let c = [i & 1, (i >> 1) & 1, (i >> 2) & 1].map(|b| b as f32 * 2.0 - 1.0);
            q * isect::d3::Vec3::from_array(c) * 123.456 + isect::d3::Vec3::splat(0.1)
        })
        .collect();
    let hull = ConvexPolyhedron::<f32>::from_points(&pts).expect("a box");
    for v in hull.vertices() {
        assert!(hull.contains_point(*v), "vertex {v} outside its hull");
    }
}
