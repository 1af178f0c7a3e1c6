import pytest

import impulse2d


@pytest.fixture
def world():
    return impulse2d.World(gravity=(0.0, -10.0))


def add_ground(world, half_width=20.0):
    """A static ground box whose top face is the line y = 0 (as the Rust scenes' flat_ground)."""
    ground = world.create_body("static")
    ground.add_box(half_width, 1.0, center=(0.0, -1.0))
    return ground
