//! Nearest-item queries on the [`Bvh`]: a depth-first walk that visits the children
//! of a node nearest box first and prunes every box farther than the best item found
//! so far (branch and bound, as in Ericson, *Real-Time Collision Detection*, 6.5.2;
//! the closest-point search of parry's `TriMesh` works the same way). No tolerances.

use super::{slot, Bvh, Slot};
use crate::broad::bvh_build::EMPTY_SLOT;
use crate::broad::simd::LANES;
use crate::broad::stack::Stack;
use crate::math::{Real, Vector};

impl<V: Vector> Bvh<V> {
    /// The item nearest to `p`: `leaf(item, best)` returns the exact squared distance
    /// from `p` to the item (or `None` to skip it), given the best squared distance so
    /// far; items whose box is farther than the best are never passed. Returns the
    /// item and its squared distance (the first found among equals). An empty tree or
    /// a NaN or infinite `p` finds nothing.
    pub fn nearest(
        &self,
        p: V,
        mut leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        if self.nodes.is_empty() || !p.is_finite() {
            return None;
        }
        let mut best: Option<(u32, V::Scalar)> = None;
        let mut bound = V::Scalar::INFINITY;
        let mut stack = Stack::new((0u32, V::Scalar::ZERO));
        stack.push((0, V::Scalar::ZERO));
        while let Some((i, d2)) = stack.pop() {
            if d2 >= bound {
                continue;
            }
            let node = &self.nodes[i as usize];
            let mut lanes = [(V::Scalar::INFINITY, EMPTY_SLOT); LANES];
            for (lane, entry) in lanes.iter_mut().enumerate() {
                if !matches!(slot(node.child[lane]), Slot::Empty) {
                    let aabb = node.boxes.get::<V>(lane);
                    *entry = (aabb.distance_squared_to_point(p), node.child[lane]);
                }
            }
            lanes.sort_unstable_by(|a, b| {
                a.0.partial_cmp(&b.0).unwrap_or(core::cmp::Ordering::Equal)
            });
            // Items nearest first (each may shrink the bound), then inner nodes pushed
            // farthest first, so that the nearest is popped next.
            for &(d2, code) in &lanes {
                if let (Slot::Item(item), true) = (slot(code), d2 < bound) {
                    if let Some(exact) = leaf(item, bound).filter(|&e| e < bound) {
                        bound = exact;
                        best = Some((item, exact));
                    }
                }
            }
            for &(d2, code) in lanes.iter().rev() {
                if let (Slot::Node(child), true) = (slot(code), d2 < bound) {
                    stack.push((child as u32, d2));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::broad::Bvh;
    use crate::shape::Aabb;
    use glam::Vec3;

    // 500 seeded boxes and 500 query points: the nearest box by the walk equals the
    // brute-force nearest (distance to the box itself as the exact distance); an
    // empty tree and NaN find nothing.
    #[test]
    fn matches_brute_force() {
        let mut state = 0x1234_5678_u64;
        let mut unit = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut v = |k: f32| Vec3::new(unit() * k, unit() * k, unit() * k);
        let boxes: Vec<Aabb<Vec3>> = (0..500)
            .map(|_| {
                let c = v(100.0);
                Aabb::from_center(c, v(2.0)).unwrap()
            })
            .collect();
        let bvh = Bvh::build(&boxes);
        for _ in 0..500 {
            let p = v(120.0) - Vec3::splat(10.0);
            let d2 = |i: u32| boxes[i as usize].distance_squared_to_point(p);
            let (_, found) = bvh.nearest(p, |i, _| Some(d2(i))).unwrap();
            let brute = (0..500).map(d2).fold(f32::INFINITY, f32::min);
            assert_eq!(found, brute);
        }
        assert!(Bvh::<Vec3>::build(&[])
            .nearest(Vec3::ZERO, |_, _| Some(0.0))
            .is_none());
        assert!(bvh.nearest(Vec3::NAN, |_, _| Some(0.0)).is_none());
    }
}
