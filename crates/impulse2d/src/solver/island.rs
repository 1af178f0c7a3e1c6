//! Persistent islands: groups of bodies connected by touching contacts, used
//! only to decide what can sleep.
//!
//! Islands are merged eagerly when a contact begins touching (the smaller
//! island's lists are appended to the bigger one's), but never split when a
//! contact stops touching: the island only counts removed constraints. When
//! such an island wants to sleep, the step splits it (one island per step, by
//! depth-first search) so that only the parts that are really at rest sleep.
//! Static bodies belong to no island; contacts with them belong to the island
//! of the other body.
//!
//! # References
//! - E. Catto, Box2D v3 `island.c` ("persistent islands").

use crate::contact::contact_flags;
use crate::id::NULL_INDEX;
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET, FIRST_SLEEPING_SET, STATIC_SET};
use crate::world::World;

/// An island's lists, stored in `World::islands` at its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Island {
    pub set_index: u32,
    /// Index of the [`IslandSim`] in its set.
    pub local_index: u32,
    /// The island's index, or NULL while the slot is free.
    pub island_id: u32,
    pub head_body: u32,
    pub tail_body: u32,
    pub body_count: u32,
    pub head_contact: u32,
    pub tail_contact: u32,
    pub contact_count: u32,
    /// Joint list (see `joint/link.rs`).
    pub head_joint: u32,
    pub tail_joint: u32,
    pub joint_count: u32,
    /// Contacts removed since the island was built: it may have fallen apart.
    pub constraint_remove_count: u32,
}

impl Default for Island {
    fn default() -> Self {
        Island {
            set_index: NULL_INDEX,
            local_index: NULL_INDEX,
            island_id: NULL_INDEX,
            head_body: NULL_INDEX,
            tail_body: NULL_INDEX,
            body_count: 0,
            head_contact: NULL_INDEX,
            tail_contact: NULL_INDEX,
            contact_count: 0,
            head_joint: NULL_INDEX,
            tail_joint: NULL_INDEX,
            joint_count: 0,
            constraint_remove_count: 0,
        }
    }
}

/// The entry of an island in its solver set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IslandSim {
    pub island_id: u32,
}

impl World {
    /// Creates an empty island in a set.
    pub(crate) fn create_island(&mut self, set_index: u32) -> u32 {
        debug_assert!(set_index == AWAKE_SET || set_index >= FIRST_SLEEPING_SET);
        let island_id = self.island_ids.alloc();
        if island_id as usize == self.islands.len() {
            self.islands.push(Island::default());
        }
        let set = &mut self.solver_sets[set_index as usize];
        self.islands[island_id as usize] = Island {
            set_index,
            local_index: set.island_sims.len() as u32,
            island_id,
            ..Island::default()
        };
        set.island_sims.push(IslandSim { island_id });
        island_id
    }

    /// Frees an island (its lists must be empty or taken over).
    pub(crate) fn destroy_island(&mut self, island_id: u32) {
        if self.split_island_id == island_id {
            self.split_island_id = NULL_INDEX;
        }
        let island = self.islands[island_id as usize];
        let set = &mut self.solver_sets[island.set_index as usize];
        let li = island.local_index as usize;
        set.island_sims.swap_remove(li);
        if li < set.island_sims.len() {
            let moved = set.island_sims[li].island_id as usize;
            self.islands[moved].local_index = li as u32;
        }
        self.islands[island_id as usize] = Island::default();
        self.island_ids.free(island_id);
    }

    /// Gives a new body its own island.
    pub(crate) fn create_island_for_body(&mut self, set_index: u32, body_id: u32) {
        let island_id = self.create_island(set_index);
        let body = &mut self.bodies[body_id as usize];
        debug_assert_eq!(body.island_id, NULL_INDEX);
        body.island_id = island_id;
        body.island_prev = NULL_INDEX;
        body.island_next = NULL_INDEX;
        let island = &mut self.islands[island_id as usize];
        island.head_body = body_id;
        island.tail_body = body_id;
        island.body_count = 1;
    }

