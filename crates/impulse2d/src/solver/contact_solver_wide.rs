//! The wide form of the contact solver: [`LANES`] constraints of one graph colour
//! solved at once, one per lane.
//!
//! Constraints of one colour share no dynamic body, so solving them side by
//! side gives the same result as solving them one after the other. Each lane
//! repeats the scalar solver's arithmetic operation for operation (see
//! [`lanes`](super::lanes)), so the wide and scalar solvers produce the same
//! bits; the tests below check it. Unused lanes have no bodies and zero
//! masses, so they apply nothing.
//!
//! Constraints are prepared by the scalar [`prepare`](super::contact_solver::prepare)
//! and written lane by lane ([`WideConstraint::set_lane`]); restitution and
//! impulse storage also run on the wide blocks.
//!
//! # References
//! - E. Catto, Box2D v3 `contact_solver.c` (`b2ContactConstraintSIMD`).

use crate::body::{BodyState, flags};
use crate::contact::ContactSim;
use crate::id::NULL_INDEX;
#[cfg(target_arch = "x86_64")]
use crate::simd::isa::Isa;
use crate::solver::contact_solver::ContactConstraint;
use crate::solver::lanes::{FloatW, LANES, Lane, LaneMask};
#[cfg(not(target_arch = "x86_64"))]
use crate::solver::lanes::{LaneMath, Math};

/// One point of [`LANES`] constraints.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WidePoint {
    pub anchor_a_x: FloatW,
    pub anchor_a_y: FloatW,
    pub anchor_b_x: FloatW,
    pub anchor_b_y: FloatW,
    pub base_separation: FloatW,
    pub normal_impulse: FloatW,
    pub tangent_impulse: FloatW,
    pub total_normal_impulse: FloatW,
    pub normal_mass: FloatW,
    pub tangent_mass: FloatW,
    pub relative_velocity: FloatW,
}

/// The body states of [`LANES`] constraints (indices into the awake states
/// with the stand-in appended), with the largest of them. The fields are
/// private to this module, whose code keeps `max` at least every index: a
/// gather or scatter compares `max` with the states' length once and then
/// reads and writes without a check per index.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BodyIndices {
    a: [u32; LANES],
    b: [u32; LANES],
    max: u32,
}

impl BodyIndices {
    /// The indices of bodies A and B, lane by lane.
    #[cfg(test)]
    pub(crate) fn new(a: [u32; LANES], b: [u32; LANES]) -> BodyIndices {
        let max = a.iter().chain(&b).copied().max().unwrap_or(0);
        BodyIndices { a, b, max }
    }

    /// Body A of each lane.
    #[inline(always)]
    pub(crate) fn a(&self) -> Lanes<'_> {
        Lanes {
            indices: &self.a,
            max: self.max,
        }
    }

    /// Body B of each lane.
    #[inline(always)]
    pub(crate) fn b(&self) -> Lanes<'_> {
        Lanes {
            indices: &self.b,
            max: self.max,
        }
    }
}

/// One body per lane: what [`gather`] and [`scatter`] take. Made only from a
/// [`BodyIndices`], so every index is at most `max`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes<'a> {
    indices: &'a [u32; LANES],
    max: u32,
}

impl Lanes<'_> {
    /// The indices, lane by lane.
    #[inline(always)]
    pub(crate) fn indices(&self) -> &[u32; LANES] {
        self.indices
    }
}

/// [`LANES`] constraints of one colour.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WideConstraint {
    pub bodies: BodyIndices,
    pub normal_x: FloatW,
    pub normal_y: FloatW,
    pub inv_mass_a: FloatW,
    pub inv_i_a: FloatW,
    pub inv_mass_b: FloatW,
    pub inv_i_b: FloatW,
    pub friction: FloatW,
    pub restitution: FloatW,
    pub tangent_speed: FloatW,
    pub rolling_resistance: FloatW,
    pub rolling_mass: FloatW,
    pub rolling_impulse: FloatW,
    pub bias_rate: FloatW,
    pub mass_scale: FloatW,
    pub impulse_scale: FloatW,
    pub points: [WidePoint; 2],
}

