"""Millions of robot configurations checked on a dask.distributed cluster.

A two-link arm (two capsules) in a cell of boxes: each configuration is a pair of
joint angles; the links' poses are computed with numpy and checked against the world
by `World.check_configurations`, one chunk per task. The world and the link shapes
pickle, so dask ships them to the workers once (`client.scatter`).

    python examples/dask_configurations.py --configurations 2000000 --workers 2

prints how many configurations collide, the smallest clearance, and the rate. On one
machine a `LocalCluster` stands in for a real cluster: point `Client` at a scheduler's
address to scale out.
"""

import argparse
import time

import numpy as np

import isect

LINK_HALF = 0.5  # each link is a capsule of half height 0.5 (length 1) along local y
LINK_RADIUS = 0.08


def cell():
    """A world of boxes around the arm's base."""
    world = isect.World()
    rng = np.random.default_rng(2026)
    for _ in range(40):
        centre = rng.uniform(-2.0, 2.0, 3)
        if np.linalg.norm(centre) < 0.6:
            continue
        world.insert(isect.Box(rng.uniform(0.05, 0.3, 3)), (tuple(centre), (0.0, 0.0, 0.0, 1.0)), static=True)
    return world


def link_poses(angles):
    """(n, 2) joint angles about z to the (2n, 7) poses of the two links."""
    n = len(angles)
    a1, a2 = angles[:, 0], angles[:, 0] + angles[:, 1]
    # A link along local y turned by `a` about z points along (-sin a, cos a).
    d1 = np.column_stack([-np.sin(a1), np.cos(a1), np.zeros(n)])
    d2 = np.column_stack([-np.sin(a2), np.cos(a2), np.zeros(n)])
    centre1 = d1 * LINK_HALF
    centre2 = 2 * LINK_HALF * d1 + d2 * LINK_HALF
    poses = np.empty((n, 2, 7))
    for k, (centre, a) in enumerate(((centre1, a1), (centre2, a2))):
        poses[:, k, :3] = centre
        poses[:, k, 3:5] = 0.0
        poses[:, k, 5] = np.sin(a / 2)
        poses[:, k, 6] = np.cos(a / 2)
    return poses.reshape(2 * n, 7)


def links():
    return [isect.Capsule(LINK_HALF, LINK_RADIUS), isect.Capsule(LINK_HALF, LINK_RADIUS)]


def check_chunk(world, shapes, angles):
    """One task: the collision flags and clearances of a chunk of configurations."""
    collides, clearance, _, _ = world.check_configurations(shapes, link_poses(angles))
    return collides, clearance


def configurations(count, seed=7):
    return np.random.default_rng(seed).uniform(-np.pi, np.pi, size=(count, 2))


def run(count, workers, chunk):
    from dask.distributed import Client, LocalCluster

    world, shapes, angles = cell(), links(), configurations(count)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        world_f, shapes_f = client.scatter(world, broadcast=True), client.scatter(shapes, broadcast=True)
        start = time.perf_counter()
        futures = [client.submit(check_chunk, world_f, shapes_f, angles[i : i + chunk]) for i in range(0, count, chunk)]
        parts = client.gather(futures)
        seconds = time.perf_counter() - start
    collides = np.concatenate([p[0] for p in parts])
    clearance = np.concatenate([p[1] for p in parts])
    return collides, clearance, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configurations", type=int, default=2_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=50_000)
    args = parser.parse_args()
    collides, clearance, seconds = run(args.configurations, args.workers, args.chunk)
    print(f"{args.configurations} configurations on {args.workers} workers in {seconds:.2f} s "
          f"({args.configurations / seconds:,.0f} per second)")
    print(f"colliding: {int(collides.sum())}; smallest clearance of the free ones: {clearance[~collides].min():.4f}")


if __name__ == "__main__":
    main()
