//! The plugin's systems and observers.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use impulse2d as i2;
use log::warn;

use crate::components::*;
use crate::{
    CollisionEnded, CollisionStarted, ContactHit, JointEvent, PhysicsSettings, PhysicsWorld,
    SensorEntered, SensorExited,
};

pub(crate) fn v(p: Vec2) -> i2::Vec2 {
    i2::Vec2::new(p.x, p.y)
}

pub(crate) fn bv(p: i2::Vec2) -> Vec2 {
    Vec2::new(p.x, p.y)
}

/// The 2D pose of a `Transform`: x, y and the rotation about z.
pub(crate) fn pose(t: &Transform) -> i2::Transform {
    let q = t.rotation;
    // For a rotation about z, q = (0, 0, sin(a/2), cos(a/2)).
    let angle = 2.0 * q.z.atan2(q.w);
    i2::Transform::new(
        i2::Vec2::new(t.translation.x, t.translation.y),
        i2::Rot::from_angle(angle),
    )
}

/// `t` with the 2D pose `p` (z and scale kept).
fn with_pose(t: &Transform, p: i2::Transform) -> Transform {
    Transform {
        translation: Vec3::new(p.p.x, p.p.y, t.translation.z),
        rotation: Quat::from_rotation_z(p.q.angle()),
        scale: t.scale,
    }
}

type NewBody<'a> = (
    Entity,
    &'a RigidBody,
    &'a Transform,
    &'a Velocity,
    Option<&'a GravityScale>,
    Option<&'a Damping>,
    Option<&'a LockedAxes>,
    Option<&'a SleepingAllowed>,
    Has<Ccd>,
);

pub(crate) fn create_bodies(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    new: Query<NewBody, Without<BodyHandle>>,
) {
    // In query order: the same spawns in the same order give the same ids and bits.
    for (entity, body, transform, velocity, gravity, damping, locks, sleep, ccd) in &new {
        let p = pose(transform);
        let def = i2::BodyDef {
            body_type: body.body_type(),
            position: p.p,
            rotation: p.q,
            linear_velocity: v(velocity.linear),
            angular_velocity: velocity.angular,
            gravity_scale: gravity.map_or(1.0, |g| g.0),
            linear_damping: damping.map_or(0.0, |d| d.linear),
            angular_damping: damping.map_or(0.0, |d| d.angular),
            motion_locks: locks.map_or(i2::MotionLocks::default(), |l| l.locks()),
            enable_sleep: sleep.is_none_or(|s| s.0),
            is_bullet: ccd,
            user_data: entity.to_bits(),
            ..Default::default()
        };
        match physics.world.create_body(&def) {
            Ok(id) => {
                physics.bodies.insert(entity, id);
                commands.entity(entity).insert((
                    BodyHandle(id),
                    PhysicsPose {
                        previous: p,
                        current: p,
                        written: *transform,
                    },
                ));
            }
            Err(e) => warn!("bevy_impulse2d: body of {entity} not created: {e}"),
        }
    }
}

/// The geometry of `collider` placed by `xf` in its body's frame.
fn geometry(collider: &Collider, xf: i2::Transform) -> i2::Result<Geometry> {
    use i2::collision as c;
    let pt = |p: Vec2| xf.apply(v(p));
    Ok(match collider {
        Collider::Circle { radius } => {
            Geometry::Shape(i2::ShapeGeometry::Circle(c::Circle::new(xf.p, *radius)?))
        }
        Collider::Capsule { a, b, radius } => Geometry::Shape(i2::ShapeGeometry::Capsule(
            c::Capsule::new(pt(*a), pt(*b), *radius)?,
        )),
        Collider::Rectangle {
            half_extents: h,
            radius,
        } if *radius == 0.0 => Geometry::Shape(i2::ShapeGeometry::Polygon(c::make_offset_box(
            h.x, h.y, xf.p, xf.q,
        )?)),
        Collider::Rectangle {
            half_extents: h,
            radius,
        } => Geometry::Shape(i2::ShapeGeometry::Polygon(c::make_offset_rounded_box(
            h.x, h.y, xf.p, xf.q, *radius,
        )?)),
        Collider::ConvexPolygon { points, radius } => {
            let points: Vec<i2::Vec2> = points.iter().map(|&p| pt(p)).collect();
            let hull = c::compute_hull(&points)?;
            Geometry::Shape(i2::ShapeGeometry::Polygon(c::make_polygon(&hull, *radius)?))
        }
        Collider::Segment { a, b } => {
            Geometry::Shape(i2::ShapeGeometry::Segment(c::Segment::new(pt(*a), pt(*b))?))
        }
        Collider::Chain { points, closed } => {
            Geometry::Chain(points.iter().map(|&p| pt(p)).collect(), *closed)
        }
    })
}

