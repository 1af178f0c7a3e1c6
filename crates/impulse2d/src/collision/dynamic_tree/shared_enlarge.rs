//! Proxy enlargement on several threads at once: the step's enlargement of
//! the proxies whose fat boxes grew, split into blocks of bodies.
//!
//! [`DynamicTree::enlarge_proxy`] writes the leaf's box, grows each ancestor
//! that does not contain it yet and marks the path to the root. Done for many
//! proxies, the result does not depend on their order: each ancestor ends up
//! as its old box joined with every new box below it (a join of corners,
//! which is exact), and marked when any proxy below it was enlarged (the
//! tests `enlargements_in_any_order_give_the_same_tree` and
//! `shared_enlargement_matches_one_by_one` check both). Threads that share
//! the ancestors can therefore enlarge distinct proxies at the same time if
//! each corner grows by an atomic minimum or maximum and each mark is an
//! atomic `or`; a thread that finds an ancestor already big enough stops
//! growing there, since the thread that grew it goes on up with a box that
//! covers that corner. (A tie between `+0.0` and `-0.0` keeps whichever came
//! first, as one thread does; such a corner compares equal either way, and the
//! next rebuild replaces every grown box.)

use super::{DynamicTree, Link, MOVED_FLAG, Node, Proxy, ProxyId, ROOT, check_aabb};
use crate::error::{Error, Result};
use crate::pos::{Coord, WorldAabb};
use core::marker::PhantomData;
use core::sync::atomic::Ordering;

#[cfg(not(feature = "large-world"))]
type AtomicCoord = core::sync::atomic::AtomicU32;
#[cfg(feature = "large-world")]
type AtomicCoord = core::sync::atomic::AtomicU64;

/// A tree whose proxies several threads enlarge at once (see the module
/// documentation); made by [`DynamicTree::shared_enlarge`], which borrows the
/// tree mutably for its lifetime.
pub(crate) struct SharedEnlarge<'a> {
    nodes: *mut Node,
    node_count: usize,
    links: &'a [Link],
    proxies: &'a [Proxy],
    _borrow: PhantomData<&'a mut [Node]>,
}

// SAFETY: the nodes are only written through `SharedEnlarge::enlarge`, whose
// writes to shared places (ancestors' boxes and marks) are atomic and whose
// plain writes go to the leaf of the one proxy the caller owns.
#[allow(unsafe_code)]
unsafe impl Send for SharedEnlarge<'_> {}
// SAFETY: as above.
#[allow(unsafe_code)]
unsafe impl Sync for SharedEnlarge<'_> {}

impl DynamicTree {
    /// The tree, for [`SharedEnlarge::enlarge`] on several threads at once.
    pub(crate) fn shared_enlarge(&mut self) -> SharedEnlarge<'_> {
        SharedEnlarge {
            nodes: self.nodes.as_mut_ptr(),
            node_count: self.nodes.len(),
            links: &self.node_links[..],
            proxies: &self.proxies[..],
            _borrow: PhantomData,
        }
    }
}

/// The atomic view of a corner coordinate.
///
/// # Safety
/// `at` points to a live coordinate of a node that every thread touching it
/// at the same time reaches through this view.
#[allow(unsafe_code)]
#[inline(always)]
unsafe fn atomic<'a>(at: *mut Coord) -> &'a AtomicCoord {
    // SAFETY: `Coord` and the atomic integer of its width have the same size
    // and alignment; the caller keeps the place alive and atomic meanwhile.
    unsafe { AtomicCoord::from_ptr(at.cast()) }
}

#[inline(always)]
fn load(at: &AtomicCoord) -> Coord {
    Coord::from_bits(at.load(Ordering::Relaxed))
}

/// Lowers the coordinate to `value` if `value` is below it; by an atomic
/// exchange if `SHARED`, else by a plain store (one thread alone).
#[inline(always)]
fn lower_to<const SHARED: bool>(at: &AtomicCoord, value: Coord) {
    if !SHARED {
        if value < load(at) {
            // SAFETY: no other thread touches the tree (see `enlarge`).
            #[allow(unsafe_code)]
            unsafe {
                *at.as_ptr() = value.to_bits();
            }
        }
        return;
    }
    let mut bits = at.load(Ordering::Relaxed);
    while value < Coord::from_bits(bits) {
        match at.compare_exchange_weak(bits, value.to_bits(), Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => return,
            Err(now) => bits = now,
        }
    }
}

/// Raises the coordinate to `value` if `value` is above it (as
/// [`lower_to`]).
#[inline(always)]
fn raise_to<const SHARED: bool>(at: &AtomicCoord, value: Coord) {
    if !SHARED {
        if value > load(at) {
            // SAFETY: as in `lower_to`.
            #[allow(unsafe_code)]
            unsafe {
                *at.as_ptr() = value.to_bits();
            }
        }
        return;
    }
    let mut bits = at.load(Ordering::Relaxed);
    while value > Coord::from_bits(bits) {
        match at.compare_exchange_weak(bits, value.to_bits(), Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => return,
            Err(now) => bits = now,
        }
    }
}

