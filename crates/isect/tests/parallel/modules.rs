// The test files whose subjects have a `parallel` code path (the world and character,
// the dynamic tree, the mesh's ray batches): included by `integration` (serial) and by
// `parallel` (with the feature), so that both list the same files.
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
#[path = "../world_ray_snapshot.rs"]
mod world_ray_snapshot;
