"""Batch functions: equal to the single queries row by row, row-wise misses, bad arrays."""

import math

import numpy as np
import pytest

import isect

from test_shapes import CUBE_FACES, CUBE_VERTICES, every_2d_shape, every_3d_shape


def random_poses_3d(rng, n, spread=2.0):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.hstack([rng.uniform(-spread, spread, size=(n, 3)), q])


def random_rays(rng, n, dim):
    origins = rng.uniform(-4, 4, size=(n, dim))
    targets = rng.uniform(-1, 1, size=(n, dim))
    return origins, targets - origins


@pytest.mark.parametrize("shape", every_3d_shape() + every_2d_shape(), ids=lambda s: s.kind)
def test_cast_rays_equals_cast_ray(shape):
    dim = 3 if isinstance(shape, isect.Shape) else 2
    rng = np.random.default_rng(21)
    origins, directions = random_rays(rng, 300, dim)
    pose = ((0.1,) * dim, (0.0, 0.0, math.sin(0.2), math.cos(0.2))) if dim == 3 else ((0.1, 0.1), 0.4)
    hits = isect.cast_rays(shape, pose, origins, directions, max_t=2.0)
    assert hits.hit.shape == (300,) and hits.point.shape == (300, dim)
    for i in range(300):
        one = isect.cast_ray(shape, pose, origins[i], directions[i], max_t=2.0)
        assert bool(hits.hit[i]) == (one is not None), i
        if one is None:
            assert math.isinf(hits.t[i]) and np.isnan(hits.point[i]).all()
        else:
            assert hits.t[i] == pytest.approx(one.t, abs=1e-9)
            assert hits.normal[i] == pytest.approx(one.normal, abs=1e-9)


def test_mesh_rays_carry_triangle_ids():
    mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES)
    rng = np.random.default_rng(4)
    origins = np.column_stack([rng.uniform(-0.9, 0.9, 500), np.full(500, 5.0), rng.uniform(-0.9, 0.9, 500)])
    hits = isect.cast_rays(mesh, None, origins, np.tile([0.0, -1.0, 0.0], (500, 1)))
    assert hits.hit.all()
    assert hits.t == pytest.approx(np.full(500, 4.0))
    top = {i for i, f in enumerate(CUBE_FACES) if all(CUBE_VERTICES[v][1] == 1.0 for v in f)}
    assert set(hits.id.tolist()) <= top and len(set(hits.id.tolist())) == 2


def test_mesh_rays_match_single_casts_in_every_layout():
    """The mesh path reads the arrays' numbers chunk by chunk: contiguous, Fortran
    order, strided and reversed views, broadcast rows, big-endian, read-only and
    integer arrays give the single casts' answers, moved or not, across chunk
    boundaries (1000 rows), with NaN and zero rows missing."""
    mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES)
    rng = np.random.default_rng(8)
    origins, directions = random_rays(rng, 1000, 3)
    origins[7] = math.nan  # a NaN row and a zero direction: misses
    directions[11] = 0.0
    wide = np.zeros((1000, 6))
    wide[:, :3], wide[:, 3:] = origins, directions
    layouts = [
        (origins, directions),
        (np.asfortranarray(origins), np.asfortranarray(directions)),
        (wide[:, :3], wide[:, 3:]),
        (np.rint(np.nan_to_num(origins)).astype(np.int64), np.rint(directions).astype(np.int32)),
        (origins[::-1][::-1], directions.astype(">f8")),
        (np.broadcast_to(origins[3], (1000, 3)), directions),
    ]
    read_only = origins.copy()
    read_only.setflags(write=False)
    layouts.append((read_only, directions))
    turned = ((0.3, -0.2, 0.1), (0.0, math.sin(0.3), 0.0, math.cos(0.3)))
    for pose in (None, turned):
        for o, d in layouts:
            hits = isect.cast_rays(mesh, pose, o, d, solid=False)
            assert hits.t.shape == (1000,) and hits.normal.shape == (1000, 3)
            for i in range(1000):
                if not (np.isfinite(o[i]).all() and np.any(d[i] != 0)):
                    assert not hits.hit[i] and hits.id[i] == -1, i
                    continue
                one = isect.cast_ray(mesh, pose, o[i], d[i], solid=False)
                assert bool(hits.hit[i]) == (one is not None), i
                if one is None:
                    assert math.isinf(hits.t[i]) and hits.id[i] == -1
                    assert np.isnan(hits.point[i]).all() and np.isnan(hits.normal[i]).all()
                else:
                    assert hits.t[i] == pytest.approx(one.t, abs=1e-12)
                    assert hits.point[i] == pytest.approx(one.point, abs=1e-12)
                    assert hits.normal[i] == pytest.approx(one.normal, abs=1e-12)
                    assert 0 <= hits.id[i] < len(CUBE_FACES)
    empty = isect.cast_rays(mesh, None, np.zeros((0, 3)), np.zeros((0, 3)), solid=False)
    assert empty.hit.shape == (0,) and empty.point.shape == (0, 3)


