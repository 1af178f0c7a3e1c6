//! Worker threads for the parallel stages of a step.
//!
//! A step's parallel work is a list of *stages* run in order; each stage is
//! split into *blocks* that touch disjoint data and may run on any thread in
//! any order. [`Workers::run`] runs a whole list inside one parallel region:
//! one thread (the driver) publishes the stages one after the other and works
//! on them itself, the other workers claim blocks of whatever stage is
//! published, and the driver waits until every block of a stage is done
//! before it publishes the next. A stage of one block runs on the driver
//! without any synchronisation, so the small stages of a small scene cost
//! little more than on one thread.
//!
//! Results never depend on which thread ran a block or when: blocks of a stage
//! write disjoint data, and anything gathered per worker is merged in a fixed
//! order (or with an order-free operation such as a bitwise or).
//!
//! With one worker (the default) there are no threads and [`Workers::run`]
//! is a plain loop on the calling thread. With `n`, `n − 1` helper threads
//! are started once, with the world, and live as long as it does. The thread
//! that calls `step` drives every region itself, so a region starts at once;
//! helpers join while it is open and the driver never waits for a helper that
//! has not arrived, only for blocks already claimed. Entering and leaving a
//! region allocates nothing.
//!
//! Why not `rayon`: a region through a `rayon` pool (`install` and `join`, or
//! `in_place_scope` and `spawn`) must wait for pool threads to wake up and
//! finish their jobs, and the pool's queues allocate now and then. Measured
//! on the 2-core development machine under load, with 3 stages of 4 trivial
//! blocks on 2 workers: 15–30 µs per region through `rayon`, 0.1 µs here.
//!
//! # References
//! - E. Catto, Box2D v3 `solver.c` (`b2SolverStage`, `b2ExecuteMainStage`,
//!   `b2SolverTask`): the driver-and-workers lockstep over stages and blocks.

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::profile::Instant;

/// Tag of the published stage word once the region is over.
const DONE: u32 = u32::MAX;

/// The threads that run a step's parallel stages.
pub(crate) struct Workers {
    count: usize,
    /// `count - 1` helper threads; `None` when `count` is 1.
    team: Option<Team>,
    /// The published stage: `(stage_index + 1) << 32 | next_block`, 0 before
    /// the first stage, `DONE << 32` after the last.
    stage: AtomicU64,
    /// Blocks of the published stage that are finished.
    completed: AtomicU32,
    /// One claim word per block (see [`Region::sweep`]), for stages of at
    /// most `claims.len()` blocks (4 per worker): the serial number of the
    /// last stage whose block of that index was claimed. Empty with one
    /// worker.
    claims: Box<[Claim]>,
    /// Serial number of the last stage published (every stage of every
    /// region gets the next), so that claim words only grow.
    serial: AtomicU64,
    /// Time spent in regions since the last [`Workers::take_parallel_ms`], ns.
    region_nanos: AtomicU64,
    /// The part of it that [`Workers::note_serial`] says one thread did alone, ns.
    serial_nanos: AtomicU64,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workers")
            .field("count", &self.count)
            .finish()
    }
}

impl Workers {
    /// Makes `count` workers (1 to [`MAX_WORKERS`](crate::world::MAX_WORKERS)):
    /// a thread pool when `count > 1`.
    ///
    /// On WebAssembly without threads (`wasm32-unknown-unknown`) no thread can
    /// start: the count is 1 whatever is asked, which changes no result.
    pub(crate) fn new(count: usize) -> Result<Workers> {
        #[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
        let count = count.min(1);
        let team = if count > 1 {
            Some(Team::new(count - 1)?)
        } else {
            None
        };
        Ok(Workers {
            count,
            team,
            stage: AtomicU64::new(0),
            completed: AtomicU32::new(0),
            claims: (0..if count > 1 { 4 * count } else { 0 })
                .map(|_| Claim(AtomicU64::new(0)))
                .collect(),
            serial: AtomicU64::new(0),
            region_nanos: AtomicU64::new(0),
            serial_nanos: AtomicU64::new(0),
        })
    }