impl SharedEnlarge<'_> {
    /// A hint for [`enlarge`](Self::enlarge) of proxy `index` a little
    /// later: brings its record into the cache.
    #[inline(always)]
    pub(crate) fn prefetch_proxy(&self, index: u32) {
        let at = self.proxies.as_ptr().wrapping_add(index as usize);
        crate::prefetch::prefetch_value(at);
    }

    /// A hint for [`enlarge`](Self::enlarge) of proxy `index` soon (after
    /// [`prefetch_proxy`](Self::prefetch_proxy)): brings in the node holding
    /// its leaf, and that node's link.
    #[inline(always)]
    pub(crate) fn prefetch_leaf(&self, index: u32) {
        if let Some(proxy) = self.proxies.get(index as usize) {
            let parent = proxy.link.parent as usize;
            crate::prefetch::prefetch_value(self.nodes.wrapping_add(parent).cast_const());
            crate::prefetch::prefetch_value(self.links.as_ptr().wrapping_add(parent));
        }
    }

    /// [`DynamicTree::enlarge_proxy`] of proxy `id` to `aabb`, which threads
    /// may run at the same time for distinct proxies. Returns the proxy's
    /// index.
    ///
    /// # Errors
    /// As [`DynamicTree::enlarge_proxy`]; the tree is unchanged on error.
    ///
    /// # Safety
    /// No other thread enlarges the same proxy meanwhile; and none touches
    /// the tree at all unless `SHARED` (which makes the shared places'
    /// updates atomic).
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(crate) unsafe fn enlarge<const SHARED: bool>(
        &self,
        id: ProxyId,
        aabb: WorldAabb,
    ) -> Result<u32> {
        let link = match self.proxies.get(id.index as usize) {
            Some(p) if p.link.allocated && p.generation == id.generation => p.link,
            _ => return Err(Error::InvalidId { what: "proxy" }),
        };
        check_aabb(&aabb)?;
        let (mut node, slot) = (link.parent as usize, link.slot as usize & 1);
        assert!(node < self.node_count);
        // SAFETY: `node` is in bounds (checked), and this leaf belongs to the
        // caller's proxy alone: no other thread touches it. Its fields are
        // written through a raw place, not a reference to the node, whose
        // other child another thread may be writing.
        unsafe {
            let leaf = &raw mut (*self.nodes.add(node)).children[slot];
            (*leaf).aabb = aabb;
            (*leaf).word |= MOVED_FLAG;
        }
        // Grow the ancestors while they do not contain the new box (each
        // marked), then mark the rest of the path up to the first ancestor
        // already marked.
        let mut child: *mut super::Child;
        loop {
            if node == ROOT as usize {
                return Ok(id.index);
            }
            (node, child) = self.slot_above(node);
            // SAFETY: an internal node's child slot (see `slot_above`).
            let [lx, ly, ux, uy] = unsafe {
                [
                    atomic(&raw mut (*child).aabb.lower.x),
                    atomic(&raw mut (*child).aabb.lower.y),
                    atomic(&raw mut (*child).aabb.upper.x),
                    atomic(&raw mut (*child).aabb.upper.y),
                ]
            };
            let contains = load(lx) <= aabb.lower.x
                && load(ly) <= aabb.lower.y
                && aabb.upper.x <= load(ux)
                && aabb.upper.y <= load(uy);
            if contains {
                break;
            }
            lower_to::<SHARED>(lx, aabb.lower.x);
            lower_to::<SHARED>(ly, aabb.lower.y);
            raise_to::<SHARED>(ux, aabb.upper.x);
            raise_to::<SHARED>(uy, aabb.upper.y);
            // SAFETY: as above.
            unsafe { mark::<SHARED>(child) };
        }
        loop {
            // SAFETY: as above.
            if unsafe { mark::<SHARED>(child) } {
                return Ok(id.index);
            }
            if node == ROOT as usize {
                return Ok(id.index);
            }
            (node, child) = self.slot_above(node);
        }
    }

    /// The parent of node `node` (not the root), and the slot holding
    /// `node` in it: an internal node's child slot, which every thread
    /// reaches through atomic views when they share the tree.
    #[allow(unsafe_code)]
    #[inline(always)]
    fn slot_above(&self, node: usize) -> (usize, *mut super::Child) {
        let up = self.links[node];
        let parent = up.parent as usize;
        assert!(parent < self.node_count);
        // SAFETY: in bounds (checked); a place, not a reference.
        let slot = unsafe { &raw mut (*self.nodes.add(parent)).children[up.slot as usize & 1] };
        (parent, slot)
    }
}

