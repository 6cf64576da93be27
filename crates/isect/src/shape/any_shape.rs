//! The `any_shape!` macro behind [`shape_2d::AnyShape`](super::shape_2d::AnyShape) and
//! [`shape_3d::AnyShape`](super::shape_3d::AnyShape): an enum of one `Convex` variant
//! (the convex enum of the dimension) and one variant per composite type, each held
//! in an [`Arc`](std::sync::Arc) so that cloning a scene shares the trees.
//!
//! The macro writes the enum, its [`DispatchShape`](crate::query::dispatch::DispatchShape),
//! [`RayCast`](crate::query::RayCast), [`ProjectPoint`](crate::query::ProjectPoint) and
//! `From` impls. Pair queries go through [`PairQuery`](crate::query::composite::PairQuery):
//! one `match` on A's kind, then one on B's, so that a pair of convex shapes reaches
//! the convex dispatch after two jumps. Adding a composite kind is one line in the
//! invocation (the type must implement `Composite` with the convex enum as its part,
//! `RayCast`, `ProjectPoint` and `Debug`).

/// Defines a shape enum over convex and composite kinds; see the module docs.
macro_rules! any_shape {
    (
        $(#[$meta:meta])*
        $name:ident<$r:ident> over $v:ty, pose $pose:ty, convex $convex:ty;
        manifolds example $manifolds_example:literal;
        $( $(#[$vmeta:meta])* $variant:ident($ty:ty), )*
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        pub enum $name<$r: $crate::math::Real> {
            /// A convex shape: pairs of convex shapes go straight to the convex dispatch.
            Convex($convex),
            $( $(#[$vmeta])* $variant(std::sync::Arc<$ty>), )*
        }

        impl<$r: $crate::math::Real> $name<$r>
        where
            $v: $crate::algo::gjk::GjkVector<Pose = $pose>,
        {
            /// The kind's name: the convex kind's (`"Ball"`, ...) or the composite's
            /// (`"Compound"`, ...).
            pub fn kind_name(&self) -> &'static str {
                match self {
                    Self::Convex(s) => s.kind_name(),
                    $( Self::$variant(_) => stringify!($variant), )*
                }
            }

            /// Runs the pair query `q` on the kinds of `a` and `b`.
            #[inline]
            pub fn pair<Q: $crate::query::composite::PairQuery<$v, $convex>>(
                q: &Q,
                a: &Self,
                b: &Self,
            ) -> Q::Output {
                match a {
                    Self::Convex(x) => match b {
                        Self::Convex(y) => q.convex_convex(x, y),
                        $( Self::$variant(y) => q.convex_composite(x, &**y), )*
                    },
                    $( Self::$variant(x) => Self::pair_composite(q, &**x, b), )*
                }
            }

            /// [`pair`](Self::pair) once A is known to be the composite `a`.
            fn pair_composite<Q, A>(q: &Q, a: &A, b: &Self) -> Q::Output
            where
                Q: $crate::query::composite::PairQuery<$v, $convex>,
                A: $crate::shape::Composite<$v, Part = $convex>,
            {
                match b {
                    Self::Convex(y) => q.composite_convex(a, y),
                    $( Self::$variant(y) => q.composite_composite(a, &**y), )*
                }
            }

            /// Every manifold between the parts of `a` and `b` within `prediction`
            /// (one for a convex pair), as
            /// [`contact_manifolds`]($crate::query::composite::contact_manifolds):
            /// normals from A to B, sorted by part indices. Empty beyond
            /// `prediction`, for a non-finite pose, a rotation refused as by
            /// [`dispatch`]($crate::query::dispatch) or a NaN `prediction`.
            ///
            #[doc = $manifolds_example]
            pub fn contact_manifolds(
                pose_a: &$pose,
                a: &Self,
                pose_b: &$pose,
                b: &Self,
                prediction: $r,
            ) -> Vec<$crate::query::composite::PartManifold<$v>> {
                let pose_a = &$crate::query::dispatch::entering_pose::<$v>(pose_a);
                let pose_b = &$crate::query::dispatch::entering_pose::<$v>(pose_b);
                let poses = $crate::query::composite::Poses { a: pose_a, b: pose_b };
                Self::pair(&$crate::query::composite::ManifoldPair(poses, prediction), a, b)
            }
        }

        /// First hits as each kind's [`RayCast`]($crate::query::RayCast) gives them
        /// (composites: the first hit over their parts).
        impl<$r: $crate::math::Real> $crate::query::RayCast<$v> for $name<$r>
        where
            $v: $crate::algo::gjk::GjkVector<Pose = $pose>,
        {
            fn cast_ray(
                &self,
                ray: &$crate::shape::Ray<$v>,
                max_t: $r,
            ) -> Option<$crate::shape::RayHit<$v>> {
                match self {
                    Self::Convex(s) => s.cast_ray(ray, max_t),
                    $( Self::$variant(c) => c.cast_ray(ray, max_t), )*
                }
            }
        }

        /// Projection as each kind's [`ProjectPoint`]($crate::query::ProjectPoint) does it.
        impl<$r: $crate::math::Real> $crate::query::ProjectPoint<$v> for $name<$r>
        where
            $v: $crate::algo::gjk::GjkVector<Pose = $pose>,
        {
            fn project_local_point(
                &self,
                p: $v,
                solid: bool,
            ) -> $crate::query::PointProjection<$v> {
                match self {
                    Self::Convex(s) => s.project_local_point(p, solid),
                    $( Self::$variant(c) => c.project_local_point(p, solid), )*
                }
            }
        }

        $crate::shape::any_shape::any_shape_dispatch!($name<$r> over $v, pose $pose, convex $convex; $($variant)*);

        impl<$r: $crate::math::Real> From<$convex> for $name<$r> {
            #[inline]
            fn from(s: $convex) -> Self {
                Self::Convex(s)
            }
        }

        $(
            impl<$r: $crate::math::Real> From<$ty> for $name<$r> {
                #[inline]
                fn from(c: $ty) -> Self {
                    Self::$variant(std::sync::Arc::new(c))
                }
            }

            impl<$r: $crate::math::Real> From<std::sync::Arc<$ty>> for $name<$r> {
                #[inline]
                fn from(c: std::sync::Arc<$ty>) -> Self {
                    Self::$variant(c)
                }
            }
        )*
    };
}

/// The [`DispatchShape`](crate::query::dispatch::DispatchShape) impl of an
/// `any_shape!` enum (single-shape queries per kind, pair queries by [`PairQuery`]
/// (crate::query::composite::PairQuery)).
macro_rules! any_shape_dispatch {
    ($name:ident<$r:ident> over $v:ty, pose $pose:ty, convex $convex:ty; $($variant:ident)*) => {
        impl<$r: $crate::math::Real> $crate::query::dispatch::DispatchShape<$v> for $name<$r>
        where
            $v: $crate::algo::gjk::GjkVector<Pose = $pose>,
        {
            fn world_aabb(&self, pose: &$pose) -> $crate::shape::Aabb<$v> {
                match self {
                    Self::Convex(s) => s.world_aabb(pose),
                    $( Self::$variant(c) => $crate::query::composite::world_aabb(&**c, pose), )*
                }
            }

            fn contains_point(&self, pose: &$pose, p: $v) -> bool {
                match self {
                    Self::Convex(s) => s.contains_point(pose, p),
                    $( Self::$variant(c) => $crate::query::composite::contains_point(&**c, pose, p), )*
                }
            }

            fn intersects_aabb(&self, pose: &$pose, region: &$crate::shape::Aabb<$v>) -> bool {
                match self {
                    Self::Convex(s) => s.intersects_aabb(pose, region),
                    $( Self::$variant(c) => $crate::query::composite::intersects_aabb(&**c, pose, region), )*
                }
            }

            fn cast_ray_solid(
                &self,
                pose: &$pose,
                ray: &$crate::shape::Ray<$v>,
                max_t: $r,
                solid: bool,
            ) -> Option<$crate::shape::RayHit<$v>> {
                use $crate::query::RayCast;
                use $crate::shape::Composite;
                match self {
                    Self::Convex(s) => s.cast_ray_solid(pose, ray, max_t, solid),
                    $( Self::$variant(c) if solid => c.cast_ray_posed(pose, ray, max_t), )*
                    $( Self::$variant(c) => $crate::query::cast_ray::posed_hit(pose, ray, |r| {
                        c.cast_ray_boundary(r, max_t)
                    }), )*
                }
            }

            fn ray_hit_part(
                &self,
                pose: &$pose,
                ray: &$crate::shape::Ray<$v>,
                hit: &$crate::shape::RayHit<$v>,
                solid: bool,
            ) -> Option<u32> {
                use $crate::math::Isometry;
                let local = $crate::shape::Ray {
                    origin: pose.inverse_transform_point(ray.origin),
                    dir: pose.inverse_transform_vector(ray.dir),
                };
                match self {
                    Self::Convex(_) => None,
                    $( Self::$variant(c) => $crate::shape::Composite::part_of_hit(&**c, &local, hit.t, solid), )*
                }
            }

            #[inline]
            fn intersects_pair(pa: &$pose, a: &Self, pb: &$pose, b: &Self) -> bool {
                let poses = $crate::query::composite::Poses { a: pa, b: pb };
                Self::pair(&$crate::query::composite::IntersectsPair(poses), a, b)
            }

            fn intersects_kernel_pair<'s>(
                a: &'s Self,
                b: &'s Self,
            ) -> $crate::query::dispatch::IntersectsKernel<'s, $v>
            where
                Self: Sync,
            {
                match (a, b) {
                    (Self::Convex(x), Self::Convex(y)) => {
                        $crate::query::dispatch::intersects_kernel(x, y)
                    }
                    _ => Box::new(move |pa, pb| Self::intersects_pair(pa, a, pb, b)),
                }
            }

            #[inline]
            fn contact_pair(
                pa: &$pose,
                a: &Self,
                pb: &$pose,
                b: &Self,
                prediction: $r,
            ) -> Option<$crate::query::Contact<$v>> {
                let poses = $crate::query::composite::Poses { a: pa, b: pb };
                Self::pair(&$crate::query::composite::ContactPair(poses, prediction), a, b)
            }

            /// The convex pair's warm-started contact
            /// ([`dispatch::warm`](crate::query::dispatch::warm)); a pair with a
            /// composite runs uncached (and clears the cache).
            fn contact_pair_cached(
                pa: &$pose,
                a: &Self,
                pb: &$pose,
                b: &Self,
                prediction: $r,
                cache: &mut $crate::query::dispatch::ContactCache<$v>,
            ) -> Option<$crate::query::Contact<$v>> {
                if let (Self::Convex(x), Self::Convex(y)) = (a, b) {
                    return <$convex>::contact_pair_cached(pa, x, pb, y, prediction, cache);
                }
                cache.clear();
                Self::contact_pair(pa, a, pb, b, prediction)
            }

            /// The convex pair's warm-started manifold, as
            /// [`contact_pair_cached`](crate::query::dispatch::DispatchShape::contact_pair_cached).
            fn contact_manifold_pair_cached(
                pa: &$pose,
                a: &Self,
                pb: &$pose,
                b: &Self,
                prediction: $r,
                cache: &mut $crate::query::dispatch::ContactCache<$v>,
            ) -> Option<$crate::query::Manifold<$v>> {
                if let (Self::Convex(x), Self::Convex(y)) = (a, b) {
                    return <$convex>::contact_manifold_pair_cached(pa, x, pb, y, prediction, cache);
                }
                cache.clear();
                Self::contact_manifold_pair(pa, a, pb, b, prediction)
            }

            /// The convex pair's warm-started manifold; for composites, the per-part
            /// manifolds merged by
            /// [`merge_manifolds_by_normal`](crate::query::merge_manifolds_by_normal):
            /// the first returned, the others pushed on `more`.
            fn contact_manifolds_pair_cached(
                pa: &$pose,
                a: &Self,
                pb: &$pose,
                b: &Self,
                prediction: $r,
                cache: &mut $crate::query::dispatch::ContactCache<$v>,
                more: &mut Vec<$crate::query::Manifold<$v>>,
            ) -> Option<$crate::query::Manifold<$v>> {
                if let (Self::Convex(x), Self::Convex(y)) = (a, b) {
                    return <$convex>::contact_manifold_pair_cached(pa, x, pb, y, prediction, cache);
                }
                cache.clear();
                let all = Self::contact_manifolds(pa, a, pb, b, prediction);
                let mut merged =
                    $crate::query::merge_manifolds_by_normal(all.iter().map(|m| &m.manifold))
                        .into_iter();
                let first = merged.next();
                more.extend(merged);
                first
            }

            /// The convex pair's manifold; for composites, the per-part manifolds of
            /// [`contact_manifolds`](Self::contact_manifolds) merged by
            /// [`merge_manifolds`](crate::query::merge_manifolds): those within 5° of
            /// the deepest one's normal, less duplicates, reduced to 4 points (3D) or 2
            /// (2D) of the widest spread. Parts touching along other normals (a box in
            /// a corner) are in [`contact_manifolds`](Self::contact_manifolds).
            fn contact_manifold_pair(
                pa: &$pose,
                a: &Self,
                pb: &$pose,
                b: &Self,
                prediction: $r,
            ) -> Option<$crate::query::Manifold<$v>> {
                if let (Self::Convex(x), Self::Convex(y)) = (a, b) {
                    return <$convex>::contact_manifold_pair(pa, x, pb, y, prediction);
                }
                let all = Self::contact_manifolds(pa, a, pb, b, prediction);
                $crate::query::merge_manifolds(all.iter().map(|m| &m.manifold))
            }

            #[inline]
            fn distance_pair(pa: &$pose, a: &Self, pb: &$pose, b: &Self) -> $r {
                let poses = $crate::query::composite::Poses { a: pa, b: pb };
                Self::pair(&$crate::query::composite::DistancePair(poses), a, b)
            }

            #[inline]
            fn closest_points_pair(
                pa: &$pose,
                a: &Self,
                pb: &$pose,
                b: &Self,
            ) -> $crate::query::ClosestPoints<$v> {
                let poses = $crate::query::composite::Poses { a: pa, b: pb };
                Self::pair(&$crate::query::composite::ClosestPair(poses), a, b)
            }

            #[inline]
            fn cast_pair_with(
                pa: &$pose,
                vel_a: $v,
                a: &Self,
                pb: &$pose,
                vel_b: $v,
                b: &Self,
                max_t: $r,
                options: &$crate::query::ShapeCastOptions<$r>,
            ) -> Option<$crate::query::ShapeCastHit<$v>> {
                let poses = $crate::query::composite::Poses { a: pa, b: pb };
                let q = $crate::query::composite::CastPair { poses, vel_a, vel_b, max_t, options };
                Self::pair(&q, a, b)
            }

            #[inline]
            fn time_of_impact_pair(
                sweep_a: &$crate::query::Sweep<$v>,
                a: &Self,
                sweep_b: &$crate::query::Sweep<$v>,
                b: &Self,
                options: &$crate::query::ShapeCastOptions<$r>,
            ) -> Option<$crate::query::ShapeCastHit<$v>> {
                let q = $crate::query::composite::ToiPair { sweep_a, sweep_b, options };
                Self::pair(&q, a, b)
            }
        }
    };
}

pub(crate) use any_shape;
pub(crate) use any_shape_dispatch;
