//! Gymnasium's Box2D environments (crate `impulse2d-envs`) for Python.
//!
//! `EnvCore` holds one environment and `VectorEnvCore` `N` of them stepped on
//! worker threads; both are type-erased over the Rust environment so that one
//! class serves every environment (CarRacing's `u8` pixels included). The
//! Python package (`impulse2d.envs`) wraps them in `gymnasium.Env` and
//! `gymnasium.vector.VectorEnv` classes and turns the `bytes` they return into
//! numpy arrays with `numpy.frombuffer` (no copy beyond the one into `bytes`).

use impulse2d_envs::bipedal_walker::{BipedalWalker, BipedalWalkerConfig};
use impulse2d_envs::car_racing::{CarRacing, CarRacingConfig};
use impulse2d_envs::lunar_lander::{LunarLander, LunarLanderConfig};
use impulse2d_envs::{
    Action, ActionSpace, Env, EnvError, ObservationSpace, VectorActions, VectorEnv,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use std::sync::Mutex;

use pyo3::conversion::FromPyObjectOwned;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// Maps an environment error onto a Python exception: bad input is a
/// `ValueError`, a call out of order or an engine failure a `RuntimeError`.
pub(crate) fn env_err(e: EnvError) -> PyErr {
    match e {
        EnvError::InvalidAction(_) | EnvError::BadBuffer { .. } | EnvError::InvalidParameter(_) => {
            PyValueError::new_err(e.to_string())
        }
        EnvError::NotReset | EnvError::Physics(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// An observation element that can be handed to Python as raw bytes.
trait ObsElement: Copy + Default + Send + Sync + 'static {
    /// numpy's name of the element type.
    const DTYPE: &'static str;
    /// Appends the native-endian bytes of `values` to `out`.
    fn put_bytes(values: &[Self], out: &mut Vec<u8>);
}

impl ObsElement for f32 {
    const DTYPE: &'static str = "float32";
    fn put_bytes(values: &[Self], out: &mut Vec<u8>) {
        for v in values {
            out.extend_from_slice(&v.to_ne_bytes());
        }
    }
}

impl ObsElement for u8 {
    const DTYPE: &'static str = "uint8";
    fn put_bytes(values: &[Self], out: &mut Vec<u8>) {
        out.extend_from_slice(values);
    }
}

/// An action as it comes from Python.
enum PyAction {
    Discrete(i64),
    Continuous(Vec<f32>),
}

impl PyAction {
    fn as_action(&self) -> Action<'_> {
        match self {
            PyAction::Discrete(a) => Action::Discrete(*a),
            PyAction::Continuous(a) => Action::Continuous(a),
        }
    }
}

/// What every environment offers Python, whatever its observation type.
trait DynEnv: Send {
    fn observation_space(&self) -> ObservationSpace;
    fn action_space(&self) -> ActionSpace;
    fn dtype(&self) -> &'static str;
    fn reset(&mut self, seed: Option<u64>, out: &mut Vec<u8>) -> Result<(), EnvError>;
    fn step(&mut self, action: &PyAction, out: &mut Vec<u8>)
    -> Result<(f64, bool, bool), EnvError>;
    fn render_size(&self) -> (usize, usize);
    fn render(&mut self, rgb: &mut [u8]) -> Result<(), EnvError>;
}

/// A Rust environment with its observation buffer.
struct Holder<E: Env> {
    env: E,
    obs: Vec<E::Obs>,
}

impl<E: Env> Holder<E> {
    fn new(env: E) -> Self {
        let n = env.observation_space().len();
        Holder {
            env,
            obs: vec![E::Obs::default(); n],
        }
    }
}

impl<E: Env> DynEnv for Holder<E>
where
    E::Obs: ObsElement,
{
    fn observation_space(&self) -> ObservationSpace {
        self.env.observation_space()
    }
    fn action_space(&self) -> ActionSpace {
        self.env.action_space()
    }
    fn dtype(&self) -> &'static str {
        <E::Obs as ObsElement>::DTYPE
    }
    fn reset(&mut self, seed: Option<u64>, out: &mut Vec<u8>) -> Result<(), EnvError> {
        self.env.reset(seed, &mut self.obs)?;
        E::Obs::put_bytes(&self.obs, out);
        Ok(())
    }
    fn step(
        &mut self,
        action: &PyAction,
        out: &mut Vec<u8>,
    ) -> Result<(f64, bool, bool), EnvError> {
        let r = self.env.step(action.as_action(), &mut self.obs)?;
        E::Obs::put_bytes(&self.obs, out);
        Ok((r.reward, r.terminated, r.truncated))
    }
    fn render_size(&self) -> (usize, usize) {
        self.env.render_size()
    }
    fn render(&mut self, rgb: &mut [u8]) -> Result<(), EnvError> {
        self.env.render(rgb)
    }
}

/// A rendered frame: width, height, RGB bytes (top row first).
type Frame = (usize, usize, Vec<u8>);

/// What every vector environment offers Python.
trait DynVectorEnv: Send {
    fn num_envs(&self) -> usize;
    fn workers(&self) -> usize;
    fn reset(&mut self, seed: Option<u64>) -> Result<(), EnvError>;
    fn reset_with_seeds(&mut self, seeds: &[Option<u64>]) -> Result<(), EnvError>;
    fn step_discrete(&mut self, actions: &[i64]) -> Result<(), EnvError>;
    fn step_continuous(&mut self, actions: &[f32]) -> Result<(), EnvError>;
    fn put_observations(&self, out: &mut Vec<u8>);
    fn rewards(&self) -> &[f64];
    fn terminated(&self) -> &[bool];
    fn truncated(&self) -> &[bool];
    fn render(&mut self, index: usize) -> Option<Result<Frame, EnvError>>;
}

impl<E: Env + 'static> DynVectorEnv for VectorEnv<E>
where
    E::Obs: ObsElement,
{
    fn num_envs(&self) -> usize {
        VectorEnv::num_envs(self)
    }
    fn workers(&self) -> usize {
        VectorEnv::workers(self)
    }
    fn reset(&mut self, seed: Option<u64>) -> Result<(), EnvError> {
        VectorEnv::reset(self, seed)
    }
    fn reset_with_seeds(&mut self, seeds: &[Option<u64>]) -> Result<(), EnvError> {
        VectorEnv::reset_with_seeds(self, seeds)
    }
    fn step_discrete(&mut self, actions: &[i64]) -> Result<(), EnvError> {
        self.step(VectorActions::Discrete(actions))
    }
    fn step_continuous(&mut self, actions: &[f32]) -> Result<(), EnvError> {
        self.step(VectorActions::Continuous(actions))
    }
    fn put_observations(&self, out: &mut Vec<u8>) {
        E::Obs::put_bytes(self.observations(), out);
    }
    fn rewards(&self) -> &[f64] {
        VectorEnv::rewards(self)
    }
    fn terminated(&self) -> &[bool] {
        VectorEnv::terminated(self)
    }
    fn truncated(&self) -> &[bool] {
        VectorEnv::truncated(self)
    }
    fn render(&mut self, index: usize) -> Option<Result<Frame, EnvError>> {
        self.with_env(index, |env| {
            let (w, h) = env.render_size();
            let mut rgb = vec![0u8; w * h * 3];
            env.render(&mut rgb).map(|()| (w, h, rgb))
        })
    }
}

/// Which environment to build, with its settings.
#[derive(Clone)]
enum Spec {
    LunarLander(LunarLanderConfig),
    BipedalWalker(BipedalWalkerConfig),
    CarRacing(CarRacingConfig),
}

/// Reads keyword `key` from `kwargs`, or `default`.
fn kwarg<'py, T: FromPyObjectOwned<'py>>(
    kwargs: Option<&Bound<'py, PyDict>>,
    key: &str,
    default: T,
) -> PyResult<T> {
    match kwargs.map(|k| k.get_item(key)).transpose()?.flatten() {
        Some(v) if !v.is_none() => v
            .extract()
            .map_err(|_| PyValueError::new_err(format!("bad value for {key}: {v}"))),
        _ => Ok(default),
    }
}

impl Spec {
    /// Reads `name` and its keyword settings (Gymnasium's constructor
    /// arguments, and `max_episode_steps`, `None` for no limit). An unknown
    /// keyword or an out-of-range setting is a `ValueError`.
    fn parse(name: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Spec> {
        let known: &[&str] = match name {
            "LunarLander" => &[
                "continuous",
                "gravity",
                "enable_wind",
                "wind_power",
                "turbulence_power",
            ],
            "BipedalWalker" => &["hardcore"],
            "CarRacing" => &["continuous", "lap_complete_percent", "domain_randomize"],
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown environment {name:?}"
                )));
            }
        };
        if let Some(kwargs) = kwargs {
            for key in kwargs.keys() {
                let key: String = key.extract()?;
                if key != "max_episode_steps" && !known.contains(&key.as_str()) {
                    return Err(PyValueError::new_err(format!(
                        "{name} takes no argument {key:?} (it takes {known:?})"
                    )));
                }
            }
        }
        let max_episode_steps: Option<u32> = kwarg(kwargs, "max_episode_steps", None)?;
        Ok(match name {
            "LunarLander" => {
                let config = LunarLanderConfig {
                    continuous: kwarg(kwargs, "continuous", false)?,
                    gravity: kwarg(kwargs, "gravity", -10.0)?,
                    enable_wind: kwarg(kwargs, "enable_wind", false)?,
                    wind_power: kwarg(kwargs, "wind_power", 15.0)?,
                    turbulence_power: kwarg(kwargs, "turbulence_power", 1.5)?,
                    max_episode_steps,
                };
                // Check the settings once, here, with a clear message.
                LunarLander::new(config.clone()).map_err(env_err)?;
                Spec::LunarLander(config)
            }
            "BipedalWalker" => {
                let mut config = BipedalWalkerConfig::new(kwarg(kwargs, "hardcore", false)?);
                config.max_episode_steps = max_episode_steps;
                Spec::BipedalWalker(config)
            }
            _ => {
                let config = CarRacingConfig {
                    continuous: kwarg(kwargs, "continuous", true)?,
                    lap_complete_percent: kwarg(kwargs, "lap_complete_percent", 0.95)?,
                    domain_randomize: kwarg(kwargs, "domain_randomize", false)?,
                    max_episode_steps,
                };
                CarRacing::new(config).map_err(env_err)?;
                Spec::CarRacing(config)
            }
        })
    }

    fn single(&self) -> Result<Box<dyn DynEnv>, EnvError> {
        Ok(match self {
            Spec::LunarLander(c) => Box::new(Holder::new(LunarLander::new(c.clone())?)),
            Spec::BipedalWalker(c) => Box::new(Holder::new(BipedalWalker::new(c.clone()))),
            Spec::CarRacing(c) => Box::new(Holder::new(CarRacing::new(*c)?)),
        })
    }

    fn vector(&self, n: usize, workers: usize) -> Result<Box<dyn DynVectorEnv>, EnvError> {
        Ok(match self {
            Spec::LunarLander(c) => {
                let envs = (0..n)
                    .map(|_| LunarLander::new(c.clone()))
                    .collect::<Result<Vec<_>, _>>()?;
                Box::new(VectorEnv::new(envs, workers)?)
            }
            Spec::BipedalWalker(c) => {
                let envs = (0..n).map(|_| BipedalWalker::new(c.clone())).collect();
                Box::new(VectorEnv::new(envs, workers)?)
            }
            Spec::CarRacing(c) => {
                let envs = (0..n)
                    .map(|_| CarRacing::new(*c))
                    .collect::<Result<Vec<_>, _>>()?;
                Box::new(VectorEnv::new(envs, workers)?)
            }
        })
    }
}

