//! The platformer's scripted track runs the whole course: over the plateau
//! (3 m up), onto the one-way platform and the moving platform, past the
//! heavy box it cannot push, pushing the light one to the end.

use impulse2d::{Vec2, World, WorldDef};
use impulse2d_scenes::SceneScript;
use impulse2d_scenes::platformer::{self, END_X, ONE_WAY, TIME_STEP};

#[test]
fn the_track_runs_the_course() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let (_, mut script) = platformer::platformer(&mut world).unwrap();
    let mut on_one_way = false;
    let mut on_platform = false;
    let mut max_y: f32 = 0.0;
    for step in 0..1800u64 {
        script.before_step(&mut world, step).unwrap();
        world.step(TIME_STEP, 4).unwrap();
        let c = &script.controller;
        let p = c.position();
        max_y = max_y.max(p.y);
        if let Some(g) = c.ground() {
            if (g.point.y - ONE_WAY.2).abs() < 0.01 && (ONE_WAY.0..ONE_WAY.1).contains(&g.point.x) {
                on_one_way = true;
            }
            if g.body == script.platform {
                on_platform = true;
            }
        }
    }
    let end = script.controller.position();
    assert!(end.x > END_X - 0.5 && end.x < 76.0 - 0.3, "{end:?}");
    assert!(script.controller.is_grounded());
    assert!(on_one_way, "never stood on the one-way platform");
    assert!(on_platform, "never rode the moving platform");
    // The plateau is 3 m up: the centre is 3.8 m up there.
    assert!(max_y > 3.7, "{max_y}");
    // The heavy box did not move; the light one was pushed to the wall.
    let heavy = world.body(script.boxes[0]).unwrap().position();
    assert!((heavy - Vec2::new(32.0, 0.5)).length() < 0.05, "{heavy:?}");
    let light = world.body(script.boxes[1]).unwrap().position();
    assert!(light.x > 70.0, "{light:?}");
}
