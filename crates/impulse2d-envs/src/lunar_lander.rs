//! `LunarLander-v3`: a lander fires its main and side engines to land on a pad.
//!
//! A port of Gymnasium's `gymnasium/envs/box2d/lunar_lander.py` (v3) onto
//! Impulse2D, with the same observation (8 floats), actions (`Discrete(4)`, or
//! `Box(-1, 1, (2,))` with `continuous`), reward shaping, fuel costs,
//! crash/landing terms, wind and turbulence, termination rules, constants and
//! time limit (1000 steps).
//!
//! Mapping from Box2D 2.3 to Impulse2D:
//! - `world.Step(1/50, 180, 60)` (velocity and position iterations) becomes
//!   `world.step(1/50, 16)`: [`SUBSTEPS`] = 16 substeps of Box2D v3's soft step.
//!   The legs are where the two engines differ. Each leg's motor pushes it
//!   into its angle limit with 40 N·m, on a leg of 0.0018 kg·m²: Box2D 2.3's
//!   limit is rigid (position iterations), v3's is a spring whose stiffness
//!   is the effective mass times (2π·hertz)², hertz capped at a quarter of the
//!   substep rate. With v3's defaults and 4 substeps (cap 50 Hz) the motor
//!   bends the limit by 0.2 rad, and the motor and the limit chatter so that
//!   a landed lander rocks at ~0.03 rad/s for ever, never falls asleep and
//!   never gets the +100 (measured: Gymnasium's heuristic then ends most
//!   episodes at the 1000-step limit below 200). Raising the stiffness to the
//!   cap keeps the chatter; damping it does not. With 16 substeps and the leg
//!   joints at 120 Hz with damping ratio 5 ([`LEG_JOINT_HERTZ`],
//!   [`LEG_JOINT_DAMPING_RATIO`]; v3's defaults are 60 Hz and 2) a leg in
//!   flight sits 0.04 rad inside its limit (0.36 for 0.4), the lander comes to
//!   rest and sleeps 190–400 steps into an episode, as in Gymnasium, and the
//!   heuristic lands in every seed tried (8 substeps at 60 Hz also land, with
//!   the legs 0.16 rad inside their limits).
//! - Box2D 2.3 defaults that v3 changed are set explicitly: shape friction
//!   0.2 where Gymnasium leaves it at its default, density 0 for the ground.
//! - The body angle: Box2D 2.3's `body.angle` is not wrapped; ours is rebuilt
//!   from the rotation each step and unwrapped by adding the wrapped change,
//!   which is the same while the lander turns less than half a turn per step.
//! - `lander.awake` is [`BodyRef::is_awake`](impulse2d::api::BodyRef): Box2D
//!   v3 puts an island to sleep after 0.5 s below the body's sleep
//!   threshold, as 2.3 did; the threshold is set to 2.3's linear sleep
//!   tolerance, 0.01 m/s.
//! - Contacts: the contact listener becomes the step's begin/end touch
//!   events. A leg's `ground_contact` is "touching any ground edge" (a count
//!   of touching contacts); Gymnasium's flag was cleared by any end event even
//!   while the leg still touched a neighbouring edge, an order-dependent
//!   quirk of the 2.3 contact list that is not reproduced.
//! - The exhaust particles are decoration only (they never touch the lander);
//!   they are not simulated, so rendering never changes the physics.
//! - Random numbers: [`Rng`] (not numpy's stream), drawn in the same order as
//!   Gymnasium: terrain heights, the initial push, the wind offsets, then two
//!   dispersion numbers every step.

