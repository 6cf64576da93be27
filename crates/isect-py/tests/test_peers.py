"""Differential tests against python-fcl and coal on thousands of seeded cases, and mesh
ray casts against trimesh's pure-numpy ray module.

Frames: fcl's and coal's capsule and cylinder axes are local z with full lengths and
boxes take full sides; isect's axes are local y with half lengths and boxes take half
extents. `PEER_FROM_ISECT` turns one frame into the other.
"""

import math

import numpy as np
import pytest

import isect

fcl = pytest.importorskip("fcl")

# Rotation taking the peers' local z axis onto isect's local y axis (x by -90 degrees).
PEER_FROM_ISECT = np.array([[1.0, 0, 0], [0, 0, 1.0], [0, -1.0, 0]])
CASES_PER_PAIR = 400
# python-fcl's GJK (libccd) is loose: a box-capsule distance 5e-5 and a capsule-cylinder
# distance 2.3e-4 off the exact value, where coal and isect agree within 1e-6 (isect's
# closest points checked on both surfaces). coal's GJK stops at 1e-6.
FCL_TOLERANCE = 1e-3
COAL_TOLERANCE = 1e-5


def kinds():
    """(isect shape, fcl geometry, coal geometry factory, whether the axis needs turning)."""
    return {
        "sphere": (isect.Sphere(0.5), lambda m: m.Sphere(0.5), False),
        "box": (isect.Box([0.4, 0.25, 0.6]), lambda m: m.Box(0.8, 0.5, 1.2), False),
        "capsule": (isect.Capsule(0.5, 0.3), lambda m: m.Capsule(0.3, 1.0), True),
        "cylinder": (isect.Cylinder(0.4, 0.35), lambda m: m.Cylinder(0.35, 0.8), True),
    }


def rotation(q):
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_pose(rng, spread):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return rng.uniform(-spread, spread, 3), q


def peer_rotation(q, turned):
    r = rotation(q)
    return r @ PEER_FROM_ISECT if turned else r


def fcl_object(geometry, t, q, turned):
    return fcl.CollisionObject(geometry, fcl.Transform(peer_rotation(q, turned), t))


def pair_cases(seed):
    rng = np.random.default_rng(seed)
    names = sorted(kinds())
    for i, a in enumerate(names):
        for b in names[i:]:
            for _ in range(CASES_PER_PAIR):
                yield a, b, random_pose(rng, 1.2), random_pose(rng, 1.2)


def isect_pose(t, q):
    return (tuple(t), tuple(q))


def test_distance_and_collision_against_fcl():
    table = kinds()
    checked = 0
    for a, b, (ta, qa), (tb, qb) in pair_cases(41):
        sa, ga, turn_a = table[a]
        sb, gb, turn_b = table[b]
        ours = isect.distance(sa, isect_pose(ta, qa), sb, isect_pose(tb, qb))
        oa, ob = fcl_object(ga(fcl), ta, qa, turn_a), fcl_object(gb(fcl), tb, qb, turn_b)
        if ours > FCL_TOLERANCE:
            theirs = fcl.distance(oa, ob, fcl.DistanceRequest(), fcl.DistanceResult())
            assert ours == pytest.approx(theirs, abs=FCL_TOLERANCE), (a, b, ta, qa, tb, qb)
        contact = isect.contact(sa, isect_pose(ta, qa), sb, isect_pose(tb, qb))
        grazing = ours <= FCL_TOLERANCE and (contact is None or contact.depth < FCL_TOLERANCE)
        if not grazing:
            collides = fcl.collide(oa, ob, fcl.CollisionRequest(), fcl.CollisionResult()) > 0
            assert isect.intersects(sa, isect_pose(ta, qa), sb, isect_pose(tb, qb)) == collides, (a, b)
            checked += 1
    assert checked > 0.95 * CASES_PER_PAIR * 10


def test_distance_and_nearest_points_against_coal():
    coal = pytest.importorskip("coal")
    table = kinds()
    for a, b, (ta, qa), (tb, qb) in pair_cases(42):
        sa, ga, turn_a = table[a]
        sb, gb, turn_b = table[b]
        cp = isect.closest_points(sa, isect_pose(ta, qa), sb, isect_pose(tb, qb))
        if cp.distance <= COAL_TOLERANCE:
            continue
        result = coal.DistanceResult()
        theirs = coal.distance(
            ga(coal), coal.Transform3s(peer_rotation(qa, turn_a), ta),
            gb(coal), coal.Transform3s(peer_rotation(qb, turn_b), tb),
            coal.DistanceRequest(), result,
        )
        assert cp.distance == pytest.approx(theirs, abs=COAL_TOLERANCE), (a, b)
        # Our closest points lie on the shapes and are `distance` apart.
        assert np.linalg.norm(np.subtract(cp.point_a, cp.point_b)) == pytest.approx(cp.distance, abs=1e-9)


