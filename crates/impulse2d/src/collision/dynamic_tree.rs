//! A dynamic AABB tree: a bounding-volume hierarchy of axis-aligned boxes that can be
//! changed at any time (create, destroy, move, enlarge) and answers box-overlap
//! queries, ray casts and shape casts in time roughly logarithmic in the number of
//! boxes. It is the broad phase's index, and it is useful on its own: it needs no
//! world, only boxes and `u64` user data.
//!
//! The algorithms and references are described on [`DynamicTree`].

use crate::collision::{Aabb, RayCastInput, ShapeProxy};
use crate::core::MAX_POLYGON_VERTICES;
use crate::error::{Error, Result};
use crate::math::Vec2;
use crate::pos::{Coord, Pos, WorldAabb, coord_to_f32, to_pos, to_world_aabb};

pub(crate) mod rebuild;
mod shared_enlarge;
mod validate;

use rebuild::RebuildScratch;
pub(crate) use rebuild::RebuildTasks;
pub(crate) use shared_enlarge::SharedEnlarge;

/// "No index" in links and free lists.
const NULL_INDEX: u32 = u32::MAX;
/// The root node's index: it never moves.
const ROOT: u32 = 0;

/// Flag in [`Child::word`]: the child is a proxy (leaf), not a node.
const LEAF_FLAG: u32 = 1 << 31;
/// Flag in [`Child::word`]: this subtree holds an enlarged leaf and awaits a rebuild.
const MOVED_FLAG: u32 = 1 << 30;
/// Flag in [`Child::word`] of a leaf: the proxy's category bits are zero, so no query
/// matches it.
const NO_CATEGORY_FLAG: u32 = 1 << 29;
/// Mask of the index part of [`Child::word`].
const INDEX_MASK: u32 = NO_CATEGORY_FLAG - 1;
/// [`Child::word`] of an empty slot (only the root has empty slots).
const EMPTY_WORD: u32 = INDEX_MASK;
/// The largest number of proxies (and of nodes) a tree can hold.
const MAX_ITEMS: usize = (INDEX_MASK - 1) as usize;

/// An inverted box that overlaps no finite box, used for empty slots. Traversals also
/// check for empty slots explicitly, so that no input can reach one.
const EMPTY_BOX: WorldAabb = WorldAabb::new(
    Pos::new(Coord::INFINITY, Coord::INFINITY),
    Pos::new(Coord::NEG_INFINITY, Coord::NEG_INFINITY),
);

/// Number of bins of the binned SAH partition.
const BIN_COUNT: usize = 16;

/// Stack entries kept inline (on the call stack) before spilling to the heap. Trees
/// this deep do not occur in practice: a full rebuild bounds the height by 2·log₂(n) + 2.
const INLINE_STACK: usize = 128;

/// Identifies a proxy in a [`DynamicTree`]: a pool index plus a generation, so that an
/// id kept after its proxy was destroyed is recognised as stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    #[inline]
    pub(crate) fn new(index: u32, generation: u32) -> ProxyId {
        ProxyId { index, generation }
    }

    crate::id::slot_getters!(
        "The proxy's slot in the tree's pool, below the pool's capacity; usable to index \
         side arrays. Slots are reused after a proxy is destroyed.",
        "How many times the slot had been freed when this proxy was created."
    );
}

/// How much work a traversal did: useful for profiling and for checking tree quality.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    /// Internal nodes visited (each visit tests two child boxes).
    pub node_visits: u32,
    /// Proxies passed to the callback.
    pub leaf_visits: u32,
}

impl core::ops::AddAssign for TreeStats {
    fn add_assign(&mut self, o: TreeStats) {
        self.node_visits += o.node_visits;
        self.leaf_visits += o.leaf_visits;
    }
}

/// Input of [`DynamicTree::shape_cast`]: a convex shape (as a point cloud with a
/// radius) swept along a translation. World frame, metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShapeCastInput {
    /// The moving shape at the start of the cast.
    pub proxy: ShapeProxy,
    /// The full displacement of the shape, metres.
    pub translation: Vec2,
    /// The fraction of `translation` to sweep, usually 1.
    pub max_fraction: f32,
    /// Allow shapes with a radius to move slightly into each other (as Box2D's
    /// character mover does). The tree ignores it; the callback may use it.
    pub can_encroach: bool,
}

/// One of the two child slots of an internal node: the child's box and what it is.
/// A leaf slot also carries its proxy's generation and user data, so that traversals
/// can report proxies without reading the proxy pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Child {
    /// The child's box: a proxy's box, or a box containing all boxes below a node
    /// (`f64` corners with `large-world`).
    pub(crate) aabb: WorldAabb,
    /// Node or proxy index, plus [`LEAF_FLAG`], [`MOVED_FLAG`] and
    /// [`NO_CATEGORY_FLAG`]; [`EMPTY_WORD`] when empty.
    pub(crate) word: u32,
    /// For a node, the subtree's height (1 + the children's maximum, a proxy counting
    /// 0); for a proxy, its generation.
    pub(crate) aux: u32,
    /// For a proxy, its user data; 0 for a node.
    pub(crate) user_data: u64,
}

impl Child {
    const EMPTY: Child = Child {
        aabb: EMPTY_BOX,
        word: EMPTY_WORD,
        aux: 0,
        user_data: 0,
    };

    #[inline]
    fn leaf(aabb: WorldAabb, index: u32, proxy: &Proxy) -> Child {
        let no_category = if proxy.category_bits == 0 {
            NO_CATEGORY_FLAG
        } else {
            0
        };
        Child {
            aabb,
            word: index | LEAF_FLAG | no_category,
            aux: proxy.generation,
            user_data: proxy.user_data,
        }
    }

    /// Height of the subtree: 0 for a proxy (or an empty slot).
    #[inline]
    fn height(&self) -> u32 {
        if self.is_leaf() { 0 } else { self.aux }
    }

    /// Whether a proxy in this slot passes a query mask, reading the proxy pool only
    /// for a partial mask.
    #[inline]
    fn matches(&self, mask: u64, proxies: &[Proxy]) -> bool {
        if mask == u64::MAX {
            self.word & NO_CATEGORY_FLAG == 0
        } else {
            proxies[self.index() as usize].category_bits & mask != 0
        }
    }

    /// The id of the proxy in a leaf slot.
    #[inline]
    fn proxy_id(&self) -> ProxyId {
        ProxyId {
            index: self.index(),
            generation: self.aux,
        }
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.word == EMPTY_WORD
    }

    #[inline]
    fn is_leaf(&self) -> bool {
        self.word & LEAF_FLAG != 0
    }

    /// A non-empty slot holding a node.
    #[inline]
    fn is_node(&self) -> bool {
        self.word & LEAF_FLAG == 0 && self.word != EMPTY_WORD
    }

    #[inline]
    fn is_moved(&self) -> bool {
        self.word & MOVED_FLAG != 0
    }

    #[inline]
    fn index(&self) -> u32 {
        self.word & INDEX_MASK
    }
}

/// An internal node: the two child slots. Aligned to a cache line so that a traversal
/// reads each node with one memory access.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(64))]
pub(crate) struct Node {
    pub(crate) children: [Child; 2],
}

/// `child.overlaps(query)` (touching counts), decided by one four-lane
/// compare on x86-64 instead of a branch per side: the queries' test, where
/// those branches mispredict. The same answer for every box.
#[inline(always)]
fn child_overlaps(child: &WorldAabb, query: &WorldAabb) -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "large-world")))]
    return !crate::collision::aabb::sse2::apart(child, query);
    #[cfg(not(all(target_arch = "x86_64", not(feature = "large-world"))))]
    child.overlaps(query)
}

impl Node {
    const EMPTY: Node = Node {
        children: [Child::EMPTY; 2],
    };
}

/// Where a node or proxy hangs in the tree; while free, `parent` is the next free slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    pub(crate) parent: u32,
    pub(crate) slot: u8,
    pub(crate) allocated: bool,
}

