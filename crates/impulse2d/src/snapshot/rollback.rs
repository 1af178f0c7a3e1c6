//! Compact, exact rollback for a world whose set of objects stays the same.
//!
//! A [`RollbackState`] keeps what a step (or a call on a body or joint view)
//! can change:
//!
//! - the body rows (contact and island links, sleep timers, flags) and every
//!   solver set (body sims and states, contact, island and joint sims);
//! - the contacts with their id pool, the islands with theirs, the solver
//!   sets' id pool and the split candidate;
//! - the constraint graph's colours (body bit sets, contact and joint sims);
//! - per moving shape only its bounding boxes and "enlarged" flag;
//! - the kinematic and dynamic broad-phase trees and the move buffer;
//! - the joints (their rows hold the warm-start impulses), the event
//!   buffers and sensor overlaps, the settings and the step counter.
//!
//! The stores are packed (see `pack.rs`): `code_world` says once, field by
//! field, how each is coded, and runs for both the save and the load. A
//! field is elided when it equals a guess both directions can make (the same
//! field of the previous element; the box a shape's body transform gives; a
//! contact's shapes as its row names them), so the coding is exact whatever
//! the world holds, and compact where the guesses hold. The broad phase's
//! pair set is not kept: it is the set of the contacts' shape pairs, rebuilt
//! on load. Joint sims and events are copied whole.
//!
//! What it leaves out is what only a structural call changes: the shapes'
//! geometry and materials, the bounds of static shapes, the chains, the
//! static tree, and the body, shape and chain id pools. So every call that
//! changes those — creating or destroying a body, shape, chain or joint,
//! changing a body's type, disabling or enabling it, taking a
//! [`ShapeMut`](crate::ShapeMut) or [`ChainMut`](crate::ChainMut), editing
//! the static tree (a static body moved, [`World::rebuild_static_tree`]),
//! [`World::restore`] — advances the world's structure generation, and
//! [`World::load_rollback`] refuses a state saved under another generation.
//! Use a [`Snapshot`](crate::Snapshot) across such calls.

use super::pack::{Coder, Field, Packer, Unpacker, delta, elements, guess};
use crate::body::{Body, BodySim, BodyState, BodyType};
use crate::broad_phase::ProxyKey;
use crate::collision::dynamic_tree::{Child, Link, Node, Proxy};
use crate::collision::{Aabb, DynamicTree, Manifold, ManifoldPoint};
use crate::contact::{Contact, ContactEdge, ContactSim, pair_key, sim_flags};
use crate::error::{Error, Result};
use crate::events::Events;
use crate::id::{IdPool, NULL_INDEX};
use crate::joint::{JointSim, JointStorage};
use crate::math::{Rot, Transform, Vec2};
use crate::pos::{Pos, WorldTransform};
use crate::sensor::{Sensor, Sensors};
use crate::shape::{Shape, speculative_aabb};
use crate::solver::constraint_graph::GraphColor;
use crate::solver::island::{Island, IslandSim};
use crate::solver::solver_set::SolverSet;
use crate::world::{World, WorldDef};

/// Copies `src` into `self`, reusing `self`'s buffers (no allocation when
/// they are large enough): for the stores kept whole.
trait Refill {
    fn refill(&mut self, src: &Self);
}

/// [`Refill`] for a vector of values that own buffers: the elements are
/// refilled in place, so their buffers are reused too.
fn refill_vec<T: Refill + Default>(dst: &mut Vec<T>, src: &[T]) {
    dst.truncate(src.len());
    dst.resize_with(src.len(), T::default);
    for (d, s) in dst.iter_mut().zip(src) {
        d.refill(s);
    }
}

impl Refill for IdPool {
    fn refill(&mut self, src: &Self) {
        let IdPool { free, next } = src;
        self.free.clone_from(free);
        self.next = *next;
    }
}

impl Refill for Sensor {
    fn refill(&mut self, src: &Self) {
        let Sensor {
            shape_id,
            overlaps,
            next,
        } = src;
        self.shape_id = *shape_id;
        self.overlaps.clone_from(overlaps);
        self.next.clone_from(next);
    }
}

impl Refill for Sensors {
    fn refill(&mut self, src: &Self) {
        let Sensors {
            list,
            slot_of_shape: _, // changes only when a sensor shape comes or goes (structural)
        } = src;
        refill_vec(&mut self.list, list);
    }
}

