//! Recording and replay: a byte log of a world's steps and the calls made
//! between them, and a player that re-runs it and finds the first step whose
//! state hash differs (format: `docs/recording-format.md`).
//!
//! How calls are captured. [`World::start_recording`] writes a
//! [`Snapshot`] of the world as the seed; from then on the world itself logs
//! (one line in each public mutator, through [`World::record_call`]):
//!
//! - every step (time step and substeps), and the state hash after every
//!   `hash_interval`-th step;
//! - the calls games make between most steps, with their arguments: a body's
//!   transform, velocities, forces, torques, impulses, target transform,
//!   `clear_forces` and `set_awake`;
//! - creating and destroying bodies and shapes and creating joints, with
//!   their definitions (through `World::logged`);
//! - any other change — destroying joints, creating or destroying chains, a
//!   shape, chain or joint view taken mutably, another body setter, an
//!   explosion, changed world settings, a snapshot restored or a rollback
//!   loaded — as a keyframe: a full snapshot written just before the next
//!   step (the calls logged since the last step are then dropped, the
//!   keyframe holds their effect).
//!
//! So a recording replays exactly whatever was called, with compact records
//! for the frequent calls and snapshots for the rare ones, and no method
//! duplicated in a wrapper type. Callbacks (filters, pre-solve, mixing) are
//! not data and are not recorded: a replay runs without them.

use super::wire::{Reader, Wire, Writer, bad};
use super::{Encoded, Snapshot, check_head, check_seal, head, seal};
use crate::body::BodyDef;
use crate::error::{Error, Result};
use crate::id::{BodyId, ShapeId};
use crate::joint::{JointDef, JointKind};
use crate::math::{Rot, Transform, Vec2};
use crate::pos::{Pos, WorldTransform};
use crate::shape::{ShapeDef, ShapeGeometry};
use crate::world::{World, WorldDef};

/// The first bytes of every recording.
const MAGIC: [u8; 8] = *b"IMP2DREC";
/// The recording format version this build writes and reads.
pub const RECORDING_VERSION: u32 = 3;
const HEADER_LEN: usize = 8 + 4 + 4;

const KEYFRAME: u8 = 1;
const STEP: u8 = 2;
const HASH: u8 = 3;
const CREATE_BODY: u8 = 4;
const DESTROY_BODY: u8 = 5;
const CREATE_SHAPE: u8 = 6;
const DESTROY_SHAPE: u8 = 7;
const CREATE_JOINT: u8 = 8;
const END: u8 = 255;

/// A structural call logged with its arguments (so that a recording need
/// not hold a keyframe after it): the calls that scenes make while they run
/// (rain's ragdolls come and go).
#[derive(Debug)]
pub(crate) enum Logged {
    CreateBody(BodyDef),
    DestroyBody(BodyId),
    CreateShape(BodyId, ShapeDef, ShapeGeometry),
    DestroyShape(ShapeId, bool),
    /// The base definition, the local frames and the typed joint, as the
    /// typed `create_*_joint` hands them to `World::create_joint`.
    CreateJoint(JointDef, Transform, Transform, JointKind),
}

impl Logged {
    fn put(&self, w: &mut Writer) {
        match self {
            Logged::CreateBody(def) => {
                CREATE_BODY.put(w);
                def.put(w);
            }
            Logged::DestroyBody(id) => {
                DESTROY_BODY.put(w);
                id.put(w);
            }
            Logged::CreateShape(body, def, geometry) => {
                CREATE_SHAPE.put(w);
                body.put(w);
                def.put(w);
                geometry.put(w);
            }
            Logged::DestroyShape(id, mass) => {
                DESTROY_SHAPE.put(w);
                id.put(w);
                mass.put(w);
            }
            Logged::CreateJoint(def, a, b, kind) => {
                CREATE_JOINT.put(w);
                def.put(w);
                a.put(w);
                b.put(w);
                kind.put(w);
            }
        }
    }

