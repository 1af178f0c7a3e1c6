"""Behaviour checked against numbers worked out by hand."""
import math

import numpy as np
import pytest

import impulse2d
from conftest import add_ground

DT = 1.0 / 60.0
SUBSTEPS = 4
LINEAR_SLOP = 0.005  # Box2D's b2_linearSlop, m


def test_free_fall_matches_the_integrator():
    # Symplectic Euler per substep h: v_k = -g h k, y_N = y0 - g h^2 N (N + 1) / 2,
    # i.e. y0 - g t^2 / 2 - g h t / 2 with t = N h: the analytic fall plus a known
    # O(h) term.
    g = 10.0
    world = impulse2d.World(gravity=(0.0, -g))
    body = world.create_body("dynamic", position=(0.0, 100.0))
    body.add_circle(0.5)
    steps = 60
    for _ in range(steps):
        world.step(DT, SUBSTEPS)
    h = DT / SUBSTEPS
    n = steps * SUBSTEPS
    t = n * h
    x, y = body.position
    assert x == 0.0
    assert y == pytest.approx(100.0 - g * h * h * n * (n + 1) / 2.0, abs=1e-3)
    assert abs(y - (100.0 - g * t * t / 2.0)) <= g * h * t / 2.0 + 1e-3
    vx, vy = body.linear_velocity
    assert vy == pytest.approx(-g * t, rel=1e-5)


def test_box_rests_on_ground_at_half_height(world):
    add_ground(world)
    box = world.create_body("dynamic", position=(0.0, 0.3))
    box.add_box(0.5, 0.25)  # 1 m wide, 0.5 m tall: centre rests at y = 0.25
    for _ in range(240):
        world.step(DT, SUBSTEPS)
    x, y = box.position
    # Box2D lets resting contacts overlap by up to about the linear slop.
    assert abs(y - 0.25) <= LINEAR_SLOP
    # The sequential solver's impulses are not exactly symmetric; friction keeps
    # any sideways creep within the slop too.
    assert abs(x) <= LINEAR_SLOP
    assert abs(box.angle) < 1e-3
    assert not box.awake or math.hypot(*box.linear_velocity) < 1e-3
    # One contact with the ground, its two points under the box's bottom corners.
    (contact,) = box.contacts()
    assert {contact.shape_a, contact.shape_b} == {box.shapes()[0], world.bodies()[0].shapes()[0]}
    assert sorted(x for x, _ in contact.points) == pytest.approx([-0.5, 0.5], abs=LINEAR_SLOP)
    assert [y for _, y in contact.points] == pytest.approx([0.0, 0.0], abs=LINEAR_SLOP)
    assert all(i > 0.0 for i in contact.normal_impulses)
    assert box.shapes()[0].contacts()[0].normal == contact.normal


def test_ray_cast_closest_hits_circle_at_computed_point(world):
    body = world.create_body("static", position=(3.0, 0.0))
    circle = body.add_circle(1.0)
    hit = world.cast_ray_closest((0.0, 0.0), (10.0, 0.0))
    assert hit is not None
    assert hit.shape == circle
    # The ray meets the circle (x - 3)^2 + y^2 = 1 at x = 2: fraction 2 / 10.
    assert hit.point == pytest.approx((2.0, 0.0), abs=1e-5)
    assert hit.normal == pytest.approx((-1.0, 0.0), abs=1e-5)
    assert hit.fraction == pytest.approx(0.2, abs=1e-6)


def test_ray_cast_closest_hits_box_top_on_a_slant(world):
    body = world.create_body("static")
    box = body.add_box(1.5, 0.5, center=(4.5, 0.5))  # x in [3, 6], y in [0, 1]
    # From (0, 5) along (10, -10): y = 5 - 10 f reaches the top face y = 1 at
    # f = 0.4, where x = 4.
    hit = world.cast_ray_closest((0.0, 5.0), (10.0, -10.0))
    assert hit.shape == box
    assert hit.point == pytest.approx((4.0, 1.0), abs=1e-5)
    assert hit.normal == pytest.approx((0.0, 1.0), abs=1e-6)
    assert hit.fraction == pytest.approx(0.4, abs=1e-6)
    assert world.cast_ray_closest((0.0, 5.0), (0.0, 1.0)) is None


