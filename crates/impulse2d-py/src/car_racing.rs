//! CarRacing's own extras for Python: `CarRacingCore`, one environment with
//! Gymnasium's CarRacing-only parts that the generic `EnvCore` has no room
//! for: the `randomize` reset option, `lap_finished` in the step's info, and
//! the track's centre line and colours (Gymnasium's `env.track`,
//! `env.road_color`, …). `impulse2d.envs.CarRacing` wraps it; the vector
//! env stays on `VectorEnvCore`.

use std::sync::Mutex;

use impulse2d_envs::car_racing::{CarAction, CarRacing, CarRacingConfig};
use impulse2d_envs::{ActionSpace, Env};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::envs::{SpacesTuple, env_err};

/// One CarRacing environment.
#[pyclass(module = "impulse2d._impulse2d")]
pub struct CarRacingCore {
    // A `Mutex` only to make the class `Sync`; `&mut self` reaches it unlocked.
    env: Mutex<CarRacing>,
    /// The last step's `lap_finished`.
    lap_finished: Option<bool>,
}

impl CarRacingCore {
    fn env(&mut self) -> &mut CarRacing {
        self.env.get_mut().unwrap_or_else(|p| p.into_inner())
    }
}

#[pymethods]
impl CarRacingCore {
    /// Gymnasium's CarRacing arguments; `max_episode_steps=None` leaves the
    /// time limit to Gymnasium's `TimeLimit` wrapper.
    #[new]
    #[pyo3(signature = (*, continuous = true, lap_complete_percent = 0.95,
        domain_randomize = false, max_episode_steps = None))]
    fn new(
        continuous: bool,
        lap_complete_percent: f64,
        domain_randomize: bool,
        max_episode_steps: Option<u32>,
    ) -> PyResult<Self> {
        let env = CarRacing::new(CarRacingConfig {
            continuous,
            lap_complete_percent,
            domain_randomize,
            max_episode_steps,
        })
        .map_err(env_err)?;
        Ok(CarRacingCore {
            env: Mutex::new(env),
            lap_finished: None,
        })
    }

    /// The spaces, as `EnvCore.spaces`.
    fn spaces(&mut self) -> SpacesTuple {
        let env = self.env();
        let obs = env.observation_space();
        let (n, low, high) = match env.action_space() {
            ActionSpace::Discrete(n) => (Some(n), Vec::new(), Vec::new()),
            ActionSpace::Continuous { low, high } => (None, low, high),
        };
        (obs.shape, obs.low, obs.high, "uint8", n, low, high)
    }

    /// Starts an episode (`randomize`: Gymnasium's `options["randomize"]`);
    /// returns the observation's bytes.
    #[pyo3(signature = (seed = None, randomize = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        randomize: Option<bool>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let obs = self
            .env()
            .reset_with_options(seed, randomize)
            .map_err(env_err)?;
        Ok(PyBytes::new(py, obs))
    }

    /// One step: `(observation bytes, reward, terminated, truncated)`, as
    /// `EnvCore.step`; `lap_finished()` then tells how it ended.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, f64, bool, bool)> {
        let env = self.env();
        let action = if env.config().continuous {
            let a: Vec<f32> = action.extract().map_err(|_| {
                PyValueError::new_err("a continuous action must be a sequence of floats")
            })?;
            let n = a.len();
            CarAction::Continuous(a.try_into().map_err(|_| {
                PyValueError::new_err(format!("a continuous action has 3 components, got {n}"))
            })?)
        } else {
            CarAction::Discrete(
                action
                    .extract()
                    .map_err(|_| PyValueError::new_err("a discrete action must be an integer"))?,
            )
        };
        let step = env.step_with_info(action).map_err(env_err)?;
        let r = step.result;
        let obs = PyBytes::new(py, env.observation());
        self.lap_finished = step.lap_finished;
        Ok((obs, r.reward, r.terminated, r.truncated))
    }

    /// Gymnasium's `info["lap_finished"]` of the last step: `True` (lap
    /// done), `False` (car left the playfield) or `None` (neither).
    fn lap_finished(&self) -> Option<bool> {
        self.lap_finished
    }

    /// The current `rgb_array` frame: `(width, height, RGB bytes)`.
    fn render<'py>(&mut self, py: Python<'py>) -> PyResult<(usize, usize, Bound<'py, PyBytes>)> {
        let env = self.env();
        let (w, h) = env.render_size();
        let mut rgb = vec![0u8; w * h * 3];
        Env::render(env, &mut rgb).map_err(env_err)?;
        Ok((w, h, PyBytes::new(py, &rgb)))
    }

    /// The track's centre line: `(alpha, beta, x, y)` per point, as
    /// Gymnasium's `env.track` (tile `i` ends at point `i`); empty before a
    /// reset.
    fn track(&mut self) -> Vec<(f64, f64, f64, f64)> {
        self.env()
            .track()
            .iter()
            .map(|p| (p.alpha, p.beta, p.x, p.y))
            .collect()
    }

    /// The colours in use: `(road, background, grass)`, RGB 0–255.
    fn colors(&mut self) -> ([f64; 3], [f64; 3], [f64; 3]) {
        let p = self.env().palette();
        (p.road, p.bg, p.grass)
    }
}
