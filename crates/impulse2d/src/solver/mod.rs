//! The soft-step solver and the data structures it works on.
//!
//! [`solve`] runs, for the awake set:
//! 1. split the island chosen last step (if any);
//! 2. `prepare_contacts`: one [`ContactConstraint`](contact_solver::ContactConstraint)
//!    per touching contact, in graph-colour order (overflow first);
//! 3. per substep: `integrate_velocities` (gravity, forces, damping),
//!    `warm_start`, `solve` (soft, with position bias), `integrate_positions`
//!    (speed clamps, motion locks, position and rotation deltas) and `relax`
//!    (the same pass without bias, to remove the velocity the bias added; one
//!    pass by default, as in Box2D);
//! 4. `apply_restitution` and `store_impulses`;
//! 5. `finalize_bodies`: transforms, sleep timers and shape bounding boxes;
//!    each fast body that is not a bullet is swept there against static
//!    shapes (`continuous`: time of impact);
//! 6. `bullet`: sweep the fast bullets against static, kinematic and other
//!    dynamic shapes;
//! 7. enlarge the broad-phase proxies of boxes that left their fat box;
//! 8. put islands whose bodies have all rested long enough to sleep;
//! 9. quarantine (disable, with an event) the bodies whose motion stopped
//!    being finite: `integrate_velocities` stops a body whose velocity does
//!    and `finalize_bodies` leaves such bodies where they were (see
//!    `quarantine.rs`).
//!
//! # References
//! - E. Catto, *Solver2D* (2024): `solve_soft_step`.
//! - E. Catto, Box2D v3 `solver.c`.

pub(crate) mod bullet;
pub(crate) mod constraint_graph;
pub(crate) mod contact_solver;
pub(crate) mod contact_solver_wide;
pub(crate) mod continuous;
pub(crate) mod island;
pub(crate) mod lanes;
pub(crate) mod softness;
pub(crate) mod solver_set;
pub(crate) mod stages;

use crate::profile::Instant;

use crate::bitset::BitSet;
use crate::body::{BodySim, BodyState, BodyType, flags};
use crate::id::NULL_INDEX;
use crate::math::{PI, Rot, Vec2};
use crate::shape::speculative_aabb;
use crate::simd::multiversion;
use crate::workers::SharedMut;
use crate::world::World;
use contact_solver::ContactConstraint;
use contact_solver_wide::WideConstraint;
use softness::Softness;
use solver_set::{AWAKE_SET, STATIC_SET};

/// Smallest block of bodies worth a block of its own when finalizing.
const MIN_BODY_BLOCK: usize = 64;

/// How long every body of an island must be slow before it sleeps, s.
pub const TIME_TO_SLEEP: f32 = 0.5;

/// The largest rotation of a body in one step, radians (unless the body
/// allows fast rotation).
const MAX_ROTATION: f32 = 0.25 * PI;

/// Time step quantities shared by the stages.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepContext {
    /// Step, s, and its inverse.
    pub dt: f32,
    pub inv_dt: f32,
    /// Substep, s, and its inverse.
    pub h: f32,
    pub inv_h: f32,
    pub sub_steps: u32,
    /// Unbiased passes after each substep's position update.
    pub relax_iterations: u32,
    pub contact_softness: Softness,
    pub static_softness: Softness,
    /// Contact softening between unequal masses (`WorldDef::enable_contact_softening`), if on.
    pub contact_softening: Option<contact_solver::ContactSoftening>,
    pub restitution_threshold: f32,
    pub max_linear_speed: f32,
    pub contact_push_max_velocity: f32,
    pub gravity: Vec2,
    pub enable_warm_starting: bool,
    pub enable_sleep: bool,
    pub enable_continuous: bool,
}

#[cfg(test)]
impl StepContext {
    /// A step of four substeps of `h` seconds under `gravity` (m/s²), with the
    /// world's default contact softness and switches: the unit tests' step.
    pub(crate) fn for_tests(h: f32, gravity: Vec2) -> Self {
        Self {
            dt: 4.0 * h,
            inv_dt: 0.25 / h,
            h,
            inv_h: 1.0 / h,
            sub_steps: 4,
            relax_iterations: 1,
            contact_softness: Softness::new(30.0, 10.0, h),
            static_softness: Softness::new(60.0, 10.0, h),
            contact_softening: None,
            restitution_threshold: 1.0,
            max_linear_speed: 400.0,
            contact_push_max_velocity: 3.0,
            gravity,
            enable_warm_starting: true,
            enable_sleep: true,
            enable_continuous: true,
        }
    }
}

/// What one worker gathers in a parallel stage whose blocks find things in
/// no particular order. Merged after the stage by bitwise or, or by an
/// order-free maximum, so the result is the same whichever worker found what.
#[derive(Debug, Default)]
pub(crate) struct WorkerScratch {
    /// Contacts (by id) whose touching state changed in the narrow phase.
    pub contact_bits: BitSet,
    /// Awake bodies (by awake index) with a shape whose fat box grew.
    pub enlarged_bodies: BitSet,
    /// Awake bullets (by awake index) that moved fast enough to be swept.
    pub fast_bullets: BitSet,
    /// Awake islands (by index in the awake set) that must stay awake.
    pub awake_islands: BitSet,
    /// Awake bodies (by awake index) whose motion stopped being finite.
    pub quarantined: BitSet,
    /// The island that most wants to sleep but must be split first, as
    /// (sleep time, island id); (0, NULL) for none.
    pub split_candidate: (f32, u32),
    /// The contact flags of this worker's narrow-phase blocks, or-ed
    /// together (only `sim_flags::ENABLE_HIT_EVENT` is read).
    pub contact_flags: u32,
}

