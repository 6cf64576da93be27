//! A scene placed in a collision world, and its contacts and hits named by the
//! scene's ids.

use crate::error::{world_message, CliError};
use crate::scene::Scene;
use crate::space::Space;
use isect::query::Contact;
use isect::shape::RayHit;
use isect::world::{Filter, Handle, World};
use std::collections::HashMap;

/// A scene's shapes in a world, with each handle's index in the scene.
pub struct SceneWorld<Sp: Space> {
    /// The world, updated once (its contacts are current).
    pub world: World<Sp::V, Sp::S>,
    index_of: HashMap<Handle, usize>,
}

/// A touching pair, by scene index (`a < b`), with its contact from `a` to `b`.
pub struct IndexedContact<Sp: Space> {
    /// The earlier shape in the file.
    pub a: usize,
    /// The later shape in the file.
    pub b: usize,
    /// The contact, normal from `a` to `b`.
    pub contact: Contact<Sp::V>,
}

/// A ray hit, by scene index.
pub struct IndexedHit<Sp: Space> {
    /// The shape hit.
    pub index: usize,
    /// Where.
    pub hit: RayHit<Sp::V>,
}

impl<Sp: Space> SceneWorld<Sp> {
    /// Inserts every shape of `scene` and runs one update.
    ///
    /// # Errors
    /// Exit code 2 when the world refuses a shape (a pose so far out that its box is
    /// not finite).
    pub fn new(scene: &Scene<Sp>) -> Result<Self, CliError> {
        let mut world = World::new();
        let mut index_of = HashMap::new();
        for (i, s) in scene.shapes.iter().enumerate() {
            let h = world
                .insert(s.shape.clone(), s.pose, Filter::ALL)
                .map_err(|e| CliError::input(format!("shape `{}`: {}", s.id, world_message(&e))))?;
            index_of.insert(h, i);
        }
        world.update();
        Ok(Self { world, index_of })
    }

    /// The touching pairs, sorted by `(a, b)` scene index.
    pub fn contacts(&self) -> Vec<IndexedContact<Sp>> {
        let mut out: Vec<IndexedContact<Sp>> = self
            .world
            .contacts()
            .iter()
            .filter_map(|c| {
                let (a, b) = (*self.index_of.get(&c.a)?, *self.index_of.get(&c.b)?);
                // The world orders by handle; keep the file's order and flip to match.
                let contact = if a < b {
                    c.contact
                } else {
                    c.contact.flipped()
                };
                Some(IndexedContact {
                    a: a.min(b),
                    b: a.max(b),
                    contact,
                })
            })
            .collect();
        out.sort_by_key(|c| (c.a, c.b));
        out
    }

    /// The hits of a ray (every one with `all`, else the closest), closest first.
    pub fn cast(
        &self,
        ray: &isect::shape::Ray<Sp::V>,
        max_t: f64,
        all: bool,
    ) -> Vec<IndexedHit<Sp>> {
        let hits = if all {
            self.world.cast_ray_all(ray, max_t, Filter::ALL)
        } else {
            self.world
                .cast_ray(ray, max_t, Filter::ALL)
                .into_iter()
                .collect()
        };
        hits.into_iter()
            .filter_map(|h| {
                let index = *self.index_of.get(&h.handle)?;
                Some(IndexedHit { index, hit: h.hit })
            })
            .collect()
    }
}
