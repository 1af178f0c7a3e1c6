//! The [`Wire`] encoding of every store a world keeps, type by type.
//!
//! Each struct is listed field by field (see [`wire_struct!`]); the order of
//! the lists is the order of the bytes (docs/snapshot-format.md). Types
//! whose values must satisfy an invariant before the engine may index with
//! them (a polygon's vertex count, a manifold's point count) check it here.

use super::wire::{Reader, Wire, Writer, bad, wire_enum, wire_struct};
use crate::bitset::BitSet;
use crate::body::{Body, BodyDef, BodySim, BodyState, BodyType, MotionLocks};
use crate::broad_phase::{BroadPhase, ProxyKey};
use crate::chain::Chain;
use crate::collision::dynamic_tree::{Child, Link, Node, Proxy};
use crate::collision::{
    Aabb, Capsule, ChainSegment, Circle, DynamicTree, Manifold, ManifoldPoint, Polygon, Segment,
    SimplexCache,
};
use crate::contact::{Contact, ContactEdge, ContactSim};
use crate::core::MAX_POLYGON_VERTICES;
use crate::error::Result;
use crate::events::{
    BodyMoveEvent, BodyQuarantineEvent, ContactBeginTouchEvent, ContactEndTouchEvent,
    ContactHitEvent, Events, QuarantineReason, SensorBeginTouchEvent, SensorEndTouchEvent,
};
use crate::id::{BodyId, ContactId, IdPool, JointId, JointType, ShapeId};
use crate::joint::axial::{Limit, Motor, Spring};
use crate::joint::distance::DistanceJoint;
use crate::joint::motor::{BoundedSpring, MotorJoint};
use crate::joint::mouse::MouseJoint;
use crate::joint::mover::MoverJoint;
use crate::joint::pogo::PogoJoint;
use crate::joint::prismatic::PrismaticJoint;
use crate::joint::revolute::RevoluteJoint;
use crate::joint::weld::WeldJoint;
use crate::joint::wheel::WheelJoint;
use crate::joint::{
    Joint, JointBase, JointDef, JointEdge, JointEvent, JointEventKind, JointKind, JointSim,
    JointStorage,
};
use crate::math::{Mat22, Rot, Transform, Vec2};
use crate::sensor::{Sensor, Sensors, Visitor};
use crate::shape::{Filter, Shape, ShapeDef, ShapeGeometry};
use crate::simd::SimdPath;
use crate::solver::constraint_graph::{ConstraintGraph, GraphColor};
use crate::solver::island::{Island, IslandSim};
use crate::solver::softness::Softness;
use crate::solver::solver_set::SolverSet;
use crate::validate::polygon_from_parts;
use crate::world::WorldDef;

// --- maths and geometry
wire_struct!(Vec2 { x, y });
wire_struct!(Rot { c, s });
wire_struct!(Transform { p, q });
#[cfg(feature = "large-world")]
wire_struct!(crate::pos::Pos { x, y });
#[cfg(feature = "large-world")]
wire_struct!(crate::pos::WorldTransform { p, q });
#[cfg(feature = "large-world")]
wire_struct!(crate::pos::WorldAabb { lower, upper });
wire_struct!(Mat22 { cx, cy });
wire_struct!(Aabb { lower, upper });
wire_struct!(Circle { center, radius });
wire_struct!(Capsule {
    center1,
    center2,
    radius
});
wire_struct!(Segment { point1, point2 });
wire_struct!(ChainSegment {
    ghost1,
    segment,
    ghost2,
    chain_id
});

wire_struct!(Polygon {
    vertices,
    normals,
    centroid,
    radius,
    count
} check valid_polygon);

