//! The subcommands: `list`, `run` and `bench`.

use crate::StepOptions;
use impulse2d::collision::Aabb;
use impulse2d::debug_draw::DrawOptions;
use impulse2d::{Profile, World, WorldDef};
use impulse2d_cli::animation::GifRecorder;
use impulse2d_cli::report::{RunReport, bench_table};
use impulse2d_cli::stats::{median, quantile};
use impulse2d_cli::{Camera, RasterDraw, SvgDraw};
use impulse2d_scenes::Scene;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The scene `run` uses when none is named.
pub const DEFAULT_SCENE: &str = "large_pyramid";

/// Steps `run` takes when `--steps` is not given.
const DEFAULT_RUN_STEPS: u32 = 300;

/// Steps `bench` takes per scene when `--steps` is not given.
const DEFAULT_BENCH_STEPS: u32 = 500;

/// Arguments of `impulse2d run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Scene name (see `impulse2d list`).
    #[arg(default_value = DEFAULT_SCENE)]
    pub scene: String,
    #[command(flatten)]
    pub step: StepOptions,
    /// Write the last frame as a PNG.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Write the run as an animated GIF.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Write the last frame as an SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Picture width, pixels.
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub width: u32,
    /// Picture height, pixels.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub height: u32,
    /// Print the figures as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Record the run (the world after the scene is built, every step and
    /// call) to FILE, for `impulse2d replay`.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Steps between the state hashes the recording keeps.
    #[arg(long, value_name = "N", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub hash_every: u32,
}

/// `impulse2d list`: scenes grouped by category, in registry order.
pub fn list() -> Result<(), String> {
    let scenes = impulse2d_scenes::list();
    let mut categories: Vec<&str> = Vec::new();
    for s in scenes {
        if !categories.contains(&s.category) {
            categories.push(s.category);
        }
    }
    let width = scenes.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for c in categories {
        out.push_str(c);
        out.push('\n');
        for s in scenes.iter().filter(|s| s.category == c) {
            out.push_str(&format!("  {:<width$}  {}\n", s.name, s.description));
        }
    }
    print_stdout(&out)
}

/// Writes to stdout; a closed pipe (`impulse2d list | head`) is not an error.
fn print_stdout(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write: {e}")),
        _ => Ok(()),
    }
}

/// The registry's name for `name` (accepting `category/name`), or an error
/// listing what exists.
fn resolve_scene(name: &str) -> Result<&'static str, String> {
    let short = name.rsplit('/').next().unwrap_or(name);
    impulse2d_scenes::list()
        .iter()
        .find(|s| s.name == short || s.name.replace('_', "-") == short)
        .map(|s| s.name)
        .ok_or_else(|| format!("unknown scene '{name}' (see `impulse2d list`)"))
}

/// A fresh world holding the scene, and the scene (with its per-step script).
fn build_world(scene: &str, step: &StepOptions) -> Result<(World, Scene), String> {
    let def = WorldDef {
        worker_count: step.threads as usize,
        simd: step.simd,
        ..WorldDef::default()
    };
    let mut world = World::new(&def).map_err(|e| e.to_string())?;
    let origin = step
        .origin
        .unwrap_or(impulse2d::pos::to_pos(impulse2d::Vec2::ZERO));
    let built = impulse2d_scenes::build_at(scene, &mut world, origin)
        .map_err(|e| format!("cannot build scene '{scene}': {e}"))?;
    Ok((world, built))
}

/// Running sums of the per-stage profile.
#[derive(Default)]
struct ProfileSum {
    sum: Profile,
    count: u32,
}

impl ProfileSum {
    fn add(&mut self, p: &Profile) {
        let s = &mut self.sum;
        s.step += p.step;
        s.pairs += p.pairs;
        s.collide += p.collide;
        s.solve += p.solve;
        s.split_islands += p.split_islands;
        s.prepare_constraints += p.prepare_constraints;
        s.integrate_velocities += p.integrate_velocities;
        s.warm_start += p.warm_start;
        s.solve_impulses += p.solve_impulses;
        s.integrate_positions += p.integrate_positions;
        s.relax_impulses += p.relax_impulses;
        s.restitution += p.restitution;
        s.store_impulses += p.store_impulses;
        s.finalize_bodies += p.finalize_bodies;
        s.enlarge_proxies += p.enlarge_proxies;
        s.sleep_islands += p.sleep_islands;
        self.count += 1;
    }

