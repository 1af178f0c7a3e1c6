//! `impulse2d`: run Impulse2D scenes headless, draw them, benchmark them.
//!
//! ```text
//! impulse2d list
//! impulse2d run [SCENE] [--steps N] [--hz 60] [--substeps 4] [--threads N] [--simd auto]
//!               [--origin X,Y] [--png F] [--gif F] [--svg F] [--width W] [--height H] [--json]
//!               [--record F] [--hash-every N]
//! impulse2d replay FILE [--threads N] [--every N] [--seek N]...
//! impulse2d bench [SCENES...] [--steps N] [--threads N] [--simd auto|baseline|avx2]
//!                 [--origin X,Y]
//! ```
//! Errors are one line on stderr and a non-zero exit status.

mod runner;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "impulse2d",
    version,
    about = "Run Impulse2D scenes headless, draw them to PNG, GIF or SVG, and benchmark them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options shared by `run` and `bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct StepOptions {
    /// Steps to simulate.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub steps: Option<u32>,
    /// Steps per simulated second, hertz.
    #[arg(long, default_value_t = 60.0, value_parser = parse_hz)]
    pub hz: f32,
    /// Substeps per step.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub substeps: u32,
    /// Worker threads for the step (1 = run on the calling thread; the
    /// results are the same bits for any count).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Build of the solver's hot loops: auto (the fastest this CPU runs),
    /// baseline or avx2 (the results are the same bits on every path).
    #[arg(long, default_value = "auto", value_parser = parse_simd)]
    pub simd: impulse2d::SimdPath,
    /// Build the scene with every body moved by X,Y metres (e.g.
    /// `--origin 100000,-80000`), to see the scene far from the origin.
    #[arg(long, value_name = "X,Y", value_parser = parse_origin, allow_hyphen_values = true)]
    pub origin: Option<impulse2d::Pos>,
}

/// `X,Y` as a world position (`f64` coordinates with `large-world`).
fn parse_origin(s: &str) -> Result<impulse2d::Pos, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not X,Y"))?;
    let number = |t: &str| -> Result<impulse2d::pos::Coord, String> {
        let v: impulse2d::pos::Coord = t
            .trim()
            .parse()
            .map_err(|_| format!("'{t}' is not a number"))?;
        let limit = impulse2d::pos::MAX_WORLD_COORDINATE;
        if v.is_finite() && v.abs() <= limit {
            Ok(v)
        } else {
            Err(format!(
                "{t} is not a finite coordinate within ±{limit:e} m"
            ))
        }
    };
    Ok(impulse2d::Pos::new(number(x)?, number(y)?))
}

fn parse_simd(s: &str) -> Result<impulse2d::SimdPath, String> {
    s.parse().map_err(|e: impulse2d::Error| e.to_string())
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the scenes by category.
    List,
    /// Run one scene headless, print figures and optionally write pictures.
    Run(runner::RunArgs),
    /// Replay a recording made with `run --record`: print the steps, the
    /// state hash every N steps, and the first step whose hash differs from
    /// the recorded one (exit status 1 then).
    Replay {
        /// The recording.
        file: PathBuf,
        /// Worker threads for the replay (the results are the same bits for any count).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
        threads: u32,
        /// Print the hash every N steps (default: where the recording holds one).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        every: Option<u32>,
        /// After the replay, go back (or forward) to step N and print the state hash
        /// there (repeatable; from the key frames the replay kept, not from the start).
        #[arg(long = "seek", value_name = "N")]
        seeks: Vec<u64>,
    },
    /// Time scenes (the benchmark set by default) and print a table.
    Bench {
        /// Scene names (default: the benchmark category).
        scenes: Vec<String>,
        #[command(flatten)]
        step: StepOptions,
    },
}

fn parse_hz(s: &str) -> Result<f32, String> {
    let hz: f32 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if hz.is_finite() && (1.0..=10_000.0).contains(&hz) {
        Ok(hz)
    } else {
        Err(format!("{s} is not in 1..=10000"))
    }
}

fn main() -> ExitCode {
    // A bug must still end in one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("error: internal error: {}{at}", msg.replace('\n', " "));
    }));

    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // clap's message spans several lines; keep the first one.
            let text = e.render().to_string();
            let line = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("error: bad arguments");
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };

    let result = match cli.command {
        Command::List => runner::list(),
        Command::Run(args) => runner::run(&args),
        Command::Replay {
            file,
            threads,
            every,
            seeks,
        } => runner::replay(&file, threads as usize, every, &seeks),
        Command::Bench { scenes, step } => runner::bench(&scenes, &step),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
