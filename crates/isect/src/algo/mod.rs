//! The named algorithms, each with its reference and tolerances in its module docs.

pub mod slab;
pub mod support;
