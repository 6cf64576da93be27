//! The capsule–box overlap's centre test ([`CapsuleBoxTest::centre_settles`]) never
//! changes the answer of the exact test behind it: pairs placed across the edges of
//! both of its decisions, at gaps from a few `ε` to a few margins, in 2D and 3D, `f32`
//! and `f64`, at scales 1e-6 to 1e6 and far from the origin, and at scales whose
//! squares are subnormal, against turned and unturned boxes; and the edge axes of the
//! exact test's early-out never part a pair whose squares underflow.

use super::{CapsuleBoxTest, CENTRE_SETTLES_ULPS};
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose2, Pose3, Real, Vector};
use crate::query::distance::segment_in;
use crate::shape::{Aabb, Capsule};

/// A small seeded generator (xorshift64*), uniform in `[lo, hi)`.
struct Rng(u64);

impl Rng {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let unit = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }

    fn vector<V: Vector>(&mut self, size: f64) -> V {
        (0..V::DIM).fold(V::ZERO, |v, i| {
            v.with(i, V::Scalar::from_f64(self.range(-size, size)))
        })
    }

    fn direction<V: Vector>(&mut self) -> V {
        loop {
            let v: V = self.vector(1.0);
            let length = v.length();
            if length.to_f64() > 0.1 {
                return v * (V::Scalar::ONE / length);
            }
        }
    }
}

/// Which side of the centre test a pair is placed at.
#[derive(Copy, Clone, Debug)]
enum Edge {
    /// The centre `half length + radius + gap` off the box, its axis pointing at it:
    /// the segment's end comes within about `gap` of the radius.
    Apart,
    /// The centre `radius + gap` off the box, its axis along the box's surface.
    Within,
}

/// How many pairs the centre settled apart, settled overlapping, and left to the
/// exact test; panics where its answer differs from the exact test's.
fn check_edges<V: Vector>(
    turn: impl Fn(&mut Rng) -> V::Pose,
    scales: &[f64],
    offsets: &[f64],
) -> [usize; 3] {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut counts = [0; 3];
    let gaps = [-4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0];
    for &scale in scales {
        for &offset in offsets {
            for case in 0..200 {
                let edge = if case % 2 == 0 {
                    Edge::Apart
                } else {
                    Edge::Within
                };
                let centre_of_box: V = rng.vector(scale);
                let half_extents =
                    rng.vector::<V>(scale).abs() + V::splat(V::Scalar::from_f64(0.1 * scale));
                let b =
                    Aabb::new(centre_of_box - half_extents, centre_of_box + half_extents).unwrap();
                let (h, r) = (rng.range(0.05, 2.0) * scale, rng.range(0.001, 1.0) * scale);
                // A point of the box's surface (face, edge or corner) and its outward normal.
                let far = centre_of_box + rng.direction::<V>() * V::Scalar::from_f64(10.0 * scale);
                let surface = b.closest_point(far);
                let normal = (far - surface) * (V::Scalar::ONE / (far - surface).length());
                let (axis, reach) = match edge {
                    Edge::Apart => (normal + rng.vector::<V>(1e-3 * (case % 3) as f64), h + r),
                    Edge::Within => {
                        let d: V = rng.direction();
                        (d - normal * d.dot(normal), r)
                    }
                };
                if axis.length().to_f64() < 0.1 {
                    continue;
                }
                let axis = axis * (V::Scalar::from_f64(h) / axis.length());
                let magnitude = (surface.abs().max_element()
                    + b.max.abs().max(b.min.abs()).max_element())
                .to_f64()
                    + h
                    + r;
                let margin = eps::<V::Scalar>(CENTRE_SETTLES_ULPS).to_f64() * magnitude;
                let ulp = eps::<V::Scalar>(1.0).to_f64() * magnitude;
                let clear = [-0.1, -1e-3, 1e-3, 0.1].map(|k| k * scale);
                for gap in gaps
                    .iter()
                    .flat_map(|&k| [k * margin, k * ulp])
                    .chain(clear)
                {
                    let centre = surface + normal * V::Scalar::from_f64(reach + gap);
                    let pose_b = if case % 4 < 2 {
                        V::Pose::IDENTITY
                    } else {
                        turn(&mut rng)
                    }
                    .with_translation(rng.vector(offset * scale));
                    let pose_a = turn(&mut rng).with_translation(pose_b.transform_point(centre));
                    let half = pose_a.inverse_transform_vector(pose_b.transform_vector(axis));
                    let capsule = Capsule::new(-half, half, V::Scalar::from_f64(r)).unwrap();
                    let test = CapsuleBoxTest::new(&capsule, &b);
                    let exact = test.segment_overlaps(&segment_in(&pose_a, &capsule, &pose_b));
                    let centre_in_box = crate::query::distance::origin_in(&pose_a, &pose_b);
                    let settled = test.centre_settles(centre_in_box);
                    counts[match settled {
                        Some(false) => 0,
                        Some(true) => 1,
                        None => 2,
                    }] += 1;
                    assert_eq!(
                        test.intersects(&pose_a, &pose_b),
                        exact,
                        "{edge:?} gap {gap:e} scale {scale:e} offset {offset:e} case {case}: \
                         the centre settled {settled:?}"
                    );
                }
            }
        }
    }
    counts
}