/// A polygon's vertex count is one the engine can index by, and its
/// vertices, normals, centroid and radius are ones the polygon constructors
/// could have made (finite, within ±`HUGE`, convex, counter-clockwise, with
/// the edges' outward unit normals and the vertices' centroid).
///
/// Outside these bytes a `Polygon` can only come from its constructors
/// (its fields are private), so [`World::create_shape`](crate::World::create_shape)
/// trusts it; a recording's `create_shape` call is replayed through that
/// function, so its polygon must be checked here. A vertex near `f32::MAX`
/// once reached the world this way and gave its body an infinite extent
/// and a fat box the broad phase refused (fuzz `replay`, issue 15).
fn valid_polygon(p: &Polygon) -> Result<()> {
    if !(3..=MAX_POLYGON_VERTICES).contains(&p.count) {
        return Err(bad("a polygon's vertex count is outside 3..=8"));
    }
    polygon_from_parts(
        p.vertices(),
        p.radius(),
        Some(p.normals()),
        Some(p.centroid()),
    )
    .map_err(|_| bad("a polygon's vertices, normals, centroid or radius are invalid"))?;
    Ok(())
}

impl Wire for ShapeGeometry {
    fn put(&self, w: &mut Writer) {
        match self {
            ShapeGeometry::Circle(g) => (0u8, g).put_pair(w),
            ShapeGeometry::Capsule(g) => (1u8, g).put_pair(w),
            ShapeGeometry::Segment(g) => (2u8, g).put_pair(w),
            ShapeGeometry::Polygon(g) => (3u8, g).put_pair(w),
            ShapeGeometry::ChainSegment(g) => (4u8, g).put_pair(w),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok(match u8::get(r)? {
            0 => ShapeGeometry::Circle(Wire::get(r)?),
            1 => ShapeGeometry::Capsule(Wire::get(r)?),
            2 => ShapeGeometry::Segment(Wire::get(r)?),
            3 => ShapeGeometry::Polygon(Wire::get(r)?),
            4 => ShapeGeometry::ChainSegment(Wire::get(r)?),
            _ => return Err(bad("unknown shape type")),
        })
    }
}

/// A tag followed by a payload.
trait PutPair {
    fn put_pair(self, w: &mut Writer);
}

impl<T: Wire> PutPair for (u8, &T) {
    fn put_pair(self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
}

wire_struct!(SimplexCache {
    count,
    index_a,
    index_b
});
wire_struct!(ManifoldPoint {
    point,
    anchor_a,
    anchor_b,
    separation,
    normal_impulse,
    tangent_impulse,
    total_normal_impulse,
    normal_velocity,
    id,
    persisted
});

wire_struct!(Manifold {
    normal,
    rolling_impulse,
    points,
    point_count
} check valid_manifold);

/// A manifold's point count is one the engine can index by.
fn valid_manifold(m: &Manifold) -> Result<()> {
    if m.point_count > 2 {
        return Err(bad("a manifold has more than two points"));
    }
    Ok(())
}

// --- ids (the world number is the restoring world's, not stored)
macro_rules! wire_id {
    ($($ty:ident),*) => {$(
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                self.index.put(w);
                self.generation.put(w);
            }
            fn get(r: &mut Reader<'_>) -> Result<Self> {
                Ok($ty {
                    index: Wire::get(r)?,
                    generation: Wire::get(r)?,
                    world: r.world,
                })
            }
        }
    )*};
}
wire_id!(BodyId, ShapeId, ContactId, JointId);

wire_struct!(IdPool { free, next } and refill);
wire_struct!(BitSet { words } and refill);

// --- settings
wire_enum!(BodyType {
    Static = 0,
    Kinematic = 1,
    Dynamic = 2
});
wire_struct!(WorldDef {
    gravity,
    contact_hertz,
    contact_damping_ratio,
    contact_push_max_velocity,
    joint_hertz,
    joint_damping_ratio,
    restitution_threshold,
    hit_event_threshold,
    maximum_linear_speed,
    contact_recycle_distance,
    relax_iterations,
    enable_sleep,
    enable_continuous,
    enable_warm_starting,
    enable_speculative,
    enable_contact_softening,
    user_data,
    worker_count,
    simd,
});
wire_enum!(SimdPath {
    Auto = 0,
    Baseline = 1,
    Avx2 = 2
});