    /// Time spent inside [`Workers::run`] since the last call, less what
    /// [`Workers::note_serial`] reported, ms (for `Profile::parallel`).
    pub(crate) fn take_parallel_ms(&self) -> f32 {
        let region = self.region_nanos.swap(0, Ordering::Relaxed);
        let serial = self.serial_nanos.swap(0, Ordering::Relaxed);
        region.saturating_sub(serial) as f32 * 1e-6
    }

    /// Reports a stage of a region that one thread ran alone whatever the
    /// worker count (an overflow colour), so that it counts as serial time.
    pub(crate) fn note_serial(&self, time: std::time::Duration) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.serial_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Marks a step as running until the returned guard is dropped: between
    /// the step's regions (its serial stretches, tens to hundreds of µs) the
    /// helpers spin and yield rather than park, so each region finds them
    /// awake instead of waiting for the operating system to wake them.
    /// Between steps they park as before.
    pub(crate) fn stepping(&self) -> Stepping {
        let shared = self.team.as_ref().map(|team| Arc::clone(&team.shared));
        if let Some(shared) = &shared {
            shared.stepping.store(true, Ordering::Relaxed);
        }
        Stepping(shared)
    }

    /// Number of workers (the driving thread included).
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// Items per block for a stage of `items` items: everything in one block
    /// with one worker; otherwise about four blocks per worker, each of at
    /// least `min_block` items (so that a small stage stays one block and runs
    /// without synchronisation).
    pub(crate) fn block_size(&self, items: usize, min_block: usize) -> usize {
        if self.count == 1 {
            return items.max(1);
        }
        items.div_ceil(4 * self.count).max(min_block).max(1)
    }

    /// Runs one stage of `items` items in blocks of at least `min_block`
    /// (see [`Workers::block_size`]): `exec(start..end, worker)` per block.
    pub(crate) fn for_each_block<E>(&self, items: usize, min_block: usize, exec: E)
    where
        E: Fn(std::ops::Range<usize>, usize) + Sync,
    {
        let block_size = self.block_size(items, min_block);
        self.run(
            &[items.div_ceil(block_size) as u32],
            |&blocks| blocks,
            |_, block, worker| {
                let start = block as usize * block_size;
                exec(start..(start + block_size).min(items), worker);
            },
            |_| {},
        );
    }

    /// Runs `stages` in order. Stage `s` has `blocks(s)` blocks, each run once
    /// as `exec(s, block, worker)` with `worker` in `0..count()`; all blocks
    /// of a stage finish before any block of the next starts. `after(s)` runs
    /// on the driving thread when stage `s` is done (for timing).
    ///
    /// `exec` must make blocks of one stage touch disjoint data; that is
    /// what makes the result independent of the threads.
    ///
    /// The time spent here counts as parallel time (see
    /// [`Workers::take_parallel_ms`]).
    pub(crate) fn run<S, B, E, A>(&self, stages: &[S], blocks: B, exec: E, after: A)
    where
        S: Sync,
        B: Fn(&S) -> u32 + Sync,
        E: Fn(&S, u32, usize) + Sync,
        A: FnMut(&S),
    {
        self.run_beside(stages, blocks, exec, after, None);
    }

    /// [`Workers::run`], and `side` once, beside the stages: the first
    /// helper that runs out of stage work (every block of the published
    /// stage claimed, or a one-block stage on the driver) runs it, so the
    /// first stages still get every thread that arrived; the driver runs it
    /// after the last stage if no helper took it (always, with one worker).
    /// `side` must touch nothing the stages touch; it is done when this
    /// returns. Box2D runs its tree rebuild so, as a task beside the solver.
    pub(crate) fn run_beside<S, B, E, A>(
        &self,
        stages: &[S],
        blocks: B,
        exec: E,
        after: A,
        side: Option<&(dyn Fn() + Sync)>,
    ) where
        S: Sync,
        B: Fn(&S) -> u32 + Sync,
        E: Fn(&S, u32, usize) + Sync,
        A: FnMut(&S),
    {
        let mut after = after;
        self.run_alone(|| {
            let Some(team) = &self.team else {
                for s in stages {
                    for b in 0..blocks(s) {
                        exec(s, b, 0);
                    }
                    after(s);
                }
                if let Some(side) = side {
                    side();
                }
                return;
            };
            // No helper of an earlier region is still inside one (closing a
            // region waits for them), so the stage word is free to reset.
            self.stage.store(0, Ordering::Relaxed);
            // Serial numbers base + 1 ..= base + stages.len() for this region's stages.
            let base = self
                .serial
                .fetch_add(stages.len() as u64, Ordering::Relaxed);
            let region = Region {
                stages,
                blocks: &blocks,
                exec: &exec,
                stage: &self.stage,
                completed: &self.completed,
                claims: &self.claims,
                base,
                workers: self.count,
                side,
                side_taken: AtomicBool::new(false),
                driver_alone: AtomicBool::new(false),
            };
            team.region(&|w| region.work(w), || region.drive(&mut after));
        });
    }

