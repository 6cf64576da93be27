//! Contacts and distances between convex shapes and meshes against parry 0.31, on
//! thousands of seeded cases with a 30–70% hit-rate guard (f32 on both sides).
//!
//! 3D: balls, boxes and capsules placed near a TriMesh (a closed bumpy sphere, an
//! open terrain grid), against parry3d's `TriMesh` through `parry3d::query::contact`
//! and `distance`. 2D: balls and boxes against a Polyline (parry2d's `Polyline`) and
//! a ConcavePolygon (parry2d's `Compound` of OUR convex pieces: parry has no concave
//! polygon).
//!
//! What is compared, and why: both treat the mesh as its surface.
//! - Existence of a contact at prediction 0 and the distance: always. Where parry's
//!   distance is larger than ours (a capsule over the terrain, rarely), our closest
//!   points must lie on both surfaces, our distance apart: then ours is right.
//! - Separated contacts within the prediction: depth in `[−distance, 0]` (−distance
//!   unless our normal was corrected at an internal edge).
//! - Penetrating contacts: our depth is never below parry's; depth and normal are
//!   equal where both libraries see the same feature in a shallow contact (< 0.05):
//!   both witness points lie inside a triangle (or segment) away from its edges, with
//!   that face's normal, and the normals agree. Elsewhere
//!   the libraries differ by design: isect corrects normals that lean over internal
//!   edges (and re-measures the depth conservatively), parry (without
//!   `FIX_INTERNAL_EDGES`) keeps the deepest part's normal; there we only require
//!   our depth to be at least parry's (never understated).

#[path = "support/meshes.rs"]
mod meshes;
#[path = "support/parry_pairs.rs"]
mod parry_pairs;
#[path = "support/rng.rs"]
mod rng;

use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::query::dispatch;
use isect::query::ProjectPoint;
use isect::shape::{shape_2d, shape_3d, Capsule, ConcavePolygon, Polyline};
use isect::shape::{TriMesh, TriMeshFlags};
use meshes::MeshData;
use parry_pairs::{ball_3d, ball_or_box_2d, cuboid_3d, parry_pieces, pose_2d, pose_3d, r, r3};
use rng::Rng;

/// Absolute tolerance (shapes about 1 across; f32 on both sides).
const TOL: f32 = 2e-3;
/// Cases per mesh.
const CASES: usize = 4000;
/// Penetrations below this are compared exactly (on a shared face); deeper ones into
/// a non-convex shape have no single right answer.
const SHALLOW: f32 = 0.05;
/// The prediction of the separated-contact comparison.
const PREDICTION: f32 = 0.3;

fn unit3(rng: &mut Rng) -> Vec3 {
    loop {
        let v = r3(rng, -1.0, 1.0);
        if (0.01..=1.0).contains(&v.length_squared()) {
            return v.normalize();
        }
    }
}

/// A random mover for both libraries: ball, box or capsule, about 0.1–0.3 across.
fn mover_3d(rng: &mut Rng) -> (shape_3d::AnyShape<f32>, parry3d::shape::SharedShape) {
    let (ours, theirs) = match rng.below(3) {
        0 => ball_3d(r(rng, 0.05, 0.3)),
        1 => cuboid_3d(r3(rng, 0.05, 0.25)),
        _ => {
            let (hh, rad) = (r(rng, 0.02, 0.2), r(rng, 0.05, 0.2));
            let a = Vec3::new(0.0, -hh, 0.0);
            let c = Capsule::new(a, -a, rad).unwrap();
            (c.into(), parry3d::shape::SharedShape::capsule_y(hh, rad))
        }
    };
    (ours.into(), theirs)
}

/// Both libraries' meshes of `data` (ours open: pair queries treat both as surfaces).
fn meshes_of(data: &MeshData) -> (shape_3d::AnyShape<f32>, parry3d::shape::SharedShape) {
    let v = data.vertices_f32();
    let ours = TriMesh::<f32>::new(v.clone(), data.indices.clone(), TriMeshFlags::OPEN).unwrap();
    let theirs = parry3d::shape::TriMesh::new(v, data.indices.clone()).unwrap();
    (ours.into(), parry3d::shape::SharedShape::new(theirs))
}

