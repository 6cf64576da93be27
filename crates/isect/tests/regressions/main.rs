//! Regression tests: one module per crash, hang or inconsistency found by the fuzz
//! targets or the seeded sweep (`tests/sweep.rs`), each written before its fix.
//! RELIABILITY.md lists them with the family that found them.

#[path = "../support/meshes.rs"]
mod meshes;
#[path = "../support/rng.rs"]
mod rng;

mod box_polygon_manifold;
mod bvh_subnormal_bounds;
mod capsule_box_crossing;
mod capsule_crossing_depth;
mod cast_size_tolerance;
mod closest_point_precision;
mod compound_empty_message;
mod compound_merged_manifold;
mod concave_polygon_far_ray;
mod concave_polygon_gis;
mod concave_polygon_large;
mod concave_polygon_needles;
mod concave_polygon_no_pieces;
mod concave_polygon_piece_in_hole;
mod concave_polygon_tiny_scale;
mod crossing_segments_distance;
mod curved_ray_casts;
mod cylinder_box_contact_relation;
mod dispatch_non_finite_pose;
mod epa_blow_up_recursion;
mod epa_face_explosion;
mod fuzz_artifacts;
mod gjk_polytope_closest_points;
mod gjk_tiny_scale_nan;
mod heightfield_grid_point;
mod heightfield_hit_at_max_t;
mod heightfield_scale_overflow;
mod huge_magnitude_kinds;
mod huge_magnitudes;
mod hull_2d_classes;
mod hull_3d_classes;
mod hull_3d_large;
mod hull_contact_prediction;
mod hull_drops_thick_plane_point;
mod hull_flat_queries;
mod hull_nearly_flat_offset;
mod hull_sliver_face_normal;
mod mesh_ray_review_repros;
mod point_closest_points;
mod polygon_sat_touching_gap;
mod polygon_tiny_edge_normal;
mod polyhedron_contains_vertices;
mod polyhedron_sliver_loses_point;
mod ray_zero_dir_infinite_t;
mod sat_contact_witness;
mod slab_edge_graze;
mod sliver_ray_hits;
mod solid_mesh_inside;
mod tiny_and_huge_normals;
mod triangle_convex_distance;
mod triangle_sliver_projection;
mod trimesh_zero_volume_inside;
mod unvalidated_rotation;
mod world_snapshot_graze;
