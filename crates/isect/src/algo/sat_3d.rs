//! OBB–OBB by the separating-axis test in 3D: 15 axes (Ericson, *Real-Time Collision
//! Detection*, 4.4.1; seed 001).
//!
//! The candidate axes are A's three face normals, B's three, and the nine cross
//! products `a_i × b_j` of their edge directions. Everything is computed in A's frame
//! from `R[i][j] = a_i · b_j` and the centre offset `t`.
//!
//! Robustness at parallel edges: when `a_i ∥ b_j` the cross product is (nearly) zero
//! and both sides of its test are rounding noise. Following Ericson, the edge-axis
//! tests use `|R| + ε` with `ε = eps(`[`PARALLEL_ULPS`]`)`, so noise can never fake a
//! separation; and an edge axis whose squared length is below `eps(`[`EDGE_AXIS_ULPS`]`)`
//! is skipped rather than normalised (the face axes already decide that case: the
//! problem reduces to the 2D test in the plane across the common edge direction).
//! The face-axis tests use the plain `|R|`, so a box pair that is separated by a face
//! normal is decided exactly up to the rounding of `R` and `t` (aligned boxes one ulp
//! apart are disjoint).
//!
//! The skip threshold is on the squared sine of the angle between the edges, so in
//! `f32` edges within about 7e-4 rad of parallel (2e-8 rad in `f64`) give no axis; for
//! such near-parallel edges the reported depth can exceed the true minimum by about
//! that angle times the box size (the face axes still bound it).
//!
//! The MTV is the axis of the largest normalised gap, oriented from A to B; it is the
//! minimum penetration depth over all 15 axes, measured without the slack (the slack
//! only decides separation, so a gap within it reports depth 0). Touching boxes (gap 0)
//! intersect.

use super::sat_2d::Mtv;
use crate::math::tolerance::eps;
use crate::math::{Real, Rotation3, Vector, Vector3};
use crate::shape::obb_3d::Obb;

/// Ericson's epsilon added to `|R[i][j]|` in the edge-axis separation tests, in
/// machine epsilons. It widens the decision only; depths are measured without it.
pub const PARALLEL_ULPS: f64 = 64.0;
/// An edge axis `a_i × b_j` with squared length below this many machine epsilons is
/// skipped as parallel.
pub const EDGE_AXIS_ULPS: f64 = 4.0;

/// The relative placement of two boxes in A's frame.
struct Frame<R: Real> {
    /// `r[i][j] = a_i · b_j`.
    r: [[R; 3]; 3],
    /// `|r[i][j]|`.
    abs_r: [[R; 3]; 3],
    /// Offset of B's centre in A's frame.
    t: [R; 3],
    ha: [R; 3],
    hb: [R; 3],
}

impl<R: Real> Frame<R> {
    /// The placement of `b` in `a`'s frame, and B's axes in that frame (the columns
    /// of `R`): one relative rotation instead of six world axes and nine dot products.
    #[inline(always)]
    fn new(a: &Obb<R>, b: &Obb<R>) -> (Self, [R::V3; 3]) {
        let qa = a.rotation();
        let cols = qa.inverse().mul(b.rotation()).axes();
        let d = qa.inverse_rotate(b.center() - a.center());
        // Written out: `[0, 1, 2].map(..)` went through `array::try_map` uninlined,
        // a third of this function's instructions.
        let three = |v: R::V3| [v.get(0), v.get(1), v.get(2)];
        let r = [
            [cols[0].get(0), cols[1].get(0), cols[2].get(0)],
            [cols[0].get(1), cols[1].get(1), cols[2].get(1)],
            [cols[0].get(2), cols[1].get(2), cols[2].get(2)],
        ];
        let abs_row = |row: [R; 3]| [row[0].abs(), row[1].abs(), row[2].abs()];
        let frame = Self {
            r,
            abs_r: [abs_row(r[0]), abs_row(r[1]), abs_row(r[2])],
            t: three(d),
            ha: three(a.half_extents()),
            hb: three(b.half_extents()),
        };
        (frame, cols)
    }

