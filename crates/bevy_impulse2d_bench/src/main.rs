//! Box2D's large pyramid (base 100: 5,050 one-metre boxes on a 200 m ground, sleeping
//! off, gravity 10 m/s²) in a headless Bevy 0.19 app (`MinimalPlugins`) with each physics
//! plugin: ours (`bevy_impulse2d`), avian2d and bevy_rapier2d, all at a 60 Hz fixed step
//! on one thread (no `multi_threaded` Bevy feature, no engine `parallel` feature). Also
//! `impulse2d::World` alone, without Bevy, to show what the plugin adds.
//!
//! Each `App::update` advances the virtual clock by exactly one fixed timestep
//! (`TimeUpdateStrategy::ManualDuration`), so it runs one fixed step; a counter in
//! `FixedLast` checks that. The time per update is measured as the thread's CPU time
//! (everything runs on the main thread) and as wall time. Engines run in interleaved
//! rounds (A B C A B C ...); the table gives the median of the rounds.
//!
//! `cargo run --release -- [--base N] [--warmup N] [--steps N] [--rounds N] [--only NAME]`

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;

const HZ: f64 = 60.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// `impulse2d::World` stepped directly (no Bevy).
    WorldAlone,
    /// `bevy_impulse2d`, 4 substeps (its default).
    Ours,
    /// avian2d with its default 6 substeps.
    Avian,
    /// avian2d with 4 substeps (as ours).
    Avian4,
    /// bevy_rapier2d with its defaults (4 solver iterations).
    Rapier,
}

impl Engine {
    const ALL: [Engine; 5] = [
        Engine::WorldAlone,
        Engine::Ours,
        Engine::Avian,
        Engine::Avian4,
        Engine::Rapier,
    ];

    fn name(self) -> &'static str {
        match self {
            Engine::WorldAlone => "impulse2d World alone (no Bevy), 4 substeps",
            Engine::Ours => "bevy_impulse2d 0.1, 4 substeps",
            Engine::Avian => "avian2d 0.7, 6 substeps (default)",
            Engine::Avian4 => "avian2d 0.7, 4 substeps",
            Engine::Rapier => "bevy_rapier2d 0.36, 4 iterations (default)",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Engine::WorldAlone => "world",
            Engine::Ours => "ours",
            Engine::Avian => "avian",
            Engine::Avian4 => "avian4",
            Engine::Rapier => "rapier",
        }
    }
}

/// The thread's CPU time.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write into.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Box2D's large pyramid arithmetic, bottom row first (the scenes crate's, so every engine
/// gets the same positions).
fn box_positions(base: usize) -> Vec<Vec2> {
    impulse2d_scenes::benchmarks::large_pyramid_box_positions(base)
        .into_iter()
        .map(|p| Vec2::new(p.x, p.y))
        .collect()
}

/// The ground (its top at y = 0) and the boxes, each with `boxed()`; the last box gets
/// [`Top`].
fn spawn_pyramid<G: Bundle, B: Bundle>(
    app: &mut App,
    base: usize,
    ground: G,
    boxed: impl Fn() -> B,
) {
    let world = app.world_mut();
    world.spawn((ground, Transform::from_xyz(0.0, -1.0, 0.0)));
    let positions = box_positions(base);
    let last = positions.len() - 1;
    for (i, p) in positions.into_iter().enumerate() {
        let mut e = world.spawn((boxed(), Transform::from_xyz(p.x, p.y, 0.0)));
        if i == last {
            e.insert(Top);
        }
    }
}

/// Fixed steps run so far (incremented in `FixedLast`).
#[derive(Resource, Default)]
struct FixedSteps(u64);

fn count_steps(mut steps: ResMut<FixedSteps>) {
    steps.0 += 1;
}

/// The top box, whose height tells whether the pyramid still stands.
#[derive(Component)]
struct Top;

/// One engine's run: something that does one fixed step, and the top box's height.
trait Run {
    fn step(&mut self);
    fn steps(&self) -> u64;
    fn top_height(&mut self) -> f32;
}

struct BevyRun(App);

