//! The contact constraint solver: the scalar form of Box2D v3's soft step.
//!
//! Contact points are prepared once per step. Each keeps its anchors on the
//! two bodies (relative to the centres of mass) and a *base separation*; in
//! each substep the current separation is recovered from the bodies' position
//! and rotation deltas without recomputing the manifold:
//! `s = s_base + n·((Δp_B + q_B·r_B) − (Δp_A + q_A·r_A))`, with
//! `s_base = s₀ − n·(r_B − r_A)`.
//!
//! Stages, in the order the step calls them: [`prepare`], then per substep
//! [`warm_start`], [`solve`] (with bias) and, after the positions are
//! integrated, [`solve`] again without bias (relax); then
//! [`apply_restitution`] and [`store_impulses`].
//!
//! Speculative points (`s > 0`) only remove the approach velocity that would
//! close the gap within the substep. Penetration is pushed out softly, at no
//! more than the world's push-out speed.
//!
//! # References
//! - E. Catto, *Solver2D* `solve_soft_step` and Box2D v3 `contact_solver.c`.
//! - E. Catto, *Fast and Simple Physics using Sequential Impulses*, GDC 2006
//!   (accumulated impulses, warm starting).

use crate::body::{BodyState, load, store};
use crate::contact::ContactSim;
use crate::id::NULL_INDEX;
use crate::math::Vec2;
use crate::solver::lanes::{max, min};
use crate::solver::softness::Softness;

/// One point of a [`ContactConstraint`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    /// Anchors relative to each body's centre of mass, world orientation, m.
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    /// Separation with the anchor offsets removed, m.
    pub base_separation: f32,
    /// Normal velocity before solving, m/s (for restitution).
    pub relative_velocity: f32,
    /// Accumulated impulses, N·s.
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Sum of all normal impulses applied this step (tells real contact from
    /// speculative), N·s.
    pub total_normal_impulse: f32,
    /// Effective masses along the normal and tangent, kg.
    pub normal_mass: f32,
    pub tangent_mass: f32,
}

/// A prepared contact between two bodies.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactConstraint {
    /// Awake-set indices of the bodies, or NULL for a static body.
    pub index_a: u32,
    pub index_b: u32,
    pub points: [ConstraintPoint; 2],
    pub normal: Vec2,
    pub inv_mass_a: f32,
    pub inv_i_a: f32,
    pub inv_mass_b: f32,
    pub inv_i_b: f32,
    pub friction: f32,
    pub restitution: f32,
    pub tangent_speed: f32,
    pub rolling_resistance: f32,
    pub rolling_mass: f32,
    pub rolling_impulse: f32,
    pub softness: Softness,
    pub point_count: u32,
}

/// Box2D's experimental contact softening (`b2WorldDef.enableContactSoftening`)
/// for one step: contacts between two non-static bodies are softened by the
/// ratio of their masses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactSoftening {
    /// Contact stiffness, Hz, already capped at an eighth of the substep rate.
    pub hertz: f32,
    /// Contact damping ratio (dimensionless).
    pub damping_ratio: f32,
    /// Substep, s.
    pub h: f32,
}

impl ContactSoftening {
    /// The softness of a contact between bodies of inverse masses `inv_mass_a`
    /// and `inv_mass_b` (1/kg): stiffness and damping scaled by the smaller
    /// inverse mass over the larger (the lighter body's mass over the
    /// heavier's), at least 0.5, as Box2D's contact prepare does.
    #[inline]
    pub fn softness(&self, inv_mass_a: f32, inv_mass_b: f32) -> Softness {
        let ratio = if inv_mass_a < inv_mass_b {
            (inv_mass_a / inv_mass_b).max(0.5)
        } else if inv_mass_b < inv_mass_a {
            (inv_mass_b / inv_mass_a).max(0.5)
        } else {
            1.0
        };
        Softness::new(ratio * self.hertz, ratio * self.damping_ratio, self.h)
    }
}