    /// Reads the arguments of a record with tag `tag`; ids are stamped with
    /// the reader's world number.
    fn get(tag: u8, r: &mut Reader<'_>) -> Result<Logged> {
        Ok(match tag {
            CREATE_BODY => Logged::CreateBody(Wire::get(r)?),
            DESTROY_BODY => Logged::DestroyBody(Wire::get(r)?),
            CREATE_SHAPE => Logged::CreateShape(Wire::get(r)?, Wire::get(r)?, Wire::get(r)?),
            DESTROY_SHAPE => Logged::DestroyShape(Wire::get(r)?, Wire::get(r)?),
            CREATE_JOINT => {
                let (def, a, b, kind) =
                    (Wire::get(r)?, Wire::get(r)?, Wire::get(r)?, Wire::get(r)?);
                if !super::check::logged_joint_ok(&def, a, b, kind) {
                    return Err(bad("a recorded joint has settings no definition accepts"));
                }
                Logged::CreateJoint(def, a, b, kind)
            }
            _ => return Err(bad("unknown record in a recording")),
        })
    }

    /// Makes the call on `world`. An error it gives is the one it gave
    /// when recorded (nothing changed then either).
    fn apply(self, world: &mut World) {
        let _ = match self {
            Logged::CreateBody(def) => world.create_body(&def).map(drop),
            Logged::DestroyBody(id) => world.destroy_body(id),
            Logged::CreateShape(body, def, geometry) => {
                world.create_shape(body, &def, geometry).map(drop)
            }
            Logged::DestroyShape(id, mass) => world.destroy_shape(id, mass),
            Logged::CreateJoint(def, a, b, kind) => world.create_joint(&def, a, b, kind).map(drop),
        };
    }
}

/// A call on a body, as recorded: the body's slot index and generation, then
/// the arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Call {
    SetTransform(Pos, Rot),
    SetLinearVelocity(Vec2),
    SetAngularVelocity(f32),
    SetTargetTransform(WorldTransform, f32),
    ApplyForce(Vec2, Pos, bool),
    ApplyForceToCenter(Vec2, bool),
    ApplyTorque(f32, bool),
    ClearForces,
    ApplyLinearImpulse(Vec2, Pos, bool),
    ApplyLinearImpulseToCenter(Vec2, bool),
    ApplyAngularImpulse(f32, bool),
    SetAwake(bool),
}

impl Call {
    fn tag(&self) -> u8 {
        match self {
            Call::SetTransform(..) => 16,
            Call::SetLinearVelocity(_) => 17,
            Call::SetAngularVelocity(_) => 18,
            Call::SetTargetTransform(..) => 19,
            Call::ApplyForce(..) => 20,
            Call::ApplyForceToCenter(..) => 21,
            Call::ApplyTorque(..) => 22,
            Call::ClearForces => 23,
            Call::ApplyLinearImpulse(..) => 24,
            Call::ApplyLinearImpulseToCenter(..) => 25,
            Call::ApplyAngularImpulse(..) => 26,
            Call::SetAwake(_) => 27,
        }
    }

    fn put(&self, out: &mut Vec<u8>) {
        let f = |out: &mut Vec<u8>, x: f32| out.extend_from_slice(&x.to_le_bytes());
        let v = |out: &mut Vec<u8>, x: Vec2| {
            f(out, x.x);
            f(out, x.y);
        };
        // A world position: two f32, or two f64 with `large-world`.
        let pos = |out: &mut Vec<u8>, x: Pos| {
            out.extend_from_slice(&x.x.to_le_bytes());
            out.extend_from_slice(&x.y.to_le_bytes());
        };
        let b = |out: &mut Vec<u8>, x: bool| out.push(u8::from(x));
        match *self {
            Call::SetTransform(p, q) => {
                pos(out, p);
                f(out, q.c);
                f(out, q.s);
            }
            Call::SetLinearVelocity(x) => v(out, x),
            Call::SetAngularVelocity(x) => f(out, x),
            Call::SetTargetTransform(t, dt) => {
                pos(out, t.p);
                f(out, t.q.c);
                f(out, t.q.s);
                f(out, dt);
            }
            Call::ApplyForce(x, p, w) | Call::ApplyLinearImpulse(x, p, w) => {
                v(out, x);
                pos(out, p);
                b(out, w);
            }
            Call::ApplyForceToCenter(x, w) | Call::ApplyLinearImpulseToCenter(x, w) => {
                v(out, x);
                b(out, w);
            }
            Call::ApplyTorque(x, w) | Call::ApplyAngularImpulse(x, w) => {
                f(out, x);
                b(out, w);
            }
            Call::ClearForces => {}
            Call::SetAwake(w) => b(out, w),
        }
    }

