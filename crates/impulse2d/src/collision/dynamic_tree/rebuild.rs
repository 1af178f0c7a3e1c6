//! Top-down rebuild of a [`DynamicTree`] with binned surface-area-heuristic splits.
//!
//! # References
//! - I. Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, IEEE
//!   Symposium on Interactive Ray Tracing, 2007.

use super::{
    BIN_COUNT, Child, DynamicTree, EMPTY_BOX, INDEX_MASK, INLINE_STACK, InlineStack, Link,
    MOVED_FLAG, NULL_INDEX, Node, ROOT, internal_child,
};
use crate::pos::{Coord, WorldAabb};

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
#[derive(Clone, Debug, Default)]
pub(crate) struct RebuildScratch {
    /// The proxies and kept subtrees to place.
    pub(super) leaves: Vec<Child>,
    /// The node arrays being built; swapped with the tree's afterwards.
    nodes: Vec<Node>,
    links: Vec<Link>,
}

/// Copy stack entry: (old node index, new parent, slot).
type CopyItem = (u32, u32, u8);

impl DynamicTree {
    /// Collects the build leaves: proxies and kept subtrees (unmarked ones, in a
    /// partial build). The nodes descended into are dropped by the build.
    #[inline(always)]
    pub(super) fn gather_build_leaves(&self, full_build: bool, scratch: &mut RebuildScratch) {
        scratch.leaves.clear();
        let mut stack: InlineStack<u32, INLINE_STACK> = InlineStack::new(0);
        stack.push(ROOT);
        while let Some(node_index) = stack.pop() {
            for child in self.nodes[node_index as usize].children {
                if child.is_empty() {
                    continue;
                }
                if child.is_node() && (full_build || child.is_moved()) {
                    stack.push(child.index());
                    continue;
                }
                let mut child = child;
                child.word &= !MOVED_FLAG;
                scratch.leaves.push(child);
            }
        }
    }

    /// Builds a new node array over `scratch.leaves`, top-down, in depth-first order
    /// (kept subtrees are copied in, also depth-first), then swaps it in. Nodes are split
    /// with `split` down to depth log₂(count) + 1 and at the median below. Node indices
    /// past the used ones become the free list, in ascending order.
    #[inline(always)]
    pub(super) fn build(&mut self, scratch: &mut RebuildScratch, split: Split) {
        let old_len = self.nodes.len();
        let RebuildScratch {
            leaves,
            nodes,
            links,
        } = scratch;
        let mut copies: InlineStack<CopyItem, INLINE_STACK> = InlineStack::new((0, 0, 0));
        nodes.clear();
        links.clear();
        nodes.push(Node::EMPTY);
        links.push(Link::at(NULL_INDEX, 0));

        let count = leaves.len();
        debug_assert!(count > 0);
        if count == 1 {
            self.place(nodes, links, &mut copies, ROOT, 0, leaves[0]);
        } else {
            // Below this depth, splits take the median so the height stays logarithmic.
            let median_depth = count.ilog2() as usize + 1;
            let mut items: InlineStack<BuildItem, INLINE_STACK> = InlineStack::new(BuildItem {
                node: 0,
                start: 0,
                split: 0,
                end: 0,
                next_slot: 0,
            });
            let root_split = partition(&mut leaves[..], split);
            items.push(BuildItem {
                node: ROOT,
                start: 0,
                split: root_split,
                end: count,
                next_slot: 0,
            });

            while let Some(&mut item) = items.last_mut() {
                if item.next_slot == 2 {
                    items.pop();
                    let Some(&mut parent) = items.last_mut() else {
                        break;
                    };
                    let child = internal_child(&nodes[item.node as usize], item.node);
                    nodes[parent.node as usize].children[parent.next_slot - 1] = child;
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
                    self.place(nodes, links, &mut copies, item.node, slot, leaves[start]);
                    continue;
                }
                // Slot 0's subtree is finished before slot 1's starts: depth-first order.
                let node = nodes.len() as u32;
                nodes.push(Node::EMPTY);
                links.push(Link::at(item.node, slot));
                let rule = if items.len() >= median_depth {
                    Split::Median
                } else {
                    split
                };
                let at = start + partition(&mut leaves[start..end], rule);
                items.push(BuildItem {
                    node,
                    start,
                    split: at,
                    end,
                    next_slot: 0,
                });
            }
        }

        core::mem::swap(&mut self.nodes, nodes);
        core::mem::swap(&mut self.node_links, links);
        let used = self.nodes.len();
        self.node_count = used as u32;
        for i in used..old_len {
            let next = if i + 1 < old_len {
                (i + 1) as u32
            } else {
                NULL_INDEX
            };
            self.nodes.push(Node::EMPTY);
            self.node_links.push(Link::free(next));
        }
        self.node_free = if used < old_len {
            used as u32
        } else {
            NULL_INDEX
        };
    }

