//! Determinism across thread counts: the same scene gives the same bits on
//! 1, 2 and 4 worker threads, and the golden hash pins those bits down.

use crate::build;

use impulse2d::collision::{make_box, make_offset_box};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, BodyType, RevoluteJointDef, ShapeDef, Vec2, World};

/// 64-bit FNV-1a over the bits of every body transform, in body order.
fn transform_hash(world: &World, bodies: &[BodyId]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bodies {
        let xf = world.body(b).unwrap().transform();
        // positions are f64 with `large-world`: 8 bytes each then
        let p = [
            xf.p.x.to_bits().to_le_bytes(),
            xf.p.y.to_bits().to_le_bytes(),
        ];
        let q = [
            xf.q.c.to_bits().to_le_bytes(),
            xf.q.s.to_bits().to_le_bytes(),
        ];
        for &byte in p.iter().flatten().chain(q.iter().flatten()) {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn world_with_threads(threads: usize) -> World {
    build::world_with_workers(threads)
}

/// Chains of revolute-jointed boxes and free boxes falling onto the ground.
/// Returns every dynamic body, in creation order.
fn hinged_scene(world: &mut World) -> Vec<BodyId> {
    let ground = world.create_body(&BodyDef::default()).unwrap();
    world
        .create_polygon_shape(
            ground,
            &ShapeDef::default(),
            &make_offset_box(40.0, 1.0, Vec2::new(0.0, -1.0), impulse2d::Rot::IDENTITY).unwrap(),
        )
        .unwrap();
    let mut bodies = Vec::new();
    let link = make_box(0.5, 0.125).unwrap();
    for chain in 0..6 {
        let x0 = -15.0 + 5.0 * chain as f32;
        let y = 6.0 + 1.5 * chain as f32;
        let mut previous: Option<BodyId> = None;
        for k in 0..12 {
            let body = build::body(
                world,
                BodyType::Dynamic,
                to_pos(Vec2::new(x0 + k as f32, y + 0.2 * k as f32)),
            );
            world
                .create_polygon_shape(body, &ShapeDef::default(), &link)
                .unwrap();
            if let Some(prev) = previous {
                world
                    .create_revolute_joint(&RevoluteJointDef {
                        base: build::joint(prev, body, Vec2::new(0.5, 0.0), Vec2::new(-0.5, 0.0)),
                        ..RevoluteJointDef::default()
                    })
                    .unwrap();
            }
            previous = Some(body);
            bodies.push(body);
        }
    }
    let small = make_box(0.4, 0.4).unwrap();
    for i in 0..60 {
        let body = world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: to_pos(Vec2::new(
                    -14.0 + 0.9 * (i % 30) as f32,
                    20.0 + 1.1 * (i / 30) as f32,
                )),
                rotation: impulse2d::Rot::from_angle(0.1 * i as f32),
                ..BodyDef::default()
            })
            .unwrap();
        world
            .create_polygon_shape(body, &ShapeDef::default(), &small)
            .unwrap();
        bodies.push(body);
    }
    bodies
}

/// Steps the hinged scene until every body sleeps; returns that step number
/// and the transform hash there.
fn run_until_asleep(threads: usize) -> (u64, u64) {
    let mut world = world_with_threads(threads);
    let bodies = hinged_scene(&mut world);
    for _ in 0..3000 {
        world.step(1.0 / 60.0, 4).unwrap();
        if world.counters().awake_body_count == 0 {
            return (world.step_count(), transform_hash(&world, &bodies));
        }
    }
    panic!("the hinged scene did not fall asleep in 3000 steps");
}

/// The golden hash: the step at which the hinged scene falls asleep and the
/// hash of all transforms there, the same on 1, 2 and 4 threads.
///
/// `GOLDEN` changes only on purpose: a commit that changes the simulation's
/// results (solver order, a formula, a constant) updates it and says so in
/// its message. A change of `GOLDEN` in any other commit is a bug.
#[test]
fn golden_hash_is_the_same_on_1_2_and_4_threads() {
    #[cfg(not(feature = "large-world"))]
    const GOLDEN: (u64, u64) = (347, 274284669724570261);
    // `large-world`: f64 positions hashed, and their own rounding
    #[cfg(feature = "large-world")]
    const GOLDEN: (u64, u64) = (349, 14881585461128227087);
    let one = run_until_asleep(1);
    for threads in [2, 4] {
        assert_eq!(run_until_asleep(threads), one, "{threads} threads");
    }
    assert_eq!(one, GOLDEN);
}

/// Every registered scene gives the same bits on 1, 2 and 4 threads (the
/// largest benchmark scenes for fewer steps, to keep the test short).
#[test]
fn every_scene_is_the_same_on_1_2_and_4_threads() {
    for info in impulse2d_scenes::list() {
        let run = |threads| {
            let mut world = world_with_threads(threads);
            let scene = impulse2d_scenes::build(info.name, &mut world).unwrap();
            let mut bodies = scene.bodies.clone();
            bodies.push(scene.ground);
            let steps = if bodies.len() > 2000 { 20 } else { 100 };
            let mut hashes = Vec::new();
            for step in 1..=steps {
                world.step(1.0 / 60.0, 4).unwrap();
                if step % 10 == 0 {
                    hashes.push(transform_hash(&world, &bodies));
                }
            }
            hashes
        };
        let one = run(1);
        for threads in [2, 4] {
            assert_eq!(run(threads), one, "{} on {threads} threads", info.name);
        }
    }
}

/// `Profile::parallel` (time inside parallel regions) lies within the step on
/// any thread count, and a paused step has none.
#[test]
fn profile_parallel_time_lies_within_the_step() {
    for threads in [1, 2] {
        let mut world = world_with_threads(threads);
        impulse2d_scenes::build("pyramid", &mut world).unwrap();
        for _ in 0..5 {
            world.step(1.0 / 60.0, 4).unwrap();
            let p = *world.profile();
            assert!(
                p.parallel > 0.0 && p.parallel <= p.step,
                "{threads} threads: {p:?}"
            );
        }
        world.step(0.0, 4).unwrap();
        assert_eq!(world.profile().parallel, 0.0);
    }
}
