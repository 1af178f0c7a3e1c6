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
use crate::collision::{Aabb, DynamicTree, ProxyId};
use crate::error::{Error, Result};
use crate::math::Vec2;
use crate::simd::{SimdPath, multiversion};

/// `move_slots` entry of a proxy that is not in the move buffer.
const NOT_MOVED: u32 = u32::MAX;

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
        fat_aabb: Aabb,
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
    pub fn move_proxy(&mut self, key: ProxyKey, fat_aabb: Aabb) -> Result<()> {
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
    pub fn enlarge_proxy(&mut self, key: ProxyKey, fat_aabb: Aabb) -> Result<()> {
        self.note_edit(key.body_type());
        self.trees[key.body_type() as usize].enlarge_proxy(key.proxy_id(), fat_aabb)?;
        self.buffer_move(key);
        Ok(())
    }

    /// Puts a proxy into the move buffer (once; later calls before the next
    /// [`update_pairs`](Self::update_pairs) do nothing), so that its pairs are searched
    /// again. A stale key is a bug in the caller: it trips a debug assertion and is
    /// otherwise ignored.
    pub fn buffer_move(&mut self, key: ProxyKey) {
        if self.check_key(key).is_err() {
            debug_assert!(false, "buffer_move with a stale proxy key {key:?}");
            return;
        }
        let slot = &mut self.move_slots[key.body_type() as usize][key.proxy_id().index() as usize];
        if *slot == NOT_MOVED {
            *slot = self.move_buffer.len() as u32;
            self.move_buffer.push(Some(key));
        }
    }

    /// Counts an edit of the static tree.
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
        query_moved(simd, self, &mut filter, pairs);

        for key in self.move_buffer.drain(..).flatten() {
            self.move_slots[key.body_type() as usize][key.proxy_id().index() as usize] = NOT_MOVED;
        }
        // The enlarged proxies have been queried; restore the trees' quality before
        // the next step's enlargements loosen them further.
        self.rebuild_trees();
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
    pub fn fat_aabb(&self, key: ProxyKey) -> Result<Aabb> {
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
        self.trees[BodyType::Dynamic as usize].rebuild(false);
        self.trees[BodyType::Kinematic as usize].rebuild(false);
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
        }
        for (position, entry) in self.move_buffer.iter().enumerate() {
            if let Some(key) = entry {
                self.check_key(*key)
                    .map_err(|_| format!("stale key {key:?} in the move buffer"))?;
                let slot =
                    self.move_slots[key.body_type() as usize][key.proxy_id().index() as usize];
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
    fat_aabb: Aabb,
}

impl PairQuery<'_> {
    #[inline(always)]
    fn run(
        &self,
        tree_type: BodyType,
        filter: &mut impl FnMut(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        let slots = &self.move_slots[tree_type as usize];
        let same_tree = tree_type == self.query_type;
        self.trees[tree_type as usize].query_inlined(self.fat_aabb, u64::MAX, |proxy, data| {
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
            let pair = if other_shape < self.query_shape {
                (other_shape, self.query_shape)
            } else {
                (self.query_shape, other_shape)
            };
            if filter(pair.0, pair.1) {
                pairs.push(pair);
            }
            true
        });
    }
}

multiversion!(
    /// Queries the trees for the new pairs of every proxy in the move buffer,
    /// built for `simd` (see `simd.rs`).
    fn query_moved[F: FnMut(u32, u32) -> bool](
        bp: &BroadPhase,
        filter: &mut F,
        pairs: &mut Vec<(u32, u32)>,
    ) = query_moved_kernel
);

/// The kernel of [`query_moved`].
#[inline(always)]
fn query_moved_kernel<F: FnMut(u32, u32) -> bool>(
    bp: &BroadPhase,
    filter: &mut F,
    pairs: &mut Vec<(u32, u32)>,
) {
    for &entry in &bp.move_buffer {
        let Some(query_key) = entry else { continue };
        let query_type = query_key.body_type();
        let tree = &bp.trees[query_type as usize];
        let id = query_key.proxy_id();
        let (Ok(fat_aabb), Ok(data)) = (tree.fat_aabb(id), tree.user_data(id)) else {
            debug_assert!(false, "stale key in the move buffer");
            continue;
        };
        let query = PairQuery {
            trees: &bp.trees,
            move_slots: &bp.move_slots,
            query_type,
            query_index: id.index(),
            query_shape: data as u32,
            fat_aabb,
        };
        if query_type == BodyType::Dynamic {
            query.run(BodyType::Static, filter, pairs);
            query.run(BodyType::Kinematic, filter, pairs);
        }
        query.run(BodyType::Dynamic, filter, pairs);
    }
}
