//! The interface every engine adapter implements.

use std::ops::Range;

use crate::desc::{Action, BodyState, SceneDesc};

/// What exists in a world right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Bodies of every kind.
    pub bodies: usize,
    /// Shapes; a chain loop counts one per segment (as Box2D stores it).
    pub shapes: usize,
    /// Joints.
    pub joints: usize,
}

/// Settings shared by every engine for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Worker threads the engine may use (Box2D workers; 1 = single-threaded).
    pub threads: usize,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self { threads: 1 }
    }
}

/// A way of saving a world's state and putting it back (the `snapshot` bin times them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveKind {
    /// The engine's whole-world save as bytes: ours `World::snapshot` / `restore`, Box2D's
    /// `b2World_Snapshot` / `b2World_Restore`, Rapier's `PhysicsWorld` through serde and
    /// bincode (feature `rapier-serde`).
    Full,
    /// In-memory rollback for an unchanged set of objects, the fast form: ours
    /// `RollbackState::new` (the stores copied).
    Rollback,
    /// The same, the compact form: ours `RollbackState::compact` (the stores packed).
    RollbackCompact,
}

/// Rows of the per-stage table: our `Profile` beside Box2D's `b2Profile`
/// (`b2World_GetProfile`), ms per step. The indented rows are parts of the row
/// above them.
pub const STAGES: [&str; STAGE_COUNT] = [
    "step",
    "pairs (broad phase)",
    "collide (narrow phase)",
    "solve",
    "· split islands",
    "· tree rebuild (Box2D: in pairs)",
    "· constraints",
    "· · prepare (Box2D: with its solver setup)",
    "· · integrate velocities",
    "· · warm start",
    "· · solve impulses",
    "· · integrate positions",
    "· · relax impulses",
    "· · restitution",
    "· · store impulses",
    "· finalize bodies",
    "· bullets",
    "· enlarge proxies",
    "· sleep islands",
    "sensors and events after solve",
];

/// Number of [`STAGES`].
pub const STAGE_COUNT: usize = 20;

/// One step's profile, ms per row of [`STAGES`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepProfile {
    /// Per row of [`STAGES`].
    pub stages: [f64; STAGE_COUNT],
    /// Time inside parallel regions (ours: `Profile::parallel`); `None` when the
    /// engine does not say.
    pub parallel: Option<f64>,
}

/// A physics engine that can build the benchmark scenes.
pub trait Engine {
    /// Short display name.
    fn name(&self) -> &'static str;

    /// A note printed next to the engine's results (build flags, features), if any.
    fn note(&self) -> Option<String> {
        None
    }

    /// Why this engine cannot run `scene` yet, or `None` if it can.
    fn unsupported(&self, scene: &SceneDesc) -> Option<String>;

    /// Builds the initial state of `scene` (bodies and joints in their initial ranges).
    fn build(&self, scene: &SceneDesc, config: RunConfig) -> Box<dyn Simulation>;
}

/// One engine's world holding one scene.
pub trait Simulation {
    /// Advances by `time_step` seconds with `sub_steps` substeps (or solver iterations).
    fn step(&mut self, time_step: f32, sub_steps: u32);

    /// Creates or destroys a batch of the scene.
    fn apply(&mut self, action: Action);

    /// Bodies, shapes and joints alive now.
    fn counts(&self) -> Counts;

    /// State of every body key of the scene (`None` for keys not alive).
    fn body_states(&self) -> Vec<Option<BodyState>>;

    /// The last step's time per stage, when the engine measures it.
    fn profile(&self) -> Option<StepProfile> {
        None
    }

    /// Saves the world's state the `kind` way into a buffer the simulation keeps; the bytes
    /// it holds, or `None` when the engine has no such save.
    fn save(&mut self, kind: SaveKind) -> Option<usize> {
        let _ = kind;
        None
    }

    /// Puts back what [`Simulation::save`] saved last the `kind` way; false when the engine
    /// has no such save or refused it.
    fn load(&mut self, kind: SaveKind) -> bool {
        let _ = kind;
        false
    }

    /// Bytes per part of a compact rollback state of this world, when the engine has one.
    fn rollback_breakdown(&mut self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Applies the scene's scheduled actions for step `step_index`, then steps once: the same
/// order as Box2D's benchmark loop (step function, then world step).
pub fn advance(
    sim: &mut dyn Simulation,
    scene: &SceneDesc,
    step_index: u32,
    time_step: f32,
    sub_steps: u32,
) {
    for action in scene.actions(step_index) {
        sim.apply(action);
    }
    sim.step(time_step, sub_steps);
}

/// What an engine's simulation makes from a scene description, one body or
/// joint at a time. The scene's start and its spawned batches are built from
/// these the same way for every engine: bodies first, then joints.
pub(crate) trait SceneBuilder {
    /// The scene being simulated.
    fn scene(&self) -> &SceneDesc;

    /// Creates body `key` of the scene with its shapes.
    fn create_body(&mut self, key: usize);

    /// Creates joint `index` of the scene.
    fn create_joint(&mut self, index: usize);

    /// Destroys body `key` of the scene (and so its joints) if it is alive.
    fn destroy_body(&mut self, key: usize);

    /// Creates the bodies `keys`, then the joints `joints` (indices).
    fn create_all(&mut self, keys: Range<usize>, joints: Range<usize>) {
        for key in keys {
            self.create_body(key);
        }
        for index in joints {
            self.create_joint(index);
        }
    }

    /// Creates the scene's initial bodies and joints.
    fn create_initial(&mut self) {
        let scene = self.scene();
        let (keys, joints) = (scene.initial_bodies.clone(), scene.initial_joints.clone());
        self.create_all(keys, joints);
    }

    /// Creates the bodies and joints of batch `batch`.
    fn spawn(&mut self, batch: usize) {
        let batch = &self.scene().batches[batch];
        let (keys, joints) = (batch.bodies.clone(), batch.joints.clone());
        self.create_all(keys, joints);
    }

    /// Spawns a batch, or destroys a batch's bodies (and so its joints).
    fn act(&mut self, action: Action) {
        match action {
            Action::Spawn(batch) => self.spawn(batch),
            Action::Despawn(batch) => {
                for key in self.scene().batches[batch].bodies.clone() {
                    self.destroy_body(key);
                }
            }
        }
    }
}
