//! Top-down rebuild of a [`DynamicTree`] with binned surface-area-heuristic splits.
//!
//! # References
//! - I. Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, IEEE
//!   Symposium on Interactive Ray Tracing, 2007.

use super::{
    BIN_COUNT, Child, DynamicTree, EMPTY_BOX, INDEX_MASK, INLINE_STACK, InlineStack, Link,
    MOVED_FLAG, NULL_INDEX, Node, Proxy, ROOT, internal_child,
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
/// `start..end`, split at `split`; `next_slot` is the next slot to fill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BuildItem {
    node: u32,
    start: usize,
    split: usize,
    end: usize,
    next_slot: usize,
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
            next_slot: 0,
        }
    }
}

/// Takes the next slot of `item`, the top of `items`: (slot, start, end) of its
/// build leaves.
#[inline(always)]
fn take_slot(
    items: &mut InlineStack<BuildItem, INLINE_STACK>,
    item: &BuildItem,
) -> (usize, usize, usize) {
    let slot = item.next_slot;
    if let Some(top) = items.last_mut() {
        top.next_slot += 1;
    }
    if slot == 0 {
        (slot, item.start, item.split)
    } else {
        (slot, item.split, item.end)
    }
}

/// A subtree of a rebuild, built by one task: the build leaves `start..end`
/// (at least two) under a new node that hangs in slot `slot` of the top node
/// `parent`. Its `end - start - 1` nodes take the indices from `first_node` on,
/// worked out before any task runs, so the layout depends on no timing.
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

/// What a task leaves for [`DynamicTree::finish_rebuild`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TaskOutput {
    /// The slot describing the subtree's root node to its parent.
    root: Option<Child>,
    /// Number of new slots holding kept subtrees, to copy in. They are listed
    /// (see [`kept_entry`]) at the front of the task's build leaves, which it
    /// places in order, so the list never overtakes the leaves still to place.
    kept: usize,
    /// Number of nodes in those kept subtrees.
    kept_nodes: u32,
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
#[derive(Clone, Debug, Default)]
pub(crate) struct RebuildScratch {
    /// The proxies and kept subtrees to place.
    pub(super) leaves: Vec<Child>,
    /// The node arrays being built; swapped with the tree's afterwards.
    nodes: Vec<Node>,
    links: Vec<Link>,
    /// The subtree tasks (the first `task_count`), and what each leaves.
    tasks: [BuildTask; MAX_TASKS],
    task_count: usize,
    outputs: [TaskOutput; MAX_TASKS],
    /// The top's slots holding one build leaf each (node, slot), to link or copy in
    /// (the first `top_place_count`).
    top_places: [(u32, u8); MAX_TOP_PLACES],
    top_place_count: usize,
    /// Number of nodes of the top (the first ones of the new array), and of the
    /// top and the tasks' built nodes (the kept subtrees' copies follow).
    top_nodes: u32,
    built_nodes: u32,
    /// The split rule above the median depth, and that depth.
    split: Option<Split>,
    median_depth: usize,
    phase: Phase,
}

/// Copy stack entry: (old node index, new parent, slot).
type CopyItem = (u32, u32, u8);

