"""The review's findings, each tested as a class: one pose or many, atomic world batches,
integer faces, NaN rays, row-wise configurations, documented constructors, ray parts,
and the questionable cases settled (shapely holes, closing vertices, missing faces,
list poses, JSON errors, pickling and reprs of the answers, OBJ files with a BOM)."""

import math
import pickle

import numpy as np
import pytest

import isect

from test_shapes import CUBE_FACES, CUBE_VERTICES, every_2d_shape, every_3d_shape

IDENTITY_ROW = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def turn_2d(angle, x=0.0, y=0.0):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, x], [s, c, y], [0.0, 0.0, 1.0]])


def turn_3d(angle, t=(0.0, 0.0, 0.0)):
    m = np.eye(4)
    c, s = math.cos(angle), math.sin(angle)
    m[:2, :2] = [[c, -s], [s, c]]
    m[:3, 3] = t
    return m


# --- One pose or many: an array is always an array of poses -------------------------


def test_one_2d_matrix_for_three_rows_goes_as_a_pose():
    """The review's call: three rows against one 3x3 matrix. A bare 3x3 array is three
    rows `x, y, angle` (the documented array form, whatever n is); one matrix goes as
    `Pose.from_matrix(m)` or `m[None]`, and those answer as the matrix."""
    c = isect.Circle(1.0)
    m = np.array([[1.0, 0, 5], [0, 1, 0], [0, 0, 1]])
    rows = [[0, 0, 0], [5, 0, 0], [0, 5, 0]]
    for one in (isect.Pose.from_matrix(m), m[None], ((5, 0), 0.0), [(5, 0), 0.0]):
        flags, distances = isect.collide_poses(c, rows, c, one)
        assert flags.tolist() == [False, True, False]
        assert distances == pytest.approx([3.0, 0.0, math.hypot(5, 5) - 2])
    as_rows, _ = isect.collide_poses(c, rows, c, m)
    expected = [isect.intersects(c, (r[:2], r[2]), c, (tuple(b[:2]), b[2])) for r, b in zip(rows, m)]
    assert as_rows.tolist() == expected


@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_a_bare_matrix_is_refused_where_one_pose_or_many_is_taken(n):
    """Any other n: a bare 3x3 (2D) or 4x4 (3D) array is refused, the message telling
    how to give one matrix; never silently read."""
    c, s = isect.Circle(1.0), isect.Sphere(1.0)
    rows_2d = np.zeros((n, 3))
    rows_3d = np.tile(IDENTITY_ROW, (n, 1))
    if n != 3:
        with pytest.raises(TypeError, match=r"3 poses, expected %d.*Pose\.from_matrix" % n):
            isect.collide_poses(c, rows_2d, c, turn_2d(0.3, 5.0))
    with pytest.raises(TypeError, match=r"Pose\.from_matrix"):
        isect.collide_poses(s, rows_3d, s, turn_3d(0.3, (5, 0, 0)))
    # The forms that cannot be confused answer as the loop of single queries does.
    for dim, shape, rows, m in ((2, c, rows_2d, turn_2d(0.3, 1.5)), (3, s, rows_3d, turn_3d(0.3, (1.5, 0, 0)))):
        expected = [isect.distance(shape, None, shape, m) for _ in range(n)]
        for one in (isect.Pose.from_matrix(m), m[None]):
            flags, distances = isect.collide_poses(shape, rows, shape, one)
            assert distances == pytest.approx(expected), dim
            assert flags.tolist() == [d == 0 for d in expected]


def test_an_array_of_one_pose_applies_to_every_row_and_is_checked():
    s = isect.Sphere(1.0)
    rows = np.tile(IDENTITY_ROW, (5, 1))
    rows[:, 0] = np.arange(5)
    flags, distances = isect.collide_poses(s, rows, s, [[4, 0, 0, 0, 0, 0, 1]])
    assert distances == pytest.approx([2, 1, 0, 0, 0])
    with pytest.raises(ValueError, match=r"poses_b\[0\]"):
        isect.collide_poses(s, rows, s, [[4, 0, 0, 0, 0, 0, 2]])
    flags, distances = isect.collide_poses(s, rows, s, [[np.nan, 0, 0, 0, 0, 0, 1]])
    assert not flags.any() and np.isnan(distances).all()
    with pytest.raises(TypeError, match=r"poses_b: expected an array of 5 poses"):
        isect.collide_poses(s, rows, s, "one pose")