def three_circles(world):
    body = world.create_body("static")
    return [body.add_circle(0.5, center=(x, 0.0)) for x in (2.0, 4.0, 6.0)]


def test_ray_cast_callback_clips_and_skips_like_box2d(world):
    near, middle, far = three_circles(world)

    # Returning 1 continues unclipped: every shape is reported.
    seen = []
    world.cast_ray((0.0, 0.0), (10.0, 0.0), lambda s, p, n, f: seen.append(s) or 1.0)
    assert set(seen) == {near, middle, far}

    # Returning the fraction clips: the closest hit is the last one kept.
    closest = {}

    def clip(shape, point, normal, fraction):
        closest["shape"], closest["fraction"] = shape, fraction
        return fraction

    world.cast_ray((0.0, 0.0), (10.0, 0.0), clip)
    assert closest["shape"] == near
    assert closest["fraction"] == pytest.approx(1.5 / 10.0, abs=1e-6)

    # Returning -1 ignores a shape: clipping while skipping the nearest finds the middle one.
    kept = {}

    def skip_near(shape, point, normal, fraction):
        if shape == near:
            return -1.0
        kept["shape"] = shape
        return fraction

    world.cast_ray((0.0, 0.0), (10.0, 0.0), skip_near)
    assert kept["shape"] == middle

    # Returning 0 stops at once.
    calls = []
    world.cast_ray((0.0, 0.0), (10.0, 0.0), lambda *a: calls.append(a) or 0.0)
    assert len(calls) == 1

    # cast_ray_all: every hit, nearest first.
    hits = world.cast_ray_all((0.0, 0.0), (10.0, 0.0))
    assert [h.shape for h in hits] == [near, middle, far]
    assert [h.fraction for h in hits] == pytest.approx([0.15, 0.35, 0.55], abs=1e-6)


def test_ray_callback_exception_propagates(world):
    three_circles(world)

    def boom(*args):
        raise KeyError("from the callback")

    with pytest.raises(KeyError):
        world.cast_ray((0.0, 0.0), (10.0, 0.0), boom)
    with pytest.raises(TypeError):
        world.cast_ray((0.0, 0.0), (10.0, 0.0), lambda *a: "not a number")


@pytest.mark.parametrize(
    "points, radius",
    [([(0.0, 0.0)], 0.25), ([(-0.25, -0.25), (0.25, -0.25), (0.25, 0.25), (-0.25, 0.25)], 0.0)],
    ids=["circle", "box"],
)
def test_shape_cast_hits_at_the_computed_fraction_and_clips_like_box2d(world, points, radius):
    """A circle of radius 0.25 (or a box of half-width 0.25) swept from the
    origin along +10 m x meets the circle of radius 0.5 at x = 2 when its
    centre is at x = 2 - 0.5 - 0.25 = 1.25: fraction 0.125, on the hit
    circle's surface at (1.5, 0), normal (-1, 0); the next at 0.325."""
    near, middle, far = three_circles(world)
    hits = {}

    def clip(shape, point, normal, fraction):
        hits["last"] = (shape, point, normal, fraction)
        return fraction

    world.cast_shape(points, (10.0, 0.0), clip, radius)
    shape, point, normal, fraction = hits["last"]
    assert shape == near
    # Box2D stops a shape cast within its linear slop (0.005 m) of touching.
    assert fraction == pytest.approx(0.125, abs=LINEAR_SLOP / 10.0 + 1e-6)
    assert point == pytest.approx((1.5, 0.0), abs=1e-3)
    assert normal == pytest.approx((-1.0, 0.0), abs=1e-3)

    # Skipping the nearest finds the middle one; 1 reports every shape; 0 stops at once.
    kept = {}

    def skip_near(shape, point, normal, fraction):
        if shape == near:
            return -1.0
        kept["shape"], kept["fraction"] = shape, fraction
        return fraction

    world.cast_shape(points, (10.0, 0.0), skip_near, radius)
    assert kept["shape"] == middle
    assert kept["fraction"] == pytest.approx(0.325, abs=LINEAR_SLOP / 10.0 + 1e-6)
    seen = []
    world.cast_shape(points, (10.0, 0.0), lambda s, p, n, f: seen.append(s) or 1.0, radius)
    assert set(seen) == {near, middle, far}
    calls = []
    world.cast_shape(points, (10.0, 0.0), lambda *a: calls.append(a) or 0.0, radius)
    assert len(calls) == 1

    # Placed elsewhere: from (0, 5) the sweep passes above every circle.
    world.cast_shape(points, (10.0, 0.0), lambda *a: pytest.fail("hit"), radius, position=(0.0, 5.0))


