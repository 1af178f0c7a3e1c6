//! The broad phase: finds pairs of shapes whose fat bounding boxes overlap, so that
//! the narrow phase only examines those.
//!
//! There is one [`DynamicTree`] per body type, so that static shapes (the majority in
//! most scenes) are never queried against each other. Proxies that are created, moved
//! or enlarged go into a *move buffer*; [`BroadPhase::update_pairs`] queries each of
//! them against the trees it can collide with:
//!
//! | moved proxy | trees queried              |
//! |-------------|----------------------------|
//! | dynamic     | static, kinematic, dynamic |
//! | kinematic   | dynamic                    |
//! | static      | dynamic                    |
//!
//! A pair whose two proxies both moved would be found twice; it is reported only by
//! the query that Box2D v3 designates: for two moved dynamic proxies, the one with the
//! smaller proxy index; for a moved dynamic proxy and a moved static or kinematic one,
//! the dynamic proxy's query. New pairs come out in a fixed order (move-buffer order,
//! then tree-query order), which depends only on the sequence of calls: never on hash
//! iteration or thread count.
//!
//! # References
//! - E. Catto, Box2D v3 `broad_phase.c`; Box2D v2.x `b2BroadPhase` (move buffer and pair
//!   buffer).

use crate::body::BodyType;
use crate::collision::dynamic_tree::{QueryStack, RebuildTasks};
use crate::collision::{DynamicTree, ProxyId};
use crate::error::{Error, Result};
use crate::math::Vec2;
use crate::pos::WorldAabb;
use crate::simd::{SimdPath, multiversion};
use crate::workers::{SharedMut, Workers};
use std::sync::Mutex;

/// `move_slots` entry of a proxy that is not in the move buffer.
const NOT_MOVED: u32 = u32::MAX;

/// The move slots of a broad phase, read while its trees are shared (see
/// [`BroadPhase::shared_enlarge`]).
#[derive(Clone, Copy)]
pub(crate) struct MoveSlots<'a>(&'a [Vec<u32>; BodyType::COUNT]);

impl MoveSlots<'_> {
    /// Whether the live proxy `key` is in the move buffer. A key without a
    /// slot (never a live one) reads as buffered, as in
    /// [`SharedMoves::is_buffered`], so that nothing is counted for it.
    #[inline(always)]
    pub(crate) fn is_buffered(&self, key: ProxyKey) -> bool {
        let (t, index) = (key.body_type() as usize, key.proxy_id().index());
        debug_assert!((index as usize) < self.0[t].len(), "{key:?} has no slot");
        self.0[t].get(index as usize) != Some(&NOT_MOVED)
    }
}

/// The move buffer and its slots shared by the blocks of a stage (see
/// [`BroadPhase::share_moves`]).
#[derive(Clone, Copy)]
pub(crate) struct SharedMoves<'a> {
    buffer: SharedMut<'a, Option<ProxyKey>>,
    slots: [SharedMut<'a, u32>; BodyType::COUNT],
}

impl SharedMoves<'_> {
    /// Whether the live proxy `key` is in the move buffer. A key without a
    /// slot (never a live one) reads as buffered, as in
    /// [`MoveSlots::is_buffered`], so that nothing is put for it.
    ///
    /// # Safety
    /// No other thread puts `key` meanwhile.
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(crate) unsafe fn is_buffered(&self, key: ProxyKey) -> bool {
        let (t, index) = (key.body_type() as usize, key.proxy_id().index() as usize);
        debug_assert!(index < self.slots[t].len(), "{key:?} has no slot");
        // SAFETY: in bounds (checked); the caller's promise: nothing writes
        // this slot meanwhile.
        index >= self.slots[t].len() || unsafe { *self.slots[t].get_shared(index) != NOT_MOVED }
    }

    /// Puts the move of `key` at `position` of the move buffer.
    ///
    /// # Safety
    /// `key` is a live, non-static proxy not in the move buffer, and no other
    /// thread puts `key`, or anything at `position`, meanwhile.
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(crate) unsafe fn put(&self, position: usize, key: ProxyKey) {
        debug_assert_ne!(
            key.body_type(),
            BodyType::Static,
            "static edits are not counted here"
        );
        let (t, index) = (key.body_type() as usize, key.proxy_id().index());
        // SAFETY: the caller's promise: this thread alone uses this position
        // and this proxy's slot.
        unsafe {
            let slot = self.slots[t].get(index as usize);
            debug_assert_eq!(*slot, NOT_MOVED);
            *slot = position as u32;
            *self.buffer.get(position) = Some(key);
        }
    }
}

/// Smallest block of moved proxies worth a block of its own in the parallel
/// pair search (as Box2D's `b2FindPairsTask` range).
const MIN_MOVE_BLOCK: usize = 64;

/// One worker's output in [`BroadPhase::update_pairs_parallel`]: the pairs its
/// blocks found, and per block (first move-buffer entry, start and end in
/// `pairs`).
#[derive(Debug, Default)]
pub(crate) struct PairBuffer {
    pairs: Vec<(u32, u32)>,
    blocks: Vec<(u32, u32, u32)>,
}

/// Identifies a broad-phase proxy: its body type (which tree it lives in), its proxy
/// index in that tree and a generation that makes stale keys detectable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyKey {
    /// `proxy index << 2 | body type`.
    pub(crate) key: u32,
    pub(crate) generation: u32,
}

