"""The single query verbs against analytic answers, pose forms, and bad input."""

import math

import numpy as np
import pytest

import isect

IDENTITY_Q = (0.0, 0.0, 0.0, 1.0)


def at(x, y=0.0, z=0.0, q=IDENTITY_Q):
    return ((x, y, z), q)


def quat_z(angle):
    """Scalar-last quaternion of a rotation by `angle` about z."""
    return (0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2))


def matrix_z(x, y, z, angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0, x], [s, c, 0, y], [0, 0, 1, z], [0, 0, 0, 1.0]])


def test_sphere_pair_analytic():
    a, b = isect.Sphere(1.0), isect.Sphere(0.5)
    for gap in (-0.75, -0.1, 0.0, 0.3, 2.0):
        x = 1.5 + gap
        assert isect.distance(a, None, b, at(x)) == pytest.approx(max(gap, 0.0), abs=1e-12)
        assert isect.intersects(a, None, b, at(x)) == (gap <= 0.0)
        c = isect.contact(a, None, b, at(x), prediction=0.5)
        if gap > 0.5:
            assert c is None
        else:
            assert c.depth == pytest.approx(-gap, abs=1e-12)
            assert c.normal == pytest.approx((1.0, 0.0, 0.0))
            pa, pb = np.array(c.point_a), np.array(c.point_b)
            assert pa - pb == pytest.approx(c.depth * np.array(c.normal), abs=1e-12)
    cp = isect.closest_points(a, None, b, at(3.0))
    assert cp.distance == pytest.approx(1.5)
    assert cp.point_a == pytest.approx((1.0, 0.0, 0.0)) and cp.point_b == pytest.approx((2.5, 0.0, 0.0))


def test_quaternion_is_scalar_last_and_matrix_agrees():
    # A 4 x 0.2 x 0.2 bar turned 90 degrees about z reaches y = 2; unturned it does not.
    bar, probe = isect.Box([2.0, 0.1, 0.1]), isect.Sphere(0.1)
    probe_pose = at(0.0, 1.9)
    assert not isect.intersects(bar, None, probe, probe_pose)
    turned = ((0.0, 0.0, 0.0), quat_z(math.pi / 2))
    assert isect.intersects(bar, turned, probe, probe_pose)
    assert isect.intersects(bar, matrix_z(0, 0, 0, math.pi / 2), probe, probe_pose)
    rng = np.random.default_rng(11)
    for _ in range(50):
        x, y, z, angle = rng.uniform(-2, 2, 4)
        d_tuple = isect.distance(bar, ((x, y, z), quat_z(angle)), probe, probe_pose)
        d_matrix = isect.distance(bar, matrix_z(x, y, z, angle), probe, probe_pose)
        assert d_tuple == pytest.approx(d_matrix, abs=1e-12)


def test_box_box_manifold_has_four_points_with_stable_ids():
    floor, crate = isect.Box([5.0, 0.5, 5.0]), isect.Box([0.5, 0.5, 0.5])
    m1 = isect.contact_manifold(floor, None, crate, at(0.0, 0.99), prediction=0.0)
    m2 = isect.contact_manifold(floor, None, crate, at(0.01, 0.99), prediction=0.0)
    assert len(m1) == 4
    assert m1.normal == pytest.approx((0.0, 1.0, 0.0))
    assert all(p.depth == pytest.approx(0.01) for p in m1.points)
    assert sorted(p.feature_id for p in m1.points) == sorted(p.feature_id for p in m2.points)
    assert isect.contact_manifold(floor, None, crate, at(0.0, 1.5)) is None


def test_ray_cast_and_solid_flag():
    sphere = isect.Sphere(1.0)
    hit = isect.cast_ray(sphere, at(5.0), (0, 0, 0), (1, 0, 0))
    assert hit.t == pytest.approx(4.0) and hit.normal == pytest.approx((-1.0, 0.0, 0.0))
    assert isect.cast_ray(sphere, at(5.0), (0, 0, 0), (1, 0, 0), max_t=3.9) is None
    inside = isect.cast_ray(sphere, None, (0, 0, 0), (1, 0, 0))
    assert inside.t == 0.0
    assert isect.cast_ray(sphere, None, (0, 0, 0), (2, 0, 0), solid=False).t == pytest.approx(0.5)
    # A NaN or infinite ray is a miss, as the batches' rows are (not an error).
    assert isect.cast_ray(sphere, None, (math.nan, 0, 0), (1, 0, 0)) is None


