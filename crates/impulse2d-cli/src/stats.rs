//! Timing statistics and the state hash.

/// The `q`-quantile (0 ≤ q ≤ 1) of `samples` by the nearest-rank method: the
/// smallest sample with at least `q` of the samples at or below it. `None` when
/// there are no samples.
pub fn quantile(samples: &[f64], q: f64) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = (q.clamp(0.0, 1.0) * s.len() as f64).ceil() as usize;
    Some(s[rank.clamp(1, s.len()) - 1])
}

/// The median (nearest rank) of `samples`.
pub fn median(samples: &[f64]) -> Option<f64> {
    quantile(samples, 0.5)
}

/// A 64-bit FNV-1a hash over a stream of 32-bit words. Used for the final state
/// hash: the bits of every body's position and rotation, in body order.
#[derive(Clone, Copy, Debug)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl StateHasher {
    /// Mixes in bytes.
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Mixes in one word, byte by byte (little-endian).
    pub fn write_u32(&mut self, word: u32) {
        self.write_bytes(&word.to_le_bytes());
    }

    /// Mixes in the bits of a float.
    pub fn write_f32(&mut self, v: f32) {
        self.write_u32(v.to_bits());
    }

    /// Mixes in a transform: position x, y, then rotation cosine, sine.
    pub fn write_transform(&mut self, xf: impulse2d::Transform) {
        self.write_f32(xf.p.x);
        self.write_f32(xf.p.y);
        self.write_f32(xf.q.c);
        self.write_f32(xf.q.s);
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let s = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(median(&s), Some(3.0));
        assert_eq!(quantile(&s, 0.95), Some(5.0));
        assert_eq!(quantile(&s, 0.0), Some(1.0));
        // 20 samples 1..=20: the 95th percentile is the 19th.
        let t: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(quantile(&t, 0.95), Some(19.0));
        assert_eq!(median(&t), Some(10.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // Test vectors from the FNV reference (Fowler, Noll, Vo).
        assert_eq!(StateHasher::default().finish(), 0xcbf29ce484222325);
        let mut h = StateHasher::default();
        h.write_bytes(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        let mut h = StateHasher::default();
        h.write_bytes(b"foobar");
        assert_eq!(h.finish(), 0x85944171f73967e8);
        // Words are little-endian bytes; order matters.
        let mut a = StateHasher::default();
        a.write_u32(u32::from_le_bytes(*b"foob"));
        a.write_bytes(b"ar");
        assert_eq!(a.finish(), 0x85944171f73967e8);
        let mut a = StateHasher::default();
        a.write_f32(1.0);
        a.write_f32(2.0);
        let mut b = StateHasher::default();
        b.write_f32(2.0);
        b.write_f32(1.0);
        assert_ne!(a.finish(), b.finish());
    }
}
