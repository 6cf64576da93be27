//! World ray hits carry the part of a composite they hit (`WorldRayHit::part`): for
//! each composite kind (3D: Compound, TriMesh open and solid, HeightField; 2D:
//! Compound, ConcavePolygon, Polyline, HeightField), f32 and f64, on seeded rays from
//! outside, through `cast_ray`, `cast_ray_with` (solid and boundary), `cast_rays` and
//! `cast_ray_all`, the part reported is one that the ray hits at the reported `t`,
//! and no part is hit earlier (a brute force over the parts). Convex shapes report
//! no part.

mod composite_common;
#[path = "support/meshes.rs"]
mod meshes;
mod world_common;

use composite_common::{random_compound, CompositeDim};
use isect::math::{Isometry, Real};
use isect::query::composite::ConvexPart;
use isect::query::dispatch::DispatchShape;
use isect::shape::heightfield_2d::HeightField as HeightField2;
use isect::shape::heightfield_3d::HeightField as HeightField3;
use isect::shape::{Composite, ConcavePolygon, Polyline, Ray, TriMesh, TriMeshFlags};
use isect::world::{Filter, World, WorldRayHit};
use world_common::{rand_unit, rand_vec, s, tol, Rng};

/// Rays per composite kind.
const RAYS: usize = 60;

/// A composite kind: its name, the shape and its parts with their local poses.
struct Kind<V: CompositeDim>
where
    V::S: ConvexPart<V>,
{
    name: &'static str,
    shape: V::Any,
    parts: Vec<(V::Pose, V::S)>,
}