    /// Runs `f` on this thread, counting its time as parallel: for a stage
    /// that splits into blocks on several workers but is one call on one.
    pub(crate) fn run_alone<R>(&self, f: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let result = f();
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.region_nanos.fetch_add(nanos, Ordering::Relaxed);
        result
    }
}

/// What the threads of one [`Workers::run`] share.
struct Region<'a, S, B, E> {
    stages: &'a [S],
    blocks: &'a B,
    exec: &'a E,
    stage: &'a AtomicU64,
    completed: &'a AtomicU32,
    /// The claim words ([`Workers::claims`]).
    claims: &'a [Claim],
    /// Stage `i` of this region has serial number `base + i + 1`.
    base: u64,
    /// Number of workers.
    workers: usize,
    /// The task beside the stages (see [`Workers::run_beside`]), and
    /// whether a thread took it.
    side: Option<&'a (dyn Fn() + Sync)>,
    side_taken: AtomicBool,
    /// Set when the driver runs a stage on its own before it has published
    /// any: until then a helper with nothing to claim cannot tell a driver
    /// that is merely late (the side task must wait for the first stage)
    /// from one busy alone (the side task may start).
    driver_alone: AtomicBool,
}

impl<S, B, E> Region<'_, S, B, E>
where
    S: Sync,
    B: Fn(&S) -> u32 + Sync,
    E: Fn(&S, u32, usize) + Sync,
{
    /// Runs the task beside the stages unless another thread took it.
    fn take_side(&self) {
        if let Some(side) = self.side
            && !self.side_taken.load(Ordering::Relaxed)
            && !self.side_taken.swap(true, Ordering::Relaxed)
        {
            side();
        }
    }

    /// The driver: publishes each stage, works on it and waits for it; then
    /// runs the task beside the stages if no helper took it (closing the
    /// region waits for a helper that did).
    fn drive(&self, after: &mut impl FnMut(&S)) {
        self.drive_stages(after);
        self.take_side();
    }

    /// The stages of [`Region::drive`].
    fn drive_stages(&self, after: &mut impl FnMut(&S)) {
        // Ends the region for the workers when the stages are done, or when
        // a block on this thread panics (they would wait for a stage forever).
        let _done = EndStages(self.stage);
        for (index, s) in self.stages.iter().enumerate() {
            let count = (self.blocks)(s);
            if count > 1 {
                self.completed.store(0, Ordering::Relaxed);
                let tag = (index as u64 + 1) << 32;
                // Release: the workers see everything earlier stages wrote.
                self.stage.store(tag, Ordering::Release);
                if self.by_claim_words(count) {
                    self.sweep(s, index, count, 0);
                } else {
                    loop {
                        let claim = self.stage.fetch_add(1, Ordering::Acquire);
                        debug_assert_eq!(claim >> 32, tag >> 32);
                        let block = claim as u32;
                        if block >= count {
                            break;
                        }
                        (self.exec)(s, block, 0);
                        self.completed.fetch_add(1, Ordering::Release);
                    }
                }
                let mut backoff = Backoff::default();
                // Acquire: this thread sees what the other workers wrote.
                while self.completed.load(Ordering::Acquire) < count {
                    backoff.snooze();
                }
            } else {
                self.driver_alone.store(true, Ordering::Relaxed);
                if count == 1 {
                    (self.exec)(s, 0, 0);
                }
            }
            after(s);
        }
    }

    /// Whether a stage of `count` blocks is claimed through the claim words
    /// (see [`Region::sweep`]) rather than the stage word's block counter.
    fn by_claim_words(&self, count: u32) -> bool {
        count as usize <= self.claims.len()
    }

    /// Claims and runs blocks of stage `index` (`count` blocks). Worker `w`
    /// of `n` owns about `count / n` consecutive blocks starting near
    /// `w · count / n`, as in Box2D's solver (`GetWorkerStartIndex`): it runs
    /// its own blocks first, front to back, then goes backwards from the block
    /// before its own through the other workers' blocks, taking each one whose
    /// claim word is still below the stage's serial number. Each worker thus
    /// mostly runs the same blocks of every stage of a colour, substep after
    /// substep, and finds their bodies in its own cache; a worker that is late
    /// or absent leaves its blocks to the others, who take them from the back
    /// while it works from the front. A worker that read an earlier stage's
    /// word claims nothing: every block of that stage was claimed before the
    /// next was published, and claim words only grow.
    fn sweep(&self, s: &S, index: usize, count: u32, worker: usize) {
        let count = count as usize;
        let (start, own) = own_blocks(count, self.workers, worker);
        if own == 0 {
            return;
        }
        let serial = self.base + index as u64 + 1;
        for i in 0..count {
            let block = if i < own {
                start + i
            } else {
                (start + count - 1 - (i - own)) % count
            };
            let word = &self.claims[block].0;
            if word.load(Ordering::Relaxed) < serial
                && word.fetch_max(serial, Ordering::Acquire) < serial
            {
                // Counted even if `exec` panics (see `work`).
                let _done = Completion(self.completed);
                (self.exec)(s, block as u32, worker);
            }
        }
    }

    /// A worker: claims blocks of the published stage until the region
    /// ends; the first time it finds nothing to claim for longer than a
    /// short spin (the driver finishing a stage's last blocks, or running a
    /// one-block stage), it takes the task beside the stages if no other
    /// thread did.
    fn work(&self, worker: usize) {
        let mut backoff = Backoff::default();
        // The last stage this worker swept by claim words (0: none).
        let mut swept = 0u32;
        loop {
            let seen = self.stage.load(Ordering::Acquire);
            let tag = (seen >> 32) as u32;
            if tag == DONE {
                return;
            }
            let count = match tag {
                0 => 0,
                _ => (self.blocks)(&self.stages[tag as usize - 1]),
            };
            let by_words = tag != 0 && self.by_claim_words(count);
            if by_words && swept != tag {
                swept = tag;
                let index = tag as usize - 1;
                self.sweep(&self.stages[index], index, count, worker);
                backoff = Backoff::default();
                continue;
            }
            if tag == 0 || by_words || seen as u32 >= count {
                // Before the first published stage (tag 0) only if the driver
                // is running a stage alone, not merely late to publish one.
                if backoff.spun_out() && (tag != 0 || self.driver_alone.load(Ordering::Relaxed)) {
                    self.take_side();
                }
                backoff.snooze();
                continue;
            }
            // The claim says which stage it belongs to: the driver may have
            // published the next stage since the load above.
            let claim = self.stage.fetch_add(1, Ordering::Acquire);
            let tag = (claim >> 32) as u32;
            if tag == DONE {
                return;
            }
            if tag == 0 {
                continue;
            }
            let s = &self.stages[tag as usize - 1];
            let block = claim as u32;
            if block < (self.blocks)(s) {
                // Counted even if `exec` panics, so that the driver never
                // waits forever (`join` then passes the panic on).
                let _done = Completion(self.completed);
                (self.exec)(s, block, worker);
                backoff = Backoff::default();
            }
        }
    }
}

