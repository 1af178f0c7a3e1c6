//! `BipedalWalker-v3`: a two-legged walker crosses rough terrain.
//!
//! A port of Gymnasium's `gymnasium/envs/box2d/bipedal_walker.py` (v3) onto
//! Impulse2D, with the same observation (24 floats: hull angle and speeds,
//! joint angles and speeds, leg contacts, 10 lidar fractions), actions
//! (`Box(-1, 1, (4,))`: hip and knee motor torques), reward (forward progress,
//! head angle, torque cost, −100 for a fall), termination rules, terrain
//! generation (grass; with `hardcore`, stumps, stairs and pits), constants and
//! time limits (1600 steps, 2000 in hardcore).
//!
//! Mapping from Box2D 2.3 to Impulse2D:
//! - `world.Step(1/50, 180, 60)` becomes `world.step(1/50, 16)`
//!   ([`SUBSTEPS`] substeps of Box2D v3's soft step).
//! - The start: Gymnasium creates the legs half a metre above their hips and
//!   lets Box2D 2.3's position iterations pull them together, which leaves
//!   the walker crouched and still; v3's soft constraints would launch it
//!   instead. The walker is therefore created in the crouch 2.3 leaves it in
//!   (hull at Gymnasium's height, knees bent so the feet rest on the ground),
//!   see `start_pose` in the source.
//! - Each terrain piece was its own static body; here they are shapes of one
//!   static body (static shapes do not interact, so nothing changes).
//! - Box2D 2.3's default friction 0.2 is set where Gymnasium relies on it
//!   (the legs); v3's default is 0.6.
//! - The lidar's ray-cast callback, which skipped fixtures outside category 1
//!   and clipped the ray at each hit, is `World::cast_ray_closest` with a
//!   filter that sees category 1 only: the closest ground hit.
//! - The hull angle is unwrapped as Box2D 2.3's `body.angle` (see
//!   [`crate::lunar_lander`]); joint angles stay within their limits.
//! - A leg's `ground_contact` counts touching contacts (see
//!   [`crate::lunar_lander`] for the 2.3 flag quirk not reproduced).
//! - Random numbers: [`Rng`], drawn in Gymnasium's order (terrain, clouds,
//!   the initial push).

use impulse2d::collision::{Segment, compute_hull, make_box, make_polygon};
use impulse2d::{
    BodyDef, BodyId, BodyType, Filter, JointDef, JointId, QueryFilter, RevoluteJointDef, Rot,
    ShapeDef, ShapeId, Vec2, World, WorldDef,
};

use crate::env::{
    Action, ActionSpace, Env, EnvError, ObservationSpace, StepResult, check_len, time_limit,
    track_contacts, unwrap_angle,
};
use crate::render::{Canvas, Rgb};
use crate::rng::Rng;

/// Steps per second.
pub const FPS: f64 = 50.0;
/// Pixels per metre.
pub const SCALE: f64 = 30.0;
/// Largest torque of a hip or knee motor, N·m.
pub const MOTORS_TORQUE: f64 = 80.0;
/// Speed of a hip motor, rad/s.
pub const SPEED_HIP: f64 = 4.0;
/// Speed of a knee motor, rad/s.
pub const SPEED_KNEE: f64 = 6.0;
/// Length of a lidar ray, m.
pub const LIDAR_RANGE: f64 = 160.0 / SCALE;
/// Largest horizontal force applied at the start, N.
pub const INITIAL_RANDOM: f64 = 5.0;
/// The hull's outline, pixels.
pub const HULL_POLY: [(f64, f64); 5] = [
    (-30.0, 9.0),
    (6.0, 9.0),
    (34.0, 1.0),
    (34.0, -8.0),
    (-30.0, -8.0),
];
/// Height of the hips below the hull's origin, m (negative: below).
pub const LEG_DOWN: f64 = -8.0 / SCALE;
/// Width of an upper leg, m.
pub const LEG_W: f64 = 8.0 / SCALE;
/// Length of an upper or lower leg, m.
pub const LEG_H: f64 = 34.0 / SCALE;
/// Width of a rendered frame, pixels.
pub const VIEWPORT_W: usize = 600;
/// Height of a rendered frame, pixels.
pub const VIEWPORT_H: usize = 400;
/// Horizontal distance between terrain points, m.
pub const TERRAIN_STEP: f64 = 14.0 / SCALE;
/// Number of terrain points.
pub const TERRAIN_LENGTH: usize = 200;
/// Mean terrain height, m.
pub const TERRAIN_HEIGHT: f64 = VIEWPORT_H as f64 / SCALE / 4.0;
/// Length of a grass stretch between obstacles, terrain steps (up to).
pub const TERRAIN_GRASS: i64 = 10;
/// Flat start, terrain steps.
pub const TERRAIN_STARTPAD: i64 = 20;
/// Friction of the terrain.
pub const FRICTION: f32 = 2.5;
/// Gymnasium's time limit for `BipedalWalker-v3`, steps.
pub const MAX_EPISODE_STEPS: u32 = 1600;
/// Gymnasium's time limit for `BipedalWalkerHardcore-v3`, steps.
pub const MAX_EPISODE_STEPS_HARDCORE: u32 = 2000;
/// Substeps of each 1/50 s step (Box2D 2.3 ran 180 velocity and 60 position
/// iterations instead). Measured with Gymnasium's heuristic over seeds 0–9:
/// 4 substeps, 1 walk past the first third of the course; 8, 6; 16, 8
/// (Gymnasium's original: 6).
pub const SUBSTEPS: u32 = 16;
/// The walker's collision category.
const WALKER_CATEGORY: u64 = 0x0020;
/// The ground's collision category.
const GROUND_CATEGORY: u64 = 0x0001;