    fn get(tag: u8, r: &mut Cursor<'_>) -> Result<Call> {
        let v = |r: &mut Cursor<'_>| -> Result<Vec2> { Ok(Vec2::new(r.f32()?, r.f32()?)) };
        let pos = |r: &mut Cursor<'_>| -> Result<Pos> { r.pos() };
        Ok(match tag {
            16 => Call::SetTransform(
                pos(r)?,
                Rot {
                    c: r.f32()?,
                    s: r.f32()?,
                },
            ),
            17 => Call::SetLinearVelocity(v(r)?),
            18 => Call::SetAngularVelocity(r.f32()?),
            19 => {
                let p = pos(r)?;
                let q = Rot {
                    c: r.f32()?,
                    s: r.f32()?,
                };
                Call::SetTargetTransform(WorldTransform { p, q }, r.f32()?)
            }
            20 => Call::ApplyForce(v(r)?, pos(r)?, r.bool()?),
            21 => Call::ApplyForceToCenter(v(r)?, r.bool()?),
            22 => Call::ApplyTorque(r.f32()?, r.bool()?),
            23 => Call::ClearForces,
            24 => Call::ApplyLinearImpulse(v(r)?, pos(r)?, r.bool()?),
            25 => Call::ApplyLinearImpulseToCenter(v(r)?, r.bool()?),
            26 => Call::ApplyAngularImpulse(r.f32()?, r.bool()?),
            27 => Call::SetAwake(r.bool()?),
            _ => return Err(bad("unknown record in a recording")),
        })
    }

    /// Makes the call on `world`'s body `id`. An error the call gives is
    /// the one it gave when recorded (nothing changed then either).
    fn apply(self, world: &mut World, id: BodyId) -> Result<()> {
        let mut b = world
            .body_mut(id)
            .map_err(|_| bad("a recorded call names a body the replay does not have"))?;
        let _ = match self {
            Call::SetTransform(p, q) => b.set_transform(p, q),
            Call::SetLinearVelocity(v) => b.set_linear_velocity(v),
            Call::SetAngularVelocity(w) => b.set_angular_velocity(w),
            Call::SetTargetTransform(t, dt) => b.set_target_transform(t, dt),
            Call::ApplyForce(f, p, w) => b.apply_force(f, p, w),
            Call::ApplyForceToCenter(f, w) => b.apply_force_to_center(f, w),
            Call::ApplyTorque(t, w) => b.apply_torque(t, w),
            Call::ClearForces => {
                b.clear_forces();
                Ok(())
            }
            Call::ApplyLinearImpulse(i, p, w) => b.apply_linear_impulse(i, p, w),
            Call::ApplyLinearImpulseToCenter(i, w) => b.apply_linear_impulse_to_center(i, w),
            Call::ApplyAngularImpulse(i, w) => b.apply_angular_impulse(i, w),
            Call::SetAwake(a) => {
                b.set_awake(a);
                Ok(())
            }
        };
        Ok(())
    }
}

/// The recorder a world carries while recording.
#[derive(Debug)]
pub(crate) struct Recorder {
    /// Header and records so far.
    bytes: Vec<u8>,
    /// End of the last step's records: calls after it are dropped when a
    /// keyframe supersedes them.
    after_step: usize,
    hash_interval: u32,
    steps: u64,
    /// A change that is not logged as a call happened since the last step.
    dirty: bool,
    generation: u64,
    settings: WorldDef,
}

