//! [`AnyShape`]: any 3D shape, convex or composite, for worlds and scenes that mix
//! them (parry's `SharedShape` plays this role). Composite kinds are held in an
//! `Arc`. To add a composite kind, add one line to the list below.

use super::any_shape::any_shape;
use crate::math::Pose3;
use crate::shape::heightfield_3d::HeightField;
use crate::shape::shape_3d::Shape;
use crate::shape::{Compound, TriMesh};

any_shape! {
    /// Any 3D shape: a convex [`Shape`] or a composite (compound, ...). Every pair of
    /// kinds answers every query through [`crate::query::dispatch`]; swapping A and B
    /// mirrors the answer.
    #[cfg_attr(
        feature = "serde",
        derive(serde::Serialize, serde::Deserialize),
        serde(bound = "R: crate::serial::SerdeReal, R::V3: crate::algo::gjk::GjkVector<Pose = Pose3<R>>")
    )]
    AnyShape<R> over R::V3, pose Pose3<R>, convex Shape<R>;
    /// Convex parts with poses ([`Compound`]).
    Compound(Compound<R::V3, Shape<R>>),
    /// A triangle mesh ([`TriMesh`]), open or solid.
    TriMesh(TriMesh<R>),
    /// A heightfield ([`HeightField`]).
    HeightField(HeightField<R>),
}
