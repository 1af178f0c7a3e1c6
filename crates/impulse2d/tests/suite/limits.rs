//! Limits no stricter than Box2D's (issue 16): any finite body position up to
//! `MAX_COORDINATE` (the bound the step itself keeps bodies within), so whatever a
//! body reaches by simulation can be set back; boxes thinner than the linear slop
//! (Box2D's 2 mm card), and a house of them that stands.

use crate::build;

use crate::stepping;

use impulse2d::collision::make_box;
use impulse2d::core::{HUGE, MAX_COORDINATE};
use impulse2d::pos::{Coord, to_pos};
use impulse2d::{BodyDef, BodyType, Error, Rot, Transform, Vec2, World, WorldTransform};
use impulse2d_scenes::solver2d::{CARD_HALF_HEIGHT, CARD_HALF_THICKNESS, CARD_LEAN};
use stepping::step_checked;

fn body_count(world: &World) -> usize {
    world.body_ids().count()
}

#[test]
fn any_position_up_to_max_coordinate_is_accepted() {
    let mut world = build::world();
    let far = [
        Vec2::new(100_000.0, -80_000.0),
        Vec2::new(1.0e7, 1.0e7),
        Vec2::new(-1.0e12, 3.0),
        Vec2::new(MAX_COORDINATE, -MAX_COORDINATE),
    ];
    for p in far {
        for body_type in [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic] {
            let body = world
                .create_body(&BodyDef {
                    body_type,
                    position: to_pos(p),
                    ..BodyDef::default()
                })
                .unwrap_or_else(|e| panic!("{p:?}: {e}"));
            build::add_box(&mut world, body, 0.5, 0.5);
            assert_eq!(world.body(body).unwrap().position(), to_pos(p));
        }
    }
    world.step(1.0 / 60.0, 4).unwrap();
    world.validate().unwrap();

    // Queries out there find what is there: a ray down onto the boxes 1e12 m
    // out (the f32 spacing there is 122 km, so only finding them is asserted),
    // and a box query around the 100 km ones.
    let filter = impulse2d::QueryFilter::default();
    let p = Vec2::new(-1.0e12, 3.0);
    let hit = world
        .cast_ray_closest(p + Vec2::new(0.0, 10.0), Vec2::new(0.0, -20.0), filter)
        .unwrap();
    assert!(hit.is_some());
    let mut found = 0;
    let around = Vec2::new(100_000.0, -80_000.0);
    world
        .overlap_aabb(
            impulse2d::collision::Aabb::new(
                around - Vec2::new(1.0, 1.0),
                around + Vec2::new(1.0, 1.0),
            ),
            filter,
            |_| {
                found += 1;
                true
            },
        )
        .unwrap();
    assert_eq!(found, 3);

    // Beyond MAX_COORDINATE, and non-finite: an error that creates nothing.
    let before = body_count(&world);
    let beyond = f32::from_bits(MAX_COORDINATE.to_bits() + 1);
    for p in [
        Vec2::new(beyond, 0.0),
        Vec2::new(0.0, -beyond),
        Vec2::new(f32::MAX, 0.0),
    ] {
        assert!(matches!(
            world.create_body(&BodyDef::dynamic(p)),
            Err(Error::OutOfRange {
                what: "body position",
                ..
            })
        ));
    }
    assert!(matches!(
        world.create_body(&BodyDef::dynamic(Vec2::new(f32::INFINITY, 0.0))),
        Err(Error::NonFinite { .. })
    ));
    assert_eq!(body_count(&world), before);
}

#[test]
fn set_transform_accepts_far_positions_and_refuses_beyond_without_change() {
    let mut world = build::world();
    let body = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    build::add_box(&mut world, body, 0.5, 0.5);
    let q = Rot::from_angle(0.3);
    for p in [
        Vec2::new(2.0 * HUGE, -3.0 * HUGE),
        Vec2::new(-5.0e15, 7.0e14),
    ] {
        world.body_mut(body).unwrap().set_transform(p, q).unwrap();
        assert_eq!(world.body(body).unwrap().position(), to_pos(p));
        world.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
    }
    let before = world.body(body).unwrap().transform();
    let beyond = Vec2::new(0.0, 2.0 * MAX_COORDINATE);
    assert!(matches!(
        world
            .body_mut(body)
            .unwrap()
            .set_transform(beyond, Rot::IDENTITY),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(world.body(body).unwrap().transform(), before);
    // A kinematic target is a position too.
    let kinematic = world
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            ..BodyDef::default()
        })
        .unwrap();
    let target = Transform::new(Vec2::new(0.0, 1.0e6), Rot::IDENTITY);
    world
        .body_mut(kinematic)
        .unwrap()
        .set_target_transform(target, 100.0)
        .unwrap();
}