def test_cast_shape_and_time_of_impact():
    a, b = isect.Sphere(1.0), isect.Box([1.0, 1.0, 1.0])
    hit = isect.cast_shape(a, at(-10.0), (4.0, 0, 0), b, None, (0, 0, 0), max_t=10.0)
    assert hit.time == pytest.approx(2.0, abs=1e-6)
    assert hit.normal == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)
    assert isect.cast_shape(a, at(-10.0), (4.0, 0, 0), b, None, (0, 0, 0), max_t=1.0) is None
    toi = isect.time_of_impact(a, at(-10.0), at(10.0), b, None, None)
    assert toi.time == pytest.approx(0.4, abs=1e-6)


def test_point_queries_2d_and_3d():
    box = isect.Box([1.0, 2.0, 3.0])
    assert isect.contains_point(box, None, (0.5, 1.9, -2.9))
    assert not isect.contains_point(box, at(10.0), (0.5, 1.9, -2.9))
    p = isect.project_point(box, None, (3.0, 0.0, 0.0))
    assert p.point == pytest.approx((1.0, 0.0, 0.0)) and not p.is_inside and p.distance == pytest.approx(2.0)
    inner = isect.project_point(box, None, (0.5, 0.0, 0.0), solid=False)
    assert inner.is_inside and inner.point == pytest.approx((1.0, 0.0, 0.0))
    circle = isect.Circle(1.0)
    assert isect.contains_point(circle, ((2.0, 0.0), 0.0), (2.5, 0.5))
    assert isect.distance(circle, None, isect.Rectangle([1.0, 1.0]), ((3.0, 0.0), math.pi / 4)) == pytest.approx(
        2.0 - math.sqrt(2.0), abs=1e-12
    )
    turned = np.array([[0.0, -1.0, 3.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert isect.distance(circle, None, isect.Rectangle([2.0, 0.5]), turned) == pytest.approx(1.5, abs=1e-12)


def test_non_finite_poses_give_the_documented_miss():
    a, b = isect.Sphere(1.0), isect.Sphere(1.0)
    bad = ((math.nan, 0.0, 0.0), IDENTITY_Q)
    assert isect.intersects(a, bad, b, None) is False
    assert math.isnan(isect.distance(a, bad, b, None))
    assert isect.contact(a, bad, b, None) is None
    assert isect.cast_ray(a, bad, (5, 0, 0), (-1, 0, 0)) is None
    assert isect.intersects(a, ((0, 0, 0), (math.inf, 0, 0, 1)), b, None) is False


@pytest.mark.parametrize(
    "pose, error",
    [
        (((0, 0, 0), (0, 0, 0, 2.0)), ValueError),
        (((0, 0, 0), (0, 0, 0)), TypeError),
        (((0, 0), IDENTITY_Q), TypeError),
        (np.eye(3), TypeError),
        (np.diag([1.0, 1.0, 2.0, 1.0]), ValueError),
        (np.diag([1.0, 1.0, -1.0, 1.0]), ValueError),
        ("pose", TypeError),
        ((("0", 0, 0), IDENTITY_Q), TypeError),
        (((0, 0, 0), (0, 0, None, 1)), TypeError),
        (((0, 0, 0, 0), IDENTITY_Q), TypeError),
        ((np.array(["0", "0", "0"]), IDENTITY_Q), TypeError),
        (np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, None]], dtype=object), TypeError),
    ],
)
def test_bad_poses_are_refused(pose, error):
    with pytest.raises(error):
        isect.distance(isect.Sphere(1.0), pose, isect.Sphere(1.0), None)


