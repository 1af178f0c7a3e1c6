//! The Far scenes (issue 16) and the figure each is judged by, shared by
//! `tests/suite/far.rs` (with `large-world`) and `tests/suite/far_scenes.rs`.
//! A module of the `suite` test binary, beside its `stepping` module.

#![allow(dead_code)]

use crate::stepping::step_checked;
use impulse2d::{Pos, World, WorldDef};
use impulse2d_scenes::far::{far_chain, far_overlap_recovery, far_pyramid, far_vertical_stack};

/// Ten seconds at 60 Hz: every pyramid and stack has settled.
pub const STEPS: usize = 600;

/// A Far scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Far {
    Pyramid,
    Stack,
    Recovery,
    Chain,
}

impl Far {
    /// Every Far scene with a figure.
    pub const ALL: [Far; 4] = [Far::Pyramid, Far::Stack, Far::Recovery, Far::Chain];

    /// What the scene's figure measures.
    pub fn name(self) -> &'static str {
        match self {
            Far::Pyramid => "pyramid apex height",
            Far::Stack => "vertical stack top height",
            Far::Recovery => "overlap recovery top height",
            Far::Chain => "chain length",
        }
    }
}

/// The figure of `scene` in our engine built at `origin`, after [`STEPS`]
/// validated steps, metres: the top box's height above `origin`, or the
/// chain's length.
pub fn figure(scene: Far, origin: Pos) -> f32 {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let measure: Box<dyn Fn(&World) -> f32> = match scene {
        Far::Pyramid | Far::Stack | Far::Recovery => {
            let p = match scene {
                Far::Pyramid => far_pyramid(&mut world, origin),
                Far::Stack => far_vertical_stack(&mut world, origin, 10),
                _ => far_overlap_recovery(&mut world, origin),
            }
            .unwrap();
            // `Pos - Pos` is the f32 difference (taken in f64 with large-world)
            Box::new(move |w: &World| (w.body(p.top).unwrap().position() - origin).y)
        }
        Far::Chain => {
            let chain = far_chain(&mut world, origin).unwrap();
            Box::new(move |w: &World| chain.length(w).unwrap())
        }
    };
    for _ in 0..STEPS {
        step_checked(&mut world);
    }
    measure(&world)
}
