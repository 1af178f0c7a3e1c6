//! Top-down rebuild of a [`DynamicTree`] with binned surface-area-heuristic splits,
//! in place: the new nodes take the indices of the nodes the rebuild drops, and
//! the subtrees it keeps stay where they are.
//!
//! # References
//! - I. Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, IEEE
//!   Symposium on Interactive Ray Tracing, 2007.

use super::{
    BIN_COUNT, Child, DynamicTree, EMPTY_BOX, INLINE_STACK, InlineStack, Link, MOVED_FLAG,
    NULL_INDEX, Node, Proxy, ROOT, internal_child,
};
use crate::pos::{Coord, WorldAabb};
use crate::workers::SharedMut;
use core::sync::atomic::{AtomicBool, Ordering};

/// Depth down to which [`DynamicTree::begin_rebuild`] builds the top of the tree
/// itself; each range of build leaves left at that depth is a subtree task of
/// [`RebuildTasks`], so a tree has at most `2^TOP_DEPTH` tasks.
const TOP_DEPTH: usize = 2;
/// A range of at most this many build leaves becomes a task above [`TOP_DEPTH`].
const MIN_TASK_LEAVES: usize = 64;
/// The most tasks a rebuild makes.
const MAX_TASKS: usize = 1 << TOP_DEPTH;
/// The most slots of top nodes holding one build leaf each.
const MAX_TOP_PLACES: usize = 2 * (MAX_TASKS - 1);

/// A node under construction in a rebuild: it receives the build leaves
/// `start..end`, split at `split`; `taken` of its slots are filled or being
/// filled (in [`SLOT_ORDER`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BuildItem {
    node: u32,
    start: usize,
    split: usize,
    end: usize,
    taken: usize,
}

impl BuildItem {
    const EMPTY: BuildItem = BuildItem::new(0, 0, 0, 0);

    /// Node `node` over the build leaves `start..end`, split at `split`.
    const fn new(node: u32, start: usize, split: usize, end: usize) -> BuildItem {
        BuildItem {
            node,
            start,
            split,
            end,
            taken: 0,
        }
    }
}

/// The order in which a build fills a node's slots: slot 1's subtree first.
/// The subtrees do not depend on it (each slot's leaves are a fixed part of
/// the node's), only the numbering does: nodes are numbered in build order,
/// so a depth-first walk that visits slot 1 first (the leaf gathering, whose
/// stack pops the second child first) reads the nodes of a subtree one after
/// another in memory instead of jumping back and forth.
const SLOT_ORDER: [usize; 2] = [1, 0];

/// Takes the next slot of `item`, the top of `items`: (slot, start, end) of its
/// build leaves.
#[inline(always)]
fn take_slot(
    items: &mut InlineStack<BuildItem, INLINE_STACK>,
    item: &BuildItem,
) -> (usize, usize, usize) {
    let slot = SLOT_ORDER[item.taken];
    if let Some(top) = items.last_mut() {
        top.taken += 1;
    }
    if slot == 0 {
        (slot, item.start, item.split)
    } else {
        (slot, item.split, item.end)
    }
}

/// A subtree of a rebuild, built by one task: the build leaves `start..end`
/// (at least two) under a new node that hangs in slot `slot` of the top node
/// `parent` (its place in the build order). Its `end - start - 1` nodes are the
/// build order's from `first_node` on, worked out before any task runs, so the
/// layout depends on no timing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct BuildTask {
    parent: u32,
    slot: u8,
    start: u32,
    end: u32,
    /// Number of ancestors of the subtree's root node (the build's depth there,
    /// which chooses the split rule).
    depth: u32,
    first_node: u32,
}

/// Where a rebuild stands (see [`DynamicTree::begin_rebuild`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// No rebuild begun.
    #[default]
    Idle,
    /// The top is built; the tasks may run.
    Begun,
}

