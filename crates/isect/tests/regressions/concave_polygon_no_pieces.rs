//! Found by the composite sweep (case seed 0x89c2324713f87da, 2D f32): a sliver
//! triangle 66,920 long and 0.002 wide was accepted by `ConcavePolygon::new`, but
//! `ConvexPolygon::new` refused its only piece, so the polygon had no parts and an
//! empty tree; `dispatch::distance` against it then indexed part 0 and panicked.
//! A polygon with no convex piece must be refused as `Degenerate`.

use glam::Vec2;
use isect::math::{Isometry, Pose2};
use isect::query::dispatch;
use isect::shape::{shape_2d, Ball, ConcavePolygon};
use isect::ShapeError;

/// The sliver of the sweep case: refused, or (if accepted) has pieces and answers.
#[test]
fn sliver_concave_polygon_has_pieces_or_is_refused() {
    let ring = vec![
        Vec2::new(0.000_921_564_76, -60.86074),
        Vec2::new(1.088_059_8, 66920.19),
        Vec2::new(0.0, 0.0),
    ];
    match ConcavePolygon::<f32>::new(ring, Vec::new()) {
        Err(e) => assert!(matches!(e, ShapeError::Degenerate { .. }), "{e:?}"),
        Ok(p) => {
            assert!(!p.pieces().is_empty(), "accepted with no pieces");
            let a = shape_2d::AnyShape::from(p);
            let ball = shape_2d::Shape::from(Ball::new(Vec2::ZERO, 1.0).expect("finite"));
            let b = shape_2d::AnyShape::from(ball);
            let id = <Pose2<f32> as Isometry<Vec2>>::IDENTITY;
            assert!(dispatch::distance(&id, &a, &id, &b) >= 0.0);
        }
    }
}
