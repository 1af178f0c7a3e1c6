//! A counting global allocator for the allocation tests (`world_alloc`,
//! `joint_alloc`, `broad_phase_alloc`, `character_alloc`). A test binary that
//! says `mod alloc_count;` installs it; it counts every allocation on every
//! thread (the world's worker threads included) while a closure runs, so each
//! of those binaries holds a single test: nothing else allocates meanwhile.
//! It also keeps the live heap bytes (requested sizes) for `player_memory`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// Bytes allocated and not yet freed, on every thread.
static LIVE: AtomicIsize = AtomicIsize::new(0);

fn note_size(grown: isize) {
    LIVE.fetch_add(grown, Ordering::Relaxed);
}

fn note_allocation() {
    if COUNTING.load(Ordering::Relaxed) {
        COUNT.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        note_size(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_size(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        note_size(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        note_size(new_size as isize - layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The number of allocations (and reallocations) made on any thread while
/// `f` runs.
pub fn allocations_during(f: impl FnOnce()) -> usize {
    COUNT.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    f();
    COUNTING.store(false, Ordering::SeqCst);
    COUNT.load(Ordering::SeqCst)
}

/// Checks that the counter sees allocations at all, on this thread and on
/// another one.
#[allow(dead_code)] // not every allocation test spawns threads
pub fn assert_counter_works() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
    let on_another_thread = allocations_during(|| {
        std::thread::scope(|s| {
            s.spawn(|| drop(std::hint::black_box(vec![1u8; 16])));
        })
    });
    assert!(on_another_thread >= 1);
}

/// Heap bytes allocated and not freed yet, on every thread (the sizes
/// asked for: the allocator's own overhead is not in it).
#[allow(dead_code)] // only `player_memory` reads it
pub fn live_bytes() -> isize {
    LIVE.load(Ordering::SeqCst)
}