/// Buffers reused by [`DynamicTree::rebuild`], and a rebuild's state between its
/// [`begin`](DynamicTree::begin_rebuild) and [`finish`](DynamicTree::finish_rebuild).
///
/// The new nodes are numbered in build order (the top's depth-first, then each
/// task's depth-first, task after task, slots in [`SLOT_ORDER`]); node `k` of
/// that order takes the index `dropped[k]` in the tree.
#[derive(Clone, Debug, Default)]
pub(crate) struct RebuildScratch {
    /// The proxies and kept subtrees to place.
    pub(super) leaves: Vec<Child>,
    /// The indices of the nodes the rebuild drops, ascending: the root first.
    dropped: Vec<u32>,
    /// One bit per node of the tree, set for the dropped ones while gathering.
    dropped_bits: Vec<u64>,
    /// The top's nodes, in build order, and their links, whose parents are
    /// places in the build order too; written into the tree by `finish`.
    nodes: Vec<Node>,
    links: Vec<Link>,
    /// The subtree tasks (the first `task_count`), and the slot describing each
    /// task's root to its parent, which the task leaves.
    tasks: [BuildTask; MAX_TASKS],
    task_count: usize,
    outputs: [Option<Child>; MAX_TASKS],
    /// The top's slots holding one build leaf each (place of the node in the
    /// build order, slot), to link (the first `top_place_count`).
    top_places: [(u32, u8); MAX_TOP_PLACES],
    top_place_count: usize,
    /// The split rule above the median depth, and that depth.
    split: Option<Split>,
    median_depth: usize,
    phase: Phase,
}

/// A begun rebuild's subtree tasks (see [`DynamicTree::rebuild_tasks`]), to run
/// once each, in any order, on any threads.
pub(crate) struct RebuildTasks<'a> {
    tasks: &'a [BuildTask],
    split: Split,
    median_depth: usize,
    /// The dropped nodes' indices (see [`RebuildScratch`]).
    dropped: &'a [u32],
    leaves: SharedMut<'a, Child>,
    /// The tree's nodes, node links and proxies.
    nodes: SharedMut<'a, Node>,
    links: SharedMut<'a, Link>,
    proxies: SharedMut<'a, Proxy>,
    outputs: SharedMut<'a, Option<Child>>,
    /// Whether each task was claimed, so that none runs twice.
    claimed: [AtomicBool; MAX_TASKS],
}

impl DynamicTree {
    /// Collects the build leaves: proxies and kept subtrees (unmarked ones, in a
    /// partial build), and the indices of the nodes descended into, which the
    /// build drops, in ascending order.
    #[inline(always)]
    pub(super) fn gather_build_leaves(&self, full_build: bool, scratch: &mut RebuildScratch) {
        scratch.leaves.clear();
        let bits = &mut scratch.dropped_bits;
        bits.clear();
        bits.resize(self.nodes.len().div_ceil(64), 0);
        let mut stack: InlineStack<u32, INLINE_STACK> = InlineStack::new(0);
        stack.push(ROOT);
        while let Some(node_index) = stack.pop() {
            // The walk reads the nodes of a subtree rebuilt the step before
            // one after another (see `SLOT_ORDER`), each a cache line: ask
            // for the one a few lines on, so that the loads overlap (a hint;
            // it changes nothing).
            let ahead = self
                .nodes
                .as_ptr()
                .wrapping_add(node_index as usize + NODES_AHEAD);
            crate::prefetch::prefetch_value(ahead);
            bits[node_index as usize / 64] |= 1 << (node_index % 64);
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
        scratch.dropped.clear();
        for (word, &set) in bits.iter().enumerate() {
            let mut set = set;
            while set != 0 {
                scratch
                    .dropped
                    .push(word as u32 * 64 + set.trailing_zeros());
                set &= set - 1;
            }
        }
    }

    /// Begins a [`rebuild`](Self::rebuild): gathers the build leaves and builds
    /// the top of the new tree (down to [`TOP_DEPTH`]) in the scratch, leaving its
    /// subtrees to [`rebuild_tasks`](Self::rebuild_tasks). The tree itself is not
    /// changed yet: until the tasks run it may be read (and have moves buffered),
    /// but not edited. Returns whether there is anything to rebuild; if so,
    /// [`finish_rebuild`](Self::finish_rebuild) must follow the tasks.
    ///
    /// The splits are those of a build done in one go, in the same order on the
    /// same leaves: the tree does not depend on how its tasks are run.
    #[inline(always)]
    pub(crate) fn begin_rebuild(&mut self, full_build: bool) -> bool {
        debug_assert_eq!(self.scratch.phase, Phase::Idle);
        if self.proxy_count == 0 {
            return false;
        }
        let [a, b] = &self.nodes[ROOT as usize].children;
        if !full_build && !a.is_moved() && !b.is_moved() {
            return false;
        }
        let mut scratch = core::mem::take(&mut self.scratch);
        self.gather_build_leaves(full_build, &mut scratch);
        let split = if full_build {
            Split::Sah
        } else {
            Split::Midpoint
        };
        build_top(&mut scratch, split);
        scratch.phase = Phase::Begun;
        self.scratch = scratch;
        true
    }

    /// The subtree tasks of the begun rebuild (none when none is begun).
    #[inline]
    pub(crate) fn rebuild_tasks(&mut self) -> RebuildTasks<'_> {
        let RebuildScratch {
            leaves,
            dropped,
            tasks,
            task_count,
            outputs,
            split,
            median_depth,
            phase,
            ..
        } = &mut self.scratch;
        let count = if *phase == Phase::Begun {
            *task_count
        } else {
            0
        };
        RebuildTasks {
            tasks: &tasks[..count],
            split: split.unwrap_or(Split::Midpoint),
            median_depth: *median_depth,
            dropped,
            leaves: SharedMut::new(leaves),
            nodes: SharedMut::new(&mut self.nodes),
            links: SharedMut::new(&mut self.node_links),
            proxies: SharedMut::new(&mut self.proxies),
            outputs: SharedMut::new(outputs),
            claimed: Default::default(),
        }
    }