impl WideConstraint {
    /// A block with no constraints: every lane uses the resting stand-in
    /// state at index `dummy` (see [`solve`]) and has zero masses.
    #[inline(always)]
    pub(crate) fn empty(dummy: u32) -> WideConstraint {
        WideConstraint {
            bodies: BodyIndices {
                a: [dummy; LANES],
                b: [dummy; LANES],
                max: dummy,
            },
            ..WideConstraint::default()
        }
    }

    /// Writes a prepared scalar constraint into lane `i`; a static body
    /// (NULL index) becomes the stand-in state `dummy`. A one-point manifold
    /// leaves the second point at zero masses: it applies nothing, exactly
    /// like the scalar loop that skips it.
    #[inline(always)]
    pub(crate) fn set_lane(&mut self, i: usize, c: &ContactConstraint, dummy: u32) {
        let or_dummy = |index| if index == NULL_INDEX { dummy } else { index };
        let (a, b) = (or_dummy(c.index_a), or_dummy(c.index_b));
        let bodies = &mut self.bodies;
        bodies.a[i] = a;
        bodies.b[i] = b;
        bodies.max = bodies.max.max(a).max(b);
        self.normal_x.0[i] = c.normal.x;
        self.normal_y.0[i] = c.normal.y;
        self.inv_mass_a.0[i] = c.inv_mass_a;
        self.inv_i_a.0[i] = c.inv_i_a;
        self.inv_mass_b.0[i] = c.inv_mass_b;
        self.inv_i_b.0[i] = c.inv_i_b;
        self.friction.0[i] = c.friction;
        self.restitution.0[i] = c.restitution;
        self.tangent_speed.0[i] = c.tangent_speed;
        self.rolling_resistance.0[i] = c.rolling_resistance;
        self.rolling_mass.0[i] = c.rolling_mass;
        self.rolling_impulse.0[i] = c.rolling_impulse;
        self.bias_rate.0[i] = c.softness.bias_rate;
        self.mass_scale.0[i] = c.softness.mass_scale;
        self.impulse_scale.0[i] = c.softness.impulse_scale;
        for (wp, cp) in self
            .points
            .iter_mut()
            .zip(&c.points[..c.point_count as usize])
        {
            wp.anchor_a_x.0[i] = cp.anchor_a.x;
            wp.anchor_a_y.0[i] = cp.anchor_a.y;
            wp.anchor_b_x.0[i] = cp.anchor_b.x;
            wp.anchor_b_y.0[i] = cp.anchor_b.y;
            wp.base_separation.0[i] = cp.base_separation;
            wp.normal_impulse.0[i] = cp.normal_impulse;
            wp.tangent_impulse.0[i] = cp.tangent_impulse;
            wp.total_normal_impulse.0[i] = cp.total_normal_impulse;
            wp.normal_mass.0[i] = cp.normal_mass;
            wp.tangent_mass.0[i] = cp.tangent_mass;
            wp.relative_velocity.0[i] = cp.relative_velocity;
        }
    }
}

/// Copies the impulses of [`LANES`] constraints back into their manifolds, in
/// lane order, for warm starting next step (the wide
/// [`store_impulses`](super::contact_solver::store_impulses)).
#[inline(always)]
pub(crate) fn store_impulses(w: &WideConstraint, sims: &mut [ContactSim]) {
    debug_assert!(sims.len() <= LANES);
    for (i, sim) in sims.iter_mut().enumerate() {
        let manifold = &mut sim.manifold;
        manifold.rolling_impulse = w.rolling_impulse.0[i];
        let count = manifold.point_count;
        for (wp, mp) in w.points.iter().zip(&mut manifold.points[..count]) {
            mp.normal_impulse = wp.normal_impulse.0[i];
            mp.tangent_impulse = wp.tangent_impulse.0[i];
            mp.total_normal_impulse = wp.total_normal_impulse.0[i];
            mp.normal_velocity = wp.relative_velocity.0[i];
        }
    }
}

/// The states of the bodies of [`LANES`] constraints, lane by lane, as the
/// build computes with them ([`Lane`]).
struct BodyLanes<F = FloatW> {
    vx: F,
    vy: F,
    w: F,
    dpx: F,
    dpy: F,
    dqc: F,
    dqs: F,
}

