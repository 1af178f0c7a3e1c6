//! CarRacing: Gymnasium's `CarRacing-v3` on Impulse2D.
//!
//! A top-down racing task learnt from pixels. Each reset draws a random
//! closed track ([`track`]), puts the car ([`car`]) at rest on its first tile
//! and steps the world once; each step applies the action, runs the car's
//! tyre model, steps the world by 1/50 s and draws the 96 × 96 RGB
//! observation ([`render`]).
//!
//! Rules, as Gymnasium's:
//! - **Reward**: −0.1 per step, +1000/N the first time a wheel touches each
//!   of the N road tiles (the tiles are sensors; a wheel's sensor events mark
//!   them). Finishing in 732 steps scores 1000 − 0.1·732 = 926.8. Tiles
//!   touched at reset are paid in the first step's reward.
//! - **Termination**: every tile visited, or a wheel first touches tile 0
//!   after more than `lap_complete_percent` of the tiles (`lap_finished`
//!   true); or the hull leaves the ±333 m playfield: the step's reward is
//!   −100 instead (`lap_finished` false).
//! - **Truncation**: after `max_episode_steps` steps (1000, Gymnasium's
//!   `TimeLimit` for `CarRacing-v3`).
//! - **Actions**: continuous `[steer ∈ [−1, 1] (+1 right), gas ∈ [0, 1],
//!   brake ∈ [0, 1]]`, or discrete 0 nothing, 1 right, 2 left, 3 gas (0.2),
//!   4 brake (0.8).
//! - **Observation**: 96 × 96 × 3 bytes, rows top first: the car from
//!   above, turned to point up, zooming in over the first second, with the
//!   indicator bar (speed, four wheel spins, steering, yaw rate) and the
//!   score at the bottom.
//!
//! Randomness: [`rng::Pcg64`], NumPy's PCG64 seeded through `SeedSequence` as
//! Gymnasium's `np_random`, so a seed gives Gymnasium's checkpoints. An env
//! that was never seeded draws its first seed from the operating system.
//!
//! What differs from Gymnasium: the physics is Impulse2D's (Box2D v3's soft
//! step with 4 substeps, not Box2D 2.3 with 180/60 iterations), so
//! trajectories differ; sensor overlaps are found at the end of a step, where
//! Box2D 2.3 reported contacts begun at the start of the next one; the
//! pictures are drawn straight at their size (see [`render`]).
//!
//! # References
//! - O. Klimov, Gymnasium `gymnasium/envs/box2d/car_racing.py` and
//!   `car_dynamics.py` (Farama Foundation).
//! - C. Campbell (2014), "Top-down car physics", iforce2d.net.

pub mod car;
pub mod render;
pub mod rng;
pub mod track;

use impulse2d::collision::{compute_hull, make_polygon};
use impulse2d::{BodyDef, ShapeDef, ShapeId, Vec2, World, WorldDef};

use car::Car;
use render::{FrameInfo, Palette, Renderer, RoadPoly, STATE_H, STATE_W, VIDEO_H, VIDEO_W, to_rgb};
use rng::Pcg64;
use track::{PLAYFIELD, Track, TrackPoint};

/// Steps per second of the simulation.
pub const FPS: f64 = 50.0;
/// Substeps per world step (Box2D v3's default count).
pub const SUBSTEPS: u32 = 4;
/// Gymnasium's episode limit for `CarRacing-v3`.
pub const MAX_EPISODE_STEPS: u32 = 1000;
/// Bytes in an observation (96 · 96 · 3).
pub const OBS_LEN: usize = (STATE_W * STATE_H * 3) as usize;

/// NumPy's `sign`: −1, 0 or 1.
pub(crate) fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// How an environment is made (Gymnasium's keyword arguments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarRacingConfig {
    /// Continuous actions (`Box(3)`) or discrete ones (`Discrete(5)`).
    pub continuous: bool,
    /// Fraction of the tiles after which touching tile 0 ends the lap.
    pub lap_complete_percent: f64,
    /// New random road, background and grass colours on every reset.
    pub domain_randomize: bool,
    /// Truncate after this many steps (`None`: never).
    pub max_episode_steps: Option<u32>,
}