/// The spaces of an environment as plain Python values:
/// `(obs_shape, obs_low, obs_high, obs_dtype, n_discrete_or_None, act_low, act_high)`.
pub(crate) type SpacesTuple = (
    Vec<usize>,
    Vec<f32>,
    Vec<f32>,
    &'static str,
    Option<usize>,
    Vec<f32>,
    Vec<f32>,
);

fn spaces(env: &dyn DynEnv) -> SpacesTuple {
    let obs = env.observation_space();
    let (n, low, high) = match env.action_space() {
        ActionSpace::Discrete(n) => (Some(n), Vec::new(), Vec::new()),
        ActionSpace::Continuous { low, high } => (None, low, high),
    };
    (obs.shape, obs.low, obs.high, env.dtype(), n, low, high)
}

/// Reads a Python action: an integer (numpy integers included) for a
/// discrete environment, a sequence of floats for a continuous one.
fn read_action(action: &Bound<'_, PyAny>, discrete: bool) -> PyResult<PyAction> {
    if discrete {
        let a: i64 = action
            .extract()
            .map_err(|_| PyValueError::new_err("a discrete action must be an integer"))?;
        Ok(PyAction::Discrete(a))
    } else {
        let a: Vec<f32> = action.extract().map_err(|_| {
            PyValueError::new_err("a continuous action must be a sequence of floats")
        })?;
        Ok(PyAction::Continuous(a))
    }
}

