//! The platformer: a character controller ([`CharacterController`]) on a
//! course of steps, walkable ramps and a crest, a steep slope, a conveyor, a
//! box too heavy to push and one light enough, a one-way platform and a
//! moving kinematic platform.
//!
//! The character runs an input track: right at [`RUN_SPEED`], jumping
//! ([`JUMP_SPEED`]) when it is blocked or at the one-way platform, until it
//! reaches [`END_X`]. A viewer with a keyboard takes over with
//! [`SceneScript::player_input`]. The course's static polygons
//! ([`course_polygons`]) and the track ([`Track`]) are public so
//! that the side-by-side comparison with Rapier builds the same course.
//!
//! The script assumes the registry's time step of 1/60 s ([`TIME_STEP`]).

use impulse2d::character::OneWayFilter;
use impulse2d::collision::{Capsule, compute_hull, make_box, make_offset_box, make_polygon};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyId, BodyType, CharacterController, CharacterDef, Result, Rot, ShapeDef, Vec2,
    World,
};

use crate::{PlayerInput, Scene, SceneScript};

/// The time step the script assumes, seconds.
pub const TIME_STEP: f32 = 1.0 / 60.0;
/// Running speed, m/s.
pub const RUN_SPEED: f32 = 4.0;
/// Take-off speed of a jump, m/s (2.45 m high at g = 10 m/s²).
pub const JUMP_SPEED: f32 = 7.0;
/// Where the character starts (the centre of its capsule), metres.
pub const START: Vec2 = Vec2::new(-8.0, 0.8);
/// The track stops running here, metres.
pub const END_X: f32 = 72.0;
/// The one-way platform: x range and top, metres.
pub const ONE_WAY: (f32, f32, f32) = (44.0, 48.0, 2.0);
/// Where the track jumps to pass up through the one-way platform, metres.
pub const ONE_WAY_JUMP_X: f32 = 42.5;
/// The conveyor: x range, metres, and tangent speed, m/s. Its belt stands
/// 2 cm above the ground.
pub const CONVEYOR: (f32, f32, f32) = (22.0, 28.0, 2.0);
/// The character's push force, newtons.
pub const PUSH_FORCE: f32 = 60.0;

/// The course's static convex polygons (world frame, metres), ground first.
pub fn course_polygons() -> Vec<Vec<Vec2>> {
    let rect = |x0: f32, x1: f32, y0: f32, y1: f32| {
        vec![
            Vec2::new(x0, y0),
            Vec2::new(x1, y0),
            Vec2::new(x1, y1),
            Vec2::new(x0, y1),
        ]
    };
    let tan30 = 30f32.to_radians().tan();
    let tan60 = 60f32.to_radians().tan();
    let ramp_run = 3.0 / tan30;
    vec![
        // Ground, top at 0.
        rect(-12.0, 80.0, -1.0, 0.0),
        // A 0.2 m step (below the 0.3 m step height).
        rect(-4.0, -2.0, 0.0, 0.2),
        // 30° up to a 3 m plateau, and 30° down over a crest.
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(ramp_run, 3.0),
            Vec2::new(ramp_run, 0.0),
        ],
        rect(ramp_run, ramp_run + 4.0, 0.0, 3.0),
        vec![
            Vec2::new(ramp_run + 4.0, 0.0),
            Vec2::new(ramp_run + 4.0, 3.0),
            Vec2::new(2.0 * ramp_run + 4.0, 0.0),
        ],
        // A 60° slope (too steep) up to a 1 m block.
        vec![
            Vec2::new(16.0, 0.0),
            Vec2::new(16.0 + 1.0 / tan60, 1.0),
            Vec2::new(16.0 + 1.0 / tan60, 0.0),
        ],
        rect(16.0 + 1.0 / tan60, 19.0, 0.0, 1.0),
        // The end wall.
        rect(76.0, 78.0, 0.0, 6.0),
    ]
}

/// Frames of being blocked after which the track jumps.
pub const BLOCKED_FRAMES: u32 = 15;

/// The scripted input track: run right; jump when blocked (moved less than a
/// quarter of the run speed for [`BLOCKED_FRAMES`] frames on the ground) or
/// at [`ONE_WAY_JUMP_X`]; stop at [`END_X`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Track {
    blocked_frames: u32,
}

impl Track {
    /// The input for the next frame, from where the character is (`x`,
    /// metres), how far it moved last frame (`last_dx`, metres) and whether
    /// it stands on the ground.
    pub fn input(&mut self, x: f32, last_dx: f32, grounded: bool) -> PlayerInput {
        if x >= END_X {
            return PlayerInput::default();
        }
        if grounded && last_dx < 0.25 * RUN_SPEED * TIME_STEP {
            self.blocked_frames += 1;
        } else {
            self.blocked_frames = 0;
        }
        let at_one_way = (ONE_WAY_JUMP_X..ONE_WAY_JUMP_X + 0.5).contains(&x);
        let jump = grounded && (self.blocked_frames >= BLOCKED_FRAMES || at_one_way);
        if jump {
            self.blocked_frames = 0;
        }
        PlayerInput { move_x: 1.0, jump }
    }
}

