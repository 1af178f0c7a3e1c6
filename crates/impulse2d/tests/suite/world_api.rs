//! The public API of the world: ids, bad input, body and shape functions,
//! sleeping, enabling, type changes and counters.

use crate::build;

use impulse2d::collision::{Circle, make_box, make_offset_box};
use impulse2d::core::MAX_RELAX_ITERATIONS;
use impulse2d::math::PI;
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyType, ChainDef, Error, MotionLocks, Pos, Rot, ShapeDef, Vec2, World, WorldDef,
};

const DT: f32 = 1.0 / 60.0;

fn step_checked(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT, 4).unwrap();
        if let Err(e) = world.validate() {
            panic!("invalid world after step {}: {e}", world.step_count());
        }
    }
}

fn dynamic_box(world: &mut World, position: Vec2) -> impulse2d::BodyId {
    let body = world.create_body(&BodyDef::dynamic(position)).unwrap();
    build::add_box(world, body, 0.5, 0.5);
    body
}

#[test]
fn bad_input_is_an_error_and_the_world_keeps_working() {
    assert!(matches!(
        World::new(&WorldDef {
            gravity: Vec2::new(f32::NAN, 0.0),
            ..Default::default()
        }),
        Err(Error::NonFinite { what: "gravity" })
    ));
    for relax_iterations in [0, MAX_RELAX_ITERATIONS + 1, (1 << 18) + 1] {
        assert!(
            World::new(&WorldDef {
                relax_iterations,
                ..Default::default()
            })
            .is_err()
        );
    }
    assert!(
        World::new(&WorldDef {
            relax_iterations: MAX_RELAX_ITERATIONS,
            ..Default::default()
        })
        .is_ok()
    );
    assert!(
        World::new(&WorldDef {
            contact_recycle_distance: -1.0,
            ..Default::default()
        })
        .is_err()
    );

    let mut world = build::world();
    let ground = impulse2d_scenes::flat_ground(&mut world, 10.0).unwrap();
    let body = dynamic_box(&mut world, Vec2::new(0.0, 3.0));
    let before = world.counters();

    // Bodies.
    let bad_defs = [
        BodyDef {
            position: to_pos(Vec2::new(f32::NAN, 0.0)),
            ..Default::default()
        },
        BodyDef {
            position: to_pos(Vec2::new(0.0, f32::INFINITY)),
            ..Default::default()
        },
        BodyDef {
            linear_velocity: Vec2::new(f32::INFINITY, 0.0),
            ..Default::default()
        },
        BodyDef {
            angular_velocity: f32::NAN,
            ..Default::default()
        },
        BodyDef {
            linear_damping: -1.0,
            ..Default::default()
        },
        BodyDef {
            rotation: Rot { c: 2.0, s: 0.0 },
            ..Default::default()
        },
        // Beyond ±MAX_COORDINATE (1e18 m); 1e9 m is a valid position.
        BodyDef {
            position: to_pos(Vec2::new(1.0e19, 0.0)),
            ..Default::default()
        },
    ];
    for def in &bad_defs {
        assert!(world.create_body(def).is_err(), "accepted {def:?}");
    }
    assert!(matches!(
        world.create_body(&bad_defs[0]),
        Err(Error::NonFinite {
            what: "body position"
        })
    ));
    assert!(matches!(
        world.create_body(&bad_defs[4]),
        Err(Error::OutOfRange {
            what: "body linear damping",
            ..
        })
    ));

    // Shapes.
    let bad_density = ShapeDef {
        density: -1.0,
        ..Default::default()
    };
    let square = make_box(0.5, 0.5).unwrap();
    assert!(matches!(
        world.create_polygon_shape(body, &bad_density, &square),
        Err(Error::OutOfRange {
            what: "shape density",
            ..
        })
    ));
    let nan_friction = ShapeDef {
        friction: f32::NAN,
        ..Default::default()
    };
    assert!(
        world
            .create_polygon_shape(body, &nan_friction, &square)
            .is_err()
    );
    let bad_circle = Circle {
        center: Vec2::ZERO,
        radius: -1.0,
    };
    assert!(
        world
            .create_circle_shape(body, &ShapeDef::default(), &bad_circle)
            .is_err()
    );

    // Setters.
    let xf = world.body(body).unwrap().transform();
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_transform(Vec2::new(f32::NAN, 0.0), Rot::IDENTITY))
            .is_err()
    );
    assert_eq!(world.body(body).unwrap().transform(), xf);
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_linear_velocity(Vec2::new(0.0, f32::NAN)))
            .is_err()
    );
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_angular_velocity(f32::INFINITY))
            .is_err()
    );
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.apply_force_to_center(Vec2::new(f32::INFINITY, 0.0), true))
            .is_err()
    );
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.apply_torque(f32::NAN, true))
            .is_err()
    );
    assert!(
        world
            .body_mut(ground)
            .and_then(|mut view| view.set_linear_velocity(Vec2::new(1.0, 0.0)))
            .is_err()
    );

    // Steps.
    assert!(world.step(f32::NAN, 4).is_err());
    assert!(world.step(-DT, 4).is_err());
    assert!(world.step(DT, 0).is_err());

    // Nothing changed, and the world still works: the box lands on the ground.
    assert_eq!(world.counters(), before);
    world.validate().unwrap();
    step_checked(&mut world, 120);
    let y = world.body(body).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.01, "box at {y}");
}