fn kind<V: CompositeDim, C>(name: &'static str, c: C) -> Kind<V>
where
    V::S: ConvexPart<V>,
    C: Composite<V, Part = V::S>,
    V::Any: From<C>,
{
    let parts = (0..c.part_count() as u32)
        .map(|i| c.with_part(i, |pp, part| (*pp, part.clone())))
        .collect();
    Kind {
        name,
        shape: V::Any::from(c),
        parts,
    }
}

/// The composite kinds of a dimension.
trait PartKinds: CompositeDim
where
    Self::S: ConvexPart<Self>,
{
    fn kinds(rng: &mut Rng) -> Vec<Kind<Self>>;
}

macro_rules! impl_3d {
    ($v:ty, $r:ty) => {
        impl PartKinds for $v {
            fn kinds(rng: &mut Rng) -> Vec<Kind<Self>> {
                let mut out = vec![kind("Compound", random_compound::<Self>(rng, 4, 0.8, 0.9))];
                let data = meshes::bumpy_sphere(8, 5, 0.2).scaled(1.2);
                let v = data.map(|p| <$v>::new(p[0] as $r, p[1] as $r, p[2] as $r));
                for (name, flags) in [
                    ("TriMesh open", TriMeshFlags::OPEN),
                    ("TriMesh solid", TriMeshFlags::SOLID),
                ] {
                    out.push(kind(
                        name,
                        TriMesh::<$r>::new(v.clone(), data.indices.clone(), flags).unwrap(),
                    ));
                }
                let heights = (0..25).map(|_| rng.range(-0.3, 0.3) as $r).collect();
                let hf = HeightField3::<$r>::new(heights, 5, 5, <$v>::new(2.0, 1.0, 2.0)).unwrap();
                out.push(kind("HeightField", hf));
                out
            }
        }
    };
}

macro_rules! impl_2d {
    ($v:ty, $r:ty) => {
        impl PartKinds for $v {
            fn kinds(rng: &mut Rng) -> Vec<Kind<Self>> {
                let mut out = vec![kind("Compound", random_compound::<Self>(rng, 4, 0.8, 0.9))];
                let star = (0..10)
                    .map(|i| {
                        let r = if i % 2 == 0 { 1.2 } else { 0.5 } * rng.range(0.9, 1.1);
                        let t = std::f64::consts::TAU * i as f64 / 10.0;
                        <$v>::new((r * t.cos()) as $r, (r * t.sin()) as $r)
                    })
                    .collect();
                out.push(kind(
                    "ConcavePolygon",
                    ConcavePolygon::<$r>::new(star, Vec::new()).unwrap(),
                ));
                let chain = (0..7)
                    .map(|i| <$v>::new((-1.0 + i as f64 / 3.0) as $r, rng.range(-0.4, 0.4) as $r))
                    .collect();
                out.push(kind("Polyline", Polyline::<$r>::new(chain, false).unwrap()));
                let heights = (0..6).map(|_| rng.range(-0.3, 0.3) as $r).collect();
                out.push(kind(
                    "HeightField",
                    HeightField2::<$r>::new(heights, <$v>::new(2.0, 1.0)).unwrap(),
                ));
                out
            }
        }
    };
}

impl_3d!(glam::Vec3, f32);
impl_3d!(glam::DVec3, f64);
impl_2d!(glam::Vec2, f32);
impl_2d!(glam::DVec2, f64);

/// The brute force: each part's first hit `t` of `ray` (solid or boundary casts),
/// the shape being at `pose`.
fn part_hits<V: PartKinds>(
    k: &Kind<V>,
    pose: &V::Pose,
    ray: &Ray<V>,
    solid: bool,
) -> Vec<Option<f64>>
where
    V::S: ConvexPart<V>,
{
    k.parts
        .iter()
        .map(|(pp, part)| {
            let placed = pose.mul(pp);
            part.cast_ray_solid(&placed, ray, s::<V>(100.0), solid)
                .map(|h| h.t.to_f64())
        })
        .collect()
}

/// The world's hit `h` lies on its reported part, and no part is hit earlier.
fn check_hit<V: PartKinds>(
    k: &Kind<V>,
    pose: &V::Pose,
    ray: &Ray<V>,
    h: &WorldRayHit<V>,
    solid: bool,
    first: bool,
) where
    V::S: ConvexPart<V>,
{
    let t = h.hit.t.to_f64();
    let brute = part_hits(k, pose, ray, solid);
    let eps = tol::<V>() * (1.0 + t);
    let part = h
        .part
        .unwrap_or_else(|| panic!("{}: no part for a hit at {t}", k.name));
    let on = brute[part as usize].unwrap_or_else(|| panic!("{}: part {part} is not hit", k.name));
    assert!(
        (on - t).abs() <= eps,
        "{}: part {part} hit at {on}, not {t}",
        k.name
    );
    if first {
        let earliest = brute.iter().flatten().fold(f64::INFINITY, |m, &x| m.min(x));
        assert!(
            earliest >= t - eps,
            "{}: a part is hit at {earliest} before {t}",
            k.name
        );
    }
}

fn parts_of_hits<V: PartKinds>(seed: u64)
where
    V::S: ConvexPart<V> + Sync,
    V::Any: Sync,
{
    let mut rng = Rng(seed);
    for k in V::kinds(&mut rng) {
        let mut world = World::<V, V::Any>::new();
        let pose = V::pose(&mut rng, 0.5);
        let h = world.insert(k.shape.clone(), pose, Filter::ALL).unwrap();
        // A convex neighbour far away, hit by no ray here but by its own check below.
        let ball = V::Any::from(V::shape(0, &mut rng, 0.5));
        let far = V::Pose::from_translation(V::splat(s::<V>(50.0)));
        let hb = world.insert(ball, far, Filter::ALL).unwrap();
        let mut rays = Vec::new();
        let mut hits = 0;
        for _ in 0..RAYS {
            // Aimed near a random part's origin, from 4 away.
            let (pp, _) = &k.parts[rng.below(k.parts.len())];
            let aim = pose.mul(pp).translation() + rand_vec::<V>(&mut rng, 0.4);
            let origin = aim - rand_unit::<V>(&mut rng) * s::<V>(4.0);
            let ray = Ray::new(origin, aim - origin).unwrap();
            rays.push(ray);
            for solid in [true, false] {
                let hit = world.cast_ray_with(&ray, s::<V>(100.0), solid, Filter::ALL);
                if let Some(hit) = hit.filter(|hit| hit.handle == h) {
                    check_hit(&k, &pose, &ray, &hit, solid, true);
                    hits += usize::from(solid);
                }
            }
            for hit in world.cast_ray_all(&ray, s::<V>(100.0), Filter::ALL) {
                match hit.handle == h {
                    true => check_hit(&k, &pose, &ray, &hit, true, false),
                    false => assert_eq!(hit.part, None, "the ball is convex"),
                }
            }
        }
        assert!(hits >= RAYS / 4, "{}: only {hits} hits", k.name);
        let batch = world.cast_rays(&rays, s::<V>(100.0), Filter::ALL);
        for (ray, hit) in rays.iter().zip(&batch) {
            assert_eq!(*hit, world.cast_ray(ray, s::<V>(100.0), Filter::ALL));
        }
        let at_ball = Ray::new(V::ZERO, V::splat(s::<V>(1.0))).unwrap();
        let convex = world.cast_ray(&at_ball, s::<V>(100.0), Filter::ALL);
        if let Some(c) = convex.filter(|c| c.handle == hb) {
            assert_eq!(c.part, None);
        }
    }
}

#[test]
fn parts_3d_f32() {
    parts_of_hits::<glam::Vec3>(1);
}

#[test]
fn parts_3d_f64() {
    parts_of_hits::<glam::DVec3>(2);
}

#[test]
fn parts_2d_f32() {
    parts_of_hits::<glam::Vec2>(3);
}

#[test]
fn parts_2d_f64() {
    parts_of_hits::<glam::DVec2>(4);
}

#[test]
fn convex_hits_have_no_part() {
    use glam::Vec3;
    use isect::shape::{shape_3d::AnyShape, Ball};
    let mut world = World::<Vec3, AnyShape<f32>>::new();
    let ball = AnyShape::from(isect::shape::shape_3d::Shape::from(
        Ball::new(Vec3::ZERO, 1.0).unwrap(),
    ));
    let h = world.insert(ball, Default::default(), Filter::ALL).unwrap();
    let ray = Ray::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::X).unwrap();
    let hit = world.cast_ray(&ray, 10.0, Filter::ALL).unwrap();
    assert_eq!((hit.handle, hit.part), (h, None));
    assert!((hit.hit.t - 4.0).abs() < 1e-6);
}

