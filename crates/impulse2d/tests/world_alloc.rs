//! A steady-state step (and a rollback save and load) makes no heap allocation: every buffer the step uses is
//! kept in the world and reused, on one worker thread or several. Checked with
//! a counting global allocator that counts on every thread, the world's
//! worker threads included (this test binary holds only this test so nothing
//! else allocates meanwhile).

mod alloc_count;

use alloc_count::{allocations_during, assert_counter_works};
use impulse2d::{World, WorldDef};

#[test]
fn steady_state_steps_allocate_nothing() {
    assert_counter_works();
    for workers in [1, 2, 4] {
        steady_state(workers);
    }
}

fn steady_state(worker_count: usize) {
    // A pyramid kept awake (sleep off) so that every stage runs every step.
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        worker_count,
        ..Default::default()
    })
    .unwrap();
    // 210 boxes: enough for several blocks per stage on several workers.
    impulse2d_scenes::pyramid(&mut world, 20, 0.5).unwrap();
    // A few falling and bouncing balls so contacts begin and end.
    for k in 0..4 {
        impulse2d_scenes::ball(
            &mut world,
            impulse2d::Vec2::new(-14.0 + 2.0 * k as f32, 3.0),
            0.4,
            0.5,
        )
        .unwrap();
    }
    for _ in 0..300 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    world.validate().unwrap();
    let contacts = world.counters().contact_count;
    let count = allocations_during(|| {
        for _ in 0..120 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
    });
    assert_eq!(
        count, 0,
        "{count} allocations in 120 steady steps on {worker_count} workers"
    );
    assert!(contacts > 50);
    world.validate().unwrap();

    // Rollback: save, step, load reuse the state's and the world's buffers,
    // in both forms of the state.
    for mut state in [
        impulse2d::RollbackState::new(),
        impulse2d::RollbackState::compact(),
    ] {
        let mut cycle = |world: &mut World| {
            world.save_rollback(&mut state);
            for _ in 0..3 {
                world.step(1.0 / 60.0, 4).unwrap();
            }
            world.load_rollback(&state).unwrap();
            world.step(1.0 / 60.0, 4).unwrap();
        };
        for _ in 0..20 {
            cycle(&mut world);
        }
        let count = allocations_during(|| {
            for _ in 0..20 {
                cycle(&mut world);
            }
        });
        assert_eq!(
            count, 0,
            "{count} allocations in 20 rollback cycles on {worker_count} workers"
        );
    }
    world.validate().unwrap();
}