/// A random point of a random triangle and the triangle's unit normal.
fn surface_point(data: &MeshData, rng: &mut Rng) -> (Vec3, Vec3) {
    let t = data.indices[rng.below(data.indices.len())];
    let [a, b, c] = data.triangle_f32(t);
    let (u, v) = (r(rng, 0.0, 1.0), r(rng, 0.0, 1.0));
    let (u, v) = if u + v > 1.0 {
        (1.0 - u, 1.0 - v)
    } else {
        (u, v)
    };
    (
        a + (b - a) * u + (c - a) * v,
        (b - a).cross(c - a).normalize(),
    )
}

/// True when `p` lies in a triangle of `data` at least `margin` from its edges
/// (barycentric) and `n` is that triangle's normal (either side).
fn face_interior(data: &MeshData, p: Vec3, n: Vec3, margin: f32) -> bool {
    data.indices.iter().any(|t| {
        let [a, b, c] = data.triangle_f32(*t);
        let face = (b - a).cross(c - a).normalize();
        if face.dot(n).abs() < 1.0 - 1e-4 || (p - a).dot(face).abs() > TOL {
            return false;
        }
        let area = (b - a).cross(c - a).dot(face);
        let bary = [(b, c), (c, a), (a, b)].map(|(x, y)| (y - x).cross(p - x).dot(face) / area);
        bary.iter().all(|&w| w > margin)
    })
}

/// Compares contact and distance of one case; returns whether they touch.
fn compare_3d(
    data: &MeshData,
    mesh: &(shape_3d::AnyShape<f32>, parry3d::shape::SharedShape),
    mover: &(shape_3d::AnyShape<f32>, parry3d::shape::SharedShape),
    (pose, ppose): (Pose3<f32>, parry3d::math::Pose),
    what: &str,
) -> (bool, bool) {
    let id = Pose3::<f32>::default();
    let pid = parry3d::math::Pose::IDENTITY;
    let (pm, pb) = (&*mesh.1 .0, &*mover.1 .0);
    let d = dispatch::distance(&id, &mesh.0, &pose, &mover.0);
    let mut pd = parry3d::query::distance(&pid, pm, &ppose, pb)
        .unwrap()
        .distance;
    if (d - pd).abs() > TOL {
        // Parry above ours (seen with capsules over the terrain, also per triangle):
        // ours holds if its witnesses lie on both surfaces, `d` apart.
        assert!(d < pd, "{what}: distance {d} vs parry {pd}");
        let cp = dispatch::closest_points(&id, &mesh.0, &pose, &mover.0);
        let on_mesh = mesh.0.project_point(&id, cp.point_a, false).point;
        let on_mover = mover.0.project_point(&pose, cp.point_b, false).point;
        let gap = (cp.point_a - cp.point_b).length();
        let real = (on_mesh - cp.point_a).length() <= TOL
            && (on_mover - cp.point_b).length() <= TOL
            && (gap - d).abs() <= TOL;
        assert!(
            real,
            "{what}: distance {d} below parry's {pd}, witnesses {cp:?}"
        );
        pd = d;
    }
    let c = dispatch::contact(&id, &mesh.0, &pose, &mover.0, 0.0);
    let pc = parry3d::query::contact(&pid, pm, &ppose, pb, 0.0).unwrap();
    if pd > TOL || d > TOL {
        assert!(
            c.is_none() && pc.is_none(),
            "{what}: contact {c:?} vs parry {pc:?} at {d}"
        );
        let c = dispatch::contact(&id, &mesh.0, &pose, &mover.0, PREDICTION);
        if d < PREDICTION - TOL {
            let c = c.unwrap_or_else(|| panic!("{what}: no predicted contact at {d}"));
            separated_depth(c.depth, pd, what);
        }
        return (false, false);
    }
    if d > 0.0 || pd > 0.0 {
        return (true, false); // Touching within tolerance: either answer.
    }
    let (c, pc) = (c.expect("our contact"), pc.expect("parry's contact"));
    let (depth, pdepth) = (c.depth, -pc.dist);
    assert!(
        depth >= pdepth - TOL,
        "{what}: depth {depth} below parry's {pdepth}"
    );
    let same_face = (c.normal - pc.normal1).length() <= 1e-3
        && face_interior(data, pc.point1, pc.normal1, 0.05)
        && face_interior(data, c.point_a, c.normal, 0.05);
    let compared = pdepth < SHALLOW && same_face;
    if compared {
        assert!(
            (depth - pdepth).abs() <= TOL,
            "{what}: face depth {depth} vs parry {pdepth}"
        );
        assert!(
            (c.normal - pc.normal1).length() <= 10.0 * TOL,
            "{what}: normal {c:?} vs {pc:?}"
        );
    }
    (true, compared)
}

