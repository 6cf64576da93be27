//! Fuzz artifacts replayed through the shared drivers (`tests/support/fuzz_drivers.rs`),
//! byte for byte as libFuzzer saved them (`artifacts/<family>-<hash>.bin`): each found
//! a failure of its family's checks at the end of session 3. Fixed ones guard their
//! fix; open ones are ignored with what is known of them (RELIABILITY.md).

#[path = "../support/fuzz_drivers.rs"]
mod fuzz_drivers;

use fuzz_drivers::{drive, ByteSource, Target};

fn replay(target: Target, bytes: &[u8]) {
    drive(target, &mut ByteSource::new(bytes));
}

/// A point on a heightfield sliver triangle projected far off by GJK; fixed by the
/// closed-form triangle projection (`triangle_sliver_projection`).
#[test]
fn composite_queries_b880b5ee() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-b880b5ee.bin"),
    );
}

/// A 2D f32 concave polygon 2,738 long and 1.6 wide whose own projection of a point was
/// 0.41 away while every piece was at least 1.06 away: a sliver piece of area 6 was too
/// thin for `ConvexPolygon::new` and dropped. Now refused by `ConcavePolygon::new`
/// (`PIECES_AREA_ULPS`).
#[test]
fn composite_queries_62fa5222() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-62fa5222.bin"),
    );
}

/// A concave polygon with a star-shaped hole 1e-5 across: a piece covered part of the
/// hole (`concave_polygon_piece_in_hole`); now refused by `ConcavePolygon::new`.
#[test]
fn decomposition_51137c0e() {
    replay(
        Target::Decomposition,
        include_bytes!("artifacts/decomposition-51137c0e.bin"),
    );
}

/// A thin polyhedron (input points 1e-5 apart next to one 8.6e-3 away and two 1e5 and
/// 3.6e5 away, f64) that lost its input point at the origin: quickhull's normal of a
/// face with two long, almost parallel edges cancelled. Fixed by taking the normal at
/// the corner opposite the longest edge (`hull_sliver_face_normal`).
#[test]
fn hull_b913de95() {
    replay(Target::Hull, include_bytes!("artifacts/hull-b913de95.bin"));
}

/// The world-over-AnyShape driver's false alarm (a point capsule hit within the cast's
/// tolerance); guards the driver's culling slack.
#[test]
fn world_any_071f6352() {
    replay(
        Target::WorldAny,
        include_bytes!("artifacts/world_any-071f6352.bin"),
    );
}

/// An `f32` triangle 63,529 long and 173 wide (a vertex 4e-6 rad sharp): a point 15,882
/// beyond that vertex, on the extension of its edges, was inside the piece
/// (`ConvexPolygon::contains_point`: every edge line within its slack) but outside the
/// polygon. The bounding circle now bounds the slack.
#[test]
fn decomposition_2651cb86() {
    replay(
        Target::Decomposition,
        include_bytes!("artifacts/decomposition-2651cb86.bin"),
    );
}

/// An `f32` concave polygon about 1e-22 across: every product of two coordinates
/// (~1e-45) is subnormal, so the orientation tests of validation, triangulation and
/// `ConvexPolygon::new` saw rounding noise and a piece turned reflex. Now refused by
/// `ConcavePolygon::new` (`OutOfRange` naming the extent: `s² · ε` must be normal),
/// which the driver accepts; `concave_polygon_tiny_scale::artifact_rings_are_refused`
/// asserts the error on these rings.
#[test]
fn decomposition_1b843d0d() {
    replay(
        Target::Decomposition,
        include_bytes!("artifacts/decomposition-1b843d0d.bin"),
    );
}

/// An `f32` star polygon 5.4 across with a triangular hole whose corner sits 1e-7 from
/// the origin: the pieces added up to 16.144 for an area of 16.084 (0.4 %, within the
/// constructor's `PIECES_AREA_ULPS` in `f32` but beyond the driver's 1e-4): rounded
/// orientation signs let the triangulation overlap itself. Fixed by exact orientation
/// signs (`shape/concave_polygon/geometry.rs`). Minimised with `cargo fuzz tmin`.
#[test]
fn decomposition_87888f57() {
    replay(
        Target::Decomposition,
        include_bytes!("artifacts/decomposition-87888f57.bin"),
    );
}