def test_mesh_rays_across_blocks_equal_small_batches():
    """A long batch is copied and cast in blocks of rows (16,384): its answers equal
    those of small batches of the same rows, in every layout, moved or not."""
    mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES)
    rng = np.random.default_rng(9)
    n = 2 * 16_384 + 123
    origins, directions = random_rays(rng, n, 3)
    wide = np.hstack([origins, directions])
    layouts = [
        (origins, directions),
        (np.asfortranarray(origins), np.asfortranarray(directions)),
        (wide[:, :3], wide[:, 3:]),
        (origins[::-1], directions[::-1]),
        (np.rint(origins).astype(np.int64), directions),
    ]
    turned = ((0.3, -0.2, 0.1), (0.0, math.sin(0.3), 0.0, math.cos(0.3)))
    for pose in (None, turned):
        for o, d in layouts:
            whole = isect.cast_rays(mesh, pose, o, d, max_t=0.8, solid=False)
            parts = [isect.cast_rays(mesh, pose, o[i : i + 5000], d[i : i + 5000], max_t=0.8, solid=False) for i in range(0, n, 5000)]
            assert whole.hit.any() and not whole.hit.all()
            for column in ("hit", "t", "point", "normal", "id"):
                expected = np.concatenate([getattr(p, column) for p in parts])
                assert np.array_equal(getattr(whole, column), expected, equal_nan=column != "hit"), column


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 1000])
@pytest.mark.parametrize("kind", ["mesh", "sphere", "disc"])
def test_ray_columns_are_separate_contiguous_arrays(n, kind):
    """The five columns are views of one buffer: each C-contiguous with its own dtype and
    shape, consistent row by row, independent of the others when written, and alive
    after the result object is gone."""
    import gc

    shape, dim = {
        "mesh": (isect.TriMesh(CUBE_VERTICES, CUBE_FACES), 3),
        "sphere": (isect.Sphere(1.0), 3),
        "disc": (isect.Circle(1.0), 2),
    }[kind]
    origins, directions = random_rays(np.random.default_rng(n), n, dim)
    hits = isect.cast_rays(shape, None, origins, directions, max_t=0.8, solid=False)
    expected = {"hit": (np.bool_, (n,)), "t": (np.float64, (n,)), "id": (np.int64, (n,))}
    expected |= {"point": (np.float64, (n, dim)), "normal": (np.float64, (n, dim))}
    for column, (dtype, shape_) in expected.items():
        a = getattr(hits, column)
        assert a.dtype == dtype and a.shape == shape_ and a.flags["C_CONTIGUOUS"], column
    assert np.array_equal(hits.hit, np.isfinite(hits.t))
    assert np.isnan(hits.point[~hits.hit]).all() and np.isfinite(hits.normal[hits.hit]).all()
    assert (hits.id[~hits.hit] == -1).all()
    if kind == "mesh":
        assert (hits.id[hits.hit] >= 0).all()
    if n:
        assert 0 < hits.hit.sum() < n or n < 9
    t, point = hits.t, hits.point.copy()
    kept = t.copy()
    hits.normal[...] = 7.0
    hits.hit[...] = True
    assert np.array_equal(hits.point, point, equal_nan=True) and np.array_equal(t, kept)
    del hits
    gc.collect()
    assert np.array_equal(t, kept)


