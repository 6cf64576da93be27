//! The world's errors: what a refused call names. A refused call changes nothing.

use super::Handle;
use crate::shape::ShapeError;

/// Why a [`World`](super::World) refused a call; the world is unchanged after it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle names no live shape: it was removed (its slot may hold a newer
    /// shape, with another generation) or belongs to another world.
    StaleHandle(Handle),
    /// A pose, parameter or shape box was refused; the [`ShapeError`] names the field
    /// (`pose.rotation`, `pose.translation`, `prediction`, `margin`, ...) and the limit.
    Invalid(ShapeError),
    /// The world already holds `u32::MAX` slots.
    Full,
    /// A batch of [`check_configurations`](super::World::check_configurations) whose
    /// pose list is not one pose per link for each configuration: `links` is 0 or
    /// does not divide `poses`.
    BatchLength {
        /// How many poses were given.
        poses: usize,
        /// How many links.
        links: usize,
    },
}

impl core::fmt::Display for WorldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::StaleHandle(h) => write!(
                f,
                "World: stale handle (slot {}, generation {}): no live shape has it",
                h.index(),
                h.generation()
            ),
            Self::Invalid(e) => write!(f, "World: {e}"),
            Self::Full => write!(f, "World: the world holds u32::MAX slots"),
            Self::BatchLength { poses, links } => write!(
                f,
                "World::check_configurations: {poses} poses are not one per link of {links} links for each configuration"
            ),
        }
    }
}

impl std::error::Error for WorldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShapeError> for WorldError {
    fn from(e: ShapeError) -> Self {
        Self::Invalid(e)
    }
}