    /// Ends the begun rebuild once every task has run: hangs the subtrees into
    /// the top and writes the top's nodes into the tree. The tree keeps its node
    /// count and free list (the new nodes took the dropped nodes' indices).
    /// Returns the number of build leaves placed (0 when no rebuild was begun).
    #[inline(always)]
    pub(crate) fn finish_rebuild(&mut self) -> usize {
        if self.scratch.phase != Phase::Begun {
            return 0;
        }
        let RebuildScratch {
            leaves,
            dropped,
            nodes,
            links,
            tasks,
            task_count,
            outputs,
            top_places,
            top_place_count,
            phase,
            ..
        } = &mut self.scratch;
        *phase = Phase::Idle;
        let (tasks, outputs) = (&tasks[..*task_count], &outputs[..*task_count]);

        // The subtrees' roots, then the top's nodes bottom-up (each was made
        // after its parent).
        for (task, output) in tasks.iter().zip(outputs) {
            let root = output.expect("every rebuild task ran");
            nodes[task.parent as usize].children[task.slot as usize] = root;
        }
        for node in (1..nodes.len()).rev() {
            let link = links[node];
            nodes[link.parent as usize].children[link.slot as usize] =
                internal_child(&nodes[node], dropped[node]);
        }
        for (k, (node, link)) in nodes.iter().zip(links.iter()).enumerate() {
            let index = dropped[k] as usize;
            self.nodes[index] = *node;
            self.node_links[index] = if link.parent == NULL_INDEX {
                *link
            } else {
                Link::at(dropped[link.parent as usize], link.slot as usize)
            };
        }
        for &(parent, slot) in &top_places[..*top_place_count] {
            let child = nodes[parent as usize].children[slot as usize];
            let link = Link::at(dropped[parent as usize], slot as usize);
            if child.is_leaf() {
                self.proxies[child.index() as usize].link = link;
            } else {
                self.node_links[child.index() as usize] = link;
            }
        }
        leaves.len()
    }
}

