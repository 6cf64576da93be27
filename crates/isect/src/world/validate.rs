//! The world's validator: every invariant that ties handles, trees and pairs together.

use super::{Handle, Motion, World};
use crate::algo::gjk::GjkVector;
use crate::broad::Defect;
use crate::query::dispatch::DispatchShape;

impl<V: GjkVector, S: DispatchShape<V>> World<V, S> {
    /// Checks the world's invariants: both trees valid; each live shape's proxy in the
    /// tree of its motion with its slot as user data and the fat box its entry keeps;
    /// the tree sizes equal to the live shapes; every cached pair joins two live
    /// shapes, not both static, listed by both; every touching pair's contact naming
    /// its pair's handles. Tests call it after each refused call and each update.
    ///
    /// # Errors
    /// A [`Defect`] describing the first broken invariant.
    pub fn validate(&self) -> Result<(), Defect> {
        for tree in &self.trees {
            tree.validate()?;
        }
        let mut live = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(e) = &slot.entry else { continue };
            live += 1;
            let tree = &self.trees[e.motion.tree()];
            if tree.user_data(e.proxy) != Some(i as u32) {
                return Err(defect(format!("slot {i}: proxy not in its tree")));
            }
            if tree.fat_aabb(e.proxy) != Some(&e.fat) {
                return Err(defect(format!("slot {i}: fat box not its leaf's")));
            }
            for &id in &e.pairs {
                let p = self.pairs.get(id);
                if p.a.index() != i && p.b.index() != i {
                    return Err(defect(format!("slot {i}: lists pair {id} of others")));
                }
            }
        }
        if live != self.len() {
            return Err(defect(format!(
                "{live} live shapes, trees hold {}",
                self.len()
            )));
        }
        self.validate_pairs()
    }

    fn validate_pairs(&self) -> Result<(), Defect> {
        for id in self.pairs.ids() {
            let p = self.pairs.get(id);
            let listed = |h: Handle| self.entry(h).is_some_and(|e| e.pairs.contains(&id));
            if !(p.a < p.b && listed(p.a) && listed(p.b)) {
                return Err(defect(format!("pair {id} not listed by live a < b")));
            }
            let both_static = [p.a, p.b]
                .iter()
                .all(|&h| self.motion(h) == Some(Motion::Static));
            if both_static {
                return Err(defect(format!("pair {id} of two static shapes")));
            }
        }
        self.pairs.check_entries().map_err(defect)
    }
}

fn defect(message: String) -> Defect {
    Defect(format!("World: {message}"))
}
