//! Impulse2D, this project's engine.
//!
//! The world API (bodies, shapes, joints, `World::step`) is being written; until it lands
//! on main this adapter reports every scene as not runnable, and the tables say so rather
//! than showing a number.

use crate::desc::SceneDesc;
use crate::engine::{Engine, RunConfig, Simulation};

/// Impulse2D.
#[derive(Clone, Copy, Debug, Default)]
pub struct Impulse2d;

impl Engine for Impulse2d {
    fn name(&self) -> &'static str {
        crate::report::OURS
    }

    fn unsupported(&self, _scene: &SceneDesc) -> Option<String> {
        Some(
            "Impulse2D has no world API yet (bodies, shapes and stepping are being written)"
                .to_owned(),
        )
    }

    fn build(&self, scene: &SceneDesc, _config: RunConfig) -> Box<dyn Simulation> {
        panic!("Impulse2D cannot build {} yet", scene.name)
    }
}
