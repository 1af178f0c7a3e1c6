//! A growable set of small integers stored as bits, iterated in increasing
//! order. The step uses bit sets wherever a deterministic order is needed for
//! things found in any order (contacts that changed state, bodies whose
//! bounding boxes grew, islands that stay awake).

/// A set of `u32` indices backed by 64-bit words.
#[derive(Clone, Debug, Default)]
pub(crate) struct BitSet {
    pub(crate) words: Vec<u64>,
}

impl BitSet {
    /// Makes the set able to hold indices below `bit_count` and clears it.
    /// Allocates only when the set must grow.
    pub(crate) fn set_bit_count_and_clear(&mut self, bit_count: u32) {
        let word_count = (bit_count as usize).div_ceil(64);
        self.words.clear();
        self.words.resize(word_count, 0);
    }

    /// Adds every index of `other`, which must be no larger than this set.
    pub(crate) fn union_with(&mut self, other: &BitSet) {
        debug_assert!(other.words.len() <= self.words.len());
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    /// Adds `index`; the set must already be large enough.
    #[inline]
    pub(crate) fn set(&mut self, index: u32) {
        let w = (index / 64) as usize;
        debug_assert!(w < self.words.len());
        self.words[w] |= 1u64 << (index % 64);
    }

    /// Adds `index`, growing the set if needed.
    #[inline]
    pub(crate) fn set_grow(&mut self, index: u32) {
        let w = (index / 64) as usize;
        if w >= self.words.len() {
            let new_len = (w + 1).max(2 * self.words.len());
            self.words.resize(new_len, 0);
        }
        self.words[w] |= 1u64 << (index % 64);
    }

    /// Removes `index` (no effect when it is beyond the set's size).
    #[inline]
    pub(crate) fn clear(&mut self, index: u32) {
        let w = (index / 64) as usize;
        if w < self.words.len() {
            self.words[w] &= !(1u64 << (index % 64));
        }
    }

    /// Whether `index` is in the set (false when beyond the set's size).
    #[inline]
    pub(crate) fn get(&self, index: u32) -> bool {
        let w = (index / 64) as usize;
        w < self.words.len() && (self.words[w] >> (index % 64)) & 1 != 0
    }

    /// The number of 64-bit words.
    #[inline]
    pub(crate) fn word_count(&self) -> usize {
        self.words.len()
    }

    /// The word at `i` (for iterating set bits while mutating other state).
    #[inline]
    pub(crate) fn word(&self, i: usize) -> u64 {
        self.words[i]
    }

    /// The set bits in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let tz = bits.trailing_zeros();
                bits &= bits - 1;
                Some(64 * k as u32 + tz)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_clear_iterate_in_order() {
        let mut b = BitSet::default();
        b.set_bit_count_and_clear(130);
        assert_eq!(b.word_count(), 3);
        for i in [129, 3, 64, 0, 63] {
            b.set(i);
        }
        assert!(b.get(64) && !b.get(65) && !b.get(1000));
        b.clear(3);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        b.set_grow(1000);
        assert!(b.get(1000));
        b.set_bit_count_and_clear(10);
        assert!(b.iter().next().is_none());
    }
}