/// Numbers of `N` bytes each from a byte string.
fn from_bytes<const N: usize, T>(bytes: &[u8], f: fn([u8; N]) -> T) -> PyResult<Vec<T>> {
    if !bytes.len().is_multiple_of(N) {
        return Err(PyValueError::new_err(format!(
            "{} bytes is not a whole number of {N}-byte values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(N)
        .map(|c| f(c.try_into().expect("chunks of N")))
        .collect())
}

/// Exclusive access to a value behind a `Mutex` through `&mut` (no locking;
/// the `Mutex` is there only to make the Python classes `Sync`).
fn excl<T: ?Sized>(m: &mut Mutex<Box<T>>) -> &mut T {
    m.get_mut().unwrap_or_else(|p| p.into_inner()).as_mut()
}

/// One environment (`impulse2d.envs` wraps it in a `gymnasium.Env`).
#[pyclass(module = "impulse2d._impulse2d")]
pub struct EnvCore {
    inner: Mutex<Box<dyn DynEnv>>,
    discrete: bool,
    buffer: Vec<u8>,
}

#[pymethods]
impl EnvCore {
    /// `name` is "LunarLander", "BipedalWalker" or "CarRacing"; the keyword
    /// arguments are Gymnasium's constructor arguments of that environment,
    /// and `max_episode_steps` (default `None`: no time limit).
    #[new]
    #[pyo3(signature = (name, **kwargs))]
    fn new(name: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let inner = Spec::parse(name, kwargs)?.single().map_err(env_err)?;
        let discrete = inner.action_space().is_discrete();
        Ok(EnvCore {
            inner: Mutex::new(inner),
            discrete,
            buffer: Vec::new(),
        })
    }

    /// The spaces: `(obs_shape, obs_low, obs_high, obs_dtype, n_actions or
    /// None, action_low, action_high)`.
    fn spaces(&mut self) -> SpacesTuple {
        spaces(excl(&mut self.inner))
    }

    /// Starts an episode; returns the observation's bytes.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyBytes>> {
        self.buffer.clear();
        excl(&mut self.inner)
            .reset(seed, &mut self.buffer)
            .map_err(env_err)?;
        Ok(PyBytes::new(py, &self.buffer))
    }

    /// One step: `(observation bytes, reward, terminated, truncated)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, f64, bool, bool)> {
        let action = read_action(action, self.discrete)?;
        self.buffer.clear();
        let (r, term, trunc) = excl(&mut self.inner)
            .step(&action, &mut self.buffer)
            .map_err(env_err)?;
        Ok((PyBytes::new(py, &self.buffer), r, term, trunc))
    }

    /// The current frame: `(width, height, RGB bytes, top row first)`.
    fn render<'py>(&mut self, py: Python<'py>) -> PyResult<(usize, usize, Bound<'py, PyBytes>)> {
        let env = excl(&mut self.inner);
        let (w, h) = env.render_size();
        let mut rgb = vec![0u8; w * h * 3];
        env.render(&mut rgb).map_err(env_err)?;
        Ok((w, h, PyBytes::new(py, &rgb)))
    }
}

