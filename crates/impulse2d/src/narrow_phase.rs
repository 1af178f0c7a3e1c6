//! The first two stages of a step: new contacts from the broad phase, and the
//! narrow phase that updates every awake contact's manifold.
//!
//! The narrow phase only records what changed (a bit per contact id); a serial
//! pass then walks those bits in increasing contact id and applies the changes:
//! destroy contacts whose fat boxes separated, link islands and enter the
//! constraint graph for contacts that began touching, and leave both for those
//! that stopped. Walking ids in order keeps everything deterministic however
//! the manifolds were computed.

use crate::bitset::BitSet;
use crate::body::{Body, BodySim, BodyType};
use crate::contact::{
    ContactSim, Mixing, contact_flags, pair_key, pair_order, sim_flags, update_contact,
};
use crate::core::SPECULATIVE_DISTANCE;
use crate::filter::PreSolve;
use crate::id::NULL_INDEX;
use crate::prefetch::prefetch_value;
use crate::shape::Shape;
use crate::simd::multiversion;
use crate::solver::StepContext;
use crate::solver::constraint_graph::GRAPH_COLOR_COUNT;
use crate::solver::lock_worker;
use crate::solver::solver_set::{AWAKE_SET, SolverSet};
use crate::workers::SharedMut;
use crate::world::World;

/// Smallest block of contacts worth a block of its own.
const MIN_CONTACT_BLOCK: usize = 32;

impl World {
    /// Asks the broad phase for new overlapping pairs and creates their contacts.
    pub(crate) fn update_pairs(&mut self) {
        self.rebuild_trees(); // (always done by the last step's solve)
        let World {
            broad_phase,
            shapes,
            bodies,
            pair_set,
            scratch,
            joints,
            simd,
            workers,
            ..
        } = self;
        // The tree queries and this filter run on the workers; the pairs come
        // out in move-buffer order on any worker count.
        let (shapes, bodies, pair_set, joints) = (&*shapes, &*bodies, &*pair_set, &*joints);
        broad_phase.update_pairs_parallel(
            *simd,
            workers,
            |shape| pair_query_mask(&shapes[shape as usize]),
            |shape, other| {
                // Most candidates already have a contact: answer them from the
                // querying shape's row of the pair set before reading more.
                if pair_set.contains_pair(shape, other) {
                    return false;
                }
                let (a, b) = (shape.min(other), shape.max(other));
                should_create_contact(shapes, bodies, a, b)
                    && crate::joint::joint_allows_collision(joints, shapes, bodies, a, b)
            },
            &mut scratch.pair_buffers,
            &mut scratch.pair_order,
            &mut scratch.pairs,
        );
        let pairs = std::mem::take(&mut self.scratch.pairs);
        for (i, &(a, b)) in pairs.iter().enumerate() {
            self.prefetch_new_pairs(&pairs, i);
            // The broad phase reports each pair once, but stay safe.
            // events: the custom filter has the last word on new pairs
            if !self.pair_set.contains(&pair_key(a, b)) && self.custom_filter_allows(a, b) {
                self.create_contact(a, b);
            }
        }
        self.scratch.pairs = pairs;
    }

    /// Asks into the cache what creating the contacts of the pairs after
    /// `pairs[i]` will read and write, which is scattered and mostly not in
    /// the cache: the shapes three pairs ahead, their bodies two ahead (the
    /// shapes were asked for the pair before), the contacts at the heads of
    /// the bodies' contact lists one ahead, and the free contact slot that the
    /// contact after this pair's takes. A hint only: nothing changes.
    #[inline(always)]
    fn prefetch_new_pairs(&self, pairs: &[(u32, u32)], i: usize) {
        let (shapes, bodies, contacts) = (&self.shapes, &self.bodies, &self.contacts);
        if let Some(&(a, b)) = pairs.get(i + 3) {
            prefetch_value(shapes.as_ptr().wrapping_add(a as usize));
            prefetch_value(shapes.as_ptr().wrapping_add(b as usize));
        }
        if let Some(&(a, b)) = pairs.get(i + 2) {
            for s in [a, b] {
                let body = shapes[s as usize].body_id;
                prefetch_value(bodies.as_ptr().wrapping_add(body as usize));
            }
        }
        if let Some(&(a, b)) = pairs.get(i + 1) {
            for s in [a, b] {
                let head = bodies[shapes[s as usize].body_id as usize].head_contact_key;
                if head != NULL_INDEX {
                    prefetch_value(contacts.as_ptr().wrapping_add((head >> 1) as usize));
                }
            }
        }
        let free = &self.contact_ids.free;
        if let Some(&id) = free.len().checked_sub(2).and_then(|k| free.get(k)) {
            prefetch_value(contacts.as_ptr().wrapping_add(id as usize));
        }
    }