/// Builds the top of the new tree over `scratch.leaves` (at least one), depth-first
/// down to [`TOP_DEPTH`], and lays out the tasks' node ranges (in build order)
/// after its nodes. Below the depth log₂(count) + 1 the splits take the median,
/// so the height stays logarithmic.
#[inline(always)]
fn build_top(scratch: &mut RebuildScratch, split: Split) {
    let RebuildScratch {
        leaves,
        dropped,
        nodes,
        links,
        tasks,
        task_count,
        outputs,
        top_places,
        top_place_count,
        split: scratch_split,
        median_depth: scratch_median_depth,
        ..
    } = scratch;
    nodes.clear();
    links.clear();
    *task_count = 0;
    *top_place_count = 0;
    nodes.push(Node::EMPTY);
    links.push(Link::at(NULL_INDEX, 0));
    let count = leaves.len();
    debug_assert!(count > 0);
    let median_depth = count.ilog2() as usize + 1;
    *scratch_split = Some(split);
    *scratch_median_depth = median_depth;
    if count == 1 {
        nodes[ROOT as usize].children[0] = leaves[0];
        top_places[0] = (ROOT, 0);
        *top_place_count = 1;
    } else {
        let mut items: InlineStack<BuildItem, INLINE_STACK> = InlineStack::new(BuildItem::EMPTY);
        let root_split = partition(&mut leaves[..], split);
        items.push(BuildItem::new(ROOT, 0, root_split, count));
        // As in `RebuildTasks::run`, but a range stops at the top's depth (or
        // when small) and becomes a task; the nodes' own slots in their parents
        // are filled by `finish_rebuild`, once the tasks' subtrees are known.
        while let Some(&mut item) = items.last_mut() {
            if item.taken == 2 {
                items.pop();
                continue;
            }
            let (slot, start, end) = take_slot(&mut items, &item);
            if end - start == 1 {
                nodes[item.node as usize].children[slot] = leaves[start];
                top_places[*top_place_count] = (item.node, slot as u8);
                *top_place_count += 1;
                continue;
            }
            if items.len() >= TOP_DEPTH || end - start <= MIN_TASK_LEAVES {
                tasks[*task_count] = BuildTask {
                    parent: item.node,
                    slot: slot as u8,
                    start: start as u32,
                    end: end as u32,
                    depth: items.len() as u32,
                    first_node: 0,
                };
                *task_count += 1;
                continue;
            }
            let node = nodes.len() as u32;
            nodes.push(Node::EMPTY);
            links.push(Link::at(item.node, slot));
            let rule = if items.len() >= median_depth {
                Split::Median
            } else {
                split
            };
            let at = start + partition(&mut leaves[start..end], rule);
            items.push(BuildItem::new(node, start, at, end));
        }
    }
    // A subtree of m build leaves has m − 1 nodes.
    let mut next = nodes.len();
    for task in tasks[..*task_count].iter_mut() {
        task.first_node = next as u32;
        next += (task.end - task.start - 1) as usize;
    }
    // The rebuild makes as many nodes as it drops (one fewer than the build
    // leaves, or the root alone), so the tree keeps its node count.
    debug_assert_eq!(next, dropped.len(), "one new node per dropped node");
    *outputs = [None; MAX_TASKS];
}

impl RebuildTasks<'_> {
    /// Number of tasks.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Builds the subtree of task `index` into its nodes, depth-first (in
    /// [`SLOT_ORDER`]), linking its nodes, its proxies and the kept
    /// subtrees it places. Tasks may run at the same time on different threads.
    /// Each must run once: a second run of a task does nothing.
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(crate) fn run(&self, index: usize) {
        let task = self.tasks[index];
        if self.claimed[index].swap(true, Ordering::Relaxed) {
            debug_assert!(false, "rebuild task {index} ran twice");
            return;
        }
        let (start, end) = (task.start as usize, task.end as usize);
        let first = task.first_node as usize;
        let dropped = &self.dropped[first..first + (end - start - 1)];
        // SAFETY: this task runs once (claimed above); the tasks' leaf ranges
        // are disjoint parts of one partition of the build leaves, and task
        // `index` alone uses output `index`.
        let (leaves, output) = unsafe { (self.leaves.range(start, end), self.outputs.get(index)) };
        // SAFETY (of `node` and `link`): this task writes and reads only its own
        // nodes (`dropped`: the tasks' parts of the dropped indices are
        // disjoint, laid out one after another by `build_top`, and `finish`
        // writes the top's only after the tasks), their links, and the links of
        // the kept subtrees' roots among its build leaves (which no task drops,
        // each in one task's range); each reference is used before the next.
        let node = |i: u32| unsafe { self.nodes.get(i as usize) };
        let link = |i: u32| unsafe { self.links.get(i as usize) };
        let count = leaves.len();
        let rule = |depth: usize| {
            if depth >= self.median_depth {
                Split::Median
            } else {
                self.split
            }
        };
        let depth = task.depth as usize;

        let mut items: InlineStack<BuildItem, INLINE_STACK> = InlineStack::new(BuildItem::EMPTY);
        *link(dropped[0]) = Link::at(self.dropped[task.parent as usize], task.slot as usize);
        let root_split = partition(&mut leaves[..], rule(depth));
        items.push(BuildItem::new(dropped[0], 0, root_split, count));
        let mut next_node = 1;
        while let Some(&mut item) = items.last_mut() {
            if item.taken == 2 {
                items.pop();
                let child = internal_child(node(item.node), item.node);
                let Some(&mut parent) = items.last_mut() else {
                    *output = Some(child);
                    break;
                };
                node(parent.node).children[SLOT_ORDER[parent.taken - 1]] = child;
                continue;
            }
            // Each node's two slots are written (one slot's subtree finished
            // before the other's starts: depth-first order) before it is read.
            let (slot, start, end) = take_slot(&mut items, &item);
            if end - start == 1 {
                let leaf = leaves[start];
                // Leaves are placed in decreasing order (slot 1's part of a
                // range first): ask for the proxy record a few places on (a
                // hint; its link is written when its place is final), which
                // is usually not in the cache.
                if let Some(ahead) = start.checked_sub(LINK_AHEAD).and_then(|k| leaves.get(k))
                    && ahead.is_leaf()
                {
                    crate::prefetch::prefetch_value(self.proxies.at(ahead.index() as usize));
                }
                node(item.node).children[slot] = leaf;
                if leaf.is_leaf() {
                    // SAFETY: each proxy is one build leaf, in one task's range.
                    let proxy = unsafe { self.proxies.get(leaf.index() as usize) };
                    proxy.link = Link::at(item.node, slot);
                } else {
                    *link(leaf.index()) = Link::at(item.node, slot);
                }
                continue;
            }
            let new = dropped[next_node];
            next_node += 1;
            *link(new) = Link::at(item.node, slot);
            let at = start + partition(&mut leaves[start..end], rule(depth + items.len()));
            items.push(BuildItem::new(new, start, at, end));
        }
        debug_assert_eq!(next_node, dropped.len());
    }
}

