//! The world's joint bookkeeping: where a joint lives and what it links.
//!
//! The joint types in `joint/` hold data and solve code only; this file does
//! what needs the whole world: checking joint ids, creating and destroying
//! joints, the bodies' joint lists, the solver set or graph colour holding a
//! joint's sim, the island it joins, the contacts it forbids, and the joint
//! events of a step.
//!
//! A joint is *attached* (placed in the right container and linked into an
//! island) and *detached* (the reverse) by two functions used for creation,
//! destruction and every body state change:
//!
//! | bodies                                   | container        | island |
//! |------------------------------------------|------------------|--------|
//! | either disabled                          | disabled set     | none   |
//! | neither dynamic (static, kinematic)      | static set       | none   |
//! | otherwise (sleeping bodies are woken)    | a graph colour   | linked |
//!
//! Sleeping and waking move whole islands: the hooks at the end of this file
//! are called by the solver-set and island code.

use crate::body::BodyType;
use crate::contact::ContactEdges;
use crate::error::{Error, Result};
use crate::id::{JointId, NULL_INDEX};
use crate::joint::solver::over_threshold;
use crate::joint::{
    Joint, JointBase, JointDef, JointEdge, JointEvent, JointEventKind, JointKind, JointSim,
    JointStores,
};
use crate::math::Transform;
use crate::snapshot::recording::Logged;
use crate::solver::constraint_graph::OVERFLOW_INDEX;
use crate::solver::softness::Softness;
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET, STATIC_SET};
use crate::world::World;

