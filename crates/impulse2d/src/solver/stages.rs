//! The constraint solve as a list of stages for the [`Workers`].
//!
//! One step's solve is, in order: prepare the joints (each on its own, in
//! blocks of chunks of `lanes::LANES` joints, with each chunk's lanes of the
//! wide joint passes when no joint is in a tree), prepare the contact
//! constraints (the overflow colour, then every other colour), then (once
//! the joint trees are known, when the preparation did not write them or a
//! joint is in a tree) the lanes of the wide joint passes, then per substep integrate
//! velocities, warm start, solve, integrate positions and relax, then
//! restitution and storing the impulses (the contacts', then the point
//! impulses the wide joint passes kept in their lanes). Each constraint pass walks the joint
//! colours (overflow first, then 0, 1, …; in the solve and relax passes then
//! the joint trees, `joint/tree.rs`), then the contact overflow colour,
//! then the contact colours 0, 1, … — one stage per colour, since a colour
//! may only start when the one before it is done. Within a colour no two
//! constraints share a dynamic body, so a colour splits into blocks that
//! threads solve side by side; the overflow colours are one block each.
//! Per-body stages split into blocks of bodies. A colour's joints go in
//! chunks of `lanes::LANES`: each chunk's plain revolute joints are solved
//! at once (`joint/wide.rs`), its others one by one.
//!
//! The order of the arithmetic on any body is the order of the stages, which
//! is the same for any number of workers, so the results are the same bits.

use std::sync::atomic::AtomicBool;

use crate::profile::Instant;

use crate::body::{Body, BodySim, BodyState, flags};
use crate::contact::ContactSim;
use crate::id::NULL_INDEX;
use crate::joint::JointSim;
use crate::joint::solver::{JointTuning, prepare_joint};
use crate::joint::tree::{JointForest, Link, TreeBody, TreeJoint, solve_trees};
use crate::joint::wide::{self, JointLanes, JointPass};
use crate::profile::Profile;
use crate::simd::{SimdPath, multiversion};
use crate::workers::{SharedMut, Workers, own_blocks};

use super::constraint_graph::{ConstraintGraph, GRAPH_COLOR_COUNT, OVERFLOW_INDEX};
use super::contact_solver::{self, ContactConstraint};
use super::contact_solver_wide::{self, PrepareParams, WideConstraint};
use super::solver_set::{AWAKE_SET, SolverSet};
use super::{StepContext, VelocityStep, integrate_positions, integrate_velocities, lanes};

/// Smallest block of bodies worth a block of its own.
const MIN_BODY_BLOCK: usize = 64;
/// Smallest block of constraints of one colour (wide blocks of `lanes::LANES`, or
/// scalar constraints) worth a block of its own.
const MIN_CONSTRAINT_BLOCK: usize = 8;
/// Smallest block of joints of one colour.
const MIN_JOINT_BLOCK: usize = 16;
/// Smallest block of chunks of `lanes::LANES` joints of one colour.
const MIN_JOINT_CHUNKS: usize = MIN_JOINT_BLOCK.div_ceil(lanes::LANES);
/// Smallest block of joint trees.
const MIN_TREE_BLOCK: usize = 4;

/// A pass over the constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    WarmStart,
    Solve,
    Relax,
    Restitution,
    Store,
}

/// What a stage does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StageKind {
    /// Joints of every colour (each joint is prepared on its own), in
    /// chunks of `lanes::LANES` joints (colour order, the overflow colour
    /// last), with the chunks' lanes of the wide joint passes when
    /// `Shared::prepare_lanes`.
    PrepareJoints,
    /// Contact constraints of the overflow colour (one block).
    PrepareOverflow,
    /// Contact constraints of the other colours.
    PrepareContacts,
    /// The velocity integration; `true` in the first substep, which works
    /// out the bodies' `VelocityStep`s that the later ones read.
    IntegrateVelocities(bool),
    IntegratePositions,
    /// The lanes of the wide joint passes of one colour other than the
    /// overflow colour (`joint/wide.rs`), after the joint trees are known,
    /// in chunks of `lanes::LANES` joints: in a step whose joint
    /// preparation did not write them, or that has a joint in a tree.
    JointLanes(u8),
    /// Joints of one colour: in chunks of `lanes::LANES` joints, or for the
    /// overflow colour one by one, in one block.
    Joints(Pass, u8),
    /// The point rows of the joint trees (`joint/tree.rs`), whole trees
    /// per block, after every colour's joints.
    JointTrees(Pass),
    /// Contacts of the overflow colour (one block).
    Overflow(Pass),
    /// Contacts of one colour other than the overflow colour.
    Contacts(Pass, u8),
    /// Impulses of the coloured contacts back into their manifolds.
    StoreImpulses,
    /// The point impulses of the joints in lanes back into the joints, once
    /// per step after the last pass: chunks of `lanes::LANES` joints of every
    /// colour but the overflow colour, in colour order.
    JointImpulses,
}

impl StageKind {
    /// Whether the stage is an overflow colour's, which is one block (one
    /// thread) on any worker count.
    fn is_overflow(self) -> bool {
        match self {
            StageKind::PrepareOverflow | StageKind::Overflow(_) => true,
            StageKind::Joints(_, color) => color as usize == OVERFLOW_INDEX,
            _ => false,
        }
    }
}

/// A stage: what it does and how its items split into blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stage {
    kind: StageKind,
    items: u32,
    block_size: u32,
}

impl Stage {
    fn block_count(&self) -> u32 {
        self.items.div_ceil(self.block_size)
    }

    /// Items `start..end` of block `block`.
    fn block_range(&self, block: u32) -> (usize, usize) {
        let start = block * self.block_size;
        let end = (start + self.block_size).min(self.items);
        (start as usize, end as usize)
    }
}

/// Where the coloured constraints of each colour start in the constraint
/// array (wide blocks, or scalar constraints after the overflow colour's),
/// with the total at the end.
#[derive(Clone, Copy, Debug)]
struct Layout {
    use_wide: bool,
    overflow_count: usize,
    start: [usize; OVERFLOW_INDEX + 1],
    /// Where each colour's joints start among all joints (colour order), with
    /// the total at the end.
    joint_start: [usize; GRAPH_COLOR_COUNT + 1],
    /// Where each colour's chunks of `lanes::LANES` joints start among all
    /// chunks (colour order, the overflow colour last), with the total at
    /// the end: `chunk_start[OVERFLOW_INDEX]` is the number of chunks with
    /// lanes, the last entry that with the overflow colour's chunks (joint
    /// preparation's items).
    chunk_start: [usize; GRAPH_COLOR_COUNT + 1],
    /// The number of workers, and the items per block of each colour's
    /// constraint stages (`Workers::block_size`), for the stages split by
    /// colour ([`Layout::colour_part`]).
    workers: usize,
    color_block: [usize; OVERFLOW_INDEX],
}