impl World {
    /// Starts recording the world: a snapshot of it now, then every step and
    /// every state-changing call (see the module documentation of
    /// `snapshot::recording`), with the state hash after every
    /// `hash_interval`-th step. Recording again restarts.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a `hash_interval` of 0.
    ///
    /// Box2D: `b2World_StartRecording`.
    pub fn start_recording(&mut self, hash_interval: u32) -> Result<()> {
        if hash_interval == 0 {
            return Err(Error::OutOfRange {
                what: "hash interval",
                expected: "at least 1 step",
                value: 0.0,
            });
        }
        let mut bytes = head(&MAGIC, RECORDING_VERSION);
        bytes.extend_from_slice(&hash_interval.to_le_bytes());
        self.recorder = Some(Box::new(Recorder {
            after_step: bytes.len(),
            bytes,
            hash_interval,
            steps: 0,
            dirty: true, // the seed is the first keyframe
            generation: self.structure_generation(),
            settings: self.settings,
        }));
        self.write_keyframe();
        Ok(())
    }

    /// Whether the world is recording.
    pub fn is_recording(&self) -> bool {
        self.recorder.is_some()
    }

    /// Stops recording and gives the recording (`None` when the world was
    /// not recording).
    ///
    /// Box2D: `b2World_StopRecording`.
    pub fn stop_recording(&mut self) -> Option<Recording> {
        // Changes since the last step that the log does not hold.
        self.record_before_step();
        let rec = self.recorder.take()?;
        let mut bytes = rec.bytes;
        bytes.push(END);
        bytes.extend_from_slice(&rec.steps.to_le_bytes());
        seal(&mut bytes);
        Some(Recording {
            bytes: Encoded(bytes),
        })
    }

    /// Logs a body call (the body is `bodies[index]`).
    pub(crate) fn record_call(&mut self, index: usize, call: Call) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            let body = &self.bodies[index];
            rec.bytes.push(call.tag());
            rec.bytes.extend_from_slice(&(index as u32).to_le_bytes());
            rec.bytes.extend_from_slice(&body.generation.to_le_bytes());
            call.put(&mut rec.bytes);
        }
    }

    /// Notes a change that is not logged as a call: a keyframe is written
    /// before the next step.
    pub(crate) fn record_change(&mut self) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.dirty = true;
        }
    }

    /// Runs the structural call `call`, and while recording logs it as
    /// `what()` (built only then) so that the recording replays the call
    /// instead of writing a keyframe before the next step. When a change the
    /// log does not hold is already pending, the keyframe it makes holds this
    /// call's effect too, and nothing is logged.
    pub(crate) fn logged<T>(
        &mut self,
        what: impl FnOnce() -> Logged,
        call: impl FnOnce(&mut World) -> T,
    ) -> T {
        let generation = self.structure_generation();
        let settings = self.settings;
        let logging = match self.recorder.as_deref_mut() {
            Some(rec) if !rec.dirty && rec.generation == generation && rec.settings == settings => {
                let mut w = Writer {
                    bytes: std::mem::take(&mut rec.bytes),
                };
                let at = w.bytes.len();
                what().put(&mut w);
                // the tag, then the length of the arguments
                let len = (w.bytes.len() - at - 1) as u32;
                w.bytes.splice(at + 1..at + 1, len.to_le_bytes());
                rec.bytes = w.bytes;
                true
            }
            _ => false,
        };
        let out = call(self);
        let generation = self.structure_generation();
        if logging && let Some(rec) = self.recorder.as_deref_mut() {
            rec.generation = generation;
        }
        out
    }

    /// Before a step: a keyframe when something changed that the log does
    /// not hold.
    pub(crate) fn record_before_step(&mut self) {
        let generation = self.structure_generation();
        let settings = self.settings;
        if let Some(rec) = self.recorder.as_deref_mut()
            && (rec.dirty || rec.generation != generation || rec.settings != settings)
        {
            self.write_keyframe();
        }
    }

    fn write_keyframe(&mut self) {
        let snapshot = self.snapshot();
        let generation = self.structure_generation();
        let settings = self.settings;
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.bytes.truncate(rec.after_step);
            rec.bytes.push(KEYFRAME);
            rec.bytes
                .extend_from_slice(&(snapshot.len() as u64).to_le_bytes());
            rec.bytes.extend_from_slice(snapshot.as_bytes());
            rec.dirty = false;
            rec.generation = generation;
            rec.settings = settings;
        }
    }

    /// After a step that succeeded.
    pub(crate) fn record_step(&mut self, time_step: f32, sub_step_count: u32) {
        let hash = self.recorder.as_deref().and_then(|rec| {
            (rec.steps + 1)
                .is_multiple_of(u64::from(rec.hash_interval))
                .then(|| self.state_hash())
        });
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.steps += 1;
            rec.bytes.push(STEP);
            rec.bytes.extend_from_slice(&time_step.to_le_bytes());
            rec.bytes.extend_from_slice(&sub_step_count.to_le_bytes());
            if let Some(hash) = hash {
                rec.bytes.push(HASH);
                rec.bytes.extend_from_slice(&rec.steps.to_le_bytes());
                rec.bytes.extend_from_slice(&hash.to_le_bytes());
            }
            rec.after_step = rec.bytes.len();
        }
    }
}