use impulse2d::collision::{Polygon, Segment, compute_hull, make_box, make_polygon};
use impulse2d::{
    BodyDef, BodyId, BodyType, Filter, JointDef, RevoluteJointDef, Rot, ShapeDef, ShapeId, Vec2,
    World, WorldDef,
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
/// Impulse of the main engine at full throttle per unit of nozzle offset, N·s/m.
pub const MAIN_ENGINE_POWER: f64 = 13.0;
/// Impulse of a side engine at full throttle per unit of nozzle offset, N·s/m.
pub const SIDE_ENGINE_POWER: f64 = 0.6;
/// Largest component of the random force applied at the start, N.
pub const INITIAL_RANDOM: f64 = 1000.0;
/// The lander's outline, pixels.
pub const LANDER_POLY: [(f64, f64); 6] = [
    (-14.0, 17.0),
    (-17.0, 0.0),
    (-17.0, -10.0),
    (17.0, -10.0),
    (17.0, 0.0),
    (14.0, 17.0),
];
/// Horizontal distance of a leg from the lander's centre, pixels.
pub const LEG_AWAY: f64 = 20.0;
/// Vertical distance of a leg below the lander's centre, pixels.
pub const LEG_DOWN: f64 = 18.0;
/// Half width of a leg, pixels.
pub const LEG_W: f64 = 2.0;
/// Half height of a leg, pixels.
pub const LEG_H: f64 = 8.0;
/// Largest torque of a leg's motor, N·m.
pub const LEG_SPRING_TORQUE: f64 = 40.0;
/// Height of the side engines above the centre, pixels.
pub const SIDE_ENGINE_HEIGHT: f64 = 14.0;
/// Horizontal distance of the side engines from the centre, pixels.
pub const SIDE_ENGINE_AWAY: f64 = 12.0;
/// Distance of the main engine below the centre, pixels.
pub const MAIN_ENGINE_Y_LOCATION: f64 = 4.0;
/// Width of a rendered frame, pixels.
pub const VIEWPORT_W: usize = 600;
/// Height of a rendered frame, pixels.
pub const VIEWPORT_H: usize = 400;
/// Number of terrain chunks.
pub const CHUNKS: usize = 11;
/// Gymnasium's time limit for `LunarLander-v3`, steps.
pub const MAX_EPISODE_STEPS: u32 = 1000;
/// Substeps of each 1/50 s step (Box2D 2.3 ran 180 velocity and 60 position
/// iterations instead). See the module documentation for why 8.
pub const SUBSTEPS: u32 = 16;
/// Stiffness of the leg joints' rigid parts (point and angle limits), Hz
/// (Box2D v3's default is 60).
pub const LEG_JOINT_HERTZ: f32 = 120.0;
/// Damping ratio of the leg joints' rigid parts (Box2D v3's default is 2).
pub const LEG_JOINT_DAMPING_RATIO: f32 = 5.0;
/// Box2D 2.3's `b2_linearSleepTolerance`, m/s.
const SLEEP_THRESHOLD: f32 = 0.01;

/// Fill colour of the lander and legs (Gymnasium's `color1`).
const LANDER_FILL: Rgb = (128, 102, 230);
/// Outline colour of the lander and legs (Gymnasium's `color2`).
const LANDER_OUTLINE: Rgb = (77, 77, 128);

/// The lander's collision category (Gymnasium's `categoryBits=0x0010`).
const LANDER_CATEGORY: u64 = 0x0010;
/// The legs' collision category.
const LEG_CATEGORY: u64 = 0x0020;
/// The ground's collision category (Box2D's default).
const GROUND_CATEGORY: u64 = 0x0001;

crate::env::settings! {
    /// Settings of a LunarLander (Gymnasium's constructor arguments). The
    /// default is Gymnasium's: discrete, gravity −10, no wind, 1000 steps.
    #[derive(Clone, Debug, PartialEq)]
    pub struct LunarLanderConfig {
        /// Continuous actions (`Box(-1, 1, (2,))`) instead of `Discrete(4)`.
        pub continuous: bool = false,
        /// Gravity, m/s², strictly between −12 and 0.
        pub gravity: f64 = -10.0,
        /// Whether wind and turbulence act while no leg touches the ground.
        pub enable_wind: bool = false,
        /// Largest wind force, N (recommended 0–20).
        pub wind_power: f64 = 15.0,
        /// Largest turbulence torque, N·m (recommended 0–2).
        pub turbulence_power: f64 = 1.5,
        /// Steps after which an episode is truncated; `None` for no limit.
        pub max_episode_steps: Option<u32> = Some(MAX_EPISODE_STEPS),
    }
}

/// Everything that lives for one episode.
struct Episode {
    world: World,
    lander: BodyId,
    lander_shape: ShapeId,
    legs: [BodyId; 2],
    leg_shapes: [ShapeId; 2],
    /// Touching contacts of each leg with the ground.
    leg_contacts: [u32; 2],
    game_over: bool,
    prev_shaping: Option<f64>,
    /// Unwrapped lander angle (Box2D 2.3's `body.angle`), radians.
    angle: f64,
    /// Wrapped angle at the last step, radians.
    last_wrapped: f32,
    wind_idx: i64,
    torque_idx: i64,
    /// Terrain points (x, y), metres, `CHUNKS` of them.
    terrain: Vec<(f32, f32)>,
    helipad_x1: f64,
    helipad_x2: f64,
    helipad_y: f64,
    elapsed: u32,
}

/// Gymnasium's `LunarLander-v3` on Impulse2D.
pub struct LunarLander {
    config: LunarLanderConfig,
    rng: Rng,
    episode: Option<Episode>,
}

impl LunarLander {
    /// A lander with `config`; `Err` if gravity is not in (−12, 0) or a power
    /// is negative or not finite.
    pub fn new(config: LunarLanderConfig) -> Result<Self, EnvError> {
        if !(config.gravity > -12.0 && config.gravity < 0.0) {
            return Err(EnvError::InvalidParameter(format!(
                "gravity {} must be between -12 and 0",
                config.gravity
            )));
        }
        for (name, v) in [
            ("wind_power", config.wind_power),
            ("turbulence_power", config.turbulence_power),
        ] {
            if !v.is_finite() {
                return Err(EnvError::InvalidParameter(format!(
                    "{name} {v} must be finite"
                )));
            }
        }
        Ok(LunarLander {
            config,
            rng: Rng::new(0),
            episode: None,
        })
    }

    /// The settings.
    pub fn config(&self) -> &LunarLanderConfig {
        &self.config
    }

    /// The physics world of the current episode (`None` before the first reset).
    pub fn world(&self) -> Option<&World> {
        self.episode.as_ref().map(|e| &e.world)
    }

    /// The lander body of the current episode.
    pub fn lander(&self) -> Option<BodyId> {
        self.episode.as_ref().map(|e| e.lander)
    }

    fn build(&mut self) -> Result<Episode, EnvError> {
        let w = VIEWPORT_W as f64 / SCALE;
        let h = VIEWPORT_H as f64 / SCALE;
        let mut world = World::new(&WorldDef {
            gravity: Vec2::new(0.0, self.config.gravity as f32),
            ..Default::default()
        })?;

        // Terrain.
        let mut height = [0.0f64; CHUNKS + 1];
        for v in height.iter_mut() {
            *v = self.rng.uniform(0.0, h / 2.0);
        }
        let chunk_x: Vec<f64> = (0..CHUNKS)
            .map(|i| w / (CHUNKS - 1) as f64 * i as f64)
            .collect();
        let helipad_x1 = chunk_x[CHUNKS / 2 - 1];
        let helipad_x2 = chunk_x[CHUNKS / 2 + 1];
        let helipad_y = h / 4.0;
        for v in &mut height[CHUNKS / 2 - 2..=CHUNKS / 2 + 2] {
            *v = helipad_y;
        }
        // Python's `height[i - 1]` at i = 0 is the last element.
        let smooth_y: Vec<f64> = (0..CHUNKS)
            .map(|i| {
                let prev = if i == 0 {
                    height[CHUNKS]
                } else {
                    height[i - 1]
                };
                0.33 * (prev + height[i] + height[i + 1])
            })
            .collect();

        let moon = world.create_body(&BodyDef::default())?;
        let ground_def = |friction: f32| ShapeDef {
            density: 0.0,
            friction,
            restitution: 0.0,
            ..Default::default()
        };
        world.create_segment_shape(
            moon,
            &ground_def(0.2),
            &Segment::new(Vec2::new(0.0, 0.0), Vec2::new(w as f32, 0.0))?,
        )?;
        let terrain: Vec<(f32, f32)> = chunk_x
            .iter()
            .zip(&smooth_y)
            .map(|(&x, &y)| (x as f32, y as f32))
            .collect();
        for pair in terrain.windows(2) {
            let p1 = Vec2::new(pair[0].0, pair[0].1);
            let p2 = Vec2::new(pair[1].0, pair[1].1);
            world.create_segment_shape(moon, &ground_def(0.1), &Segment::new(p1, p2)?)?;
        }

        // Lander.
        let initial_y = (VIEWPORT_H as f64 / SCALE) as f32;
        let initial_x = (VIEWPORT_W as f64 / SCALE / 2.0) as f32;
        let lander = world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: Vec2::new(initial_x, initial_y),
            sleep_threshold: SLEEP_THRESHOLD,
            ..Default::default()
        })?;
        let points: Vec<Vec2> = LANDER_POLY
            .iter()
            .map(|&(x, y)| Vec2::new((x / SCALE) as f32, (y / SCALE) as f32))
            .collect();
        let hull_polygon: Polygon = make_polygon(&compute_hull(&points)?, 0.0)?;
        let lander_shape = world.create_polygon_shape(
            lander,
            &ShapeDef {
                density: 5.0,
                friction: 0.1,
                restitution: 0.0,
                filter: Filter {
                    category_bits: LANDER_CATEGORY,
                    mask_bits: GROUND_CATEGORY,
                    group_index: 0,
                },
                ..Default::default()
            },
            &hull_polygon,
        )?;
        let fx = self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM);
        let fy = self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM);
        world
            .body_mut(lander)?
            .apply_force_to_center(Vec2::new(fx as f32, fy as f32), true)?;
        let (wind_idx, torque_idx) = if self.config.enable_wind {
            (
                self.rng.integers(-9999, 9999),
                self.rng.integers(-9999, 9999),
            )
        } else {
            (0, 0)
        };

        // Legs.
        let mut legs = [lander; 2];
        let mut leg_shapes = [lander_shape; 2];
        for (k, i) in [-1.0f64, 1.0].into_iter().enumerate() {
            let leg = world.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: Vec2::new(initial_x - (i * LEG_AWAY / SCALE) as f32, initial_y),
                rotation: Rot::from_angle((i * 0.05) as f32),
                sleep_threshold: SLEEP_THRESHOLD,
                ..Default::default()
            })?;
            leg_shapes[k] = world.create_polygon_shape(
                leg,
                &ShapeDef {
                    density: 1.0,
                    friction: 0.2,
                    restitution: 0.0,
                    filter: Filter {
                        category_bits: LEG_CATEGORY,
                        mask_bits: GROUND_CATEGORY,
                        group_index: 0,
                    },
                    ..Default::default()
                },
                &make_box((LEG_W / SCALE) as f32, (LEG_H / SCALE) as f32)?,
            )?;
            let (lower, upper) = if i < 0.0 {
                (0.9 - 0.5, 0.9)
            } else {
                (-0.9, -0.9 + 0.5)
            };
            world.create_revolute_joint(&RevoluteJointDef {
                base: JointDef {
                    body_a: lander,
                    body_b: leg,
                    local_anchor_a: Vec2::ZERO,
                    local_anchor_b: Vec2::new(
                        (i * LEG_AWAY / SCALE) as f32,
                        (LEG_DOWN / SCALE) as f32,
                    ),
                    constraint_hertz: Some(LEG_JOINT_HERTZ),
                    constraint_damping_ratio: Some(LEG_JOINT_DAMPING_RATIO),
                    ..Default::default()
                },
                enable_motor: true,
                enable_limit: true,
                max_motor_torque: LEG_SPRING_TORQUE as f32,
                motor_speed: (0.3 * i) as f32,
                lower_angle: lower as f32,
                upper_angle: upper as f32,
                ..Default::default()
            })?;
            legs[k] = leg;
        }

        Ok(Episode {
            world,
            lander,
            lander_shape,
            legs,
            leg_shapes,
            leg_contacts: [0; 2],
            game_over: false,
            prev_shaping: None,
            angle: 0.0,
            last_wrapped: 0.0,
            wind_idx,
            torque_idx,
            terrain,
            helipad_x1,
            helipad_x2,
            helipad_y,
            elapsed: 0,
        })
    }

    /// Throttles `(main, side)` and side direction (−1 left, +1 right) of an action.
    fn throttles(&self, action: Action<'_>) -> Result<(f64, f64, f64), EnvError> {
        match (self.config.continuous, action) {
            (false, Action::Discrete(a)) => match a {
                0 => Ok((0.0, 0.0, 0.0)),
                1 | 3 => Ok((0.0, 1.0, (a - 2) as f64)),
                2 => Ok((1.0, 0.0, 0.0)),
                _ => Err(EnvError::InvalidAction(format!(
                    "{a} is not in Discrete(4)"
                ))),
            },
            (true, Action::Continuous(a)) => {
                if a.len() != 2 {
                    return Err(EnvError::InvalidAction(format!(
                        "continuous LunarLander takes 2 numbers, got {}",
                        a.len()
                    )));
                }
                if !a.iter().all(|v| v.is_finite()) {
                    return Err(EnvError::InvalidAction(format!("{a:?} is not finite")));
                }
                let main = (a[0] as f64).clamp(-1.0, 1.0);
                let lateral = (a[1] as f64).clamp(-1.0, 1.0);
                let m_power = if main > 0.0 {
                    (main.clamp(0.0, 1.0) + 1.0) * 0.5
                } else {
                    0.0
                };
                let (s_power, direction) = if lateral.abs() > 0.5 {
                    (lateral.abs().clamp(0.5, 1.0), lateral.signum())
                } else {
                    (0.0, 0.0)
                };
                Ok((m_power, s_power, direction))
            }
            (false, _) => Err(EnvError::InvalidAction(
                "discrete LunarLander takes a discrete action".into(),
            )),
            (true, _) => Err(EnvError::InvalidAction(
                "continuous LunarLander takes a continuous action".into(),
            )),
        }
    }

    /// One step with engine throttles; writes the observation.
    fn advance(
        &mut self,
        m_power: f64,
        s_power: f64,
        direction: f64,
        obs: &mut [f32],
    ) -> Result<StepResult, EnvError> {
        let config = &self.config;
        let rng = &mut self.rng;
        let ep = self.episode.as_mut().ok_or(EnvError::NotReset)?;
        let lander = ep.lander;

        if config.enable_wind && ep.leg_contacts == [0, 0] {
            let wind_mag = wind_curve(ep.wind_idx) * config.wind_power;
            ep.wind_idx += 1;
            ep.world
                .body_mut(lander)?
                .apply_force_to_center(Vec2::new(wind_mag as f32, 0.0), true)?;
            let torque_mag = wind_curve(ep.torque_idx) * config.turbulence_power;
            ep.torque_idx += 1;
            ep.world
                .body_mut(lander)?
                .apply_torque(torque_mag as f32, true)?;
        }

        let (pos, angle) = {
            let body = ep.world.body(lander)?;
            (body.position(), ep.angle)
        };
        let pos = (pos.x as f64, pos.y as f64);
        // Box2D 2.3 computes with the float32 angle.
        let angle32 = angle as f32 as f64;
        let tip = (angle32.sin(), angle32.cos());
        let side = (-tip.1, tip.0);
        let dispersion = [
            rng.uniform(-1.0, 1.0) / SCALE,
            rng.uniform(-1.0, 1.0) / SCALE,
        ];

        // Each engine pushes the lander away from its nozzle offset (ox, oy),
        // at the nozzle.
        let mut fire = |ox: f64, oy: f64, at: (f64, f64), power: f64| {
            let impulse = Vec2::new((-ox * power) as f32, (-oy * power) as f32);
            let at = Vec2::new(at.0 as f32, at.1 as f32);
            ep.world
                .body_mut(lander)?
                .apply_linear_impulse(impulse, at, true)
        };
        if m_power > 0.0 {
            let ox = tip.0 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2.0 * dispersion[0])
                + side.0 * dispersion[1];
            let oy = -tip.1 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2.0 * dispersion[0])
                - side.1 * dispersion[1];
            fire(
                ox,
                oy,
                (pos.0 + ox, pos.1 + oy),
                MAIN_ENGINE_POWER * m_power,
            )?;
        }
        if s_power > 0.0 {
            let ox = tip.0 * dispersion[0]
                + side.0 * (3.0 * dispersion[1] + direction * SIDE_ENGINE_AWAY / SCALE);
            let oy = -tip.1 * dispersion[0]
                - side.1 * (3.0 * dispersion[1] + direction * SIDE_ENGINE_AWAY / SCALE);
            // Gymnasium's 17 (not SIDE_ENGINE_HEIGHT) in x is kept: it makes the
            // side engines' torque depend on the lander's angle.
            let at = (
                pos.0 + ox - tip.0 * 17.0 / SCALE,
                pos.1 + oy + tip.1 * SIDE_ENGINE_HEIGHT / SCALE,
            );
            fire(ox, oy, at, SIDE_ENGINE_POWER * s_power)?;
        }

        ep.world.step((1.0 / FPS) as f32, SUBSTEPS)?;

        let events = ep.world.contact_events();
        if track_contacts(
            &events,
            ep.lander_shape,
            &ep.leg_shapes,
            &mut ep.leg_contacts,
        ) {
            ep.game_over = true;
        }

        let body = ep.world.body(lander)?;
        let pos = body.position();
        let vel = body.linear_velocity();
        let wrapped = body.rotation().angle();
        ep.angle = unwrap_angle(ep.angle, &mut ep.last_wrapped, wrapped);
        let awake = body.is_awake();
        let omega = body.angular_velocity() as f64;

        let half_w = VIEWPORT_W as f64 / SCALE / 2.0;
        let half_h = VIEWPORT_H as f64 / SCALE / 2.0;
        let state = [
            (pos.x as f64 - half_w) / half_w,
            (pos.y as f64 - (ep.helipad_y + LEG_DOWN / SCALE)) / half_h,
            vel.x as f64 * half_w / FPS,
            vel.y as f64 * half_h / FPS,
            ep.angle,
            20.0 * omega / FPS,
            if ep.leg_contacts[0] > 0 { 1.0 } else { 0.0 },
            if ep.leg_contacts[1] > 0 { 1.0 } else { 0.0 },
        ];
        for (o, s) in obs.iter_mut().zip(state) {
            *o = s as f32;
        }

        let shaping = -100.0 * (state[0] * state[0] + state[1] * state[1]).sqrt()
            - 100.0 * (state[2] * state[2] + state[3] * state[3]).sqrt()
            - 100.0 * state[4].abs()
            + 10.0 * state[6]
            + 10.0 * state[7];
        let mut reward = match ep.prev_shaping {
            Some(prev) => shaping - prev,
            None => 0.0,
        };
        ep.prev_shaping = Some(shaping);
        reward -= m_power * 0.30;
        reward -= s_power * 0.03;

        let mut terminated = false;
        if ep.game_over || state[0].abs() >= 1.0 {
            terminated = true;
            reward = -100.0;
        }
        if !awake {
            terminated = true;
            reward = 100.0;
        }
        Ok(StepResult {
            reward,
            terminated,
            truncated: false,
        })
    }
}

