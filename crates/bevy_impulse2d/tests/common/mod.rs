//! What the plugin's test files share: the app under `MinimalPlugins` (no window) at
//! 64 Hz, stepped by running `FixedUpdate` by hand (each run is one physics step, so
//! h = 1/256 s per substep); the world it steps; spawning bodies, colliders and joints;
//! the messages it sent; and bodies of a plain engine world to compare with.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use bevy::prelude::*;
use bevy_impulse2d::impulse2d as i2;
use bevy_impulse2d::prelude::*;

/// Gravity, m/s² (the plugin's default, downwards).
pub const G: f32 = 10.0;
/// Fixed steps per second: a timestep of exactly 1/64 s, the same `f32` a plain world
/// gets from 1.0 / 64.0.
pub const HZ: f32 = 64.0;

/// The plugin at [`HZ`] on one worker.
pub fn app() -> App {
    app_with(|_| {})
}

/// The plugin at [`HZ`] on one worker, with what `extra` adds before the app is
/// finished.
pub fn app_with(extra: impl FnOnce(&mut App)) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, Impulse2dPlugin { hz: HZ as f64 }));
    app.insert_resource(PhysicsSettings {
        worker_count: Some(1),
        ..default()
    });
    extra(&mut app);
    app.finish();
    app.cleanup();
    app
}

/// Runs `steps` fixed steps.
pub fn step(app: &mut App, steps: usize) {
    for _ in 0..steps {
        app.world_mut().run_schedule(FixedUpdate);
    }
}

/// The engine world the plugin steps.
pub fn physics(app: &App) -> &i2::World {
    &app.world().resource::<PhysicsWorld>().world
}

/// The body made for `e`.
pub fn body_of(app: &App, e: Entity) -> i2::BodyId {
    app.world().get::<BodyHandle>(e).expect("a body").0
}

/// The shape made for `e`'s collider (not a chain).
pub fn shape_of(app: &App, e: Entity) -> i2::ShapeId {
    match app.world().get::<ColliderHandle>(e).expect("a collider") {
        ColliderHandle::Shape(s) => *s,
        ColliderHandle::Chain(_) => panic!("a chain"),
    }
}

/// The circle of `e`'s collider, in its body's frame.
pub fn circle_of(app: &App, e: Entity) -> i2::collision::Circle {
    physics(app)
        .shape(shape_of(app, e))
        .unwrap()
        .circle()
        .unwrap()
}

/// The joint made for `e`'s [`Joint`].
pub fn joint_of(app: &App, e: Entity) -> i2::JointId {
    app.world().get::<JointHandle>(e).expect("a joint").0
}

/// Whether `a` and `b` are at most `tol` apart.
pub fn close(a: i2::Vec2, b: i2::Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}

/// A `Transform` at (x, y) turned by `angle` (radians).
pub fn turned(x: f32, y: f32, angle: f32) -> Transform {
    Transform::from_xyz(x, y, 0.0).with_rotation(Quat::from_rotation_z(angle))
}

/// Spawns `bundle`; its entity.
pub fn spawn(app: &mut App, bundle: impl Bundle) -> Entity {
    app.world_mut().spawn(bundle).id()
}

/// A body of `kind` at (x, y) with `parts` (its collider and any other components).
pub fn body(app: &mut App, kind: RigidBody, parts: impl Bundle, x: f32, y: f32) -> Entity {
    spawn(app, (kind, parts, Transform::from_xyz(x, y, 0.0)))
}

/// A dynamic body at (x, y) with `parts`.
pub fn dynamic(app: &mut App, parts: impl Bundle, x: f32, y: f32) -> Entity {
    body(app, RigidBody::Dynamic, parts, x, y)
}

/// A static body at (x, y) with `parts`.
pub fn fixed(app: &mut App, parts: impl Bundle, x: f32, y: f32) -> Entity {
    body(app, RigidBody::Static, parts, x, y)
}