/// [`wire_struct!`] for a shape or a shape definition: `@material` stands
/// for the fields the two share, in the same order in both.
macro_rules! with_material {
    ($ty:ty { $($a:ident,)* @material, $($b:ident),* $(,)? } $($rest:tt)*) => {
        wire_struct!($ty {
            $($a,)*
            density, friction, restitution, rolling_resistance, tangent_speed, user_material_id,
            custom_color, filter, is_sensor, enable_contact_events, enable_sensor_events,
            enable_hit_events, enable_pre_solve_events, enable_custom_filtering,
            $($b),*
        } $($rest)*);
    };
}

// --- bodies, shapes, chains
wire_struct!(Body {
    name,
    user_data,
    set_index,
    local_index,
    head_contact_key,
    contact_count,
    head_shape_id,
    shape_count,
    head_chain_id,
    head_joint_key,
    joint_count,
    island_id,
    island_prev,
    island_next,
    mass,
    inertia,
    sleep_threshold,
    safety_factor,
    enable_contact_recycling,
    sleep_time,
    id,
    generation,
    body_type,
    enable_sleep,
    flags,
});
wire_struct!(BodySim {
    transform,
    center,
    rotation0,
    center0,
    angle_delta,
    local_center,
    force,
    torque,
    inv_mass,
    inv_inertia,
    min_extent,
    max_extent,
    linear_damping,
    angular_damping,
    gravity_scale,
    body_id,
    flags,
});
wire_struct!(BodyState {
    linear_velocity,
    angular_velocity,
    flags,
    delta_position,
    delta_rotation,
});
wire_struct!(Filter {
    category_bits,
    mask_bits,
    group_index
});
with_material!(Shape {
    id,
    generation,
    body_id,
    prev_shape_id,
    next_shape_id,
    chain_id,
    geometry,
    @material,
    user_data,
    proxy_key,
    aabb,
    fat_aabb,
    enlarged_aabb,
    aabb_margin,
} skip { tile });
wire_struct!(Chain {
    id,
    generation,
    body_id,
    next_chain_id,
    shape_indices,
    is_loop,
    material_count,
});

// --- contacts
wire_struct!(ContactEdge {
    body_id,
    prev_key,
    next_key
});
wire_struct!(Contact {
    set_index,
    color_index,
    local_index,
    edges,
    shape_id_a,
    shape_id_b,
    island_prev,
    island_next,
    island_id,
    contact_id,
    generation,
    flags,
});
wire_struct!(ContactSim {
    contact_id,
    body_sim_index_a,
    body_sim_index_b,
    shape_id_a,
    shape_id_b,
    inv_mass_a,
    inv_i_a,
    inv_mass_b,
    inv_i_b,
    manifold,
    friction,
    restitution,
    rolling_resistance,
    tangent_speed,
    sim_flags,
    cache,
    cached_rotation_a,
    cached_rotation_b,
    cached_relative,
    base_separation,
});

// --- islands, solver sets, graph
wire_struct!(Island {
    set_index,
    local_index,
    island_id,
    head_body,
    tail_body,
    body_count,
    head_contact,
    tail_contact,
    contact_count,
    head_joint,
    tail_joint,
    joint_count,
    constraint_remove_count,
});
wire_struct!(IslandSim { island_id });
wire_struct!(SolverSet {
    body_sims,
    body_states,
    contact_sims,
    island_sims,
    joint_sims,
    in_use,
} and refill);
wire_struct!(GraphColor {
    body_set,
    contact_sims,
    joint_sims
} and refill);
wire_struct!(ConstraintGraph { colors } and refill);

