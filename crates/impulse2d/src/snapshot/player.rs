//! A replay player that seeks: a [`Replay`] plus key frames (the state of
//! the replay world saved every few steps as it plays, under a memory budget),
//! so that going to any step of a recording, backward or forward, restores
//! the nearest key frame at or before it and replays only the steps after
//! it. What the replay viewer of a testbed needs; what Box2D's
//! `b2RecPlayer` does with its keyframe ring.

use std::collections::HashSet;

use super::recording::{Divergence, Recording, Replay, ReplayCursor, ReplayStep};
use super::{RollbackState, Snapshot};
use crate::error::{Error, Result};
use crate::id::BodyId;
use crate::world::World;

/// The finest key-frame spacing a new player uses, steps (Box2D's default).
pub const DEFAULT_KEYFRAME_INTERVAL: u64 = 16;
/// The key-frame memory budget a new player uses, bytes (512 MiB, Box2D's
/// default).
pub const DEFAULT_KEYFRAME_BUDGET: usize = 512 * 1024 * 1024;

/// What a recording holds, as a [`ReplayPlayer`] found it when it opened it.
///
/// Box2D's `b2RecPlayerInfo`, without `lengthScale` (Impulse2D works in
/// metres) and `bounds` (not recorded), with the hash interval and the
/// recording's keyframes and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReplayInfo {
    /// Steps recorded: the frames are 0 (the seed, before the first step)
    /// to `frame_count`.
    pub frame_count: u64,
    /// Threads of the replay world (the results are the same bits for any
    /// count).
    pub worker_count: usize,
    /// Steps between the recording's state-hash records.
    pub hash_interval: u32,
    /// Time step of the first recorded step, s (0 when there is none).
    pub time_step: f32,
    /// Substeps of the first recorded step (0 when there is none).
    pub sub_step_count: u32,
    /// Whether every recorded step has that time step and substep count.
    pub fixed_step: bool,
    /// Snapshots the recording holds: the seed, and one for each stretch of
    /// calls the log does not hold as records.
    pub recorded_keyframes: usize,
    /// Size of the encoded recording, bytes.
    pub recording_bytes: usize,
}

/// What a key frame holds of the replay world.
#[derive(Debug)]
enum Saved {
    /// All of it.
    Full(Snapshot),
    /// What steps change (a compact [`RollbackState`]), while the world's
    /// structure is the seed's.
    Rollback(Box<RollbackState>),
}

impl Saved {
    /// Bytes held.
    fn bytes(&self) -> usize {
        match self {
            Saved::Full(s) => s.len(),
            Saved::Rollback(r) => r.byte_len(),
        }
    }
}

/// One key frame: the replay world after `cursor.steps()` steps.
#[derive(Debug)]
struct Keyframe {
    cursor: ReplayCursor,
    saved: Saved,
}

impl Keyframe {
    fn frame(&self) -> u64 {
        self.cursor.steps()
    }
}

