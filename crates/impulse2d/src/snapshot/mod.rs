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
mod player;
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
pub use player::{DEFAULT_KEYFRAME_BUDGET, DEFAULT_KEYFRAME_INTERVAL, ReplayInfo, ReplayPlayer};
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

/// The first 12 bytes of a snapshot or a recording: its magic, then the
/// version word (`version` plus this build's position-format bit).
pub(crate) fn head(magic: &[u8; 8], version: u32) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend_from_slice(&(version | BUILD_BITS).to_le_bytes());
    bytes
}

/// Checks the head [`head`] writes at the start of `b` (12 bytes or more):
/// the magic (else `errors[0]`), then that the version word was written by
/// a build with this build's positions (`f32`, or `f64` with
/// `large-world`), then that its version is `version` (else `errors[1]`).
pub(crate) fn check_head(
    b: &[u8],
    magic: &[u8; 8],
    version: u32,
    errors: [&'static str; 2],
) -> Result<()> {
    if b[..8] != magic[..] {
        return Err(bad(errors[0]));
    }
    let word = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
    if word & LARGE_WORLD_BIT != BUILD_BITS {
        return Err(bad(if BUILD_BITS == 0 {
            "written by the large-world build (f64 positions); this build reads f32 positions"
        } else {
            "written without the large-world feature (f32 positions); this build reads f64 positions"
        }));
    }
    if word & !LARGE_WORLD_BIT != version {
        return Err(bad(errors[1]));
    }
    Ok(())
}

/// Appends the FNV-1a checksum of `bytes` (the seal of a snapshot or a
/// recording).
pub(crate) fn seal(bytes: &mut Vec<u8>) {
    let sum = checksum(bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
}

/// Checks the checksum [`seal`] appended to `b` (8 bytes or more; else
/// `corrupted`) and gives the bytes before it.
pub(crate) fn check_seal<'a>(b: &'a [u8], corrupted: &'static str) -> Result<&'a [u8]> {
    let (body, stored) = b.split_at(b.len() - CHECKSUM_LEN);
    let mut sum = [0u8; 8];
    sum.copy_from_slice(stored);
    if checksum(body) != u64::from_le_bytes(sum) {
        return Err(bad(corrupted));
    }
    Ok(body)
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    bytes: Encoded,
}

/// The bytes of a [`Snapshot`] or a [`Recording`]; `Debug` shows only how
/// many there are.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Encoded(pub(crate) Vec<u8>);

impl std::ops::Deref for Encoded {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for Encoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.len().fmt(f)
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
        self.bytes.to_vec()
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
        decode(bytes, 0)?;
        Ok(Snapshot {
            bytes: Encoded(bytes.to_vec()),
        })
    }
}

/// The payload of snapshot bytes `b`, after checking the envelope.
fn payload(b: &[u8]) -> Result<&[u8]> {
    if b.len() < HEADER_LEN + CHECKSUM_LEN {
        return Err(bad("shorter than a snapshot header"));
    }
    check_head(
        b,
        &MAGIC,
        SNAPSHOT_VERSION,
        [
            "not a snapshot (wrong magic bytes)",
            "snapshot of another format version",
        ],
    )?;
    let mut len = [0u8; 8];
    len.copy_from_slice(&b[12..20]);
    let len = u64::from_le_bytes(len);
    if len != (b.len() - HEADER_LEN - CHECKSUM_LEN) as u64 {
        return Err(bad(
            "snapshot length does not match its header (truncated?)",
        ));
    }
    Ok(&check_seal(b, "snapshot checksum mismatch (corrupted)")?[HEADER_LEN..])
}

/// FNV-1a of the header and payload.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.write(bytes);
    h.finish()
}

