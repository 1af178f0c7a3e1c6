//! Custom filter and pre-solve callbacks; the one-way platform scene.

use crate::build;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use impulse2d::collision::{make_box, make_offset_box};
use impulse2d::pos::coord_to_f32;
use impulse2d::{BodyDef, Rot, ShapeDef, ShapeId, Vec2, World};
use impulse2d_scenes::{PLATFORM_TOP, one_way_platform};

const DT: f32 = 1.0 / 60.0;

fn step(world: &mut World) {
    world.step(DT, 4).unwrap();
    if let Err(e) = world.validate() {
        panic!("invalid world after step {}: {e}", world.step_count());
    }
}

/// The box jumps at 9 m/s from the ground: its centre would rise to
/// 0.5 + 9²/(2·10) ≈ 4.55 m, its bottom above the platform top (3.1 m), and
/// it lands on the platform with its centre at 3.6 m.
#[test]
fn a_box_jumps_up_through_a_one_way_platform_and_lands_on_it() {
    let mut world = build::world();
    let scene = one_way_platform(&mut world, 9.0).unwrap();
    let rest_height = PLATFORM_TOP + 0.5;
    let mut highest = f32::MIN;
    let mut came_down = false;
    let mut begins = 0;
    let mut ends = 0;
    for _ in 0..300 {
        step(&mut world);
        let y = coord_to_f32(world.body(scene.body).unwrap().position().y);
        let vy = world.body(scene.body).unwrap().linear_velocity().y;
        highest = highest.max(y);
        came_down |= vy < 0.0;
        // Once above the platform it never sinks back through it.
        if highest > rest_height + 0.1 {
            assert!(y > rest_height - 0.05, "fell through the platform: y = {y}");
        }
        let events = world.contact_events();
        let involves =
            |a: ShapeId, b: ShapeId| a == scene.platform_shape || b == scene.platform_shape;
        begins += events
            .begin
            .iter()
            .filter(|e| involves(e.shape_id_a, e.shape_id_b))
            .count();
        ends += events
            .end
            .iter()
            .filter(|e| involves(e.shape_id_a, e.shape_id_b))
            .count();
    }
    assert!(highest > 4.3, "did not get through: highest {highest}");
    assert!(came_down);
    let y = coord_to_f32(world.body(scene.body).unwrap().position().y);
    assert!((y - rest_height).abs() < 0.02, "rests at {y}");
    assert!(world.body(scene.body).unwrap().linear_velocity().length() < 0.01);
    // Contacts with the platform pair up, and the last one (landing) lasts.
    // (Leaving the top on the way up, the box is briefly within the
    // speculative distance above the platform, which counts as touching.)
    assert!(
        begins == ends + 1 && begins <= 2,
        "{begins} begins, {ends} ends"
    );
    let touching = world.body(scene.body).unwrap().contacts();
    assert!(
        touching
            .iter()
            .any(|c| c.shape_id_a == scene.platform_shape || c.shape_id_b == scene.platform_shape)
    );

    // Without the callback the platform is solid: the box bumps its head and
    // falls back to the ground.
    let mut world = build::world();
    let scene = one_way_platform(&mut world, 9.0).unwrap();
    world.clear_pre_solve();
    let mut highest = f32::MIN;
    for _ in 0..300 {
        step(&mut world);
        highest = highest.max(coord_to_f32(world.body(scene.body).unwrap().position().y));
    }
    // Its top stops at the platform's underside (2.9 m), within a few cm.
    assert!(highest < PLATFORM_TOP - 0.2 - 0.5 + 0.05, "{highest}");
    let y = world.body(scene.body).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.02, "rests at {y}");
}

#[test]
fn the_one_way_platform_scene_is_registered() {
    let mut world = build::world();
    let scene = impulse2d_scenes::build("events/one_way_platform", &mut world).unwrap();
    assert_eq!(scene.bodies.len(), 1);
}

/// The custom filter vetoes contacts between a box and the ground: the box
/// falls through. Removing the filter lets new pairs collide again.
#[test]
fn a_custom_filter_vetoes_new_contacts() {
    let mut world = build::world();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let slab = make_offset_box(20.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let ground_shape = world
        .create_polygon_shape(ground, &ShapeDef::default(), &slab)
        .unwrap();
    let make_box_body = |world: &mut World, x: f32| {
        let b = world
            .create_body(&BodyDef::dynamic(Vec2::new(x, 2.0)))
            .unwrap();
        let s = build::add_box(world, b, 0.5, 0.5);
        (b, s)
    };
    let (ghost, ghost_shape) = make_box_body(&mut world, -2.0);
    let (solid, _) = make_box_body(&mut world, 2.0);
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    world.set_custom_filter(move |a, b| {
        counter.fetch_add(1, Ordering::Relaxed);
        !(a == ghost_shape || b == ghost_shape) || !(a == ground_shape || b == ground_shape)
    });
    for _ in 0..120 {
        step(&mut world);
    }
    assert!(calls.load(Ordering::Relaxed) >= 2);
    assert!(world.body(ghost).unwrap().position().y < -5.0);
    assert!((world.body(solid).unwrap().position().y - 0.5).abs() < 0.02);

    world.clear_custom_filter();
    let (again, _) = make_box_body(&mut world, 0.0);
    for _ in 0..120 {
        step(&mut world);
    }
    assert!((world.body(again).unwrap().position().y - 0.5).abs() < 0.02);
}

/// The pre-solve callback sees every touching contact of a shape that asked
/// for it, every step (contacts it watches are not recycled), and only those.
#[test]
fn pre_solve_is_called_for_touching_contacts_of_shapes_that_ask() {
    let mut world = build::world();
    build::ground_slab(&mut world, 20.0);
    let mut watched = Vec::new();
    for (i, ask) in [true, false].into_iter().enumerate() {
        let b = world
            .create_body(&BodyDef::dynamic(Vec2::new(3.0 * i as f32, 0.5)))
            .unwrap();
        let def = ShapeDef {
            enable_pre_solve_events: ask,
            ..Default::default()
        };
        let s = world
            .create_polygon_shape(b, &def, &make_box(0.5, 0.5).unwrap())
            .unwrap();
        if ask {
            watched.push(s);
        }
    }
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let watched_shape = watched[0];
    world.set_pre_solve(move |a, b, manifold| {
        assert!(a == watched_shape || b == watched_shape);
        assert!(manifold.point_count > 0);
        counter.fetch_add(1, Ordering::Relaxed);
        true
    });
    world.enable_sleeping(false);
    for _ in 0..100 {
        step(&mut world);
    }
    assert_eq!(calls.load(Ordering::Relaxed), 100);
    // Switching the shape's pre-solve events off stops the calls.
    world
        .shape_mut(watched_shape)
        .unwrap()
        .set_pre_solve_events_enabled(false);
    assert!(
        !world
            .shape(watched_shape)
            .unwrap()
            .pre_solve_events_enabled()
    );
    for _ in 0..10 {
        step(&mut world);
    }
    assert_eq!(calls.load(Ordering::Relaxed), 100);
}
