//! Our `CharacterController` and Rapier's `KinematicCharacterController` side
//! by side on the platformer's static course (`impulse2d_scenes::platformer`:
//! ground, a 0.2 m step, 30° ramps over a 3 m plateau, a 60° slope up to a
//! 1 m block, the end wall), both driven by the same input track (run right
//! at 4 m/s, jump at 7 m/s when blocked for 15 frames or at x = 42.5, stop at
//! x = 72), 60 Hz, g = 10 m/s².
//!
//! Both characters are the same capsule (half-height 0.5 m, radius 0.3 m)
//! with the same limits: 45° slopes, 0.3 m steps, 0.3 m snap. The game logic
//! around each is the same: keep a vertical velocity, zero it on the ground,
//! add gravity, jump when grounded; ours takes a velocity and clips it,
//! Rapier's takes a translation and the next vertical velocity is what it
//! moved. Prints, per engine, where the character ends, the share of frames
//! it is grounded, the highest point it reaches and the median time per move
//! over `--runs` alternating runs.
//!
//! `cargo run --release -p impulse2d-compare --bin character -- --runs 5`

use std::time::Instant;

use impulse2d::{BodyDef, CharacterController, CharacterDef, ShapeDef, Vec2, World, WorldDef};
use impulse2d_scenes::platformer::{
    JUMP_SPEED, RUN_SPEED, START, TIME_STEP, Track, course_polygons,
};
use rapier2d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier2d::math::{Pose, Vector};
use rapier2d::pipeline::PhysicsWorld;
use rapier2d::prelude::{ColliderBuilder, RigidBodyBuilder, SharedShape};

const FRAMES: usize = 1500;
const G: f32 = 10.0;
const HALF_HEIGHT: f32 = 0.5;
const RADIUS: f32 = 0.3;

/// What one run of one engine gives.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    end: Vec2,
    grounded_frames: usize,
    max_y: f32,
    jumps: u32,
    /// Where each jump took off (x, metres).
    jump_x: [f32; 16],
    seconds_moving: f64,
}

impl Outcome {
    fn jumped(&mut self, x: f32) {
        if (self.jumps as usize) < self.jump_x.len() {
            self.jump_x[self.jumps as usize] = x;
        }
        self.jumps += 1;
    }
}

fn ours() -> Outcome {
    let mut world = World::new(&WorldDef {
        gravity: Vec2::new(0.0, -G),
        ..Default::default()
    })
    .expect("world");
    let ground = world.create_body(&BodyDef::default()).expect("body");
    for points in course_polygons() {
        let hull = impulse2d::collision::compute_hull(&points).expect("hull");
        let poly = impulse2d::collision::make_polygon(&hull, 0.0).expect("polygon");
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &poly)
            .expect("shape");
    }
    let mut c = CharacterController::new(&CharacterDef {
        position: START,
        ..Default::default()
    })
    .expect("controller");
    let mut track = Track::default();
    let mut out = Outcome::default();
    let mut last_dx = 0.0;
    for _ in 0..FRAMES {
        let input = track.input(c.position().x, last_dx, c.is_grounded());
        let mut v = c.velocity();
        v.y -= G * TIME_STEP;
        v.x = input.move_x * RUN_SPEED;
        if input.jump && c.is_grounded() {
            v.y = JUMP_SPEED;
            out.jumped(c.position().x);
        }
        let x0 = c.position().x;
        let t = Instant::now();
        c.move_character(&mut world, v, TIME_STEP).expect("move");
        out.seconds_moving += t.elapsed().as_secs_f64();
        last_dx = c.position().x - x0;
        out.grounded_frames += c.is_grounded() as usize;
        out.max_y = out.max_y.max(c.position().y);
    }
    out.end = c.position();
    out
}

fn rapier() -> Outcome {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, -G);
    let ground = world.bodies.insert(RigidBodyBuilder::fixed());
    for points in course_polygons() {
        let pts: Vec<Vector> = points.iter().map(|p| Vector::new(p.x, p.y)).collect();
        let collider = ColliderBuilder::convex_hull(&pts).expect("hull");
        world
            .colliders
            .insert_with_parent(collider, ground, &mut world.bodies);
    }
    // One step puts the colliders into the broad phase the queries use.
    world.step();
    let controller = KinematicCharacterController {
        offset: CharacterLength::Absolute(0.01),
        autostep: Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(0.3),
            min_width: CharacterLength::Absolute(RADIUS),
            include_dynamic_bodies: true,
        }),
        max_slope_climb_angle: std::f32::consts::FRAC_PI_4,
        min_slope_slide_angle: std::f32::consts::FRAC_PI_4,
        snap_to_ground: Some(CharacterLength::Absolute(0.3)),
        ..Default::default()
    };
    let shape = SharedShape::capsule_y(HALF_HEIGHT, RADIUS);
    let mut position = Vector::new(START.x, START.y);
    let mut vy = 0.0f32;
    let mut grounded = false;
    let mut track = Track::default();
    let mut out = Outcome::default();
    let mut last_dx = 0.0;
    for _ in 0..FRAMES {
        let input = track.input(position.x, last_dx, grounded);
        if grounded {
            vy = 0.0;
        }
        vy -= G * TIME_STEP;
        if input.jump && grounded {
            vy = JUMP_SPEED;
            out.jumped(position.x);
        }
        let desired = Vector::new(input.move_x * RUN_SPEED * TIME_STEP, vy * TIME_STEP);
        let pose = Pose::from_translation(position);
        let t = Instant::now();
        let queries = world.query_pipeline();
        let moved = controller.move_shape(TIME_STEP, &queries, &*shape, &pose, desired, |_| {});
        out.seconds_moving += t.elapsed().as_secs_f64();
        position += moved.translation;
        last_dx = moved.translation.x;
        grounded = moved.grounded;
        if !grounded {
            vy = moved.translation.y / TIME_STEP;
        }
        out.grounded_frames += grounded as usize;
        out.max_y = out.max_y.max(position.y);
    }
    out.end = Vec2::new(position.x, position.y);
    out
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let mut runs = 5;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--help" | "-h" => {
                println!(
                    "character [--runs N]: our CharacterController vs Rapier's KinematicCharacterController on the platformer's static course"
                );
                return;
            }
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let (mut last_a, mut last_b) = (Outcome::default(), Outcome::default());
    for _ in 0..runs.max(1) {
        last_a = ours();
        a.push(last_a.seconds_moving);
        last_b = rapier();
        b.push(last_b.seconds_moving);
    }
    println!(
        "| engine | end x (m) | end y (m) | grounded | highest y (m) | jumps (take-off x, m) | µs per move |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, o, times) in [
        ("Impulse2D CharacterController", last_a, a),
        ("Rapier 0.36 KinematicCharacterController", last_b, b),
    ] {
        let xs: Vec<String> = o.jump_x[..(o.jumps as usize).min(o.jump_x.len())]
            .iter()
            .map(|x| format!("{x:.1}"))
            .collect();
        println!(
            "| {name} | {:.3} | {:.3} | {:.1}% | {:.3} | {} ({}) | {:.2} |",
            o.end.x,
            o.end.y,
            100.0 * o.grounded_frames as f64 / FRAMES as f64,
            o.max_y,
            o.jumps,
            xs.join(", "),
            1e6 * median(times) / FRAMES as f64
        );
    }
}