/// How many nodes past the one it reads the leaf gathering asks for.
const NODES_AHEAD: usize = 6;

/// How many build leaves ahead a subtree's build asks for the proxy record
/// whose link it will write.
const LINK_AHEAD: usize = 8;

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

/// Grows `a` to contain `b` (boxes without NaN).
#[inline]
pub(super) fn grow(a: &mut WorldAabb, b: &WorldAabb) {
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

    /// A tree's shape, independent of its node indices: depth-first, `None`
    /// for a node and the proxy index for a leaf, each with its box.
    fn shape_of(tree: &DynamicTree) -> Vec<(Option<u32>, WorldAabb)> {
        fn walk(tree: &DynamicTree, node: u32, out: &mut Vec<(Option<u32>, WorldAabb)>) {
            for child in tree.nodes[node as usize].children {
                if child.is_empty() {
                    continue;
                }
                if child.is_leaf() {
                    out.push((Some(child.index()), child.aabb));
                } else {
                    out.push((None, child.aabb));
                    walk(tree, child.index(), out);
                }
            }
        }
        let mut out = Vec::new();
        walk(tree, ROOT, &mut out);
        out
    }

    /// The shape of a tree built over `leaves` by plain recursion, with the
    /// rules `DynamicTree::rebuild` documents (the rule above the median depth,
    /// the median below; slot 0's part first).
    fn reference_shape(
        leaves: &mut [Child],
        split: Split,
        depth: usize,
        median_depth: usize,
        out: &mut Vec<(Option<u32>, WorldAabb)>,
    ) {
        let rule = if depth >= median_depth {
            Split::Median
        } else {
            split
        };
        let at = partition(leaves, rule);
        let (left, right) = leaves.split_at_mut(at);
        for part in [left, right] {
            if part.len() == 1 {
                out.push((Some(part[0].index()), part[0].aabb));
            } else {
                let mut bounds = EMPTY_BOX;
                for leaf in part.iter() {
                    grow(&mut bounds, &leaf.aabb);
                }
                out.push((None, bounds));
                reference_shape(part, split, depth + 1, median_depth, out);
            }
        }
    }

    /// `count` proxies on a jittered grid, each then enlarged (so that a
    /// partial rebuild rebuilds everything), from a small deterministic
    /// generator.
    fn moved_tree(count: u32) -> DynamicTree {
        let mut tree = DynamicTree::new();
        let mut state = 12345u32;
        let mut next = move || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut ids = Vec::new();
        for i in 0..count {
            let (x, y) = ((i % 40) as f32 + next(), (i / 40) as f32 + next());
            ids.push((
                tree.create_proxy(square(x, y, 0.3), 1, u64::from(i))
                    .unwrap(),
                x,
                y,
            ));
        }
        tree.rebuild(true);
        for &(id, x, y) in &ids {
            let d = next() - 0.5;
            tree.enlarge_proxy(id, square(x + d, y - d, 0.45)).unwrap();
        }
        tree
    }

    #[test]
    fn tasks_in_any_order_build_the_one_go_tree() {
        for count in [2, 3, 70, 1000] {
            let tree = moved_tree(count);
            // The reference: the leaves a rebuild gathers, split by recursion.
            let mut scratch = RebuildScratch::default();
            tree.gather_build_leaves(false, &mut scratch);
            let mut expected = Vec::new();
            let n = scratch.leaves.len();
            let median_depth = n.ilog2() as usize + 1;
            reference_shape(
                &mut scratch.leaves,
                Split::Midpoint,
                0,
                median_depth,
                &mut expected,
            );

            let mut forward = tree.clone();
            forward.rebuild(false);
            forward.validate().unwrap();
            assert_eq!(shape_of(&forward), expected, "{count} proxies");

            let mut backward = tree.clone();
            assert!(backward.begin_rebuild(false));
            let tasks = backward.rebuild_tasks();
            assert!(
                count < 200 || tasks.len() > 1,
                "a large tree splits into tasks"
            );
            for index in (0..tasks.len()).rev() {
                tasks.run(index);
            }
            backward.finish_rebuild();
            backward.validate().unwrap();
            // The same nodes at the same indices, whatever order the tasks ran in.
            assert_eq!(backward.nodes, forward.nodes);
            assert_eq!(backward.node_links, forward.node_links);
            assert_eq!(backward.proxies, forward.proxies);
        }
    }

    #[test]
    fn kept_subtrees_stay_and_new_nodes_take_the_dropped_indices() {
        let mut tree = moved_tree(0);
        let mut ids = Vec::new();
        for i in 0..200u32 {
            let (x, y) = ((i % 20) as f32, (i / 20) as f32);
            ids.push(
                tree.create_proxy(square(x, y, 0.3), 1, u64::from(i))
                    .unwrap(),
            );
        }
        tree.rebuild(true);
        // Fragment the free list so that the dropped indices are not a run.
        for &id in ids.iter().step_by(7) {
            tree.destroy_proxy(id).unwrap();
        }
        let before = tree.clone();
        // One enlarged proxy: the rest of the tree is kept, subtree by subtree.
        tree.enlarge_proxy(ids[57], square(17.0, 2.0, 0.5)).unwrap();
        let marked = tree.clone();
        let mut dropped = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(node) = stack.pop() {
            dropped.push(node);
            for child in marked.nodes[node as usize].children {
                if child.is_node() && child.is_moved() {
                    stack.push(child.index());
                }
            }
        }
        dropped.sort_unstable();
        let placed = tree.rebuild(false);
        assert!(placed > 1 && placed < 40, "{placed} build leaves");
        assert_eq!(dropped.len(), placed - 1);
        tree.validate().unwrap();
        assert_eq!(tree.node_count, before.node_count);
        assert_eq!(tree.node_free, before.node_free);
        // The kept nodes are where they were, unchanged.
        for i in 0..tree.nodes.len() {
            if before.node_links[i].allocated && dropped.binary_search(&(i as u32)).is_err() {
                assert_eq!(tree.nodes[i], before.nodes[i], "kept node {i}");
            }
        }
        // The new nodes, in depth-first order with slot 1 first (one task per
        // side of the root here), took the dropped indices in ascending order.
        fn new_nodes(tree: &DynamicTree, node: u32, dropped: &[u32], out: &mut Vec<u32>) {
            out.push(node);
            for slot in SLOT_ORDER {
                let child = tree.nodes[node as usize].children[slot];
                if child.is_node() && dropped.binary_search(&child.index()).is_ok() {
                    new_nodes(tree, child.index(), dropped, out);
                }
            }
        }
        let mut order = Vec::new();
        new_nodes(&tree, ROOT, &dropped, &mut order);
        assert_eq!(order, dropped);
    }

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