impl Default for CarRacingConfig {
    fn default() -> Self {
        CarRacingConfig {
            continuous: true,
            lap_complete_percent: 0.95,
            domain_randomize: false,
            max_episode_steps: Some(MAX_EPISODE_STEPS),
        }
    }
}

/// An action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CarAction {
    /// `[steer, gas, brake]`: steer −1 full left … +1 full right, gas and
    /// brake 0–1 (gas is clipped; brake ≥ 0.9 locks the wheels).
    Continuous([f32; 3]),
    /// 0 nothing, 1 steer right, 2 steer left, 3 gas, 4 brake.
    Discrete(i64),
}

/// What a step returns besides the observation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    /// This step's reward.
    pub reward: f64,
    /// The episode ended (lap finished or car lost).
    pub terminated: bool,
    /// The step limit was reached.
    pub truncated: bool,
    /// `Some(true)` when the lap was finished, `Some(false)` when the car
    /// left the playfield (Gymnasium's `info["lap_finished"]`).
    pub lap_finished: Option<bool>,
}

/// Why a call failed (nothing was changed).
#[derive(Clone, Debug, PartialEq)]
pub enum CarRacingError {
    /// `step` or `render` before the first `reset`.
    NotReset,
    /// An action of the wrong kind, out of range, or not finite.
    InvalidAction(String),
    /// A configuration value out of range.
    InvalidConfig(String),
    /// No track after a thousand attempts (not seen in practice).
    TrackGeneration,
    /// The engine refused a call (a bug if it happens).
    Physics(impulse2d::Error),
}

impl std::fmt::Display for CarRacingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CarRacingError::NotReset => write!(f, "call reset before step or render"),
            CarRacingError::InvalidAction(why) => write!(f, "invalid action: {why}"),
            CarRacingError::InvalidConfig(why) => write!(f, "invalid configuration: {why}"),
            CarRacingError::TrackGeneration => write!(f, "no track after 1000 attempts"),
            CarRacingError::Physics(e) => write!(f, "physics: {e}"),
        }
    }
}

impl std::error::Error for CarRacingError {}

impl From<impulse2d::Error> for CarRacingError {
    fn from(e: impulse2d::Error) -> Self {
        CarRacingError::Physics(e)
    }
}

/// One road tile's state.
#[derive(Clone, Copy, Debug)]
struct Tile {
    visited: bool,
    /// Its polygon in the drawing list.
    poly: usize,
}

/// What exists only between a reset and the next one.
struct Episode {
    world: World,
    car: Car,
    track: Track,
    tiles: Vec<Tile>,
    /// Tiles and kerbs in drawing order.
    road: Vec<RoadPoly>,
    /// Cumulative reward (Gymnasium's `self.reward`).
    reward: f64,
    prev_reward: f64,
    tile_visited_count: usize,
    /// Seconds since reset.
    t: f64,
    new_lap: bool,
    elapsed_steps: u32,
}

/// The CarRacing environment.
pub struct CarRacing {
    config: CarRacingConfig,
    rng: Pcg64,
    palette: Palette,
    episode: Option<Episode>,
    obs: Vec<u8>,
    state_renderer: Renderer,
    video_renderer: Option<Renderer>,
}

impl std::fmt::Debug for CarRacing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CarRacing")
            .field("config", &self.config)
            .field("palette", &self.palette)
            .field("tiles", &self.episode.as_ref().map(|e| e.tiles.len()))
            .field("total_reward", &self.total_reward())
            .finish()
    }
}

/// A seed from the operating system's randomness (for an env never seeded).
fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x5eed);
    h.finish()
}

