//! Compact, exact rollback for a world whose set of objects stays the same.
//!
//! A [`RollbackState`] keeps what a step (or a call on a body or joint view)
//! can change, copied store by store into buffers it reuses, so that a save
//! or load in steady state allocates nothing and costs a few `memcpy`s:
//!
//! - the body rows (contact and island links, sleep timers, flags) and every
//!   solver set (body sims and states, contact, island and joint sims);
//! - the contacts with their id pool, the islands with theirs, the solver
//!   sets' id pool and the split candidate;
//! - the constraint graph's colours (body bit sets, contact and joint sims);
//! - per shape only its bounding boxes and "enlarged" flag;
//! - the kinematic and dynamic broad-phase trees, the move buffer and the
//!   pair set;
//! - the joints (their rows hold the warm-start impulses), the event
//!   buffers and sensor overlaps, the settings and the step counter.
//!
//! What it leaves out is what only a structural call changes: the shapes'
//! geometry and materials, the chains, the static tree, and the body, shape
//! and chain id pools. So every call that changes those — creating or
//! destroying a body, shape, chain or joint, changing a body's type,
//! disabling or enabling it, taking a [`ShapeMut`](crate::ShapeMut) or
//! [`ChainMut`](crate::ChainMut), editing the static tree (a static body
//! moved, [`World::rebuild_static_tree`]), [`World::restore`] — advances the
//! world's structure generation, and [`World::load_rollback`] refuses a
//! state saved under another generation. Use a [`Snapshot`](crate::Snapshot)
//! across such calls.

use crate::bitset::BitSet;
use crate::body::{Body, BodyType};
use crate::collision::{Aabb, DynamicTree};
use crate::contact::Contact;
use crate::error::{Error, Result};
use crate::events::Events;
use crate::id::IdPool;
use crate::joint::JointStorage;
use crate::sensor::{Sensor, Sensors};
use crate::solver::constraint_graph::{ConstraintGraph, GraphColor};
use crate::solver::island::Island;
use crate::solver::solver_set::SolverSet;
use crate::world::{PairSet, World, WorldDef};

/// Copies `src` into `self`, reusing `self`'s buffers (no allocation when
/// they are large enough).
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

impl Refill for BitSet {
    fn refill(&mut self, src: &Self) {
        let BitSet { words } = src;
        self.words.clone_from(words);
    }
}

impl Refill for SolverSet {
    fn refill(&mut self, src: &Self) {
        let SolverSet {
            body_sims,
            body_states,
            contact_sims,
            island_sims,
            joint_sims,
            in_use,
        } = src;
        self.body_sims.clone_from(body_sims);
        self.body_states.clone_from(body_states);
        self.contact_sims.clone_from(contact_sims);
        self.island_sims.clone_from(island_sims);
        self.joint_sims.clone_from(joint_sims);
        self.in_use = *in_use;
    }
}

impl Refill for GraphColor {
    fn refill(&mut self, src: &Self) {
        let GraphColor {
            body_set,
            contact_sims,
            joint_sims,
        } = src;
        self.body_set.refill(body_set);
        self.contact_sims.clone_from(contact_sims);
        self.joint_sims.clone_from(joint_sims);
    }
}

impl Refill for ConstraintGraph {
    fn refill(&mut self, src: &Self) {
        let ConstraintGraph { colors } = src;
        for (d, s) in self.colors.iter_mut().zip(colors) {
            d.refill(s);
        }
    }
}