/// Loads the states of [`LANES`] bodies. Static bodies and empty lanes point at a
/// resting stand-in state appended to the awake states for the solve: it has
/// zero velocity and no motion, and it is not dynamic, so [`scatter`] never
/// writes it (threads solving one colour share it). This keeps gathering free
/// of branches. On x86-64 the kernels use the row form (`rows::gather`) and
/// this lane-by-lane form is its reference.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn gather(states: &[BodyState], lanes: Lanes<'_>) -> BodyLanes {
    // The reference checks each index; the row form checks `max` once,
    // which holds (`BodyIndices`) if every index is at most `max`.
    debug_assert!(lanes.indices.iter().all(|&i| i <= lanes.max));
    let indices = lanes.indices();
    let s: [&BodyState; LANES] = std::array::from_fn(|i| &states[indices[i] as usize]);
    BodyLanes {
        vx: FloatW(std::array::from_fn(|i| s[i].linear_velocity.x)),
        vy: FloatW(std::array::from_fn(|i| s[i].linear_velocity.y)),
        w: FloatW(std::array::from_fn(|i| s[i].angular_velocity)),
        dpx: FloatW(std::array::from_fn(|i| s[i].delta_position.x)),
        dpy: FloatW(std::array::from_fn(|i| s[i].delta_position.y)),
        dqc: FloatW(std::array::from_fn(|i| s[i].delta_rotation.c)),
        dqs: FloatW(std::array::from_fn(|i| s[i].delta_rotation.s)),
    }
}

#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn scatter(states: &mut [BodyState], lanes: Lanes<'_>, b: &BodyLanes) {
    for (i, &index) in lanes.indices().iter().enumerate() {
        let s = &mut states[index as usize];
        // Only dynamic bodies: see `flags::DYNAMIC`.
        if s.flags & flags::DYNAMIC == 0 {
            continue;
        }
        s.linear_velocity.x = b.vx.0[i];
        s.linear_velocity.y = b.vy.0[i];
        s.angular_velocity = b.w.0[i];
    }
}

/// `v − m·p` and `w − i·(r × p)` for one body, lane by lane (the scalar
/// `mul_sub` and cross product, operation for operation).
#[inline(always)]
fn apply_a<F: Lane>(b: &mut BodyLanes<F>, m: F, i: F, rx: F, ry: F, px: F, py: F) {
    b.vx = b.vx - m * px;
    b.vy = b.vy - m * py;
    b.w = b.w - i * (rx * py - ry * px);
}

#[inline(always)]
fn apply_b<F: Lane>(b: &mut BodyLanes<F>, m: F, i: F, rx: F, ry: F, px: F, py: F) {
    b.vx = b.vx + m * px;
    b.vy = b.vy + m * py;
    b.w = b.w + i * (rx * py - ry * px);
}

/// The constraints a wide kernel solves, with the build it is compiled into
/// (x86-64: see `simd::isa`).
#[cfg(target_arch = "x86_64")]
type InBuild<'a, I> = (I, &'a mut [WideConstraint]);