impl Layout {
    fn new(graph: &ConstraintGraph, use_wide: bool, workers: &Workers) -> Layout {
        let mut start = [0; OVERFLOW_INDEX + 1];
        for (c, color) in graph.colors[..OVERFLOW_INDEX].iter().enumerate() {
            let n = color.contact_sims.len();
            start[c + 1] = start[c]
                + if use_wide {
                    n.div_ceil(lanes::LANES)
                } else {
                    n
                };
        }
        let mut joint_start = [0; GRAPH_COLOR_COUNT + 1];
        for (c, color) in graph.colors.iter().enumerate() {
            joint_start[c + 1] = joint_start[c] + color.joint_sims.len();
        }
        let mut chunk_start = [0; GRAPH_COLOR_COUNT + 1];
        for (c, color) in graph.colors.iter().enumerate() {
            chunk_start[c + 1] = chunk_start[c] + color.joint_sims.len().div_ceil(lanes::LANES);
        }
        let color_block = std::array::from_fn(|c| {
            workers.block_size(start[c + 1] - start[c], MIN_CONSTRAINT_BLOCK)
        });
        Layout {
            use_wide,
            overflow_count: graph.colors[OVERFLOW_INDEX].contact_sims.len(),
            start,
            joint_start,
            chunk_start,
            workers: workers.count(),
            color_block,
        }
    }

    /// The blocks of a stage over every colour's coloured items split as
    /// [`Layout::colour_part`] says: one with one worker or few items,
    /// else as many as a stage over all of them would have, and at least
    /// one per worker.
    fn colour_split_blocks(&self, workers: &Workers) -> usize {
        let coloured = self.coloured_count();
        let blocks = coloured.div_ceil(workers.block_size(coloured, MIN_CONSTRAINT_BLOCK));
        if blocks > 1 {
            blocks.max(self.workers)
        } else {
            blocks
        }
    }

    /// The coloured items `start..end` of colour `color` that block `block`
    /// of a stage split by colour (`blocks` blocks, see
    /// [`Layout::colour_split_blocks`]) takes. The worker that runs a block
    /// first (`workers::own_blocks`, as `Region::sweep` hands them out)
    /// is the one that runs the same items in the colour's own stages (the
    /// passes over the constraints): its blocks of this stage share among
    /// them, in order, its blocks of each colour. So the contact
    /// preparation writes each constraint on the core that solves it next,
    /// and the impulse store reads it where the last pass left it. Which
    /// thread runs a block changes no result (the blocks touch disjoint
    /// items, each prepared or stored on its own).
    fn colour_part(&self, color: usize, block: usize, blocks: usize) -> (usize, usize) {
        let first = self.start[color];
        let items = self.color_count(color);
        let n = self.workers;
        if blocks <= 1 || n <= 1 {
            return (first, first + items);
        }
        debug_assert!(blocks >= n, "every worker owns a block");
        let worker = (0..n)
            .find(|&w| {
                let (s, own) = own_blocks(blocks, n, w);
                block < s + own
            })
            .unwrap_or(n - 1);
        let (s, own) = own_blocks(blocks, n, worker);
        let k = block - s;
        let size = self.color_block[color];
        let (cs, co) = own_blocks(items.div_ceil(size), n, worker);
        let (b0, b1) = (cs + co * k / own, cs + co * (k + 1) / own);
        (
            first + (b0 * size).min(items),
            first + (b1 * size).min(items),
        )
    }

    /// The chunks of `lanes::LANES` joints of colour `color` (not the
    /// overflow colour).
    fn chunk_count(&self, color: usize) -> usize {
        self.chunk_start[color + 1] - self.chunk_start[color]
    }

    fn coloured_count(&self) -> usize {
        self.start[OVERFLOW_INDEX]
    }

    fn color_count(&self, color: usize) -> usize {
        self.start[color + 1] - self.start[color]
    }

    /// The colour holding coloured item `item`.
    fn color_of(&self, item: usize) -> usize {
        debug_assert!(item < self.coloured_count());
        self.start[1..].partition_point(|&end| end <= item)
    }
}

/// Builds a stage list, skipping empty stages.
struct StageList<'a> {
    stages: &'a mut Vec<Stage>,
    workers: &'a Workers,
    graph: &'a ConstraintGraph,
    layout: &'a Layout,
    /// Joint trees this step.
    trees: usize,
}

impl<'a> StageList<'a> {
    /// An empty list into `stages` (cleared), for a step with `trees` joint
    /// trees.
    fn new(
        stages: &'a mut Vec<Stage>,
        workers: &'a Workers,
        graph: &'a ConstraintGraph,
        layout: &'a Layout,
        trees: usize,
    ) -> StageList<'a> {
        stages.clear();
        StageList {
            stages,
            workers,
            graph,
            layout,
            trees,
        }
    }

    /// A stage of `items` items in blocks of at least `min_block` (`None`:
    /// one block).
    fn push(&mut self, kind: StageKind, items: usize, min_block: Option<usize>) {
        if items > 0 {
            let block_size = match min_block {
                Some(min) => self.workers.block_size(items, min),
                None => items,
            };
            self.stages.push(Stage {
                kind,
                items: items as u32,
                block_size: block_size as u32,
            });
        }
    }

    /// A stage over every colour's coloured items, split by colour
    /// ([`Layout::colour_part`]): its items are its blocks.
    fn push_by_colour(&mut self, kind: StageKind) {
        let blocks = self.layout.colour_split_blocks(self.workers);
        if blocks > 0 {
            self.stages.push(Stage {
                kind,
                items: blocks as u32,
                block_size: 1,
            });
        }
    }

    /// One pass over the constraints: joints colour by colour (overflow
    /// first), then contacts likewise.
    fn pass(&mut self, pass: Pass) {
        if matches!(pass, Pass::WarmStart | Pass::Solve | Pass::Relax) {
            let joints = |c: usize| self.graph.colors[c].joint_sims.len();
            let overflow = joints(OVERFLOW_INDEX);
            self.push(
                StageKind::Joints(pass, OVERFLOW_INDEX as u8),
                overflow,
                None,
            );
            for c in 0..OVERFLOW_INDEX {
                let n = self.layout.chunk_count(c);
                self.push(StageKind::Joints(pass, c as u8), n, Some(MIN_JOINT_CHUNKS));
            }
            if pass != Pass::WarmStart {
                let trees = self.trees;
                self.push(StageKind::JointTrees(pass), trees, Some(MIN_TREE_BLOCK));
            }
        }
        self.push(StageKind::Overflow(pass), self.layout.overflow_count, None);
        if pass != Pass::Store {
            for c in 0..OVERFLOW_INDEX {
                let n = self.layout.color_count(c);
                self.push(
                    StageKind::Contacts(pass, c as u8),
                    n,
                    Some(MIN_CONSTRAINT_BLOCK),
                );
            }
        }
    }
}

