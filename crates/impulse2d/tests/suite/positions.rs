//! The build-independent position checks (`pos::is_valid_position`,
//! `is_valid_world_transform`, `is_double_precision`), in the default build
//! and, through `.ci/run`'s large-world section, with `f64` positions.

use impulse2d::math::{Rot, Transform, Vec2};
use impulse2d::pos::{
    Coord, is_double_precision, is_valid_position, is_valid_world_transform, to_pos,
    to_world_transform,
};

#[test]
fn positions_are_valid_exactly_when_finite() {
    assert!(is_valid_position(to_pos(Vec2::new(3.0, -4.0))));
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert!(!is_valid_position(to_pos(Vec2::new(bad, 1.0))), "x = {bad}");
        assert!(!is_valid_position(to_pos(Vec2::new(1.0, bad))), "y = {bad}");
    }
}

#[cfg(feature = "large-world")]
#[test]
fn f64_positions_past_the_f32_range_are_valid() {
    // 1e300 m overflows f32 but is a finite f64 coordinate.
    assert!(is_valid_position(impulse2d::Pos::new(1e300, -1e300)));
    assert!(!is_valid_position(impulse2d::Pos::new(f64::NAN, 0.0)));
}

#[test]
fn world_transforms_need_a_finite_position_and_a_unit_rotation() {
    let good = to_world_transform(Transform::new(Vec2::new(1.0, 2.0), Rot::from_angle(0.7)));
    assert!(is_valid_world_transform(good));
    let mut lost = good;
    lost.p = to_pos(Vec2::new(f32::NAN, 0.0));
    assert!(!is_valid_world_transform(lost));
    let mut skewed = good;
    skewed.q = Rot { c: 2.0, s: 0.0 };
    assert!(!is_valid_world_transform(skewed));
}

#[test]
fn double_precision_follows_the_feature() {
    assert_eq!(is_double_precision(), cfg!(feature = "large-world"));
    assert_eq!(std::mem::size_of::<Coord>() == 8, is_double_precision());
}
