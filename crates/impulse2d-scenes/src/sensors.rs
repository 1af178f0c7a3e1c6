//! Sensor events: balls roll along the floor through a sensor gate that
//! counts who enters and leaves, into a second sensor near the far wall that
//! sends them back to the start. The scene's script reads the last step's
//! sensor begin and end events before every step.

use crate::{Scene, SceneScript, flat_ground};
use impulse2d::collision::{Circle, Segment, make_offset_box};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, Result, Rot, ShapeDef, ShapeId, Vec2, World};

/// Radius of the balls, metres.
pub const BALL_RADIUS: f32 = 0.4;
/// Speed the balls start (and restart) with, rolling right, m/s.
pub const BALL_SPEED: f32 = 4.0;
/// Where a ball restarts: the first ball's start, metres.
pub const BALL_START: Vec2 = Vec2::new(-14.0, BALL_RADIUS);
/// Distance between the balls at the start, metres.
pub const BALL_SPACING: f32 = 2.0;
/// The gate sensor's extent along x, metres (it is 3 m tall, from the floor).
pub const GATE_X: (f32, f32) = (-1.5, 1.5);
/// The recycling sensor's extent along x, metres.
pub const RECYCLER_X: (f32, f32) = (12.0, 14.0);

/// A ball entering or leaving the gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateEvent {
    /// Steps taken when the event was reported (it happened during that step).
    pub step: u64,
    /// The ball.
    pub body: BodyId,
    /// `true` for entering, `false` for leaving.
    pub entered: bool,
}

/// The script: counts the gate's visitors and restarts the balls that reach
/// the recycler.
#[derive(Clone, Debug, PartialEq)]
pub struct SensorGate {
    /// The gate's sensor shape.
    pub gate: ShapeId,
    /// The recycler's sensor shape.
    pub recycler: ShapeId,
    /// Every gate event so far, in order.
    pub log: Vec<GateEvent>,
    /// Balls inside the gate now.
    pub inside: Vec<BodyId>,
    /// Balls sent back to the start so far.
    pub recycled: usize,
}

impl SceneScript for SensorGate {
    fn before_step(&mut self, world: &mut World, step: u64) -> Result<()> {
        let events = world.sensor_events();
        let mut restart = Vec::new();
        for e in events.begin {
            let Ok(body) = world.shape(e.visitor_shape_id).map(|view| view.body()) else {
                continue;
            };
            if e.sensor_shape_id == self.gate {
                self.log.push(GateEvent {
                    step,
                    body,
                    entered: true,
                });
                self.inside.push(body);
            } else if e.sensor_shape_id == self.recycler {
                restart.push(body);
            }
        }
        for e in events.end {
            if e.sensor_shape_id != self.gate {
                continue;
            }
            let Ok(body) = world.shape(e.visitor_shape_id).map(|view| view.body()) else {
                continue;
            };
            self.log.push(GateEvent {
                step,
                body,
                entered: false,
            });
            self.inside.retain(|&b| b != body);
        }
        for body in restart {
            world
                .body_mut(body)?
                .set_transform(to_pos(BALL_START), Rot::IDENTITY)?;
            launch(world, body)?;
            self.recycled += 1;
        }
        Ok(())
    }

    fn status(&self) -> String {
        let entered = self.log.iter().filter(|e| e.entered).count();
        format!(
            "gate: {entered} entered, {} left, {} inside; {} recycled",
            self.log.len() - entered,
            self.inside.len(),
            self.recycled
        )
    }
}

/// Sets a ball rolling right at [`BALL_SPEED`] without slipping.
fn launch(world: &mut World, ball: BodyId) -> Result<()> {
    world
        .body_mut(ball)?
        .set_linear_velocity(Vec2::new(BALL_SPEED, 0.0))?;
    world
        .body_mut(ball)
        .and_then(|mut view| view.set_angular_velocity(-BALL_SPEED / BALL_RADIUS))
}

/// The sensors scene, as built.
#[derive(Debug)]
pub struct Sensors {
    /// The floor (top at y = 0) with walls at x = ±16 m.
    pub ground: BodyId,
    /// The balls, from the start line rightwards.
    pub balls: Vec<BodyId>,
    /// The script.
    pub script: SensorGate,
}

impl Sensors {
    /// The scene for the registry.
    pub fn into_scene(self) -> Scene {
        Scene {
            ground: self.ground,
            focus: self.balls.first().copied(),
            bodies: self.balls,
            script: Some(Box::new(self.script)),
        }
    }
}

/// A static sensor box on the floor spanning `x` and 3 m up.
fn sensor_box(world: &mut World, ground: BodyId, x: (f32, f32)) -> Result<ShapeId> {
    let def = ShapeDef {
        is_sensor: true,
        enable_sensor_events: true,
        ..ShapeDef::default()
    };
    let half = 0.5 * (x.1 - x.0);
    let zone = make_offset_box(half, 1.5, Vec2::new(x.0 + half, 1.5), Rot::IDENTITY)?;
    world.create_polygon_shape(ground, &def, &zone)
}

/// Builds the floor, walls, the two sensors and `count` balls rolling right
/// at [`BALL_SPEED`] from [`BALL_START`], [`BALL_SPACING`] apart.
pub fn sensors(world: &mut World, count: usize) -> Result<Sensors> {
    let ground = flat_ground(world, 20.0)?;
    for x in [-16.0, 16.0] {
        let wall = Segment::new(Vec2::new(x, 0.0), Vec2::new(x, 4.0))?;
        world.create_segment_shape(ground, &ShapeDef::default(), &wall)?;
    }
    let gate = sensor_box(world, ground, GATE_X)?;
    let recycler = sensor_box(world, ground, RECYCLER_X)?;
    let circle = Circle {
        center: Vec2::ZERO,
        radius: BALL_RADIUS,
    };
    let mut balls = Vec::with_capacity(count);
    for i in 0..count {
        let ball = world.create_body(&BodyDef::dynamic(to_pos(
            BALL_START + Vec2::new(BALL_SPACING * i as f32, 0.0),
        )))?;
        world.create_circle_shape(ball, &ShapeDef::default(), &circle)?;
        launch(world, ball)?;
        balls.push(ball);
    }
    Ok(Sensors {
        ground,
        balls,
        script: SensorGate {
            gate,
            recycler,
            log: Vec::new(),
            inside: Vec::new(),
            recycled: 0,
        },
    })
}
