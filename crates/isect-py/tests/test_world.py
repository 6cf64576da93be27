"""The collision world from Python: pairs against brute force, events, queries, refusals."""

import itertools
import math
import pickle

import numpy as np
import pytest

import isect

from test_batch import random_poses_3d

UNIT_Q = (0.0, 0.0, 0.0, 1.0)


def scattered_world(rng, n=60):
    world = isect.World()
    kinds = [isect.Sphere(0.4), isect.Box([0.3, 0.5, 0.2]), isect.Capsule(0.4, 0.2), isect.Cylinder(0.3, 0.3)]
    placed = {}
    for i in range(n):
        shape = kinds[i % len(kinds)]
        pose = (tuple(rng.uniform(-3, 3, 3)), UNIT_Q)
        h = world.insert(shape, pose, user_data=i)
        placed[h] = (shape, pose)
    floor = isect.Box([10.0, 0.5, 10.0])
    h = world.insert(floor, ((0.0, -3.2, 0.0), UNIT_Q), static=True)
    placed[h] = (floor, ((0.0, -3.2, 0.0), UNIT_Q))
    return world, placed


def brute_pairs(placed):
    pairs = set()
    for (ha, (a, pa)), (hb, (b, pb)) in itertools.combinations(sorted(placed.items()), 2):
        if isect.intersects(a, pa, b, pb):
            pairs.add((min(ha, hb), max(ha, hb)))
    return pairs


def world_pairs(world):
    return {(min(a, b), max(a, b)) for a, b, _ in world.contacts()}


def test_pairs_and_events_match_brute_force_over_moves():
    rng = np.random.default_rng(31)
    world, placed = scattered_world(rng)
    started, stopped = world.update()
    assert world_pairs(world) == brute_pairs(placed)
    assert {(min(a, b), max(a, b)) for a, b in started} == brute_pairs(placed) and stopped == []
    for _ in range(5):
        before = world_pairs(world)
        moving = [h for h in placed if placed[h][0].kind != "Cuboid" or h != max(placed)]
        for h in rng.choice(moving, size=20, replace=False):
            pose = (tuple(rng.uniform(-3, 3, 3)), UNIT_Q)
            world.set_pose(int(h), pose)
            placed[int(h)] = (placed[int(h)][0], pose)
        started, stopped = world.update()
        after = world_pairs(world)
        assert after == brute_pairs(placed)
        assert {(min(a, b), max(a, b)) for a, b in started} == after - before
        assert {(min(a, b), max(a, b)) for a, b in stopped} == before - after
        world.validate()


def test_user_data_shapes_and_poses_come_back():
    world = isect.World()
    h = world.insert(isect.Cone(1.0, 0.5), ((1.0, 2.0, 3.0), UNIT_Q), user_data=77)
    assert world.user_data(h) == 77
    assert isinstance(world.shape(h), isect.Cone)
    assert world.pose(h) == ((1.0, 2.0, 3.0), UNIT_Q)
    world.set_user_data(h, 5)
    assert world.user_data(h) == 5 and len(world) == 1 and world.handles() == [h]


def test_refused_calls_leave_the_world_unchanged():
    rng = np.random.default_rng(32)
    world, placed = scattered_world(rng, n=20)
    world.update()
    before = sorted(world_pairs(world))
    gone = world.insert(isect.Sphere(1.0))
    world.remove(gone)
    for call in (
        lambda: world.remove(gone),
        lambda: world.set_pose(gone, None),
        lambda: world.user_data(gone),
        lambda: world.set_poses([next(iter(placed)), gone], np.tile([0, 0, 0, 0, 0, 0, 1.0], (2, 1))),
        lambda: world.insert(isect.Sphere(1.0), ((math.inf, 0.0, 0.0), UNIT_Q)),
        lambda: world.set_pose(next(iter(placed)), ((math.nan, 0.0, 0.0), UNIT_Q)),
        lambda: world.check_configurations([isect.Sphere(0.1), isect.Sphere(0.1)], np.tile([0, 0, 0, 0, 0, 0, 1.0], (3, 1))),
    ):
        with pytest.raises(isect.WorldError) as error:
            call()
        assert "World" in str(error.value)
        world.validate()
    assert isinstance(isect.WorldError("x"), ValueError)
    world.update()
    assert sorted(world_pairs(world)) == before
    assert world.pose(next(iter(placed))) == placed[next(iter(placed))][1]