impl Refill for DynamicTree {
    fn refill(&mut self, src: &Self) {
        let DynamicTree {
            nodes,
            node_links,
            node_free,
            node_count,
            proxies,
            proxy_free,
            proxy_count,
            scratch: _, // rewritten before it is read
        } = src;
        self.nodes.clone_from(nodes);
        self.node_links.clone_from(node_links);
        self.node_free = *node_free;
        self.node_count = *node_count;
        self.proxies.clone_from(proxies);
        self.proxy_free = *proxy_free;
        self.proxy_count = *proxy_count;
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
            slot_of_shape,
        } = src;
        refill_vec(&mut self.list, list);
        self.slot_of_shape.clone_from(slot_of_shape);
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

/// The part of a shape a step changes.
#[derive(Clone, Copy, Debug, Default)]
struct ShapeBounds {
    aabb: Aabb,
    fat_aabb: Aabb,
    enlarged_aabb: bool,
}

/// The broad-phase trees a step changes (the static tree is left out).
const MOVING_TREES: [BodyType; 2] = [BodyType::Kinematic, BodyType::Dynamic];

/// What a step can change in a world whose set of objects stays the same
/// (body rows, solver sets, contacts, islands, graph colours, the moving
/// broad-phase trees, joints, events and settings), for exact rollback:
/// [`World::save_rollback`] fills it, [`World::load_rollback`] puts it back.
/// Reuse one value: after the first save its buffers are large enough, and
/// saving or loading allocates nothing while the world keeps its size.
///
/// It is a memory image for the same world, not a file format; for bytes to
/// store or send use a [`Snapshot`](crate::Snapshot).
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
    settings: WorldDef,
    use_wide_solver: bool,
    step_index: u64,
    split_island_id: u32,
    bodies: Vec<Body>,
    shape_bounds: Vec<ShapeBounds>,
    contacts: Vec<Contact>,
    contact_ids: IdPool,
    islands: Vec<Island>,
    island_ids: IdPool,
    solver_sets: Vec<SolverSet>,
    solver_set_ids: IdPool,
    graph: ConstraintGraph,
    trees: [DynamicTree; 2],
    move_buffer: Vec<Option<crate::broad_phase::ProxyKey>>,
    move_slots: [Vec<u32>; BodyType::COUNT],
    pair_set: PairSet,
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
        let sets: usize = self
            .solver_sets
            .iter()
            .map(|s| {
                size_of_val(&s.body_sims[..])
                    + size_of_val(&s.body_states[..])
                    + size_of_val(&s.contact_sims[..])
                    + size_of_val(&s.island_sims[..])
                    + size_of_val(&s.joint_sims[..])
            })
            .sum();
        let colors: usize = self
            .graph
            .colors
            .iter()
            .map(|c| {
                size_of_val(&c.body_set.words[..])
                    + size_of_val(&c.contact_sims[..])
                    + size_of_val(&c.joint_sims[..])
            })
            .sum();
        let trees: usize = self
            .trees
            .iter()
            .map(|t| {
                size_of_val(&t.nodes[..])
                    + size_of_val(&t.node_links[..])
                    + size_of_val(&t.proxies[..])
            })
            .sum();
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
                .sum::<usize>()
            + size_of_val(&e.sensors.slot_of_shape[..]);
        let j = &self.joints;
        let joints = size_of_val(&j.joints[..])
            + size_of_val(&j.ids.free[..])
            + size_of_val(&j.events[..])
            + size_of_val(&j.pending_events[..])
            + size_of_val(&j.detached[..])
            + size_of_val(&j.over_threshold[..]);
        let bodies: usize = self
            .bodies
            .iter()
            .map(|b| std::mem::size_of::<Body>() + b.name.len())
            .sum();
        std::mem::size_of::<Self>()
            + bodies
            + size_of_val(&self.shape_bounds[..])
            + size_of_val(&self.contacts[..])
            + size_of_val(&self.contact_ids.free[..])
            + size_of_val(&self.islands[..])
            + size_of_val(&self.island_ids.free[..])
            + size_of_val(&self.solver_set_ids.free[..])
            + sets
            + colors
            + trees
            + size_of_val(&self.move_buffer[..])
            + self
                .move_slots
                .iter()
                .map(|s| size_of_val(&s[..]))
                .sum::<usize>()
            + self.pair_set.len() * std::mem::size_of::<u64>()
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
    pub fn save_rollback(&self, state: &mut RollbackState) {
        let World {
            world_number,
            settings,
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
            mixing: _, // callbacks: not data
            events,
            callbacks: _, // callbacks: not data
            joints,
            workers: _, // threads: not data
            simd: _,    // same bits on every path
            structure: _,
            recorder: _,
            tiles_seen: _, // derived from the static shapes
        } = self;
        state.origin = Some((*world_number, self.structure_generation()));
        state.settings = *settings;
        state.use_wide_solver = *use_wide_solver;
        state.step_index = *step_index;
        state.split_island_id = *split_island_id;
        state.bodies.clone_from(bodies);
        state.shape_bounds.clear();
        state
            .shape_bounds
            .extend(shapes.iter().map(|s| ShapeBounds {
                aabb: s.aabb,
                fat_aabb: s.fat_aabb,
                enlarged_aabb: s.enlarged_aabb,
            }));
        state.contacts.clone_from(contacts);
        state.contact_ids.refill(contact_ids);
        state.islands.clone_from(islands);
        state.island_ids.refill(island_ids);
        refill_vec(&mut state.solver_sets, solver_sets);
        state.solver_set_ids.refill(solver_set_ids);
        state.graph.refill(graph);
        for (d, t) in state.trees.iter_mut().zip(MOVING_TREES) {
            d.refill(&broad_phase.trees[t as usize]);
        }
        state.move_buffer.clone_from(&broad_phase.move_buffer);
        for (d, s) in state.move_slots.iter_mut().zip(&broad_phase.move_slots) {
            d.clone_from(s);
        }
        state.pair_set.clone_from(pair_set);
        state.joints.refill(joints);
        state.events.refill(events);
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
        debug_assert_eq!(state.shape_bounds.len(), self.shapes.len());
        let World {
            world_number: _,
            settings,
            bodies,
            body_ids: _,
            shapes,
            shape_ids: _,
            chains: _,
            chain_ids: _,
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
            scratch: _,
            profile: _,
            use_wide_solver,
            mixing: _,
            events,
            callbacks: _,
            joints,
            workers: _,
            simd: _,
            structure: _,
            recorder: _,
            tiles_seen: _, // derived from the static shapes
        } = self;
        *settings = WorldDef {
            worker_count: settings.worker_count,
            simd: settings.simd,
            ..state.settings
        };
        *use_wide_solver = state.use_wide_solver;
        *step_index = state.step_index;
        *split_island_id = state.split_island_id;
        bodies.clone_from(&state.bodies);
        for (shape, b) in shapes.iter_mut().zip(&state.shape_bounds) {
            shape.aabb = b.aabb;
            shape.fat_aabb = b.fat_aabb;
            shape.enlarged_aabb = b.enlarged_aabb;
        }
        contacts.clone_from(&state.contacts);
        contact_ids.refill(&state.contact_ids);
        islands.clone_from(&state.islands);
        island_ids.refill(&state.island_ids);
        refill_vec(solver_sets, &state.solver_sets);
        solver_set_ids.refill(&state.solver_set_ids);
        graph.refill(&state.graph);
        for (s, t) in state.trees.iter().zip(MOVING_TREES) {
            broad_phase.trees[t as usize].refill(s);
        }
        broad_phase.move_buffer.clone_from(&state.move_buffer);
        for (d, s) in broad_phase.move_slots.iter_mut().zip(&state.move_slots) {
            d.clone_from(s);
        }
        pair_set.clone_from(&state.pair_set);
        joints.refill(&state.joints);
        events.refill(&state.events);
        self.record_change();
        Ok(())
    }
}