@pytest.mark.parametrize("shape", every_3d_shape() + every_2d_shape(), ids=lambda s: s.kind)
@pytest.mark.parametrize("solid", [True, False])
def test_intersects_rays_equals_cast_rays_hits(shape, solid):
    dim = 3 if isinstance(shape, isect.Shape) else 2
    rng = np.random.default_rng(22)
    origins, directions = random_rays(rng, 400, dim)
    origins[:40] *= 0.05  # starting inside the solid shapes
    origins[45] = math.nan
    directions[46] = 0.0  # from outside: a miss (from inside a solid shape, a hit at 0)
    pose = ((0.1,) * dim, (0.0, 0.0, math.sin(0.2), math.cos(0.2))) if dim == 3 else ((0.1, 0.1), 0.4)
    flags = isect.intersects_rays(shape, pose, origins, directions, max_t=0.7, solid=solid)
    expected = isect.cast_rays(shape, pose, origins, directions, max_t=0.7, solid=solid).hit
    assert flags.dtype == np.bool_ and flags.shape == (400,)
    assert flags.tolist() == expected.tolist()
    assert not flags[45] and not flags[46]
    assert flags.any() or shape.kind == "Segment"  # a 3D segment is met by no random ray


@pytest.mark.parametrize("shape", every_3d_shape() + every_2d_shape(), ids=lambda s: s.kind)
@pytest.mark.parametrize("solid", [True, False])
def test_first_hit_ids_equal_cast_rays_ids(shape, solid):
    dim = 3 if isinstance(shape, isect.Shape) else 2
    rng = np.random.default_rng(24)
    origins, directions = random_rays(rng, 400, dim)
    origins[:40] *= 0.05  # starting inside the solid shapes
    origins[45] = math.nan
    directions[46] = 0.0
    pose = ((0.1,) * dim, (0.0, 0.0, math.sin(0.2), math.cos(0.2))) if dim == 3 else ((0.1, 0.1), 0.4)
    ids = isect.first_hit_ids(shape, pose, origins, directions, max_t=0.7, solid=solid)
    expected = isect.cast_rays(shape, pose, origins, directions, max_t=0.7, solid=solid).id
    assert ids.dtype == np.int64 and ids.shape == (400,)
    assert ids.tolist() == expected.tolist()
    assert ids[45] == -1 and ids[46] == -1


@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("solid", [True, False])
def test_mesh_first_hit_ids_across_blocks(closed, solid):
    """A mesh's first-hit triangles, in blocks of rows: those of its closest-hit
    casts, moved or not, ties to the lowest triangle as there."""
    mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES, solid=closed)
    rng = np.random.default_rng(25)
    n = 16_384 + 777
    origins, directions = random_rays(rng, n, 3)
    origins[: n // 4] *= 0.2  # inside the cube
    origins[3] = math.inf
    directions[5] = origins[5] * -1.0  # through the centre: along a diagonal, ties
    turned = ((0.3, -0.2, 0.1), (0.0, math.sin(0.3), 0.0, math.cos(0.3)))
    for pose in (None, turned):
        ids = isect.first_hit_ids(mesh, pose, origins, directions, max_t=0.6, solid=solid)
        expected = isect.cast_rays(mesh, pose, origins, directions, max_t=0.6, solid=solid).id
        assert ids.tolist() == expected.tolist()
        assert (ids >= 0).sum() > 0 and ids[3] == -1
        assert ids.max() < len(CUBE_FACES)


def test_first_hit_ids_refuse_bad_arrays():
    mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES)
    for origins, directions in [(np.zeros((3, 3)), np.zeros((2, 3))), (np.zeros((3, 2)), np.zeros((3, 2)))]:
        with pytest.raises(TypeError):
            isect.first_hit_ids(mesh, None, origins, directions)


