"""Type stubs for the extension module `impulse2d._impulse2d`.

Units: metres (m), kilograms (kg), seconds (s), radians (rad); forces in
newtons (N), torques in N·m, impulses in N·s. Vectors are pairs (x, y); any
sequence of two numbers is accepted where a vector is expected.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, SupportsFloat

import numpy as np
import numpy.typing as npt

__version__: str

Vec2 = tuple[float, float]
VecLike = Sequence[SupportsFloat] | npt.ArrayLike
BodyType = Literal["static", "kinematic", "dynamic"]
ShapeType = Literal["circle", "capsule", "segment", "polygon", "chain_segment"]
JointType = Literal[
    "distance", "filter", "motor", "mouse", "mover", "pogo", "prismatic", "revolute", "weld", "wheel"
]
Aabb = tuple[Vec2, Vec2]

class StaleHandleError(RuntimeError):
    """A handle whose object was destroyed, or that belongs to another world."""

class Filter:
    """Collision filter: categories, masks and group (Box2D's b2Filter)."""

    category_bits: int
    mask_bits: int
    group_index: int
    def __init__(self, category_bits: int = 1, mask_bits: int = 2**64 - 1, group_index: int = 0) -> None: ...

class RayHit:
    """A ray hit: the shape, the point (m), the surface normal and the fraction of the ray."""

    @property
    def shape(self) -> Shape: ...
    @property
    def point(self) -> Vec2: ...
    @property
    def normal(self) -> Vec2: ...
    @property
    def fraction(self) -> float: ...

class ContactBeginEvent:
    @property
    def shape_a(self) -> Shape: ...
    @property
    def shape_b(self) -> Shape: ...
    @property
    def normal(self) -> Vec2:
        """Unit normal from shape_a to shape_b."""
    @property
    def points(self) -> list[Vec2]:
        """Contact points (m, world)."""

class ContactData:
    """A touching contact."""

    @property
    def shape_a(self) -> Shape: ...
    @property
    def shape_b(self) -> Shape: ...
    @property
    def normal(self) -> Vec2:
        """Unit normal from shape_a to shape_b."""
    @property
    def points(self) -> list[Vec2]: ...
    @property
    def normal_impulses(self) -> list[float]:
        """N·s, per point, last step."""

class ContactEndEvent:
    @property
    def shape_a(self) -> Shape: ...
    @property
    def shape_b(self) -> Shape: ...

class ContactHitEvent:
    @property
    def shape_a(self) -> Shape: ...
    @property
    def shape_b(self) -> Shape: ...
    @property
    def point(self) -> Vec2: ...
    @property
    def normal(self) -> Vec2: ...
    @property
    def approach_speed(self) -> float:
        """m/s."""

class SensorBeginEvent:
    @property
    def sensor(self) -> Shape: ...
    @property
    def visitor(self) -> Shape: ...

class SensorEndEvent:
    @property
    def sensor(self) -> Shape: ...
    @property
    def visitor(self) -> Shape: ...

class JointEvent:
    @property
    def joint(self) -> Joint: ...
    @property
    def kind(self) -> Literal["threshold_exceeded", "broken", "body_destroyed"]: ...
    @property
    def joint_type(self) -> JointType: ...
    @property
    def force(self) -> float:
        """N."""
    @property
    def torque(self) -> float:
        """N·m."""

class BodyMoveEvent:
    @property
    def body(self) -> Body: ...
    @property
    def position(self) -> Vec2: ...
    @property
    def angle(self) -> float: ...
    @property
    def fell_asleep(self) -> bool: ...

class World:
    """A physics world. Results are the same bits for any `workers` count."""

    def __init__(
        self,
        gravity: VecLike = (0.0, -10.0),
        workers: int = 1,
        *,
        enable_sleep: bool = True,
        enable_continuous: bool = True,
        contact_hertz: float = 30.0,
        contact_damping_ratio: float = 10.0,
        contact_speed: float = 3.0,
        joint_hertz: float = 60.0,
        joint_damping_ratio: float = 2.0,
        restitution_threshold: float = 1.0,
        hit_event_threshold: float = 1.0,
        maximum_linear_speed: float = 400.0,
    ) -> None: ...
    def step(self, dt: float = 1.0 / 60.0, substeps: int = 4) -> None:
        """Advance by dt seconds in `substeps` substeps (the GIL is released)."""
    gravity: Vec2
    """m/s²."""
    workers: int
    sleep_enabled: bool
    continuous_enabled: bool
    warm_starting_enabled: bool
    restitution_threshold: float
    """m/s."""
    hit_event_threshold: float
    """m/s."""
    maximum_linear_speed: float
    """m/s."""
    contact_tuning: tuple[float, float, float]
    """(hertz, damping ratio, push-out speed m/s)."""
    joint_tuning: tuple[float, float]
    """(hertz, damping ratio)."""
    @property
    def step_count(self) -> int: ...
    @property
    def awake_body_count(self) -> int: ...
    def state_hash(self) -> int:
        """FNV-1a over every body's transform and velocities (same as Rust's World::state_hash)."""
    def snapshot(self) -> bytes: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes, int]]: ...
    def restore(self, data: bytes) -> None: ...
    @staticmethod
    def from_snapshot(data: bytes, workers: int = 1) -> World: ...
    def create_body(
        self,
        type: BodyType = "dynamic",
        position: VecLike = (0.0, 0.0),
        angle: float = 0.0,
        *,
        linear_velocity: VecLike = (0.0, 0.0),
        angular_velocity: float = 0.0,
        linear_damping: float = 0.0,
        angular_damping: float = 0.0,
        gravity_scale: float = 1.0,
        bullet: bool = False,
        fixed_rotation: bool = False,
        awake: bool = True,
        enable_sleep: bool = True,
        enabled: bool = True,
        allow_fast_rotation: bool = False,
        name: str | None = None,
        user_data: Any = None,
    ) -> Body: ...
    def destroy_body(self, body: Body) -> None: ...
    def bodies(self) -> list[Body]: ...
    def create_distance_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_filter_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_motor_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_mouse_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_mover_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_pogo_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_prismatic_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_revolute_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_weld_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def create_wheel_joint(self, body_a: Body, body_b: Body, **options: Any) -> Joint: ...
    def destroy_joint(self, joint: Joint) -> None: ...
    def contact_begin_events(self) -> list[ContactBeginEvent]: ...
    def contact_end_events(self) -> list[ContactEndEvent]: ...
    def contact_hit_events(self) -> list[ContactHitEvent]: ...
    def sensor_begin_events(self) -> list[SensorBeginEvent]: ...
    def sensor_end_events(self) -> list[SensorEndEvent]: ...
    def joint_events(self) -> list[JointEvent]: ...
    def body_move_events(self) -> list[BodyMoveEvent]: ...
    def cast_ray_closest(
        self, origin: VecLike, translation: VecLike, *, category_bits: int = 1, mask_bits: int = 2**64 - 1
    ) -> RayHit | None: ...
    def cast_ray(
        self,
        origin: VecLike,
        translation: VecLike,
        callback: Callable[[Shape, Vec2, Vec2, float], float],
        *,
        category_bits: int = 1,
        mask_bits: int = 2**64 - 1,
    ) -> None:
        """callback returns -1 (ignore the shape), 0 (stop), a fraction (clip) or 1 (go on)."""
    def cast_ray_all(
        self, origin: VecLike, translation: VecLike, *, category_bits: int = 1, mask_bits: int = 2**64 - 1
    ) -> list[RayHit]: ...
    def overlap_aabb(
        self, lower: VecLike, upper: VecLike, *, category_bits: int = 1, mask_bits: int = 2**64 - 1
    ) -> list[Shape]: ...
    def overlap_shape(
        self,
        points: Iterable[VecLike],
        radius: float = 0.0,
        position: VecLike = (0.0, 0.0),
        angle: float = 0.0,
        *,
        category_bits: int = 1,
        mask_bits: int = 2**64 - 1,
    ) -> list[Shape]: ...
    def explode(
        self,
        position: VecLike,
        radius: float,
        impulse_per_length: float,
        falloff: float = 0.0,
        *,
        mask_bits: int = 2**64 - 1,
    ) -> None: ...
    def positions(self, bodies: Iterable[Body]) -> npt.NDArray[np.float32]:
        """(n, 2) float32, m."""
    def angles(self, bodies: Iterable[Body]) -> npt.NDArray[np.float32]:
        """(n,) float32, rad."""
    def velocities(self, bodies: Iterable[Body]) -> npt.NDArray[np.float32]:
        """(n, 2) float32, m/s."""
    def angular_velocities(self, bodies: Iterable[Body]) -> npt.NDArray[np.float32]:
        """(n,) float32, rad/s."""
    def set_positions(self, bodies: Iterable[Body], positions: npt.ArrayLike) -> None: ...
    def set_angles(self, bodies: Iterable[Body], angles: npt.ArrayLike) -> None: ...
    def set_velocities(self, bodies: Iterable[Body], velocities: npt.ArrayLike) -> None: ...
    def set_angular_velocities(self, bodies: Iterable[Body], velocities: npt.ArrayLike) -> None: ...