#[test]
fn stale_and_foreign_ids_are_errors() {
    let mut world = build::world();
    let body = dynamic_box(&mut world, Vec2::new(0.0, 3.0));
    let shape = world.body(body).unwrap().shapes()[0];
    world.destroy_body(body).unwrap();

    let invalid_body = Error::InvalidId { what: "body" };
    assert_eq!(world.destroy_body(body), Err(invalid_body.clone()));
    assert_eq!(
        world.body(body).map(|view| view.position()),
        Err(invalid_body.clone())
    );
    assert_eq!(
        world
            .body_mut(body)
            .and_then(|mut view| view.apply_linear_impulse_to_center(Vec2::X, true)),
        Err(invalid_body.clone())
    );
    assert_eq!(
        world.shape(shape).map(|view| view.body()),
        Err(Error::InvalidId { what: "shape" })
    );
    assert!(world.body(body).is_err() && world.shape(shape).is_err());

    // The slot is reused with a new generation; the old id stays dead.
    let again = dynamic_box(&mut world, Vec2::new(1.0, 3.0));
    assert_eq!(again.index(), body.index());
    assert_ne!(again.generation(), body.generation());
    assert_eq!(
        world.body(body).map(|view| view.position()),
        Err(invalid_body.clone())
    );
    assert_eq!(world.body(again).unwrap().position(), Pos::new(1.0, 3.0));

    // An id from another world is rejected even if the index exists there.
    let mut other = build::world();
    let foreign = dynamic_box(&mut other, Vec2::ZERO);
    assert_eq!(foreign.index(), again.index());
    assert_eq!(
        world.body(foreign).map(|view| view.position()),
        Err(invalid_body)
    );

    world.validate().unwrap();
    step_checked(&mut world, 10);
}

#[test]
fn point_and_vector_conversions() {
    let mut world = build::world();
    let body = build::turned_body(&mut world, Vec2::new(1.0, 2.0), 0.5 * PI);
    // Rotating (1, 0) by 90° gives (0, 1).
    let close = |a: Vec2, b: Vec2| (a - b).length() < 1e-6;
    assert!(close(
        world.body(body).unwrap().world_point(Vec2::X) - to_pos(Vec2::new(1.0, 3.0)),
        Vec2::ZERO
    ));
    assert!(close(
        world.body(body).unwrap().local_point(Vec2::new(1.0, 3.0)),
        Vec2::X
    ));
    assert!(close(
        world.body(body).unwrap().world_vector(Vec2::X),
        Vec2::Y
    ));
    assert!(close(
        world.body(body).unwrap().local_vector(Vec2::Y),
        Vec2::X
    ));
}