/// Helper threads that join the regions of the thread that owns them.
///
/// A region is a closure every helper runs once if it arrives while the
/// region is open; the owner works meanwhile and closes the region when its
/// own part is done. Helpers that arrive late skip it, so the owner never
/// waits for a helper that the operating system has not scheduled yet; it
/// only waits for helpers already inside. Between regions helpers spin a
/// little, then park.
struct Team {
    shared: Arc<TeamShared>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

struct TeamShared {
    /// Odd while a region is open; each open and close adds one.
    generation: AtomicU64,
    /// Helpers inside the open region.
    inside: AtomicU32,
    /// The open region's closure: a `*const &(dyn Fn(usize) + Sync)`.
    work: AtomicPtr<()>,
    shutdown: AtomicBool,
    /// Set when a helper's closure panicked.
    panicked: AtomicBool,
    /// Set while a step runs ([`Workers::stepping`]): an idle helper then
    /// keeps spinning and yielding instead of parking, since the next region
    /// is at most one serial stretch of the step away.
    stepping: AtomicBool,
}

/// The closure of a region, as the helpers see it.
type RegionFn<'a> = &'a (dyn Fn(usize) + Sync);

impl Team {
    fn new(helpers: usize) -> Result<Team> {
        let shared = Arc::new(TeamShared {
            generation: AtomicU64::new(0),
            inside: AtomicU32::new(0),
            work: AtomicPtr::new(std::ptr::null_mut()),
            shutdown: AtomicBool::new(false),
            panicked: AtomicBool::new(false),
            stepping: AtomicBool::new(false),
        });
        let mut team = Team {
            shared,
            threads: Vec::with_capacity(helpers),
        };
        for index in 1..=helpers {
            let shared = Arc::clone(&team.shared);
            let thread = std::thread::Builder::new()
                .name(format!("impulse2d-worker-{index}"))
                .spawn(move || shared.helper(index))
                .map_err(|_| Error::InvalidOperation("cannot start the worker threads"))?;
            team.threads.push(thread);
        }
        Ok(team)
    }

