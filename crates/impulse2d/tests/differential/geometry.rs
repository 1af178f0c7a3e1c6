//! Shape constructors and sweeps against Box2D's.

use super::support::{CASES, for_cases, vclose};
use crate::common::box2d::{self, ToB2};
use boxdd_sys::ffi as c;
use impulse2d::Sweep;
use impulse2d::collision::make_offset_rounded_box;

/// `make_offset_rounded_box` builds the same polygon as `b2MakeOffsetRoundedBox`:
/// same vertex order, normals (up to the rounding of the corners, ours being the
/// edges' normals), centroid and radius.
#[test]
fn offset_rounded_box_matches() {
    for_cases(0xB0C5, "make_offset_rounded_box", CASES, |rng, _, m| {
        let (hx, hy) = (0.5 * rng.size(), 0.5 * rng.size());
        let center = rng.vec_in(3.0);
        let q = rng.rot();
        let radius = if rng.chance(0.5) {
            0.2 * rng.size()
        } else {
            0.0
        };
        let ours = make_offset_rounded_box(hx, hy, center, q, radius).unwrap();
        // SAFETY: by-value arguments.
        let theirs =
            unsafe { c::b2MakeOffsetRoundedBox(hx, hy, center.to_b2(), q.to_b2(), radius) };
        let check = || -> Result<(), String> {
            if ours.count() != theirs.count as usize {
                return Err("count".into());
            }
            for i in 0..ours.count() {
                if !vclose(
                    ours.vertices()[i],
                    box2d::vec(theirs.vertices[i]),
                    1e-6 * (1.0 + center.length() + hx + hy),
                ) {
                    return Err(format!("vertex {i}"));
                }
                // Ours is the normal of the edge between the rounded corners,
                // Box2D's the rotated axis: they differ by the corners' rounding
                // (a few ulps of the coordinates) over the edge's length.
                let edge = (ours.vertices()[(i + 1) % 4] - ours.vertices()[i]).length();
                let rounding = 4.0 * f32::EPSILON * (center.length() + hx + hy) / edge;
                if !vclose(
                    ours.normals()[i],
                    box2d::vec(theirs.normals[i]),
                    1e-6 + rounding,
                ) {
                    return Err(format!("normal {i}"));
                }
            }
            if !vclose(ours.centroid(), box2d::vec(theirs.centroid), 1e-6)
                || ours.radius() != theirs.radius
            {
                return Err("centroid or radius".into());
            }
            Ok(())
        };
        m.check(check(), || format!("hx {hx} hy {hy} center {center:?} q {q:?} radius {radius}\nours {ours:?}\nBox2D {theirs:?}"));
    });
}

/// `Sweep::transform_at` against `b2GetSweepTransform`. Box2D interpolates the
/// rotation by normalised lerp of `q1`, `q2`, we interpolate the angle: the two
/// agree at both ends and along a pure translation, and differ in between by the
/// nlerp error: for a turn of Δ rad the nlerp angle `atan2(t·sin Δ, 1 − t + t·cos Δ)`
/// departs from `t·Δ` by at most 0.0169·|Δ|³ (worked out numerically for Δ = 1:
/// 0.01689 rad at t ≈ 0.22; Δ = 0.5 gives 0.00203 ≈ 0.01689/8).
#[test]
fn sweep_transform_matches() {
    for_cases(0x5EE9, "Sweep::transform_at", CASES, |rng, i, m| {
        let a1 = rng.range(-3.0, 3.0);
        let turn = if i % 2 == 0 {
            0.0
        } else {
            rng.range(-1.0, 1.0)
        };
        let sweep = Sweep {
            local_center: rng.vec_in(0.5),
            c1: rng.vec_in(3.0),
            c2: rng.vec_in(3.0),
            a1,
            a2: a1 + turn,
        };
        let t = match i % 5 {
            0 => 0.0,
            1 => 1.0,
            _ => rng.unit(),
        };
        let ours = sweep.transform_at(t);
        let theirs = box2d::sweep_transform(&sweep, t);
        let angle_tol = if t == 0.0 || t == 1.0 {
            2e-6
        } else {
            2e-6 + 0.0169 * turn.abs().powi(3)
        };
        let pos_tol = 1e-5 + angle_tol * sweep.local_center.length();
        let angle_diff = ours.q.inv_mul(theirs.q).angle().abs();
        let check = if angle_diff > angle_tol {
            Err(format!("rotation differs by {angle_diff} rad"))
        } else if !vclose(ours.p, theirs.p, pos_tol) {
            Err("position".to_string())
        } else {
            Ok(())
        };
        m.check_outputs(check, || format!("{sweep:?} t {t}"), &ours, &theirs);
    });
}
