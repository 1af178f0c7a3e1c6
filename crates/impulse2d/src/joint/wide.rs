//! The wide form of the revolute joint passes: the revolute joints of one
//! graph colour that are not in a joint tree warm started, solved and
//! relaxed [`LANES`] at a time, one joint per lane: the point row, and
//! before it, where a lane's joint has them and its bodies can turn, the
//! rows about the axis (spring, motor, lower then upper limit: a chunk
//! with none skips them), each lane masked by selects, so that a row a
//! lane does not run leaves its velocities' and impulse's bits untouched.
//! The joint angle the spring and limit need is worked out lane by lane
//! (the relative rotation of the frames, then `math::atan2_lanes`, the
//! scalar `math::atan2`'s bits in `f64` lanes without branches), the
//! spring's `unwind_angle` with the scalar function in each lane that has
//! a spring.
//!
//! Joints of one colour share no dynamic body, so solving them side by side
//! gives the same result as solving them one after the other; static and
//! kinematic bodies may repeat among the lanes, but they are only read (the
//! scatter, as the scalar `store`, writes dynamic bodies only). Each lane
//! repeats the scalar solver's arithmetic operation for operation
//! (`revolute.rs`, `pair.rs`: the anchors rotated by the bodies' rotation
//! deltas, the 2 × 2 effective mass built and solved every pass, as Box2D
//! does), with IEEE operations lane by lane and no fused multiply-add (see
//! `solver/lanes.rs`), so the wide and scalar passes give the same bits; the
//! scalar passes stay the reference (the tests below compare them).
//!
//! A colour's joints are taken in chunks of [`LANES`] consecutive joints.
//! Once per step, once the joints are prepared and their `in_tree` marks
//! are this step's (right after each chunk's joints when no joint is in a
//! tree, see `solver/stages.rs`), [`prepare`] copies what the passes read of each chunk's qualifying joints ([`qualifies`]) into a
//! [`JointLanes`] (one field per lane set, the other lanes empty); each pass
//! then solves every chunk's qualifying joints at once from them
//! ([`pass_lanes`]) and the other joints one by one with the scalar code
//! ([`pass_others`]). The point
//! impulses (and, in a chunk with rows about the axis, the spring, motor
//! and limit impulses, from which the warm start sums the axial impulse as
//! `revolute::axial_impulse` does) are kept in the lanes over the step's
//! passes (nothing else reads a lane joint's impulses during them) and
//! written to the joints once,
//! after the last pass ([`store_impulses`]; the threshold check, the
//! reaction forces and the next step read them there). A body that is not awake (and an empty lane) points at the resting
//! stand-in state the solve appends to the awake states, as in the wide
//! contact solver. On x86-64 the body states are gathered and scattered with
//! the contact solver's row form (`contact_solver_wide/rows.rs`: each state
//! read as rows and transposed, each dynamic body's velocities written as one
//! row; only moves, so the bits are the lane-by-lane form's); elsewhere lane
//! by lane with the scalar `load` and `store`.

use crate::body::BodyState;
#[cfg(not(target_arch = "x86_64"))]
use crate::body::{load, store};
use crate::id::NULL_INDEX;
use crate::math::{Vec2, atan2_lanes, unwind_angle};
use crate::solver::StepContext;
#[cfg(not(target_arch = "x86_64"))]
use crate::solver::contact_solver_wide::BodyLanes;
use crate::solver::contact_solver_wide::{BodyIndices, Lanes};
#[cfg(target_arch = "x86_64")]
use crate::solver::contact_solver_wide::{RowLanes, gather_rows, scatter_rows};
use crate::solver::lanes::{FloatW, LANES, Lane, LaneMask};

/// What the passes compute with: on x86-64 a build's [`Isa`](crate::simd::isa::Isa)
/// (its lanes, and which row gather to use), elsewhere the lanes' `Math`.
#[cfg(target_arch = "x86_64")]
pub(crate) use crate::simd::isa::Isa as Build;
#[cfg(not(target_arch = "x86_64"))]
pub(crate) use crate::solver::lanes::Math as Build;

use super::revolute::{self, RevoluteJoint};
use super::solver::{solve_joint, warm_start_joint};
use super::{JointBase, JointKind, JointSim};

/// One joint pass: warm start, solve (position errors corrected) or relax
/// (velocities only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JointPass {
    WarmStart,
    Solve,
    Relax,
}

/// Whether the wide passes take the joint: a revolute joint whose point row
/// is not a joint tree's (`tree.rs`), with or without a spring, motor or
/// limit (the rows about the axis, solved in lanes before the point row
/// where a lane has one and its bodies can turn, as the scalar solve does).
#[inline(always)]
pub(crate) fn qualifies(sim: &JointSim) -> bool {
    match &sim.kind {
        JointKind::Revolute(_) => !sim.base.in_tree,
        _ => false,
    }
}

/// Whether a revolute joint has a row about the axis enabled; the scalar
/// solve (`revolute::solve`) runs them when also its bodies can turn
/// ([`can_turn`]).
#[inline(always)]
fn rows_enabled(j: &RevoluteJoint) -> bool {
    // Bitwise: no branch for the usual joint with none enabled.
    j.spring.enable | j.motor.enable | j.limit.enable
}

/// Whether a joint's bodies can turn about it: `ia + ib ≠ 0` (`revolute::solve`).
#[inline(always)]
fn can_turn(base: &JointBase) -> bool {
    base.inv_i_a + base.inv_i_b != 0.0
}

