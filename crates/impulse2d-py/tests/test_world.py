import pytest

import impulse2d


def test_world_creates_and_steps():
    world = impulse2d.World(gravity=(0.0, -10.0), workers=1)
    world.step(1.0 / 60.0, 4)
    assert isinstance(world.state_hash(), int)


def test_bad_numbers_raise_value_error():
    with pytest.raises(ValueError):
        impulse2d.World(workers=0)
    world = impulse2d.World()
    with pytest.raises(ValueError):
        world.step(float("nan"), 4)