    /// Mean ms per step of each stage, in step order.
    fn means(&self) -> Vec<(String, f64)> {
        let n = f64::from(self.count.max(1));
        let s = &self.sum;
        [
            ("pairs", s.pairs),
            ("collide", s.collide),
            ("solve", s.solve),
            ("  prepare", s.prepare_constraints),
            ("  integrate_v", s.integrate_velocities),
            ("  warm_start", s.warm_start),
            ("  solve", s.solve_impulses),
            ("  integrate_p", s.integrate_positions),
            ("  relax", s.relax_impulses),
            ("  restitution", s.restitution),
            ("  store", s.store_impulses),
            ("  finalize", s.finalize_bodies),
            ("  enlarge", s.enlarge_proxies),
            ("  split_islands", s.split_islands),
            ("  sleep", s.sleep_islands),
        ]
        .into_iter()
        .map(|(name, ms)| (name.to_string(), f64::from(ms) / n))
        .collect()
    }
}

/// Creates (truncates) an output file now, so that a bad path fails before the run.
fn create_output(path: &Path) -> Result<BufWriter<File>, String> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn draw_options(camera: &Camera) -> DrawOptions {
    DrawOptions {
        drawing_bounds: camera.view_bounds(),
        ..DrawOptions::default()
    }
}

/// The world and the scene's player (the platformer's character, which is
/// not a body) as a picture.
fn render_raster(world: &World, scene: &Scene, camera: Camera) -> Result<RasterDraw, String> {
    let mut r = RasterDraw::new(camera).ok_or("cannot allocate the picture")?;
    let options = draw_options(&camera);
    r.clear(options.palette.background);
    scene.draw(world, &mut r, &options);
    Ok(r)
}

/// Steps one world `steps` times, timing each step (the scene's script runs
/// before each step, outside the timing); `on_step` sees the world after each
/// step (and the scene).
fn simulate(
    world: &mut World,
    scene: &mut Scene,
    step: &StepOptions,
    steps: u32,
    progress: &ProgressBar,
    mut on_step: impl FnMut(u32, &World, &Scene) -> Result<(), String>,
) -> Result<(Vec<f64>, ProfileSum), String> {
    let dt = 1.0 / step.hz;
    let mut times = Vec::with_capacity(steps as usize);
    let mut profile = ProfileSum::default();
    for i in 0..steps {
        scene
            .before_step(world, u64::from(i))
            .map_err(|e| format!("scene script before step {i} failed: {e}"))?;
        let t = Instant::now();
        world
            .step(dt, step.substeps)
            .map_err(|e| format!("step {i} failed: {e}"))?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        profile.add(world.profile());
        on_step(i, world, scene)?;
        progress.inc(1);
    }
    progress.finish_and_clear();
    Ok((times, profile))
}

fn progress_bar(steps: u32, label: &str) -> ProgressBar {
    let bar = ProgressBar::new(u64::from(steps));
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} steps, {per_sec}, eta {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(label.to_string());
    bar
}

fn fill_report(report: &mut RunReport, world: &World, times: &[f64], profile: &ProfileSum) {
    let counters = world.counters();
    report.bodies = counters.body_count;
    report.contacts = counters.contact_count;
    report.touching_contacts = counters.color_constraint_counts.iter().sum();
    report.awake_bodies = counters.awake_body_count;
    report.median_ms = median(times).unwrap_or(0.0);
    report.p95_ms = quantile(times, 0.95).unwrap_or(0.0);
    report.mean_ms = times.iter().sum::<f64>() / times.len().max(1) as f64;
    report.stages = profile.means();
    report.state_hash = world.state_hash();
    report.simd = world.simd_path().to_string();
}

