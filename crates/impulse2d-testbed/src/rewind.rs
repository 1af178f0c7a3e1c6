//! The rollback control: a ring of [`RollbackState`]s, one saved before each
//! recent step, so that the testbed can go back N steps and simulate them
//! again, showing that the state hash comes out the same. No drawing here.

use impulse2d::{RollbackState, World};
use impulse2d_scenes::Scene;
use std::collections::VecDeque;

/// How many steps the testbed can go back (two seconds at 60 Hz).
pub const DEPTH: usize = 120;

/// The outcome of going back and simulating again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rewound {
    /// Steps gone back and simulated again.
    pub steps: u64,
    /// The state hash before going back.
    pub before: u64,
    /// The state hash after simulating the steps again.
    pub after: u64,
}

impl Rewound {
    /// Whether the re-simulation gave the same state.
    pub fn matches(&self) -> bool {
        self.before == self.after
    }
}

/// A state saved before a step, with how that step was taken.
struct Saved {
    step: u64,
    time_step: f32,
    substeps: u32,
    state: RollbackState,
}

/// The states saved before the last [`DEPTH`] steps.
#[derive(Default)]
pub struct Rewind {
    /// The states, oldest first; their step counts are consecutive.
    ring: VecDeque<Saved>,
    /// The last rewind's outcome, or why it could not be done.
    pub last: Option<Result<Rewound, String>>,
}

impl Rewind {
    /// Saves the world before step `step`, to be taken with `time_step`
    /// (seconds) and `substeps` (reusing the oldest state's buffers once the
    /// ring is full). A gap in the step counts (a restart) empties the ring
    /// first.
    pub fn save(&mut self, world: &mut World, step: u64, time_step: f32, substeps: u32) {
        if self.ring.back().is_some_and(|s| s.step + 1 != step) {
            self.ring.clear();
        }
        // the compact form: the ring keeps many states
        let mut state = if self.ring.len() >= DEPTH {
            self.ring
                .pop_front()
                .map_or_else(RollbackState::compact, |s| s.state)
        } else {
            RollbackState::compact()
        };
        world.save_rollback(&mut state);
        self.ring.push_back(Saved {
            step,
            time_step,
            substeps,
            state,
        });
    }

    /// How many steps back the ring reaches from step `now`.
    pub fn reach(&self, now: u64) -> u64 {
        self.ring.front().map_or(0, |s| now.saturating_sub(s.step))
    }

    /// Goes back `steps` steps from step `now` (the world is at `now`) and
    /// simulates them again with the same time steps, running the scene's
    /// script before each step as the first time. The outcome is also kept
    /// in [`Rewind::last`].
    ///
    /// # Errors
    /// When the ring does not reach that far, or when the world's objects
    /// changed since (a script created bodies, a drag made a mouse joint):
    /// the world is then unchanged.
    pub fn rewind(
        &mut self,
        world: &mut World,
        mut scene: Option<&mut Scene>,
        now: u64,
        steps: u64,
    ) -> Result<Rewound, String> {
        let result = (|| {
            let from = now
                .checked_sub(steps)
                .ok_or_else(|| format!("only {now} steps taken"))?;
            let first = self
                .ring
                .iter()
                .position(|s| s.step == from)
                .ok_or_else(|| format!("the last {} steps are kept", self.reach(now)))?;
            let before = world.state_hash();
            world
                .load_rollback(&self.ring[first].state)
                .map_err(|e| e.to_string())?;
            for s in self.ring.range(first..) {
                match scene.as_deref_mut() {
                    Some(scene) => scene.step(world, s.step, s.time_step, s.substeps),
                    None => world.step(s.time_step, s.substeps),
                }
                .map_err(|e| format!("step {}: {e}", s.step))?;
            }
            Ok(Rewound {
                steps,
                before,
                after: world.state_hash(),
            })
        })();
        self.last = Some(result.clone());
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impulse2d::{BodyDef, BodyType, Vec2, WorldDef};

    fn scene_world(name: &str) -> (World, Scene) {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let scene = impulse2d_scenes::build(name, &mut world).unwrap();
        (world, scene)
    }

    /// Runs `n` steps the way the testbed does: save, script, step.
    fn run(world: &mut World, scene: &mut Scene, rewind: &mut Rewind, from: u64, n: u64) {
        for step in from..from + n {
            rewind.save(world, step, 1.0 / 60.0, 4);
            scene.step(world, step, 1.0 / 60.0, 4).unwrap();
        }
    }

    #[test]
    fn going_back_and_simulating_again_gives_the_same_hash() {
        let (mut world, mut scene) = scene_world("pyramid");
        let mut rewind = Rewind::default();
        run(&mut world, &mut scene, &mut rewind, 0, 150);
        assert_eq!(rewind.reach(150), DEPTH as u64);
        let before = world.state_hash();
        let done = rewind
            .rewind(&mut world, Some(&mut scene), 150, 60)
            .unwrap();
        assert_eq!(done.before, before);
        assert!(done.matches(), "{done:?}");
        assert_eq!(world.state_hash(), before);
        // Again from the oldest state kept, after more steps.
        run(&mut world, &mut scene, &mut rewind, 150, 10);
        let before = world.state_hash();
        let done = rewind
            .rewind(&mut world, Some(&mut scene), 160, DEPTH as u64)
            .unwrap();
        assert!(done.matches() && done.before == before);
        // A different past gives a different hash: the check can fail.
        let saved = &rewind.ring[DEPTH - 5];
        world.load_rollback(&saved.state).unwrap();
        let body = world.body_ids().last().unwrap();
        world
            .body_mut(body)
            .unwrap()
            .apply_linear_impulse_to_center(Vec2::new(5.0, 0.0), true)
            .unwrap();
        for step in saved.step..160 {
            scene.step(&mut world, step, 1.0 / 60.0, 4).unwrap();
        }
        assert_ne!(world.state_hash(), before);
    }

    #[test]
    fn a_changed_world_or_a_step_too_far_is_refused_and_changes_nothing() {
        let (mut world, mut scene) = scene_world("pyramid");
        let mut rewind = Rewind::default();
        run(&mut world, &mut scene, &mut rewind, 0, 20);
        let before = world.snapshot();
        assert!(rewind.rewind(&mut world, Some(&mut scene), 20, 21).is_err());
        assert_eq!(world.snapshot(), before);
        world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                ..Default::default()
            })
            .unwrap();
        let before = world.snapshot();
        let refused = rewind.rewind(&mut world, Some(&mut scene), 20, 5);
        assert!(refused.is_err() && rewind.last == Some(refused));
        assert_eq!(world.snapshot(), before);
    }
}