    /// Updates the manifolds of all awake contacts, then applies the touching
    /// state changes in contact id order.
    ///
    /// The manifolds are updated on the workers, in blocks of contacts: each
    /// contact writes only its own sim, and the contacts whose state changed
    /// are gathered per worker as bits by contact id, merged by bitwise or.
    pub(crate) fn collide(&mut self, _ctx: &StepContext) {
        let capacity = self.contact_ids.capacity();
        // The awake set's non-touching contacts leave the set while the
        // sets' body sims are read.
        let mut awake_sims = std::mem::take(&mut self.solver_sets[AWAKE_SET as usize].contact_sims);
        let World {
            shapes,
            bodies,
            solver_sets,
            scratch,
            mixing,
            settings,
            callbacks,
            world_number,
            graph,
            workers,
            ..
        } = self;
        // The broad phase's trees, which the pair search left as they were,
        // are rebuilt beside the solver's stages (`StepScratch::rebuild_trees`),
        // as Box2D runs `b2UpdateTreesTask` beside its narrow phase and solver:
        // nothing reads them before the continuous stage, and they must be
        // rebuilt before the next enlargement. Set before the narrow phase
        // runs, so that a panic in it still leaves them to the next step's
        // pair search.
        scratch.rebuild_trees = true;
        let worker_scratch = scratch.worker_scratch(workers.count(), |w| {
            w.contact_bits.set_bit_count_and_clear(capacity);
            w.contact_flags = 0;
        });

        // The touching contacts of every colour, then the awake set's others.
        let mut lists = [SharedMut::empty(); GRAPH_COLOR_COUNT + 1];
        for (list, color) in lists.iter_mut().zip(graph.colors.iter_mut()) {
            *list = SharedMut::new(&mut color.contact_sims);
        }
        lists[GRAPH_COLOR_COUNT] = SharedMut::new(&mut awake_sims);
        let mut first = [0usize; GRAPH_COLOR_COUNT + 2];
        for (k, list) in lists.iter().enumerate() {
            first[k + 1] = first[k] + list.len();
        }
        let total = first[GRAPH_COLOR_COUNT + 1];

        let recycle_distance = settings.contact_recycle_distance;
        let speculative = settings.enable_speculative;
        let pre_solve = callbacks.pre_solve(*world_number); // events
        let (shapes, bodies, solver_sets, mixing) = (&*shapes, &*bodies, &*solver_sets, &*mixing);
        let simd = self.simd;
        let collide_block = |start: usize, end: usize, worker: usize| {
            let mut own = lock_worker(worker_scratch, worker);
            for (k, list) in lists.iter().enumerate() {
                let (lo, hi) = (start.max(first[k]), end.min(first[k + 1]));
                if lo >= hi {
                    continue;
                }
                // SAFETY: blocks take disjoint ranges `start..end` of the
                // concatenated lists, so these sims belong to this block.
                #[allow(unsafe_code)]
                let sims = unsafe { list.range(lo - first[k], hi - first[k]) };
                let env = CollideEnv {
                    mixing,
                    speculative,
                    recycle_distance,
                    shapes,
                    bodies,
                    solver_sets,
                    pre_solve: &pre_solve,
                };
                own.contact_flags |= collide_sims(simd, &env, sims, &mut own.contact_bits);
            }
        };
        workers.for_each_block(total, MIN_CONTACT_BLOCK, |range, worker| {
            collide_block(range.start, range.end, worker);
        });

        let bits = &mut scratch.contact_state_bits;
        bits.set_bit_count_and_clear(capacity);
        let mut flags = 0;
        for w in &mut scratch.workers {
            let w = w.get_mut().unwrap_or_else(|e| e.into_inner());
            bits.union_with(&w.contact_bits);
            flags |= w.contact_flags;
        }
        // events: every awake contact was updated just now
        scratch.hit_events_possible = flags & sim_flags::ENABLE_HIT_EVENT != 0;
        self.solver_sets[AWAKE_SET as usize].contact_sims = awake_sims;
        self.update_contact_states();
    }