/// Gymnasium's wind and turbulence curve `tanh(sin(0.02 k) + sin(0.01 π k))`.
fn wind_curve(k: i64) -> f64 {
    let k = k as f64;
    ((0.02 * k).sin() + (std::f64::consts::PI * 0.01 * k).sin()).tanh()
}

impl Env for LunarLander {
    type Obs = f32;

    fn observation_space(&self) -> ObservationSpace {
        let tau = std::f32::consts::TAU;
        ObservationSpace {
            shape: vec![8],
            low: vec![-2.5, -2.5, -10.0, -10.0, -tau, -10.0, -0.0, -0.0],
            high: vec![2.5, 2.5, 10.0, 10.0, tau, 10.0, 1.0, 1.0],
        }
    }

    fn action_space(&self) -> ActionSpace {
        if self.config.continuous {
            ActionSpace::Continuous {
                low: vec![-1.0; 2],
                high: vec![1.0; 2],
            }
        } else {
            ActionSpace::Discrete(4)
        }
    }

    fn reset(&mut self, seed: Option<u64>, obs: &mut [f32]) -> Result<(), EnvError> {
        check_len(8, obs.len())?;
        if let Some(seed) = seed {
            self.rng = Rng::new(seed);
        }
        let episode = self.build()?;
        self.episode = Some(episode);
        // Gymnasium's reset returns the observation of a first no-op step.
        self.advance(0.0, 0.0, 0.0, obs)?;
        Ok(())
    }