def test_ray_queries_equal_the_nearest_single_hit():
    rng = np.random.default_rng(33)
    world, placed = scattered_world(rng)
    origins = rng.uniform(-6, 6, size=(400, 3))
    directions = rng.uniform(-1, 1, size=(400, 3))
    hits = world.cast_rays(origins, directions, max_t=10.0)
    for i in range(400):
        best = None
        for h, (shape, pose) in placed.items():
            hit = isect.cast_ray(shape, pose, origins[i], directions[i], max_t=10.0)
            if hit is not None and (best is None or hit.t < best[1]):
                best = (h, hit.t)
        one = world.cast_ray(origins[i], directions[i], max_t=10.0)
        assert bool(hits.hit[i]) == (best is not None) == (one is not None)
        if best is not None:
            assert hits.t[i] == pytest.approx(best[1], abs=1e-9) and one[1].t == pytest.approx(best[1], abs=1e-9)
            excluded = world.cast_ray(origins[i], directions[i], max_t=10.0, exclude=[one[0]])
            assert excluded is None or excluded[0] != one[0]


def test_distance_queries_and_configurations():
    rng = np.random.default_rng(34)
    world, placed = scattered_world(rng, n=30)
    points = rng.uniform(-5, 5, size=(100, 3))
    for p in points:
        nearest = world.nearest_to_point(p)
        brute = min(isect.signed_distances(s, pose, [p])[0][0] for s, pose in placed.values())
        assert nearest.distance == pytest.approx(max(brute, 0.0), abs=1e-9)
    links = [isect.Capsule(0.5, 0.1), isect.Sphere(0.2)]
    poses = random_poses_3d(rng, 2 * 200, spread=4.0)
    collides, clearance, link, handle = world.check_configurations(links, poses)
    for i in range(200):
        distances = []
        for j, shape in enumerate(links):
            row = poses[2 * i + j]
            pose = (tuple(row[:3]), tuple(row[3:]))
            distances += [isect.distance(shape, pose, s, p) for s, p in placed.values()]
        assert collides[i] == (min(distances) <= 0.0)
        if not collides[i]:
            assert clearance[i] == pytest.approx(min(distances), abs=1e-9)
        assert link[i] in (0, 1) and handle[i] in placed


def test_world2d_polygons_with_holes():
    world = isect.World2d()
    courtyard = isect.Polygon([[0, 0], [10, 0], [10, 10], [0, 10]], [[[3, 3], [7, 3], [7, 7], [3, 7]]])
    h = world.insert(courtyard, static=True)
    assert world.shapes_at_point((1.0, 1.0)) == [h]
    assert world.shapes_at_point((5.0, 5.0)) == []
    ball = world.insert(isect.Circle(0.5), ((5.0, 5.0), 0.0))
    world.update()
    assert world.contacts() == []
    world.set_pose(ball, ((5.0, 2.8), 0.0))
    started, _ = world.update()
    assert [tuple(sorted(p)) for p in started] == [tuple(sorted((h, ball)))]


def test_manifolds_in_the_world():
    world = isect.World(manifolds=True)
    world.insert(isect.Box([5.0, 0.5, 5.0]), static=True)
    world.insert(isect.Box([0.5, 0.5, 0.5]), ((0.0, 0.99, 0.0), UNIT_Q))
    world.update()
    [(a, b, manifold)] = world.manifolds()
    assert len(manifold) == 4


def test_world_pickles_with_its_handles():
    rng = np.random.default_rng(35)
    world, placed = scattered_world(rng, n=30)
    handles = list(placed)
    world.remove(handles[0])
    world.set_user_data(handles[1], 77)
    world.set_pair_excluded(handles[2], handles[3], True)
    world.update()
    copy = pickle.loads(pickle.dumps(world))
    copy.update()
    assert copy.handles() == world.handles()
    assert copy.user_data(handles[1]) == 77
    assert world_pairs(copy) == world_pairs(world)
    # The next insertion reuses the removed slot in both.
    ball = isect.Sphere(0.5)
    assert copy.insert(ball) == world.insert(ball)


def test_world_json_round_trip_and_bad_text():
    world = isect.World2d(prediction=0.1)
    world.insert(isect.Rectangle([5.0, 0.5]), ((0.0, -0.5), 0.0), static=True)
    h = world.insert(isect.Circle(0.5), ((0.0, 0.55), 0.0), user_data=3)
    back = isect.World2d.from_json(world.to_json())
    assert back.handles() == world.handles() and back.user_data(h) == 3
    started, _ = back.update()
    assert len(started) == 1
    with pytest.raises(isect.WorldError, match="from_json"):
        isect.World2d.from_json("{")
    with pytest.raises(isect.WorldError, match="prediction"):
        isect.World2d.from_json(world.to_json().replace('"prediction":0.1', '"prediction":-1.0'))
