//! Checks a decoded world before anything may index with its numbers.
//!
//! [`check_world`] verifies what the invariant checker (`World::validate`)
//! takes for granted: id pools consistent with their arrays, every index a
//! live object's, every proxy key in the broad phase, every sensor slot in
//! range. Then `World::validate` checks the lists and cross-references.
//!
//! [`check_numbers`] then checks every number a step reads that no step
//! recomputes first, as the constructors and setters that made it check
//! theirs: shape geometry (through the geometry constructors, so a polygon
//! vertex of −inf or a folded polygon is refused before it reaches the broad
//! phase), shape materials and boxes, body masses and settings, contact
//! manifolds and materials, and every joint's settings (through its
//! definition's `validate`, so a NaN or negative stiffness, crossed limits
//! or a bad frame are refused). Velocities, forces and accumulated impulses
//! are not refused: sums of finite applied impulses can overflow in a world the
//! API made, and the step's quarantine takes such a body out of the
//! simulation.

use super::wire::bad;
use crate::body::{Body, BodySim};
use crate::collision::{Capsule, Circle, Manifold, Segment};
use crate::contact::{Contact, ContactSim, pair_key};
use crate::error::Result;
use crate::id::{IdPool, NULL_INDEX};
use crate::joint::{
    DistanceJointDef, JointBase, JointDef, JointKind, JointSim, MotorJointDef, MouseJointDef,
    MoverJointDef, PogoJointDef, PrismaticJointDef, RevoluteJointDef, WeldJointDef, WheelJointDef,
};
use crate::math::Transform;
use crate::shape::{Shape, ShapeGeometry, check_shape_mass};
use crate::solver::solver_set::FIRST_SLEEPING_SET;
use crate::validate::polygon_from_parts;
use crate::world::{PairSet, World};

/// The set of shape pairs that have a contact.
pub(super) fn pair_set(contacts: &[Contact]) -> PairSet {
    contacts
        .iter()
        .filter(|c| c.contact_id != NULL_INDEX)
        .map(|c| pair_key(c.shape_id_a, c.shape_id_b))
        .collect()
}

/// A pool describes an array of `len` slots whose live ones satisfy `live`:
/// its free list holds exactly the free slots, each once.
fn check_pool(pool: &IdPool, len: usize, live: impl Fn(usize) -> bool) -> Result<()> {
    if pool.next as usize != len {
        return Err(bad("an id pool does not match its array"));
    }
    let mut free = vec![false; len];
    for &f in &pool.free {
        let f = f as usize;
        if f >= len || free[f] || live(f) {
            return Err(bad("an id pool's free list is inconsistent"));
        }
        free[f] = true;
    }
    if (0..len).any(|i| !free[i] && !live(i)) {
        return Err(bad("an id pool lost a free slot"));
    }
    Ok(())
}

/// `key` (`index << 1 | edge`) is NULL or its index is below `len`.
fn key_null_or_below(key: u32, len: usize) -> bool {
    key == NULL_INDEX || ((key >> 1) as usize) < len
}

/// `index` is NULL or below `len`.
fn null_or_below(index: u32, len: usize) -> bool {
    index == NULL_INDEX || (index as usize) < len
}

