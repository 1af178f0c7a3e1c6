//! The velocity integration on [`LANES`] consecutive bodies at once
//! (x86-64, both builds).
//!
//! Each lane repeats the scalar `integrate_velocities` arithmetic (in
//! `solver/mod.rs`) operation for operation, so the results are its bits:
//! the two damping divisions of eight bodies are two `vdivps` (four `divps`
//! in the SSE2 build) instead of sixteen `divss`. The velocities travel as the first rows of the states
//! (`rows::load_heads` and `rows::store_heads`); the sims' fields are read
//! one by one. A group of eight in which any body is quarantined or gets a
//! velocity that is not sane is left to the scalar code whole, which stops
//! those bodies as it always does.

use super::rows;
use crate::body::{BodySim, BodyState, flags};
use crate::math::Vec2;
use crate::simd::isa::Isa;
use crate::solver::VelocityStep;
use crate::solver::lanes::{FloatW, LANES, Lane, LaneMask};

/// Integrates the velocities of `states` (with their `sims`, as many) over
/// `h` seconds under `gravity` (m/s²) in groups of [`LANES`], and hands
/// `scalar` (the scalar kernel) the groups it must do itself and the last
/// bodies that fill no group. With `first` it works out each grouped body's
/// velocity change and damping factors from its sim and keeps them in
/// `steps` (one per body); otherwise it reads them there (kept by the first
/// substep, the same operations on the same inputs: the same bits).
#[inline(always)]
pub(crate) fn integrate_velocities<I: Isa>(
    isa: I,
    (sims, steps, first): (&[BodySim], &mut [VelocityStep], bool),
    states: &mut [BodyState],
    h: f32,
    gravity: Vec2,
    scalar: impl Fn(&[BodySim], &mut [BodyState]),
) {
    debug_assert_eq!(sims.len(), states.len());
    debug_assert_eq!(sims.len(), steps.len());
    let m = isa;
    let (one, zero) = (m.splat(1.0), m.splat(0.0));
    let (gx, gy, hw) = (m.splat(gravity.x), m.splat(gravity.y), m.splat(h));
    let (sim_groups, sim_rest) = sims.as_chunks::<LANES>();
    let (state_groups, state_rest) = states.as_chunks_mut::<LANES>();
    let (step_groups, _) = steps.as_chunks_mut::<LANES>();
    for ((s, st), kept) in sim_groups
        .iter()
        .zip(state_groups.iter_mut())
        .zip(step_groups.iter_mut())
    {
        let ([vx, vy, w], flag_rows) = rows::load_heads(m, st);
        let [dvx, dvy, dw, linear_damping, angular_damping] = if first {
            let field = |f: fn(&BodySim) -> f32| m.ld(FloatW(std::array::from_fn(|k| f(&s[k]))));
            // The scalar kernel's operations, lane by lane.
            let linear_damping = one / (one + hw * field(|s| s.linear_damping));
            let angular_damping = one / (one + hw * field(|s| s.angular_damping));
            let inv_mass = field(|s| s.inv_mass);
            let gravity_scale = inv_mass.gt(zero).select(field(|s| s.gravity_scale), zero);
            let (h_inv_mass, h_gravity) = (hw * inv_mass, hw * gravity_scale);
            let dvx = field(|s| s.force.x) * h_inv_mass + gx * h_gravity;
            let dvy = field(|s| s.force.y) * h_inv_mass + gy * h_gravity;
            let dw = hw * field(|s| s.inv_inertia) * field(|s| s.torque);
            let [dvx_l, dvy_l, dw_l, ld_l, ad_l] =
                [dvx, dvy, dw, linear_damping, angular_damping].map(Lane::lanes);
            for (k, step) in kept.iter_mut().enumerate() {
                *step = VelocityStep {
                    dv: Vec2::new(dvx_l.0[k], dvy_l.0[k]),
                    dw: dw_l.0[k],
                    linear_damping: ld_l.0[k],
                    angular_damping: ad_l.0[k],
                };
            }
            [dvx, dvy, dw, linear_damping, angular_damping]
        } else {
            let field =
                |f: fn(&VelocityStep) -> f32| m.ld(FloatW(std::array::from_fn(|k| f(&kept[k]))));
            [
                field(|k| k.dv.x),
                field(|k| k.dv.y),
                field(|k| k.dw),
                field(|k| k.linear_damping),
                field(|k| k.angular_damping),
            ]
        };
        let vx = dvx + linear_damping * vx;
        let vy = dvy + linear_damping * vy;
        let w = dw + angular_damping * w;
        let sane = ((vx * vx + vy * vy) + w * w).finite();
        if sane.not().any() || rows::any_flag(flag_rows, flags::QUARANTINED_VELOCITY) {
            scalar(s, st);
        } else {
            rows::store_heads(st, [vx, vy, w], flag_rows);
        }
    }
    scalar(sim_rest, state_rest);
}

