//! The world: owner of all bodies, shapes and contacts, and the time step.
//!
//! [`World::step`] reads top to bottom as the stages of Box2D v3's step:
//! `update_pairs` → `collide` → `solve` (see the `solver` module). Body, shape
//! and contact functions live in their own files as further `impl World`
//! blocks; the invariant checker is in `validate.rs`.

mod joints;

use crate::profile::Instant;
use std::hash::Hasher;

use crate::body::Body;
use crate::broad_phase::BroadPhase;
use crate::chain::Chain;
use crate::contact::{Contact, Mixing};
use crate::core::{LINEAR_SLOP, MAX_SUB_STEPS};
use crate::error::{Error, Result, check_finite_vec, check_non_negative, check_positive};
use crate::id::{IdPool, NULL_INDEX, next_world_number};
use crate::math::Vec2;
use crate::profile::Profile;
use crate::shape::Shape;
use crate::simd::SimdPath;
use crate::solver::constraint_graph::{ConstraintGraph, OVERFLOW_INDEX};
use crate::solver::contact_solver::ContactSoftening;
use crate::solver::island::Island;
use crate::solver::softness::Softness;
use crate::solver::solver_set::{AWAKE_SET, FIRST_SLEEPING_SET, SolverSet};
use crate::solver::{self, StepContext, StepScratch, ms_since};

def_struct! {
    /// World settings. Defaults are Box2D v3's, tuned for objects of 0.1 to 10 m.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct WorldDef {
        /// Gravity, m/s².
        ///
        /// Box2D: `b2WorldDef.gravity`.
        pub gravity: Vec2 = Vec2::new(0.0, -10.0),
        /// Contact stiffness, Hz (capped at a quarter of the substep rate).
        ///
        /// Box2D: `b2WorldDef.contactHertz`.
        pub contact_hertz: f32 = 30.0,
        /// Contact damping ratio (dimensionless).
        ///
        /// Box2D: `b2WorldDef.contactDampingRatio`.
        pub contact_damping_ratio: f32 = 10.0,
        /// Largest speed at which overlapping shapes are pushed apart, m/s.
        ///
        /// Box2D: `b2WorldDef.contactSpeed`.
        pub contact_push_max_velocity: f32 = 3.0,
        /// Joint stiffness, Hz (for joints; kept here for the joint solver).
        pub joint_hertz: f32 = 60.0,
        /// Joint damping ratio (dimensionless).
        pub joint_damping_ratio: f32 = 2.0,
        /// Approach speed below which restitution is ignored, m/s.
        ///
        /// Box2D: `b2WorldDef.restitutionThreshold`.
        pub restitution_threshold: f32 = 1.0,
        /// Approach speed above which a hit event is reported, m/s.
        ///
        /// Box2D: `b2WorldDef.hitEventThreshold`.
        pub hit_event_threshold: f32 = 1.0,
        /// Largest speed of any body, m/s.
        ///
        /// Box2D: `b2WorldDef.maximumLinearSpeed`.
        pub maximum_linear_speed: f32 = 400.0,
        /// Contact recycling distance, metres (0 turns recycling off). A contact
        /// whose bodies moved relative to each other by less than this since its
        /// manifold was computed keeps the manifold and only updates the
        /// separations, which is much cheaper than recomputing it (Box2D v3's
        /// contact recycling; default 10 × linear slop = 5 cm).
        pub contact_recycle_distance: f32 = 10.0 * LINEAR_SLOP,
        /// Unbiased solver passes per substep (1 to
        /// [`MAX_RELAX_ITERATIONS`](crate::core::MAX_RELAX_ITERATIONS); Box2D uses 1). The relax pass
        /// removes the velocity that pushing overlapping shapes apart added; in
        /// deep overlaps spread over several bodies one Gauss–Seidel pass leaves
        /// some of it, and a second pass removes most of the rest at the cost of
        /// one more pass over the contacts per substep.
        pub relax_iterations: u32 = 1,
        /// Whether bodies may fall asleep.
        ///
        /// Box2D: `b2WorldDef.enableSleep`.
        pub enable_sleep: bool = true,
        /// Whether fast bodies are swept against static geometry.
        ///
        /// Box2D: `b2WorldDef.enableContinuous`.
        pub enable_continuous: bool = true,
        /// Whether each step's contact and joint impulses start from the last
        /// step's (warm starting). Off only to study the solver: a stack then
        /// sags, as its weight must be found again within every step.
        pub enable_warm_starting: bool = true,
        /// Whether contacts keep speculative points (points not yet touching,
        /// up to [`SPECULATIVE_DISTANCE`](crate::core::SPECULATIVE_DISTANCE)
        /// apart). Off, a two-point manifold drops a point more than 1.5 linear
        /// slops apart, as Box2D's testing switch does.
        pub enable_speculative: bool = true,
        /// Whether contacts between two non-static bodies of unequal mass are
        /// softened (Box2D's experimental contact softening; default off). The
        /// stiffness is then `ratio × min(contact_hertz, substep rate / 8)` Hz
        /// and the damping ratio `ratio × contact_damping_ratio`, where `ratio`
        /// is the lighter body's mass over the heavier's (from the inverse
        /// masses, so a kinematic body counts as infinitely heavy), at least 0.5.
        /// Equal masses give Box2D's ordinary contact except for the lower cap.
        /// Contacts with static bodies are unchanged.
        ///
        /// Box2D: `b2WorldDef.enableContactSoftening`.
        pub enable_contact_softening: bool = false,
        /// Anything the application wants to keep with the world.
        ///
        /// Box2D: `b2WorldDef.userData`.
        pub user_data: u64 = 0,
        /// Threads that run the parallel stages of a step, counting the thread
        /// that calls [`World::step`] (1 to [`MAX_WORKERS`]; default 1). With 1
        /// everything runs on the calling thread and no thread is started; with
        /// `n`, `n − 1` helper threads live as long as the world. The results
        /// are the same bits for every count. The pre-solve callback may run on
        /// the helper threads. On WebAssembly without threads
        /// (`wasm32-unknown-unknown`) no thread is started: any valid count runs
        /// as 1 and [`World::worker_count`] reports 1.
        ///
        /// Box2D: `b2WorldDef.workerCount`.
        pub worker_count: usize = 1,
        /// Which build of the hot loops to run (default [`SimdPath::Auto`]: the
        /// fastest this CPU supports, detected when the world is created). Every
        /// path gives the same bits. Forcing [`SimdPath::Avx2`] on a CPU without
        /// it makes [`World::new`] fail. [`World::simd_path`] says which runs.
        pub simd: SimdPath = SimdPath::Auto,
    }
    /// Box2D: `b2DefaultWorldDef`.
    impl Default for WorldDef;
}