pub(super) fn check_world(w: &World) -> Result<()> {
    let nb = w.bodies.len();
    let ns = w.shapes.len();
    let nc = w.contacts.len();
    let ni = w.islands.len();
    let nj = w.joints.joints.len();
    check_pool(&w.body_ids, nb, |i| w.bodies[i].id == i as u32)?;
    check_pool(&w.shape_ids, ns, |i| w.shapes[i].id == i as u32)?;
    check_pool(&w.chain_ids, w.chains.len(), |i| w.chains[i].id == i as u32)?;
    check_pool(&w.contact_ids, nc, |i| w.contacts[i].contact_id == i as u32)?;
    check_pool(&w.island_ids, ni, |i| w.islands[i].island_id == i as u32)?;
    check_pool(&w.solver_set_ids, w.solver_sets.len(), |i| {
        w.solver_sets[i].in_use
    })?;
    check_pool(&w.joints.ids, nj, |i| {
        w.joints.joints[i].joint_id == i as u32
    })?;
    if w.solver_sets.len() < FIRST_SLEEPING_SET as usize
        || !w.solver_sets[..FIRST_SLEEPING_SET as usize]
            .iter()
            .all(|s| s.in_use)
    {
        return Err(bad("the static, disabled and awake sets are missing"));
    }
    let live_body = |b: u32| w.bodies.get(b as usize).is_some_and(|x| x.id == b);
    let live_shape = |s: u32| w.shapes.get(s as usize).is_some_and(|x| x.id == s);
    for (i, b) in w.bodies.iter().enumerate() {
        if b.id == NULL_INDEX {
            continue;
        }
        if b.id != i as u32 {
            return Err(bad("a body sits at another body's index"));
        }
        let sims = w
            .solver_sets
            .get(b.set_index as usize)
            .filter(|s| s.in_use)
            .map_or(0, |s| s.body_sims.len());
        let in_set = (b.local_index as usize) < sims
            && w.solver_sets[b.set_index as usize].body_sims[b.local_index as usize].body_id
                == b.id;
        let ok = in_set
            && null_or_below(b.island_id, ni)
            && null_or_below(b.island_prev, nb)
            && null_or_below(b.island_next, nb)
            && null_or_below(b.head_shape_id, ns)
            && null_or_below(b.head_chain_id, w.chains.len())
            && key_null_or_below(b.head_contact_key, nc)
            && key_null_or_below(b.head_joint_key, nj);
        if !ok {
            return Err(bad("a body's indices are out of range"));
        }
    }
    for (i, set) in w.solver_sets.iter().enumerate() {
        if set.body_sims.iter().any(|s| !live_body(s.body_id)) {
            return Err(bad("a solver set names a free body"));
        }
        if i as u32 == crate::solver::solver_set::AWAKE_SET
            && set.body_states.len() != set.body_sims.len()
        {
            return Err(bad("awake body states and sims differ in number"));
        }
        // (Body sim indices are only read for coloured contacts, and set
        // when a contact enters the graph.)
        for cs in &set.contact_sims {
            if !((cs.contact_id as usize) < nc
                && live_shape(cs.shape_id_a)
                && live_shape(cs.shape_id_b))
            {
                return Err(bad("a contact sim's indices are out of range"));
            }
        }
        if set.island_sims.iter().any(|s| s.island_id as usize >= ni) {
            return Err(bad("an island sim's index is out of range"));
        }
    }
    for (i, s) in w.shapes.iter().enumerate() {
        if s.id == NULL_INDEX {
            continue;
        }
        let proxy_ok = s
            .proxy_key
            .is_none_or(|k| w.broad_phase.tree(k.body_type()).contains(k.proxy_id()));
        if s.id != i as u32
            || !live_body(s.body_id)
            || !null_or_below(s.prev_shape_id, ns)
            || !null_or_below(s.next_shape_id, ns)
            || !null_or_below(s.chain_id, w.chains.len())
            || !proxy_ok
        {
            return Err(bad("a shape's indices are out of range"));
        }
    }
    for c in w.chains.iter().filter(|c| c.id != NULL_INDEX) {
        if !live_body(c.body_id)
            || !null_or_below(c.next_chain_id, w.chains.len())
            || !c.shape_indices.iter().all(|&s| live_shape(s))
        {
            return Err(bad("a chain's indices are out of range"));
        }
    }
    for c in w.contacts.iter().filter(|c| c.contact_id != NULL_INDEX) {
        let edges_ok = c.edges.iter().all(|e| {
            live_body(e.body_id)
                && key_null_or_below(e.prev_key, nc)
                && key_null_or_below(e.next_key, nc)
        });
        if !edges_ok
            || !live_shape(c.shape_id_a)
            || !live_shape(c.shape_id_b)
            || (c.set_index as usize) >= w.solver_sets.len()
            || !null_or_below(c.color_index, w.graph.colors.len())
            || !null_or_below(c.island_id, ni)
            || !null_or_below(c.island_prev, nc)
            || !null_or_below(c.island_next, nc)
        {
            return Err(bad("a contact's indices are out of range"));
        }
    }
    for island in w.islands.iter().filter(|x| x.island_id != NULL_INDEX) {
        let ok = (island.set_index as usize) < w.solver_sets.len()
            && [island.head_body, island.tail_body]
                .iter()
                .all(|&b| null_or_below(b, nb))
            && [island.head_contact, island.tail_contact]
                .iter()
                .all(|&c| null_or_below(c, nc))
            && [island.head_joint, island.tail_joint]
                .iter()
                .all(|&j| null_or_below(j, nj));
        if !ok {
            return Err(bad("an island's indices are out of range"));
        }
    }
    if !null_or_below(w.split_island_id, ni) {
        return Err(bad("the island to split is out of range"));
    }
    for color in &w.graph.colors {
        for cs in &color.contact_sims {
            // (Body sim indices are rewritten by the narrow phase before
            // the solver reads them.)
            if !((cs.contact_id as usize) < nc
                && live_shape(cs.shape_id_a)
                && live_shape(cs.shape_id_b))
            {
                return Err(bad("a coloured contact's indices are out of range"));
            }
        }
    }
    for j in w.joints.joints.iter().filter(|j| j.joint_id != NULL_INDEX) {
        let ok = j.edges.iter().all(|e| {
            live_body(e.body_id)
                && key_null_or_below(e.prev_key, nj)
                && key_null_or_below(e.next_key, nj)
        }) && (j.set_index as usize) < w.solver_sets.len()
            && null_or_below(j.color_index, w.graph.colors.len())
            && null_or_below(j.island_id, ni)
            && null_or_below(j.island_prev, nj)
            && null_or_below(j.island_next, nj);
        if !ok {
            return Err(bad("a joint's indices are out of range"));
        }
    }
    for s in joint_sims(w) {
        let b = &s.base;
        if (b.joint_id as usize) >= nj || !live_body(b.body_id_a) || !live_body(b.body_id_b) {
            // (The awake indices are prepared at the start of every step.)
            return Err(bad("a joint sim's indices are out of range"));
        }
    }
    w.broad_phase
        .validate()
        .map_err(|_| bad("the broad phase is inconsistent"))?;
    check_sensors(w)?;
    check_numbers(w)
}