/// Advances the position deltas of `states` over `h` seconds in groups of
/// [`LANES`]: `dp += h·v`, and the rotation delta turned by `h·w` and
/// renormalised, each lane the scalar kernel's operations (`integrate_positions`
/// in `solver/mod.rs`, `Rot::integrate`), so the same bits: the eight square
/// roots and divisions of a group are one `vsqrtps` and one `vdivps` (two of
/// each in the SSE2 build) instead of eight `sqrtss` and `divss`, whose latency
/// bounds the scalar loop. The groups in which a body has a motion lock, a
/// speed above `max_linear` (m/s) or a turn rate above `max_angular` (rad/s)
/// go to `scalar` whole, which clamps and locks them as always; so do the last
/// bodies that fill no group.
#[inline(always)]
pub(crate) fn integrate_positions<I: Isa>(
    isa: I,
    states: &mut [BodyState],
    h: f32,
    (max_linear, max_angular): (f32, f32),
    scalar: impl Fn(&mut [BodyState]),
) {
    let m = isa;
    let (one, zero, hw) = (m.splat(1.0), m.splat(0.0), m.splat(h));
    let linear_cap = m.splat(max_linear * max_linear);
    let angular_cap = m.splat(max_angular * max_angular);
    let locks = flags::LOCK_LINEAR_X | flags::LOCK_LINEAR_Y | flags::LOCK_ANGULAR_Z;
    let (groups, rest) = states.as_chunks_mut::<LANES>();
    for st in groups {
        let ([vx, vy, w], flag_rows) = rows::load_heads(m, st);
        if rows::any_flag(flag_rows, locks)
            || (vx * vx + vy * vy).gt(linear_cap).any()
            || (w * w).gt(angular_cap).any()
        {
            scalar(st);
            continue;
        }
        let [dpx, dpy, qc, qs] = rows::load_tails(m, st);
        let (dpx, dpy) = (dpx + hw * vx, dpy + hw * vy);
        // `Rot::integrate(h·w)`: a first-order turn, then back to unit length
        // (the identity where the length is zero).
        let turn = hw * w;
        let (c, s) = (qc - turn * qs, qs + turn * qc);
        let length = (s * s + c * c).sqrt();
        let inv = one / length;
        let nonzero = length.ne(zero);
        let (qc, qs) = (nonzero.select(c * inv, one), nonzero.select(s * inv, zero));
        rows::store_tails(st, [dpx, dpy, qc, qs]);
    }
    scalar(rest);
}

#[cfg(test)]
mod tests {
    use super::super::prepare_tests::value;
    use super::super::rng::Rng;
    use crate::body::{BodySim, BodyState, flags};
    use crate::math::{Rot, Vec2};
    use crate::simd::SimdPath;
    use crate::solver::{StepContext, VelocityStep, integrate_positions, integrate_velocities};