def test_tuples_lists_and_arrays_are_the_same_pose():
    rng = np.random.default_rng(12)
    a, b = isect.Box([0.5, 0.3, 0.4]), isect.Capsule(0.4, 0.2)
    for _ in range(50):
        t = rng.uniform(-1, 1, 3)
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        forms = [
            (tuple(float(x) for x in t), tuple(float(x) for x in q)),
            ([float(x) for x in t], [float(x) for x in q]),
            (t, q),
            (tuple(np.float32(x) for x in t), q),  # numpy scalars in a tuple
        ]
        answers = [isect.distance(a, pose, b, None) for pose in forms]
        assert answers[:3] == [answers[0]] * 3
        assert answers[3] == pytest.approx(answers[0], abs=1e-6)
        # numpy.float64 items (read directly) in tuples and lists.
        assert isect.distance(a, (tuple(t), tuple(q)), b, None) == answers[0]
        assert isect.distance(a, (list(t), list(q)), b, None) == answers[0]
        # float64 arrays are read in place when contiguous, through numpy otherwise:
        # strided, read-only, integer and float32 arrays answer as the tuple.
        strided_t, strided_q = np.repeat(t, 2)[::2], np.repeat(q, 2)[::2]
        frozen_t = t.copy()
        frozen_t.flags.writeable = False
        arrays = [(strided_t, strided_q), (frozen_t, q.copy()), (t, q.astype(np.float32).astype(np.float64))]
        assert [isect.distance(a, pose, b, None) for pose in arrays[:2]] == [answers[0]] * 2
        assert isect.distance(a, arrays[2], b, None) == pytest.approx(answers[0], abs=1e-6)
        assert isect.distance(a, (t.astype(np.float32), q), b, None) == pytest.approx(answers[0], abs=1e-6)
    class Real(float):
        pass

    one = ((1.0, 0.0, 0.0), IDENTITY_Q)
    for items in [(Real(1.0), 0.0, 0.0), (np.int64(1), np.float32(0.0), False), (True, np.float64(0.0), 0)]:
        assert isect.distance(a, (items, IDENTITY_Q), b, None) == isect.distance(a, one, b, None)
    assert math.isnan(isect.distance(a, ((np.float64("nan"), 0.0, 0.0), IDENTITY_Q), b, None))
    with pytest.raises(TypeError, match="item 1 is not a number"):
        isect.distance(a, ((0.0, np.str_("1"), 0.0), IDENTITY_Q), b, None)
    assert isect.distance(a, (np.array([1, 0, 0]), np.array([0, 0, 0, 1])), b, None) == isect.distance(a, ((1.0, 0.0, 0.0), IDENTITY_Q), b, None)
    for bad in [(np.zeros(4), IDENTITY_Q), ((0.0, 0.0, 0.0), np.zeros(3)), (np.zeros(2), IDENTITY_Q)]:
        with pytest.raises(TypeError, match="expected [34] numbers"):
            isect.distance(a, bad, b, None)
    with pytest.raises(ValueError):
        isect.distance(a, (np.zeros(3), np.zeros(4)), b, None)
    assert math.isnan(isect.distance(a, (np.array([math.nan, 0.0, 0.0]), np.array(IDENTITY_Q)), b, None))


def test_mixing_dimensions_or_non_shapes_is_a_type_error():
    with pytest.raises(TypeError):
        isect.distance(isect.Sphere(1.0), None, isect.Circle(1.0), None)
    with pytest.raises(TypeError):
        isect.distance(isect.Sphere(1.0), None, "sphere", None)
    with pytest.raises(ValueError):
        isect.contact(isect.Sphere(1.0), None, isect.Sphere(1.0), None, prediction=-1.0)


def test_near_unit_quaternions_are_normalised():
    q = np.array(quat_z(0.3), dtype=np.float32).astype(np.float64)
    d = isect.distance(isect.Box([1, 1, 1]), ((0, 0, 0), q), isect.Sphere(0.5), at(3.0))
    assert d == pytest.approx(isect.distance(isect.Box([1, 1, 1]), ((0, 0, 0), quat_z(0.3)), isect.Sphere(0.5), at(3.0)), abs=1e-6)