impl Run for BevyRun {
    fn step(&mut self) {
        self.0.update();
    }
    fn steps(&self) -> u64 {
        self.0.world().resource::<FixedSteps>().0
    }
    fn top_height(&mut self) -> f32 {
        let world = self.0.world_mut();
        let mut q = world.query_filtered::<&Transform, With<Top>>();
        q.single(world).map_or(f32::NAN, |t| t.translation.y)
    }
}

fn bevy_app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    let timestep = Time::<Fixed>::from_hz(HZ).timestep();
    app.insert_resource(Time::<Fixed>::from_duration(timestep))
        .insert_resource(TimeUpdateStrategy::ManualDuration(timestep))
        .init_resource::<FixedSteps>()
        .add_systems(FixedLast, count_steps);
    app
}

/// A headless app whose `plugin` adds and sets up a physics plugin, and, once the app
/// is finished and `ready` has run, the pyramid: `ground` and a `boxed()` per box.
fn bevy_run<G: Bundle, B: Bundle>(
    base: usize,
    plugin: impl FnOnce(&mut App),
    ready: impl FnOnce(&mut App),
    ground: G,
    boxed: impl Fn() -> B,
) -> BevyRun {
    let mut app = bevy_app();
    plugin(&mut app);
    app.finish();
    app.cleanup();
    ready(&mut app);
    spawn_pyramid(&mut app, base, ground, boxed);
    BevyRun(app)
}

fn ours(base: usize) -> BevyRun {
    use bevy_impulse2d::prelude::*;
    let settings = PhysicsSettings {
        gravity: Vec2::new(0.0, -10.0),
        substeps: 4,
        worker_count: Some(1),
        // Keep the Transform the last step wrote (no interpolation), like the others.
        interpolate: false,
        enabled: true,
    };
    let plugin = |app: &mut App| {
        app.add_plugins(Impulse2dPlugin { hz: HZ })
            .insert_resource(settings);
    };
    let ground = (RigidBody::Static, Collider::rectangle(200.0, 2.0));
    let boxed = || {
        (
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            SleepingAllowed(false),
        )
    };
    bevy_run(base, plugin, |_| {}, ground, boxed)
}

fn avian(base: usize, substeps: u32) -> BevyRun {
    use avian2d::prelude::*;
    let plugin = |app: &mut App| {
        app.add_plugins(PhysicsPlugins::default())
            .insert_resource(Gravity(Vec2::new(0.0, -10.0)))
            .insert_resource(SubstepCount(substeps));
    };
    let ground = (RigidBody::Static, Collider::rectangle(200.0, 2.0));
    let boxed = || {
        (
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            SleepingDisabled,
        )
    };
    bevy_run(base, plugin, |_| {}, ground, boxed)
}

fn rapier(base: usize) -> BevyRun {
    use bevy_rapier2d::prelude::*;
    let plugin = |app: &mut App| {
        app.add_plugins(RapierPhysicsPlugin::<NoUserData>::default().in_fixed_schedule())
            .insert_resource(TimestepMode::Fixed {
                dt: (1.0 / HZ) as f32,
                substeps: 1,
            });
    };
    // The context entity is spawned in PreStartup: run the startup schedules with a
    // first update (it advances no time, so it runs no fixed step), then set gravity.
    let ready = |app: &mut App| {
        app.update();
        let world = app.world_mut();
        let mut q = world.query::<&mut RapierConfiguration>();
        for mut config in q.iter_mut(world) {
            config.gravity = Vec2::new(0.0, -10.0);
        }
    };
    let ground = (RigidBody::Fixed, Collider::cuboid(100.0, 1.0));
    let boxed = || {
        (
            RigidBody::Dynamic,
            Collider::cuboid(0.5, 0.5),
            Sleeping::disabled(),
        )
    };
    bevy_run(base, plugin, ready, ground, boxed)
}

struct WorldRun {
    world: impulse2d::World,
    top: impulse2d::BodyId,
    steps: u64,
}

