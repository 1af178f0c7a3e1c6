//! The joint stages of the soft step: prepare (once per step), warm start,
//! solve and relax (every substep), and the threshold check after the
//! substeps. Joints are worked on in place in their graph colours, in colour
//! order (overflow first), so the order does not depend on how the work would
//! be split among threads.

use crate::body::{Body, BodyState};
use crate::math::{Transform, Vec2};
use crate::solver::StepContext;
use crate::solver::constraint_graph::{ConstraintGraph, OVERFLOW_INDEX};
use crate::solver::softness::Softness;
use crate::solver::solver_set::SolverSet;

use super::axial::LimitRow;
use super::{JointBase, JointKind, JointSim, tree};
use super::{distance, motor, mouse, mover, pogo, prismatic, revolute, weld, wheel};

/// One solve or relax pass over a joint: the awake body states, the step's
/// constants and whether position errors are corrected (`use_bias`, the
/// solve pass) or only velocities (the relax pass).
pub(crate) struct SolvePass<'a> {
    pub states: &'a mut [BodyState],
    pub ctx: &'a StepContext,
    pub use_bias: bool,
}

impl<'a> SolvePass<'a> {
    /// The softness of the joint's rigid parts in this pass: the joint's own
    /// in the solve pass, rigid (no position correction) in the relax pass.
    #[inline(always)]
    pub fn softness(&self, base: &JointBase) -> Softness {
        if self.use_bias {
            base.softness
        } else {
            Softness::RIGID
        }
    }

    /// A limit row at `position` (m or rad) with effective mass `mass`.
    #[inline(always)]
    pub fn limit_row<'b>(&self, base: &'b JointBase, position: f32, mass: f32) -> LimitRow<'b>
    where
        'a: 'b,
    {
        LimitRow {
            position,
            mass,
            base,
            ctx: self.ctx,
            use_bias: self.use_bias,
        }
    }
}

/// Colours in solving order: the overflow colour first, then 0, 1, 2, …
fn color_order() -> impl Iterator<Item = usize> {
    std::iter::once(OVERFLOW_INDEX).chain(0..OVERFLOW_INDEX)
}

/// Collects the awake joints whose reaction reached a threshold in the last
/// substep (force or torque at or above it, so a zero threshold reports
/// every awake joint, as in Box2D v3.2) into `out` as `(joint, force,
/// torque)`, in colour order.
pub(crate) fn over_threshold(graph: &ConstraintGraph, inv_h: f32, out: &mut Vec<(u32, f32, f32)>) {
    out.clear();
    for color in color_order() {
        for sim in &graph.colors[color].joint_sims {
            let base = &sim.base;
            if base.force_threshold == f32::MAX && base.torque_threshold == f32::MAX {
                continue;
            }
            let (force, torque) = reaction_magnitudes(sim, inv_h);
            if force >= base.force_threshold || torque >= base.torque_threshold {
                out.push((base.joint_id, force, torque));
            }
        }
    }
}

/// The world's joint stiffness for one step: its frequency (Hz) and damping
/// ratio, and the softness they give over the substep, worked out once for
/// the step (most joints use it: the two divisions of [`Softness::new`]
/// are not repeated per joint).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointTuning {
    hertz: f32,
    damping_ratio: f32,
    softness: Softness,
}

impl JointTuning {
    /// The tuning of a step with context `ctx`, from the world's joint
    /// stiffness `(joint_hertz, joint_damping_ratio)` (Hz, dimensionless).
    pub(crate) fn new((joint_hertz, joint_damping_ratio): (f32, f32), ctx: &StepContext) -> Self {
        let hertz = stiffness_limit(joint_hertz, ctx);
        JointTuning {
            hertz: joint_hertz,
            damping_ratio: joint_damping_ratio,
            softness: Softness::new(hertz, joint_damping_ratio, ctx.h),
        }
    }

    /// The softness of a joint with its own stiffness settings, if any.
    #[inline(always)]
    fn softness(&self, base: &JointBase, ctx: &StepContext) -> Softness {
        match (base.constraint_hertz, base.constraint_damping_ratio) {
            (None, None) => self.softness,
            (hertz, zeta) => {
                let hertz = stiffness_limit(hertz.unwrap_or(self.hertz), ctx);
                Softness::new(hertz, zeta.unwrap_or(self.damping_ratio), ctx.h)
            }
        }
    }
}