@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("solid", [True, False])
def test_mesh_any_hit_rays_across_blocks(closed, solid):
    """A mesh's any-hit walk, in blocks of rows: the hit flags of its closest-hit
    casts, moved or not, with the inside of a solid mesh counted only when asked."""
    mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES, solid=closed)
    rng = np.random.default_rng(23)
    n = 16_384 + 777
    origins, directions = random_rays(rng, n, 3)
    origins[: n // 4] *= 0.2  # inside the cube
    origins[3] = math.inf
    turned = ((0.3, -0.2, 0.1), (0.0, math.sin(0.3), 0.0, math.cos(0.3)))
    for pose in (None, turned):
        flags = isect.intersects_rays(mesh, pose, origins, directions, max_t=0.6, solid=solid)
        expected = isect.cast_rays(mesh, pose, origins, directions, max_t=0.6, solid=solid).hit
        assert flags.tolist() == expected.tolist()
        assert 0 < flags.sum() < n and not flags[3]


def test_mesh_ray_ties_go_to_the_lowest_triangle():
    """Rays between integer points cross a cube at its vertices and edges, where two to
    six triangles are crossed at the same t: with the faces in their order and shuffled
    (another tree, another visiting order), the batch names the lowest index among the
    triangles whose own casts give the least t, and the single casts (both `solid`)
    carry that triangle's normal."""
    rng = np.random.default_rng(16)
    grid = np.array([[x, y, z] for x in range(-3, 4) for y in range(-3, 4) for z in range(-3, 4)], float)
    origins = grid[rng.integers(0, len(grid), 1500)]
    targets = np.array([[x, y, z] for x in (-1, 0, 1) for y in (-1, 0, 1) for z in (-1, 0, 1)], float)
    directions = targets[rng.integers(0, len(targets), 1500)] - origins
    keep = np.any(directions != 0, axis=1) & np.any(np.abs(origins) > 1, axis=1)
    origins, directions = origins[keep], directions[keep]
    ties = 0
    for shuffle in range(3):
        faces = CUBE_FACES[rng.permutation(len(CUBE_FACES))] if shuffle else CUBE_FACES
        mesh = isect.TriMesh(CUBE_VERTICES, faces)
        alone = [isect.cast_rays(isect.TriMesh(CUBE_VERTICES, faces[i : i + 1]), None, origins, directions).t for i in range(len(faces))]
        alone = np.array(alone)
        hits = isect.cast_rays(mesh, None, origins, directions)
        for k in range(len(origins)):
            least = alone[:, k].min()
            if math.isinf(least):
                assert not hits.hit[k], k
                continue
            tied = np.flatnonzero(alone[:, k] == least)
            ties += len(tied) > 1
            assert hits.t[k] == least and hits.id[k] == tied[0], (k, tied, hits.id[k])
            corners = CUBE_VERTICES[faces[tied[0]]]
            normal = np.cross(corners[1] - corners[0], corners[2] - corners[0])
            normal /= np.linalg.norm(normal)
            if normal @ directions[k] > 0:
                normal = -normal
            assert hits.normal[k] == pytest.approx(normal, abs=1e-12), k
            for solid in (True, False):
                one = isect.cast_ray(mesh, None, origins[k], directions[k], solid=solid)
                assert one.t == least and one.normal == pytest.approx(normal, abs=1e-12), (k, solid)
    assert ties > 300, ties


def test_nan_rows_miss_and_the_rest_answer():
    origins = np.array([[-5.0, 0, 0], [math.nan, 0, 0], [-5.0, 0, 0], [0, 0, 0]])
    directions = np.array([[1.0, 0, 0], [1.0, 0, 0], [0.0, 0, 0], [math.inf, 0, 0]])
    hits = isect.cast_rays(isect.Sphere(1.0), None, origins, directions)
    assert hits.hit.tolist() == [True, False, False, False]
    assert hits.t[0] == pytest.approx(4.0)
    inside = isect.contains_points(isect.Sphere(1.0), None, [[0, 0, 0], [math.nan, 0, 0]])
    assert inside.tolist() == [True, False]


def test_contains_points_and_signed_distances():
    rng = np.random.default_rng(8)
    points = rng.uniform(-2, 2, size=(2000, 3))
    sphere = isect.Sphere(1.0)
    pose = ((0.5, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    inside = isect.contains_points(sphere, pose, points)
    radii = np.linalg.norm(points - [0.5, 0, 0], axis=1)
    assert inside.tolist() == (radii <= 1.0).tolist()
    distances, nearest = isect.signed_distances(sphere, pose, points)
    assert distances == pytest.approx(radii - 1.0, abs=1e-12)
    assert np.linalg.norm(nearest - [0.5, 0, 0], axis=1) == pytest.approx(np.ones(2000), abs=1e-12)


def test_collide_poses_equals_the_loop():
    rng = np.random.default_rng(9)
    a, b = isect.Capsule(0.5, 0.2), isect.Box([0.5, 0.3, 0.4])
    poses = random_poses_3d(rng, 1000)
    collides, distances = isect.collide_poses(a, poses, b, ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))
    for i in range(1000):
        pose = (tuple(poses[i, :3]), tuple(poses[i, 3:]))
        assert collides[i] == isect.intersects(a, pose, b, None)
        if not collides[i]:
            assert distances[i] == isect.distance(a, pose, b, None)
    matrices = np.tile(np.eye(4), (1000, 1, 1))
    matrices[:, :3, 3] = poses[:, :3]
    by_matrix, _ = isect.collide_poses(a, matrices, b)
    by_row, _ = isect.collide_poses(a, np.hstack([poses[:, :3], np.tile([0, 0, 0, 1.0], (1000, 1))]), b)
    assert by_matrix.tolist() == by_row.tolist()
    flags_only, none = isect.collide_poses(a, poses, b, distances=False)
    assert none is None and flags_only.tolist() == collides.tolist()


def test_collide_poses_2d_rows_and_matrices():
    rng = np.random.default_rng(10)
    rows = np.column_stack([rng.uniform(-2, 2, size=(400, 2)), rng.uniform(-3, 3, 400)])
    c, s = np.cos(rows[:, 2]), np.sin(rows[:, 2])
    matrices = np.zeros((400, 3, 3))
    matrices[:, 0, 0], matrices[:, 0, 1], matrices[:, 0, 2] = c, -s, rows[:, 0]
    matrices[:, 1, 0], matrices[:, 1, 1], matrices[:, 1, 2] = s, c, rows[:, 1]
    matrices[:, 2, 2] = 1.0
    a, b = isect.Rectangle([1.0, 0.2]), isect.Circle(0.5)
    by_rows = isect.collide_poses(a, rows, b)
    by_matrices = isect.collide_poses(a, matrices, b)
    assert by_rows[0].tolist() == by_matrices[0].tolist()
    assert by_rows[1] == pytest.approx(by_matrices[1], abs=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda: isect.cast_rays(isect.Sphere(1.0), None, np.zeros((3, 2)), np.zeros((3, 2))),
        lambda: isect.cast_rays(isect.Sphere(1.0), None, np.zeros((3, 3)), np.zeros((2, 3))),
        lambda: isect.cast_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, np.zeros((3, 3)), np.zeros((2, 3)), solid=False),
        lambda: isect.cast_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, np.zeros((3, 2)), np.zeros((3, 2)), solid=False),
        lambda: isect.cast_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, np.zeros(3), np.zeros(3), solid=False),
        lambda: isect.cast_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, [["a", "b", "c"]], [[1, 0, 0]], solid=False),
        lambda: isect.intersects_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, np.zeros((3, 3)), np.zeros((2, 3))),
        lambda: isect.intersects_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, np.zeros((3, 2)), np.zeros((3, 2))),
        lambda: isect.intersects_rays(isect.Sphere(1.0), None, np.zeros((3, 3)), [["a", "b", "c"]] * 3),
        lambda: isect.contains_points(isect.Sphere(1.0), None, np.zeros(3)),
        lambda: isect.contains_points(isect.Sphere(1.0), None, [["a", "b", "c"]]),
        lambda: isect.contains_points(isect.Sphere(1.0), None, [["1", "2", "3"]]),
        lambda: isect.contains_points(isect.Sphere(1.0), None, np.array([[1.0, None, 0.0]], dtype=object)),
        lambda: isect.collide_poses(isect.Sphere(1.0), np.array([["0"] * 7]), isect.Sphere(1.0)),
        lambda: isect.collide_poses(isect.Sphere(1.0), np.zeros((4, 6)), isect.Sphere(1.0)),
        lambda: isect.collide_poses(isect.Sphere(1.0), np.zeros((4, 3, 3)), isect.Sphere(1.0)),
        lambda: isect.collide_poses(isect.Sphere(1.0), random_poses_3d(np.random.default_rng(1), 4), isect.Sphere(1.0), random_poses_3d(np.random.default_rng(1), 3)),
    ],
)
def test_bad_arrays_are_type_errors(call):
    with pytest.raises(TypeError):
        call()