/// Marks an internal node's child slot moved; returns whether it was already.
///
/// # Safety
/// `child` is a live internal child slot, whose word every thread touching it
/// reaches atomically.
#[allow(unsafe_code)]
#[inline(always)]
unsafe fn mark<const SHARED: bool>(child: *mut super::Child) -> bool {
    // SAFETY: `u32` and `AtomicU32` have the same size and alignment; the
    // caller keeps the place alive and atomic.
    let word = unsafe { core::sync::atomic::AtomicU32::from_ptr(&raw mut (*child).word) };
    if word.load(Ordering::Relaxed) & MOVED_FLAG != 0 {
        return true;
    }
    if !SHARED {
        // SAFETY: one thread alone (see `SharedEnlarge::enlarge`).
        unsafe { *word.as_ptr() |= MOVED_FLAG };
        return false;
    }
    word.fetch_or(MOVED_FLAG, Ordering::Relaxed) & MOVED_FLAG != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn boxed(x: f32, y: f32, r: f32) -> WorldAabb {
        crate::pos::to_world_aabb(crate::collision::Aabb::new(
            Vec2::new(x - r, y - r),
            Vec2::new(x + r, y + r),
        ))
    }

    /// A tree of `n` proxies on a grid, rebuilt so that no mark is left.
    fn grid_tree(n: u32) -> (DynamicTree, Vec<ProxyId>) {
        let mut tree = DynamicTree::new();
        let ids = (0..n)
            .map(|i| {
                let (x, y) = ((i % 17) as f32 * 1.5, (i / 17) as f32 * 1.5);
                tree.create_proxy(boxed(x, y, 0.5), 1, u64::from(i))
                    .unwrap()
            })
            .collect();
        tree.rebuild(false);
        (tree, ids)
    }

    /// The new boxes: every third proxy grows (some beyond the whole tree).
    fn new_boxes(ids: &[ProxyId]) -> Vec<(ProxyId, WorldAabb)> {
        ids.iter()
            .enumerate()
            .filter(|(i, _)| i % 3 == 0)
            .map(|(i, &id)| {
                let (x, y) = ((i % 17) as f32 * 1.5, (i / 17) as f32 * 1.5);
                let r = 0.6 + (i % 7) as f32 * 0.9;
                (id, boxed(x + 0.2, y - 0.1, r))
            })
            .collect()
    }

    #[allow(clippy::unnecessary_cast)] // (`u32` bits unless `large-world`)
    fn nodes_of(tree: &DynamicTree) -> Vec<(u32, [u64; 4], u32, [u64; 4])> {
        let bits = |b: &WorldAabb| {
            [
                b.lower.x.to_bits() as u64,
                b.lower.y.to_bits() as u64,
                b.upper.x.to_bits() as u64,
                b.upper.y.to_bits() as u64,
            ]
        };
        tree.nodes
            .iter()
            .map(|n| {
                let [a, b] = &n.children;
                (a.word, bits(&a.aabb), b.word, bits(&b.aabb))
            })
            .collect()
    }

    #[test]
    #[allow(unsafe_code)]
    fn shared_enlargement_matches_one_by_one() {
        let (mut one, ids) = grid_tree(300);
        let mut two = one.clone();
        let boxes = new_boxes(&ids);
        for &(id, b) in &boxes {
            one.enlarge_proxy(id, b).unwrap();
        }
        {
            let shared = two.shared_enlarge();
            let (front, back) = boxes.split_at(boxes.len() / 2);
            std::thread::scope(|s| {
                let shared = &shared;
                // Back to front on one thread, front to back on the other.
                s.spawn(move || {
                    for &(id, b) in back.iter().rev() {
                        // SAFETY: each proxy is in one half only.
                        unsafe { shared.enlarge::<true>(id, b).unwrap() };
                    }
                });
                for &(id, b) in front {
                    // SAFETY: as above.
                    unsafe { shared.enlarge::<true>(id, b).unwrap() };
                }
            });
        }
        assert_eq!(nodes_of(&one), nodes_of(&two));
        two.validate().unwrap();
        // Rebuilt, they stay the same.
        one.rebuild(false);
        two.rebuild(false);
        assert_eq!(nodes_of(&one), nodes_of(&two));
    }

    #[test]
    #[allow(unsafe_code)]
    fn shared_enlargement_refuses_stale_ids_and_bad_boxes() {
        let (mut tree, ids) = grid_tree(20);
        let gone = ids[4];
        tree.destroy_proxy(gone).unwrap();
        let before = nodes_of(&tree);
        let shared = tree.shared_enlarge();
        // SAFETY: one thread.
        unsafe {
            assert!(shared.enlarge::<false>(gone, boxed(0.0, 0.0, 1.0)).is_err());
            let mut bad = boxed(0.0, 0.0, 1.0);
            bad.lower.x = Coord::NAN;
            assert!(shared.enlarge::<false>(ids[5], bad).is_err());
            let mut flipped = boxed(0.0, 0.0, 1.0);
            core::mem::swap(&mut flipped.lower, &mut flipped.upper);
            assert!(shared.enlarge::<true>(ids[6], flipped).is_err());
        }
        assert_eq!(before, nodes_of(&tree));
    }
}