/// A heightfield's hit names the triangle whose normal it carries, also at a tie: rays
/// through every corner of every triangle of a field with exact integer heights (each
/// a tie between two to six triangles), through `cast_ray_with` (solid and boundary):
/// the reported part, cast alone, gives the hit's `t` and normal. (The default part
/// search took the lowest tied index while the cell walk keeps the first cell it
/// meets: a vertical ray through a raised peak named one triangle and carried
/// another's normal.)
fn heightfield_ties_name_the_hit_triangle<V: PartKinds>(kind_and_corners: (Kind<V>, Vec<V>))
where
    V::S: ConvexPart<V>,
{
    let (k, corners) = kind_and_corners;
    let mut world = World::<V, V::Any>::new();
    world
        .insert(k.shape.clone(), V::Pose::IDENTITY, Filter::ALL)
        .unwrap();
    let mut checked = 0;
    for (n, &target) in corners.iter().enumerate() {
        let tilt = s::<V>([0.0, 0.25, -0.5][n % 3]);
        let origin = target + V::splat(tilt).with(1, s::<V>(6.0));
        let ray = Ray::new(origin, target - origin).unwrap();
        for solid in [true, false] {
            let Some(hit) = world.cast_ray_with(&ray, s::<V>(100.0), solid, Filter::ALL) else {
                continue;
            };
            let part = hit.part.expect("a heightfield hit has a part") as usize;
            let (pp, shape) = &k.parts[part];
            let own = shape
                .cast_ray_solid(pp, &ray, s::<V>(100.0), solid)
                .unwrap_or_else(|| panic!("ray {n}: part {part} is not hit"));
            let eps = tol::<V>() * 8.0;
            assert!((own.t - hit.hit.t).to_f64().abs() <= eps, "ray {n}: t");
            let off = (own.normal - hit.hit.normal).length().to_f64();
            assert!(
                off <= eps,
                "ray {n}: part {part}'s normal {:?} against the hit's {:?}",
                own.normal,
                hit.hit.normal
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} hits");
}

/// Integer heights over a 5 × 5 grid of spacing 1 (exact coordinates).
fn tie_heights() -> Vec<f64> {
    (0..25).map(|k| ((k * 7 + k / 5 * 3) % 4) as f64).collect()
}

macro_rules! heightfield_ties {
    ($name:ident, $v:ty, $r:ty) => {
        #[test]
        fn $name() {
            let h = tie_heights().into_iter().map(|x| x as $r).collect();
            let hf = HeightField3::<$r>::new(h, 5, 5, <$v>::new(4.0, 1.0, 4.0)).unwrap();
            let corners = (0..hf.triangle_count())
                .flat_map(|i| {
                    let t = hf.triangle(i).unwrap();
                    [t.a, t.b, t.c]
                })
                .collect();
            heightfield_ties_name_the_hit_triangle::<$v>((kind("HeightField", hf), corners));
        }
    };
}

heightfield_ties!(heightfield_ties_name_the_hit_triangle_f32, glam::Vec3, f32);
heightfield_ties!(heightfield_ties_name_the_hit_triangle_f64, glam::DVec3, f64);
