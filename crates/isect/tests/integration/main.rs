//! The integration, property and differential tests of `isect` as one test binary:
//! one crate compiles the library's generic code once for all of them, where one binary per
//! file compiled it again for each (CI time). Each module is one file of `tests/`, which
//! keeps its own paths for helper modules (`#[path]` modules resolve beside their file).
//! `serde` (a feature) and `regressions` are binaries of their own.

// Each file declares the small helper modules it uses (so it reads on its own, and
// `serde.rs` shares them): they are compiled once per file, the library once.
#![allow(clippy::duplicate_mod)]

#[path = "../any_shape_matrix.rs"]
mod any_shape_matrix;
#[path = "../ball_curved.rs"]
mod ball_curved;
#[path = "../box_box_distance.rs"]
mod box_box_distance;
#[path = "../broad_bvh.rs"]
mod broad_bvh;
#[path = "../broad_sap.rs"]
mod broad_sap;
#[path = "../capsule_box_contact.rs"]
mod capsule_box_contact;
#[path = "../capsule_cylinder.rs"]
mod capsule_cylinder;
#[path = "../cast_options.rs"]
mod cast_options;
#[path = "../cast_scale.rs"]
mod cast_scale;
#[path = "../closed_form_contact_edges.rs"]
mod closed_form_contact_edges;
#[path = "../composite_2d_normals.rs"]
mod composite_2d_normals;
#[path = "../composite_parry.rs"]
mod composite_parry;
#[path = "../concave_polygon.rs"]
mod concave_polygon;
#[path = "../contact_relation.rs"]
mod contact_relation;
#[path = "../degenerate_pairs.rs"]
mod degenerate_pairs;
#[path = "../dispatch.rs"]
mod dispatch;
#[path = "../dispatch_parry.rs"]
mod dispatch_parry;
#[path = "../gjk_analytic.rs"]
mod gjk_analytic;
#[path = "../gjk_cast.rs"]
mod gjk_cast;
#[path = "../gjk_degenerate.rs"]
mod gjk_degenerate;
#[path = "../gjk_parry.rs"]
mod gjk_parry;
#[path = "../gjk_props.rs"]
mod gjk_props;
#[path = "../heightfield_2d.rs"]
mod heightfield_2d;
#[path = "../heightfield_3d.rs"]
mod heightfield_3d;
#[path = "../heightfield_walk.rs"]
mod heightfield_walk;
#[path = "../hull_contact.rs"]
mod hull_contact;
#[path = "../invariants.rs"]
mod invariants;
#[path = "../manifold.rs"]
mod manifold;
#[path = "../manifold_surfaces.rs"]
mod manifold_surfaces;
#[path = "../mesh_ray_precision.rs"]
mod mesh_ray_precision;
#[path = "../polygonal_2d_distance.rs"]
mod polygonal_2d_distance;
#[path = "../polyline.rs"]
mod polyline;
#[path = "../primitives_differential.rs"]
mod primitives_differential;
#[path = "../primitives_properties.rs"]
mod primitives_properties;
#[path = "../ray_differential.rs"]
mod ray_differential;
#[path = "../ray_dir_scale.rs"]
mod ray_dir_scale;
#[path = "../ray_properties.rs"]
mod ray_properties;
#[path = "../ray_toi.rs"]
mod ray_toi;
#[path = "../resting_manifolds.rs"]
mod resting_manifolds;
#[path = "../rounded_cores_2d.rs"]
mod rounded_cores_2d;
#[path = "../sat_differential.rs"]
mod sat_differential;
#[path = "../sat_properties.rs"]
mod sat_properties;
#[path = "../slab_grazes.rs"]
mod slab_grazes;
#[path = "../sliding.rs"]
mod sliding;
#[path = "../triangle_contacts.rs"]
mod triangle_contacts;
#[path = "../trimesh.rs"]
mod trimesh;
#[path = "../trimesh_contact_parry.rs"]
mod trimesh_contact_parry;
#[path = "../trimesh_parry.rs"]
mod trimesh_parry;
#[path = "../two_sided_parts.rs"]
mod two_sided_parts;

// The files whose subjects have a parallel code path, shared with `tests/parallel`.
include!("../parallel/modules.rs");