impl ProxyKey {
    #[inline]
    fn new(body_type: BodyType, id: ProxyId) -> ProxyKey {
        ProxyKey {
            key: (id.index() << 2) | body_type as u32,
            generation: id.generation(),
        }
    }

    /// The body type, which selects the tree holding the proxy.
    #[inline]
    pub fn body_type(self) -> BodyType {
        match self.key & 3 {
            0 => BodyType::Static,
            1 => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        }
    }

    /// The proxy's id in [`BroadPhase::tree`]`(self.body_type())`.
    #[inline]
    pub fn proxy_id(self) -> ProxyId {
        ProxyId::new(self.key >> 2, self.generation)
    }

    /// The packed key, `proxy index << 2 | body type` (as Box2D's `proxyKey`). Unique
    /// among live proxies of one broad phase.
    #[inline]
    pub fn raw(self) -> u32 {
        self.key
    }
}

/// Pair finding over three dynamic trees (static, kinematic, dynamic) with a move
/// buffer. See the [module documentation](self).
///
/// A steady-state [`update_pairs`](Self::update_pairs) allocates nothing: the move
/// buffer and the output vector keep their capacity.
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    pub(crate) trees: [DynamicTree; BodyType::COUNT],
    /// Proxies to query in the next `update_pairs`, in the order they were buffered;
    /// `None` where a buffered proxy was destroyed since.
    pub(crate) move_buffer: Vec<Option<ProxyKey>>,
    /// Per tree, per proxy index: position in `move_buffer`, or [`NOT_MOVED`].
    pub(crate) move_slots: [Vec<u32>; BodyType::COUNT],
    /// Counts changes to the static tree (a rollback state leaves that tree
    /// out; see `snapshot/rollback.rs`).
    pub(crate) static_edits: u64,
}

impl BroadPhase {
    /// An empty broad phase.
    pub fn new() -> BroadPhase {
        BroadPhase::default()
    }

    /// Adds a proxy for shape `shape_index` with its fat box (metres) to the tree of
    /// `body_type`. The proxy goes into the move buffer, so that its pairs are found by
    /// the next [`update_pairs`](Self::update_pairs) — except a static proxy, unless
    /// `force_pair_creation` (static proxies only pair with dynamic ones, whose own
    /// moves find them).
    ///
    /// # Errors
    /// As [`DynamicTree::create_proxy`]: a box that is not finite or not ordered.
    pub fn create_proxy(
        &mut self,
        fat_aabb: impl Into<WorldAabb>,
        category_bits: u64,
        shape_index: u32,
        body_type: BodyType,
        force_pair_creation: bool,
    ) -> Result<ProxyKey> {
        let t = body_type as usize;
        self.note_edit(body_type);
        let id = self.trees[t].create_proxy(fat_aabb, category_bits, u64::from(shape_index))?;
        let slots = &mut self.move_slots[t];
        let index = id.index() as usize;
        if slots.len() <= index {
            slots.resize(index + 1, NOT_MOVED);
        }
        debug_assert_eq!(slots[index], NOT_MOVED);
        let key = ProxyKey::new(body_type, id);
        if body_type != BodyType::Static || force_pair_creation {
            self.buffer_move(key);
        }
        Ok(key)
    }

    /// Removes a proxy, also from the move buffer.
    ///
    /// # Errors
    /// [`Error::InvalidId`] when the key is stale.
    pub fn destroy_proxy(&mut self, key: ProxyKey) -> Result<()> {
        self.check_key(key)?;
        self.note_edit(key.body_type());
        self.unbuffer_move(key);
        self.trees[key.body_type() as usize].destroy_proxy(key.proxy_id())
    }

    /// Gives a proxy a new fat box, re-inserting it in its tree, and buffers it.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale key; a bad box as in
    /// [`DynamicTree::move_proxy`]. Nothing changes on error.
    pub fn move_proxy(&mut self, key: ProxyKey, fat_aabb: impl Into<WorldAabb>) -> Result<()> {
        self.note_edit(key.body_type());
        self.trees[key.body_type() as usize].move_proxy(key.proxy_id(), fat_aabb)?;
        self.buffer_move(key);
        Ok(())
    }

    /// Gives a proxy a new fat box by growing its tree in place (see
    /// [`DynamicTree::enlarge_proxy`]; [`rebuild_trees`](Self::rebuild_trees) restores
    /// the tree's quality), and buffers it.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale key; a bad box as in
    /// [`DynamicTree::enlarge_proxy`]. Nothing changes on error.
    pub fn enlarge_proxy(&mut self, key: ProxyKey, fat_aabb: impl Into<WorldAabb>) -> Result<()> {
        self.enlarge_proxy_inlined(key, fat_aabb.into())
    }

    /// [`enlarge_proxy`](Self::enlarge_proxy), inlined into its caller (the
    /// step's proxy enlargement, compiled into each SIMD build; see `simd.rs`).
    #[inline(always)]
    pub(crate) fn enlarge_proxy_inlined(
        &mut self,
        key: ProxyKey,
        fat_aabb: WorldAabb,
    ) -> Result<()> {
        let t = key.body_type() as usize;
        self.note_edit(key.body_type());
        let index = self.trees[t].enlarge_proxy_inlined(key.proxy_id(), fat_aabb)?;
        // (The tree checked the key: no need to check it again as `buffer_move` does.)
        self.buffer_checked_move(key, t, index);
        Ok(())
    }