/// Every joint sim: in the solver sets, in the graph's colours and detached.
fn joint_sims(w: &World) -> impl Iterator<Item = &JointSim> {
    w.solver_sets
        .iter()
        .flat_map(|s| &s.joint_sims)
        .chain(w.graph.colors.iter().flat_map(|c| &c.joint_sims))
        .chain(w.joints.detached.iter().map(|(_, s)| s))
}

fn check_sensors(w: &World) -> Result<()> {
    let sensors = &w.events.sensors;
    for (shape, &slot) in sensors.slot_of_shape.iter().enumerate() {
        if slot == NULL_INDEX {
            continue;
        }
        match sensors.list.get(slot as usize) {
            Some(s) if s.shape_id as usize == shape && shape < w.shapes.len() => {}
            _ => return Err(bad("a sensor slot is out of range")),
        }
    }
    for s in &sensors.list {
        let slot = sensors.slot_of_shape.get(s.shape_id as usize).copied();
        if slot.is_none_or(|slot| {
            sensors.list.get(slot as usize).map(|x| x.shape_id) != Some(s.shape_id)
        }) {
            return Err(bad("a sensor is missing from its slot"));
        }
    }
    Ok(())
}

/// Whether `v` is finite and `>= 0`.
fn non_negative(v: f32) -> bool {
    v.is_finite() && v >= 0.0
}

/// Whether a shape's geometry is one its constructor accepts.
fn geometry_ok(g: &ShapeGeometry) -> bool {
    match g {
        ShapeGeometry::Circle(c) => Circle::new(c.center, c.radius).is_ok(),
        ShapeGeometry::Capsule(c) => Capsule::new(c.center1, c.center2, c.radius).is_ok(),
        ShapeGeometry::Segment(s) => Segment::new(s.point1, s.point2).is_ok(),
        ShapeGeometry::ChainSegment(c) => {
            crate::collision::ChainSegment::new(c.ghost1, c.segment, c.ghost2).is_ok()
        }
        ShapeGeometry::Polygon(p) => polygon_from_parts(
            p.vertices(),
            p.radius(),
            Some(p.normals()),
            Some(p.centroid()),
        )
        .is_ok(),
    }
}

fn shape_ok(s: &Shape) -> bool {
    let material = s.material();
    geometry_ok(&s.geometry)
        && non_negative(s.density)
        && check_shape_mass(&s.geometry, s.density).is_ok()
        && material.validate().is_ok()
        && s.aabb.is_valid()
        && s.fat_aabb.is_valid()
        && non_negative(s.aabb_margin)
}

fn body_ok(b: &Body) -> bool {
    non_negative(b.mass)
        && non_negative(b.inertia)
        && non_negative(b.sleep_threshold)
        && non_negative(b.safety_factor)
        && non_negative(b.sleep_time)
}

/// A body's solver row. (Its transform is checked by `World::validate`;
/// force and torque are sums of applied forces, see the module docs.)
fn body_sim_ok(s: &BodySim) -> bool {
    s.center.is_finite()
        && s.center0.is_finite()
        && s.rotation0.c.is_finite()
        && s.rotation0.s.is_finite()
        && s.angle_delta.is_finite()
        && s.local_center.is_finite()
        && non_negative(s.inv_mass)
        && non_negative(s.inv_inertia)
        && non_negative(s.min_extent)
        && non_negative(s.max_extent)
        && non_negative(s.linear_damping)
        && non_negative(s.angular_damping)
        && s.gravity_scale.is_finite()
}

/// A manifold as the manifold functions make it: no points, or a unit
/// normal and finite points and separations.
fn manifold_ok(m: &Manifold) -> bool {
    m.point_count == 0
        || ((m.normal.length_squared() - 1.0).abs() <= 1.0e-3
            && m.points().iter().all(|p| {
                p.point.is_finite()
                    && p.anchor_a.is_finite()
                    && p.anchor_b.is_finite()
                    && p.separation.is_finite()
            }))
}