/// Plays a [`Recording`] like [`Replay`], and goes to any of its steps
/// ([`ReplayPlayer::seek`]) without replaying from the start: as it plays it
/// keeps the state of its world every [`keyframe_interval`] steps (a key
/// frame), and a seek restores the nearest key frame at or before the
/// target and replays the steps after it.
///
/// A key frame is a compact [`RollbackState`] (about a quarter of a
/// snapshot's bytes, and far quicker to load) while the replay world's
/// structure is still the seed's ([`World::structure_generation`]: no body,
/// shape, chain or joint created or destroyed, no recorded keyframe
/// restored); from the first step that changes it on, key frames are whole
/// [`Snapshot`]s and the rollback ones are dropped (a rollback state cannot
/// be loaded into a world whose structure has changed since). The interval starts at the
/// policy's minimum and doubles (keeping the key frames on the coarser grid)
/// whenever the next key frame would take the key frames past the memory
/// budget ([`ReplayPlayer::set_keyframe_policy`]).
///
/// A seek reaches exactly the state that stepping there from the start
/// reaches (the same [`World::state_hash`], the same snapshot bytes, the
/// same divergence so far): a snapshot and a rollback state both restore
/// everything that decides the future.
///
/// It also lists the bodies in the order the replay first met them
/// ([`ReplayPlayer::body_count`], [`ReplayPlayer::body_id`]), for an
/// outliner.
///
/// ```
/// # use impulse2d::{BodyDef, BodyType, Recording, ReplayPlayer, ShapeDef, Vec2, World, WorldDef};
/// # use impulse2d::collision::make_box;
/// # fn main() -> impulse2d::Result<()> {
/// let mut world = World::new(&WorldDef::default())?;
/// let body = world.create_body(&BodyDef { body_type: BodyType::Dynamic, ..BodyDef::default() })?;
/// world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
/// world.start_recording(10)?;
/// let mut hashes = vec![world.state_hash()];
/// for _ in 0..100 {
///     world.step(1.0 / 60.0, 4)?;
///     hashes.push(world.state_hash());
/// }
/// let recording = world.stop_recording().expect("recording");
///
/// let mut player = ReplayPlayer::new(&recording, 1)?;
/// player.set_keyframe_policy(1 << 20, 8)?; // 1 MiB, a key frame every 8 steps or more
/// player.seek(100)?;                         // plays to the end, keeping key frames
/// player.seek(37)?;                          // restores step 32's, replays 5 steps
/// assert_eq!(player.world().state_hash(), hashes[37]);
/// assert_eq!(player.info().frame_count, 100);
/// assert!(player.seek(101).is_err());         // beyond the end: nothing changes
/// assert_eq!(player.frame(), 37);
/// # Ok(())
/// # }
/// ```
///
/// [`keyframe_interval`]: ReplayPlayer::keyframe_interval
pub struct ReplayPlayer {
    replay: Replay,
    info: ReplayInfo,
    /// Key frames, by frame.
    keyframes: Vec<Keyframe>,
    /// Bytes the key frames hold.
    keyframe_bytes: usize,
    /// Frame 0 as a rollback state, while the world's structure is the
    /// seed's (`None` from the first change on).
    origin: Option<(RollbackState, ReplayCursor)>,
    /// The world's structure generation at frame 0.
    seed_generation: u64,
    budget: usize,
    min_interval: u64,
    interval: u64,
    /// Every body met so far with the frame it was first met at, in that
    /// order (frames never decrease along the list).
    bodies: Vec<(BodyId, u64)>,
    /// The (index, generation) of every body in `bodies`.
    seen: HashSet<(u32, u32)>,
    /// The furthest frame whose bodies are in `bodies`.
    frontier: u64,
    /// The world's structure generation when its bodies were last listed
    /// (`None` after a jump: list them at the next new frame).
    listed_generation: Option<u64>,
    /// The link table a compact save or load needs, lent to the rollback
    /// state saved or loaded (the kept ones are trimmed: no table each).
    scratch: Vec<u32>,
    /// A step failed since the last restore: the world may hold some of a
    /// frame's records, so the next seek restores whatever its target.
    dirty: bool,
    /// Bytes of the last key frame built (0 before the first): what the
    /// next one is expected to take.
    last_bytes: usize,
    /// While key frames are too big for the whole budget: the first frame
    /// worth trying again, and the gap to the one after it (doubled at each
    /// try that is still too big).
    retry: Option<(u64, u64)>,
    /// Key frames built, and of them kept (for the tests: a frame built and
    /// then dropped is a wasted save).
    built: u64,
    kept: u64,
}

impl std::fmt::Debug for ReplayPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayPlayer")
            .field("frame", &self.frame())
            .field("keyframes", &self.keyframes.len())
            .field("keyframe_bytes", &self.keyframe_bytes)
            .field("keyframe_interval", &self.interval)
            .finish()
    }
}