/// A begun rebuild's subtree tasks (see [`DynamicTree::rebuild_tasks`]), to run
/// once each, in any order, on any threads.
pub(crate) struct RebuildTasks<'a> {
    tasks: &'a [BuildTask],
    split: Split,
    median_depth: usize,
    leaves: SharedMut<'a, Child>,
    nodes: SharedMut<'a, Node>,
    links: SharedMut<'a, Link>,
    proxies: SharedMut<'a, Proxy>,
    outputs: SharedMut<'a, TaskOutput>,
    /// The tree's current nodes, from which kept subtrees are copied.
    old_nodes: &'a [Node],
    built_nodes: u32,
    /// Whether each task was claimed, and each task's copy, so that none runs twice.
    claimed: [AtomicBool; MAX_TASKS],
    copied: [AtomicBool; MAX_TASKS],
}

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
        // The rebuild makes as many nodes as it drops (one fewer than the build
        // leaves), so the tree keeps its node count.
        build_top(&mut scratch, split, self.node_count as usize);
        scratch.phase = Phase::Begun;
        self.scratch = scratch;
        true
    }

    /// The subtree tasks of the begun rebuild (none when none is begun).
    #[inline]
    pub(crate) fn rebuild_tasks(&mut self) -> RebuildTasks<'_> {
        let RebuildScratch {
            leaves,
            nodes,
            links,
            tasks,
            task_count,
            outputs,
            split,
            median_depth,
            phase,
            built_nodes,
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
            leaves: SharedMut::new(leaves),
            nodes: SharedMut::new(nodes),
            links: SharedMut::new(links),
            proxies: SharedMut::new(&mut self.proxies),
            outputs: SharedMut::new(outputs),
            old_nodes: &self.nodes,
            built_nodes: *built_nodes,
            claimed: Default::default(),
            copied: Default::default(),
        }
    }

    /// Ends the begun rebuild once every task has run and copied its kept
    /// subtrees: hangs the subtrees into the top, copies the top's own kept
    /// subtrees in (last, each depth-first) and swaps the new node array in. Node indices past the used ones become the
    /// free list, in ascending order. Returns the number of build leaves placed (0
    /// when no rebuild was begun).
    #[inline(always)]
    pub(crate) fn finish_rebuild(&mut self) -> usize {
        if self.scratch.phase != Phase::Begun {
            return 0;
        }
        let old_len = self.nodes.len();
        let mut scratch = core::mem::take(&mut self.scratch);
        let RebuildScratch {
            leaves,
            nodes,
            links,
            tasks,
            task_count,
            outputs,
            top_places,
            top_place_count,
            top_nodes,
            built_nodes,
            phase,
            ..
        } = &mut scratch;
        *phase = Phase::Idle;
        let (tasks, outputs) = (&tasks[..*task_count], &outputs[..*task_count]);

        // The subtrees' roots, then the top's nodes bottom-up (each was made
        // after its parent).
        for (task, output) in tasks.iter().zip(outputs) {
            let root = output.root.expect("every rebuild task ran");
            nodes[task.parent as usize].children[task.slot as usize] = root;
        }
        for node in (1..*top_nodes).rev() {
            let link = links[node as usize];
            nodes[link.parent as usize].children[link.slot as usize] =
                internal_child(&nodes[node as usize], node);
        }

        let mut copies: InlineStack<CopyItem, INLINE_STACK> = InlineStack::new((0, 0, 0));
        let mut next = *built_nodes + outputs.iter().map(|o| o.kept_nodes).sum::<u32>();
        for &(parent, slot) in &top_places[..*top_place_count] {
            let child = nodes[parent as usize].children[slot as usize];
            if child.is_leaf() {
                self.proxies[child.index() as usize].link = Link::at(parent, slot as usize);
            } else {
                self.copy_kept(nodes, links, &mut copies, (parent, slot), &mut next);
            }
        }
        debug_assert_eq!(next as usize, nodes.len(), "the node count is kept");

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
        let count = leaves.len();
        self.scratch = scratch;
        count
    }

    /// Copies the kept subtree named by slot `slot` of the new node `parent` (its
    /// old index) into `nodes` depth-first from index `next` on, re-linking its
    /// nodes and proxies.
    #[inline(always)]
    fn copy_kept(
        &mut self,
        nodes: &mut [Node],
        links: &mut [Link],
        copies: &mut InlineStack<CopyItem, INLINE_STACK>,
        (parent, slot): (u32, u8),
        next: &mut u32,
    ) {
        let child = nodes[parent as usize].children[slot as usize];
        copies.push((child.index(), parent, slot));
        while let Some((old, parent, slot)) = copies.pop() {
            let new = *next;
            *next += 1;
            nodes[new as usize] = self.nodes[old as usize];
            links[new as usize] = Link::at(parent, slot as usize);
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

/// Builds the top of the new tree over `scratch.leaves` (at least one), depth-first
/// down to [`TOP_DEPTH`], and lays out the tasks' node ranges after its nodes.
/// Below the depth log₂(count) + 1 the splits take the median, so the height
/// stays logarithmic.
#[inline(always)]
fn build_top(scratch: &mut RebuildScratch, split: Split, total_nodes: usize) {
    let RebuildScratch {
        leaves,
        nodes,
        links,
        tasks,
        task_count,
        outputs,
        top_places,
        top_place_count,
        top_nodes,
        built_nodes,
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
            if item.next_slot == 2 {
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
    *top_nodes = nodes.len() as u32;
    // A subtree of m build leaves has m − 1 nodes.
    let mut next = nodes.len();
    for task in tasks[..*task_count].iter_mut() {
        task.first_node = next as u32;
        next += (task.end - task.start - 1) as usize;
    }
    *built_nodes = next as u32;
    debug_assert!(next <= total_nodes);
    nodes.resize(total_nodes, Node::EMPTY);
    links.resize(total_nodes, Link::free(NULL_INDEX));
    *outputs = [TaskOutput::default(); MAX_TASKS];
}

/// A kept-subtree entry of a task's list (see [`TaskOutput::kept`]): the new
/// slot `slot` of node `parent`, written over a build leaf already placed.
#[inline]
fn kept_entry(parent: u32, slot: usize) -> Child {
    Child {
        aabb: EMPTY_BOX,
        word: parent,
        aux: slot as u32,
        user_data: 0,
    }
}

/// The slot a [`kept_entry`] names: (node, slot).
#[inline]
fn kept_slot(entry: &Child) -> (u32, u8) {
    (entry.word, entry.aux as u8)
}

impl RebuildTasks<'_> {
    /// Number of tasks.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Builds the subtree of task `index` into its node range, depth-first (slot
    /// 0's subtree before slot 1's). Tasks may run at the same time on different
    /// threads. Each must run once: a second run of a task does nothing.
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
        // SAFETY: this task runs once (claimed above); the tasks' leaf ranges
        // are disjoint parts of one partition of the build leaves, their node
        // ranges are disjoint (laid out one after another by `build_top`), and
        // task `index` alone uses output `index`.
        let (leaves, nodes, links, output) = unsafe {
            (
                self.leaves.range(start, end),
                self.nodes.range(first, first + (end - start - 1)),
                self.links.range(first, first + (end - start - 1)),
                self.outputs.get(index),
            )
        };
        output.kept = 0;
        let local = |node: u32| node as usize - first;
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
        nodes[0] = Node::EMPTY;
        links[0] = Link::at(task.parent, task.slot as usize);
        let root_split = partition(&mut leaves[..], rule(depth));
        items.push(BuildItem::new(task.first_node, 0, root_split, count));
        let mut next_node = task.first_node + 1;
        while let Some(&mut item) = items.last_mut() {
            if item.next_slot == 2 {
                items.pop();
                let child = internal_child(&nodes[local(item.node)], item.node);
                let Some(&mut parent) = items.last_mut() else {
                    output.root = Some(child);
                    break;
                };
                nodes[local(parent.node)].children[parent.next_slot - 1] = child;
                continue;
            }
            let (slot, start, end) = take_slot(&mut items, &item);
            if end - start == 1 {
                let leaf = leaves[start];
                nodes[local(item.node)].children[slot] = leaf;
                if leaf.is_leaf() {
                    // SAFETY: each proxy is one build leaf, in one task's range.
                    let proxy = unsafe { self.proxies.get(leaf.index() as usize) };
                    proxy.link = Link::at(item.node, slot);
                } else {
                    // `start` ≥ `output.kept`: the leaves before it are placed.
                    leaves[output.kept] = kept_entry(item.node, slot);
                    output.kept += 1;
                }
                continue;
            }
            // Slot 0's subtree is finished before slot 1's starts: depth-first order.
            let node = next_node;
            next_node += 1;
            nodes[local(node)] = Node::EMPTY;
            links[local(node)] = Link::at(item.node, slot);
            let at = start + partition(&mut leaves[start..end], rule(depth + items.len()));
            items.push(BuildItem::new(node, start, at, end));
        }
        debug_assert_eq!(local(next_node), nodes.len());
        let mut kept_nodes = 0;
        for entry in &leaves[..output.kept] {
            let (parent, slot) = kept_slot(entry);
            let kept = nodes[local(parent)].children[slot as usize];
            kept_nodes += subtree_nodes(self.old_nodes, kept.index());
        }
        output.kept_nodes = kept_nodes;
    }

    /// Copies the kept subtrees of task `index` into the new nodes, each
    /// depth-first, after the built nodes and the earlier tasks' copies. Runs
    /// once every task has run (their outputs say where each copy goes). Copies
    /// may run at the same time on different threads; each must run once: a
    /// second run of a copy does nothing.
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(crate) fn copy(&self, index: usize) {
        let task = self.tasks[index];
        if self.copied[index].swap(true, Ordering::Relaxed) {
            debug_assert!(false, "rebuild copy {index} ran twice");
            return;
        }
        // SAFETY: every task has run (the caller's order), and no copy writes
        // an output.
        let before = (0..index).map(|j| unsafe { self.outputs.get_shared(j) }.kept_nodes);
        let offset = (self.built_nodes + before.sum::<u32>()) as usize;
        // SAFETY: as above.
        let output = unsafe { self.outputs.get_shared(index) };
        let (start, end) = (task.start as usize, task.end as usize);
        let first = task.first_node as usize;
        let kept_end = offset + output.kept_nodes as usize;
        // SAFETY: this copy runs once (claimed above); it reads its task's leaf
        // range and writes its task's built nodes and its own part of the kept
        // copies (consecutive parts in task order, sized by the tasks' counts),
        // all disjoint from the other copies'.
        let (leaves, built, kept, links) = unsafe {
            (
                self.leaves.range(start, start + output.kept),
                self.nodes.range(first, first + (end - start - 1)),
                self.nodes.range(offset, kept_end),
                self.links.range(offset, kept_end),
            )
        };
        let mut copies: InlineStack<CopyItem, INLINE_STACK> = InlineStack::new((0, 0, 0));
        let mut next = offset;
        for entry in leaves.iter() {
            let (parent, slot) = kept_slot(entry);
            let old = built[parent as usize - first].children[slot as usize].index();
            copies.push((old, parent, slot));
            while let Some((old, parent, slot)) = copies.pop() {
                let new = next;
                next += 1;
                kept[new - offset] = self.old_nodes[old as usize];
                links[new - offset] = Link::at(parent, slot as usize);
                let parent_node = if (parent as usize) < offset {
                    &mut built[parent as usize - first]
                } else {
                    &mut kept[parent as usize - offset]
                };
                let entry = &mut parent_node.children[slot as usize];
                entry.word = (entry.word & !INDEX_MASK) | new as u32;
                // Push slot 1 first so that slot 0's subtree is copied first.
                for i in (0..2).rev() {
                    let grandchild = kept[new - offset].children[i];
                    if grandchild.is_leaf() {
                        // SAFETY: each proxy is under one kept subtree.
                        let proxy = unsafe { self.proxies.get(grandchild.index() as usize) };
                        proxy.link = Link::at(new as u32, i);
                    } else {
                        copies.push((grandchild.index(), new as u32, i as u8));
                    }
                }
            }
        }
        debug_assert_eq!(next, kept_end);
    }
}

/// Number of nodes in the subtree under node `root` of `nodes` (itself included).
#[inline(always)]
fn subtree_nodes(nodes: &[Node], root: u32) -> u32 {
    let mut stack: InlineStack<u32, INLINE_STACK> = InlineStack::new(0);
    stack.push(root);
    let mut count = 0;
    while let Some(node) = stack.pop() {
        count += 1;
        for child in &nodes[node as usize].children {
            if child.is_node() {
                stack.push(child.index());
            }
        }
    }
    count
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
    fn kept_subtrees_are_copied_after_the_built_nodes() {
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
        let before = shape_of(&tree);
        // One enlarged proxy: the rest of the tree is kept, subtree by subtree.
        tree.enlarge_proxy(ids[57], square(17.0, 2.0, 0.5)).unwrap();
        let placed = tree.rebuild(false);
        assert!(placed > 1 && placed < 40, "{placed} build leaves");
        tree.validate().unwrap();
        let after = shape_of(&tree);
        assert_eq!(after.iter().filter(|(p, _)| p.is_some()).count(), 200);
        assert_ne!(before, after);
        // Every node comes after its parent.
        for (i, link) in tree.node_links[1..tree.node_count as usize]
            .iter()
            .enumerate()
        {
            assert!(link.parent < i as u32 + 1);
        }
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