/// Builds the stage list of one step's preparation into `stages`: the
/// joints (each also says what it brings to the joint trees), then the
/// contacts.
fn build_prepare_stages(
    stages: &mut Vec<Stage>,
    workers: &Workers,
    graph: &ConstraintGraph,
    layout: &Layout,
) {
    let mut list = StageList::new(stages, workers, graph, layout, 0);
    let chunks = layout.chunk_start[GRAPH_COLOR_COUNT];
    list.push(StageKind::PrepareJoints, chunks, Some(MIN_JOINT_CHUNKS));
    list.push(StageKind::PrepareOverflow, layout.overflow_count, None);
    list.push_by_colour(StageKind::PrepareContacts);
}

/// Builds the stage list of the rest of one step's solve (the substeps,
/// restitution and storing the impulses) into `stages`, once the joint
/// trees are known; with `lanes_ready` false it starts with the stages that
/// write the joint lanes (see [`solve_constraints`]).
fn build_substep_stages(
    stages: &mut Vec<Stage>,
    workers: &Workers,
    graph: &ConstraintGraph,
    layout: &Layout,
    (body_count, trees, lanes_ready): (usize, usize, bool),
    ctx: &StepContext,
) {
    let mut list = StageList::new(stages, workers, graph, layout, trees);
    let bodies = Some(MIN_BODY_BLOCK);
    if !lanes_ready {
        for c in 0..OVERFLOW_INDEX {
            let n = layout.chunk_count(c);
            list.push(StageKind::JointLanes(c as u8), n, Some(MIN_JOINT_CHUNKS));
        }
    }
    for substep in 0..ctx.sub_steps {
        let first = substep == 0;
        list.push(StageKind::IntegrateVelocities(first), body_count, bodies);
        list.pass(Pass::WarmStart);
        list.pass(Pass::Solve);
        list.push(StageKind::IntegratePositions, body_count, bodies);
        for _ in 0..ctx.relax_iterations {
            list.pass(Pass::Relax);
        }
    }
    list.pass(Pass::Restitution);
    list.pass(Pass::Store);
    list.push_by_colour(StageKind::StoreImpulses);
    let chunks = layout.chunk_start[OVERFLOW_INDEX];
    list.push(StageKind::JointImpulses, chunks, Some(MIN_JOINT_CHUNKS));
}

/// What joint preparation reads besides the joints: every body and solver
/// set (a joint may hang on a static or sleeping body), and the world's joint
/// stiffness (Hz) and damping ratio.
pub(crate) struct JointStores<'a> {
    pub bodies: &'a [Body],
    pub solver_sets: &'a [SolverSet],
    pub tuning: (f32, f32),
}

/// The slices the stages work on, shared by the workers.
struct Shared<'a> {
    sims: &'a [BodySim],
    joint_stores: &'a JointStores<'a>,
    states: SharedMut<'a, BodyState>,
    /// Per body, what its velocity integration adds and multiplies (written
    /// in the first substep, read in the others).
    velocity_steps: SharedMut<'a, VelocityStep>,
    constraints: SharedMut<'a, ContactConstraint>,
    wide: SharedMut<'a, WideConstraint>,
    contacts: [SharedMut<'a, ContactSim>; GRAPH_COLOR_COUNT],
    joints: [SharedMut<'a, JointSim>; GRAPH_COLOR_COUNT],
    /// The lanes of the wide joint passes, per chunk of `lanes::LANES`
    /// joints (colour order, overflow colour excluded).
    joint_lanes: SharedMut<'a, JointLanes>,
    /// Per joint in colour order, what it brings to the joint trees
    /// (written by the joint preparation stage).
    candidates: SharedMut<'a, (u32, u32)>,
    /// Set when a block of the joint preparation changed a candidate.
    candidates_changed: &'a AtomicBool,
    /// Whether the joint preparation also writes the joint lanes (see
    /// [`solve_constraints`]).
    prepare_lanes: bool,
    /// The joint trees: their links, where each starts among the bodies and
    /// joints, and those.
    tree_links: &'a [Link],
    tree_starts: &'a [(u32, u32)],
    tree_bodies: SharedMut<'a, TreeBody>,
    tree_joints: SharedMut<'a, TreeJoint>,
}

/// Prepares the joints and contact constraints, finds the joint trees, and
/// runs the substeps, restitution and impulse storage (see the module
/// documentation), on `workers`: two regions, the preparation, then (after
/// the joint forest's serial part) the rest.
///
/// `states` holds the awake bodies' states; a resting stand-in for static
/// bodies is appended for the duration (the wide solver's lanes point at it).
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
pub(crate) fn solve_constraints(
    workers: &Workers,
    graph: &mut ConstraintGraph,
    joint_stores: &JointStores,
    states: &mut Vec<BodyState>,
    scratch: &mut super::StepScratch,
    profile: &mut Profile,
    use_wide: bool,
    simd: SimdPath,
    ctx: &StepContext,
    side: &(dyn Fn() + Sync),
) {
    let t = Instant::now();
    let sims = &joint_stores.solver_sets[AWAKE_SET as usize].body_sims;
    let layout = Layout::new(graph, use_wide, workers);
    let body_count = states.len();
    debug_assert_eq!(body_count, sims.len());
    let forest = &mut scratch.joint_forest;
    forest.reserve_candidates(layout.joint_start[GRAPH_COLOR_COUNT]);
    build_prepare_stages(&mut scratch.stages, workers, graph, &layout);
    // The lanes of the wide joint passes (`joint/wide.rs`) depend on which
    // joints this step's trees take. When last step had no tree joint, the
    // joint preparation writes each chunk's lanes as it prepares the chunk
    // (its joints still in the cache), as if no joint were in a tree; they
    // are kept when this step has no tree joint either (the joints' marks
    // are then all clear, as the preparation left them, and the lanes are
    // what the `JointLanes` stages would write), else those stages write
    // them again. Every chunk's lanes are written before any pass reads
    // them.
    let prepare_lanes = forest.joints.is_empty();
    let joint_lanes = &mut scratch.joint_lanes;
    set_len(
        joint_lanes,
        layout.chunk_start[OVERFLOW_INDEX],
        JointLanes::default(),
    );

    // The wide solver's stand-in for static bodies, removed after the solve.
    let dummy = body_count as u32;
    states.push(BodyState::IDENTITY);
    let constraints = &mut scratch.constraints;
    let wide = &mut scratch.wide_constraints;
    let scalar_count = if use_wide {
        layout.overflow_count
    } else {
        layout.overflow_count + layout.coloured_count()
    };
    // Every constraint is written by a prepare stage before anything reads
    // it, so the buffers keep last step's contents and only change length.
    set_len(constraints, scalar_count, ContactConstraint::default());
    let wide_count = if use_wide { layout.coloured_count() } else { 0 };
    set_len(wide, wide_count, WideConstraint::empty(dummy));
    debug_check_colors(graph, joint_stores.bodies, states, &mut scratch.color_check);

    let run = RunContext {
        workers,
        layout: &layout,
        dummy,
        simd,
        ctx,
    };
    {
        let shared = Shared {
            candidates: SharedMut::new(&mut forest.candidates),
            candidates_changed: &forest.candidates_changed,
            prepare_lanes,
            joint_lanes: SharedMut::new(joint_lanes),
            ..Shared::new(sims, joint_stores, states, (constraints, wide), graph)
        };
        profile.prepare_constraints += super::ms_since(t);
        run.stages(&scratch.stages, &shared, profile, None);
    }

    // The joint forest's serial part (last step's trees kept, or a
    // union–find over the links the preparation found when they changed),
    // then the stages that depend on it.
    let t = Instant::now();
    forest.build(graph, &layout.joint_start, &states[..body_count]);
    let lanes_ready = prepare_lanes && forest.joints.is_empty();
    // Written by the first substep's velocity integration before any reads.
    let velocity_steps = &mut scratch.velocity_steps;
    set_len(velocity_steps, body_count, VelocityStep::default());
    build_substep_stages(
        &mut scratch.stages,
        workers,
        graph,
        &layout,
        (body_count, forest.tree_count(), lanes_ready),
        ctx,
    );
    let shared = Shared {
        tree_links: &forest.links,
        tree_starts: &forest.trees,
        tree_bodies: SharedMut::new(&mut forest.bodies),
        tree_joints: SharedMut::new(&mut forest.joints),
        joint_lanes: SharedMut::new(joint_lanes),
        velocity_steps: SharedMut::new(velocity_steps),
        ..Shared::new(sims, joint_stores, states, (constraints, wide), graph)
    };
    profile.prepare_constraints += super::ms_since(t);
    run.stages(&scratch.stages, &shared, profile, Some(side));

    let stand_in = states.pop();
    debug_assert_eq!(stand_in, Some(BodyState::IDENTITY));
}

/// The change flag of a `Shared` without joint candidates (no stage of it
/// prepares joints, so nothing sets it).
static NO_CANDIDATES: AtomicBool = AtomicBool::new(false);

impl<'a> Shared<'a> {
    /// The body states, contact constraints and graph colours shared, with
    /// no joint candidates or trees.
    fn new(
        sims: &'a [BodySim],
        joint_stores: &'a JointStores<'a>,
        states: &'a mut [BodyState],
        (constraints, wide): (&'a mut [ContactConstraint], &'a mut [WideConstraint]),
        graph: &'a mut ConstraintGraph,
    ) -> Shared<'a> {
        let mut contacts = [SharedMut::empty(); GRAPH_COLOR_COUNT];
        let mut joints = [SharedMut::empty(); GRAPH_COLOR_COUNT];
        for (c, color) in graph.colors.iter_mut().enumerate() {
            contacts[c] = SharedMut::new(&mut color.contact_sims);
            joints[c] = SharedMut::new(&mut color.joint_sims);
        }
        Shared {
            sims,
            joint_stores,
            states: SharedMut::new(states),
            velocity_steps: SharedMut::empty(),
            constraints: SharedMut::new(constraints),
            wide: SharedMut::new(wide),
            contacts,
            joints,
            joint_lanes: SharedMut::empty(),
            candidates: SharedMut::empty(),
            candidates_changed: &NO_CANDIDATES,
            prepare_lanes: false,
            tree_links: &[],
            tree_starts: &[],
            tree_bodies: SharedMut::empty(),
            tree_joints: SharedMut::empty(),
        }
    }
}