/// Builds the constraint of a touching contact: anchors, effective masses,
/// warm-start impulses and the approach speed for restitution.
#[inline(always)]
pub(crate) fn prepare(
    sim: &ContactSim,
    states: &[BodyState],
    contact_softness: Softness,
    static_softness: Softness,
    softening: Option<ContactSoftening>,
    warm_start_scale: f32,
) -> ContactConstraint {
    let manifold = &sim.manifold;
    let point_count = manifold.point_count;
    debug_assert!(point_count > 0 && point_count <= 2);

    let (index_a, index_b) = (sim.body_sim_index_a, sim.body_sim_index_b);
    let (ma, ia, mb, ib) = (sim.inv_mass_a, sim.inv_i_a, sim.inv_mass_b, sim.inv_i_b);
    let sa = load(states, index_a);
    let sb = load(states, index_b);

    // Contacts against static bodies are twice as stiff so that stacks do not
    // sink into the ground.
    let softness = if index_a == NULL_INDEX || index_b == NULL_INDEX {
        static_softness
    } else if let Some(softening) = softening {
        softening.softness(ma, mb)
    } else {
        contact_softness
    };

    let k_roll = ia + ib;
    let normal = manifold.normal;
    let tangent = normal.right_perp();
    let mut c = ContactConstraint {
        index_a,
        index_b,
        points: [ConstraintPoint::default(); 2],
        normal,
        inv_mass_a: ma,
        inv_i_a: ia,
        inv_mass_b: mb,
        inv_i_b: ib,
        friction: sim.friction,
        restitution: sim.restitution,
        tangent_speed: sim.tangent_speed,
        rolling_resistance: sim.rolling_resistance,
        rolling_mass: if k_roll > 0.0 { 1.0 / k_roll } else { 0.0 },
        rolling_impulse: warm_start_scale * manifold.rolling_impulse,
        softness,
        point_count: point_count as u32,
    };

    for (mp, cp) in manifold.points[..point_count].iter().zip(&mut c.points) {
        let (ra, rb) = (mp.anchor_a, mp.anchor_b);
        cp.anchor_a = ra;
        cp.anchor_b = rb;
        cp.normal_impulse = warm_start_scale * mp.normal_impulse;
        cp.tangent_impulse = warm_start_scale * mp.tangent_impulse;
        cp.total_normal_impulse = 0.0;
        cp.base_separation = mp.separation - (rb - ra).dot(normal);

        let rna = ra.cross(normal);
        let rnb = rb.cross(normal);
        let k_normal = ma + mb + ia * rna * rna + ib * rnb * rnb;
        cp.normal_mass = if k_normal > 0.0 { 1.0 / k_normal } else { 0.0 };

        let rta = ra.cross(tangent);
        let rtb = rb.cross(tangent);
        let k_tangent = ma + mb + ia * rta * rta + ib * rtb * rtb;
        cp.tangent_mass = if k_tangent > 0.0 {
            1.0 / k_tangent
        } else {
            0.0
        };

        let vra = sa.linear_velocity + Vec2::scalar_cross(sa.angular_velocity, ra);
        let vrb = sb.linear_velocity + Vec2::scalar_cross(sb.angular_velocity, rb);
        let relative_velocity = normal.dot(vrb - vra);
        // A body with an absurd velocity is stopped by the first substep and
        // quarantined (see `quarantine.rs`); its approach speed must not reach
        // the other body through restitution either.
        cp.relative_velocity = if (relative_velocity * relative_velocity).is_finite() {
            relative_velocity
        } else {
            0.0
        };
    }
    c
}

/// Applies the accumulated impulses of the last step (or substep) to the bodies.
#[inline(always)]
pub(crate) fn warm_start(constraints: &mut [ContactConstraint], states: &mut [BodyState]) {
    for c in constraints {
        let sa = load(states, c.index_a);
        let sb = load(states, c.index_b);
        let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
        let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);
        let (ma, ia, mb, ib) = (c.inv_mass_a, c.inv_i_a, c.inv_mass_b, c.inv_i_b);
        let normal = c.normal;
        let tangent = normal.right_perp();

        for cp in &mut c.points[..c.point_count as usize] {
            let p = normal * cp.normal_impulse + tangent * cp.tangent_impulse;
            cp.total_normal_impulse += cp.normal_impulse;
            wa -= ia * cp.anchor_a.cross(p);
            va = Vec2::mul_sub(va, ma, p);
            wb += ib * cp.anchor_b.cross(p);
            vb = Vec2::mul_add(vb, mb, p);
        }
        wa -= ia * c.rolling_impulse;
        wb += ib * c.rolling_impulse;

        store(states, c.index_a, va, wa);
        store(states, c.index_b, vb, wb);
    }
}

