//! The ghost-collision test, through the public dispatch on `AnyShape`: a ball
//! and a box slide in small steps (exactly over vertices and edges too) with a known
//! slight penetration over flat surfaces made of many parts — a TriMesh grid of
//! triangles with diagonals, a 3D HeightField, a 2D Polyline chain, a 2D HeightField
//! and the top of a ConcavePolygon with many collinear top vertices. Every contact and
//! every manifold point must carry the surface normal and the known depth. Across a
//! real convex edge (a corner of a solid mesh cube, the free end of a polyline, the
//! corner of a concave polygon) the normal must NOT be forced flat.
//! Run in f32 and f64; the flat surfaces span `[−4, 4]` horizontally, top at `y = 0`,
//! outward normal `+y`.

#[path = "support/meshes.rs"]
mod meshes;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3, Real, Vector, Vector3};
use isect::query::dispatch::{self, DispatchShape};
use isect::shape::heightfield_2d::HeightField as HeightField2;
use isect::shape::heightfield_3d::HeightField as HeightField3;
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, ConcavePolygon, Polyline};
use isect::shape::{TriMesh, TriMeshFlags};

/// Penetrations tested: touching, tiny, slight.
const PENETRATIONS: [f64; 3] = [0.0, 1e-3, 0.05];

/// A dimension and precision with its `AnyShape`, the flat test surfaces and the movers.
trait Slide: GjkVector {
    type Any: DispatchShape<Self>;
    /// The flat surfaces, named.
    fn surfaces() -> Vec<(&'static str, Self::Any)>;
    /// A ball of radius `r` at the local origin.
    fn ball(r: f64) -> Self::Any;
    /// A box of half extents `h` (first `DIM` entries) at the local origin.
    fn cuboid(h: [f64; 3]) -> Self::Any;
    /// The pose at `t`, turned by `yaw` about the up axis (3D only).
    fn pose(t: Self, yaw: f64) -> Self::Pose;
    /// Every manifold between the shapes, as `(normal, depths)`.
    fn manifolds(
        pa: &Self::Pose,
        a: &Self::Any,
        pb: &Self::Pose,
        b: &Self::Any,
    ) -> Vec<(Self, Vec<f64>)>;
    /// Tight tolerance of a normal or depth comparison.
    fn tol() -> f64 {
        if Self::Scalar::EPSILON.to_f64() > 1e-10 {
            1e-4
        } else {
            1e-9
        }
    }
}

fn s<V: Vector>(x: f64) -> V::Scalar {
    V::Scalar::from_f64(x)
}

/// The vector with these coordinates (the first `DIM`).
fn vec_of<V: Vector>(c: [f64; 3]) -> V {
    (0..V::DIM).fold(V::ZERO, |v, k| v.with(k, s::<V>(c[k])))
}

fn up<V: Vector>() -> V {
    V::unit_axis(1)
}

fn near(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn vnear<V: Vector>(a: V, b: V, tol: f64) -> bool {
    (a - b).length().to_f64() <= tol
}

fn grid_mesh<R: Real>(solid: bool) -> TriMesh<R> {
    let data = if solid {
        meshes::cube()
    } else {
        meshes::grid(8, |_, _| 0.0).scaled(4.0)
    };
    let flags = if solid {
        TriMeshFlags::SOLID
    } else {
        TriMeshFlags::OPEN
    };
    let v = data.map(|p| R::V3::new(R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2])));
    TriMesh::new(v, data.indices.clone(), flags).unwrap()
}

/// `x` from −4 to 4 in steps of `step`.
fn top_xs(step: f64) -> Vec<f64> {
    let n = (8.0 / step).round() as usize;
    (0..=n).map(|i| -4.0 + step * i as f64).collect()
}