/// Each decision of the centre test is taken a thousand times or more, and so is the
/// band left to the exact test.
fn assert_all_reached(counts: [usize; 3]) {
    assert!(
        counts.iter().all(|&n| n >= 1000),
        "apart, within, band: {counts:?}"
    );
}

fn quaternion_turn<R: Real>(rng: &mut Rng) -> Pose3<R> {
    use crate::math::Rotation3;
    let axis: R::V3 = rng.direction();
    let angle = R::from_f64(rng.range(-3.2, 3.2));
    Pose3::new(R::V3::ZERO, R::Quat::from_axis_angle(axis, angle))
}

fn angle_turn<R: Real>(rng: &mut Rng) -> Pose2<R> {
    Pose2::new(R::V2::ZERO, R::from_f64(rng.range(-3.2, 3.2)))
}

/// Scales of each precision: ordinary ones, and ones whose squares are subnormal
/// (where the review of session 27 found the centre deciding against the exact test).
const SCALES_F64: [f64; 5] = [1e-6, 1.0, 1e6, 1e-150, 1e-160];
const SCALES_F32: [f64; 5] = [1e-6, 1.0, 1e6, 1e-19, 1e-21];

#[test]
fn the_centre_settles_as_the_exact_test_answers_3d() {
    let f64_pairs =
        check_edges::<glam::DVec3>(quaternion_turn::<f64>, &SCALES_F64, &[0.0, 1e3, 1e7]);
    assert_all_reached(f64_pairs);
    assert_all_reached(check_edges::<glam::Vec3>(
        quaternion_turn::<f32>,
        &SCALES_F32,
        &[0.0, 1e3],
    ));
}

#[test]
fn the_centre_settles_as_the_exact_test_answers_2d() {
    assert_all_reached(check_edges::<glam::DVec2>(
        angle_turn::<f64>,
        &SCALES_F64,
        &[0.0, 1e3, 1e7],
    ));
    assert_all_reached(check_edges::<glam::Vec2>(
        angle_turn::<f32>,
        &SCALES_F32,
        &[0.0, 1e3],
    ));
}

/// Pairs the review of session 27 found: a capsule whose half axis is so short that
/// its edge axes' squares underflow in `f32` was read as apart from a box it reaches
/// (the exact test's early-out, older than the centre test). Each overlaps: the
/// capsule's segment lies within its radius of the box.
#[test]
fn edge_axes_of_a_vanishing_segment_part_nothing() {
    use glam::{Quat, Vec2, Vec3};
    let square = Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0)).unwrap();
    let at = Pose2::new(Vec2::new(0.0, 6.0), 0.0);
    let centred = Capsule::new(Vec2::new(-1e-23, 0.0), Vec2::new(1e-23, 0.0), 10.0).unwrap();
    let offset = Capsule::new(Vec2::ZERO, Vec2::new(2e-23, 0.0), 10.0).unwrap();
    for capsule in [centred, offset] {
        let test = CapsuleBoxTest::new(&capsule, &square);
        assert!(test.intersects(&at, &Pose2::IDENTITY), "{capsule:?}");
        assert!(test.segment_overlaps(&segment_in(&at, &capsule, &Pose2::IDENTITY)));
    }

    let half = Vec3::new(5.3006284e-16, 1.313714e-15, 3.881097e-16);
    let capsule = Capsule::new(-half, half, 1.317748).unwrap();
    let extents = Vec3::new(6.985366e-5, 9.1524195e-4, 5.260535e-4);
    let b = Aabb::new(-extents, extents).unwrap();
    let rotation = Quat::from_xyzw(0.3162807, 0.35578874, -0.43929076, 0.7618428);
    let at = Pose3::new(Vec3::new(1.3176568, 0.0, 0.0), rotation);
    let test = CapsuleBoxTest::new(&capsule, &b);
    assert!(test.segment_overlaps(&segment_in(&at, &capsule, &Pose3::IDENTITY)));
    assert!(test.intersects(&at, &Pose3::IDENTITY));
}