/// One Gauss–Seidel pass over the contacts: non-penetration, then (in the
/// relax pass only, as Box2D v3.2) friction and rolling resistance.
/// `use_bias` pushes overlapping points apart (softly, at most
/// `max_push_speed` m/s) and skips friction and rolling; without it (the
/// relax pass) only velocities are corrected, friction included. `inv_h` is the inverse substep, 1/s.
#[inline(always)]
pub(crate) fn solve(
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    inv_h: f32,
    max_push_speed: f32,
    use_bias: bool,
) {
    for c in constraints {
        let sa = load(states, c.index_a);
        let sb = load(states, c.index_b);
        let (mut va, mut wa, dqa) = (sa.linear_velocity, sa.angular_velocity, sa.delta_rotation);
        let (mut vb, mut wb, dqb) = (sb.linear_velocity, sb.angular_velocity, sb.delta_rotation);
        let dp = sb.delta_position - sa.delta_position;
        let (ma, ia, mb, ib) = (c.inv_mass_a, c.inv_i_a, c.inv_mass_b, c.inv_i_b);
        let normal = c.normal;
        let tangent = normal.right_perp();
        let softness = c.softness;
        let count = c.point_count as usize;
        let mut total_normal_impulse = 0.0;

        for cp in &mut c.points[..count] {
            let (ra, rb) = (cp.anchor_a, cp.anchor_b);
            // Current separation from the substep position deltas.
            let ds = dp + (dqb.rotate(rb) - dqa.rotate(ra));
            let s = cp.base_separation + ds.dot(normal);

            let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                // Speculative: allow the gap to close within this substep.
                (s * inv_h, 1.0, 0.0)
            } else if use_bias {
                let bias = max(
                    softness.mass_scale * softness.bias_rate * s,
                    -max_push_speed,
                );
                (bias, softness.mass_scale, softness.impulse_scale)
            } else {
                (0.0, 1.0, 0.0)
            };

            let vra = va + Vec2::scalar_cross(wa, ra);
            let vrb = vb + Vec2::scalar_cross(wb, rb);
            let vn = (vrb - vra).dot(normal);

            let mut impulse =
                -cp.normal_mass * (mass_scale * vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = max(cp.normal_impulse + impulse, 0.0);
            impulse = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.total_normal_impulse += impulse;
            total_normal_impulse += new_impulse;

            let p = normal * impulse;
            va = Vec2::mul_sub(va, ma, p);
            wa -= ia * ra.cross(p);
            vb = Vec2::mul_add(vb, mb, p);
            wb += ib * rb.cross(p);
        }

        // Friction and rolling resistance in the relax pass only (Box2D
        // v3.2): the biased pass solves non-penetration alone.
        if !use_bias {
            for cp in &mut c.points[..count] {
                let (ra, rb) = (cp.anchor_a, cp.anchor_b);
                let vra = va + Vec2::scalar_cross(wa, ra);
                let vrb = vb + Vec2::scalar_cross(wb, rb);
                let vt = (vrb - vra).dot(tangent) - c.tangent_speed;

                let mut impulse = -cp.tangent_mass * vt;
                let max_friction = c.friction * cp.normal_impulse;
                let new_impulse = min(
                    max(cp.tangent_impulse + impulse, -max_friction),
                    max_friction,
                );
                impulse = new_impulse - cp.tangent_impulse;
                cp.tangent_impulse = new_impulse;

                let p = tangent * impulse;
                va = Vec2::mul_sub(va, ma, p);
                wa -= ia * ra.cross(p);
                vb = Vec2::mul_add(vb, mb, p);
                wb += ib * rb.cross(p);
            }

            if c.rolling_resistance > 0.0 {
                let delta = -c.rolling_mass * (wb - wa);
                let old = c.rolling_impulse;
                let max_lambda = c.rolling_resistance * total_normal_impulse;
                c.rolling_impulse = min(max(old + delta, -max_lambda), max_lambda);
                let delta = c.rolling_impulse - old;
                wa -= ia * delta;
                wb += ib * delta;
            }
        }

        store(states, c.index_a, va, wa);
        store(states, c.index_b, vb, wb);
    }
}

/// Makes points that approached faster than `threshold` (m/s) and received an
/// impulse leave with `restitution` times their approach speed.
#[inline(always)]
pub(crate) fn apply_restitution(
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    threshold: f32,
) {
    for c in constraints {
        if c.restitution == 0.0 {
            continue;
        }
        let sa = load(states, c.index_a);
        let sb = load(states, c.index_b);
        let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
        let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);
        let (ma, ia, mb, ib) = (c.inv_mass_a, c.inv_i_a, c.inv_mass_b, c.inv_i_b);
        let normal = c.normal;

        for cp in &mut c.points[..c.point_count as usize] {
            // Skip slow approaches and speculative points that never touched.
            if cp.relative_velocity > -threshold || cp.total_normal_impulse == 0.0 {
                continue;
            }
            let (ra, rb) = (cp.anchor_a, cp.anchor_b);
            let vra = va + Vec2::scalar_cross(wa, ra);
            let vrb = vb + Vec2::scalar_cross(wb, rb);
            let vn = (vrb - vra).dot(normal);

            let mut impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let new_impulse = max(cp.normal_impulse + impulse, 0.0);
            impulse = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.total_normal_impulse += impulse;

            let p = normal * impulse;
            va = Vec2::mul_sub(va, ma, p);
            wa -= ia * ra.cross(p);
            vb = Vec2::mul_add(vb, mb, p);
            wb += ib * rb.cross(p);
        }

        store(states, c.index_a, va, wa);
        store(states, c.index_b, vb, wb);
    }
}

/// Copies the impulses back into the manifolds for warm starting next step.
/// `sims` must be in the order the constraints were prepared.
#[inline(always)]
pub(crate) fn store_impulses<'a>(
    constraints: &[ContactConstraint],
    sims: impl Iterator<Item = &'a mut ContactSim>,
) {
    for (c, sim) in constraints.iter().zip(sims) {
        let manifold = &mut sim.manifold;
        manifold.rolling_impulse = c.rolling_impulse;
        for (cp, mp) in c.points[..c.point_count as usize]
            .iter()
            .zip(&mut manifold.points)
        {
            mp.normal_impulse = cp.normal_impulse;
            mp.tangent_impulse = cp.tangent_impulse;
            mp.total_normal_impulse = cp.total_normal_impulse;
            mp.normal_velocity = cp.relative_velocity;
        }
    }
}