    /// Gap along A's face normal `i` and the signed offset along it.
    #[inline(always)]
    fn gap_a(&self, i: usize) -> (R, R) {
        let ar = self.abs_r[i];
        let reach = self.ha[i] + self.hb[0] * ar[0] + self.hb[1] * ar[1] + self.hb[2] * ar[2];
        (self.t[i].abs() - reach, self.t[i])
    }

    /// Gap along B's face normal `j` and the signed offset along it.
    #[inline(always)]
    fn gap_b(&self, j: usize) -> (R, R) {
        let (r, ar, t) = (&self.r, &self.abs_r, &self.t);
        let along = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        let reach =
            self.hb[j] + self.ha[0] * ar[0][j] + self.ha[1] * ar[1][j] + self.ha[2] * ar[2][j];
        (along.abs() - reach, along)
    }

    /// Along `a_i × b_j`: the unnormalised gap with Ericson's slack (which decides
    /// separation), the same gap without slack (which measures depth), the signed
    /// offset, and the squared length of the axis; `None` when the edges are parallel
    /// (see module docs).
    #[inline(always)]
    fn gap_edge(&self, i: usize, j: usize) -> Option<EdgeGap<R>> {
        let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
        let (r, ar, t) = (&self.r, &self.abs_r, &self.t);
        let len_sq = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
        if len_sq <= eps::<R>(EDGE_AXIS_ULPS) {
            return None;
        }
        let along = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        let reach_a = self.ha[i1] * ar[i2][j] + self.ha[i2] * ar[i1][j];
        let reach_b = self.hb[j1] * ar[i][j2] + self.hb[j2] * ar[i][j1];
        let gap = along.abs() - reach_a - reach_b;
        let slack =
            eps::<R>(PARALLEL_ULPS) * (self.ha[i1] + self.ha[i2] + self.hb[j1] + self.hb[j2]);
        Some(EdgeGap {
            decisive: gap - slack,
            gap,
            along,
            len_sq,
        })
    }
}

/// One edge-axis test, see [`Frame::gap_edge`].
struct EdgeGap<R> {
    decisive: R,
    gap: R,
    along: R,
    len_sq: R,
}

/// True when the closed oriented boxes share a point (touching counts). Agrees with
/// [`obb_obb_mtv`]`.is_some()`. Degenerate (zero-extent) boxes are fine.
#[inline]
pub fn intersects_obb_obb<R: Real>(a: &Obb<R>, b: &Obb<R>) -> bool {
    let (f, _) = Frame::new(a, b);
    if (0..3).any(|i| f.gap_a(i).0 > R::ZERO) || (0..3).any(|j| f.gap_b(j).0 > R::ZERO) {
        return false;
    }
    !(0..9).any(|k| {
        f.gap_edge(k / 3, k % 3)
            .is_some_and(|g| g.decisive > R::ZERO)
    })
}

/// The minimum translation vector of two overlapping (or touching) oriented boxes, or
/// `None` when they are disjoint. For concentric boxes the axis takes the `+` side.
pub fn obb_obb_mtv<R: Real>(a: &Obb<R>, b: &Obb<R>) -> Option<Mtv<R::V3>> {
    let (f, cols) = Frame::new(a, b);
    mtv_in_frame(a, &f, &cols)
}