/// Buffers reused from step to step so that a steady step allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct StepScratch {
    /// One per worker (see [`WorkerScratch`]); each worker locks only its own.
    pub workers: Vec<std::sync::Mutex<WorkerScratch>>,
    /// New shape pairs from the broad phase.
    pub pairs: Vec<(u32, u32)>,
    /// Per worker: the pairs its blocks of the pair search found.
    pub pair_buffers: Vec<std::sync::Mutex<crate::broad_phase::PairBuffer>>,
    /// The pair search's blocks in move-buffer order, for the merge.
    pub pair_order: Vec<(u32, u32, u32, u32)>,
    /// Contacts (by id) whose touching state changed in the narrow phase.
    pub contact_state_bits: BitSet,
    /// Whether a contact of the graph's colours may carry
    /// `sim_flags::ENABLE_HIT_EVENT`: set by each step's narrow phase from
    /// the contacts it updated (every awake one), and by
    /// `World::add_contact_to_graph` for a contact that joins the colours
    /// later (a woken one keeps the flags it fell asleep with). When it is
    /// false, the hit events' scan over the colours is skipped.
    pub hit_events_possible: bool,
    /// Prepared contact constraints, in colour order.
    pub constraints: Vec<ContactConstraint>,
    /// The coloured constraints packed `lanes::LANES` at a time (overflow excluded).
    pub wide_constraints: Vec<WideConstraint>,
    /// The lanes of the wide joint passes (`joint/wide.rs`), per chunk of
    /// `lanes::LANES` joints of a colour (overflow excluded).
    pub joint_lanes: Vec<crate::joint::wide::JointLanes>,
    /// Awake bodies (by awake index) with a shape whose fat box grew.
    pub enlarged_bodies: BitSet,
    /// By awake index, for each body of `enlarged_bodies`: what the proxy
    /// enlargement needs (written where the box grew; other entries are
    /// stale). Sized to the awake body count by the finalize stage.
    pub enlarged_proxies: Vec<EnlargedProxy>,
    /// Per block of the proxy enlargement: the moves it buffers, then the
    /// position of its first among them (see `enlarge_proxies`).
    pub enlarge_block_moves: Vec<u32>,
    /// Awake islands (by index in the awake set) that must stay awake.
    pub awake_islands: BitSet,
    /// Awake bullets (by awake index) that moved fast enough to be swept
    /// (`bullet.rs`; the other fast bodies are swept in `finalize_bodies`).
    pub fast_bullets: Vec<u32>,
    /// Per entry of `fast_bullets`: the bullet's time of impact (fraction of
    /// the step).
    pub bullet_fractions: Vec<f32>,
    /// Bodies (by id, in awake order) to quarantine at the end of the step.
    pub quarantined: Vec<u32>,
    /// Island splitting work lists.
    pub split_stack: Vec<u32>,
    pub split_bodies: Vec<u32>,
    /// The stages of the constraint solve (see [`stages`]).
    pub stages: Vec<stages::Stage>,
    /// Debug builds: bodies seen in one colour.
    pub color_check: BitSet,
    /// This step's joint trees, solved by stages of their own
    /// (`joint/tree.rs`).
    pub joint_forest: crate::joint::tree::JointForest,
    /// Whether the broad phase's dynamic and kinematic trees still wait for
    /// their rebuild after the pair search (set by the narrow phase; the
    /// rebuild begins beside the solver's stages, see [`World::rebuild_trees`]).
    pub rebuild_trees: bool,
    /// Whether that rebuild is begun (its top built) and waits for its
    /// subtree tasks, which run in the finalize stage, and its finish.
    pub trees_begun: bool,
    /// Per awake body, what the velocity integration adds and multiplies
    /// in every substep of the step (see [`VelocityStep`]).
    pub velocity_steps: Vec<VelocityStep>,
}

/// What the proxy enlargement needs of one enlarged body, written by the
/// stage that grew its fat box, while the shape is in cache: for a body of one
/// shape, that shape's proxy and new fat box, so the serial enlargement reads
/// neither the body nor the shape.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EnlargedProxy {
    /// The proxy of the body's only shape, whose `enlarged_aabb` flag was
    /// cleared; `None`: walk the body's shapes from `head_shape` (their
    /// flags say which grew).
    pub key: Option<crate::broad_phase::ProxyKey>,
    /// That shape's new fat box, metres (meaningless when `key` is `None`).
    pub fat_aabb: crate::pos::WorldAabb,
    /// The body's first shape (the walk's start when `key` is `None`).
    pub head_shape: u32,
}

impl EnlargedProxy {
    /// The record of an enlarged body whose first shape is `head` (id
    /// `head_id`): when it is the body's only shape, its proxy and fat box
    /// (the shape's `enlarged_aabb` flag cleared: the record carries it);
    /// otherwise "walk the shapes from `head_id`".
    #[inline(always)]
    pub fn hand_over(head_id: u32, head: &mut crate::shape::Shape) -> EnlargedProxy {
        debug_assert!(head_id != NULL_INDEX);
        match head.proxy_key {
            Some(key) if head.enlarged_aabb && head.next_shape_id == NULL_INDEX => {
                head.enlarged_aabb = false;
                EnlargedProxy {
                    key: Some(key),
                    fat_aabb: head.fat_aabb,
                    head_shape: head_id,
                }
            }
            _ => EnlargedProxy {
                head_shape: head_id,
                ..EnlargedProxy::default()
            },
        }
    }
}

/// Worker `worker`'s scratch (each worker locks only its own, so the lock
/// never waits).
pub(crate) fn lock_worker(
    scratch: &[std::sync::Mutex<WorkerScratch>],
    worker: usize,
) -> std::sync::MutexGuard<'_, WorkerScratch> {
    scratch[worker].lock().unwrap_or_else(|e| e.into_inner())
}

impl StepScratch {
    /// One cleared [`WorkerScratch`] per worker, its bit sets sized for
    /// `bits` items, with `prepare` applied to each (allocates only the first
    /// time and when the sets grow).
    pub(crate) fn worker_scratch(
        &mut self,
        count: usize,
        prepare: impl Fn(&mut WorkerScratch),
    ) -> &[std::sync::Mutex<WorkerScratch>] {
        self.workers.resize_with(count, Default::default);
        for w in &mut self.workers {
            prepare(w.get_mut().unwrap_or_else(|e| e.into_inner()));
        }
        &self.workers
    }
}

/// Runs the solver stages for one step (see the module documentation).
pub(crate) fn solve(world: &mut World, ctx: &StepContext) {
    world.step_index += 1;

    let t = Instant::now();
    if world.split_island_id != NULL_INDEX {
        let id = world.split_island_id;
        world.split_island(id);
        world.split_island_id = NULL_INDEX;
    }
    world.profile.split_islands = ms_since(t);

    if world.solver_sets[AWAKE_SET as usize].body_sims.is_empty() {
        world.rebuild_trees();
        return;
    }

    solve_constraints(world, ctx);
    world.begin_rebuild_trees(); // done beside the stages, unless there were none
    world.check_joint_thresholds(); // joints: events and breaking (buffers moves only)

    let t = Instant::now();
    let split_candidate = finalize_bodies(world, ctx); // with the trees' subtree tasks
    world.profile.finalize_bodies = ms_since(t);
    world.finish_rebuild_trees();

    let t = Instant::now();
    if !world.scratch.fast_bullets.is_empty() {
        bullet::solve_bullets(world); // events: bullets after the other fast bodies
    }
    world.profile.continuous = ms_since(t);

    let t = Instant::now();
    enlarge_proxies(world);
    world.profile.enlarge_proxies = ms_since(t);

    world.record_step_events(); // events: hits and body moves, before islands sleep

    let t = Instant::now();
    if ctx.enable_sleep {
        world.split_island_id = split_candidate;
        sleep_islands(world);
    }
    world.profile.sleep_islands = ms_since(t);

    // Last: disabling a body reorders the awake set.
    if !world.scratch.quarantined.is_empty() {
        world.quarantine_bodies();
    }
}