impl ReplayPlayer {
    /// Opens a recording as [`Replay::new`] does, at frame 0 (the seed), with
    /// the default key-frame policy ([`DEFAULT_KEYFRAME_BUDGET`],
    /// [`DEFAULT_KEYFRAME_INTERVAL`]).
    ///
    /// # Errors
    /// As [`Replay::new`].
    pub fn new(recording: &Recording, worker_count: usize) -> Result<ReplayPlayer> {
        let replay = Replay::new(recording, worker_count)?;
        let first = replay.recorded_steps().next();
        let fixed_step = replay.recorded_steps().all(|s| Some(s) == first);
        let (time_step, sub_step_count) = first.unwrap_or((0.0, 0));
        let info = ReplayInfo {
            frame_count: replay.recorded_steps().count() as u64,
            worker_count: replay.world().worker_count(),
            hash_interval: recording.hash_interval(),
            time_step,
            sub_step_count,
            fixed_step,
            recorded_keyframes: replay.keyframe_records(),
            recording_bytes: recording.len(),
        };
        let mut origin = RollbackState::compact();
        let mut replay = replay;
        replay.save_rollback(&mut origin);
        let mut scratch = Vec::new();
        origin.swap_scratch(&mut scratch);
        origin.trim();
        let cursor = replay.cursor();
        let seed_generation = replay.world().structure_generation();
        let mut player = ReplayPlayer {
            replay,
            info,
            keyframes: Vec::new(),
            keyframe_bytes: 0,
            origin: Some((origin, cursor)),
            seed_generation,
            budget: DEFAULT_KEYFRAME_BUDGET,
            min_interval: DEFAULT_KEYFRAME_INTERVAL,
            interval: DEFAULT_KEYFRAME_INTERVAL,
            bodies: Vec::new(),
            seen: HashSet::new(),
            frontier: 0,
            listed_generation: None,
            scratch,
            dirty: false,
            last_bytes: 0,
            retry: None,
            built: 0,
            kept: 0,
        };
        player.list_bodies();
        Ok(player)
    }

    /// The replay (read only: step, seek and restart through the player,
    /// which keeps its key frames and body list with them).
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The replay's world.
    pub fn world(&self) -> &World {
        self.replay.world()
    }

    /// Steps replayed to reach the current state (0 = the seed).
    pub fn frame(&self) -> u64 {
        self.replay.steps()
    }

    /// Whether every record has been replayed, as [`Replay::is_at_end`]
    /// (calls recorded after the last step are records after it: at the
    /// last frame this is false until a further [`ReplayPlayer::step`]
    /// has applied them and returned `None`).
    pub fn is_at_end(&self) -> bool {
        self.replay.is_at_end()
    }

    /// The first divergence between frame 0 and the current frame, if any
    /// (the same after a seek as after stepping there from the start).
    pub fn divergence(&self) -> Option<Divergence> {
        self.replay.divergence()
    }

    /// What the recording holds.
    ///
    /// Box2D: `b2RecPlayer_GetInfo`.
    pub fn info(&self) -> ReplayInfo {
        self.info
    }

    /// Replays the next step, as [`Replay::step`], and keeps a key frame
    /// when its frame is on the key-frame grid and has none yet.
    ///
    /// # Errors
    /// As [`Replay::step`].
    pub fn step(&mut self) -> Result<Option<ReplayStep>> {
        let stepped = self.replay.step();
        // (Also after an error: the records before it may have changed it.)
        if self.origin.is_some() && self.world().structure_generation() != self.seed_generation {
            self.leave_seed_structure();
        }
        let stepped = stepped.inspect_err(|_| self.dirty = true)?;
        if let Some(s) = stepped {
            if s.step > self.frontier {
                self.list_bodies();
                self.frontier = s.step;
            }
            if s.step.is_multiple_of(self.interval) {
                self.keep_keyframe(s.step);
            }
        }
        Ok(stepped)
    }

    /// Goes back to frame 0, as [`Replay::restart`]; the key frames stay.
    ///
    /// # Errors
    /// As [`Replay::restart`].
    pub fn restart(&mut self) -> Result<()> {
        if let Some((state, cursor)) = &mut self.origin {
            state.swap_scratch(&mut self.scratch);
            let loaded = self.replay.resume_rollback(state, *cursor);
            state.swap_scratch(&mut self.scratch);
            if loaded.is_ok() {
                self.listed_generation = None;
                self.dirty = false;
                return Ok(());
            }
            self.leave_seed_structure(); // (not expected: see `step`)
        }
        self.replay.restart()?;
        self.listed_generation = None;
        self.dirty = false;
        Ok(())
    }