    /// On 400 random sets of 1 to 40 bodies (zero and awkward masses,
    /// dampings, forces and velocities, some bodies quarantined already),
    /// integrating them all at once (eight at a time where the build does)
    /// gives the bits of integrating them one by one (the scalar loop), on
    /// both builds where the CPU runs them.
    #[test]
    fn integrate_velocities_in_groups_matches_one_by_one() {
        let mut paths = vec![SimdPath::Baseline];
        if SimdPath::avx2_available() {
            paths.push(SimdPath::Avx2);
        }
        let mut rng = Rng::new(0x5EED_0018);
        let (mut stopped, mut quarantined, mut moved) = (0, 0, 0);
        for _ in 0..400 {
            let n = 1 + rng.below(40);
            // One awkward value in a group of eight now and then, most
            // groups without any.
            let odd = if rng.chance(0.5) { 0.0 } else { 0.01 };
            let sims: Vec<BodySim> = (0..n)
                .map(|_| {
                    let mut s = BodySim::REST;
                    s.force = Vec2::new(value(&mut rng, -50.0, 50.0, odd), rng.range(-50.0, 50.0));
                    s.torque = value(&mut rng, -10.0, 10.0, odd);
                    s.inv_mass = if rng.chance(0.2) {
                        0.0
                    } else {
                        value(&mut rng, 0.01, 5.0, odd)
                    };
                    s.inv_inertia = if rng.chance(0.2) {
                        0.0
                    } else {
                        rng.range(0.01, 5.0)
                    };
                    s.linear_damping = if rng.chance(0.5) {
                        0.0
                    } else {
                        rng.range(0.0, 2.0)
                    };
                    s.angular_damping = if rng.chance(0.5) {
                        0.0
                    } else {
                        value(&mut rng, 0.0, 2.0, odd)
                    };
                    s.gravity_scale = rng.range(-1.0, 2.0);
                    s
                })
                .collect();
            let states: Vec<BodyState> = (0..n)
                .map(|_| BodyState {
                    linear_velocity: Vec2::new(
                        value(&mut rng, -20.0, 20.0, odd),
                        rng.range(-20.0, 20.0),
                    ),
                    angular_velocity: value(&mut rng, -5.0, 5.0, odd),
                    flags: (rng.next_u64() as u32) & !flags::QUARANTINED_VELOCITY
                        | if rng.chance(0.01) {
                            flags::QUARANTINED_VELOCITY
                        } else {
                            0
                        },
                    delta_position: Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                    delta_rotation: Rot::from_angle(rng.range(-3.0, 3.0)),
                })
                .collect();
            let ctx = StepContext::for_tests(
                rng.range(0.001, 0.02),
                Vec2::new(rng.range(-2.0, 2.0), rng.range(-20.0, 0.0)),
            );
            // Two substeps: the first keeps the steps (written over
            // garbage), the second reads them; one by one, every body is
            // integrated from its sim both times (no group of eight).
            let garbage = VelocityStep {
                dv: Vec2::new(f32::NAN, 7.0),
                dw: -3.0,
                linear_damping: 0.5,
                angular_damping: f32::INFINITY,
            };
            for &simd in &paths {
                let mut all = states.clone();
                let mut steps = vec![garbage; n];
                for first in [true, false] {
                    integrate_velocities(simd, &sims, &mut steps, &mut all, &ctx, first);
                }
                let mut one = states.clone();
                for i in 0..n {
                    for first in [true, false] {
                        let (s, st) = (&sims[i..=i], &mut one[i..=i]);
                        integrate_velocities(simd, s, &mut [garbage], st, &ctx, first);
                    }
                }
                // The words the integration writes as bits; the rest as stored.
                let head = |s: &BodyState| {
                    let v = [s.linear_velocity.x, s.linear_velocity.y, s.angular_velocity];
                    (
                        v.map(f32::to_bits),
                        s.flags,
                        s.delta_position,
                        s.delta_rotation,
                    )
                };
                for (i, (a, b)) in all.iter().zip(&one).enumerate() {
                    assert_eq!(head(a), head(b), "{simd} body {i} of {n}");
                }
                for (before, after) in states.iter().zip(&all) {
                    let q = flags::QUARANTINED_VELOCITY;
                    quarantined += usize::from(before.flags & q != 0);
                    stopped += usize::from(before.flags & q == 0 && after.flags & q != 0);
                    moved += usize::from(after.linear_velocity != before.linear_velocity);
                }
            }
        }
        assert!(
            stopped > 50 && quarantined > 20 && moved > 5000,
            "{stopped} {quarantined} {moved}"
        );
    }

