//! Regression tests: one module per crash, hang or inconsistency found by the fuzz
//! targets or the seeded sweep (`tests/sweep.rs`), each written before its fix.
//! RELIABILITY.md lists them with the family that found them.

mod dispatch_non_finite_pose;
mod epa_blow_up_recursion;
mod hull_drops_thick_plane_point;
mod polyhedron_contains_vertices;
mod tiny_and_huge_normals;