/// The steps between hash records of recording bytes `b` (16 or more).
fn hash_interval(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[12], b[13], b[14], b[15]])
}

/// A recorded session: the seed snapshot, then every step, call and
/// keyframe, and state hashes every few steps, as a checksummed byte log
/// (`docs/recording-format.md`). Make one with [`World::start_recording`] /
/// [`World::stop_recording`]; play it with [`Replay`].
///
/// ```
/// # use impulse2d::{BodyDef, BodyType, Recording, Replay, ShapeDef, Vec2, World, WorldDef};
/// # use impulse2d::collision::make_box;
/// # fn main() -> impulse2d::Result<()> {
/// let mut world = World::new(&WorldDef::default())?;
/// let body = world.create_body(&BodyDef { body_type: BodyType::Dynamic, ..BodyDef::default() })?;
/// world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
/// world.start_recording(10)?;                       // a state hash every 10 steps
/// for i in 0..30 {
///     world.body_mut(body)?.apply_force_to_center(Vec2::new(i as f32, 0.0), true)?;
///     world.step(1.0 / 60.0, 4)?;
/// }
/// let bytes = world.stop_recording().expect("recording").as_bytes().to_vec();
///
/// let mut replay = Replay::new(&Recording::from_bytes(&bytes)?, 2)?;
/// assert_eq!(replay.run_to_end()?, None);           // no divergence
/// assert_eq!(replay.steps(), 30);
/// assert_eq!(replay.world().state_hash(), world.state_hash());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording {
    bytes: Encoded,
}

impl Recording {
    /// The encoded recording.
    ///
    /// Box2D: `b2Recording_GetData`.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Size of the encoded recording, bytes.
    ///
    /// Box2D: `b2Recording_GetSize`.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Always false: a recording has at least a header.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Reads a recording written by [`Recording::as_bytes`], checking the
    /// magic, the version, the checksum and every record's framing.
    ///
    /// # Errors
    /// [`Error::InvalidData`] for a truncated, corrupted or other-version
    /// buffer, or one written by the other build (`f32` against `f64`
    /// positions: the `large-world` feature).
    pub fn from_bytes(bytes: &[u8]) -> Result<Recording> {
        Recording::records(bytes)?;
        Ok(Recording {
            bytes: Encoded(bytes.to_vec()),
        })
    }

    /// The steps between hash records.
    pub fn hash_interval(&self) -> u32 {
        hash_interval(&self.bytes)
    }

