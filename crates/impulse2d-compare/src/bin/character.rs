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
//! Then the moving platform: a 4 m × 0.25 m kinematic platform 2 m above
//! the ground moves with v = (3 cos t, 1.5 sin 2t) m/s while it tilts with
//! ω = 0.25 cos t rad/s (±14°); the character stands on it for 4 s, walks
//! right at 1 m/s for 1 s, and stands for 5 s (600 moves). Printed: where its
//! feet (the centre of the capsule's lower end) are in the platform's frame
//! at 0.5 s, the most they drift from there while standing until 4 s, where
//! they end, the share of frames grounded and the time per move. Ours rides
//! the platform by itself. Rapier 0.36's controller carries a character
//! along a kinematic platform only through its "kinematic friction" (the
//! platform's velocity at the contact, added after the shape cast hits
//! something), so it runs twice: as it comes, and with the game adding the
//! platform's velocity at the feet to the desired translation when a ray
//! down from the feet finds the platform (what Rapier's users are told to
//! do for moving platforms).
//!
//! `cargo run --release -p impulse2d-compare --bin character -- --runs 5`

use std::time::Instant;

use impulse2d::{
    BodyDef, BodyType, CharacterController, CharacterDef, Rot, ShapeDef, Vec2, World, WorldDef,
};
use impulse2d_scenes::platformer::{
    JUMP_SPEED, RUN_SPEED, START, TIME_STEP, Track, course_polygons,
};
use rapier2d::control::{
    CharacterAutostep, CharacterLength, EffectiveCharacterMovement, KinematicCharacterController,
};
use rapier2d::math::{Pose, Vector};
use rapier2d::pipeline::{PhysicsWorld, QueryPipeline};
use rapier2d::prelude::{ColliderBuilder, Ray, RigidBodyBuilder, RigidBodyHandle, SharedShape};

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

/// Our world with g = 10 m/s² down and its static ground body.
fn our_world() -> (World, impulse2d::BodyId) {
    let mut world = World::new(&WorldDef {
        gravity: Vec2::new(0.0, -G),
        ..Default::default()
    })
    .expect("world");
    let ground = world.create_body(&BodyDef::default()).expect("body");
    (world, ground)
}

/// Rapier's world with g = 10 m/s² down and its fixed ground body.
fn rapier_world() -> (PhysicsWorld, RigidBodyHandle) {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, -G);
    let ground = world.bodies.insert(RigidBodyBuilder::fixed());
    (world, ground)
}

/// Adds `collider` to `body` of Rapier's world.
fn attach(world: &mut PhysicsWorld, collider: ColliderBuilder, body: RigidBodyHandle) {
    world
        .colliders
        .insert_with_parent(collider, body, &mut world.bodies);
}

/// Rapier's character as the game logic drives it: the controller with our
/// limits (1 cm offset, 45° slopes, 0.3 m autostep and snap), the capsule,
/// where it is, its vertical velocity (m/s) and whether the last move ended
/// on the ground.
struct RapierCharacter {
    controller: KinematicCharacterController,
    shape: SharedShape,
    position: Vector,
    vy: f32,
    grounded: bool,
}

impl RapierCharacter {
    fn new(position: Vector) -> Self {
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
        Self {
            controller,
            shape,
            position,
            vy: 0.0,
            grounded: false,
        }
    }

    /// The vertical velocity for this frame: zero on the ground, then gravity.
    fn fall(&mut self) {
        if self.grounded {
            self.vy = 0.0;
        }
        self.vy -= G * TIME_STEP;
    }

    /// What the controller makes of the translation `desired` (m) this frame.
    fn slide(&self, queries: &QueryPipeline, desired: Vector) -> EffectiveCharacterMovement {
        let pose = Pose::from_translation(self.position);
        self.controller
            .move_shape(TIME_STEP, queries, &*self.shape, &pose, desired, |_| {})
    }

    /// Takes the move: the next vertical velocity is what it moved when airborne.
    fn take(&mut self, moved: &EffectiveCharacterMovement) {
        self.position += moved.translation;
        self.grounded = moved.grounded;
        if !self.grounded {
            self.vy = moved.translation.y / TIME_STEP;
        }
    }
}