    /// Applies the state changes recorded by the narrow phase.
    ///
    /// The changed contacts and their sims are scattered and mostly not in
    /// the cache, and each change must read both before it knows what to do.
    /// So while one change is applied, the contact two changes ahead and the
    /// sim of the next one (whose contact was asked for the step before) are
    /// asked into the cache, with the last sim of the next one's list (which
    /// moves into its place when it leaves) and its two rows of the pair set
    /// (which a destroyed contact edits): their reads overlap the work
    /// instead of stalling it.
    fn update_contact_states(&mut self) {
        let mut walk = SetBits::default();
        let bits = &self.scratch.contact_state_bits;
        let (mut current, mut ahead) = (walk.next(bits), walk.next(bits));
        if let Some(id) = ahead {
            prefetch_value(self.contacts.as_ptr().wrapping_add(id as usize));
        }
        while let Some(contact_id) = current {
            let after = walk.next(&self.scratch.contact_state_bits);
            if let Some(id) = after {
                prefetch_value(self.contacts.as_ptr().wrapping_add(id as usize));
            }
            if let Some(id) = ahead {
                let (sim, last) = self.contact_sim_ptrs(id);
                prefetch_value(sim);
                prefetch_value(last);
                let contact = &self.contacts[id as usize];
                self.pair_set
                    .prefetch_rows(contact.shape_id_a, contact.shape_id_b);
            }
            self.apply_contact_state_change(contact_id);
            (current, ahead) = (ahead, after);
        }
    }

    /// Where the sim of awake contact `contact_id` is, and the last sim of
    /// its list (which takes its place when it leaves the list), for a
    /// prefetch only (see `update_contact_states`).
    #[inline(always)]
    fn contact_sim_ptrs(&self, contact_id: u32) -> (*const ContactSim, *const ContactSim) {
        let contact = &self.contacts[contact_id as usize];
        let sims = match self.graph.colors.get(contact.color_index as usize) {
            Some(color) => &color.contact_sims,
            None => &self.solver_sets[AWAKE_SET as usize].contact_sims,
        };
        let at = sims.as_ptr();
        (
            at.wrapping_add(contact.local_index as usize),
            at.wrapping_add(sims.len().saturating_sub(1)),
        )
    }

    fn apply_contact_state_change(&mut self, contact_id: u32) {
        let contact = self.contacts[contact_id as usize];
        debug_assert_eq!(contact.set_index, AWAKE_SET);
        let (color, local) = (contact.color_index, contact.local_index);
        let flags = if color != NULL_INDEX {
            self.graph.colors[color as usize].contact_sims[local as usize].sim_flags
        } else {
            self.solver_sets[AWAKE_SET as usize].contact_sims[local as usize].sim_flags
        };

        if flags & sim_flags::DISJOINT != 0 {
            self.destroy_contact(contact_id, false);
        } else if flags & sim_flags::STARTED_TOUCHING != 0 {
            debug_assert_eq!(color, NULL_INDEX);
            debug_assert_eq!(contact.island_id, NULL_INDEX);
            // Link first: it wakes the other body so that both sims are in
            // place before the contact enters the graph.
            self.contacts[contact_id as usize].flags |= contact_flags::TOUCHING;
            self.link_contact(contact_id);
            debug_assert_eq!(self.contacts[contact_id as usize].local_index, local);
            let sims = &mut self.solver_sets[AWAKE_SET as usize].contact_sims;
            sims[local as usize].sim_flags &= !sim_flags::STARTED_TOUCHING;
            let sim = sims[local as usize];
            self.emit_contact_begin(contact_id, &sim.manifold); // events
            self.remove_contact_sim_from_set(AWAKE_SET, local);
            self.add_contact_to_graph(contact_id, sim);
        } else if flags & sim_flags::STOPPED_TOUCHING != 0 {
            debug_assert_ne!(color, NULL_INDEX);
            let mut sim = self.graph.colors[color as usize].contact_sims[local as usize];
            sim.sim_flags &= !sim_flags::STOPPED_TOUCHING;
            self.emit_contact_end(contact_id); // events
            self.contacts[contact_id as usize].flags &= !contact_flags::TOUCHING;
            self.unlink_contact(contact_id);
            let (body_a, body_b) = (contact.edges[0].body_id, contact.edges[1].body_id);
            self.remove_contact_from_graph(body_a, body_b, color, local);
            let awake = &mut self.solver_sets[AWAKE_SET as usize];
            let c = &mut self.contacts[contact_id as usize];
            c.color_index = NULL_INDEX;
            c.local_index = awake.contact_sims.len() as u32;
            awake.contact_sims.push(sim);
        }
    }
}

