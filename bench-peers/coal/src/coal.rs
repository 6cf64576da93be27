//! The FFI to the C++ shim (`shim/coal_shim.cpp`): one opaque bench per pair of coal
//! shapes, holding its shapes, its transforms and its functors.

use std::ffi::c_void;

extern "C" {
    fn coal_bench_new(
        kind: i32,
        dims_a: *const f64,
        dims_b: *const f64,
        n: usize,
        rot_a: *const f64,
        tr_a: *const f64,
        rot_b: *const f64,
        tr_b: *const f64,
    ) -> *mut c_void;
    fn coal_bench_free(bench: *mut c_void);
    fn coal_bench_run(bench: *mut c_void, method: i32, calls: usize) -> f64;
    fn coal_bench_values(bench: *mut c_void, method: i32, out: *mut f64);
}

/// The pair of coal shapes (`kind` in the shim).
#[derive(Copy, Clone, Debug)]
pub enum Kind {
    SphereCylinder = 0,
    CapsuleCapsule = 1,
    CapsuleCone = 2,
    CapsuleCylinder = 3,
    SphereCone = 4,
}

/// coal's entry point (`method` in the shim).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Method {
    /// `coal::distance(geom, tf, geom, tf, DistanceRequest(), result)`.
    Distance = 0,
    /// A `coal::ComputeDistance` built once per pair.
    ComputeDistance = 1,
    /// `coal::internal::ShapeShapeDistance<T1, T2>` with a `GJKSolver` built once.
    ShapeShape = 2,
    /// `coal::collide(geom, tf, geom, tf, CollisionRequest(), result)`.
    Collide = 3,
    /// A `coal::ComputeCollision` built once per pair.
    ComputeCollision = 4,
    /// `ComputeDistance` with `enable_signed_distance = false` (no EPA in overlap).
    Unsigned = 5,
    /// As `Unsigned` with `gjk_tolerance = 1e-12` (default 1e-6).
    UnsignedTight = 6,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Distance => "coal::distance",
            Method::ComputeDistance => "ComputeDistance (functor)",
            Method::ShapeShape => "internal::ShapeShapeDistance",
            Method::Collide => "coal::collide",
            Method::ComputeCollision => "ComputeCollision (functor)",
            Method::Unsigned => "ComputeDistance, unsigned",
            Method::UnsignedTight => "ComputeDistance, unsigned, gjk_tolerance 1e-12",
        }
    }
}

/// A shape's size for coal: radius and full length along its local z.
pub type Dims = [f64; 2];

/// A pose for coal: column-major rotation and translation.
#[derive(Copy, Clone)]
pub struct Transform {
    pub rotation: [f64; 9],
    pub translation: [f64; 3],
}

/// The shapes and the cases of one pair, on coal's side.
pub struct Bench(*mut c_void);

impl Bench {
    pub fn new(kind: Kind, a: Dims, b: Dims, cases: &[(Transform, Transform)]) -> Self {
        let flat = |f: fn(&(Transform, Transform)) -> &[f64]| -> Vec<f64> {
            cases.iter().flat_map(|c| f(c).iter().copied()).collect()
        };
        let rot_a = flat(|c| &c.0.rotation);
        let tr_a = flat(|c| &c.0.translation);
        let rot_b = flat(|c| &c.1.rotation);
        let tr_b = flat(|c| &c.1.translation);
        // SAFETY: the arrays hold `cases.len()` matrices and translations; the shim
        // copies them.
        let p = unsafe {
            coal_bench_new(
                kind as i32,
                a.as_ptr(),
                b.as_ptr(),
                cases.len(),
                rot_a.as_ptr(),
                tr_a.as_ptr(),
                rot_b.as_ptr(),
                tr_b.as_ptr(),
            )
        };
        assert!(!p.is_null(), "unknown pair kind");
        Bench(p)
    }

    /// `calls` calls of `method` cycling the cases; the sum of the answers.
    pub fn run(&self, method: Method, calls: usize) -> f64 {
        // SAFETY: `self.0` is a live bench.
        unsafe { coal_bench_run(self.0, method as i32, calls) }
    }

    /// The answer of `method` per case: the signed distance (negative in overlap);
    /// for the collide methods, the contact's `penetration_depth` (the same signed
    /// distance) or +∞ for no contact.
    pub fn values(&self, method: Method, n: usize) -> Vec<f64> {
        let mut out = vec![0.0; n];
        // SAFETY: `out` holds one value per case (`n` is the case count).
        unsafe { coal_bench_values(self.0, method as i32, out.as_mut_ptr()) };
        out
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        // SAFETY: made by `coal_bench_new`, freed once.
        unsafe { coal_bench_free(self.0) }
    }
}