/// What the passes read of the qualifying joints of one chunk of
/// [`LANES`] joints, lane `k` from joint `k` of the chunk, for one step:
/// body indices (the stand-in state's for a body that is not awake and in
/// empty lanes), inverse masses (1/kg) and
/// inertias (1/(kg·m²)), anchors relative to the centres of mass at the
/// start of the step (m), centre of B minus centre of A (m), softness, the
/// angular impulse about the axis (N·m·s, warm started as the scalar code
/// does; in a chunk with no rows about the axis it does not change during
/// the step), the point impulse (N·s) and the rows about the axis.
#[derive(Clone, Copy, Debug, Default)]
// In declaration order, the rows about the axis last: [`prefetch_lanes`]
// asks for the fields before them.
#[repr(C)]
pub(crate) struct JointLanes {
    /// Bit `k`: joint `k` of the chunk qualifies.
    active: u8,
    /// Bit `k`: the chunk has a joint `k` and it does not qualify (the
    /// scalar passes take it).
    others: u8,
    bodies: BodyIndices,
    ma: FloatW,
    ia: FloatW,
    mb: FloatW,
    ib: FloatW,
    frame_ax: FloatW,
    frame_ay: FloatW,
    frame_bx: FloatW,
    frame_by: FloatW,
    center_x: FloatW,
    center_y: FloatW,
    bias_rate: FloatW,
    mass_scale: FloatW,
    impulse_scale: FloatW,
    axial: FloatW,
    impulse_x: FloatW,
    impulse_y: FloatW,
    /// Bit `k`: joint `k` of the chunk is in lanes and its solve runs the
    /// rows about the axis ([`rows_enabled`] and [`can_turn`]); with none set, the passes
    /// skip them and [`Self::rows`] is not read (it may be stale).
    axial_rows: u8,
    /// The rows about the axis of the chunk's joints in lanes, written when
    /// any has them ([`Self::axial_rows`]).
    rows: AxialLanes,
}

/// What the rows about the axis (spring, motor, limit) read of the joints
/// of one chunk in lanes, and their accumulated impulses over the step's
/// passes (written to the joints with the point impulses). The flags are
/// 1.0 where the row runs (enabled and the bodies can turn), else 0.0.
#[derive(Clone, Copy, Debug, Default)]
struct AxialLanes {
    /// The step's inverse substep, 1/s (a satisfied limit's speculative
    /// bias).
    inv_h: f32,
    /// Bits `k` of the joints whose spring, motor, limit run, and which
    /// need the joint angle (a spring or a limit).
    spring_bits: u8,
    motor_bits: u8,
    limit_bits: u8,
    spring_on: FloatW,
    motor_on: FloatW,
    limit_on: FloatW,
    /// The joint frames' rotations relative to the bodies at the start of
    /// the step (cosine, sine).
    frame_ac: FloatW,
    frame_as: FloatW,
    frame_bc: FloatW,
    frame_bs: FloatW,
    /// `1 / (1/I_a + 1/I_b)`, kg·m².
    mass: FloatW,
    /// The spring's target angle (rad) and softness.
    target: FloatW,
    spring_bias_rate: FloatW,
    spring_mass_scale: FloatW,
    spring_impulse_scale: FloatW,
    /// The motor's speed (rad/s) and largest impulse per substep
    /// (`h · max torque`, N·m·s).
    speed: FloatW,
    max_impulse: FloatW,
    /// The limits, rad.
    lower: FloatW,
    upper: FloatW,
    /// Accumulated impulses of the spring, motor, lower and upper limits,
    /// N·m·s (every joint of the chunk in lanes: the warm start sums them).
    spring_impulse: FloatW,
    motor_impulse: FloatW,
    lower_impulse: FloatW,
    upper_impulse: FloatW,
}

/// A prefetch hint for the lanes at `l` (every field before the rows about
/// the axis, which most chunks do not use), written soon: joint
/// preparation writes each chunk's lanes once, a few hundred bytes apart,
/// and not in the cache. No value changes; any address will do.
#[inline(always)]
pub(crate) fn prefetch_lanes(l: *const JointLanes) {
    crate::prefetch::prefetch_bytes(l.cast(), std::mem::offset_of!(JointLanes, rows));
}

impl JointLanes {
    /// Whether any joint of the chunk is in lanes.
    #[inline(always)]
    pub(crate) fn any(&self) -> bool {
        self.active != 0
    }
}

/// The revolute data of a joint that [`qualifies`].
#[inline(always)]
fn revolute(sim: &JointSim) -> &RevoluteJoint {
    match &sim.kind {
        JointKind::Revolute(j) => j,
        _ => unreachable!("only revolute joints are in the lanes"),
    }
}

/// Fills `lanes` from the chunk `joints` (at most [`LANES`] joints of one
/// colour, prepared, with this step's joint trees marked: its result is a
/// function of the joints alone); `dummy` is the
/// index of the resting stand-in state, `ctx` the step's context. Written
/// in place: a full chunk whose joints all qualify overwrites every lane;
/// any other (a short last chunk included) is cleared first, so its empty
/// lanes are zero, as the passes expect (the rows about the axis likewise,
/// when the chunk has any).
#[inline(always)]
pub(crate) fn prepare(joints: &[JointSim], lanes: &mut JointLanes, dummy: u32, ctx: &StepContext) {
    debug_assert!(joints.len() <= LANES);
    let (mut active, mut enabled) = (0u8, 0u8);
    for (k, sim) in joints.iter().enumerate() {
        if qualifies(sim) {
            active |= 1 << k;
            enabled |= u8::from(rows_enabled(revolute(sim))) << k;
        }
    }
    let all = u8::MAX >> (LANES - joints.len());
    if active != u8::MAX {
        *lanes = JointLanes::default();
    }
    let l = lanes;
    l.active = active;
    l.others = all & !active;
    if active == 0 {
        // Never gathered (its default indices are not used).
        return;
    }
    let (mut index_a, mut index_b) = ([dummy; LANES], [dummy; LANES]);
    let or_dummy = |index| if index == NULL_INDEX { dummy } else { index };
    for (k, sim) in joints.iter().enumerate() {
        if active & (1 << k) == 0 {
            continue;
        }
        let (base, j) = (&sim.base, revolute(sim));
        index_a[k] = or_dummy(base.index_a);
        index_b[k] = or_dummy(base.index_b);
        l.ma.0[k] = base.inv_mass_a;
        l.ia.0[k] = base.inv_i_a;
        l.mb.0[k] = base.inv_mass_b;
        l.ib.0[k] = base.inv_i_b;
        l.frame_ax.0[k] = base.frame_a.p.x;
        l.frame_ay.0[k] = base.frame_a.p.y;
        l.frame_bx.0[k] = base.frame_b.p.x;
        l.frame_by.0[k] = base.frame_b.p.y;
        l.center_x.0[k] = base.delta_center.x;
        l.center_y.0[k] = base.delta_center.y;
        l.bias_rate.0[k] = base.softness.bias_rate;
        l.mass_scale.0[k] = base.softness.mass_scale;
        l.impulse_scale.0[k] = base.softness.impulse_scale;
        l.axial.0[k] = revolute::axial_impulse(j);
        l.impulse_x.0[k] = j.linear_impulse.x;
        l.impulse_y.0[k] = j.linear_impulse.y;
    }
    l.bodies = BodyIndices::new(index_a, index_b);
    // Of the joints with a row enabled, those whose bodies can turn.
    let mut axial_rows = 0u8;
    if enabled != 0 {
        for (k, sim) in joints.iter().enumerate() {
            if enabled & (1 << k) != 0 && can_turn(&sim.base) {
                axial_rows |= 1 << k;
            }
        }
    }
    l.axial_rows = axial_rows;
    if axial_rows != 0 {
        prepare_rows(joints, active, &mut l.rows, axial_rows, ctx);
    }
}