const SKY: Rgb = (215, 215, 255);
const HULL_FILL: Rgb = (127, 51, 229);
const HULL_OUTLINE: Rgb = (76, 76, 127);
const OBSTACLE_FILL: Rgb = (255, 255, 255);
const OBSTACLE_OUTLINE: Rgb = (153, 153, 153);
const EARTH: Rgb = (102, 153, 76);

/// Settings of a BipedalWalker (Gymnasium's constructor arguments).
#[derive(Clone, Debug, PartialEq)]
pub struct BipedalWalkerConfig {
    /// Stumps, stairs and pits between the grass.
    pub hardcore: bool,
    /// Steps after which an episode is truncated; `None` for no limit.
    pub max_episode_steps: Option<u32>,
}

impl BipedalWalkerConfig {
    /// Gymnasium's settings for the normal (`false`) or hardcore (`true`)
    /// walker: time limit 1600 or 2000 steps.
    pub fn new(hardcore: bool) -> Self {
        BipedalWalkerConfig {
            hardcore,
            max_episode_steps: Some(if hardcore {
                MAX_EPISODE_STEPS_HARDCORE
            } else {
                MAX_EPISODE_STEPS
            }),
        }
    }
}

impl Default for BipedalWalkerConfig {
    /// The normal walker.
    fn default() -> Self {
        BipedalWalkerConfig::new(false)
    }
}

/// A cloud: corners, metres, and its horizontal extent (left, right).
type Cloud = (Vec<(f32, f32)>, f32, f32);

/// An earth polygon under the grass line, metres.
type EarthPoly = [(f32, f32); 4];

/// Gymnasium's clouds use 3.14 for π.
#[allow(clippy::approx_constant)]
const CLOUD_PI: f64 = 3.14;

/// A terrain piece to draw.
struct TerrainPiece {
    /// Corners, metres.
    points: Vec<(f32, f32)>,
    fill: Rgb,
    outline: Rgb,
}

/// Everything that lives for one episode.
struct Episode {
    world: World,
    hull: BodyId,
    hull_shape: ShapeId,
    /// Upper left, lower left, upper right, lower right (Gymnasium's `legs`).
    legs: [BodyId; 4],
    /// Shapes of the two lower legs.
    lower_shapes: [ShapeId; 2],
    /// Hip left, knee left, hip right, knee right (Gymnasium's `joints`).
    joints: [JointId; 4],
    lower_contacts: [u32; 2],
    game_over: bool,
    prev_shaping: Option<f64>,
    angle: f64,
    last_wrapped: f32,
    /// Obstacles (stumps, stairs, pit walls) and the grass edges with their
    /// colours, in Gymnasium's drawing order.
    pieces: Vec<TerrainPiece>,
    /// Earth polygons under the grass line, metres.
    terrain_poly: Vec<EarthPoly>,
    /// Clouds: corners, metres, and their horizontal extent.
    clouds: Vec<Cloud>,
    /// Lidar rays of the last step: start, end (hit or full length), metres.
    lidar: [((f32, f32), (f32, f32)); 10],
    lidar_render: usize,
    scroll: f64,
    elapsed: u32,
}

/// Gymnasium's `BipedalWalker-v3` on Impulse2D.
pub struct BipedalWalker {
    config: BipedalWalkerConfig,
    rng: Rng,
    episode: Option<Episode>,
}

