//! The two bodies of a joint inside one solve: their velocities, inverse
//! masses and position deltas, loaded from the awake body states once and
//! stored back once, with the impulse applications every joint type uses.
//!
//! The arithmetic is written once here; each joint type keeps its own order
//! of operations where the order changes the bits (see
//! [`Pair::point_error`] and [`Pair::anchor_separation`]).

pub(super) use crate::body::{load, store};

use crate::body::BodyState;
use crate::math::{Mat22, Rot, Vec2};
use crate::solver::softness::Softness;

use super::JointBase;
use super::axial::{Limit, LimitRow, Motor, Spring};
use super::solver::SolvePass;

/// The effective-mass matrix `K = J M⁻¹ Jᵀ` of a point-to-point constraint.
pub(super) fn point_mass_matrix(ma: f32, ia: f32, ra: Vec2, mb: f32, ib: f32, rb: Vec2) -> Mat22 {
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    Mat22::new(Vec2::new(k11, k12), Vec2::new(k12, k22))
}

/// The current geometry of a line joint (prismatic, wheel, pogo): anchors
/// relative to the centres, anchor separation and the axis turning with
/// body A.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    pub ra: Vec2,
    pub rb: Vec2,
    pub d: Vec2,
    pub axis: Vec2,
}

impl Line {
    /// The geometry at the start of the step, from the prepared frames.
    #[inline(always)]
    pub fn prepared(base: &JointBase) -> Line {
        let (ra, rb) = (base.frame_a.p, base.frame_b.p);
        Line {
            ra,
            rb,
            d: base.delta_center + (rb - ra),
            axis: base.frame_a.q.x_axis(),
        }
    }

    /// Lever arms of a force along `direction`: on A `(d + r_a) × u`, on B
    /// `r_b × u`.
    #[inline(always)]
    pub fn arms(&self, direction: Vec2) -> (f32, f32) {
        (
            (self.d + self.ra).cross(direction),
            self.rb.cross(direction),
        )
    }

    /// The row along `direction`.
    #[inline(always)]
    pub fn row(&self, direction: Vec2) -> AxisRow {
        let (a1, a2) = self.arms(direction);
        AxisRow {
            axis: direction,
            a1,
            a2,
            position: direction.dot(self.d),
        }
    }

    /// The row along the axis.
    #[inline(always)]
    pub fn axis_row(&self) -> AxisRow {
        self.row(self.axis)
    }

    /// The row across the axis (along its left perpendicular).
    #[inline(always)]
    pub fn perp_row(&self) -> AxisRow {
        self.row(self.axis.left_perp())
    }
}

/// The effective mass along the axis of a line joint at the start of the
/// step, kg.
#[inline(always)]
pub(super) fn axis_mass(base: &JointBase) -> f32 {
    let row = Line::prepared(base).axis_row();
    axial_mass(base, row.a1, row.a2)
}

/// A row along a direction of a line joint (prismatic, wheel, pogo): the
/// direction `u`, the lever arms (see [`Line::arms`]) and the position along
/// it, `u·d`, metres.
#[derive(Clone, Copy, Debug)]
pub(super) struct AxisRow {
    pub axis: Vec2,
    pub a1: f32,
    pub a2: f32,
    pub position: f32,
}

impl AxisRow {
    /// The relative speed along the axis, m/s.
    #[inline(always)]
    pub fn speed(&self, pair: &Pair) -> f32 {
        pair.axial_speed(self.axis, self.a1, self.a2)
    }

    /// Applies an impulse along the axis, N·s.
    #[inline(always)]
    pub fn apply(&self, pair: &mut Pair, impulse: f32) {
        pair.apply_axial(impulse, self.axis, self.a1, self.a2);
    }

    /// The spring pulling the position error `c` (m) to zero, with
    /// effective mass `mass` (kg).
    #[inline(always)]
    pub fn solve_spring(&self, pair: &mut Pair, spring: &mut Spring, mass: f32, c: f32) {
        let impulse = spring.solve(mass, c, self.speed(pair));
        self.apply(pair, impulse);
    }

    /// The motor over substep `h` (s), with effective mass `mass` (kg).
    #[inline(always)]
    pub fn solve_motor(&self, pair: &mut Pair, motor: &mut Motor, mass: f32, h: f32) {
        let impulse = motor.solve(mass, self.speed(pair), h);
        self.apply(pair, impulse);
    }

    /// Both bounds of `limit` along the axis, with effective mass `mass`
    /// (kg).
    #[inline(always)]
    pub fn solve_limit(
        &self,
        pair: &mut Pair,
        limit: &mut Limit,
        mass: f32,
        base: &JointBase,
        pass: &SolvePass,
    ) {
        let row = pass.limit_row(base, self.position, mass);
        let (axis, a1, a2) = (self.axis, self.a1, self.a2);
        let reversed = |p: &Pair| axis.dot(p.va - p.vb) + a1 * p.wa - a2 * p.wb;
        let apply = |p: &mut Pair, impulse: f32| self.apply(p, impulse);
        pair.solve_limit(limit, &row, |p| self.speed(p), reversed, apply);
    }
}