/// Fills the rows about the axis `r` of the joints of `joints` in lanes
/// (bits `active`; `axial_rows` those whose rows run).
#[inline(never)]
fn prepare_rows(
    joints: &[JointSim],
    active: u8,
    r: &mut AxialLanes,
    axial_rows: u8,
    ctx: &StepContext,
) {
    if active != u8::MAX {
        *r = AxialLanes::default();
    }
    r.inv_h = ctx.inv_h;
    let (mut spring, mut motor, mut limit) = (0u8, 0u8, 0u8);
    let flag = |on: bool| if on { 1.0 } else { 0.0 };
    for (k, sim) in joints.iter().enumerate() {
        if active & (1 << k) == 0 {
            continue;
        }
        let (base, j) = (&sim.base, revolute(sim));
        let runs = axial_rows & (1 << k) != 0;
        let bit = 1u8 << k;
        let (s, m, li) = (
            runs && j.spring.enable,
            runs && j.motor.enable,
            runs && j.limit.enable,
        );
        spring |= if s { bit } else { 0 };
        motor |= if m { bit } else { 0 };
        limit |= if li { bit } else { 0 };
        r.spring_on.0[k] = flag(s);
        r.motor_on.0[k] = flag(m);
        r.limit_on.0[k] = flag(li);
        r.frame_ac.0[k] = base.frame_a.q.c;
        r.frame_as.0[k] = base.frame_a.q.s;
        r.frame_bc.0[k] = base.frame_b.q.c;
        r.frame_bs.0[k] = base.frame_b.q.s;
        r.mass.0[k] = j.axial_mass;
        r.target.0[k] = j.target_angle;
        r.spring_bias_rate.0[k] = j.spring.softness.bias_rate;
        r.spring_mass_scale.0[k] = j.spring.softness.mass_scale;
        r.spring_impulse_scale.0[k] = j.spring.softness.impulse_scale;
        r.speed.0[k] = j.motor.speed;
        // `Motor::solve`'s bound, the same product.
        r.max_impulse.0[k] = ctx.h * j.motor.max_force;
        r.lower.0[k] = j.limit.lower;
        r.upper.0[k] = j.limit.upper;
        r.spring_impulse.0[k] = j.spring.impulse;
        r.motor_impulse.0[k] = j.motor.impulse;
        r.lower_impulse.0[k] = j.limit.lower_impulse;
        r.upper_impulse.0[k] = j.limit.upper_impulse;
    }
    r.spring_bits = spring;
    r.motor_bits = motor;
    r.limit_bits = limit;
}

/// One pass over the qualifying joints of a colour's joints (no dynamic
/// body twice), in chunks of [`LANES`] with their [`JointLanes`] `lanes`
/// (prepared this step): each chunk's at once with the lanes of `m`, from
/// and into the lanes alone (the point impulses reach the joints through
/// [`store_impulses`]). [`pass_others`] solves the chunks' other joints; the
/// two give the bits of the scalar pass over the joints in order, in either
/// order (no dynamic body twice in a colour). (Two functions, so that the
/// scalar solve keeps its own code, as in a colour with no lanes.)
#[inline(always)]
pub(crate) fn pass_lanes<M: Build>(
    m: M,
    pass: JointPass,
    lanes: &mut [JointLanes],
    states: &mut [BodyState],
) {
    // One loop per pass, each with its pass known.
    match pass {
        JointPass::WarmStart => lanes_of::<M, WARM_START>(m, lanes, states),
        JointPass::Solve => lanes_of::<M, SOLVE>(m, lanes, states),
        JointPass::Relax => lanes_of::<M, RELAX>(m, lanes, states),
    }
}

/// [`JointPass`] as the constant parameter of [`lanes_of`].
const WARM_START: u8 = 0;
const SOLVE: u8 = 1;
const RELAX: u8 = 2;

/// [`pass_lanes`] for the pass `P`.
#[inline(always)]
fn lanes_of<M: Build, const P: u8>(m: M, lanes: &mut [JointLanes], states: &mut [BodyState]) {
    for l in lanes {
        // A chunk with no rows about the axis keeps the point row's code
        // alone (the plain joints' path, as a joint grid's).
        if l.axial_rows != 0 {
            solve_lanes::<M, P, true>(m, l, states);
        } else if l.active != 0 {
            solve_lanes::<M, P, false>(m, l, states);
        }
    }
}