impl BipedalWalker {
    /// A walker with `config`.
    pub fn new(config: BipedalWalkerConfig) -> Self {
        BipedalWalker {
            config,
            rng: Rng::new(0),
            episode: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &BipedalWalkerConfig {
        &self.config
    }

    /// The physics world of the current episode (`None` before the first reset).
    pub fn world(&self) -> Option<&World> {
        self.episode.as_ref().map(|e| &e.world)
    }

    /// The hull of the current episode.
    pub fn hull(&self) -> Option<BodyId> {
        self.episode.as_ref().map(|e| e.hull)
    }

    /// Position of the hull, metres (`None` before the first reset).
    pub fn hull_position(&self) -> Option<(f32, f32)> {
        let ep = self.episode.as_ref()?;
        let p = ep.world.body(ep.hull).ok()?.position();
        Some((p.x, p.y))
    }

    /// Builds the terrain: returns the grass line's points (metres) and
    /// pieces to draw, creating the shapes on `ground`.
    fn generate_terrain(
        &mut self,
        world: &mut World,
        ground: BodyId,
    ) -> Result<(Vec<TerrainPiece>, Vec<EarthPoly>), EnvError> {
        const GRASS: i64 = 0;
        const STUMP: i64 = 1;
        const STAIRS: i64 = 2;
        const PIT: i64 = 3;
        // Gymnasium's `_STATES_`: one past the last state.
        const STATES: i64 = 4;
        let rng = &mut self.rng;
        let mut state = GRASS;
        let mut velocity = 0.0f64;
        let mut y = TERRAIN_HEIGHT;
        let mut counter = TERRAIN_STARTPAD;
        let mut oneshot = false;
        let mut terrain_x = Vec::with_capacity(TERRAIN_LENGTH);
        let mut terrain_y = Vec::with_capacity(TERRAIN_LENGTH);
        let (mut stair_steps, mut stair_width, mut stair_height) = (0i64, 0i64, 0i64);
        let mut original_y = 0.0f64;
        let mut pieces = Vec::new();
        let polygon_def = ShapeDef {
            density: 0.0,
            friction: FRICTION,
            restitution: 0.0,
            ..Default::default()
        };
        let mut add_polygon = |world: &mut World, poly: [(f64, f64); 4]| -> Result<(), EnvError> {
            let points: Vec<Vec2> = poly
                .iter()
                .map(|&(x, y)| Vec2::new(x as f32, y as f32))
                .collect();
            let hull = make_polygon(&compute_hull(&points)?, 0.0)?;
            world.create_polygon_shape(ground, &polygon_def, &hull)?;
            pieces.push(TerrainPiece {
                points: poly.iter().map(|&(x, y)| (x as f32, y as f32)).collect(),
                fill: OBSTACLE_FILL,
                outline: OBSTACLE_OUTLINE,
            });
            Ok(())
        };

        for i in 0..TERRAIN_LENGTH {
            let x = i as f64 * TERRAIN_STEP;
            terrain_x.push(x);
            if state == GRASS && !oneshot {
                velocity = 0.8 * velocity + 0.01 * sign(TERRAIN_HEIGHT - y);
                if i as i64 > TERRAIN_STARTPAD {
                    velocity += rng.uniform(-1.0, 1.0) / SCALE;
                }
                y += velocity;
            } else if state == PIT && oneshot {
                counter = rng.integers(3, 5);
                let poly = [
                    (x, y),
                    (x + TERRAIN_STEP, y),
                    (x + TERRAIN_STEP, y - 4.0 * TERRAIN_STEP),
                    (x, y - 4.0 * TERRAIN_STEP),
                ];
                add_polygon(world, poly)?;
                let shift = TERRAIN_STEP * counter as f64;
                add_polygon(world, poly.map(|(px, py)| (px + shift, py)))?;
                counter += 2;
                original_y = y;
            } else if state == PIT && !oneshot {
                y = original_y;
                if counter > 1 {
                    y -= 4.0 * TERRAIN_STEP;
                }
            } else if state == STUMP && oneshot {
                counter = rng.integers(1, 3);
                let size = counter as f64 * TERRAIN_STEP;
                add_polygon(
                    world,
                    [(x, y), (x + size, y), (x + size, y + size), (x, y + size)],
                )?;
            } else if state == STAIRS && oneshot {
                stair_height = if rng.next_f64() > 0.5 { 1 } else { -1 };
                stair_width = rng.integers(4, 5);
                stair_steps = rng.integers(3, 5);
                original_y = y;
                for s in 0..stair_steps {
                    let (s, w, h) = (s as f64, stair_width as f64, stair_height as f64);
                    add_polygon(
                        world,
                        [
                            (x + (s * w) * TERRAIN_STEP, y + (s * h) * TERRAIN_STEP),
                            (
                                x + ((1.0 + s) * w) * TERRAIN_STEP,
                                y + (s * h) * TERRAIN_STEP,
                            ),
                            (
                                x + ((1.0 + s) * w) * TERRAIN_STEP,
                                y + (-1.0 + s * h) * TERRAIN_STEP,
                            ),
                            (
                                x + (s * w) * TERRAIN_STEP,
                                y + (-1.0 + s * h) * TERRAIN_STEP,
                            ),
                        ],
                    )?;
                }
                counter = stair_steps * stair_width;
            } else if state == STAIRS && !oneshot {
                let s = (stair_steps * stair_width - counter - stair_height) as f64;
                let n = s / stair_width as f64;
                y = original_y + (n * stair_height as f64) * TERRAIN_STEP;
            }
            oneshot = false;
            terrain_y.push(y);
            counter -= 1;
            if counter == 0 {
                counter = rng.integers(TERRAIN_GRASS / 2, TERRAIN_GRASS);
                if state == GRASS && self.config.hardcore {
                    state = rng.integers(1, STATES);
                } else {
                    state = GRASS;
                }
                oneshot = true;
            }
        }

        let edge_def = ShapeDef {
            density: 0.0,
            friction: FRICTION,
            restitution: 0.0,
            filter: Filter {
                category_bits: GROUND_CATEGORY,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut terrain_poly = Vec::with_capacity(TERRAIN_LENGTH - 1);
        for i in 0..TERRAIN_LENGTH - 1 {
            let p1 = (terrain_x[i] as f32, terrain_y[i] as f32);
            let p2 = (terrain_x[i + 1] as f32, terrain_y[i + 1] as f32);
            world.create_segment_shape(
                ground,
                &edge_def,
                &Segment::new(Vec2::new(p1.0, p1.1), Vec2::new(p2.0, p2.1))?,
            )?;
            let color = (76, if i % 2 == 0 { 255 } else { 204 }, 76);
            pieces.push(TerrainPiece {
                points: vec![p1, p2],
                fill: color,
                outline: color,
            });
            terrain_poly.push([p1, p2, (p2.0, 0.0), (p1.0, 0.0)]);
        }
        // Gymnasium reverses its terrain list before drawing it.
        pieces.reverse();
        Ok((pieces, terrain_poly))
    }

    /// Gymnasium's clouds (decoration; drawn for the random stream's order).
    fn generate_clouds(&mut self) -> Vec<Cloud> {
        let mut clouds = Vec::with_capacity(TERRAIN_LENGTH / 20);
        for _ in 0..TERRAIN_LENGTH / 20 {
            let x = self.rng.uniform(0.0, TERRAIN_LENGTH as f64) * TERRAIN_STEP;
            let y = VIEWPORT_H as f64 / SCALE * 3.0 / 4.0;
            let poly: Vec<(f32, f32)> = (0..5)
                .map(|a| {
                    let a = a as f64;
                    let px = x
                        + 15.0 * TERRAIN_STEP * (CLOUD_PI * 2.0 * a / 5.0).sin()
                        + self.rng.uniform(0.0, 5.0 * TERRAIN_STEP);
                    let py = y
                        + 5.0 * TERRAIN_STEP * (CLOUD_PI * 2.0 * a / 5.0).cos()
                        + self.rng.uniform(0.0, 5.0 * TERRAIN_STEP);
                    (px as f32, py as f32)
                })
                .collect();
            let x1 = poly.iter().map(|p| p.0).fold(f32::INFINITY, f32::min);
            let x2 = poly.iter().map(|p| p.0).fold(f32::NEG_INFINITY, f32::max);
            clouds.push((poly, x1, x2));
        }
        clouds
    }

    fn build(&mut self) -> Result<Episode, EnvError> {
        let mut world = World::new(&WorldDef {
            gravity: Vec2::new(0.0, -10.0),
            ..Default::default()
        })?;
        let ground = world.create_body(&BodyDef::default())?;
        let (pieces, terrain_poly) = self.generate_terrain(&mut world, ground)?;
        let clouds = self.generate_clouds();

        let init_x = (TERRAIN_STEP * TERRAIN_STARTPAD as f64 / 2.0) as f32;
        let (init_y, leg_positions) = start_pose();
        let walker_filter = Filter {
            category_bits: WALKER_CATEGORY,
            mask_bits: GROUND_CATEGORY,
            group_index: 0,
        };
        let hull = world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: Vec2::new(init_x, init_y),
            ..Default::default()
        })?;
        let points: Vec<Vec2> = HULL_POLY
            .iter()
            .map(|&(x, y)| Vec2::new((x / SCALE) as f32, (y / SCALE) as f32))
            .collect();
        let hull_shape = world.create_polygon_shape(
            hull,
            &ShapeDef {
                density: 5.0,
                friction: 0.1,
                restitution: 0.0,
                filter: walker_filter,
                ..Default::default()
            },
            &make_polygon(&compute_hull(&points)?, 0.0)?,
        )?;
        let push = self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM);
        world
            .body_mut(hull)?
            .apply_force_to_center(Vec2::new(push as f32, 0.0), true)?;

        let leg_def = ShapeDef {
            density: 1.0,
            friction: 0.2,
            restitution: 0.0,
            filter: walker_filter,
            ..Default::default()
        };
        // A leg segment: a box of width `width` (m, length LEG_H) placed at
        // `offset` from (init_x, 0) turned by `angle`, hinged at its top to
        // `parent` at height `parent_y` (m, the parent's frame), with a motor
        // of speed `speed` (rad/s) and the angle limits `limits` (rad).
        let segment = |world: &mut World,
                       parent: BodyId,
                       parent_y: f64,
                       (offset, angle): (Vec2, f32),
                       width: f64,
                       speed: f32,
                       (lower_angle, upper_angle): (f32, f32)|
         -> Result<(BodyId, ShapeId, JointId), EnvError> {
            let body = world.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: Vec2::new(init_x, 0.0) + offset,
                rotation: Rot::from_angle(angle),
                ..Default::default()
            })?;
            let shape = world.create_polygon_shape(
                body,
                &leg_def,
                &make_box((width / 2.0) as f32, (LEG_H / 2.0) as f32)?,
            )?;
            let joint = world.create_revolute_joint(&RevoluteJointDef {
                base: JointDef {
                    body_a: parent,
                    body_b: body,
                    local_anchor_a: Vec2::new(0.0, parent_y as f32),
                    local_anchor_b: Vec2::new(0.0, (LEG_H / 2.0) as f32),
                    ..Default::default()
                },
                enable_motor: true,
                enable_limit: true,
                max_motor_torque: MOTORS_TORQUE as f32,
                motor_speed: speed,
                lower_angle,
                upper_angle,
                ..Default::default()
            })?;
            Ok((body, shape, joint))
        };
        let mut legs = [hull; 4];
        let mut joints = Vec::with_capacity(4);
        let mut lower_shapes = [hull_shape; 2];
        for (k, i) in [-1.0f64, 1.0].into_iter().enumerate() {
            let (upper_offset, upper_angle, lower_offset, lower_angle) = leg_positions[k];
            let (upper, _, hip) = segment(
                &mut world,
                hull,
                LEG_DOWN,
                (upper_offset, upper_angle),
                LEG_W,
                i as f32,
                (-0.8, 1.1),
            )?;
            let (lower, lower_shape, knee) = segment(
                &mut world,
                upper,
                -LEG_H / 2.0,
                (lower_offset, lower_angle),
                0.8 * LEG_W,
                1.0,
                (-1.6, -0.1),
            )?;
            joints.extend([hip, knee]);
            lower_shapes[k] = lower_shape;
            legs[2 * k] = upper;
            legs[2 * k + 1] = lower;
        }

