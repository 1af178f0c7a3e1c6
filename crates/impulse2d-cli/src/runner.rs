//! The subcommands. (Waits for the world and the scenes crate.)

use crate::StepOptions;
use std::path::PathBuf;

/// The scene `run` uses when none is named.
pub const DEFAULT_SCENE: &str = "large_pyramid";

/// Arguments of `impulse2d run`.
pub struct RunArgs {
    pub scene: String,
    pub step: StepOptions,
    pub png: Option<PathBuf>,
    pub gif: Option<PathBuf>,
    pub svg: Option<PathBuf>,
    pub width: u32,
    pub height: u32,
    pub json: bool,
}

pub fn list() -> Result<(), String> {
    Err("no scenes yet".into())
}

pub fn run(args: &RunArgs) -> Result<(), String> {
    Err(format!("unknown scene '{}'", args.scene))
}

pub fn bench(_scenes: &[String], _step: &StepOptions) -> Result<(), String> {
    Err("no scenes yet".into())
}