/// Writes the point impulses of the joints in lanes of `joints` (in chunks
/// of [`LANES`] with their `lanes`, see [`pass_lanes`]) from the lanes into
/// the joints: once per step, after the last pass.
#[inline(always)]
pub(crate) fn store_impulses(joints: &mut [JointSim], lanes: &[JointLanes]) {
    debug_assert_eq!(joints.len().div_ceil(LANES), lanes.len());
    // Where a revolute joint's point impulse lies in its sim, once known.
    let mut offset = None;
    for (k, l) in lanes.iter().enumerate() {
        if l.active == 0 {
            continue;
        }
        let (lo, hi) = (k * LANES, ((k + 1) * LANES).min(joints.len()));
        let (chunk, after) = joints[lo..].split_at_mut(hi - lo);
        offset = offset.or_else(|| chunk.iter().find_map(impulse_offset));
        if let Some(offset) = offset {
            prefetch_impulses(&after[..after.len().min(LANES)], offset);
        }
        write_impulses(l, chunk);
    }
}

/// Where the point impulse of `sim`, a revolute joint, lies in it: bytes
/// from its start (the same for every sim: one layout).
#[inline(always)]
fn impulse_offset(sim: &JointSim) -> Option<usize> {
    match &sim.kind {
        JointKind::Revolute(j) => {
            Some((&raw const j.linear_impulse).addr() - (&raw const *sim).addr())
        }
        _ => None,
    }
}

/// Prefetch hints for what [`write_impulses`] touches of the joints `next`
/// (the chunk after the one being written): the line of each joint's kind,
/// which it reads, and that of its point impulse (`offset` bytes from its
/// start), which it writes. A step's joints are not in the cache by then.
/// No value changes.
#[inline(always)]
fn prefetch_impulses(next: &[JointSim], offset: usize) {
    use crate::prefetch::prefetch_bytes;
    for sim in next {
        prefetch_bytes((&raw const sim.kind).cast(), 1);
        let at: *const u8 = (&raw const *sim).cast();
        prefetch_bytes(at.wrapping_add(offset), size_of::<Vec2>());
    }
}

/// The joints of `joints` (in chunks of [`LANES`] with their `lanes`, see
/// [`pass_lanes`]) that are not in lanes, one by one with the scalar pass.
#[inline(always)]
pub(crate) fn pass_others(
    pass: JointPass,
    joints: &mut [JointSim],
    lanes: &[JointLanes],
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    debug_assert!(lanes.is_empty() || joints.len().div_ceil(LANES) == lanes.len());
    match pass {
        JointPass::WarmStart => others_of::<WARM_START>(joints, lanes, states, ctx),
        JointPass::Solve => others_of::<SOLVE>(joints, lanes, states, ctx),
        JointPass::Relax => others_of::<RELAX>(joints, lanes, states, ctx),
    }
}

/// [`pass_others`] for the pass `P`; with no lanes in use (or none given)
/// every joint in order.
#[inline(always)]
fn others_of<const P: u8>(
    joints: &mut [JointSim],
    lanes: &[JointLanes],
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    let scalar = |sim: &mut JointSim, states: &mut [BodyState]| match P {
        WARM_START => warm_start_joint(sim, states),
        SOLVE => solve_joint(sim, states, ctx, true),
        _ => solve_joint(sim, states, ctx, false),
    };
    if lanes.iter().all(|l| l.active == 0) {
        for sim in joints {
            scalar(sim, states);
        }
        return;
    }
    for (chunk, l) in joints.chunks_mut(LANES).zip(lanes) {
        if l.others == 0 {
            continue;
        }
        for (k, sim) in chunk.iter_mut().enumerate() {
            if l.others & (1 << k) != 0 {
                scalar(sim, states);
            }
        }
    }
}

/// Writes the point impulses of the qualifying joints of `chunk` from its
/// lanes.
#[inline(always)]
fn write_impulses(l: &JointLanes, chunk: &mut [JointSim]) {
    for (k, sim) in chunk.iter_mut().enumerate() {
        if l.active & (1 << k) != 0
            && let JointKind::Revolute(j) = &mut sim.kind
        {
            j.linear_impulse = Vec2::new(l.impulse_x.0[k], l.impulse_y.0[k]);
        }
    }
    if l.axial_rows == 0 {
        return;
    }
    let r = &l.rows;
    for (k, sim) in chunk.iter_mut().enumerate() {
        if l.active & (1 << k) != 0
            && let JointKind::Revolute(j) = &mut sim.kind
        {
            j.spring.impulse = r.spring_impulse.0[k];
            j.motor.impulse = r.motor_impulse.0[k];
            j.limit.lower_impulse = r.lower_impulse.0[k];
            j.limit.upper_impulse = r.upper_impulse.0[k];
        }
    }
}

// The lanes are written out one by one below.
const _: () = assert!(LANES == 8);

/// `[f(0), f(1), …, f(7)]`: one value per lane, each written out (no loop
/// for the compiler to keep).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn each<T>(f: impl Fn(usize) -> T) -> [T; LANES] {
    [f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7)]
}

/// Reads the states of the bodies of `lanes` (the contact solver's row
/// gather).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn gather<M: Build>(m: M, states: &[BodyState], lanes: Lanes<'_>) -> RowLanes<M::F> {
    gather_rows(m, states, lanes)
}

/// Writes the velocities of the dynamic bodies of `lanes` back (the contact
/// solver's row scatter).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn scatter<F: Lane>(states: &mut [BodyState], lanes: Lanes<'_>, b: &RowLanes<F>) {
    scatter_rows(states, lanes, b);
}

/// Reads the states of the bodies of `lanes` (the scalar `load`, lane by
/// lane).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn gather<M: Build>(m: M, states: &[BodyState], lanes: Lanes<'_>) -> BodyLanes<M::F> {
    let indices = lanes.indices();
    let s: [BodyState; LANES] = each(|k| load(states, indices[k]));
    let lanes = |f: fn(&BodyState) -> f32| m.ld(FloatW(each(|k| f(&s[k]))));
    BodyLanes {
        vx: lanes(|s| s.linear_velocity.x),
        vy: lanes(|s| s.linear_velocity.y),
        w: lanes(|s| s.angular_velocity),
        dpx: lanes(|s| s.delta_position.x),
        dpy: lanes(|s| s.delta_position.y),
        dqc: lanes(|s| s.delta_rotation.c),
        dqs: lanes(|s| s.delta_rotation.s),
    }
}

