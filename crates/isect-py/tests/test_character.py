"""The character controller from Python: it stops a skin above the floor, slides along
walls, climbs steps, and refuses bad settings and stale handles."""

import math

import pytest

import isect

UNIT_Q = (0.0, 0.0, 0.0, 1.0)
SKIN = 0.01


def level():
    world = isect.World()
    floor = world.insert(isect.Box([10.0, 0.5, 10.0]), ((0.0, -0.5, 0.0), UNIT_Q), static=True)
    wall = world.insert(isect.Box([0.5, 2.0, 10.0]), ((3.0, 2.0, 0.0), UNIT_Q), static=True)
    return world, floor, wall


def bottom_after(move, start_y, half=0.5, radius=0.25):
    return start_y + move.translation[1] - half - radius


def test_falls_onto_the_floor_and_stands():
    world, floor, _ = level()
    controller = isect.CharacterController((0.0, 1.0, 0.0), skin=SKIN)
    capsule = isect.Capsule(0.5, 0.25)
    move = controller.move_shape(world, capsule, ((0.0, 1.0, 0.0), UNIT_Q), (0.0, -1.0, 0.0))
    assert 0.0 < bottom_after(move, 1.0) <= 2 * SKIN
    assert move.grounded and move.ground[0] == floor
    assert move.ground[1] == pytest.approx((0.0, 1.0, 0.0), abs=1e-9)
    assert move.collisions and move.collisions[0].handle == floor


def test_slides_along_a_wall():
    world, _, wall = level()
    controller = isect.CharacterController((0.0, 1.0, 0.0), skin=SKIN)
    capsule = isect.Capsule(0.5, 0.25)
    start = ((1.0, 0.76, 0.0), UNIT_Q)
    move = controller.move_shape(world, capsule, start, (4.0, 0.0, 4.0))
    x, _, z = move.translation
    # The wall's face is at x = 2.5: the capsule stops a skin short and keeps sliding in z.
    assert 1.0 + x + 0.25 <= 2.5 and 1.0 + x + 0.25 > 2.5 - 2 * SKIN
    assert z == pytest.approx(4.0, abs=1e-6)
    assert any(c.handle == wall for c in move.collisions)


def test_move_handle_skips_itself_and_steps_up():
    world, _, _ = level()
    world.insert(isect.Box([0.5, 0.1, 10.0]), ((-2.0, 0.1, 0.0), UNIT_Q), static=True)  # a 0.2 step
    player = world.insert(isect.Capsule(0.5, 0.25), ((0.0, 0.76, 0.0), UNIT_Q))
    controller = isect.CharacterController((0.0, 1.0, 0.0), skin=SKIN, step=(0.3, 0.1), snap_to_ground=0.3)
    move = controller.move_handle(world, player, (-2.0, 0.0, 0.0))
    # On top of the step (its top at 0.2), a skin above it, the whole way along x.
    assert move.translation[0] == pytest.approx(-2.0, abs=1e-6)
    assert 0.76 + move.translation[1] - 0.75 == pytest.approx(0.2 + SKIN, abs=SKIN)
    assert move.grounded and move.stepped
    assert all(c.handle != player for c in move.collisions)


def test_2d_controller():
    world = isect.World2d()
    world.insert(isect.Rectangle([10.0, 0.5]), ((0.0, -0.5), 0.0), static=True)
    controller = isect.CharacterController2d((0.0, 1.0), skin=SKIN)
    move = controller.move_shape(world, isect.Circle(0.5), ((0.0, 2.0), 0.0), (1.0, -3.0))
    assert move.grounded
    assert 2.0 + move.translation[1] - 0.5 == pytest.approx(SKIN, abs=SKIN)


def test_bad_settings_and_handles():
    world, _, _ = level()
    with pytest.raises(ValueError):
        isect.CharacterController((0.0, 1.0, 0.0), skin=-1.0)
    with pytest.raises(ValueError):
        isect.CharacterController((0.0, 0.0, 0.0))
    with pytest.raises(ValueError):
        isect.CharacterController((0.0, 1.0, 0.0), slopes=(math.pi, 0.1))
    controller = isect.CharacterController((0.0, 1.0, 0.0))
    gone = world.insert(isect.Sphere(0.5))
    world.remove(gone)
    with pytest.raises(isect.WorldError):
        controller.move_handle(world, gone, (1.0, 0.0, 0.0))
    with pytest.raises(ValueError):
        controller.move_shape(world, isect.Sphere(0.5), None, (math.nan, 0.0, 0.0))
    with pytest.raises(TypeError):
        controller.move_shape(world, isect.Circle(0.5), None, (1.0, 0.0, 0.0))