def test_a_non_unit_quaternion_row_names_its_row():
    poses = random_poses_3d(np.random.default_rng(2), 5)
    poses[3, 3:] = [0.0, 0.0, 0.0, 3.0]
    with pytest.raises(ValueError, match=r"poses_a\[3\]"):
        isect.collide_poses(isect.Sphere(1.0), poses, isect.Sphere(1.0))


def loop_answers(a, poses_a, b, poses_b):
    """The scalar queries row by row: what `collide_poses` must answer."""
    flags, distances = [], []
    for i, pa in enumerate(poses_a):
        pb = poses_b[i] if isinstance(poses_b, list) else poses_b
        flags.append(isect.intersects(a, pa, b, pb))
        distances.append(0.0 if flags[-1] else isect.distance(a, pa, b, pb))
    return flags, distances


def as_tuples_3d(rows):
    return [(tuple(r[:3]), tuple(r[3:])) for r in rows]


def same_answers(batch, expected):
    flags, distances = batch
    assert flags.tolist() == expected[0]
    assert np.array_equal(distances, np.array(expected[1]), equal_nan=True)


@pytest.mark.parametrize(
    "pair",
    [
        (isect.Sphere(0.5), isect.Sphere(0.4)),
        (isect.Sphere(0.5), isect.Capsule(0.4, 0.2)),
        (isect.Capsule(0.5, 0.3), isect.Sphere(0.4)),
        (isect.Capsule(0.5, 0.3), isect.Capsule(0.4, 0.2)),
        (isect.Sphere(0.5), isect.Box([0.4, 0.25, 0.6])),
        (isect.Box([0.4, 0.25, 0.6]), isect.Sphere(0.5)),
        (isect.Capsule(0.5, 0.3), isect.Box([0.4, 0.25, 0.6])),
        (isect.Box([0.4, 0.25, 0.6]), isect.Capsule(0.5, 0.3)),
        (isect.Box([0.5, 0.3, 0.4]), isect.Box([0.4, 0.25, 0.6])),
        (isect.Cylinder(0.5, 0.3), isect.Cone(0.4, 0.3)),
        (isect.TriMesh(CUBE_VERTICES, CUBE_FACES), isect.Capsule(0.5, 0.3)),
    ],
    ids=lambda p: f"{p[0].kind}-{p[1].kind}",
)
def test_collide_poses_equals_the_loop_for_each_kernel(pair):
    a, b = pair
    rng = np.random.default_rng(31)
    poses_a, poses_b = random_poses_3d(rng, 300, 1.5), random_poses_3d(rng, 300, 0.5)
    same_answers(isect.collide_poses(a, poses_a, b, poses_b), loop_answers(a, as_tuples_3d(poses_a), b, as_tuples_3d(poses_b)))
    one = ((0.1, -0.2, 0.3), (0.0, math.sin(0.3), 0.0, math.cos(0.3)))
    same_answers(isect.collide_poses(a, poses_a, b, one), loop_answers(a, as_tuples_3d(poses_a), b, one))


