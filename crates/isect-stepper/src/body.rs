//! Rigid bodies: a shape at a pose, velocities, and the inverse mass and inertia
//! the solver divides by (zero for a static body, which nothing moves).

use crate::dim::Dim;
use isect::math::{Isometry, Vector};
use std::fmt;

/// A body whose shape has no mass formula (see [`crate::mass`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedShape {
    /// The shape's kind (`"Segment"`, `"TriMesh"`, ...).
    pub kind: &'static str,
}

impl fmt::Display for UnsupportedShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no mass properties for a {} (make it static)", self.kind)
    }
}

impl std::error::Error for UnsupportedShape {}

/// A rigid body. Its shape is placed at `pose`; velocities are those of its centre
/// of mass (linear, in m/s) and its turn about that centre (rad/s).
#[derive(Clone, Debug)]
pub struct Body<D: Dim> {
    /// The collision shape, in the body's frame.
    pub shape: D::Shape,
    /// The body's frame in the world.
    pub pose: D::Pose,
    /// Velocity of the centre of mass.
    pub linear_velocity: D::V,
    /// Angular velocity about the centre of mass.
    pub angular_velocity: D::Ang,
    inverse_mass: f64,
    local_inverse_inertia: D::Inertia,
    local_center: D::V,
}

impl<D: Dim> Body<D> {
    /// A static body (infinite mass): a floor, a wall.
    pub fn fixed(shape: impl Into<D::Shape>, pose: D::Pose) -> Self {
        Self {
            shape: shape.into(),
            pose,
            linear_velocity: D::V::ZERO,
            angular_velocity: D::Ang::default(),
            inverse_mass: 0.0,
            local_inverse_inertia: D::zero_inertia(),
            local_center: D::V::ZERO,
        }
    }

    /// A moving body of uniform `density` (kg/m³, or kg/m² in 2D), at rest.
    ///
    /// # Errors
    /// [`UnsupportedShape`] for a kind with no mass formula.
    pub fn dynamic(
        shape: impl Into<D::Shape>,
        pose: D::Pose,
        density: f64,
    ) -> Result<Self, UnsupportedShape> {
        let shape = shape.into();
        let Some(props) = D::mass_properties(&shape, density) else {
            return Err(UnsupportedShape {
                kind: D::kind_name(&shape),
            });
        };
        Ok(Self {
            shape,
            pose,
            linear_velocity: D::V::ZERO,
            angular_velocity: D::Ang::default(),
            inverse_mass: if props.mass > 0.0 {
                1.0 / props.mass
            } else {
                0.0
            },
            local_inverse_inertia: D::invert(props.inertia),
            local_center: props.local_center,
        })
    }

    /// True for a body of infinite mass.
    pub fn is_static(&self) -> bool {
        self.inverse_mass == 0.0
    }

    /// `1 / mass` (0 for a static body).
    pub fn inverse_mass(&self) -> f64 {
        self.inverse_mass
    }

    /// The centre of mass in the body's frame.
    pub fn local_center(&self) -> D::V {
        self.local_center
    }

    /// The centre of mass in the world.
    pub fn center(&self) -> D::V {
        self.pose.transform_point(self.local_center)
    }

    /// The inverse inertia tensor in the world frame (zero for a static body).
    pub fn world_inverse_inertia(&self) -> D::Inertia {
        D::world_inertia(self.local_inverse_inertia, &self.pose)
    }

    /// Linear speed of the centre of mass (m/s).
    pub fn speed(&self) -> f64 {
        self.linear_velocity.length()
    }

    /// Angular speed (rad/s).
    pub fn angular_speed(&self) -> f64 {
        D::ang_length(self.angular_velocity)
    }
}
