"""The Python package beside python-fcl, coal and trimesh (+ embreex): seconds per call
and the ratio peer / isect, as the markdown table in BENCHMARKS.md.

    python crates/isect-py/bench/bench_peers.py [--repeat 5]

Runs on one core (the process is pinned to CPU 0 and rayon to one thread) so that the
batch figures compare kernels, not thread counts; `--threads 2` pins it to CPUs 0 and 1
and gives rayon two threads (the peers' loops still run on one). `--only calls`, `batch`
or `rays` runs those rows alone. Each figure is the best of
`--repeat` interleaved runs (isect, then each peer, then isect again ...), because the
machine is shared. Inputs are seeded.
"""

import argparse
import os
import pathlib
import sys
import time

# Read before numpy and isect load: rayon sizes its pool from the environment.
THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
os.environ["RAYON_NUM_THREADS"] = str(THREADS)
# numpy's BLAS threads spin after use; pinned to the same core they steal its time.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.sched_setaffinity(0, set(range(THREADS)))

import numpy as np  # noqa: E402

import isect  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[3]
PEER_FROM_ISECT = np.array([[1.0, 0, 0], [0, 0, 1.0], [0, -1.0, 0]])


def rotation(q):
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_poses(rng, n, spread=1.5):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.hstack([rng.uniform(-spread, spread, size=(n, 3)), q])


def best_of(repeat, runs):
    """Interleaves the named runs `repeat` times; the best seconds of each."""
    best = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def pair_kinds(fcl, coal):
    return {
        "sphere-box": (isect.Sphere(0.5), isect.Box([0.4, 0.25, 0.6]), lambda m: m.Sphere(0.5), lambda m: m.Box(0.8, 0.5, 1.2), False),
        "capsule-capsule": (isect.Capsule(0.5, 0.3), isect.Capsule(0.4, 0.2), lambda m: m.Capsule(0.3, 1.0), lambda m: m.Capsule(0.2, 0.8), True),
        "box-box": (isect.Box([0.5, 0.3, 0.4]), isect.Box([0.4, 0.25, 0.6]), lambda m: m.Box(1.0, 0.6, 0.8), lambda m: m.Box(0.8, 0.5, 1.2), False),
    }


def per_call_rows(repeat, n=5000):
    import coal
    import fcl

    rng = np.random.default_rng(1)
    rows = []
    for name, (a, b, ga, gb, turned) in pair_kinds(fcl, coal).items():
        pa, pb = random_poses(rng, n), random_poses(rng, n)
        ours = [((tuple(x[:3]), tuple(x[3:])), (tuple(y[:3]), tuple(y[3:]))) for x, y in zip(pa, pb)]
        fix = PEER_FROM_ISECT if turned else np.eye(3)
        fcl_tf = [(fcl.Transform(rotation(x[3:]) @ fix, x[:3]), fcl.Transform(rotation(y[3:]) @ fix, y[:3])) for x, y in zip(pa, pb)]
        coal_tf = [(coal.Transform3s(rotation(x[3:]) @ fix, x[:3]), coal.Transform3s(rotation(y[3:]) @ fix, y[:3])) for x, y in zip(pa, pb)]
        oa, ob = fcl.CollisionObject(ga(fcl)), fcl.CollisionObject(gb(fcl))
        ca, cb = ga(coal), gb(coal)

        prebuilt = [(isect.Pose(*p), isect.Pose(*q)) for p, q in ours]

        def isect_distance():
            for p, q in ours:
                isect.distance(a, p, b, q)

        def isect_prebuilt():
            for p, q in prebuilt:
                isect.distance(a, p, b, q)

        def fcl_distance():
            request, result = fcl.DistanceRequest(), fcl.DistanceResult()
            for p, q in fcl_tf:
                oa.setTransform(p)
                ob.setTransform(q)
                fcl.distance(oa, ob, request, result)

        def coal_distance():
            request, result = coal.DistanceRequest(), coal.DistanceResult()
            for p, q in coal_tf:
                coal.distance(ca, p, cb, q, request, result)

        runs = {"isect": isect_distance, "prebuilt": isect_prebuilt, "fcl": fcl_distance, "coal": coal_distance}
        t = best_of(repeat, runs)
        peers = {"python-fcl": t["fcl"] / n, "coal": t["coal"] / n}
        rows.append((f"distance {name}, per call", t["isect"] / n, peers))
        rows.append((f"distance {name}, per call, prebuilt isect.Pose", t["prebuilt"] / n, peers))
    return rows