    fn step(&mut self, action: Action<'_>, obs: &mut [f32]) -> Result<StepResult, EnvError> {
        check_len(8, obs.len())?;
        let (m_power, s_power, direction) = self.throttles(action)?;
        if self.episode.is_none() {
            return Err(EnvError::NotReset);
        }
        let mut result = self.advance(m_power, s_power, direction, obs)?;
        let ep = self.episode.as_mut().ok_or(EnvError::NotReset)?;
        result.truncated = time_limit(&mut ep.elapsed, self.config.max_episode_steps);
        Ok(result)
    }

    fn render_size(&self) -> (usize, usize) {
        (VIEWPORT_W, VIEWPORT_H)
    }

    fn render(&mut self, rgb: &mut [u8]) -> Result<(), EnvError> {
        check_len(VIEWPORT_W * VIEWPORT_H * 3, rgb.len())?;
        let mut canvas = Canvas::new(VIEWPORT_W, VIEWPORT_H, (255, 255, 255))
            .ok_or_else(|| EnvError::Physics("cannot allocate a frame".into()))?;
        let Some(ep) = &self.episode else {
            return canvas.write_rgb(rgb);
        };
        let scale = SCALE as f32;
        let top = VIEWPORT_H as f32;
        // The sky above the terrain is black, the moon below it white.
        for pair in ep.terrain.windows(2) {
            let (p1, p2) = (pair[0], pair[1]);
            let sky = [
                (p1.0 * scale, p1.1 * scale),
                (p2.0 * scale, p2.1 * scale),
                (p2.0 * scale, top),
                (p1.0 * scale, top),
            ];
            canvas.fill_polygon(&sky, (0, 0, 0));
        }
        for body in [ep.lander, ep.legs[0], ep.legs[1]] {
            canvas.body_polygons(
                &ep.world,
                body,
                scale,
                (0.0, 0.0),
                LANDER_FILL,
                LANDER_OUTLINE,
            );
        }
        for x in [ep.helipad_x1, ep.helipad_x2] {
            let x = (x * SCALE) as f32;
            let flagy1 = (ep.helipad_y * SCALE) as f32;
            let flagy2 = flagy1 + 50.0;
            canvas.polyline(&[(x, flagy1), (x, flagy2)], (255, 255, 255), 1.0, false);
            canvas.fill_polygon(
                &[(x, flagy2), (x, flagy2 - 10.0), (x + 25.0, flagy2 - 5.0)],
                (204, 204, 0),
            );
        }
        canvas.write_rgb(rgb)
    }
}