/// What every block of a step's solve needs besides the shared slices.
struct RunContext<'a> {
    workers: &'a Workers,
    layout: &'a Layout,
    dummy: u32,
    simd: SimdPath,
    ctx: &'a StepContext,
}

impl RunContext<'_> {
    /// Runs `stages` as one region on the workers, timing each stage into
    /// `profile`, with `side` beside them (see [`Workers::run_beside`]).
    fn stages(
        &self,
        stages: &[Stage],
        shared: &Shared,
        profile: &mut Profile,
        side: Option<&(dyn Fn() + Sync)>,
    ) {
        let RunContext {
            workers,
            layout,
            dummy,
            simd,
            ctx,
        } = *self;
        let mut last = Instant::now();
        workers.run_beside(
            stages,
            Stage::block_count,
            |stage, block, _worker| run_block(shared, layout, stage, block, dummy, simd, ctx),
            |stage| {
                let now = Instant::now();
                let time = now - last;
                last = now;
                *profile_field(profile, stage.kind) += time.as_secs_f32() * 1000.0;
                if stage.kind.is_overflow() {
                    workers.note_serial(time); // one block on any worker count
                }
            },
            side,
        );
    }
}

/// Makes `v` `len` long, filling new elements with `fill` (old ones keep
/// their values).
fn set_len<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) {
    if v.len() > len {
        v.truncate(len);
    } else {
        v.resize(len, fill);
    }
}

/// The profile field a stage's time goes to.
fn profile_field(profile: &mut Profile, kind: StageKind) -> &mut f32 {
    match kind {
        StageKind::PrepareJoints
        | StageKind::PrepareOverflow
        | StageKind::PrepareContacts
        | StageKind::JointLanes(_) => &mut profile.prepare_constraints,
        StageKind::IntegrateVelocities(_) => &mut profile.integrate_velocities,
        StageKind::IntegratePositions => &mut profile.integrate_positions,
        StageKind::StoreImpulses | StageKind::JointImpulses => &mut profile.store_impulses,
        StageKind::Joints(pass, _)
        | StageKind::JointTrees(pass)
        | StageKind::Overflow(pass)
        | StageKind::Contacts(pass, _) => match pass {
            Pass::WarmStart => &mut profile.warm_start,
            Pass::Solve => &mut profile.solve_impulses,
            Pass::Relax => &mut profile.relax_impulses,
            Pass::Restitution => &mut profile.restitution,
            Pass::Store => &mut profile.store_impulses,
        },
    }
}