impl Link {
    #[inline]
    fn free(next: u32) -> Link {
        Link {
            parent: next,
            slot: 0,
            allocated: false,
        }
    }

    #[inline]
    fn at(parent: u32, slot: usize) -> Link {
        Link {
            parent,
            slot: slot as u8,
            allocated: true,
        }
    }
}

/// A leaf's own data; its box lives in its parent's child slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Proxy {
    pub(crate) category_bits: u64,
    pub(crate) user_data: u64,
    pub(crate) link: Link,
    pub(crate) generation: u32,
}

/// Pushes `value` on a stack of `len` entries in `inline`, then `spill` once
/// `inline` is full ([`InlineStack`] and [`Traversal`] share it).
#[inline]
fn push_entry<T: Copy, const N: usize>(
    inline: &mut [T; N],
    len: &mut usize,
    spill: &mut Vec<T>,
    value: T,
) {
    if *len < N {
        inline[*len] = value;
        *len += 1;
    } else {
        spill.push(value);
    }
}

/// Pops the entry [`push_entry`] pushed last (from `spill` while it holds any), or `None`
/// when the stack is empty.
#[inline]
fn pop_entry<T: Copy, const N: usize>(
    inline: &[T; N],
    len: &mut usize,
    spill: &mut Vec<T>,
) -> Option<T> {
    if let Some(value) = spill.pop() {
        return Some(value);
    }
    if *len == 0 {
        return None;
    }
    *len -= 1;
    Some(inline[*len])
}

/// A stack with inline storage for `N` entries, spilling to the heap only beyond
/// that (for pathologically deep trees), so that traversals and rebuilds do not
/// allocate.
struct InlineStack<T: Copy, const N: usize> {
    inline: [T; N],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy, const N: usize> InlineStack<T, N> {
    /// An empty stack; `fill` only initialises the storage.
    #[inline]
    fn new(fill: T) -> Self {
        InlineStack {
            inline: [fill; N],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, value: T) {
        push_entry(&mut self.inline, &mut self.len, &mut self.spill, value);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        pop_entry(&self.inline, &mut self.len, &mut self.spill)
    }

    #[inline]
    fn last_mut(&mut self) -> Option<&mut T> {
        if !self.spill.is_empty() {
            return self.spill.last_mut();
        }
        if self.len == 0 {
            None
        } else {
            Some(&mut self.inline[self.len - 1])
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    /// Empties the stack (keeping the spill's capacity).
    #[inline]
    fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }
}

impl<T: Copy, const N: usize> InlineStack<T, N> {
    /// Empties the stack and starts a [`Traversal`] of its storage with `first`
    /// on it.
    #[inline(always)]
    fn traverse_from(&mut self, first: T) -> Traversal<'_, T, N> {
        self.clear();
        let mut traversal = Traversal {
            inline: &mut self.inline,
            len: 0,
            spill: &mut self.spill,
        };
        traversal.push(first);
        traversal
    }
}

/// A tree walk's stack on an [`InlineStack`]'s storage, with the inline length
/// a local of its own. The stack's `len` sits beside its spill `Vec`, whose
/// growth is an out-of-line call handed that `Vec`'s address, so the compiler
/// keeps the whole stack in memory: every push and pop of a walk then stores
/// and reloads the length on the walk's critical path. Here the length is a
/// plain value (a register in the loop); the spill is reached through a
/// pointer. Same entries in the same order as [`InlineStack`]. Dropping it
/// leaves the stack empty.
struct Traversal<'s, T: Copy, const N: usize> {
    inline: &'s mut [T; N],
    len: usize,
    spill: &'s mut Vec<T>,
}

impl<T: Copy, const N: usize> Traversal<'_, T, N> {
    #[inline(always)]
    fn push(&mut self, value: T) {
        push_entry(self.inline, &mut self.len, self.spill, value);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        pop_entry(self.inline, &mut self.len, self.spill)
    }
}

impl<T: Copy, const N: usize> Drop for Traversal<'_, T, N> {
    #[inline(always)]
    fn drop(&mut self) {
        self.spill.clear();
    }
}

/// The traversal stack of box queries, kept by a caller that runs many (see
/// [`DynamicTree::query_with_stack`]).
pub(crate) struct QueryStack(NodeStack);

impl QueryStack {
    /// An empty stack; sets up its inline storage (512 bytes).
    #[inline]
    pub(crate) fn new() -> QueryStack {
        QueryStack(NodeStack::new(0))
    }
}

/// The storage of the traversal stack of queries and casts.
type NodeStack = InlineStack<u32, INLINE_STACK>;

/// A dynamic AABB tree over proxies, each with a box, category bits and `u64` user
/// data.
///
/// # How it works
/// - **Layout.** The tree is binary. Each internal node stores the boxes of its *two
///   children* (not its own box), so a traversal tests both children from one node
///   read. Leaves are *proxies*, kept in a pool of their own, so that a proxy's id
///   (index plus generation) survives restructuring and rebuilds. Node 0 is always the
///   root; an empty tree is a root with two empty slots.
/// - **Insertion** picks the sibling that minimises the surface-area heuristic (in 2D
///   the perimeter): the cost of a sibling is the perimeter of its union with the new
///   box plus the perimeter growth of all its ancestors. A single greedy descent with a
///   lower bound for each subtree prunes the search (branch and bound). On the way back
///   up, each ancestor tries the four *rotations* that swap a child with a grandchild and
///   keeps the one that reduces the perimeter of the node it changes most.
/// - **Enlarging** a proxy grows its box and its ancestors' boxes in place and marks
///   them; [`DynamicTree::rebuild`] later rebuilds only the marked part, top-down,
///   splitting at the middle of the centres' bounds (a full rebuild uses binned SAH
///   splits), in place: the new nodes, top levels first, then subtree by subtree
///   depth-first, take the dropped nodes' indices in ascending order, and kept
///   subtrees stay where they are. The top is built first and its subtrees are independent tasks
///   (the world runs them on its workers); the splits, and so the tree, are those
///   of one depth-first build whatever runs the tasks.
/// - **Traversal** uses a small stack held on the call stack (spilling to the heap only
///   for pathologically deep trees), so queries do not allocate.
///
/// Boxes are stored as given: the caller decides how much margin ("fat") to add.
/// They are [`WorldAabb`]s: [`Aabb`] (`f32`) in the default build, `f64` corners with
/// the `large-world` feature (so that boxes far from the origin keep their size);
/// every method that takes a box also takes an [`Aabb`].
///
/// All operations are deterministic: the same calls in the same order give the same
/// tree, bit for bit, and the same callback order.
///
/// ```
/// use impulse2d::collision::{Aabb, DynamicTree};
/// use impulse2d::Vec2;
///
/// let mut tree = DynamicTree::new();
/// let a = tree.create_proxy(Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0)), 1, 10)?;
/// let _b = tree.create_proxy(Aabb::new(Vec2::new(5.0, 5.0), Vec2::new(6.0, 6.0)), 1, 20)?;
/// let mut found = Vec::new();
/// tree.query(Aabb::new(Vec2::new(0.5, 0.5), Vec2::new(2.0, 2.0)), u64::MAX, |id, data| {
///     found.push((id, data));
///     true
/// });
/// assert_eq!(found, vec![(a, 10)]);
/// # Ok::<(), impulse2d::Error>(())
/// ```
///
/// # References
/// - E. Catto, Box2D v3 `dynamic_tree.c` (sibling selection, rotations, partial rebuild).
/// - J. Bittner, M. Hapala, V. Havran, *Fast Insertion-Based Optimization of Bounding
///   Volume Hierarchies*, Computer Graphics Forum 32(1), 2013 (branch-and-bound sibling search).
/// - A. Kensler, *Tree Rotations for Improving Bounding Volume Hierarchies*, IEEE
///   Symposium on Interactive Ray Tracing, 2008.
/// - I. Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, IEEE
///   Symposium on Interactive Ray Tracing, 2007 (binned SAH).
/// - G. van den Bergen, *Collision Detection in Interactive 3D Environments*, 2003,
///   p. 80 (separating-axis test of a segment against a box).
#[derive(Clone, Debug)]
pub struct DynamicTree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) node_links: Vec<Link>,
    pub(crate) node_free: u32,
    pub(crate) node_count: u32,
    pub(crate) proxies: Vec<Proxy>,
    pub(crate) proxy_free: u32,
    pub(crate) proxy_count: u32,
    /// Every category bit some live proxy may have: a query whose mask shares no bit
    /// with it can skip the whole tree.
    pub(crate) category_union: CategoryUnion,
    pub(crate) scratch: RebuildScratch,
}