impl World {
    /// Completes the rebuild of the broad phase's dynamic and kinematic trees
    /// on this thread, whatever part of it is left: its beginning if the pair
    /// search left the trees (see [`StepScratch::rebuild_trees`]) and nothing
    /// began it yet, its subtree tasks and its finish if it is begun.
    pub(crate) fn rebuild_trees(&mut self) {
        self.begin_rebuild_trees();
        if self.scratch.trees_begun {
            let t = Instant::now();
            let (_, tasks) = self.broad_phase.rebuild_tasks();
            for index in 0..tasks.len() {
                tasks.run(self.simd, index);
            }
            self.profile.rebuild_trees += ms_since(t);
            self.finish_rebuild_trees();
        }
    }

    /// Begins the rebuild of the trees (its serial top, see
    /// `DynamicTree::begin_rebuild`) if the pair search left them and nothing
    /// began it yet (the solver's stages begin it beside them).
    pub(crate) fn begin_rebuild_trees(&mut self) {
        if std::mem::take(&mut self.scratch.rebuild_trees) {
            let t = Instant::now();
            self.broad_phase.begin_rebuild_trees(self.simd);
            self.profile.rebuild_trees += ms_since(t);
            self.scratch.trees_begun = true;
        }
    }

    /// Finishes the begun rebuild of the trees, whose tasks have run.
    pub(crate) fn finish_rebuild_trees(&mut self) {
        if std::mem::take(&mut self.scratch.trees_begun) {
            let t = Instant::now();
            self.broad_phase.finish_rebuild_trees(self.simd);
            self.profile.rebuild_trees += ms_since(t);
        }
    }
}

/// Milliseconds since `t`.
#[inline]
pub(crate) fn ms_since(t: Instant) -> f32 {
    t.elapsed().as_secs_f32() * 1000.0
}

/// Prepares the joints and contact constraints and runs the substeps on the
/// world's workers (see [`stages`]).
///
/// The overflow colour is solved first with the scalar solver, then colours 0
/// to 22 in order, `lanes::LANES` constraints at a time with the wide solver (or one at
/// a time with the scalar solver when `use_wide_solver` is off; the results
/// are the same bits).
fn solve_constraints(world: &mut World, ctx: &StepContext) {
    world.joints.inv_h = ctx.inv_h; // joints: prepared once per step, in the stages
    let use_wide = world.use_wide_solver;
    let simd = world.simd;
    let World {
        graph,
        bodies,
        solver_sets,
        settings,
        scratch,
        profile,
        workers,
        broad_phase,
        ..
    } = world;
    // The awake states leave their set meanwhile, so that joint preparation
    // may read every set's body sims while the stages write the states.
    let mut states = std::mem::take(&mut solver_sets[AWAKE_SET as usize].body_states);
    let joint_stores = stages::JointStores {
        bodies,
        solver_sets,
        tuning: (settings.joint_hertz, settings.joint_damping_ratio),
    };
    // The trees' rebuild begins beside the stages (its serial top; its
    // subtree tasks run in the finalize stage): the solve never reads them.
    // (The trees if not begun yet, and the beginning's time, ms.)
    let trees = std::mem::take(&mut scratch.rebuild_trees).then_some(broad_phase);
    let began = trees.is_some();
    let rebuild = std::sync::Mutex::new((trees, 0.0f32));
    let side = || {
        let mut rebuild = rebuild.lock().unwrap_or_else(|e| e.into_inner());
        let (trees, ms) = &mut *rebuild;
        if let Some(broad_phase) = trees.take() {
            let t = Instant::now();
            broad_phase.begin_rebuild_trees(simd);
            let elapsed = t.elapsed();
            // One thread does it on any worker count.
            workers.note_serial(elapsed);
            *ms = elapsed.as_secs_f32() * 1000.0;
        }
    };
    stages::solve_constraints(
        workers,
        graph,
        &joint_stores,
        &mut states,
        scratch,
        profile,
        use_wide,
        simd,
        ctx,
        &side,
    );
    let (trees, ms) = rebuild.into_inner().unwrap_or_else(|e| e.into_inner());
    profile.rebuild_trees += ms;
    if trees.is_some() {
        scratch.rebuild_trees = true; // no stage ran: `solve` begins it
    } else if began {
        scratch.trees_begun = true;
    }
    solver_sets[AWAKE_SET as usize].body_states = states;
}

/// What the velocity integration of one body adds to its velocities and
/// multiplies them by, the same in every substep of a step (it depends only
/// on the body's sim and the substep's length): worked out in the first
/// substep and kept, so that the later substeps read these 20 bytes per body
/// instead of the fields of the body's sim, which lie on two cache lines.
///
/// Only the x86-64 group integration (`contact_solver_wide::bodies`) reads
/// them; elsewhere every body is integrated from its sim.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct VelocityStep {
    /// Velocity change from the force and gravity, m/s.
    pub dv: Vec2,
    /// Angular velocity change from the torque, rad/s.
    pub dw: f32,
    /// The linear and angular damping factors (dimensionless).
    pub linear_damping: f32,
    pub angular_damping: f32,
}

multiversion!(
    /// Applies gravity, forces and damping to the velocities. In the first
    /// substep (`first`) it works out and keeps each body's
    /// [`VelocityStep`] in `steps` (one per body), which the later substeps
    /// (the same blocks of bodies) read (on x86-64, for the bodies it runs in
    /// groups of eight; the others are always integrated from their sims).
    fn integrate_velocities(
        sims: &[BodySim],
        steps: &mut [VelocityStep],
        states: &mut [BodyState],
        ctx: &StepContext,
        first: bool,
    ) = integrate_velocities_kernel, isa
);