        Ok(Episode {
            world,
            hull,
            hull_shape,
            legs,
            lower_shapes,
            joints: [joints[0], joints[1], joints[2], joints[3]],
            lower_contacts: [0; 2],
            game_over: false,
            prev_shaping: None,
            angle: 0.0,
            last_wrapped: 0.0,
            pieces,
            terrain_poly,
            clouds,
            lidar: [((0.0, 0.0), (0.0, 0.0)); 10],
            lidar_render: 0,
            scroll: 0.0,
            elapsed: 0,
        })
    }

    /// One step with a checked action; writes the observation.
    fn advance(&mut self, action: [f32; 4], obs: &mut [f32]) -> Result<StepResult, EnvError> {
        let ep = self.episode.as_mut().ok_or(EnvError::NotReset)?;
        for (k, (&joint, &a)) in ep.joints.iter().zip(&action).enumerate() {
            let speed = if k % 2 == 0 { SPEED_HIP } else { SPEED_KNEE };
            let a = a as f64;
            let mut motor = ep.world.joint_mut(joint)?.motor()?;
            motor.set_speed((speed * sign(a)) as f32)?;
            motor.set_max_force((MOTORS_TORQUE * a.abs().clamp(0.0, 1.0)) as f32)?;
        }

        ep.world.step((1.0 / FPS) as f32, SUBSTEPS)?;

        let events = ep.world.contact_events();
        if track_contacts(
            &events,
            ep.hull_shape,
            &ep.lower_shapes,
            &mut ep.lower_contacts,
        ) {
            ep.game_over = true;
        }

        let body = ep.world.body(ep.hull)?;
        let pos = body.position();
        let vel = body.linear_velocity();
        let omega = body.angular_velocity() as f64;
        let wrapped = body.rotation().angle();
        ep.angle = unwrap_angle(ep.angle, &mut ep.last_wrapped, wrapped);

        let ground_only = QueryFilter {
            category_bits: u64::MAX,
            mask_bits: GROUND_CATEGORY,
        };
        let mut lidar = [1.0f64; 10];
        for (i, fraction) in lidar.iter_mut().enumerate() {
            let a = 1.5 * i as f64 / 10.0;
            let p1 = (pos.x, pos.y);
            let p2 = (
                (pos.x as f64 + a.sin() * LIDAR_RANGE) as f32,
                (pos.y as f64 - a.cos() * LIDAR_RANGE) as f32,
            );
            let translation = Vec2::new(p2.0 - p1.0, p2.1 - p1.1);
            let hit = ep.world.cast_ray_closest(pos, translation, ground_only)?;
            ep.lidar[i] = match hit {
                Some(h) => {
                    *fraction = h.fraction as f64;
                    (p1, (h.point.x, h.point.y))
                }
                None => (p1, p2),
            };
        }

        let mut state = [0.0f64; 24];
        state[0] = ep.angle;
        state[1] = 2.0 * omega / FPS;
        state[2] = 0.3 * vel.x as f64 * (VIEWPORT_W as f64 / SCALE) / FPS;
        state[3] = 0.3 * vel.y as f64 * (VIEWPORT_H as f64 / SCALE) / FPS;
        for leg in 0..2 {
            let hip = ep.world.joint(ep.joints[2 * leg])?.revolute()?;
            let (hip_angle, hip_speed) = (hip.angle() as f64, hip.speed() as f64);
            let knee = ep.world.joint(ep.joints[2 * leg + 1])?.revolute()?;
            let (knee_angle, knee_speed) = (knee.angle() as f64, knee.speed() as f64);
            let s = &mut state[4 + 5 * leg..9 + 5 * leg];
            s[0] = hip_angle;
            s[1] = hip_speed / SPEED_HIP;
            s[2] = knee_angle + 1.0;
            s[3] = knee_speed / SPEED_KNEE;
            s[4] = if ep.lower_contacts[leg] > 0 { 1.0 } else { 0.0 };
        }
        state[14..].copy_from_slice(&lidar);
        for (o, s) in obs.iter_mut().zip(state) {
            *o = s as f32;
        }

        ep.scroll = pos.x as f64 - VIEWPORT_W as f64 / SCALE / 5.0;
        let shaping = 130.0 * pos.x as f64 / SCALE - 5.0 * state[0].abs();
        let mut reward = match ep.prev_shaping {
            Some(prev) => shaping - prev,
            None => 0.0,
        };
        ep.prev_shaping = Some(shaping);
        for a in action {
            reward -= 0.00035 * MOTORS_TORQUE * (a.abs() as f64).clamp(0.0, 1.0);
        }
        let mut terminated = false;
        if ep.game_over || pos.x < 0.0 {
            reward = -100.0;
            terminated = true;
        }
        if pos.x as f64 > (TERRAIN_LENGTH as f64 - TERRAIN_GRASS as f64) * TERRAIN_STEP {
            terminated = true;
        }
        Ok(StepResult {
            reward,
            terminated,
            truncated: false,
        })
    }
}