impl World {
    /// The stores the joint invariants relate, for `World::validate`.
    pub(crate) fn joint_stores(&self) -> JointStores<'_> {
        JointStores {
            joints: &self.joints,
            bodies: &self.bodies,
            solver_sets: &self.solver_sets,
            islands: &self.islands,
            graph: &self.graph,
        }
    }

    /// The sim of a joint, wherever it lives.
    pub(crate) fn joint_sim(&self, ji: usize) -> &JointSim {
        let j = &self.joints.joints[ji];
        if j.set_index == AWAKE_SET {
            &self.graph.colors[j.color_index as usize].joint_sims[j.local_index as usize]
        } else {
            &self.solver_sets[j.set_index as usize].joint_sims[j.local_index as usize]
        }
    }

    pub(crate) fn joint_sim_mut(&mut self, ji: usize) -> &mut JointSim {
        let j = &self.joints.joints[ji];
        if j.set_index == AWAKE_SET {
            &mut self.graph.colors[j.color_index as usize].joint_sims[j.local_index as usize]
        } else {
            &mut self.solver_sets[j.set_index as usize].joint_sims[j.local_index as usize]
        }
    }

    /// Wakes both bodies of a joint.
    pub(crate) fn wake_joint(&mut self, ji: usize) {
        let a = self.joints.joints[ji].edges[0].body_id as usize;
        let b = self.joints.joints[ji].edges[1].body_id as usize;
        self.wake_body(a);
        self.wake_body(b);
    }

    /// Drops the last step's events and makes the pending ones visible.
    /// Called at the start of every step.
    pub(crate) fn begin_joint_events(&mut self) {
        let storage = &mut self.joints;
        storage.events.clear();
        storage.events.append(&mut storage.pending_events);
    }

    /// Checks ids and the shared settings and creates a joint of any type
    /// from its frames and per-type data (already checked by the caller).
    pub(crate) fn create_joint(
        &mut self,
        def: &JointDef,
        local_frame_a: Transform,
        local_frame_b: Transform,
        kind: JointKind,
    ) -> Result<JointId> {
        let log = || Logged::CreateJoint(*def, local_frame_a, local_frame_b, kind);
        self.logged(log, |w| {
            def.validate()?;
            let a = w.body_index(def.body_a)?;
            let b = w.body_index(def.body_b)?;
            if a == b {
                return Err(Error::InvalidOperation(
                    "a joint needs two different bodies",
                ));
            }
            Ok(w.create_joint_unchecked(
                def,
                a as u32,
                b as u32,
                local_frame_a,
                local_frame_b,
                kind,
            ))
        })
    }

    /// The shared settings of a joint, as a definition.
    pub(crate) fn joint_base_def(&self, ji: usize) -> JointDef {
        let j = &self.joints.joints[ji];
        let base = &self.joint_sim(ji).base;
        JointDef {
            body_a: self.make_body_id(j.edges[0].body_id),
            body_b: self.make_body_id(j.edges[1].body_id),
            local_anchor_a: base.local_frame_a.p,
            local_anchor_b: base.local_frame_b.p,
            collide_connected: j.collide_connected,
            constraint_hertz: base.constraint_hertz,
            constraint_damping_ratio: base.constraint_damping_ratio,
            force_threshold: base.force_threshold,
            torque_threshold: base.torque_threshold,
            break_on_threshold: j.break_on_threshold,
            user_data: j.user_data,
        }
    }

    /// Reports joints whose reaction exceeded a threshold in the last
    /// substep, and destroys those set to break.
    pub(crate) fn check_joint_thresholds(&mut self) {
        if !self.joints.thresholds_seen {
            // (no joint can be over a threshold: no scan of every joint)
            self.joints.over_threshold.clear();
            return;
        }
        let mut over = std::mem::take(&mut self.joints.over_threshold);
        over_threshold(&self.graph, self.joints.inv_h, &mut over);
        for &(ji, force, torque) in &over {
            let joint = self.joints.joints[ji as usize];
            let kind = if joint.break_on_threshold {
                JointEventKind::Broken
            } else {
                JointEventKind::ThresholdExceeded
            };
            self.joints.events.push(JointEvent {
                joint_id: self.make_joint_id(ji),
                joint_type: joint.joint_type,
                kind,
                user_data: joint.user_data,
                force,
                torque,
            });
            if joint.break_on_threshold {
                self.destroy_joint_internal(ji, true, true);
            }
        }
        self.joints.over_threshold = over;
    }

    /// Allocates the joint, links it into both bodies' lists, attaches it to
    /// the solver and removes contacts it forbids. Ids and settings are
    /// already checked.
    pub(crate) fn create_joint_unchecked(
        &mut self,
        def: &JointDef,
        body_a: u32,
        body_b: u32,
        local_frame_a: Transform,
        local_frame_b: Transform,
        kind: JointKind,
    ) -> JointId {
        self.note_structure_change();
        let ji = self.joints.ids.alloc();
        if ji as usize == self.joints.joints.len() {
            self.joints.joints.push(Joint::default());
        }
        let head_a = self.bodies[body_a as usize].head_joint_key;
        let head_b = self.bodies[body_b as usize].head_joint_key;
        {
            let joint = &mut self.joints.joints[ji as usize];
            debug_assert_eq!(joint.joint_id, NULL_INDEX);
            *joint = Joint {
                joint_id: ji,
                generation: joint.generation.wrapping_add(1),
                joint_type: kind.joint_type(),
                edges: [
                    JointEdge {
                        body_id: body_a,
                        prev_key: NULL_INDEX,
                        next_key: head_a,
                    },
                    JointEdge {
                        body_id: body_b,
                        prev_key: NULL_INDEX,
                        next_key: head_b,
                    },
                ],
                collide_connected: def.collide_connected,
                break_on_threshold: def.break_on_threshold,
                user_data: def.user_data,
                ..Joint::default()
            };
        }
        for (edge, head) in [(0u32, head_a), (1u32, head_b)] {
            let key = (ji << 1) | edge;
            if head != NULL_INDEX {
                self.joints.joints[(head >> 1) as usize].edges[(head & 1) as usize].prev_key = key;
            }
            let body = &mut self.bodies[[body_a, body_b][edge as usize] as usize];
            body.head_joint_key = key;
            body.joint_count += 1;
        }

        self.joints.thresholds_seen |=
            def.force_threshold != f32::MAX || def.torque_threshold != f32::MAX;
        let sim = JointSim {
            base: JointBase {
                joint_id: ji,
                body_id_a: body_a,
                body_id_b: body_b,
                local_frame_a,
                local_frame_b,
                constraint_hertz: def.constraint_hertz,
                constraint_damping_ratio: def.constraint_damping_ratio,
                force_threshold: def.force_threshold,
                torque_threshold: def.torque_threshold,
                index_a: NULL_INDEX,
                index_b: NULL_INDEX,
                inv_mass_a: 0.0,
                inv_i_a: 0.0,
                inv_mass_b: 0.0,
                inv_i_b: 0.0,
                frame_a: Transform::IDENTITY,
                frame_b: Transform::IDENTITY,
                delta_center: crate::math::Vec2::ZERO,
                softness: Softness::RIGID,
                in_tree: false,
            },
            kind,
        };
        self.attach_joint(ji, sim);

        if !def.collide_connected {
            self.destroy_contacts_between(body_a as usize, body_b as usize);
        }
        self.make_joint_id(ji)
    }

    /// Destroys a joint: detaches it, unlinks it from its bodies and frees the
    /// id. `refilter` lets the bodies collide again at the next step if the
    /// joint kept them apart; `wake` wakes both bodies.
    pub(crate) fn destroy_joint_internal(&mut self, ji: u32, wake: bool, refilter: bool) {
        self.note_structure_change();
        let joint = self.joints.joints[ji as usize];
        self.detach_joint(ji);

        for (edge_index, edge) in joint.edges.iter().enumerate() {
            if edge.prev_key != NULL_INDEX {
                let k = edge.prev_key;
                self.joints.joints[(k >> 1) as usize].edges[(k & 1) as usize].next_key =
                    edge.next_key;
            }
            if edge.next_key != NULL_INDEX {
                let k = edge.next_key;
                self.joints.joints[(k >> 1) as usize].edges[(k & 1) as usize].prev_key =
                    edge.prev_key;
            }
            let body = &mut self.bodies[edge.body_id as usize];
            if body.head_joint_key == (ji << 1) | edge_index as u32 {
                body.head_joint_key = edge.next_key;
            }
            body.joint_count -= 1;
        }

        let slot = &mut self.joints.joints[ji as usize];
        slot.joint_id = NULL_INDEX;
        slot.edges = [JointEdge::NULL; 2];
        slot.set_index = NULL_INDEX;
        slot.color_index = NULL_INDEX;
        slot.local_index = NULL_INDEX;
        self.joints.ids.free(ji);

        let (a, b) = (
            joint.edges[0].body_id as usize,
            joint.edges[1].body_id as usize,
        );
        if refilter && !joint.collide_connected {
            self.refilter_body_pair(a, b);
        }
        if wake {
            self.wake_body(a);
            self.wake_body(b);
        }
    }

    /// Places a joint sim according to its bodies' states (see the module
    /// table), waking sleeping bodies and linking islands when it is solved.
    pub(crate) fn attach_joint(&mut self, ji: u32, sim: JointSim) {
        let joint = self.joints.joints[ji as usize];
        debug_assert_eq!(joint.set_index, NULL_INDEX);
        let (a, b) = (
            joint.edges[0].body_id as usize,
            joint.edges[1].body_id as usize,
        );
        let dynamic = self.bodies[a].body_type == BodyType::Dynamic
            || self.bodies[b].body_type == BodyType::Dynamic;

        let target = if self.bodies[a].set_index == DISABLED_SET
            || self.bodies[b].set_index == DISABLED_SET
        {
            DISABLED_SET
        } else if !dynamic {
            STATIC_SET
        } else {
            // Solved constraints need both bodies awake (or static).
            self.wake_body(a);
            self.wake_body(b);
            AWAKE_SET
        };

        if target == AWAKE_SET {
            self.joints.joints[ji as usize].set_index = AWAKE_SET;
            self.add_joint_to_graph(ji, sim);
            self.link_joint(ji);
        } else {
            self.push_joint_sim(target, ji, sim);
        }
    }

    /// Takes a joint out of its container and island. Returns its sim.
    pub(crate) fn detach_joint(&mut self, ji: u32) -> JointSim {
        if self.joints.joints[ji as usize].island_id != NULL_INDEX {
            self.unlink_joint(ji);
        }
        let joint = self.joints.joints[ji as usize];
        let sim = if joint.set_index == AWAKE_SET {
            self.remove_joint_from_graph(ji)
        } else {
            let set = &mut self.solver_sets[joint.set_index as usize].joint_sims;
            let li = joint.local_index as usize;
            let sim = set.swap_remove(li);
            if li < set.len() {
                let moved = set[li].base.joint_id as usize;
                self.joints.joints[moved].local_index = li as u32;
            }
            sim
        };
        let j = &mut self.joints.joints[ji as usize];
        j.set_index = NULL_INDEX;
        j.color_index = NULL_INDEX;
        j.local_index = NULL_INDEX;
        sim
    }

    /// Appends a sim to a solver set's list (not the graph).
    fn push_joint_sim(&mut self, set_index: u32, ji: u32, sim: JointSim) {
        let sims = &mut self.solver_sets[set_index as usize].joint_sims;
        let j = &mut self.joints.joints[ji as usize];
        j.set_index = set_index;
        j.color_index = NULL_INDEX;
        j.local_index = sims.len() as u32;
        sims.push(sim);
    }

    /// Puts an awake joint in a graph colour. Joints with no dynamic body go
    /// to the overflow colour.
    fn add_joint_to_graph(&mut self, ji: u32, sim: JointSim) {
        let joint = self.joints.joints[ji as usize];
        let (a, b) = (joint.edges[0].body_id, joint.edges[1].body_id);
        let (type_a, type_b) = (
            self.bodies[a as usize].body_type,
            self.bodies[b as usize].body_type,
        );
        debug_assert!(self.bodies[a as usize].set_index == AWAKE_SET || type_a == BodyType::Static);
        debug_assert!(self.bodies[b as usize].set_index == AWAKE_SET || type_b == BodyType::Static);
        let color = if type_a == BodyType::Dynamic || type_b == BodyType::Dynamic {
            self.graph.assign_color(a, type_a, b, type_b)
        } else {
            OVERFLOW_INDEX
        };
        let sims = &mut self.graph.colors[color].joint_sims;
        let j = &mut self.joints.joints[ji as usize];
        j.color_index = color as u32;
        j.local_index = sims.len() as u32;
        sims.push(sim);
    }

    /// Takes a joint out of its colour by swap removal.
    fn remove_joint_from_graph(&mut self, ji: u32) -> JointSim {
        let joint = self.joints.joints[ji as usize];
        let color_index = joint.color_index as usize;
        let color = &mut self.graph.colors[color_index];
        if color_index != OVERFLOW_INDEX {
            // Clearing a static or kinematic body's bit has no effect: only
            // dynamic bodies are marked.
            color.body_set.clear(joint.edges[0].body_id);
            color.body_set.clear(joint.edges[1].body_id);
        }
        let li = joint.local_index as usize;
        let sim = color.joint_sims.swap_remove(li);
        if li < color.joint_sims.len() {
            let moved = color.joint_sims[li].base.joint_id as usize;
            self.joints.joints[moved].local_index = li as u32;
        }
        sim
    }

    /// Adds an awake joint to the island of its bodies, merging their islands.
    fn link_joint(&mut self, ji: u32) {
        let joint = self.joints.joints[ji as usize];
        let island_a = self.bodies[joint.edges[0].body_id as usize].island_id;
        let island_b = self.bodies[joint.edges[1].body_id as usize].island_id;
        debug_assert!(island_a != NULL_INDEX || island_b != NULL_INDEX);
        let island_id = self.merge_islands(island_a, island_b);

        let head = self.islands[island_id as usize].head_joint;
        {
            let j = &mut self.joints.joints[ji as usize];
            j.island_id = island_id;
            j.island_prev = NULL_INDEX;
            j.island_next = head;
        }
        if head != NULL_INDEX {
            self.joints.joints[head as usize].island_prev = ji;
        }
        let island = &mut self.islands[island_id as usize];
        island.head_joint = ji;
        if island.tail_joint == NULL_INDEX {
            island.tail_joint = ji;
        }
        island.joint_count += 1;
    }

    /// Removes a joint from its island; the island may now fall apart, so it
    /// counts a removed constraint (it is split before it sleeps).
    fn unlink_joint(&mut self, ji: u32) {
        let joint = self.joints.joints[ji as usize];
        let island_id = joint.island_id;
        debug_assert_ne!(island_id, NULL_INDEX);
        if joint.island_prev != NULL_INDEX {
            self.joints.joints[joint.island_prev as usize].island_next = joint.island_next;
        }
        if joint.island_next != NULL_INDEX {
            self.joints.joints[joint.island_next as usize].island_prev = joint.island_prev;
        }
        let island = &mut self.islands[island_id as usize];
        if island.head_joint == ji {
            island.head_joint = joint.island_next;
        }
        if island.tail_joint == ji {
            island.tail_joint = joint.island_prev;
        }
        island.joint_count -= 1;
        island.constraint_remove_count = island.constraint_remove_count.saturating_add(1);
        let j = &mut self.joints.joints[ji as usize];
        j.island_id = NULL_INDEX;
        j.island_prev = NULL_INDEX;
        j.island_next = NULL_INDEX;
    }

    /// Destroys the contacts between two bodies (a joint now forbids them).
    pub(crate) fn destroy_contacts_between(&mut self, a: usize, b: usize) {
        let (start, other) = if self.bodies[a].contact_count <= self.bodies[b].contact_count {
            (a, b as u32)
        } else {
            (b, a as u32)
        };
        let mut edges = ContactEdges::of(&self.bodies[start]);
        while let Some((contact_id, edge)) = edges.next(&self.contacts) {
            if self.contacts[contact_id as usize].edges[edge ^ 1].body_id == other {
                self.destroy_contact(contact_id, false);
            }
        }
    }

    /// Asks the broad phase to look again at the proxies of the body with
    /// fewer shapes, so that a pair no longer forbidden gets its contact.
    pub(crate) fn refilter_body_pair(&mut self, a: usize, b: usize) {
        let body = if self.bodies[a].shape_count <= self.bodies[b].shape_count {
            a
        } else {
            b
        };
        let mut shape_id = self.bodies[body].head_shape_id;
        while shape_id != NULL_INDEX {
            let shape = &self.shapes[shape_id as usize];
            if let Some(key) = shape.proxy_key {
                self.broad_phase.buffer_move(key);
            }
            shape_id = shape.next_shape_id;
        }
    }

    // ---------------------------------------------------------------------
    // Hooks called by the body, island and solver-set code.
    // ---------------------------------------------------------------------

    /// Destroys every joint of a body that is being destroyed, reporting a
    /// [`JointEventKind::BodyDestroyed`] event for each after the next step.
    pub(crate) fn destroy_body_joints(&mut self, bi: usize) {
        let mut key = self.bodies[bi].head_joint_key;
        while key != NULL_INDEX {
            let ji = key >> 1;
            let joint = self.joints.joints[ji as usize];
            key = joint.edges[(key & 1) as usize].next_key;
            let event = JointEvent {
                joint_id: self.make_joint_id(ji),
                joint_type: joint.joint_type,
                kind: JointEventKind::BodyDestroyed,
                user_data: joint.user_data,
                force: 0.0,
                torque: 0.0,
            };
            self.joints.pending_events.push(event);
            self.destroy_joint_internal(ji, true, false);
        }
    }

    /// Takes every joint of a body out of the solver before the body changes
    /// state (type, enabled); [`World::attach_detached_joints`] puts them back.
    pub(crate) fn detach_body_joints(&mut self, bi: usize) {
        let mut key = self.bodies[bi].head_joint_key;
        while key != NULL_INDEX {
            let ji = key >> 1;
            key = self.joints.joints[ji as usize].edges[(key & 1) as usize].next_key;
            let sim = self.detach_joint(ji);
            self.joints.detached.push((ji, sim));
        }
    }

    /// Re-attaches the joints taken out by [`World::detach_body_joints`],
    /// placed according to the bodies' new states.
    pub(crate) fn attach_detached_joints(&mut self) {
        let mut detached = std::mem::take(&mut self.joints.detached);
        for (ji, sim) in detached.drain(..) {
            self.attach_joint(ji, sim);
        }
        self.joints.detached = detached;
    }

    /// Moves the joints of a waking solver set into the constraint graph. The
    /// set's bodies must already be in the awake set.
    pub(crate) fn wake_set_joints(&mut self, set_index: usize) {
        let mut sims = std::mem::take(&mut self.solver_sets[set_index].joint_sims);
        for sim in &sims {
            let ji = sim.base.joint_id;
            debug_assert_eq!(self.joints.joints[ji as usize].set_index, set_index as u32);
            self.joints.joints[ji as usize].set_index = AWAKE_SET;
            self.add_joint_to_graph(ji, *sim);
        }
        sims.clear();
        self.solver_sets[set_index].joint_sims = sims;
    }

    /// Moves the joints of an island that falls asleep from the graph to its
    /// new solver set.
    pub(crate) fn sleep_island_joints(&mut self, island_id: u32, sleep_set: u32) {
        let mut ji = self.islands[island_id as usize].head_joint;
        while ji != NULL_INDEX {
            debug_assert_eq!(self.joints.joints[ji as usize].set_index, AWAKE_SET);
            let sim = self.remove_joint_from_graph(ji);
            self.push_joint_sim(sleep_set, ji, sim);
            ji = self.joints.joints[ji as usize].island_next;
        }
    }

    /// Appends the small island's joints to the big one's when two islands
    /// merge. Called after the big island's other lists are merged.
    pub(crate) fn merge_island_joints(&mut self, big_id: u32, small_id: u32) {
        let small = self.islands[small_id as usize];
        if small.head_joint == NULL_INDEX {
            return;
        }
        let mut ji = small.head_joint;
        while ji != NULL_INDEX {
            let j = &mut self.joints.joints[ji as usize];
            j.island_id = big_id;
            ji = j.island_next;
        }
        let big = self.islands[big_id as usize];
        if big.head_joint == NULL_INDEX {
            let island = &mut self.islands[big_id as usize];
            island.head_joint = small.head_joint;
            island.tail_joint = small.tail_joint;
            island.joint_count = small.joint_count;
        } else {
            self.joints.joints[big.tail_joint as usize].island_next = small.head_joint;
            self.joints.joints[small.head_joint as usize].island_prev = big.tail_joint;
            let island = &mut self.islands[big_id as usize];
            island.tail_joint = small.tail_joint;
            island.joint_count += small.joint_count;
        }
        let s = &mut self.islands[small_id as usize];
        s.head_joint = NULL_INDEX;
        s.tail_joint = NULL_INDEX;
        s.joint_count = 0;
    }

    /// Island splitting: follows a body's joints during the depth-first
    /// search, moving joints and reached bodies from the base island
    /// (`base_id`) to the new one (`island_id`).
    pub(crate) fn split_body_joints(
        &mut self,
        body_id: u32,
        island_id: u32,
        base_id: u32,
        stack: &mut Vec<u32>,
    ) {
        let mut key = self.bodies[body_id as usize].head_joint_key;
        while key != NULL_INDEX {
            let ji = key >> 1;
            let edge = (key & 1) as usize;
            let joint = self.joints.joints[ji as usize];
            key = joint.edges[edge].next_key;
            if joint.island_id == island_id || joint.island_id == NULL_INDEX {
                continue; // already added, or not solved (disabled / static set)
            }
            debug_assert_eq!(joint.island_id, base_id);
            let other = joint.edges[edge ^ 1].body_id;
            let other_body = &mut self.bodies[other as usize];
            if other_body.island_id != island_id && other_body.set_index != STATIC_SET {
                debug_assert_eq!(other_body.island_id, base_id);
                other_body.island_id = island_id;
                stack.push(other);
            }
            let tail = self.islands[island_id as usize].tail_joint;
            if tail != NULL_INDEX {
                self.joints.joints[tail as usize].island_next = ji;
            }
            let j = &mut self.joints.joints[ji as usize];
            j.island_id = island_id;
            j.island_prev = tail;
            j.island_next = NULL_INDEX;
            let island = &mut self.islands[island_id as usize];
            island.tail_joint = ji;
            if island.head_joint == NULL_INDEX {
                island.head_joint = ji;
            }
            island.joint_count += 1;
        }
    }
}
