//! The few types and functions of Box2D v3's collision API (`box2d/collision.h`,
//! `box2d/math_functions.h`) that the bench calls, declared by hand (single precision).
#![allow(non_snake_case, non_camel_case_types)]

use std::os::raw::c_int;

/// `B2_MAX_POLYGON_VERTICES`.
pub const MAX_POLYGON_VERTICES: usize = 8;

#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct b2Vec2 {
    pub x: f32,
    pub y: f32,
}

#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct b2Rot {
    pub c: f32,
    pub s: f32,
}

#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct b2Transform {
    pub p: b2Vec2,
    pub q: b2Rot,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct b2Polygon {
    pub vertices: [b2Vec2; MAX_POLYGON_VERTICES],
    pub normals: [b2Vec2; MAX_POLYGON_VERTICES],
    pub centroid: b2Vec2,
    pub radius: f32,
    pub count: c_int,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct b2Hull {
    pub points: [b2Vec2; MAX_POLYGON_VERTICES],
    pub count: c_int,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct b2Capsule {
    pub center1: b2Vec2,
    pub center2: b2Vec2,
    pub radius: f32,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct b2LocalManifoldPoint {
    /// Contact point in frame A (midway between the surfaces).
    pub point: b2Vec2,
    /// Negative when penetrating.
    pub separation: f32,
    pub id: u16,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct b2LocalManifold {
    /// Unit normal in frame A, from A to B.
    pub normal: b2Vec2,
    pub points: [b2LocalManifoldPoint; 2],
    pub pointCount: c_int,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct b2Version {
    pub major: c_int,
    pub minor: c_int,
    pub revision: c_int,
}

extern "C" {
    pub fn b2GetVersion() -> b2Version;
    pub fn b2ComputeHull(points: *const b2Vec2, count: c_int) -> b2Hull;
    pub fn b2MakePolygon(hull: *const b2Hull, radius: f32) -> b2Polygon;
    pub fn b2MakeBox(half_width: f32, half_height: f32) -> b2Polygon;
    pub fn b2CollidePolygons(
        polygon_a: *const b2Polygon,
        polygon_b: *const b2Polygon,
        xf: b2Transform,
    ) -> b2LocalManifold;
    pub fn b2CollideCapsules(
        capsule_a: *const b2Capsule,
        capsule_b: *const b2Capsule,
        xf: b2Transform,
    ) -> b2LocalManifold;
    pub fn b2CollidePolygonAndCapsule(
        polygon_a: *const b2Polygon,
        capsule_b: *const b2Capsule,
        xf: b2Transform,
    ) -> b2LocalManifold;
}

/// `b2InvMulTransforms(a, b)` (an inline function of `math_functions.h`): B's frame
/// in A's, the transform that the v3 manifold functions take, as Box2D's contact
/// update computes it before each call.
#[inline(always)]
pub fn inv_mul_transforms(a: &b2Transform, b: &b2Transform) -> b2Transform {
    let q = b2Rot {
        c: a.q.c * b.q.c + a.q.s * b.q.s,
        s: a.q.c * b.q.s - a.q.s * b.q.c,
    };
    let (dx, dy) = (b.p.x - a.p.x, b.p.y - a.p.y);
    let p = b2Vec2 {
        x: a.q.c * dx + a.q.s * dy,
        y: -a.q.s * dx + a.q.c * dy,
    };
    b2Transform { p, q }
}