/// The walker's starting pose: the hull's height and, for the left and right
/// leg, the upper and lower leg's centres relative to `(init_x, 0)` and their
/// angles, metres and radians.
///
/// Gymnasium creates the upper legs 2·|LEG_DOWN| = 0.53 m above their hip
/// anchors; joined at the hips, the straight legs would reach 0.27 m into the
/// ground. Box2D 2.3's position iterations join them and push the feet out
/// of the ground without giving any body a velocity, moving mostly the light
/// legs: Gymnasium's walker starts crouched, hull where it was created, knees
/// bent (observed after its first steps: knee angles −0.88, hips 0.34–0.44).
/// Box2D v3's soft joints and contacts would turn the same errors into
/// velocity (the legs are yanked down, the ground stops them and the hull
/// flies up at ~3 m/s), so the pose is built as 2.3's solver leaves it: hull
/// at Gymnasium's height, each upper leg at Gymnasium's angle (±0.05 rad)
/// plus a bend φ, the knee at −2φ, φ chosen so that the lowest foot corner
/// rests on the start pad.
///
/// Gymnasium's heuristic depends on that start: from a symmetric crouch, or
/// with the second leg the more bent, it falls backwards within 130 steps in
/// every seed tried; with the first leg the more bent, as in Gymnasium, it
/// walks (crate tests).
fn start_pose() -> (f32, [(Vec2, f32, Vec2, f32); 2]) {
    let half = (LEG_H / 2.0) as f32;
    let hx = (0.8 * LEG_W / 2.0) as f32;
    let init_y = (TERRAIN_HEIGHT + 2.0 * LEG_H) as f32;
    let hip = Vec2::new(0.0, init_y + LEG_DOWN as f32);
    let pose = |phi: f32, delta: f32| {
        let (up_angle, low_angle) = (delta + phi, delta - phi);
        let (rot_u, rot_l) = (Rot::from_angle(up_angle), Rot::from_angle(low_angle));
        let upper = hip - rot_u.rotate(Vec2::new(0.0, half));
        let knee = upper - rot_u.rotate(Vec2::new(0.0, half));
        let lower = knee - rot_l.rotate(Vec2::new(0.0, half));
        let lowest = [Vec2::new(-hx, -half), Vec2::new(hx, -half)]
            .map(|c| (lower + rot_l.rotate(c)).y)
            .into_iter()
            .fold(f32::INFINITY, f32::min);
        ((upper, up_angle, lower, low_angle), lowest)
    };
    let legs = [-1.0f32, 1.0].map(|i| {
        // Gymnasium creates the legs at ±0.05 rad; after 2.3's correction the
        // first leg is the more bent one (hips 0.44 and 0.34), so the offsets
        // are the other way round here.
        let delta = -i * 0.05;
        // The feet rise as φ grows: bisect for the bend that puts the lowest
        // corner on the ground (straight legs reach below it).
        let (mut lo, mut hi) = (0.0f32, 1.5f32);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if pose(mid, delta).1 < TERRAIN_HEIGHT as f32 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        pose(hi, delta).0
    });
    (init_y, legs)
}