class Body:
    """Handle to a rigid body; compares and hashes by id."""

    @property
    def world(self) -> World: ...
    @property
    def id(self) -> tuple[int, int]: ...
    @property
    def is_valid(self) -> bool: ...
    user_data: Any
    type: BodyType
    name: str
    position: Vec2
    """Origin, m (setting teleports)."""
    angle: float
    """rad, in [-pi, pi] (setting teleports)."""
    @property
    def rotation(self) -> tuple[float, float]:
        """(cos, sin)."""
    linear_velocity: Vec2
    """m/s."""
    angular_velocity: float
    """rad/s."""
    @property
    def mass(self) -> float:
        """kg."""
    @property
    def inertia(self) -> float:
        """kg·m² about the centre of mass."""
    @property
    def center_of_mass(self) -> Vec2: ...
    @property
    def local_center_of_mass(self) -> Vec2: ...
    linear_damping: float
    angular_damping: float
    gravity_scale: float
    awake: bool
    sleep_enabled: bool
    enabled: bool
    bullet: bool
    fixed_rotation: bool
    motion_locks: tuple[bool, bool, bool]
    def destroy(self) -> None: ...
    def set_transform(self, position: VecLike, angle: float) -> None: ...
    def apply_force(self, force: VecLike, point: VecLike, wake: bool = True) -> None: ...
    def apply_force_to_center(self, force: VecLike, wake: bool = True) -> None: ...
    def apply_torque(self, torque: float, wake: bool = True) -> None: ...
    def apply_linear_impulse(self, impulse: VecLike, point: VecLike, wake: bool = True) -> None: ...
    def apply_linear_impulse_to_center(self, impulse: VecLike, wake: bool = True) -> None: ...
    def apply_angular_impulse(self, impulse: float, wake: bool = True) -> None: ...
    def clear_forces(self) -> None: ...
    def set_target_transform(self, position: VecLike, angle: float, dt: float) -> None: ...
    def set_mass_data(self, mass: float, center: VecLike, inertia: float) -> None: ...
    def apply_mass_from_shapes(self) -> None: ...
    def world_point(self, local_point: VecLike) -> Vec2: ...
    def local_point(self, world_point: VecLike) -> Vec2: ...
    def world_vector(self, local_vector: VecLike) -> Vec2: ...
    def local_vector(self, world_vector: VecLike) -> Vec2: ...
    def world_point_velocity(self, world_point: VecLike) -> Vec2: ...
    def shapes(self) -> list[Shape]: ...
    def joints(self) -> list[Joint]: ...
    def contacts(self) -> list[ContactData]: ...
    def aabb(self) -> Aabb: ...
    # Shape options for every add_*: density (kg/m²), friction, restitution,
    # rolling_resistance, tangent_speed (m/s), material (int), filter (Filter),
    # sensor, enable_contact_events, enable_sensor_events, enable_hit_events,
    # update_body_mass, user_data.
    def add_circle(self, radius: float, center: VecLike = (0.0, 0.0), **options: Any) -> Shape: ...
    def add_capsule(self, center1: VecLike, center2: VecLike, radius: float, **options: Any) -> Shape: ...
    def add_segment(self, point1: VecLike, point2: VecLike, **options: Any) -> Shape: ...
    def add_polygon(
        self,
        points: Iterable[VecLike],
        radius: float = 0.0,
        position: VecLike = (0.0, 0.0),
        angle: float = 0.0,
        **options: Any,
    ) -> Shape: ...
    def add_box(
        self,
        hx: float,
        hy: float,
        center: VecLike = (0.0, 0.0),
        angle: float = 0.0,
        radius: float = 0.0,
        **options: Any,
    ) -> Shape: ...
    def add_chain(self, points: Iterable[VecLike], loop: bool = False, **options: Any) -> Chain: ...