// --- joints
wire_enum!(JointType {
    Distance = 0,
    Filter = 1,
    Motor = 2,
    Mouse = 3,
    Prismatic = 4,
    Revolute = 5,
    Weld = 6,
    Wheel = 7,
    Mover = 8,
    Pogo = 9,
});
wire_enum!(JointEventKind {
    ThresholdExceeded = 0,
    Broken = 1,
    BodyDestroyed = 2,
});
wire_struct!(Softness {
    bias_rate,
    mass_scale,
    impulse_scale
});
wire_struct!(Spring {
    enable,
    hertz,
    damping_ratio,
    impulse,
    softness
});
wire_struct!(Motor {
    enable,
    speed,
    max_force,
    impulse
});
wire_struct!(Limit {
    enable,
    lower,
    upper,
    lower_impulse,
    upper_impulse
});
wire_struct!(DistanceJoint {
    length,
    spring,
    lower_spring_force,
    upper_spring_force,
    limit,
    motor,
    axial_mass,
});
wire_struct!(BoundedSpring {
    hertz,
    damping_ratio,
    max,
    softness
});
wire_struct!(MotorJoint {
    linear_offset,
    angular_offset,
    max_force,
    max_torque,
    correction_factor,
    linear_impulse,
    angular_impulse,
    linear_velocity,
    angular_velocity,
    max_velocity_force,
    max_velocity_torque,
    linear_velocity_impulse,
    angular_velocity_impulse,
    linear_spring,
    angular_spring,
    linear_spring_impulse,
    angular_spring_impulse,
    linear_mass,
    angular_mass,
});
wire_struct!(MoverJoint {
    axes,
    directions,
    mass
});
wire_struct!(PogoJoint {
    spring,
    rest_length,
    max_tension_force,
    max_compression_force,
    velocity,
    axial_mass,
});
wire_struct!(MouseJoint {
    target,
    hertz,
    damping_ratio,
    max_force,
    linear_impulse,
    angular_impulse,
    linear_softness,
    angular_softness,
    linear_mass,
    delta_center,
});
wire_struct!(PrismaticJoint {
    target_translation,
    spring,
    motor,
    limit,
    impulse,
    axial_mass,
});
wire_struct!(RevoluteJoint {
    target_angle,
    spring,
    motor,
    limit,
    linear_impulse,
    axial_mass,
});
wire_struct!(WeldJoint {
    linear_hertz,
    linear_damping_ratio,
    angular_hertz,
    angular_damping_ratio,
    linear_impulse,
    angular_impulse,
    axial_mass,
    linear_softness,
    angular_softness,
});
wire_struct!(WheelJoint {
    spring,
    motor,
    limit,
    perp_impulse,
    perp_mass,
    axial_mass,
    motor_mass,
});

