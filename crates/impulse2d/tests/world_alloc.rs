//! A steady-state step (and a rollback save and load) makes no heap allocation: every buffer the step uses is
//! kept in the world and reused, on one worker thread or several. Checked with
//! a counting global allocator that counts on every thread, the world's
//! worker threads included (this test binary holds only this test so nothing
//! else allocates meanwhile).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use impulse2d::{World, WorldDef};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);

fn note_allocation() {
    if COUNTING.load(Ordering::Relaxed) {
        COUNT.fetch_add(1, Ordering::Relaxed);
    }
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
    COUNT.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    f();
    COUNTING.store(false, Ordering::SeqCst);
    COUNT.load(Ordering::SeqCst)
}

#[test]
fn steady_state_steps_allocate_nothing() {
    // The counter must see allocations at all, on any thread.
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
    let on_another_thread = allocations_during(|| {
        std::thread::scope(|s| {
            s.spawn(|| drop(std::hint::black_box(vec![1u8; 16])));
        })
    });
    assert!(on_another_thread >= 1);
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

    // Rollback: save, step, load reuse the state's and the world's buffers.
    let mut state = impulse2d::RollbackState::new();
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
    world.validate().unwrap();
}