/// A separated contact within the prediction: never deeper than touching, never
/// more separated than the distance `pd` (the corrected normal's separation is at
/// most the distance; uncorrected, it is the distance).
fn separated_depth(depth: f32, pd: f32, what: &str) {
    assert!(
        (-pd - TOL..=TOL).contains(&depth),
        "{what}: separated depth {depth}, distance {pd}"
    );
}

fn run_3d(data: MeshData, offsets: (f64, f64), seed: u64, name: &str) {
    let mesh = meshes_of(&data);
    let mut rng = Rng(seed);
    let (mut hits, mut faces) = (0, 0);
    for i in 0..CASES {
        let mover = mover_3d(&mut rng);
        let (p, n) = surface_point(&data, &mut rng);
        // Centre near the surface point: along its normal within `offsets`, plus up to 0.1.
        let t = p + n * r(&mut rng, offsets.0, offsets.1) + unit3(&mut rng) * r(&mut rng, 0.0, 0.1);
        let q = Quat::from_axis_angle(unit3(&mut rng), r(&mut rng, -3.2, 3.2));
        let what = format!("{name} #{i}: {:?} at {t:?} {q:?}", mover.0);
        let (hit, compared) = compare_3d(&data, &mesh, &mover, pose_3d(t, q), &what);
        hits += hit as usize;
        faces += compared as usize;
    }
    assert!(
        faces >= CASES / 40,
        "{name}: {faces} face contacts compared"
    );
    let rate = hits as f64 / CASES as f64;
    assert!((0.3..=0.7).contains(&rate), "{name}: hit rate {rate}");
}

#[test]
fn bumpy_sphere_contacts_match_parry() {
    run_3d(
        meshes::bumpy_sphere(32, 16, 0.15),
        (-0.1, 0.45),
        71,
        "bumpy sphere",
    );
}

#[test]
fn terrain_contacts_match_parry() {
    let terrain = meshes::grid(16, |x, z| 0.3 * (2.0 * x).sin() * (3.0 * z).cos());
    run_3d(terrain, (-0.2, 0.35), 72, "terrain");
}

/// A random ball or box for both 2D libraries.
fn mover_2d(rng: &mut Rng) -> (shape_2d::AnyShape<f32>, parry2d::shape::SharedShape) {
    let (ours, theirs) = ball_or_box_2d(rng, (0.05, 0.3), (0.05, 0.25));
    (ours.into(), theirs)
}

/// Compares one 2D case (distance always; depth where both are deep in a segment's
/// interior, or as −distance when separated); returns whether they touch.
fn compare_2d(
    segments: &[(Vec2, Vec2)],
    target: (&shape_2d::AnyShape<f32>, &dyn parry2d::shape::Shape),
    mover: &(shape_2d::AnyShape<f32>, parry2d::shape::SharedShape),
    (pose, ppose): (Pose2<f32>, parry2d::math::Pose),
    what: &str,
) -> (bool, bool) {
    let id = Pose2::<f32>::default();
    let pid = parry2d::math::Pose::IDENTITY;
    let pb = &*mover.1 .0;
    let d = dispatch::distance(&id, target.0, &pose, &mover.0);
    let pd = parry2d::query::distance(&pid, target.1, &ppose, pb)
        .unwrap()
        .distance;
    assert!((d - pd).abs() <= TOL, "{what}: distance {d} vs parry {pd}");
    let c = dispatch::contact(&id, target.0, &pose, &mover.0, PREDICTION);
    let pc = parry2d::query::contact(&pid, target.1, &ppose, pb, PREDICTION).unwrap();
    if d > TOL && d < PREDICTION - TOL {
        let c = c.unwrap_or_else(|| panic!("{what}: no predicted contact at {d}"));
        separated_depth(c.depth, pd, what);
    }
    if d > TOL || pd > TOL {
        return (false, false);
    }
    let (Some(c), Some(pc)) = (c, pc) else {
        panic!("{what}: contact {c:?} vs parry {pc:?}");
    };
    let (depth, pdepth) = (c.depth, -pc.dist);
    assert!(
        depth >= pdepth - TOL,
        "{what}: depth {depth} below parry's {pdepth}"
    );
    let on_interior = |p: Vec2, normal: Vec2| {
        segments.iter().any(|&(a, b)| {
            let (e, n) = ((b - a).normalize(), (b - a).perp().normalize());
            let s = (p - a).dot(e) / (b - a).length();
            n.dot(normal).abs() > 1.0 - 1e-4
                && (p - a).dot(n).abs() <= TOL
                && (0.05..0.95).contains(&s)
        })
    };
    let same_face = (c.normal - pc.normal1).length() <= 1e-3
        && on_interior(pc.point1, pc.normal1)
        && on_interior(c.point_a, c.normal);
    let compared = pdepth < SHALLOW && same_face;
    if compared {
        assert!(
            (depth - pdepth).abs() <= TOL,
            "{what}: face depth {depth} vs parry {pdepth}"
        );
        assert!(
            (c.normal - pc.normal1).length() <= 10.0 * TOL,
            "{what}: normal {c:?} vs {pc:?}"
        );
    }
    (true, compared)
}