def test_shape_cast_bad_input_raises(world):
    three_circles(world)
    with pytest.raises(KeyError):
        world.cast_shape([(0.0, 0.0)], (10.0, 0.0), lambda *a: (_ for _ in ()).throw(KeyError("cb")), 0.25)
    with pytest.raises(ValueError):
        world.cast_shape([(0.0, 0.0)], (10.0, 0.0), lambda *a: math.nan, 0.25)
    with pytest.raises(ValueError):
        world.cast_shape([(0.0, 0.0)], (math.nan, 0.0), lambda *a: 1.0, 0.25)
    with pytest.raises(ValueError):
        world.cast_shape([(0.0, 0.0)], (1.0, 0.0), lambda *a: 1.0, 0.25, angle=math.inf)
    with pytest.raises(ValueError):
        world.cast_shape([], (1.0, 0.0), lambda *a: 1.0)


def test_momentum_is_conserved_in_a_collision():
    world = impulse2d.World(gravity=(0.0, 0.0))
    a = world.create_body("dynamic", position=(-2.0, 0.0), linear_velocity=(3.0, 0.0))
    a.add_circle(0.5, density=1.0, restitution=0.5, friction=0.0)
    b = world.create_body("dynamic", position=(2.0, 0.1), linear_velocity=(-2.0, 0.0))
    b.add_circle(0.5, density=3.0, restitution=0.5, friction=0.0)
    bodies = [a, b]
    masses = np.array([a.mass, b.mass], dtype=np.float64)
    # Density x area: pi r^2 rho.
    assert masses == pytest.approx([math.pi * 0.25, 3.0 * math.pi * 0.25], rel=1e-5)
    p0 = (masses[:, None] * world.velocities(bodies)).sum(axis=0)
    scale = np.abs(masses[:, None] * world.velocities(bodies)).sum()
    touched = False
    for _ in range(120):
        world.step(DT, SUBSTEPS)
        touched = touched or bool(world.contact_begin_events())
    assert touched
    p1 = (masses[:, None] * world.velocities(bodies)).sum(axis=0)
    # Contact impulses are equal and opposite: only float32 rounding remains.
    assert p1 == pytest.approx(p0, abs=1e-5 * scale)
    # The bodies separated: a moves left of b's speed along x afterwards.
    va, vb = world.velocities(bodies)
    assert va[0] < vb[0]


def test_equal_masses_head_on_elastic_swap_velocities():
    # Restitution 1 between equal masses head on: the velocities swap.
    world = impulse2d.World(gravity=(0.0, 0.0))
    a = world.create_body("dynamic", position=(-2.0, 0.0), linear_velocity=(2.0, 0.0))
    a.add_circle(0.5, restitution=1.0, friction=0.0)
    b = world.create_body("dynamic", position=(2.0, 0.0), linear_velocity=(0.0, 0.0))
    b.add_circle(0.5, restitution=1.0, friction=0.0)
    for _ in range(120):
        world.step(DT, SUBSTEPS)
    assert a.linear_velocity[0] == pytest.approx(0.0, abs=0.02)
    assert b.linear_velocity[0] == pytest.approx(2.0, abs=0.02)


def test_hit_event_speed_matches_fall_height(world):
    ground = add_ground(world)
    ground.shapes()[0].hit_events_enabled = True
    ball = world.create_body("dynamic", position=(0.0, 5.5))
    ball.add_circle(0.5, enable_hit_events=True)
    hits = []
    for _ in range(120):
        world.step(DT, SUBSTEPS)
        hits.extend(world.contact_hit_events())
    assert hits
    # Falling 5 m: v = sqrt(2 g h) = 10 m/s, reached within one step's speed
    # change (g dt) of the contact.
    assert hits[0].approach_speed == pytest.approx(10.0, abs=10.0 * DT + 0.05)
    assert hits[0].point[1] == pytest.approx(0.0, abs=0.05)