macro_rules! impl_3d {
    ($v:ty, $r:ty, $q:ty) => {
        impl Slide for $v {
            type Any = shape_3d::AnyShape<$r>;
            fn surfaces() -> Vec<(&'static str, Self::Any)> {
                let hf = HeightField3::<$r>::new(vec![0.0; 81], 9, 9, <$v>::new(8.0, 1.0, 8.0));
                vec![
                    ("TriMesh grid", grid_mesh::<$r>(false).into()),
                    ("HeightField 3D", hf.unwrap().into()),
                ]
            }
            fn ball(r: f64) -> Self::Any {
                shape_3d::Shape::from(Ball::new(<$v>::ZERO, r as $r).unwrap()).into()
            }
            fn cuboid(h: [f64; 3]) -> Self::Any {
                let b = Aabb::from_center(<$v>::ZERO, vec_of(h)).unwrap();
                shape_3d::Shape::from(b).into()
            }
            fn pose(t: Self, yaw: f64) -> Self::Pose {
                Pose3::new(t, <$q>::from_rotation_y(yaw as $r))
            }
            fn manifolds(
                pa: &Self::Pose,
                a: &Self::Any,
                pb: &Self::Pose,
                b: &Self::Any,
            ) -> Vec<(Self, Vec<f64>)> {
                shape_3d::AnyShape::contact_manifolds(pa, a, pb, b, 0.0)
                    .iter()
                    .map(|m| {
                        let d = m.manifold.points().iter().map(|p| p.depth as f64);
                        (m.manifold.normal, d.collect())
                    })
                    .collect()
            }
        }
    };
}

macro_rules! impl_2d {
    ($v:ty, $r:ty) => {
        impl Slide for $v {
            type Any = shape_2d::AnyShape<$r>;
            fn surfaces() -> Vec<(&'static str, Self::Any)> {
                let chain: Vec<$v> = top_xs(0.5)
                    .iter()
                    .map(|&x| <$v>::new(x as $r, 0.0))
                    .collect();
                let hf = HeightField2::<$r>::new(vec![0.0; 17], <$v>::new(8.0, 1.0));
                // A concave outline (a notch in the bottom) whose top, y = 0, has a
                // vertex every 0.5: counter-clockwise.
                let bottom = [
                    (-4.0, -2.0),
                    (-1.0, -2.0),
                    (0.0, -1.0),
                    (1.0, -2.0),
                    (4.0, -2.0),
                ];
                let mut outer: Vec<$v> = bottom
                    .iter()
                    .map(|&(x, y)| <$v>::new(x as $r, y as $r))
                    .collect();
                outer.extend(top_xs(0.5).iter().rev().map(|&x| <$v>::new(x as $r, 0.0)));
                vec![
                    (
                        "Polyline chain",
                        Polyline::new(chain, false).unwrap().into(),
                    ),
                    ("HeightField 2D", hf.unwrap().into()),
                    ("ConcavePolygon top", polygon::<$r>(outer).into()),
                ]
            }
            fn ball(r: f64) -> Self::Any {
                shape_2d::Shape::from(Ball::new(<$v>::ZERO, r as $r).unwrap()).into()
            }
            fn cuboid(h: [f64; 3]) -> Self::Any {
                let b = Aabb::from_center(<$v>::ZERO, vec_of(h)).unwrap();
                shape_2d::Shape::from(b).into()
            }
            fn pose(t: Self, _yaw: f64) -> Self::Pose {
                Pose2::new(t, 0.0)
            }
            fn manifolds(
                pa: &Self::Pose,
                a: &Self::Any,
                pb: &Self::Pose,
                b: &Self::Any,
            ) -> Vec<(Self, Vec<f64>)> {
                shape_2d::AnyShape::contact_manifolds(pa, a, pb, b, 0.0)
                    .iter()
                    .map(|m| {
                        let d = m.manifold.points().iter().map(|p| p.depth as f64);
                        (m.manifold.normal, d.collect())
                    })
                    .collect()
            }
        }
    };
}

fn polygon<R: Real>(outer: Vec<R::V2>) -> ConcavePolygon<R> {
    ConcavePolygon::new(outer, Vec::new()).unwrap()
}

impl_3d!(glam::Vec3, f32, glam::Quat);
impl_3d!(glam::DVec3, f64, glam::DQuat);
impl_2d!(glam::Vec2, f32);
impl_2d!(glam::DVec2, f64);

/// Horizontal positions of the mover: a lattice of step 0.125 over `[−2, 2]` (every
/// vertex, edge and diagonal of the surfaces' parts is crossed exactly) in x (and z).
fn positions<V: Vector>() -> Vec<[f64; 2]> {
    let steps: Vec<f64> = (0..=32).map(|i| -2.0 + 0.125 * i as f64).collect();
    if V::DIM == 2 {
        return steps.iter().map(|&x| [x, 0.0]).collect();
    }
    let mut out = Vec::new();
    for &x in &steps {
        for &z in steps.iter().step_by(2) {
            out.push([x, z]);
        }
    }
    out
}