/// The mask a moved shape's pair search queries the trees with: the category
/// bits a shape must have to pass [`should_create_contact`] with `shape`. A
/// sensor pairs with nothing; a positive collision group lets a shape of the
/// same group through whatever its category, so it queries with every bit.
#[inline]
fn pair_query_mask(shape: &Shape) -> u64 {
    if shape.is_sensor {
        0
    } else if shape.filter.group_index > 0 {
        u64::MAX
    } else {
        shape.filter.mask_bits
    }
}

/// The pair filter: whether two shapes found overlapping by the broad phase,
/// `a < b`, with no contact yet, should get one.
#[inline(always)]
fn should_create_contact(shapes: &[Shape], bodies: &[Body], a: u32, b: u32) -> bool {
    let (sa, sb) = (&shapes[a as usize], &shapes[b as usize]);
    if sa.body_id == sb.body_id || sa.is_sensor || sb.is_sensor {
        return false;
    }
    if !sa.filter.should_collide(&sb.filter) {
        return false;
    }
    let (ba, bb) = (&bodies[sa.body_id as usize], &bodies[sb.body_id as usize]);
    if ba.body_type != BodyType::Dynamic && bb.body_type != BodyType::Dynamic {
        return false;
    }
    pair_order(&sa.geometry, &sb.geometry).is_some()
}

/// What the narrow phase reads to update a contact.
struct CollideEnv<'a> {
    mixing: &'a Mixing,
    speculative: bool,
    recycle_distance: f32,
    shapes: &'a [Shape],
    bodies: &'a [Body],
    solver_sets: &'a [SolverSet],
    pre_solve: &'a PreSolve<'a>,
}

multiversion!(
    /// Updates the contacts `sims` and sets the bit (by contact id) of each
    /// one the serial pass must look at, built for the world's SIMD path.
    /// Returns the updated contacts' `sim_flags` or-ed together.
    fn collide_sims(
        env: &CollideEnv,
        sims: &mut [ContactSim],
        changed: &mut BitSet,
    ) -> u32 = collide_sims_kernel
);

#[inline(always)]
fn collide_sims_kernel(env: &CollideEnv, sims: &mut [ContactSim], changed: &mut BitSet) -> u32 {
    let mut flags = 0;
    for i in 0..sims.len() {
        let e = env;
        let (shapes, bodies, sets) = (e.shapes, e.bodies, e.solver_sets);
        prefetch_ahead(e, sims, i);
        let sim = &mut sims[i];
        if collide_one(
            e.mixing,
            e.speculative,
            e.recycle_distance,
            shapes,
            bodies,
            sets,
            e.pre_solve,
            sim,
        ) {
            changed.set(sim.contact_id);
        }
        flags |= sim.sim_flags;
    }
    flags
}

/// How many contacts ahead [`prefetch_ahead`] asks for each contact's
/// shapes, then their bodies, then the bodies' sims: each stage reads what
/// the one before brought in.
const SIMS_AHEAD: usize = 2;
const SHAPES_AHEAD: usize = 12;
const BODIES_AHEAD: usize = 7;
const BODY_SIMS_AHEAD: usize = 3;