def test_collide_poses_nan_rows_miss_on_either_side():
    a, b = isect.Capsule(0.5, 0.3), isect.Box([0.4, 0.25, 0.6])
    rng = np.random.default_rng(32)
    poses_a, poses_b = random_poses_3d(rng, 600, 1.0), random_poses_3d(rng, 600, 0.3)
    poses_a[[3, 300, 599], 0] = np.nan
    poses_a[7, 3:] = [np.inf, 0, 0, 1]
    poses_b[[10, 400], 5] = np.nan
    poses_b[11, 2] = -np.inf
    poses_b[12, :3] = [1e300, 0, 0]  # beyond the library's largest coordinate
    collides, distances = isect.collide_poses(a, poses_a, b, poses_b)
    bad = [3, 7, 10, 11, 12, 300, 400, 599]
    assert not collides[bad].any() and np.isnan(distances[bad]).all()
    good = np.setdiff1d(np.arange(600), bad)
    assert np.isfinite(distances[good]).all()
    same_answers((collides, distances), loop_answers(a, as_tuples_3d(poses_a), b, as_tuples_3d(poses_b)))
    flags, none = isect.collide_poses(a, poses_a, b, poses_b, distances=False)
    assert none is None and flags.tolist() == collides.tolist()
    every_row, d = isect.collide_poses(a, poses_a[:5], b, ((np.nan, 0, 0), (0, 0, 0, 1)))
    assert not every_row.any() and np.isnan(d).all()


