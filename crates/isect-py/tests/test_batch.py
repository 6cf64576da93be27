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