fn contact_sim_ok(c: &ContactSim) -> bool {
    manifold_ok(&c.manifold)
        && non_negative(c.friction)
        && non_negative(c.restitution)
        && non_negative(c.rolling_resistance)
        && c.tangent_speed.is_finite()
        && c.cached_relative.is_valid()
        && c.base_separation.iter().all(|s| s.is_finite())
}

/// Whether a joint's settings are ones its definition accepts, as the
/// joint's creation and setters check them: the definition is read back from
/// the stored settings (as the `def()` of the joint's view does) and
/// validated, and the frames' rotations must be unit. Accumulated impulses
/// and the pogo leg's last velocity are state, not settings, and are not
/// refused (see the module docs).
fn joint_sim_ok(s: &JointSim) -> bool {
    let b = &s.base;
    if !(b.local_frame_a.q.is_valid() && b.local_frame_b.q.is_valid()) {
        return false;
    }
    let base = JointDef {
        local_anchor_a: b.local_frame_a.p,
        local_anchor_b: b.local_frame_b.p,
        constraint_hertz: b.constraint_hertz,
        constraint_damping_ratio: b.constraint_damping_ratio,
        force_threshold: b.force_threshold,
        torque_threshold: b.torque_threshold,
        ..JointDef::default()
    };
    match &s.kind {
        JointKind::Distance(j) => DistanceJointDef::read(base, j).validate(),
        JointKind::Filter => base.validate(),
        JointKind::Motor(j) => MotorJointDef::read(base, j).validate(),
        JointKind::Mouse(j) => MouseJointDef::read(base, j).validate(),
        JointKind::Mover(j) => MoverJointDef::read(base, j).validate(),
        JointKind::Pogo(j) => PogoJointDef {
            impulse: 0.0,
            velocity: 0.0,
            ..PogoJointDef::read(base, b, j)
        }
        .validate(),
        JointKind::Prismatic(j) => PrismaticJointDef::read(base, b, j).validate(),
        JointKind::Revolute(j) => RevoluteJointDef::read(base, b, j).validate(),
        JointKind::Weld(j) => WeldJointDef::read(base, b, j).validate(),
        JointKind::Wheel(j) => WheelJointDef::read(base, b, j).validate(),
    }
    .is_ok()
}

/// Whether a joint that a recording's `create_joint` record describes (its
/// definition, frames and typed data) has settings its definition accepts,
/// as [`joint_sim_ok`] checks a stored joint. `World::create_joint` trusts
/// the frames and typed data (the typed constructors built them from a
/// checked definition), so a replayed record must be checked here: a
/// corrupted motor torque below zero once made a replay's step panic in
/// `f32::clamp` (issue 15).
pub(super) fn logged_joint_ok(
    def: &JointDef,
    local_frame_a: Transform,
    local_frame_b: Transform,
    kind: JointKind,
) -> bool {
    let mut base = JointBase::UNPREPARED;
    (base.local_frame_a, base.local_frame_b) = (local_frame_a, local_frame_b);
    base.constraint_hertz = def.constraint_hertz;
    base.constraint_damping_ratio = def.constraint_damping_ratio;
    (base.force_threshold, base.torque_threshold) = (def.force_threshold, def.torque_threshold);
    joint_sim_ok(&JointSim { base, kind })
}

/// Checks the numbers a step reads (see the module docs); indices must have
/// been checked by [`check_world`].
pub(super) fn check_numbers(w: &World) -> Result<()> {
    for s in w.shapes.iter().filter(|s| s.id != NULL_INDEX) {
        if !shape_ok(s) {
            return Err(bad(
                "a shape's geometry, material or box is not one a constructor makes",
            ));
        }
    }
    if !w.bodies.iter().filter(|b| b.id != NULL_INDEX).all(body_ok) {
        return Err(bad("a body's mass or settings are out of range"));
    }
    for set in &w.solver_sets {
        if !set.body_sims.iter().all(body_sim_ok) {
            return Err(bad("a body's mass data or settings are out of range"));
        }
    }
    let contact_sims = w
        .solver_sets
        .iter()
        .flat_map(|s| &s.contact_sims)
        .chain(w.graph.colors.iter().flat_map(|c| &c.contact_sims));
    for c in contact_sims {
        if !contact_sim_ok(c) {
            return Err(bad("a contact's manifold or material is out of range"));
        }
    }
    for s in joint_sims(w) {
        // (`check_world` checked the joint index.)
        let joint_type = w.joints.joints[s.base.joint_id as usize].joint_type;
        if joint_type != s.kind.joint_type() || !joint_sim_ok(s) {
            return Err(bad(
                "a joint's settings are not ones its definition accepts",
            ));
        }
    }
    Ok(())
}
