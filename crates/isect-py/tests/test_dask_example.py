"""The dask example on a small count: the cluster's answers equal one process's."""

import importlib.util
import pathlib

import numpy as np
import pytest

pytest.importorskip("dask.distributed")

EXAMPLE = pathlib.Path(__file__).parent.parent / "examples" / "dask_configurations.py"


def load_example():
    spec = importlib.util.spec_from_file_location("dask_configurations", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cluster_answers_equal_one_process():
    example = load_example()
    collides, clearance, _ = example.run(count=6000, workers=2, chunk=1000)
    world, shapes = example.cell(), example.links()
    expected_collides, expected_clearance = example.check_chunk(world, shapes, example.configurations(6000))
    assert np.array_equal(collides, expected_collides)
    assert np.array_equal(clearance, expected_clearance)
    # The scene is built so that both answers occur.
    assert 0 < collides.sum() < len(collides)
