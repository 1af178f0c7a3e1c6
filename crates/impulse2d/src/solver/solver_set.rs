//! Solver sets: where body, contact and island data live, by simulation state.
//!
//! Set 0 holds static bodies, set 1 disabled bodies (and non-touching contacts
//! between sleeping bodies), set 2 everything awake, and every set from 3 on
//! holds one sleeping island. The awake set is the only one with body states
//! (velocities); its touching contacts live in the constraint graph instead of
//! the set. Waking or sleeping an island moves its data between sets in one go,
//! so a sleeping island costs nothing per step.
//!
//! # References
//! - E. Catto, Box2D v3 `solver_set.c`.

use crate::body::{BodySim, BodyState, BodyType, flags};
use crate::contact::ContactSim;
use crate::id::NULL_INDEX;
use crate::solver::constraint_graph::OVERFLOW_INDEX;
use crate::solver::island::IslandSim;
use crate::world::World;

/// Static bodies.
pub(crate) const STATIC_SET: u32 = 0;
/// Disabled bodies and non-touching contacts between sleeping bodies.
pub(crate) const DISABLED_SET: u32 = 1;
/// Awake bodies, their non-touching contacts and awake islands.
pub(crate) const AWAKE_SET: u32 = 2;
/// The first sleeping island's set.
pub(crate) const FIRST_SLEEPING_SET: u32 = 3;

/// The data of one simulation state.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolverSet {
    pub body_sims: Vec<BodySim>,
    /// Only in the awake set, parallel to `body_sims`.
    pub body_states: Vec<BodyState>,
    /// Awake set: non-touching contacts. Sleeping sets: touching contacts.
    /// Disabled set: non-touching contacts between non-awake bodies.
    pub contact_sims: Vec<ContactSim>,
    pub island_sims: Vec<IslandSim>,
    /// Joints (never in the awake set: awake joints live in the graph).
    pub joint_sims: Vec<crate::joint::JointSim>,
    /// Whether the slot is in use (sleeping-set slots are recycled).
    pub in_use: bool,
}

impl World {
    /// Allocates an empty sleeping set and returns its index.
    pub(crate) fn create_sleeping_set(&mut self) -> u32 {
        let set_index = self.solver_set_ids.alloc();
        if set_index as usize == self.solver_sets.len() {
            self.solver_sets.push(SolverSet::default());
        }
        let set = &mut self.solver_sets[set_index as usize];
        debug_assert!(!set.in_use && set.body_sims.is_empty());
        set.in_use = true;
        set_index
    }

    /// Frees a sleeping set; its arrays keep their capacity for reuse.
    pub(crate) fn destroy_solver_set(&mut self, set_index: u32) {
        debug_assert!(set_index >= FIRST_SLEEPING_SET);
        let set = &mut self.solver_sets[set_index as usize];
        set.body_sims.clear();
        set.body_states.clear();
        set.contact_sims.clear();
        set.island_sims.clear();
        set.joint_sims.clear(); // joints
        set.in_use = false;
        self.solver_set_ids.free(set_index);
    }

    /// Wakes a sleeping set: its bodies, contacts and islands join the awake
    /// set and its touching contacts re-enter the constraint graph. Islands are
    /// not merged.
    pub(crate) fn wake_solver_set(&mut self, set_index: u32) {
        debug_assert!(set_index >= FIRST_SLEEPING_SET);
        let si = set_index as usize;
        let body_sims = std::mem::take(&mut self.solver_sets[si].body_sims);
        let contact_sims = std::mem::take(&mut self.solver_sets[si].contact_sims);
        let island_sims = std::mem::take(&mut self.solver_sets[si].island_sims);

        for sim in &body_sims {
            let bi = sim.body_id as usize;
            let awake = &mut self.solver_sets[AWAKE_SET as usize];
            let body = &mut self.bodies[bi];
            debug_assert_eq!(body.set_index, set_index);
            body.set_index = AWAKE_SET;
            body.local_index = awake.body_sims.len() as u32;
            body.sleep_time = 0.0;
            awake.body_sims.push(*sim);
            let mut state = BodyState::IDENTITY;
            state.flags = body.flags & flags::STATE;
            awake.body_states.push(state);

            // Non-touching contacts parked in the disabled set come back awake.
            let mut key = body.head_contact_key;
            while key != NULL_INDEX {
                let contact_id = key >> 1;
                let contact = self.contacts[contact_id as usize];
                key = contact.edges[(key & 1) as usize].next_key;
                if contact.set_index != DISABLED_SET {
                    debug_assert!(contact.set_index == AWAKE_SET || contact.set_index == set_index);
                    continue;
                }
                let local = contact.local_index as usize;
                let moved_sim = self.solver_sets[DISABLED_SET as usize].contact_sims[local];
                let awake = &mut self.solver_sets[AWAKE_SET as usize];
                let c = &mut self.contacts[contact_id as usize];
                c.set_index = AWAKE_SET;
                c.local_index = awake.contact_sims.len() as u32;
                awake.contact_sims.push(moved_sim);
                self.remove_contact_sim_from_set(DISABLED_SET, local as u32);
            }
        }

        for sim in &contact_sims {
            let contact_id = sim.contact_id;
            debug_assert_eq!(self.contacts[contact_id as usize].set_index, set_index);
            self.add_contact_to_graph(contact_id, *sim);
            self.contacts[contact_id as usize].set_index = AWAKE_SET;
        }

        for island_sim in &island_sims {
            let awake = &mut self.solver_sets[AWAKE_SET as usize];
            let island = &mut self.islands[island_sim.island_id as usize];
            island.set_index = AWAKE_SET;
            island.local_index = awake.island_sims.len() as u32;
            awake.island_sims.push(*island_sim);
        }

        self.wake_set_joints(si); // joints: into the graph

        // Give the (now empty) arrays back so their capacity is reused.
        let set = &mut self.solver_sets[si];
        set.body_sims = body_sims;
        set.contact_sims = contact_sims;
        set.island_sims = island_sims;
        self.destroy_solver_set(set_index);
    }