def test_revolute_motor_reaches_its_speed():
    world = impulse2d.World(gravity=(0.0, 0.0))
    ground = world.create_body("static")
    wheel = world.create_body("dynamic")
    wheel.add_circle(1.0)
    joint = world.create_revolute_joint(
        ground, wheel, enable_motor=True, motor_speed=2.0, max_motor_torque=1000.0
    )
    assert joint.type == "revolute"
    assert joint.motor_enabled and joint.motor_speed == 2.0
    for _ in range(30):
        world.step(DT, SUBSTEPS)
    assert wheel.angular_velocity == pytest.approx(2.0, rel=1e-3)
    assert joint.speed == pytest.approx(2.0, rel=1e-3)
    joint.motor_speed = -1.0
    for _ in range(30):
        world.step(DT, SUBSTEPS)
    assert wheel.angular_velocity == pytest.approx(-1.0, rel=1e-3)


def test_prismatic_limit_stops_a_falling_body(world):
    ground = world.create_body("static")
    slider = world.create_body("dynamic")
    slider.add_box(0.25, 0.25)
    joint = world.create_prismatic_joint(
        ground,
        slider,
        local_axis_a=(0.0, 1.0),
        enable_limit=True,
        lower_translation=-1.0,
        upper_translation=1.0,
    )
    assert joint.limits == (-1.0, 1.0)
    for _ in range(120):
        world.step(DT, SUBSTEPS)
    assert joint.translation == pytest.approx(-1.0, abs=LINEAR_SLOP)
    assert slider.position[1] == pytest.approx(-1.0, abs=LINEAR_SLOP)
    joint.limits = (-2.0, 1.0)
    for _ in range(120):
        world.step(DT, SUBSTEPS)
    assert slider.position[1] == pytest.approx(-2.0, abs=LINEAR_SLOP)


def test_distance_joint_pendulum_keeps_its_length(world):
    ground = world.create_body("static", position=(0.0, 10.0))
    bob = world.create_body("dynamic", position=(3.0, 10.0))
    bob.add_circle(0.25)
    joint = world.create_distance_joint(ground, bob, length=3.0)
    assert joint.length == pytest.approx(3.0)
    for _ in range(90):
        world.step(DT, SUBSTEPS)
        x, y = bob.position
        assert math.hypot(x, y - 10.0) == pytest.approx(3.0, abs=0.01)
    assert joint.current_length == pytest.approx(3.0, abs=0.01)
    assert bob.position[1] < 10.0  # it swung down


def test_weld_joint_holds_a_cantilever(world):
    ground = world.create_body("static")
    beam = world.create_body("dynamic", position=(1.0, 0.0))
    beam.add_box(1.0, 0.1)
    joint = world.create_weld_joint(ground, beam, local_anchor_a=(0.0, 0.0), local_anchor_b=(-1.0, 0.0))
    for _ in range(60):
        world.step(DT, SUBSTEPS)
    assert beam.position == pytest.approx((1.0, 0.0), abs=0.02)
    assert joint.linear_hertz == 0.0
    joint.angular_hertz = 2.0
    assert joint.angular_hertz == 2.0


def test_spring_properties_and_wrong_type(world):
    a = world.create_body("static")
    b = world.create_body("dynamic", position=(0.0, -1.0))
    b.add_circle(0.2)
    wheel = world.create_wheel_joint(a, b, local_axis_a=(0.0, 1.0))
    assert wheel.spring_enabled  # Box2D's wheel default
    assert wheel.spring_hertz == 1.0 and wheel.spring_damping_ratio == pytest.approx(0.7)
    wheel.spring_hertz = 4.0
    wheel.spring_damping_ratio = 0.5
    assert (wheel.spring_hertz, wheel.spring_damping_ratio) == (4.0, 0.5)
    with pytest.raises(TypeError):
        wheel.target_angle  # revolute only
    with pytest.raises(ValueError):
        wheel.spring_hertz = -1.0
    mouse = world.create_mouse_joint(a, b, target=(0.0, 0.0), max_force=100.0)
    assert mouse.target == (0.0, 0.0) and mouse.max_force == 100.0
    with pytest.raises(TypeError):
        world.create_revolute_joint(a, b, no_such_option=1.0)