enum Geometry {
    Shape(i2::ShapeGeometry),
    Chain(Vec<i2::Vec2>, bool),
}

/// The body a collider on `entity` belongs to and where it sits in that body's frame:
/// the entity's own body, or else the nearest ancestor's with a [`RigidBody`] (through
/// [`ChildOf`]), placed by the `Transform`s of the entity and the ancestors between
/// (x, y and the rotation about z; scale is not applied). `None` while that body does
/// not exist yet, or when no ancestor has a `RigidBody`.
fn placement(entity: Entity, tree: &Query<TreeNode>) -> Option<(i2::BodyId, i2::Transform)> {
    let mut xf = i2::Transform::IDENTITY;
    let mut current = entity;
    // A bound on the depth, against a malformed hierarchy.
    for _ in 0..64 {
        let (transform, parent, body, has_body) = tree.get(current).ok()?;
        if has_body {
            return body.map(|b| (b.0, xf));
        }
        xf = pose(transform).mul(xf);
        current = parent?.parent();
    }
    None
}

type TreeNode<'a> = (
    &'a Transform,
    Option<&'a ChildOf>,
    Option<&'a BodyHandle>,
    Has<RigidBody>,
);

type NewCollider<'a> = (
    Entity,
    &'a Collider,
    Option<&'a Material>,
    Option<&'a CollisionFilter>,
    Has<Sensor>,
    Has<HitEvents>,
);

pub(crate) fn create_colliders(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    new: Query<NewCollider, Without<ColliderHandle>>,
    tree: Query<TreeNode>,
) {
    for (entity, collider, material, filter, sensor, hits) in &new {
        // The parent's body comes first: try again at the next step.
        let Some((body, xf)) = placement(entity, &tree) else {
            continue;
        };
        let m = material.copied().unwrap_or_default();
        let def = i2::ShapeDef {
            density: m.density,
            friction: m.friction,
            restitution: m.restitution,
            rolling_resistance: m.rolling_resistance,
            tangent_speed: m.tangent_speed,
            filter: filter.copied().unwrap_or_default().filter(),
            is_sensor: sensor,
            enable_hit_events: hits,
            user_data: entity.to_bits(),
            ..Default::default()
        };
        let created = geometry(collider, xf).and_then(|g| match g {
            Geometry::Shape(g) => physics
                .world
                .create_shape(body, &def, g)
                .map(ColliderHandle::Shape),
            Geometry::Chain(points, closed) => {
                let chain = i2::ChainDef {
                    points,
                    is_loop: closed,
                    friction: m.friction,
                    restitution: m.restitution,
                    rolling_resistance: m.rolling_resistance,
                    tangent_speed: m.tangent_speed,
                    filter: def.filter,
                    user_data: entity.to_bits(),
                    ..Default::default()
                };
                physics
                    .world
                    .create_chain(body, &chain)
                    .map(ColliderHandle::Chain)
            }
        });
        match created {
            Ok(handle) => {
                let shapes: Vec<i2::ShapeId> = match handle {
                    ColliderHandle::Shape(s) => vec![s],
                    ColliderHandle::Chain(c) => physics
                        .world
                        .chain(c)
                        .map(|c| c.segments())
                        .unwrap_or_default(),
                };
                for s in shapes {
                    physics.shape_entities.insert(s, entity);
                }
                physics.colliders.insert(entity, handle);
                commands.entity(entity).insert(handle);
            }
            Err(e) => {
                warn!("bevy_impulse2d: collider of {entity} not created: {e}");
                // Do not try again every step: mark it with no shape.
                commands.entity(entity).remove::<Collider>();
            }
        }
    }
}