/// [`obb_obb_mtv`] warm-started by the SAT axis `axis` ([`OBB_AXES`]) that separated
/// the boxes at the last query: `None` when that axis alone still proves them farther
/// apart than `distance` (as [`obb_axis_separates`]; no contact within `distance`),
/// or else when the widest of the six face axes does (then `axis` becomes it); else
/// `Some(obb_obb_mtv(a, b))`, with `axis` set to the axis separating them now
/// ([`obb_separating_axis`]) or to [`OBB_AXES`] when they touch. One relative frame
/// serves all the tests.
///
/// ```
/// use isect::algo::sat_3d::{obb_obb_mtv, obb_obb_mtv_warm, OBB_AXES};
/// use isect::d3::*;
///
/// # fn main() -> Result<(), ShapeError> {
/// let a = Obb::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY)?;
/// let b = Obb::new(Vec3::new(3.0, 0.5, 0.0), Vec3::ONE, Quat::from_rotation_z(0.4))?;
/// let mut axis = OBB_AXES; // nothing cached: a face axis proves them apart
/// assert_eq!(obb_obb_mtv_warm(&a, &b, 0.0, &mut axis), None);
/// assert_eq!(axis, 0); // A's x face normal
/// // The next frame, still apart along it: one axis decides.
/// let b = Obb::new(Vec3::new(2.9, 0.5, 0.0), Vec3::ONE, Quat::from_rotation_z(0.4))?;
/// assert_eq!(obb_obb_mtv_warm(&a, &b, 0.0, &mut axis), None);
/// // Touching: the answer of the full test, and nothing cached.
/// let b = Obb::new(Vec3::new(1.5, 0.5, 0.0), Vec3::ONE, Quat::from_rotation_z(0.4))?;
/// assert_eq!(obb_obb_mtv_warm(&a, &b, 0.0, &mut axis), Some(obb_obb_mtv(&a, &b)));
/// assert_eq!(axis, OBB_AXES);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn obb_obb_mtv_warm<R: Real>(
    a: &Obb<R>,
    b: &Obb<R>,
    distance: R,
    axis: &mut u32,
) -> Option<Option<Mtv<R::V3>>> {
    let (f, cols) = Frame::new(a, b);
    if *axis < OBB_AXES && f.proves_apart(*axis, distance) {
        return None;
    }
    // The six face axes are cheap next to the nine edge axes: the widest of them
    // proving the boxes apart ends the test as the cached axis would (Ericson 4.4.1's
    // early exit), and becomes the cached axis.
    let faces = face_gaps(&f);
    let gap = |k: usize| {
        if k < 3 {
            faces.0[k].0
        } else {
            faces.1[k - 3].0
        }
    };
    let mut face = 0;
    for k in 1..6 {
        if gap(k) > gap(face) {
            face = k;
        }
    }
    if f.proves_apart(face as u32, distance) {
        *axis = face as u32;
        return None;
    }
    let (mtv, widest) = scan(a, &f, &cols, faces);
    *axis = match mtv {
        Some(_) => OBB_AXES,
        None => widest.unwrap_or(OBB_AXES),
    };
    Some(mtv)
}

/// The body of [`obb_obb_mtv`] on the relative frame `f` of the boxes (B's axes
/// `cols` in A's frame).
#[inline(always)]
fn mtv_in_frame<R: Real>(a: &Obb<R>, f: &Frame<R>, cols: &[R::V3; 3]) -> Option<Mtv<R::V3>> {
    scan(a, f, cols, face_gaps(f)).0
}

/// The gaps (and signed offsets) of the boxes along A's and B's face axes.
type FaceGaps<R> = ([(R, R); 3], [(R, R); 3]);

/// [`FaceGaps`] of the relative frame `f`, computed once for the warm early exit and
/// the scan.
#[inline(always)]
fn face_gaps<R: Real>(f: &Frame<R>) -> FaceGaps<R> {
    (
        [f.gap_a(0), f.gap_a(1), f.gap_a(2)],
        [f.gap_b(0), f.gap_b(1), f.gap_b(2)],
    )
}