    /// Decodes every record of recording bytes `b`, checking the envelope
    /// first.
    fn records(b: &[u8]) -> Result<Vec<Record>> {
        if b.len() < HEADER_LEN + 1 + 8 + 8 {
            return Err(bad("shorter than a recording"));
        }
        check_head(
            b,
            &MAGIC,
            RECORDING_VERSION,
            [
                "not a recording (wrong magic bytes)",
                "recording of another format version",
            ],
        )?;
        if hash_interval(b) == 0 {
            return Err(bad("recording with a hash interval of 0"));
        }
        let body = check_seal(b, "recording checksum mismatch (truncated or corrupted)")?;
        let payload = &body[HEADER_LEN..];
        let mut r = Cursor { bytes: payload };
        let mut records = Vec::new();
        let mut steps = 0u64;
        loop {
            let tag = r.u8()?;
            records.push(match tag {
                KEYFRAME => {
                    let len = r.u64()?;
                    let len = usize::try_from(len).map_err(|_| bad("keyframe too long"))?;
                    let start = HEADER_LEN + payload.len() - r.bytes.len();
                    r.take(len)?;
                    Record::Keyframe(start, len)
                }
                STEP => {
                    steps += 1;
                    Record::Step(r.f32()?, r.u32()?)
                }
                HASH => Record::Hash(r.u64()?, r.u64()?),
                CREATE_BODY..=CREATE_JOINT => {
                    let len = r.u32()? as usize;
                    let start = HEADER_LEN + payload.len() - r.bytes.len();
                    let mut args = Reader::new(r.take(len)?, 0);
                    Logged::get(tag, &mut args)?;
                    if args.remaining() != 0 {
                        return Err(bad("a logged call has bytes left over"));
                    }
                    Record::Logged(tag, start, len)
                }
                END => {
                    if r.u64()? != steps || !r.bytes.is_empty() {
                        return Err(bad("recording end does not match its steps"));
                    }
                    break;
                }
                tag => {
                    let index = r.u32()?;
                    let generation = r.u32()?;
                    Record::Call(index, generation, Call::get(tag, &mut r)?)
                }
            });
        }
        if !matches!(records.first(), Some(Record::Keyframe(..))) {
            return Err(bad("a recording starts with its seed snapshot"));
        }
        Ok(records)
    }
}

impl From<Recording> for Vec<u8> {
    fn from(r: Recording) -> Vec<u8> {
        r.bytes.0
    }
}

/// One decoded record.
#[derive(Clone, Copy, Debug)]
enum Record {
    /// Offset and length of a snapshot in the recording's bytes.
    Keyframe(usize, usize),
    Step(f32, u32),
    Hash(u64, u64),
    Call(u32, u32, Call),
    /// Tag, offset and length of a logged call's arguments.
    Logged(u8, usize, usize),
}

/// A little-endian reader over a record stream.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.bytes.len() < n {
            return Err(bad("recording ends inside a record"));
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn bool(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bad("a flag in a recording is neither 0 nor 1")),
        }
    }
    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_bits(self.u32()?))
    }
    /// A world position: two `f32`, or two `f64` with `large-world`.
    fn pos(&mut self) -> Result<Pos> {
        #[cfg(feature = "large-world")]
        {
            let x = f64::from_bits(self.u64()?);
            Ok(Pos::new(x, f64::from_bits(self.u64()?)))
        }
        #[cfg(not(feature = "large-world"))]
        {
            Ok(Vec2::new(self.f32()?, self.f32()?))
        }
    }
    fn u64(&mut self) -> Result<u64> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }
}

/// The first recorded state hash a replay did not reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Steps run when the hashes differed (1 = after the first step).
    pub step: u64,
    /// The hash the recording holds.
    pub recorded: u64,
    /// The hash the replay computed.
    pub replayed: u64,
}

/// What one replayed step gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayStep {
    /// Steps run so far (1 = the first).
    pub step: u64,
    /// The recorded hash after this step, when the recording holds one.
    pub recorded_hash: Option<u64>,
    /// [`World::state_hash`] of the replay world after this step.
    pub hash: u64,
}