/// `hertz` capped at a quarter of the substep rate: stiffness beyond it is
/// not resolvable.
#[inline(always)]
fn stiffness_limit(hertz: f32, ctx: &StepContext) -> f32 {
    hertz.min(0.25 * ctx.inv_h)
}

/// Prepares one awake joint for the step (the stages of `solver/stages.rs`
/// run it on the workers; it writes only `sim`): body indices and masses,
/// joint frames relative to the centres of mass, softness, effective masses.
/// Impulses of the last step are kept for warm starting. The base part of
/// the preparation, then the type's own. Returns what the joint brings to
/// the step's joint trees ([`tree::candidate`], from the same body records).
#[inline(always)]
pub(crate) fn prepare_joint(
    sim: &mut JointSim,
    bodies: &[Body],
    solver_sets: &[SolverSet],
    tuning: &JointTuning,
    ctx: &StepContext,
) -> (u32, u32) {
    let base = &mut sim.base;
    let body_a = &bodies[base.body_id_a as usize];
    let body_b = &bodies[base.body_id_b as usize];
    let sim_a = body_a.sim(solver_sets);
    let sim_b = body_b.sim(solver_sets);

    base.index_a = body_a.awake_index();
    base.index_b = body_b.awake_index();
    base.inv_mass_a = sim_a.inv_mass;
    base.inv_i_a = sim_a.inv_inertia;
    base.inv_mass_b = sim_b.inv_mass;
    base.inv_i_b = sim_b.inv_inertia;

    let (qa, qb) = (sim_a.transform.q, sim_b.transform.q);
    base.frame_a = Transform::new(
        qa.rotate(base.local_frame_a.p - sim_a.local_center),
        qa.mul(base.local_frame_a.q),
    );
    base.frame_b = Transform::new(
        qb.rotate(base.local_frame_b.p - sim_b.local_center),
        qb.mul(base.local_frame_b.q),
    );
    base.delta_center = sim_b.center - sim_a.center;
    base.softness = tuning.softness(base, ctx);

    let JointSim { base, kind } = sim;
    match kind {
        JointKind::Distance(j) => distance::prepare(base, j, ctx),
        JointKind::Filter => {}
        JointKind::Motor(j) => motor::prepare(base, j, sim_a, ctx),
        JointKind::Mouse(j) => mouse::prepare(base, j, sim_b, ctx),
        JointKind::Mover(j) => mover::prepare(base, j),
        JointKind::Pogo(j) => pogo::prepare(base, j, ctx),
        JointKind::Prismatic(j) => prismatic::prepare(base, j, ctx),
        JointKind::Revolute(j) => revolute::prepare(base, j, ctx),
        JointKind::Weld(j) => weld::prepare(base, j, ctx),
        JointKind::Wheel(j) => wheel::prepare(base, j, ctx),
    }
    // Without warm starting every substep starts from zero impulses.
    if !ctx.enable_warm_starting {
        kind.clear_impulses();
    }
    tree::candidate(sim, body_a, body_b)
}

/// Applies the accumulated impulses of one joint.
#[inline(always)]
pub(crate) fn warm_start_joint(sim: &mut JointSim, states: &mut [BodyState]) {
    let base = &sim.base;
    // Each type works out its impulses; they are applied once, below.
    let impulses = match &sim.kind {
        JointKind::Distance(j) => distance::warm_start(base, j, states),
        JointKind::Filter => return,
        JointKind::Motor(j) => motor::warm_start(base, j, states),
        JointKind::Mouse(j) => return mouse::warm_start(base, j, states),
        JointKind::Mover(j) => mover::warm_start(j),
        JointKind::Pogo(j) => return pogo::warm_start(base, j, states),
        JointKind::Prismatic(j) => prismatic::warm_start(base, j, states),
        JointKind::Revolute(j) => revolute::warm_start(base, j, states),
        JointKind::Weld(j) => weld::warm_start(base, j, states),
        JointKind::Wheel(j) => wheel::warm_start(base, j, states),
    };
    impulses.apply(base, states);
}