/// The kernel of [`integrate_velocities`], compiled into each of its builds
/// (on x86-64 it is told which: `isa`). On x86-64 both builds run eight
/// bodies at once (`contact_solver_wide::integrate_velocities`, the scalar
/// loop's operations lane by lane), and the scalar loop below for what is
/// left; other targets run the scalar loop.
#[inline(always)]
fn integrate_velocities_kernel<#[cfg(target_arch = "x86_64")] I: crate::simd::isa::Isa>(
    #[cfg(target_arch = "x86_64")] isa: I,
    sims: &[BodySim],
    steps: &mut [VelocityStep],
    states: &mut [BodyState],
    ctx: &StepContext,
    first: bool,
) {
    let h = ctx.h;
    let scalar = |sims: &[BodySim], states: &mut [BodyState]| {
        for (sim, state) in sims.iter().zip(states.iter_mut()) {
            // Damping by the Padé approximant of exp(−c·h): 1 / (1 + c·h).
            let linear_damping = 1.0 / (1.0 + h * sim.linear_damping);
            let angular_damping = 1.0 / (1.0 + h * sim.angular_damping);
            // Kinematic bodies (zero inverse mass) ignore gravity.
            let gravity_scale = if sim.inv_mass > 0.0 {
                sim.gravity_scale
            } else {
                0.0
            };
            let dv = sim.force * (h * sim.inv_mass) + ctx.gravity * (h * gravity_scale);
            let dw = h * sim.inv_inertia * sim.torque;
            let v = Vec2::mul_add(dv, linear_damping, state.linear_velocity);
            let w = dw + angular_damping * state.angular_velocity;
            if velocity_is_sane(v, w) && state.flags & flags::QUARANTINED_VELOCITY == 0 {
                state.linear_velocity = v;
                state.angular_velocity = w;
            } else {
                // Absurd input (a force of 3e38 N, a mass of 1e-30 kg, …): the
                // body stops for the rest of the step, so that nothing
                // non-finite reaches the bodies it touches, and is quarantined
                // when the step finalizes it.
                state.linear_velocity = Vec2::ZERO;
                state.angular_velocity = 0.0;
                state.flags |= flags::QUARANTINED_VELOCITY;
            }
        }
    };
    #[cfg(target_arch = "x86_64")]
    contact_solver_wide::integrate_velocities(
        isa,
        (sims, steps, first),
        states,
        h,
        ctx.gravity,
        scalar,
    );
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (steps, first);
        scalar(sims, states);
    }
}

/// Whether a velocity is finite with a finite square, which keeps the
/// constraint solvers' arithmetic on it finite (speeds below about 1.8e19 m/s
/// and rad/s; the speed limits clamp far below that).
#[inline(always)]
fn velocity_is_sane(v: Vec2, w: f32) -> bool {
    (v.length_squared() + w * w).is_finite()
}

multiversion!(
    /// Clamps speeds, applies motion locks and advances the position deltas.
    fn integrate_positions(states: &mut [BodyState], ctx: &StepContext) = integrate_positions_kernel, isa
);

/// The kernel of [`integrate_positions`], compiled into each of its builds
/// (on x86-64 it is told which: `isa`). On x86-64 both builds run eight
/// bodies at once (`contact_solver_wide::integrate_positions`, the scalar
/// loop's operations lane by lane) and the scalar loop below for the groups
/// it leaves; other targets run the scalar loop.
#[inline(always)]
fn integrate_positions_kernel<#[cfg(target_arch = "x86_64")] I: crate::simd::isa::Isa>(
    #[cfg(target_arch = "x86_64")] isa: I,
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    let scalar = |states: &mut [BodyState]| integrate_positions_one_by_one(states, ctx);
    #[cfg(target_arch = "x86_64")]
    {
        let caps = (ctx.max_linear_speed, MAX_ROTATION * ctx.inv_dt);
        contact_solver_wide::integrate_positions(isa, states, ctx.h, caps, scalar);
    }
    #[cfg(not(target_arch = "x86_64"))]
    scalar(states);
}

