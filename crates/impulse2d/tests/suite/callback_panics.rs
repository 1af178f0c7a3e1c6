//! Unwind safety: a user callback (custom filter, pre-solve or friction
//! mixing) that panics
//! inside `step`, on the calling thread or a worker thread, leaves the world
//! valid. The policy (see `World::set_pre_solve`): the panicking call counts as
//! `true` (for mixing: the default rule's answer), the step finishes, then the
//! panic goes on from `step`. So a world whose callback panics must end up with
//! the same bits as one whose callback answers that in its place, keep
//! validating, and keep stepping, on 1 and 2 workers.

use crate::build;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use impulse2d::collision::make_box;
use impulse2d::contact::mix_friction;
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, BodyType, ShapeDef, ShapeId, Vec2, World, WorldDef};

/// Which callback misbehaves.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Callback {
    CustomFilter,
    PreSolve,
    FrictionMixing,
}

/// A ground and a grid of 10 × 12 boxes (with pre-solve events) dropped onto
/// it, enough contacts for the narrow phase to run in several blocks on 2
/// workers. Returns the dynamic bodies.
fn scene(world: &mut World) -> Vec<BodyId> {
    build::ground_slab(world, 30.0);
    let square = make_box(0.45, 0.45).unwrap();
    let mut bodies = Vec::new();
    for row in 0..12 {
        for column in 0..10 {
            let body = world
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: to_pos(Vec2::new(
                        -9.0 + 2.0 * column as f32 + 0.1 * row as f32,
                        0.5 + 1.0 * row as f32,
                    )),
                    ..Default::default()
                })
                .unwrap();
            let def = ShapeDef {
                enable_pre_solve_events: true,
                // Odd material ids are the ones friction mixing panics on.
                user_material_id: (row + column) as u64 % 2,
                ..Default::default()
            };
            world.create_polygon_shape(body, &def, &square).unwrap();
            bodies.push(body);
        }
    }
    bodies
}

/// Whether a call about shapes `a` and `b` is one the misbehaving callback
/// panics on: every pair with a shape of odd index.
fn condemned(a: ShapeId, b: ShapeId) -> bool {
    a.index() % 2 == 1 || b.index() % 2 == 1
}

/// Installs the callback: it answers `true` always (mixing: the default
/// rule), except that when `panics` it panics instead on the condemned pairs
/// (mixing: odd materials), counting those calls.
fn install(world: &mut World, callback: Callback, panics: bool, count: Arc<AtomicUsize>) {
    match callback {
        Callback::CustomFilter => world.set_custom_filter(move |a, b| {
            if panics && condemned(a, b) {
                count.fetch_add(1, Ordering::Relaxed);
                panic!("custom filter panics on {a:?}, {b:?}");
            }
            true
        }),
        Callback::PreSolve => world.set_pre_solve(move |a, b, _| {
            if panics && condemned(a, b) {
                count.fetch_add(1, Ordering::Relaxed);
                panic!("pre-solve panics on {a:?}, {b:?}");
            }
            true
        }),
        Callback::FrictionMixing => world.set_friction_callback(move |a, ma, b, mb| {
            if panics && (ma % 2 == 1 || mb % 2 == 1) {
                count.fetch_add(1, Ordering::Relaxed);
                panic!("friction mixing panics on materials {ma}, {mb}");
            }
            mix_friction(a, b)
        }),
    }
}

fn transform_bits(world: &World, bodies: &[BodyId]) -> Vec<build::PoseBits> {
    bodies
        .iter()
        .map(|&b| world.body(b).unwrap().transform().to_bits())
        .collect()
}

fn check(callback: Callback, workers: usize) {
    let def = WorldDef {
        worker_count: workers,
        ..Default::default()
    };
    let mut world = World::new(&def).unwrap();
    let mut reference = World::new(&def).unwrap();
    let bodies = scene(&mut world);
    let reference_bodies = scene(&mut reference);
    let calls = Arc::new(AtomicUsize::new(0));
    install(&mut world, callback, true, calls.clone());
    install(&mut reference, callback, false, Arc::default());

    let mut panicking_steps = 0;
    for step in 0..90 {
        let before = calls.load(Ordering::Relaxed);
        let result = catch_unwind(AssertUnwindSafe(|| world.step(1.0 / 60.0, 4)));
        reference.step(1.0 / 60.0, 4).unwrap();
        let panicked = calls.load(Ordering::Relaxed) > before;
        match result {
            Ok(stepped) => {
                assert!(!panicked, "step {step}: the panic was swallowed");
                stepped.unwrap();
            }
            Err(payload) => {
                assert!(panicked, "step {step}: a panic without a callback panic");
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_default();
                assert!(message.contains("panics on"), "{message}");
                panicking_steps += 1;
            }
        }
        assert_eq!(world.step_count(), step + 1, "the step finished");
        if let Err(e) = world.validate() {
            panic!("{callback:?} on {workers} workers, step {step}: {e}");
        }
        assert_eq!(
            transform_bits(&world, &bodies),
            transform_bits(&reference, &reference_bodies),
            "{callback:?} on {workers} workers, step {step}: a panic answered other than `true`"
        );
    }
    assert!(
        panicking_steps > 0,
        "{callback:?}: the callback never panicked"
    );

    // Stepping on without the misbehaviour, still in lockstep.
    install(&mut world, callback, false, Arc::default());
    for _ in 0..30 {
        world.step(1.0 / 60.0, 4).unwrap();
        reference.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
    }
    assert_eq!(
        transform_bits(&world, &bodies),
        transform_bits(&reference, &reference_bodies)
    );
}

#[test]
fn panicking_callbacks_leave_the_world_valid_on_1_and_2_workers() {
    for callback in [
        Callback::PreSolve,
        Callback::FrictionMixing,
        Callback::CustomFilter,
    ] {
        check(callback, 1);
        check(callback, 2);
    }
}

/// A panic from a callback asked by `set_shape_filter` (the custom filter
/// re-checks the shape's contacts) comes out of that call with the new filter
/// in place and the world valid; the pair the filter panicked on is kept.
#[test]
fn panicking_custom_filter_in_set_shape_filter_leaves_the_world_valid() {
    let mut world = build::world();
    let bodies = scene(&mut world);
    for _ in 0..60 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    let body = bodies[0];
    let contacts_before = world.body(body).unwrap().contacts().len();
    assert!(contacts_before > 0);
    world.set_custom_filter(|_, _| panic!("custom filter panics on every pair"));
    let shape = world.body(body).unwrap().shapes()[0];
    let mut filter = world.shape(shape).unwrap().filter();
    filter.group_index = 3;
    let result = catch_unwind(AssertUnwindSafe(|| {
        world.shape_mut(shape).unwrap().set_filter(filter)
    }));
    assert!(result.is_err());
    world.validate().unwrap();
    assert_eq!(world.shape(shape).unwrap().filter(), filter);
    assert_eq!(world.body(body).unwrap().contacts().len(), contacts_before);
    world.clear_custom_filter();
    for _ in 0..10 {
        world.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
    }
}