impl Refill for Events {
    fn refill(&mut self, src: &Self) {
        let Events {
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
        } = src;
        self.contact_begin.clone_from(contact_begin);
        self.contact_end.clone_from(contact_end);
        self.contact_end_pending.clone_from(contact_end_pending);
        self.contact_hit.clone_from(contact_hit);
        self.sensor_begin.clone_from(sensor_begin);
        self.sensor_end.clone_from(sensor_end);
        self.sensor_end_pending.clone_from(sensor_end_pending);
        self.body_moves.clone_from(body_moves);
        self.body_quarantines.clone_from(body_quarantines);
        self.in_step = *in_step;
        self.sensors.refill(sensors);
    }
}

impl Refill for JointStorage {
    fn refill(&mut self, src: &Self) {
        let JointStorage {
            joints,
            ids,
            events,
            pending_events,
            inv_h,
            detached,
            over_threshold,
        } = src;
        self.joints.clone_from(joints);
        self.ids.refill(ids);
        self.events.clone_from(events);
        self.pending_events.clone_from(pending_events);
        self.inv_h = *inv_h;
        self.detached.clone_from(detached);
        self.over_threshold.clone_from(over_threshold);
    }
}

// ---------------------------------------------------------------------------
// The coding of each store, one function per element type, for both
// directions (`pack.rs`). Each destructures its element without `..`, so a
// new field that is not coded does not compile.

/// The broad-phase trees a step changes (the static tree is left out).
const MOVING_TREES: [BodyType; 2] = [BodyType::Kinematic, BodyType::Dynamic];

/// A tree slot's flag bits and index (as laid out in `dynamic_tree.rs`; the
/// split only steers guesses, so it cannot make the coding inexact).
const TREE_LEAF: u32 = 1 << 31;
const TREE_INDEX: u32 = (1 << 29) - 1;

