//! The timing harness: every engine runs the same scene in one process, interleaved
//! (A B C, A B C, ...), each run from a fresh world.

use crate::desc::SceneDesc;
use crate::engine::{Counts, Engine, RunConfig, StepProfile, advance};
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

/// One engine's step times on one clock, round by round, ms.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundTimes {
    /// Mean ms per step of each round (the first step of a run is not timed,
    /// as in Box2D's benchmark).
    pub mean_ms: Vec<f64>,
    /// Per round: the 95th percentile of the per-step times, ms.
    pub p95_ms: Vec<f64>,
    /// Per round: the slowest step's time, ms.
    pub max_ms: Vec<f64>,
}

/// One engine's results on one scene.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineResult {
    /// Engine name.
    pub engine: String,
    /// Why the engine did not run, if it did not.
    pub skipped: Option<String>,
    /// Per round, by the wall clock.
    pub wall: RoundTimes,
    /// Per round, by the calling thread's CPU clock (Linux only; empty
    /// elsewhere). Unlike wall time it does not count time the thread spent
    /// descheduled, so it is steadier on a shared machine; with more than one
    /// worker it misses the workers' time.
    pub cpu: RoundTimes,
    /// The engine's own per-stage profile, mean over every timed step of every
    /// round (`None` when the engine does not measure stages).
    pub profile: Option<StepProfile>,
    /// Counts right after building.
    pub initial: Counts,
    /// Counts after the last step.
    pub last: Counts,
    /// Stability figure after the last step of the last round.
    pub stability: Option<Stability>,
}

impl EngineResult {
    /// The step times on `clock`.
    pub fn times(&self, clock: Clock) -> &RoundTimes {
        match clock {
            Clock::Wall => &self.wall,
            Clock::Cpu => &self.cpu,
        }
    }

    /// Median over rounds of the mean ms/step, or `None` if the engine did not run.
    pub fn median_ms(&self) -> Option<f64> {
        self.median_on(Clock::Wall)
    }

    /// Median over rounds of the mean thread-CPU ms/step.
    pub fn median_cpu_ms(&self) -> Option<f64> {
        self.median_on(Clock::Cpu)
    }

    /// Median ms/step on the given clock.
    pub fn median_on(&self, clock: Clock) -> Option<f64> {
        median(&self.times(clock).mean_ms)
    }

    /// Median over rounds of the 95th-percentile step time on the given clock.
    pub fn p95_on(&self, clock: Clock) -> Option<f64> {
        median(&self.times(clock).p95_ms)
    }

    /// Median over rounds of the slowest step's time on the given clock.
    pub fn max_on(&self, clock: Clock) -> Option<f64> {
        median(&self.times(clock).max_ms)
    }

    /// The share of the step spent outside parallel regions, from the engine's
    /// profile (ours only): `1 - parallel / step`. Meaningful on one thread.
    pub fn serial_fraction(&self) -> Option<f64> {
        let profile = self.profile?;
        let step = profile.stages[0];
        let parallel = profile.parallel?;
        (step > 0.0).then(|| (1.0 - parallel / step).clamp(0.0, 1.0))
    }

    /// Fastest round's mean ms/step.
    pub fn min_ms(&self) -> Option<f64> {
        self.wall.mean_ms.iter().copied().reduce(f64::min)
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

/// The `p`-quantile (0 to 1) of `values` by nearest rank: the smallest value
/// with at least `p` of the values at or below it.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (p * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Amdahl's law: the speed-up on `threads` threads of a step whose
/// `serial` fraction does not run in parallel.
pub fn amdahl(serial: f64, threads: f64) -> f64 {
    1.0 / (serial + (1.0 - serial) / threads)
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
            wall: RoundTimes::default(),
            cpu: RoundTimes::default(),
            profile: None,
            initial: Counts::default(),
            last: Counts::default(),
            stability: None,
        })
        .collect();
    let steps = steps.max(2);
    // Per engine: the profile summed over timed steps, and how many were summed.
    let mut profiles = vec![(StepProfile::default(), 0u32); engines.len()];
    let mut wall_steps = Vec::with_capacity(steps as usize);
    let mut cpu_steps = Vec::with_capacity(steps as usize);
    for round in 0..rounds.max(1) {
        for ((engine, result), (sum, summed)) in
            engines.iter().zip(results.iter_mut()).zip(&mut profiles)
        {
            if result.skipped.is_some() {
                continue;
            }
            let mut sim = engine.build(scene, config);
            result.initial = sim.counts();
            // The first step (broad-phase build, first contacts) is not timed.
            advance(sim.as_mut(), scene, 0, TIME_STEP, SUB_STEPS);
            wall_steps.clear();
            cpu_steps.clear();
            let cpu_start = thread_cpu_ms();
            let start = Instant::now();
            let (mut last_wall, mut last_cpu) = (start, cpu_start);
            for step in 1..steps {
                advance(sim.as_mut(), scene, step, TIME_STEP, SUB_STEPS);
                // Per step: both clocks (a clock read costs well under a
                // microsecond) and the engine's own profile.
                let now = Instant::now();
                wall_steps.push((now - last_wall).as_secs_f64() * 1e3);
                last_wall = now;
                let cpu = thread_cpu_ms();
                if let (Some(a), Some(b)) = (last_cpu, cpu) {
                    cpu_steps.push(b - a);
                }
                last_cpu = cpu;
                if let Some(p) = sim.profile() {
                    add_profile(sum, &p);
                    *summed += 1;
                }
            }
            let ms = start.elapsed().as_secs_f64() * 1e3 / f64::from(steps - 1);
            result.wall.mean_ms.push(ms);
            if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ms()) {
                result.cpu.mean_ms.push((b - a) / f64::from(steps - 1));
            }
            for (values, times) in [
                (&wall_steps, &mut result.wall),
                (&cpu_steps, &mut result.cpu),
            ] {
                if let Some(v) = percentile(values, 0.95) {
                    times.p95_ms.push(v);
                }
                if let Some(v) = percentile(values, 1.0) {
                    times.max_ms.push(v);
                }
            }
            result.last = sim.counts();
            result.stability = Some(measure(scene, &sim.body_states()));
            progress(engine.name(), round, ms);
        }
    }
    for (result, (sum, summed)) in results.iter_mut().zip(profiles) {
        if summed > 0 {
            let n = f64::from(summed);
            result.profile = Some(StepProfile {
                stages: sum.stages.map(|ms| ms / n),
                parallel: sum.parallel.map(|ms| ms / n),
            });
        }
    }
    SceneResult {
        scene: scene.name.clone(),
        steps,
        engines: results,
    }
}

/// Adds one step's profile to a running sum.
fn add_profile(sum: &mut StepProfile, step: &StepProfile) {
    for (s, v) in sum.stages.iter_mut().zip(&step.stages) {
        *s += v;
    }
    sum.parallel = step.parallel.map(|p| sum.parallel.unwrap_or(0.0) + p);
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