impl Run for WorldRun {
    fn step(&mut self) {
        self.world.step((1.0 / HZ) as f32, 4).expect("a step");
        self.steps += 1;
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn top_height(&mut self) -> f32 {
        self.world
            .body(self.top)
            .map_or(f32::NAN, |b| b.position().y)
    }
}

fn world_alone(base: usize) -> WorldRun {
    use impulse2d as i2;
    let mut world = i2::World::new(&i2::WorldDef {
        worker_count: 1,
        ..Default::default()
    })
    .expect("a world");
    world.enable_sleeping(false);
    let ground = world
        .create_body(&i2::BodyDef {
            position: i2::Vec2::new(0.0, -1.0),
            ..Default::default()
        })
        .expect("ground");
    world
        .create_polygon_shape(
            ground,
            &i2::ShapeDef::default(),
            &i2::collision::make_box(100.0, 1.0).expect("box"),
        )
        .expect("ground shape");
    let square = i2::collision::make_box(0.5, 0.5).expect("box");
    let mut top = ground;
    for p in box_positions(base) {
        top = world
            .create_body(&i2::BodyDef {
                body_type: i2::BodyType::Dynamic,
                position: i2::Vec2::new(p.x, p.y),
                ..Default::default()
            })
            .expect("body");
        world
            .create_polygon_shape(top, &i2::ShapeDef::default(), &square)
            .expect("shape");
    }
    WorldRun {
        world,
        top,
        steps: 0,
    }
}

fn make(engine: Engine, base: usize) -> Box<dyn Run> {
    match engine {
        Engine::WorldAlone => Box::new(world_alone(base)),
        Engine::Ours => Box::new(ours(base)),
        Engine::Avian => Box::new(avian(base, 6)),
        Engine::Avian4 => Box::new(avian(base, 4)),
        Engine::Rapier => Box::new(rapier(base)),
    }
}

/// One round: build, warm up, then time `steps` steps. Returns (CPU ms/step, wall
/// ms/step, top height / initial).
fn round(engine: Engine, base: usize, warmup: u64, steps: u64) -> (f64, f64, f32) {
    let mut run = make(engine, base);
    while run.steps() < warmup {
        run.step();
    }
    let first = run.steps();
    let (cpu0, wall0) = (thread_cpu(), Instant::now());
    for _ in 0..steps {
        run.step();
    }
    let (cpu, wall) = (thread_cpu() - cpu0, wall0.elapsed());
    let ran = run.steps() - first;
    assert_eq!(ran, steps, "{}: one fixed step per update", engine.key());
    let initial = (2.0 * base as f32 - 1.0) * 0.5;
    let top = run.top_height() / initial;
    (
        cpu.as_secs_f64() * 1e3 / ran as f64,
        wall.as_secs_f64() * 1e3 / ran as f64,
        top,
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut base = 100usize;
    let mut warmup = 60u64;
    let mut steps = 300u64;
    let mut rounds = 3usize;
    let mut only: Option<String> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--base" => base = value.parse().expect("--base N"),
            "--warmup" => warmup = value.parse().expect("--warmup N"),
            "--steps" => steps = value.parse().expect("--steps N"),
            "--rounds" => rounds = value.parse().expect("--rounds N"),
            "--only" => only = Some(value),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let engines: Vec<Engine> = Engine::ALL
        .into_iter()
        .filter(|e| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|k| k == e.key()))
        })
        .collect();
    eprintln!(
        "large pyramid, base {base} ({} boxes), {HZ} Hz, warm-up {warmup} steps, {steps} timed steps, {rounds} rounds",
        base * (base + 1) / 2
    );
    let mut results: Vec<(Vec<f64>, Vec<f64>, Vec<f32>)> =
        vec![(Vec::new(), Vec::new(), Vec::new()); engines.len()];
    for r in 0..rounds {
        for (k, &engine) in engines.iter().enumerate() {
            let (cpu, wall, top) = round(engine, base, warmup, steps);
            eprintln!(
                "round {r}: {:<45} {cpu:7.3} ms CPU, {wall:7.3} ms wall per step, top {top:.3}",
                engine.name()
            );
            results[k].0.push(cpu);
            results[k].1.push(wall);
            results[k].2.push(top);
        }
    }
    println!(
        "| plugin | ms per fixed step, thread CPU (median of {rounds}) | wall | top box height / initial |"
    );
    println!("|---|---:|---:|---:|");
    for (k, &engine) in engines.iter().enumerate() {
        let (cpu, wall, top) = &results[k];
        let top = top.iter().copied().fold(f32::INFINITY, f32::min);
        println!(
            "| {} | {:.2} | {:.2} | {:.3} |",
            engine.name(),
            median(cpu.clone()),
            median(wall.clone()),
            top
        );
    }
}