/// Runs one block of one stage; the work is done by kernels built for the
/// world's [`SimdPath`] (see `simd.rs`).
#[allow(unsafe_code)]
fn run_block(
    shared: &Shared,
    layout: &Layout,
    stage: &Stage,
    block: u32,
    dummy: u32,
    simd: SimdPath,
    ctx: &StepContext,
) {
    let (start, end) = stage.block_range(block);
    // SAFETY (every `unsafe` below): the blocks of one stage run at the same
    // time and nothing else touches these slices meanwhile.
    // - Items `start..end` of a stage belong to this block alone: a range of
    //   bodies, of constraints of one colour, of chunks of `lanes::LANES`
    //   joints of one colour with their lanes (the overflow colour's joints
    //   one by one), of all joints in colour order (joint preparation writes
    //   only the joint and reads the bodies' sims, never their states).
    //   The stages split by colour (`Layout::colour_part`) give each block
    //   its own part of each colour: the parts of a colour's blocks are
    //   disjoint.
    // - Body states are reached by index. Per-body stages touch only their
    //   own range. Constraint stages hold the constraints of one colour, and
    //   the graph colouring gives each dynamic body at most one constraint
    //   per colour (checked in debug builds by `debug_check_colors`), so
    //   each dynamic body's state is read and written by one block. Static
    //   bodies (the stand-in) and kinematic bodies are read by several
    //   blocks but written by none: the solvers write only bodies flagged
    //   `flags::DYNAMIC`.
    // - The overflow colours are one block each and run alone.
    match stage.kind {
        StageKind::PrepareJoints => {
            // Chunks `start..end` of all (colour order, the overflow
            // colour's too): each colour's part, its joints, their
            // candidates and (other colours, when the preparation writes
            // them) lanes belong to this block.
            let chunks = &layout.chunk_start;
            for (c, joints) in shared.joints.iter().enumerate() {
                let (lo, hi) = (start.max(chunks[c]), end.min(chunks[c + 1]));
                if lo < hi {
                    let first = chunks[c];
                    let j0 = (lo - first) * lanes::LANES;
                    let j1 = ((hi - first) * lanes::LANES).min(joints.len());
                    let sims = unsafe { joints.range(j0, j1) };
                    let at = layout.joint_start[c];
                    let candidates = unsafe { shared.candidates.range(at + j0, at + j1) };
                    let joint_lanes = if shared.prepare_lanes && c != OVERFLOW_INDEX {
                        unsafe { shared.joint_lanes.range(lo, hi) }
                    } else {
                        &mut []
                    };
                    let out = JointsOut {
                        sims,
                        candidates,
                        lanes: joint_lanes,
                        dummy,
                    };
                    if prepare_joints(simd, out, shared.joint_stores, ctx) {
                        JointForest::note_changed(shared.candidates_changed);
                    }
                }
            }
        }
        StageKind::PrepareOverflow => {
            let states = unsafe { shared.states.whole() };
            let overflow = unsafe { shared.contacts[OVERFLOW_INDEX].range(start, end) };
            let constraints = unsafe { shared.constraints.range(start, end) };
            prepare_scalar(simd, constraints, overflow, states, ctx);
        }
        StageKind::PrepareContacts => {
            let block = PrepareBlock {
                shared,
                layout,
                dummy,
                ctx,
            };
            for c in 0..OVERFLOW_INDEX {
                let (lo, hi) = layout.colour_part(c, start, stage.items as usize);
                if lo < hi {
                    prepare_contacts(simd, &block, lo, hi);
                }
            }
        }
        StageKind::IntegrateVelocities(first) => {
            // Every substep's stage has the same blocks of bodies, so a
            // block finds the steps its first substep kept.
            let states = unsafe { shared.states.range(start, end) };
            let steps = unsafe { shared.velocity_steps.range(start, end) };
            let sims = &shared.sims[start..end];
            integrate_velocities(simd, sims, steps, states, ctx, first);
        }
        StageKind::IntegratePositions => {
            let states = unsafe { shared.states.range(start, end) };
            integrate_positions(simd, states, ctx);
        }
        StageKind::JointLanes(color) => {
            // Chunks `start..end` of the colour: their joints (only read
            // here) and lanes.
            let ((j0, j1), (l0, l1)) = chunk_ranges(shared, layout, color, start, end);
            let joints = unsafe { shared.joints[color as usize].range(j0, j1) };
            let lanes = unsafe { shared.joint_lanes.range(l0, l1) };
            for (chunk, l) in joints.chunks(lanes::LANES).zip(lanes) {
                wide::prepare(chunk, l, dummy, ctx);
            }
        }
        StageKind::Joints(pass, color) if color as usize == OVERFLOW_INDEX => {
            let states = unsafe { shared.states.whole() };
            let joints = unsafe { shared.joints[OVERFLOW_INDEX].range(start, end) };
            joint_pass(simd, pass, joints, &mut [], states, ctx);
        }
        StageKind::Joints(pass, color) => {
            let states = unsafe { shared.states.whole() };
            let ((j0, j1), (l0, l1)) = chunk_ranges(shared, layout, color, start, end);
            let joints = unsafe { shared.joints[color as usize].range(j0, j1) };
            let lanes = unsafe { shared.joint_lanes.range(l0, l1) };
            joint_pass(simd, pass, joints, lanes, states, ctx);
        }
        StageKind::JointTrees(pass) => {
            // Trees `start..end`: no other block's tree holds one of their
            // joints or dynamic bodies.
            let states = unsafe { shared.states.whole() };
            let (b0, j0) = shared.tree_starts[start];
            let (b1, j1) = shared.tree_starts[end];
            let bodies = unsafe { shared.tree_bodies.range(b0 as usize, b1 as usize) };
            let joints = unsafe { shared.tree_joints.range(j0 as usize, j1 as usize) };
            let joint = |color: usize, index: usize| unsafe { shared.joints[color].get(index) };
            let use_bias = pass == Pass::Solve;
            solve_trees(
                bodies,
                joints,
                b0 as usize,
                shared.tree_links,
                joint,
                states,
                use_bias,
            );
        }
        StageKind::Overflow(pass) => {
            let states = unsafe { shared.states.whole() };
            let constraints = unsafe { shared.constraints.range(start, end) };
            if pass == Pass::Store {
                let sims = unsafe { shared.contacts[OVERFLOW_INDEX].range(start, end) };
                contact_solver::store_impulses(constraints, sims.iter_mut());
            } else {
                scalar_pass(simd, pass, constraints, states, ctx);
            }
        }
        StageKind::Contacts(pass, color) => {
            let states = unsafe { shared.states.whole() };
            let first = layout.start[color as usize];
            if layout.use_wide {
                let wide = unsafe { shared.wide.range(first + start, first + end) };
                wide_pass(simd, pass, wide, states, ctx);
            } else {
                let first = layout.overflow_count + first;
                let constraints = unsafe { shared.constraints.range(first + start, first + end) };
                scalar_pass(simd, pass, constraints, states, ctx);
            }
        }
        StageKind::StoreImpulses => {
            for c in 0..OVERFLOW_INDEX {
                let (lo, hi) = layout.colour_part(c, start, stage.items as usize);
                if lo < hi {
                    store_contacts(simd, shared, layout, lo, hi);
                }
            }
        }
        StageKind::JointImpulses => {
            // Chunks `start..end` of all (colour order): each colour's part,
            // its joints and lanes (only read here) belong to this block.
            for c in 0..OVERFLOW_INDEX {
                let first = layout.chunk_start[c];
                let (lo, hi) = (start.max(first), end.min(layout.chunk_start[c + 1]));
                if lo < hi {
                    let ((j0, j1), (l0, l1)) =
                        chunk_ranges(shared, layout, c as u8, lo - first, hi - first);
                    let joints = unsafe { shared.joints[c].range(j0, j1) };
                    let lanes = unsafe { shared.joint_lanes.range(l0, l1) };
                    wide::store_impulses(joints, lanes);
                }
            }
        }
    }
}