    /// Unlinks a body from its island, destroying the island if it empties.
    pub(crate) fn remove_body_from_island(&mut self, bi: usize) {
        let body = &self.bodies[bi];
        let island_id = body.island_id;
        if island_id == NULL_INDEX {
            return;
        }
        let (prev, next) = (body.island_prev, body.island_next);
        if prev != NULL_INDEX {
            self.bodies[prev as usize].island_next = next;
        }
        if next != NULL_INDEX {
            self.bodies[next as usize].island_prev = prev;
        }
        let island = &mut self.islands[island_id as usize];
        island.body_count -= 1;
        let mut destroyed = false;
        if island.head_body == bi as u32 {
            island.head_body = next;
            if next == NULL_INDEX {
                debug_assert_eq!(island.contact_count, 0);
                self.destroy_island(island_id);
                destroyed = true;
            }
        }
        if !destroyed {
            let island = &mut self.islands[island_id as usize];
            if island.tail_body == bi as u32 {
                island.tail_body = prev;
            }
        }
        let body = &mut self.bodies[bi];
        body.island_id = NULL_INDEX;
        body.island_prev = NULL_INDEX;
        body.island_next = NULL_INDEX;
    }

    /// Links a contact that began touching into its bodies' island, waking a
    /// sleeping body touched by an awake one and merging two islands.
    pub(crate) fn link_contact(&mut self, contact_id: u32) {
        let contact = self.contacts[contact_id as usize];
        debug_assert!(contact.flags & contact_flags::TOUCHING != 0);
        let a = contact.edges[0].body_id as usize;
        let b = contact.edges[1].body_id as usize;
        debug_assert!(self.bodies[a].set_index != DISABLED_SET);
        debug_assert!(self.bodies[b].set_index != DISABLED_SET);

        if self.bodies[a].set_index == AWAKE_SET && self.bodies[b].set_index >= FIRST_SLEEPING_SET {
            self.wake_solver_set(self.bodies[b].set_index);
        }
        if self.bodies[b].set_index == AWAKE_SET && self.bodies[a].set_index >= FIRST_SLEEPING_SET {
            self.wake_solver_set(self.bodies[a].set_index);
        }

        let island_a = self.bodies[a].island_id;
        let island_b = self.bodies[b].island_id;
        debug_assert!(self.bodies[a].set_index != STATIC_SET || island_a == NULL_INDEX);
        debug_assert!(island_a != NULL_INDEX || island_b != NULL_INDEX);
        let island = self.merge_islands(island_a, island_b);
        self.add_contact_to_island(island, contact_id);
    }

    /// Unlinks a contact that stopped touching (or is destroyed) from its island.
    pub(crate) fn unlink_contact(&mut self, contact_id: u32) {
        let contact = self.contacts[contact_id as usize];
        let island_id = contact.island_id;
        debug_assert_ne!(island_id, NULL_INDEX);
        if contact.island_prev != NULL_INDEX {
            self.contacts[contact.island_prev as usize].island_next = contact.island_next;
        }
        if contact.island_next != NULL_INDEX {
            self.contacts[contact.island_next as usize].island_prev = contact.island_prev;
        }
        let island = &mut self.islands[island_id as usize];
        if island.head_contact == contact_id {
            island.head_contact = contact.island_next;
        }
        if island.tail_contact == contact_id {
            island.tail_contact = contact.island_prev;
        }
        island.contact_count -= 1;
        // Only "any removed" matters (a split candidate); a restored
        // snapshot may hold any count, so saturate rather than overflow.
        island.constraint_remove_count = island.constraint_remove_count.saturating_add(1);
        let c = &mut self.contacts[contact_id as usize];
        c.island_id = NULL_INDEX;
        c.island_prev = NULL_INDEX;
        c.island_next = NULL_INDEX;
    }

