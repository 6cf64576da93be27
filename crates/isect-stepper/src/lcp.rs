//! The exact solution of one manifold's normal impulses together (a block solver):
//! the small linear complementarity problem "find `x ≥ 0` with `w = K x + c ≥ 0` and
//! `x_j · w_j = 0`" for at most [`MAX`] unknowns, by enumerating which impulses are
//! active, the largest sets first: Box2D v2's two-point block solver
//! (`b2ContactSolver::SolveVelocityConstraints`, after Murty's direct enumeration),
//! extended to the four points of a 3D face contact.
//!
//! Solving a manifold's points one after the other instead (plain Gauss–Seidel) leaves
//! a bias that depends on their order: four points around a face, always visited in
//! the same circular order, drive a tall stack around its base a little every step.
//!
//! Four coplanar points share a load in many ways (their matrix has rank 3): when all
//! the points together make a singular system, the diagonal is raised by
//! [`REGULARIZATION`] of itself, which picks the most even split and keeps every solve
//! well posed. Other problems (one point, two in 2D) are solved exactly.

/// Most unknowns: the points of a 3D manifold.
pub const MAX: usize = 4;

/// Relative increase of the diagonal of `K` (dimensionless): a compliance of a
/// millionth of each point's own effective mass.
pub const REGULARIZATION: f64 = 1e-6;

/// Below this fraction of the largest diagonal entry a pivot counts as zero.
const PIVOT_TOLERANCE: f64 = 1e-12;

/// Allowed violation of `x ≥ 0` and `w ≥ 0`, relative to the problem's scale.
const FEASIBLE_TOLERANCE: f64 = 1e-9;

/// A square matrix of at most [`MAX`] rows.
pub type Matrix = [[f64; MAX]; MAX];

/// Every active set of [`MAX`] unknowns (bit `j`: impulse `j` active), the largest
/// first.
const SETS: [u32; 16] = [
    0b1111, 0b0111, 0b1011, 0b1101, 0b1110, 0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100, 0b0001,
    0b0010, 0b0100, 0b1000, 0b0000,
];

/// The solution `x` of the problem of the first `n` rows of `k` and `c` (the diagonal
/// of `k` raised by [`REGULARIZATION`] when the `n` rows are singular), or `None` when
/// no active set is feasible (a degenerate problem; the caller falls back to
/// point-by-point passes).
///
/// # Panics
/// When `n > MAX`.
pub fn solve(n: usize, k: &Matrix, c: &[f64; MAX]) -> Option<[f64; MAX]> {
    assert!(n <= MAX, "at most {MAX} unknowns");
    let mut k = *k;
    if solve_active(n, &k, c, (1 << n) - 1).is_none() {
        for (i, row) in k.iter_mut().enumerate().take(n) {
            row[i] *= 1.0 + REGULARIZATION;
        }
    }
    let scale = c[..n].iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let tolerance = FEASIBLE_TOLERANCE * scale.max(f64::MIN_POSITIVE);
    SETS.iter().filter(|&&set| set >> n == 0).find_map(|&set| {
        let x = solve_active(n, &k, c, set)?;
        feasible(n, &k, c, &x, tolerance).then(|| x.map(|v| v.max(0.0)))
    })
}

/// `x` with `(K x + c)_j = 0` for the rows `j` in `set` and `x_j = 0` elsewhere;
/// `None` when that subsystem is singular.
fn solve_active(n: usize, k: &Matrix, c: &[f64; MAX], set: u32) -> Option<[f64; MAX]> {
    let mut rows = [0; MAX];
    let mut m = 0;
    for j in (0..n).filter(|j| set & (1 << j) != 0) {
        rows[m] = j;
        m += 1;
    }
    let rows = &rows[..m];
    let mut a = [[0.0; MAX + 1]; MAX];
    for (i, &r) in rows.iter().enumerate() {
        for (j, &s) in rows.iter().enumerate() {
            a[i][j] = k[r][s];
        }
        a[i][m] = -c[r];
    }
    let largest = (0..n).fold(0.0_f64, |v, j| v.max(k[j][j].abs()));
    let solved = gauss(&mut a, m, PIVOT_TOLERANCE * largest)?;
    let mut x = [0.0; MAX];
    for (i, &r) in rows.iter().enumerate() {
        x[r] = solved[i];
    }
    Some(x)
}