/// Writes the velocities back (the scalar `store`, lane by lane: dynamic
/// awake bodies only).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn scatter<F: Lane>(states: &mut [BodyState], lanes: Lanes<'_>, b: &BodyLanes<F>) {
    let indices = lanes.indices();
    let (vx, vy, w) = (b.vx.lanes(), b.vy.lanes(), b.w.lanes());
    each(|k| (indices[k], Vec2::new(vx.0[k], vy.0[k]), w.0[k]))
        .into_iter()
        .for_each(|(index, v, w)| store(states, index, v, w));
}

/// `q·r` (the scalar `Rot::rotate`), lane by lane.
#[inline(always)]
fn rotate<F: Lane>(c: F, s: F, (x, y): (F, F)) -> (F, F) {
    (c * x - s * y, s * x + c * y)
}

/// `a × b` (the scalar `Vec2::cross`), lane by lane.
#[inline(always)]
fn cross<F: Lane>((ax, ay): (F, F), (bx, by): (F, F)) -> F {
    ax * by - ay * bx
}

/// Pass `P` over the qualifying joints of one chunk, from and into its
/// lanes `l`, with `AXIAL` the rows about the axis too (the chunk has
/// some: [`JointLanes::axial_rows`]). Empty lanes read the resting stand-in
/// (no body) and write nothing.
#[inline(always)]
fn solve_lanes<M: Build, const P: u8, const AXIAL: bool>(
    m: M,
    l: &mut JointLanes,
    states: &mut [BodyState],
) {
    let (ma, ia, mb, ib) = (m.ld(l.ma), m.ld(l.ia), m.ld(l.mb), m.ld(l.ib));
    let (mut px, mut py) = (m.ld(l.impulse_x), m.ld(l.impulse_y));
    let mut a = gather(m, states, l.bodies.a());
    let mut b = gather(m, states, l.bodies.b());
    // The anchors relative to the centres of mass now.
    let (rax, ray) = rotate(a.dqc, a.dqs, (m.ld(l.frame_ax), m.ld(l.frame_ay)));
    let (rbx, rby) = rotate(b.dqc, b.dqs, (m.ld(l.frame_bx), m.ld(l.frame_by)));

    if P == WARM_START {
        // `warm_start_point` (with `revolute::axial_impulse` of the rows'
        // impulses now, where the chunk has rows about the axis) and
        // `WarmStart::apply`.
        let axial = if !AXIAL {
            m.ld(l.axial)
        } else {
            let r = &l.rows;
            ((m.ld(r.spring_impulse) + m.ld(r.motor_impulse)) + m.ld(r.lower_impulse))
                - m.ld(r.upper_impulse)
        };
        let la = cross((rax, ray), (px, py)) + axial;
        let lb = cross((rbx, rby), (px, py)) + axial;
        a.vx = a.vx - ma * px;
        a.vy = a.vy - ma * py;
        a.w = a.w - ia * la;
        b.vx = b.vx + mb * px;
        b.vy = b.vy + mb * py;
        b.w = b.w + ib * lb;
    } else {
        if AXIAL {
            // `revolute::solve_axial`, before the point row.
            let soft = (m.ld(l.bias_rate), m.ld(l.mass_scale), m.ld(l.impulse_scale));
            let bodies = (
                Turn {
                    w: a.w,
                    dqc: a.dqc,
                    dqs: a.dqs,
                },
                Turn {
                    w: b.w,
                    dqc: b.dqc,
                    dqs: b.dqs,
                },
            );
            (a.w, b.w) = solve_axial::<M, P>(m, &mut l.rows, (ia, ib), bodies, soft);
        }
        // `Pair::solve_point`.
        let zero = m.splat(0.0);
        let one = m.splat(1.0);
        let (bias_x, bias_y, mass_scale, impulse_scale) = if P == SOLVE {
            // `Pair::point_error`: (Δp_B − Δp_A) + (r_B − r_A) + d.
            let ex = ((b.dpx - a.dpx) + (rbx - rax)) + m.ld(l.center_x);
            let ey = ((b.dpy - a.dpy) + (rby - ray)) + m.ld(l.center_y);
            let rate = m.ld(l.bias_rate);
            (
                ex * rate,
                ey * rate,
                m.ld(l.mass_scale),
                m.ld(l.impulse_scale),
            )
        } else {
            (zero, zero, one, zero)
        };
        // `Pair::point_velocity`: (v_B + ω_B × r_B) − (v_A + ω_A × r_A).
        let cdot_x = (b.vx + -b.w * rby) - (a.vx + -a.w * ray);
        let cdot_y = (b.vy + b.w * rbx) - (a.vy + a.w * rax);
        // `point_mass_matrix`.
        let k11 = ((ma + mb) + ray * ray * ia) + rby * rby * ib;
        let k12 = -ray * rax * ia - rby * rbx * ib;
        let k22 = ((ma + mb) + rax * rax * ia) + rbx * rbx * ib;
        // `Mat22::solve` of K (symmetric: a12 = a21 = k12).
        let (rhs_x, rhs_y) = (cdot_x + bias_x, cdot_y + bias_y);
        let det = k11 * k22 - k12 * k12;
        let det = det.ne(zero).select(one / det, det);
        let x = det * (k22 * rhs_x - k12 * rhs_y);
        let y = det * (k11 * rhs_y - k12 * rhs_x);
        let finite = x.finite().and(y.finite());
        let (x, y) = (finite.select(x, zero), finite.select(y, zero));
        let ix = -mass_scale * x - impulse_scale * px;
        let iy = -mass_scale * y - impulse_scale * py;
        px = px + ix;
        py = py + iy;
        // `Pair::apply_point`.
        a.vx = a.vx - ma * ix;
        a.vy = a.vy - ma * iy;
        a.w = a.w - ia * cross((rax, ray), (ix, iy));
        b.vx = b.vx + mb * ix;
        b.vy = b.vy + mb * iy;
        b.w = b.w + ib * cross((rbx, rby), (ix, iy));
    }
    scatter(states, l.bodies.a(), &a);
    scatter(states, l.bodies.b(), &b);
    if P != WARM_START {
        l.impulse_x = px.lanes();
        l.impulse_y = py.lanes();
    }
}