    /// Goes to frame `frame` (the state after that many steps; 0 is the
    /// seed), forward or backward: from the nearest key frame at or before
    /// it when the target is behind the player or that key frame is ahead
    /// of it (from frame 0 when the target is behind and no key frame is
    /// at or before it), else from where the player is, replaying the steps
    /// in between (and keeping key frames on the way). After a failed step
    /// (which may have applied some of a frame's records) every target
    /// counts as behind: the next seek starts from a key frame or frame 0.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] and nothing changed for a frame beyond
    /// [`ReplayInfo::frame_count`]; otherwise as [`ReplayPlayer::step`].
    ///
    /// Box2D: `b2RecPlayer_SeekFrame`.
    pub fn seek(&mut self, frame: u64) -> Result<()> {
        if frame > self.info.frame_count {
            return Err(Error::OutOfRange {
                what: "replay frame",
                expected: "at most the recording's frame count",
                value: frame as f32,
            });
        }
        let at = self.keyframes.partition_point(|k| k.frame() <= frame);
        let best = at.checked_sub(1);
        let current = self.frame();
        // (After a failed step the world may be between two frames.)
        let behind = frame < current || self.dirty;
        match best {
            Some(i) if behind || self.keyframes[i].frame() > current => {
                let k = &mut self.keyframes[i];
                match &mut k.saved {
                    Saved::Full(snapshot) => self.replay.resume(snapshot, k.cursor)?,
                    Saved::Rollback(state) => {
                        state.swap_scratch(&mut self.scratch);
                        let loaded = self.replay.resume_rollback(state, k.cursor);
                        state.swap_scratch(&mut self.scratch);
                        if loaded.is_err() {
                            // (Not expected: see `step`.) Again without them.
                            self.leave_seed_structure();
                            return self.seek(frame);
                        }
                    }
                }
                self.listed_generation = None;
                self.dirty = false;
            }
            None if behind => self.restart()?,
            _ => {}
        }
        while self.frame() < frame {
            if self.step()?.is_none() {
                return Err(Error::InvalidData(
                    "a recording ends before its frame count",
                ));
            }
        }
        Ok(())
    }

    /// Sets the key-frame policy: at most `budget_bytes` bytes of key
    /// frames, and key frames at least `min_interval` steps apart. The
    /// key frames kept so far are dropped and the interval starts again at
    /// `min_interval`; new ones are taken as the player steps and seeks.
    /// A single key frame larger than the whole budget is not kept (seeks
    /// then replay from the start or from where the player is).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] and nothing changed for a budget or an interval
    /// of 0.
    ///
    /// Box2D: `b2RecPlayer_SetKeyframePolicy`.
    pub fn set_keyframe_policy(&mut self, budget_bytes: usize, min_interval: u64) -> Result<()> {
        if budget_bytes == 0 {
            return Err(Error::OutOfRange {
                what: "key-frame budget",
                expected: "at least 1 byte",
                value: 0.0,
            });
        }
        if min_interval == 0 {
            return Err(Error::OutOfRange {
                what: "key-frame interval",
                expected: "at least 1 step",
                value: 0.0,
            });
        }
        self.budget = budget_bytes;
        self.min_interval = min_interval;
        self.interval = min_interval;
        self.keyframes.clear();
        self.keyframe_bytes = 0;
        self.retry = None;
        Ok(())
    }

    /// The key-frame memory budget, bytes.
    ///
    /// Box2D: `b2RecPlayer_GetKeyframeBudget`.
    pub fn keyframe_budget(&self) -> usize {
        self.budget
    }

    /// The finest key-frame spacing, steps.
    ///
    /// Box2D: `b2RecPlayer_GetKeyframeMinInterval`.
    pub fn keyframe_min_interval(&self) -> u64 {
        self.min_interval
    }

    /// The current key-frame spacing, steps: the minimum times a power of
    /// two, doubled each time the key frames outgrew the budget. A backward
    /// seek replays fewer steps than this.
    ///
    /// Box2D: `b2RecPlayer_GetKeyframeInterval`.
    pub fn keyframe_interval(&self) -> u64 {
        self.interval
    }