/// `N` environments stepped on worker threads with next-step autoreset
/// (`impulse2d.envs` wraps it in a `gymnasium.vector.VectorEnv`).
#[pyclass(module = "impulse2d._impulse2d")]
pub struct VectorEnvCore {
    inner: Mutex<Box<dyn DynVectorEnv>>,
    first: Mutex<Box<dyn DynEnv>>,
    discrete: bool,
    buffer: Vec<u8>,
}

/// `(observations, rewards, terminated, truncated)` as bytes.
type StepBytes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

impl VectorEnvCore {
    fn outputs<'py>(&mut self, py: Python<'py>) -> StepBytes<'py> {
        let inner = excl(&mut self.inner);
        self.buffer.clear();
        inner.put_observations(&mut self.buffer);
        let obs = PyBytes::new(py, &self.buffer);
        let rewards: Vec<u8> = inner
            .rewards()
            .iter()
            .flat_map(|r| r.to_ne_bytes())
            .collect();
        let term: Vec<u8> = inner.terminated().iter().map(|&b| b as u8).collect();
        let trunc: Vec<u8> = inner.truncated().iter().map(|&b| b as u8).collect();
        (
            obs,
            PyBytes::new(py, &rewards),
            PyBytes::new(py, &term),
            PyBytes::new(py, &trunc),
        )
    }
}