/// numpy's `sign`: −1, 0 or +1.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

impl Env for BipedalWalker {
    type Obs = f32;

    fn observation_space(&self) -> ObservationSpace {
        use std::f32::consts::PI;
        let mut low = vec![
            -PI, -5.0, -5.0, -5.0, -PI, -5.0, -PI, -5.0, -0.0, -PI, -5.0, -PI, -5.0, -0.0,
        ];
        let mut high = vec![
            PI, 5.0, 5.0, 5.0, PI, 5.0, PI, 5.0, 5.0, PI, 5.0, PI, 5.0, 5.0,
        ];
        low.extend([-1.0; 10]);
        high.extend([1.0; 10]);
        ObservationSpace {
            shape: vec![24],
            low,
            high,
        }
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Continuous {
            low: vec![-1.0; 4],
            high: vec![1.0; 4],
        }
    }

    fn reset(&mut self, seed: Option<u64>, obs: &mut [f32]) -> Result<(), EnvError> {
        check_len(24, obs.len())?;
        if let Some(seed) = seed {
            self.rng = Rng::new(seed);
        }
        let episode = self.build()?;
        self.episode = Some(episode);
        // Gymnasium's reset returns the observation of a first zero-action step.
        self.advance([0.0; 4], obs)?;
        Ok(())
    }

