//! A steady-state step makes no heap allocation: every buffer the step uses is
//! kept in the world and reused. Checked with a counting global allocator (this
//! test binary holds only this test so nothing else allocates meanwhile).

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
fn steady_state_steps_allocate_nothing() {
    // The counter must see allocations at all.
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);

    // A pyramid kept awake (sleep off) so that every stage runs every step.
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    impulse2d_scenes::pyramid(&mut world, 10, 0.5).unwrap();
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
    assert_eq!(count, 0, "{count} allocations in 120 steady steps");
    assert!(contacts > 50);
    world.validate().unwrap();
}