    /// The trees (static, kinematic, dynamic), for enlarging proxies on
    /// several threads at once (see `SharedEnlarge`), and the move slots, to
    /// ask which proxies are buffered already ([`MoveSlots::is_buffered`]).
    /// Each enlarged proxy must then be buffered through
    /// [`share_moves`](Self::share_moves).
    pub(crate) fn shared_enlarge(
        &mut self,
    ) -> (
        [crate::collision::dynamic_tree::SharedEnlarge<'_>; BodyType::COUNT],
        MoveSlots<'_>,
    ) {
        let [a, b, c] = &mut self.trees;
        (
            [a.shared_enlarge(), b.shared_enlarge(), c.shared_enlarge()],
            MoveSlots(&self.move_slots),
        )
    }

    /// Appends `count` empty entries to the move buffer and shares the buffer
    /// and its slots with the blocks of a stage, which put the moves of
    /// distinct, live, non-static proxies at the new positions
    /// ([`SharedMoves::put`]), each position once (an entry left empty is
    /// skipped). Returns the first new position.
    pub(crate) fn share_moves(&mut self, count: usize) -> (usize, SharedMoves<'_>) {
        let base = self.move_buffer.len();
        self.move_buffer.resize(base + count, None);
        let [a, b, c] = &mut self.move_slots;
        let shared = SharedMoves {
            buffer: SharedMut::new(&mut self.move_buffer[..]),
            slots: [SharedMut::new(a), SharedMut::new(b), SharedMut::new(c)],
        };
        (base, shared)
    }

    /// Puts a proxy into the move buffer (once; later calls before the next
    /// [`update_pairs`](Self::update_pairs) do nothing), so that its pairs are searched
    /// again. A stale key is a bug in the caller: it trips a debug assertion and is
    /// otherwise ignored.
    #[inline(always)]
    pub fn buffer_move(&mut self, key: ProxyKey) {
        if self.check_key(key).is_err() {
            debug_assert!(false, "buffer_move with a stale proxy key {key:?}");
            return;
        }
        self.buffer_checked_move(key, key.body_type() as usize, key.proxy_id().index());
    }

    /// [`buffer_move`](Self::buffer_move) of a key already checked (`tree` is
    /// its body type's tree, `index` its proxy index): puts it into the move
    /// buffer unless it is there.
    #[inline(always)]
    fn buffer_checked_move(&mut self, key: ProxyKey, tree: usize, index: u32) {
        let slot = &mut self.move_slots[tree][index as usize];
        if *slot == NOT_MOVED {
            *slot = self.move_buffer.len() as u32;
            self.move_buffer.push(Some(key));
        }
    }

    /// Counts an edit of the static tree.
    #[inline(always)]
    fn note_edit(&mut self, body_type: BodyType) {
        if body_type == BodyType::Static {
            self.static_edits = self.static_edits.wrapping_add(1);
        }
    }

    fn unbuffer_move(&mut self, key: ProxyKey) {
        let slot = &mut self.move_slots[key.body_type() as usize][key.proxy_id().index() as usize];
        if *slot != NOT_MOVED {
            self.move_buffer[*slot as usize] = None;
            *slot = NOT_MOVED;
        }
    }

    /// Finds the new pairs of the buffered proxies and empties the move buffer.
    ///
    /// For each buffered proxy, in buffer order, the trees it can collide with are
    /// queried with its fat box (static, kinematic, dynamic tree order; category bits are
    /// not used here). For every overlapping proxy, except itself and pairs that another
    /// buffered proxy reports (see the module documentation),
    /// `filter(shape_a, shape_b)` is called with `shape_a <= shape_b`; when it returns
    /// `true`, `(shape_a, shape_b)` is appended to `pairs`. The filter is where the
    /// caller rejects pairs that already have a contact, share a body, or are excluded
    /// by collision filters or joints.
    ///
    /// `pairs` is cleared first; its capacity is reused. Finally the dynamic and
    /// kinematic trees are partially rebuilt (see [`rebuild_trees`](Self::rebuild_trees)).
    pub fn update_pairs(
        &mut self,
        filter: impl FnMut(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        let simd = SimdPath::Auto.resolve().unwrap_or(SimdPath::Baseline);
        self.update_pairs_on(simd, filter, pairs);
    }

    /// [`update_pairs`](Self::update_pairs) with the queries built for `simd`
    /// (a world's resolved path).
    pub(crate) fn update_pairs_on(
        &mut self,
        simd: SimdPath,
        mut filter: impl FnMut(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        pairs.clear();
        let every = |_| u64::MAX;
        // The queries ask (querying shape, other shape); the caller's filter
        // gets the pair in order.
        let mut ordered = |q: u32, o: u32| if q < o { filter(q, o) } else { filter(o, q) };
        let range = 0..self.move_buffer.len();
        query_moved(simd, self, range, &every, &mut ordered, pairs);
        self.clear_move_buffer();
        // The enlarged proxies have been queried; restore the trees' quality before
        // the next step's enlargements loosen them further.
        self.rebuild_trees();
    }

    /// [`update_pairs_on`](Self::update_pairs_on) with the tree queries on
    /// `workers`: the move buffer is cut into blocks, each block's pairs go to
    /// the buffer of the worker that ran it, and the blocks' pairs are then
    /// appended to `pairs` in move-buffer order — the order of the serial
    /// search, so the result does not depend on the workers. `buffers` holds
    /// one [`PairBuffer`] per worker (resized here); `order` is scratch for the
    /// merge. Both keep their capacity from step to step.
    ///
    /// Unlike `update_pairs_on` this leaves the trees as they are: the caller
    /// must call [`rebuild_trees`](Self::rebuild_trees) before the next
    /// enlargement (the world does it beside the solver's stages).
    ///
    /// `query_mask(shape)` is the mask a buffered proxy of `shape` queries the
    /// trees with: only proxies with a category bit in it are candidates, and a
    /// tree none of whose proxies has one is not walked at all. It must pass
    /// every proxy that `filter` could accept with `shape` (the world's is the
    /// shape's collision mask, or every bit for a positive collision group).
    /// `filter(shape, other)` is asked with the querying shape first (not in
    /// index order), so that it may look things up from that shape's side.
    pub(crate) fn update_pairs_parallel<F, M>(
        &mut self,
        simd: SimdPath,
        workers: &Workers,
        query_mask: M,
        filter: F,
        buffers: &mut Vec<Mutex<PairBuffer>>,
        order: &mut Vec<(u32, u32, u32, u32)>,
        pairs: &mut Vec<(u32, u32)>,
    ) where
        F: Fn(u32, u32) -> bool + Sync,
        M: Fn(u32) -> u64 + Sync,
    {
        pairs.clear();
        if workers.count() == 1 {
            let bp = &*self;
            workers.run_alone(|| {
                let mut filter = |a, b| filter(a, b);
                let range = 0..bp.move_buffer.len();
                query_moved(simd, bp, range, &query_mask, &mut filter, pairs);
            });
            self.clear_move_buffer();
            return;
        }
        buffers.resize_with(workers.count(), Default::default);
        for b in buffers.iter_mut() {
            let b = b.get_mut().unwrap_or_else(|e| e.into_inner());
            b.pairs.clear();
            b.blocks.clear();
        }
        let bp = &*self;
        let shared: &[Mutex<PairBuffer>] = buffers;
        workers.for_each_block(bp.move_buffer.len(), MIN_MOVE_BLOCK, |range, worker| {
            let mut own = shared[worker].lock().unwrap_or_else(|e| e.into_inner());
            let own = &mut *own;
            let start = own.pairs.len() as u32;
            let mut filter = |a, b| filter(a, b);
            let pairs = &mut own.pairs;
            query_moved(simd, bp, range.clone(), &query_mask, &mut filter, pairs);
            let end = own.pairs.len() as u32;
            own.blocks.push((range.start as u32, start, end));
        });
        // Blocks in move-buffer order (each starts at a different entry).
        order.clear();
        for (w, b) in buffers.iter_mut().enumerate() {
            let b = b.get_mut().unwrap_or_else(|e| e.into_inner());
            order.extend(
                b.blocks
                    .iter()
                    .map(|&(first, s, e)| (first, w as u32, s, e)),
            );
        }
        order.sort_unstable();
        for &(_, w, s, e) in order.iter() {
            let b = buffers[w as usize]
                .get_mut()
                .unwrap_or_else(|e| e.into_inner());
            pairs.extend_from_slice(&b.pairs[s as usize..e as usize]);
        }
        // Which worker runs which blocks depends on scheduling: on a loaded
        // machine one worker may run them all. So that a step allocates only
        // when the step's totals grow (as `pairs` and `order` do), not when
        // the share of one worker grows, every buffer keeps room for all
        // (memory: workers × the most pairs found in one step, 8 bytes each).
        let (total_pairs, total_blocks) = (pairs.len(), order.len());
        for b in buffers.iter_mut() {
            let b = b.get_mut().unwrap_or_else(|e| e.into_inner());
            b.pairs.reserve(total_pairs.saturating_sub(b.pairs.len()));
            b.blocks
                .reserve(total_blocks.saturating_sub(b.blocks.len()));
        }
        self.clear_move_buffer();
    }

    /// Empties the move buffer after the queries.
    fn clear_move_buffer(&mut self) {
        for key in self.move_buffer.drain(..).flatten() {
            self.move_slots[key.body_type() as usize][key.proxy_id().index() as usize] = NOT_MOVED;
        }
    }

    /// The tree holding the proxies of `body_type`, for queries.
    #[inline]
    pub fn tree(&self, body_type: BodyType) -> &DynamicTree {
        &self.trees[body_type as usize]
    }

    /// The fat box of a proxy, metres.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale key.
    pub fn fat_aabb(&self, key: ProxyKey) -> Result<WorldAabb> {
        self.trees[key.body_type() as usize].fat_aabb(key.proxy_id())
    }

    /// The shape index given at creation.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale key.
    pub fn shape_index(&self, key: ProxyKey) -> Result<u32> {
        let data = self.trees[key.body_type() as usize].user_data(key.proxy_id())?;
        Ok(data as u32)
    }

    /// Whether the fat boxes of two proxies overlap.
    ///
    /// # Errors
    /// [`Error::InvalidId`] when either key is stale.
    pub fn test_overlap(&self, a: ProxyKey, b: ProxyKey) -> Result<bool> {
        Ok(self.fat_aabb(a)?.overlaps(&self.fat_aabb(b)?))
    }

    /// Total number of proxies in the three trees.
    pub fn proxy_count(&self) -> usize {
        self.trees.iter().map(DynamicTree::proxy_count).sum()
    }

    /// Number of proxies waiting in the move buffer.
    pub fn move_count(&self) -> usize {
        self.move_buffer.iter().flatten().count()
    }

    /// Rebuilds the parts of the dynamic and kinematic trees that
    /// [`enlarge_proxy`](Self::enlarge_proxy) loosened (a partial
    /// [`DynamicTree::rebuild`]). [`update_pairs`](Self::update_pairs) ends with it.
    pub fn rebuild_trees(&mut self) {
        let simd = SimdPath::Auto.resolve().unwrap_or(SimdPath::Baseline);
        rebuild_trees_on(simd, self);
    }

    /// Begins rebuilding the dynamic and kinematic trees as
    /// [`rebuild_trees`](Self::rebuild_trees) does, built for `simd`: the serial
    /// part (see [`DynamicTree::begin_rebuild`]). The tasks of
    /// [`rebuild_tasks`](Self::rebuild_tasks) and then
    /// [`finish_rebuild_trees`](Self::finish_rebuild_trees) complete it; until the
    /// tasks run the trees may be read and moves buffered, but no proxy changed.
    pub(crate) fn begin_rebuild_trees(&mut self, simd: SimdPath) {
        begin_rebuild_on(simd, self);
    }

    /// The static tree, to read, and the subtree tasks of the begun rebuild.
    pub(crate) fn rebuild_tasks(&mut self) -> (&DynamicTree, TreeRebuild<'_>) {
        let [static_tree, kinematic, dynamic] = &mut self.trees;
        let tasks = TreeRebuild {
            dynamic: dynamic.rebuild_tasks(),
            kinematic: kinematic.rebuild_tasks(),
        };
        (static_tree, tasks)
    }

    /// Ends the begun rebuild of the dynamic and kinematic trees once every task of
    /// [`rebuild_tasks`](Self::rebuild_tasks) has run.
    pub(crate) fn finish_rebuild_trees(&mut self, simd: SimdPath) {
        finish_rebuild_on(simd, self);
    }

    /// Fully rebuilds the static tree, for example after loading a level proxy by proxy.
    pub fn rebuild_static_tree(&mut self) {
        self.note_edit(BodyType::Static);
        self.trees[BodyType::Static as usize].rebuild(true);
    }

    /// Moves the coordinate origin to `new_origin` (metres) in every tree.
    ///
    /// # Errors
    /// [`Error::NonFinite`] when `new_origin` is not finite (nothing changes).
    pub fn shift_origin(&mut self, new_origin: Vec2) -> Result<()> {
        crate::error::check_finite_vec(new_origin, "new_origin")?;
        self.note_edit(BodyType::Static);
        for tree in &mut self.trees {
            tree.shift_origin(new_origin)?;
        }
        Ok(())
    }

    /// Checks every tree (see [`DynamicTree::validate`]) and the move buffer's
    /// bookkeeping.
    pub fn validate(&self) -> core::result::Result<(), String> {
        for (t, tree) in self.trees.iter().enumerate() {
            tree.validate().map_err(|e| format!("tree {t}: {e}"))?;
            // Every proxy the tree can hand out needs a move slot: pair finding and
            // `move_proxy` read the slot of any live proxy without a check.
            let (slots, proxies) = (self.move_slots[t].len(), tree.proxies.len());
            if slots < proxies {
                return Err(format!(
                    "tree {t} has {proxies} proxy entries but only {slots} move slots"
                ));
            }
        }
        for (position, entry) in self.move_buffer.iter().enumerate() {
            if let Some(key) = entry {
                self.check_key(*key)
                    .map_err(|_| format!("stale key {key:?} in the move buffer"))?;
                let slot = self.move_slots[key.body_type() as usize]
                    .get(key.proxy_id().index() as usize)
                    .copied()
                    .ok_or_else(|| format!("no move slot for {key:?}"))?;
                if slot as usize != position {
                    return Err(format!(
                        "move slot of {key:?} is {slot}, buffer position {position}"
                    ));
                }
            }
        }
        for (t, slots) in self.move_slots.iter().enumerate() {
            for (index, &slot) in slots.iter().enumerate() {
                if slot == NOT_MOVED {
                    continue;
                }
                match self.move_buffer.get(slot as usize) {
                    Some(Some(key))
                        if key.body_type() as usize == t
                            && key.proxy_id().index() as usize == index => {}
                    _ => {
                        return Err(format!(
                            "tree {t} proxy {index}: move slot {slot} is dangling"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn check_key(&self, key: ProxyKey) -> Result<()> {
        if self.trees[key.body_type() as usize].contains(key.proxy_id()) {
            Ok(())
        } else {
            Err(Error::InvalidId { what: "proxy" })
        }
    }
}

/// One buffered proxy's search for pairs.
struct PairQuery<'a> {
    trees: &'a [DynamicTree; BodyType::COUNT],
    move_slots: &'a [Vec<u32>; BodyType::COUNT],
    query_type: BodyType,
    query_index: u32,
    query_shape: u32,
    /// Only proxies with a category bit in this can pair with the query's.
    mask: u64,
    fat_aabb: WorldAabb,
}

impl PairQuery<'_> {
    #[inline(always)]
    fn run(
        &self,
        tree_type: BodyType,
        stack: &mut QueryStack,
        filter: &mut impl FnMut(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        let slots = &self.move_slots[tree_type as usize];
        let same_tree = tree_type == self.query_type;
        let tree = &self.trees[tree_type as usize];
        tree.query_with_stack(self.fat_aabb, self.mask, stack, |proxy, data| {
            let index = proxy.index();
            if same_tree && index == self.query_index {
                return true;
            }
            // Skip pairs that the other proxy's own query reports.
            let other_moved = slots[index as usize] != NOT_MOVED;
            if other_moved {
                let other_reports = if self.query_type == BodyType::Dynamic {
                    same_tree && index < self.query_index
                } else {
                    // Only dynamic trees are queried here, and a moved dynamic proxy
                    // queries static and kinematic trees itself.
                    true
                };
                if other_reports {
                    return true;
                }
            }
            let other_shape = data as u32;
            if filter(self.query_shape, other_shape) {
                pairs.push(if other_shape < self.query_shape {
                    (other_shape, self.query_shape)
                } else {
                    (self.query_shape, other_shape)
                });
            }
            true
        });
    }
}

multiversion!(
    /// [`BroadPhase::rebuild_trees`] built for `simd` (see `simd.rs`).
    pub(crate) fn rebuild_trees_on(bp: &mut BroadPhase) = rebuild_trees_kernel
);

/// The kernel of [`rebuild_trees_on`].
#[inline(always)]
fn rebuild_trees_kernel(bp: &mut BroadPhase) {
    bp.trees[BodyType::Dynamic as usize].rebuild_inlined(false);
    bp.trees[BodyType::Kinematic as usize].rebuild_inlined(false);
}

/// The subtree tasks of a begun rebuild of the dynamic and kinematic trees
/// ([`BroadPhase::rebuild_tasks`]): the dynamic tree's, then the kinematic
/// tree's. Each must run once; tasks may run at the same time on any threads,
/// in any order, with the same trees as a result.
pub(crate) struct TreeRebuild<'a> {
    dynamic: RebuildTasks<'a>,
    kinematic: RebuildTasks<'a>,
}

impl TreeRebuild<'_> {
    /// Number of tasks.
    pub(crate) fn len(&self) -> usize {
        self.dynamic.len() + self.kinematic.len()
    }

    /// Runs task `index`, built for `simd`.
    pub(crate) fn run(&self, simd: SimdPath, index: usize) {
        let split = self.dynamic.len();
        if index < split {
            run_rebuild_task_on(simd, &self.dynamic, index);
        } else {
            run_rebuild_task_on(simd, &self.kinematic, index - split);
        }
    }
}

multiversion!(
    /// [`BroadPhase::begin_rebuild_trees`] built for `simd`.
    fn begin_rebuild_on(bp: &mut BroadPhase) = begin_rebuild_kernel
);

/// The kernel of [`begin_rebuild_on`].
#[inline(always)]
fn begin_rebuild_kernel(bp: &mut BroadPhase) {
    bp.trees[BodyType::Dynamic as usize].begin_rebuild(false);
    bp.trees[BodyType::Kinematic as usize].begin_rebuild(false);
}

multiversion!(
    /// One subtree task of a tree's begun rebuild, built for `simd`.
    fn run_rebuild_task_on(tasks: &RebuildTasks<'_>, index: usize) = run_rebuild_task_kernel
);

/// The kernel of [`run_rebuild_task_on`].
#[inline(always)]
fn run_rebuild_task_kernel(tasks: &RebuildTasks<'_>, index: usize) {
    tasks.run(index);
}

multiversion!(
    /// [`BroadPhase::finish_rebuild_trees`] built for `simd`.
    fn finish_rebuild_on(bp: &mut BroadPhase) = finish_rebuild_kernel
);

/// The kernel of [`finish_rebuild_on`].
#[inline(always)]
fn finish_rebuild_kernel(bp: &mut BroadPhase) {
    bp.trees[BodyType::Dynamic as usize].finish_rebuild();
    bp.trees[BodyType::Kinematic as usize].finish_rebuild();
}

multiversion!(
    /// Queries the trees for the new pairs of the proxies `range` of the move
    /// buffer, each with its shape's `query_mask`, built for `simd` (see
    /// `simd.rs`).
    fn query_moved[M: Fn(u32) -> u64, F: FnMut(u32, u32) -> bool](
        bp: &BroadPhase,
        range: std::ops::Range<usize>,
        query_mask: &M,
        filter: &mut F,
        pairs: &mut Vec<(u32, u32)>,
    ) = query_moved_kernel
);

/// The kernel of [`query_moved`].
#[inline(always)]
fn query_moved_kernel<M: Fn(u32) -> u64, F: FnMut(u32, u32) -> bool>(
    bp: &BroadPhase,
    range: std::ops::Range<usize>,
    query_mask: &M,
    filter: &mut F,
    pairs: &mut Vec<(u32, u32)>,
) {
    // One traversal stack for all the queries of the range.
    let mut stack = QueryStack::new();
    for &entry in &bp.move_buffer[range] {
        let Some(query_key) = entry else { continue };
        let query_type = query_key.body_type();
        let tree = &bp.trees[query_type as usize];
        let id = query_key.proxy_id();
        let (Ok(fat_aabb), Ok(data)) = (tree.fat_aabb(id), tree.user_data(id)) else {
            debug_assert!(false, "stale key in the move buffer");
            continue;
        };
        let query_shape = data as u32;
        let query = PairQuery {
            trees: &bp.trees,
            move_slots: &bp.move_slots,
            query_type,
            query_index: id.index(),
            query_shape,
            mask: query_mask(query_shape),
            fat_aabb,
        };
        if query_type == BodyType::Dynamic {
            query.run(BodyType::Static, &mut stack, filter, pairs);
            query.run(BodyType::Kinematic, &mut stack, filter, pairs);
        }
        query.run(BodyType::Dynamic, &mut stack, filter, pairs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::Aabb;

    /// `rows × columns` dynamic boxes of half-width 0.6 m, 1 m apart, so each
    /// overlaps its 8 neighbours and nothing further; shape index = proxy
    /// creation order. Every proxy is in the move buffer.
    fn grid(rows: u32, columns: u32) -> BroadPhase {
        grid_with_keys(rows, columns).0
    }

    /// [`grid`] and its proxies' keys in creation order.
    fn grid_with_keys(rows: u32, columns: u32) -> (BroadPhase, Vec<ProxyKey>) {
        let mut bp = BroadPhase::new();
        let mut keys = Vec::new();
        for r in 0..rows {
            for c in 0..columns {
                let center = Vec2::new(c as f32, r as f32);
                let half = Vec2::new(0.6, 0.6);
                let aabb = Aabb::new(center - half, center + half);
                let shape = r * columns + c;
                keys.push(
                    bp.create_proxy(aabb, 1, shape, BodyType::Dynamic, false)
                        .unwrap(),
                );
            }
        }
        (bp, keys)
    }

    /// The parallel pair search finds the serial search's pairs in the
    /// serial order, on any worker count, and leaves the move buffer empty.
    #[test]
    fn parallel_pair_search_matches_the_serial_one() {
        let (rows, columns) = (20, 35);
        // Horizontal, vertical and both diagonal neighbours, each pair once.
        let expected_count =
            rows * (columns - 1) + (rows - 1) * columns + 2 * (rows - 1) * (columns - 1);
        let mut all = Vec::new();
        grid(rows, columns).update_pairs_on(SimdPath::Baseline, |_, _| true, &mut all);
        assert_eq!(all.len(), expected_count as usize);

        // A filter that rejects some pairs, to see it applied on the workers.
        let filter = |a: u32, b: u32| !(a + b).is_multiple_of(7);
        let mut serial = grid(rows, columns);
        let mut expected = Vec::new();
        serial.update_pairs_on(SimdPath::Baseline, filter, &mut expected);
        assert!(expected.len() < all.len());
        let (mut buffers, mut order, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
        for count in [1, 2, 3, 4] {
            let workers = Workers::new(count).unwrap();
            let mut parallel = grid(rows, columns);
            for round in 0..2 {
                parallel.update_pairs_parallel(
                    SimdPath::Baseline,
                    &workers,
                    |_| u64::MAX,
                    filter,
                    &mut buffers,
                    &mut order,
                    &mut pairs,
                );
                parallel.rebuild_trees();
                assert_eq!(parallel.move_count(), 0);
                parallel.validate().unwrap();
                if round == 0 {
                    assert_eq!(pairs, expected, "{count} workers");
                } else {
                    // Nothing moved since: no pairs.
                    assert!(pairs.is_empty(), "{count} workers");
                }
            }
        }
    }

    /// A shape's collision filter in the tests below: (category, mask, group).
    type TestFilter = (u64, u64, i32);

    /// The world's rule (`Filter::should_collide`), written out again.
    fn filters_collide(a: TestFilter, b: TestFilter) -> bool {
        if a.2 == b.2 && a.2 != 0 {
            return a.2 > 0;
        }
        a.0 & b.1 != 0 && a.1 & b.0 != 0
    }

    /// The grid of [`grid`] with each proxy's category from `filter_of`.
    fn filtered_grid(
        rows: u32,
        columns: u32,
        filter_of: &impl Fn(u32) -> TestFilter,
    ) -> BroadPhase {
        let mut bp = BroadPhase::new();
        for r in 0..rows {
            for c in 0..columns {
                let center = Vec2::new(c as f32, r as f32);
                let half = Vec2::new(0.6, 0.6);
                let shape = r * columns + c;
                // Every fourth proxy static, so that both trees are searched.
                let body_type = if shape.is_multiple_of(4) {
                    BodyType::Static
                } else {
                    BodyType::Dynamic
                };
                let aabb = Aabb::new(center - half, center + half);
                bp.create_proxy(aabb, filter_of(shape).0, shape, body_type, false)
                    .unwrap();
            }
        }
        bp
    }

    /// Querying with the shapes' masks (every bit for a positive group, as
    /// the world does) finds, on any worker count, exactly the pairs that the
    /// unmasked search finds and the filter accepts, in the same order; and a
    /// tree whose categories the mask misses is not walked at all.
    #[test]
    fn masked_pair_search_finds_the_unmasked_searchs_pairs() {
        let (rows, columns) = (12, 17);
        let layouts: [&(dyn Fn(u32) -> TestFilter + Sync); 3] = [
            // Three layers that skip their own; groups that override both ways.
            &|s| {
                let category = 1u64 << (s % 3);
                let group = match s % 10 {
                    0 | 5 => 1,
                    3 => -1,
                    _ => 0,
                };
                (category, !category, group)
            },
            // The joint grid's filter: category 2, every bit but 2 (no pairs).
            &|_| (2, !2, 0),
            // Odd shapes collide with everything, even ones with nothing.
            &|s| {
                if s % 2 == 1 {
                    (1, u64::MAX, 0)
                } else {
                    (4, 0, 0)
                }
            },
        ];
        for (layout, filter_of) in layouts.into_iter().enumerate() {
            let filter = |a: u32, b: u32| filters_collide(filter_of(a), filter_of(b));
            let query_mask = |s: u32| {
                let (_, mask, group) = filter_of(s);
                if group > 0 { u64::MAX } else { mask }
            };
            let mut expected = Vec::new();
            let mut serial = filtered_grid(rows, columns, &filter_of);
            serial.update_pairs_on(SimdPath::Baseline, filter, &mut expected);
            let (mut buffers, mut order, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
            for count in [1, 2, 3] {
                let workers = Workers::new(count).unwrap();
                let mut masked = filtered_grid(rows, columns, &filter_of);
                masked.update_pairs_parallel(
                    SimdPath::Baseline,
                    &workers,
                    query_mask,
                    filter,
                    &mut buffers,
                    &mut order,
                    &mut pairs,
                );
                assert_eq!(pairs, expected, "layout {layout}, {count} workers");
            }
            if layout == 1 {
                assert!(expected.is_empty());
                let tree = &serial.trees[BodyType::Dynamic as usize];
                assert!(tree.excludes_mask(!2) && !tree.excludes_mask(2));
            } else {
                assert!(!expected.is_empty(), "layout {layout}");
            }
        }
    }

    /// Moves buffered on several workers the way the proxy enlargement does
    /// (each block counts the keys not yet buffered, a prefix sum gives each
    /// block its first position, then each block puts its keys in order)
    /// leave the move buffer and slots that buffering the keys one by one
    /// leaves, on any worker count; keys buffered before are skipped.
    #[test]
    fn shared_moves_match_buffering_one_by_one() {
        let (rows, columns) = (9, 14);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        // The grid of `grid`, its move buffer emptied, and its keys.
        let fresh = || {
            let (mut bp, keys) = grid_with_keys(rows, columns);
            bp.update_pairs(|_, _| true, &mut Vec::new());
            assert_eq!(bp.move_count(), 0);
            (bp, keys)
        };
        let all = fresh().1;
        for count in [1, 2, 4] {
            let workers = Workers::new(count).unwrap();
            for trial in 0..12 {
                // A random order of a random subset, and a few keys buffered
                // beforehand (some of them in the subset).
                let mut keys = all.clone();
                for i in (1..keys.len()).rev() {
                    keys.swap(i, next(i + 1));
                }
                keys.truncate(1 + next(all.len()));
                let before: Vec<ProxyKey> = (0..next(20)).map(|_| all[next(all.len())]).collect();

                let (mut serial, _) = fresh();
                let (mut parallel, _) = fresh();
                for &key in &before {
                    serial.buffer_move(key);
                    parallel.buffer_move(key);
                }
                for &key in &keys {
                    serial.buffer_move(key);
                }

                let min_block = 1 + next(8);
                let block_size = workers.block_size(keys.len(), min_block);
                let mut counts = vec![0u32; keys.len().div_ceil(block_size)];
                {
                    let (_, slots) = parallel.shared_enlarge();
                    let shared = SharedMut::new(&mut counts[..]);
                    workers.for_each_block(keys.len(), min_block, |range, _| {
                        let n = keys[range.clone()]
                            .iter()
                            .filter(|&&k| !slots.is_buffered(k))
                            .count();
                        // SAFETY: each block writes its own count.
                        #[allow(unsafe_code)]
                        unsafe {
                            *shared.get(range.start / block_size) = n as u32;
                        }
                    });
                }
                let mut total = 0;
                for c in counts.iter_mut() {
                    (*c, total) = (total, total + *c);
                }
                let (base, moves) = parallel.share_moves(total as usize);
                workers.for_each_block(keys.len(), min_block, |range, _| {
                    let mut position = base + counts[range.start / block_size] as usize;
                    for &key in &keys[range] {
                        // SAFETY: each key is in one block, and each block
                        // puts at its own positions.
                        #[allow(unsafe_code)]
                        unsafe {
                            if !moves.is_buffered(key) {
                                moves.put(position, key);
                                position += 1;
                            }
                        }
                    }
                });
                let context = format!("{count} workers, trial {trial}");
                assert_eq!(parallel.move_buffer, serial.move_buffer, "{context}");
                assert_eq!(parallel.move_slots, serial.move_slots, "{context}");
                // Everything buffered, once, and the slots point at the entries.
                for &key in keys.iter().chain(&before) {
                    let slot = parallel.move_slots[2][key.proxy_id().index() as usize];
                    assert_eq!(parallel.move_buffer[slot as usize], Some(key), "{context}");
                }
                let distinct: std::collections::BTreeSet<_> = keys.iter().chain(&before).collect();
                assert_eq!(parallel.move_count(), distinct.len(), "{context}");
            }
        }
    }
}