/// The scalar position integration: clamps speeds, applies motion locks and
/// advances the position deltas of `states`, one body after another.
#[inline(always)]
fn integrate_positions_one_by_one(states: &mut [BodyState], ctx: &StepContext) {
    let h = ctx.h;
    let max_linear = ctx.max_linear_speed;
    let max_angular = MAX_ROTATION * ctx.inv_dt;
    for state in states.iter_mut() {
        let mut v = state.linear_velocity;
        let mut w = state.angular_velocity;
        if state.flags & flags::LOCK_LINEAR_X != 0 {
            v.x = 0.0;
        }
        if state.flags & flags::LOCK_LINEAR_Y != 0 {
            v.y = 0.0;
        }
        if state.flags & flags::LOCK_ANGULAR_Z != 0 {
            w = 0.0;
        }
        if v.length_squared() > max_linear * max_linear {
            v = v * (max_linear / v.length());
            state.flags |= flags::IS_SPEED_CAPPED;
        }
        if w * w > max_angular * max_angular && state.flags & flags::ALLOW_FAST_ROTATION == 0 {
            w *= max_angular / w.abs();
            state.flags |= flags::IS_SPEED_CAPPED;
        }
        state.linear_velocity = v;
        state.angular_velocity = w;
        state.delta_position = Vec2::mul_add(state.delta_position, h, v);
        state.delta_rotation = state.delta_rotation.integrate(h * w);
    }
}
/// Moves the bodies by their deltas, updates sleep timers and shape boxes,
/// on the workers in blocks of bodies. Returns the island that most wants to
/// sleep but must be split first.
///
/// What the blocks find (bodies whose boxes grew, fast bodies, islands kept
/// awake, the island to split) is gathered per worker and merged by bitwise
/// or and an order-free maximum, so it does not depend on the workers.
#[allow(unsafe_code)]
fn finalize_bodies(world: &mut World, ctx: &StepContext) -> u32 {
    let World {
        solver_sets,
        bodies,
        shapes,
        islands,
        scratch,
        settings,
        workers,
        simd,
        broad_phase,
        joints,
        callbacks,
        world_number,
        profile,
        events,
        ..
    } = world;
    let (lower, upper) = solver_sets.split_at_mut(AWAKE_SET as usize);
    let awake = &mut upper[0];
    // The begun rebuild's subtree tasks run beside the bodies: they touch
    // only the dynamic and kinematic trees, which nothing here reads.
    // (No tasks when no rebuild is begun.)
    let (static_tree, tree_tasks) = broad_phase.rebuild_tasks();
    let sweep = continuous::StaticSweep {
        static_set: &lower[STATIC_SET as usize],
        static_tree,
        joints,
        custom_filter: callbacks.custom_filter(*world_number), // events
        pre_solve: callbacks.pre_solve(*world_number),
    };
    let body_count = awake.body_sims.len() as u32;
    let island_count = awake.island_sims.len() as u32;
    // (Taken out of the scratch for the region, put back after it; grown,
    // never shrunk, so a steady step allocates nothing.)
    let mut enlarged_proxies = std::mem::take(&mut scratch.enlarged_proxies);
    if enlarged_proxies.len() < body_count as usize {
        enlarged_proxies.resize(body_count as usize, EnlargedProxy::default());
    }
    let enlarged_slots = SharedMut::new(&mut enlarged_proxies[..body_count as usize]);
    let worker_scratch = scratch.worker_scratch(workers.count(), |w| {
        w.enlarged_bodies.set_bit_count_and_clear(body_count);
        w.fast_bullets.set_bit_count_and_clear(body_count);
        w.awake_islands.set_bit_count_and_clear(island_count);
        w.quarantined.set_bit_count_and_clear(body_count);
        w.split_candidate = (0.0, NULL_INDEX);
    });

    let enable_sleep = settings.enable_sleep;
    // events: each block writes its bodies' move events (a bullet's pose is
    // brought up to date after its sweep, in `World::record_step_events`).
    let moves = &mut events.body_moves;
    moves.clear();
    moves.reserve(body_count as usize);
    let move_slots = SharedMut::new(&mut moves.spare_capacity_mut()[..body_count as usize]);
    let sims = SharedMut::new(&mut awake.body_sims);
    let states = SharedMut::new(&mut awake.body_states);
    let (bodies, shapes, islands) = (SharedMut::new(bodies), SharedMut::new(shapes), &*islands);
    let finalize = Finalize {
        ctx,
        enable_sleep,
        islands,
        sweep: &sweep,
        world_number: *world_number,
    };
    // The tree tasks first (the larger blocks), then the bodies in blocks.
    let task_count = tree_tasks.len();
    let bodies_len = body_count as usize;
    let block_size = workers.block_size(bodies_len, MIN_BODY_BLOCK);
    let body_blocks = bodies_len.div_ceil(block_size);
    let tree_nanos = std::sync::atomic::AtomicU64::new(0);
    workers.run(
        &[()],
        |_| (task_count + body_blocks) as u32,
        |_, block, worker| {
            let block = block as usize;
            if block < task_count {
                let t = Instant::now();
                tree_tasks.run(*simd, block);
                let nanos = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
                tree_nanos.fetch_add(nanos, std::sync::atomic::Ordering::Relaxed);
                return;
            }
            let start = (block - task_count) * block_size;
            let range = start..(start + block_size).min(bodies_len);
            let mut own = lock_worker(worker_scratch, worker);
            let stores = FinalizeStores {
                sims: &sims,
                states: &states,
                bodies: &bodies,
                shapes: &shapes,
                moves: &move_slots,
                enlarged: &enlarged_slots,
            };
            finalize_block(*simd, &finalize, &stores, range, &mut own);
        },
        |_| {},
    );
    profile.rebuild_trees += tree_nanos.into_inner() as f32 * 1e-6;
    scratch.enlarged_proxies = enlarged_proxies;
    // SAFETY: the blocks above took the ranges of `0..body_count` (the
    // region returns only once every block ran), and `finalize_block_kernel`
    // wrote the move event of every index of its range: the first
    // `body_count` slots are initialised.
    #[allow(unsafe_code)]
    unsafe {
        events.body_moves.set_len(body_count as usize);
    }

    // Merge in worker order (the operations do not depend on it anyway).
    scratch.enlarged_bodies.set_bit_count_and_clear(body_count);
    scratch.awake_islands.set_bit_count_and_clear(island_count);
    scratch.fast_bullets.clear();
    let mut split = (0.0, NULL_INDEX);
    let (first, rest) = scratch.workers.split_first_mut().expect("one worker");
    let first = first.get_mut().unwrap_or_else(|e| e.into_inner());
    for w in std::iter::once(&mut *first).chain(
        rest.iter_mut()
            .map(|w| w.get_mut().unwrap_or_else(|e| e.into_inner())),
    ) {
        scratch.enlarged_bodies.union_with(&w.enlarged_bodies);
        scratch.awake_islands.union_with(&w.awake_islands);
        split = split_choice(split, w.split_candidate);
    }
    for w in rest.iter_mut() {
        let w = w.get_mut().unwrap_or_else(|e| e.into_inner());
        first.fast_bullets.union_with(&w.fast_bullets);
        first.quarantined.union_with(&w.quarantined);
    }
    // In body order, as a serial loop over the bodies would find them.
    scratch.fast_bullets.extend(first.fast_bullets.iter());
    // By body id now: awake indices change when islands fall asleep.
    scratch.quarantined.clear();
    let sims = &solver_sets[AWAKE_SET as usize].body_sims;
    let ids = first.quarantined.iter().map(|i| sims[i as usize].body_id);
    scratch.quarantined.extend(ids);
    split.1
}

/// The better of two islands to split: the one whose body has slept
/// longest, ties to the larger island id; `(0, NULL)` stands for none and
/// loses to any real candidate. A total order, so any merge order gives the
/// same answer.
fn split_choice(best: (f32, u32), candidate: (f32, u32)) -> (f32, u32) {
    let (time, island) = candidate;
    if time > best.0 || (time == best.0 && island > best.1) {
        candidate
    } else {
        best
    }
}

/// The stores [`finalize_bodies`] shares between its blocks.
struct FinalizeStores<'a> {
    sims: &'a SharedMut<'a, BodySim>,
    states: &'a SharedMut<'a, BodyState>,
    bodies: &'a SharedMut<'a, crate::body::Body>,
    shapes: &'a SharedMut<'a, crate::shape::Shape>,
    /// The body move events' slots, by awake index.
    moves: &'a SharedMut<'a, std::mem::MaybeUninit<crate::events::BodyMoveEvent>>,
    /// `StepScratch::enlarged_proxies`, by awake index.
    enlarged: &'a SharedMut<'a, EnlargedProxy>,
}

multiversion!(
    /// Finalizes the awake bodies `range` (one block), built for the world's SIMD path.
    fn finalize_block(
        finalize: &Finalize,
        stores: &FinalizeStores,
        range: std::ops::Range<usize>,
        own: &mut WorkerScratch,
    ) = finalize_block_kernel
);

