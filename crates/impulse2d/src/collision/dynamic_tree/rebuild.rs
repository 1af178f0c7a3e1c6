//! Top-down rebuild of a [`DynamicTree`] with binned surface-area-heuristic splits.
//!
//! # References
//! - I. Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, IEEE
//!   Symposium on Interactive Ray Tracing, 2007.

use super::{BIN_COUNT, Child, DynamicTree, EMPTY_BOX, Link, MOVED_FLAG, ROOT};
use crate::math::Vec2;

/// A subtree or proxy being placed by [`DynamicTree::rebuild`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BuildLeaf {
    pub(super) child: Child,
    pub(super) center: Vec2,
    pub(super) bin: u32,
}

/// A node under construction in [`DynamicTree::rebuild`]: it receives the build
/// leaves `start..end`, split at `split`; `next_slot` is the next slot to fill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BuildItem {
    node: u32,
    start: usize,
    split: usize,
    end: usize,
    next_slot: usize,
}

/// Buffers reused by [`DynamicTree::rebuild`].
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct RebuildScratch {
    pub(super) leaves: Vec<BuildLeaf>,
    items: Vec<BuildItem>,
    nodes: Vec<u32>,
}

impl DynamicTree {
    /// Collects the build leaves: proxies and kept subtrees. Every node descended into
    /// is dropped (freed at once in a partial build; a full build resets the pool).
    pub(super) fn gather_build_leaves(&mut self, full_build: bool, scratch: &mut RebuildScratch) {
        scratch.leaves.clear();
        scratch.nodes.clear();
        scratch.nodes.push(ROOT);
        while let Some(node_index) = scratch.nodes.pop() {
            let node = self.nodes[node_index as usize];
            for child in node.children {
                if child.is_empty() {
                    continue;
                }
                if child.is_node() && (full_build || child.is_moved()) {
                    scratch.nodes.push(child.index());
                    continue;
                }
                let mut child = child;
                child.word &= !MOVED_FLAG;
                scratch.leaves.push(BuildLeaf {
                    child,
                    center: child.aabb.center(),
                    bin: 0,
                });
            }
            if node_index != ROOT && !full_build {
                self.free_node(node_index);
            }
        }
    }

    /// Builds the tree below the root over `scratch.leaves`, top-down.
    pub(super) fn build(&mut self, scratch: &mut RebuildScratch) {
        let leaves = &mut scratch.leaves;
        let count = leaves.len();
        debug_assert!(count > 0);
        if count == 1 {
            self.place(ROOT, 0, leaves[0].child);
            self.nodes[ROOT as usize].children[1] = Child::EMPTY;
            return;
        }

        // Below this depth, splits take the median so the height stays logarithmic.
        let median_depth = count.ilog2() as usize + 1;

        let items = &mut scratch.items;
        items.clear();
        let split = partition(&mut leaves[..], false);
        items.push(BuildItem {
            node: ROOT,
            start: 0,
            split,
            end: count,
            next_slot: 0,
        });

        while let Some(&item) = items.last() {
            if item.next_slot == 2 {
                items.pop();
                let Some(parent) = items.last() else { break };
                let child = self.internal_child(item.node);
                self.nodes[parent.node as usize].children[parent.next_slot - 1] = child;
                continue;
            }
            let slot = item.next_slot;
            if let Some(top) = items.last_mut() {
                top.next_slot += 1;
            }
            let (start, end) = if slot == 0 {
                (item.start, item.split)
            } else {
                (item.split, item.end)
            };
            if end - start == 1 {
                self.place(item.node, slot, leaves[start].child);
                continue;
            }
            let node = self.allocate_node();
            self.node_links[node as usize] = Link::at(item.node, slot);
            let median = items.len() >= median_depth;
            let split = start + partition(&mut leaves[start..end], median);
            items.push(BuildItem {
                node,
                start,
                split,
                end,
                next_slot: 0,
            });
        }
    }

    #[inline]
    fn place(&mut self, parent: u32, slot: usize, child: Child) {
        self.nodes[parent as usize].children[slot] = child;
        self.connect(parent, slot);
    }
}

