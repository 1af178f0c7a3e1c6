//! The set of shape pairs that have a contact, laid out for the pair search.
//!
//! The broad phase asks, for every proxy a moved shape's query overlaps,
//! whether the two shapes already have a contact; in a pile most of them do.
//! A hash set answers each question from a scattered slot, usually not in the
//! cache. Here each shape has a row of 64 bytes (a cache line) holding the shapes it has a
//! contact with (up to [`ROW_PAIRS`], each pair written in both shapes' rows),
//! so all the questions of one query read the querying shape's row, which
//! stays in the cache. Pairs that do not fit (a shape with many contacts, as a
//! ground box under a pile) go to a hash set, which a row's count of such
//! pairs says when to ask.
//!
//! Only membership is ever asked: no result depends on an order in here.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use crate::contact::pair_key;
use crate::world::PairHasher;

/// Partner shapes a row holds.
pub(crate) const ROW_PAIRS: usize = 15;
/// An empty partner slot (no shape has this index).
const EMPTY: u32 = u32::MAX;
/// Bits of [`Row::head`] holding the number of partners in the row.
const LEN_BITS: u32 = 4;
const LEN_MASK: u32 = (1 << LEN_BITS) - 1;

/// One shape's partners: the first `len` slots, the rest [`EMPTY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Row {
    /// `len | overflow << LEN_BITS`: the partners held here, and the pairs of
    /// this shape kept in the overflow set.
    head: u32,
    partners: [u32; ROW_PAIRS],
}

impl Row {
    const EMPTY: Row = Row {
        head: 0,
        partners: [EMPTY; ROW_PAIRS],
    };

    #[inline(always)]
    fn len(&self) -> usize {
        (self.head & LEN_MASK) as usize
    }

    #[inline(always)]
    fn overflow(&self) -> u32 {
        self.head >> LEN_BITS
    }

    /// Whether `shape` is a partner here: every slot compared, the empty
    /// ones never equal (no branch on the length).
    #[inline(always)]
    fn holds(&self, shape: u32) -> bool {
        self.partners
            .iter()
            .fold(false, |found, &p| found | (p == shape))
    }

    fn push(&mut self, shape: u32) {
        let len = self.len();
        debug_assert!(len < ROW_PAIRS);
        self.partners[len] = shape;
        self.head += 1;
    }

    /// Takes `shape` out (the last partner takes its slot); whether it was here.
    fn take(&mut self, shape: u32) -> bool {
        let len = self.len();
        let Some(i) = self.partners[..len].iter().position(|&p| p == shape) else {
            return false;
        };
        self.partners[i] = self.partners[len - 1];
        self.partners[len - 1] = EMPTY;
        self.head -= 1;
        true
    }
}

/// The set of unordered shape pairs that have a contact (keys as
/// [`pair_key`]). See the [module documentation](self).
#[derive(Debug, Default)]
pub(crate) struct PairSet {
    /// Row of each shape index (as far as the largest one seen).
    rows: Vec<Row>,
    /// The pairs of a shape whose row, or whose partner's, was full.
    overflow: HashSet<u64, BuildHasherDefault<PairHasher>>,
    /// Pairs in the set.
    len: usize,
}

/// The two shapes of a pair key.
#[inline(always)]
fn shapes_of(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, key as u32)
}

impl PairSet {
    /// Number of pairs.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether the pair `key` is in the set.
    #[inline]
    pub(crate) fn contains(&self, key: &u64) -> bool {
        let (a, b) = shapes_of(*key);
        self.contains_pair(a, b)
    }

    /// Whether shapes `shape` and `other` have a pair in the set, read from
    /// `shape`'s row (the pair search passes the querying shape, whose row
    /// all its questions share).
    #[inline(always)]
    pub(crate) fn contains_pair(&self, shape: u32, other: u32) -> bool {
        let Some(row) = self.rows.get(shape as usize) else {
            return false;
        };
        row.holds(other) || (row.overflow() > 0 && self.overflow.contains(&pair_key(shape, other)))
    }