    /// On 400 random sets of 1 to 40 bodies (speeds and turn rates below and
    /// above the caps, motion locks, fast rotation allowed or not, zero and
    /// awkward rotations and velocities), integrating the positions of all at
    /// once (eight at a time where the build does) gives the bits of
    /// integrating them one by one (the scalar loop), on both builds where
    /// the CPU runs them.
    #[test]
    fn integrate_positions_in_groups_matches_one_by_one() {
        let mut paths = vec![SimdPath::Baseline];
        if SimdPath::avx2_available() {
            paths.push(SimdPath::Avx2);
        }
        let mut rng = Rng::new(0x5EED_0027);
        let (mut capped, mut turned) = (0, 0);
        for _ in 0..400 {
            let n = 1 + rng.below(40);
            let odd = if rng.chance(0.5) { 0.0 } else { 0.01 };
            let rare = if rng.chance(0.5) { 0.0 } else { 0.05 };
            let ctx = StepContext::for_tests(rng.range(0.001, 0.02), Vec2::ZERO);
            let states: Vec<BodyState> = (0..n)
                .map(|_| {
                    let mut flags = 0;
                    for bit in [
                        flags::LOCK_LINEAR_X,
                        flags::LOCK_LINEAR_Y,
                        flags::LOCK_ANGULAR_Z,
                        flags::ALLOW_FAST_ROTATION,
                        flags::IS_SPEED_CAPPED,
                    ] {
                        if rng.chance(rare) {
                            flags |= bit;
                        }
                    }
                    let speed = if rng.chance(rare) { 900.0 } else { 30.0 };
                    let spin = if rng.chance(rare) { 5000.0 } else { 20.0 };
                    let angle = rng.range(-4.0, 4.0);
                    let rotation = if rng.chance(0.02) {
                        Rot { c: 0.0, s: 0.0 }
                    } else {
                        Rot::from_angle(angle)
                    };
                    BodyState {
                        linear_velocity: Vec2::new(
                            value(&mut rng, -speed, speed, odd),
                            rng.range(-speed, speed),
                        ),
                        angular_velocity: value(&mut rng, -spin, spin, odd),
                        flags,
                        delta_position: Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                        delta_rotation: rotation,
                    }
                })
                .collect();
            for &simd in &paths {
                let mut all = states.clone();
                integrate_positions(simd, &mut all, &ctx);
                let mut one = states.clone();
                for i in 0..n {
                    integrate_positions(simd, &mut one[i..=i], &ctx);
                }
                let bits = |s: &BodyState| {
                    let words = [
                        s.linear_velocity.x,
                        s.linear_velocity.y,
                        s.angular_velocity,
                        s.delta_position.x,
                        s.delta_position.y,
                        s.delta_rotation.c,
                        s.delta_rotation.s,
                    ];
                    (words.map(f32::to_bits), s.flags)
                };
                for (i, (a, b)) in all.iter().zip(&one).enumerate() {
                    assert_eq!(bits(a), bits(b), "{simd} body {i} of {n}");
                }
                for (before, after) in states.iter().zip(&all) {
                    let cap = flags::IS_SPEED_CAPPED;
                    capped += usize::from(before.flags & cap == 0 && after.flags & cap != 0);
                    turned += usize::from(after.delta_rotation != before.delta_rotation);
                }
            }
        }
        assert!(capped > 50 && turned > 5000, "{capped} {turned}");
    }
}
