//! Snapshots: the whole state of a world as bytes, and exact restore.
//!
//! A [`Snapshot`] holds everything that decides a world's future — bodies,
//! shapes, chains, joints of every type, contacts with their manifolds and
//! warm-start impulses, islands and sleep timers, solver sets, the constraint
//! graph's colours and body bit sets, the broad phase's trees and move
//! buffer, the id pools with their generations, the settings and the event
//! buffers — encoded field by field in a versioned little-endian format
//! (`docs/snapshot-format.md`). Restoring it gives a world whose next steps
//! produce the same bits, events and ids as the original's would have, on any
//! worker count.
//!
//! What is not data stays with the world: custom filter, pre-solve,
//! friction and restitution callbacks, the worker threads, and the step
//! profile. [`World::restore`] keeps the restoring world's callbacks and
//! worker count; [`World::from_snapshot`] starts with none and the default
//! mixing rules, like [`World::new`].
//!
//! Reading is validating: a buffer that is truncated, corrupted, of another
//! format version or inconsistent is an [`Error::InvalidData`](crate::Error::InvalidData) and changes
//! nothing (the bytes are decoded into new stores, checked, and only then
//! swapped in).

mod check;
mod pack;
mod raw;
pub(crate) mod recording;
mod rollback;
mod stores;
pub(crate) mod wire;

use crate::error::Result;
use crate::id::next_world_number;
use crate::profile::Profile;
use crate::state_hash::Fnv1a;
use crate::world::{PairSet, World, check_worker_count};
pub use recording::{Divergence, RECORDING_VERSION, Recording, Replay, ReplayStep};
pub use rollback::RollbackState;
use wire::{Reader, Wire, Writer, bad};

/// The first bytes of every snapshot.
const MAGIC: [u8; 8] = *b"IMP2DSNP";
/// The format version this build writes and reads.
pub const SNAPSHOT_VERSION: u32 = 2;
/// Set in the version word of snapshots and recordings written by the
/// `large-world` build, whose positions are `f64` (the default build's are
/// `f32`, so neither reads the other's files).
const LARGE_WORLD_BIT: u32 = 1 << 31;
/// This build's position-format bit in the version word.
const BUILD_BITS: u32 = if cfg!(feature = "large-world") {
    LARGE_WORLD_BIT
} else {
    0
};

/// The version word this build writes: `version` plus the position-format bit.
pub(crate) fn version_word(version: u32) -> [u8; 4] {
    (version | BUILD_BITS).to_le_bytes()
}

/// Checks a version word read from a snapshot or recording: first that it
/// was written by a build with this build's positions (`f32`, or `f64` with
/// `large-world`), then that its version is `version` (else `other_version`).
pub(crate) fn check_version_word(
    word: [u8; 4],
    version: u32,
    other_version: &'static str,
) -> Result<()> {
    let word = u32::from_le_bytes(word);
    if word & LARGE_WORLD_BIT != BUILD_BITS {
        return Err(bad(if BUILD_BITS == 0 {
            "written by the large-world build (f64 positions); this build reads f32 positions"
        } else {
            "written without the large-world feature (f32 positions); this build reads f64 positions"
        }));
    }
    if word & !LARGE_WORLD_BIT != version {
        return Err(bad(other_version));
    }
    Ok(())
}

/// Magic, version and payload length.
const HEADER_LEN: usize = 8 + 4 + 8;
/// The checksum after the payload.
const CHECKSUM_LEN: usize = 8;

