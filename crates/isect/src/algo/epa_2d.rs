//! EPA in 2D: polygon expansion from GJK's simplex. See [`super::epa`] for the
//! reference, tolerances and the fallback.

use super::epa::{epa_rel_tolerance, Fallback, Penetration, EPA_BLOW_UP_ULPS, EPA_MAX_ITERATIONS};
use super::gjk::{segment_weights, MinkowskiDiff, Simplex, Status, SupportPoint};
use super::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Real, Vector, Vector2};

/// Penetration of the cores, from a GJK simplex that encloses or touches the origin.
pub(crate) fn penetration<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V2, A, B>,
    simplex: &Simplex<R::V2>,
) -> Penetration<R::V2>
where
    R: Real,
    A: SupportMap<R::V2> + ?Sized,
    B: SupportMap<R::V2> + ?Sized,
{
    let mut polygon = match blow_up::<R, A, B>(diff, simplex) {
        Ok(triangle) => triangle,
        Err(answer) => return answer,
    };
    let mut size = polygon.iter().fold(R::ZERO, |m, p| m.max(p.w.length()));
    let mut fallback: Option<Fallback<R::V2>> = None;
    for iteration in 1..=EPA_MAX_ITERATIONS {
        let Some((edge, normal, dist)) = nearest_edge::<R>(&polygon) else {
            break;
        };
        let p = diff.support(normal);
        let fb = fallback.get_or_insert(Fallback::new(normal, p));
        fb.offer(normal, p);
        size = size.max(p.w.length());
        if normal.dot(p.w) - dist <= epa_rel_tolerance::<R>() * size {
            let next = (edge + 1) % polygon.len();
            return from_edge::<R>(&polygon[edge], &polygon[next], normal, dist, iteration);
        }
        polygon.insert(edge + 1, p);
    }
    match fallback {
        Some(fb) => fb.answer(Status::MaxIterations, EPA_MAX_ITERATIONS),
        None => degenerate_point::<R, A, B>(diff),
    }
}

/// The edge of the counter-clockwise polygon nearest the origin: its first
/// vertex, outward unit normal and distance. `None` when every edge is degenerate.
fn nearest_edge<R: Real>(polygon: &[SupportPoint<R::V2>]) -> Option<(usize, R::V2, R)> {
    let mut best: Option<(usize, R::V2, R)> = None;
    for i in 0..polygon.len() {
        let a = polygon[i].w;
        let b = polygon[(i + 1) % polygon.len()].w;
        // Outward normal of a counter-clockwise edge: the edge turned clockwise.
        let Some(normal) = (-(b - a).perp()).try_normalize() else {
            continue;
        };
        let dist = normal.dot(a);
        if best.is_none_or(|(_, _, d)| dist < d) {
            best = Some((i, normal, dist));
        }
    }
    best
}

/// The answer from the converged edge `a b`: the origin's projection on it, split
/// into the witness points of A and B.
fn from_edge<R: Real>(
    a: &SupportPoint<R::V2>,
    b: &SupportPoint<R::V2>,
    normal: R::V2,
    dist: R,
    iterations: u32,
) -> Penetration<R::V2> {
    let q = normal * dist;
    let [s, t] = segment_weights(a.w - q, b.w - q);
    Penetration {
        depth: dist,
        normal,
        point_a: a.a * s + b.a * t,
        point_b: a.b * s + b.b * t,
        status: Status::Converged,
        iterations,
    }
}

/// Grows GJK's simplex to a counter-clockwise triangle, or answers directly when
/// `A − B` is a point or a segment (flat: no unique normal).
fn blow_up<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V2, A, B>,
    simplex: &Simplex<R::V2>,
) -> Result<Vec<SupportPoint<R::V2>>, Penetration<R::V2>>
where
    R: Real,
    A: SupportMap<R::V2> + ?Sized,
    B: SupportMap<R::V2> + ?Sized,
{
    let mut points: Vec<SupportPoint<R::V2>> = Vec::with_capacity(8 + EPA_MAX_ITERATIONS as usize);
    points.extend_from_slice(&simplex.points[..simplex.len.clamp(1, 3)]);
    if points.len() == 3 {
        orient_ccw::<R>(&mut points);
        return Ok(points);
    }
    let tol = eps::<R>(EPA_BLOW_UP_ULPS) * axis_size::<R, A, B>(diff);
    if points.len() == 1 {
        let first = points[0];
        let axes = [0, 1].map(R::V2::unit_axis);
        let found = axes
            .iter()
            .flat_map(|&d| [d, -d])
            .map(|d| diff.support(d))
            .find(|p| p.w.distance(first.w) > tol);
        match found {
            Some(p) => points.push(p),
            None => return Err(degenerate_point::<R, A, B>(diff)),
        }
    }
    if points.len() == 2 {
        let (w0, w1) = (points[0].w, points[1].w);
        let Some(n) = (w1 - w0).perp().try_normalize() else {
            return Err(degenerate_point::<R, A, B>(diff));
        };
        let (up, down) = (diff.support(n), diff.support(-n));
        let (h_up, h_down) = (n.dot(up.w - w0), -n.dot(down.w - w0));
        if h_up.max(h_down) <= tol {
            // `A − B` is a segment through the origin: touching, with no unique normal.
            let mut fb = Fallback::new(n, up);
            fb.offer(-n, down);
            return Err(fb.answer(Status::Degenerate, 2));
        }
        points.push(if h_up >= h_down { up } else { down });
    }
    orient_ccw::<R>(&mut points);
    Ok(points)
}

/// Makes the triangle counter-clockwise.
fn orient_ccw<R: Real>(points: &mut [SupportPoint<R::V2>]) {
    if (points[1].w - points[0].w).perp_dot(points[2].w - points[0].w) < R::ZERO {
        points.swap(1, 2);
    }
}

/// `A − B` is a single point (e.g. coincident ball centres): no normal is defined;
/// answer along +x with `Status::Degenerate`.
fn degenerate_point<R, A, B>(diff: &MinkowskiDiff<'_, R::V2, A, B>) -> Penetration<R::V2>
where
    R: Real,
    A: SupportMap<R::V2> + ?Sized,
    B: SupportMap<R::V2> + ?Sized,
{
    let n = R::V2::unit_axis(0);
    Penetration::from_support(n, &diff.support(n), Status::Degenerate, 1)
}

/// The size of `A − B` along the axes: the scale of the blow-up tolerance.
fn axis_size<R, A, B>(diff: &MinkowskiDiff<'_, R::V2, A, B>) -> R
where
    R: Real,
    A: SupportMap<R::V2> + ?Sized,
    B: SupportMap<R::V2> + ?Sized,
{
    (0..2).fold(R::ZERO, |m, i| {
        let d = R::V2::unit_axis(i);
        m.max(diff.support(d).w.abs().max_element())
            .max(diff.support(-d).w.abs().max_element())
    })
}