def test_every_joint_type_can_be_created(world):
    a = world.create_body("static")
    b = world.create_body("dynamic", position=(0.0, 1.0))
    b.add_box(0.2, 0.2)
    made = [
        world.create_distance_joint(a, b),
        world.create_filter_joint(a, b),
        world.create_motor_joint(a, b, max_force=10.0),
        world.create_mouse_joint(a, b),
        world.create_mover_joint(a, b),
        world.create_pogo_joint(a, b),
        world.create_prismatic_joint(a, b),
        world.create_revolute_joint(a, b),
        world.create_weld_joint(a, b),
        world.create_wheel_joint(a, b),
    ]
    assert [j.type for j in made] == [
        "distance", "filter", "motor", "mouse", "mover", "pogo",
        "prismatic", "revolute", "weld", "wheel",
    ]
    assert set(b.joints()) == set(made)
    for _ in range(10):
        world.step(DT, SUBSTEPS)


def test_sensor_reports_a_falling_ball(world):
    add_ground(world)
    sensor_body = world.create_body("static", position=(0.0, 2.0))
    sensor = sensor_body.add_box(1.0, 0.5, sensor=True)
    ball = world.create_body("dynamic", position=(0.0, 5.0))
    ball_shape = ball.add_circle(0.25)
    begins = []
    for _ in range(120):
        world.step(DT, SUBSTEPS)
        begins.extend(world.sensor_begin_events())
    assert len(begins) == 1
    assert begins[0].sensor == sensor and begins[0].visitor == ball_shape
    # Sensors are not hit by rays or seen by overlap queries.
    assert world.cast_ray_closest((0.0, 2.0), (0.0, 0.1)) is None


def test_contact_events_name_the_shapes(world):
    ground = add_ground(world)
    box = world.create_body("dynamic", position=(0.0, 1.0))
    shape = box.add_box(0.5, 0.5)
    events = []
    for _ in range(60):
        world.step(DT, SUBSTEPS)
        events.extend(world.contact_begin_events())
    assert len(events) == 1
    e = events[0]
    assert {e.shape_a, e.shape_b} == {shape, ground.shapes()[0]}
    assert len(e.points) == 2
    assert abs(e.normal[1]) == pytest.approx(1.0, abs=1e-5)
    box.destroy()
    world.step(DT, SUBSTEPS)
    ends = world.contact_end_events()
    assert len(ends) == 1 and not ends[0].shape_a.is_valid or not ends[0].shape_b.is_valid


def test_overlap_queries(world):
    body = world.create_body("static")
    left = body.add_circle(0.5, center=(-3.0, 0.0))
    right = body.add_box(0.5, 0.5, center=(3.0, 0.0))
    assert world.overlap_aabb((-4.0, -1.0), (-2.0, 1.0)) == [left]
    assert set(world.overlap_aabb((-10.0, -10.0), (10.0, 10.0))) == {left, right}
    assert world.overlap_aabb((-1.0, -1.0), (1.0, 1.0)) == []
    # A circle of radius 0.6 at (2.0, 0) reaches x = 2.6 > 2.5 (the box's left face).
    assert world.overlap_shape([(2.0, 0.0)], radius=0.6) == [right]
    assert world.overlap_shape([(2.0, 0.0)], radius=0.4) == []
    # A query filter that masks category 1 out sees nothing.
    assert world.overlap_aabb((-10.0, -10.0), (10.0, 10.0), mask_bits=2) == []