    /// Puts a build leaf into slot `slot` of the new node `parent`: a proxy is linked
    /// there; a kept subtree is copied into `nodes` depth-first, re-linking its nodes
    /// and proxies.
    #[inline(always)]
    fn place(
        &mut self,
        nodes: &mut Vec<Node>,
        links: &mut Vec<Link>,
        copies: &mut InlineStack<CopyItem, INLINE_STACK>,
        parent: u32,
        slot: usize,
        child: Child,
    ) {
        nodes[parent as usize].children[slot] = child;
        if child.is_leaf() {
            self.proxies[child.index() as usize].link = Link::at(parent, slot);
            return;
        }
        copies.push((child.index(), parent, slot as u8));
        while let Some((old, parent, slot)) = copies.pop() {
            let new = nodes.len() as u32;
            nodes.push(self.nodes[old as usize]);
            links.push(Link::at(parent, slot as usize));
            let entry = &mut nodes[parent as usize].children[slot as usize];
            entry.word = (entry.word & !INDEX_MASK) | new;
            // Push slot 1 first so that slot 0's subtree is copied first.
            for i in (0..2).rev() {
                let grandchild = nodes[new as usize].children[i];
                if grandchild.is_leaf() {
                    self.proxies[grandchild.index() as usize].link = Link::at(new, i);
                } else {
                    copies.push((grandchild.index(), new, i as u8));
                }
            }
        }
    }
}

/// The centre of a box along one axis, doubled (the factor ½ changes no comparison).
#[inline]
fn center2(b: &WorldAabb, use_x: bool) -> Coord {
    if use_x {
        b.lower.x + b.upper.x
    } else {
        b.lower.y + b.upper.y
    }
}

/// `min` and `max` for values that are never NaN, without `f32::min`'s NaN handling.
#[inline]
fn fmin(a: Coord, b: Coord) -> Coord {
    if b < a { b } else { a }
}

#[inline]
fn fmax(a: Coord, b: Coord) -> Coord {
    if b > a { b } else { a }
}

/// Grows `a` to contain `b`.
#[inline]
fn grow(a: &mut WorldAabb, b: &WorldAabb) {
    a.lower.x = fmin(a.lower.x, b.lower.x);
    a.lower.y = fmin(a.lower.y, b.lower.y);
    a.upper.x = fmax(a.upper.x, b.upper.x);
    a.upper.y = fmax(a.upper.y, b.upper.y);
}

/// How [`partition`] chooses where to split, always along the longer axis of the
/// bounds of the leaves' centres.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Split {
    /// Binned surface-area heuristic: the tightest trees, the slowest to build.
    Sah,
    /// The middle of the centres' bounds: one pass, which suits rebuilding
    /// thousands of moving proxies every step (Box2D v3 does the same).
    Midpoint,
    /// The median centre: halves the count, which bounds the height.
    Median,
}

