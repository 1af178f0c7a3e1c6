//! The timing harness: every engine runs the same scene in one process, interleaved
//! (A B C, A B C, ...), each run from a fresh world.

use crate::desc::SceneDesc;
use crate::engine::{Counts, Engine, RunConfig, advance};
use crate::scenes::{SUB_STEPS, TIME_STEP};
use crate::stability::{Stability, measure};
use std::time::Instant;

/// Which clock a figure is read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// Elapsed real time.
    #[default]
    Wall,
    /// CPU time of the stepping thread.
    Cpu,
}

impl Clock {
    /// Short label for tables and charts.
    pub fn label(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "thread CPU",
        }
    }
}

/// One engine's results on one scene.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineResult {
    /// Engine name.
    pub engine: String,
    /// Why the engine did not run, if it did not.
    pub skipped: Option<String>,
    /// Mean ms per step of each round (the first step of a run is not timed, as in
    /// Box2D's benchmark).
    pub rounds_ms: Vec<f64>,
    /// Mean CPU ms per step of the calling thread in each round (Linux only; empty
    /// elsewhere). Unlike wall time it does not count time the thread spent descheduled,
    /// so it is steadier on a shared machine; with more than one worker it misses the
    /// workers' time.
    pub rounds_cpu_ms: Vec<f64>,
    /// Counts right after building.
    pub initial: Counts,
    /// Counts after the last step.
    pub last: Counts,
    /// Stability figure after the last step of the last round.
    pub stability: Option<Stability>,
}

impl EngineResult {
    /// Median over rounds of the mean ms/step, or `None` if the engine did not run.
    pub fn median_ms(&self) -> Option<f64> {
        median(&self.rounds_ms)
    }

    /// Median over rounds of the mean thread-CPU ms/step.
    pub fn median_cpu_ms(&self) -> Option<f64> {
        median(&self.rounds_cpu_ms)
    }

    /// Median ms/step on the given clock.
    pub fn median_on(&self, clock: Clock) -> Option<f64> {
        match clock {
            Clock::Wall => self.median_ms(),
            Clock::Cpu => self.median_cpu_ms(),
        }
    }

    /// Fastest round's mean ms/step.
    pub fn min_ms(&self) -> Option<f64> {
        self.rounds_ms.iter().copied().reduce(f64::min)
    }
}

/// All engines' results on one scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneResult {
    /// Scene name.
    pub scene: String,
    /// Steps per run.
    pub steps: u32,
    /// Per engine, in the order given.
    pub engines: Vec<EngineResult>,
}

impl SceneResult {
    /// The result of the named engine.
    pub fn engine(&self, name: &str) -> Option<&EngineResult> {
        self.engines.iter().find(|e| e.engine == name)
    }
}

/// Median of `values` (mean of the middle two for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    Some(if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    })
}

/// Runs `scene` for `steps` steps in each engine, `rounds` times, interleaving engines
/// within each round. `progress` is told about each finished run.
pub fn run_scene(
    scene: &SceneDesc,
    engines: &[&dyn Engine],
    steps: u32,
    rounds: u32,
    config: RunConfig,
    progress: &mut dyn FnMut(&str, u32, f64),
) -> SceneResult {
    let mut results: Vec<EngineResult> = engines
        .iter()
        .map(|e| EngineResult {
            engine: e.name().to_owned(),
            skipped: e.unsupported(scene),
            rounds_ms: Vec::new(),
            rounds_cpu_ms: Vec::new(),
            initial: Counts::default(),
            last: Counts::default(),
            stability: None,
        })
        .collect();
    let steps = steps.max(2);
    for round in 0..rounds.max(1) {
        for (engine, result) in engines.iter().zip(results.iter_mut()) {
            if result.skipped.is_some() {
                continue;
            }
            let mut sim = engine.build(scene, config);
            result.initial = sim.counts();
            // The first step (broad-phase build, first contacts) is not timed.
            advance(sim.as_mut(), scene, 0, TIME_STEP, SUB_STEPS);
            let cpu_start = thread_cpu_ms();
            let start = Instant::now();
            for step in 1..steps {
                advance(sim.as_mut(), scene, step, TIME_STEP, SUB_STEPS);
            }
            let ms = start.elapsed().as_secs_f64() * 1e3 / f64::from(steps - 1);
            result.rounds_ms.push(ms);
            if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ms()) {
                result.rounds_cpu_ms.push((b - a) / f64::from(steps - 1));
            }
            result.last = sim.counts();
            result.stability = Some(measure(scene, &sim.body_states()));
            progress(engine.name(), round, ms);
        }
    }
    SceneResult {
        scene: scene.name.clone(),
        steps,
        engines: results,
    }
}

/// CPU time consumed by the calling thread (ms), where the platform offers it.
#[cfg(target_os = "linux")]
pub fn thread_cpu_ms() -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    unsafe extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    let mut time = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable timespec (64-bit Linux layout).
    let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) } == 0;
    ok.then_some(time.tv_sec as f64 * 1e3 + time.tv_nsec as f64 * 1e-6)
}

/// CPU time consumed by the calling thread (ms), where the platform offers it.
#[cfg(not(target_os = "linux"))]
pub fn thread_cpu_ms() -> Option<f64> {
    None
}
