//! Checks a decoded world before anything may index with its numbers.
//!
//! [`check_world`] verifies what the invariant checker (`World::validate`)
//! takes for granted: id pools consistent with their arrays, every index a
//! live object's, every proxy key in the broad phase, every sensor slot in
//! range. Then `World::validate` checks the lists and cross-references.

use super::wire::bad;
use crate::contact::{Contact, pair_key};
use crate::error::Result;
use crate::id::{IdPool, NULL_INDEX};
use crate::solver::solver_set::FIRST_SLEEPING_SET;
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
    let joint_sims = w
        .solver_sets
        .iter()
        .flat_map(|s| &s.joint_sims)
        .chain(w.graph.colors.iter().flat_map(|c| &c.joint_sims))
        .chain(w.joints.detached.iter().map(|(_, s)| s));
    for s in joint_sims {
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
    Ok(())
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