fn ours() -> Outcome {
    let (mut world, ground) = our_world();
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
    let (mut world, ground) = rapier_world();
    for points in course_polygons() {
        let pts: Vec<Vector> = points.iter().map(|p| Vector::new(p.x, p.y)).collect();
        attach(
            &mut world,
            ColliderBuilder::convex_hull(&pts).expect("hull"),
            ground,
        );
    }
    // One step puts the colliders into the broad phase the queries use.
    world.step();
    let mut c = RapierCharacter::new(Vector::new(START.x, START.y));
    let mut track = Track::default();
    let mut out = Outcome::default();
    let mut last_dx = 0.0;
    for _ in 0..FRAMES {
        let input = track.input(c.position.x, last_dx, c.grounded);
        c.fall();
        if input.jump && c.grounded {
            c.vy = JUMP_SPEED;
            out.jumped(c.position.x);
        }
        let desired = Vector::new(input.move_x * RUN_SPEED * TIME_STEP, c.vy * TIME_STEP);
        let t = Instant::now();
        let moved = c.slide(&world.query_pipeline(), desired);
        out.seconds_moving += t.elapsed().as_secs_f64();
        c.take(&moved);
        last_dx = moved.translation.x;
        out.grounded_frames += c.grounded as usize;
        out.max_y = out.max_y.max(c.position.y);
    }
    out.end = Vec2::new(c.position.x, c.position.y);
    out
}

/// The platform course: moves, drive, phases.
const PLATFORM_FRAMES: usize = 600;
/// Platform centre at the start and half-extents, metres.
const PLATFORM_AT: Vec2 = Vec2::new(0.0, 2.0);
const PLATFORM_HALF: (f32, f32) = (2.0, 0.125);
/// Frames: the reference is taken at `REF_FRAME`, drift measured until
/// `WALK.0`, the character walks right at 1 m/s over `WALK.0..WALK.1`.
const REF_FRAME: usize = 30;
const WALK: (usize, usize) = (240, 300);
const WALK_SPEED: f32 = 1.0;

/// The platform's linear (m/s) and angular (rad/s) velocity at time `t`.
fn platform_drive(t: f32) -> (Vec2, f32) {
    (
        Vec2::new(3.0 * t.cos(), 1.5 * (2.0 * t).sin()),
        0.25 * t.cos(),
    )
}

/// The character's start: standing on the platform's middle.
fn platform_start() -> Vec2 {
    PLATFORM_AT + Vec2::new(0.0, PLATFORM_HALF.1 + HALF_HEIGHT + RADIUS)
}

/// What one run on the platform course gives.
#[derive(Clone, Copy, Debug, Default)]
struct RideOutcome {
    /// Feet in the platform's frame at `REF_FRAME` and at the end, metres.
    reference: Vec2,
    end: Vec2,
    /// Largest distance of the feet from `reference` while standing, metres.
    drift: f32,
    grounded_frames: usize,
    seconds_moving: f64,
}

impl RideOutcome {
    /// Records frame `k`'s feet (platform frame) and ground state.
    fn frame(&mut self, k: usize, feet: Vec2, grounded: bool) {
        if k == REF_FRAME {
            self.reference = feet;
        }
        if (REF_FRAME..WALK.0).contains(&k) {
            self.drift = self.drift.max((feet - self.reference).length());
        }
        self.end = feet;
        self.grounded_frames += grounded as usize;
    }
}

/// The input velocity along x for frame `k`, m/s.
fn platform_input(k: usize) -> f32 {
    if (WALK.0..WALK.1).contains(&k) {
        WALK_SPEED
    } else {
        0.0
    }
}

/// `p` in the frame of a body at `centre` turned by `angle`.
fn in_frame(p: Vec2, centre: Vec2, angle: f32) -> Vec2 {
    Rot::from_angle(angle).inv_rotate(p - centre)
}

fn ours_platform() -> RideOutcome {
    let (mut world, ground) = our_world();
    let floor =
        impulse2d::collision::make_offset_box(20.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY)
            .expect("box");
    world
        .create_polygon_shape(ground, &ShapeDef::default(), &floor)
        .expect("shape");
    let platform = world
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            position: PLATFORM_AT,
            ..Default::default()
        })
        .expect("body");
    let slab = impulse2d::collision::make_box(PLATFORM_HALF.0, PLATFORM_HALF.1).expect("box");
    world
        .create_polygon_shape(platform, &ShapeDef::default(), &slab)
        .expect("shape");
    let mut c = CharacterController::new(&CharacterDef {
        position: platform_start(),
        ..Default::default()
    })
    .expect("controller");
    let mut out = RideOutcome::default();
    for k in 0..PLATFORM_FRAMES {
        let (v, omega) = platform_drive(k as f32 * TIME_STEP);
        let mut body = world.body_mut(platform).expect("platform");
        body.set_linear_velocity(v).expect("velocity");
        body.set_angular_velocity(omega).expect("velocity");
        let mut velocity = c.velocity();
        velocity.y -= G * TIME_STEP;
        velocity.x = platform_input(k);
        let t = Instant::now();
        c.move_character(&mut world, velocity, TIME_STEP)
            .expect("move");
        out.seconds_moving += t.elapsed().as_secs_f64();
        world.step(TIME_STEP, 4).expect("step");
        let body = world.body(platform).expect("platform");
        let feet = in_frame(
            c.world_capsule().center1,
            body.position(),
            body.rotation().angle(),
        );
        out.frame(k, feet, c.is_grounded());
    }
    out
}