def pose_batch_rows(repeat, n=20000):
    import fcl

    rng = np.random.default_rng(2)
    a, b = isect.Capsule(0.5, 0.3), isect.Box([0.4, 0.25, 0.6])
    poses = random_poses(rng, n)
    tfs = [fcl.Transform(rotation(x[3:]) @ PEER_FROM_ISECT, x[:3]) for x in poses]
    oa, ob = fcl.CollisionObject(fcl.Capsule(0.3, 1.0)), fcl.CollisionObject(fcl.Box(0.8, 0.5, 1.2))

    def isect_flags():
        isect.collide_poses(a, poses, b, distances=False)

    def isect_with_distances():
        isect.collide_poses(a, poses, b)

    def fcl_loop():
        request = fcl.CollisionRequest()
        for tf in tfs:
            oa.setTransform(tf)
            fcl.collide(oa, ob, request, fcl.CollisionResult())

    t = best_of(repeat, {"flags": isect_flags, "distances": isect_with_distances, "fcl": fcl_loop})
    peer = {"python-fcl loop (flags)": t["fcl"] / n}
    return [
        (f"{n} capsule-box poses, collision flags", t["flags"] / n, peer),
        (f"{n} capsule-box poses, flags and distances", t["distances"] / n, peer),
    ]


def ray_rows(repeat, n=100_000):
    import trimesh
    from trimesh.ray.ray_pyembree import RayMeshIntersector

    source = trimesh.load(REPO / "crates/isect/tests/data/bunny.obj", force="mesh")
    mesh = isect.TriMesh(source)
    rng = np.random.default_rng(3)
    centre, size = source.bounds.mean(axis=0), float(np.ptp(source.bounds, axis=0).max())
    origins = centre + rng.normal(size=(n, 3)) * size
    directions = centre + rng.uniform(-0.5, 0.5, size=(n, 3)) * size - origins
    embree = RayMeshIntersector(source)

    runs = {
        "isect": lambda: isect.cast_rays(mesh, None, origins, directions),
        # The same answer as `intersects_first` (the triangle of each first hit).
        "isect ids": lambda: isect.first_hit_ids(mesh, None, origins, directions),
        "embree": lambda: embree.intersects_first(origins, directions),
        # The same answer as `cast_rays` gives (the triangle and the point), from
        # trimesh's call that returns points.
        "embree points": lambda: embree.intersects_id(
            origins, directions, multiple_hits=False, return_locations=True
        ),
        "isect any": lambda: isect.intersects_rays(mesh, None, origins, directions),
        "embree any": lambda: embree.intersects_any(origins, directions),
    }
    t = best_of(repeat, runs)
    label = f"{n} rays against the bunny ({len(source.faces)} triangles)"
    return [
        (f"{label}, first hit's triangle (first_hit_ids)", t["isect ids"] / n, {"trimesh + embreex": t["embree"] / n}),
        (f"{label}, first hit (cast_rays: t, point, normal, triangle)", t["isect"] / n, {"trimesh + embreex (intersects_first)": t["embree"] / n}),
        (
            f"{label}, first hit with its point (cast_rays)",
            t["isect"] / n,
            {"trimesh + embreex (intersects_id, locations)": t["embree points"] / n},
        ),
        (f"{label}, any hit", t["isect any"] / n, {"trimesh + embreex": t["embree any"] / n}),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="rayon threads (and CPUs) for isect's batches")
    parser.add_argument("--only", choices=["calls", "batch", "rays"], help="run only these rows")
    args = parser.parse_args()
    print("| benchmark | isect | peer | peer / isect |")
    print("|---|---|---|---|")
    groups = {"calls": per_call_rows, "batch": pose_batch_rows, "rays": ray_rows}
    tables = (groups[args.only],) if args.only else tuple(groups.values())
    for rows in tables:
        for label, ours, peers in rows(args.repeat):
            for peer, theirs in peers.items():
                print(f"| {label} | {ours * 1e6:.2f} µs | {peer} {theirs * 1e6:.2f} µs | **{theirs / ours:.2f}×** |")


if __name__ == "__main__":
    main()