/// The joint angles `atan2(s, c)`, every lane at once with the bits of the
/// scalar `math::atan2` (`math::atan2_lanes`).
#[inline(always)]
fn angles<M: Build>(m: M, c: M::F, s: M::F) -> M::F {
    m.ld(FloatW(atan2_lanes(s.lanes().0, c.lanes().0)))
}

/// `unwind_angle` of the lanes of `bits` of `x`, zero in the others.
#[inline(always)]
fn unwound<M: Build>(m: M, bits: u8, x: M::F) -> M::F {
    let x = x.lanes();
    let mut out = FloatW::default();
    for k in 0..LANES {
        if bits & (1 << k) != 0 {
            out.0[k] = unwind_angle(x.0[k]);
        }
    }
    m.ld(out)
}

/// The rows about the axis of the joints of one chunk (`revolute::
/// solve_axial`): spring, motor, lower then upper limit, each where its
/// lane runs it (elsewhere the velocities and the row's impulse keep their
/// bits: selected, not an impulse of zero), with inverse inertias
/// `(ia, ib)`, the bodies `(a, b)` (their rotation deltas) and the joints'
/// softness `soft` (bias rate, mass and impulse scales: a violated limit's
/// in the solve pass). Returns the angular velocities of A and B.
#[inline(always)]
fn solve_axial<M: Build, const P: u8>(
    m: M,
    r: &mut AxialLanes,
    (ia, ib): (M::F, M::F),
    (a, b): (Turn<M::F>, Turn<M::F>),
    soft: (M::F, M::F, M::F),
) -> (M::F, M::F) {
    let zero = m.splat(0.0);
    let (mut wa, mut wb) = (a.w, b.w);
    let mass = m.ld(r.mass);
    // `Pair::angle`: the relative rotation of the joint frames now,
    // `(Δq_A·q_A)ᵀ·(Δq_B·q_B)` (`Rot::mul`, `Rot::inv_mul`), then its
    // arctangent, where a spring or limit needs it.
    let angled = r.spring_bits | r.limit_bits;
    let angle = if angled != 0 {
        let (fac, fas) = (m.ld(r.frame_ac), m.ld(r.frame_as));
        let (fbc, fbs) = (m.ld(r.frame_bc), m.ld(r.frame_bs));
        let (adc, ads) = (a.dqc, a.dqs);
        let (bdc, bds) = (b.dqc, b.dqs);
        let (qac, qas) = (adc * fac - ads * fas, ads * fac + adc * fas);
        let (qbc, qbs) = (bdc * fbc - bds * fbs, bds * fbc + bdc * fbs);
        let c = qac * qbc + qas * qbs;
        let s = qac * qbs - qas * qbc;
        angles(m, c, s)
    } else {
        zero
    };
    if r.spring_bits != 0 {
        // `Spring::solve` (`spring_impulse`) of `unwind_angle(θ − θ_target)`.
        let on = m.ld(r.spring_on).gt(zero);
        let c = unwound(m, r.spring_bits, angle - m.ld(r.target));
        let cdot = wb - wa;
        let old = m.ld(r.spring_impulse);
        let (rate, mass_scale) = (m.ld(r.spring_bias_rate), m.ld(r.spring_mass_scale));
        let impulse_scale = m.ld(r.spring_impulse_scale);
        let impulse = -mass_scale * mass * (cdot + rate * c) - impulse_scale * old;
        r.spring_impulse = on.select(old + impulse, old).lanes();
        wa = on.select(wa - ia * impulse, wa);
        wb = on.select(wb + ib * impulse, wb);
    }
    if r.motor_bits != 0 {
        // `Motor::solve`: `f32::clamp` is `x < lo ? lo : x`, then
        // `x > hi ? hi : x` (NaN kept).
        let on = m.ld(r.motor_on).gt(zero);
        let cdot = wb - wa;
        let max = m.ld(r.max_impulse);
        let min = -max;
        let old = m.ld(r.motor_impulse);
        let x = old + mass * (m.ld(r.speed) - cdot);
        let x = min.gt(x).select(min, x);
        let x = x.gt(max).select(max, x);
        let impulse = x - old;
        r.motor_impulse = on.select(x, old).lanes();
        wa = on.select(wa - ia * impulse, wa);
        wb = on.select(wb + ib * impulse, wb);
    }
    if r.limit_bits != 0 {
        // `Limit::solve_lower`, `solve_upper` (`LimitRow::solve_bound`).
        let on = m.ld(r.limit_on).gt(zero);
        let inv_h = m.splat(r.inv_h);
        let old = m.ld(r.lower_impulse);
        let row = (angle - m.ld(r.lower), wb - wa, old);
        let (total, impulse) = limit_bound::<M, P>(m, row, mass, inv_h, soft);
        r.lower_impulse = on.select(total, old).lanes();
        wa = on.select(wa - ia * impulse, wa);
        wb = on.select(wb + ib * impulse, wb);
        // The upper bound pushes the other way.
        let old = m.ld(r.upper_impulse);
        let row = (m.ld(r.upper) - angle, wa - wb, old);
        let (total, impulse) = limit_bound::<M, P>(m, row, mass, inv_h, soft);
        r.upper_impulse = on.select(total, old).lanes();
        let impulse = -impulse;
        wa = on.select(wa - ia * impulse, wa);
        wb = on.select(wb + ib * impulse, wb);
    }
    (wa, wb)
}

