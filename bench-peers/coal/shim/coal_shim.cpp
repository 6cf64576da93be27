// The C side of the coal bench: builds coal's shapes and transforms once, then runs
// one of coal's narrow-phase entry points over the cases. Loops run here, in C++, so
// that no FFI call sits inside coal's timed path.
//
// Methods (the numbers are `Method` in src/coal.rs):
//   0  coal::distance(geom1, tf1, geom2, tf2, DistanceRequest(), result)  — the user call
//   1  coal::ComputeDistance functor built once per pair                  — coal's fast path
//   2  coal::internal::ShapeShapeDistance<T1, T2>(..., &solver, signed, p1, p2, n) with
//      a GJKSolver built once — the lowest level coal's headers expose (for
//      Sphere–Cylinder and Capsule–Capsule the exported analytic specialisation in
//      libcoal.so; for the other pairs the header template, i.e.
//      GJKSolver::shapeDistance = GJK + EPA)
//   3  coal::collide(geom1, tf1, geom2, tf2, CollisionRequest(), result)  — default
//      request: enable_contact = true, 1 contact
//   4  coal::ComputeCollision functor built once per pair
//   5  as 1 with enable_signed_distance = false: 0-or-less in overlap, no EPA — the
//      same question isect's distance answers
//   6  as 5 with gjk_tolerance = 1e-12 (coal's default is 1e-6): about the accuracy
//      isect's GJK converges to (256 ulps, relative)
#include <coal/collision.h>
#include <coal/distance.h>
#include <coal/internal/shape_shape_func.h>
#include <coal/narrowphase/narrowphase.h>
#include <coal/shape/geometric_shapes.h>

#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace {

struct Bench {
  virtual ~Bench() {}
  virtual double run(int method, std::size_t calls) = 0;
  virtual void values(int method, double* out) = 0;
};

template <typename S1, typename S2>
struct PairBench : Bench {
  S1 s1;
  S2 s2;
  std::vector<coal::Transform3s> tf1, tf2;
  coal::DistanceRequest dreq;
  coal::DistanceRequest dreq_unsigned{true, false};
  coal::DistanceRequest dreq_tight{true, false};
  coal::CollisionRequest creq;
  coal::GJKSolver solver;
  std::unique_ptr<coal::ComputeDistance> cdist;
  std::unique_ptr<coal::ComputeCollision> ccoll;

  PairBench(S1 a, S2 b) : s1(a), s2(b), solver(dreq) {
    dreq_tight.gjk_tolerance = 1e-12;
    cdist.reset(new coal::ComputeDistance(&s1, &s2));
    ccoll.reset(new coal::ComputeCollision(&s1, &s2));
  }

  // Distance (methods 0–2); for the collide methods, the signed distance coal's
  // collider computed (Contact::penetration_depth: negative when overlapping) or +inf
  // when it reports no contact.
  inline double one(int method, std::size_t i) {
    const coal::Transform3s& a = tf1[i];
    const coal::Transform3s& b = tf2[i];
    switch (method) {
      case 0: {
        coal::DistanceResult r;
        return coal::distance(&s1, a, &s2, b, dreq, r);
      }
      case 1: {
        coal::DistanceResult r;
        return (*cdist)(a, b, dreq, r);
      }
      case 2: {
        coal::Vec3s p1, p2, n;
        return coal::internal::ShapeShapeDistance<S1, S2>(
            &s1, a, &s2, b, &solver, dreq.enable_signed_distance, p1, p2, n);
      }
      case 5: {
        coal::DistanceResult r;
        return (*cdist)(a, b, dreq_unsigned, r);
      }
      case 6: {
        coal::DistanceResult r;
        return (*cdist)(a, b, dreq_tight, r);
      }
      case 3: {
        coal::CollisionResult r;
        if (coal::collide(&s1, a, &s2, b, creq, r) == 0)
          return std::numeric_limits<double>::infinity();
        return r.getContact(0).penetration_depth;
      }
      case 4: {
        coal::CollisionResult r;
        if ((*ccoll)(a, b, creq, r) == 0)
          return std::numeric_limits<double>::infinity();
        return r.getContact(0).penetration_depth;
      }
      default:
        return std::numeric_limits<double>::quiet_NaN();
    }
  }

  double run(int method, std::size_t calls) override {
    const std::size_t n = tf1.size();
    double sum = 0;
    std::size_t i = 0;
    for (std::size_t k = 0; k < calls; ++k) {
      sum += one(method, i);
      if (++i == n) i = 0;
    }
    return sum;
  }

  void values(int method, double* out) override {
    for (std::size_t i = 0; i < tf1.size(); ++i) out[i] = one(method, i);
  }
};

}  // namespace

extern "C" {

// kind: 0 Sphere–Cylinder, 1 Capsule–Capsule, 2 Capsule–Cone, 3 Capsule–Cylinder,
// 4 Sphere–Cone. dims_a / dims_b: (radius, full length along local z); a sphere reads
// its radius only. rot_*: n column-major 3×3 rotation matrices; tr_*: n translations.
void* coal_bench_new(int kind, const double* dims_a, const double* dims_b,
                     std::size_t n, const double* rot_a, const double* tr_a,
                     const double* rot_b, const double* tr_b) {
  Bench* bench = nullptr;
  std::vector<coal::Transform3s>* t1 = nullptr;
  std::vector<coal::Transform3s>* t2 = nullptr;
  const double ra = dims_a[0], la = dims_a[1], rb = dims_b[0], lb = dims_b[1];
#define MAKE(S1, S2, A, B)                   \
  {                                          \
    auto* p = new PairBench<S1, S2>(A, B);   \
    t1 = &p->tf1;                            \
    t2 = &p->tf2;                            \
    bench = p;                               \
  }
  switch (kind) {
    case 0:
      MAKE(coal::Sphere, coal::Cylinder, coal::Sphere(ra), coal::Cylinder(rb, lb));
      break;
    case 1:
      MAKE(coal::Capsule, coal::Capsule, coal::Capsule(ra, la), coal::Capsule(rb, lb));
      break;
    case 2:
      MAKE(coal::Capsule, coal::Cone, coal::Capsule(ra, la), coal::Cone(rb, lb));
      break;
    case 3:
      MAKE(coal::Capsule, coal::Cylinder, coal::Capsule(ra, la), coal::Cylinder(rb, lb));
      break;
    case 4:
      MAKE(coal::Sphere, coal::Cone, coal::Sphere(ra), coal::Cone(rb, lb));
      break;
    default:
      return nullptr;
  }
#undef MAKE
  t1->reserve(n);
  t2->reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    t1->emplace_back(Eigen::Map<const coal::Matrix3s>(rot_a + 9 * i),
                     Eigen::Map<const coal::Vec3s>(tr_a + 3 * i));
    t2->emplace_back(Eigen::Map<const coal::Matrix3s>(rot_b + 9 * i),
                     Eigen::Map<const coal::Vec3s>(tr_b + 3 * i));
  }
  return bench;
}

void coal_bench_free(void* bench) { delete static_cast<Bench*>(bench); }

// `calls` calls of `method`, cycling the cases; the sum of the answers.
double coal_bench_run(void* bench, int method, std::size_t calls) {
  return static_cast<Bench*>(bench)->run(method, calls);
}

// The answer of `method` for each case, into out[0..n].
void coal_bench_values(void* bench, int method, double* out) {
  static_cast<Bench*>(bench)->values(method, out);
}

}  // extern "C"
