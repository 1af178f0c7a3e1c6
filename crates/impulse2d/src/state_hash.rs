//! [`World::state_hash`]: one number that changes when any body's motion does.
//!
//! The hash is our own 64-bit FNV-1a over little-endian bytes, so its value
//! depends only on the world's bits: the same on every run, thread count and
//! platform (no `std::hash::Hasher`, whose algorithm may change between Rust
//! releases).

use crate::body::{Body, BodyState};
use crate::id::NULL_INDEX;
use crate::solver::solver_set::{AWAKE_SET, SolverSet};
use crate::world::World;

/// 64-bit FNV-1a (Fowler, Noll, Vo) over a byte stream.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Mixes in bytes, one at a time.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Mixes in a word as its four little-endian bytes.
    pub(crate) fn write_u32(&mut self, word: u32) {
        self.write(&word.to_le_bytes());
    }

    /// Mixes in the bits of a float (little-endian).
    pub(crate) fn write_f32(&mut self, v: f32) {
        self.write_u32(v.to_bits());
    }

    /// The hash so far.
    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// The hash of every live body's motion, in id order (see [`World::state_hash`]).
pub(crate) fn hash_bodies(bodies: &[Body], solver_sets: &[SolverSet]) -> u64 {
    let mut h = Fnv1a::default();
    for body in bodies.iter().filter(|b| b.id != NULL_INDEX) {
        let set = &solver_sets[body.set_index as usize];
        let sim = &set.body_sims[body.local_index as usize];
        let state = if body.set_index == AWAKE_SET {
            set.body_states[body.local_index as usize]
        } else {
            BodyState::IDENTITY
        };
        h.write_u32(body.id);
        let xf = sim.transform;
        // large-world: the f64 position's bits first
        #[cfg(feature = "large-world")]
        for v in [xf.p.x, xf.p.y] {
            h.write(&v.to_bits().to_le_bytes());
        }
        #[cfg(not(feature = "large-world"))]
        for v in [xf.p.x, xf.p.y] {
            h.write_f32(v);
        }
        for v in [
            xf.q.c,
            xf.q.s,
            state.linear_velocity.x,
            state.linear_velocity.y,
            state.angular_velocity,
        ] {
            h.write_f32(v);
        }
    }
    h.finish()
}

impl World {
    /// A 64-bit hash of the world's motion: for every live body in id order,
    /// its index, then the bits of its transform (position x, y in metres,
    /// rotation cosine, sine), linear velocity (x, y in m/s) and angular
    /// velocity (rad/s; velocities are zero for static, sleeping and disabled
    /// bodies), each as little-endian bytes, through 64-bit FNV-1a.
    ///
    /// The value depends only on those bits, so it is the same on every run,
    /// worker count and platform for the same simulation: compare it to find
    /// where two runs diverge (replays, rollback, lockstep networking).
    ///
    /// Box2D: `b2World_GetStateHash`.
    pub fn state_hash(&self) -> u64 {
        hash_bodies(&self.bodies, &self.solver_sets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // Test vectors from the FNV reference (Fowler, Noll, Vo).
        let hash = |s: &[u8]| {
            let mut h = Fnv1a::default();
            h.write(s);
            h.finish()
        };
        assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
