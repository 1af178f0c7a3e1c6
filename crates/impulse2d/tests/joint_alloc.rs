//! A steady-state step of jointed scenes makes no heap allocation: joint
//! preparation and solving work in place in the graph colours, and the event
//! and scratch buffers are kept in the world. Checked with a counting global
//! allocator (this test binary holds only this test so nothing else allocates
//! meanwhile).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use impulse2d::{World, WorldDef};

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note_allocation() {
    // `try_with` so that allocations during thread teardown are ignored.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: forwards to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    COUNT.with(|c| c.get())
}

#[test]
fn steady_state_joint_steps_allocate_nothing() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);

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