/// One pass over the 15 axes giving both [`obb_obb_mtv`]'s answer and, when the boxes
/// are apart, the separating axis of largest normalised gap
/// ([`Frame::widest_separating_axis`]), each as the separate tests give it: the same
/// gaps, compared in the same order with the same strict `>`. An edge axis is
/// normalised only when it wins (the tests normalise every one).
#[inline(always)]
fn scan<R: Real>(
    a: &Obb<R>,
    f: &Frame<R>,
    cols: &[R::V3; 3],
    (ga, gb): FaceGaps<R>,
) -> (Option<Mtv<R::V3>>, Option<u32>) {
    // The MTV's largest gap so far: (gap, axis index k, signed offset along it); the
    // faces in the order A0, B0, A1, B1, A2, B2, then the edges.
    let mut best = (R::NEG_INFINITY, OBB_AXES, R::ZERO);
    for i in 0..3 {
        if ga[i].0 > best.0 {
            best = (ga[i].0, i as u32, ga[i].1);
        }
        if gb[i].0 > best.0 {
            best = (gb[i].0, 3 + i as u32, gb[i].1);
        }
    }
    // The widest separating axis, in axis order (faces of A, of B, then edges).
    let mut widest: Option<(R, u32)> = None;
    let mut widen = |gap: R, k: u32| {
        if gap > R::ZERO && widest.is_none_or(|(w, _)| gap > w) {
            widest = Some((gap, k));
        }
    };
    for (k, g) in ga.iter().chain(&gb).enumerate() {
        widen(g.0, k as u32);
    }
    let mut edge_separates = false;
    for k in 0..9 {
        if let Some(g) = f.gap_edge(k / 3, k % 3) {
            let decisive = g.decisive > R::ZERO;
            edge_separates |= decisive;
            let gap = g.gap / g.len_sq.sqrt();
            if gap > best.0 {
                best = (gap, 6 + k as u32, g.along);
            }
            if decisive {
                widen(gap, 6 + k as u32);
            }
        }
    }
    let face_separates = ga.iter().chain(&gb).any(|g| g.0 > R::ZERO);
    let widest = widest.map(|(_, k)| k);
    if face_separates || edge_separates {
        return (None, widest);
    }
    let sign = R::ONE.copysign(best.2);
    let axis = match best.1 {
        k @ 0..=2 => R::V3::unit_axis(k as usize) * sign,
        k @ 3..=5 => cols[k as usize - 3] * sign,
        k @ 6..=14 => {
            let (i, j) = ((k as usize - 6) / 3, (k as usize - 6) % 3);
            let axis = R::V3::unit_axis(i).cross(cols[j]);
            axis * axis.length().recip() * sign
        }
        _ => R::V3::ZERO,
    };
    let mtv = Mtv {
        axis: a.rotation().rotate(axis),
        depth: (-best.0).max(R::ZERO),
    };
    (Some(mtv), widest)
}

/// SAT axes of a box pair: A's 3 face normals (`k = 0..3`), B's 3 (`k = 3..6`) and
/// the 9 edge cross products `a_i × b_j` (`k = 6 + 3i + j`). The index of the axis
/// that separated a pair is what a warm start keeps from one frame to the next
/// ([`crate::query::dispatch::ContactCache`]).
pub const OBB_AXES: u32 = 15;

/// Rounding allowed, in machine epsilons of the pair's scale (the half extents plus
/// the centres' offset), when a single SAT axis proves two boxes farther apart than a
/// distance: wider than the manifold's touch band and GJK's separation slack, so a
/// pair the full query would report (within the prediction) is never dropped.
pub const AXIS_PROOF_ULPS: f64 = 1024.0;

impl<R: Real> Frame<R> {
    /// The normalised gap along axis `k` (see [`OBB_AXES`]) when it decides
    /// separation as the full test does (a face gap above 0, an edge gap above its
    /// slack); `None` for an axis that does not separate or a parallel edge axis.
    #[inline(always)]
    fn separating_gap(&self, k: u32) -> Option<R> {
        let gap = match k {
            0..=2 => self.gap_a(k as usize).0,
            3..=5 => self.gap_b(k as usize - 3).0,
            _ => {
                let g = self.gap_edge((k as usize - 6) / 3, (k as usize - 6) % 3)?;
                // NaN decides nothing: `> 0` is false for it.
                let decisive = g.decisive > R::ZERO;
                decisive.then(|| g.gap / g.len_sq.sqrt())?
            }
        };
        (gap > R::ZERO).then_some(gap)
    }