/// One limit bound (`LimitRow::solve_bound`) with position error `c` (≥ 0
/// when satisfied), relative speed `cdot` in the direction it pushes and
/// accumulated impulse `old`, effective mass `mass`, inverse substep
/// `inv_h` and the joints' softness `soft` (pass `P`): the new accumulated
/// impulse and its change.
#[inline(always)]
fn limit_bound<M: Build, const P: u8>(
    m: M,
    (c, cdot, old): (M::F, M::F, M::F),
    mass: M::F,
    inv_h: M::F,
    soft: (M::F, M::F, M::F),
) -> (M::F, M::F) {
    let zero = m.splat(0.0);
    let one = m.splat(1.0);
    // `LimitRow::coefficients`: speculative while satisfied, soft when
    // violated in the solve pass, rigid in the relax pass.
    let satisfied = c.gt(zero);
    let (bias, mass_scale, impulse_scale) = if P == SOLVE {
        let (rate, mass_scale, impulse_scale) = soft;
        (
            satisfied.select(c * inv_h, rate * c),
            satisfied.select(one, mass_scale),
            satisfied.select(zero, impulse_scale),
        )
    } else {
        (satisfied.select(c * inv_h, zero), one, zero)
    };
    let impulse = -mass_scale * mass * (cdot + bias) - impulse_scale * old;
    // `0 < x ? x : 0`, as the scalar bound.
    let total = zero.max(old + impulse);
    (total, total - old)
}

/// What the rows about the axis read of a body's lanes: its angular
/// velocity (rad/s) and rotation delta (cosine, sine).
#[derive(Clone, Copy)]
struct Turn<F> {
    w: F,
    dqc: F,
    dqs: F,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::flags;
    use crate::joint::JointBase;
    use crate::math::{Rot, Transform};
    use crate::solver::lanes::LaneMath;
    use crate::solver::softness::Softness;