    fn add_contact_to_island(&mut self, island_id: u32, contact_id: u32) {
        let head = self.islands[island_id as usize].head_contact;
        {
            let c = &mut self.contacts[contact_id as usize];
            debug_assert_eq!(c.island_id, NULL_INDEX);
            c.island_id = island_id;
            c.island_prev = NULL_INDEX;
            c.island_next = head;
        }
        if head != NULL_INDEX {
            self.contacts[head as usize].island_prev = contact_id;
        }
        let island = &mut self.islands[island_id as usize];
        island.head_contact = contact_id;
        if island.tail_contact == NULL_INDEX {
            island.tail_contact = contact_id;
        }
        island.contact_count += 1;
    }

    /// Merges two islands (either may be NULL) and returns the survivor: the
    /// one with more bodies, so that fewer bodies are relabelled.
    pub(crate) fn merge_islands(&mut self, id_a: u32, id_b: u32) -> u32 {
        if id_a == id_b {
            return id_a;
        }
        if id_a == NULL_INDEX {
            return id_b;
        }
        if id_b == NULL_INDEX {
            return id_a;
        }
        let (big_id, small_id) =
            if self.islands[id_a as usize].body_count >= self.islands[id_b as usize].body_count {
                (id_a, id_b)
            } else {
                (id_b, id_a)
            };
        let big = self.islands[big_id as usize];
        let small = self.islands[small_id as usize];
        debug_assert_eq!(big.set_index, small.set_index);

        let mut b = small.head_body;
        while b != NULL_INDEX {
            self.bodies[b as usize].island_id = big_id;
            b = self.bodies[b as usize].island_next;
        }
        let mut c = small.head_contact;
        while c != NULL_INDEX {
            self.contacts[c as usize].island_id = big_id;
            c = self.contacts[c as usize].island_next;
        }

        // Append the small island's body list.
        self.bodies[big.tail_body as usize].island_next = small.head_body;
        self.bodies[small.head_body as usize].island_prev = big.tail_body;
        let mut merged = big;
        merged.tail_body = small.tail_body;
        merged.body_count += small.body_count;

        // Append the small island's contact list.
        if merged.head_contact == NULL_INDEX {
            merged.head_contact = small.head_contact;
            merged.tail_contact = small.tail_contact;
            merged.contact_count = small.contact_count;
        } else if small.head_contact != NULL_INDEX {
            self.contacts[merged.tail_contact as usize].island_next = small.head_contact;
            self.contacts[small.head_contact as usize].island_prev = merged.tail_contact;
            merged.tail_contact = small.tail_contact;
            merged.contact_count += small.contact_count;
        }
        merged.constraint_remove_count = merged
            .constraint_remove_count
            .saturating_add(small.constraint_remove_count);
        self.islands[big_id as usize] = merged;
        self.merge_island_joints(big_id, small_id); // joints

        let s = &mut self.islands[small_id as usize];
        s.head_body = NULL_INDEX;
        s.tail_body = NULL_INDEX;
        s.body_count = 0;
        s.head_contact = NULL_INDEX;
        s.tail_contact = NULL_INDEX;
        s.contact_count = 0;
        s.constraint_remove_count = 0;
        self.destroy_island(small_id);
        big_id
    }