    /// Bytes of world state the key frames now hold (at most the budget;
    /// [`Snapshot::len`] or [`RollbackState::byte_len`] each). This is
    /// their heap too, within a few dozen bytes a key frame: a kept key
    /// frame holds no spare capacity and no scratch space. Frame 0's
    /// rollback state, kept while the structure is the seed's, is not
    /// counted (Box2D's player keeps its frame-0 image outside the budget
    /// too), nor is the one link table the player lends to each compact
    /// save and load (4 bytes per link: about 80 bytes per body in a box
    /// pyramid).
    ///
    /// Box2D: `b2RecPlayer_GetKeyframeBytes`.
    pub fn keyframe_bytes(&self) -> usize {
        self.keyframe_bytes
    }

    /// The number of key frames now held.
    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    /// The number of bodies the replay has met up to the current frame, in
    /// the order it met them (destroyed ones included): the ones in the seed
    /// in id order, then for each step the new ones after it in id order.
    /// A body created and destroyed between two steps is not met.
    ///
    /// Box2D: `b2RecPlayer_GetBodyCount`.
    pub fn body_count(&self) -> usize {
        let frame = self.frame();
        self.bodies.partition_point(|&(_, first)| first <= frame)
    }

    /// The `index`-th body met ([`ReplayPlayer::body_count`]): its id in the
    /// replay world, or `None` when it has been destroyed by the current
    /// frame.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an index of `body_count()` or more (a body
    /// not met by the current frame).
    ///
    /// Box2D: `b2RecPlayer_GetBodyId`.
    pub fn body_id(&self, index: usize) -> Result<Option<BodyId>> {
        if index >= self.body_count() {
            return Err(Error::OutOfRange {
                what: "body index",
                expected: "below the player's body count",
                value: index as f32,
            });
        }
        let id = self.bodies[index].0;
        Ok(self.world().body(id).is_ok().then_some(id))
    }

    /// Adds the bodies of the world not met yet, first met at the current
    /// frame (only when the world's structure changed since the last look).
    fn list_bodies(&mut self) {
        let world = self.replay.world();
        let generation = world.structure_generation();
        if self.listed_generation == Some(generation) {
            return;
        }
        self.listed_generation = Some(generation);
        let frame = self.replay.steps();
        for id in world.body_ids() {
            if self.seen.insert((id.index, id.generation)) {
                self.bodies.push((id, frame));
            }
        }
    }

    /// The world's structure is no longer the seed's: the rollback states
    /// load only into a world of the structure generation they were saved
    /// in, which it has left for good (generations only advance), so drop
    /// them; whole snapshots are kept from now on.
    fn leave_seed_structure(&mut self) {
        self.origin = None;
        self.last_bytes = 0; // (a snapshot is larger)
        self.retry = None;
        self.keyframes.retain(|k| matches!(k.saved, Saved::Full(_)));
        self.keyframe_bytes = self.keyframes.iter().map(|k| k.saved.bytes()).sum();
    }