def test_prebuilt_poses_answer_as_their_tuples_at_the_edges():
    """An `isect.Pose` is checked for the pair queries once, when built; at the edges
    (a translation beyond the coordinate limit, NaN or infinite numbers, a quaternion
    a little off unit length, a 2D angle of NaN) every verb answers as the tuple does."""
    capsule, box = isect.Capsule(0.5, 0.3), isect.Box([0.4, 0.25, 0.6])
    off_unit = tuple(c * (1.0 + 3e-9) for c in quat_z(0.4))
    edges = [
        ((2.0**252, 0.0, 0.0), IDENTITY_Q),
        ((-(2.0**251), 0.0, 0.0), IDENTITY_Q),
        ((math.nan, 0.0, 0.0), IDENTITY_Q),
        ((0.0, math.inf, 0.0), IDENTITY_Q),
        ((0.0, 0.0, 0.0), (math.nan, 0.0, 0.0, 1.0)),
        ((0.6, 0.0, 0.1), off_unit),
        ((0.6, 0.0, 0.1), quat_z(0.4)),
    ]

    def answers(pose):
        cp = isect.closest_points(capsule, pose, box, None)
        contact = isect.contact(capsule, pose, box, None, 0.2)
        manifold = isect.contact_manifold(box, None, capsule, pose, 0.2)
        hit = isect.cast_shape(capsule, pose, (1.0, 0.0, 0.0), box, None, (0.0, 0.0, 0.0), 5.0)
        return (
            isect.intersects(capsule, pose, box, None),
            repr(isect.distance(box, None, capsule, pose)),
            repr((cp.distance, cp.point_a, cp.point_b)),
            None if contact is None else (contact.depth, contact.normal),
            None if manifold is None else (manifold.normal, [p.depth for p in manifold.points]),
            None if hit is None else (hit.time, hit.normal, hit.point_a),
        )

    for t, q in edges:
        assert answers(isect.Pose(t, q)) == answers((t, q)), (t, q)
    # Both poses prebuilt and both shapes 3D: the pair verbs' direct path, as the tuples.
    beside = ((0.3, 0.1, 0.0), quat_z(0.2))
    for t, q in edges:
        for verb in (isect.intersects, isect.distance):
            ours = (verb(capsule, isect.Pose(t, q), box, isect.Pose(*beside)), verb(box, isect.Pose(*beside), capsule, isect.Pose(t, q)))
            theirs = (verb(capsule, (t, q), box, beside), verb(box, beside, capsule, (t, q)))
            assert repr(ours) == repr(theirs), (verb, t, q)
    for verb in (isect.intersects, isect.distance):
        with pytest.raises(TypeError, match="2D Pose"):
            verb(capsule, isect.Pose((0.0, 0.0), 0.0), box, isect.Pose(*beside))
    assert answers(isect.Pose(*edges[0]))[:2] == (False, "nan")
    assert answers(isect.Pose(*edges[5]))[0] is True
    square, circle = isect.Rectangle([0.5, 0.5]), isect.Circle(0.25)
    for t, angle in [((math.nan, 0.0), 0.0), ((0.5, 0.0), math.nan), ((2.0**252, 0.0), 0.0), ((0.6, 0.1), 0.3)]:
        ours = [isect.distance(square, isect.Pose(t, angle), circle, None), isect.intersects(circle, None, square, isect.Pose(t, angle))]
        theirs = [isect.distance(square, (t, angle), circle, None), isect.intersects(circle, None, square, (t, angle))]
        assert repr(ours) == repr(theirs), (t, angle)