def test_world_batches_take_arrays_only():
    """`set_poses` takes an array of poses, one per handle: a 3x3 array is three 2D rows."""
    world = isect.World2d()
    handles = [world.insert(isect.Circle(0.5)) for _ in range(3)]
    m = turn_2d(0.3, 5.0)
    world.set_poses(handles, m)
    for h, row in zip(handles, m):
        (x, y), angle = world.pose(h)
        assert (x, y) == pytest.approx(row[:2])
        assert (math.cos(angle), math.sin(angle)) == pytest.approx((math.cos(row[2]), math.sin(row[2])))
    world.set_poses(handles, np.stack([m, m, m]))
    for h in handles:
        (x, y), angle = world.pose(h)
        assert (x, y, angle) == pytest.approx((5.0, 0.0, 0.3))
    world3 = isect.World()
    one = world3.insert(isect.Sphere(1.0))
    with pytest.raises(TypeError):
        world3.set_poses([one], turn_3d(0.3))
    world3.set_poses([one], turn_3d(0.3, (1, 2, 3))[None])
    assert world3.pose(one)[0] == pytest.approx((1, 2, 3))


def test_a_pose_pair_may_be_a_list():
    s, c = isect.Sphere(1.0), isect.Circle(1.0)
    assert isect.distance(s, [[5, 0, 0], [0, 0, 0, 1]], s, None) == pytest.approx(3.0)
    assert isect.distance(c, [[5, 0], 0.3], c, None) == pytest.approx(3.0)
    world = isect.World()
    h = world.insert(s, [[1, 2, 3], [0, 0, 0, 1]])
    assert world.pose(h)[0] == (1.0, 2.0, 3.0)
    with pytest.raises(TypeError, match=r"pose_a: expected None, an isect\.Pose, \(translation, quaternion xyzw\) or a 4x4 matrix, got shape \(3, 3\)"):
        isect.distance(s, np.eye(3), s, None)
    with pytest.raises(TypeError, match=r"expected 4 numbers"):
        isect.distance(s, [[5, 0, 0], [0, 0, 1]], s, None)


# --- World batches are atomic ------------------------------------------------------


@pytest.mark.parametrize(
    "bad_row",
    [
        [np.nan, 0, 0, 0, 0, 0, 1],
        [0, np.inf, 0, 0, 0, 0, 1],
        [1e300, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, np.nan, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 2],
    ],
    ids=["nan", "inf", "huge", "nan-quaternion", "long-quaternion"],
)
def test_set_poses_moves_nothing_when_a_row_is_refused(bad_row):
    world = isect.World()
    a, b, c = (world.insert(isect.Sphere(1.0), ((i, 0, 0), (0, 0, 0, 1))) for i in range(3))
    before = [world.pose(h) for h in (a, b, c)]
    with pytest.raises(ValueError, match=r"poses\[2\]"):
        world.set_poses([a, b, c], [[10, 0, 0, 0, 0, 0, 1], [11, 0, 0, 0, 0, 0, 1], bad_row])
    assert [world.pose(h) for h in (a, b, c)] == before
    world.validate()
    world.update()
    world.set_poses([a, b, c], np.tile(IDENTITY_ROW, (3, 1)))
    assert world.pose(c)[0] == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("bad_row", [[np.nan, 0, 0], [0, 0, np.inf], [1e300, 0, 0]])
def test_set_poses_2d_moves_nothing_when_a_row_is_refused(bad_row):
    world = isect.World2d()
    a, b = world.insert(isect.Circle(1.0)), world.insert(isect.Circle(1.0), ((3, 0), 0.0))
    with pytest.raises(isect.WorldError, match=r"World2d\.set_poses: poses\[1\]"):
        world.set_poses([a, b], [[5, 5, 0], bad_row])
    assert world.pose(a) == ((0.0, 0.0), 0.0) and world.pose(b) == ((3.0, 0.0), 0.0)