/// Where the joints of chunks `start..end` of colour `color` (not the
/// overflow colour) lie among the colour's joints, and their lanes among all
/// lanes: chunk `k` is joints `k·LANES..(k + 1)·LANES`.
#[inline(always)]
fn chunk_ranges(
    shared: &Shared,
    layout: &Layout,
    color: u8,
    start: usize,
    end: usize,
) -> ((usize, usize), (usize, usize)) {
    let c = color as usize;
    let n = shared.joints[c].len();
    let first = layout.chunk_start[c];
    (
        (start * lanes::LANES, (end * lanes::LANES).min(n)),
        (first + start, first + end),
    )
}

/// The contact sims of coloured items `start..end` (each a wide block of up
/// to `lanes::LANES` sims, or one sim), with the item index.
#[allow(unsafe_code)]
#[inline(always)]
fn coloured_sims<'a>(
    shared: &'a Shared,
    layout: &'a Layout,
    start: usize,
    end: usize,
) -> impl Iterator<Item = (usize, &'a mut [ContactSim])> + 'a {
    let mut color = layout.color_of(start);
    (start..end).map(move |item| {
        while item >= layout.start[color + 1] {
            color += 1;
        }
        let local = item - layout.start[color];
        let per_item = if layout.use_wide { lanes::LANES } else { 1 };
        let first = local * per_item;
        let last = (first + per_item).min(shared.contacts[color].len());
        // SAFETY: item `item` owns these sims (see `run_block`), and the
        // caller's block owns items `start..end`.
        (item, unsafe { shared.contacts[color].range(first, last) })
    })
}

/// What contact preparation takes from the step: its softness and whether
/// it warm starts.
#[inline(always)]
fn prepare_params(ctx: &StepContext) -> PrepareParams {
    PrepareParams {
        contact_softness: ctx.contact_softness,
        static_softness: ctx.static_softness,
        softening: ctx.contact_softening,
        warm_start_scale: if ctx.enable_warm_starting { 1.0 } else { 0.0 },
    }
}

multiversion!(
    /// Prepares scalar constraints, one per sim.
    fn prepare_scalar(
        constraints: &mut [ContactConstraint],
        sims: &[ContactSim],
        states: &[BodyState],
        ctx: &StepContext,
    ) = prepare_scalar_kernel
);

/// The kernel of [`prepare_scalar`], compiled into each of its builds.
#[inline(always)]
fn prepare_scalar_kernel(
    constraints: &mut [ContactConstraint],
    sims: &[ContactSim],
    states: &[BodyState],
    ctx: &StepContext,
) {
    let params = prepare_params(ctx);
    for (c, sim) in constraints.iter_mut().zip(sims) {
        *c = params.scalar(sim, states);
    }
}

/// What a block of the contact preparation stage reads.
struct PrepareBlock<'a> {
    shared: &'a Shared<'a>,
    layout: &'a Layout,
    dummy: u32,
    ctx: &'a StepContext,
}

multiversion!(
    /// Prepares the coloured items `start..end` (wide constraints of up to
    /// `lanes::LANES` sims, or scalar ones), built for the world's SIMD path:
    /// one dispatch per block, with the walk over the colours inside.
    fn prepare_contacts(block: &PrepareBlock, start: usize, end: usize) = prepare_contacts_kernel, isa
);

/// The kernel of [`prepare_contacts`], compiled into each of its builds (on
/// x86-64 it is told which: `isa`).
#[allow(unsafe_code)]
#[inline(always)]
fn prepare_contacts_kernel<#[cfg(target_arch = "x86_64")] I: crate::simd::isa::Isa>(
    #[cfg(target_arch = "x86_64")] isa: I,
    block: &PrepareBlock,
    start: usize,
    end: usize,
) {
    let PrepareBlock {
        shared,
        layout,
        dummy,
        ctx,
    } = *block;
    // SAFETY: as in `run_block`: items `start..end` belong to this block,
    // and the states are only read here.
    let states = unsafe { shared.states.whole() };
    let params = prepare_params(ctx);
    for (item, sims) in coloured_sims(shared, layout, start, end) {
        if layout.use_wide {
            // Empty lanes point at the stand-in state `dummy`.
            let w = unsafe { shared.wide.get(item) };
            if item + 1 < end {
                // The next block (this block's too) is written next.
                contact_solver_wide::prefetch_next(w);
            }
            #[cfg(target_arch = "x86_64")]
            contact_solver_wide::prepare(isa, w, sims, states, dummy, &params);
            #[cfg(not(target_arch = "x86_64"))]
            contact_solver_wide::prepare(w, sims, states, dummy, &params);
        } else {
            let c = unsafe { shared.constraints.get(layout.overflow_count + item) };
            *c = params.scalar(&sims[0], states);
        }
    }
}

multiversion!(
    /// Stores the impulses of the coloured items `start..end` in their
    /// manifolds, built for the world's SIMD path.
    fn store_contacts(shared: &Shared, layout: &Layout, start: usize, end: usize) = store_contacts_kernel, isa
);

/// The kernel of [`store_contacts`], compiled into each of its builds (on
/// x86-64 it is told which: `isa`).
#[allow(unsafe_code)]
#[inline(always)]
fn store_contacts_kernel<#[cfg(target_arch = "x86_64")] I: crate::simd::isa::Isa>(
    #[cfg(target_arch = "x86_64")] isa: I,
    shared: &Shared,
    layout: &Layout,
    start: usize,
    end: usize,
) {
    for (item, sims) in coloured_sims(shared, layout, start, end) {
        // SAFETY: as in `run_block`: items `start..end` belong to this block.
        if layout.use_wide {
            let w = unsafe { shared.wide.get(item) };
            #[cfg(target_arch = "x86_64")]
            contact_solver_wide::store_impulses(isa, w, sims);
            #[cfg(not(target_arch = "x86_64"))]
            contact_solver_wide::store_impulses(w, sims);
        } else {
            let c = unsafe { shared.constraints.get(layout.overflow_count + item) };
            contact_solver::store_impulses(std::slice::from_ref(c), sims.iter_mut());
        }
    }
}

/// What a block of joint preparation writes: its joints (whole chunks of
/// `lanes::LANES` joints of one colour, the last maybe short), what each
/// brings to the joint trees, and the chunks' lanes (none: not written),
/// whose empty lanes point at the stand-in state `dummy`.
struct JointsOut<'a> {
    sims: &'a mut [JointSim],
    candidates: &'a mut [(u32, u32)],
    lanes: &'a mut [JointLanes],
    dummy: u32,
}

