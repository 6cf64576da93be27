//! serde (feature `serde`): every shape kind of 2D and 3D, f32 and f64, written to
//! JSON and read back gives the same shape (equal where the type compares) and the
//! same answers (seeded ray casts, contacts and distances against a probe, exactly
//! equal) at every scale from 1e-3 to 1e5; data a constructor refuses (NaN, negative
//! radius, non-convex outline, out-of-range index, unclosed solid mesh, bad pose) is
//! a serde error that carries the constructor's `ShapeError` message.

mod composite_common;
#[path = "support/meshes.rs"]
mod meshes;
#[path = "serde/world.rs"]
mod world;
mod world_common;

use composite_common::{random_compound, CompositeDim};
use isect::math::{Pose2, Pose3, Real, Rot2};
use isect::query::composite::ConvexPart;
use isect::query::dispatch;
use isect::query::RayCast;
use isect::shape::error::check_pose;
use isect::shape::heightfield_2d::HeightField as HeightField2;
use isect::shape::heightfield_3d::HeightField as HeightField3;
use isect::shape::{obb_2d, obb_3d, shape_2d, shape_3d, Aabb, Ball, Capsule, ConcavePolygon, Cone};
use isect::shape::{ConvexPolygon, ConvexPolyhedron, Cylinder, HalfSpace, Plane, Polyline};
use isect::shape::{Ray, Rounded, Sector, Segment, ShapeError, TriMesh, TriMeshFlags};
use serde::de::DeserializeOwned;
use serde::Serialize;
use world_common::{assert_hit_rate, rand_unit, rand_vec, s, Rng};

/// The scales the kinds are built at (shape sizes and placements scale together).
const SCALES: [f64; 5] = [1e-3, 1e-1, 1.0, 1e2, 1e5];
/// Seeded queries per kind and scale.
const QUERIES: usize = 40;

/// `x` written to JSON and read back; panics with the text on a read error.
fn round_trip<T: Serialize + DeserializeOwned>(x: &T) -> T {
    let text = serde_json::to_string(x).expect("serialize");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("reading back {text}: {e}"))
}

/// The error of reading `text` as `T`, which must carry `expected`'s message.
fn assert_rejected<T: DeserializeOwned>(text: &str, expected: ShapeError) {
    match serde_json::from_str::<T>(text) {
        Ok(_) => panic!("{text} was accepted; expected {expected}"),
        Err(e) => assert!(
            e.to_string().contains(&expected.to_string()),
            "{text}: error `{e}` does not carry `{expected}`"
        ),
    }
}