def test_set_poses_names_a_stale_handle_and_moves_nothing():
    world = isect.World()
    a, gone = world.insert(isect.Sphere(1.0)), world.insert(isect.Sphere(1.0))
    world.remove(gone)
    with pytest.raises(isect.WorldError, match=r"handles\[1\]"):
        world.set_poses([a, gone], [[5, 0, 0, 0, 0, 0, 1], IDENTITY_ROW])
    assert world.pose(a)[0] == (0.0, 0.0, 0.0)


# --- Faces are integers ------------------------------------------------------------


@pytest.mark.parametrize(
    "faces",
    [[[0.9, 1.2, 2.7]], [[0.0, 1.0, 2.0]], [[np.nan, 1, 2]], np.array([[0, 1, 2]], dtype=np.float32), np.array([[True, False, True]])],
    ids=["fractional", "whole-floats", "nan", "float32", "bool"],
)
def test_non_integer_faces_are_type_errors(faces):
    with pytest.raises(TypeError, match=r"faces: expected an \(m, 3\) array of integers, got dtype"):
        isect.TriMesh(np.eye(3), faces)


def test_face_indices_out_of_range_are_named_with_their_value():
    with pytest.raises(ValueError, match=r"faces\[0\]\[2\]: index 9223372036854775809 is not a vertex index"):
        isect.TriMesh(np.eye(3), np.array([[0, 1, 2**63 + 1]], dtype=np.uint64))
    with pytest.raises(ValueError, match=r"faces\[1\]\[0\]: index -1 "):
        isect.TriMesh(np.eye(3), [[0, 1, 2], [-1, 1, 2]])
    with pytest.raises(ValueError, match=r"index 4294967296 "):
        isect.TriMesh(np.eye(3), [[0, 1, 2**32]])
    with pytest.raises(TypeError, match=r"faces: expected shape \(m, 3\), got \(3,\)"):
        isect.TriMesh(np.eye(3), [0, 1, 2])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_every_integer_dtype_is_read(dtype):
    mesh = isect.TriMesh(CUBE_VERTICES, np.array(CUBE_FACES, dtype=dtype))
    assert mesh.to_json() == isect.TriMesh(CUBE_VERTICES, CUBE_FACES).to_json()


def test_a_mesh_without_faces_is_a_type_error():
    with pytest.raises(TypeError, match=r"TriMesh: faces are required"):
        isect.TriMesh(np.eye(3))

    class Mesh:
        vertices = CUBE_VERTICES
        faces = CUBE_FACES

    assert isect.TriMesh(Mesh()).to_json() == isect.TriMesh(CUBE_VERTICES, CUBE_FACES).to_json()


# --- NaN rays are misses -----------------------------------------------------------


@pytest.mark.parametrize("shape", every_3d_shape() + every_2d_shape(), ids=lambda s: s.kind)
def test_non_finite_rays_miss_in_single_casts_as_in_batches(shape):
    dim = 3 if isinstance(shape, isect.Shape) else 2
    bad = [math.nan, math.inf, -math.inf]
    rays = []
    for value in bad:
        for k in range(dim):
            o, d = [0.0] * dim, [1.0] + [0.0] * (dim - 1)
            o[k] = value
            rays.append((o, d))
            o, d = [-5.0] + [0.0] * (dim - 1), [1.0] + [0.0] * (dim - 1)
            d[k] = value
            rays.append((o, d))
    for origin, direction in rays:
        for solid in (True, False):
            assert isect.cast_ray(shape, None, origin, direction, solid=solid) is None
    hits = isect.cast_rays(shape, None, [o for o, _ in rays], [d for _, d in rays])
    assert not hits.hit.any()
    world = isect.World() if dim == 3 else isect.World2d()
    world.insert(shape)
    for origin, direction in rays:
        assert world.cast_ray(origin, direction) is None
    assert not world.cast_rays([o for o, _ in rays], [d for _, d in rays]).hit.any()


# --- check_configurations answers refused poses row by row -------------------------