multiversion!(
    /// Prepares joints for the step (each writes only its own sim and
    /// candidate link, see [`crate::joint::tree::candidate`]), and the
    /// lanes given of their chunks.
    /// Whether any candidate differs from the one it overwrote.
    fn prepare_joints(out: JointsOut, stores: &JointStores, ctx: &StepContext) -> bool = prepare_joints_kernel
);

/// The kernel of [`prepare_joints`], compiled into each of its builds.
#[inline(always)]
fn prepare_joints_kernel(out: JointsOut, stores: &JointStores, ctx: &StepContext) -> bool {
    // The world's joint softness, once per block.
    let tuning = JointTuning::new(stores.tuning, ctx);
    let mut changed = false;
    let JointsOut {
        sims,
        candidates,
        lanes: joint_lanes,
        dummy,
    } = out;
    for (i, candidate) in candidates.iter_mut().enumerate() {
        prefetch_joint_inputs(sims, i, stores);
        if i % lanes::LANES == 0 {
            // The next chunk's lanes, written after its joints.
            wide::prefetch_lanes(joint_lanes.as_ptr().wrapping_add(i / lanes::LANES + 1));
        }
        let link = prepare_joint(
            &mut sims[i],
            stores.bodies,
            stores.solver_sets,
            &tuning,
            ctx,
        );
        changed |= *candidate != link;
        *candidate = link;
        // A chunk done: its lanes, from its joints while in the cache (no
        // joint in a tree yet: `tree::candidate` cleared the marks).
        let chunk = i / lanes::LANES;
        if ((i + 1) % lanes::LANES == 0 || i + 1 == sims.len())
            && let Some(l) = joint_lanes.get_mut(chunk)
        {
            wide::prepare(&sims[chunk * lanes::LANES..=i], l, dummy, ctx);
        }
    }
    changed
}

/// How many joints ahead [`prefetch_joint_inputs`] asks for each joint's
/// sim, then its bodies' records, then their sims: each stage reads what
/// the one before brought in.
const JOINT_SIMS_AHEAD: usize = 8;
const JOINT_BODIES_AHEAD: usize = 5;
const JOINT_BODY_SIMS_AHEAD: usize = 2;

/// Prefetch hints for the joints after `sims[i]`: joint preparation reads,
/// per joint, its sim, its bodies' records and their sims, each found
/// through the one before and each usually not in the cache (a step walks
/// every joint once here), so a joint would wait on three loads in a row.
/// The hints overlap those waits with the preparation of the joints before
/// it. No value changes.
#[inline(always)]
fn prefetch_joint_inputs(sims: &[JointSim], i: usize, stores: &JointStores) {
    use crate::prefetch::prefetch_value;
    if let Some(sim) = sims.get(i + JOINT_SIMS_AHEAD) {
        prefetch_value(sim);
    }
    let bodies = stores.bodies;
    if let Some(sim) = sims.get(i + JOINT_BODIES_AHEAD) {
        for id in [sim.base.body_id_a, sim.base.body_id_b] {
            prefetch_value(bodies.as_ptr().wrapping_add(id as usize));
        }
    }
    if let Some(sim) = sims.get(i + JOINT_BODY_SIMS_AHEAD) {
        for id in [sim.base.body_id_a, sim.base.body_id_b] {
            if let Some(b) = bodies.get(id as usize)
                && let Some(set) = stores.solver_sets.get(b.set_index as usize)
            {
                prefetch_value(set.body_sims.as_ptr().wrapping_add(b.local_index as usize));
            }
        }
    }
}

/// One pass over the joints of one colour: in chunks of
/// [`LANES`](lanes::LANES) joints with their `joint_lanes`
/// (`joint/wide.rs`: the joints in lanes at once, then the others one by
/// one), or with no lanes (the overflow colour, whose joints may share
/// bodies) one by one in order.
#[inline(always)]
fn joint_pass(
    simd: SimdPath,
    pass: Pass,
    joints: &mut [JointSim],
    joint_lanes: &mut [JointLanes],
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    let pass = match pass {
        Pass::WarmStart => JointPass::WarmStart,
        Pass::Solve => JointPass::Solve,
        Pass::Relax => JointPass::Relax,
        Pass::Restitution | Pass::Store => return,
    };
    if joint_lanes.iter().any(|l| l.any()) {
        joint_lanes_pass(simd, pass, joint_lanes, states);
    }
    joint_scalar_pass(simd, pass, joints, joint_lanes, states, ctx);
}

multiversion!(
    /// The joints in lanes of one pass over the joints of one colour.
    fn joint_lanes_pass(
        pass: JointPass,
        joint_lanes: &mut [JointLanes],
        states: &mut [BodyState],
    ) = joint_lanes_pass_kernel, isa
);

/// The kernel of [`joint_lanes_pass`], compiled into each of its builds (on
/// x86-64 it is told which: `isa`, whose lanes it computes with).
#[inline(always)]
fn joint_lanes_pass_kernel<#[cfg(target_arch = "x86_64")] I: crate::simd::isa::Isa>(
    #[cfg(target_arch = "x86_64")] isa: I,
    pass: JointPass,
    joint_lanes: &mut [JointLanes],
    states: &mut [BodyState],
) {
    #[cfg(not(target_arch = "x86_64"))]
    let isa = lanes::LaneMath;
    wide::pass_lanes(isa, pass, joint_lanes, states);
}

multiversion!(
    /// The joints not in lanes of one pass over the joints of one colour
    /// (all of them, in order, with no lanes).
    fn joint_scalar_pass(
        pass: JointPass,
        joints: &mut [JointSim],
        joint_lanes: &[JointLanes],
        states: &mut [BodyState],
        ctx: &StepContext,
    ) = wide::pass_others
);

multiversion!(
    /// One pass of the scalar contact solver over `constraints`.
    fn scalar_pass(
        pass: Pass,
        constraints: &mut [ContactConstraint],
        states: &mut [BodyState],
        ctx: &StepContext,
    ) = scalar_pass_kernel
);

/// The kernel of [`scalar_pass`], compiled into each of its builds.
#[inline(always)]
fn scalar_pass_kernel(
    pass: Pass,
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    let (inv_h, push) = (ctx.inv_h, ctx.contact_push_max_velocity);
    match pass {
        Pass::WarmStart => contact_solver::warm_start(constraints, states),
        Pass::Solve => contact_solver::solve(constraints, states, inv_h, push, true),
        Pass::Relax => contact_solver::solve(constraints, states, inv_h, push, false),
        Pass::Restitution => {
            contact_solver::apply_restitution(constraints, states, ctx.restitution_threshold);
        }
        Pass::Store => unreachable!("impulses are stored by their own stages"),
    }
}