type ExistingCollider<'a> = (
    Entity,
    Ref<'a, Collider>,
    Ref<'a, Transform>,
    &'a ColliderHandle,
    Has<RigidBody>,
    Has<Sensor>,
    Has<HitEvents>,
);

/// Colliders changed after their shape was made: a new `Collider` (or, on a child, a
/// new `Transform`) reshapes the shape in place (same id; its contacts are found again,
/// the body's mass is recomputed); a change to or from a chain, or adding or removing
/// [`Sensor`], destroys the shape or chain so that [`create_colliders`] makes it anew.
/// [`HitEvents`] is switched on the shape.
pub(crate) fn update_colliders(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    colliders: Query<ExistingCollider>,
    tree: Query<TreeNode>,
) {
    for (entity, collider, transform, &handle, own_body, sensor, hits) in &colliders {
        let moved = !own_body && transform.is_changed();
        let reshape = (collider.is_changed() && !collider.is_added()) || moved;
        let p = &mut *physics;
        let (remake, geometry_now) = match handle {
            ColliderHandle::Shape(id) => {
                let Ok(mut shape) = p.world.shape_mut(id) else {
                    continue;
                };
                if shape.hit_events_enabled() != hits {
                    shape.set_hit_events_enabled(hits);
                }
                let remake = shape.is_sensor() != sensor
                    || (reshape && matches!(*collider, Collider::Chain { .. }));
                (remake, reshape && !remake)
            }
            ColliderHandle::Chain(_) => (reshape, false),
        };
        if geometry_now {
            let ColliderHandle::Shape(id) = handle else {
                continue;
            };
            let Some((_, xf)) = placement(entity, &tree) else {
                continue;
            };
            let result = geometry(&collider, xf).and_then(|g| {
                let Geometry::Shape(g) = g else {
                    return Ok(());
                };
                let mut shape = p.world.shape_mut(id)?;
                match g {
                    i2::ShapeGeometry::Circle(c) => shape.set_circle(&c),
                    i2::ShapeGeometry::Capsule(c) => shape.set_capsule(&c),
                    i2::ShapeGeometry::Polygon(poly) => shape.set_polygon(&poly),
                    i2::ShapeGeometry::Segment(s) => shape.set_segment(&s),
                    i2::ShapeGeometry::ChainSegment(s) => shape.set_chain_segment(&s),
                }
            });
            if let Err(e) = result {
                warn!("bevy_impulse2d: new collider of {entity} refused: {e}");
            }
        } else if remake {
            destroy_collider(p, entity, handle);
            commands.entity(entity).remove::<ColliderHandle>();
        }
    }
}

/// Destroys the shape or chain of `entity`'s collider, keeping the shapes' entities for
/// this step's end events.
fn destroy_collider(p: &mut PhysicsWorld, entity: Entity, handle: ColliderHandle) {
    p.colliders.remove(&entity);
    let result = match handle {
        ColliderHandle::Shape(s) => {
            p.destroyed_shapes.push(s);
            p.world.destroy_shape(s, true)
        }
        ColliderHandle::Chain(c) => {
            if let Ok(chain) = p.world.chain(c) {
                p.destroyed_shapes.extend(chain.segments());
            }
            p.world.destroy_chain(c)
        }
    };
    if let Err(e) = result {
        warn!("bevy_impulse2d: collider of {entity} not destroyed: {e}");
    }
}