    /// Runs `owner` here while the helpers that arrive in time run
    /// `work(index)` (index 1, 2, …); returns when `owner` is done and no
    /// helper is inside `work`.
    #[allow(unsafe_code)]
    fn region(&self, work: RegionFn<'_>, owner: impl FnOnce()) {
        let shared = &*self.shared;
        let generation = shared.generation.load(Ordering::Relaxed);
        debug_assert!(generation.is_multiple_of(2), "regions do not nest");
        shared
            .work
            .store(&work as *const RegionFn<'_> as *mut (), Ordering::Relaxed);
        // Closes the region even if `owner` panics: `work` lives on this
        // stack frame and must not be used once it returns.
        let _close = CloseRegion(shared);
        shared.generation.store(generation + 1, Ordering::SeqCst);
        for thread in &self.threads {
            thread.thread().unpark();
        }
        owner();
    }
}

/// A running step ([`Workers::stepping`]); dropping it ends the step for the
/// helpers, who park again when idle.
pub(crate) struct Stepping(Option<Arc<TeamShared>>);

impl Drop for Stepping {
    fn drop(&mut self) {
        if let Some(shared) = &self.0 {
            shared.stepping.store(false, Ordering::Relaxed);
        }
    }
}

/// Closes a [`Team`] region when dropped: no helper may enter it afterwards,
/// and the helpers inside have left when the drop returns.
struct CloseRegion<'a>(&'a TeamShared);

impl Drop for CloseRegion<'_> {
    fn drop(&mut self) {
        let shared = self.0;
        shared.generation.fetch_add(1, Ordering::SeqCst);
        // A helper announces itself in `inside` before checking that the
        // region is still open (both sequentially consistent): either it
        // sees the region closed and leaves, or this load sees it inside.
        let mut backoff = Backoff::default();
        while shared.inside.load(Ordering::SeqCst) != 0 {
            backoff.snooze();
        }
        if shared.panicked.swap(false, Ordering::Relaxed) && !std::thread::panicking() {
            panic!("a worker thread panicked");
        }
    }
}