impl Field for BodyType {
    fn code<C: Coder>(&mut self, c: &mut C) {
        let mut v = *self as u32;
        c.varint(&mut v);
        *self = match v {
            1 => BodyType::Kinematic,
            2 => BodyType::Dynamic,
            _ => BodyType::Static,
        };
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

/// The element before the first of a body sim vector.
const BLANK_BODY_SIM: BodySim = BodySim {
    transform: WorldTransform::IDENTITY,
    center: Pos::ZERO,
    rotation0: Rot::IDENTITY,
    center0: Pos::ZERO,
    angle_delta: 0.0,
    local_center: Vec2::ZERO,
    force: Vec2::ZERO,
    torque: 0.0,
    inv_mass: 0.0,
    inv_inertia: 0.0,
    min_extent: 0.0,
    max_extent: 0.0,
    linear_damping: 0.0,
    angular_damping: 0.0,
    gravity_scale: 1.0,
    body_id: NULL_INDEX,
    flags: 0,
};

/// The element before the first of a contact sim vector.
fn blank_contact_sim() -> ContactSim {
    ContactSim {
        contact_id: NULL_INDEX,
        body_sim_index_a: NULL_INDEX,
        body_sim_index_b: NULL_INDEX,
        shape_id_a: NULL_INDEX,
        shape_id_b: NULL_INDEX,
        inv_mass_a: 0.0,
        inv_i_a: 0.0,
        inv_mass_b: 0.0,
        inv_i_b: 0.0,
        manifold: Manifold::default(),
        friction: 0.0,
        restitution: 0.0,
        rolling_resistance: 0.0,
        tangent_speed: 0.0,
        sim_flags: 0,
        cache: Default::default(),
        cached_rotation_a: Rot::IDENTITY,
        cached_rotation_b: Rot::IDENTITY,
        cached_relative: Transform::IDENTITY,
        base_separation: [0.0; 2],
    }
}

const BLANK_LINK: Link = Link {
    parent: NULL_INDEX,
    slot: 0,
    allocated: false,
};

const BLANK_PROXY: Proxy = Proxy {
    category_bits: 0,
    user_data: 0,
    link: BLANK_LINK,
    generation: 0,
};

const BLANK_CHILD: Child = Child {
    aabb: Aabb {
        lower: Vec2::ZERO,
        upper: Vec2::ZERO,
    },
    word: 0,
    aux: 0,
    user_data: 0,
};

const BLANK_NODE: Node = Node {
    children: [BLANK_CHILD; 2],
};

/// A name: one bit when it is the previous body's.
fn code_name<C: Coder>(c: &mut C, name: &mut String, prev: &str) {
    let mut same = name.len() == prev.len() && (name.is_empty() || name == prev);
    c.bit(&mut same);
    if same {
        if C::UNPACKS {
            name.clear();
            name.push_str(prev);
        }
    } else {
        c.text(name);
    }
}

fn code_body<C: Coder>(c: &mut C, b: &mut Body, p: &Body, i: u32) {
    let Body {
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
    } = b;
    delta(c, id, i);
    guess(c, generation, p.generation);
    guess(c, body_type, p.body_type);
    guess(c, flags, p.flags);
    code_name(c, name, &p.name);
    guess(c, user_data, p.user_data);
    guess(c, set_index, p.set_index);
    delta(c, local_index, p.local_index.wrapping_add(1));
    delta(c, head_contact_key, p.head_contact_key);
    guess(c, contact_count, p.contact_count);
    delta(c, head_shape_id, p.head_shape_id.wrapping_add(1));
    guess(c, shape_count, p.shape_count);
    guess(c, head_chain_id, p.head_chain_id);
    guess(c, head_joint_key, p.head_joint_key);
    guess(c, joint_count, p.joint_count);
    guess(c, island_id, p.island_id);
    delta(c, island_prev, i.wrapping_sub(1));
    delta(c, island_next, i.wrapping_add(1));
    for (v, g) in [
        (mass, p.mass),
        (inertia, p.inertia),
        (sleep_threshold, p.sleep_threshold),
        (safety_factor, p.safety_factor),
        (sleep_time, p.sleep_time),
    ] {
        guess(c, v, g);
    }
    guess(c, enable_contact_recycling, p.enable_contact_recycling);
    guess(c, enable_sleep, p.enable_sleep);
}

fn code_body_sim<C: Coder>(c: &mut C, s: &mut BodySim, p: &BodySim, _: u32) {
    let BodySim {
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
    } = s;
    delta(c, body_id, p.body_id.wrapping_add(1));
    guess(c, flags, p.flags);
    guess(c, local_center, p.local_center);
    center.code(c);
    transform.q.code(c);
    // as `finalize_bodies` places the origin
    let origin = *center - transform.q.rotate(*local_center);
    guess(c, &mut transform.p, origin);
    guess(c, rotation0, transform.q);
    guess(c, center0, *center);
    guess(c, force, p.force);
    for (v, g) in [
        (angle_delta, p.angle_delta),
        (torque, p.torque),
        (inv_mass, p.inv_mass),
        (inv_inertia, p.inv_inertia),
        (min_extent, p.min_extent),
        (max_extent, p.max_extent),
        (linear_damping, p.linear_damping),
        (angular_damping, p.angular_damping),
        (gravity_scale, p.gravity_scale),
    ] {
        guess(c, v, g);
    }
}

fn code_body_state<C: Coder>(c: &mut C, s: &mut BodyState, p: &BodyState, _: u32) {
    let BodyState {
        linear_velocity,
        angular_velocity,
        flags,
        delta_position,
        delta_rotation,
    } = s;
    linear_velocity.code(c);
    angular_velocity.code(c);
    guess(c, flags, p.flags);
    guess(c, delta_position, p.delta_position);
    guess(c, delta_rotation, p.delta_rotation);
}

/// A contact's two shape ids: the first against the previous contact's,
/// the second by the previous contact's difference between the two.
fn code_shape_pair<C: Coder>(c: &mut C, a: &mut u32, b: &mut u32, (pa, pb): (u32, u32)) {
    delta(c, a, pa);
    delta(c, b, a.wrapping_add(pb.wrapping_sub(pa)));
}

fn code_contact<C: Coder>(c: &mut C, ct: &mut Contact, p: &Contact, i: u32) {
    let Contact {
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
    } = ct;
    delta(c, contact_id, i);
    guess(c, generation, p.generation);
    guess(c, flags, p.flags);
    guess(c, set_index, p.set_index);
    delta(c, color_index, p.color_index);
    delta(c, local_index, p.local_index.wrapping_add(1));
    code_shape_pair(c, shape_id_a, shape_id_b, (p.shape_id_a, p.shape_id_b));
    let shapes = [*shape_id_a, *shape_id_b];
    let prev_shapes = [p.shape_id_a, p.shape_id_b];
    for (k, edge) in edges.iter_mut().enumerate() {
        let ContactEdge {
            body_id,
            prev_key,
            next_key,
        } = edge;
        // Guessed from the previous row's shape-to-body offset (reading the
        // shape itself would be a cache miss per contact).
        let offset = p.edges[k].body_id.wrapping_sub(prev_shapes[k]);
        delta(c, body_id, shapes[k].wrapping_add(offset));
        let key = (i << 1) | k as u32;
        delta(c, prev_key, key);
        delta(c, next_key, key);
    }
    guess(c, island_id, p.island_id);
    delta(c, island_prev, i);
    delta(c, island_next, i);
}

fn code_point<C: Coder>(c: &mut C, mp: &mut ManifoldPoint, p: &ManifoldPoint) {
    let ManifoldPoint {
        point,
        anchor_a,
        anchor_b,
        separation,
        normal_impulse,
        tangent_impulse,
        total_normal_impulse,
        normal_velocity,
        id,
        persisted,
    } = mp;
    anchor_a.code(c);
    anchor_b.code(c);
    point.code(c);
    separation.code(c);
    normal_impulse.code(c);
    tangent_impulse.code(c);
    guess(c, total_normal_impulse, *normal_impulse);
    normal_velocity.code(c);
    guess(c, id, p.id);
    persisted.code(c);
}

fn code_manifold<C: Coder>(c: &mut C, m: &mut Manifold, p: &Manifold) {
    let Manifold {
        normal,
        rolling_impulse,
        points,
        point_count,
    } = m;
    guess(c, point_count, p.point_count);
    guess(c, rolling_impulse, 0.0);
    guess(c, normal, p.normal);
    for (k, (mp, pp)) in points.iter_mut().zip(&p.points).enumerate() {
        if k < *point_count {
            code_point(c, mp, pp);
        } else {
            guess(c, mp, ManifoldPoint::default());
        }
    }
}

fn code_contact_sim<C: Coder>(c: &mut C, s: &mut ContactSim, p: &ContactSim) {
    let ContactSim {
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
    } = s;
    delta(c, contact_id, p.contact_id.wrapping_add(1));
    // (Guessing the shapes from the contact's row would be a cache miss per
    // contact: the sims are in colour order, the rows in id order.)
    code_shape_pair(c, shape_id_a, shape_id_b, (p.shape_id_a, p.shape_id_b));
    delta(c, body_sim_index_a, p.body_sim_index_a);
    delta(c, body_sim_index_b, p.body_sim_index_b);
    guess(c, sim_flags, p.sim_flags);
    guess(c, cache, p.cache);
    for (v, g) in [
        (inv_mass_a, p.inv_mass_a),
        (inv_i_a, p.inv_i_a),
        (inv_mass_b, p.inv_mass_b),
        (inv_i_b, p.inv_i_b),
        (friction, p.friction),
        (restitution, p.restitution),
        (rolling_resistance, p.rolling_resistance),
        (tangent_speed, p.tangent_speed),
    ] {
        guess(c, v, g);
    }
    code_manifold(c, manifold, &p.manifold);
    if *sim_flags & sim_flags::RECYCLE_VALID != 0 {
        cached_rotation_a.code(c);
        cached_rotation_b.code(c);
        cached_relative.p.code(c);
        // as `collide_one` forms it from the same two rotations
        let turn = cached_rotation_a.inv_mul(*cached_rotation_b);
        guess(c, &mut cached_relative.q, turn);
    } else {
        guess(c, cached_rotation_a, p.cached_rotation_a);
        guess(c, cached_rotation_b, p.cached_rotation_b);
        guess(c, cached_relative, p.cached_relative);
    }
    for (b, mp) in base_separation.iter_mut().zip(&manifold.points) {
        guess(c, b, mp.separation);
    }
}

fn code_island<C: Coder>(c: &mut C, island: &mut Island, p: &Island, i: u32) {
    let Island {
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
    } = island;
    delta(c, island_id, i);
    guess(c, set_index, p.set_index);
    delta(c, local_index, p.local_index.wrapping_add(1));
    for v in [
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
    ] {
        v.code(c);
    }
}

fn code_id_pool<C: Coder>(c: &mut C, pool: &mut IdPool) {
    let IdPool { free, next } = pool;
    next.code(c);
    elements(c, free, &0, |c, v, p, _| delta(c, v, *p));
}

/// A solver set's bodies, islands and joints (its contacts come later, once
/// the contact rows are in).
fn code_set_bodies<C: Coder>(c: &mut C, set: &mut SolverSet) {
    let SolverSet {
        body_sims,
        body_states,
        contact_sims: _, // see `code_world`
        island_sims,
        joint_sims,
        in_use,
    } = set;
    in_use.code(c);
    elements(c, body_sims, &BLANK_BODY_SIM, code_body_sim);
    elements(c, body_states, &BodyState::IDENTITY, code_body_state);
    let blank = IslandSim {
        island_id: NULL_INDEX,
    };
    elements(c, island_sims, &blank, |c, s, p, _| {
        delta(c, &mut s.island_id, p.island_id.wrapping_add(1));
    });
    c.joint_sims(joint_sims);
}

/// The box and fat box of each shape on a moving body (after the trees:
/// the fat box is guessed from the proxy's). Static shapes' boxes change
/// only with the static tree (a structural edit).
fn code_shape_bounds<C: Coder>(
    c: &mut C,
    shapes: &mut [Shape],
    bodies: &[Body],
    solver_sets: &[SolverSet],
    trees: &[DynamicTree],
) {
    for shape in shapes {
        let Some(body) = bodies.get(shape.body_id as usize) else {
            continue;
        };
        if body.body_type == BodyType::Static {
            continue;
        }
        let xf = solver_sets
            .get(body.set_index as usize)
            .and_then(|s| s.body_sims.get(body.local_index as usize))
            .map_or(WorldTransform::IDENTITY, |s| s.transform);
        guess(c, &mut shape.aabb, speculative_aabb(&shape.geometry, xf));
        // the proxy's box in its tree
        let leaf = shape.proxy_key.and_then(|key| {
            let tree = trees.get(key.body_type() as usize)?;
            let link = tree.proxies.get(key.proxy_id().index() as usize)?.link;
            let node = tree.nodes.get(link.parent as usize)?;
            Some(node.children.get(usize::from(link.slot))?.aabb)
        });
        let fat = leaf.unwrap_or_else(|| shape.aabb.fattened(shape.aabb_margin));
        guess(c, &mut shape.fat_aabb, fat);
        shape.enlarged_aabb.code(c);
    }
}

fn code_link<C: Coder>(c: &mut C, l: &mut Link, p: &Link) {
    let Link {
        parent,
        slot,
        allocated,
    } = l;
    delta(c, parent, p.parent);
    guess(c, slot, 1 - p.slot.min(1));
    guess(c, allocated, p.allocated);
}

fn code_proxy<C: Coder>(c: &mut C, x: &mut Proxy, p: &Proxy) {
    let Proxy {
        category_bits,
        user_data,
        link,
        generation,
    } = x;
    guess(c, category_bits, p.category_bits);
    guess(c, user_data, p.user_data.wrapping_add(1));
    code_link(c, link, &p.link);
    guess(c, generation, p.generation);
}

/// A node's child slot. `later` are the nodes after this one (already
/// coded: nodes go last to first), starting at node index `first_later`.
fn code_child<C: Coder>(
    c: &mut C,
    ch: &mut Child,
    p: &Child,
    proxies: &[Proxy],
    later: &[Node],
    first_later: usize,
) {
    let Child {
        aabb,
        word,
        aux,
        user_data,
    } = ch;
    let (mut flags, mut index) = (*word & !TREE_INDEX, *word & TREE_INDEX);
    guess(c, &mut flags, p.word & !TREE_INDEX);
    delta(c, &mut index, p.word & TREE_INDEX);
    if C::UNPACKS {
        *word = flags | index;
    }
    if flags & TREE_LEAF != 0 {
        let proxy = proxies.get(index as usize).unwrap_or(&BLANK_PROXY);
        guess(c, aux, proxy.generation);
        guess(c, user_data, proxy.user_data);
        // (the shape's fat box, which `code_shape_bounds` guesses from this)
        aabb.code(c);
    } else {
        delta(c, aux, p.aux);
        guess(c, user_data, 0);
        // A node's box is the union of its children's, unless a proxy was
        // enlarged under it since the last rebuild.
        let union = (index as usize)
            .checked_sub(first_later)
            .and_then(|j| later.get(j))
            .map_or(p.aabb, |n| n.children[0].aabb.union(&n.children[1].aabb));
        guess(c, aabb, union);
    }
}

fn code_tree<C: Coder>(c: &mut C, t: &mut DynamicTree) {
    let DynamicTree {
        nodes,
        node_links,
        node_free,
        node_count,
        proxies,
        proxy_free,
        proxy_count,
        scratch: _, // rewritten before it is read
    } = t;
    for v in [node_free, node_count, proxy_free, proxy_count] {
        v.code(c);
    }
    elements(c, proxies, &BLANK_PROXY, |c, x, p, _| code_proxy(c, x, p));
    elements(c, node_links, &BLANK_LINK, |c, l, p, _| code_link(c, l, p));
    // Nodes last to first: a rebuild lays them out depth first, so a node's
    // children are usually coded before it and its boxes can be guessed.
    let mut n = nodes.len() as u32;
    c.varint(&mut n);
    if C::UNPACKS {
        nodes.resize(n as usize, BLANK_NODE);
    }
    for i in (0..nodes.len()).rev() {
        let (head, later) = nodes.split_at_mut(i + 1);
        let prev = later.first().unwrap_or(&BLANK_NODE);
        for (ch, pc) in head[i].children.iter_mut().zip(&prev.children) {
            code_child(c, ch, pc, proxies, later, i + 1);
        }
    }
}

fn code_graph_color<C: Coder>(c: &mut C, color: &mut GraphColor, blank: &ContactSim) {
    let GraphColor {
        body_set,
        contact_sims,
        joint_sims,
    } = color;
    elements(c, &mut body_set.words, &0, |c, w, _, _| w.code(c));
    elements(c, contact_sims, blank, |c, s, p, _| {
        code_contact_sim(c, s, p);
    });
    c.joint_sims(joint_sims);
}

/// Every store a [`RollbackState`] packs, in order, for both directions;
/// each guess uses only what was coded before it. After unpacking, the pair
/// set is rebuilt from the contacts.
fn code_world<C: Coder>(c: &mut C, world: &mut World) {
    let World {
        world_number: _,
        settings: _, // kept whole
        bodies,
        body_ids: _,  // structural
        shapes,       // only the bounds
        shape_ids: _, // structural
        chains: _,    // structural
        chain_ids: _, // structural
        contacts,
        contact_ids,
        islands,
        island_ids,
        solver_sets,
        solver_set_ids,
        graph,
        broad_phase,
        pair_set,
        split_island_id,
        step_index,
        scratch: _, // rewritten before it is read
        profile: _, // timings
        use_wide_solver,
        mixing: _,    // callbacks: not data
        events: _,    // kept whole
        callbacks: _, // callbacks: not data
        joints: _,    // kept whole
        workers: _,   // threads: not data
        simd: _,      // same bits on every path
        structure: _,
        recorder: _,
        tiles_seen: _, // derived from the static shapes
    } = world;
    step_index.code(c);
    split_island_id.code(c);
    use_wide_solver.code(c);
    elements(c, bodies, &Body::default(), code_body);
    code_id_pool(c, contact_ids);
    code_id_pool(c, island_ids);
    code_id_pool(c, solver_set_ids);

    let mut set_count = solver_sets.len() as u32;
    c.varint(&mut set_count);
    if C::UNPACKS {
        solver_sets.resize_with(set_count as usize, SolverSet::default);
    }
    for set in solver_sets.iter_mut() {
        code_set_bodies(c, set);
    }
    for t in MOVING_TREES {
        code_tree(c, &mut broad_phase.trees[t as usize]);
    }
    code_shape_bounds(c, shapes, bodies, solver_sets, &broad_phase.trees);
    elements(c, contacts, &Contact::default(), code_contact);
    let blank = blank_contact_sim();
    for set in solver_sets.iter_mut() {
        elements(c, &mut set.contact_sims, &blank, |c, s, p, _| {
            code_contact_sim(c, s, p);
        });
    }
    for color in &mut graph.colors {
        code_graph_color(c, color, &blank);
    }
    elements(c, islands, &Island::default(), code_island);
    elements(c, &mut broad_phase.move_buffer, &None, |c, m, p, _| {
        let mut moved = m.is_some();
        moved.code(c);
        *m = moved.then(|| {
            let blank = ProxyKey {
                key: 0,
                generation: 0,
            };
            let (mut k, p) = (m.unwrap_or(blank), p.unwrap_or(blank));
            delta(c, &mut k.key, p.key);
            guess(c, &mut k.generation, p.generation);
            k
        });
    });
    for slots in &mut broad_phase.move_slots {
        elements(c, slots, &NULL_INDEX, |c, v, p, _| guess(c, v, *p));
    }
    if C::UNPACKS {
        pair_set.clear();
        for ct in contacts.iter().filter(|ct| ct.contact_id != NULL_INDEX) {
            pair_set.insert(pair_key(ct.shape_id_a, ct.shape_id_b));
        }
    }
}

/// What a step can change in a world whose set of objects stays the same
/// (body rows, solver sets, contacts, islands, graph colours, the moving
/// broad-phase trees, joints, events and settings), packed compactly and
/// exactly, for rollback: [`World::save_rollback`] fills it,
/// [`World::load_rollback`] puts it back. Reuse one value: after the first
/// save its buffers are large enough, and saving or loading allocates
/// nothing while the world keeps its size.
///
/// It is private to the world it was saved from, not a file format; for
/// bytes to store or send use a [`Snapshot`](crate::Snapshot).
///
/// ```
/// # use impulse2d::{BodyDef, BodyType, RollbackState, ShapeDef, Vec2, World, WorldDef};
/// # use impulse2d::collision::make_box;
/// # fn main() -> impulse2d::Result<()> {
/// let mut world = World::new(&WorldDef::default())?;
/// let ground = world.create_body(&BodyDef::default())?;
/// world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 0.5)?)?;
/// let ball = world.create_body(&BodyDef {
///     body_type: BodyType::Dynamic,
///     position: Vec2::new(0.0, 4.0),
///     ..BodyDef::default()
/// })?;
/// world.create_polygon_shape(ball, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
///
/// let mut state = RollbackState::new(); // reuse it: no allocation after the first save
/// world.save_rollback(&mut state);
/// for _ in 0..60 { world.step(1.0 / 60.0, 4)?; }  // the predicted frames
/// let predicted = world.state_hash();
///
/// world.load_rollback(&state)?;                    // a late input arrives: go back
/// world.body_mut(ball)?.apply_linear_impulse_to_center(Vec2::new(2.0, 0.0), true)?;
/// for _ in 0..60 { world.step(1.0 / 60.0, 4)?; }  // re-simulate with it
/// assert_ne!(world.state_hash(), predicted);
///
/// world.load_rollback(&state)?;                    // without it again: the same bits
/// for _ in 0..60 { world.step(1.0 / 60.0, 4)?; }
/// assert_eq!(world.state_hash(), predicted);
///
/// world.create_body(&BodyDef::default())?;         // the set of objects changed:
/// assert!(world.load_rollback(&state).is_err());   // refused, world untouched
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Default)]
pub struct RollbackState {
    /// `Some((world number, structure generation))` once saved.
    origin: Option<(u16, u64)>,
    step_index: u64,
    settings: WorldDef,
    /// The packed stores (`code_world`): bytes, and one bit per guess.
    bytes: Vec<u8>,
    bits: Vec<u64>,
    /// Every solver set's and colour's joint sims, in coding order.
    joint_sims: Vec<JointSim>,
    joints: JointStorage,
    events: Events,
}