/// Plays a [`Recording`] on a fresh world: the seed snapshot, then each
/// call, keyframe and step, comparing the state hash wherever the
/// recording holds one.
///
/// Box2D: `b2RecPlayer_Create`.
pub struct Replay {
    recording: Recording,
    records: Vec<Record>,
    next: usize,
    world: World,
    steps: u64,
    divergence: Option<Divergence>,
}

impl std::fmt::Debug for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replay")
            .field("steps", &self.steps)
            .field("divergence", &self.divergence)
            .finish()
    }
}

impl Replay {
    /// Opens a recording: checks it and makes its world from the seed
    /// snapshot with `worker_count` threads (any count gives the same bits).
    ///
    /// # Errors
    /// [`Error::InvalidData`] for a bad recording or seed; [`Error::OutOfRange`]
    /// for a bad worker count.
    pub fn new(recording: &Recording, worker_count: usize) -> Result<Replay> {
        let records = Recording::records(&recording.bytes)?;
        let Some(&Record::Keyframe(start, len)) = records.first() else {
            return Err(bad("a recording starts with its seed snapshot"));
        };
        let seed = Snapshot::from_bytes(&recording.bytes[start..start + len])?;
        let world = World::from_snapshot(&seed, worker_count)?;
        Ok(Replay {
            records,
            recording: recording.clone(),
            next: 1,
            world,
            steps: 0,
            divergence: None,
        })
    }

    /// The replay's world.
    ///
    /// Box2D: `b2RecPlayer_GetWorldId`.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Steps replayed so far.
    ///
    /// Box2D: `b2RecPlayer_GetFrame`.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The first divergence so far, if any.
    ///
    /// Box2D: `b2RecPlayer_GetDivergeFrame`, `b2RecPlayer_HasDiverged`.
    pub fn divergence(&self) -> Option<Divergence> {
        self.divergence
    }

    /// Whether every record has been replayed.
    ///
    /// Box2D: `b2RecPlayer_IsAtEnd`.
    pub fn is_at_end(&self) -> bool {
        self.next >= self.records.len()
    }

    /// Starts again from the seed snapshot (the divergence found so far is
    /// forgotten).
    ///
    /// # Errors
    /// As [`Replay::new`] (the recording was checked then, so only a seed
    /// that does not restore).
    ///
    /// Box2D: `b2RecPlayer_Restart`.
    pub fn restart(&mut self) -> Result<()> {
        let Some(&Record::Keyframe(start, len)) = self.records.first() else {
            return Err(bad("a recording starts with its seed snapshot"));
        };
        let seed = Snapshot::from_bytes(&self.recording.bytes[start..start + len])?;
        self.world.restore(&seed)?;
        self.next = 1;
        self.steps = 0;
        self.divergence = None;
        Ok(())
    }

    /// Replays to the end of the recording; the first divergence, if any.
    ///
    /// # Errors
    /// As [`Replay::step`].
    ///
    /// Box2D: `b2ValidateReplay`.
    pub fn run_to_end(&mut self) -> Result<Option<Divergence>> {
        while self.step()?.is_some() {}
        Ok(self.divergence)
    }