    fn step(&mut self, action: Action<'_>, obs: &mut [f32]) -> Result<StepResult, EnvError> {
        check_len(24, obs.len())?;
        let Action::Continuous(a) = action else {
            return Err(EnvError::InvalidAction(
                "BipedalWalker takes 4 numbers".into(),
            ));
        };
        let action: [f32; 4] = a.try_into().map_err(|_| {
            EnvError::InvalidAction(format!("BipedalWalker takes 4 numbers, got {}", a.len()))
        })?;
        if !action.iter().all(|v| v.is_finite()) {
            return Err(EnvError::InvalidAction(format!("{action:?} is not finite")));
        }
        if self.episode.is_none() {
            return Err(EnvError::NotReset);
        }
        let mut result = self.advance(action, obs)?;
        let ep = self.episode.as_mut().ok_or(EnvError::NotReset)?;
        result.truncated = time_limit(&mut ep.elapsed, self.config.max_episode_steps);
        Ok(result)
    }

    fn render_size(&self) -> (usize, usize) {
        (VIEWPORT_W, VIEWPORT_H)
    }

    fn render(&mut self, rgb: &mut [u8]) -> Result<(), EnvError> {
        check_len(VIEWPORT_W * VIEWPORT_H * 3, rgb.len())?;
        let mut canvas = Canvas::new(VIEWPORT_W, VIEWPORT_H, SKY)
            .ok_or_else(|| EnvError::Physics("cannot allocate a frame".into()))?;
        let Some(ep) = self.episode.as_mut() else {
            return canvas.write_rgb(rgb);
        };
        let scale = SCALE as f32;
        let scroll = ep.scroll as f32;
        // Gymnasium draws on a surface as wide as the scrolled course and
        // keeps its last VIEWPORT_W columns.
        let left = scroll.max(0.0) * scale;
        let to_px = |p: (f32, f32)| (p.0 * scale - left, p.1 * scale);

        for (poly, x1, x2) in &ep.clouds {
            if *x2 < scroll / 2.0 || *x1 > scroll / 2.0 + VIEWPORT_W as f32 / scale {
                continue;
            }
            let pts: Vec<(f32, f32)> = poly
                .iter()
                .map(|&p| (p.0 * scale + scroll * scale / 2.0 - left, p.1 * scale))
                .collect();
            canvas.fill_polygon(&pts, (255, 255, 255));
        }
        for poly in &ep.terrain_poly {
            if poly[1].0 < scroll || poly[0].0 > scroll + VIEWPORT_W as f32 / scale {
                continue;
            }
            let pts: Vec<(f32, f32)> = poly.iter().map(|&p| to_px(p)).collect();
            canvas.fill_polygon(&pts, EARTH);
        }
        ep.lidar_render = (ep.lidar_render + 1) % 100;
        let i = ep.lidar_render;
        if i < 2 * ep.lidar.len() {
            let ray = if i < ep.lidar.len() {
                ep.lidar[i]
            } else {
                ep.lidar[2 * ep.lidar.len() - i - 1]
            };
            canvas.polyline(&[to_px(ray.0), to_px(ray.1)], (255, 0, 0), 1.0, false);
        }
        for piece in &ep.pieces {
            let pts: Vec<(f32, f32)> = piece.points.iter().map(|&p| to_px(p)).collect();
            if pts.len() > 2 {
                canvas.fill_polygon(&pts, piece.fill);
                canvas.polyline(&pts, piece.outline, 1.0, true);
            } else {
                canvas.polyline(&pts, piece.fill, 1.0, false);
            }
        }
        for (k, &leg) in ep.legs.iter().enumerate() {
            let i = if k < 2 { -1 } else { 1 };
            let fill = (
                (153 - i * 25) as u8,
                (76 - i * 25) as u8,
                (127 - i * 25) as u8,
            );
            let outline = (
                (102 - i * 25) as u8,
                (51 - i * 25) as u8,
                (76 - i * 25) as u8,
            );
            canvas.body_polygons(&ep.world, leg, scale, (-left, 0.0), fill, outline);
        }
        canvas.body_polygons(
            &ep.world,
            ep.hull,
            scale,
            (-left, 0.0),
            HULL_FILL,
            HULL_OUTLINE,
        );
        let flagy1 = (TERRAIN_HEIGHT * SCALE) as f32;
        let flagy2 = flagy1 + 50.0;
        let x = (TERRAIN_STEP * 3.0 * SCALE) as f32 - left;
        canvas.polyline(&[(x, flagy1), (x, flagy2)], (0, 0, 0), 1.0, false);
        let flag = [(x, flagy2), (x, flagy2 - 10.0), (x + 25.0, flagy2 - 5.0)];
        canvas.fill_polygon(&flag, (230, 51, 0));
        canvas.polyline(&flag, (0, 0, 0), 1.0, true);
        canvas.write_rgb(rgb)
    }
}