/// Prefetch hints for the contacts after `sims[i]`: the narrow phase reads,
/// per contact, its shapes, their bodies and the bodies' sims, each found
/// through the one before and each usually not in the cache, so a contact's
/// update would wait on three loads in a row. The hints overlap those waits
/// with the updates of the contacts before it. The sim two ahead is asked for
/// whole too: its 224 bytes span four lines, and the recycling test reads its
/// third (the cached rotations) first, before the CPU's own stream prefetch
/// has caught up with it. No value changes.
#[inline(always)]
fn prefetch_ahead(env: &CollideEnv, sims: &[ContactSim], i: usize) {
    let shapes = env.shapes;
    if let Some(sim) = sims.get(i + SIMS_AHEAD) {
        prefetch_value(sim);
    }
    if let Some(sim) = sims.get(i + SHAPES_AHEAD) {
        prefetch_value(shapes.as_ptr().wrapping_add(sim.shape_id_a as usize));
        prefetch_value(shapes.as_ptr().wrapping_add(sim.shape_id_b as usize));
    }
    let body = |shape: u32| shapes.get(shape as usize).map(|s| s.body_id as usize);
    if let Some(sim) = sims.get(i + BODIES_AHEAD) {
        for body in [body(sim.shape_id_a), body(sim.shape_id_b)]
            .into_iter()
            .flatten()
        {
            prefetch_value(env.bodies.as_ptr().wrapping_add(body));
        }
    }
    if let Some(sim) = sims.get(i + BODY_SIMS_AHEAD) {
        for body in [body(sim.shape_id_a), body(sim.shape_id_b)]
            .into_iter()
            .flatten()
        {
            if let Some(b) = env.bodies.get(body)
                && let Some(set) = env.solver_sets.get(b.set_index as usize)
            {
                prefetch_value(set.body_sims.as_ptr().wrapping_add(b.local_index as usize));
            }
        }
    }
}

/// Updates one contact. Returns whether its touching state changed or its
/// fat boxes separated (the serial pass must look at it).
#[inline(always)]
fn collide_one(
    mixing: &Mixing,
    speculative: bool,
    recycle_distance: f32,
    shapes: &[Shape],
    bodies: &[Body],
    solver_sets: &[SolverSet],
    pre_solve: &PreSolve,
    sim: &mut ContactSim,
) -> bool {
    let shape_a = &shapes[sim.shape_id_a as usize];
    let shape_b = &shapes[sim.shape_id_b as usize];
    if !shape_a.fat_aabb.overlaps(&shape_b.fat_aabb) {
        sim.sim_flags |= sim_flags::DISJOINT;
        sim.sim_flags &= !sim_flags::TOUCHING;
        return true;
    }
    let was_touching = sim.sim_flags & sim_flags::TOUCHING != 0;

    let body_a = &bodies[shape_a.body_id as usize];
    let body_b = &bodies[shape_b.body_id as usize];
    let sim_a = body_a.sim(solver_sets);
    let sim_b = body_b.sim(solver_sets);

    sim.body_sim_index_a = body_a.awake_index();
    sim.inv_mass_a = sim_a.inv_mass;
    sim.inv_i_a = sim_a.inv_inertia;
    sim.body_sim_index_b = body_b.awake_index();
    sim.inv_mass_b = sim_b.inv_mass;
    sim.inv_i_b = sim_b.inv_inertia;

    let xf_a = sim_a.transform;
    let xf_b = sim_b.transform;

    // events: contacts the pre-solve callback sees are never recycled
    let recycle = recycle_distance > 0.0
        && body_a.enable_contact_recycling
        && body_b.enable_contact_recycling
        && !pre_solve.applies(shape_a, shape_b);
    if recycle && sim.sim_flags & sim_flags::RECYCLE_VALID != 0 {
        let max_extent_a = if body_a.body_type == BodyType::Static {
            0.0
        } else {
            sim_a.max_extent
        };
        let max_extent_b = if body_b.body_type == BodyType::Static {
            0.0
        } else {
            sim_b.max_extent
        };
        // Non-touching contacts must not miss entering the speculative range.
        let tolerance = if was_touching {
            recycle_distance
        } else {
            recycle_distance.min(SPECULATIVE_DISTANCE)
        };
        if try_recycle(sim, sim_a, sim_b, max_extent_a.max(max_extent_b), tolerance) {
            return false;
        }
    }

    sim.cached_rotation_a = xf_a.q;
    sim.cached_rotation_b = xf_b.q;
    sim.cached_relative = xf_a.inv_mul(xf_b);
    sim.sim_flags |= sim_flags::RECYCLE_VALID;

    let offset_a = xf_a.q.rotate(sim_a.local_center);
    let offset_b = xf_b.q.rotate(sim_b.local_center);
    let touching = update_contact(
        mixing,
        speculative,
        sim,
        shape_a,
        xf_a,
        offset_a,
        shape_b,
        xf_b,
        offset_b,
    );
    // events: the pre-solve callback may switch the contact off for this step
    let touching = touching && pre_solve.filter_contact(sim, shape_a, shape_b);
    let count = sim.manifold.point_count;
    for (base, mp) in sim
        .base_separation
        .iter_mut()
        .zip(&sim.manifold.points[..count])
    {
        *base = mp.separation;
    }

    if touching && !was_touching {
        sim.sim_flags |= sim_flags::STARTED_TOUCHING;
        true
    } else if !touching && was_touching {
        sim.sim_flags |= sim_flags::STOPPED_TOUCHING;
        true
    } else {
        false
    }
}

