//! Mass properties against Box2D's.

use super::support::{CASES, Mismatches, close, for_cases, vclose};
use crate::common::box2d;
use crate::common::rng::Rng;
use crate::common::shapes::random_polygon;
use impulse2d::Vec2;
use impulse2d::collision::{
    MassData, Polygon, compute_capsule_mass, compute_circle_mass, compute_polygon_mass,
};
use std::fmt::Debug;

/// Whether two mass data agree: mass and inertia to a relative `rel`, centre to
/// `abs` metres.
fn compare(ours: &MassData, theirs: &MassData, rel: f32, abs: f32) -> Result<(), String> {
    if !close(ours.mass, theirs.mass, rel * theirs.mass) {
        return Err("mass".into());
    }
    if !vclose(ours.center, theirs.center, abs) {
        return Err("center".into());
    }
    if !close(
        ours.rotational_inertia,
        theirs.rotational_inertia,
        rel * theirs.rotational_inertia,
    ) {
        return Err("inertia".into());
    }
    Ok(())
}

/// One random shape from `shape` of `density`: our mass data against Box2D's
/// (relative 1e-5, centre to 1e-6 m).
fn check_mass<S: Debug>(
    rng: &mut Rng,
    m: &mut Mismatches,
    density: f32,
    shape: fn(&mut Rng) -> S,
    ours: fn(&S, f32) -> impulse2d::Result<MassData>,
    theirs: fn(&S, f32) -> MassData,
) {
    let shape = shape(rng);
    let (ours, theirs) = (ours(&shape, density).unwrap(), theirs(&shape, density));
    let inputs = || format!("{shape:?} density {density}");
    m.check_outputs(compare(&ours, &theirs, 1e-5, 1e-6), inputs, &ours, &theirs);
}

/// `compute_circle_mass` and `compute_capsule_mass` against Box2D's (relative 1e-5).
#[test]
fn circle_and_capsule_mass_match() {
    for_cases(0x3A55, "circle/capsule mass", CASES, |rng, _, m| {
        let density = rng.log_range(0.1, 1000.0);
        check_mass(
            rng,
            m,
            density,
            Rng::circle,
            compute_circle_mass,
            box2d::compute_circle_mass,
        );
        check_mass(
            rng,
            m,
            density,
            Rng::capsule,
            compute_capsule_mass,
            box2d::compute_capsule_mass,
        );
    });
}

/// Area, centroid and polar moment about the centroid of a counter-clockwise
/// polygon, in f64 (triangle fan from the first point).
fn polygon_integrals(points: &[(f64, f64)]) -> (f64, (f64, f64), f64) {
    let (ox, oy) = points[0];
    let (mut area, mut cx, mut cy, mut i0) = (0.0, 0.0, 0.0, 0.0);
    for k in 1..points.len() - 1 {
        let (e1x, e1y) = (points[k].0 - ox, points[k].1 - oy);
        let (e2x, e2y) = (points[k + 1].0 - ox, points[k + 1].1 - oy);
        let d = e1x * e2y - e1y * e2x;
        area += 0.5 * d;
        cx += d * (e1x + e2x) / 6.0;
        cy += d * (e1y + e2y) / 6.0;
        // ∫(x² + y²) over the triangle (0, e1, e2).
        i0 += d / 12.0 * (e1x * e1x + e2x * e1x + e2x * e2x + e1y * e1y + e2y * e1y + e2y * e2y);
    }
    let (cx, cy) = (cx / area, cy / area);
    let polar = i0 - area * (cx * cx + cy * cy);
    (area, (ox + cx, oy + cy), polar)
}

/// The outline of a rounded polygon: each corner's arc from the previous edge's
/// normal to the next one's, in `k` straight pieces.
fn rounded_outline(p: &Polygon, k: usize) -> Vec<(f64, f64)> {
    let n = p.count();
    let r = p.radius() as f64;
    let mut out = Vec::new();
    for i in 0..n {
        let v = p.vertices()[i];
        let n0 = p.normals()[(i + n - 1) % n];
        let n1 = p.normals()[i];
        let a0 = (n0.y as f64).atan2(n0.x as f64);
        let mut a1 = (n1.y as f64).atan2(n1.x as f64);
        while a1 < a0 {
            a1 += std::f64::consts::TAU;
        }
        for j in 0..=k {
            let a = a0 + (a1 - a0) * j as f64 / k as f64;
            out.push((v.x as f64 + r * a.cos(), v.y as f64 + r * a.sin()));
        }
    }
    out
}

/// `compute_polygon_mass` against `b2ComputePolygonMass`.
///
/// Without rounding: the same mass, centre and inertia (relative 1e-4).
///
/// With rounding the two differ on purpose: Box2D approximates a rounded polygon
/// by pushing each vertex out 1.412·radius along its corner bisector, which is
/// exact only for right-angled corners' area and overestimates it there by about
/// (4 − π)·radius² per four corners; ours integrates the rounded shape exactly.
/// There the test checks ours against an independent integration of the rounded
/// outline (each corner arc in 256 pieces, f64): mass and inertia to relative
/// 1e-3, centre to 1e-3 of the shape's size.
#[test]
fn polygon_mass_matches() {
    let mut worst_box2d_error = 0.0f64;
    for_cases(0x9A55, "polygon mass", CASES, |rng, _, m| {
        let density = rng.log_range(0.1, 1000.0);
        let poly = random_polygon(rng);
        let ours = compute_polygon_mass(&poly, density).unwrap();
        let theirs = box2d::compute_polygon_mass(&poly, density);
        if poly.radius() == 0.0 {
            m.check_outputs(
                compare(&ours, &theirs, 1e-4, 1e-5),
                || format!("{poly:?} density {density}"),
                &ours,
                &theirs,
            );
            return;
        }
        let outline = rounded_outline(&poly, 256);
        let (area, (cx, cy), polar) = polygon_integrals(&outline);
        let d = density as f64;
        let exact = MassData {
            mass: (d * area) as f32,
            center: Vec2::new(cx as f32, cy as f32),
            rotational_inertia: (d * polar) as f32,
        };
        let size = area.sqrt() as f32;
        worst_box2d_error =
            worst_box2d_error.max((theirs.mass as f64 - d * area).abs() / (d * area));
        m.check(compare(&ours, &exact, 1e-3, 1e-3 * size), || {
            format!(
                "{poly:?} density {density}\nours {ours:?}\nintegrated {exact:?}\nBox2D {theirs:?}"
            )
        });
    });
    eprintln!(
        "polygon mass: Box2D's rounded-polygon mass is off by up to {:.2}%",
        100.0 * worst_box2d_error
    );
}