/// An upper bound of the category bits of a tree's live proxies: their bitwise or,
/// or more. It only grows as proxies are added or recategorised (destroying a proxy
/// leaves its bits), so a copy of it taken with the tree stays true for that tree,
/// and [`DynamicTree::tighten_category_union`] makes it exact again. The default,
/// for a tree decoded without it, is every bit: no query skips the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CategoryUnion(pub(crate) u64);

impl Default for CategoryUnion {
    fn default() -> Self {
        CategoryUnion(u64::MAX)
    }
}

impl Default for DynamicTree {
    fn default() -> Self {
        DynamicTree::new()
    }
}

impl DynamicTree {
    /// An empty tree. Allocates only the root node.
    ///
    /// Box2D: `b2DynamicTree_Create`.
    pub fn new() -> DynamicTree {
        DynamicTree {
            nodes: vec![Node::EMPTY],
            node_links: vec![Link::at(NULL_INDEX, 0)],
            node_free: NULL_INDEX,
            node_count: 1,
            proxies: Vec::new(),
            proxy_free: NULL_INDEX,
            proxy_count: 0,
            category_union: CategoryUnion(0),
            scratch: RebuildScratch::default(),
        }
    }

    /// Adds a proxy with box `aabb` (stored as given: add any margin first), category
    /// bits (matched against query masks) and user data.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::InvalidGeometry`] when the box is not finite or
    /// its corners are not ordered; [`Error::InvalidOperation`] when the tree already
    /// holds 2²⁹ − 2 proxies. The tree is unchanged on error.
    ///
    /// Box2D: `b2DynamicTree_CreateProxy`.
    pub fn create_proxy(
        &mut self,
        aabb: impl Into<WorldAabb>,
        category_bits: u64,
        user_data: u64,
    ) -> Result<ProxyId> {
        let aabb = aabb.into();
        check_aabb(&aabb)?;
        if self.proxy_free == NULL_INDEX && self.proxies.len() >= MAX_ITEMS {
            return Err(Error::InvalidOperation("dynamic tree is full"));
        }
        let index = self.allocate_proxy(category_bits, user_data);
        self.insert_leaf(index, aabb, true);
        Ok(ProxyId {
            index,
            generation: self.proxies[index as usize].generation,
        })
    }

    /// Removes a proxy. Its id (and any copy of it) becomes stale.
    ///
    /// # Errors
    /// [`Error::InvalidId`] when `id` is stale or from another tree.
    ///
    /// Box2D: `b2DynamicTree_DestroyProxy`.
    pub fn destroy_proxy(&mut self, id: ProxyId) -> Result<()> {
        let index = self.check_id(id)?;
        self.remove_leaf(index);
        self.free_proxy(index);
        Ok(())
    }

    /// Gives a proxy a new box, re-inserting it where the surface-area heuristic puts
    /// it (without rotations, as in Box2D).
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale id; [`Error::NonFinite`] or
    /// [`Error::InvalidGeometry`] for a bad box. The tree is unchanged on error.
    ///
    /// Box2D: `b2DynamicTree_MoveProxy`.
    pub fn move_proxy(&mut self, id: ProxyId, aabb: impl Into<WorldAabb>) -> Result<()> {
        let aabb = aabb.into();
        let index = self.check_id(id)?;
        check_aabb(&aabb)?;
        self.remove_leaf(index);
        self.insert_leaf(index, aabb, false);
        Ok(())
    }

    /// Gives a proxy a new box without restructuring the tree: the leaf takes `aabb`,
    /// its ancestors grow to contain it, and the path to the root is marked so that the
    /// next [`rebuild`](Self::rebuild) rebuilds it. Cheaper than
    /// [`move_proxy`](Self::move_proxy) when many proxies move every step; the tree's
    /// quality decays until the rebuild.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale id; [`Error::NonFinite`] or
    /// [`Error::InvalidGeometry`] for a bad box. The tree is unchanged on error.
    ///
    /// Box2D: `b2DynamicTree_EnlargeProxy`.
    pub fn enlarge_proxy(&mut self, id: ProxyId, aabb: impl Into<WorldAabb>) -> Result<()> {
        self.enlarge_proxy_inlined(id, aabb.into()).map(|_| ())
    }

    /// [`enlarge_proxy`](Self::enlarge_proxy), inlined into its caller (see
    /// `BroadPhase::enlarge_proxy_inlined`); returns the proxy's index.
    #[inline(always)]
    pub(crate) fn enlarge_proxy_inlined(&mut self, id: ProxyId, aabb: WorldAabb) -> Result<u32> {
        // SAFETY: `&mut self`: no other thread touches the tree.
        #[allow(unsafe_code)]
        unsafe {
            self.shared_enlarge().enlarge::<false>(id, aabb)
        }
    }

    /// The box of a proxy, metres.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale id.
    ///
    /// Box2D: `b2DynamicTree_GetAABB`.
    pub fn fat_aabb(&self, id: ProxyId) -> Result<WorldAabb> {
        let index = self.check_id(id)?;
        Ok(self.leaf_aabb(index))
    }

    /// The user data given at creation.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale id.
    ///
    /// Box2D: `b2DynamicTree_GetUserData`.
    pub fn user_data(&self, id: ProxyId) -> Result<u64> {
        let index = self.check_id(id)?;
        Ok(self.proxies[index as usize].user_data)
    }

    /// The category bits given at creation (or by [`set_category_bits`](Self::set_category_bits)).
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale id.
    ///
    /// Box2D: `b2DynamicTree_GetCategoryBits`.
    pub fn category_bits(&self, id: ProxyId) -> Result<u64> {
        let index = self.check_id(id)?;
        Ok(self.proxies[index as usize].category_bits)
    }

    /// Changes a proxy's category bits.
    ///
    /// # Errors
    /// [`Error::InvalidId`] for a stale id.
    ///
    /// Box2D: `b2DynamicTree_SetCategoryBits`.
    pub fn set_category_bits(&mut self, id: ProxyId, category_bits: u64) -> Result<()> {
        let index = self.check_id(id)?;
        self.proxies[index as usize].category_bits = category_bits;
        self.category_union.0 |= category_bits;
        let link = self.proxies[index as usize].link;
        let leaf = &mut self.nodes[link.parent as usize].children[link.slot as usize];
        leaf.word &= !NO_CATEGORY_FLAG;
        if category_bits == 0 {
            leaf.word |= NO_CATEGORY_FLAG;
        }
        Ok(())
    }

    /// Makes the category union exact: the bitwise or of the live proxies'
    /// category bits (after a decode, which does not carry it).
    pub(crate) fn tighten_category_union(&mut self) {
        self.category_union.0 = self
            .proxies
            .iter()
            .filter(|p| p.link.allocated)
            .fold(0, |bits, p| bits | p.category_bits);
    }

    /// Whether no live proxy can pass a query with `mask`: no proxy has a
    /// category bit in it.
    #[inline]
    pub(crate) fn excludes_mask(&self, mask: u64) -> bool {
        self.category_union.0 & mask == 0
    }