    /// Adds the pair `key`; whether it was new.
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        let (a, b) = shapes_of(key);
        if self.contains_pair(a, b) {
            return false;
        }
        let need = a.max(b) as usize + 1;
        if self.rows.len() < need {
            self.rows.resize(need, Row::EMPTY);
        }
        let (ia, ib) = (a as usize, b as usize);
        if self.rows[ia].len() < ROW_PAIRS && self.rows[ib].len() < ROW_PAIRS {
            self.rows[ia].push(b);
            self.rows[ib].push(a);
        } else {
            self.overflow.insert(key);
            self.rows[ia].head += 1 << LEN_BITS;
            self.rows[ib].head += 1 << LEN_BITS;
        }
        self.len += 1;
        true
    }

    /// Asks the cache for the rows of shapes `a` and `b` (a hint for a
    /// coming [`PairSet::remove`] or [`PairSet::insert`]; no effect otherwise).
    #[inline(always)]
    pub(crate) fn prefetch_rows(&self, a: u32, b: u32) {
        for shape in [a, b] {
            if let Some(row) = self.rows.get(shape as usize) {
                crate::prefetch::prefetch_value(row);
            }
        }
    }

    /// Removes the pair `key`; whether it was there.
    pub(crate) fn remove(&mut self, key: &u64) -> bool {
        let (a, b) = shapes_of(*key);
        let (ia, ib) = (a as usize, b as usize);
        if ia >= self.rows.len() || ib >= self.rows.len() {
            return false;
        }
        if self.rows[ia].take(b) {
            let taken = self.rows[ib].take(a);
            debug_assert!(taken, "a pair in one row only");
        } else if self.overflow.remove(key) {
            self.rows[ia].head -= 1 << LEN_BITS;
            self.rows[ib].head -= 1 << LEN_BITS;
        } else {
            return false;
        }
        self.len -= 1;
        true
    }

    /// Bytes of the rows and of the overflow's keys (not counting the hash
    /// table's spare room).
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&self.rows[..]) + self.overflow.len() * std::mem::size_of::<u64>()
    }

    /// The pairs, in no particular order (for checks and comparisons only).
    pub(crate) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        let in_rows = self.rows.iter().enumerate().flat_map(|(a, row)| {
            let a = a as u32;
            row.partners[..row.len()]
                .iter()
                .filter(move |&&b| a < b)
                .map(move |&b| pair_key(a, b))
        });
        in_rows.chain(self.overflow.iter().copied())
    }
}

impl Clone for PairSet {
    fn clone(&self) -> PairSet {
        PairSet {
            rows: self.rows.clone(),
            overflow: self.overflow.clone(),
            len: self.len,
        }
    }

    /// Reuses the buffers (a rollback refills the set every time).
    fn clone_from(&mut self, src: &PairSet) {
        self.rows.clone_from(&src.rows);
        self.overflow.clone_from(&src.overflow);
        self.len = src.len;
    }
}

impl PartialEq for PairSet {
    /// The same pairs, wherever each is kept.
    fn eq(&self, other: &PairSet) -> bool {
        self.len == other.len && self.keys().all(|k| other.contains(&k))
    }
}

impl FromIterator<u64> for PairSet {
    fn from_iter<I: IntoIterator<Item = u64>>(keys: I) -> PairSet {
        let mut set = PairSet::default();
        for key in keys {
            set.insert(key);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A small deterministic generator (xorshift).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Against a plain ordered set: random inserts and removes over few
    /// shapes (so that rows fill up and pairs overflow, then come back) give
    /// the same answers and the same members; both rows of a pair agree.
    #[test]
    fn pair_set_answers_as_a_plain_set() {
        let mut state = 0x9E37_79B9_7F4A_7C15;
        let mut set = PairSet::default();
        let mut reference = BTreeSet::new();
        let mut overflowed = 0;
        for round in 0..20_000 {
            let shapes = if round < 10_000 { 12 } else { 40 };
            let a = (next(&mut state) % shapes) as u32;
            let b = (next(&mut state) % shapes) as u32;
            if a == b {
                continue;
            }
            let key = pair_key(a, b);
            if next(&mut state).is_multiple_of(3) {
                assert_eq!(set.remove(&key), reference.remove(&key), "remove {a} {b}");
            } else {
                assert_eq!(set.insert(key), reference.insert(key), "insert {a} {b}");
            }
            overflowed = overflowed.max(set.overflow.len());
            assert_eq!(set.len(), reference.len());
            for c in 0..shapes as u32 {
                let k = pair_key(a, c);
                assert_eq!(set.contains(&k), reference.contains(&k));
                assert_eq!(set.contains_pair(a, c), set.contains_pair(c, a));
            }
        }
        assert!(overflowed > 10, "the rows never filled: {overflowed}");
        let keys: BTreeSet<u64> = set.keys().collect();
        assert_eq!(keys, reference);
        let copy: PairSet = reference.iter().copied().collect();
        assert_eq!(copy, set);
        for (i, row) in set.rows.iter().enumerate() {
            let len = row.len();
            assert!(row.partners[len..].iter().all(|&p| p == EMPTY), "row {i}");
            let overflow = set.overflow.iter().filter(|&&k| {
                let (a, b) = shapes_of(k);
                a as usize == i || b as usize == i
            });
            assert_eq!(overflow.count(), row.overflow() as usize, "row {i}");
        }
        // Shapes never seen: not in the set, and removing them is refused.
        assert!(!set.contains(&pair_key(1000, 3)));
        assert!(!set.remove(&pair_key(3, 1000)));
    }
}
