//! `compute_hull` on up to 12 arbitrary points (NaN, infinities, huge values,
//! duplicates, near-duplicates, collinear runs), then the polygon and its mass.
//!
//! Always: no panic; more than 8 points, or any point non-finite or beyond `±HUGE`,
//! is an `Err`. On `Ok`: `validate_hull` holds, every hull point is an input
//! point, `make_polygon` succeeds for any finite radius ≥ 0, and the polygon's
//! mass, centre and inertia are finite and non-negative (positive mass for a
//! positive density). `make_offset_polygon` with a finite transform never panics,
//! and its polygon's mass is finite too.
#![no_main]

use impulse2d::collision::{
    compute_hull, compute_polygon_mass, make_offset_polygon, make_polygon, validate_hull,
};
use impulse2d::core::{HUGE, MAX_POLYGON_VERTICES};
use impulse2d_fuzz::{Bytes, decode_points, finite2, in_range};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let points = decode_points(&mut b, 12);
    let result = compute_hull(&points);
    let all_in_range = points.iter().all(|p| in_range(p.x) && in_range(p.y));
    if points.len() > MAX_POLYGON_VERTICES || !all_in_range {
        assert!(result.is_err(), "accepted {points:?}");
    }
    let Ok(hull) = result else {
        return;
    };
    assert!(
        validate_hull(&hull),
        "invalid hull {hull:?} from {points:?}"
    );
    assert!(
        hull.points().iter().all(|h| points.contains(h)),
        "hull {hull:?} has a point not in the input {points:?}"
    );

    let radius = b.finite_f32(HUGE).abs();
    let density = b.finite_f32(HUGE).abs();
    let polygon = match make_polygon(&hull, radius) {
        Ok(p) => p,
        Err(e) => panic!("make_polygon({hull:?}, {radius}) failed: {e}"),
    };
    let check_mass = |polygon: &impulse2d::collision::Polygon| {
        let mass = match compute_polygon_mass(polygon, density) {
            Ok(m) => m,
            Err(e) => panic!("compute_polygon_mass({polygon:?}, {density}) failed: {e}"),
        };
        assert!(
            mass.mass.is_finite()
                && mass.mass >= 0.0
                && mass.rotational_inertia.is_finite()
                && mass.rotational_inertia >= 0.0
                && finite2(mass.center),
            "mass {mass:?} of {polygon:?} at density {density}"
        );
        if density >= 1.0e-6 {
            assert!(
                mass.mass > 0.0,
                "zero mass {mass:?} of {polygon:?} at density {density}"
            );
        }
    };
    check_mass(&polygon);

    let xf = b.transform();
    if let Ok(offset) = make_offset_polygon(&hull, xf, radius) {
        check_mass(&offset);
    }
});
