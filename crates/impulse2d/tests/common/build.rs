//! Scene building shared by the integration tests: a world, a body of a type
//! at a position, a box or a ball on it, a static ground, stepping — one line
//! each, so that a test reads as its scene. Include it with
//! `#[path = "common/build.rs"] mod build;` (only this module, not the Box2D glue).

#![allow(dead_code)]

use impulse2d::collision::{Circle, make_box, make_offset_box};
use impulse2d::{
    BodyDef, BodyId, BodyType, DistanceJointDef, FilterJointDef, JointDef, JointId, MotorJointDef,
    MouseJointDef, MoverJointDef, PogoJointDef, Pos, PrismaticJointDef, RevoluteJointDef, Rot,
    ShapeDef, ShapeId, Vec2, WeldJointDef, WheelJointDef, World, WorldDef,
};

/// The tests' usual time step, s.
pub const DT: f32 = 1.0 / 60.0;

/// The raw bits of a body pose (`WorldTransform::to_bits`): `u32` words in
/// the default build, `u64` ones with `large-world`.
#[cfg(not(feature = "large-world"))]
pub type PoseBits = [u32; 4];
/// The raw bits of a body pose (`WorldTransform::to_bits`): `u32` words in
/// the default build, `u64` ones with `large-world`.
#[cfg(feature = "large-world")]
pub type PoseBits = [u64; 4];

/// A world with default settings.
pub fn world() -> World {
    World::new(&WorldDef::default()).unwrap()
}

/// A world with default settings stepped on `workers` threads.
pub fn world_with_workers(workers: usize) -> World {
    World::new(&WorldDef {
        worker_count: workers,
        ..Default::default()
    })
    .unwrap()
}

/// A world with `gravity` (m/s²) and default settings otherwise.
pub fn world_with_gravity(gravity: Vec2) -> World {
    World::new(&WorldDef {
        gravity,
        ..Default::default()
    })
    .unwrap()
}

/// A body definition of `body_type` at `position` (m), the rest default.
pub fn def(body_type: BodyType, position: impl Into<Pos>) -> BodyDef {
    BodyDef {
        body_type,
        position: position.into(),
        ..Default::default()
    }
}

/// A body of `body_type` at `position` (m), without shapes.
pub fn body(world: &mut World, body_type: BodyType, position: impl Into<Pos>) -> BodyId {
    world.create_body(&def(body_type, position)).unwrap()
}

/// A static body at `position` (m) turned by `angle` (radians), without shapes.
pub fn turned_body(world: &mut World, position: impl Into<Pos>, angle: f32) -> BodyId {
    let def = BodyDef {
        rotation: Rot::from_angle(angle),
        ..def(BodyType::Static, position)
    };
    world.create_body(&def).unwrap()
}

/// A `2 hx` × `2 hy` m box (default shape definition) centred on `body`'s origin.
pub fn add_box(world: &mut World, body: BodyId, hx: f32, hy: f32) -> ShapeId {
    add_box_with(world, body, hx, hy, &ShapeDef::default())
}

/// A `2 hx` × `2 hy` m box made with `def`, centred on `body`'s origin.
pub fn add_box_with(world: &mut World, body: BodyId, hx: f32, hy: f32, def: &ShapeDef) -> ShapeId {
    let square = make_box(hx, hy).unwrap();
    world.create_polygon_shape(body, def, &square).unwrap()
}

/// A shape definition of `density` (kg/m²) and `friction`, the rest default.
pub fn material(density: f32, friction: f32) -> ShapeDef {
    ShapeDef {
        density,
        friction,
        ..ShapeDef::default()
    }
}

/// A ball of `radius` m (default shape definition) centred on `body`'s origin.
pub fn add_circle(world: &mut World, body: BodyId, radius: f32) -> ShapeId {
    let circle = Circle::new(Vec2::ZERO, radius).unwrap();
    world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap()
}

/// A body of `body_type` at `position` holding a `2 hx` × `2 hy` m box.
pub fn box_body(
    world: &mut World,
    body_type: BodyType,
    position: impl Into<Pos>,
    hx: f32,
    hy: f32,
) -> BodyId {
    let b = body(world, body_type, position);
    add_box(world, b, hx, hy);
    b
}

/// A static body at the origin holding a `2 hx` m wide, 2 m thick slab whose
/// top face is y = 0.
pub fn ground_slab(world: &mut World, hx: f32) -> BodyId {
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let slab = make_offset_box(hx, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    world
        .create_polygon_shape(ground, &ShapeDef::default(), &slab)
        .unwrap();
    ground
}

/// Sets `body`'s linear velocity (m/s).
pub fn set_velocity(world: &mut World, body: BodyId, velocity: Vec2) {
    world
        .body_mut(body)
        .unwrap()
        .set_linear_velocity(velocity)
        .unwrap();
}

/// `steps` steps of [`DT`] with 4 substeps.
pub fn step(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT, 4).unwrap();
    }
}

/// A revolute joint with default settings pinning `anchor_a` on `a` (in A's
/// frame, metres) to `anchor_b` on `b`.
pub fn pin(world: &mut World, a: BodyId, b: BodyId, anchor_a: Vec2, anchor_b: Vec2) -> JointId {
    let def = RevoluteJointDef {
        base: joint(a, b, anchor_a, anchor_b),
        ..RevoluteJointDef::default()
    };
    world.create_revolute_joint(&def).unwrap()
}

/// A joint definition linking `anchor_a` on `a` (in A's frame, metres) to
/// `anchor_b` on `b`, every other setting at its default.
pub fn joint(a: BodyId, b: BodyId, anchor_a: Vec2, anchor_b: Vec2) -> JointDef {
    JointDef {
        body_a: a,
        body_b: b,
        local_anchor_a: anchor_a,
        local_anchor_b: anchor_b,
        ..JointDef::default()
    }
}

/// A joint definition that a world turns into a joint (its
/// `World::create_*_joint`), so that a test creates any kind with [`AddJoint::add_joint`].
pub trait JointDefinition {
    /// Creates the joint in `world`.
    fn create_in(&self, world: &mut World) -> impulse2d::Result<JointId>;
}

macro_rules! joint_definitions {
    ($($def:ident => $create:ident),* $(,)?) => {$(
        impl JointDefinition for $def {
            fn create_in(&self, world: &mut World) -> impulse2d::Result<JointId> {
                world.$create(self)
            }
        }
    )*};
}

joint_definitions!(
    DistanceJointDef => create_distance_joint,
    FilterJointDef => create_filter_joint,
    MotorJointDef => create_motor_joint,
    MouseJointDef => create_mouse_joint,
    MoverJointDef => create_mover_joint,
    PogoJointDef => create_pogo_joint,
    PrismaticJointDef => create_prismatic_joint,
    RevoluteJointDef => create_revolute_joint,
    WeldJointDef => create_weld_joint,
    WheelJointDef => create_wheel_joint,
);

/// `world.add_joint(&def)`: creates the joint any valid joint definition
/// describes.
pub trait AddJoint {
    /// Creates the joint `def` describes (which must be valid).
    fn add_joint<D: JointDefinition>(&mut self, def: &D) -> JointId;
}

impl AddJoint for World {
    fn add_joint<D: JointDefinition>(&mut self, def: &D) -> JointId {
        def.create_in(self).unwrap()
    }
}