/// The platformer's state between steps.
pub struct Platformer {
    /// The character.
    pub controller: CharacterController,
    /// The kinematic platform.
    pub platform: BodyId,
    /// The heavy (200 kg) and the light (2 kg) box.
    pub boxes: [BodyId; 2],
    manual: Option<PlayerInput>,
    track: Track,
    last_dx: f32,
    jumps: u32,
}

/// The moving platform's velocity at time `t`: 3 m either side of x = 57
/// over a 7.9 s period, m/s.
pub fn platform_velocity(t: f32) -> Vec2 {
    let omega = 0.8;
    Vec2::new(3.0 * omega * (omega * t).cos(), 0.0)
}

/// Builds the course and the character.
pub fn platformer(world: &mut World) -> Result<(BodyId, Platformer)> {
    let ground = world.create_body(&BodyDef::default())?;
    for points in course_polygons() {
        let hull = compute_hull(&points)?;
        world.create_polygon_shape(ground, &ShapeDef::default(), &make_polygon(&hull, 0.0)?)?;
    }
    let (c0, c1, speed) = CONVEYOR;
    let belt = make_offset_box(
        0.5 * (c1 - c0),
        0.11,
        Vec2::new(0.5 * (c0 + c1), -0.09),
        Rot::IDENTITY,
    )?;
    world.create_polygon_shape(
        ground,
        &ShapeDef {
            tangent_speed: speed,
            ..Default::default()
        },
        &belt,
    )?;
    let (o0, o1, top) = ONE_WAY;
    let slab = make_offset_box(
        0.5 * (o1 - o0),
        0.1,
        Vec2::new(0.5 * (o0 + o1), top - 0.1),
        Rot::IDENTITY,
    )?;
    let one_way = world.create_polygon_shape(ground, &ShapeDef::default(), &slab)?;

    let platform = world.create_body(&BodyDef {
        body_type: BodyType::Kinematic,
        position: to_pos(Vec2::new(57.0, 0.125)),
        ..Default::default()
    })?;
    world.create_polygon_shape(platform, &ShapeDef::default(), &make_box(2.0, 0.125)?)?;

    let mut boxes = [ground; 2];
    for (k, (x, half, density)) in [(32.0, 0.5, 200.0), (66.0, 0.5, 2.0)]
        .into_iter()
        .enumerate()
    {
        let b = world.create_body(&BodyDef::dynamic(to_pos(Vec2::new(x, half))))?;
        world.create_polygon_shape(
            b,
            &ShapeDef {
                density,
                friction: 0.6,
                ..Default::default()
            },
            &make_box(half, half)?,
        )?;
        boxes[k] = b;
    }

    let mut controller = CharacterController::new(&CharacterDef {
        position: START,
        push_force: PUSH_FORCE,
        ..Default::default()
    })?;
    let filter: OneWayFilter = Box::new(move |shape| shape == one_way);
    controller.set_one_way_filter(Some(filter));
    Ok((
        ground,
        Platformer {
            controller,
            platform,
            boxes,
            manual: None,
            track: Track::default(),
            last_dx: 0.0,
            jumps: 0,
        },
    ))
}

/// The registry's scene.
pub fn scene(world: &mut World) -> Result<Scene> {
    let (ground, script) = platformer(world)?;
    Ok(Scene {
        ground,
        bodies: script.boxes.to_vec(),
        focus: None,
        script: Some(Box::new(script)),
    })
}

impl SceneScript for Platformer {
    fn before_step(&mut self, world: &mut World, step: u64) -> Result<()> {
        let t = step as f32 * TIME_STEP;
        world
            .body_mut(self.platform)?
            .set_linear_velocity(platform_velocity(t))?;
        let c = &mut self.controller;
        let input = match self.manual {
            Some(input) => input,
            None => self
                .track
                .input(c.position().x, self.last_dx, c.is_grounded()),
        };
        let mut v = c.velocity();
        v += world.gravity() * TIME_STEP;
        v.x = input.move_x.clamp(-1.0, 1.0) * RUN_SPEED;
        if input.jump && c.is_grounded() {
            v.y = JUMP_SPEED;
            self.jumps += 1;
        }
        let x0 = c.position().x;
        c.move_character(world, v, TIME_STEP)?;
        self.last_dx = c.position().x - x0;
        Ok(())
    }

    fn status(&self) -> String {
        let c = &self.controller;
        let p = c.position();
        let v = c.velocity();
        let ground = match c.ground() {
            Some(g) => format!("grounded, normal ({:.2}, {:.2})", g.normal.x, g.normal.y),
            None => "airborne".to_string(),
        };
        let mode = if self.manual.is_some() {
            "keys"
        } else {
            "track"
        };
        format!(
            "player ({:.2}, {:.2}) v ({:.2}, {:.2}) {ground}, {} jumps [{mode}]",
            p.x, p.y, v.x, v.y, self.jumps
        )
    }

    fn player_input(&mut self, input: PlayerInput) {
        self.manual = Some(input);
    }

    fn player(&self) -> Option<Capsule> {
        Some(self.controller.world_capsule())
    }
}