/// A body thrown at the world's top speed from just inside 100 km (the old
/// limit) is 124 km out a minute later; its own position must be accepted back.
#[test]
fn a_position_reached_by_simulation_can_be_set_back() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let speed = 400.0; // WorldDef's default maximum linear speed, m/s.
    let body = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(speed, 0.0),
            ..BodyDef::dynamic(Vec2::new(HUGE - 10.0, 0.0))
        })
        .unwrap();
    build::add_box(&mut world, body, 0.5, 0.5);
    for _ in 0..60 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    let xf = world.body(body).unwrap().transform();
    // 1 s at 400 m/s, to within the f32 spacing out there (7.8 mm per step).
    assert!(
        (xf.p.x - (HUGE - 10.0 + speed) as Coord).abs() < 60.0 * 0.0079,
        "{xf:?}"
    );
    assert!(xf.p.x > HUGE as Coord);
    world
        .body_mut(body)
        .unwrap()
        .set_transform(xf.p, xf.q)
        .unwrap();
    assert_eq!(world.body(body).unwrap().transform(), xf);
    world.step(1.0 / 60.0, 4).unwrap();
    world.validate().unwrap();
}

/// Box2D's card house of 2 mm cards (`make_box(0.001, 0.2)`) stands for 10 s.
///
/// The bound, from the scene's layout (cards 0.4 m tall, 0.175 m apart, leaning
/// 25°): a leaning card's top corner is `h·sin 25° + t·cos 25°` = 85.4 mm from its
/// centre, so the two tops of a pair start 175 − 2·85.4 = 4.1 mm apart and each card
/// turns by about 2 mm / 0.4 m = 0.005 rad to close the gap; the first storey
/// starts 1.7 mm into the ground and each flat card 2.3 mm above the tops below
/// it, as does the next storey above the flat card. Settling therefore moves a
/// card of storey `k` (0-based) by at most about `(k + 1)·(1.7 + 2.3 + 2.3 + 2)` mm
/// = 8.3 mm per storey, 42 mm at the top of five, and turns it by at most a few
/// hundredths of a radian. A card that falls moves by at least a quarter of its
/// height (0.1 m) or turns by at least the lean (0.44 rad).
#[test]
fn card_house_of_two_millimetre_cards_stands() {
    let mut world = build::world();
    let scene = impulse2d_scenes::build("card_house", &mut world).unwrap();
    let card = make_box(CARD_HALF_THICKNESS, CARD_HALF_HEIGHT).unwrap();
    let h = CARD_HALF_HEIGHT;
    let t = CARD_HALF_THICKNESS;
    // Geometry of the layout, as in the scene (see the doc comment above).
    let reach = h * CARD_LEAN.sin() + t * CARD_LEAN.cos();
    let top_gap = 0.175 - 2.0 * reach;
    let sink = h * CARD_LEAN.cos() + t * CARD_LEAN.sin() - (h - 0.02);
    let lift = (h - 0.015) - t - (h * CARD_LEAN.cos() + t * CARD_LEAN.sin());
    let per_storey = sink + 2.0 * lift + top_gap / 2.0;
    assert!((per_storey - 0.0083).abs() < 0.0005, "{per_storey}");
    let max_move = 5.0 * per_storey;
    let max_turn = 0.05;
    assert!(card.vertices()[1].x - card.vertices()[0].x == 2.0 * t);

    let start: Vec<WorldTransform> = scene
        .bodies
        .iter()
        .map(|&b| world.body(b).unwrap().transform())
        .collect();
    assert_eq!(
        start.len(),
        5 * 2 + 4 * 2 + 3 * 2 + 2 * 2 + 2 + 4 + 3 + 2 + 1
    );
    for _ in 0..600 {
        step_checked(&mut world);
    }
    let mut worst = (0.0f32, 0.0f32);
    for (&b, s) in scene.bodies.iter().zip(&start) {
        let now = world.body(b).unwrap().transform();
        let moved = (now.p - s.p).length();
        let turned = s.q.relative_angle(now.q).abs();
        worst = (worst.0.max(moved), worst.1.max(turned));
        assert!(
            moved < max_move && turned < max_turn,
            "card {b:?} moved {moved} m, turned {turned} rad (bounds {max_move}, {max_turn})"
        );
    }
    println!(
        "card house after 10 s: largest move {:.4} m, turn {:.4} rad",
        worst.0, worst.1
    );
}