/// Mass of boxes from geometry: a 2 m × 1 m box of density 2 kg/m² weighs
/// 4 kg with inertia `m·(w² + h²)/12 = 4·5/12 = 5/3 kg·m²` about its centre.
#[test]
fn mass_data_from_shapes_and_overrides() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let body = build::body(&mut world, BodyType::Dynamic, Vec2::ZERO);
    // No shapes: 1 kg at the origin.
    assert_eq!(world.body(body).unwrap().mass(), 1.0);
    let dense = ShapeDef {
        density: 2.0,
        ..Default::default()
    };
    let offset = make_offset_box(1.0, 0.5, Vec2::new(1.0, 0.0), Rot::IDENTITY).unwrap();
    world.create_polygon_shape(body, &dense, &offset).unwrap();
    assert!((world.body(body).unwrap().mass() - 4.0).abs() < 1e-5);
    assert!((world.body(body).unwrap().rotational_inertia() - 5.0 / 3.0).abs() < 1e-4);
    assert!((world.body(body).unwrap().local_center_of_mass() - Vec2::X).length() < 1e-6);

    // A second box at (−1, 0): 8 kg centred at the origin, each box's inertia
    // shifted by m·d² = 4·1: 2·(5/3 + 4) = 34/3 kg·m².
    let other = make_offset_box(1.0, 0.5, Vec2::new(-1.0, 0.0), Rot::IDENTITY).unwrap();
    world.create_polygon_shape(body, &dense, &other).unwrap();
    assert!((world.body(body).unwrap().mass() - 8.0).abs() < 1e-5);
    assert!(world.body(body).unwrap().local_center_of_mass().length() < 1e-5);
    assert!((world.body(body).unwrap().rotational_inertia() - 34.0 / 3.0).abs() < 1e-3);

    // Impulses: Δv = J/m, Δω = L/I.
    world
        .body_mut(body)
        .unwrap()
        .apply_linear_impulse_to_center(Vec2::new(4.0, 0.0), true)
        .unwrap();
    assert!((world.body(body).unwrap().linear_velocity() - Vec2::new(0.5, 0.0)).length() < 1e-6);
    world
        .body_mut(body)
        .unwrap()
        .apply_angular_impulse(34.0 / 3.0, true)
        .unwrap();
    assert!((world.body(body).unwrap().angular_velocity() - 1.0).abs() < 1e-5);

    // Override, then restore from the shapes.
    let md = impulse2d::collision::MassData {
        mass: 2.0,
        center: Vec2::ZERO,
        rotational_inertia: 3.0,
    };
    world.body_mut(body).unwrap().set_mass_data(md).unwrap();
    assert_eq!(world.body(body).unwrap().mass_data(), md);
    assert!(
        world
            .body_mut(body)
            .and_then(
                |mut view| view.set_mass_data(impulse2d::collision::MassData { mass: -1.0, ..md })
            )
            .is_err()
    );
    world.body_mut(body).unwrap().apply_mass_from_shapes();
    assert!((world.body(body).unwrap().mass() - 8.0).abs() < 1e-5);
}

/// A 2 kg body pushed by 4 N for one step of 1/60 s without gravity gains
/// `F·t/m = 1/30 m/s`; the force is cleared after the step.
#[test]
fn forces_act_for_one_step() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let body = build::body(&mut world, BodyType::Dynamic, Vec2::ZERO);
    world
        .create_polygon_shape(
            body,
            &ShapeDef {
                density: 2.0,
                ..Default::default()
            },
            &make_box(0.5, 0.5).unwrap(),
        )
        .unwrap();
    world
        .body_mut(body)
        .unwrap()
        .apply_force_to_center(Vec2::new(4.0, 0.0), true)
        .unwrap();
    step_checked(&mut world, 1);
    let v = world.body(body).unwrap().linear_velocity();
    assert!((v.x - 4.0 * DT / 2.0).abs() < 1e-6);
    step_checked(&mut world, 1);
    assert!((world.body(body).unwrap().linear_velocity().x - v.x).abs() < 1e-7);

    // A force off the centre also turns the body: torque = r × F, with r
    // measured from the (moved) centre of mass.
    let center = world.body(body).unwrap().world_center_of_mass();
    world
        .body_mut(body)
        .unwrap()
        .apply_force(Vec2::new(0.0, 6.0), center + Vec2::new(0.5, 0.0), true)
        .unwrap();
    step_checked(&mut world, 1);
    // I = m·(1 + 1)/12 = 1/3 kg·m²; τ = 0.5·6 = 3 N·m; Δω = τ·t/I = 3·(1/60)·3.
    let w = world.body(body).unwrap().angular_velocity();
    assert!((w - 9.0 * DT).abs() < 1e-5, "w = {w}");
}

#[test]
fn motion_locks_hold() {
    let mut world = build::world();
    let body = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(1.0, 0.0),
            angular_velocity: 2.0,
            motion_locks: MotionLocks {
                linear_x: false,
                linear_y: true,
                angular_z: true,
            },
            ..build::def(BodyType::Dynamic, Vec2::new(0.0, 5.0))
        })
        .unwrap();
    build::add_box(&mut world, body, 0.5, 0.5);
    step_checked(&mut world, 60);
    let p = world.body(body).unwrap().position();
    assert_eq!(p.y, 5.0);
    assert!((p.x - 1.0).abs() < 1e-4);
    assert_eq!(world.body(body).unwrap().rotation(), Rot::IDENTITY);
}