/// Contact recycling: when the two bodies have barely moved relative to each
/// other since the manifold was computed, keep the manifold (points, normal,
/// feature ids and impulses) and only update each point's separation from the
/// bodies' motion, as the solver does between substeps. "Barely" means that
/// neither body turned more than about 11° (cos > 0.98) and that no point of
/// either body moved relative to the other by more than `tolerance`, bounded
/// by `|Δp| + max_extent·|sin Δθ|` as in conservative advancement. Returns
/// whether the contact was recycled.
///
/// The idea and the tolerance test follow Box2D v3 (E. Catto, "contact
/// recycling", `physics_world.c`, 2025).
#[inline(always)]
fn try_recycle(
    sim: &mut ContactSim,
    sim_a: &BodySim,
    sim_b: &BodySim,
    max_extent: f32,
    tolerance: f32,
) -> bool {
    let (qa, qb) = (sim_a.transform.q, sim_b.transform.q);
    let (ca, cb) = (sim.cached_rotation_a, sim.cached_rotation_b);
    // cos of the rotation since caching, for each body.
    let cos_a = qa.c * ca.c + qa.s * ca.s;
    let cos_b = qb.c * cb.c + qb.s * cb.s;
    if cos_a.min(cos_b) <= RECYCLE_MIN_COS {
        return false;
    }
    let relative = sim_a.transform.inv_mul(sim_b.transform);
    let cached = sim.cached_relative;
    let distance = relative.p.distance(cached.p);
    let turn = relative.q.inv_mul(cached.q);
    if distance + max_extent * turn.s.abs() >= tolerance {
        return false;
    }
    let dqa = qa.mul(ca.inverse());
    let dqb = qb.mul(cb.inverse());
    let dc = sim_b.center - sim_a.center;
    let normal = sim.manifold.normal;
    let count = sim.manifold.point_count;
    for (mp, &base) in sim.manifold.points[..count]
        .iter_mut()
        .zip(&sim.base_separation)
    {
        let ra = dqa.rotate(mp.anchor_a);
        let rb = dqb.rotate(mp.anchor_b);
        mp.separation = base + (dc + (rb - ra)).dot(normal);
        mp.persisted = true;
    }
    true
}

/// Smallest cosine of a body's turn for which a contact may be recycled.
const RECYCLE_MIN_COS: f32 = 0.98;

/// A walk over the set bits of a [`BitSet`] in increasing order that holds no
/// borrow of it between steps (the set must not change during the walk).
#[derive(Clone, Copy, Default)]
struct SetBits {
    /// The next word to read.
    k: usize,
    /// The bits of word `k - 1` not handed out yet.
    word: u64,
}

impl SetBits {
    /// The next set bit, or `None` at the end.
    #[inline(always)]
    fn next(&mut self, bits: &BitSet) -> Option<u32> {
        while self.word == 0 {
            if self.k >= bits.word_count() {
                return None;
            }
            self.word = bits.word(self.k);
            self.k += 1;
        }
        let bit = 64 * (self.k as u32 - 1) + self.word.trailing_zeros();
        self.word &= self.word - 1;
        Some(bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk hands out exactly the set bits, in increasing order, across
    /// empty words and up to the last bit, and nothing on an empty set.
    #[test]
    fn set_bits_walk_every_set_bit_in_order() {
        let mut bits = BitSet::default();
        let mut walk = SetBits::default();
        assert_eq!(walk.next(&bits), None);

        bits.set_bit_count_and_clear(300);
        let set = [0u32, 1, 63, 64, 65, 127, 200, 299];
        for &i in &set {
            bits.set(i);
        }
        let mut walk = SetBits::default();
        let got: Vec<u32> = std::iter::from_fn(|| walk.next(&bits)).collect();
        assert_eq!(got, set);
        assert_eq!(walk.next(&bits), None);
    }
}