/// The largest [`WorldDef::worker_count`].
pub const MAX_WORKERS: usize = 64;

/// A worker count must be 1 to [`MAX_WORKERS`].
pub(crate) fn check_worker_count(count: usize) -> Result<()> {
    if count == 0 || count > MAX_WORKERS {
        return Err(Error::OutOfRange {
            what: "worker count",
            expected: "1 to 64",
            value: count as f32,
        });
    }
    Ok(())
}

impl WorldDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        check_finite_vec(self.gravity, "gravity")?;
        check_non_negative(self.contact_hertz, "contact hertz")?;
        check_non_negative(self.contact_damping_ratio, "contact damping ratio")?;
        check_non_negative(self.contact_push_max_velocity, "contact push max velocity")?;
        check_non_negative(self.joint_hertz, "joint hertz")?;
        check_non_negative(self.joint_damping_ratio, "joint damping ratio")?;
        check_non_negative(self.restitution_threshold, "restitution threshold")?;
        check_non_negative(self.hit_event_threshold, "hit event threshold")?;
        check_non_negative(self.contact_recycle_distance, "contact recycle distance")?;
        check_positive(self.maximum_linear_speed, "maximum linear speed")?;
        check_worker_count(self.worker_count)?;
        if !(1..=crate::core::MAX_RELAX_ITERATIONS).contains(&self.relax_iterations) {
            return Err(Error::OutOfRange {
                what: "relax iterations",
                expected: "within 1..=MAX_RELAX_ITERATIONS (16)",
                value: self.relax_iterations as f32,
            });
        }
        Ok(())
    }
}