#[allow(unsafe_code)]
#[inline(always)]
fn finalize_block_kernel(
    finalize: &Finalize,
    stores: &FinalizeStores,
    range: std::ops::Range<usize>,
    own: &mut WorkerScratch,
) {
    let end = range.end;
    for sim_index in range {
        prefetch_finalize(finalize, stores, sim_index, end);
        // SAFETY: blocks take disjoint ranges of awake bodies (and of their
        // move events' and enlargement slots).
        let (sim, state, slot, enlarged) = unsafe {
            (
                stores.sims.get(sim_index),
                stores.states.get(sim_index),
                stores.moves.get(sim_index),
                stores.enlarged.get(sim_index),
            )
        };
        let (bodies, shapes) = (stores.bodies, stores.shapes);
        let body_stores = (bodies, shapes);
        finalize.run(sim_index as u32, sim, state, body_stores, enlarged, own);
        // SAFETY: each awake body has one sim, so body `sim.body_id` belongs
        // to this sim's block.
        let body = unsafe { bodies.get_shared(sim.body_id as usize) };
        slot.write(crate::events::BodyMoveEvent {
            body_id: crate::id::BodyId {
                index: sim.body_id,
                world: finalize.world_number,
                generation: body.generation,
            },
            transform: sim.transform,
            user_data: body.user_data,
            fell_asleep: false,
        });
    }
}

/// How many bodies ahead [`prefetch_finalize`] asks for a body, then for its
/// first shape and island (found through the body).
const FINALIZE_BODIES_AHEAD: usize = 6;
const FINALIZE_SHAPES_AHEAD: usize = 3;

/// Prefetch hints for the bodies after awake body `sim_index` in its block
/// (which ends at `end`): finalizing a body first touches its `Body`, then
/// its shapes and island, each usually not in the cache and each found
/// through the one before. No value changes.
#[allow(unsafe_code)]
#[inline(always)]
fn prefetch_finalize(finalize: &Finalize, stores: &FinalizeStores, sim_index: usize, end: usize) {
    use crate::prefetch::prefetch_value;
    let ahead = sim_index + FINALIZE_BODIES_AHEAD;
    if ahead < end {
        // SAFETY: a sim of this block, read for a moment (no reference kept).
        let body_id = unsafe { stores.sims.get_shared(ahead) }.body_id;
        prefetch_value(stores.bodies.at(body_id as usize));
    }
    let ahead = sim_index + FINALIZE_SHAPES_AHEAD;
    if ahead < end {
        // SAFETY: a sim of this block and its body, which belongs to this
        // block too, read for a moment (no reference kept).
        let body_id = unsafe { stores.sims.get_shared(ahead) }.body_id;
        let body = unsafe { stores.bodies.get_shared(body_id as usize) };
        prefetch_value(stores.shapes.at(body.head_shape_id as usize));
        prefetch_value(
            finalize
                .islands
                .as_ptr()
                .wrapping_add(body.island_id as usize),
        );
    }
}

/// The settings of [`finalize_bodies`] one body needs.
struct Finalize<'a> {
    ctx: &'a StepContext,
    enable_sleep: bool,
    islands: &'a [crate::solver::island::Island],
    /// What a fast body's sweep reads.
    sweep: &'a continuous::StaticSweep<'a>,
    /// The world's number, for the body move events' ids.
    world_number: u16,
}

impl Finalize<'_> {
    /// Finalizes one awake body (see [`finalize_bodies`]).
    #[allow(unsafe_code)]
    #[inline(always)]
    fn run(
        &self,
        sim_index: u32,
        sim: &mut BodySim,
        state: &mut BodyState,
        (bodies, shapes): (
            &SharedMut<crate::body::Body>,
            &SharedMut<crate::shape::Shape>,
        ),
        enlarged: &mut EnlargedProxy,
        own: &mut WorkerScratch,
    ) {
        let (ctx, enable_sleep, islands) = (self.ctx, self.enable_sleep, self.islands);
        // SAFETY: each awake body has one sim, so body `sim.body_id` belongs to
        // this sim's block.
        let body = unsafe { bodies.get(sim.body_id as usize) };
        if let Some(reason) = motion_fault(sim, state) {
            // Only absurd input gets here: the body stays where it was and is
            // quarantined after the step (see `quarantine.rs`).
            *state = BodyState {
                flags: state.flags & !flags::QUARANTINED,
                ..BodyState::IDENTITY
            };
            sim.force = Vec2::ZERO;
            sim.torque = 0.0;
            sim.center0 = sim.center;
            sim.rotation0 = sim.transform.q;
            sim.flags &= !flags::TRANSIENT;
            body.flags = (body.flags & !(flags::TRANSIENT | flags::QUARANTINED)) | reason;
            body.sleep_time = 0.0;
            // Its island stays awake until the body leaves it.
            own.awake_islands
                .set(islands[body.island_id as usize].local_index);
            own.quarantined.set(sim_index);
            return;
        }
        let v = state.linear_velocity;
        let w = state.angular_velocity;

        sim.center += state.delta_position;
        sim.transform.q = state.delta_rotation.mul(sim.transform.q).normalize();

        // The fastest point of the body, and how far it moved (position
        // correction counts, at half weight).
        let max_velocity = v.length() + w.abs() * sim.max_extent;
        let max_delta_position =
            state.delta_position.length() + state.delta_rotation.s.abs() * sim.max_extent;
        let sleep_velocity = max_velocity.max(0.5 * ctx.inv_dt * max_delta_position);

        state.delta_position = Vec2::ZERO;
        state.delta_rotation = Rot::IDENTITY;
        sim.transform.p = sim.center - sim.transform.q.rotate(sim.local_center);
        sim.force = Vec2::ZERO;
        sim.torque = 0.0;

        body.flags = (body.flags & !flags::TRANSIENT) | (state.flags & flags::TRANSIENT);
        state.flags &= !flags::TRANSIENT;
        sim.flags &= !flags::TRANSIENT;

        let mut fast = false;
        if !enable_sleep || !body.enable_sleep || sleep_velocity > body.sleep_threshold {
            body.sleep_time = 0.0;
            let max_motion = max_delta_position.max(max_velocity * ctx.dt);
            fast = ctx.enable_continuous
                && body.body_type == BodyType::Dynamic
                && continuous::is_fast(max_motion, body.safety_factor, sim);
        } else {
            body.sleep_time += ctx.dt;
        }
        if fast {
            // Swept below (a bullet after this stage), which also updates
            // its shapes' boxes.
            body.flags |= flags::IS_FAST;
        } else {
            sim.center0 = sim.center;
            sim.rotation0 = sim.transform.q;
        }

        // Any body that is not sleepy keeps its island awake.
        let island = &islands[body.island_id as usize];
        if body.sleep_time < TIME_TO_SLEEP {
            own.awake_islands.set(island.local_index);
        } else if island.constraint_remove_count > 0 {
            // Wants to sleep but the island may have fallen apart: split it
            // next step.
            own.split_candidate =
                split_choice(own.split_candidate, (body.sleep_time, body.island_id));
        }

        if fast {
            if sim.flags & flags::IS_BULLET != 0 {
                // Swept after this stage, against the other bodies' final
                // poses; the start pose stays in center0/rotation0 until then.
                sim.angle_delta = continuous::step_angle(
                    sim.rotation0.relative_angle(sim.transform.q),
                    w,
                    ctx.h,
                    ctx.sub_steps,
                );
                own.fast_bullets.set(sim_index);
                return;
            }
            // (The sweep works out the angles only if it needs them.)
            let angles = continuous::SweepAngles {
                w,
                h: ctx.h,
                sub_steps: ctx.sub_steps,
            };
            // The sweep reaches shapes and bodies one by one: this body's
            // own (this block's) and static ones (no block writes them).
            let body = (sim.body_id, &*body);
            let head = body.1.head_shape_id;
            if continuous::sweep_body(sim, body, shapes, bodies, self.sweep, angles) {
                own.enlarged_bodies.set(sim_index);
                // SAFETY: as below.
                *enlarged = EnlargedProxy::hand_over(head, unsafe { shapes.get(head as usize) });
            }
            return;
        }
        let transform = sim.transform;
        let head = body.head_shape_id;
        let mut shape_id = head;
        let mut grown = false;
        while shape_id != NULL_INDEX {
            // SAFETY: a shape belongs to one body, so to this sim's block.
            let shape = unsafe { shapes.get(shape_id as usize) };
            shape.aabb = speculative_aabb(&shape.geometry, transform);
            grown |= continuous::grow_fat_aabb(shape);
            shape_id = shape.next_shape_id;
        }
        if grown {
            own.enlarged_bodies.set(sim_index);
            // SAFETY: as above (the head shape is in cache).
            *enlarged = EnlargedProxy::hand_over(head, unsafe { shapes.get(head as usize) });
        }
    }
}