impl CarRacing {
    /// A new environment; call [`reset`](Self::reset) before stepping.
    pub fn new(config: CarRacingConfig) -> Result<CarRacing, CarRacingError> {
        let p = config.lap_complete_percent;
        if !p.is_finite() {
            return Err(CarRacingError::InvalidConfig(format!(
                "lap_complete_percent must be finite, got {p}"
            )));
        }
        if config.max_episode_steps == Some(0) {
            return Err(CarRacingError::InvalidConfig(
                "max_episode_steps must be at least 1".into(),
            ));
        }
        let mut env = CarRacing {
            config,
            rng: Pcg64::from_seed(entropy_seed()),
            palette: Palette::DEFAULT,
            episode: None,
            obs: vec![0; OBS_LEN],
            state_renderer: Renderer::new(STATE_W, STATE_H).expect("non-zero size"),
            video_renderer: None,
        };
        if config.domain_randomize {
            env.randomize_colors();
        }
        Ok(env)
    }

    /// The configuration.
    pub fn config(&self) -> &CarRacingConfig {
        &self.config
    }

    fn randomize_colors(&mut self) {
        let road = [0; 3].map(|_| self.rng.uniform(0.0, 210.0));
        let bg = [0; 3].map(|_| self.rng.uniform(0.0, 210.0));
        let mut grass = bg;
        grass[self.rng.below(3) as usize] += 20.0;
        self.palette = Palette { road, bg, grass };
    }

    /// Starts an episode: reseeds when `seed` is given (else the stream goes
    /// on), draws new colours if domain randomisation is on and `randomize`
    /// is not `Some(false)`, generates a track, places the car, steps once
    /// and returns the first observation.
    pub fn reset(
        &mut self,
        seed: Option<u64>,
        randomize: Option<bool>,
    ) -> Result<&[u8], CarRacingError> {
        if let Some(seed) = seed {
            self.rng = Pcg64::from_seed(seed);
        }
        if self.config.domain_randomize && randomize.unwrap_or(true) {
            self.randomize_colors();
        }
        let track = track::generate(&mut self.rng).ok_or(CarRacingError::TrackGeneration)?;
        let mut world = World::new(&WorldDef {
            gravity: Vec2::ZERO,
            enable_sleep: false,
            ..Default::default()
        })?;

        // The road: one static body, one sensor per tile (user data: index).
        let ground = world.create_body(&BodyDef::default())?;
        let mut tiles = Vec::with_capacity(track.tiles.len());
        let mut road = Vec::with_capacity(track.tiles.len() + track.kerbs.len());
        let mut kerbs = track.kerbs.iter().peekable();
        for (i, corners) in track.tiles.iter().enumerate() {
            let pts = corners.map(|[x, y]| Vec2::new(x as f32, y as f32));
            let polygon = make_polygon(&compute_hull(&pts)?, 0.0)?;
            world.create_polygon_shape(
                ground,
                &ShapeDef {
                    is_sensor: true,
                    enable_sensor_events: true,
                    user_data: i as u64,
                    ..Default::default()
                },
                &polygon,
            )?;
            let shade = 0.01 * (i % 3) as f64 * 255.0;
            let color = self.palette.road.map(|c| c + shade);
            tiles.push(Tile {
                visited: false,
                poly: road.len(),
            });
            road.push(RoadPoly {
                points: *corners,
                color: to_rgb(color),
                is_kerb: false,
            });
            while let Some(kerb) = kerbs.next_if(|k| k.tile == i) {
                road.push(RoadPoly {
                    points: kerb.points,
                    color: to_rgb(kerb.color),
                    is_kerb: true,
                });
            }
        }
        let start = track.points[0];
        let car = Car::new(&mut world, start.beta, start.x, start.y)?;
        self.episode = Some(Episode {
            world,
            car,
            track,
            tiles,
            road,
            reward: 0.0,
            prev_reward: 0.0,
            tile_visited_count: 0,
            t: 0.0,
            new_lap: false,
            elapsed_steps: 0,
        });
        self.advance(None)?;
        Ok(&self.obs)
    }