/// Gymnasium's heuristic controller for LunarLander (`heuristic(env, s)`),
/// ported unchanged: a discrete action, or a continuous `[main, lateral]` one
/// when `continuous`.
pub fn heuristic(s: &[f32], continuous: bool) -> HeuristicAction {
    let s: Vec<f64> = s.iter().map(|&v| v as f64).collect();
    // Gymnasium's two `if`s: more than 0.4 radians (22 degrees) is bad.
    let angle_targ = (s[0] * 0.5 + s[2] * 1.0).clamp(-0.4, 0.4);
    let hover_targ = 0.55 * s[0].abs();
    let mut angle_todo = (angle_targ - s[4]) * 0.5 - s[5] * 1.0;
    let mut hover_todo = (hover_targ - s[1]) * 0.5 - s[3] * 0.5;
    if s[6] != 0.0 || s[7] != 0.0 {
        angle_todo = 0.0;
        hover_todo = -s[3] * 0.5;
    }
    if continuous {
        HeuristicAction::Continuous([
            (hover_todo * 20.0 - 1.0).clamp(-1.0, 1.0) as f32,
            (-angle_todo * 20.0).clamp(-1.0, 1.0) as f32,
        ])
    } else {
        let a = if hover_todo > angle_todo.abs() && hover_todo > 0.05 {
            2
        } else if angle_todo < -0.05 {
            3
        } else if angle_todo > 0.05 {
            1
        } else {
            0
        };
        HeuristicAction::Discrete(a)
    }
}

/// An action chosen by [`heuristic`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HeuristicAction {
    /// A discrete action.
    Discrete(i64),
    /// A continuous `[main, lateral]` action.
    Continuous([f32; 2]),
}

impl HeuristicAction {
    /// The action as [`Env::step`] takes it.
    pub fn as_action(&self) -> Action<'_> {
        match self {
            HeuristicAction::Discrete(a) => Action::Discrete(*a),
            HeuristicAction::Continuous(a) => Action::Continuous(a),
        }
    }
}
