//! The plugin's systems and observers.

use bevy::ecs::query::{QueryData, QueryFilter};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use impulse2d as i2;
use log::warn;

use crate::components::*;
use crate::hierarchy::{
    Map, TreeNode, body_pose, depth, local_transform, moved_by_app, parent_global, placement,
    with_pose,
};
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

/// A body's components besides its place: what [`create_bodies`] makes the body from
/// and [`apply_changes`] carries into it when they change. The optional ones give the
/// engine's defaults when they are absent.
#[derive(QueryData)]
pub(crate) struct BodyParts {
    kind: Ref<'static, RigidBody>,
    velocity: Ref<'static, Velocity>,
    gravity: Option<Ref<'static, GravityScale>>,
    damping: Option<Ref<'static, Damping>>,
    locks: Option<Ref<'static, LockedAxes>>,
    sleep: Option<Ref<'static, SleepingAllowed>>,
    ccd: Has<Ccd>,
}

impl BodyPartsItem<'_, '_> {
    fn gravity_scale(&self) -> f32 {
        self.gravity.as_deref().map_or(1.0, |g| g.0)
    }
    fn damping(&self) -> Damping {
        self.damping.as_deref().copied().unwrap_or_default()
    }
    fn motion_locks(&self) -> i2::MotionLocks {
        self.locks
            .as_deref()
            .map_or(i2::MotionLocks::default(), |l| l.locks())
    }
    fn sleep_enabled(&self) -> bool {
        self.sleep.as_deref().is_none_or(|s| s.0)
    }
}

type NewBody<'a> = (Entity, &'a Transform, BodyParts);

/// Bodies for new [`RigidBody`] entities, at their place in the world: the `Transform`
/// at the root, composed with those of the ancestors under a parent.
pub(crate) fn create_bodies(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    new: Query<NewBody, Without<BodyHandle>>,
    tree: Query<TreeNode>,
) {
    // In query order: the same spawns in the same order give the same ids and bits.
    for (entity, transform, body) in &new {
        let Some(p) = body_pose(entity, &tree) else {
            continue;
        };
        let def = i2::BodyDef {
            body_type: body.kind.body_type(),
            position: p.p,
            rotation: p.q,
            linear_velocity: v(body.velocity.linear),
            angular_velocity: body.velocity.angular,
            gravity_scale: body.gravity_scale(),
            linear_damping: body.damping().linear,
            angular_damping: body.damping().angular,
            motion_locks: body.motion_locks(),
            enable_sleep: body.sleep_enabled(),
            is_bullet: body.ccd,
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
                        step: physics.steps,
                    },
                ));
            }
            Err(e) => warn!("bevy_impulse2d: body of {entity} not created: {e}"),
        }
    }
}

/// The geometry of `collider` mapped by `map` into its body's frame. Points (centres,
/// ends, corners) go through the whole map; radii are multiplied by
/// [`Map::radius_scale`]; a mirrored chain is reversed so that its solid side stays.
fn geometry(collider: &Collider, map: &Map) -> i2::Result<Geometry> {
    use i2::collision as c;
    let pt = |p: Vec2| map.apply(p);
    let rs = map.radius_scale();
    let hull = |points: &[Vec2], radius: f32| -> i2::Result<Geometry> {
        let points: Vec<i2::Vec2> = points.iter().map(|&p| pt(p)).collect();
        let hull = c::compute_hull(&points)?;
        Ok(Geometry::Shape(i2::ShapeGeometry::Polygon(
            c::make_polygon(&hull, radius * rs)?,
        )))
    };
    let xf = map.xf;
    Ok(match collider {
        Collider::Circle { radius } => {
            let centre = if map.linear.is_none() {
                xf.p
            } else {
                pt(Vec2::ZERO)
            };
            Geometry::Shape(i2::ShapeGeometry::Circle(c::Circle::new(
                centre,
                *radius * rs,
            )?))
        }
        Collider::Capsule { a, b, radius } => Geometry::Shape(i2::ShapeGeometry::Capsule(
            c::Capsule::new(pt(*a), pt(*b), *radius * rs)?,
        )),
        Collider::Rectangle {
            half_extents: h,
            radius,
        } if map.linear.is_some() => hull(
            &[
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ],
            *radius,
        )?,
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
        Collider::ConvexPolygon { points, radius } => hull(points, *radius)?,
        Collider::Segment { a, b } => {
            Geometry::Shape(i2::ShapeGeometry::Segment(c::Segment::new(pt(*a), pt(*b))?))
        }
        Collider::Chain { points, closed } => {
            let mut points: Vec<i2::Vec2> = points.iter().map(|&p| pt(p)).collect();
            if map.mirrors() {
                points.reverse();
            }
            Geometry::Chain(points, *closed)
        }
    })
}