/// Warm starting of a line joint (prismatic, wheel): the impulses along the
/// axis (`axial`) and across it (`perp`), N·s, and the angular impulse
/// `angular`, N·m·s.
#[inline(always)]
pub(super) fn warm_start_line(
    base: &JointBase,
    states: &[BodyState],
    axial: f32,
    perp: f32,
    angular: f32,
) -> WarmStart {
    let g = Pair::load(base, states).line(base);
    let n = g.axis.left_perp();
    let (a1, a2) = g.arms(g.axis);
    let (s1, s2) = g.arms(n);
    WarmStart {
        p: g.axis * axial + n * perp,
        la: axial * a1 + perp * s1 + angular,
        lb: axial * a2 + perp * s2 + angular,
    }
}

/// `1 / k`, or zero for `k = 0` (an effective mass from its inverse).
#[inline(always)]
pub(super) fn invert(k: f32) -> f32 {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// The effective mass of a row along a direction with lever arms `a1` (on
/// A) and `a2` (on B), kg.
#[inline(always)]
pub(super) fn axial_mass(base: &JointBase, a1: f32, a2: f32) -> f32 {
    invert(base.inv_mass_a + base.inv_mass_b + base.inv_i_a * a1 * a1 + base.inv_i_b * a2 * a2)
}

/// Warm starting of a point joint (revolute, weld, motor): the linear
/// impulse `p` at the anchors and the angular impulse `angular`.
#[inline(always)]
pub(super) fn warm_start_point(
    base: &JointBase,
    states: &[BodyState],
    p: Vec2,
    angular: f32,
) -> WarmStart {
    let (ra, rb) = Pair::load(base, states).anchors(base);
    WarmStart {
        p,
        la: ra.cross(p) + angular,
        lb: rb.cross(p) + angular,
    }
}

/// The impulses of a joint's warm start (every type's but the mouse and
/// pogo joints', which apply their own): the accumulated linear impulse `p`
/// (N·s, to B, the opposite to A) and the angular impulses `la` (taken from
/// A) and `lb` (given to B), N·m·s, each already including the lever arm of
/// `p`. Applied once for every type, after the type's own part.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WarmStart {
    pub p: Vec2,
    pub la: f32,
    pub lb: f32,
}

impl WarmStart {
    /// Applies the impulses to the two bodies.
    #[inline(always)]
    pub fn apply(self, base: &JointBase, states: &mut [BodyState]) {
        let WarmStart { p, la, lb } = self;
        let sa = load(states, base.index_a);
        let sb = load(states, base.index_b);
        let va = Vec2::mul_sub(sa.linear_velocity, base.inv_mass_a, p);
        let wa = sa.angular_velocity - base.inv_i_a * la;
        let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
        let wb = sb.angular_velocity + base.inv_i_b * lb;
        store(states, base.index_a, va, wa);
        store(states, base.index_b, vb, wb);
    }
}

/// The bodies of one joint during a solve.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pair {
    /// The states at load time (for the position and rotation deltas).
    pub sa: BodyState,
    pub sb: BodyState,
    /// Inverse masses (1/kg) and inverse inertias (1/(kg·m²)).
    pub ma: f32,
    pub ia: f32,
    pub mb: f32,
    pub ib: f32,
    /// The velocities being solved, m/s and rad/s.
    pub va: Vec2,
    pub wa: f32,
    pub vb: Vec2,
    pub wb: f32,
}

impl Pair {
    #[inline(always)]
    pub fn load(base: &JointBase, states: &[BodyState]) -> Pair {
        let sa = load(states, base.index_a);
        let sb = load(states, base.index_b);
        Pair {
            sa,
            sb,
            ma: base.inv_mass_a,
            ia: base.inv_i_a,
            mb: base.inv_mass_b,
            ib: base.inv_i_b,
            va: sa.linear_velocity,
            wa: sa.angular_velocity,
            vb: sb.linear_velocity,
            wb: sb.angular_velocity,
        }
    }

    #[inline(always)]
    pub fn store(&self, base: &JointBase, states: &mut [BodyState]) {
        store(states, base.index_a, self.va, self.wa);
        store(states, base.index_b, self.vb, self.wb);
    }

    /// The anchors relative to the centres of mass now, metres.
    #[inline(always)]
    pub fn anchors(&self, base: &JointBase) -> (Vec2, Vec2) {
        (
            self.sa.delta_rotation.rotate(base.frame_a.p),
            self.sb.delta_rotation.rotate(base.frame_b.p),
        )
    }

    /// The world rotations of the joint frames now.
    #[inline(always)]
    pub fn frames(&self, base: &JointBase) -> (Rot, Rot) {
        (
            self.sa.delta_rotation.mul(base.frame_a.q),
            self.sb.delta_rotation.mul(base.frame_b.q),
        )
    }

    /// The joint angle now: frame B relative to frame A, radians.
    #[inline(always)]
    pub fn angle(&self, base: &JointBase) -> f32 {
        let (qa, qb) = self.frames(base);
        qa.relative_angle(qb)
    }

