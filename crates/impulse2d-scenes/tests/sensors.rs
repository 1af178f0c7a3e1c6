//! The sensors scene through the public API: every ball produces a begin
//! event when it reaches the gate and an end event when it has passed it, at
//! the steps its rolling speed predicts, and the recycler sends each ball
//! back to the start once per lap.

use impulse2d::{World, WorldDef};
use impulse2d_scenes::SceneScript;
use impulse2d_scenes::sensors::{
    BALL_RADIUS, BALL_SPACING, BALL_SPEED, BALL_START, GATE_X, RECYCLER_X, sensors,
};

const HZ: f32 = 60.0;

/// The step during which a ball starting at `x0` and rolling at
/// [`BALL_SPEED`] first has its centre past `x` (overlaps are checked at the
/// end of each step).
fn step_reaching(x0: f32, x: f32) -> i64 {
    ((x - x0) / BALL_SPEED * HZ).ceil() as i64
}

#[test]
fn balls_report_entering_and_leaving_the_gate() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let count = 5;
    let mut scene = sensors(&mut world, count).unwrap();
    let steps = 600u64;
    for step in 0..=steps {
        scene.script.before_step(&mut world, step).unwrap();
        if step == steps {
            break;
        }
        world.step(1.0 / HZ, 4).unwrap();
        for &ball in &scene.balls {
            let p = world.body(ball).unwrap().position();
            // The recycler catches every ball before the wall at 16 m.
            assert!(
                p.x < RECYCLER_X.1 + BALL_RADIUS && p.x > -16.0,
                "step {step}: ball at {p:?}"
            );
        }
    }
    world.validate().unwrap();
    let script = &scene.script;

    for (i, &ball) in scene.balls.iter().enumerate() {
        let events: Vec<_> = script.log.iter().filter(|e| e.body == ball).collect();
        // Enter, leave, enter, leave…
        for (k, e) in events.iter().enumerate() {
            assert_eq!(e.entered, k % 2 == 0, "ball {i}: events {events:?}");
        }
        assert!(events.len() >= 2, "ball {i}: events {events:?}");
        // The ball touches the gate when its centre is a radius short of the
        // gate's left side, and has left when it is a radius past the right.
        let x0 = BALL_START.x + BALL_SPACING * i as f32;
        let enter = step_reaching(x0, GATE_X.0 - BALL_RADIUS);
        let leave = step_reaching(x0, GATE_X.1 + BALL_RADIUS);
        for (event, want) in [(events[0], enter), (events[1], leave)] {
            assert!(
                (event.step as i64 - want).abs() <= 3,
                "ball {i}: event {event:?}, expected near step {want}"
            );
        }
    }

    // Every ball reaches the recycler ((11.6 + 14 − 2i) / 4 s, at most 6.4 s)
    // once in 10 s; its second lap takes another 6.4 s.
    assert_eq!(script.recycled, count);
    // The balls the script counts inside are those the sensor holds.
    let mut held: Vec<_> = world
        .shape(script.gate)
        .unwrap()
        .sensor_overlaps()
        .unwrap()
        .into_iter()
        .map(|s| world.shape(s).unwrap().body())
        .collect();
    let mut inside = script.inside.clone();
    held.sort();
    inside.sort();
    assert_eq!(inside, held);
    assert!(script.status().starts_with("gate: "));
}