/// Joints whose [`Joint`] component changed after the joint was made are destroyed, so
/// that [`create_joints`] makes them anew from the new definition; so are broken joints
/// whose `Joint` changed.
pub(crate) fn update_joints(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    joints: Query<(Entity, Ref<Joint>, &JointHandle)>,
    broken: Query<(Entity, Ref<Joint>), With<JointBroken>>,
) {
    for (entity, joint) in &broken {
        if joint.is_changed() {
            commands.entity(entity).remove::<JointBroken>();
        }
    }
    for (entity, joint, handle) in &joints {
        if !joint.is_changed() || joint.is_added() {
            continue;
        }
        physics.joints.remove(&entity);
        physics.joint_entities.remove(&handle.0);
        if physics.world.joint(handle.0).is_ok()
            && let Err(e) = physics.world.destroy_joint(handle.0)
        {
            warn!("bevy_impulse2d: joint of {entity} not destroyed: {e}");
        }
        commands.entity(entity).remove::<JointHandle>();
    }
}

/// Joints not made yet, and not broken.
type NewJoint = (Without<JointHandle>, Without<JointBroken>);

pub(crate) fn create_joints(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    new: Query<(Entity, &Joint), NewJoint>,
    bodies: Query<&BodyHandle>,
) {
    for (entity, joint) in &new {
        let (Ok(a), Ok(b)) = (bodies.get(joint.entity_a), bodies.get(joint.entity_b)) else {
            continue; // the bodies come first
        };
        let base = |base: &i2::JointDef| i2::JointDef {
            body_a: a.0,
            body_b: b.0,
            user_data: entity.to_bits(),
            ..*base
        };
        let w = &mut physics.world;
        // The definition with the two entities' bodies and the joint's entity filled in.
        macro_rules! create {
            ($d:expr, $create:ident) => {{
                let mut d = *$d;
                d.base = base(&d.base);
                w.$create(&d)
            }};
        }
        let created = match &joint.def {
            JointDef::Distance(d) => create!(d, create_distance_joint),
            JointDef::Filter(d) => create!(d, create_filter_joint),
            JointDef::Motor(d) => create!(d, create_motor_joint),
            JointDef::Mouse(d) => create!(d, create_mouse_joint),
            JointDef::Mover(d) => create!(d, create_mover_joint),
            JointDef::Pogo(d) => create!(d, create_pogo_joint),
            JointDef::Prismatic(d) => create!(d, create_prismatic_joint),
            JointDef::Revolute(d) => create!(d, create_revolute_joint),
            JointDef::Weld(d) => create!(d, create_weld_joint),
            JointDef::Wheel(d) => create!(d, create_wheel_joint),
        };
        match created {
            Ok(id) => {
                physics.joints.insert(entity, id);
                physics.joint_entities.insert(id, entity);
                commands.entity(entity).insert(JointHandle(id));
            }
            Err(e) => {
                warn!("bevy_impulse2d: joint of {entity} not created: {e}");
                commands.entity(entity).remove::<Joint>();
            }
        }
    }
}

type BodyChanges<'a> = (
    &'a BodyHandle,
    Ref<'a, RigidBody>,
    Ref<'a, Transform>,
    &'a PhysicsPose,
    Ref<'a, Velocity>,
    Option<Ref<'a, GravityScale>>,
    Option<Ref<'a, Damping>>,
    Option<Ref<'a, LockedAxes>>,
    Option<Ref<'a, SleepingAllowed>>,
    Has<Ccd>,
    Option<&'a ExternalForce>,
    Option<Mut<'a, ExternalImpulse>>,
);

/// Whether an optional component was changed by the application (not just added).
/// (A component added after the body was made counts as a change.)
fn changed<T>(r: &Option<Ref<'_, T>>) -> bool {
    r.as_ref().is_some_and(|r| r.is_changed())
}

type ShapeChanges<'a> = (
    &'a ColliderHandle,
    Ref<'a, Material>,
    Option<Ref<'a, CollisionFilter>>,
);