    /// Keeps a key frame of the world at `frame` unless it has one, first
    /// doubling the interval (and dropping the key frames off the coarser
    /// grid) while it would go over the budget.
    ///
    /// A save is not made in vain when the last key frame's size tells: when
    /// one more of that size would go over the budget, only a frame on the
    /// doubled grid is saved (the others would be dropped at once); when one
    /// was bigger than the whole budget, the next try is twice as far on
    /// each time (so at most about log2 of the frames are saved in vain).
    fn keep_keyframe(&mut self, frame: u64) {
        let at = self.keyframes.partition_point(|k| k.frame() < frame);
        if self.keyframes.get(at).is_some_and(|k| k.frame() == frame) {
            return;
        }
        if self.retry.is_some_and(|(next, _)| frame < next) {
            return;
        }
        let doubling = self.keyframe_bytes.saturating_add(self.last_bytes) > self.budget;
        if doubling
            && self.retry.is_none()
            && !self
                .interval
                .checked_mul(2)
                .is_some_and(|wider| frame.is_multiple_of(wider))
        {
            return;
        }
        let saved = if self.origin.is_some() {
            let mut state = Box::new(RollbackState::compact());
            state.swap_scratch(&mut self.scratch);
            self.replay.save_rollback(&mut state);
            state.swap_scratch(&mut self.scratch);
            state.trim();
            Saved::Rollback(state)
        } else {
            // (A clone holds no spare capacity.)
            Saved::Full(self.replay.world().snapshot().clone())
        };
        self.built += 1;
        let bytes = saved.bytes();
        self.last_bytes = bytes;
        if bytes > self.budget {
            let gap = self.retry.map_or(self.interval, |(_, gap)| gap);
            let wider = gap.saturating_mul(2);
            self.retry = Some((frame.saturating_add(wider), wider));
            return;
        }
        self.retry = None;
        while self.keyframe_bytes + bytes > self.budget {
            let Some(wider) = self.interval.checked_mul(2) else {
                return;
            };
            self.interval = wider;
            self.keyframes.retain(|k| k.frame().is_multiple_of(wider));
            self.keyframe_bytes = self.keyframes.iter().map(|k| k.saved.bytes()).sum();
        }
        if !frame.is_multiple_of(self.interval) {
            return; // off the wider grid
        }
        let at = self.keyframes.partition_point(|k| k.frame() < frame);
        self.keyframes.insert(
            at,
            Keyframe {
                cursor: self.replay.cursor(),
                saved,
            },
        );
        self.keyframe_bytes += bytes;
        self.kept += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::{BodyDef, BodyType};
    use crate::collision::make_box;
    use crate::math::Vec2;
    use crate::shape::ShapeDef;
    use crate::world::WorldDef;

    const DT: f32 = 1.0 / 60.0;

    /// A ground and `n` boxes resting on it (settled, sleep off: every key
    /// frame is about the same size), and the boxes.
    fn resting_boxes(n: usize) -> (World, Vec<BodyId>) {
        let mut world = World::new(&WorldDef {
            enable_sleep: false,
            ..WorldDef::default()
        })
        .unwrap();
        let ground = world.create_body(&BodyDef::default()).unwrap();
        let floor = make_box(50.0, 0.5).unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &floor)
            .unwrap();
        let boxes = (0..n)
            .map(|k| {
                let body = world
                    .create_body(&BodyDef {
                        body_type: BodyType::Dynamic,
                        position: crate::pos::to_pos(Vec2::new(-20.0 + 1.5 * k as f32, 1.0)),
                        ..BodyDef::default()
                    })
                    .unwrap();
                let square = make_box(0.5, 0.5).unwrap();
                world
                    .create_polygon_shape(body, &ShapeDef::default(), &square)
                    .unwrap();
                body
            })
            .collect();
        for _ in 0..120 {
            world.step(DT, 4).unwrap();
        }
        (world, boxes)
    }

    /// A recording of `steps` steps of `resting_boxes(n)`.
    fn recording(n: usize, steps: usize) -> Recording {
        let (mut world, _) = resting_boxes(n);
        world.start_recording(1).unwrap();
        for _ in 0..steps {
            world.step(DT, 4).unwrap();
        }
        world.stop_recording().unwrap()
    }

    /// A key frame bigger than the whole budget is not built at every
    /// interval: the tries thin out (each twice as far on), so 200 frames
    /// at an interval of 1 build at most 1 + log2(200) of them.
    #[test]
    fn a_keyframe_over_the_budget_is_not_built_every_interval() {
        let mut player = ReplayPlayer::new(&recording(10, 200), 1).unwrap();
        player.set_keyframe_policy(1, 1).unwrap();
        player.seek(200).unwrap();
        assert_eq!(player.keyframe_count(), 0);
        let bound = 1 + 200f64.log2().floor() as u64;
        assert!(
            (1..=bound).contains(&player.built),
            "{} built, at most {bound}",
            player.built
        );
    }

