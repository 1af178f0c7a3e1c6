//! Box2D's rain through the public API: the schedule keeps the body count
//! bounded, ragdolls land on their own ground row and nothing falls through
//! a row or off its ends.

use impulse2d::{World, WorldDef};
use impulse2d_scenes::SceneScript;
use impulse2d_scenes::human::HUMAN_BODY_COUNT;
use impulse2d_scenes::rain::{
    RAIN_DROP_HEIGHT, RAIN_GRID_SIZE, RAIN_ROW_SPACING, RainFiring, RainLayout, rain,
};

const DT: f32 = 1.0 / 60.0;

#[test]
fn firings_follow_box2d_rain_schedule() {
    // Box2D's release rain: 40 columns, a firing every 8 steps. Firing k
    // (before step 8k) fills column k while k < 40, then replaces column
    // k mod 40.
    let layout = RainLayout::FULL;
    assert_eq!(
        layout.firing(24),
        Some(RainFiring {
            number: 3,
            column: 3,
            replaces: false
        })
    );
    assert_eq!(layout.firing(25), None);
    assert_eq!(layout.firing(8 * 39).map(|f| f.replaces), Some(false));
    assert_eq!(
        layout.firing(8 * 81),
        Some(RainFiring {
            number: 81,
            column: 1,
            replaces: true
        })
    );
    // Groups are numbered row by row.
    assert_eq!(layout.group_index(2, 5), 85);
}

#[test]
fn columns_fill_then_get_replaced_with_a_bounded_body_count() {
    let layout = RainLayout::TINY;
    let mut world = World::new(&WorldDef::default()).unwrap();
    let mut scene = rain(&mut world, layout).unwrap();
    let per_column = layout.rows * layout.group_size * HUMAN_BODY_COUNT;
    // Building fires the first column: ground + one column of ragdolls.
    assert_eq!(world.counters().body_count, 1 + per_column);
    let per_group_joints = layout.group_size * (HUMAN_BODY_COUNT - 1);
    for step in 0..200u64 {
        scene.script.before_step(&mut world, step).unwrap();
        // Firing k happens before step 8k; columns fill one per firing and
        // then stay full (a replaced column is destroyed and made again).
        let firings = step / u64::from(layout.period) + 1;
        let columns = (firings as usize).min(layout.columns);
        let c = world.counters();
        assert_eq!(c.body_count, 1 + columns * per_column, "step {step}");
        assert!(c.body_count <= 1 + layout.max_bodies());
        assert_eq!(
            world.joint_count(),
            columns * layout.rows * per_group_joints,
            "step {step}"
        );
        world.step(DT, 4).unwrap();
    }
    world.validate().unwrap();
    let groups = scene.script.groups();
    assert_eq!(groups.len(), layout.rows * layout.columns);
    assert!(groups.iter().all(Option::is_some));
}

#[test]
fn ragdolls_land_on_their_row_and_stay_in_the_arena() {
    // Slow firings: each column lives 3 × 100 steps, long enough to fall
    // 40 m (√(2·40/9.8) ≈ 2.9 s ≈ 171 steps) and lie on the ground.
    let layout = RainLayout {
        rows: 2,
        columns: 3,
        group_size: 2,
        grid_count: 40,
        period: 100,
    };
    let mut world = World::new(&WorldDef::default()).unwrap();
    let mut scene = rain(&mut world, layout).unwrap();
    // The ground boxes' tops, and the farthest any part of a bone reaches
    // from its body origin (the torso: 0.135 + 0.09 m; a lower leg's foot:
    // |(0.11, -0.185)| + 0.015 m), plus a little soft-contact give.
    let top = |row: usize| RAIN_ROW_SPACING * row as f32 + 0.5 * RAIN_GRID_SIZE;
    let reach = 0.235 + 0.02;
    let half_width = 0.5 * layout.span() + 0.5 * RAIN_GRID_SIZE;
    for step in 0..600u64 {
        scene.script.before_step(&mut world, step).unwrap();
        world.step(DT, 4).unwrap();
        for (index, group) in scene.script.groups().iter().enumerate() {
            let row = index / layout.columns;
            for bone in group.iter().flatten().flat_map(|h| &h.bones) {
                let p = world.body(*bone).unwrap().position();
                assert!(
                    p.y > top(row) - reach,
                    "step {step}: a bone of row {row} fell through its ground: {p:?}"
                );
                assert!(
                    p.x.abs() < half_width,
                    "step {step}: a bone left the row: {p:?}"
                );
            }
        }
        // 290 steps after a column appears (just before it is replaced),
        // its ragdolls lie on their row: every bone below standing height.
        if step % 100 == 89 && step >= 289 {
            let column = ((step - 289) / 100 % 3) as usize;
            for row in 0..layout.rows {
                let group = scene.script.groups()[row * layout.columns + column]
                    .as_ref()
                    .unwrap();
                for bone in group.iter().flat_map(|h| &h.bones) {
                    let y = world.body(*bone).unwrap().position().y;
                    assert!(
                        y < top(row) + 1.6,
                        "step {step}: column {column} row {row} still falling at {y} (dropped from {})",
                        top(row) + RAIN_DROP_HEIGHT
                    );
                }
            }
        }
    }
    world.validate().unwrap();
}