    /// Whether `id` refers to a live proxy of this tree.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.check_id(id).is_ok()
    }

    /// Number of proxies.
    ///
    /// Box2D: `b2DynamicTree_GetProxyCount`.
    #[inline]
    pub fn proxy_count(&self) -> usize {
        self.proxy_count as usize
    }

    /// Height of the tree: the number of internal nodes on the longest path from the
    /// root to a proxy (0 when empty, 1 for one or two proxies, at least ⌈log₂ n⌉).
    ///
    /// Box2D: `b2DynamicTree_GetHeight`.
    pub fn height(&self) -> u32 {
        if self.proxy_count == 0 {
            return 0;
        }
        let [a, b] = &self.nodes[ROOT as usize].children;
        1 + a.height().max(b.height())
    }

    /// The box containing every proxy (a zero box when empty), metres.
    ///
    /// Box2D: `b2DynamicTree_GetRootBounds`.
    pub fn root_bounds(&self) -> WorldAabb {
        if self.proxy_count == 0 {
            return WorldAabb::default();
        }
        let [a, b] = &self.nodes[ROOT as usize].children;
        a.aabb.union(&b.aabb)
    }

    /// Quality measure: the summed perimeters of the internal nodes below the root,
    /// divided by the root's perimeter. Lower is better; 0 when empty or degenerate.
    ///
    /// Box2D: `b2DynamicTree_GetAreaRatio`.
    pub fn area_ratio(&self) -> f32 {
        let root_area = self.root_bounds().perimeter();
        if self.proxy_count == 0 || root_area <= 0.0 {
            return 0.0;
        }
        let mut internal_area = 0.0;
        for (node, link) in self.nodes.iter().zip(&self.node_links) {
            if link.allocated {
                for child in &node.children {
                    if child.is_node() {
                        internal_area += child.aabb.perimeter();
                    }
                }
            }
        }
        coord_to_f32(internal_area / root_area)
    }

    /// Moves the coordinate origin to `new_origin`: every box is translated by
    /// `-new_origin` (metres). Used by worlds far from the origin.
    ///
    /// # Errors
    /// [`Error::NonFinite`] when `new_origin` is not finite (the tree is unchanged).
    pub fn shift_origin(&mut self, new_origin: Vec2) -> Result<()> {
        crate::error::check_finite_vec(new_origin, "new_origin")?;
        for (node, link) in self.nodes.iter_mut().zip(&self.node_links) {
            if link.allocated {
                for child in &mut node.children {
                    if !child.is_empty() {
                        child.aabb.lower -= new_origin;
                        child.aabb.upper -= new_origin;
                    }
                }
            }
        }
        Ok(())
    }

    /// Calls `callback(id, user_data)` for every proxy whose box overlaps `aabb`
    /// (touching counts) and whose category bits share a bit with `mask`. The callback
    /// returns `false` to stop the query. A box that is not finite or not ordered
    /// matches nothing.
    ///
    /// Box2D: `b2DynamicTree_Query`.
    pub fn query(
        &self,
        aabb: impl Into<WorldAabb>,
        mask: u64,
        callback: impl FnMut(ProxyId, u64) -> bool,
    ) -> TreeStats {
        self.query_inlined(aabb.into(), mask, callback)
    }

    /// [`query`](Self::query), always inlined: the broad phase's pair search
    /// compiles it into each of its SIMD builds (`simd.rs`).
    #[inline(always)]
    pub(crate) fn query_inlined(
        &self,
        aabb: WorldAabb,
        mask: u64,
        callback: impl FnMut(ProxyId, u64) -> bool,
    ) -> TreeStats {
        self.query_with_stack(aabb, mask, &mut QueryStack::new(), callback)
    }

    /// [`query_inlined`](Self::query_inlined) with a traversal stack the caller
    /// keeps for many queries (the broad phase's pair search), so that its
    /// storage is set up once rather than per query.
    #[inline(always)]
    pub(crate) fn query_with_stack(
        &self,
        aabb: WorldAabb,
        mask: u64,
        stack: &mut QueryStack,
        mut callback: impl FnMut(ProxyId, u64) -> bool,
    ) -> TreeStats {
        let mut stats = TreeStats::default();
        if self.proxy_count == 0 || !aabb.is_valid() || self.excludes_mask(mask) {
            return stats;
        }
        let mut stack = stack.0.traverse_from(ROOT);
        while let Some(node_index) = stack.pop() {
            stats.node_visits += 1;
            // Both children, first then second, written out: a loop over the
            // pair is unrolled or not depending on how the crate is split into
            // codegen units, and the broad phase's pair search (this, inlined)
            // then costs up to 4 % more of a step.
            let [first, second] = &self.nodes[node_index as usize].children;
            if !self.query_child(first, &aabb, mask, &mut stack, &mut stats, &mut callback)
                || !self.query_child(second, &aabb, mask, &mut stack, &mut stats, &mut callback)
            {
                return stats;
            }
        }
        stats
    }

    /// One child of a node in [`DynamicTree::query_inlined`]: a leaf that
    /// overlaps `aabb` and passes `mask` goes to `callback`, an overlapping
    /// node onto `stack`. `false` when the callback stops the query.
    #[inline(always)]
    fn query_child(
        &self,
        child: &Child,
        aabb: &WorldAabb,
        mask: u64,
        stack: &mut Traversal<'_, u32, INLINE_STACK>,
        stats: &mut TreeStats,
        callback: &mut impl FnMut(ProxyId, u64) -> bool,
    ) -> bool {
        if !child_overlaps(&child.aabb, aabb) {
            return true;
        }
        if child.is_leaf() {
            if child.matches(mask, &self.proxies) {
                stats.leaf_visits += 1;
                return callback(child.proxy_id(), child.user_data);
            }
        } else if child.is_node() {
            // The node is read when popped: after the other child's subtree
            // when this is the first child, so ask for it now.
            let index = child.index();
            crate::prefetch::prefetch_value(self.nodes.as_ptr().wrapping_add(index as usize));
            stack.push(index);
        }
        true
    }

    /// Casts a ray against the proxies' boxes. For every proxy whose box the ray may
    /// reach (tested with the segment's bounding box and its separating axis) and whose
    /// category bits share a bit with `mask`, calls
    /// `callback(input, id, user_data)`, where `input.max_fraction` is the current
    /// clip. The callback decides, usually after an exact ray cast on its shape:
    /// - `0` stops the cast;
    /// - a value in `(0, max_fraction]` clips the ray there (closest-hit search);
    /// - `max_fraction` (or any larger value) continues unclipped (all hits);
    /// - a negative value ignores this proxy (filtering).
    ///
    /// A ray with a non-finite origin, translation or `max_fraction`, or a negative
    /// `max_fraction`, reaches nothing.
    ///
    /// Box2D: `b2DynamicTree_RayCast`.
    pub fn ray_cast(
        &self,
        input: &RayCastInput,
        mask: u64,
        callback: impl FnMut(&RayCastInput, ProxyId, u64) -> f32,
    ) -> TreeStats {
        let stats = TreeStats::default();
        let valid = input.origin.is_finite()
            && input.translation.is_finite()
            && input.max_fraction.is_finite()
            && input.max_fraction >= 0.0;
        if self.proxy_count == 0 || !valid || self.excludes_mask(mask) {
            return stats;
        }

        let p1 = input.origin;
        let d = input.translation;
        // Normal of the ray's line, for the separating-axis test |v·(p1 − c)| > |v|·h.
        let v = Vec2::scalar_cross(1.0, d.normalize());

        let sweep = BoxSweep::new(p1, v, Vec2::ZERO);
        let segment_box = |max_fraction| to_world_aabb(segment_aabb(p1, d, max_fraction));
        self.sweep_boxes(stats, sweep, mask, *input, segment_box, callback)
    }

    /// Sweeps a convex shape along `input.translation` against the proxies' boxes. The
    /// shape's bounding box (points plus radius) is swept; every proxy whose box it may
    /// reach and whose category bits share a bit with `mask` is passed to
    /// `callback(input, id, user_data)`, whose answer works as in
    /// [`ray_cast`](Self::ray_cast): 0 stops, a fraction clips, `max_fraction` continues,
    /// a negative value ignores the proxy.
    ///
    /// A shape with no points, more than [`MAX_POLYGON_VERTICES`], non-finite numbers or
    /// a negative radius, or a bad translation or `max_fraction`, reaches nothing.
    pub fn shape_cast(
        &self,
        input: &ShapeCastInput,
        mask: u64,
        callback: impl FnMut(&ShapeCastInput, ProxyId, u64) -> f32,
    ) -> TreeStats {
        let stats = TreeStats::default();
        let count = input.proxy.count;
        let radius = input.proxy.radius;
        let valid = (1..=MAX_POLYGON_VERTICES).contains(&count)
            && input.proxy.points[..count].iter().all(|p| p.is_finite())
            && radius.is_finite()
            && radius >= 0.0
            && input.translation.is_finite()
            && input.max_fraction.is_finite()
            && input.max_fraction >= 0.0;
        if self.proxy_count == 0 || !valid || self.excludes_mask(mask) {
            return stats;
        }

        let points = &input.proxy.points[..count];
        let mut lower = points[0];
        let mut upper = points[0];
        for &p in &points[1..] {
            lower = lower.min(p);
            upper = upper.max(p);
        }
        let r = Vec2::new(radius, radius);
        let origin_box = Aabb::new(lower - r, upper + r);
        if !origin_box.is_valid() {
            return stats;
        }

        let d = input.translation;
        // Separating axis of the swept box: the node grown by the shape's half-size.
        let v = Vec2::scalar_cross(1.0, d);
        let sweep = BoxSweep::new(origin_box.center(), v, origin_box.extents());
        let total_box = |max_fraction| to_world_aabb(swept_aabb(&origin_box, d, max_fraction));
        self.sweep_boxes(stats, sweep, mask, *input, total_box, callback)
    }

    /// The traversal [`ray_cast`](Self::ray_cast) and
    /// [`shape_cast`](Self::shape_cast) share. A child is skipped when it misses
    /// the box the sweep covers up to the current clip (`bound(max_fraction)`)
    /// or lies off the sweep's line (`sweep`); near children first. Every
    /// leaf left whose category bits share a bit with `mask` goes to
    /// `callback` with `input` clipped so far, whose answer stops, clips or
    /// continues the sweep.
    #[inline(always)]
    fn sweep_boxes<I: CastInput>(
        &self,
        mut stats: TreeStats,
        sweep: BoxSweep,
        mask: u64,
        mut sub_input: I,
        bound: impl Fn(f32) -> WorldAabb,
        mut callback: impl FnMut(&I, ProxyId, u64) -> f32,
    ) -> TreeStats {
        let mut max_fraction = sub_input.max_fraction();
        let mut swept_box = bound(max_fraction);
        let mut storage = NodeStack::new(0);
        let mut stack = storage.traverse_from(ROOT);
        while let Some(node_index) = stack.pop() {
            stats.node_visits += 1;
            let node = &self.nodes[node_index as usize];
            let order = near_first_order(node, sweep.p1_pos);
            // Children are handled in reverse push order: the near one is pushed last.
            for &slot in order.iter().rev() {
                let child = &node.children[slot];
                if !child.aabb.overlaps(&swept_box) || sweep.misses(&child.aabb) {
                    continue;
                }
                if !child.is_leaf() {
                    if child.is_node() {
                        stack.push(child.index());
                    }
                    continue;
                }
                if !child.matches(mask, &self.proxies) {
                    continue;
                }
                sub_input.set_max_fraction(max_fraction);
                stats.leaf_visits += 1;
                let value = callback(&sub_input, child.proxy_id(), child.user_data);
                if value == 0.0 {
                    return stats;
                }
                if 0.0 < value && value <= max_fraction {
                    max_fraction = value;
                    swept_box = bound(max_fraction);
                }
            }
        }
        stats
    }

    /// Rebuilds the tree top-down. With `full_build` the whole tree is rebuilt with
    /// binned surface-area-heuristic splits (the best trees for queries); otherwise
    /// only the parts marked by [`enlarge_proxy`](Self::enlarge_proxy) are rebuilt,
    /// splitting at the middle of the centres' bounds, which is several times cheaper
    /// (unmarked subtrees are kept whole), and nothing happens when nothing was
    /// enlarged. The rebuild is in place: the new nodes (the top few levels, then
    /// each of their subtrees depth-first: the rebuild's tasks, which a world runs
    /// on its workers) take the indices of the nodes it drops, in ascending order,
    /// and kept subtrees stay where they are, so after a full rebuild of a tree
    /// with no free nodes every node comes after its parent, depth-first, which
    /// makes traversals cache-friendly. All enlargement marks are cleared; the
    /// node count and the free list are unchanged. Returns the number of subtrees
    /// and proxies that were placed (0 when nothing was done). Costs O(k log k)
    /// for the k placed items, plus a scan of one bit per node; allocates nothing
    /// once the buffers have grown.
    ///
    /// After a full rebuild the height is at most 2·log₂(n) + 2: deep in the tree the
    /// split falls back to the median, which halves the count.
    ///
    /// Box2D: `b2DynamicTree_Rebuild`.
    pub fn rebuild(&mut self, full_build: bool) -> usize {
        self.rebuild_inlined(full_build)
    }

    /// [`rebuild`](Self::rebuild), inlined into its caller with every part of
    /// the build (so that the broad phase's AVX2 build of the step's rebuild
    /// covers it; see `simd.rs`).
    #[inline(always)]
    pub(crate) fn rebuild_inlined(&mut self, full_build: bool) -> usize {
        if !self.begin_rebuild(full_build) {
            return 0;
        }
        let tasks = self.rebuild_tasks();
        for index in 0..tasks.len() {
            tasks.run(index);
        }
        self.finish_rebuild()
    }

    /// Checks the tree's invariants: links match the structure, every node box contains
    /// its children's boxes, heights and enlargement marks are consistent, free lists
    /// are well formed and the leaf count equals the proxy count. Returns a description
    /// of the first violation found.
    ///
    /// Box2D: `b2DynamicTree_Validate`.
    pub fn validate(&self) -> core::result::Result<(), String> {
        self.validate_pools()?;
        self.validate_structure()
    }

    // ----------------------------------------------------------------------------
    // Pools
    // ----------------------------------------------------------------------------

    #[inline(always)]
    fn check_id(&self, id: ProxyId) -> Result<u32> {
        self.checked_link(id).map(|_| id.index)
    }

    /// The link of the live proxy `id` refers to; [`Error::InvalidId`] when
    /// the id is stale or from another tree.
    #[inline(always)]
    fn checked_link(&self, id: ProxyId) -> Result<Link> {
        match self.proxies.get(id.index as usize) {
            Some(p) if p.link.allocated && p.generation == id.generation => Ok(p.link),
            _ => Err(Error::InvalidId { what: "proxy" }),
        }
    }

    fn allocate_proxy(&mut self, category_bits: u64, user_data: u64) -> u32 {
        let index = if self.proxy_free != NULL_INDEX {
            let index = self.proxy_free;
            self.proxy_free = self.proxies[index as usize].link.parent;
            index
        } else {
            self.proxies.push(Proxy {
                category_bits: 0,
                user_data: 0,
                link: Link::free(NULL_INDEX),
                generation: 0,
            });
            (self.proxies.len() - 1) as u32
        };
        self.category_union.0 |= category_bits;
        let proxy = &mut self.proxies[index as usize];
        proxy.category_bits = category_bits;
        proxy.user_data = user_data;
        proxy.link = Link::at(NULL_INDEX, 0);
        self.proxy_count += 1;
        index
    }

    fn free_proxy(&mut self, index: u32) {
        let proxy = &mut self.proxies[index as usize];
        proxy.link = Link::free(self.proxy_free);
        proxy.generation = proxy.generation.wrapping_add(1);
        proxy.category_bits = 0;
        proxy.user_data = 0;
        self.proxy_free = index;
        self.proxy_count -= 1;
    }

    fn allocate_node(&mut self) -> u32 {
        let index = if self.node_free != NULL_INDEX {
            let index = self.node_free;
            self.node_free = self.node_links[index as usize].parent;
            index
        } else {
            self.nodes.push(Node::EMPTY);
            self.node_links.push(Link::free(NULL_INDEX));
            (self.nodes.len() - 1) as u32
        };
        self.nodes[index as usize] = Node::EMPTY;
        self.node_links[index as usize] = Link::at(NULL_INDEX, 0);
        self.node_count += 1;
        index
    }

    fn free_node(&mut self, index: u32) {
        debug_assert!(index != ROOT);
        self.nodes[index as usize] = Node::EMPTY;
        self.node_links[index as usize] = Link::free(self.node_free);
        self.node_free = index;
        self.node_count -= 1;
    }

    // ----------------------------------------------------------------------------
    // Structure
    // ----------------------------------------------------------------------------

    #[inline]
    fn leaf_aabb(&self, index: u32) -> WorldAabb {
        let link = self.proxies[index as usize].link;
        self.nodes[link.parent as usize].children[link.slot as usize].aabb
    }

    /// Points the link of the child in `parent`'s `slot` back at that slot.
    #[inline]
    fn connect(&mut self, parent: u32, slot: usize) {
        let child = self.nodes[parent as usize].children[slot];
        debug_assert!(!child.is_empty());
        let link = Link::at(parent, slot);
        if child.is_leaf() {
            self.proxies[child.index() as usize].link = link;
        } else {
            self.node_links[child.index() as usize] = link;
        }
    }

    /// The child slot that describes `node` to its parent, computed from its children.
    #[inline]
    fn internal_child(&self, node: u32) -> Child {
        internal_child(&self.nodes[node as usize], node)
    }

    /// Recomputes the child slots describing `node` and its ancestors.
    fn refit_ancestors(&mut self, mut node: u32) {
        while node != ROOT {
            let link = self.node_links[node as usize];
            self.nodes[link.parent as usize].children[link.slot as usize] =
                self.internal_child(node);
            node = link.parent;
        }
    }

    fn insert_leaf(&mut self, proxy: u32, aabb: WorldAabb, rotate: bool) {
        let leaf = Child::leaf(aabb, proxy, &self.proxies[proxy as usize]);

        // A tree with fewer than two proxies has a free slot in the root.
        for slot in 0..2 {
            if self.nodes[ROOT as usize].children[slot].is_empty() {
                self.nodes[ROOT as usize].children[slot] = leaf;
                self.connect(ROOT, slot);
                return;
            }
        }

        let sibling = self.find_best_sibling(&aabb);
        let new_parent = self.allocate_node();
        match sibling {
            None => {
                // The whole tree is the sibling. The root stays at index 0, so its
                // children move down into the new node.
                self.nodes[new_parent as usize] = self.nodes[ROOT as usize];
                self.node_links[new_parent as usize] = Link::at(ROOT, 0);
                self.connect(new_parent, 0);
                self.connect(new_parent, 1);
                self.nodes[ROOT as usize].children = [self.internal_child(new_parent), leaf];
                self.connect(ROOT, 1);
            }
            Some((parent, slot)) => {
                let sibling_child = self.nodes[parent as usize].children[slot];
                self.nodes[new_parent as usize].children = [sibling_child, leaf];
                self.node_links[new_parent as usize] = Link::at(parent, slot);
                self.connect(new_parent, 0);
                self.connect(new_parent, 1);
                self.nodes[parent as usize].children[slot] = self.internal_child(new_parent);
            }
        }

        // Walk back up: optionally rotate, then refit each ancestor's slot.
        let mut node = new_parent;
        loop {
            if rotate {
                self.rotate(node);
            }
            if node == ROOT {
                break;
            }
            let link = self.node_links[node as usize];
            self.nodes[link.parent as usize].children[link.slot as usize] =
                self.internal_child(node);
            node = link.parent;
        }
    }

    /// Chooses where to insert a box: `None` for "beside the whole tree", or the child
    /// slot `(node, slot)` whose content becomes the new box's sibling.
    ///
    /// The cost of a sibling S is perimeter(S ∪ D) plus the perimeter growth of S's
    /// ancestors (the "inherited" cost). Descending, a subtree cannot do better than its
    /// inherited cost plus its own growth plus perimeter(D) (a descendant's union is at
    /// least D), which bounds the search.
    fn find_best_sibling(&self, box_d: &WorldAabb) -> Option<(u32, usize)> {
        let area_d = box_d.perimeter();
        let center_d = box_d.center();

        let [r0, r1] = &self.nodes[ROOT as usize].children;
        let root_box = r0.aabb.union(&r1.aabb);
        let mut area_base = root_box.perimeter();
        let mut direct_cost = root_box.union(box_d).perimeter();
        let mut inherited_cost: Coord = 0.0;

        let mut best: Option<(u32, usize)> = None;
        let mut best_cost = direct_cost;
        let mut current: Option<(u32, usize)> = None;
        let mut node_index = ROOT;

        loop {
            // The current subtree as the sibling.
            let cost = direct_cost + inherited_cost;
            if cost < best_cost {
                best = current;
                best_cost = cost;
            }
            // Children inherit the current subtree's growth.
            inherited_cost += direct_cost - area_base;

            let node = &self.nodes[node_index as usize];
            let mut lower_bound = [Coord::MAX; 2];
            let mut child_direct: [Coord; 2] = [0.0; 2];
            let mut child_area: [Coord; 2] = [0.0; 2];
            for (i, child) in node.children.iter().enumerate() {
                child_direct[i] = child.aabb.union(box_d).perimeter();
                if child.is_leaf() {
                    let cost = child_direct[i] + inherited_cost;
                    if cost < best_cost {
                        best = Some((node_index, i));
                        best_cost = cost;
                    }
                } else {
                    child_area[i] = child.aabb.perimeter();
                    // Either the child itself (growth only) or a descendant (growth plus
                    // at least area_d): the smaller of the two.
                    lower_bound[i] =
                        inherited_cost + child_direct[i] + (area_d - child_area[i]).min(0.0);
                }
            }

            let [leaf0, leaf1] = [node.children[0].is_leaf(), node.children[1].is_leaf()];
            if leaf0 && leaf1 {
                break;
            }
            if best_cost <= lower_bound[0] && best_cost <= lower_bound[1] {
                break;
            }

            let go = if leaf0 {
                1
            } else if leaf1 {
                0
            } else if lower_bound[0] == lower_bound[1] {
                // Both children contain D (equal bounds): descend into the nearer one.
                let d0 = node.children[0].aabb.center().distance_squared(center_d);
                let d1 = node.children[1].aabb.center().distance_squared(center_d);
                if d0 < d1 { 0 } else { 1 }
            } else if lower_bound[0] < lower_bound[1] {
                0
            } else {
                1
            };

            current = Some((node_index, go));
            node_index = node.children[go].index();
            area_base = child_area[go];
            direct_cost = child_direct[go];
        }
        best
    }

    /// Tries the four rotations at node A = (B, C) that swap a child of A with a
    /// grandchild on the other side, and applies the one that shrinks the perimeter of
    /// the node it rebuilds most (if any does).
    fn rotate(&mut self, a: u32) {
        let [b, c] = self.nodes[a as usize].children;
        if !b.is_node() && !c.is_node() {
            return;
        }
        if b.is_empty() || c.is_empty() {
            return;
        }

        // (slot of A moved down, slot of the grandchild moved up)
        let mut best: Option<(usize, usize)> = None;
        let mut best_delta: Coord = 0.0;
        for (down, lowered, other) in [(0usize, &b, &c), (1usize, &c, &b)] {
            if !other.is_node() {
                continue;
            }
            let grandchildren = &self.nodes[other.index() as usize].children;
            let area_other = other.aabb.perimeter();
            for up in 0..2 {
                // `lowered` takes the place of grandchild `up`, beside grandchild `up ^ 1`.
                let delta =
                    lowered.aabb.union(&grandchildren[up ^ 1].aabb).perimeter() - area_other;
                if delta < best_delta {
                    best = Some((down, up));
                    best_delta = delta;
                }
            }
        }

        if let Some((down, up)) = best {
            let other = self.nodes[a as usize].children[down ^ 1].index();
            let moved_down = self.nodes[a as usize].children[down];
            let moved_up = self.nodes[other as usize].children[up];
            self.nodes[a as usize].children[down] = moved_up;
            self.nodes[other as usize].children[up] = moved_down;
            self.connect(a, down);
            self.connect(other, up);
            self.nodes[a as usize].children[down ^ 1] = self.internal_child(other);
        }
    }

    fn remove_leaf(&mut self, proxy: u32) {
        let link = self.proxies[proxy as usize].link;
        let (parent, slot) = (link.parent, link.slot as usize);
        let sibling = self.nodes[parent as usize].children[slot ^ 1];

        if parent == ROOT {
            if !sibling.is_node() {
                self.nodes[ROOT as usize].children[slot] = Child::EMPTY;
                return;
            }
            // Lift the sibling node's children into the root.
            let s = sibling.index();
            self.nodes[ROOT as usize] = self.nodes[s as usize];
            self.connect(ROOT, 0);
            self.connect(ROOT, 1);
            self.free_node(s);
            return;
        }

        // The sibling takes the parent's place.
        let up = self.node_links[parent as usize];
        self.nodes[up.parent as usize].children[up.slot as usize] = sibling;
        self.connect(up.parent, up.slot as usize);
        self.free_node(parent);
        self.refit_ancestors(up.parent);
    }
}