def test_prebuilt_poses_answer_as_their_tuples():
    """An `isect.Pose` gives the answers of the tuple or matrix it was built from, in
    every verb, both dimensions; it pickles; bad ones are refused as the tuples are."""
    import pickle

    rng = np.random.default_rng(7)
    box, capsule = isect.Box([0.4, 0.25, 0.6]), isect.Capsule(0.5, 0.3)
    for _ in range(200):
        t = rng.uniform(-1.5, 1.5, size=3)
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        tup = (tuple(t), tuple(q))
        pose = isect.Pose(t, q)
        assert isect.distance(capsule, pose, box, None) == isect.distance(capsule, tup, box, None)
        assert isect.intersects(box, None, capsule, pose) == isect.intersects(box, None, capsule, tup)
        c1, c2 = isect.contact(capsule, pose, box, None, 0.1), isect.contact(capsule, tup, box, None, 0.1)
        assert (c1 is None) == (c2 is None)
        if c1 is not None:
            assert c1.depth == c2.depth and c1.normal == c2.normal
        copy = pickle.loads(pickle.dumps(pose))
        assert copy == pose and copy.rotation == pose.rotation
        assert isect.distance(capsule, copy, box, None) == isect.distance(capsule, pose, box, None)
    m = matrix_z(0.3, -0.2, 0.1, 0.7)
    assert isect.distance(box, isect.Pose.from_matrix(m), capsule, at(2.0)) == pytest.approx(
        isect.distance(box, m, capsule, at(2.0)), abs=1e-12
    )
    square, circle = isect.Rectangle([0.5, 0.5]), isect.Circle(0.25)
    p2 = isect.Pose([1.0, 0.0], 0.3)
    assert p2.dim == 2 and p2.rotation == pytest.approx(0.3)
    for angle in rng.uniform(-10.0, 10.0, size=50):
        turned = isect.Pose([0.5, -0.25], angle)
        copy = pickle.loads(pickle.dumps(turned))
        assert copy == turned
        assert isect.distance(square, copy, circle, p2) == isect.distance(square, turned, circle, p2)
    assert isect.distance(square, None, circle, p2) == pytest.approx(0.25, abs=1e-12)
    assert isect.Pose([1.0, 2.0, 3.0]).rotation == IDENTITY_Q
    with pytest.raises(ValueError):
        isect.Pose([0, 0, 0], [0, 0, 0, 2.0])
    with pytest.raises(TypeError):
        isect.Pose([0, 0, 0, 0])
    with pytest.raises(TypeError):
        isect.distance(square, None, circle, isect.Pose([0, 0, 0]))
    with pytest.raises(TypeError):
        isect.distance(box, None, capsule, p2)
    nan = isect.Pose([math.nan, 0, 0])
    assert math.isnan(isect.distance(box, None, capsule, nan))


def corner_mesh():
    """An L of two quads: a floor (y = 0, x <= 1) and a wall (x = 1)."""
    vertices = [(-3, 0, -3), (1, 0, -3), (1, 0, 3), (-3, 0, 3), (1, 4, -3), (1, 4, 3)]
    return isect.TriMesh(np.array(vertices, float), np.array([[0, 2, 1], [0, 3, 2], [1, 2, 5], [1, 5, 4]]))


def test_a_box_in_a_corner_gets_the_floor_and_the_wall():
    corner, crate = corner_mesh(), isect.Box([0.5, 0.5, 0.5])
    ms = isect.contact_manifolds(corner, None, crate, at(0.55, 0.4), prediction=0.0)
    assert [tuple(m.normal) for m in ms] == [pytest.approx((0, 1, 0)), pytest.approx((-1, 0, 0))]
    assert [p.depth for p in ms[0].points] == pytest.approx([0.1] * 4)
    assert [p.depth for p in ms[1].points] == pytest.approx([0.05] * len(ms[1].points))
    first = isect.contact_manifold(corner, None, crate, at(0.55, 0.4))
    assert first.normal == ms[0].normal
    # Clear of the wall: one manifold; apart: none.
    assert len(isect.contact_manifolds(corner, None, crate, at(0.0, 0.4))) == 1
    assert isect.contact_manifolds(corner, None, crate, at(0.0, 2.0)) == []
    # Convex pairs give at most one.
    floor = isect.Box([5.0, 0.5, 5.0])
    assert len(isect.contact_manifolds(floor, None, crate, at(0.0, 0.9))) == 1

    world = isect.World(manifolds=True)
    wall = world.insert(corner, static=True)
    box = world.insert(crate, at(0.55, 0.4))
    world.update()
    entries = world.manifolds()
    assert [(a, b) for a, b, _ in entries] == [(min(wall, box), max(wall, box))] * 2
    assert len(world.contacts()) == 2


def test_reading_numbers_imports_nothing():
    """A pose's numbers are read without importing numpy (an import there ran code that
    could call back into isect, and deadlocked it); `numpy.float64` items are read once
    numpy is loaded. Run in a fresh interpreter, where numpy is not loaded yet."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import sys, isect
        ball = isect.Sphere(1.0)
        class Hook:
            def find_spec(self, name, path=None, target=None):
                if name == "numpy":
                    assert isect.distance(ball, ((3, 0, 0), (0, 0, 0, 1)), ball, None) == 1.0
                return None
        sys.meta_path.insert(0, Hook())
        assert isect.distance(ball, ((3, 0, 0.0), (0, 0, 0, True)), ball, None) == 1.0
        assert "numpy" not in sys.modules
        import numpy as np
        assert isect.distance(ball, ((np.float64(3), 0, np.float64(-0.0)), (0, 0, 0, 1)), ball, None) == 1.0
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
