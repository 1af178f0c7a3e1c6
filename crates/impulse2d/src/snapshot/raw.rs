//! The fast form of a [`RollbackState`](super::RollbackState): the stores a
//! step changes, copied whole into buffers the state reuses, so that a save
//! or a load in steady state allocates nothing and is a few `memcpy`s.

use super::rollback::MOVING_TREES;
use crate::body::{Body, BodyType};
use crate::broad_phase::ProxyKey;
use crate::collision::DynamicTree;
use crate::contact::Contact;
use crate::id::IdPool;
use crate::pos::WorldAabb;
use crate::sensor::{Sensor, Sensors};
use crate::solver::constraint_graph::ConstraintGraph;
use crate::solver::island::Island;
use crate::solver::solver_set::SolverSet;
use crate::world::{PairSet, World};

/// Copies `src` into `self`, reusing `self`'s buffers (no allocation when
/// they are large enough): for the stores kept whole. The structs implement
/// it field by field from their snapshot lists (`wire_struct!(.. and
/// refill)` in `stores.rs`).
pub(super) trait Refill {
    fn refill(&mut self, src: &Self);
}

/// An element of a vector kept whole: copied with `clone_from` unless it
/// owns buffers of its own, which are then refilled in place.
pub(super) trait Elem: Clone {
    fn refill_all(dst: &mut Vec<Self>, src: &[Self]) {
        src.clone_into(dst);
    }
}

impl<T: Copy> Elem for T {}
impl Elem for Body {}

impl Elem for SolverSet {
    fn refill_all(dst: &mut Vec<Self>, src: &[Self]) {
        refill_each(dst, src);
    }
}

impl Elem for Sensor {
    fn refill_all(dst: &mut Vec<Self>, src: &[Self]) {
        refill_each(dst, src);
    }
}

/// Refills a vector's elements in place, so that their buffers are reused.
fn refill_each<T: Refill + Default>(dst: &mut Vec<T>, src: &[T]) {
    dst.truncate(src.len());
    dst.resize_with(src.len(), T::default);
    for (d, s) in dst.iter_mut().zip(src) {
        d.refill(s);
    }
}

impl<T: Elem> Refill for Vec<T> {
    fn refill(&mut self, src: &Self) {
        T::refill_all(self, src);
    }
}

impl<T: Refill, const N: usize> Refill for [T; N] {
    fn refill(&mut self, src: &Self) {
        for (d, s) in self.iter_mut().zip(src) {
            d.refill(s);
        }
    }
}

macro_rules! refill_by_copy {
    ($($t:ty),*) => {$(
        impl Refill for $t {
            fn refill(&mut self, src: &Self) {
                *self = *src;
            }
        }
    )*};
}
refill_by_copy!(bool, u32, f32);

impl Refill for PairSet {
    fn refill(&mut self, src: &Self) {
        self.clone_from(src);
    }
}

impl Refill for Sensors {
    fn refill(&mut self, src: &Self) {
        let Sensors {
            list,
            slot_of_shape: _, // changes only when a sensor shape comes or goes (structural)
        } = src;
        self.list.refill(list);
    }
}

/// The part of a shape a step changes.
#[derive(Clone, Copy, Debug, Default)]
struct ShapeBounds {
    aabb: WorldAabb,
    fat_aabb: WorldAabb,
    enlarged_aabb: bool,
}

/// The moving part of the broad phase, under [`BroadPhase`]'s names (the
/// static tree stays empty: it changes only with a structural edit).
#[derive(Debug, Default)]
struct MovingBroadPhase {
    trees: [DynamicTree; BodyType::COUNT],
    move_buffer: Vec<Option<ProxyKey>>,
    move_slots: [Vec<u32>; BodyType::COUNT],
}

/// Copies of the stores a step changes (the settings, joints and events are
/// kept by the [`RollbackState`](super::RollbackState) for both forms).
/// The fields are named as in [`World`], so that [`refill_stores!`] copies
/// either way with one list.
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
    broad_phase: MovingBroadPhase,
    pair_set: PairSet,
}

/// Refills the stores `$dst` from `$src`: a [`RawStores`] from a [`World`]
/// or the other way round. The stores are the ones `code_world` codes for
/// the compact form (its destructuring of [`World`] says why the others are
/// left out); the shapes' bounds are the caller's.
macro_rules! refill_stores {
    ($dst:expr, $src:expr) => {{
        let (dst, src) = ($dst, $src);
        dst.use_wide_solver.refill(&src.use_wide_solver);
        dst.split_island_id.refill(&src.split_island_id);
        dst.bodies.refill(&src.bodies);
        dst.contacts.refill(&src.contacts);
        dst.contact_ids.refill(&src.contact_ids);
        dst.islands.refill(&src.islands);
        dst.island_ids.refill(&src.island_ids);
        dst.solver_sets.refill(&src.solver_sets);
        dst.solver_set_ids.refill(&src.solver_set_ids);
        dst.graph.refill(&src.graph);
        for t in MOVING_TREES {
            let (dst_tree, src_tree) = (
                &mut dst.broad_phase.trees[t as usize],
                &src.broad_phase.trees[t as usize],
            );
            dst_tree.refill(src_tree);
            // Left out of the snapshot's fields (a decode works it out from
            // the proxies), but true for the tree it came with.
            dst_tree.category_union = src_tree.category_union;
        }
        dst.broad_phase
            .move_buffer
            .refill(&src.broad_phase.move_buffer);
        dst.broad_phase
            .move_slots
            .refill(&src.broad_phase.move_slots);
        dst.pair_set.refill(&src.pair_set);
    }};
}

impl RawStores {
    /// Copies `world`'s stores in (the settings, step counter, joints and
    /// events are the caller's).
    #[inline(never)] // (a call of its own: measured apart from the compact form)
    pub(super) fn save(&mut self, world: &World) {
        refill_stores!(&mut *self, world);
        self.shape_bounds.clear();
        self.shape_bounds
            .extend(world.shapes.iter().map(|s| ShapeBounds {
                aabb: s.aabb,
                fat_aabb: s.fat_aabb,
                enlarged_aabb: s.enlarged_aabb,
            }));
    }

    /// Copies the stores back into `world` (of the same structure).
    #[inline(never)] // (a call of its own: measured apart from the compact form)
    pub(super) fn load(&self, world: &mut World) {
        debug_assert_eq!(self.shape_bounds.len(), world.shapes.len());
        refill_stores!(&mut *world, self);
        for (shape, b) in world.shapes.iter_mut().zip(&self.shape_bounds) {
            shape.aabb = b.aabb;
            shape.fat_aabb = b.fat_aabb;
            shape.enlarged_aabb = b.enlarged_aabb;
        }
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
        let trees: usize = MOVING_TREES
            .iter()
            .map(|&t| &self.broad_phase.trees[t as usize])
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
            + size_of_val(&self.broad_phase.move_buffer[..])
            + self
                .broad_phase
                .move_slots
                .iter()
                .map(|s| size_of_val(&s[..]))
                .sum::<usize>()
            + self.pair_set.heap_bytes()
    }
}