    /// True when axis `k` alone proves the boxes farther apart than `distance`, with
    /// [`AXIS_PROOF_ULPS`] of rounding to spare.
    #[inline(always)]
    fn proves_apart(&self, k: u32, distance: R) -> bool {
        let allowance = eps::<R>(AXIS_PROOF_ULPS) * self.scale();
        self.separating_gap(k)
            .is_some_and(|gap| gap > distance.max(R::ZERO) + allowance)
    }

    /// The separating axis of largest normalised gap, `None` when none separates.
    fn widest_separating_axis(&self) -> Option<u32> {
        let mut best: Option<(R, u32)> = None;
        for k in 0..OBB_AXES {
            if let Some(gap) = self.separating_gap(k) {
                if best.is_none_or(|(g, _)| gap > g) {
                    best = Some((gap, k));
                }
            }
        }
        best.map(|(_, k)| k)
    }

    /// The pair's scale for [`AXIS_PROOF_ULPS`].
    #[inline(always)]
    fn scale(&self) -> R {
        let sum = |v: &[R; 3]| v[0].abs() + v[1].abs() + v[2].abs();
        sum(&self.ha) + sum(&self.hb) + sum(&self.t)
    }
}

/// True when SAT axis `k` ([`OBB_AXES`]) alone proves the boxes farther apart than
/// `distance` (≥ 0), with [`AXIS_PROOF_ULPS`] of rounding to spare: then
/// [`obb_obb_mtv`] finds them apart and no contact within `distance` exists. The
/// warm start's test: one axis instead of fifteen (Ericson 4.4.1's early exit, started
/// from the axis that separated the pair at the last frame). False for `k ≥ 15`.
#[inline]
pub fn obb_axis_separates<R: Real>(a: &Obb<R>, b: &Obb<R>, k: u32, distance: R) -> bool {
    if k >= OBB_AXES {
        return false;
    }
    Frame::new(a, b).0.proves_apart(k, distance)
}