/// The child slot that describes node `index` (with content `node`) to its parent.
#[inline]
fn internal_child(node: &Node, index: u32) -> Child {
    let [a, b] = &node.children;
    Child {
        aabb: a.aabb.union(&b.aabb),
        word: index | ((a.word | b.word) & MOVED_FLAG),
        aux: 1 + a.height().max(b.height()),
        user_data: 0,
    }
}

/// Checks that a box can go into the tree.
#[inline(always)]
fn check_aabb(aabb: &WorldAabb) -> Result<()> {
    if !aabb.lower.is_finite() || !aabb.upper.is_finite() {
        return Err(Error::NonFinite { what: "aabb" });
    }
    if !aabb.is_valid() {
        return Err(Error::InvalidGeometry(
            "aabb lower bound exceeds its upper bound",
        ));
    }
    Ok(())
}

/// What the tree sweeps: a ray or a convex shape, with the fraction of its
/// translation still to sweep.
pub(crate) trait CastInput: Copy {
    fn max_fraction(&self) -> f32;
    fn set_max_fraction(&mut self, max_fraction: f32);
    /// [`DynamicTree::ray_cast`] or [`DynamicTree::shape_cast`] on `tree`.
    fn cast_on(
        &self,
        tree: &DynamicTree,
        mask: u64,
        callback: impl FnMut(&Self, ProxyId, u64) -> f32,
    ) -> TreeStats;
}