def test_check_configurations_answers_nan_configurations_with_the_miss():
    world = isect.World()
    post = world.insert(isect.Box([0.5, 0.5, 0.5]), ((2, 0, 0), (0, 0, 0, 1)), static=True)
    links = [isect.Sphere(0.5), isect.Sphere(0.25)]
    rng = np.random.default_rng(3)
    poses = np.tile(IDENTITY_ROW, (2 * 40, 1))
    poses[:, :3] = rng.uniform(-1, 4, size=(80, 3))
    bad = {3: (0, np.nan), 10: (5, np.inf), 17: (2, 1e300), 31: (4, np.nan)}
    for configuration, (column, value) in bad.items():
        poses[2 * configuration + configuration % 2, column] = value
    collides, clearance, link, handle = world.check_configurations(links, poses)
    good = [c for c in range(40) if c not in bad]
    expected = world.check_configurations(links, poses.reshape(40, 2, 7)[good].reshape(-1, 7))
    for got, want in zip((collides, clearance, link, handle), expected):
        assert np.array_equal(got[good], want)
    rows = sorted(bad)
    assert not collides[rows].any() and np.isnan(clearance[rows]).all()
    assert (link[rows] == -1).all() and (handle[rows] == -1).all()
    assert set(handle[good].tolist()) <= {post, -1}
    flags, _, _, _ = world.check_configurations(links, poses, 0.0)
    assert flags.tolist() == collides.tolist()


def test_check_configurations_errors_name_the_row_its_configuration_and_link():
    world = isect.World()
    links = [isect.Sphere(0.5), isect.Sphere(0.25)]
    poses = np.tile(IDENTITY_ROW, (6, 1))
    poses[5, 3:] = [0, 0, 0, 2.0]
    with pytest.raises(ValueError, match=r"poses\[5\] \(configuration 2, link 1\): quaternion length 2"):
        world.check_configurations(links, poses)
    with pytest.raises(isect.WorldError, match=r"5 poses are not one per link of 2 links"):
        world.check_configurations(links, poses[:5])
    with pytest.raises(isect.WorldError):
        world.check_configurations([], poses)
    with pytest.raises(isect.WorldError, match=r"max_distance"):
        world.check_configurations(links, np.full((2, 7), np.nan), math.nan)
    world2 = isect.World2d()
    world2.insert(isect.Circle(1.0))
    collides, clearance, _, _ = world2.check_configurations([isect.Circle(0.5)], [[0, 0, 0], [np.nan, 0, 0], [5, 0, np.inf], [3, 0, 0]])
    assert collides.tolist() == [True, False, False, False]
    assert clearance[3] == pytest.approx(1.5) and np.isnan(clearance[1:3]).all()


# --- Documentation -------------------------------------------------------------------


def test_docstrings_name_only_what_exists():
    for name in dir(isect):
        doc = getattr(getattr(isect, name), "__doc__", None) or ""
        assert "from_trimesh" not in doc and "from_shapely" not in doc, name


# --- Ray parts -----------------------------------------------------------------------


def test_ray_hit_part_names_the_triangle_of_a_mesh():
    for solid in (False, True):
        mesh = isect.TriMesh(CUBE_VERTICES, CUBE_FACES, solid=solid)
        rng = np.random.default_rng(5)
        origins = np.column_stack([rng.uniform(-0.9, 0.9, 200), np.full(200, 5.0), rng.uniform(-0.9, 0.9, 200)])
        directions = np.tile([0.0, -1.0, 0.0], (200, 1))
        pose = ((0.5, 0.0, 0.0), (0.0, math.sin(0.2), 0.0, math.cos(0.2)))
        hits = isect.cast_rays(mesh, pose, origins, directions)
        for i in range(200):
            one = isect.cast_ray(mesh, pose, origins[i], directions[i])
            assert (one is None) == (not hits.hit[i])
            if one is not None:
                assert one.part is not None and one.part == hits.id[i]
                a, b, c = (np.array(CUBE_VERTICES[v]) for v in CUBE_FACES[one.part])
                assert a[1] == b[1] == c[1] == 1.0  # a top triangle
    inside = isect.cast_ray(isect.TriMesh(CUBE_VERTICES, CUBE_FACES, solid=True), None, (0, 0, 0), (1, 0, 0))
    assert inside.t == 0.0 and inside.part is None
    assert isect.cast_ray(isect.Sphere(1.0), None, (-5, 0, 0), (1, 0, 0)).part is None