/// The lane-by-lane `gather`, `scatter` and arithmetic, where there is no row form.
#[cfg(not(target_arch = "x86_64"))]
#[allow(clippy::type_complexity)]
#[inline(always)]
fn lane_build(
    constraints: &mut [WideConstraint],
) -> (
    &mut [WideConstraint],
    LaneMath,
    fn(&[BodyState], Lanes<'_>) -> BodyLanes,
    fn(&mut [BodyState], Lanes<'_>, &BodyLanes),
) {
    (constraints, LaneMath, gather, scatter)
}

/// Wide [`warm_start`](super::contact_solver::warm_start).
#[inline(always)]
pub(crate) fn warm_start<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] constraints: InBuild<'_, I>,
    #[cfg(not(target_arch = "x86_64"))] constraints: &mut [WideConstraint],
    states: &mut [BodyState],
) {
    #[cfg(target_arch = "x86_64")]
    let (constraints, m, gather, scatter) = rows::in_build(constraints);
    #[cfg(not(target_arch = "x86_64"))]
    let (constraints, m, gather, scatter) = lane_build(constraints);
    for c in constraints {
        let mut a = gather(states, c.bodies.a());
        let mut b = gather(states, c.bodies.b());
        let (nx, ny) = (m.ld(c.normal_x), m.ld(c.normal_y));
        // tangent = right_perp(normal) = (n.y, −n.x)
        let (tx, ty) = (ny, -nx);
        for p in &mut c.points {
            // P = n·λn + t·λt (Vec2 mul then add, as the scalar code)
            let px = nx * m.ld(p.normal_impulse) + tx * m.ld(p.tangent_impulse);
            let py = ny * m.ld(p.normal_impulse) + ty * m.ld(p.tangent_impulse);
            p.total_normal_impulse =
                (m.ld(p.total_normal_impulse) + m.ld(p.normal_impulse)).lanes();
            // The scalar code updates w before v here.
            a.w = a.w - m.ld(c.inv_i_a) * (m.ld(p.anchor_a_x) * py - m.ld(p.anchor_a_y) * px);
            a.vx = a.vx - m.ld(c.inv_mass_a) * px;
            a.vy = a.vy - m.ld(c.inv_mass_a) * py;
            b.w = b.w + m.ld(c.inv_i_b) * (m.ld(p.anchor_b_x) * py - m.ld(p.anchor_b_y) * px);
            b.vx = b.vx + m.ld(c.inv_mass_b) * px;
            b.vy = b.vy + m.ld(c.inv_mass_b) * py;
        }
        a.w = a.w - m.ld(c.inv_i_a) * m.ld(c.rolling_impulse);
        b.w = b.w + m.ld(c.inv_i_b) * m.ld(c.rolling_impulse);
        scatter(states, c.bodies.a(), &a);
        scatter(states, c.bodies.b(), &b);
    }
}