/// The SAT axis ([`OBB_AXES`]) that separates the boxes by the largest normalised
/// gap, `None` when they touch or overlap (then [`obb_obb_mtv`] is `Some`).
pub fn obb_separating_axis<R: Real>(a: &Obb<R>, b: &Obb<R>) -> Option<u32> {
    Frame::new(a, b).0.widest_separating_axis()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation3;

    fn obb<R: Real>(c: [f64; 3], h: [f64; 3], axis: [f64; 3], angle: f64, scale: f64) -> Obb<R> {
        let v = |p: [f64; 3], s: f64| {
            R::V3::new(
                R::from_f64(p[0] * s),
                R::from_f64(p[1] * s),
                R::from_f64(p[2] * s),
            )
        };
        let q = R::Quat::from_axis_angle(v(axis, 1.0), R::from_f64(angle));
        Obb::new(v(c, scale), v(h, scale), q).unwrap()
    }

    fn close<R: Real>(a: R, b: f64, tol: f64) -> bool {
        (a.to_f64() - b).abs() <= tol
    }

    fn edge_cases<R: Real>(s: f64, tol: f64) {
        let z = [0.0, 0.0, 1.0];
        let a = obb::<R>([0.0; 3], [1.0; 3], z, 0.0, s);
        // Face to face, exactly touching.
        let m = obb_obb_mtv(&a, &obb([2.0, 0.3, 0.0], [1.0; 3], z, 0.0, s)).unwrap();
        assert!(close(m.depth, 0.0, tol) && close(m.axis.get(0), 1.0, 1e-6));
        // Aligned (all edges parallel) overlap of 0.25 along z.
        let m = obb_obb_mtv(&a, &obb([0.2, 0.1, -1.75], [1.0; 3], z, 0.0, s)).unwrap();
        assert!(close(m.depth, 0.25 * s, tol) && close(m.axis.get(2), -1.0, 1e-6));
        // Identical boxes: depth is the full width 2.
        assert!(close(obb_obb_mtv(&a, &a).unwrap().depth, 2.0 * s, tol));
        // Containment: a small box inside, pushed out through the nearest face (+y, 0.8 + 0.1).
        let m = obb_obb_mtv(&a, &obb([0.0, 0.8, 0.0], [0.1; 3], z, 0.0, s)).unwrap();
        assert!(close(m.depth, 0.3 * s, tol) && close(m.axis.get(1), 1.0, 1e-6));
        // Edge–edge: A's +x edge (along z) crosses B's −x edge (along y) head-on.
        let (ea, eb) = edge_on_edge::<R>(s, 0.1);
        let m = obb_obb_mtv(&ea, &eb).unwrap();
        assert!(close(m.depth, 0.1 * s, tol * 10.0) && close(m.axis.get(0), 1.0, 1e-5));
        let (ea, eb) = edge_on_edge::<R>(s, -0.01);
        assert!(!intersects_obb_obb(&ea, &eb) && obb_obb_mtv(&ea, &eb).is_none());
        // Zero-extent box (a point) on a corner touches, just beyond does not.
        assert!(intersects_obb_obb(
            &a,
            &obb([1.0, 1.0, 1.0], [0.0; 3], z, 0.0, s)
        ));
        assert!(!intersects_obb_obb(
            &a,
            &obb([1.0, 1.0, 1.001], [0.0; 3], z, 0.0, s)
        ));
    }

    /// Two unit-half cubes: A turned 45° about z (its +x extreme is an edge along z at
    /// x = √2), B turned 45° about y (its −x extreme is an edge along y at √2 before its
    /// centre), placed so the edges overlap by `overlap` along x.
    fn edge_on_edge<R: Real>(s: f64, overlap: f64) -> (Obb<R>, Obb<R>) {
        let quarter = core::f64::consts::FRAC_PI_4;
        let a = obb::<R>([0.0; 3], [1.0; 3], [0.0, 0.0, 1.0], quarter, s);
        let b = obb::<R>(
            [2.0 * 2f64.sqrt() - overlap, 0.0, 0.0],
            [1.0; 3],
            [0.0, 1.0, 0.0],
            quarter,
            s,
        );
        (a, b)
    }

    // Touching, parallel, identical, contained, edge-on-edge, point boxes; 1, 1e5 and 1e-4 scales.
    #[test]
    fn obb_3d_edge_cases() {
        for s in [1.0, 1e5, 1e-4] {
            edge_cases::<f32>(s, 2e-5 * s);
            edge_cases::<f64>(s, 1e-12 * s);
        }
    }

    // Aligned boxes one ulp apart along x are disjoint (face axes carry no slack).
    #[test]
    fn one_ulp_gap() {
        let a = obb::<f32>([0.0; 3], [1.0; 3], [0.0, 0.0, 1.0], 0.0, 1.0);
        let next = f32::from_bits(2.0f32.to_bits() + 1) as f64;
        let b = obb::<f32>([next, 0.0, 0.0], [1.0; 3], [0.0, 0.0, 1.0], 0.0, 1.0);
        assert!(!intersects_obb_obb(&a, &b) && obb_obb_mtv(&a, &b).is_none());
    }

    #[test]
    fn separating_axis_agrees_with_mtv() {
        let z = [0.0, 0.0, 1.0];
        let diag = [1.0, 1.0, 0.0];
        let a = obb::<f64>([0.0; 3], [1.0, 0.5, 0.7], z, 0.3, 1.0);
        // Apart along a face, apart along an edge cross, overlapping.
        for (c, axis, angle) in [
            ([2.6, 0.0, 0.0], z, 0.0),
            ([1.7, 1.7, 1.9], diag, 0.9),
            ([1.0, 0.2, 0.0], z, 0.4),
        ] {
            let b = obb::<f64>(c, [0.6, 0.4, 0.8], axis, angle, 1.0);
            let k = obb_separating_axis(&a, &b);
            assert_eq!(k.is_none(), obb_obb_mtv(&a, &b).is_some(), "{c:?}");
            if let Some(k) = k {
                assert!(obb_axis_separates(&a, &b, k, 0.0));
                assert!(!obb_axis_separates(&a, &b, k, 10.0)); // not that far
            }
            assert!(!obb_axis_separates(&a, &b, OBB_AXES, 0.0));
        }
    }
}