#[test]
fn setting_the_transform_wakes_and_moves_the_proxy() {
    let mut world = build::world();
    impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    let a = dynamic_box(&mut world, Vec2::new(-5.0, 0.5));
    let b = dynamic_box(&mut world, Vec2::new(5.0, 0.5));
    step_checked(&mut world, 90);
    assert!(!world.body(a).unwrap().is_awake());
    assert!(!world.body(b).unwrap().is_awake());

    // Teleport A onto B: it wakes, and the broad phase finds the new pair so
    // A lands on B instead of falling through it.
    world
        .body_mut(a)
        .unwrap()
        .set_transform(Vec2::new(5.0, 2.0), Rot::IDENTITY)
        .unwrap();
    assert!(world.body(a).unwrap().is_awake());
    step_checked(&mut world, 120);
    let pa = world.body(a).unwrap().position();
    assert!((pa.y - 1.5).abs() < 0.02, "A at {pa:?}");
    assert!((pa.x - 5.0).abs() < 0.01);
}

#[test]
fn touching_wakes_a_sleeping_island_and_sleep_can_be_forced() {
    let mut world = build::world();
    let stack = impulse2d_scenes::vertical_stack(&mut world, 3).unwrap();
    step_checked(&mut world, 90);
    assert_eq!(world.counters().awake_body_count, 0);

    // A ball dropped on the stack wakes the whole island.
    let ball = impulse2d_scenes::ball(&mut world, Vec2::new(0.0, 5.0), 0.25, 0.0).unwrap();
    let mut woke = false;
    for _ in 0..60 {
        step_checked(&mut world, 1);
        woke |= world.body(stack.boxes[0]).unwrap().is_awake();
    }
    assert!(woke, "the stack never woke");

    // Forcing sleep puts the whole island to sleep at once.
    world.body_mut(stack.top).unwrap().set_awake(false);
    for &b in stack.boxes.iter().chain([&ball]) {
        assert!(!world.body(b).unwrap().is_awake());
    }
    world.validate().unwrap();
    world.body_mut(stack.boxes[0]).unwrap().set_awake(true);
    assert!(world.body(stack.top).unwrap().is_awake());
    step_checked(&mut world, 5);
}

/// Two boxes pushed apart after sleeping together end up in two islands.
#[test]
fn islands_split_when_contacts_end() {
    let mut world = build::world();
    impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    let a = dynamic_box(&mut world, Vec2::new(0.0, 0.5));
    let b = dynamic_box(&mut world, Vec2::new(0.0, 1.5));
    step_checked(&mut world, 10);
    assert_eq!(world.counters().island_count, 1);

    // Knock B off A and far away.
    build::set_velocity(&mut world, b, Vec2::new(8.0, 3.0));
    step_checked(&mut world, 300);
    let c = world.counters();
    assert_eq!(c.island_count, 2, "{c:?}");
    assert_eq!(c.awake_body_count, 0);
    assert!(world.body(b).unwrap().position().x > 2.0);
    let _ = a;
}

#[test]
fn destroying_a_support_wakes_what_it_held() {
    let mut world = build::world();
    let stack = impulse2d_scenes::vertical_stack(&mut world, 2).unwrap();
    step_checked(&mut world, 90);
    assert!(!world.body(stack.top).unwrap().is_awake());
    world.destroy_body(stack.boxes[0]).unwrap();
    assert!(world.body(stack.top).unwrap().is_awake());
    step_checked(&mut world, 120);
    let y = world.body(stack.top).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.01, "top fell to {y}");
}

#[test]
fn disabled_bodies_do_not_move_or_collide() {
    let mut world = build::world();
    impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    let body = dynamic_box(&mut world, Vec2::new(0.0, 3.0));
    world.body_mut(body).unwrap().disable();
    assert!(!world.body(body).unwrap().is_enabled());
    step_checked(&mut world, 60);
    assert_eq!(world.body(body).unwrap().position(), Pos::new(0.0, 3.0));
    assert_eq!(world.counters().contact_count, 0);

    world.body_mut(body).unwrap().enable().unwrap();
    step_checked(&mut world, 120);
    let y = world.body(body).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.01, "box at {y}");

    // Disabling a resting body wakes nothing that would float; the world stays valid.
    world.body_mut(body).unwrap().disable();
    world.body_mut(body).unwrap().disable();
    step_checked(&mut world, 5);
}