impl RollbackState {
    /// An empty state (nothing saved yet; loading it is an error).
    pub fn new() -> RollbackState {
        RollbackState::default()
    }

    /// Whether a world has been saved into this state.
    pub fn is_saved(&self) -> bool {
        self.origin.is_some()
    }

    /// The step counter of the world when it was saved (0 before any save).
    pub fn step_index(&self) -> u64 {
        self.step_index
    }

    /// Bytes of world state held (the saved elements, not the spare capacity).
    pub fn byte_len(&self) -> usize {
        use std::mem::size_of_val;
        let e = &self.events;
        let events = size_of_val(&e.contact_begin[..])
            + size_of_val(&e.contact_end[..])
            + size_of_val(&e.contact_end_pending[..])
            + size_of_val(&e.contact_hit[..])
            + size_of_val(&e.sensor_begin[..])
            + size_of_val(&e.sensor_end[..])
            + size_of_val(&e.sensor_end_pending[..])
            + size_of_val(&e.body_moves[..])
            + size_of_val(&e.body_quarantines[..])
            + e.sensors
                .list
                .iter()
                .map(|s| size_of_val(&s.overlaps[..]) + size_of_val(&s.next[..]))
                .sum::<usize>();
        let j = &self.joints;
        let joints = size_of_val(&j.joints[..])
            + size_of_val(&j.ids.free[..])
            + size_of_val(&j.events[..])
            + size_of_val(&j.pending_events[..])
            + size_of_val(&j.detached[..])
            + size_of_val(&j.over_threshold[..]);
        std::mem::size_of::<Self>()
            + self.bytes.len()
            + size_of_val(&self.bits[..])
            + size_of_val(&self.joint_sims[..])
            + joints
            + events
    }
}