/// How many objects the world holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Live bodies.
    pub body_count: usize,
    /// Live shapes.
    pub shape_count: usize,
    /// Live contacts (touching or not).
    pub contact_count: usize,
    /// Awake bodies.
    pub awake_body_count: usize,
    /// Islands (awake and sleeping).
    pub island_count: usize,
    /// Awake islands.
    pub awake_island_count: usize,
    /// Sleeping solver sets (one per sleeping island, or a few merged).
    pub sleeping_set_count: usize,
    /// Graph colours holding constraints (overflow included).
    pub color_count: usize,
    /// Constraints per graph colour (the last entry is the overflow colour).
    pub color_constraint_counts: [usize; 24],
}

/// A fast, deterministic hasher for the pair set's overflow (a
/// multiply-xorshift on the 64-bit key). Nothing that changes results
/// iterates it.
#[derive(Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        let x = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
}

/// The set of shape pairs that have a contact, keyed by [`pair_key`](crate::contact::pair_key).
pub(crate) use crate::pair_set::PairSet;

/// A simulation world: owns every body, shape, chain and contact.
pub struct World {
    /// Distinguishes this world's ids from another world's.
    pub(crate) world_number: u16,
    pub(crate) settings: WorldDef,
    pub(crate) bodies: Vec<Body>,
    pub(crate) body_ids: IdPool,
    pub(crate) shapes: Vec<Shape>,
    pub(crate) shape_ids: IdPool,
    pub(crate) chains: Vec<Chain>,
    pub(crate) chain_ids: IdPool,
    pub(crate) contacts: Vec<Contact>,
    pub(crate) contact_ids: IdPool,
    pub(crate) islands: Vec<Island>,
    pub(crate) island_ids: IdPool,
    pub(crate) solver_sets: Vec<SolverSet>,
    pub(crate) solver_set_ids: IdPool,
    pub(crate) graph: ConstraintGraph,
    pub(crate) broad_phase: BroadPhase,
    pub(crate) pair_set: PairSet,
    /// The island to split at the next step, or NULL.
    pub(crate) split_island_id: u32,
    pub(crate) step_index: u64,
    pub(crate) scratch: StepScratch,
    pub(crate) profile: Profile,
    /// Solve the coloured constraints `lanes::LANES` at a time (same results
    /// as one at a time; off only to test that).
    pub(crate) use_wide_solver: bool,
    /// Friction and restitution mixing rules.
    pub(crate) mixing: Mixing,
    /// Event buffers and sensors (see `events.rs`, `sensor.rs`).
    pub(crate) events: crate::events::Events,
    /// Custom filter and pre-solve callbacks (see `filter.rs`).
    pub(crate) callbacks: crate::filter::Callbacks,
    /// Joints, their events and scratch (see `joint/`).
    pub(crate) joints: crate::joint::JointStorage,
    /// The threads that run the parallel stages (see `workers.rs`).
    pub(crate) workers: crate::workers::Workers,
    /// The build of the hot loops this world runs (resolved: `Baseline` or
    /// `Avx2`; see `simd.rs`).
    pub(crate) simd: SimdPath,
    /// Advanced by every call that changes the set of objects or what a
    /// [`RollbackState`](crate::snapshot::RollbackState) leaves out (see
    /// [`World::structure_generation`]).
    pub(crate) structure: u64,
    /// The recorder while recording (see `snapshot/recording.rs`).
    pub(crate) recorder: Option<Box<crate::snapshot::recording::Recorder>>,
    /// The static tree's edit count when the static polygons' edges were
    /// last classified (`tile_map.rs`); `None` before that.
    pub(crate) tiles_seen: Option<u64>,
}