/// One pass of the wide contact solver over `wide`: each pass is its own
/// function built for each SIMD path (one dispatch per block), so that a
/// profiler sees the passes apart.
#[inline(always)]
fn wide_pass(
    simd: SimdPath,
    pass: Pass,
    wide: &mut [WideConstraint],
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    match pass {
        Pass::WarmStart => wide_warm_start(simd, wide, states, ctx),
        Pass::Solve => wide_solve(simd, wide, states, ctx),
        Pass::Relax => wide_relax(simd, wide, states, ctx),
        Pass::Restitution => wide_restitution(simd, wide, states, ctx),
        Pass::Store => unreachable!("impulses are stored by their own stages"),
    }
}

/// A pass of the wide contact solver as a `multiversion!` function `$name`
/// whose kernel `$kernel` runs `$body` with the constraints (on x86-64 with
/// the build they are compiled into), the states and the step context.
macro_rules! wide_kernel {
    (
        $(#[$attr:meta])*
        $name:ident = $kernel:ident, |$wide:ident, $states:ident, $ctx:ident| $body:expr
    ) => {
        multiversion!(
            $(#[$attr])*
            fn $name(
                wide: &mut [WideConstraint],
                states: &mut [BodyState],
                ctx: &StepContext,
            ) = $kernel, isa
        );

        /// The kernel of the function of the same name without `_kernel`,
        /// compiled into each of its builds (on x86-64 it is told which).
        #[inline(always)]
        fn $kernel<#[cfg(target_arch = "x86_64")] I: crate::simd::isa::Isa>(
            #[cfg(target_arch = "x86_64")] isa: I,
            wide: &mut [WideConstraint],
            states: &mut [BodyState],
            ctx: &StepContext,
        ) {
            #[cfg(target_arch = "x86_64")]
            let wide = (isa, wide);
            let ($wide, $states, $ctx) = (wide, states, ctx);
            $body
        }
    };
}

wide_kernel!(
    /// The wide warm start of `wide`.
    wide_warm_start = wide_warm_start_kernel,
    |wide, states, _ctx| contact_solver_wide::warm_start(wide, states)
);

wide_kernel!(
    /// The wide solve (with bias) of `wide`.
    wide_solve = wide_solve_kernel,
    |wide, states, ctx| {
        let (inv_h, push) = (ctx.inv_h, ctx.contact_push_max_velocity);
        contact_solver_wide::solve(wide, states, inv_h, push, true);
    }
);

wide_kernel!(
    /// The wide relax (no bias) of `wide`.
    wide_relax = wide_relax_kernel,
    |wide, states, ctx| {
        let (inv_h, push) = (ctx.inv_h, ctx.contact_push_max_velocity);
        contact_solver_wide::solve(wide, states, inv_h, push, false);
    }
);

wide_kernel!(
    /// The wide restitution of `wide`.
    wide_restitution = wide_restitution_kernel,
    |wide, states, ctx| {
        let threshold = ctx.restitution_threshold;
        contact_solver_wide::apply_restitution(wide, states, threshold);
    }
);

/// Debug builds: checks that no colour other than the overflow colour holds
/// two constraints on one dynamic body, which is what lets a colour's blocks
/// run side by side.
fn debug_check_colors(
    graph: &ConstraintGraph,
    bodies: &[Body],
    states: &[BodyState],
    seen: &mut crate::bitset::BitSet,
) {
    if !cfg!(debug_assertions) {
        return;
    }
    let check = |seen: &mut crate::bitset::BitSet, index: u32| {
        if index != NULL_INDEX && states[index as usize].flags & flags::DYNAMIC != 0 {
            assert!(!seen.get(index), "body {index} twice in one colour");
            seen.set(index);
        }
    };
    for color in &graph.colors[..OVERFLOW_INDEX] {
        seen.set_bit_count_and_clear(states.len() as u32);
        for sim in &color.contact_sims {
            check(seen, sim.body_sim_index_a);
            check(seen, sim.body_sim_index_b);
        }
        // (From the bodies: the joints are prepared by a stage, later.)
        for sim in &color.joint_sims {
            for id in [sim.base.body_id_a, sim.base.body_id_b] {
                let body = &bodies[id as usize];
                if body.set_index == AWAKE_SET {
                    check(seen, body.local_index);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On 1 to 4 workers and colours of 0 to 300 items, the blocks of a
    /// stage split by colour take every item of every colour exactly once,
    /// and each item goes to the worker that owns it in the colour's own
    /// stage (`workers::own_blocks`, as `Region::sweep` hands blocks out).
    #[test]
    fn the_colour_split_matches_the_colour_stages() {
        let sizes = [
            0, 1, 7, 8, 9, 16, 17, 33, 64, 65, 100, 127, 128, 129, 300, 3, 250, 41,
        ];
        for n in 1..=4 {
            let workers = Workers::new(n).unwrap();
            for rotate in 0..sizes.len() {
                let mut start = [0; OVERFLOW_INDEX + 1];
                for c in 0..OVERFLOW_INDEX {
                    start[c + 1] = start[c] + sizes[(c + rotate) % sizes.len()] * (rotate % 3);
                }
                let layout = Layout {
                    use_wide: true,
                    overflow_count: 0,
                    start,
                    joint_start: [0; GRAPH_COLOR_COUNT + 1],
                    chunk_start: [0; GRAPH_COLOR_COUNT + 1],
                    workers: n,
                    color_block: std::array::from_fn(|c| {
                        workers.block_size(start[c + 1] - start[c], MIN_CONSTRAINT_BLOCK)
                    }),
                };
                let blocks = layout.colour_split_blocks(&workers);
                let mut owner = vec![usize::MAX; layout.coloured_count()];
                for block in 0..blocks {
                    let worker = (0..n)
                        .find(|&w| {
                            let (s, own) = own_blocks(blocks, n, w);
                            block >= s && block < s + own
                        })
                        .unwrap();
                    for c in 0..OVERFLOW_INDEX {
                        let (lo, hi) = layout.colour_part(c, block, blocks);
                        assert!(start[c] <= lo && lo <= hi && hi <= start[c + 1]);
                        for item in &mut owner[lo..hi] {
                            assert_eq!(*item, usize::MAX, "an item taken twice");
                            *item = worker;
                        }
                    }
                }
                for c in 0..OVERFLOW_INDEX {
                    let size = layout.color_block[c];
                    for (local, got) in owner[start[c]..start[c + 1]].iter().enumerate() {
                        let colour_block = local / size;
                        let count = layout.color_count(c).div_ceil(size);
                        let want = if blocks <= 1 {
                            0
                        } else {
                            (0..n)
                                .find(|&w| {
                                    let (s, own) = own_blocks(count, n, w);
                                    colour_block >= s && colour_block < s + own
                                })
                                .unwrap()
                        };
                        assert_eq!(*got, want, "{n} workers, colour {c}, item {local}");
                    }
                }
            }
        }
    }
}