    /// When the last key frame's size says the next one would not fit, only
    /// a frame on the doubled grid is built: none is built and then dropped
    /// off the coarser grid. With room for two and a half key frames and an
    /// interval starting at 1, the interval doubles five times in 64
    /// frames; dropping the frame that found it full (which is never on the
    /// doubled grid) would waste a save at each doubling.
    #[test]
    fn no_keyframe_is_built_off_the_doubled_grid() {
        let recording = recording(10, 64);
        let mut player = ReplayPlayer::new(&recording, 1).unwrap();
        player.set_keyframe_policy(1 << 30, 1).unwrap();
        player.seek(1).unwrap();
        let one = player.keyframe_bytes();
        let mut player = ReplayPlayer::new(&recording, 1).unwrap();
        player.set_keyframe_policy(one * 5 / 2, 1).unwrap();
        player.seek(64).unwrap();
        assert!(player.keyframe_interval() >= 16, "{player:?}");
        assert!(player.keyframe_count() >= 2, "{player:?}");
        assert_eq!(player.built, player.kept, "saves made in vain");
    }

    /// Recording bytes with a call on `body` changed to name a generation
    /// the replay world does not have (a diverged replay): replaying it
    /// fails on that call, after the records before it.
    fn misnamed(recording: &Recording, body: BodyId, velocity: Vec2) -> Recording {
        let mut call = vec![17u8]; // set_linear_velocity
        call.extend_from_slice(&body.index().to_le_bytes());
        call.extend_from_slice(&body.generation().to_le_bytes());
        call.extend_from_slice(&velocity.x.to_le_bytes());
        call.extend_from_slice(&velocity.y.to_le_bytes());
        let mut bytes = recording.as_bytes().to_vec();
        let at = bytes
            .windows(call.len())
            .position(|w| w == call)
            .expect("the call is in the recording");
        let generation = at + 5;
        bytes[generation] = bytes[generation].wrapping_add(7);
        bytes.truncate(bytes.len() - 8); // the checksum
        super::super::seal(&mut bytes);
        Recording::from_bytes(&bytes).unwrap()
    }

    /// After a step fails part-way (a call on a body before the failing one
    /// was applied), seeking to the player's frame puts the world back at
    /// that frame, from a key frame or from frame 0, rather than leaving
    /// the half-applied records in.
    #[test]
    fn a_seek_after_a_failed_step_restores() {
        let (mut world, boxes) = resting_boxes(3);
        world.start_recording(1).unwrap();
        let mut hashes = vec![world.state_hash()];
        let odd = Vec2::new(7.25, -3.5);
        for step in 0..10 {
            if step == 5 {
                let mut a = world.body_mut(boxes[0]).unwrap();
                a.set_linear_velocity(Vec2::new(0.0, 2.0)).unwrap();
                let mut b = world.body_mut(boxes[1]).unwrap();
                b.set_linear_velocity(odd).unwrap();
            }
            world.step(DT, 4).unwrap();
            hashes.push(world.state_hash());
        }
        let recording = misnamed(&world.stop_recording().unwrap(), boxes[1], odd);
        // With key frames at every frame, and with none (a 1-byte budget).
        for budget in [1 << 20, 1] {
            let mut player = ReplayPlayer::new(&recording, 1).unwrap();
            player.set_keyframe_policy(budget, 1).unwrap();
            player.seek(5).unwrap();
            assert_eq!(player.world().state_hash(), hashes[5]);
            assert!(player.step().is_err());
            assert_eq!(player.frame(), 5);
            // (The replay world's ids have its own world number.)
            let same = |id: &BodyId| id.index() == boxes[0].index();
            let box_a = player.world().body_ids().find(same).unwrap();
            let a = player.world().body(box_a).unwrap().linear_velocity();
            assert_eq!(a, Vec2::new(0.0, 2.0), "the records before the bad one");
            player.seek(5).unwrap();
            assert_eq!(player.frame(), 5);
            assert_eq!(player.world().state_hash(), hashes[5], "budget {budget}");
            assert_ne!(player.world().body(box_a).unwrap().linear_velocity(), a);
            // (Only once: a seek that restored clears it.)
            assert!(!player.dirty);
            player.seek(3).unwrap();
            assert_eq!(player.world().state_hash(), hashes[3]);
        }
    }
}