/// Checks the contact and manifolds of `mover` at `pose` against `surface`, both
/// orders: surface normal and depth `pen`.
fn check_flat<V: Slide>(
    what: &str,
    surface: &V::Any,
    mover: &V::Any,
    pose: &V::Pose,
    pen: f64,
    strict: bool,
) {
    let id = V::Pose::IDENTITY;
    let tol = V::tol();
    let c = dispatch::contact(&id, surface, pose, mover, s::<V>(0.0));
    let c = c.unwrap_or_else(|| panic!("{what}: no contact"));
    assert!(
        vnear(c.normal, up::<V>(), tol) && near(c.depth.to_f64(), pen, tol),
        "{what}: normal {:?} depth {:?} (want up, {pen})",
        c.normal,
        c.depth
    );
    let r = dispatch::contact(pose, mover, &id, surface, s::<V>(0.0)).unwrap();
    assert!(
        vnear(r.normal, -up::<V>(), tol) && near(r.depth.to_f64(), pen, tol),
        "{what} (swapped): normal {:?} depth {:?}",
        r.normal,
        r.depth
    );
    let all = V::manifolds(&id, surface, pose, mover);
    assert!(!all.is_empty(), "{what}: no manifold");
    let mut deepest = f64::NEG_INFINITY;
    for (n, depths) in &all {
        // Not strict: a manifold off the flat top (a real corner) may lean, never down.
        let ok = vnear(*n, up::<V>(), tol) || (!strict && n.dot(up::<V>()).to_f64() > 0.0);
        assert!(ok, "{what}: manifold normal {n:?}");
        for &d in depths {
            assert!(d <= pen + tol, "{what}: manifold depth {d} > {pen}");
            deepest = deepest.max(d);
        }
    }
    assert!(
        near(deepest, pen, tol),
        "{what}: deepest manifold point {deepest}"
    );
}

// A ball (radius 0.5) and a box (half extents 0.6, 0.3, 0.45; turned about the up axis
// in 3D) slide over each flat surface at every lattice position, touching or sunk by
// 1e-3 or 0.05: surface normal and exact depth, never a ghost normal.
fn slides_flat<V: Slide>() {
    let ball = V::ball(0.5);
    let h = [0.6, 0.3, 0.45];
    let cuboid = V::cuboid(h);
    for (name, surface) in V::surfaces() {
        for &pen in &PENETRATIONS {
            for (k, [x, z]) in positions::<V>().into_iter().enumerate() {
                let centre = |half: f64| vec_of::<V>([x, half - pen, z]);
                let what = format!("{name}, ball at ({x}, {z}), pen {pen}");
                check_flat::<V>(
                    &what,
                    &surface,
                    &ball,
                    &V::pose(centre(0.5), 0.0),
                    pen,
                    true,
                );
                // Every third box turns by 30°, so its edges cross the diagonals.
                let yaw = if k % 3 == 0 {
                    std::f64::consts::FRAC_PI_6
                } else {
                    0.0
                };
                let what = format!("{name}, box at ({x}, {z}) yaw {yaw}, pen {pen}");
                check_flat::<V>(
                    &what,
                    &surface,
                    &cuboid,
                    &V::pose(centre(h[1]), yaw),
                    pen,
                    true,
                );
            }
        }
    }
}

#[test]
fn ball_and_box_slide_over_flat_surfaces() {
    slides_flat::<glam::Vec3>();
    slides_flat::<glam::DVec3>();
    slides_flat::<glam::Vec2>();
    slides_flat::<glam::DVec2>();
}

/// A ball of radius 0.5 whose centre is at `centre`, outside a real convex feature at
/// `feature`: the contact normal points from the feature to the centre (the real
/// rounded normal, not a face's) and the depth is `0.5 − |centre − feature|`.
fn check_convex_feature<V: Slide>(what: &str, surface: &V::Any, centre: V, feature: V) {
    let id = V::Pose::IDENTITY;
    let ball = V::ball(0.5);
    let pose = V::pose(centre, 0.0);
    let c = dispatch::contact(&id, surface, &pose, &ball, s::<V>(0.0));
    let c = c.unwrap_or_else(|| panic!("{what}: no contact"));
    let want = (centre - feature).try_normalize().unwrap();
    let depth = 0.5 - (centre - feature).length().to_f64();
    let tol = V::tol().max(1e-6);
    assert!(
        vnear(c.normal, want, tol) && near(c.depth.to_f64(), depth, tol),
        "{what}: normal {:?} depth {:?}, want {want:?} {depth}",
        c.normal,
        c.depth
    );
    assert!(
        c.normal.dot(up::<V>()).to_f64() < 0.99,
        "{what}: normal forced flat"
    );
}

