//! The tests of the parts of `isect` with a `parallel` code path (the world's update
//! and queries, the dynamic tree's moved-pair search, the mesh's ray batches), built
//! with that feature: their answers must equal the serial build's, which the
//! `integration` binary checks without the feature. Each module is a file of `tests/`
//! shared with that binary.

#![allow(clippy::duplicate_mod)]

#[path = "../broad_tree.rs"]
mod broad_tree;
#[path = "../character.rs"]
mod character;
#[path = "../composite.rs"]
mod composite;
#[path = "../mesh_rays.rs"]
mod mesh_rays;
#[path = "../sweep.rs"]
mod sweep;
#[path = "../warm_start.rs"]
mod warm_start;
#[path = "../world.rs"]
mod world;
#[path = "../world_cache.rs"]
mod world_cache;
#[path = "../world_corners.rs"]
mod world_corners;
#[path = "../world_distance.rs"]
mod world_distance;
#[path = "../world_ray_parts.rs"]
mod world_ray_parts;