    /// Anchor B minus anchor A, summed as the point constraints (revolute,
    /// weld, motor) do.
    #[inline(always)]
    pub fn point_error(&self, base: &JointBase, ra: Vec2, rb: Vec2) -> Vec2 {
        (self.sb.delta_position - self.sa.delta_position) + (rb - ra) + base.delta_center
    }

    /// Anchor B minus anchor A, summed as the axial joints (prismatic,
    /// wheel, distance) do.
    #[inline(always)]
    pub fn anchor_separation(&self, base: &JointBase, ra: Vec2, rb: Vec2) -> Vec2 {
        (self.sb.delta_position - self.sa.delta_position) + base.delta_center + (rb - ra)
    }

    /// The line geometry now (see [`Line`]).
    #[inline(always)]
    pub fn line(&self, base: &JointBase) -> Line {
        let (ra, rb) = self.anchors(base);
        Line {
            ra,
            rb,
            d: self.anchor_separation(base, ra, rb),
            axis: self.sa.delta_rotation.rotate(base.frame_a.q.x_axis()),
        }
    }

    /// One pass of a point-to-point row (revolute, weld): with `soft` the
    /// softness that also corrects the position error, without it (the
    /// relax pass of a rigid row) velocities only. `accumulated` is the
    /// row's impulse, N·s.
    #[inline(always)]
    pub fn solve_point(
        &mut self,
        base: &JointBase,
        soft: Option<Softness>,
        accumulated: &mut Vec2,
    ) {
        let (ra, rb) = self.anchors(base);
        let (bias, mass_scale, impulse_scale) = match soft {
            Some(s) => (
                self.point_error(base, ra, rb) * s.bias_rate,
                s.mass_scale,
                s.impulse_scale,
            ),
            None => (Vec2::ZERO, 1.0, 0.0),
        };
        let cdot = self.point_velocity(ra, rb);
        let k = point_mass_matrix(self.ma, self.ia, ra, self.mb, self.ib, rb);
        let b = k.solve(cdot + bias);
        let impulse = Vec2::new(
            -mass_scale * b.x - impulse_scale * accumulated.x,
            -mass_scale * b.y - impulse_scale * accumulated.y,
        );
        *accumulated += impulse;
        self.apply_point(impulse, ra, rb);
    }

    /// Both bounds of `limit` on one row: `speed` is the row's relative
    /// speed, `reversed` the same speed as the upper bound sees it (each
    /// joint computes it in its own order), `apply` applies an impulse
    /// along the row.
    #[inline(always)]
    pub fn solve_limit(
        &mut self,
        limit: &mut Limit,
        row: &LimitRow,
        speed: impl Fn(&Pair) -> f32,
        reversed: impl Fn(&Pair) -> f32,
        apply: impl Fn(&mut Pair, f32),
    ) {
        let impulse = limit.solve_lower(row, speed(self));
        apply(self, impulse);
        // The upper bound pushes the other way.
        let impulse = limit.solve_upper(row, reversed(self));
        apply(self, -impulse);
    }

    /// Velocity of anchor B relative to anchor A, m/s.
    #[inline(always)]
    pub fn point_velocity(&self, ra: Vec2, rb: Vec2) -> Vec2 {
        (self.vb + Vec2::scalar_cross(self.wb, rb)) - (self.va + Vec2::scalar_cross(self.wa, ra))
    }

    /// Applies a linear impulse at the anchors: to B, the opposite to A.
    #[inline(always)]
    pub fn apply_point(&mut self, impulse: Vec2, ra: Vec2, rb: Vec2) {
        self.va = Vec2::mul_sub(self.va, self.ma, impulse);
        self.wa -= self.ia * ra.cross(impulse);
        self.vb = Vec2::mul_add(self.vb, self.mb, impulse);
        self.wb += self.ib * rb.cross(impulse);
    }

    /// Applies an angular impulse: to B, the opposite to A.
    #[inline(always)]
    pub fn apply_angular(&mut self, impulse: f32) {
        self.wa -= self.ia * impulse;
        self.wb += self.ib * impulse;
    }

    /// Applies an impulse along `axis` with the lever arms `a1` (on A,
    /// `(d + r_a) × axis`) and `a2` (on B, `r_b × axis`).
    #[inline(always)]
    pub fn apply_axial(&mut self, impulse: f32, axis: Vec2, a1: f32, a2: f32) {
        let p = axis * impulse;
        self.va = Vec2::mul_sub(self.va, self.ma, p);
        self.wa -= self.ia * impulse * a1;
        self.vb = Vec2::mul_add(self.vb, self.mb, p);
        self.wb += self.ib * impulse * a2;
    }

    /// The relative speed along `axis` with the lever arms of
    /// [`Pair::apply_axial`].
    #[inline(always)]
    pub fn axial_speed(&self, axis: Vec2, a1: f32, a2: f32) -> f32 {
        axis.dot(self.vb - self.va) + a2 * self.wb - a1 * self.wa
    }
}