def test_collide_poses_one_b_pose_in_every_form():
    a, b = isect.Capsule(0.5, 0.3), isect.Box([0.4, 0.25, 0.6])
    poses_a = random_poses_3d(np.random.default_rng(33), 500, 1.5)
    t, q = (0.2, 0.1, -0.3), (0.0, 0.0, math.sin(0.4), math.cos(0.4))
    matrix = np.eye(4)
    matrix[:3, 3] = t
    c, s = math.cos(0.8), math.sin(0.8)
    matrix[:2, :2] = [[c, -s], [s, c]]
    expected = isect.collide_poses(a, poses_a, b, np.tile(np.array(t + q), (500, 1)))
    for one in [(t, q), [t, q], isect.Pose(t, q), matrix[None], [list(t + q)], isect.Pose.from_matrix(matrix)]:
        got = isect.collide_poses(a, poses_a, b, one)
        assert got[0].tolist() == expected[0].tolist()
        assert got[1] == pytest.approx(expected[1], abs=1e-12)
    # A bare matrix is not one pose here: in 2D a 3x3 array is three rows, one rule for both.
    with pytest.raises(TypeError, match=r"Pose\.from_matrix"):
        isect.collide_poses(a, poses_a, b, matrix)
    identity = isect.collide_poses(a, poses_a, b)
    same_answers(identity, loop_answers(a, as_tuples_3d(poses_a), b, None))


def test_collide_poses_reads_any_layout_and_empty_batches():
    a, b = isect.Capsule(0.5, 0.3), isect.Box([0.4, 0.25, 0.6])
    poses = random_poses_3d(np.random.default_rng(34), 400, 1.5)
    expected = isect.collide_poses(a, poses, b)
    wide = np.zeros((400, 14))
    wide[:, ::2] = poses  # a strided view: not contiguous
    for layout in [np.asfortranarray(poses), wide[:, ::2], poses.tolist()]:
        got = isect.collide_poses(a, layout, b)
        assert got[0].tolist() == expected[0].tolist()
        assert np.array_equal(got[1], expected[1])
    flags, distances = isect.collide_poses(a, np.zeros((0, 7)), b)
    assert flags.shape == (0,) and distances.shape == (0,)
    flags, _ = isect.collide_poses(a, np.zeros((0, 4, 4)), b, np.zeros((0, 7)))
    assert flags.shape == (0,)