/// A sliver polyhedron (`f64`, session 4): the origin and a point 4.1e-7 from it, three
/// points 2 to 4e5 away, two of them repeated; a repeat became an eye, the hull folded
/// and the polyhedron lost the origin. Fixed: quickhull considers repeats once
/// (`hull_sliver_face_normal::repeated_points_do_not_fold_the_hull`).
#[test]
fn hull_e47509b0() {
    replay(Target::Hull, include_bytes!("artifacts/hull-e47509b0.bin"));
}

/// A needle polyhedron (`f64`, session 4): three points on the line x = y = z from
/// -3.9e-6 to 0.2, one 4.3e-10 off it near the origin, one 0.1 away; the plane of the
/// needle face Q, R, S put its own vertex S 1.7e-13 outside (60 slacks). Fixed by the
/// accurate cross product (`hull_sliver_face_normal::needle_face_keeps_its_vertices`).
#[test]
fn hull_c54b1024() {
    replay(Target::Hull, include_bytes!("artifacts/hull-c54b1024.bin"));
}

/// A flat-bottomed polyhedron (`f64`, session 4): O, C, D and E (−40.4, 0, 0) within
/// 3.8e-8 of the plane z = 0, B 0.004 below it and 265.6 away, A 4e5 above. The
/// thick-plane quickhull made E a vertex (exactly it is 6e-4 inside) and folded the
/// bottom: faces O C E and O E D faced down, D E C up, and `ConvexPolyhedron` merged
/// the three into one plane facing up, losing A. Fixed by the exact quickhull (exact
/// orientation signs: no fold) and by merging only neighbours that face the same way.
#[test]
fn hull_5ea869e6() {
    replay(Target::Hull, include_bytes!("artifacts/hull-5ea869e6.bin"));
}

/// A 2D `f32` concave polygon, one triangle 13,882 tall and 938 wide, and a ray with
/// `max_t = 0` from a point of an edge (741.96, 4042.21) along (−1, −1), inward: the
/// polygon answered `t = 0` with the edge's normal (its origin on the boundary within
/// `ON_SEGMENT_ULPS`), the piece none (its rounded origin lies just outside, entering
/// after `t = 0`). Both within tolerance: a driver false alarm (session 4); the driver
/// now looks for the part hit within its tolerance beyond `max_t`.
#[test]
fn composite_queries_a6b365ec() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-a6b365ec.bin"),
    );
}

/// The mirror of `composite_queries_a6b365ec` (2D `f64`, session 4): a sliver triangle
/// 5.6e-6 long and 1.6e-10 wide, a ray with `max_t = 0` from a point of its long edge
/// along it (2.9e-5 rad apart): the piece answered `t = 0` (origin on its boundary),
/// the polygon none (its exact crossing lies just after `t = 0`). A driver false alarm;
/// the driver looks for the polygon's hit within its tolerance beyond `max_t`.
#[test]
fn composite_queries_7722268f() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-7722268f.bin"),
    );
}

/// A 2D `f32` concave quad 1e6 tall whose corner (−0.01, −1e6) is the tip of a spike
/// 235,000 long and 0.85 wide (session 4): the spike's piece was too thin for
/// `ConvexPolygon::new` and dropped (1e-5 of the area, within `PIECES_AREA_ULPS`), so
/// a point 83,381 from the polygon was 208,566 from its pieces. Now refused by
/// `ConcavePolygon::new` (a vertex in no piece, off the chord of its neighbours).
#[test]
fn composite_queries_3ff43420() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-3ff43420.bin"),
    );
}

/// A 2D `f32` concave triangle 83,203 long and a ray from a point of its long edge
/// (−17,374.77, −1,449.48) moving out (session 4): the polygon answered no hit (its
/// boundary cast found no crossing, the origin lying just outside by rounding) where
/// its contract, and its piece, say `t = 0` with a zero normal (origin on the boundary,
/// moving out). Fixed: with no crossing, an origin within the on-segment tolerance of
/// the bounding box is decided by `contains_point`.
#[test]
fn composite_queries_b5888f25() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-b5888f25.bin"),
    );
}

/// A 3D `f64` compound of one cone (0.063 tall, radius 0.012) and a ray crawling along
/// it (direction 3.7e-6 long, hit at `t = 50.8`): the compound's hit lay 3.3e-8 off
/// the cone's surface, beyond the driver's tolerance (`8 √ε` of the coordinates' scale
/// times the part's aspect), from the GJK point cast's curved-shape floor. Fixed by
/// the closed-form cone cast (issue 18, `curved_ray_casts`).
#[test]
fn composite_queries_0bf0301c() {
    replay(
        Target::CompositeQueries,
        include_bytes!("artifacts/composite_queries-0bf0301c.bin"),
    );
}