enum Geometry {
    Shape(i2::ShapeGeometry),
    Chain(Vec<i2::Vec2>, bool),
}

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
        let Some((body, map)) = placement(entity, &tree) else {
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
        let created = geometry(collider, &map).and_then(|g| match g {
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

/// Gives the shape of `entity`'s collider the geometry its `collider` and place in the
/// hierarchy now make, in place (same id; its contacts are found again and the body's
/// mass is recomputed) when it changed. Returns whether the shape must be made anew
/// instead: it is (or becomes) a chain, or it now belongs to another body.
fn reshape(
    p: &mut PhysicsWorld,
    entity: Entity,
    collider: &Collider,
    handle: ColliderHandle,
    tree: &Query<TreeNode>,
) -> bool {
    let ColliderHandle::Shape(id) = handle else {
        return true;
    };
    let Some((body, map)) = placement(entity, tree) else {
        return false;
    };
    let result = geometry(collider, &map).and_then(|g| {
        let Geometry::Shape(g) = g else {
            return Ok(true);
        };
        let mut shape = p.world.shape_mut(id)?;
        if shape.body() != body {
            return Ok(true);
        }
        if shape.geometry() == g {
            return Ok(false);
        }
        match g {
            i2::ShapeGeometry::Circle(c) => shape.set_circle(&c),
            i2::ShapeGeometry::Capsule(c) => shape.set_capsule(&c),
            i2::ShapeGeometry::Polygon(poly) => shape.set_polygon(&poly),
            i2::ShapeGeometry::Segment(s) => shape.set_segment(&s),
            i2::ShapeGeometry::ChainSegment(s) => shape.set_chain_segment(&s),
        }
        .map(|()| false)
    });
    result.unwrap_or_else(|e| {
        warn!("bevy_impulse2d: new collider of {entity} refused: {e}");
        false
    })
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

/// Destroys `entity`'s shape or chain so that [`create_colliders`] makes it anew.
fn remake(p: &mut PhysicsWorld, commands: &mut Commands, entity: Entity, handle: ColliderHandle) {
    destroy_collider(p, entity, handle);
    commands.entity(entity).remove::<ColliderHandle>();
}

/// Made colliders whose `Collider` changed or that became a sensor or hit reporter.
type ChangedCollider = (
    With<ColliderHandle>,
    Or<(Changed<Collider>, Added<Sensor>, Added<HitEvents>)>,
);

type ColliderState<'a> = (
    Ref<'a, Collider>,
    &'a ColliderHandle,
    Has<Sensor>,
    Has<HitEvents>,
);

/// Colliders changed after their shape was made: a new `Collider` reshapes the shape
/// in place ([`reshape`]); a change to or from a chain, or adding or removing
/// [`Sensor`], destroys the shape or chain so that [`create_colliders`] makes it anew.
/// [`HitEvents`] is switched on the shape. Only the entities whose components changed
/// are visited.
#[allow(clippy::too_many_arguments)]
pub(crate) fn update_colliders(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<Entity, ChangedCollider>,
    mut removed_sensors: RemovedComponents<Sensor>,
    mut removed_hits: RemovedComponents<HitEvents>,
    colliders: Query<ColliderState>,
    tree: Query<TreeNode>,
    mut todo: Local<Vec<Entity>>,
) {
    todo.clear();
    todo.extend(changed.iter());
    todo.extend(removed_sensors.read());
    todo.extend(removed_hits.read());
    todo.sort_unstable();
    todo.dedup();
    let p = &mut *physics;
    for &entity in todo.iter() {
        let Ok((collider, &handle, sensor, hits)) = colliders.get(entity) else {
            continue;
        };
        let reshaped = collider.is_changed() && !collider.is_added();
        let remade = match handle {
            ColliderHandle::Shape(id) => {
                let Ok(mut shape) = p.world.shape_mut(id) else {
                    continue;
                };
                if shape.hit_events_enabled() != hits {
                    shape.set_hit_events_enabled(hits);
                }
                shape.is_sensor() != sensor
                    || (reshaped && reshape(p, entity, &collider, handle, &tree))
            }
            ColliderHandle::Chain(_) => reshaped,
        };
        if remade {
            remake(p, &mut commands, entity, handle);
        }
    }
}

type Moved<'a> = (
    Entity,
    Ref<'a, Transform>,
    Option<Ref<'a, ChildOf>>,
    Option<&'a PhysicsPose>,
    Has<RigidBody>,
);

/// The application moved entities (changed their `Transform`, or their parent): a body
/// at the root of the hierarchy is moved to its new pose; under a parent, or when a
/// body's scale or anything without a body moved, every body at or below the moved
/// entity is put where the hierarchy now places it, and every collider at or below it
/// is reshaped to its new place in its body. Moving a body teleports it (no
/// interpolation across the move). The plugin's own writes of `Transform` are not moves.
#[allow(clippy::type_complexity)]
pub(crate) fn move_entities(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut set: ParamSet<(
        Query<Moved, Or<(Changed<Transform>, Changed<ChildOf>)>>,
        Query<(&BodyHandle, &mut PhysicsPose)>,
    )>,
    children: Query<&Children>,
    colliders: Query<(&Collider, &ColliderHandle)>,
    tree: Query<TreeNode>,
    mut found: Local<(Vec<Entity>, Vec<Entity>)>,
) {
    let (roots, subtrees) = &mut *found;
    roots.clear();
    subtrees.clear();
    for (entity, t, child_of, pose, has_body) in &set.p0() {
        let reparented = child_of.as_ref().is_some_and(|c| c.is_changed());
        if !reparented && !moved_by_app(&t, pose) {
            continue;
        }
        let scaled = pose.is_none_or(|p| p.written.scale != t.scale);
        if has_body && child_of.is_none() && !scaled {
            roots.push(entity);
        } else {
            subtrees.push(entity);
        }
    }
    let mut bodies = set.p1();
    for &e in roots.iter() {
        teleport(&mut physics, e, &mut bodies, &tree);
    }
    if subtrees.is_empty() {
        return;
    }
    let mut visit: Vec<Entity> = Vec::new();
    for &e in subtrees.iter() {
        visit.push(e);
        visit.extend(children.iter_descendants(e));
    }
    // Parents before children (each body is placed from its ancestors' Transforms,
    // which do not change here, so the order is only for determinism).
    visit.sort_unstable_by_key(|&e| (depth(e, &tree), e));
    visit.dedup();
    for &e in &visit {
        teleport(&mut physics, e, &mut bodies, &tree);
        if let Ok((collider, &handle)) = colliders.get(e)
            && reshape(&mut physics, e, collider, handle, &tree)
        {
            remake(&mut physics, &mut commands, e, handle);
        }
    }
}

/// Puts the body of `entity` (if it has one) where the hierarchy places it, with no
/// interpolation across the move.
fn teleport(
    p: &mut PhysicsWorld,
    entity: Entity,
    bodies: &mut Query<(&BodyHandle, &mut PhysicsPose)>,
    tree: &Query<TreeNode>,
) {
    let Ok((handle, mut pose)) = bodies.get_mut(entity) else {
        return;
    };
    let (Some(target), Ok((t, ..))) = (body_pose(entity, tree), tree.get(entity)) else {
        return;
    };
    pose.written = *t;
    let Ok(mut body) = p.world.body_mut(handle.0) else {
        return;
    };
    if body.transform() != target
        && let Err(e) = body.set_transform(target.p, target.q)
    {
        warn!("bevy_impulse2d: a move of {entity} was refused: {e}");
        return;
    }
    pose.previous = target;
    pose.current = target;
}

/// Joints whose [`Joint`] component changed after the joint was made are destroyed, so
/// that [`create_joints`] makes them anew from the new definition; so are broken joints
/// whose `Joint` changed.
pub(crate) fn update_joints(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    joints: Query<(Entity, Ref<Joint>, &JointHandle), Changed<Joint>>,
    broken: Query<Entity, (With<JointBroken>, Changed<Joint>)>,
) {
    for entity in &broken {
        commands.entity(entity).remove::<JointBroken>();
    }
    for (entity, joint, handle) in &joints {
        if joint.is_added() {
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

/// Bodies with a component the application changed (moves are [`move_entities`]').
type BodyChanged = Or<(
    Changed<RigidBody>,
    Changed<Velocity>,
    Changed<GravityScale>,
    Changed<Damping>,
    Changed<LockedAxes>,
    Changed<SleepingAllowed>,
    Changed<Ccd>,
)>;

/// Whether an optional component was changed by the application (not just added).
/// (A component added after the body was made counts as a change.)
fn changed<T>(r: &Option<Ref<'_, T>>) -> bool {
    r.as_ref().is_some_and(|r| r.is_changed())
}

type ShapeChanges<'a> = (
    &'a ColliderHandle,
    Option<Ref<'a, Material>>,
    Option<Ref<'a, CollisionFilter>>,
);

/// Runs `f` on body `id`, warning when the world refuses the change; nothing for a
/// stale id. Whether the body is there.
fn change_body(
    world: &mut i2::World,
    id: i2::BodyId,
    f: impl FnOnce(&mut i2::BodyMut) -> i2::Result<()>,
) -> bool {
    let Ok(mut body) = world.body_mut(id) else {
        return false;
    };
    if let Err(e) = f(&mut body) {
        warn!("bevy_impulse2d: a change to body {id:?} was refused: {e}");
    }
    true
}

/// The optional body components removed since the last step: their defaults come back.
#[derive(SystemParam)]
pub(crate) struct Removed<'w, 's> {
    gravity: RemovedComponents<'w, 's, GravityScale>,
    damping: RemovedComponents<'w, 's, Damping>,
    locks: RemovedComponents<'w, 's, LockedAxes>,
    sleep: RemovedComponents<'w, 's, SleepingAllowed>,
    ccd: RemovedComponents<'w, 's, Ccd>,
}

/// The application's changes to components, carried into the world; forces and
/// impulses. Only bodies and colliders with a changed component are visited (and the
/// bodies with an [`ExternalForce`]).
#[allow(clippy::type_complexity)]
pub(crate) fn apply_changes(
    mut physics: ResMut<PhysicsWorld>,
    bodies: Query<(&BodyHandle, BodyParts), BodyChanged>,
    forces: Query<(&BodyHandle, &ExternalForce)>,
    mut impulses: Query<(&BodyHandle, &mut ExternalImpulse), Changed<ExternalImpulse>>,
    colliders: Query<ShapeChanges, Or<(Changed<Material>, Changed<CollisionFilter>)>>,
    handles: Query<&BodyHandle>,
    mut removed: Removed,
) {
    for (handle, parts) in &bodies {
        change_body(&mut physics.world, handle.0, |body| {
            let (kind, velocity) = (&parts.kind, &parts.velocity);
            if kind.is_changed() && !kind.is_added() {
                body.set_body_type(kind.body_type())?;
            }
            if velocity.is_changed() && !velocity.is_added() {
                body.set_linear_velocity(v(velocity.linear))?;
                body.set_angular_velocity(velocity.angular)?;
            }
            if changed(&parts.gravity) {
                body.set_gravity_scale(parts.gravity_scale())?;
            }
            if changed(&parts.damping) {
                let d = parts.damping();
                body.set_linear_damping(d.linear)?;
                body.set_angular_damping(d.angular)?;
            }
            if changed(&parts.locks) {
                body.set_motion_locks(parts.motion_locks());
            }
            if changed(&parts.sleep) {
                body.set_sleep_enabled(parts.sleep_enabled());
            }
            if body.is_bullet() != parts.ccd {
                body.set_bullet(parts.ccd);
            }
            Ok(())
        });
    }
    // Removed components: back to the defaults.
    let Removed {
        gravity,
        damping,
        locks,
        sleep,
        ccd,
    } = &mut removed;
    let mut each = |removed: &mut dyn Iterator<Item = Entity>,
                    f: &dyn Fn(&mut i2::BodyMut) -> i2::Result<()>| {
        for handle in removed.filter_map(|e| handles.get(e).ok()) {
            change_body(&mut physics.world, handle.0, f);
        }
    };
    each(&mut gravity.read(), &|b| b.set_gravity_scale(1.0));
    each(&mut damping.read(), &|b| {
        b.set_linear_damping(0.0)?;
        b.set_angular_damping(0.0)
    });
    each(&mut locks.read(), &|b| {
        b.set_motion_locks(i2::MotionLocks::default());
        Ok(())
    });
    each(&mut sleep.read(), &|b| {
        b.set_sleep_enabled(true);
        Ok(())
    });
    each(&mut ccd.read(), &|b| {
        b.set_bullet(false);
        Ok(())
    });
    for (handle, f) in &forces {
        if f.force != Vec2::ZERO || f.torque != 0.0 {
            change_body(&mut physics.world, handle.0, |body| {
                body.apply_force_to_center(v(f.force), true)?;
                body.apply_torque(f.torque, true)
            });
        }
    }
    for (handle, mut i) in &mut impulses {
        if i.impulse == Vec2::ZERO && i.angular == 0.0 {
            continue;
        }
        let applied = change_body(&mut physics.world, handle.0, |body| {
            body.apply_linear_impulse_to_center(v(i.impulse), true)?;
            body.apply_angular_impulse(i.angular, true)
        });
        if applied {
            // Spent: zero again, without counting as the application's change.
            *i.bypass_change_detection() = ExternalImpulse::default();
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
            if let Some(material) = material
                && material.is_changed()
            {
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
    match world.step(dt, settings.substeps.max(1)) {
        Ok(()) => {
            physics.stepped = true;
            physics.steps += 1;
        }
        Err(e) => warn!("bevy_impulse2d: step failed: {e}"),
    }
}

type Writeback<'a> = (
    &'a BodyHandle,
    &'a mut Transform,
    &'a mut PhysicsPose,
    &'a mut Velocity,
    Has<Sleeping>,
    Has<ChildOf>,
);

/// After a step, the bodies it moved (the world's body move events: the awake bodies,
/// none of the sleeping or static ones): their poses, velocities and whether they fell
/// asleep ([`Sleeping`]) are written to their entities. At the root of the hierarchy the
/// `Transform` is the world pose; under a parent it is the pose in the parent's frame,
/// for every body under a parent (parents first), moved or not, since a parent may
/// have moved.
pub(crate) fn writeback(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut set: ParamSet<(Query<TreeNode>, Query<Writeback>)>,
    child_bodies: Query<Entity, (With<BodyHandle>, With<ChildOf>)>,
    mut children: Local<Vec<(usize, Entity)>>,
) {
    if !std::mem::take(&mut physics.stepped) {
        return;
    }
    let p = &*physics;
    let mut bodies = set.p1();
    for e in p.world.body_events() {
        let Some(entity) = Entity::try_from_bits(e.user_data) else {
            continue;
        };
        let Ok((handle, mut transform, mut pose, mut velocity, sleeping, child)) =
            bodies.get_mut(entity)
        else {
            continue;
        };
        if handle.0 != e.body_id {
            continue;
        }
        pose.previous = pose.current;
        pose.current = e.transform;
        pose.step = p.steps;
        if !child {
            let t = with_pose(&transform, e.transform);
            write_transform(&mut transform, &mut pose, t);
        }
        if let Ok(body) = p.world.body(e.body_id) {
            let vel = Velocity {
                linear: bv(body.linear_velocity()),
                angular: body.angular_velocity(),
            };
            if *velocity != vel {
                *velocity.bypass_change_detection() = vel;
            }
        }
        if e.fell_asleep && !sleeping {
            commands.entity(entity).insert(Sleeping);
        } else if !e.fell_asleep && sleeping {
            commands.entity(entity).remove::<Sleeping>();
        }
    }
    parents_first(
        &mut children,
        child_bodies.iter(),
        &mut set,
        |entity, parent, bodies| {
            let Ok((handle, mut transform, mut pose, ..)) = bodies.get_mut(entity) else {
                return;
            };
            if let Ok(body) = p.world.body(handle.0) {
                let t = local_transform(&transform, parent, body.transform());
                write_transform(&mut transform, &mut pose, t);
            }
        },
    );
}

/// Writes `t` to `transform` where it differs (an unchanged `Transform` is not marked
/// changed) and keeps it in `pose` as the plugin's own write, not a move by the
/// application.
fn write_transform(transform: &mut Mut<Transform>, pose: &mut PhysicsPose, t: Transform) {
    if **transform != t {
        **transform = t;
    }
    pose.written = **transform;
}

/// Visits `bodies` (bodies under a parent) parents first, each with the global map of
/// its parent as it is once the bodies above it were visited, and with the second query
/// of `set` to write to. `order` is the visiting order's buffer.
fn parents_first<D: QueryData, F: QueryFilter>(
    order: &mut Vec<(usize, Entity)>,
    bodies: impl Iterator<Item = Entity>,
    set: &mut ParamSet<(Query<TreeNode>, Query<D, F>)>,
    mut visit: impl FnMut(Entity, &Map, &mut Query<D, F>),
) {
    order.clear();
    let tree = set.p0();
    order.extend(bodies.map(|e| (depth(e, &tree), e)));
    order.sort_unstable();
    for &(_, entity) in order.iter() {
        if let Some(parent) = parent_global(entity, &set.p0()) {
            visit(entity, &parent, &mut set.p1());
        }
    }
}

type Shown<'a> = (&'a mut Transform, &'a mut PhysicsPose, Has<ChildOf>);

/// Bodies under a parent that are awake.
type AwakeChild = (With<PhysicsPose>, With<ChildOf>, Without<Sleeping>);

/// Between fixed steps: `Transform` = the last two poses blended by how far the
/// virtual time is into the next step (for the bodies the last step moved; the others
/// show their pose), in the parent's frame under a parent (parents first).
#[allow(clippy::type_complexity)]
pub(crate) fn interpolate(
    settings: Res<PhysicsSettings>,
    time: Res<Time<Fixed>>,
    physics: Res<PhysicsWorld>,
    mut set: ParamSet<(Query<TreeNode>, Query<Shown, Without<Sleeping>>)>,
    child_bodies: Query<Entity, AwakeChild>,
    mut children: Local<Vec<(usize, Entity)>>,
) {
    if !settings.interpolate {
        return;
    }
    let alpha = time.overstep_fraction().clamp(0.0, 1.0);
    let blend = |pose: &PhysicsPose| {
        if pose.step != physics.steps {
            return pose.current;
        }
        let p = pose.previous.p + (pose.current.p - pose.previous.p) * alpha;
        let q = i2::Rot::nlerp(pose.previous.q, pose.current.q, alpha);
        i2::Transform::new(p, q)
    };
    for (mut transform, mut pose, child) in &mut set.p1() {
        if child {
            continue;
        }
        let t = with_pose(&transform, blend(&pose));
        write_transform(&mut transform, &mut pose, t);
    }
    parents_first(
        &mut children,
        child_bodies.iter(),
        &mut set,
        |entity, parent, shown| {
            if let Ok((mut transform, mut pose, _)) = shown.get_mut(entity) {
                let t = local_transform(&transform, parent, blend(&pose));
                write_transform(&mut transform, &mut pose, t);
            }
        },
    );
}

/// The writers of the plugin's messages.
type Writers<'w> = (
    MessageWriter<'w, CollisionStarted>,
    MessageWriter<'w, CollisionEnded>,
    MessageWriter<'w, ContactHit>,
    MessageWriter<'w, SensorEntered>,
    MessageWriter<'w, SensorExited>,
    MessageWriter<'w, JointEvent>,
);

pub(crate) fn send_events(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    writers: Writers,
) {
    let (mut started, mut ended, mut hits, mut entered, mut exited, mut joints) = writers;
    let p = &*physics;
    let of = |s: i2::ShapeId| p.shape_entities.get(&s).copied();
    let (contacts, sensors) = (p.world.contact_events(), p.world.sensor_events());
    // Each event between two shapes whose entities are both known, as a message with
    // those entities: `writer: Message(its two fields) <= events(their two shapes)`.
    macro_rules! forward {
        ($($to:ident: $m:ident($x:ident, $y:ident)
            <= $e:ident.$list:ident($a:ident, $b:ident))*) => {
            $(for e in $e.$list {
                if let (Some($x), Some($y)) = (of(e.$a), of(e.$b)) {
                    $to.write($m { $x, $y });
                }
            })*
        };
    }
    forward! {
        started: CollisionStarted(collider_a, collider_b) <= contacts.begin(shape_id_a, shape_id_b)
        ended: CollisionEnded(collider_a, collider_b) <= contacts.end(shape_id_a, shape_id_b)
        entered: SensorEntered(sensor, visitor) <= sensors.begin(sensor_shape_id, visitor_shape_id)
        exited: SensorExited(sensor, visitor) <= sensors.end(sensor_shape_id, visitor_shape_id)
    }
    for e in contacts.hit {
        if let (Some(collider_a), Some(collider_b)) = (of(e.shape_id_a), of(e.shape_id_b)) {
            hits.write(ContactHit {
                collider_a,
                collider_b,
                point: bv(e.point),
                normal: bv(e.normal),
                approach_speed: e.approach_speed,
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

/// A component the plugin keeps an engine object for, and what goes when it is removed
/// from `entity` (or the entity is despawned).
pub(crate) trait Tracked: Component {
    fn forget(p: &mut PhysicsWorld, commands: &mut Commands, entity: Entity);
}

/// Removing a [`Tracked`] component destroys its engine object.
pub(crate) fn on_remove<C: Tracked>(
    remove: On<Remove, C>,
    mut physics: ResMut<PhysicsWorld>,
    mut commands: Commands,
) {
    C::forget(&mut physics, &mut commands, remove.entity);
}

/// Takes `B` off `entity` when it is still there (an observer's entity may be going).
fn strip<B: Bundle>(commands: &mut Commands, entity: Entity) {
    if let Ok(mut ec) = commands.get_entity(entity) {
        ec.remove::<B>();
    }
}

impl Tracked for RigidBody {
    fn forget(p: &mut PhysicsWorld, commands: &mut Commands, entity: Entity) {
        let Some(id) = p.bodies.remove(&entity) else {
            return;
        };
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
                    strip::<JointHandle>(commands, e);
                }
            }
        }
        for (e, _) in p.colliders.extract_if(.., |_, h| match h {
            ColliderHandle::Shape(s) => p.world.shape(*s).is_ok_and(|s| s.body() == id),
            ColliderHandle::Chain(c) => p.world.chain(*c).is_ok_and(|c| c.body() == id),
        }) {
            if e != entity {
                strip::<ColliderHandle>(commands, e);
            }
        }
        if let Err(e) = p.world.destroy_body(id) {
            warn!("bevy_impulse2d: body of {entity} not destroyed: {e}");
        }
        strip::<(BodyHandle, PhysicsPose)>(commands, entity);
    }
}

impl Tracked for Collider {
    fn forget(p: &mut PhysicsWorld, commands: &mut Commands, entity: Entity) {
        if let Some(&handle) = p.colliders.get(&entity) {
            destroy_collider(p, entity, handle);
            strip::<ColliderHandle>(commands, entity);
        }
    }
}

impl Tracked for Joint {
    fn forget(p: &mut PhysicsWorld, commands: &mut Commands, entity: Entity) {
        let Some(id) = p.joints.remove(&entity) else {
            return;
        };
        p.joint_entities.remove(&id);
        if let Err(e) = p.world.destroy_joint(id) {
            warn!("bevy_impulse2d: joint of {entity} not destroyed: {e}");
        }
        strip::<JointHandle>(commands, entity);
    }
}