impl TeamShared {
    /// A helper thread's life: join each region that it sees open.
    #[allow(unsafe_code)]
    fn helper(&self, index: usize) {
        let mut joined = 0u64;
        let mut idle = 0u32;
        while !self.shutdown.load(Ordering::Acquire) {
            let generation = self.generation.load(Ordering::SeqCst);
            if generation % 2 == 1 && generation != joined {
                joined = generation;
                idle = 0;
                self.inside.fetch_add(1, Ordering::SeqCst);
                if self.generation.load(Ordering::SeqCst) == generation {
                    let work = self.work.load(Ordering::Relaxed) as *const RegionFn<'_>;
                    // SAFETY: the region is open (checked after announcing
                    // this helper in `inside`), so the owner is inside
                    // `Team::region`, whose stack frame holds the closure
                    // reference `work` points to; it stays there until the
                    // region is closed and `inside` is back to zero, which
                    // cannot happen before this helper leaves below.
                    let work = unsafe { *work };
                    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        work(index);
                    }));
                    if run.is_err() {
                        self.panicked.store(true, Ordering::Relaxed);
                    }
                }
                self.inside.fetch_sub(1, Ordering::SeqCst);
            } else if idle < 64 || self.stepping.load(Ordering::Relaxed) {
                Backoff(idle.min(6)).snooze();
                idle = idle.saturating_add(1);
            } else {
                std::thread::park();
            }
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::Release);
        for thread in self.threads.drain(..) {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// The blocks worker `worker` of `workers` runs first in a stage of `count`
/// blocks claimed through the claim words (see [`Region::sweep`]): `own`
/// blocks from `start`, `(start, own)`. With fewer blocks than workers,
/// worker `w < count` owns block `w` and the others none; otherwise the
/// blocks split into runs of consecutive blocks, the first runs one longer.
pub(crate) fn own_blocks(count: usize, workers: usize, worker: usize) -> (usize, usize) {
    if count <= workers {
        return (worker, usize::from(worker < count));
    }
    let share = count / workers;
    let extra = count - share * workers;
    (
        share * worker + extra.min(worker),
        share + usize::from(worker < extra),
    )
}

/// A block's claim word, alone in its cache line so that workers claiming
/// neighbouring blocks do not contend for the line.
#[repr(align(64))]
struct Claim(AtomicU64);

/// Publishes the end of the stages when dropped.
struct EndStages<'a>(&'a AtomicU64);

impl Drop for EndStages<'_> {
    fn drop(&mut self) {
        self.0.store((DONE as u64) << 32, Ordering::Release);
    }
}

/// Marks a claimed block finished when dropped.
struct Completion<'a>(&'a AtomicU32);

impl Drop for Completion<'_> {
    fn drop(&mut self) {
        // Release: the driver's acquire load sees the block's writes.
        self.0.fetch_add(1, Ordering::Release);
    }
}

/// Spin a little, then give the core away: the machine may have fewer cores
/// than workers, and a worker spinning on the core its driver needs would
/// stall both.
#[derive(Default)]
struct Backoff(u32);

impl Backoff {
    /// Whether the spinning is over (the next snooze yields the core).
    fn spun_out(&self) -> bool {
        self.0 >= 6
    }

    fn snooze(&mut self) {
        if self.0 < 6 {
            for _ in 0..(1 << self.0) {
                std::hint::spin_loop();
            }
            self.0 += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// A mutable slice that the blocks of a stage share, each touching only its
/// own elements. Made from a `&mut [T]`, which it borrows for its lifetime.
pub(crate) struct SharedMut<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `SharedMut` is only a way to hand out disjoint parts of a
// `&mut [T]` to several threads (each access is `unsafe` and states why it is
// disjoint), so it may cross threads when `&mut T` may.
unsafe impl<T: Send> Send for SharedMut<'_, T> {}
// SAFETY: as above; shared use only hands out disjoint `&mut` parts.
unsafe impl<T: Send> Sync for SharedMut<'_, T> {}

impl<T> Clone for SharedMut<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SharedMut<'_, T> {}

impl<'a, T> SharedMut<'a, T> {
    /// Shares `slice` among the blocks of a stage.
    pub(crate) fn new(slice: &'a mut [T]) -> Self {
        SharedMut {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _borrow: PhantomData,
        }
    }

    /// An empty slice.
    pub(crate) fn empty() -> Self {
        SharedMut {
            ptr: std::ptr::NonNull::dangling().as_ptr(),
            len: 0,
            _borrow: PhantomData,
        }
    }

    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Elements `start..end`.
    ///
    /// # Safety
    /// No other thread may use any of these elements while the result lives
    /// (blocks of one stage take disjoint ranges).
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn range(&self, start: usize, end: usize) -> &'a mut [T] {
        assert!(start <= end && end <= self.len, "range out of bounds");
        // SAFETY: in bounds (checked); exclusive by the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start), end - start) }
    }

    /// Where element `index` is (or would be, past the end), for a prefetch
    /// hint only: no access, so no promise needed.
    pub(crate) fn at(&self, index: usize) -> *const T {
        self.ptr.wrapping_add(index)
    }

    /// Element `index`.
    ///
    /// # Safety
    /// No other thread may use this element while the result lives.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn get(&self, index: usize) -> &'a mut T {
        assert!(index < self.len, "index out of bounds");
        // SAFETY: in bounds (checked); exclusive by the caller's promise.
        unsafe { &mut *self.ptr.add(index) }
    }

    /// Element `index`, to read.
    ///
    /// # Safety
    /// No other thread may write this element while the result lives.
    pub(crate) unsafe fn get_shared(&self, index: usize) -> &'a T {
        assert!(index < self.len, "index out of bounds");
        // SAFETY: in bounds (checked); unwritten by the caller's promise.
        unsafe { &*self.ptr.add(index) }
    }

