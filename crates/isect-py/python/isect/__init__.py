"""isect: collision detection for 2D and 3D.

Shapes (3D: ``Sphere``, ``Box``, ``Capsule``, ``Cylinder``, ``Cone``, ``RoundedBox``,
``ConvexHull``, ``Triangle``, ``Segment``, ``TriMesh``, ``HeightField``, ``Compound``;
2D: ``Circle``, ``Rectangle``, ``Capsule2d``, ``ConvexPolygon``, ``Polygon``,
``Polyline``, ``HeightField2d``, ``Compound2d``, ``Triangle2d``, ``Segment2d``), the
query verbs (``intersects``, ``distance``, ``closest_points``, ``contact``,
``contact_manifold``, ``cast_ray``, ``cast_shape``, ``time_of_impact``,
``contains_point``, ``project_point``), batch functions over numpy arrays
(``cast_rays``, ``first_hit_ids``, ``intersects_rays``, ``contains_points``, ``signed_distances``, ``collide_poses``), the
collision worlds ``World`` and ``World2d``, character controllers, and shapes from
files (``load_mesh``: OBJ, STL, glTF; ``load_polygons``: GeoJSON, WKT).

Poses: ``None`` (identity); in 3D ``(translation, quaternion)`` with the quaternion in
scalar-last order ``(x, y, z, w)`` (as scipy's ``Rotation.as_quat()``), or a 4x4
homogeneous matrix; in 2D ``(translation, angle)`` (radians) or a 3x3 matrix; in
either, an ``isect.Pose`` (the same forms, checked and converted once: a loop of
queries that reuses its poses skips parsing them on every call). Arrays
of poses are ``(n, 7)`` rows ``x, y, z, qx, qy, qz, qw`` or ``(n, 4, 4)`` in 3D, and
``(n, 3)`` rows ``x, y, angle`` or ``(n, 3, 3)`` in 2D. Where one pose or many are
taken (``collide_poses``' ``poses_b``) an array is always an array of poses (a bare
3x3 array is three 2D rows; a bare 4x4 matrix is refused): give one pose as ``None``,
an ``isect.Pose`` (``Pose.from_matrix(m)``), a ``(translation, rotation)`` pair or an
array of one pose. All arithmetic is float64.

Errors: ``ValueError`` for a bad shape or value (the library's message),
``TypeError`` for a wrong type, array shape or dtype, ``WorldError`` (a
``ValueError``) when a world refuses a call, ``FileError`` (a ``ValueError``) naming the
file and the position in it for a file that cannot be read as shapes. NaN or infinite poses, points and rays are
not errors: the queries answer them with a miss (``False``, ``None``, ``nan``), row by
row in the batch functions; a world refuses them where it would store them.
"""

from ._isect import *  # noqa: F401,F403
from ._isect import FileError, WorldError  # noqa: F401

__version__ = "0.1.0"
