//! The fast form of a [`RollbackState`](super::RollbackState): the stores a
//! step changes, copied whole into buffers the state reuses, so that a save
//! or a load in steady state allocates nothing and is a few `memcpy`s.

use super::rollback::{MOVING_TREES, Refill, refill_vec};
use crate::bitset::BitSet;
use crate::body::{Body, BodyType};
use crate::broad_phase::ProxyKey;
use crate::collision::DynamicTree;
use crate::contact::Contact;
use crate::id::IdPool;
use crate::pos::WorldAabb;
use crate::solver::constraint_graph::{ConstraintGraph, GraphColor};
use crate::solver::island::Island;
use crate::solver::solver_set::SolverSet;
use crate::world::{PairSet, World};

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

/// The part of a shape a step changes.
#[derive(Clone, Copy, Debug, Default)]
struct ShapeBounds {
    aabb: WorldAabb,
    fat_aabb: WorldAabb,
    enlarged_aabb: bool,
}

/// Copies of the stores a step changes (the settings, joints and events are
/// kept by the [`RollbackState`](super::RollbackState) for both forms).
#[derive(Debug, Default)]
pub(super) struct RawStores {
    use_wide_solver: bool,
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
    move_buffer: Vec<Option<ProxyKey>>,
    move_slots: [Vec<u32>; BodyType::COUNT],
    pair_set: PairSet,
}

impl RawStores {
    /// Copies `world`'s stores in (the settings, step counter, joints and
    /// events are the caller's).
    #[inline(never)] // (a call of its own: measured apart from the compact form)
    pub(super) fn save(&mut self, world: &World) {
        let World {
            world_number: _,
            settings: _,
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
            step_index: _,
            scratch: _, // rewritten before it is read
            profile: _, // timings
            use_wide_solver,
            mixing: _,    // callbacks: not data
            events: _,    // the caller's
            callbacks: _, // callbacks: not data
            joints: _,    // the caller's
            workers: _,   // threads: not data
            simd: _,      // same bits on every path
            structure: _,
            recorder: _,
            tiles_seen: _, // derived from the static shapes
        } = world;
        self.use_wide_solver = *use_wide_solver;
        self.split_island_id = *split_island_id;
        self.bodies.clone_from(bodies);
        self.shape_bounds.clear();
        self.shape_bounds.extend(shapes.iter().map(|s| ShapeBounds {
            aabb: s.aabb,
            fat_aabb: s.fat_aabb,
            enlarged_aabb: s.enlarged_aabb,
        }));
        self.contacts.clone_from(contacts);
        self.contact_ids.refill(contact_ids);
        self.islands.clone_from(islands);
        self.island_ids.refill(island_ids);
        refill_vec(&mut self.solver_sets, solver_sets);
        self.solver_set_ids.refill(solver_set_ids);
        self.graph.refill(graph);
        for (d, t) in self.trees.iter_mut().zip(MOVING_TREES) {
            d.refill(&broad_phase.trees[t as usize]);
        }
        self.move_buffer.clone_from(&broad_phase.move_buffer);
        for (d, s) in self.move_slots.iter_mut().zip(&broad_phase.move_slots) {
            d.clone_from(s);
        }
        self.pair_set.clone_from(pair_set);
    }

    /// Copies the stores back into `world` (of the same structure).
    #[inline(never)] // (a call of its own: measured apart from the compact form)
    pub(super) fn load(&self, world: &mut World) {
        debug_assert_eq!(self.shape_bounds.len(), world.shapes.len());
        let World {
            bodies,
            shapes,
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
            use_wide_solver,
            ..
        } = world;
        *use_wide_solver = self.use_wide_solver;
        *split_island_id = self.split_island_id;
        bodies.clone_from(&self.bodies);
        for (shape, b) in shapes.iter_mut().zip(&self.shape_bounds) {
            shape.aabb = b.aabb;
            shape.fat_aabb = b.fat_aabb;
            shape.enlarged_aabb = b.enlarged_aabb;
        }
        contacts.clone_from(&self.contacts);
        contact_ids.refill(&self.contact_ids);
        islands.clone_from(&self.islands);
        island_ids.refill(&self.island_ids);
        refill_vec(solver_sets, &self.solver_sets);
        solver_set_ids.refill(&self.solver_set_ids);
        graph.refill(&self.graph);
        for (s, t) in self.trees.iter().zip(MOVING_TREES) {
            broad_phase.trees[t as usize].refill(s);
        }
        broad_phase.move_buffer.clone_from(&self.move_buffer);
        for (d, s) in broad_phase.move_slots.iter_mut().zip(&self.move_slots) {
            d.clone_from(s);
        }
        pair_set.clone_from(&self.pair_set);
    }

    /// Bytes of world state held (the elements, not the spare capacity).
    pub(super) fn byte_len(&self) -> usize {
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
    }
}