class Shape:
    """Handle to a shape; compares and hashes by id."""

    @property
    def id(self) -> tuple[int, int]: ...
    @property
    def is_valid(self) -> bool: ...
    user_data: Any
    @property
    def type(self) -> ShapeType: ...
    @property
    def body(self) -> Body: ...
    @property
    def sensor(self) -> bool: ...
    density: float
    friction: float
    restitution: float
    rolling_resistance: float
    tangent_speed: float
    material: int
    filter: Filter
    contact_events_enabled: bool
    hit_events_enabled: bool
    sensor_events_enabled: bool
    def destroy(self, update_body_mass: bool = True) -> None: ...
    def geometry(self) -> dict[str, Any]: ...
    def aabb(self) -> Aabb: ...
    def test_point(self, point: VecLike) -> bool: ...
    def closest_point(self, target: VecLike) -> Vec2: ...
    def sensor_overlaps(self) -> list[Shape]: ...
    def contacts(self) -> list[ContactData]: ...
    def mass_data(self) -> tuple[float, Vec2, float]: ...

class Chain:
    """Handle to a chain of one-sided segments."""

    @property
    def id(self) -> tuple[int, int]: ...
    @property
    def is_valid(self) -> bool: ...
    user_data: Any
    @property
    def body(self) -> Body: ...
    @property
    def is_loop(self) -> bool: ...
    friction: float
    restitution: float
    def segments(self) -> list[Shape]: ...
    def destroy(self) -> None: ...