    /// Replays the records up to and including the next step (and its hash
    /// record); `None` at the end of the recording.
    ///
    /// # Errors
    /// [`Error::InvalidData`] when a keyframe does not decode or a recorded
    /// call names a body the replay world does not have (the replay has
    /// diverged in its set of objects).
    ///
    /// Box2D: `b2RecPlayer_StepFrame`.
    pub fn step(&mut self) -> Result<Option<ReplayStep>> {
        let mut stepped = None;
        while let Some(&record) = self.records.get(self.next) {
            match record {
                Record::Keyframe(start, len) if stepped.is_none() => {
                    let bytes = &self.recording.bytes[start..start + len];
                    self.world.restore(&Snapshot::from_bytes(bytes)?)?;
                }
                Record::Call(index, generation, call) if stepped.is_none() => {
                    let id = BodyId {
                        index,
                        world: self.world.world_number,
                        generation,
                    };
                    call.apply(&mut self.world, id)?;
                }
                Record::Logged(tag, start, len) if stepped.is_none() => {
                    let bytes = &self.recording.bytes[start..start + len];
                    let mut args = Reader::new(bytes, self.world.world_number);
                    Logged::get(tag, &mut args)?.apply(&mut self.world);
                }
                Record::Step(dt, n) if stepped.is_none() => {
                    self.world
                        .step(dt, n)
                        .map_err(|_| bad("a recorded step is not a valid step"))?;
                    self.steps += 1;
                    stepped = Some(ReplayStep {
                        step: self.steps,
                        recorded_hash: None,
                        hash: self.world.state_hash(),
                    });
                }
                Record::Hash(step, recorded) => {
                    let Some(s) = stepped.as_mut().filter(|s| s.step == step) else {
                        return Err(bad("a hash record out of place"));
                    };
                    s.recorded_hash = Some(recorded);
                    if recorded != s.hash && self.divergence.is_none() {
                        self.divergence = Some(Divergence {
                            step,
                            recorded,
                            replayed: s.hash,
                        });
                    }
                }
                _ => break, // the next step's records
            }
            self.next += 1;
        }
        Ok(stepped)
    }
}

/// Where a [`Replay`] stands between two steps: enough, with a snapshot of
/// its world then, to resume it there (the key frames of
/// [`ReplayPlayer`](super::ReplayPlayer)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReplayCursor {
    /// The next record to replay.
    next: usize,
    /// Steps replayed.
    steps: u64,
    /// The first divergence found on the way.
    divergence: Option<Divergence>,
}

impl ReplayCursor {
    /// Steps replayed.
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }
}

impl Replay {
    /// Where the replay stands now.
    pub(crate) fn cursor(&self) -> ReplayCursor {
        ReplayCursor {
            next: self.next,
            steps: self.steps,
            divergence: self.divergence,
        }
    }

    /// Puts the replay back where it stood at `cursor`, with `snapshot` (of
    /// its world at that point) restored: the records after it then replay
    /// as they did the first time. The world and the cursor are unchanged
    /// when the snapshot does not restore.
    pub(crate) fn resume(&mut self, snapshot: &Snapshot, cursor: ReplayCursor) -> Result<()> {
        self.resume_with(cursor, |world| world.restore(snapshot))
    }

    /// Saves the replay world into `state` ([`World::save_rollback`]).
    pub(crate) fn save_rollback(&mut self, state: &mut super::RollbackState) {
        self.world.save_rollback(state);
    }

    /// As [`Replay::resume`], with `state` (saved from its world at that
    /// point) loaded; nothing changes when it does not load (the world's
    /// structure changed since it was saved).
    pub(crate) fn resume_rollback(
        &mut self,
        state: &super::RollbackState,
        cursor: ReplayCursor,
    ) -> Result<()> {
        self.resume_with(cursor, |world| world.load_rollback(state))
    }

    /// Puts the world back by `load`, then the cursor.
    fn resume_with(
        &mut self,
        cursor: ReplayCursor,
        load: impl FnOnce(&mut World) -> Result<()>,
    ) -> Result<()> {
        if cursor.next > self.records.len() {
            return Err(bad("a replay position beyond the recording"));
        }
        load(&mut self.world)?;
        self.next = cursor.next;
        self.steps = cursor.steps;
        self.divergence = cursor.divergence;
        Ok(())
    }

    /// The time step (s) and substep count of every step record, in order.
    pub(crate) fn recorded_steps(&self) -> impl Iterator<Item = (f32, u32)> + '_ {
        self.records.iter().filter_map(|r| match *r {
            Record::Step(dt, n) => Some((dt, n)),
            _ => None,
        })
    }

    /// The number of keyframe records (the seed included).
    pub(crate) fn keyframe_records(&self) -> usize {
        self.records
            .iter()
            .filter(|r| matches!(r, Record::Keyframe(..)))
            .count()
    }
}