    /// Checks an action against the action space.
    fn check_action(&self, action: CarAction) -> Result<(), CarRacingError> {
        match (self.config.continuous, action) {
            (true, CarAction::Continuous(a)) => {
                if a.iter().all(|v| v.is_finite()) {
                    Ok(())
                } else {
                    Err(CarRacingError::InvalidAction(format!(
                        "continuous action must be finite, got {a:?}"
                    )))
                }
            }
            (false, CarAction::Discrete(a)) => {
                if (0..5).contains(&a) {
                    Ok(())
                } else {
                    Err(CarRacingError::InvalidAction(format!(
                        "discrete action must be in 0..5, got {a}"
                    )))
                }
            }
            (true, _) => Err(CarRacingError::InvalidAction(
                "this environment takes continuous actions".into(),
            )),
            (false, _) => Err(CarRacingError::InvalidAction(
                "this environment takes discrete actions".into(),
            )),
        }
    }

    /// Advances one step; `None` is the step `reset` makes.
    fn advance(&mut self, action: Option<CarAction>) -> Result<StepResult, CarRacingError> {
        let lap_complete_percent = self.config.lap_complete_percent;
        let ep = self.episode.as_mut().ok_or(CarRacingError::NotReset)?;
        match action {
            Some(CarAction::Continuous(a)) => {
                ep.car.steer(-f64::from(a[0]));
                ep.car.gas(f64::from(a[1]));
                ep.car.brake(f64::from(a[2]));
            }
            Some(CarAction::Discrete(a)) => {
                let steer = match a {
                    1 => -0.6,
                    2 => 0.6,
                    _ => 0.0,
                };
                ep.car.steer(steer);
                ep.car.gas(if a == 3 { 0.2 } else { 0.0 });
                ep.car.brake(if a == 4 { 0.8 } else { 0.0 });
            }
            None => {}
        }

        let dt = 1.0 / FPS;
        ep.car.step(&mut ep.world, dt)?;
        ep.world.step(dt as f32, SUBSTEPS)?;
        ep.t += dt;
        ep.visit_tiles(self.palette.road, lap_complete_percent)?;

        // The observation shows the score before this step's −0.1.
        self.state_renderer.draw(
            &ep.world,
            &ep.car,
            &ep.road,
            &self.palette,
            FrameInfo {
                t: ep.t,
                reward: ep.reward,
                draw_particles: false,
            },
        )?;
        self.state_renderer.write_rgb(&mut self.obs);

        let mut result = StepResult {
            reward: 0.0,
            terminated: false,
            truncated: false,
            lap_finished: None,
        };
        if action.is_some() {
            ep.reward -= 0.1;
            result.reward = ep.reward - ep.prev_reward;
            ep.prev_reward = ep.reward;
            if ep.tile_visited_count == ep.tiles.len() || ep.new_lap {
                result.terminated = true;
                result.lap_finished = Some(true);
            }
            let p = ep.world.body(ep.car.hull)?.position();
            if f64::from(p.x).abs() > PLAYFIELD || f64::from(p.y).abs() > PLAYFIELD {
                result.terminated = true;
                result.lap_finished = Some(false);
                result.reward = -100.0;
            }
            ep.elapsed_steps += 1;
            result.truncated = self
                .config
                .max_episode_steps
                .is_some_and(|m| ep.elapsed_steps >= m);
        }
        Ok(result)
    }

    /// Applies an action and steps the simulation by 1/50 s. A bad action is
    /// an `Err` and changes nothing.
    pub fn step(&mut self, action: CarAction) -> Result<StepResult, CarRacingError> {
        if self.episode.is_none() {
            return Err(CarRacingError::NotReset);
        }
        self.check_action(action)?;
        self.advance(Some(action))
    }

    /// The last observation: 96 × 96 RGB bytes, rows top first.
    pub fn observation(&self) -> &[u8] {
        &self.obs
    }

    /// Gymnasium's `rgb_array` frame: 600 × 400 RGB bytes with skid marks.
    pub fn render_rgb_array(&mut self) -> Result<Vec<u8>, CarRacingError> {
        let mut out = vec![0; (VIDEO_W * VIDEO_H * 3) as usize];
        self.render_into(VIDEO_W, VIDEO_H, true, &mut out)?;
        Ok(out)
    }