def test_chain_ground_holds_a_ball(world):
    ground = world.create_body("static")
    # Open chain of n points: n - 3 segments (the end points are ghosts). Solid
    # side on the right going from point to point: run right to left for an upward floor.
    points = [(10.0, 0.0), (5.0, 0.0), (0.0, 0.0), (-5.0, 0.0), (-10.0, 0.0)]
    chain = ground.add_chain(points)
    assert len(chain.segments()) == 2 and not chain.is_loop
    ball = world.create_body("dynamic", position=(0.0, 3.0))
    ball.add_circle(0.5)
    for _ in range(180):
        world.step(DT, SUBSTEPS)
    assert ball.position[1] == pytest.approx(0.5, abs=LINEAR_SLOP)


def test_kinematic_target_transform_arrives_in_one_step():
    world = impulse2d.World(gravity=(0.0, 0.0))
    k = world.create_body("kinematic", position=(0.0, 0.0))
    k.add_box(0.5, 0.5)
    k.set_target_transform((1.0, 2.0), 0.5, DT)
    # Velocity = displacement / dt, so one step lands on the target.
    assert k.linear_velocity == pytest.approx((1.0 / DT, 2.0 / DT), rel=1e-5)
    world.step(DT, SUBSTEPS)
    assert k.position == pytest.approx((1.0, 2.0), abs=1e-4)
    assert k.angular_velocity == pytest.approx(0.5 / DT, rel=1e-5)
    # Box2D turns a rotation by w h per substep as q + h w perp(q), normalised:
    # atan(w h) per substep, which is slightly less than w h.
    assert k.angle == pytest.approx(SUBSTEPS * math.atan(0.5 / SUBSTEPS), abs=1e-5)


def test_mass_data_override_and_back():
    world = impulse2d.World()
    b = world.create_body("dynamic")
    b.add_circle(1.0, density=2.0)
    assert b.mass == pytest.approx(2.0 * math.pi, rel=1e-6)
    b.set_mass_data(3.0, (0.0, 0.0), 1.5)
    assert (b.mass, b.inertia) == pytest.approx((3.0, 1.5))
    b.apply_mass_from_shapes()
    # Solid disc: I = m r^2 / 2 about its centre.
    assert b.inertia == pytest.approx(2.0 * math.pi / 2.0, rel=1e-5)
    with pytest.raises(ValueError):
        b.set_mass_data(float("nan"), (0.0, 0.0), 1.0)


def test_explosion_pushes_bodies_outwards():
    world = impulse2d.World(gravity=(0.0, 0.0))
    left = world.create_body("dynamic", position=(-2.0, 0.0))
    left.add_box(0.5, 0.5)
    right = world.create_body("dynamic", position=(2.0, 0.0))
    right.add_box(0.5, 0.5)
    world.explode((0.0, 0.0), 5.0, 1.0)
    vl, vr = left.linear_velocity, right.linear_velocity
    assert vl[0] < 0.0 < vr[0]
    # Mirror images get mirror velocities.
    assert vr[0] == pytest.approx(-vl[0], rel=1e-5)


def test_joint_breaks_past_its_force_threshold(world):
    ground = world.create_body("static", position=(0.0, 10.0))
    weight = world.create_body("dynamic", position=(0.0, 9.0))
    weight.add_circle(0.25, density=10.0)  # 10 pi 0.25^2 = 1.96 kg: 19.6 N of weight
    joint = world.create_distance_joint(
        ground, weight, length=1.0, force_threshold=10.0, break_on_threshold=True, user_data="rope"
    )
    assert joint.user_data == "rope"
    events = []
    for _ in range(3):
        world.step(DT, SUBSTEPS)
        events.extend(world.joint_events())
    assert [(e.joint, e.kind, e.joint_type) for e in events] == [(joint, "broken", "distance")]
    assert events[0].force > 10.0
    assert not joint.is_valid
    with pytest.raises(impulse2d.StaleHandleError):
        joint.user_data


def test_maximum_linear_speed_caps_a_fall():
    world = impulse2d.World(maximum_linear_speed=5.0)
    ball = world.create_body("dynamic", position=(0.0, 100.0))
    ball.add_circle(0.5)
    for _ in range(120):  # 2 s: unchecked, g t = 20 m/s
        world.step(DT, SUBSTEPS)
    assert ball.linear_velocity[1] == pytest.approx(-5.0, rel=1e-5)
