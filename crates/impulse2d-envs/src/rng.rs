//! The environments' seeded random numbers.
//!
//! xoshiro256** (Blackman and Vigna, 2018) seeded through SplitMix64, so
//! every `u64` seed, 0 included, gives a well-mixed state. Uniform floats
//! take the top 53 bits of a draw. The stream depends only on the seed: it is
//! the same on every machine, compiler and thread count. It is not numpy's
//! stream, so an episode's terrain and pushes differ from Gymnasium's for the
//! same seed.
//!
//! # References
//! - D. Blackman, S. Vigna, "Scrambled linear pseudorandom number generators",
//!   ACM TOMS 47(4), 2021 (xoshiro256**, SplitMix64 seeding).

/// A seeded pseudo-random number generator (xoshiro256**).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose stream is decided by `seed` alone.
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            // SplitMix64.
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A float uniform in `[0, 1)`, a multiple of 2⁻⁵³.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A float uniform in `[low, high)` (numpy's `uniform(low, high)`).
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next_f64()
    }

    /// An integer uniform in `[low, high)` (numpy's `integers(low, high)`);
    /// `low` when the range is empty.
    pub fn integers(&mut self, low: i64, high: i64) -> i64 {
        if high <= low {
            return low;
        }
        let span = (high as i128 - low as i128) as u128;
        // Lemire's multiply-shift with rejection: exactly uniform.
        let span64 = span as u64;
        loop {
            let m = self.next_u64() as u128 * span64 as u128;
            let lo = m as u64;
            if lo >= span64.wrapping_neg() % span64 {
                return (low as i128 + (m >> 64) as i128) as i64;
            }
        }
    }
}

/// Test helper for a seeded generator: 1000 rounds of `draw` (which checks
/// the value's range) from generators seeded 7, 7 and 8 by `seeded`, then
/// `also` on the first two. The generators seeded alike give the same bits;
/// the third differs at least once.
#[cfg(test)]
pub(crate) fn check_seeded_streams<R>(
    seeded: impl Fn(u64) -> R,
    mut draw: impl FnMut(&mut R) -> f64,
    mut also: impl FnMut(&mut R, &mut R),
) {
    let (mut a, mut b, mut c) = (seeded(7), seeded(7), seeded(8));
    let mut differs = false;
    for _ in 0..1000 {
        let x = draw(&mut a);
        assert_eq!(x.to_bits(), draw(&mut b).to_bits());
        differs |= x != draw(&mut c);
        also(&mut a, &mut b);
    }
    assert!(differs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_ranges_hold() {
        let uniform = |r: &mut Rng| {
            let x = r.uniform(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&x));
            x
        };
        let integers = |a: &mut Rng, b: &mut Rng| {
            let k = a.integers(-3, 4);
            assert_eq!(k, b.integers(-3, 4));
            assert!((-3..4).contains(&k));
        };
        check_seeded_streams(Rng::new, uniform, integers);
    }

    #[test]
    fn integers_cover_the_range_evenly() {
        let mut r = Rng::new(1);
        let mut counts = [0u32; 5];
        for _ in 0..50_000 {
            counts[r.integers(10, 15) as usize - 10] += 1;
        }
        // Each of 5 outcomes expects 10 000; 5 standard deviations is ~450.
        for c in counts {
            assert!((9_550..10_450).contains(&c), "{counts:?}");
        }
    }
}