/// `impulse2d run`.
pub fn run(args: &RunArgs) -> Result<(), String> {
    let scene = resolve_scene(&args.scene)?;
    let steps = args.step.steps.unwrap_or(DEFAULT_RUN_STEPS);
    let threads = args.step.threads;

    // Open every output first: a bad path must not cost a long run.
    let png_out = args.png.as_deref().map(create_output).transpose()?;
    let svg_out = args.svg.as_deref().map(create_output).transpose()?;
    let mut gif = match args.gif.as_deref() {
        Some(p) => Some(GifRecorder::create(p, args.width, args.height)?),
        None => None,
    };

    let record_out = args.record.as_deref().map(create_output).transpose()?;

    let (mut world, mut built) = build_world(scene, &args.step)?;
    if record_out.is_some() {
        world
            .start_recording(args.hash_every)
            .map_err(|e| e.to_string())?;
    }
    let bounds = world.view_bounds().unwrap_or(Aabb::new(
        impulse2d::Vec2::new(-20.0, -2.0),
        impulse2d::Vec2::new(20.0, 20.0),
    ));
    let camera = Camera::fit(bounds, args.width, args.height, 0.05);

    // GIF: about 20 frames per simulated second, at most 300 frames.
    let every = ((args.step.hz / 20.0).round() as u32)
        .max(steps.div_ceil(300))
        .max(1);
    let delay_cs = ((100.0 * every as f32 / args.step.hz).round() as u16).max(2);
    if let Some(g) = gif.as_mut() {
        g.add_frame(render_raster(&world, &built, camera)?.pixmap(), delay_cs)?;
    }

    let progress = progress_bar(steps, scene);
    let (times, profile) = simulate(
        &mut world,
        &mut built,
        &args.step,
        steps,
        &progress,
        |i, w, s| {
            if let Some(g) = gif.as_mut()
                && (i + 1) % every == 0
            {
                g.add_frame(render_raster(w, s, camera)?.pixmap(), delay_cs)?;
            }
            Ok(())
        },
    )?;

    let mut report = RunReport {
        scene: scene.to_string(),
        steps,
        hz: args.step.hz,
        substeps: args.step.substeps,
        threads,
        ..RunReport::default()
    };
    fill_report(&mut report, &world, &times, &profile);
    let origin = args
        .step
        .origin
        .unwrap_or(impulse2d::pos::to_pos(impulse2d::Vec2::ZERO));
    let rounded = impulse2d::pos::to_vec2(origin);
    report.origin = [rounded.x, rounded.y];
    report.focus = built
        .focus
        .and_then(|id| world.body(id).ok())
        .map(|b| b.position() - origin)
        .map(|p| [p.x, p.y]);

    let size = format!("{}x{}", args.width, args.height);
    if let (Some(mut out), Some(path)) = (png_out, args.png.as_ref()) {
        let bytes = render_raster(&world, &built, camera)?.encode_png()?;
        out.write_all(&bytes)
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        report.outputs.push((
            path.display().to_string(),
            format!("PNG {size}, last frame"),
        ));
    }
    if let (Some(mut out), Some(path)) = (svg_out, args.svg.as_ref()) {
        let mut svg = SvgDraw::new(camera);
        let options = draw_options(&camera);
        svg.clear(options.palette.background);
        built.draw(&world, &mut svg, &options);
        out.write_all(svg.finish().as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        report.outputs.push((
            path.display().to_string(),
            format!("SVG {size}, last frame"),
        ));
    }
    if let (Some(mut out), Some(path), Some(recording)) =
        (record_out, args.record.as_ref(), world.stop_recording())
    {
        out.write_all(recording.as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        report.outputs.push((
            path.display().to_string(),
            format!(
                "recording, {} bytes, hash every {} steps",
                recording.len(),
                recording.hash_interval()
            ),
        ));
    }
    if let (Some(g), Some(path)) = (gif, args.gif.as_ref()) {
        let frames = g.frame_count();
        g.finish()?;
        report.outputs.push((
            path.display().to_string(),
            format!("GIF {size}, {frames} frames, {delay_cs} cs each"),
        ));
    }

    print_stdout(&if args.json {
        report.to_json()
    } else {
        report.to_text()
    })
}

/// The replay of `impulse2d replay`: a plain [`impulse2d::Replay`] (no
/// key frames: no memory or saves beyond the replay's world) unless the
/// command seeks, then a [`impulse2d::ReplayPlayer`] with its default
/// key-frame policy.
enum Player {
    Plain(Box<impulse2d::Replay>),
    Seeking(Box<impulse2d::ReplayPlayer>),
}

impl Player {
    fn open(
        recording: &impulse2d::Recording,
        threads: usize,
        seeking: bool,
    ) -> impulse2d::Result<Player> {
        Ok(if seeking {
            Player::Seeking(Box::new(impulse2d::ReplayPlayer::new(recording, threads)?))
        } else {
            Player::Plain(Box::new(impulse2d::Replay::new(recording, threads)?))
        })
    }

    fn step(&mut self) -> impulse2d::Result<Option<impulse2d::ReplayStep>> {
        match self {
            Player::Plain(r) => r.step(),
            Player::Seeking(p) => p.step(),
        }
    }

    /// Steps replayed so far.
    fn frame(&self) -> u64 {
        match self {
            Player::Plain(r) => r.steps(),
            Player::Seeking(p) => p.frame(),
        }
    }

    fn divergence(&self) -> Option<impulse2d::Divergence> {
        match self {
            Player::Plain(r) => r.divergence(),
            Player::Seeking(p) => p.divergence(),
        }
    }

    fn world(&self) -> &World {
        match self {
            Player::Plain(r) => r.world(),
            Player::Seeking(p) => p.world(),
        }
    }

    /// Goes to step `frame` (a plain replay: from the start).
    fn seek(&mut self, frame: u64) -> impulse2d::Result<()> {
        match self {
            Player::Seeking(p) => p.seek(frame),
            Player::Plain(r) => {
                if frame < r.steps() {
                    r.restart()?;
                }
                while r.steps() < frame {
                    if r.step()?.is_none() {
                        return Err(impulse2d::Error::OutOfRange {
                            what: "replay frame",
                            expected: "at most the recording's frame count",
                            value: frame as f32,
                        });
                    }
                }
                Ok(())
            }
        }
    }

    /// The key frames kept: count, bytes and interval (steps); `None` for a
    /// plain replay.
    fn keyframes(&self) -> Option<(usize, usize, u64)> {
        match self {
            Player::Plain(_) => None,
            Player::Seeking(p) => Some((
                p.keyframe_count(),
                p.keyframe_bytes(),
                p.keyframe_interval(),
            )),
        }
    }
}

/// `impulse2d replay`: plays a recording, printing the hash every `every`
/// steps (or wherever the recording holds one) and the first divergence,
/// which is an error; with `seeks`, then goes to each of those steps (from
/// the key frames kept on the way) and prints the hash there and the key
/// frames kept.
pub fn replay(
    path: &Path,
    threads: usize,
    every: Option<u32>,
    seeks: &[u64],
) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let recording =
        impulse2d::Recording::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut replay = Player::open(&recording, threads, !seeks.is_empty())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = format!(
        "replay {} ({} bytes, hash every {} steps, {threads} thread(s))\n",
        path.display(),
        recording.len(),
        recording.hash_interval()
    );
    let mut last = None;
    while let Some(s) = replay.step().map_err(|e| e.to_string())? {
        let due = match every {
            Some(n) => s.step % u64::from(n) == 0,
            None => s.recorded_hash.is_some(),
        };
        if due {
            let check = match s.recorded_hash {
                Some(h) if h == s.hash => "  matches the recording",
                Some(_) => "  DIFFERS from the recording",
                None => "",
            };
            out.push_str(&format!(
                "step {:>8}  hash {:016x}{check}\n",
                s.step, s.hash
            ));
        }
        last = Some(s);
    }
    out.push_str(&format!("steps            {}\n", replay.frame()));
    if let Some(s) = last {
        out.push_str(&format!("state hash       {:016x}\n", s.hash));
    }
    let end = replay.divergence();
    for &frame in seeks {
        replay
            .seek(frame)
            .map_err(|e| format!("--seek {frame}: {e}"))?;
        out.push_str(&format!(
            "seek {frame:>8}  hash {:016x}\n",
            replay.world().state_hash()
        ));
    }
    if let Some((count, bytes, interval)) = replay.keyframes() {
        out.push_str(&format!(
            "key frames       {count} ({bytes} bytes, every {interval} steps)\n"
        ));
    }
    match end {
        None => {
            out.push_str("no divergence\n");
            print_stdout(&out)
        }
        Some(d) => {
            print_stdout(&out)?;
            Err(format!(
                "diverged at step {}: recorded hash {:016x}, replayed {:016x}",
                d.step, d.recorded, d.replayed
            ))
        }
    }
}

/// `impulse2d bench`.
pub fn bench(scenes: &[String], step: &StepOptions) -> Result<(), String> {
    let names: Vec<&'static str> = if scenes.is_empty() {
        impulse2d_scenes::list()
            .iter()
            .filter(|s| s.category == "benchmark")
            .map(|s| s.name)
            .collect()
    } else {
        scenes
            .iter()
            .map(|s| resolve_scene(s))
            .collect::<Result<_, _>>()?
    };
    let steps = step.steps.unwrap_or(DEFAULT_BENCH_STEPS);
    let threads = step.threads;
    let mut rows = Vec::new();
    for name in names {
        let (mut world, mut built) = build_world(name, step)?;
        let progress = progress_bar(steps, name);
        let (times, profile) =
            simulate(&mut world, &mut built, step, steps, &progress, |_, _, _| {
                Ok(())
            })?;
        let mut report = RunReport {
            scene: name.to_string(),
            steps,
            hz: step.hz,
            substeps: step.substeps,
            threads,
            ..RunReport::default()
        };
        fill_report(&mut report, &world, &times, &profile);
        rows.push(report);
    }
    print_stdout(&bench_table(&rows))
}