/// Why a body's motion this step cannot be applied, as a quarantine flag
/// ([`flags::QUARANTINED_VELOCITY`] or [`flags::QUARANTINED_POSITION`]), or
/// `None` when it can: the velocity must be sane (see [`velocity_is_sane`])
/// and not already condemned, the rotation delta a finite unit rotation, and
/// the new centre finite and within ±[`MAX_COORDINATE`](crate::core::MAX_COORDINATE)
/// (so that every shape box, at most a few `HUGE` from it, is finite too).
fn motion_fault(sim: &BodySim, state: &BodyState) -> Option<u32> {
    if state.flags & flags::QUARANTINED_VELOCITY != 0
        || !velocity_is_sane(state.linear_velocity, state.angular_velocity)
    {
        return Some(flags::QUARANTINED_VELOCITY);
    }
    let center = sim.center + state.delta_position;
    let limit = crate::pos::MAX_WORLD_COORDINATE;
    // (NaN fails both comparisons.)
    let in_range = center.x.abs() <= limit && center.y.abs() <= limit;
    if !in_range || !state.delta_rotation.is_valid() {
        return Some(flags::QUARANTINED_POSITION);
    }
    None
}

/// Grows the broad-phase boxes of shapes whose fat box grew, and buffers
/// their moves in awake-body order (so the broad phase's move buffer order is
/// deterministic), on the workers, in blocks of bodies, in two passes:
/// - the trees grow (see `SharedEnlarge`: they come out the same in any
///   order), and each block counts the proxies it will buffer (those not in
///   the move buffer yet);
/// - after a prefix sum of the counts on this thread, which gives each block
///   the position of its first move, each block puts its moves in order.
fn enlarge_proxies(world: &mut World) {
    /// Bodies per block, in 64-body words of the set.
    const MIN_BLOCK_WORDS: usize = 8;
    let World {
        scratch,
        shapes,
        broad_phase,
        workers,
        simd,
        ..
    } = world;
    let enlarged = (&scratch.enlarged_bodies, &scratch.enlarged_proxies[..]);
    let words = enlarged.0.word_count();
    let block_size = workers.block_size(words, MIN_BLOCK_WORDS);
    let blocks = words.div_ceil(block_size);
    let counts = &mut scratch.enlarge_block_moves;
    if counts.len() < blocks {
        counts.resize(blocks, 0);
    }
    let counts = &mut counts[..blocks];
    {
        let (trees, moved) = broad_phase.shared_enlarge();
        let shapes = &shapes[..];
        let shared = workers.count() > 1;
        let block_counts = SharedMut::new(&mut counts[..]);
        workers.for_each_block(words, MIN_BLOCK_WORDS, |range, _| {
            let block = range.start / block_size;
            let count = grow_trees_on(*simd, &trees, moved, shapes, enlarged, range, shared);
            // SAFETY: each block writes its own count.
            #[allow(unsafe_code)]
            unsafe {
                *block_counts.get(block) = count;
            }
        });
    }
    let mut total = 0;
    for count in counts.iter_mut() {
        (*count, total) = (total, total + *count);
    }
    let (base, moves) = broad_phase.share_moves(total as usize);
    let counts = &counts[..];
    let shapes = SharedMut::new(&mut shapes[..]);
    workers.for_each_block(words, MIN_BLOCK_WORDS, |range, _| {
        let first = base + counts[range.start / block_size] as usize;
        buffer_enlarged_on(*simd, shapes, enlarged, moves, range, first);
    });
}

/// The enlarged bodies of the words `words` of `set`, in order.
#[inline(always)]
fn bodies_in(set: &BitSet, words: std::ops::Range<usize>) -> impl Iterator<Item = u32> + '_ {
    words.flat_map(move |k| {
        let mut word = set.word(k);
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let bit = word.trailing_zeros();
                word &= word - 1;
                k as u32 * 64 + bit
            })
        })
    })
}