/// Implements [`CastInput`] for an input type with a `max_fraction` field and
/// the tree method that sweeps it.
macro_rules! cast_input {
    ($input:ty, $cast:ident) => {
        impl CastInput for $input {
            #[inline(always)]
            fn max_fraction(&self) -> f32 {
                self.max_fraction
            }
            #[inline(always)]
            fn set_max_fraction(&mut self, max_fraction: f32) {
                self.max_fraction = max_fraction;
            }
            #[inline(always)]
            fn cast_on(
                &self,
                tree: &DynamicTree,
                mask: u64,
                callback: impl FnMut(&Self, ProxyId, u64) -> f32,
            ) -> TreeStats {
                tree.$cast(self, mask, callback)
            }
        }
    };
}

cast_input!(RayCastInput, ray_cast);
cast_input!(ShapeCastInput, shape_cast);

/// The separating-axis test of a sweep: a box is off the sweep when its
/// centre lies farther from the sweep's line (through `p1_pos`, normal `v`)
/// than its half-size grown by `extension` (the swept shape's half-size, zero
/// for a ray) reaches along `v`.
#[derive(Clone, Copy)]
struct BoxSweep {
    p1_pos: Pos,
    v: Vec2,
    abs_v: Vec2,
    extension: Vec2,
}

impl BoxSweep {
    #[inline(always)]
    fn new(p1: Vec2, v: Vec2, extension: Vec2) -> BoxSweep {
        BoxSweep {
            p1_pos: to_pos(p1),
            v,
            abs_v: v.abs(),
            extension,
        }
    }