def test_mesh_rays_against_trimesh():
    trimesh = pytest.importorskip("trimesh")
    from trimesh.ray.ray_triangle import RayMeshIntersector

    source = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
    mesh = isect.TriMesh(source.vertices, source.faces)
    rng = np.random.default_rng(43)
    n = 3000
    origins = rng.normal(size=(n, 3))
    origins = 3.0 * origins / np.linalg.norm(origins, axis=1, keepdims=True)
    directions = rng.uniform(-1.1, 1.1, size=(n, 3)) - origins
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    ours = isect.cast_rays(mesh, None, origins, directions)
    theirs = RayMeshIntersector(source).intersects_first(origins, directions)
    agree = ours.hit == (theirs >= 0)
    # A ray through a shared edge may be missed by trimesh's tolerance-based test; ours
    # is watertight. Allow a handful of such rays, and check the rest exactly.
    assert agree.mean() >= 0.999
    both = ours.hit & (theirs >= 0)
    assert both.sum() > n // 3
    for i in np.flatnonzero(both):
        v = source.vertices[source.faces[theirs[i]]]
        normal = np.cross(v[1] - v[0], v[2] - v[0])
        t = np.dot(v[0] - origins[i], normal) / np.dot(directions[i], normal)
        assert ours.t[i] == pytest.approx(t, abs=1e-9)


def test_sphere_rays_analytic():
    rng = np.random.default_rng(44)
    origins = rng.uniform(-3, 3, size=(5000, 3))
    directions = rng.normal(size=(5000, 3))
    hits = isect.cast_rays(isect.Sphere(1.0), None, origins, directions, solid=False)
    # Analytic: |o + t d| = 1, smallest t >= 0.
    a = np.einsum("ij,ij->i", directions, directions)
    b = np.einsum("ij,ij->i", origins, directions)
    c = np.einsum("ij,ij->i", origins, origins) - 1.0
    disc = b * b - a * c
    root = np.sqrt(np.maximum(disc, 0.0))
    near, far = (-b - root) / a, (-b + root) / a
    expected = np.where(near >= 0, near, far)
    hit = (disc >= 0) & (expected >= 0)
    clear = np.abs(disc) > 1e-9
    assert (hits.hit[clear] == hit[clear]).all()
    assert hits.t[hit & clear] == pytest.approx(expected[hit & clear], abs=1e-9)
    assert not math.isnan(hits.t[hits.hit].sum())


def test_2d_distances_match_shapely():
    """2D distances of rectangles (the closed form), triangles, segments and convex
    polygons (GJK or the polygons' separating axes) against shapely's (GEOS, exact in
    f64) on 3,000 seeded pairs at random poses, a share of them touching or overlapping."""
    shapely = pytest.importorskip("shapely")
    rng = np.random.default_rng(25)

    def random_kind():
        kind = rng.integers(4)
        if kind == 0:
            h = rng.uniform(0.05, 1.0, 2)
            local = np.array([[-h[0], -h[1]], [h[0], -h[1]], [h[0], h[1]], [-h[0], h[1]]])
            return isect.Rectangle(h), local
        if kind == 1:
            local = rng.uniform(-1.0, 1.0, (3, 2))
            return isect.Triangle2d(local[0], local[1], local[2]), local
        if kind == 2:
            local = rng.uniform(-1.0, 1.0, (2, 2))
            return isect.Segment2d(local[0], local[1]), local
        angles = np.sort(rng.uniform(0.0, 2 * np.pi, rng.integers(3, 9)))
        local = np.column_stack([rng.uniform(0.2, 1.0) * np.cos(angles), rng.uniform(0.2, 1.0) * np.sin(angles)])
        return isect.ConvexPolygon(local), local

    def world(local, t, angle):
        c, s = np.cos(angle), np.sin(angle)
        return local @ np.array([[c, s], [-s, c]]) + t

    def geometry(points):
        if len(points) == 2:
            return shapely.LineString(points)
        return shapely.Polygon(points).convex_hull

    checked = touching = 0
    for case in range(3000):
        try:
            (a, la), (b, lb) = random_kind(), random_kind()
        except ValueError:
            continue  # a triangle or polygon too flat for the constructor
        ta, tb = rng.uniform(-1.0, 1.0, 2), rng.uniform(-2.0, 2.0, 2)
        aa, ab = rng.uniform(-4.0, 4.0, 2)
        ours = isect.distance(a, (tuple(ta), float(aa)), b, (tuple(tb), float(ab)))
        theirs = geometry(world(la, ta, aa)).distance(geometry(world(lb, tb, ab)))
        assert ours == pytest.approx(theirs, abs=1e-9), (case, type(a).__name__, type(b).__name__)
        checked += 1
        touching += theirs == 0.0
    assert checked > 2500 and 300 < touching < checked - 300