/// True when `x ≥ 0` and `K x + c ≥ 0` within `tolerance`.
fn feasible(n: usize, k: &Matrix, c: &[f64; MAX], x: &[f64; MAX], tolerance: f64) -> bool {
    (0..n).all(|i| {
        let w: f64 = c[i] + (0..n).map(|j| k[i][j] * x[j]).sum::<f64>();
        x[i] >= -tolerance && w >= -tolerance
    })
}

/// Gaussian elimination with partial pivoting of the `m × (m + 1)` augmented matrix
/// `a`; `None` for a pivot at most `tiny`.
fn gauss(a: &mut [[f64; MAX + 1]; MAX], m: usize, tiny: f64) -> Option<[f64; MAX]> {
    for col in 0..m {
        let pivot = (col..m).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        // Written so that a NaN pivot also counts as zero.
        if a[pivot][col].abs().partial_cmp(&tiny) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        a.swap(col, pivot);
        let (done, rest) = a.split_at_mut(col + 1);
        let top = &done[col];
        for row in rest.iter_mut().take(m - col - 1) {
            let f = row[col] / top[col];
            for (x, &t) in row.iter_mut().zip(top).take(m + 1).skip(col) {
                *x -= f * t;
            }
        }
    }
    let mut x = [0.0; MAX];
    for row in (0..m).rev() {
        let tail: f64 = (row + 1..m).map(|j| a[row][j] * x[j]).sum();
        x[row] = (a[row][m] - tail) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_face_shares_its_load_evenly() {
        // The four bottom corners of a unit cube of unit mass on a static floor, in
        // order around the face: K_ij = 1 + 6 (r_i × n) · (r_j × n), rank 3 (the
        // nullspace is +1, −1, +1, −1). Each point approaches at 1: the regularized
        // solve splits the load evenly, 1/4 each.
        let k: Matrix = [
            [4.0, 1.0, -2.0, 1.0],
            [1.0, 4.0, 1.0, -2.0],
            [-2.0, 1.0, 4.0, 1.0],
            [1.0, -2.0, 1.0, 4.0],
        ];
        let x = solve(4, &k, &[-1.0; 4]).expect("feasible");
        for xj in x {
            assert!((xj - 0.25).abs() < 1e-5, "{x:?}");
        }
        let w: Vec<f64> = (0..4)
            .map(|i| -1.0 + (0..4).map(|j| k[i][j] * x[j]).sum::<f64>())
            .collect();
        assert!(w.iter().all(|w| w.abs() < 1e-5), "{w:?}");
        // A tall column (1 × 10 × 1, 10 t): the lever terms are small beside 1/m,
        // and the split stays even.
        let m = 1e4_f64;
        let lever = 12.0 / (m * 101.0);
        let corners = [(-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5), (0.5, 0.5)];
        let mut k = [[0.0; MAX]; MAX];
        for (i, (xi, zi)) in corners.iter().enumerate() {
            for (j, (xj, zj)) in corners.iter().enumerate() {
                k[i][j] = 1.0 / m + (zi * zj + xi * xj) * lever;
            }
        }
        let x = solve(4, &k, &[-0.04; 4]).expect("feasible");
        assert!(x.iter().all(|&xj| (xj - 100.0).abs() < 1e-3), "{x:?}");
    }

    #[test]
    fn a_well_posed_problem_is_solved_exactly() {
        // Two points of a 2D box on a floor (full rank): no regularization, so the
        // impulses stop both points exactly (a resting body keeps no creep).
        let k: Matrix = [
            [4.0, -2.0, 0.0, 0.0],
            [-2.0, 4.0, 0.0, 0.0],
            [0.0; 4],
            [0.0; 4],
        ];
        let x = solve(2, &k, &[-1.0, -1.0, 0.0, 0.0]).expect("feasible");
        assert_eq!((x[0], x[1]), (0.5, 0.5));
    }

    #[test]
    fn separating_points_get_no_impulse() {
        // Point 0 approaches (c < 0), point 1 separates fast: only point 0 pushes.
        let k: Matrix = [
            [2.0, 1.0, 0.0, 0.0],
            [1.0, 2.0, 0.0, 0.0],
            [0.0; 4],
            [0.0; 4],
        ];
        let x = solve(2, &k, &[-1.0, 5.0, 0.0, 0.0]).expect("feasible");
        assert_eq!((x[0], x[1]), (0.5, 0.0));
    }
}