/// Splits `leaves` in two non-empty parts in place and returns the size of the first.
/// `split` chooses the rule; the median is the fallback when the rule cannot separate
/// the leaves (for example when their centres coincide).
#[inline(always)]
pub(super) fn partition(leaves: &mut [Child], split: Split) -> usize {
    let count = leaves.len();
    debug_assert!(count >= 2);
    if count == 2 {
        return 1;
    }

    // Bounds of the (doubled) centres.
    let (mut lx, mut ly) = (Coord::INFINITY, Coord::INFINITY);
    let (mut ux, mut uy) = (Coord::NEG_INFINITY, Coord::NEG_INFINITY);
    for leaf in leaves.iter() {
        let (cx, cy) = (center2(&leaf.aabb, true), center2(&leaf.aabb, false));
        lx = fmin(lx, cx);
        ux = fmax(ux, cx);
        ly = fmin(ly, cy);
        uy = fmax(uy, cy);
    }
    let use_x = ux - lx > uy - ly;
    let (origin, extent) = if use_x { (lx, ux - lx) } else { (ly, uy - ly) };

    if split == Split::Median || extent.is_nan() || extent <= 0.0 || extent.is_infinite() {
        return median_split(leaves, use_x);
    }
    if split == Split::Midpoint {
        let pivot = origin + 0.5 * extent;
        let at = partition_by(leaves, |leaf| center2(&leaf.aabb, use_x) < pivot);
        return if at > 0 && at < count {
            at
        } else {
            median_split(leaves, use_x)
        };
    }

    // Bin the centres, with each bin's box and count. The same expression assigns the
    // bins again in the partition below. Float-to-int casts saturate; NaN becomes 0.
    let scale = BIN_COUNT as Coord / extent;
    let bin_of = |leaf: &Child| {
        (((center2(&leaf.aabb, use_x) - origin) * scale) as usize).min(BIN_COUNT - 1)
    };
    let mut bin_boxes = [EMPTY_BOX; BIN_COUNT];
    let mut bin_counts = [0usize; BIN_COUNT];
    for leaf in leaves.iter() {
        let bin = bin_of(leaf);
        grow(&mut bin_boxes[bin], &leaf.aabb);
        bin_counts[bin] += 1;
    }

    // Plane i puts bins 0..=i on the left. Sweep from the right for the right sides.
    let mut right_boxes = [EMPTY_BOX; BIN_COUNT];
    let mut right_counts = [0usize; BIN_COUNT];
    let mut acc_box = EMPTY_BOX;
    let mut acc_count = 0;
    for i in (1..BIN_COUNT).rev() {
        grow(&mut acc_box, &bin_boxes[i]);
        acc_count += bin_counts[i];
        right_boxes[i - 1] = acc_box;
        right_counts[i - 1] = acc_count;
    }

    let mut best_plane = None;
    let mut best_cost = Coord::MAX;
    let mut left_box = EMPTY_BOX;
    let mut left_count = 0;
    for plane in 0..BIN_COUNT - 1 {
        grow(&mut left_box, &bin_boxes[plane]);
        left_count += bin_counts[plane];
        let right_count = right_counts[plane];
        if left_count == 0 || right_count == 0 {
            continue;
        }
        let cost = left_count as Coord * left_box.perimeter()
            + right_count as Coord * right_boxes[plane].perimeter();
        if best_plane.is_none() || cost < best_cost {
            best_plane = Some(plane);
            best_cost = cost;
        }
    }
    let Some(plane) = best_plane else {
        return median_split(leaves, use_x);
    };
    let at = partition_by(leaves, |leaf| bin_of(leaf) <= plane);
    debug_assert!(at > 0 && at < count);
    at
}

/// Puts the leaves with the smaller half of the centres first; returns their count.
fn median_split(leaves: &mut [Child], use_x: bool) -> usize {
    let mid = leaves.len() / 2;
    leaves.select_nth_unstable_by(mid, |a, b| {
        center2(&a.aabb, use_x).total_cmp(&center2(&b.aabb, use_x))
    });
    mid
}

/// Two-pointer partition: moves the leaves where `left` holds to the front and
/// returns their count.
#[inline]
fn partition_by(leaves: &mut [Child], left: impl Fn(&Child) -> bool) -> usize {
    let (mut i, mut j) = (0usize, leaves.len());
    while i < j {
        if left(&leaves[i]) {
            i += 1;
        } else {
            j -= 1;
            leaves.swap(i, j);
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::dynamic_tree::tests::square;

    #[test]
    fn partition_splits_two_clusters_apart() {
        let mut tree = DynamicTree::new();
        let mut leaves: Vec<Child> = [0.0, 100.0, 0.5, 100.5, 1.0]
            .iter()
            .map(|&x| {
                let id = tree.create_proxy(square(x, 0.0, 0.25), 1, 0).unwrap();
                Child::leaf(
                    crate::pos::to_world_aabb(square(x, 0.0, 0.25)),
                    id.index(),
                    &tree.proxies[id.index() as usize],
                )
            })
            .collect();
        let k = partition(&mut leaves, Split::Sah);
        assert_eq!(k, 3);
        assert!(leaves[..3].iter().all(|l| l.aabb.center().x < 50.0));
        assert!(leaves[3..].iter().all(|l| l.aabb.center().x > 50.0));
        // The median split halves the count, whatever the layout.
        let k = partition(&mut leaves, Split::Median);
        assert_eq!(k, 2);
        assert!(
            leaves[..2]
                .iter()
                .all(|l| l.aabb.center().x <= leaves[2].aabb.center().x)
        );
    }
}