    #[inline(always)]
    fn misses(&self, aabb: &WorldAabb) -> bool {
        let c = aabb.center();
        let h = aabb.extents() + self.extension;
        self.v.dot(self.p1_pos - c).abs() > self.abs_v.dot(h)
    }
}

/// The bounding box of the segment from `p1` along `fraction·d`.
#[inline]
fn segment_aabb(p1: Vec2, d: Vec2, fraction: f32) -> Aabb {
    let p2 = Vec2::mul_add(p1, fraction, d);
    Aabb::new(p1.min(p2), p1.max(p2))
}

/// The box covered by `origin` moving along `fraction·d`.
#[inline]
fn swept_aabb(origin: &Aabb, d: Vec2, fraction: f32) -> Aabb {
    let t = d * fraction;
    Aabb::new(
        origin.lower.min(origin.lower + t),
        origin.upper.max(origin.upper + t),
    )
}

/// The order in which a cast handles a node's two slots: when both are nodes, the one
/// whose centre is nearer to `p` first, so that clipping happens early.
#[inline]
fn near_first_order(node: &Node, p: Pos) -> [usize; 2] {
    let [a, b] = &node.children;
    if a.is_node()
        && b.is_node()
        && b.aabb.center().distance_squared(p) < a.aabb.center().distance_squared(p)
    {
        [1, 0]
    } else {
        [0, 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square of half-size `half` (m) centred on (`x`, `y`); the trees'
    /// tests (here and in `rebuild`) build their boxes from it.
    pub(super) fn square(x: f32, y: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, y - half), Vec2::new(x + half, y + half))
    }

    /// The category union covers every live proxy as proxies come, change and
    /// go; a query whose mask it misses finds nothing (as the leaf test would),
    /// and tightening drops the bits of destroyed proxies.
    #[test]
    fn category_union_covers_the_live_proxies() {
        let mut tree = DynamicTree::new();
        assert!(tree.excludes_mask(u64::MAX));
        let a = tree.create_proxy(square(0.0, 0.0, 0.5), 2, 0).unwrap();
        let b = tree.create_proxy(square(0.5, 0.0, 0.5), 2, 1).unwrap();
        let everything = square(0.0, 0.0, 5.0);
        let count = |tree: &DynamicTree, mask| {
            let mut n = 0;
            tree.query(everything, mask, |_, _| {
                n += 1;
                true
            });
            n
        };
        assert!(tree.excludes_mask(!2) && !tree.excludes_mask(2));
        assert_eq!((count(&tree, !2), count(&tree, 2)), (0, 2));
        tree.set_category_bits(b, 8).unwrap();
        assert!(!tree.excludes_mask(8) && !tree.excludes_mask(2));
        assert_eq!((count(&tree, 8), count(&tree, !2)), (1, 1));
        tree.validate().unwrap();
        // Destroying keeps the bit until the union is tightened.
        tree.destroy_proxy(b).unwrap();
        assert!(!tree.excludes_mask(8));
        assert_eq!(count(&tree, 8), 0);
        tree.tighten_category_union();
        assert!(tree.excludes_mask(8) && !tree.excludes_mask(2));
        tree.validate().unwrap();
        // A union too small is an invalid tree.
        tree.category_union = CategoryUnion(1);
        assert!(tree.validate().is_err());
        tree.category_union = CategoryUnion::default();
        tree.validate().unwrap();
        tree.destroy_proxy(a).unwrap();
        tree.tighten_category_union();
        assert!(tree.excludes_mask(u64::MAX));
    }

    #[test]
    fn new_box_pairs_with_its_nearest_neighbour() {
        // Two far-apart boxes, then one overlapping the first: SAH pairs it with the
        // first (union perimeter 4.8 + growth of nothing) rather than with the second
        // (union perimeter about 44) or the whole tree (about 44).
        let mut tree = DynamicTree::new();
        let a = tree.create_proxy(square(0.0, 0.0, 0.5), 1, 0).unwrap();
        let b = tree.create_proxy(square(10.0, 0.0, 0.5), 1, 1).unwrap();
        let c = tree.create_proxy(square(0.2, 0.0, 0.5), 1, 2).unwrap();
        tree.validate().unwrap();
        assert_eq!(tree.height(), 2);
        let la = tree.proxies[a.index() as usize].link;
        let lc = tree.proxies[c.index() as usize].link;
        let lb = tree.proxies[b.index() as usize].link;
        assert_eq!(la.parent, lc.parent, "a and c share a parent");
        assert_eq!(lb.parent, ROOT, "b hangs from the root");
        // The shared parent's box is the union of a and c: x in [-0.5, 0.7].
        let parent_slot = tree.node_links[la.parent as usize];
        let parent_box = tree.nodes[ROOT as usize].children[parent_slot.slot as usize].aabb;
        assert_eq!(
            parent_box,
            Aabb::new(Vec2::new(-0.5, -0.5), Vec2::new(0.7, 0.5))
        );
    }

    #[test]
    fn rotation_shrinks_the_tree() {
        // Root = (B, C) with C = (F, G). If B lies next to G and F is far, swapping B
        // with F gives C' = (B, G), much smaller than C = (F, G).
        let mut tree = DynamicTree::new();
        for _ in 0..3 {
            tree.allocate_proxy(1, 0);
        }
        let leaf = |b: Aabb, i: u32, p: &Proxy| Child::leaf(to_world_aabb(b), i, p);
        let b = leaf(square(10.0, 0.0, 0.5), 0, &tree.proxies[0]);
        let f = leaf(square(-10.0, 0.0, 0.5), 1, &tree.proxies[1]);
        let g = leaf(square(9.0, 0.0, 0.5), 2, &tree.proxies[2]);
        let c = tree.allocate_node();
        tree.nodes[c as usize].children = [f, g];
        tree.node_links[c as usize] = Link::at(ROOT, 1);
        tree.connect(c, 0);
        tree.connect(c, 1);
        tree.nodes[ROOT as usize].children = [b, tree.internal_child(c)];
        tree.connect(ROOT, 0);
        tree.validate().unwrap();
        let before = tree.area_ratio();

        tree.rotate(ROOT);
        tree.validate().unwrap();
        // Now the root holds F and the node (B, G): box x in [8.5, 10.5].
        let [r0, r1] = tree.nodes[ROOT as usize].children;
        assert_eq!(r0, f);
        assert_eq!(
            r1.aabb,
            Aabb::new(Vec2::new(8.5, -0.5), Vec2::new(10.5, 0.5))
        );
        assert!(tree.area_ratio() < before);
    }

    #[test]
    fn enlarge_marks_the_path_and_rebuild_clears_it() {
        let mut tree = DynamicTree::new();
        let ids: Vec<_> = (0..8)
            .map(|i| {
                tree.create_proxy(square(i as f32 * 3.0, 0.0, 0.5), 1, i)
                    .unwrap()
            })
            .collect();
        tree.enlarge_proxy(ids[3], square(9.0, 1.0, 1.0)).unwrap();
        tree.validate().unwrap();
        let [a, b] = tree.nodes[ROOT as usize].children;
        assert!(a.is_moved() || b.is_moved());
        assert_eq!(tree.fat_aabb(ids[3]).unwrap(), square(9.0, 1.0, 1.0));
        assert!(tree.rebuild(false) > 0);
        tree.validate().unwrap();
        for node in &tree.nodes {
            assert!(node.children.iter().all(|c| !c.is_moved()));
        }
        assert_eq!(tree.rebuild(false), 0, "nothing left to rebuild");
    }

    /// The ancestors' boxes after several enlargements are the union of their
    /// old boxes and the new leaf boxes, whatever order the proxies are
    /// enlarged in; the marks too.
    #[test]
    fn enlargements_in_any_order_give_the_same_tree() {
        let mut tree = DynamicTree::new();
        let ids: Vec<_> = (0..64)
            .map(|i| {
                let (x, y) = ((i % 8) as f32 * 2.0, (i / 8) as f32 * 2.0);
                tree.create_proxy(square(x, y, 0.5), 1, i).unwrap()
            })
            .collect();
        tree.rebuild(true);
        // Some boxes grow out of their ancestors, some stay inside them.
        let moves: Vec<(ProxyId, Aabb)> = (0..64)
            .step_by(3)
            .map(|i| {
                let (x, y) = ((i % 8) as f32 * 2.0, (i / 8) as f32 * 2.0);
                let shift = if i % 2 == 0 { 3.0 } else { 0.1 };
                (ids[i], square(x + shift, y - shift, 0.6))
            })
            .collect();
        let mut forward = tree.clone();
        for &(id, aabb) in &moves {
            forward.enlarge_proxy(id, aabb).unwrap();
        }
        let mut backward = tree.clone();
        for &(id, aabb) in moves.iter().rev() {
            backward.enlarge_proxy(id, aabb).unwrap();
        }
        forward.validate().unwrap();
        assert_eq!(forward.nodes, backward.nodes);
        // Every ancestor of a moved proxy contains its box and is marked.
        for &(id, aabb) in &moves {
            let mut node = forward.proxies[id.index() as usize].link.parent;
            while node != ROOT {
                let up = forward.node_links[node as usize];
                let child = forward.nodes[up.parent as usize].children[up.slot as usize];
                assert!(child.aabb.contains(&WorldAabb::from(aabb)) && child.is_moved());
                node = up.parent;
            }
        }
    }

    /// One query stack kept for many queries, one of them stopped early by
    /// its callback, finds what fresh stacks find.
    #[test]
    fn a_kept_query_stack_serves_query_after_query() {
        let mut tree = DynamicTree::new();
        for i in 0..100 {
            let (x, y) = ((i % 10) as f32, (i / 10) as f32);
            tree.create_proxy(square(x, y, 0.6), 1, i).unwrap();
        }
        let boxes = [
            square(2.0, 2.0, 1.5),
            square(7.0, 5.0, 0.5),
            square(4.5, 8.0, 3.0),
        ];
        let mut stack = QueryStack::new();
        let mut found = 0;
        // Stopped after the first hit, leaving entries on the stack.
        tree.query_with_stack(WorldAabb::from(boxes[2]), u64::MAX, &mut stack, |_, _| {
            found += 1;
            false
        });
        assert_eq!(found, 1);
        for aabb in boxes {
            let (mut kept, mut fresh) = (Vec::new(), Vec::new());
            tree.query_with_stack(WorldAabb::from(aabb), u64::MAX, &mut stack, |id, data| {
                kept.push((id, data));
                true
            });
            tree.query(aabb, u64::MAX, |id, data| {
                fresh.push((id, data));
                true
            });
            assert!(!fresh.is_empty());
            assert_eq!(kept, fresh);
        }
    }

    #[test]
    fn traversal_stack_spills_and_keeps_order() {
        let mut stack = NodeStack::new(0);
        for i in 0..300 {
            stack.push(i);
        }
        for i in (0..300).rev() {
            assert_eq!(stack.pop(), Some(i));
        }
        assert_eq!(stack.pop(), None);
    }

    /// A traversal on a stack's storage spills past the inline entries,
    /// pops in reverse push order, and leaves the stack empty when dropped,
    /// also when dropped with entries on it (a query stopped early).
    #[test]
    fn traversal_spills_keeps_order_and_leaves_the_stack_empty() {
        let mut storage = NodeStack::new(0);
        for stop_early in [false, true] {
            let mut stack = storage.traverse_from(1000);
            for i in 0..300 {
                stack.push(i);
            }
            let popped: Vec<u32> = std::iter::from_fn(|| stack.pop())
                .take(if stop_early { 250 } else { usize::MAX })
                .collect();
            let mut expected: Vec<u32> = (0..300).rev().collect();
            expected.push(1000);
            expected.truncate(popped.len());
            assert_eq!(popped, expected);
            drop(stack);
            assert_eq!(storage.len(), 0);
            assert_eq!(storage.pop(), None);
        }
    }
}