multiversion!(
    /// The trees' part of [`enlarge_proxies`] for the bodies of the set's
    /// words `words`, built for the world's SIMD path. Returns the number of
    /// enlarged proxies not in the move buffer yet.
    fn grow_trees_on(
        trees: &[crate::collision::dynamic_tree::SharedEnlarge<'_>; 3],
        moved: crate::broad_phase::MoveSlots<'_>,
        shapes: &[crate::shape::Shape],
        enlarged: (&BitSet, &[EnlargedProxy]),
        words: std::ops::Range<usize>,
        shared: bool,
    ) -> u32 = grow_trees_kernel
);

/// The kernel of [`grow_trees_on`], compiled into each of its builds.
#[allow(unsafe_code)]
#[inline(always)]
fn grow_trees_kernel(
    trees: &[crate::collision::dynamic_tree::SharedEnlarge<'_>; 3],
    moved: crate::broad_phase::MoveSlots<'_>,
    shapes: &[crate::shape::Shape],
    (enlarged, proxies): (&BitSet, &[EnlargedProxy]),
    words: std::ops::Range<usize>,
    shared: bool,
) -> u32 {
    use crate::broad_phase::ProxyKey;
    // The loop is bound by cache misses on the trees' proxies and nodes:
    // hints bring in the proxy records (or the first shape of a body of
    // several) `2 * AHEAD` bodies ahead, and the leaves' nodes (whose indices
    // those records hold) `AHEAD` ahead.
    const AHEAD: usize = 8;
    type Trees<'t> = [crate::collision::dynamic_tree::SharedEnlarge<'t>; 3];
    #[inline(always)]
    fn hint(
        trees: &Trees<'_>,
        (proxies, shapes): (&[EnlargedProxy], &[crate::shape::Shape]),
        far: Option<u32>,
        near: Option<u32>,
    ) {
        if let Some(far) = far.map(|i| &proxies[i as usize]) {
            match far.key {
                Some(key) => {
                    trees[key.body_type() as usize].prefetch_proxy(key.proxy_id().index());
                }
                None => {
                    let head = shapes.as_ptr().wrapping_add(far.head_shape as usize);
                    crate::prefetch::prefetch_value(head);
                }
            }
        }
        if let Some(key) = near.and_then(|i| proxies[i as usize].key) {
            trees[key.body_type() as usize].prefetch_leaf(key.proxy_id().index());
        }
    }
    #[inline(always)]
    fn grow(trees: &Trees<'_>, key: ProxyKey, aabb: crate::pos::WorldAabb, shared: bool) {
        let tree = &trees[key.body_type() as usize];
        // SAFETY: each proxy belongs to one shape of one body, and each body
        // to one block: no other thread enlarges it meanwhile; and no other
        // thread works on the trees at all unless `shared`.
        let result = unsafe {
            if shared {
                tree.enlarge::<true>(key.proxy_id(), aabb)
            } else {
                tree.enlarge::<false>(key.proxy_id(), aabb)
            }
        };
        debug_assert!(result.is_ok());
    }
    let hint = |far, near| hint(trees, (proxies, shapes), far, near);
    let (mut far, mut near) = (
        bodies_in(enlarged, words.clone()),
        bodies_in(enlarged, words.clone()),
    );
    for _ in 0..AHEAD {
        hint(far.next(), None);
    }
    for _ in 0..AHEAD {
        hint(far.next(), near.next());
    }
    let mut count = 0;
    for sim_index in bodies_in(enlarged, words) {
        hint(far.next(), near.next());
        let record = proxies[sim_index as usize];
        // A body of one shape: its proxy and box, handed over (the shape is
        // not read).
        if let Some(key) = record.key {
            grow(trees, key, record.fat_aabb, shared);
            count += u32::from(!moved.is_buffered(key));
            continue;
        }
        let mut shape_id = record.head_shape;
        while shape_id != NULL_INDEX {
            let shape = &shapes[shape_id as usize];
            if shape.enlarged_aabb
                && let Some(key) = shape.proxy_key
            {
                grow(trees, key, shape.fat_aabb, shared);
                count += u32::from(!moved.is_buffered(key));
            }
            shape_id = shape.next_shape_id;
        }
    }
    count
}

multiversion!(
    /// The moves' part of [`enlarge_proxies`], after the trees', for the
    /// bodies of the set's words `words`, built for the world's SIMD path.
    fn buffer_enlarged_on(
        shapes: SharedMut<'_, crate::shape::Shape>,
        enlarged: (&BitSet, &[EnlargedProxy]),
        moves: crate::broad_phase::SharedMoves<'_>,
        words: std::ops::Range<usize>,
        first: usize,
    ) = buffer_enlarged_kernel
);

/// The kernel of [`buffer_enlarged_on`], compiled into each of its builds:
/// puts the move of each enlarged proxy of the block's bodies not in the
/// move buffer yet at the positions from `first` on, in awake-body order,
/// and clears the shapes' `enlarged_aabb` flags.
#[allow(unsafe_code)]
#[inline(always)]
fn buffer_enlarged_kernel(
    shapes: SharedMut<'_, crate::shape::Shape>,
    (enlarged, proxies): (&BitSet, &[EnlargedProxy]),
    moves: crate::broad_phase::SharedMoves<'_>,
    words: std::ops::Range<usize>,
    first: usize,
) {
    // Hints bring in the first shape of a body of several `AHEAD` bodies
    // ahead (the move slots, 4 bytes a proxy, are mostly in the cache since
    // the trees' pass read them).
    const AHEAD: usize = 8;
    let mut far = bodies_in(enlarged, words.clone());
    let hint = |far: Option<u32>| {
        if let Some(far) = far.map(|i| &proxies[i as usize])
            && far.key.is_none()
        {
            crate::prefetch::prefetch_value(shapes.at(far.head_shape as usize));
        }
    };
    for _ in 0..AHEAD {
        hint(far.next());
    }
    let mut position = first;
    for sim_index in bodies_in(enlarged, words) {
        hint(far.next());
        let record = proxies[sim_index as usize];
        // SAFETY (of `is_buffered` and `put`): each proxy belongs to one
        // shape of one body, each body to one block, and each block puts its
        // moves at its own positions (its count of them from `first` on).
        if let Some(key) = record.key {
            if unsafe { !moves.is_buffered(key) } {
                unsafe { moves.put(position, key) };
                position += 1;
            }
            continue;
        }
        let mut shape_id = record.head_shape;
        while shape_id != NULL_INDEX {
            // SAFETY: the shapes of a body are its block's alone.
            let shape = unsafe { shapes.get(shape_id as usize) };
            if shape.enlarged_aabb {
                if let Some(key) = shape.proxy_key
                    && unsafe { !moves.is_buffered(key) }
                {
                    // SAFETY: as above.
                    unsafe { moves.put(position, key) };
                    position += 1;
                }
                shape.enlarged_aabb = false;
            }
            shape_id = shape.next_shape_id;
        }
    }
}

/// Puts to sleep every awake island none of whose bodies kept it awake.
/// Processed from the last island down because sleeping one moves the last
/// island into its slot.
fn sleep_islands(world: &mut World) {
    let count = world.solver_sets[AWAKE_SET as usize].island_sims.len();
    for local in (0..count).rev() {
        if world.scratch.awake_islands.get(local as u32) {
            continue;
        }
        let island_id = world.solver_sets[AWAKE_SET as usize].island_sims[local].island_id;
        if world.island_is_tipping(island_id) {
            continue; // balanced on a corner: falling, however slowly
        }
        world.try_sleep_island(island_id);
    }
}