    /// The whole slice, for a block that reaches its elements by index.
    ///
    /// # Safety
    /// While the result lives, every element this thread writes must be
    /// untouched by the other threads, and every element it reads must be
    /// unwritten by them. The slices of different threads overlap as ranges
    /// of memory but never in an element one of them writes.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn whole(&self) -> &'a mut [T] {
        // SAFETY: the pointer and length come from a live `&'a mut [T]`;
        // element-wise exclusivity is the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block of every stage runs exactly once, after the previous
    /// stage is done, on any worker count.
    #[test]
    fn stages_run_in_order_and_blocks_once() {
        for count in [1, 2, 3, 4] {
            let workers = Workers::new(count).unwrap();
            // (first cell, block count) per stage.
            let counts = [1u32, 7, 0, 3, 64, 1, 5];
            let stages: Vec<(u32, u32)> = counts
                .iter()
                .scan(0, |first, &n| {
                    *first += n;
                    Some((*first - n, n))
                })
                .collect();
            let mut cells = vec![0u32; counts.iter().sum::<u32>() as usize];
            let shared = SharedMut::new(&mut cells);
            let mut done = 0;
            for _ in 0..20 {
                workers.run(
                    &stages,
                    |&(_, n)| n,
                    |&(first, _), block, worker| {
                        assert!(worker < count);
                        // SAFETY: each (stage, block) pair owns one cell.
                        let cell = unsafe { shared.get((first + block) as usize) };
                        *cell += 1;
                    },
                    |_| done += 1,
                );
            }
            assert!(cells.iter().all(|&c| c == 20), "{count} workers: {cells:?}");
            assert_eq!(done, 20 * stages.len());
        }
    }

    /// A stage sees everything the stage before it wrote, whether its blocks
    /// are claimed through the claim words (at most 4 per worker: blocks of
    /// 250 and 125) or through the stage word's counter (blocks of 10).
    #[test]
    fn stages_see_earlier_writes() {
        for block in [10usize, 125, 250] {
            stages_see_earlier_writes_in_blocks_of(block);
        }
    }

    fn stages_see_earlier_writes_in_blocks_of(block: usize) {
        let workers = Workers::new(4).unwrap();
        let n = 1000usize;
        let mut values = vec![0u64; n];
        let shared = SharedMut::new(&mut values);
        let stages: Vec<u32> = (0..50).collect();
        workers.run(
            &stages,
            |_| (n / block) as u32,
            |&s, b, _| {
                let b = b as usize;
                // SAFETY: block `b` reads and writes only its own elements
                // b*block..(b+1)*block.
                let all = unsafe { shared.whole() };
                for value in &mut all[b * block..(b + 1) * block] {
                    if s % 2 == 0 {
                        *value += 1;
                    } else {
                        assert_eq!(*value, (s as u64).div_ceil(2));
                    }
                }
            },
            |_| {},
        );
        assert!(values.iter().all(|&v| v == 25));
    }

