//! `impulse2d-compare`: Box2D v3's benchmark scenes in Impulse2D, Rapier and Box2D v3,
//! timed side by side in one process.

use impulse2d_compare::bench::{Clock, SceneResult, run_scene};
use impulse2d_compare::box2d::{self, Box2d};
use impulse2d_compare::desc::SceneDesc;
use impulse2d_compare::engine::{Engine, RunConfig};
use impulse2d_compare::ours::Impulse2d;
use impulse2d_compare::rapier::{RAPIER_NOTES, Rapier};
use impulse2d_compare::report::{self, Context, ScalingPoint};
use impulse2d_compare::scenes::{Scene, Size, large_pyramid, pyramid_box_count};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
impulse2d-compare: Box2D v3's benchmark scenes in Impulse2D, Rapier and Box2D v3 (C)

USAGE: cargo run --release -p impulse2d-compare -- [OPTIONS]

OPTIONS:
  --scenes a,b,...   scenes to run (default: all): joint_grid, large_pyramid,
                     many_pyramids, rain, smash, spinner, tumbler
  --engines a,b,...  engines (default: impulse2d,box2d,rapier)
  --steps N          steps per run (default: Box2D's benchmark count per scene;
                     500 for --scaling)
  --rounds N         interleaved rounds per scene; the median is reported (default 3)
  --threads N        worker threads (Box2D and Impulse2D workers; Rapier uses 1:
                     its `parallel` feature is not enabled)
  --size full|tiny   Box2D's release sizes (default) or tiny test sizes
  --scaling          large pyramid with bases 20,40,60,80,100,140 instead of the scenes
  --bases a,b,...    bases for --scaling
  --clock wall|cpu   clock for ratios and charts (default wall); tables show both.
                     cpu = CPU time of the stepping thread, steadier on a busy machine
  --json             print JSON instead of Markdown tables
  --out DIR          where to write the SVG chart and JSON (default target/compare)
  --allow-asserts    time Box2D even if it was built with asserts (labelled in output)
  --simd PATH        Impulse2D's SIMD path: auto (default: AVX2 where the CPU has it),
                     baseline or avx2; the notes say which ran and what the binary was
                     compiled for. Box2D's SIMD build is a cargo feature: box2d-avx2
                     (default) or SSE2 with --no-default-features
  -h, --help         this text
";

struct Options {
    scenes: Vec<Scene>,
    engines: Vec<String>,
    steps: Option<u32>,
    rounds: u32,
    threads: usize,
    size: Size,
    scaling: bool,
    bases: Vec<usize>,
    json: bool,
    clock: Clock,
    out: PathBuf,
    allow_asserts: bool,
    simd: impulse2d::SimdPath,
}

fn parse_list<T>(value: &str, f: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| f(s.trim()))
        .collect()
}

fn parse_number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: expected a number, got `{value}`"))
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        scenes: Scene::ALL.to_vec(),
        engines: vec!["impulse2d".into(), "box2d".into(), "rapier".into()],
        steps: None,
        rounds: 3,
        threads: 1,
        size: Size::Full,
        scaling: false,
        bases: vec![20, 40, 60, 80, 100, 140],
        json: false,
        clock: Clock::Wall,
        out: PathBuf::from("target/compare"),
        allow_asserts: false,
        simd: impulse2d::SimdPath::Auto,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--scenes" => {
                options.scenes = parse_list(&value()?, |s| {
                    Scene::from_name(s).ok_or_else(|| format!("unknown scene `{s}`"))
                })?
            }
            "--engines" => {
                options.engines = parse_list(&value()?, |s| match s {
                    "impulse2d" | "box2d" | "rapier" => Ok(s.to_owned()),
                    _ => Err(format!("unknown engine `{s}` (impulse2d, box2d, rapier)")),
                })?
            }
            "--steps" => options.steps = Some(parse_number(flag, &value()?)?),
            "--rounds" => options.rounds = parse_number(flag, &value()?)?,
            "--threads" => options.threads = parse_number(flag, &value()?)?,
            "--size" => {
                options.size = match value()?.as_str() {
                    "full" => Size::Full,
                    "tiny" => Size::Tiny,
                    other => return Err(format!("--size: expected full or tiny, got `{other}`")),
                }
            }
            "--scaling" => options.scaling = true,
            "--bases" => {
                options.bases = parse_list(&value()?, |s| parse_number("--bases", s))?;
            }
            "--json" => options.json = true,
            "--clock" => {
                options.clock = match value()?.as_str() {
                    "wall" => Clock::Wall,
                    "cpu" => Clock::Cpu,
                    other => return Err(format!("--clock: expected wall or cpu, got `{other}`")),
                }
            }
            "--out" => options.out = PathBuf::from(value()?),
            "--allow-asserts" => options.allow_asserts = true,
            "--simd" => {
                options.simd = value()?
                    .parse()
                    .map_err(|e: impulse2d::Error| format!("--simd: {e}"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option `{other}`")),
        }
        i += 1;
    }
    if options.threads == 0 || options.rounds == 0 {
        return Err("--threads and --rounds must be at least 1".into());
    }
    Ok(options)
}

fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")
                .map(|r| r.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "{model}, {cores} logical cores available ({})",
        std::env::consts::OS
    )
}

