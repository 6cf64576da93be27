//! `Serialize` and `Deserialize` for [`World`] (feature `serde`): a saved scene.
//!
//! A world writes its *scene* (with a format `version`, [`WORLD_FORMAT_VERSION`]):
//! every slot of the handle table (its generation and,
//! when live, the shape, pose, filter, motion and user data), the free-slot stack,
//! the excluded pairs and the settings (contact prediction, broad-phase margin,
//! manifolds). So a world read back answers every query as the one written, its
//! handles stay valid (a stored handle or [`Handle::to_bits`] number names the same
//! shape) and the next insertions get the same handles.
//!
//! It does not write what the world derives: trees, pairs, contacts and the solver's
//! impulses. The world read back is as if every shape had just been inserted: its
//! next [`update`](World::update) finds the touching pairs anew and reports them as
//! started, with fresh contacts (impulses 0). Reading checks what a program's calls
//! would: shapes through their constructors, poses as [`World::insert`] does, the
//! settings as their setters do, and the table's own consistency (the free stack is
//! exactly the empty slots, excluded pairs name live slots); a bad file is a serde
//! error naming the field, never a panic.

use std::borrow::Cow;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{pair_key, Filter, Handle, Motion, Slot, World, WorldError};
use crate::algo::gjk::GjkVector;
use crate::query::dispatch::DispatchShape;

/// The version of the world format written; reading refuses others.
pub const WORLD_FORMAT_VERSION: u32 = 1;

/// The file format of a world.
#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Clone + Serialize + DeserializeOwned, \
                 P: Serialize + DeserializeOwned, R: Serialize + DeserializeOwned")]
struct WorldRepr<'a, S: Clone, P, R> {
    /// [`WORLD_FORMAT_VERSION`].
    version: u32,
    prediction: R,
    broad_margin: R,
    manifolds: bool,
    slots: Vec<SlotRepr<'a, S, P>>,
    /// Free slot indices, the next one reused last.
    free: Cow<'a, [u32]>,
    /// Excluded pairs as slot-index pairs.
    excluded: Vec<[u32; 2]>,
}

/// One slot: its generation and, when live, its shape.
#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Clone + Serialize + DeserializeOwned, P: Serialize + DeserializeOwned")]
struct SlotRepr<'a, S: Clone, P> {
    generation: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    entry: Option<EntryRepr<'a, S, P>>,
}

/// A live shape as the program inserted it.
#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Clone + Serialize + DeserializeOwned, P: Serialize + DeserializeOwned")]
struct EntryRepr<'a, S: Clone, P> {
    shape: Cow<'a, S>,
    pose: P,
    filter: Filter,
    motion: Motion,
    #[serde(default)]
    user_data: u64,
}

impl<V, S> Serialize for World<V, S>
where
    V: GjkVector<Scalar: Serialize + DeserializeOwned, Pose: Serialize + DeserializeOwned>,
    S: DispatchShape<V> + Clone + Serialize + DeserializeOwned,
{
    fn serialize<Z: Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
        let slots = self.slots.iter().map(slot_repr).collect();
        let mut excluded: Vec<[u32; 2]> = self
            .excluded
            .iter()
            .map(|&k| [(k >> 32) as u32, k as u32])
            .collect();
        excluded.sort_unstable();
        WorldRepr {
            version: WORLD_FORMAT_VERSION,
            prediction: self.prediction,
            broad_margin: self.trees[0].margin(),
            manifolds: self.manifolds,
            slots,
            free: Cow::Borrowed(&self.free),
            excluded,
        }
        .serialize(z)
    }
}

fn slot_repr<V: GjkVector, S: Clone>(slot: &Slot<V, S>) -> SlotRepr<'_, S, V::Pose> {
    SlotRepr {
        generation: slot.generation,
        entry: slot.entry.as_ref().map(|e| EntryRepr {
            shape: Cow::Borrowed(&e.shape),
            pose: e.pose,
            filter: e.filter,
            motion: e.motion,
            user_data: e.user_data,
        }),
    }
}