/// The application's changes to components, carried into the world; forces and impulses.
pub(crate) fn apply_changes(
    mut physics: ResMut<PhysicsWorld>,
    mut bodies: Query<BodyChanges>,
    colliders: Query<ShapeChanges>,
) {
    for (
        handle,
        kind,
        transform,
        pose,
        velocity,
        gravity,
        damping,
        locks,
        sleep,
        ccd,
        force,
        impulse,
    ) in &mut bodies
    {
        let Ok(mut body) = physics.world.body_mut(handle.0) else {
            continue;
        };
        let result = (|| -> i2::Result<()> {
            if kind.is_changed() && !kind.is_added() {
                body.set_body_type(kind.body_type())?;
            }
            if transform.is_changed() && *transform != pose.written {
                let p = self::pose(&transform);
                body.set_transform(p.p, p.q)?;
            }
            if velocity.is_changed() && !velocity.is_added() {
                body.set_linear_velocity(v(velocity.linear))?;
                body.set_angular_velocity(velocity.angular)?;
            }
            if changed(&gravity) {
                body.set_gravity_scale(gravity.as_ref().map_or(1.0, |g| g.0))?;
            }
            if changed(&damping) {
                let d = damping.as_deref().copied().unwrap_or_default();
                body.set_linear_damping(d.linear)?;
                body.set_angular_damping(d.angular)?;
            }
            if changed(&locks) {
                body.set_motion_locks(
                    locks
                        .as_deref()
                        .map_or(i2::MotionLocks::default(), |l| l.locks()),
                );
            }
            if changed(&sleep) {
                body.set_sleep_enabled(sleep.as_deref().is_none_or(|s| s.0));
            }
            if body.is_bullet() != ccd {
                body.set_bullet(ccd);
            }
            if let Some(f) = force
                && (f.force != Vec2::ZERO || f.torque != 0.0)
            {
                body.apply_force_to_center(v(f.force), true)?;
                body.apply_torque(f.torque, true)?;
            }
            if let Some(mut i) = impulse
                && (i.impulse != Vec2::ZERO || i.angular != 0.0)
            {
                body.apply_linear_impulse_to_center(v(i.impulse), true)?;
                body.apply_angular_impulse(i.angular, true)?;
                *i = ExternalImpulse::default();
            }
            Ok(())
        })();
        if let Err(e) = result {
            warn!(
                "bevy_impulse2d: a change to body {:?} was refused: {e}",
                handle.0
            );
        }
    }
    for (handle, material, filter) in &colliders {
        let ColliderHandle::Shape(id) = *handle else {
            continue;
        };
        let Ok(mut shape) = physics.world.shape_mut(id) else {
            continue;
        };
        let result = (|| -> i2::Result<()> {
            if material.is_changed() {
                shape.set_density(material.density, true)?;
                shape.set_friction(material.friction)?;
                shape.set_restitution(material.restitution)?;
                shape.set_rolling_resistance(material.rolling_resistance)?;
                shape.set_tangent_speed(material.tangent_speed)?;
            }
            if let Some(f) = filter
                && f.is_changed()
            {
                shape.set_filter(f.filter())?;
            }
            Ok(())
        })();
        if let Err(e) = result {
            warn!("bevy_impulse2d: a change to shape {id:?} was refused: {e}");
        }
    }
}

pub(crate) fn step(
    mut physics: ResMut<PhysicsWorld>,
    settings: Res<PhysicsSettings>,
    time: Res<Time<Fixed>>,
) {
    if !settings.enabled {
        return;
    }
    let world = &mut physics.world;
    let gravity = v(settings.gravity);
    if world.gravity() != gravity
        && let Err(e) = world.set_gravity(gravity)
    {
        warn!("bevy_impulse2d: gravity refused: {e}");
    }
    let dt = time.timestep().as_secs_f32();
    if let Err(e) = world.step(dt, settings.substeps.max(1)) {
        warn!("bevy_impulse2d: step failed: {e}");
    }
}