/// Wide [`solve`](super::contact_solver::solve).
#[inline(always)]
pub(crate) fn solve<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] constraints: InBuild<'_, I>,
    #[cfg(not(target_arch = "x86_64"))] constraints: &mut [WideConstraint],
    states: &mut [BodyState],
    inv_h: f32,
    max_push_speed: f32,
    use_bias: bool,
) {
    #[cfg(target_arch = "x86_64")]
    let (constraints, m, gather, scatter) = rows::in_build(constraints);
    #[cfg(not(target_arch = "x86_64"))]
    let (constraints, m, gather, scatter) = lane_build(constraints);
    let inv_h = m.splat(inv_h);
    let min_bias = m.splat(-max_push_speed);
    let zero = m.splat(0.0);
    let one = m.splat(1.0);
    for c in constraints {
        let mut a = gather(states, c.bodies.a());
        let mut b = gather(states, c.bodies.b());
        let dpx = b.dpx - a.dpx;
        let dpy = b.dpy - a.dpy;
        let (nx, ny) = (m.ld(c.normal_x), m.ld(c.normal_y));
        let (tx, ty) = (ny, -nx);
        let mut total_normal_impulse = zero;

        for p in &mut c.points {
            let (rax0, ray0) = (m.ld(p.anchor_a_x), m.ld(p.anchor_a_y));
            let (rbx0, rby0) = (m.ld(p.anchor_b_x), m.ld(p.anchor_b_y));
            // ds = dp + (q_B·r_B − q_A·r_A)
            let rbx = a_rot_x(b.dqc, b.dqs, rbx0, rby0);
            let rby = a_rot_y(b.dqc, b.dqs, rbx0, rby0);
            let rax = a_rot_x(a.dqc, a.dqs, rax0, ray0);
            let ray = a_rot_y(a.dqc, a.dqs, rax0, ray0);
            let dsx = dpx + (rbx - rax);
            let dsy = dpy + (rby - ray);
            let s = m.ld(p.base_separation) + (dsx * nx + dsy * ny);

            let speculative = s.gt(zero);
            let (soft_bias, soft_mass, soft_impulse) = if use_bias {
                (
                    (m.ld(c.mass_scale) * m.ld(c.bias_rate) * s).max(min_bias),
                    m.ld(c.mass_scale),
                    m.ld(c.impulse_scale),
                )
            } else {
                (zero, one, zero)
            };
            let bias = speculative.select(s * inv_h, soft_bias);
            let mass_scale = speculative.select(one, soft_mass);
            let impulse_scale = speculative.select(zero, soft_impulse);

            let vrax = a.vx + -(a.w * m.ld(p.anchor_a_y));
            let vray = a.vy + a.w * m.ld(p.anchor_a_x);
            let vrbx = b.vx + -(b.w * m.ld(p.anchor_b_y));
            let vrby = b.vy + b.w * m.ld(p.anchor_b_x);
            let vn = (vrbx - vrax) * nx + (vrby - vray) * ny;

            let impulse = -m.ld(p.normal_mass) * (mass_scale * vn + bias)
                - impulse_scale * m.ld(p.normal_impulse);
            let new_impulse = (m.ld(p.normal_impulse) + impulse).max(zero);
            let impulse = new_impulse - m.ld(p.normal_impulse);
            p.normal_impulse = new_impulse.lanes();
            p.total_normal_impulse = (m.ld(p.total_normal_impulse) + impulse).lanes();
            total_normal_impulse = total_normal_impulse + new_impulse;

            let px = nx * impulse;
            let py = ny * impulse;
            apply_a(
                &mut a,
                m.ld(c.inv_mass_a),
                m.ld(c.inv_i_a),
                m.ld(p.anchor_a_x),
                m.ld(p.anchor_a_y),
                px,
                py,
            );
            apply_b(
                &mut b,
                m.ld(c.inv_mass_b),
                m.ld(c.inv_i_b),
                m.ld(p.anchor_b_x),
                m.ld(p.anchor_b_y),
                px,
                py,
            );
        }

        for p in &mut c.points {
            let vrax = a.vx + -(a.w * m.ld(p.anchor_a_y));
            let vray = a.vy + a.w * m.ld(p.anchor_a_x);
            let vrbx = b.vx + -(b.w * m.ld(p.anchor_b_y));
            let vrby = b.vy + b.w * m.ld(p.anchor_b_x);
            let vt = ((vrbx - vrax) * tx + (vrby - vray) * ty) - m.ld(c.tangent_speed);

            let impulse = -m.ld(p.tangent_mass) * vt;
            let max_friction = m.ld(c.friction) * m.ld(p.normal_impulse);
            let new_impulse = (m.ld(p.tangent_impulse) + impulse)
                .max(-max_friction)
                .min(max_friction);
            let impulse = new_impulse - m.ld(p.tangent_impulse);
            p.tangent_impulse = new_impulse.lanes();

            let px = tx * impulse;
            let py = ty * impulse;
            apply_a(
                &mut a,
                m.ld(c.inv_mass_a),
                m.ld(c.inv_i_a),
                m.ld(p.anchor_a_x),
                m.ld(p.anchor_a_y),
                px,
                py,
            );
            apply_b(
                &mut b,
                m.ld(c.inv_mass_b),
                m.ld(c.inv_i_b),
                m.ld(p.anchor_b_x),
                m.ld(p.anchor_b_y),
                px,
                py,
            );
        }

        // Rolling resistance, only in lanes that have it.
        let rolling = m.ld(c.rolling_resistance).gt(zero);
        if rolling.any() {
            let delta = -m.ld(c.rolling_mass) * (b.w - a.w);
            let old = m.ld(c.rolling_impulse);
            let max_lambda = m.ld(c.rolling_resistance) * total_normal_impulse;
            let new = (old + delta).max(-max_lambda).min(max_lambda);
            let delta = new - old;
            c.rolling_impulse = rolling.select(new, old).lanes();
            a.w = rolling.select(a.w - m.ld(c.inv_i_a) * delta, a.w);
            b.w = rolling.select(b.w + m.ld(c.inv_i_b) * delta, b.w);
        }

        scatter(states, c.bodies.a(), &a);
        scatter(states, c.bodies.b(), &b);
    }
}

