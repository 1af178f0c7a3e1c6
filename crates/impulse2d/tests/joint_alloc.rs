//! A steady-state step of jointed scenes makes no heap allocation: joint
//! preparation and solving work in place in the graph colours, and the event
//! and scratch buffers are kept in the world. Checked with a counting global
//! allocator (this test binary holds only this test so nothing else allocates
//! meanwhile).

mod alloc_count;

use alloc_count::{allocations_during, assert_counter_works};
use impulse2d::{World, WorldDef};

#[test]
fn steady_state_joint_steps_allocate_nothing() {
    assert_counter_works();

    // Kept awake so that every joint is solved every step: a swinging chain,
    // a driving car and ragdolls; one chain joint reports its load every step.
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let chain = impulse2d_scenes::joints::ball_and_chain(&mut world, 10, 50.0).unwrap();
    world
        .joint_mut(chain.joints[0])
        .unwrap()
        .set_force_threshold(1.0)
        .unwrap();
    impulse2d_scenes::joints::car(&mut world).unwrap();
    for i in 0..3 {
        impulse2d_scenes::joints::ragdoll_pile_member(&mut world, i).unwrap();
    }
    for _ in 0..120 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    world.validate().unwrap();
    let mut events = 0;
    let count = allocations_during(|| {
        for _ in 0..120 {
            world.step(1.0 / 60.0, 4).unwrap();
            events += world.joint_events().len();
        }
    });
    assert_eq!(count, 0, "{count} allocations in 120 steady steps");
    assert_eq!(events, 120, "one threshold event per step");
    world.validate().unwrap();
}
