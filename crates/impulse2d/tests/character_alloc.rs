//! A character move in steady state makes no heap allocation: the controller
//! keeps its plane, push and query buffers between moves. The platformer's
//! course (steps, ramps, the steep slope, the conveyor, the boxes it pushes,
//! the one-way and the moving platform) is run once to let the buffers reach
//! their sizes, then again from the start with every move counted by the
//! counting global allocator (this test binary holds only this test).

#[path = "common/build.rs"]
mod build;

mod alloc_count;

use alloc_count::{allocations_during, assert_counter_works};
use impulse2d::World;
use impulse2d_scenes::SceneScript;
use impulse2d_scenes::platformer::{END_X, START, TIME_STEP, platformer};

/// Moves the character through the course once (until it has stood at the
/// end for a second); returns the number of allocations made inside the
/// moves (the script's `before_step`: the platform's velocity, the track's
/// input and `move_character`) and the number of moves.
fn lap(world: &mut World, script: &mut impulse2d_scenes::platformer::Platformer) -> (usize, u64) {
    let mut allocations = 0;
    let mut at_end = 0;
    let mut step = 0;
    while at_end < 60 {
        assert!(step < 3000, "the lap did not reach the end");
        allocations += allocations_during(|| script.before_step(world, step).unwrap());
        world.step(TIME_STEP, 4).unwrap();
        if script.controller.position().x >= END_X {
            at_end += 1;
        }
        step += 1;
    }
    (allocations, step)
}

#[test]
fn steady_state_character_moves_allocate_nothing() {
    assert_counter_works();
    let mut world = build::world();
    let (_, mut script) = platformer(&mut world).unwrap();
    let (first, _) = lap(&mut world, &mut script);
    // The first lap grows the buffers: it must allocate (else the counter
    // would not be seeing the moves at all).
    assert!(first > 0, "the first lap allocated nothing");

    script.controller.set_position(START).unwrap();
    let (second, moves) = lap(&mut world, &mut script);
    assert!(moves > 1000, "{moves} moves");
    assert_eq!(
        second, 0,
        "{second} allocations in {moves} moves of the second lap"
    );
    world.validate().unwrap();
}