/// Gymnasium's `BipedalWalkerHeuristics` (the controller of the module's
/// `__main__`), ported unchanged: a state machine that lifts one leg, puts
/// it down ahead and pushes off, with PD terms for the head and knees.
#[derive(Clone, Debug)]
pub struct BipedalWalkerHeuristics {
    state: u8,
    moving_leg: usize,
    supporting_leg: usize,
    supporting_knee_angle: f64,
    a: [f64; 4],
}

impl Default for BipedalWalkerHeuristics {
    fn default() -> Self {
        BipedalWalkerHeuristics {
            state: Self::STAY_ON_ONE_LEG,
            moving_leg: 0,
            supporting_leg: 1,
            supporting_knee_angle: Self::SUPPORT_KNEE_ANGLE,
            a: [0.0; 4],
        }
    }
}

impl BipedalWalkerHeuristics {
    const STAY_ON_ONE_LEG: u8 = 1;
    const PUT_OTHER_DOWN: u8 = 2;
    const PUSH_OFF: u8 = 3;
    const SPEED: f64 = 0.29;
    const SUPPORT_KNEE_ANGLE: f64 = 0.1;

    /// The action for observation `s` (Gymnasium's `step_heuristic`).
    pub fn step_heuristic(&mut self, s: &[f32]) -> [f32; 4] {
        let s: Vec<f64> = s.iter().map(|&v| v as f64).collect();
        let moving_s_base = 4 + 5 * self.moving_leg;
        let supporting_s_base = 4 + 5 * self.supporting_leg;
        // Python's `if hip_targ[0]:` is false for None and for 0.0.
        let mut hip_targ: [Option<f64>; 2] = [None, None];
        let mut knee_targ: [Option<f64>; 2] = [None, None];
        let mut hip_todo = [0.0f64; 2];
        let mut knee_todo = [0.0f64; 2];

        if self.state == Self::STAY_ON_ONE_LEG {
            hip_targ[self.moving_leg] = Some(1.1);
            knee_targ[self.moving_leg] = Some(-0.6);
            self.supporting_knee_angle += 0.03;
            if s[2] > Self::SPEED {
                self.supporting_knee_angle += 0.03;
            }
            self.supporting_knee_angle = self.supporting_knee_angle.min(Self::SUPPORT_KNEE_ANGLE);
            knee_targ[self.supporting_leg] = Some(self.supporting_knee_angle);
            if s[supporting_s_base] < 0.10 {
                self.state = Self::PUT_OTHER_DOWN;
            }
        }
        if self.state == Self::PUT_OTHER_DOWN {
            hip_targ[self.moving_leg] = Some(0.1);
            knee_targ[self.moving_leg] = Some(Self::SUPPORT_KNEE_ANGLE);
            knee_targ[self.supporting_leg] = Some(self.supporting_knee_angle);
            if s[moving_s_base + 4] != 0.0 {
                self.state = Self::PUSH_OFF;
                self.supporting_knee_angle = s[moving_s_base + 2].min(Self::SUPPORT_KNEE_ANGLE);
            }
        }
        if self.state == Self::PUSH_OFF {
            knee_targ[self.moving_leg] = Some(self.supporting_knee_angle);
            knee_targ[self.supporting_leg] = Some(1.0);
            if s[supporting_s_base + 2] > 0.88 || s[2] > 1.2 * Self::SPEED {
                self.state = Self::STAY_ON_ONE_LEG;
                self.moving_leg = 1 - self.moving_leg;
                self.supporting_leg = 1 - self.moving_leg;
            }
        }

        let truthy = |t: Option<f64>| t.filter(|&v| v != 0.0);
        if let Some(t) = truthy(hip_targ[0]) {
            hip_todo[0] = 0.9 * (t - s[4]) - 0.25 * s[5];
        }
        if let Some(t) = truthy(hip_targ[1]) {
            hip_todo[1] = 0.9 * (t - s[9]) - 0.25 * s[10];
        }
        if let Some(t) = truthy(knee_targ[0]) {
            knee_todo[0] = 4.0 * (t - s[6]) - 0.25 * s[7];
        }
        if let Some(t) = truthy(knee_targ[1]) {
            knee_todo[1] = 4.0 * (t - s[11]) - 0.25 * s[12];
        }

        hip_todo[0] -= 0.9 * (0.0 - s[0]) - 1.5 * s[1];
        hip_todo[1] -= 0.9 * (0.0 - s[0]) - 1.5 * s[1];
        knee_todo[0] -= 15.0 * s[3];
        knee_todo[1] -= 15.0 * s[3];

        self.a = [hip_todo[0], knee_todo[0], hip_todo[1], knee_todo[1]];
        self.a = self.a.map(|v| (0.5 * v).clamp(-1.0, 1.0));
        self.a.map(|v| v as f32)
    }
}