/// One Gauss–Seidel step on one joint. `use_bias` corrects position
/// errors; without it (relax) only velocities are constrained, but springs
/// act in both passes.
#[inline(always)]
pub(crate) fn solve_joint(
    sim: &mut JointSim,
    states: &mut [BodyState],
    ctx: &StepContext,
    use_bias: bool,
) {
    let base = &sim.base;
    let pass = &mut SolvePass {
        states,
        ctx,
        use_bias,
    };
    match &mut sim.kind {
        JointKind::Distance(j) => distance::solve(base, j, pass),
        JointKind::Filter => {}
        JointKind::Motor(j) => motor::solve(base, j, pass),
        JointKind::Mouse(j) => mouse::solve(base, j, pass),
        JointKind::Mover(j) => mover::solve(base, j, pass),
        JointKind::Pogo(j) => pogo::solve(base, j, pass),
        JointKind::Prismatic(j) => prismatic::solve(base, j, pass),
        JointKind::Revolute(j) => revolute::solve(base, j, pass),
        JointKind::Weld(j) => weld::solve(base, j, pass),
        JointKind::Wheel(j) => wheel::solve(base, j, pass),
    }
}

/// Magnitudes of the reaction force (N) and torque (N·m) for the threshold
/// check.
fn reaction_magnitudes(sim: &JointSim, inv_h: f32) -> (f32, f32) {
    let (linear, angular) = match &sim.kind {
        JointKind::Distance(j) => (distance::axial_impulse(j).abs(), 0.0),
        JointKind::Filter => (0.0, 0.0),
        JointKind::Motor(j) => {
            let (linear, angular) = j.total_impulse();
            (linear.length(), angular.abs())
        }
        JointKind::Mouse(j) => (j.linear_impulse.length(), j.angular_impulse.abs()),
        JointKind::Mover(j) => (j.impulse().length(), 0.0),
        JointKind::Pogo(j) => (j.spring.impulse.abs(), 0.0),
        JointKind::Prismatic(j) => {
            let axial = prismatic::axial_impulse(j);
            (
                (j.impulse.x * j.impulse.x + axial * axial).sqrt(),
                j.impulse.y.abs(),
            )
        }
        JointKind::Revolute(j) => (j.linear_impulse.length(), revolute::axial_impulse(j).abs()),
        JointKind::Weld(j) => (j.linear_impulse.length(), j.angular_impulse.abs()),
        JointKind::Wheel(j) => {
            let axial = wheel::axial_impulse(j);
            (
                (j.perp_impulse * j.perp_impulse + axial * axial).sqrt(),
                j.motor.impulse.abs(),
            )
        }
    };
    (linear * inv_h, angular * inv_h)
}

/// The force on body B in world coordinates, N, from the joint's impulses
/// and the bodies' current transforms.
pub(crate) fn constraint_force(
    sim: &JointSim,
    xf_a: crate::pos::WorldTransform,
    xf_b: crate::pos::WorldTransform,
    inv_h: f32,
) -> Vec2 {
    let base = &sim.base;
    let impulse = match &sim.kind {
        JointKind::Distance(j) => {
            let pa = xf_a.apply(base.local_frame_a.p);
            let pb = xf_b.apply(base.local_frame_b.p);
            (pb - pa).normalize() * distance::axial_impulse(j)
        }
        JointKind::Filter => Vec2::ZERO,
        JointKind::Motor(j) => j.total_impulse().0,
        JointKind::Mouse(j) => j.linear_impulse,
        JointKind::Mover(j) => j.impulse(),
        JointKind::Pogo(j) => xf_a.q.mul(base.local_frame_a.q).x_axis() * j.spring.impulse,
        JointKind::Prismatic(j) => {
            let axis = xf_a.q.mul(base.local_frame_a.q).x_axis();
            axis * prismatic::axial_impulse(j) + axis.left_perp() * j.impulse.x
        }
        JointKind::Revolute(j) => j.linear_impulse,
        JointKind::Weld(j) => j.linear_impulse,
        JointKind::Wheel(j) => {
            let axis = xf_a.q.mul(base.local_frame_a.q).x_axis();
            axis * wheel::axial_impulse(j) + axis.left_perp() * j.perp_impulse
        }
    };
    impulse * inv_h
}

/// The pure torque on body B, N·m.
pub(crate) fn constraint_torque(sim: &JointSim, inv_h: f32) -> f32 {
    let impulse = match &sim.kind {
        JointKind::Distance(_) | JointKind::Filter | JointKind::Mover(_) | JointKind::Pogo(_) => {
            0.0
        }
        JointKind::Motor(j) => j.total_impulse().1,
        JointKind::Mouse(j) => j.angular_impulse,
        JointKind::Prismatic(j) => j.impulse.y,
        JointKind::Revolute(j) => revolute::axial_impulse(j),
        JointKind::Weld(j) => j.angular_impulse,
        JointKind::Wheel(j) => j.motor.impulse,
    };
    impulse * inv_h
}