#[test]
fn changing_the_body_type() {
    let mut world = build::world();
    impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    let body = build::body(&mut world, BodyType::Static, Vec2::new(0.0, 3.0));
    build::add_box(&mut world, body, 0.5, 0.5);
    step_checked(&mut world, 30);
    assert_eq!(world.body(body).unwrap().position().y, 3.0);

    world
        .body_mut(body)
        .unwrap()
        .set_body_type(BodyType::Dynamic)
        .unwrap();
    assert!((world.body(body).unwrap().mass() - 1.0).abs() < 1e-6);
    step_checked(&mut world, 120);
    assert!((world.body(body).unwrap().position().y - 0.5).abs() < 0.01);

    world
        .body_mut(body)
        .unwrap()
        .set_body_type(BodyType::Kinematic)
        .unwrap();
    assert_eq!(world.body(body).unwrap().mass(), 0.0);
    // (The landing may have moved it sideways a little, as in Box2D: a
    // box dropped there ends 9 mm left of where it fell in Box2D v3.2 too.)
    let start = world.body(body).unwrap().position();
    build::set_velocity(&mut world, body, Vec2::new(1.0, 0.0));
    step_checked(&mut world, 60);
    let p = world.body(body).unwrap().position();
    // 1 m/s for 60 steps of 1/60 s: 1 m
    let moved = p - start;
    assert!(
        (moved.x - 1.0).abs() < 1e-3,
        "kinematic body moved {moved:?}"
    );

    world
        .body_mut(body)
        .unwrap()
        .set_body_type(BodyType::Static)
        .unwrap();
    step_checked(&mut world, 10);
    assert_eq!(world.body(body).unwrap().position(), p);
}

#[test]
fn destroying_a_shape_drops_the_body() {
    let mut world = build::world();
    let ground = impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    let body = dynamic_box(&mut world, Vec2::new(0.0, 0.5));
    step_checked(&mut world, 60);
    let ground_shape = world.body(ground).unwrap().shapes()[0];
    world.destroy_shape(ground_shape, false).unwrap();
    assert!(world.destroy_shape(ground_shape, false).is_err());
    assert!(world.body(body).unwrap().is_awake());
    step_checked(&mut world, 30);
    assert!(world.body(body).unwrap().position().y < 0.0);
}

/// A chain loop wound clockwise keeps a ball inside a 10 m square; destroying
/// the chain lets it fall out.
#[test]
fn chains_collide_on_one_side() {
    let mut world = build::world();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let chain = world
        .create_chain(
            ground,
            &ChainDef {
                points: vec![
                    Vec2::new(-5.0, 0.0),
                    Vec2::new(-5.0, 10.0),
                    Vec2::new(5.0, 10.0),
                    Vec2::new(5.0, 0.0),
                ],
                is_loop: true,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(world.chain(chain).unwrap().segments().len(), 4);
    let ball = impulse2d_scenes::ball(&mut world, Vec2::new(1.0, 5.0), 0.5, 0.0).unwrap();
    step_checked(&mut world, 120);
    let y = world.body(ball).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.02, "ball at {y}");

    assert!(
        world
            .create_chain(
                ground,
                &ChainDef {
                    points: vec![Vec2::ZERO, Vec2::X],
                    ..Default::default()
                }
            )
            .is_err()
    );

    world.destroy_chain(chain).unwrap();
    assert!(world.destroy_chain(chain).is_err());
    step_checked(&mut world, 60);
    assert!(world.body(ball).unwrap().position().y < 0.0);
}

#[test]
fn counters_report_the_world() {
    let mut world = build::world();
    impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    dynamic_box(&mut world, Vec2::new(-3.0, 0.5));
    dynamic_box(&mut world, Vec2::new(3.0, 0.5));
    step_checked(&mut world, 1);
    let c = world.counters();
    assert_eq!(c.body_count, 3);
    assert_eq!(c.shape_count, 3);
    assert_eq!(c.contact_count, 2);
    assert_eq!(c.awake_body_count, 2);
    assert_eq!(c.island_count, 2);
    // Two ground contacts on different bodies share one static colour.
    assert_eq!(c.color_count, 1);
    assert_eq!(c.color_constraint_counts.iter().sum::<usize>(), 2);
    step_checked(&mut world, 60);
    let c = world.counters();
    assert_eq!(c.awake_body_count, 0);
    assert_eq!(c.sleeping_set_count, 2);
    assert_eq!(c.color_count, 0);
}