    /// Puts an awake island to sleep in a new solver set, unless it has
    /// removed constraints and may need splitting first.
    pub(crate) fn try_sleep_island(&mut self, island_id: u32) {
        let island = self.islands[island_id as usize];
        debug_assert_eq!(island.set_index, AWAKE_SET);
        if island.constraint_remove_count > 0 {
            return;
        }
        let sleep_set = self.create_sleeping_set();
        let ss = sleep_set as usize;
        let aw = AWAKE_SET as usize;

        // Bodies.
        let mut body_id = island.head_body;
        while body_id != NULL_INDEX {
            let bi = body_id as usize;
            let awake_index = self.bodies[bi].local_index;
            let sim = self.solver_sets[aw].body_sims[awake_index as usize];
            let sleep_index = self.solver_sets[ss].body_sims.len() as u32;
            self.solver_sets[ss].body_sims.push(sim);
            self.remove_body_sim(AWAKE_SET, awake_index);
            let body = &mut self.bodies[bi];
            body.set_index = sleep_set;
            body.local_index = sleep_index;

            // Non-touching contacts whose other body is not awake have no
            // owner any more: park them in the disabled set.
            let mut key = body.head_contact_key;
            while key != NULL_INDEX {
                let contact_id = key >> 1;
                let edge = (key & 1) as usize;
                let contact = self.contacts[contact_id as usize];
                key = contact.edges[edge].next_key;
                if contact.set_index == DISABLED_SET || contact.color_index != NULL_INDEX {
                    continue;
                }
                let other = contact.edges[edge ^ 1].body_id as usize;
                if self.bodies[other].set_index == AWAKE_SET {
                    continue;
                }
                debug_assert_eq!(contact.set_index, AWAKE_SET);
                let local = contact.local_index;
                let moved_sim = self.solver_sets[aw].contact_sims[local as usize];
                let disabled = &mut self.solver_sets[DISABLED_SET as usize];
                let c = &mut self.contacts[contact_id as usize];
                c.set_index = DISABLED_SET;
                c.local_index = disabled.contact_sims.len() as u32;
                disabled.contact_sims.push(moved_sim);
                self.remove_contact_sim_from_set(AWAKE_SET, local);
            }
            body_id = self.bodies[bi].island_next;
        }

        // Touching contacts leave the constraint graph.
        let mut contact_id = island.head_contact;
        while contact_id != NULL_INDEX {
            let contact = self.contacts[contact_id as usize];
            debug_assert_eq!(contact.set_index, AWAKE_SET);
            debug_assert_eq!(contact.island_id, island_id);
            let color = contact.color_index;
            let sim = self.graph.colors[color as usize].contact_sims[contact.local_index as usize];
            self.remove_contact_from_graph(
                contact.edges[0].body_id,
                contact.edges[1].body_id,
                color,
                contact.local_index,
            );
            let sleep_index = self.solver_sets[ss].contact_sims.len() as u32;
            self.solver_sets[ss].contact_sims.push(sim);
            let c = &mut self.contacts[contact_id as usize];
            c.set_index = sleep_set;
            c.color_index = NULL_INDEX;
            c.local_index = sleep_index;
            contact_id = c.island_next;
        }

        self.sleep_island_joints(island_id, sleep_set); // joints: out of the graph

        // The island itself.
        let local = island.local_index as usize;
        let awake_islands = &mut self.solver_sets[aw].island_sims;
        awake_islands.swap_remove(local);
        if local < awake_islands.len() {
            let moved = awake_islands[local].island_id as usize;
            self.islands[moved].local_index = local as u32;
        }
        self.solver_sets[ss]
            .island_sims
            .push(IslandSim { island_id });
        let island = &mut self.islands[island_id as usize];
        island.set_index = sleep_set;
        island.local_index = 0;
    }

    /// Moves a body's sim between two sets (no island or contact changes).
    pub(crate) fn transfer_body(&mut self, target: u32, source: u32, bi: usize) {
        if target == source {
            return;
        }
        let source_index = self.bodies[bi].local_index;
        let mut sim = self.solver_sets[source as usize].body_sims[source_index as usize];
        sim.flags &= !flags::TRANSIENT;
        let target_index = self.solver_sets[target as usize].body_sims.len() as u32;
        self.remove_body_sim(source, source_index);
        let target_set = &mut self.solver_sets[target as usize];
        target_set.body_sims.push(sim);
        if target == AWAKE_SET {
            let mut state = BodyState::IDENTITY;
            state.flags = self.bodies[bi].flags & flags::STATE;
            target_set.body_states.push(state);
        }
        let body = &mut self.bodies[bi];
        body.set_index = target;
        body.local_index = target_index;
        debug_assert!(target != STATIC_SET || body.body_type == BodyType::Static);
    }

    /// Number of graph colours holding at least one constraint (the overflow
    /// colour included).
    pub(crate) fn active_color_count(&self) -> usize {
        (0..=OVERFLOW_INDEX)
            .filter(|&i| !self.graph.colors[i].contact_sims.is_empty())
            .count()
    }
}