/// Wide [`apply_restitution`](super::contact_solver::apply_restitution).
#[inline(always)]
pub(crate) fn apply_restitution<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] constraints: InBuild<'_, I>,
    #[cfg(not(target_arch = "x86_64"))] constraints: &mut [WideConstraint],
    states: &mut [BodyState],
    threshold: f32,
) {
    #[cfg(target_arch = "x86_64")]
    let (constraints, m, gather, scatter) = rows::in_build(constraints);
    #[cfg(not(target_arch = "x86_64"))]
    let (constraints, m, gather, scatter) = lane_build(constraints);
    let zero = m.splat(0.0);
    let neg_threshold = m.splat(-threshold);
    for c in constraints {
        let bouncy = m.ld(c.restitution).ne(zero);
        if !bouncy.any() {
            continue;
        }
        let mut a = gather(states, c.bodies.a());
        let mut b = gather(states, c.bodies.b());
        let (nx, ny) = (m.ld(c.normal_x), m.ld(c.normal_y));
        for p in &mut c.points {
            // Only points that approached faster than the threshold and
            // received an impulse (not speculative ones).
            let active = bouncy
                .and(m.ld(p.relative_velocity).gt(neg_threshold).not())
                .and(m.ld(p.total_normal_impulse).ne(zero));
            if !active.any() {
                continue;
            }
            let vrax = a.vx + -(a.w * m.ld(p.anchor_a_y));
            let vray = a.vy + a.w * m.ld(p.anchor_a_x);
            let vrbx = b.vx + -(b.w * m.ld(p.anchor_b_y));
            let vrby = b.vy + b.w * m.ld(p.anchor_b_x);
            let vn = (vrbx - vrax) * nx + (vrby - vray) * ny;

            let impulse =
                -m.ld(p.normal_mass) * (vn + m.ld(c.restitution) * m.ld(p.relative_velocity));
            let new_impulse = (m.ld(p.normal_impulse) + impulse).max(zero);
            let impulse = new_impulse - m.ld(p.normal_impulse);
            p.normal_impulse = active.select(new_impulse, m.ld(p.normal_impulse)).lanes();
            p.total_normal_impulse = active
                .select(
                    m.ld(p.total_normal_impulse) + impulse,
                    m.ld(p.total_normal_impulse),
                )
                .lanes();

            let px = nx * impulse;
            let py = ny * impulse;
            let (a0, b0) = (copy_velocities(&a), copy_velocities(&b));
            apply_a(
                &mut a,
                m.ld(c.inv_mass_a),
                m.ld(c.inv_i_a),
                m.ld(p.anchor_a_x),
                m.ld(p.anchor_a_y),
                px,
                py,
            );
            apply_b(
                &mut b,
                m.ld(c.inv_mass_b),
                m.ld(c.inv_i_b),
                m.ld(p.anchor_b_x),
                m.ld(p.anchor_b_y),
                px,
                py,
            );
            keep_inactive(&mut a, a0, active);
            keep_inactive(&mut b, b0, active);
        }
        scatter(states, c.bodies.a(), &a);
        scatter(states, c.bodies.b(), &b);
    }
}

#[inline(always)]
fn copy_velocities<F: Lane>(b: &BodyLanes<F>) -> (F, F, F) {
    (b.vx, b.vy, b.w)
}

/// Restores the velocities of the lanes outside `active`.
#[inline(always)]
fn keep_inactive<F: Lane>(b: &mut BodyLanes<F>, old: (F, F, F), active: F::Mask) {
    b.vx = active.select(b.vx, old.0);
    b.vy = active.select(b.vy, old.1);
    b.w = active.select(b.w, old.2);
}

/// x component of `q·r` (the scalar `Rot::rotate`).
#[inline(always)]
fn a_rot_x<F: Lane>(c: F, s: F, rx: F, ry: F) -> F {
    c * rx - s * ry
}

/// y component of `q·r`.
#[inline(always)]
fn a_rot_y<F: Lane>(c: F, s: F, rx: F, ry: F) -> F {
    s * rx + c * ry
}

// The row form of `gather` and `scatter`, which the kernels use on x86-64;
// `gather` and `scatter` above are its reference (the tests compare them bit
// for bit) and the form on other targets.
#[cfg(target_arch = "x86_64")]
mod rows;

