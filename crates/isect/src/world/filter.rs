//! Which shapes meet: collision filter bits between shapes, and query filters for the
//! scene queries (bits, excluded handles, a predicate).

use super::Handle;

/// Collision filter bits (as Box2D's `b2Filter`): two shapes interact when each one's
/// `group` shares a bit with the other's `mask`. The default interacts with everything.
/// For more than 32 categories, exclude single pairs with
/// [`World::set_pair_excluded`](super::World::set_pair_excluded).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The categories this shape belongs to.
    pub group: u32,
    /// The categories this shape interacts with.
    pub mask: u32,
}

impl Default for Filter {
    fn default() -> Self {
        Self::ALL
    }
}

impl Filter {
    /// Every category, interacting with every category.
    pub const ALL: Self = Self {
        group: u32::MAX,
        mask: u32::MAX,
    };

    /// True when the two filters let their shapes interact (symmetric).
    ///
    /// ```
    /// use isect::world::Filter;
    ///
    /// const PLAYER: u32 = 1;
    /// const BULLET: u32 = 2;
    /// let player = Filter { group: PLAYER, mask: u32::MAX };
    /// let bullet = Filter { group: BULLET, mask: PLAYER }; // bullets hit players only
    /// assert!(bullet.allows(&player));
    /// assert!(!bullet.allows(&bullet));
    /// ```
    #[inline]
    pub fn allows(&self, other: &Self) -> bool {
        self.group & other.mask != 0 && other.group & self.mask != 0
    }
}

/// What a scene query may report: shapes whose [`Filter`] allows `filter`, not in
/// `exclude`, and accepted by `predicate` (called last, only for shapes that passed
/// the rest, with the candidate's handle). A plain [`Filter`] converts into a query
/// filter that excludes nothing, so `world.cast_ray(&ray, t, Filter::ALL)` works.
///
/// ```
/// use isect::d3::*;
/// use isect::world::QueryFilter;
///
/// # fn main() -> Result<(), isect::world::WorldError> {
/// let mut world = World::new();
/// let me = world.insert(Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?), Pose::IDENTITY, Filter::ALL)?;
/// let ray = Ray { origin: Vec3::ZERO, dir: Vec3::X };
/// // A ray from inside the caster would hit the caster itself at t = 0: exclude it.
/// let skip = [me];
/// assert!(world.cast_ray(&ray, 10.0, QueryFilter::new(Filter::ALL).excluding(&skip)).is_none());
/// # Ok(())
/// # }
/// ```
#[derive(Copy, Clone)]
pub struct QueryFilter<'a> {
    /// The query's own filter bits.
    pub filter: Filter,
    /// Handles never reported (typically the querying shape itself).
    pub exclude: &'a [Handle],
    /// A last test on each candidate's handle.
    pub predicate: Option<&'a (dyn Fn(Handle) -> bool + Sync)>,
}

impl core::fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("filter", &self.filter)
            .field("exclude", &self.exclude)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl From<Filter> for QueryFilter<'_> {
    fn from(filter: Filter) -> Self {
        Self::new(filter)
    }
}

impl<'a> QueryFilter<'a> {
    /// The filter bits alone: no exclusion, no predicate.
    pub fn new(filter: Filter) -> Self {
        Self {
            filter,
            exclude: &[],
            predicate: None,
        }
    }

    /// This filter, also excluding `handles`.
    pub fn excluding(self, handles: &'a [Handle]) -> Self {
        Self {
            exclude: handles,
            ..self
        }
    }

    /// This filter, also asking `predicate` about each candidate.
    pub fn with_predicate(self, predicate: &'a (dyn Fn(Handle) -> bool + Sync)) -> Self {
        Self {
            predicate: Some(predicate),
            ..self
        }
    }

    /// True when a shape with `handle` and `filter` may be reported.
    #[inline]
    pub(super) fn admits(&self, handle: Handle, filter: &Filter) -> bool {
        filter.allows(&self.filter)
            && !self.exclude.contains(&handle)
            && self.predicate.is_none_or(|p| p(handle))
    }
}