    /// xorshift64.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn chance(&mut self, p: f64) -> bool {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
        }
        /// Uniform in `[lo, hi)`, now and then exactly zero or huge.
        fn value(&mut self, lo: f32, hi: f32) -> f32 {
            match self.below(40) {
                0 => 0.0,
                1 => 3.0e37,
                _ => lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32),
            }
        }
        fn unit(&mut self) -> Rot {
            let angle = self.value(-3.2, 3.2);
            Rot::from_angle(angle)
        }
    }

    /// `n` random body states: most dynamic, some kinematic (not written).
    fn random_states(rng: &mut Rng, n: usize) -> Vec<BodyState> {
        (0..n)
            .map(|_| BodyState {
                linear_velocity: Vec2::new(rng.value(-20.0, 20.0), rng.value(-20.0, 20.0)),
                angular_velocity: rng.value(-10.0, 10.0),
                flags: if rng.chance(0.85) { flags::DYNAMIC } else { 0 },
                delta_position: Vec2::new(rng.value(-1.0, 1.0), rng.value(-1.0, 1.0)),
                delta_rotation: rng.unit(),
            })
            .collect()
    }

    /// An accumulated impulse: mostly in `[lo, hi)`, now and then ±0 or NaN.
    fn impulse(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
        match rng.below(20) {
            0 => -0.0,
            1 => 0.0,
            2 => f32::NAN,
            _ => rng.value(lo, hi),
        }
    }

    /// An angle: mostly in `[−3.2, 3.2)`, now and then ±π or a little past.
    fn angle(rng: &mut Rng) -> f32 {
        match rng.below(8) {
            0 => std::f32::consts::PI,
            1 => -std::f32::consts::PI,
            2 => std::f32::consts::PI * if rng.chance(0.5) { 1.001 } else { -1.001 },
            _ => rng.value(-3.2, 3.2),
        }
    }

    /// A prepared revolute joint between `index_a` and `index_b`; with
    /// `plain` false it has any combination of a spring, motor and limit
    /// (random settings, bodies that may not turn), or sits in a tree.
    fn random_joint(rng: &mut Rng, index_a: u32, index_b: u32, plain: bool) -> JointSim {
        let h = 1.0 / 240.0;
        let inverse = |rng: &mut Rng| {
            if rng.chance(0.1) {
                0.0
            } else {
                rng.value(0.01, 3.0)
            }
        };
        let mut j = RevoluteJoint {
            linear_impulse: Vec2::new(rng.value(-5.0, 5.0), rng.value(-5.0, 5.0)),
            axial_mass: rng.value(0.0, 2.0),
            target_angle: angle(rng),
            ..RevoluteJoint::default()
        };
        j.spring.impulse = impulse(rng, -1.0, 1.0);
        j.motor.impulse = impulse(rng, -1.0, 1.0);
        j.limit.lower_impulse = impulse(rng, 0.0, 1.0);
        j.limit.upper_impulse = impulse(rng, 0.0, 1.0);
        j.spring.softness = Softness::new(rng.value(0.0, 30.0), rng.value(0.0, 2.0), h);
        j.motor.speed = rng.value(-5.0, 5.0);
        j.motor.max_force = rng.value(0.0, 50.0);
        j.limit.lower = angle(rng);
        j.limit.upper = if rng.chance(0.8) {
            j.limit.lower + rng.value(0.0, 3.0)
        } else {
            angle(rng)
        };
        let mut in_tree = false;
        let mut fixed = false;
        if !plain {
            let rows = rng.below(9);
            j.spring.enable = rows & 1 != 0;
            j.motor.enable = rows & 2 != 0;
            j.limit.enable = rows & 4 != 0;
            in_tree = rows == 8;
            fixed = rng.chance(0.15);
        }
        let frame = |rng: &mut Rng| {
            Transform::new(
                Vec2::new(rng.value(-2.0, 2.0), rng.value(-2.0, 2.0)),
                rng.unit(),
            )
        };
        let base = JointBase {
            index_a,
            index_b,
            inv_mass_a: inverse(rng),
            inv_i_a: if fixed { 0.0 } else { inverse(rng) },
            inv_mass_b: inverse(rng),
            inv_i_b: if fixed { 0.0 } else { inverse(rng) },
            frame_a: frame(rng),
            frame_b: frame(rng),
            delta_center: Vec2::new(rng.value(-3.0, 3.0), rng.value(-3.0, 3.0)),
            softness: Softness::new(rng.value(0.0, 60.0), rng.value(0.0, 5.0), h),
            in_tree,
            ..JointBase::UNPREPARED
        };
        JointSim {
            base,
            kind: JointKind::Revolute(j),
        }
    }

    /// Up to 40 joints of one colour on `n` bodies: each dynamic body in at
    /// most one joint, non-dynamic bodies and bodies that are not awake
    /// (`NULL_INDEX`) in any number; some joints not plain revolute ones.
    fn random_colour(rng: &mut Rng, states: &[BodyState]) -> Vec<JointSim> {
        let mut free: Vec<u32> = (0..states.len() as u32).collect();
        let mut joints = Vec::new();
        let count = 1 + rng.below(40);
        let pick = |rng: &mut Rng, free: &mut Vec<u32>| -> u32 {
            if rng.chance(0.1) {
                return crate::id::NULL_INDEX;
            }
            if free.is_empty() {
                return crate::id::NULL_INDEX;
            }
            let i = free[rng.below(free.len())];
            // A dynamic body leaves the pool; a kinematic one may repeat.
            if states[i as usize].flags & flags::DYNAMIC != 0 {
                free.retain(|&x| x != i);
            }
            i
        };
        for _ in 0..count {
            let a = pick(rng, &mut free);
            let b = pick(rng, &mut free);
            let plain = rng.chance(0.4);
            joints.push(random_joint(rng, a, b, plain));
        }
        joints
    }

    fn state_bits(states: &[BodyState]) -> Vec<[u32; 3]> {
        states
            .iter()
            .map(|s| {
                [
                    s.linear_velocity.x.to_bits(),
                    s.linear_velocity.y.to_bits(),
                    s.angular_velocity.to_bits(),
                ]
            })
            .collect()
    }

    fn impulse_bits(joints: &[JointSim]) -> Vec<[u32; 6]> {
        joints
            .iter()
            .map(|s| match &s.kind {
                JointKind::Revolute(j) => [
                    j.linear_impulse.x.to_bits(),
                    j.linear_impulse.y.to_bits(),
                    j.spring.impulse.to_bits(),
                    j.motor.impulse.to_bits(),
                    j.limit.lower_impulse.to_bits(),
                    j.limit.upper_impulse.to_bits(),
                ],
                _ => unreachable!(),
            })
            .collect()
    }

    /// Runs `passes` through the wide pass (lanes of `m`) and the scalar
    /// one on random colours; every velocity and impulse has the same bits.
    fn check<M: Build>(
        m: M,
        run: impl Fn(M, JointPass, &mut [JointSim], &mut [JointLanes], &mut [BodyState], &StepContext),
    ) {
        let mut rng = Rng(0x5EED_0019);
        let ctx = StepContext::for_tests(1.0 / 240.0, Vec2::new(0.0, -10.0));
        let (mut grouped, mut changed, mut axial) = (0, 0, 0);
        for _ in 0..300 {
            let n = 1 + rng.below(90);
            let mut states = random_states(&mut rng, n);
            let joints = random_colour(&mut rng, &states);
            // The solve's resting stand-in, where the lanes point for a body
            // that is not awake (the scalar passes read `RESTING` instead).
            states.push(BodyState::IDENTITY);
            let dummy = n as u32;
            let chunks = || joints.chunks(LANES);
            grouped += usize::from(chunks().any(|c| c.iter().filter(|s| qualifies(s)).count() > 4));
            let (mut wide_states, mut wide_joints) = (states.clone(), joints.clone());
            let (mut ref_states, mut ref_joints) = (states.clone(), joints.clone());
            let mut lanes = vec![JointLanes::default(); chunks().len()];
            for (chunk, l) in chunks().zip(&mut lanes) {
                prepare(chunk, l, dummy, &ctx);
            }
            axial += usize::from(lanes.iter().any(|l| l.axial_rows.count_ones() > 2));
            for p in [
                JointPass::WarmStart,
                JointPass::Solve,
                JointPass::Relax,
                JointPass::Solve,
                JointPass::WarmStart,
                JointPass::Solve,
                JointPass::Relax,
            ] {
                run(m, p, &mut wide_joints, &mut lanes, &mut wide_states, &ctx);
                for sim in &mut ref_joints {
                    match p {
                        JointPass::WarmStart => warm_start_joint(sim, &mut ref_states),
                        JointPass::Solve => solve_joint(sim, &mut ref_states, &ctx, true),
                        JointPass::Relax => solve_joint(sim, &mut ref_states, &ctx, false),
                    }
                }
                assert_eq!(state_bits(&wide_states), state_bits(&ref_states), "{p:?}");
                assert_eq!(
                    impulse_bits(&wide_joints),
                    impulse_bits(&ref_joints),
                    "{p:?}"
                );
            }
            changed += usize::from(state_bits(&wide_states) != state_bits(&states));
            for (after, before) in wide_states.iter().zip(&states) {
                if before.flags & flags::DYNAMIC == 0 {
                    assert_eq!(
                        state_bits(&[*after]),
                        state_bits(&[*before]),
                        "kinematic body written"
                    );
                }
            }
        }
        assert!(
            grouped > 100,
            "{grouped} colours with a chunk of five or more"
        );
        assert!(changed > 200, "{changed} colours moved a body");
        assert!(
            axial > 100,
            "{axial} colours with a chunk of three or more joints with rows about the axis"
        );
    }

    /// On 300 random colours (plain revolute joints with others among them,
    /// shared kinematic bodies, bodies not awake, zero and huge masses and
    /// lever arms), the wide warm start, solve and relax give the bits of
    /// the scalar passes over the joints in order, with the lane arrays.
    #[test]
    fn wide_revolute_passes_match_scalar_bit_for_bit() {
        check(LaneMath, |m, p, j, l, s, ctx| {
            pass_lanes(m, p, l, s);
            pass_others(p, j, l, s, ctx);
            store_impulses(j, l);
        });
    }

    /// The same in AVX registers (the x86-64-v3 build), where the CPU has
    /// them.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_wide_revolute_passes_match_scalar_bit_for_bit() {
        let Some(isa) = crate::solver::lanes::test_avx2() else {
            return;
        };
        check(isa, |m, p, j, l, s, ctx| {
            pass_others(p, j, l, s, ctx);
            pass_lanes(m, p, l, s);
            store_impulses(j, l);
        });
    }
}