impl<'de, V, S> Deserialize<'de> for World<V, S>
where
    V: GjkVector<Scalar: Serialize + DeserializeOwned, Pose: Serialize + DeserializeOwned>,
    S: DispatchShape<V> + Clone + Serialize + DeserializeOwned,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let repr = WorldRepr::<S, V::Pose, V::Scalar>::deserialize(d)?;
        World::from_repr(repr).map_err(D::Error::custom)
    }
}

/// Why a world file was refused.
#[derive(Debug)]
enum ReadError {
    /// A setting or pose the world's own calls refuse.
    World(WorldError),
    /// A handle table that no sequence of calls makes.
    Table(String),
}

impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::World(e) => write!(f, "{e}"),
            Self::Table(why) => write!(f, "World: {why}"),
        }
    }
}

impl From<WorldError> for ReadError {
    fn from(e: WorldError) -> Self {
        Self::World(e)
    }
}

impl From<crate::shape::ShapeError> for ReadError {
    fn from(e: crate::shape::ShapeError) -> Self {
        Self::World(e.into())
    }
}

impl<V: GjkVector, S: DispatchShape<V> + Clone> World<V, S> {
    /// The world a file describes, checked (see the module docs).
    fn from_repr(repr: WorldRepr<'_, S, V::Pose, V::Scalar>) -> Result<Self, ReadError> {
        if repr.version != WORLD_FORMAT_VERSION {
            return Err(ReadError::Table(format!(
                "file format version {}, this build reads version {WORLD_FORMAT_VERSION}",
                repr.version
            )));
        }
        let mut world = Self::with_prediction(repr.prediction)?;
        world.set_broad_margin(repr.broad_margin)?;
        world.manifolds = repr.manifolds;
        if u32::try_from(repr.slots.len()).is_err() {
            return Err(WorldError::Full.into());
        }
        check_free_stack(&repr.slots, &repr.free)?;
        for (index, slot) in repr.slots.into_iter().enumerate() {
            world.slots.push(Slot {
                generation: slot.generation,
                entry: None,
            });
            if let Some(e) = slot.entry {
                world.restore_entry(index as u32, e)?;
            }
        }
        world.free = repr.free.into_owned();
        for [a, b] in repr.excluded {
            let (ha, hb) = (world.live_handle(a)?, world.live_handle(b)?);
            world.excluded.insert(pair_key(ha, hb));
        }
        Ok(world)
    }

    /// Puts a file's live shape into (empty) slot `index`, checked and dirty.
    fn restore_entry(&mut self, index: u32, e: EntryRepr<'_, S, V::Pose>) -> Result<(), ReadError> {
        let shape = e.shape.into_owned();
        let entry = self.new_entry(index, shape, &e.pose, e.filter, e.motion, e.user_data)?;
        self.slots[index as usize].entry = Some(entry);
        self.mark_dirty(index);
        Ok(())
    }

    /// The handle of live slot `index`, or the error naming an excluded pair's slot.
    fn live_handle(&self, index: u32) -> Result<Handle, ReadError> {
        self.handle_at(index)
            .map(|(h, _)| h)
            .ok_or_else(|| ReadError::Table(format!("excluded pair names slot {index}, not live")))
    }
}

/// The free stack must list every empty slot exactly once, and nothing else.
fn check_free_stack<S: Clone, P>(
    slots: &[SlotRepr<'_, S, P>],
    free: &[u32],
) -> Result<(), ReadError> {
    let mut listed = vec![false; slots.len()];
    for &i in free {
        let slot = slots.get(i as usize).ok_or_else(|| {
            ReadError::Table(format!("free slot {i} is past the {} slots", slots.len()))
        })?;
        if slot.entry.is_some() || std::mem::replace(&mut listed[i as usize], true) {
            return Err(ReadError::Table(format!(
                "free slot {i} is live or listed twice"
            )));
        }
    }
    match slots
        .iter()
        .zip(&listed)
        .position(|(s, &l)| s.entry.is_none() && !l)
    {
        Some(i) => Err(ReadError::Table(format!(
            "empty slot {i} is not on the free stack"
        ))),
        None => Ok(()),
    }
}