/// Writes every store of `world`, in the order [`decode`] reads them.
fn encode(world: &World) -> Vec<u8> {
    let mut w = Writer {
        bytes: head(&MAGIC, SNAPSHOT_VERSION),
    };
    w.raw(&[0; 8]); // payload length, filled in below
    world.settings.put(&mut w);
    world.use_wide_solver.put(&mut w);
    world.step_index.put(&mut w);
    world.split_island_id.put(&mut w);
    world.bodies.put(&mut w);
    world.body_ids.put(&mut w);
    world.shapes.put(&mut w);
    world.shape_ids.put(&mut w);
    world.chains.put(&mut w);
    world.chain_ids.put(&mut w);
    world.contacts.put(&mut w);
    world.contact_ids.put(&mut w);
    world.islands.put(&mut w);
    world.island_ids.put(&mut w);
    world.solver_sets.put(&mut w);
    world.solver_set_ids.put(&mut w);
    world.graph.put(&mut w);
    world.broad_phase.put(&mut w);
    world.joints.put(&mut w);
    world.events.put(&mut w);
    let mut bytes = w.bytes;
    let len = (bytes.len() - HEADER_LEN) as u64;
    bytes[12..20].copy_from_slice(&len.to_le_bytes());
    seal(&mut bytes);
    bytes
}

/// Decodes snapshot bytes into a new world numbered `world_number` (no helper
/// threads, no callbacks) and validates it. The struct literal names every
/// field of [`World`]: a new field is a compile error here until it is
/// either read (and written by [`encode`]) or said not to be data.
/// Whether any joint of `world` (in a graph colour, a solver set, or taken
/// out while a body changes state) has a force or torque threshold below
/// `f32::MAX` ([`JointStorage::thresholds_seen`](crate::joint::JointStorage)).
fn any_joint_threshold(world: &World) -> bool {
    let colours = world.graph.colors.iter().map(|c| &c.joint_sims[..]);
    let sets = world.solver_sets.iter().map(|s| &s.joint_sims[..]);
    let detached = world.joints.detached.iter().map(|(_, sim)| sim);
    colours
        .chain(sets)
        .flatten()
        .chain(detached)
        .any(|sim| sim.base.force_threshold != f32::MAX || sim.base.torque_threshold != f32::MAX)
}

fn decode(bytes: &[u8], world_number: u16) -> Result<World> {
    let r = &mut Reader::new(payload(bytes)?, world_number);
    let settings: crate::world::WorldDef = Wire::get(r)?;
    settings
        .validate()
        .map_err(|_| bad("snapshot settings out of range"))?;
    let mut world = World {
        world_number, // not data: each world has its own
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
        pair_set: PairSet::default(),  // rebuilt from the contacts below
        scratch: Default::default(),   // rewritten before it is read in a step
        profile: Profile::default(),   // timings
        mixing: Default::default(),    // callbacks: not data
        callbacks: Default::default(), // callbacks: not data
        workers: crate::workers::Workers::new(1)?, // threads: not data
        simd: crate::simd::SimdPath::Baseline, // same bits on every path
        structure: 0,                  // a generation local to the world
        recorder: None,                // the world's own log, not its state
        tiles_seen: None,              // derived from the static shapes at the next step
    };
    if r.remaining() != 0 {
        return Err(bad("bytes left over after the world"));
    }
    check::check_world(&world)?;
    world.pair_set = check::pair_set(&world.contacts);
    for tree in &mut world.broad_phase.trees {
        tree.tighten_category_union();
    }
    world.joints.thresholds_seen = any_joint_threshold(&world);
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
            bytes: Encoded(encode(self)),
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
        let mut new = decode(&snapshot.bytes, self.world_number)?;
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
        let mut world = decode(&snapshot.bytes, next_world_number())?;
        world.settings.worker_count = worker_count;
        world.workers = crate::workers::Workers::new(worker_count)?;
        world.simd = world.settings.simd.resolve()?;
        Ok(world)
    }
}

impl From<Snapshot> for Vec<u8> {
    fn from(s: Snapshot) -> Vec<u8> {
        s.bytes.0
    }
}
