//! The environment's random numbers: NumPy's `PCG64` bit generator seeded
//! through NumPy's `SeedSequence`, which is what Gymnasium's `np_random`
//! (`gymnasium.utils.seeding.np_random(seed)`) builds.
//!
//! Written from the published algorithms (M. O'Neill's PCG family, the
//! 128-bit LCG with the XSL-RR output function, and NumPy's `SeedSequence`
//! hash-mixing of the seed's 32-bit words), so a seed draws the same
//! doubles as Gymnasium's `np_random.uniform`: the same seed gives the same
//! checkpoints and so the same track as Gymnasium's CarRacing (up to the last
//! bits of `sin`/`cos`/`atan2`, which are `libm`'s here and the C library's
//! there). Everything is integer arithmetic, so the stream is the same on
//! every platform.
//!
//! # References
//! - M. E. O'Neill (2014), "PCG: A Family of Simple Fast Space-Efficient
//!   Statistically Good Algorithms for Random Number Generation".
//! - NumPy, `numpy/random/bit_generator.pyx` (`SeedSequence`) and
//!   `numpy/random/src/pcg64/pcg64.h`.

/// PCG's 128-bit LCG multiplier.
const PCG_MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

// SeedSequence's hash constants.
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;
/// SeedSequence's pool size, 32-bit words.
const POOL_SIZE: usize = 4;

/// A seeded stream of random numbers (NumPy's `Generator(PCG64(SeedSequence(seed)))`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    increment: u128,
    /// The high half of the last 64-bit draw, kept for the next 32-bit one
    /// (NumPy's `has_uint32`/`uinteger`).
    buffered_u32: Option<u32>,
}

fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut value = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    value = value.wrapping_mul(*hash_const);
    value ^ (value >> XSHIFT)
}

fn mix(x: u32, y: u32) -> u32 {
    let result = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    result ^ (result >> XSHIFT)
}

/// SeedSequence's entropy pool for a non-negative integer seed.
fn seed_pool(seed: u64) -> [u32; POOL_SIZE] {
    // The seed as little-endian 32-bit words; zero is one word.
    let both = [seed as u32, (seed >> 32) as u32];
    let entropy = if seed >> 32 == 0 {
        &both[..1]
    } else {
        &both[..]
    };

    let mut pool = [0u32; POOL_SIZE];
    let mut hash_const = INIT_A;
    for (i, slot) in pool.iter_mut().enumerate() {
        *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hash_const);
    }
    for src in 0..POOL_SIZE {
        for dst in 0..POOL_SIZE {
            if src != dst {
                let hashed = hashmix(pool[src], &mut hash_const);
                pool[dst] = mix(pool[dst], hashed);
            }
        }
    }
    // Entropy words beyond the pool (none: a u64 has at most two words).
    pool
}

/// SeedSequence's `generate_state(4, uint64)`.
fn generate_state(pool: &[u32; POOL_SIZE]) -> [u64; 4] {
    let mut words = [0u32; 8];
    let mut hash_const = INIT_B;
    for (i, word) in words.iter_mut().enumerate() {
        let mut value = pool[i % POOL_SIZE] ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_B);
        value = value.wrapping_mul(hash_const);
        *word = value ^ (value >> XSHIFT);
    }
    let mut out = [0u64; 4];
    for (k, o) in out.iter_mut().enumerate() {
        *o = u64::from(words[2 * k]) | (u64::from(words[2 * k + 1]) << 32);
    }
    out
}

impl Pcg64 {
    /// The stream NumPy's `np.random.default_rng(seed)` and Gymnasium's
    /// `np_random(seed)` give for this seed.
    pub fn from_seed(seed: u64) -> Pcg64 {
        let s = generate_state(&seed_pool(seed));
        let init_state = (u128::from(s[0]) << 64) | u128::from(s[1]);
        let init_seq = (u128::from(s[2]) << 64) | u128::from(s[3]);
        let mut rng = Pcg64 {
            state: 0,
            increment: (init_seq << 1) | 1,
            buffered_u32: None,
        };
        rng.advance();
        rng.state = rng.state.wrapping_add(init_state);
        rng.advance();
        rng
    }

    fn advance(&mut self) {
        self.state = self
            .state
            .wrapping_mul(PCG_MULTIPLIER)
            .wrapping_add(self.increment);
    }

    /// The next 64 random bits (PCG64's XSL-RR output of the advanced state).
    pub fn next_u64(&mut self) -> u64 {
        self.advance();
        let rotation = (self.state >> 122) as u32;
        let xored = ((self.state >> 64) as u64) ^ (self.state as u64);
        xored.rotate_right(rotation)
    }

    /// A double uniform in `[0, 1)` with 53 random bits (NumPy's `random()`).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A double uniform in `[low, high)`, computed as NumPy's
    /// `uniform(low, high)`: `low + (high − low)·random()`.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next_f64()
    }

    /// The next 32 random bits: the low half of a 64-bit draw, then its
    /// high half (NumPy's `next_uint32` for PCG64).
    pub fn next_u32(&mut self) -> u32 {
        if let Some(high) = self.buffered_u32.take() {
            return high;
        }
        let draw = self.next_u64();
        self.buffered_u32 = Some((draw >> 32) as u32);
        draw as u32
    }

    /// An integer uniform in `0..n` for `1 ≤ n ≤ 2³²`, as NumPy's
    /// `integers(n)`: Lemire's multiply-and-reject on 32-bit draws.
    pub fn integers(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        let range = n - 1;
        if range == 0 {
            return 0;
        }
        let excl = u64::from(n);
        let mut m = u64::from(self.next_u32()) * excl;
        let mut leftover = m as u32;
        if u64::from(leftover) < excl {
            let threshold = (u32::MAX - range) % n;
            while leftover < threshold {
                m = u64::from(self.next_u32()) * excl;
                leftover = m as u32;
            }
        }
        (m >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_lie_in_the_unit_interval_and_streams_repeat() {
        let unit = |r: &mut Pcg64| {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            x
        };
        crate::rng::check_seeded_streams(Pcg64::from_seed, unit, |_, _| {});
    }

    /// NumPy's own test vectors for `PCG64(seed)` (which seeds through
    /// `SeedSequence`): `numpy/random/tests/data/pcg64-testset-1.csv` (seed
    /// 0xdeadbeaf) and `-2.csv` (seed 0), first, second and last of 1000.
    #[test]
    fn matches_numpys_published_pcg64_vectors() {
        for (seed, first, second, last) in [
            (
                0xdead_beaf,
                0x60d2_4054_e17a_0698,
                0xd5e7_9d89_856e_4f12,
                0xa5cb_380b_8de1_0d10,
            ),
            (
                0,
                0xa30f_ebcf_d9c2_825f,
                0x4510_bdf8_82d9_d721,
                0x6148_3290_42f7_43b0,
            ),
        ] {
            let mut rng = Pcg64::from_seed(seed);
            assert_eq!(rng.next_u64(), first);
            assert_eq!(rng.next_u64(), second);
            for _ in 2..999 {
                rng.next_u64();
            }
            assert_eq!(rng.next_u64(), last);
        }
    }

    #[test]
    fn integers_stay_in_range_and_hit_every_value() {
        let mut rng = Pcg64::from_seed(1);
        let mut seen = [0u32; 3];
        for _ in 0..3000 {
            seen[rng.integers(3) as usize] += 1;
        }
        // Each value about 1000 times: 5 standard deviations is ±130.
        assert!(seen.iter().all(|&k| (870..=1130).contains(&k)), "{seen:?}");
    }
}