#[cfg(test)]
mod tests {
    use crate::collision::make_box;
    use crate::test_build as build;
    use crate::{BodyType, ShapeDef, Vec2, World, WorldDef};

    /// Builds a small pyramid next to a few spinning balls on a ramp-free
    /// ground, knocks it, and returns every body's transform bits after `steps`.
    fn run(use_wide: bool, steps: usize) -> Vec<build::PoseBits> {
        run_on(use_wide, steps, 1, false)
    }

    fn run_on(
        use_wide: bool,
        steps: usize,
        worker_count: usize,
        enable_contact_softening: bool,
    ) -> Vec<build::PoseBits> {
        let mut world = World::new(&WorldDef {
            worker_count,
            enable_contact_softening,
            ..WorldDef::default()
        })
        .unwrap();
        world.use_wide_solver = use_wide;
        let ground = build::body(&mut world, BodyType::Static, Vec2::ZERO);
        build::add_box(&mut world, ground, 40.0, 1.0);
        let mut bodies = Vec::new();
        for row in 0..8 {
            for k in 0..(8 - row) {
                let body = build::body(
                    &mut world,
                    BodyType::Dynamic,
                    Vec2::new(-3.5 + row as f32 * 0.5 + k as f32, 1.5 + row as f32),
                );
                let shape = ShapeDef {
                    rolling_resistance: if k % 2 == 0 { 0.1 } else { 0.0 },
                    restitution: if k % 3 == 0 { 0.4 } else { 0.0 },
                    ..Default::default()
                };
                world
                    .create_polygon_shape(body, &shape, &make_box(0.5, 0.5).unwrap())
                    .unwrap();
                bodies.push(body);
            }
        }
        // Bouncy balls dropped from 4 m hit the boxes at about 8 m/s, well
        // above the restitution threshold.
        for k in 0..6 {
            let ball = build::body(
                &mut world,
                BodyType::Dynamic,
                Vec2::new(-3.0 + 1.1 * k as f32, 12.0),
            );
            let shape = ShapeDef {
                restitution: 0.7,
                ..Default::default()
            };
            let circle = crate::collision::Circle {
                center: Vec2::ZERO,
                radius: 0.3,
            };
            world.create_circle_shape(ball, &shape, &circle).unwrap();
            bodies.push(ball);
        }
        for (k, &b) in bodies.iter().enumerate().step_by(5) {
            world
                .body_mut(b)
                .unwrap()
                .apply_linear_impulse_to_center(Vec2::new(2.0 - k as f32 * 0.3, 1.0), true)
                .unwrap();
        }
        for _ in 0..steps {
            world.step(1.0 / 60.0, 4).unwrap();
            world.validate().unwrap();
        }
        bodies
            .iter()
            .map(|&b| world.body(b).unwrap().transform().to_bits())
            .collect()
    }

    #[test]
    fn wide_and_scalar_solvers_give_the_same_bits() {
        let wide = run(true, 200);
        let scalar = run(false, 200);
        assert_eq!(wide.len(), 42);
        assert_eq!(wide, scalar);
    }

    /// The same on several worker threads, with either solver.
    #[test]
    fn wide_and_scalar_solvers_give_the_same_bits_on_2_and_4_threads() {
        let one = run(true, 120);
        for workers in [2, 4] {
            assert_eq!(
                run_on(true, 120, workers, false),
                one,
                "wide, {workers} workers"
            );
            assert_eq!(
                run_on(false, 120, workers, false),
                one,
                "scalar, {workers} workers"
            );
        }
    }

    /// With contact softening (the balls weigh 0.28 kg, the boxes 1 kg: their
    /// contacts are softened by 0.5, box on box by 1) both solvers still give
    /// the same bits, on one thread and on two, and the softening changes them.
    #[test]
    fn wide_and_scalar_solvers_agree_with_contact_softening() {
        let wide = run_on(true, 200, 1, true);
        assert_eq!(run_on(false, 200, 1, true), wide, "scalar");
        assert_eq!(run_on(true, 200, 2, true), wide, "wide, 2 workers");
        assert_ne!(run(true, 200), wide, "softening made no difference");
    }
}
