//! The tests of the parts of `isect` with a `parallel` code path (the world's update
//! and queries, the dynamic tree's moved-pair search, the mesh's ray batches), built
//! with that feature: their answers must equal the serial build's, which the
//! `integration` binary checks without the feature. Each module is a file of `tests/`
//! shared with that binary.

#![allow(clippy::duplicate_mod)]

include!("modules.rs");