/// A child of `parent` at (x, y) in its frame with `parts` (a collider, a body, ...).
pub fn child_at(app: &mut App, parent: Entity, parts: impl Bundle, x: f32, y: f32) -> Entity {
    spawn(
        app,
        (parts, Transform::from_xyz(x, y, 0.0), ChildOf(parent)),
    )
}

/// Moves `e` along x to `x` in its parent's frame, as the application would: by its
/// `Transform`.
pub fn move_x(app: &mut App, e: Entity, x: f32) {
    app.world_mut()
        .get_mut::<Transform>(e)
        .unwrap()
        .translation
        .x = x;
}

/// A static ground 40 m wide whose top is y = 0.
pub fn ground(app: &mut App) -> Entity {
    fixed(app, Collider::rectangle(40.0, 1.0), 0.0, -0.5)
}

/// A new [`app`] with the [`ground`] and a dynamic body with `parts` at (x, y) above
/// it; the body's entity.
pub fn over_ground(parts: impl Bundle, x: f32, y: f32) -> (App, Entity) {
    let mut app = app();
    ground(&mut app);
    let e = dynamic(&mut app, parts, x, y);
    (app, e)
}

/// A joint of `def` between the bodies of `a` and `b`.
pub fn joint(app: &mut App, a: Entity, b: Entity, def: JointDef) -> Entity {
    spawn(
        app,
        Joint {
            entity_a: a,
            entity_b: b,
            def,
        },
    )
}

/// The messages of type `M` sent since [`listen`].
#[derive(Resource)]
pub struct Seen<M: Message>(pub Vec<M>);

fn collect<M: Message + Copy>(mut seen: ResMut<Seen<M>>, mut reader: MessageReader<M>) {
    seen.0.extend(reader.read().copied());
}

fn listen_to<M: Message + Copy>(app: &mut App) {
    app.insert_resource(Seen::<M>(Vec::new()))
        .add_systems(FixedUpdate, collect::<M>.after(PhysicsSystems::Events));
}

/// Keeps every message the plugin sends, from the next step on (read them with
/// [`seen`]).
pub fn listen(app: &mut App) {
    listen_to::<CollisionStarted>(app);
    listen_to::<CollisionEnded>(app);
    listen_to::<ContactHit>(app);
    listen_to::<SensorEntered>(app);
    listen_to::<SensorExited>(app);
    listen_to::<JointEvent>(app);
}

/// The messages of type `M` sent since [`listen`], in order.
pub fn seen<M: Message + Copy>(app: &App) -> &[M] {
    &app.world().resource::<Seen<M>>().0
}

/// Listening to every message ([`listen`]): the [`ground`], a static sensor gate
/// 4 m × 0.5 m centred `gate_y` up, and a ball of radius 0.25 m with `extra`
/// components dropped from `drop_y` through the gate onto the ground. Returns the
/// ground, the gate and the ball.
pub fn gate_scene(
    app: &mut App,
    gate_y: f32,
    drop_y: f32,
    extra: impl Bundle,
) -> (Entity, Entity, Entity) {
    listen(app);
    let floor = ground(app);
    let gate = fixed(app, (Collider::rectangle(4.0, 0.5), Sensor), 0.0, gate_y);
    let ball = dynamic(app, (Collider::circle(0.25), extra), 0.0, drop_y);
    (floor, gate, ball)
}

/// In a plain engine world: a body of `body_type` at (x, y) with one shape of `geometry`
/// (the default shape definition).
pub fn plain_body(
    world: &mut i2::World,
    body_type: i2::BodyType,
    x: f32,
    y: f32,
    geometry: i2::ShapeGeometry,
) -> i2::BodyId {
    let def = i2::BodyDef {
        body_type,
        position: i2::Vec2::new(x, y),
        ..Default::default()
    };
    let body = world.create_body(&def).unwrap();
    world
        .create_shape(body, &i2::ShapeDef::default(), geometry)
        .unwrap();
    body
}

/// A `2·hx` × `2·hy` box.
pub fn box_shape(hx: f32, hy: f32) -> i2::ShapeGeometry {
    i2::ShapeGeometry::Polygon(i2::collision::make_box(hx, hy).unwrap())
}