    /// Helper threads take blocks when the blocks are slow enough for them
    /// to arrive.
    #[test]
    fn helpers_take_part() {
        let workers = Workers::new(2).unwrap();
        let by_helper = AtomicU32::new(0);
        workers.run(
            &[40u32],
            |&n| n,
            |_, _, worker| {
                std::thread::sleep(std::time::Duration::from_millis(1));
                if worker == 1 {
                    by_helper.fetch_add(1, Ordering::Relaxed);
                }
            },
            |_| {},
        );
        assert!(by_helper.load(Ordering::Relaxed) > 0);
    }

    /// The task beside the stages runs exactly once per region and is done
    /// when the region returns, on any worker count, with or without stages;
    /// every block still runs once.
    #[test]
    fn the_side_task_runs_once_beside_the_stages() {
        for count in [1, 2, 4] {
            let workers = Workers::new(count).unwrap();
            for stages in [&[][..], &[3u32, 0, 9, 1][..]] {
                let side_runs = AtomicU32::new(0);
                let blocks = AtomicU32::new(0);
                let side = || {
                    std::thread::sleep(std::time::Duration::from_micros(300));
                    side_runs.fetch_add(1, Ordering::Relaxed);
                };
                for i in 1..=10 {
                    workers.run_beside(
                        stages,
                        |&n| n,
                        |_, _, _| {
                            blocks.fetch_add(1, Ordering::Relaxed);
                        },
                        |_| {},
                        Some(&side),
                    );
                    assert_eq!(side_runs.load(Ordering::Relaxed), i, "{count} workers");
                }
                let per_region: u32 = stages.iter().sum();
                assert_eq!(blocks.load(Ordering::Relaxed), 10 * per_region);
            }
        }
    }

    /// The task beside the stages waits until a thread runs out of stage
    /// work: it starts only once every block of the (only) stage is claimed,
    /// and the helpers took part in that stage first.
    #[test]
    fn the_side_task_waits_for_idle_stage_work() {
        for count in [2, 4] {
            let workers = Workers::new(count).unwrap();
            let claimed = AtomicU32::new(0);
            let by_helpers = AtomicU32::new(0);
            let claimed_at_side = AtomicU32::new(u32::MAX);
            let side = || {
                claimed_at_side.store(claimed.load(Ordering::SeqCst), Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(2));
            };
            workers.run_beside(
                &[40u32],
                |&n| n,
                |_, _, worker| {
                    claimed.fetch_add(1, Ordering::SeqCst);
                    if worker != 0 {
                        by_helpers.fetch_add(1, Ordering::SeqCst);
                    } else {
                        // The driver waits (within reason) for a helper to
                        // take a block, however slowly the helpers wake on
                        // a loaded machine.
                        let start = std::time::Instant::now();
                        while by_helpers.load(Ordering::SeqCst) == 0
                            && start.elapsed() < std::time::Duration::from_secs(5)
                        {
                            std::thread::yield_now();
                        }
                    }
                    std::thread::sleep(std::time::Duration::from_micros(500));
                },
                |_| {},
                Some(&side),
            );
            // Every block was claimed first; a thread may have claimed one
            // and not yet counted it when another took the side task.
            let at_side = claimed_at_side.load(Ordering::SeqCst);
            assert!(
                (40 - (count as u32 - 1)..=40).contains(&at_side),
                "{count} workers: side task after {at_side} blocks"
            );
            assert!(by_helpers.load(Ordering::Relaxed) > 0, "{count} workers");
        }
    }

    /// A panic in a block reaches the caller, and the workers still work.
    #[test]
    fn a_panicking_block_panics_the_caller() {
        let workers = Workers::new(3).unwrap();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            workers.run(
                &[64u32],
                |&n| n,
                |_, block, _| {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                    assert!(block != 33, "block 33");
                },
                |_| {},
            );
        }));
        assert!(run.is_err());
        let done = AtomicU32::new(0);
        workers.run(
            &[10u32, 10],
            |&n| n,
            |_, _, _| {
                done.fetch_add(1, Ordering::Relaxed);
            },
            |_| {},
        );
        assert_eq!(done.load(Ordering::Relaxed), 20);
    }
}
