"""Impulse2D: a deterministic 2D rigid-body physics engine (Box2D v3's algorithms in Rust).

Units are SI throughout: metres, kilograms, seconds, radians (angles counter-clockwise).

    import impulse2d
    world = impulse2d.World(gravity=(0.0, -10.0))
    ground = world.create_body("static")
    ground.add_box(20.0, 0.5)
    box = world.create_body("dynamic", position=(0.0, 4.0))
    box.add_box(0.5, 0.5, density=1.0, friction=0.6)
    for _ in range(60):
        world.step(1.0 / 60.0, 4)
    print(box.position)
"""

from impulse2d._impulse2d import (
    Body,
    BodyMoveEvent,
    Chain,
    ContactBeginEvent,
    ContactData,
    ContactEndEvent,
    ContactHitEvent,
    Filter,
    Joint,
    JointEvent,
    RayHit,
    SensorBeginEvent,
    SensorEndEvent,
    Shape,
    StaleHandleError,
    World,
    __version__,
)

__all__ = [
    "Body",
    "BodyMoveEvent",
    "Chain",
    "ContactBeginEvent",
    "ContactData",
    "ContactEndEvent",
    "ContactHitEvent",
    "Filter",
    "Joint",
    "JointEvent",
    "RayHit",
    "SensorBeginEvent",
    "SensorEndEvent",
    "Shape",
    "StaleHandleError",
    "World",
    "__version__",
]