def test_collide_poses_bad_rows_name_the_first_in_order():
    a, b = isect.Sphere(0.5), isect.Sphere(0.5)
    rng = np.random.default_rng(35)
    poses_a, poses_b = random_poses_3d(rng, 2000), random_poses_3d(rng, 2000)
    bad_b = poses_b.copy()
    bad_b[[1500, 1700], 3:] = [0.0, 0.0, 0.0, 2.0]
    with pytest.raises((ValueError, TypeError), match=r"poses_b"):
        isect.collide_poses(a, poses_a, b, bad_b)
    bad_a = poses_a.copy()
    bad_a[[1800, 900], 3:] = [0.0, 0.0, 0.0, 2.0]
    with pytest.raises(ValueError, match=r"poses_a\[900\]"):
        isect.collide_poses(a, bad_a, b, bad_b)
    # A's bad row is reported before B's wrong length.
    with pytest.raises(ValueError, match=r"poses_a\[900\]"):
        isect.collide_poses(a, bad_a, b, poses_b[:3])
    with pytest.raises(TypeError, match=r"poses_b: 3 poses, expected 2000"):
        isect.collide_poses(a, poses_a, b, poses_b[:3])
    matrices = np.tile(np.eye(4), (50, 1, 1))
    matrices[20, 3] = [0.0, 0.0, 1.0, 1.0]
    with pytest.raises(ValueError, match=r"poses_a\[20\]"):
        isect.collide_poses(a, matrices, b)
    with pytest.raises(TypeError):
        isect.collide_poses(a, poses_a, isect.Circle(1.0))


def test_collide_poses_2d_equals_the_loop_with_nan_rows():
    rng = np.random.default_rng(36)
    rows = np.column_stack([rng.uniform(-2, 2, size=(500, 2)), rng.uniform(-3, 3, 500)])
    rows[[5, 77], 1] = np.nan
    rows[9, 2] = np.inf
    rows_b = np.column_stack([rng.uniform(-0.5, 0.5, size=(500, 2)), rng.uniform(-3, 3, 500)])
    for a, b in [
        (isect.Rectangle([1.0, 0.2]), isect.Circle(0.5)),
        (isect.Capsule2d(0.5, 0.2), isect.Rectangle([0.4, 0.3])),
        (isect.Circle(0.3), isect.Capsule2d(0.5, 0.2)),
        (isect.ConvexPolygon([[0, 0], [1, 0], [0, 1]]), isect.Rectangle([0.4, 0.3])),
    ]:
        got = isect.collide_poses(a, rows, b, rows_b)
        expected = loop_answers(a, [(tuple(r[:2]), r[2]) for r in rows], b, [(tuple(r[:2]), r[2]) for r in rows_b])
        same_answers(got, expected)
        assert not got[0][[5, 9, 77]].any() and np.isnan(got[1][[5, 9, 77]]).all()
        one = isect.collide_poses(a, rows, b, ((0.1, 0.2), 0.3))
        same_answers(one, loop_answers(a, [(tuple(r[:2]), r[2]) for r in rows], b, ((0.1, 0.2), 0.3)))


def test_fortran_order_arrays_read_by_rows():
    rng = np.random.default_rng(37)
    points = rng.uniform(-2, 2, size=(300, 3))
    shape = isect.Box([0.5, 1.0, 1.5])
    expected = isect.signed_distances(shape, None, points)
    got = isect.signed_distances(shape, None, np.asfortranarray(points))
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
    assert isect.contains_points(shape, None, np.asfortranarray(points)).tolist() == isect.contains_points(shape, None, points).tolist()