impl Wire for JointKind {
    fn put(&self, w: &mut Writer) {
        self.joint_type().put(w);
        match self {
            JointKind::Distance(j) => j.put(w),
            JointKind::Filter => {}
            JointKind::Motor(j) => j.put(w),
            JointKind::Mouse(j) => j.put(w),
            JointKind::Prismatic(j) => j.put(w),
            JointKind::Revolute(j) => j.put(w),
            JointKind::Weld(j) => j.put(w),
            JointKind::Wheel(j) => j.put(w),
            JointKind::Mover(j) => j.put(w),
            JointKind::Pogo(j) => j.put(w),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self> {
        Ok(match JointType::get(r)? {
            JointType::Distance => JointKind::Distance(Wire::get(r)?),
            JointType::Filter => JointKind::Filter,
            JointType::Motor => JointKind::Motor(Wire::get(r)?),
            JointType::Mouse => JointKind::Mouse(Wire::get(r)?),
            JointType::Prismatic => JointKind::Prismatic(Wire::get(r)?),
            JointType::Revolute => JointKind::Revolute(Wire::get(r)?),
            JointType::Weld => JointKind::Weld(Wire::get(r)?),
            JointType::Wheel => JointKind::Wheel(Wire::get(r)?),
            JointType::Mover => JointKind::Mover(Wire::get(r)?),
            JointType::Pogo => JointKind::Pogo(Wire::get(r)?),
        })
    }
}

wire_struct!(JointEdge {
    body_id,
    prev_key,
    next_key
});
wire_struct!(Joint {
    joint_id,
    generation,
    joint_type,
    edges,
    set_index,
    color_index,
    local_index,
    island_id,
    island_prev,
    island_next,
    collide_connected,
    break_on_threshold,
    user_data,
});
wire_struct!(JointBase {
    joint_id,
    body_id_a,
    body_id_b,
    local_frame_a,
    local_frame_b,
    constraint_hertz,
    constraint_damping_ratio,
    force_threshold,
    torque_threshold,
    index_a,
    index_b,
    inv_mass_a,
    inv_i_a,
    inv_mass_b,
    inv_i_b,
    frame_a,
    frame_b,
    delta_center,
    softness,
} skip { in_tree });
wire_struct!(JointSim { base, kind });
wire_struct!(JointEvent {
    joint_id,
    joint_type,
    kind,
    user_data,
    force,
    torque
});
wire_struct!(JointStorage {
    joints,
    ids,
    events,
    pending_events,
    inv_h,
    detached,
    over_threshold,
} skip { thresholds_seen } and refill);

// --- broad phase
wire_struct!(Child {
    aabb,
    word,
    aux,
    user_data
});
wire_struct!(Node { children });
wire_struct!(Link {
    parent,
    slot,
    allocated
});
wire_struct!(Proxy {
    category_bits,
    user_data,
    link,
    generation
});
wire_struct!(DynamicTree {
    nodes,
    node_links,
    node_free,
    node_count,
    proxies,
    proxy_free,
    proxy_count,
} skip { category_union, scratch } and refill);
wire_struct!(ProxyKey { key, generation });
wire_struct!(BroadPhase {
    trees,
    move_buffer,
    move_slots
} skip { static_edits });

// --- events and sensors
wire_struct!(ContactBeginTouchEvent {
    contact_id,
    shape_id_a,
    shape_id_b,
    manifold
});
wire_struct!(ContactEndTouchEvent {
    contact_id,
    shape_id_a,
    shape_id_b
});
wire_struct!(ContactHitEvent {
    shape_id_a,
    shape_id_b,
    point,
    normal,
    approach_speed
});
wire_struct!(SensorBeginTouchEvent {
    sensor_shape_id,
    visitor_shape_id
});
wire_struct!(SensorEndTouchEvent {
    sensor_shape_id,
    visitor_shape_id
});
wire_struct!(BodyMoveEvent {
    body_id,
    transform,
    user_data,
    fell_asleep
});
wire_enum!(QuarantineReason {
    Velocity = 0,
    Position = 1
});
wire_struct!(BodyQuarantineEvent {
    body_id,
    user_data,
    reason
});
wire_struct!(Visitor { index, generation });
wire_struct!(Sensor {
    shape_id,
    overlaps,
    next
} and refill);
wire_struct!(Sensors {
    list,
    slot_of_shape
});
wire_struct!(Events {
    contact_begin,
    contact_end,
    contact_end_pending,
    contact_hit,
    sensor_begin,
    sensor_end,
    sensor_end_pending,
    body_moves,
    body_quarantines,
    in_step,
    sensors,
} and refill);

// --- definitions, for the structural calls a recording logs
wire_struct!(MotionLocks {
    linear_x,
    linear_y,
    angular_z
});
wire_struct!(BodyDef {
    body_type,
    position,
    rotation,
    linear_velocity,
    angular_velocity,
    linear_damping,
    angular_damping,
    gravity_scale,
    sleep_threshold,
    enable_sleep,
    is_awake,
    is_bullet,
    motion_locks,
    is_enabled,
    allow_fast_rotation,
    enable_contact_recycling,
    safety_factor,
    user_data,
    name
});
with_material!(ShapeDef {
    @material,
    invoke_contact_creation,
    update_body_mass,
    user_data
});
wire_struct!(JointDef {
    body_a,
    body_b,
    local_anchor_a,
    local_anchor_b,
    collide_connected,
    constraint_hertz,
    constraint_damping_ratio,
    force_threshold,
    torque_threshold,
    break_on_threshold,
    user_data
});