#[pymethods]
impl VectorEnvCore {
    /// `num_envs` environments `name` (see `EnvCore`) on `workers` threads.
    #[new]
    #[pyo3(signature = (name, num_envs, workers = 1, **kwargs))]
    fn new(
        name: &str,
        num_envs: usize,
        workers: usize,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let spec = Spec::parse(name, kwargs)?;
        let inner = spec.vector(num_envs, workers).map_err(env_err)?;
        let first = spec.single().map_err(env_err)?;
        let discrete = first.action_space().is_discrete();
        Ok(VectorEnvCore {
            inner: Mutex::new(inner),
            first: Mutex::new(first),
            discrete,
            buffer: Vec::new(),
        })
    }

    /// Number of environments.
    #[getter]
    fn num_envs(&mut self) -> usize {
        excl(&mut self.inner).num_envs()
    }

    /// Number of worker threads, the calling thread included.
    #[getter]
    fn workers(&mut self) -> usize {
        excl(&mut self.inner).workers()
    }

    /// The spaces of one environment (see `EnvCore.spaces`).
    fn spaces(&mut self) -> SpacesTuple {
        spaces(excl(&mut self.first))
    }

    /// Resets every environment (`seed + i` for environment `i`); returns the
    /// observations' bytes.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyBytes>> {
        let inner = excl(&mut self.inner);
        py.detach(|| inner.reset(seed)).map_err(env_err)?;
        self.buffer.clear();
        inner.put_observations(&mut self.buffer);
        Ok(PyBytes::new(py, &self.buffer))
    }

    /// Resets environment `i` with `seeds[i]` (`None`: it continues its
    /// stream); returns the observations' bytes. A list of the wrong length is
    /// a `ValueError` and nothing is reset.
    fn reset_seeds<'py>(
        &mut self,
        py: Python<'py>,
        seeds: Vec<Option<u64>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let inner = excl(&mut self.inner);
        py.detach(|| inner.reset_with_seeds(&seeds))
            .map_err(env_err)?;
        self.buffer.clear();
        inner.put_observations(&mut self.buffer);
        Ok(PyBytes::new(py, &self.buffer))
    }

    /// Steps every environment. `actions` are raw bytes as
    /// `numpy.ndarray.tobytes` gives them: `N` native-endian int64 for a
    /// discrete environment, `N × action_dim` float32 (row after row) for a
    /// continuous one. Returns `(observations, rewards (float64), terminated,
    /// truncated (uint8))` as bytes.
    fn step<'py>(&mut self, py: Python<'py>, actions: &[u8]) -> PyResult<StepBytes<'py>> {
        let inner = excl(&mut self.inner);
        if self.discrete {
            let actions = from_bytes::<8, i64>(actions, i64::from_ne_bytes)?;
            py.detach(|| inner.step_discrete(&actions))
        } else {
            let actions = from_bytes::<4, f32>(actions, f32::from_ne_bytes)?;
            py.detach(|| inner.step_continuous(&actions))
        }
        .map_err(env_err)?;
        Ok(self.outputs(py))
    }

    /// The frame of environment `index`: `(width, height, RGB bytes)`.
    fn render<'py>(
        &mut self,
        py: Python<'py>,
        index: usize,
    ) -> PyResult<(usize, usize, Bound<'py, PyBytes>)> {
        let (w, h, rgb) = excl(&mut self.inner)
            .render(index)
            .ok_or_else(|| PyValueError::new_err(format!("no environment {index}")))?
            .map_err(env_err)?;
        Ok((w, h, PyBytes::new(py, &rgb)))
    }
}

/// Adds the environment classes to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvCore>()?;
    m.add_class::<VectorEnvCore>()?;
    Ok(())
}