fn run_2d(
    target: (&shape_2d::AnyShape<f32>, &dyn parry2d::shape::Shape),
    segments: &[(Vec2, Vec2)],
    offsets: (f64, f64),
    seed: u64,
    name: &str,
) {
    let mut rng = Rng(seed);
    let (mut hits, mut faces) = (0, 0);
    for i in 0..CASES {
        let mover = mover_2d(&mut rng);
        let (a, b) = segments[rng.below(segments.len())];
        // Left of the segment: inside a counter-clockwise polygon.
        let n = (b - a).perp().normalize();
        let p = a + (b - a) * r(&mut rng, 0.0, 1.0);
        let t = p
            + n * r(&mut rng, offsets.0, offsets.1)
            + Vec2::new(r(&mut rng, -0.1, 0.1), r(&mut rng, -0.1, 0.1));
        let angle = r(&mut rng, -3.2, 3.2);
        let poses = pose_2d(t, angle);
        let what = format!("{name} #{i}: {:?} at {t:?} angle {angle}", mover.0);
        let (hit, compared) = compare_2d(segments, target, &mover, poses, &what);
        hits += hit as usize;
        faces += compared as usize;
    }
    assert!(
        faces >= CASES / 40,
        "{name}: {faces} face contacts compared"
    );
    let rate = hits as f64 / CASES as f64;
    assert!((0.3..=0.7).contains(&rate), "{name}: hit rate {rate}");
}

/// A zigzag chain of 12 vertices across [−2, 2].
fn chain() -> Vec<Vec2> {
    let mut rng = Rng(5);
    (0..12)
        .map(|i| Vec2::new(-2.0 + 4.0 * i as f32 / 11.0, r(&mut rng, -0.5, 0.5)))
        .collect()
}

#[test]
fn polyline_contacts_match_parry() {
    let v = chain();
    let ours: shape_2d::AnyShape<f32> = Polyline::<f32>::new(v.clone(), false).unwrap().into();
    let theirs = parry2d::shape::Polyline::new(v.clone(), None);
    let segments: Vec<_> = v.windows(2).map(|w| (w[0], w[1])).collect();
    run_2d((&ours, &theirs), &segments, (-0.3, 0.3), 81, "polyline");
}

#[test]
fn concave_polygon_contacts_match_parry_compound_of_our_pieces() {
    // A comb: a bar with five teeth pointing up, counter-clockwise.
    let mut outer = vec![Vec2::new(-2.5, -1.0), Vec2::new(2.5, -1.0)];
    for k in (0..5).rev() {
        let x = -2.5 + k as f32;
        outer.extend([
            Vec2::new(x + 1.0, 1.0),
            Vec2::new(x + 0.5, 1.0),
            Vec2::new(x + 0.5, 0.0),
        ]);
        outer.push(Vec2::new(x, 0.0));
    }
    let polygon = ConcavePolygon::<f32>::new(outer.clone(), Vec::new()).unwrap();
    let theirs = parry2d::shape::Compound::new(parry_pieces(&polygon));
    let ours: shape_2d::AnyShape<f32> = polygon.into();
    let n = outer.len();
    let segments: Vec<_> = (0..n).map(|i| (outer[i], outer[(i + 1) % n])).collect();
    run_2d(
        (&ours, &theirs),
        &segments,
        (-0.5, 0.1),
        82,
        "concave polygon",
    );
}