type Writeback<'a> = (
    Entity,
    &'a BodyHandle,
    &'a mut Transform,
    &'a mut PhysicsPose,
    &'a mut Velocity,
    Has<Sleeping>,
);

pub(crate) fn writeback(
    mut commands: Commands,
    physics: Res<PhysicsWorld>,
    mut bodies: Query<Writeback>,
) {
    for (entity, handle, mut transform, mut pose, mut velocity, sleeping) in &mut bodies {
        let Ok(body) = physics.world.body(handle.0) else {
            continue;
        };
        let now = body.transform();
        pose.previous = pose.current;
        pose.current = now;
        let t = with_pose(&transform, now);
        if *transform != t {
            *transform = t;
        }
        pose.written = *transform;
        let vel = Velocity {
            linear: bv(body.linear_velocity()),
            angular: body.angular_velocity(),
        };
        if *velocity != vel {
            *velocity.bypass_change_detection() = vel;
        }
        let asleep = !body.is_awake();
        if asleep && !sleeping {
            commands.entity(entity).insert(Sleeping);
        } else if !asleep && sleeping {
            commands.entity(entity).remove::<Sleeping>();
        }
    }
}

/// Between fixed steps: `Transform` = the last two poses blended by how far the
/// virtual time is into the next step.
pub(crate) fn interpolate(
    settings: Res<PhysicsSettings>,
    time: Res<Time<Fixed>>,
    mut bodies: Query<(&mut Transform, &mut PhysicsPose), Without<Sleeping>>,
) {
    if !settings.interpolate {
        return;
    }
    let alpha = time.overstep_fraction().clamp(0.0, 1.0);
    for (mut transform, mut pose) in &mut bodies {
        let p = pose.previous.p + (pose.current.p - pose.previous.p) * alpha;
        let q = i2::Rot::nlerp(pose.previous.q, pose.current.q, alpha);
        let t = with_pose(&transform, i2::Transform::new(p, q));
        if *transform != t {
            *transform = t;
        }
        pose.written = *transform;
    }
}

/// The writers of the plugin's messages.
#[derive(SystemParam)]
pub(crate) struct Writers<'w> {
    started: MessageWriter<'w, CollisionStarted>,
    ended: MessageWriter<'w, CollisionEnded>,
    hits: MessageWriter<'w, ContactHit>,
    entered: MessageWriter<'w, SensorEntered>,
    exited: MessageWriter<'w, SensorExited>,
    joints: MessageWriter<'w, JointEvent>,
}

pub(crate) fn send_events(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    writers: Writers,
) {
    let Writers {
        mut started,
        mut ended,
        mut hits,
        mut entered,
        mut exited,
        mut joints,
    } = writers;
    let p = &*physics;
    let of = |s: i2::ShapeId| p.shape_entities.get(&s).copied();
    let contacts = p.world.contact_events();
    for e in contacts.begin {
        if let (Some(a), Some(b)) = (of(e.shape_id_a), of(e.shape_id_b)) {
            started.write(CollisionStarted {
                collider_a: a,
                collider_b: b,
            });
        }
    }
    for e in contacts.end {
        if let (Some(a), Some(b)) = (of(e.shape_id_a), of(e.shape_id_b)) {
            ended.write(CollisionEnded {
                collider_a: a,
                collider_b: b,
            });
        }
    }
    for e in contacts.hit {
        if let (Some(a), Some(b)) = (of(e.shape_id_a), of(e.shape_id_b)) {
            hits.write(ContactHit {
                collider_a: a,
                collider_b: b,
                point: bv(e.point),
                normal: bv(e.normal),
                approach_speed: e.approach_speed,
            });
        }
    }
    let sensors = p.world.sensor_events();
    for e in sensors.begin {
        if let (Some(s), Some(o)) = (of(e.sensor_shape_id), of(e.visitor_shape_id)) {
            entered.write(SensorEntered {
                sensor: s,
                visitor: o,
            });
        }
    }
    for e in sensors.end {
        if let (Some(s), Some(o)) = (of(e.sensor_shape_id), of(e.visitor_shape_id)) {
            exited.write(SensorExited {
                sensor: s,
                visitor: o,
            });
        }
    }
    let mut gone = Vec::new();
    for e in p.world.joint_events() {
        let Some(&entity) = p.joint_entities.get(&e.joint_id) else {
            continue;
        };
        joints.write(JointEvent {
            joint: entity,
            kind: e.kind,
            force: e.force,
            torque: e.torque,
        });
        if e.kind != i2::JointEventKind::ThresholdExceeded {
            gone.push((entity, e.joint_id, e.kind));
        }
    }
    for (entity, id, kind) in gone {
        physics.joint_entities.remove(&id);
        if physics.joints.get(&entity) == Some(&id) {
            physics.joints.remove(&entity);
            if let Ok(mut e) = commands.get_entity(entity) {
                e.remove::<JointHandle>();
                if kind == i2::JointEventKind::Broken {
                    e.insert(JointBroken);
                }
            }
        }
    }
    // Shapes destroyed before this step have had their end events: forget them.
    let p = &mut *physics;
    for s in p.destroyed_shapes.drain(..) {
        if p.world.shape(s).is_err() {
            p.shape_entities.remove(&s);
        }
    }
}