/// A vector type with its `AnyShape` and composite kinds.
trait SerdeDim: CompositeDim
where
    Self::S: ConvexPart<Self>,
{
    /// The composite kinds of the dimension, about `size` across.
    fn composites(rng: &mut Rng, size: f64) -> Vec<(&'static str, Self::Any)>;
}

/// Ray hits, contacts and distances of `a` and `b` against seeded rays and a probe
/// ball at seeded poses are identical; returns the number of ray hits.
fn assert_same_answers<V: SerdeDim>(
    rng: &mut Rng,
    a: &V::Any,
    b: &V::Any,
    size: f64,
    what: &str,
) -> usize
where
    V::S: ConvexPart<V>,
    V::Pose: Serialize + DeserializeOwned,
    V::Any: Serialize + DeserializeOwned,
{
    let probe = V::Any::from(V::S::from(Ball::new(V::ZERO, s::<V>(0.3 * size)).unwrap()));
    let mut hits = 0;
    for _ in 0..QUERIES {
        let target = rand_vec::<V>(rng, 0.7 * size);
        let dir: V = rand_unit(rng);
        let ray = Ray {
            origin: target - dir * s::<V>(2.0 * size),
            dir,
        };
        let max_t = s::<V>(4.0 * size);
        let (ha, hb) = (a.cast_ray(&ray, max_t), b.cast_ray(&ray, max_t));
        assert_eq!(ha, hb, "{what}: ray {ray:?}");
        hits += usize::from(ha.is_some());
        let pose_a = round_trip(&V::pose(rng, 0.2 * size));
        let pose_b = V::pose(rng, 1.2 * size);
        let prediction = s::<V>(0.1 * size);
        assert_eq!(
            dispatch::contact(&pose_a, a, &pose_b, &probe, prediction),
            dispatch::contact(&pose_a, b, &pose_b, &probe, prediction),
            "{what}: contact at {pose_b:?}"
        );
        let (da, db) = (
            dispatch::distance(&pose_a, a, &pose_b, &probe),
            dispatch::distance(&pose_a, b, &pose_b, &probe),
        );
        assert!(
            da == db || (da.is_nan() && db.is_nan()),
            "{what}: distance {da:?} vs {db:?}"
        );
    }
    hits
}

/// Every kind of `V`'s dimension, at every scale: the round trip answers as the
/// original does, the JSON text is stable (written again, it is the same), and the
/// rays hit often enough for the comparison to mean something.
fn check_every_kind<V: SerdeDim>(seed: u64)
where
    V::S: ConvexPart<V> + PartialEq,
    V::Pose: Serialize + DeserializeOwned,
    V::Any: Serialize + DeserializeOwned,
{
    let mut rng = Rng(seed);
    let (mut hits, mut total) = (0, 0);
    for size in SCALES {
        let mut kinds: Vec<(String, V::Any)> = (0..V::KINDS)
            .map(|k| {
                let shape = V::shape(k, &mut rng, size);
                (V::kind_name(&shape).to_string(), V::Any::from(shape))
            })
            .collect();
        kinds.extend(
            V::composites(&mut rng, size)
                .into_iter()
                .map(|(n, a)| (n.to_string(), a)),
        );
        for (name, shape) in &kinds {
            let what = format!("{name} at scale {size:e}");
            let back: V::Any = round_trip(shape);
            let (first, again) = (
                serde_json::to_string(shape).unwrap(),
                serde_json::to_string(&back).unwrap(),
            );
            if !name.contains("Polyhedron") {
                assert_eq!(first, again, "{what}: the text changed in a round trip");
            }
            hits += assert_same_answers::<V>(&mut rng, shape, &back, size, &what);
            total += QUERIES;
        }
    }
    assert_hit_rate(hits, total, std::any::type_name::<V>());
}

/// Each convex kind also round-trips on its own, equal to the original (the hull of
/// a polyhedron may list its faces in another order, so it compares by answers).
fn check_convex_equal<V: SerdeDim>(seed: u64)
where
    V::S: ConvexPart<V> + PartialEq + Serialize + DeserializeOwned,
{
    let mut rng = Rng(seed);
    for size in SCALES {
        for k in 0..V::KINDS {
            let shape = V::shape(k, &mut rng, size);
            if V::kind_name(&shape) != "Polyhedron" {
                assert_eq!(round_trip(&shape), shape, "scale {size:e}");
            }
        }
    }
}

macro_rules! any_2d {
    ($v:ty, $r:ty) => {
        impl SerdeDim for $v {
            fn composites(rng: &mut Rng, size: f64) -> Vec<(&'static str, Self::Any)> {
                let k = |x: f64| <$r>::from_f64(x * size);
                let p = |x: f64, y: f64| <$v>::new(k(x), k(y));
                let outer = vec![
                    p(-0.5, -0.5),
                    p(0.5, -0.5),
                    p(0.5, 0.5),
                    p(0.0, 0.1),
                    p(-0.5, 0.5),
                ];
                let hole = vec![p(-0.3, -0.3), p(-0.3, -0.1), p(0.3, -0.1), p(0.3, -0.3)];
                let zigzag = (0..7)
                    .map(|i| p(i as f64 / 6.0 - 0.5, 0.3 * (i % 2) as f64))
                    .collect();
                let heights = (0..9)
                    .map(|i| <$r>::from_f64((i as f64 * 1.3).sin() * 0.2))
                    .collect();
                vec![
                    (
                        "Compound",
                        random_compound::<$v>(rng, 3, 0.4 * size, 0.3 * size).into(),
                    ),
                    (
                        "ConcavePolygon",
                        ConcavePolygon::new(outer, vec![hole]).unwrap().into(),
                    ),
                    ("Polyline", Polyline::new(zigzag, false).unwrap().into()),
                    (
                        "HeightField",
                        HeightField2::new(heights, p(1.0, 1.0)).unwrap().into(),
                    ),
                ]
            }
        }
    };
}

macro_rules! any_3d {
    ($v:ty, $r:ty) => {
        impl SerdeDim for $v {
            fn composites(rng: &mut Rng, size: f64) -> Vec<(&'static str, Self::Any)> {
                let k = |x: f64| <$r>::from_f64(x * size);
                let v3 = |p: [f64; 3]| <$v>::new(k(p[0]), k(p[1]), k(p[2]));
                let sphere = meshes::bumpy_sphere(10, 6, 0.1).scaled(0.5);
                let terrain = meshes::grid(5, |x, z| 0.1 * (3.0 * x).sin() * z);
                let heights = (0..20)
                    .map(|i| <$r>::from_f64((i as f64 * 0.7).sin() * 0.2))
                    .collect();
                vec![
                    (
                        "Compound",
                        random_compound::<$v>(rng, 3, 0.4 * size, 0.3 * size).into(),
                    ),
                    (
                        "TriMesh solid",
                        TriMesh::new(sphere.map(v3), sphere.indices.clone(), TriMeshFlags::SOLID)
                            .unwrap()
                            .into(),
                    ),
                    (
                        "TriMesh open",
                        TriMesh::new(terrain.map(v3), terrain.indices.clone(), TriMeshFlags::OPEN)
                            .unwrap()
                            .into(),
                    ),
                    (
                        "HeightField",
                        HeightField3::new(heights, 4, 5, v3([1.0, 1.0, 1.0]))
                            .unwrap()
                            .into(),
                    ),
                ]
            }
        }
    };
}

any_2d!(glam::Vec2, f32);
any_2d!(glam::DVec2, f64);
any_3d!(glam::Vec3, f32);
any_3d!(glam::DVec3, f64);

#[test]
fn every_kind_round_trips_with_the_same_answers() {
    check_every_kind::<glam::Vec2>(1);
    check_every_kind::<glam::DVec2>(2);
    check_every_kind::<glam::Vec3>(3);
    check_every_kind::<glam::DVec3>(4);
}

#[test]
fn convex_kinds_round_trip_equal() {
    check_convex_equal::<glam::Vec2>(5);
    check_convex_equal::<glam::DVec2>(6);
    check_convex_equal::<glam::Vec3>(7);
    check_convex_equal::<glam::DVec3>(8);
}

/// The shapes outside the enums (sector, oriented boxes, planes, half-spaces, rays)
/// and the poses round-trip equal, in both precisions.
#[test]
fn standalone_types_and_poses_round_trip_equal() {
    fn check<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(x: T) {
        assert_eq!(round_trip(&x), x);
    }
    macro_rules! both {
        ($r:ty) => {{
            type V2 = <$r as Real>::V2;
            type V3 = <$r as Real>::V3;
            type Q = <$r as Real>::Quat;
            let mut rng = Rng(9);
            for size in SCALES {
                let k = |x: f64| <$r>::from_f64(x * size);
                check(Sector::<$r>::new(V2::new(k(0.1), k(0.2)), k(1.0), 0.3, 2.0).unwrap());
                check(
                    obb_2d::Obb::<$r>::from_angle(
                        V2::new(k(0.1), k(0.2)),
                        V2::new(k(1.0), k(0.5)),
                        0.7,
                    )
                    .unwrap(),
                );
                let q = Q::from_axis_angle(V3::new(1.0, 2.0, 3.0).normalize(), 0.9);
                check(
                    obb_3d::Obb::<$r>::new(V3::splat(k(0.1)), V3::new(k(1.0), k(0.5), k(0.2)), q)
                        .unwrap(),
                );
                check(Plane::new(rand_unit::<V3>(&mut rng), k(0.4)).unwrap());
                check(HalfSpace::new(
                    Plane::new(rand_unit::<V2>(&mut rng), k(-0.4)).unwrap(),
                ));
                check(Ray::new(rand_vec::<V3>(&mut rng, size), rand_unit::<V3>(&mut rng)).unwrap());
                check(Pose3::<$r>::new(rand_vec(&mut rng, size), q));
                check(Pose2::<$r>::new(rand_vec(&mut rng, size), 1.1));
                check(Rot2::<$r>::from_angle(-2.0));
                check(
                    ConvexPolygon::<$r>::new(&[
                        V2::ZERO,
                        V2::new(k(1.0), 0.0),
                        V2::new(0.0, k(1.0)),
                    ])
                    .unwrap(),
                );
                check(
                    Rounded::new(Aabb::new(V3::ZERO, V3::splat(k(1.0))).unwrap(), k(0.1)).unwrap(),
                );
            }
        }};
    }
    both!(f32);
    both!(f64);
}

/// NaN cannot reach a shape through a file: JSON writes it as `null`, which no number
/// field accepts, and a format that carries NaN meets the constructor's check.
#[test]
fn nan_never_reads_back_as_a_shape() {
    use serde::de::value::{Error as ValueError, SeqDeserializer};
    use serde::Deserialize;
    let smuggled = Ray {
        origin: glam::DVec3::NAN,
        dir: glam::DVec3::X,
    };
    let text = serde_json::to_string(&smuggled).unwrap();
    assert!(
        serde_json::from_str::<Ray<glam::DVec3>>(&text).is_err(),
        "{text}"
    );
    for fields in [[f64::NAN, 1.0], [1.0, f64::NAN], [f64::INFINITY, 1.0]] {
        let reader = SeqDeserializer::<_, ValueError>::new(fields.into_iter());
        let err = Cylinder::<f64>::deserialize(reader).unwrap_err();
        let expected = Cylinder::new(fields[0], fields[1]).unwrap_err();
        assert!(err.to_string().contains(&expected.to_string()), "{err}");
        let reader = SeqDeserializer::<_, ValueError>::new(fields.map(|x| x as f32).into_iter());
        assert!(Cone::<f32>::deserialize(reader).is_err());
    }
    // A number beyond f32's range is refused by the reader (it would be infinity).
    assert!(serde_json::from_str::<Ball<glam::Vec2>>(r#"{"center":[1e39,0],"radius":1}"#).is_err());
    let text = r#"{"vertices":[[0,0,0],[1e39,0,0],[0,1,0]],"indices":[[0,1,2]]}"#;
    assert!(serde_json::from_str::<TriMesh<f32>>(text).is_err());
}

/// Composite kinds read back keep their defining data exactly (the concave polygon's
/// rings, the polyline's segments, the mesh's triangles and flag, the grid).
#[test]
fn composite_defining_data_is_kept() {
    let poly = ConcavePolygon::<f64>::new(
        vec![
            glam::DVec2::ZERO,
            glam::DVec2::new(2.0, 0.0),
            glam::DVec2::new(1.0, 1.0),
        ],
        vec![],
    )
    .unwrap();
    let back = round_trip(&poly);
    assert_eq!((back.outer(), back.holes()), (poly.outer(), poly.holes()));
    let line =
        Polyline::<f32>::new(vec![glam::Vec2::ZERO, glam::Vec2::X, glam::Vec2::ONE], true).unwrap();
    let back = round_trip(&line);
    assert_eq!(
        (back.vertices(), back.segments()),
        (line.vertices(), line.segments())
    );
    let cube = meshes::cube();
    let mesh = TriMesh::<f64>::new(
        cube.map(glam::DVec3::from),
        cube.indices.clone(),
        TriMeshFlags::SOLID,
    )
    .unwrap();
    let back = round_trip(&mesh);
    assert_eq!(
        (back.vertices(), back.indices(), back.is_solid()),
        (mesh.vertices(), mesh.indices(), true)
    );
    let field = HeightField3::<f32>::new(vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 2, 3, glam::Vec3::ONE)
        .unwrap();
    let back = round_trip(&field);
    assert_eq!(
        (back.heights(), back.nrows(), back.ncols()),
        (field.heights(), 2, 3)
    );
}

/// Each refused case gives the constructor's own error, in both precisions.
#[test]
fn invalid_data_is_a_serde_error_with_the_shape_message() {
    macro_rules! both {
        ($r:ty) => {{
            type V2 = <$r as Real>::V2;
            type V3 = <$r as Real>::V3;
            assert_rejected::<Ball<V2>>(r#"{"center":[0,0],"radius":-1}"#, Ball::new(V2::ZERO, -1.0).unwrap_err());
            assert_rejected::<Capsule<V3>>(
                r#"{"a":[0,0,0],"b":[1,0,0],"radius":-0.5}"#,
                Capsule::new(V3::ZERO, V3::X, -0.5).unwrap_err(),
            );
            assert_rejected::<Aabb<V2>>(r#"{"min":[1,0],"max":[0,1]}"#, Aabb::new(V2::X, V2::Y).unwrap_err());
            assert_rejected::<Cylinder<$r>>(r#"{"half_height":1,"radius":-2}"#, Cylinder::<$r>::new(1.0, -2.0).unwrap_err());
            assert_rejected::<Plane<V3>>(r#"{"normal":[0,0,0],"d":1}"#, Plane::new(V3::ZERO, 1.0).unwrap_err());
            assert_rejected::<Sector<$r>>(
                r#"{"center":[0,0],"radius":1,"start_angle":0,"span":7}"#,
                Sector::<$r>::new(V2::ZERO, 1.0, 0.0, 7.0).unwrap_err(),
            );
            let concave = [V2::ZERO, V2::new(2.0, 0.0), V2::new(1.0, 0.5), V2::new(1.0, 2.0)];
            assert_rejected::<ConvexPolygon<$r>>(
                r#"{"vertices":[[0,0],[2,0],[1,0.5],[1,2]]}"#,
                ConvexPolygon::<$r>::new(&concave).unwrap_err(),
            );
            assert_rejected::<ConvexPolyhedron<$r>>(
                r#"{"vertices":[[0,0,0],[1,0,0]]}"#,
                ConvexPolyhedron::<$r>::from_points(&[V3::ZERO, V3::X]).unwrap_err(),
            );
            let tri = [V3::ZERO, V3::X, V3::Y];
            assert_rejected::<TriMesh<$r>>(
                r#"{"vertices":[[0,0,0],[1,0,0],[0,1,0]],"indices":[[0,1,3]]}"#,
                TriMesh::<$r>::new(tri.to_vec(), vec![[0, 1, 3]], TriMeshFlags::OPEN).unwrap_err(),
            );
            assert_rejected::<TriMesh<$r>>(
                r#"{"vertices":[[0,0,0],[1,0,0],[0,1,0]],"indices":[[0,1,2]],"solid":true}"#,
                TriMesh::<$r>::new(tri.to_vec(), vec![[0, 1, 2]], TriMeshFlags::SOLID).unwrap_err(),
            );
            assert_rejected::<Polyline<$r>>(
                r#"{"vertices":[[0,0],[1,0]],"segments":[[0,2]]}"#,
                Polyline::<$r>::with_segments(vec![V2::ZERO, V2::X], vec![[0, 2]]).unwrap_err(),
            );
            assert_rejected::<HeightField3<$r>>(
                r#"{"heights":[0,0,0],"nrows":2,"ncols":2,"scale":[1,1,1]}"#,
                HeightField3::<$r>::new(vec![0.0; 3], 2, 2, V3::ONE).unwrap_err(),
            );
            assert_rejected::<HeightField2<$r>>(
                r#"{"heights":[0,0],"scale":[-1,1]}"#,
                HeightField2::<$r>::new(vec![0.0; 2], V2::new(-1.0, 1.0)).unwrap_err(),
            );
            let bow_tie = vec![V2::ZERO, V2::new(1.0, 1.0), V2::new(1.0, 0.0), V2::new(0.0, 1.0)];
            assert_rejected::<ConcavePolygon<$r>>(
                r#"{"outer":[[0,0],[1,1],[1,0],[0,1]],"holes":[]}"#,
                ConcavePolygon::<$r>::new(bow_tie, vec![]).unwrap_err(),
            );
            assert_rejected::<Rounded<Aabb<V2>, $r>>(
                r#"{"inner":{"min":[0,0],"max":[1,1]},"radius":-1}"#,
                Rounded::new(Aabb::new(V2::ZERO, V2::ONE).unwrap(), -1.0).unwrap_err(),
            );
            assert_rejected::<obb_2d::Obb<$r>>(
                r#"{"center":[0,0],"half_extents":[-1,1],"rotation":{"cos":1,"sin":0}}"#,
                obb_2d::Obb::<$r>::new(V2::ZERO, V2::new(-1.0, 1.0), Rot2::from_angle(0.0)).unwrap_err(),
            );
            assert_rejected::<obb_3d::Obb<$r>>(
                r#"{"center":[0,0,0],"half_extents":[1,1,1],"rotation":[0,0,0,0]}"#,
                obb_3d::Obb::<$r>::new(V3::ZERO, V3::ONE, <$r as Real>::Quat::from_xyzw(0.0, 0.0, 0.0, 0.0))
                    .unwrap_err(),
            );
            // A coordinate past the library's limit `Real::MAX_COORD`.
            let far = <$r as Real>::MAX_COORD * 2.0;
            let text = format!(r#"{{"a":[{far},0],"b":[0,0]}}"#);
            assert_rejected::<Segment<V2>>(&text, Segment::new(V2::new(far, 0.0), V2::ZERO).unwrap_err());
            // An error deep inside an enum or compound still reaches the reader.
            assert_rejected::<shape_3d::Shape<$r>>(
                r#"{"Cone":{"half_height":-1,"radius":1}}"#,
                Cone::<$r>::new(-1.0, 1.0).unwrap_err(),
            );
            assert_rejected::<shape_2d::AnyShape<$r>>(
                r#"{"Compound":{"parts":[]}}"#,
                isect::shape::Compound::<V2, shape_2d::Shape<$r>>::new(vec![]).unwrap_err(),
            );
            let zero_rotation = Pose3::<$r> {
                translation: V3::ZERO,
                rotation: <$r as Real>::Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            };
            assert_rejected::<shape_3d::AnyShape<$r>>(
                r#"{"Compound":{"parts":[[{"translation":[0,0,0],"rotation":[0,0,0,0]},{"Ball":{"center":[0,0,0],"radius":1}}]]}}"#,
                check_pose::<V3, _>("Pose", "rotation", "translation", &zero_rotation).unwrap_err(),
            );
            let long_rotation = Pose2::<$r> { translation: V2::ZERO, rotation: Rot2 { cos: 2.0, sin: 0.0 } };
            assert_rejected::<Pose2<$r>>(
                r#"{"translation":[0,0],"rotation":{"cos":2,"sin":0}}"#,
                check_pose::<V2, _>("Pose", "rotation", "translation", &long_rotation).unwrap_err(),
            );
        }};
    }
    both!(f32);
    both!(f64);
}
