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
//!   −100 instead (`lap_finished` false). As in Gymnasium, the rear wheels
//!   stand on tile 0 at reset, so its first touch is then and the
//!   `lap_complete_percent` rule never fires: a lap ends when every tile
//!   has been visited.
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
//! step with 8 substeps, not Box2D 2.3 with 180/60 iterations), so
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

use crate::env::{
    Action, ActionSpace, Env, EnvError, ObservationSpace, StepResult, check_len, time_limit,
};

use car::Car;
use render::{FrameInfo, Palette, Renderer, RoadPoly, STATE_H, STATE_W, VIDEO_H, VIDEO_W, to_rgb};
use rng::Pcg64;
use track::{PLAYFIELD, Track, TrackPoint};

/// Steps per second of the simulation.
pub const FPS: f64 = 50.0;
/// Substeps per world step. With 8 (a 400 Hz substep) the wheel joints can
/// be made 100 Hz stiff, which holds a fully steered wheel at its ±0.4 rad
/// limit within 0.025 rad as Box2D 2.3's rigid limit does (4 substeps let the
/// motor push it 0.09 rad past).
pub const SUBSTEPS: u32 = 8;
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

crate::env::settings! {
    /// How an environment is made (Gymnasium's keyword arguments; the
    /// default is Gymnasium's).
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct CarRacingConfig {
        /// Continuous actions (`Box(3)`) or discrete ones (`Discrete(5)`).
        pub continuous: bool = true,
        /// Fraction of the tiles after which touching tile 0 ends the lap.
        pub lap_complete_percent: f64 = 0.95,
        /// New random road, background and grass colours on every reset.
        pub domain_randomize: bool = false,
        /// Truncate after this many steps (`None`: never).
        pub max_episode_steps: Option<u32> = Some(MAX_EPISODE_STEPS),
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

/// What a step returns besides the observation, with Gymnasium's `info`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarStep {
    /// Reward, termination and truncation.
    pub result: StepResult,
    /// `Some(true)` when the lap was finished, `Some(false)` when the car
    /// left the playfield (Gymnasium's `info["lap_finished"]`).
    pub lap_finished: Option<bool>,
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

impl CarRacing {
    /// A new environment; call [`reset_with_options`](Self::reset_with_options)
    /// (or [`Env::reset`]) before stepping. Its random stream starts from
    /// seed 0 until a reset gives a seed.
    pub fn new(config: CarRacingConfig) -> Result<CarRacing, EnvError> {
        let p = config.lap_complete_percent;
        if !p.is_finite() {
            return Err(EnvError::InvalidParameter(format!(
                "lap_complete_percent must be finite, got {p}"
            )));
        }
        if config.max_episode_steps == Some(0) {
            return Err(EnvError::InvalidParameter(
                "max_episode_steps must be at least 1".into(),
            ));
        }
        let mut env = CarRacing {
            config,
            rng: Pcg64::from_seed(0),
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
        grass[self.rng.integers(3) as usize] += 20.0;
        self.palette = Palette { road, bg, grass };
    }

    /// Starts an episode: reseeds when `seed` is given (else the stream goes
    /// on), draws new colours if domain randomisation is on and `randomize`
    /// is not `Some(false)` (Gymnasium's `options["randomize"]`), generates a
    /// track, places the car, steps once and returns the first observation.
    pub fn reset_with_options(
        &mut self,
        seed: Option<u64>,
        randomize: Option<bool>,
    ) -> Result<&[u8], EnvError> {
        if let Some(seed) = seed {
            self.rng = Pcg64::from_seed(seed);
        }
        if self.config.domain_randomize && randomize.unwrap_or(true) {
            self.randomize_colors();
        }
        let track = track::generate(&mut self.rng)
            .ok_or(EnvError::Physics("no track after 1000 attempts".into()))?;
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
    fn check_action(&self, action: CarAction) -> Result<(), EnvError> {
        match (self.config.continuous, action) {
            (true, CarAction::Continuous(a)) => {
                if a.iter().all(|v| v.is_finite()) {
                    Ok(())
                } else {
                    Err(EnvError::InvalidAction(format!(
                        "continuous action must be finite, got {a:?}"
                    )))
                }
            }
            (false, CarAction::Discrete(a)) => {
                if (0..5).contains(&a) {
                    Ok(())
                } else {
                    Err(EnvError::InvalidAction(format!(
                        "discrete action must be in 0..5, got {a}"
                    )))
                }
            }
            (true, _) => Err(EnvError::InvalidAction(
                "this environment takes continuous actions".into(),
            )),
            (false, _) => Err(EnvError::InvalidAction(
                "this environment takes discrete actions".into(),
            )),
        }
    }

    /// Advances one step; `None` is the step `reset` makes.
    fn advance(&mut self, action: Option<CarAction>) -> Result<CarStep, EnvError> {
        let lap_complete_percent = self.config.lap_complete_percent;
        let ep = self.episode.as_mut().ok_or(EnvError::NotReset)?;
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
        ep.draw(&mut self.state_renderer, &self.palette, false)?;
        self.state_renderer.write_rgb(&mut self.obs);

        let mut result = StepResult::default();
        let mut lap_finished = None;
        if action.is_some() {
            ep.reward -= 0.1;
            result.reward = ep.reward - ep.prev_reward;
            ep.prev_reward = ep.reward;
            if ep.tile_visited_count == ep.tiles.len() || ep.new_lap {
                result.terminated = true;
                lap_finished = Some(true);
            }
            let p = ep.world.body(ep.car.hull)?.position();
            if f64::from(p.x).abs() > PLAYFIELD || f64::from(p.y).abs() > PLAYFIELD {
                result.terminated = true;
                lap_finished = Some(false);
                result.reward = -100.0;
            }
            result.truncated = time_limit(&mut ep.elapsed_steps, self.config.max_episode_steps);
        }
        Ok(CarStep {
            result,
            lap_finished,
        })
    }

    /// Applies an action and steps the simulation by 1/50 s; returns the
    /// step's result and `lap_finished` (Gymnasium's `info`). A bad action
    /// is an `Err` and changes nothing.
    pub fn step_with_info(&mut self, action: CarAction) -> Result<CarStep, EnvError> {
        if self.episode.is_none() {
            return Err(EnvError::NotReset);
        }
        self.check_action(action)?;
        self.advance(Some(action))
    }

    /// The last observation: 96 × 96 RGB bytes, rows top first.
    pub fn observation(&self) -> &[u8] {
        &self.obs
    }

    /// Gymnasium's `rgb_array` frame: 600 × 400 RGB bytes with skid marks.
    pub fn render_rgb_array(&mut self) -> Result<Vec<u8>, EnvError> {
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
    ) -> Result<(), EnvError> {
        let ep = self.episode.as_ref().ok_or(EnvError::NotReset)?;
        if width == 0 || height == 0 {
            return Err(EnvError::InvalidParameter(format!(
                "a picture of {width} × {height} pixels"
            )));
        }
        check_len(width as usize * height as usize * 3, out.len())?;
        let renderer = match &mut self.video_renderer {
            Some(r) if r.width() == width && r.height() == height => r,
            slot => slot.insert(Renderer::new(width, height).expect("non-zero size")),
        };
        ep.draw(renderer, &self.palette, draw_particles)?;
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
    /// Draws the episode's current frame.
    fn draw(
        &self,
        renderer: &mut Renderer,
        palette: &Palette,
        draw_particles: bool,
    ) -> Result<(), EnvError> {
        let info = FrameInfo {
            t: self.t,
            reward: self.reward,
            draw_particles,
        };
        Ok(renderer.draw(&self.world, &self.car, &self.road, palette, info)?)
    }

    /// Reads the step's sensor events: a touched tile takes the plain road
    /// colour; a wheel's first touch of a tile pays 1000/N and may end the lap.
    fn visit_tiles(
        &mut self,
        road_color: [f64; 3],
        lap_complete_percent: f64,
    ) -> Result<(), EnvError> {
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

impl Env for CarRacing {
    type Obs = u8;

    /// 96 × 96 × 3 bytes, 0–255.
    fn observation_space(&self) -> ObservationSpace {
        ObservationSpace {
            shape: vec![STATE_H as usize, STATE_W as usize, 3],
            low: vec![0.0; OBS_LEN],
            high: vec![255.0; OBS_LEN],
        }
    }

    /// `Box([−1, 0, 0], [1, 1, 1])` or `Discrete(5)`.
    fn action_space(&self) -> ActionSpace {
        if self.config.continuous {
            ActionSpace::Continuous {
                low: vec![-1.0, 0.0, 0.0],
                high: vec![1.0, 1.0, 1.0],
            }
        } else {
            ActionSpace::Discrete(5)
        }
    }

    fn reset(&mut self, seed: Option<u64>, obs: &mut [u8]) -> Result<(), EnvError> {
        check_len(OBS_LEN, obs.len())?;
        obs.copy_from_slice(self.reset_with_options(seed, None)?);
        Ok(())
    }

    fn step(&mut self, action: Action<'_>, obs: &mut [u8]) -> Result<StepResult, EnvError> {
        check_len(OBS_LEN, obs.len())?;
        let action = match action {
            Action::Discrete(a) => CarAction::Discrete(a),
            Action::Continuous(&[steer, gas, brake]) => CarAction::Continuous([steer, gas, brake]),
            Action::Continuous(a) => {
                return Err(EnvError::InvalidAction(format!(
                    "a continuous action has 3 components, got {}",
                    a.len()
                )));
            }
        };
        let step = self.step_with_info(action)?;
        obs.copy_from_slice(&self.obs);
        Ok(step.result)
    }

    /// Gymnasium's video size, 600 × 400.
    fn render_size(&self) -> (usize, usize) {
        (VIDEO_W as usize, VIDEO_H as usize)
    }

    fn render(&mut self, rgb: &mut [u8]) -> Result<(), EnvError> {
        self.render_into(VIDEO_W, VIDEO_H, true, rgb)
    }
}