pub(crate) fn on_remove_body(
    remove: On<Remove, RigidBody>,
    mut physics: ResMut<PhysicsWorld>,
    mut commands: Commands,
) {
    let entity = remove.entity;
    let Some(id) = physics.bodies.remove(&entity) else {
        return;
    };
    let p = &mut *physics;
    // Its shapes go with it; keep their entities for this step's end events.
    if let Ok(body) = p.world.body(id) {
        p.destroyed_shapes.extend(body.shapes());
    }
    // Its joints go with it: their entities lose the handle now, and get a
    // `JointEvent` (body destroyed) after the next step.
    if let Ok(body) = p.world.body(id) {
        for j in body.joints() {
            if let Some(&e) = p.joint_entities.get(&j) {
                p.joints.remove(&e);
                if let Ok(mut ec) = commands.get_entity(e) {
                    ec.remove::<JointHandle>();
                }
            }
        }
    }
    for (e, _) in p.colliders.extract_if(.., |_, h| match h {
        ColliderHandle::Shape(s) => p.world.shape(*s).is_ok_and(|s| s.body() == id),
        ColliderHandle::Chain(c) => p.world.chain(*c).is_ok_and(|c| c.body() == id),
    }) {
        if e != entity
            && let Ok(mut ec) = commands.get_entity(e)
        {
            ec.remove::<ColliderHandle>();
        }
    }
    if let Err(e) = p.world.destroy_body(id) {
        warn!("bevy_impulse2d: body of {entity} not destroyed: {e}");
    }
    if let Ok(mut ec) = commands.get_entity(entity) {
        ec.remove::<(BodyHandle, PhysicsPose)>();
    }
}

pub(crate) fn on_remove_collider(
    remove: On<Remove, Collider>,
    mut physics: ResMut<PhysicsWorld>,
    mut commands: Commands,
) {
    let entity = remove.entity;
    let Some(&handle) = physics.colliders.get(&entity) else {
        return;
    };
    destroy_collider(&mut physics, entity, handle);
    if let Ok(mut ec) = commands.get_entity(entity) {
        ec.remove::<ColliderHandle>();
    }
}

pub(crate) fn on_remove_joint(
    remove: On<Remove, Joint>,
    mut physics: ResMut<PhysicsWorld>,
    mut commands: Commands,
) {
    let entity = remove.entity;
    let Some(id) = physics.joints.remove(&entity) else {
        return;
    };
    physics.joint_entities.remove(&id);
    if let Err(e) = physics.world.destroy_joint(id) {
        warn!("bevy_impulse2d: joint of {entity} not destroyed: {e}");
    }
    if let Ok(mut ec) = commands.get_entity(entity) {
        ec.remove::<JointHandle>();
    }
}