/// The saved state of a [`World`]: a self-checking byte buffer
/// (see the [module documentation](self) for what it holds).
///
/// Take one with [`World::snapshot`]; put it back with [`World::restore`]
/// or make a new world from it with [`World::from_snapshot`]. Store or send
/// it as [`Snapshot::as_bytes`] and read it back with
/// [`Snapshot::from_bytes`].
#[derive(Clone, PartialEq, Eq)]
pub struct Snapshot {
    bytes: Vec<u8>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl Snapshot {
    /// The encoded snapshot (header, payload, checksum; see
    /// `docs/snapshot-format.md`).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The encoded snapshot as an owned buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// Size of the encoded snapshot, bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Always false: a snapshot has at least a header.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Reads a snapshot written by [`Snapshot::as_bytes`], checking the
    /// magic, the version, the length, the checksum, and then decoding and
    /// validating the whole world it holds.
    ///
    /// # Errors
    /// [`Error::InvalidData`](crate::Error::InvalidData) for a buffer that is truncated, corrupted, of
    /// another [`SNAPSHOT_VERSION`], written by the other build (`f32` against
    /// `f64` positions: the `large-world` feature) or describes an
    /// inconsistent world.
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot> {
        let snapshot = Snapshot {
            bytes: bytes.to_vec(),
        };
        decode(&snapshot, 0)?;
        Ok(snapshot)
    }

    /// The payload, after checking the envelope.
    fn payload(&self) -> Result<&[u8]> {
        let b = &self.bytes;
        if b.len() < HEADER_LEN + CHECKSUM_LEN {
            return Err(bad("shorter than a snapshot header"));
        }
        if b[..8] != MAGIC {
            return Err(bad("not a snapshot (wrong magic bytes)"));
        }
        check_version_word(
            [b[8], b[9], b[10], b[11]],
            SNAPSHOT_VERSION,
            "snapshot of another format version",
        )?;
        let mut len = [0u8; 8];
        len.copy_from_slice(&b[12..20]);
        let len = u64::from_le_bytes(len);
        if len != (b.len() - HEADER_LEN - CHECKSUM_LEN) as u64 {
            return Err(bad(
                "snapshot length does not match its header (truncated?)",
            ));
        }
        let body = b.len() - CHECKSUM_LEN;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&b[body..]);
        if checksum(&b[..body]) != u64::from_le_bytes(stored) {
            return Err(bad("snapshot checksum mismatch (corrupted)"));
        }
        Ok(&b[HEADER_LEN..body])
    }
}

/// FNV-1a of the header and payload.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.write(bytes);
    h.finish()
}