/// Splits `leaves` in two non-empty parts in place and returns the size of the first.
/// Uses binned SAH along the longer axis of the centres' bounds, or the median along
/// that axis when `median` is set (or when the centres coincide).
pub(super) fn partition(leaves: &mut [BuildLeaf], median: bool) -> usize {
    let count = leaves.len();
    debug_assert!(count >= 2);
    if count == 2 {
        return 1;
    }

    let mut lower = leaves[0].center;
    let mut upper = leaves[0].center;
    for leaf in &leaves[1..] {
        lower = lower.min(leaf.center);
        upper = upper.max(leaf.center);
    }
    let size = upper - lower;
    let use_x = size.x > size.y;
    let axis = |v: Vec2| if use_x { v.x } else { v.y };
    let extent = axis(size);

    if median || extent.is_nan() || extent <= 0.0 || extent.is_infinite() {
        let mid = count / 2;
        leaves.select_nth_unstable_by(mid, |a, b| axis(a.center).total_cmp(&axis(b.center)));
        return mid;
    }

    // Bin the centres, with each bin's box and count.
    let mut bin_boxes = [EMPTY_BOX; BIN_COUNT];
    let mut bin_counts = [0usize; BIN_COUNT];
    let origin = axis(lower);
    let scale = BIN_COUNT as f32 / extent;
    for leaf in leaves.iter_mut() {
        // Float-to-int casts saturate, and NaN becomes 0.
        let bin = (((axis(leaf.center) - origin) * scale) as usize).min(BIN_COUNT - 1);
        leaf.bin = bin as u32;
        bin_boxes[bin] = bin_boxes[bin].union(&leaf.child.aabb);
        bin_counts[bin] += 1;
    }

    // Plane i puts bins 0..=i on the left. Sweep from the right for the right sides.
    let mut right_boxes = [EMPTY_BOX; BIN_COUNT];
    let mut right_counts = [0usize; BIN_COUNT];
    let mut acc_box = EMPTY_BOX;
    let mut acc_count = 0;
    for i in (1..BIN_COUNT).rev() {
        acc_box = acc_box.union(&bin_boxes[i]);
        acc_count += bin_counts[i];
        right_boxes[i - 1] = acc_box;
        right_counts[i - 1] = acc_count;
    }

    let mut best_plane = None;
    let mut best_cost = f32::MAX;
    let mut left_box = EMPTY_BOX;
    let mut left_count = 0;
    for plane in 0..BIN_COUNT - 1 {
        left_box = left_box.union(&bin_boxes[plane]);
        left_count += bin_counts[plane];
        let right_count = right_counts[plane];
        if left_count == 0 || right_count == 0 {
            continue;
        }
        let cost = left_count as f32 * left_box.perimeter()
            + right_count as f32 * right_boxes[plane].perimeter();
        if best_plane.is_none() || cost < best_cost {
            best_plane = Some(plane);
            best_cost = cost;
        }
    }
    let Some(plane) = best_plane else {
        let mid = count / 2;
        leaves.select_nth_unstable_by(mid, |a, b| axis(a.center).total_cmp(&axis(b.center)));
        return mid;
    };

    // Two-pointer partition: bins up to `plane` go left.
    let (mut i, mut j) = (0usize, count);
    while i < j {
        if leaves[i].bin as usize <= plane {
            i += 1;
        } else {
            j -= 1;
            leaves.swap(i, j);
        }
    }
    debug_assert!(i > 0 && i < count);
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::Aabb;

    fn square(x: f32, y: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, y - half), Vec2::new(x + half, y + half))
    }

    #[test]
    fn partition_splits_two_clusters_apart() {
        let mut leaves: Vec<BuildLeaf> = [0.0, 0.5, 1.0, 100.0, 100.5]
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let aabb = square(x, 0.0, 0.25);
                BuildLeaf {
                    child: Child::leaf(aabb, i as u32),
                    center: aabb.center(),
                    bin: 0,
                }
            })
            .collect();
        let k = partition(&mut leaves, false);
        assert_eq!(k, 3);
        assert!(leaves[..3].iter().all(|l| l.center.x < 50.0));
        assert!(leaves[3..].iter().all(|l| l.center.x > 50.0));
    }
}