/// Rapier on the platform course; `carry` adds the platform's velocity at
/// the feet to the desired translation when the platform is below them.
fn rapier_platform(carry: bool) -> RideOutcome {
    let (mut world, ground) = rapier_world();
    let floor = ColliderBuilder::cuboid(20.0, 1.0).translation(Vector::new(0.0, -1.0));
    attach(&mut world, floor, ground);
    let platform = world.bodies.insert(
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(PLATFORM_AT.x, PLATFORM_AT.y)),
    );
    let slab = ColliderBuilder::cuboid(PLATFORM_HALF.0, PLATFORM_HALF.1);
    attach(&mut world, slab, platform);
    world.step();
    let start = platform_start();
    let mut c = RapierCharacter::new(Vector::new(start.x, start.y + 0.01));
    let mut out = RideOutcome::default();
    for k in 0..PLATFORM_FRAMES {
        let (v, omega) = platform_drive(k as f32 * TIME_STEP);
        let body = &mut world.bodies[platform];
        body.set_linvel(Vector::new(v.x, v.y), true);
        body.set_angvel(omega, true);
        c.fall();
        let mut desired = Vector::new(platform_input(k) * TIME_STEP, c.vy * TIME_STEP);
        let t = Instant::now();
        let queries = world.query_pipeline();
        let feet = c.position - Vector::new(0.0, HALF_HEIGHT);
        if carry {
            let down = Ray::new(feet, Vector::new(0.0, -1.0));
            let below = queries.cast_ray(&down, RADIUS + 0.1, true);
            let on_platform = below
                .and_then(|(handle, _)| world.colliders[handle].parent())
                .is_some_and(|parent| parent == platform);
            if on_platform {
                desired += world.bodies[platform].velocity_at_point(feet) * TIME_STEP;
            }
        }
        let moved = c.slide(&queries, desired);
        out.seconds_moving += t.elapsed().as_secs_f64();
        c.take(&moved);
        world.step();
        let body = &world.bodies[platform];
        let centre = body.translation();
        let feet = Vec2::new(c.position.x, c.position.y - HALF_HEIGHT);
        let rel = in_frame(feet, Vec2::new(centre.x, centre.y), body.rotation().angle());
        out.frame(k, rel, c.grounded);
    }
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
                    "character [--runs N]: our CharacterController vs Rapier's KinematicCharacterController on the platformer's static course and on a moving platform"
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

    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = [RideOutcome::default(); 3];
    for _ in 0..runs.max(1) {
        last[0] = ours_platform();
        a.push(last[0].seconds_moving);
        last[1] = rapier_platform(false);
        b.push(last[1].seconds_moving);
        last[2] = rapier_platform(true);
        c.push(last[2].seconds_moving);
    }
    println!();
    println!(
        "| engine (moving platform) | feet at 0.5 s (m) | drift standing, 0.5–4 s (m) | feet at 10 s (m) | moved by the walk (m) | grounded | µs per move |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, o, times) in [
        ("Impulse2D CharacterController", last[0], a),
        ("Rapier 0.36, as it comes", last[1], b),
        ("Rapier 0.36 + platform velocity from the game", last[2], c),
    ] {
        println!(
            "| {name} | ({:.3}, {:.3}) | {:.3} | ({:.3}, {:.3}) | {:.3} | {:.1}% | {:.2} |",
            o.reference.x,
            o.reference.y,
            o.drift,
            o.end.x,
            o.end.y,
            o.end.x - o.reference.x,
            100.0 * o.grounded_frames as f64 / PLATFORM_FRAMES as f64,
            1e6 * median(times) / PLATFORM_FRAMES as f64
        );
    }
}
