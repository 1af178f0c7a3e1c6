//! Invariant checks for joints, called by `World::validate`: slots and
//! ids, the bodies' joint lists, where each sim lives, island joint lists and
//! the graph colours' body sets. They read the stores they check and nothing
//! else.

use super::JointStorage;
use crate::bitset::BitSet;
use crate::body::{Body, BodyType};
use crate::id::NULL_INDEX;
use crate::solver::constraint_graph::{ConstraintGraph, OVERFLOW_INDEX};
use crate::solver::island::Island;
use crate::solver::solver_set::{
    AWAKE_SET, DISABLED_SET, FIRST_SLEEPING_SET, STATIC_SET, SolverSet,
};
use crate::validate::{check_count, edge_links, live_slots, sim_at, walk_list};

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// The stores the joint invariants relate.
pub(crate) struct JointStores<'a> {
    pub joints: &'a JointStorage,
    pub bodies: &'a [Body],
    pub solver_sets: &'a [SolverSet],
    pub islands: &'a [Island],
    pub graph: &'a ConstraintGraph,
}

impl JointStores<'_> {
    /// Checks every joint invariant; returns the first broken one.
    pub(crate) fn validate_joints(&self) -> Result<(), String> {
        self.validate_joint_slots()?;
        self.validate_body_joint_lists()?;
        self.validate_joint_sets()?;
        self.validate_island_joint_lists()?;
        Ok(())
    }

    fn validate_joint_slots(&self) -> Result<(), String> {
        let live = live_slots("joint", &self.joints.joints, |j| j.joint_id)?;
        for &(index, joint) in &live {
            let ji = index as u32;
            let (a, b) = (joint.edges[0].body_id, joint.edges[1].body_id);
            ensure!(a != b, "joint {index} connects body {a} to itself");
            for body_id in [a, b] {
                let body = self
                    .bodies
                    .get(body_id as usize)
                    .ok_or_else(|| format!("joint {index} names body {body_id}"))?;
                ensure!(
                    body.id == body_id,
                    "joint {index} names free body {body_id}"
                );
            }
            let (body_a, body_b) = (&self.bodies[a as usize], &self.bodies[b as usize]);

            // The container follows the bodies' states.
            let disabled = body_a.set_index == DISABLED_SET || body_b.set_index == DISABLED_SET;
            let dynamic =
                body_a.body_type == BodyType::Dynamic || body_b.body_type == BodyType::Dynamic;
            let set = joint.set_index;
            if disabled {
                ensure!(
                    set == DISABLED_SET,
                    "joint {index} with a disabled body is in set {set}"
                );
            } else if !dynamic {
                ensure!(
                    set == STATIC_SET,
                    "joint {index} without a dynamic body is in set {set}"
                );
            } else {
                ensure!(set >= AWAKE_SET, "solved joint {index} is in set {set}");
                for body in [body_a, body_b] {
                    ensure!(
                        body.set_index == set || body.set_index == STATIC_SET,
                        "joint {index} in set {set} has body {} in set {}",
                        body.id,
                        body.set_index
                    );
                }
            }

            // The sim is where the joint says it is.
            let sim = if set == AWAKE_SET {
                ensure!(
                    joint.color_index != NULL_INDEX,
                    "awake joint {index} has no colour"
                );
                let sims = &self.graph.colors[joint.color_index as usize].joint_sims;
                sim_at(sims, joint.local_index, "joint", index, "its colour")?
            } else {
                ensure!(
                    joint.color_index == NULL_INDEX,
                    "non-awake joint {index} has a colour"
                );
                let sims = &self.solver_sets[set as usize].joint_sims;
                sim_at(
                    sims,
                    joint.local_index,
                    "joint",
                    index,
                    format_args!("set {set}"),
                )?
            };
            ensure!(
                sim.base.joint_id == ji,
                "joint {index} sim names joint {}",
                sim.base.joint_id
            );
            ensure!(
                sim.base.body_id_a == a && sim.base.body_id_b == b,
                "joint {index} sim names other bodies"
            );

            // Solved joints are in the island of their non-static bodies.
            if set >= AWAKE_SET {
                ensure!(
                    joint.island_id != NULL_INDEX,
                    "solved joint {index} has no island"
                );
                let island = &self.islands[joint.island_id as usize];
                ensure!(
                    island.island_id == joint.island_id,
                    "joint {index} names a free island"
                );
                ensure!(
                    island.set_index == set,
                    "joint {index} and its island are in different sets"
                );
                for body in [body_a, body_b] {
                    if body.set_index != STATIC_SET {
                        ensure!(
                            body.island_id == joint.island_id,
                            "joint {index} in island {} but body {} in island {}",
                            joint.island_id,
                            body.id,
                            body.island_id
                        );
                    }
                }
            } else {
                ensure!(
                    joint.island_id == NULL_INDEX,
                    "unsolved joint {index} is in an island"
                );
            }
        }
        ensure!(
            live.len() == self.joints.ids.count() as usize,
            "joint id pool count mismatch"
        );
        Ok(())
    }

    fn validate_body_joint_lists(&self) -> Result<(), String> {
        for (index, body) in self.bodies.iter().enumerate() {
            if body.id == NULL_INDEX {
                continue;
            }
            let what = || format!("body {index} joint list");
            let (count, _) = walk_list(body.head_joint_key, self.joint_limit(), what, |key| {
                let ji = key >> 1;
                let joint = self.joints.joints.get(ji as usize);
                let joint = joint.ok_or_else(|| format!("{} names joint {ji}", what()))?;
                ensure!(joint.joint_id == ji, "{} names free joint {ji}", what());
                let edge = &joint.edges[(key & 1) as usize];
                edge_links("joint", index, edge.body_id, edge.prev_key, edge.next_key)
            })?;
            check_count(index, "joints", count, body.joint_count)?;
        }
        Ok(())
    }

    fn validate_joint_sets(&self) -> Result<(), String> {
        for (s, set) in self.solver_sets.iter().enumerate() {
            if !set.in_use {
                ensure!(
                    set.joint_sims.is_empty(),
                    "free solver set {s} holds joints"
                );
                continue;
            }
            ensure!(
                s != AWAKE_SET as usize || set.joint_sims.is_empty(),
                "awake joints must live in the graph"
            );
            for (i, sim) in set.joint_sims.iter().enumerate() {
                let joint = &self.joints.joints[sim.base.joint_id as usize];
                ensure!(
                    joint.set_index == s as u32 && joint.local_index == i as u32,
                    "joint {} is misplaced in set {s}",
                    sim.base.joint_id
                );
            }
            if s >= FIRST_SLEEPING_SET as usize {
                for sim in &set.joint_sims {
                    let joint = &self.joints.joints[sim.base.joint_id as usize];
                    ensure!(
                        joint.island_id != NULL_INDEX,
                        "sleeping joint has no island"
                    );
                }
            }
        }
        Ok(())
    }

    fn validate_island_joint_lists(&self) -> Result<(), String> {
        let live = self.islands.iter().enumerate();
        for (index, island) in live.filter(|(_, island)| island.island_id != NULL_INDEX) {
            let what = || format!("island {index} joint list");
            let (count, tail) = walk_list(island.head_joint, self.joint_limit(), what, |ji| {
                let joint = &self.joints.joints[ji as usize];
                ensure!(joint.joint_id == ji, "{} names free joint {ji}", what());
                ensure!(
                    joint.island_id == index as u32,
                    "joint {ji} in island {index} names island {}",
                    joint.island_id
                );
                Ok((joint.island_prev, joint.island_next))
            })?;
            ensure!(
                tail == island.tail_joint,
                "island {index} tail joint is wrong"
            );
            ensure!(
                count == island.joint_count as usize,
                "island {index} joint count is wrong"
            );
        }
        Ok(())
    }

    /// More nodes than this in a joint list is a loop (each joint is in two
    /// body lists at most).
    fn joint_limit(&self) -> usize {
        2 * self.joints.joints.len()
    }

    /// Checks the joints of graph colour `ci` and marks their dynamic bodies
    /// in `used` (which already holds the colour's contact bodies): no body
    /// twice per colour, and every marked body in the colour's body set.
    pub(crate) fn validate_color_joints(&self, ci: usize, used: &mut BitSet) -> Result<(), String> {
        let color = &self.graph.colors[ci];
        for (i, sim) in color.joint_sims.iter().enumerate() {
            let ji = sim.base.joint_id;
            let joint = &self.joints.joints[ji as usize];
            ensure!(
                joint.joint_id == ji
                    && joint.color_index == ci as u32
                    && joint.local_index == i as u32,
                "joint {ji} is misplaced in colour {ci}"
            );
            for body_id in [joint.edges[0].body_id, joint.edges[1].body_id] {
                let body = &self.bodies[body_id as usize];
                if body.body_type == BodyType::Static {
                    continue;
                }
                ensure!(
                    body.set_index == AWAKE_SET,
                    "graph joint {ji} body {body_id} is not awake"
                );
                if ci != OVERFLOW_INDEX && body.body_type == BodyType::Dynamic {
                    ensure!(
                        !used.get(body_id),
                        "colour {ci} uses body {body_id} twice (joint {ji})"
                    );
                    used.set(body_id);
                    ensure!(
                        color.body_set.get(body_id),
                        "colour {ci} misses body {body_id} of joint {ji}"
                    );
                }
            }
        }
        Ok(())
    }
}