    /// Draws the current frame at any size into `out` (`width · height · 3`
    /// bytes, rows top first), with or without skid marks.
    pub fn render_into(
        &mut self,
        width: u32,
        height: u32,
        draw_particles: bool,
        out: &mut [u8],
    ) -> Result<(), CarRacingError> {
        let ep = self.episode.as_ref().ok_or(CarRacingError::NotReset)?;
        let needed = width as usize * height as usize * 3;
        if out.len() != needed || width == 0 || height == 0 {
            return Err(CarRacingError::InvalidConfig(format!(
                "a {width} × {height} picture needs {needed} bytes, got {}",
                out.len()
            )));
        }
        let renderer = match &mut self.video_renderer {
            Some(r) if r.width() == width && r.height() == height => r,
            slot => slot.insert(Renderer::new(width, height).expect("non-zero size")),
        };
        renderer.draw(
            &ep.world,
            &ep.car,
            &ep.road,
            &self.palette,
            FrameInfo {
                t: ep.t,
                reward: ep.reward,
                draw_particles,
            },
        )?;
        renderer.write_rgb(out);
        Ok(())
    }

    /// The world (after a reset).
    pub fn world(&self) -> Option<&World> {
        self.episode.as_ref().map(|e| &e.world)
    }

    /// The car (after a reset).
    pub fn car(&self) -> Option<&Car> {
        self.episode.as_ref().map(|e| &e.car)
    }

    /// The track's centre line (empty before a reset); tile `i` ends at point `i`.
    pub fn track(&self) -> &[TrackPoint] {
        self.episode.as_ref().map_or(&[], |e| &e.track.points)
    }

    /// Whether each tile has been visited.
    pub fn tiles_visited(&self) -> Vec<bool> {
        self.episode
            .as_ref()
            .map_or_else(Vec::new, |e| e.tiles.iter().map(|t| t.visited).collect())
    }

    /// The number of tiles visited.
    pub fn tile_visited_count(&self) -> usize {
        self.episode.as_ref().map_or(0, |e| e.tile_visited_count)
    }

    /// The episode's cumulative reward so far.
    pub fn total_reward(&self) -> f64 {
        self.episode.as_ref().map_or(0.0, |e| e.reward)
    }

    /// The colours in use.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }
}

impl Episode {
    /// Reads the step's sensor events: a touched tile takes the plain road
    /// colour; a wheel's first touch of a tile pays 1000/N and may end the lap.
    fn visit_tiles(
        &mut self,
        road_color: [f64; 3],
        lap_complete_percent: f64,
    ) -> Result<(), CarRacingError> {
        let wheel_of = |shape: ShapeId, car: &Car| car.wheels.iter().position(|w| w.shape == shape);
        let n = self.tiles.len();
        let events = self.world.sensor_events();
        for e in events.end {
            let Ok(tile) = self
                .world
                .shape(e.sensor_shape_id)
                .map(|s| s.user_data() as usize)
            else {
                continue;
            };
            self.road[self.tiles[tile].poly].color = to_rgb(road_color);
            if let Some(w) = wheel_of(e.visitor_shape_id, &self.car) {
                let wheel = &mut self.car.wheels[w];
                wheel.tiles = wheel.tiles.saturating_sub(1);
            }
        }
        for e in events.begin {
            let tile = self.world.shape(e.sensor_shape_id)?.user_data() as usize;
            self.road[self.tiles[tile].poly].color = to_rgb(road_color);
            let Some(w) = wheel_of(e.visitor_shape_id, &self.car) else {
                continue;
            };
            self.car.wheels[w].tiles += 1;
            if !self.tiles[tile].visited {
                self.tiles[tile].visited = true;
                self.reward += 1000.0 / n as f64;
                self.tile_visited_count += 1;
                if tile == 0 && self.tile_visited_count as f64 / n as f64 > lap_complete_percent {
                    self.new_lap = true;
                }
            }
        }
        Ok(())
    }
}
