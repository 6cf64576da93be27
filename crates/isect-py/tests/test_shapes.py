"""Shape constructors, their errors, serialisation and pickling."""

import math
import pickle

import numpy as np
import pytest

import isect

CUBE_VERTICES = np.array(
    [[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)]
)
# Outward-wound triangles of the cube above (vertex index = 4x + 2y + z over {0, 1}).
CUBE_FACES = np.array(
    [
        [0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5],
        [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6],
        [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3],
    ]
)


def every_3d_shape():
    return [
        isect.Sphere(0.5),
        isect.Box([0.5, 1.0, 1.5]),
        isect.Capsule(1.0, 0.25),
        isect.Capsule.from_segment([0, 0, 0], [1, 1, 0], 0.2),
        isect.Cylinder(1.0, 0.5),
        isect.Cone(1.0, 0.5),
        isect.RoundedBox([0.5, 0.5, 0.5], 0.1),
        isect.ConvexHull(CUBE_VERTICES * 0.5),
        isect.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]),
        isect.Segment([0, 0, 0], [1, 0, 0]),
        isect.TriMesh(CUBE_VERTICES, CUBE_FACES, solid=True),
        isect.TriMesh(CUBE_VERTICES, CUBE_FACES),
        isect.HeightField(np.zeros((4, 5)), [1.0, 1.0, 1.0]),
        isect.Compound([(isect.Sphere(0.5), None), (isect.Box([0.2, 0.2, 0.2]), ((1, 0, 0), (0, 0, 0, 1)))]),
    ]


def every_2d_shape():
    return [
        isect.Circle(0.5),
        isect.Rectangle([0.5, 1.0]),
        isect.Capsule2d(1.0, 0.25),
        isect.ConvexPolygon([[0, 0], [1, 0], [0, 1]]),
        isect.Polygon([[0, 0], [4, 0], [4, 4], [0, 4]], [[[1, 1], [3, 1], [3, 3], [1, 3]]]),
        isect.Polyline([[0, 0], [1, 0], [2, 1]]),
        isect.HeightField2d([0.0, 1.0, 0.0, 2.0], [1.0, 1.0]),
        isect.Compound2d([(isect.Circle(0.5), None), (isect.Rectangle([0.2, 0.2]), ((1, 0), 0.5))]),
        isect.Triangle2d([0, 0], [1, 0], [0, 1]),
        isect.Segment2d([0, 0], [1, 0]),
    ]


def probe_points(dim, n=200, seed=1):
    return np.random.default_rng(seed).uniform(-2.5, 2.5, size=(n, dim))


@pytest.mark.parametrize("shape", every_3d_shape() + every_2d_shape(), ids=lambda s: s.kind)
def test_pickle_and_json_keep_the_shape(shape):
    dim = 3 if isinstance(shape, isect.Shape) else 2
    points = probe_points(dim)
    for copy in (pickle.loads(pickle.dumps(shape)), isect.shape_from_json(shape.to_json()) if dim == 3 else None):
        if copy is None:
            continue
        assert type(copy) is type(shape)
        assert copy.kind == shape.kind
        assert copy.aabb() == shape.aabb()
        assert np.array_equal(isect.contains_points(copy, None, points), isect.contains_points(shape, None, points))


def test_subclasses_are_shapes():
    assert all(isinstance(s, isect.Shape) for s in every_3d_shape())
    assert all(isinstance(s, isect.Shape2d) for s in every_2d_shape())
    assert isinstance(isect.Sphere(1.0), isect.Sphere)


@pytest.mark.parametrize(
    "build",
    [
        lambda: isect.Sphere(-1.0),
        lambda: isect.Sphere(float("nan")),
        lambda: isect.Box([1.0, -1.0, 1.0]),
        lambda: isect.Cylinder(float("inf"), 1.0),
        lambda: isect.ConvexHull([[0, 0, 0], [1, 0, 0]]),
        lambda: isect.ConvexHull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, math.nan]]),
        lambda: isect.TriMesh(CUBE_VERTICES, CUBE_FACES[:-1], solid=True),
        lambda: isect.TriMesh(CUBE_VERTICES, [[0, 1, 99]]),
        lambda: isect.TriMesh(CUBE_VERTICES, [[0, 1, -1]]),
        lambda: isect.ConvexPolygon([[0, 0], [2, 0], [1, 0.1], [1, 2]]),
        lambda: isect.Polygon([[0, 0], [1, 1], [1, 0], [0, 1]]),
        lambda: isect.HeightField(np.array([[0.0, math.nan], [0.0, 0.0]]), [1, 1, 1]),
    ],
)
def test_bad_shapes_are_value_errors(build):
    with pytest.raises(ValueError) as error:
        build()
    assert str(error.value)


@pytest.mark.parametrize(
    "build",
    [
        lambda: isect.Box([1.0, 1.0]),
        lambda: isect.Box("abc"),
        lambda: isect.ConvexHull(np.zeros((5, 2))),
        lambda: isect.TriMesh(CUBE_VERTICES, CUBE_FACES[:, :2]),
        lambda: isect.TriMesh(CUBE_VERTICES.tolist(), [["a", "b", "c"]]),
        lambda: isect.Compound([(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None)]),
        lambda: isect.Compound([(isect.Circle(1.0), None)]),
        lambda: isect.Compound([isect.Sphere(1.0)]),
    ],
)
def test_wrong_types_and_shapes_are_type_errors(build):
    with pytest.raises(TypeError):
        build()


def test_integer_and_list_inputs_are_accepted():
    a = isect.ConvexHull(CUBE_VERTICES.astype(np.int32))
    b = isect.ConvexHull(CUBE_VERTICES.tolist())
    assert a.aabb() == b.aabb() == ((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0))


def test_polygon_rings_may_repeat_their_first_vertex():
    open_ring = isect.Polygon([[0, 0], [4, 0], [4, 4], [0, 4]])
    closed_ring = isect.Polygon([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]])
    points = probe_points(2, seed=3) * 2 + 2
    assert np.array_equal(isect.contains_points(open_ring, None, points), isect.contains_points(closed_ring, None, points))


def test_polygon_from_a_shapely_polygon():
    shapely = pytest.importorskip("shapely.geometry")
    ring = [(0, 0), (4, 0), (4, 4), (0, 4)]
    hole = [(1, 1), (3, 1), (3, 3), (1, 3)]
    source = shapely.Polygon(ring, [hole])
    polygon = isect.Polygon(source)
    points = np.random.default_rng(5).uniform(-1, 5, size=(500, 2))
    expected = [source.intersects(shapely.Point(p)) for p in points]
    assert isect.contains_points(polygon, None, points).tolist() == expected


def test_trimesh_from_a_trimesh_object():
    trimesh = pytest.importorskip("trimesh")
    source = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
    mesh = isect.TriMesh(source, solid=True)
    points = probe_points(3, n=300, seed=7) * 0.6
    assert isect.contains_points(mesh, None, points).tolist() == source.contains(points).tolist()