impl World {
    /// Makes an empty world. Fails when the definition holds a bad number.
    ///
    /// Box2D: `b2CreateWorld`.
    pub fn new(def: &WorldDef) -> Result<World> {
        def.validate()?;
        let simd = def.simd.resolve()?;
        let mut world = World {
            world_number: next_world_number(),
            settings: *def,
            bodies: Vec::new(),
            body_ids: IdPool::default(),
            shapes: Vec::new(),
            shape_ids: IdPool::default(),
            chains: Vec::new(),
            chain_ids: IdPool::default(),
            contacts: Vec::new(),
            contact_ids: IdPool::default(),
            islands: Vec::new(),
            island_ids: IdPool::default(),
            solver_sets: Vec::new(),
            solver_set_ids: IdPool::default(),
            graph: ConstraintGraph::default(),
            broad_phase: BroadPhase::new(),
            pair_set: PairSet::default(),
            split_island_id: NULL_INDEX,
            step_index: 0,
            scratch: StepScratch::default(),
            profile: Profile::default(),
            use_wide_solver: true,
            mixing: Mixing::default(),
            events: Default::default(),
            callbacks: Default::default(),
            joints: Default::default(),
            workers: crate::workers::Workers::new(def.worker_count)?,
            simd,
            structure: 0,
            recorder: None,
            tiles_seen: None,
        };
        // Static, disabled and awake sets always exist, at indices 0, 1, 2.
        for _ in 0..FIRST_SLEEPING_SET {
            world.solver_set_ids.alloc();
            world.solver_sets.push(SolverSet {
                in_use: true,
                ..SolverSet::default()
            });
        }
        Ok(world)
    }

    /// Advances the world by `time_step` seconds in `sub_step_count` substeps
    /// (4 is a good default at 60 Hz). A zero time step moves nothing; like
    /// any step it replaces the last step's events (with only the end and
    /// joint events that calls made since the last step caused).
    ///
    /// # Errors
    /// A negative or non-finite time step, or a substep count that is zero or
    /// above [`MAX_SUB_STEPS`].
    ///
    /// # Panics
    /// Only by passing on a panic of a user callback (custom filter or
    /// pre-solve), after the step has finished with the world valid; see
    /// [`set_pre_solve`](World::set_pre_solve).
    ///
    /// Box2D: `b2World_Step`.
    pub fn step(&mut self, time_step: f32, sub_step_count: u32) -> Result<()> {
        if self.recorder.is_none() {
            return self.step_unrecorded(time_step, sub_step_count);
        }
        self.record_before_step();
        self.step_unrecorded(time_step, sub_step_count)?;
        self.record_step(time_step, sub_step_count);
        Ok(())
    }

    /// [`World::step`] without the recorder.
    fn step_unrecorded(&mut self, time_step: f32, sub_step_count: u32) -> Result<()> {
        check_non_negative(time_step, "time step")?;
        if !(1..=MAX_SUB_STEPS).contains(&sub_step_count) {
            return Err(Error::OutOfRange {
                what: "sub step count",
                expected: "within 1..=MAX_SUB_STEPS (1024)",
                value: sub_step_count as f32,
            });
        }
        self.profile = Profile::default();
        // Every kind of event: drop the last step's, publish the end events
        // (and joint events) caused by calls made since.
        self.begin_joint_events();
        self.begin_step_events();
        if time_step == 0.0 {
            // A paused step (as in Box2D) simulates nothing and reports only
            // what calls made since the last step caused.
            self.end_paused_step_events();
            return Ok(());
        }
        let step_start = Instant::now();
        let _stepping = self.workers.stepping();
        let _ = self.workers.take_parallel_ms(); // from calls since the last step
        let ctx = self.step_context(time_step, sub_step_count);

        let t = Instant::now();
        self.update_pairs();
        self.profile.pairs = ms_since(t);

        self.update_tiles();
        let t = Instant::now();
        self.collide(&ctx);
        self.profile.collide = ms_since(t);

        let t = Instant::now();
        solver::solve(self, &ctx);
        self.profile.solve = ms_since(t);

        self.end_step_events(); // events: sensor overlaps, bodies that fell asleep

        self.profile.step = ms_since(step_start);
        self.profile.parallel = self.workers.take_parallel_ms();
        // A callback that panicked during the step was answered `true`; its
        // panic goes on now that the world is consistent (see `filter.rs`).
        self.resume_callback_panic();
        Ok(())
    }