/// Writes every store of `world`. The destructuring names every field of
/// [`World`]: a new field is a compile error here until it is either
/// encoded or said not to be data.
fn encode(world: &World) -> Vec<u8> {
    let World {
        world_number: _, // not data: each world has its own
        settings,
        bodies,
        body_ids,
        shapes,
        shape_ids,
        chains,
        chain_ids,
        contacts,
        contact_ids,
        islands,
        island_ids,
        solver_sets,
        solver_set_ids,
        graph,
        broad_phase,
        pair_set: _, // rebuilt from the contacts
        split_island_id,
        step_index,
        scratch: _, // buffers rewritten before they are read in a step
        profile: _, // timings
        use_wide_solver,
        mixing: _, // callbacks: not data
        events,
        callbacks: _, // callbacks: not data
        joints,
        workers: _,    // threads: not data
        simd: _,       // the instruction set: same bits on every path
        structure: _,  // a generation local to the world
        recorder: _,   // the world's own log, not its state
        tiles_seen: _, // derived from the static shapes at the next step
    } = world;
    let mut w = Writer::default();
    w.raw(&MAGIC);
    w.raw(&version_word(SNAPSHOT_VERSION));
    w.raw(&[0; 8]); // payload length, filled in below
    settings.put(&mut w);
    use_wide_solver.put(&mut w);
    step_index.put(&mut w);
    split_island_id.put(&mut w);
    bodies.put(&mut w);
    body_ids.put(&mut w);
    shapes.put(&mut w);
    shape_ids.put(&mut w);
    chains.put(&mut w);
    chain_ids.put(&mut w);
    contacts.put(&mut w);
    contact_ids.put(&mut w);
    islands.put(&mut w);
    island_ids.put(&mut w);
    solver_sets.put(&mut w);
    solver_set_ids.put(&mut w);
    graph.put(&mut w);
    broad_phase.put(&mut w);
    joints.put(&mut w);
    events.put(&mut w);
    let mut bytes = w.bytes;
    let len = (bytes.len() - HEADER_LEN) as u64;
    bytes[12..20].copy_from_slice(&len.to_le_bytes());
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// Decodes a snapshot into a new world numbered `world_number` (no helper
/// threads, no callbacks) and validates it.
fn decode(snapshot: &Snapshot, world_number: u16) -> Result<World> {
    let r = &mut Reader::new(snapshot.payload()?, world_number);
    let settings: crate::world::WorldDef = Wire::get(r)?;
    settings
        .validate()
        .map_err(|_| bad("snapshot settings out of range"))?;
    let mut world = World {
        world_number,
        settings,
        use_wide_solver: Wire::get(r)?,
        step_index: Wire::get(r)?,
        split_island_id: Wire::get(r)?,
        bodies: Wire::get(r)?,
        body_ids: Wire::get(r)?,
        shapes: Wire::get(r)?,
        shape_ids: Wire::get(r)?,
        chains: Wire::get(r)?,
        chain_ids: Wire::get(r)?,
        contacts: Wire::get(r)?,
        contact_ids: Wire::get(r)?,
        islands: Wire::get(r)?,
        island_ids: Wire::get(r)?,
        solver_sets: Wire::get(r)?,
        solver_set_ids: Wire::get(r)?,
        graph: Wire::get(r)?,
        broad_phase: Wire::get(r)?,
        joints: Wire::get(r)?,
        events: Wire::get(r)?,
        pair_set: PairSet::default(),
        scratch: Default::default(),
        profile: Profile::default(),
        mixing: Default::default(),
        callbacks: Default::default(),
        workers: crate::workers::Workers::new(1)?,
        simd: crate::simd::SimdPath::Baseline,
        structure: 0,
        recorder: None,
        tiles_seen: None,
    };
    if r.remaining() != 0 {
        return Err(bad("bytes left over after the world"));
    }
    check::check_world(&world)?;
    world.pair_set = check::pair_set(&world.contacts);
    world
        .validate()
        .map_err(|_| bad("the snapshot's world is inconsistent"))?;
    Ok(world)
}

impl World {
    /// Saves the whole state of the world (see [`Snapshot`]). Callbacks are
    /// not part of it.
    ///
    /// Box2D: `b2World_Snapshot`.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            bytes: encode(self),
        }
    }

    /// Puts the world back into the state `snapshot` holds: ids taken before
    /// the snapshot was made by this world are valid again, and the following
    /// steps give the same bits and events as after the snapshot was taken.
    /// The world keeps its callbacks (filter, pre-solve, mixing), its worker
    /// count and its world number. The snapshot may come from another world
    /// (its ids then become this world's).
    ///
    /// # Errors
    /// [`Error::InvalidData`](crate::Error::InvalidData) when the snapshot does not decode or describes
    /// an inconsistent world; the world is unchanged then.
    ///
    /// Box2D: `b2World_Restore`.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<()> {
        let mut new = decode(snapshot, self.world_number)?;
        new.settings.worker_count = self.settings.worker_count;
        new.settings.simd = self.settings.simd;
        new.simd = self.simd;
        std::mem::swap(&mut new.workers, &mut self.workers);
        std::mem::swap(&mut new.callbacks, &mut self.callbacks);
        std::mem::swap(&mut new.mixing, &mut self.mixing);
        std::mem::swap(&mut new.scratch, &mut self.scratch);
        new.structure = self.structure_generation().wrapping_add(1);
        std::mem::swap(&mut new.recorder, &mut self.recorder);
        *self = new;
        self.record_change();
        Ok(())
    }

    /// Makes a new world from a snapshot, with `worker_count` threads (1 to
    /// [`MAX_WORKERS`](crate::MAX_WORKERS); results are the same bits for any
    /// count). The new world has its own world number: ids from the
    /// snapshot's world are foreign to it; [`World::body_ids`] and the other
    /// id listings give its ids, in the same order (the same indices and
    /// generations). It has no callbacks and the default mixing rules.
    ///
    /// # Errors
    /// [`Error::InvalidData`](crate::Error::InvalidData) as [`World::restore`]; [`Error::OutOfRange`](crate::Error::OutOfRange)
    /// for a bad worker count.
    ///
    /// Box2D: `b2CreateWorldFromSnapshot`.
    pub fn from_snapshot(snapshot: &Snapshot, worker_count: usize) -> Result<World> {
        check_worker_count(worker_count)?;
        let mut world = decode(snapshot, next_world_number())?;
        world.settings.worker_count = worker_count;
        world.workers = crate::workers::Workers::new(worker_count)?;
        world.simd = world.settings.simd.resolve()?;
        Ok(world)
    }
}

impl From<Snapshot> for Vec<u8> {
    fn from(s: Snapshot) -> Vec<u8> {
        s.bytes
    }
}