def test_ray_hit_part_names_the_part_of_a_compound_polyline_and_heightfield():
    compound = isect.Compound([(isect.Sphere(0.5), ((-3, 0, 0), (0, 0, 0, 1))), (isect.Box([0.5, 0.5, 0.5]), ((3, 0, 0), (0, 0, 0, 1)))])
    assert isect.cast_ray(compound, None, (-10, 0, 0), (1, 0, 0)).part == 0
    assert isect.cast_ray(compound, None, (10, 0, 0), (-1, 0, 0)).part == 1
    hits = isect.cast_rays(compound, None, [[-10, 0, 0], [10, 0, 0], [0, 9, 0]], [[1, 0, 0], [-1, 0, 0], [1, 0, 0]])
    assert hits.id.tolist() == [0, 1, -1]
    step = isect.Polyline([[-4, 0], [0, 0], [0, 1], [4, 1]])
    assert isect.cast_ray(step, None, (2, 5), (0, -1)).part == 2
    assert isect.cast_ray(step, None, (-2, 5), (0, -1)).part == 0
    field = isect.HeightField(np.zeros((3, 3)), (4, 1, 4))
    hit = isect.cast_ray(field, None, (0.5, 5, 0.5), (0, -1, 0))
    assert hit.part is not None and 0 <= hit.part < 8
    world = isect.World()
    h = world.insert(compound)
    handle, hit = world.cast_ray((10, 0, 0), (-1, 0, 0))
    assert handle == h and hit.part == 1


# --- Shapely holes, closing vertices -----------------------------------------------


def test_a_shapely_polygon_with_holes_argument_is_refused():
    sg = pytest.importorskip("shapely.geometry")
    square = [[0, 0], [2, 0], [2, 2], [0, 2]]
    hole = [[0.5, 0.5], [1.5, 0.5], [1.5, 1.5], [0.5, 1.5]]
    with pytest.raises(TypeError, match=r"holes: a shapely polygon brings its own holes"):
        isect.Polygon(sg.Polygon(square, [hole]), [hole])
    for nothing in (None, [], ()):
        from_shapely = isect.Polygon(sg.Polygon(square, [hole]), nothing)
        assert from_shapely.to_json() == isect.Polygon(square, [hole]).to_json()


def test_a_closed_polyline_accepts_a_closing_vertex():
    points = [[0, 0], [1, 0], [1, 1]]
    closed = isect.Polyline(points, closed=True)
    assert isect.Polyline(points + [points[0]], closed=True).to_json() == closed.to_json()
    # Open, the repeated point is a real last vertex: a loop drawn as a chain.
    assert len(isect.Polyline(points + [points[0]]).to_json()) > len(isect.Polyline(points).to_json())


# --- shape_from_json errors -----------------------------------------------------------


def test_shape_from_json_reports_the_dimension_the_text_was_meant_for():
    with pytest.raises(ValueError, match=r"as a 3D shape: Ball: `radius` is -1"):
        isect.shape_from_json('{"Convex":{"Ball":{"center":[0,0,0],"radius":-1}}}')
    with pytest.raises(ValueError, match=r"as a 2D shape: Ball: `radius` is -1"):
        isect.shape_from_json('{"Convex":{"Ball":{"center":[0,0],"radius":-1}}}')
    with pytest.raises(ValueError, match=r"shape_from_json: not a shape"):
        isect.shape_from_json("nope")


# --- Answers and controllers pickle, compare and show as Python does ---------------