// Solid mesh cube [−1, 1]³ (two triangles a face): a ball beyond its top-right edge
// (diagonal direction) and beyond its corner gets the edge / corner normal.
fn convex_edges_3d<R: Real>()
where
    R::V3: Slide,
    <R::V3 as Slide>::Any: From<TriMesh<R>>,
{
    let cube = <R::V3 as Slide>::Any::from(grid_mesh::<R>(true));
    let v = |x: f64, y: f64, z: f64| R::V3::new(s::<R::V3>(x), s::<R::V3>(y), s::<R::V3>(z));
    let d = 0.25;
    for z in [-0.5, 0.0, 0.5, 1.0] {
        let edge_z = z.min(1.0);
        check_convex_feature(
            &format!("cube edge, z {z}"),
            &cube,
            v(1.0 + d, 1.0 + d, z),
            v(1.0, 1.0, edge_z),
        );
    }
    check_convex_feature(
        "cube corner",
        &cube,
        v(1.0 + d, 1.0 + d, 1.0 + d),
        v(1.0, 1.0, 1.0),
    );
    // Beside the side face x = 1, just below the top: the side's normal, not up.
    check_convex_feature("cube side", &cube, v(1.45, 0.9, 0.1), v(1.0, 0.9, 0.1));
}

#[test]
fn convex_edges_of_a_mesh_cube_keep_their_normals() {
    convex_edges_3d::<f32>();
    convex_edges_3d::<f64>();
}

// The free end (4, 0) of the polyline chain and the heightfield, and the convex corner
// (4, 0) of the concave polygon: a ball beyond them gets the rounded normal.
fn convex_ends_2d<V: Slide>() {
    for (name, surface) in V::surfaces() {
        let corner = vec_of::<V>([4.0, 0.0, 0.0]);
        for (dx, dy) in [(0.3, 0.3), (0.35, 0.1), (0.1, 0.4)] {
            let centre = vec_of::<V>([4.0 + dx, dy, 0.0]);
            check_convex_feature(
                &format!("{name} end, +({dx}, {dy})"),
                &surface,
                centre,
                corner,
            );
        }
    }
}

#[test]
fn convex_ends_in_2d_keep_their_normals() {
    convex_ends_2d::<glam::Vec2>();
    convex_ends_2d::<glam::DVec2>();
}

// The solid cube's top face seen by a ball sliding across it, its centre inside the
// face's column up to the edge (the face's two triangles meet at an internal
// diagonal): the contact keeps the up normal and depth. With `strict`, so does every
// manifold; otherwise a manifold of a side triangle at a top corner may lean (never
// down).
fn slides_over_cube_top<R: Real>(strict: bool)
where
    R::V3: Slide,
    <R::V3 as Slide>::Any: From<TriMesh<R>>,
{
    let cube = <R::V3 as Slide>::Any::from(grid_mesh::<R>(true));
    let ball = <R::V3 as Slide>::ball(0.5);
    for i in 0..=16 {
        let x = -1.0 + 0.125 * i as f64;
        for z in [-0.5, 0.0, 0.25, x] {
            let centre = vec_of::<R::V3>([x, 1.45, z]);
            let pose = <R::V3 as Slide>::pose(centre, 0.0);
            let what = format!("cube top, ball at ({x}, {z})");
            check_flat::<R::V3>(&what, &cube, &ball, &pose, 0.05, strict);
        }
    }
}

#[test]
fn ball_slides_over_the_top_of_a_mesh_cube() {
    slides_over_cube_top::<f32>(false);
    slides_over_cube_top::<f64>(false);
}

// Regression: ball (radius 0.5) at (0.875, 1.45, 0.875) on the solid cube [−1, 1]³, sunk
// 0.05 into the top face: the side triangle (1, −1, −1), (1, 1, 1), (1, −1, 1) touches
// the ball at the corner (1, 1, 1) from behind and its manifold keeps the raw normal
// (−0.26, 0.93, −0.26), depth 0.017. The corner's faces in front of that normal (the
// top) share no edge with the triangle, so the correction cannot clamp it into the
// corner's normal cone (up) without the vertex's one-ring, which it now uses (the
// contact point lies on the corner).
#[test]
fn ball_slides_over_the_top_of_a_mesh_cube_strict_manifolds() {
    slides_over_cube_top::<f32>(true);
    slides_over_cube_top::<f64>(true);
}
