//! A [`ReplayPlayer`]'s key-frame budget bounds the heap its key frames
//! take, not only the bytes of state they count: a kept key frame holds no
//! spare capacity and no scratch space, also after seeks have loaded it.
//! Checked with a global allocator that keeps the live heap bytes (this
//! test binary holds only this test so nothing else allocates meanwhile):
//! dropping the key frames must free what [`ReplayPlayer::keyframe_bytes`]
//! says they hold, within a few dozen bytes a key frame.

mod alloc_count;

use alloc_count::live_bytes;
use impulse2d::{BodyDef, BodyType, ReplayPlayer, ShapeDef, Vec2, World, WorldDef};

const DT: f32 = 1.0 / 60.0;

/// Heap a kept key frame may take beyond the bytes it counts, bytes (its
/// counted bytes include its own struct; 24 were measured for a compact
/// key frame, 0 for a snapshot). Spare room or scratch would be tens of
/// kilobytes a key frame here.
const SLACK_PER_KEYFRAME: isize = 64;

/// A recording of `steps` steps of a 210-box pyramid kept awake, with a
/// box created before step `create_at` when given (the structure changes:
/// key frames after it are whole snapshots).
fn record(steps: u64, create_at: Option<u64>) -> impulse2d::Recording {
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    impulse2d_scenes::pyramid(&mut world, 20, 0.5).unwrap();
    world.start_recording(8).unwrap();
    for step in 0..steps {
        if create_at == Some(step) {
            let body = world
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: impulse2d::Pos::new(0.0, 30.0),
                    ..Default::default()
                })
                .unwrap();
            world
                .create_polygon_shape(
                    body,
                    &ShapeDef::default(),
                    &impulse2d::collision::make_box(0.5, 0.5).unwrap(),
                )
                .unwrap();
        }
        if step % 10 == 3 {
            let body = world.body_ids().nth(100).unwrap();
            let mut b = world.body_mut(body).unwrap();
            b.apply_linear_impulse_to_center(Vec2::new(0.3, 0.0), true)
                .unwrap();
        }
        world.step(DT, 4).unwrap();
    }
    world.stop_recording().unwrap()
}

/// Plays `recording` to its end keeping a key frame every 4 steps under
/// `budget`, seeks back and forth (loads), then drops the key frames and
/// compares the heap freed with the bytes they counted.
fn check(recording: &impulse2d::Recording, budget: usize, what: &str) {
    let count = ReplayPlayer::new(recording, 1).unwrap().info().frame_count;
    let mut player = ReplayPlayer::new(recording, 1).unwrap();
    player.set_keyframe_policy(budget, 4).unwrap();
    player.seek(count).unwrap();
    for target in [count / 3, 5, count - 2, count / 2 + 1, 0, count] {
        player.seek(target).unwrap();
    }
    let (bytes, kept) = (player.keyframe_bytes(), player.keyframe_count());
    assert!(kept >= 8, "{what}: {kept} key frames");
    assert!(bytes <= budget);
    let before = live_bytes();
    player.set_keyframe_policy(budget, 4).unwrap(); // drops them
    assert_eq!(player.keyframe_count(), 0);
    let freed = before - live_bytes();
    let bytes = bytes as isize;
    // The struct of each key frame is counted and is heap (a box), so the
    // heap freed is at least the count; spare room or scratch would make it
    // larger than the count by up to the length again (doubling buffers)
    // plus the link table (about 80 B a body, a quarter of a compact
    // frame's count).
    assert!(
        bytes <= freed && freed <= bytes + SLACK_PER_KEYFRAME * kept as isize,
        "{what}: {kept} key frames count {bytes} bytes but freed {freed} bytes of heap"
    );
}

#[test]
fn keyframe_bytes_bound_the_keyframes_heap() {
    // Compact rollback key frames (the structure stays the seed's).
    let fixed = record(160, None);
    check(&fixed, 1 << 30, "rollback key frames");
    // A budget the key frames outgrow: the interval doubles, the heap
    // still matches the count and stays under the budget.
    let one = {
        let mut p = ReplayPlayer::new(&fixed, 1).unwrap();
        p.set_keyframe_policy(1 << 30, 4).unwrap();
        p.seek(4).unwrap();
        p.keyframe_bytes()
    };
    check(&fixed, 12 * one, "rollback key frames, tight budget");
    // Whole snapshots, from the step that creates a body on.
    let changing = record(120, Some(10));
    check(&changing, 1 << 30, "snapshot key frames");
}
