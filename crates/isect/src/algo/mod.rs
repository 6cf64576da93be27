//! The named algorithms, each with its reference and tolerances in its module docs.

pub mod clip;
pub mod clip_2d;
pub mod clip_3d;
pub mod epa;
mod epa_2d;
mod epa_3d;
pub mod feature;
pub mod gjk;
mod gjk_2d;
mod gjk_3d;
pub mod hull_2d;
pub mod hull_3d;
pub mod hull_sat;
pub(crate) mod root;
pub mod sat_2d;
pub mod sat_3d;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod sat_lanes_2d;
pub mod slab;
pub mod support;
pub mod witness;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod witness_lanes_2d;