/// Today's UTC date from the system clock (days-to-civil conversion).
fn date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(o) => o,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}\n");
            }
            eprint!("{USAGE}");
            return if message.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };

    if let Err(e) = impulse2d_compare::ours::set_simd(options.simd) {
        eprintln!("error: --simd: {e}");
        return ExitCode::from(2);
    }
    let box2d_asserts = box2d::asserts_enabled();
    if box2d_asserts && options.engines.iter().any(|e| e == "box2d") {
        eprintln!(
            "WARNING: the linked Box2D was compiled WITH its asserts (no -DNDEBUG; build CFLAGS: `{}`).\n\
             It runs slower than Box2D as shipped. Build from the workspace root so that\n\
             .cargo/config.toml's CFLAGS_x86_64_unknown_linux_gnu=-DNDEBUG applies.",
            box2d::BUILD_CFLAGS
        );
        if !options.allow_asserts {
            eprintln!(
                "Refusing to time it; pass --allow-asserts to run anyway (results get labelled)."
            );
            return ExitCode::from(3);
        }
    }

    let all: Vec<(&str, Box<dyn Engine>)> = vec![
        ("impulse2d", Box::new(Impulse2d)),
        ("box2d", Box::new(Box2d)),
        ("rapier", Box::new(Rapier)),
    ];
    let engines: Vec<&dyn Engine> = all
        .iter()
        .filter(|(key, _)| options.engines.iter().any(|e| e == key))
        .map(|(_, e)| e.as_ref())
        .collect();
    let engine_names: Vec<String> = engines.iter().map(|e| e.name().to_owned()).collect();
    let mut notes: Vec<(String, Option<String>)> = engines
        .iter()
        .map(|e| (e.name().to_owned(), e.note()))
        .collect();
    for (name, note) in &mut notes {
        if name == "Rapier" {
            *note = Some(format!(
                "{} — {RAPIER_NOTES}",
                note.take().unwrap_or_default()
            ));
        }
    }
    let context = Context {
        machine: machine(),
        date: date(),
        command: format!(
            "cargo run --release -p impulse2d-compare --{}",
            args.iter().map(|a| format!(" {a}")).collect::<String>()
        ),
        rounds: options.rounds,
        threads: options.threads,
        engines: notes,
    };
    let config = RunConfig {
        threads: options.threads,
    };
    let mut progress = |engine: &str, round: u32, ms: f64| {
        eprintln!("  {engine} round {}: {ms:.3} ms/step", round + 1);
        let _ = std::io::stderr().flush();
    };

    if let Err(e) = std::fs::create_dir_all(&options.out) {
        eprintln!("error: cannot create {}: {e}", options.out.display());
        return ExitCode::FAILURE;
    }
    let title_suffix = if box2d_asserts {
        " (Box2D ASSERTS ON)"
    } else {
        ""
    };

    let mut run = |scene: &SceneDesc, steps: u32| {
        run_scene(
            scene,
            &engines,
            steps,
            options.rounds,
            config,
            &mut progress,
        )
    };

    if options.scaling {
        let steps = options.steps.unwrap_or(500);
        let mut points = Vec::new();
        for &base in &options.bases {
            let scene = large_pyramid(base);
            eprintln!(
                "large_pyramid base {base} ({} boxes), {steps} steps",
                pyramid_box_count(base)
            );
            let result = run(&scene, steps);
            points.push(ScalingPoint {
                base,
                bodies: scene.initial_bodies.len(),
                result,
            });
        }
        let title = format!("Large pyramid: ms/step against bodies{title_suffix}");
        let svg = report::scaling_svg(&points, &engine_names, options.clock, &title);
        let json = report::scaling_json(&context, &points);
        let table = || report::scaling_table(&points, &engine_names, options.clock);
        publish(&options, &context, "scaling", (&svg, &json), table);
        return ExitCode::SUCCESS;
    }

    let mut results: Vec<SceneResult> = Vec::new();
    for scene_kind in &options.scenes {
        let scene = scene_kind.build(options.size);
        let steps = options.steps.unwrap_or_else(|| scene_kind.box2d_steps());
        eprintln!(
            "{} ({} bodies at start), {steps} steps",
            scene.name,
            scene.initial_bodies.len()
        );
        results.push(run(&scene, steps));
    }
    let title = format!("Box2D v3 benchmark scenes: ms/step, 1 thread{title_suffix}");
    let svg = report::bar_chart_svg(&results, &engine_names, options.clock, &title);
    let json = report::json(&context, &results);
    let table = || report::tables(&results, &engine_names, options.clock);
    publish(&options, &context, "compare", (&svg, &json), table);
    let unstable = results
        .iter()
        .flat_map(|s| s.engines.iter())
        .any(|e| e.stability.is_some_and(|s| !s.is_sane()));
    if unstable {
        eprintln!(
            "note: at least one engine's stability figure is outside its sane range (see UNSTABLE)"
        );
    }
    ExitCode::SUCCESS
}

/// Writes the chart and the JSON report into the output folder as
/// `{stem}.svg` and `{stem}.json`, then prints the JSON (`--json`) or the
/// header and the table.
fn publish(
    options: &Options,
    context: &Context,
    stem: &str,
    (svg, json): (&str, &str),
    table: impl FnOnce() -> String,
) {
    write_file(&options.out.join(format!("{stem}.svg")), svg);
    write_file(&options.out.join(format!("{stem}.json")), json);
    if options.json {
        print!("{json}");
    } else {
        print!("{}\n{}", report::header(context), table());
    }
}

fn write_file(path: &std::path::Path, contents: &str) {
    match std::fs::write(path, contents) {
        Ok(()) => eprintln!("wrote {}", path.display()),
        Err(e) => eprintln!("error: cannot write {}: {e}", path.display()),
    }
}