impl World {
    /// Advances the structure generation (a call changed the set of objects
    /// or something a [`RollbackState`] leaves out).
    pub(crate) fn note_structure_change(&mut self) {
        self.structure = self.structure.wrapping_add(1);
    }

    /// The structure generation: it changes whenever the set of objects or
    /// anything a [`RollbackState`] leaves out changes (see
    /// [`World::load_rollback`]).
    pub fn structure_generation(&self) -> u64 {
        self.structure.wrapping_add(
            self.broad_phase
                .static_edits
                .wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }

    /// Saves what the next steps can change into `state`, reusing its
    /// buffers (no allocation once they are large enough). Call between
    /// steps; [`World::load_rollback`] puts it back.
    ///
    /// It takes `&mut self` because one description of the stores
    /// (`code_world`) runs for both the save and the load; saving changes
    /// nothing in the world.
    pub fn save_rollback(&mut self, state: &mut RollbackState) {
        state.origin = Some((self.world_number, self.structure_generation()));
        state.step_index = self.step_index;
        state.settings = self.settings;
        let mut packer = Packer::new(&mut state.bytes, &mut state.bits, &mut state.joint_sims);
        code_world(&mut packer, self);
        packer.finish();
        // Room for a somewhat larger state next time, so that saving stays
        // free of allocation while the world's state varies a little.
        state.bytes.reserve(state.bytes.len() / 4);
        state.bits.reserve(state.bits.len() / 4);
        state.joint_sims.reserve(state.joint_sims.len() / 4);
        state.joints.refill(&self.joints);
        state.events.refill(&self.events);
    }

    /// Puts the world back into the state saved in `state` by
    /// [`World::save_rollback`]: the following steps give the same bits,
    /// events and state hash as after the save, on any worker count. The
    /// world keeps its callbacks and worker count. No allocation once the
    /// world's buffers are large enough.
    ///
    /// # Errors
    /// [`Error::InvalidOperation`] and the world unchanged when `state` is
    /// empty, was saved from another world, or the world's structure has
    /// changed since (a body, shape, chain or joint created or destroyed, a
    /// body's type changed, disabled or enabled, a shape or chain edited, the
    /// static tree changed, a snapshot restored; see
    /// [`World::structure_generation`]).
    pub fn load_rollback(&mut self, state: &RollbackState) -> Result<()> {
        match state.origin {
            None => {
                return Err(Error::InvalidOperation(
                    "the rollback state holds nothing (save_rollback first)",
                ));
            }
            Some((number, _)) if number != self.world_number => {
                return Err(Error::InvalidOperation(
                    "the rollback state was saved from another world",
                ));
            }
            Some((_, generation)) if generation != self.structure_generation() => {
                return Err(Error::InvalidOperation(
                    "the world's objects changed since the rollback state was saved",
                ));
            }
            Some(_) => {}
        }
        self.settings = WorldDef {
            worker_count: self.settings.worker_count,
            simd: self.settings.simd,
            ..state.settings
        };
        let mut unpacker = Unpacker::new(&state.bytes, &state.bits, &state.joint_sims);
        code_world(&mut unpacker, self);
        debug_assert!(unpacker.at_end(), "rollback state not read to its end");
        self.joints.refill(&state.joints);
        self.events.refill(&state.events);
        self.record_change();
        Ok(())
    }
}
