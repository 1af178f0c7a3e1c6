//! The constraint graph: awake touching contacts sorted into colours so that
//! no two constraints of one colour share a dynamic body.
//!
//! Constraints of one colour can be solved in any order, in parallel or in SIMD
//! lanes, with the same result. Colouring is greedy: a new constraint takes the
//! first colour whose body bit set holds neither of its dynamic bodies.
//! Dynamic-vs-dynamic constraints search the low colours
//! `0..DYNAMIC_COLOR_COUNT`; constraints against a static (or kinematic) body
//! search from the top colour down and only mark their dynamic body. Since
//! colours are solved in increasing order and Gauss–Seidel favours whatever is
//! solved last, contacts against the ground get the last word in each
//! iteration, which keeps stacks from being pushed into it. Constraints that
//! find no colour go to the overflow colour, solved first and serially.
//!
//! # References
//! - E. Catto, Box2D v3 `constraint_graph.c`.
//! - M. Smelyanskiy et al., *High-Performance Physical Simulations on
//!   Next-Generation Architecture with Many Cores* (2007).

use crate::bitset::BitSet;
use crate::body::BodyType;
use crate::contact::{ContactSim, sim_flags};
use crate::id::NULL_INDEX;
use crate::solver::solver_set::AWAKE_SET;
use crate::world::World;

/// Number of colours including the overflow colour.
pub(crate) const GRAPH_COLOR_COUNT: usize = 24;
/// The last colour holds constraints that fit no other.
pub(crate) const OVERFLOW_INDEX: usize = GRAPH_COLOR_COUNT - 1;
/// Colours available to constraints between two dynamic bodies.
pub(crate) const DYNAMIC_COLOR_COUNT: usize = GRAPH_COLOR_COUNT - 4;

/// One colour: its constraints and the bodies they use.
#[derive(Clone, Debug, Default)]
pub(crate) struct GraphColor {
    /// Bodies (by id) used by a constraint of this colour. Unused for overflow.
    pub body_set: BitSet,
    pub contact_sims: Vec<ContactSim>,
    /// Awake joints of this colour (see `joint/`).
    pub joint_sims: Vec<crate::joint::JointSim>,
}

/// All colours.
#[derive(Clone, Debug)]
pub(crate) struct ConstraintGraph {
    pub colors: [GraphColor; GRAPH_COLOR_COUNT],
}

impl Default for ConstraintGraph {
    fn default() -> Self {
        ConstraintGraph {
            colors: std::array::from_fn(|_| GraphColor::default()),
        }
    }
}

impl ConstraintGraph {
    /// Picks a colour for a constraint between two bodies and marks them.
    pub(crate) fn assign_color(
        &mut self,
        body_a: u32,
        type_a: BodyType,
        body_b: u32,
        type_b: BodyType,
    ) -> usize {
        let dyn_a = type_a == BodyType::Dynamic;
        let dyn_b = type_b == BodyType::Dynamic;
        debug_assert!(dyn_a || dyn_b);
        if dyn_a && dyn_b {
            for (i, color) in self.colors[..DYNAMIC_COLOR_COUNT].iter_mut().enumerate() {
                if color.body_set.get(body_a) || color.body_set.get(body_b) {
                    continue;
                }
                color.body_set.set_grow(body_a);
                color.body_set.set_grow(body_b);
                return i;
            }
        } else {
            let body = if dyn_a { body_a } else { body_b };
            for i in (1..OVERFLOW_INDEX).rev() {
                let color = &mut self.colors[i];
                if color.body_set.get(body) {
                    continue;
                }
                color.body_set.set_grow(body);
                return i;
            }
        }
        OVERFLOW_INDEX
    }
}

impl World {
    /// Adds a touching contact to the graph. Both bodies must be awake or static.
    pub(crate) fn add_contact_to_graph(&mut self, contact_id: u32, mut sim: ContactSim) {
        let contact = &self.contacts[contact_id as usize];
        debug_assert!(sim.manifold.point_count > 0);
        let body_a = contact.edges[0].body_id;
        let body_b = contact.edges[1].body_id;
        let type_a = self.bodies[body_a as usize].body_type;
        let type_b = self.bodies[body_b as usize].body_type;
        let color = self.graph.assign_color(body_a, type_a, body_b, type_b);

        for (body, is_a) in [(body_a, true), (body_b, false)] {
            let b = &self.bodies[body as usize];
            let (index, inv_mass, inv_i) = if b.body_type == BodyType::Static {
                (NULL_INDEX, 0.0, 0.0)
            } else {
                debug_assert_eq!(b.set_index, AWAKE_SET);
                let s = &self.solver_sets[AWAKE_SET as usize].body_sims[b.local_index as usize];
                (b.local_index, s.inv_mass, s.inv_inertia)
            };
            if is_a {
                sim.body_sim_index_a = index;
                sim.inv_mass_a = inv_mass;
                sim.inv_i_a = inv_i;
            } else {
                sim.body_sim_index_b = index;
                sim.inv_mass_b = inv_mass;
                sim.inv_i_b = inv_i;
            }
        }

        // events: a woken contact may still carry a hit-event flag
        self.scratch.hit_events_possible |= sim.sim_flags & sim_flags::ENABLE_HIT_EVENT != 0;
        let sims = &mut self.graph.colors[color].contact_sims;
        let c = &mut self.contacts[contact_id as usize];
        c.color_index = color as u32;
        c.local_index = sims.len() as u32;
        sims.push(sim);
    }

    /// Removes a contact from its colour by swap removal.
    pub(crate) fn remove_contact_from_graph(
        &mut self,
        body_a: u32,
        body_b: u32,
        color_index: u32,
        local_index: u32,
    ) {
        let color = &mut self.graph.colors[color_index as usize];
        if color_index as usize != OVERFLOW_INDEX {
            // May clear a static body's bit, which is never set: no effect.
            color.body_set.clear(body_a);
            color.body_set.clear(body_b);
        }
        let li = local_index as usize;
        color.contact_sims.swap_remove(li);
        if li < color.contact_sims.len() {
            let moved = color.contact_sims[li].contact_id as usize;
            self.contacts[moved].local_index = local_index;
        }
    }
}