    /// Classifies the static polygons' edges afresh (see `tile_map.rs`) when
    /// the static tree changed since the last time.
    pub(crate) fn update_tiles(&mut self) {
        let edits = self.broad_phase.static_edits;
        if self.tiles_seen != Some(edits) {
            self.tiles_seen = Some(edits);
            crate::tile_map::update_tiles(
                &mut self.shapes,
                &self.bodies,
                &self.solver_sets[crate::solver::solver_set::STATIC_SET as usize],
                self.broad_phase.tree(crate::BodyType::Static),
            );
        }
    }

    fn step_context(&self, dt: f32, sub_steps: u32) -> StepContext {
        let s = &self.settings;
        let h = dt / sub_steps as f32;
        let inv_h = sub_steps as f32 / dt;
        // Stiffness beyond a quarter of the substep rate is not resolvable.
        let contact_hertz = s.contact_hertz.min(0.25 * inv_h);
        StepContext {
            dt,
            inv_dt: 1.0 / dt,
            h,
            inv_h,
            sub_steps,
            relax_iterations: s.relax_iterations,
            contact_softness: Softness::new(contact_hertz, s.contact_damping_ratio, h),
            static_softness: Softness::new(2.0 * contact_hertz, s.contact_damping_ratio, h),
            // Box2D caps the softened stiffness at an eighth of the substep rate.
            contact_softening: s.enable_contact_softening.then(|| ContactSoftening {
                hertz: s.contact_hertz.min(0.125 * inv_h),
                damping_ratio: s.contact_damping_ratio,
                h,
            }),
            restitution_threshold: s.restitution_threshold,
            max_linear_speed: s.maximum_linear_speed,
            contact_push_max_velocity: s.contact_push_max_velocity,
            gravity: s.gravity,
            enable_warm_starting: s.enable_warm_starting,
            enable_sleep: s.enable_sleep,
            enable_continuous: s.enable_continuous,
        }
    }

    /// The settings the world was made with (as changed by the setters).
    pub fn settings(&self) -> &WorldDef {
        &self.settings
    }

    /// Turns sleeping on or off; turning it off wakes every sleeping island.
    ///
    /// Box2D: `b2World_EnableSleeping`.
    pub fn enable_sleeping(&mut self, enable: bool) {
        if self.settings.enable_sleep == enable {
            return;
        }
        self.settings.enable_sleep = enable;
        if !enable {
            while let Some(set) = (FIRST_SLEEPING_SET as usize..self.solver_sets.len())
                .find(|&i| self.solver_sets[i].in_use)
            {
                self.wake_solver_set(set as u32);
            }
        }
    }

    /// The build of the hot loops this world runs: [`SimdPath::Baseline`] or
    /// [`SimdPath::Avx2`] ([`WorldDef::simd`] with `Auto` resolved by CPU
    /// detection when the world was made).
    pub fn simd_path(&self) -> SimdPath {
        self.simd
    }

    /// Time per stage of the last step.
    ///
    /// Box2D: `b2World_GetProfile`.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// How many steps have run (zero-length steps excluded).
    pub fn step_count(&self) -> u64 {
        self.step_index
    }

    /// Object counts.
    ///
    /// Box2D: `b2World_GetCounters`.
    pub fn counters(&self) -> Counters {
        let awake = &self.solver_sets[AWAKE_SET as usize];
        let mut counts = [0usize; 24];
        for (c, color) in counts.iter_mut().zip(&self.graph.colors) {
            *c = color.contact_sims.len();
        }
        debug_assert_eq!(counts.len(), OVERFLOW_INDEX + 1);
        Counters {
            body_count: self.body_ids.count() as usize,
            shape_count: self.shape_ids.count() as usize,
            contact_count: self.contact_ids.count() as usize,
            awake_body_count: awake.body_sims.len(),
            island_count: self.island_ids.count() as usize,
            awake_island_count: awake.island_sims.len(),
            sleeping_set_count: (FIRST_SLEEPING_SET as usize..self.solver_sets.len())
                .filter(|&i| self.solver_sets[i].in_use)
                .count(),
            color_count: self.active_color_count(),
            color_constraint_counts: counts,
        }
    }
}