class Joint:
    """Handle to a joint of any type. A property its type lacks raises TypeError."""

    @property
    def id(self) -> tuple[int, int]: ...
    @property
    def is_valid(self) -> bool: ...
    user_data: Any
    @property
    def type(self) -> JointType: ...
    @property
    def body_a(self) -> Body: ...
    @property
    def body_b(self) -> Body: ...
    @property
    def local_anchor_a(self) -> Vec2: ...
    @property
    def local_anchor_b(self) -> Vec2: ...
    def world_anchors(self) -> tuple[Vec2, Vec2]: ...
    collide_connected: bool
    @property
    def constraint_force(self) -> Vec2: ...
    @property
    def constraint_torque(self) -> float: ...
    @property
    def linear_separation(self) -> float: ...
    @property
    def angular_separation(self) -> float: ...
    force_threshold: float
    torque_threshold: float
    break_on_threshold: bool
    def destroy(self) -> None: ...
    def wake_bodies(self) -> None: ...
    # revolute, prismatic, wheel, distance
    motor_enabled: bool
    motor_speed: float
    max_motor_force: float
    @property
    def motor_force(self) -> float: ...
    limit_enabled: bool
    limits: tuple[float, float]
    spring_enabled: bool
    # + mouse, pogo
    spring_hertz: float
    spring_damping_ratio: float
    # revolute
    @property
    def angle(self) -> float: ...
    target_angle: float
    # revolute, prismatic
    @property
    def speed(self) -> float: ...
    # prismatic, wheel
    @property
    def translation(self) -> float: ...
    target_translation: float
    # distance
    length: float
    @property
    def current_length(self) -> float: ...
    spring_force_range: tuple[float, float]
    # weld, motor joint
    linear_hertz: float
    linear_damping_ratio: float
    angular_hertz: float
    angular_damping_ratio: float
    # motor joint (and mouse: max_force; mover: linear_velocity, max_velocity_force)
    linear_offset: Vec2
    angular_offset: float
    max_force: float
    max_torque: float
    correction_factor: float
    linear_velocity: Vec2
    angular_velocity: float
    max_velocity_force: float | Vec2
    max_velocity_torque: float
    max_spring_force: float
    max_spring_torque: float
    # mouse
    target: Vec2
    # pogo
    rest_length: float
    max_forces: tuple[float, float]

# Environments (impulse2d.envs wraps these in gymnasium classes).
# (obs_shape, obs_low, obs_high, obs_dtype, n_discrete or None, action_low, action_high)
_Spaces = tuple[list[int], list[float], list[float], str, int | None, list[float], list[float]]

class EnvCore:
    """One Rust environment: "LunarLander", "BipedalWalker" or "CarRacing",
    with Gymnasium's constructor arguments and `max_episode_steps` as keywords."""
    def __init__(self, name: str, **kwargs: Any) -> None: ...
    def spaces(self) -> _Spaces: ...
    def reset(self, seed: int | None = None) -> bytes: ...
    def step(self, action: int | Sequence[float]) -> tuple[bytes, float, bool, bool]: ...
    def render(self) -> tuple[int, int, bytes]: ...

class VectorEnvCore:
    """`num_envs` Rust environments on `workers` threads, next-step autoreset;
    environment `i` is seeded `seed + i`."""
    def __init__(self, name: str, num_envs: int, workers: int = 1, **kwargs: Any) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def workers(self) -> int: ...
    def spaces(self) -> _Spaces: ...
    def reset(self, seed: int | None = None) -> bytes: ...
    def reset_seeds(self, seeds: Sequence[int | None]) -> bytes: ...
    def step(self, actions: bytes) -> tuple[bytes, bytes, bytes, bytes]: ...
    def render(self, index: int) -> tuple[int, int, bytes]: ...

class CarRacingCore:
    """One CarRacing with its extras (`impulse2d.envs.CarRacing` wraps it): the
    `randomize` reset option, `lap_finished`, the track and the colours."""
    def __init__(
        self,
        *,
        continuous: bool = True,
        lap_complete_percent: float = 0.95,
        domain_randomize: bool = False,
        max_episode_steps: int | None = None,
    ) -> None: ...
    def spaces(self) -> _Spaces: ...
    def reset(self, seed: int | None = None, randomize: bool | None = None) -> bytes: ...
    def step(self, action: int | Sequence[float]) -> tuple[bytes, float, bool, bool]: ...
    def lap_finished(self) -> bool | None: ...
    def render(self) -> tuple[int, int, bytes]: ...
    def track(self) -> list[tuple[float, float, float, float]]: ...
    def colors(self) -> tuple[list[float], list[float], list[float]]: ...