    /// Splits an awake island into its connected parts by depth-first search
    /// over touching contacts. Static bodies do not connect.
    pub(crate) fn split_island(&mut self, base_id: u32) {
        let base = self.islands[base_id as usize];
        if base.set_index != AWAKE_SET || base.constraint_remove_count == 0 {
            return;
        }
        let mut stack = std::mem::take(&mut self.scratch.split_stack);
        let mut seeds = std::mem::take(&mut self.scratch.split_bodies);
        stack.clear();
        seeds.clear();

        let mut b = base.head_body;
        while b != NULL_INDEX {
            seeds.push(b);
            b = self.bodies[b as usize].island_next;
        }
        debug_assert_eq!(seeds.len(), base.body_count as usize);

        for &seed in &seeds {
            if self.bodies[seed as usize].island_id != base_id {
                continue; // already reached from an earlier seed
            }
            let island_id = self.create_island(AWAKE_SET);
            self.bodies[seed as usize].island_id = island_id;
            stack.push(seed);

            while let Some(body_id) = stack.pop() {
                let bi = body_id as usize;
                // Append the body to the new island.
                let tail = self.islands[island_id as usize].tail_body;
                if tail != NULL_INDEX {
                    self.bodies[tail as usize].island_next = body_id;
                }
                self.bodies[bi].island_prev = tail;
                self.bodies[bi].island_next = NULL_INDEX;
                {
                    let island = &mut self.islands[island_id as usize];
                    island.tail_body = body_id;
                    if island.head_body == NULL_INDEX {
                        island.head_body = body_id;
                    }
                    island.body_count += 1;
                }

                let mut key = self.bodies[bi].head_contact_key;
                while key != NULL_INDEX {
                    let contact_id = key >> 1;
                    let edge = (key & 1) as usize;
                    let contact = self.contacts[contact_id as usize];
                    key = contact.edges[edge].next_key;
                    if contact.island_id == island_id {
                        continue; // already added
                    }
                    if contact.flags & contact_flags::TOUCHING == 0 {
                        continue;
                    }
                    let other = contact.edges[edge ^ 1].body_id;
                    let other_body = &mut self.bodies[other as usize];
                    if other_body.island_id != island_id && other_body.set_index != STATIC_SET {
                        debug_assert_eq!(other_body.island_id, base_id);
                        other_body.island_id = island_id;
                        stack.push(other);
                    }
                    // Append the contact to the new island.
                    let tail = self.islands[island_id as usize].tail_contact;
                    if tail != NULL_INDEX {
                        self.contacts[tail as usize].island_next = contact_id;
                    }
                    let c = &mut self.contacts[contact_id as usize];
                    c.island_id = island_id;
                    c.island_prev = tail;
                    c.island_next = NULL_INDEX;
                    let island = &mut self.islands[island_id as usize];
                    island.tail_contact = contact_id;
                    if island.head_contact == NULL_INDEX {
                        island.head_contact = contact_id;
                    }
                    island.contact_count += 1;
                }
                self.split_body_joints(body_id, island_id, base_id, &mut stack); // joints
            }
        }

        // The base id was used as a marker above; free it only now.
        let base_island = &mut self.islands[base_id as usize];
        base_island.head_body = NULL_INDEX;
        base_island.head_contact = NULL_INDEX;
        self.destroy_island(base_id);

        self.scratch.split_stack = stack;
        self.scratch.split_bodies = seeds;
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodyDef, BodyType, World, WorldDef};

    /// The removal count only says whether an island may have fallen apart,
    /// and a restored snapshot may hold any value: merging two islands whose
    /// counts sum past `u32::MAX` saturates instead of overflowing (found by
    /// the `snapshot` fuzz target), and keeps the island a split candidate.
    #[test]
    fn merged_removal_counts_saturate() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let def = BodyDef {
            body_type: BodyType::Dynamic,
            ..BodyDef::default()
        };
        let a = world.create_body(&def).unwrap();
        let b = world.create_body(&def).unwrap();
        let island = |w: &World, id: crate::BodyId| w.bodies[id.index as usize].island_id;
        let (ia, ib) = (island(&world, a), island(&world, b));
        assert_ne!(ia, ib);
        world.islands[ia as usize].constraint_remove_count = u32::MAX - 1;
        world.islands[ib as usize].constraint_remove_count = 5;
        let merged = world.merge_islands(ia, ib);
        assert_eq!(
            world.islands[merged as usize].constraint_remove_count,
            u32::MAX
        );
        assert_eq!(world.islands[merged as usize].body_count, 2);
    }
}