def answers():
    box, small = isect.Box([1, 1, 1]), isect.Box([0.5, 0.5, 0.5])
    on_top = ((0, 1.4, 0), (0, 0, 0, 1))
    world = isect.World()
    world.insert(isect.Box([10, 0.5, 10]), ((0, -0.5, 0), (0, 0, 0, 1)), static=True)
    controller = isect.CharacterController([0, 1, 0], slopes=(0.5, 0.6), step=(0.3, 0.1), snap_to_ground=0.2)
    move = controller.move_shape(world, isect.Capsule(0.5, 0.3), ((3, 0.81, 0), (0, 0, 0, 1)), (1, -0.5, 0))
    found = [
        isect.closest_points(box, None, small, ((4, 0, 0), (0, 0, 0, 1))),
        isect.contact(box, None, small, on_top),
        isect.contact_manifold(box, None, small, on_top),
        isect.contact_manifold(box, None, small, on_top).points[0],
        isect.cast_ray(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, (0.2, 5, 0.3), (0, -1, 0)),
        isect.cast_shape(box, None, (1, 0, 0), small, ((5, 0, 0), (0, 0, 0, 1)), (0, 0, 0), max_t=10.0),
        isect.project_point(box, None, (0.5, 0, 0)),
        world.nearest_to_point((0, 3, 0)),
        move,
        move.collisions[0],
        controller,
        isect.CharacterController2d([0, 1]),
    ]
    assert None not in found
    return found


@pytest.mark.parametrize("answer", answers(), ids=lambda a: type(a).__name__)
def test_answers_pickle_compare_and_show_as_constructor_calls(answer):
    copy = pickle.loads(pickle.dumps(answer))
    assert type(copy) is type(answer) and copy == answer and not (copy != answer)
    text = repr(answer)
    assert text.startswith(type(answer).__name__ + "(")
    assert "true" not in text and "false" not in text  # Python's True and False
    rebuilt = eval(text, vars(isect))  # noqa: S307 - our own repr
    if not isinstance(answer, (isect.CharacterController, isect.CharacterController2d)):
        assert rebuilt == answer
    else:
        assert repr(rebuilt) == text


def test_ray_hits_pickle_with_every_array():
    hits = isect.cast_rays(isect.TriMesh(CUBE_VERTICES, CUBE_FACES), None, [[0.2, 5, 0.3], [9, 9, 9]], [[0, -1, 0], [0, -1, 0]])
    copy = pickle.loads(pickle.dumps(hits))
    for name in ("hit", "t", "point", "normal", "id"):
        assert np.array_equal(getattr(copy, name), getattr(hits, name), equal_nan=True), name
    assert len(copy) == 2 and repr(hits) == "<isect.RayHits: 2 rays, 1 hit>"


def test_reprs_write_numbers_as_python_does():
    assert repr(isect.Sphere(1)) == "Sphere(radius=1.0)"
    assert repr(isect.Circle(1e-7)) == "Circle(radius=1e-07)"
    assert repr(isect.Box([1, 2, 1e70])) == "Box(half_extents=(1.0, 2.0, 1e+70))"
    assert repr(isect.Pose((1e300, 0), 0.5)) == "Pose((1e+300, 0.0), 0.5)"
    assert repr(isect.Pose((1, 2, 3))) == "Pose((1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0))"
    p = isect.project_point(isect.Sphere(1), None, (0.1, 0.2, 0.3))
    assert repr(p) == "PointProjection(point=(0.1, 0.2, 0.3), is_inside=True, distance=0.0)"
    assert repr(isect.TriMesh(CUBE_VERTICES, CUBE_FACES, solid=True)) == "<isect.TriMesh: 8 vertices, 12 triangles, solid>"


@pytest.mark.parametrize("shape", every_3d_shape() + every_2d_shape(), ids=lambda s: s.kind)
def test_shape_reprs_rebuild_the_shape_or_summarise_it(shape):
    text = repr(shape)
    if text.startswith("<isect."):
        assert text == f"<isect.{type(shape).__name__}: {text.split(': ', 1)[1]}" and text.endswith(">")
    else:
        assert eval(text, vars(isect)).to_json() == shape.to_json()  # noqa: S307 - our own repr


# --- Files ---------------------------------------------------------------------------


def test_an_obj_file_starting_with_a_bom_keeps_its_first_line(tmp_path):
    path = tmp_path / "bom.obj"
    path.write_bytes(b"\xef\xbb\xbfv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n")
    mesh = isect.load_mesh(path)
    assert repr(mesh) == "<isect.TriMesh: 4 vertices, 2 triangles>"
