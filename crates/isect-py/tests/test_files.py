"""Shapes from files: meshes (OBJ, STL) and polygons (GeoJSON, WKT) read through
isect-io answer as the same shapes built from arrays; bad files are FileErrors naming
the file and the line, a missing file a FileNotFoundError."""

import json

import numpy as np
import pytest

import isect

CUBE_V = [[x, y, z] for z in (-1.0, 1.0) for y in (-1.0, 1.0) for x in (-1.0, 1.0)]
CUBE_F = [
    [0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
    [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5],
]


def write_obj(path, vertices, faces):
    lines = [f"v {x} {y} {z}" for x, y, z in vertices] + [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in faces]
    path.write_text("\n".join(lines) + "\n")


def write_ascii_stl(path, vertices, faces):
    out = ["solid cube"]
    for f in faces:
        out += ["facet normal 0 0 0", "outer loop"]
        out += [f"vertex {vertices[i][0]} {vertices[i][1]} {vertices[i][2]}" for i in f]
        out += ["endloop", "endfacet"]
    path.write_text("\n".join(out + ["endsolid cube"]) + "\n")


@pytest.mark.parametrize("writer, name", [(write_obj, "cube.obj"), (write_ascii_stl, "cube.stl")])
def test_a_mesh_file_answers_as_the_mesh_from_arrays(tmp_path, writer, name):
    path = tmp_path / name
    writer(path, CUBE_V, CUBE_F)
    loaded = isect.load_mesh(path, solid=True)
    built = isect.TriMesh(np.array(CUBE_V), np.array(CUBE_F), solid=True)
    assert loaded.kind == "TriMesh"
    rng = np.random.default_rng(5)
    points = rng.uniform(-2, 2, size=(500, 3))
    assert isect.contains_points(loaded, None, points).tolist() == isect.contains_points(built, None, points).tolist()
    inside = np.all(np.abs(points) < 1, axis=1)
    assert isect.contains_points(loaded, None, points).tolist() == inside.tolist()


def test_polygon_files_with_holes(tmp_path):
    outer = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]
    hole = [[4, 4], [4, 6], [6, 6], [6, 4], [4, 4]]
    geojson = tmp_path / "lake.geojson"
    geojson.write_text(json.dumps({"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [outer, hole]}}))
    wkt = tmp_path / "lakes.wkt"
    wkt.write_text("MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 4 6, 6 6, 6 4, 4 4)), ((20 0, 21 0, 21 1, 20 0)))")
    [from_geojson] = isect.load_polygons(geojson)
    from_wkt = isect.load_polygons(str(wkt))
    assert len(from_wkt) == 2
    points = np.array([[1.0, 1.0], [5.0, 5.0], [11.0, 5.0], [20.8, 0.5]])
    assert isect.contains_points(from_geojson, None, points).tolist() == [True, False, False, False]
    assert isect.contains_points(from_wkt[0], None, points).tolist() == [True, False, False, False]
    assert isect.contains_points(from_wkt[1], None, points).tolist() == [False, False, False, True]


def test_bad_files_name_the_file_and_the_place(tmp_path):
    obj = tmp_path / "broken.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")
    with pytest.raises(isect.FileError, match="broken.obj"):
        isect.load_mesh(obj)
    truncated = tmp_path / "cut.stl"
    truncated.write_bytes(b"\0" * 80 + (5).to_bytes(4, "little") + b"\0" * 20)
    with pytest.raises(isect.FileError, match="cut.stl"):
        isect.load_mesh(truncated)
    open_cube = tmp_path / "open.obj"
    write_obj(open_cube, CUBE_V, CUBE_F[:-1])
    with pytest.raises(isect.FileError, match="open.obj"):
        isect.load_mesh(open_cube, solid=True)
    bad_json = tmp_path / "bad.geojson"
    bad_json.write_text('{"type": "Polygon", "coordinates": [[[0, 0], [1, 0]')
    with pytest.raises(isect.FileError, match="bad.geojson"):
        isect.load_polygons(bad_json)
    text = tmp_path / "mesh.txt"
    text.write_text("v 0 0 0\n")
    with pytest.raises(isect.FileError, match="mesh.txt"):
        isect.load_mesh(text)
    with pytest.raises(FileNotFoundError):
        isect.load_mesh(tmp_path / "missing.obj")
    assert issubclass(isect.FileError, ValueError)
