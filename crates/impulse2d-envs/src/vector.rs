//! [`VectorEnv`]: `N` environments stepped together on worker threads.
//!
//! The environments are split into contiguous chunks, one per worker; the
//! calling thread runs the first chunk itself and `workers − 1` threads,
//! started with the vector env and kept until it is dropped, run the others.
//! Each environment only ever touches its own state, so the results do not
//! depend on the number of workers or on which thread ran what: they are the
//! bits that `N` single environments give with the same seeds and actions.
//!
//! Autoreset follows Gymnasium 1.x's default, *next-step* mode: the step
//! after an environment terminated or was truncated resets it (with its
//! random stream continued, no new seed) instead of stepping, ignores its
//! action, and reports the reset observation, reward 0 and neither flag.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use crate::env::{Action, ActionSpace, Env, EnvError, check_len};

/// The actions of all environments of a [`VectorEnv`] for one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VectorActions<'a> {
    /// One discrete action per environment.
    Discrete(&'a [i64]),
    /// `N × action_dim` floats, environment after environment.
    Continuous(&'a [f32]),
}

/// What a worker is asked to do with its chunk.
#[derive(Clone, Copy, Debug)]
enum Command {
    Step,
    Reset,
    Stop,
}

/// A worker's environments and their inputs and outputs.
struct Chunk<E: Env> {
    envs: Vec<E>,
    /// Whether each environment resets at its next step.
    autoreset: Vec<bool>,
    /// Seeds for the next reset command.
    seeds: Vec<Option<u64>>,
    actions_discrete: Vec<i64>,
    actions_continuous: Vec<f32>,
    obs: Vec<E::Obs>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    error: Option<EnvError>,
}

impl<E: Env> Chunk<E> {
    fn run(&mut self, command: Command, obs_len: usize, act_dim: usize, discrete: bool) {
        self.error = None;
        for i in 0..self.envs.len() {
            let obs = &mut self.obs[i * obs_len..(i + 1) * obs_len];
            let env = &mut self.envs[i];
            let result = match command {
                Command::Reset => {
                    self.autoreset[i] = false;
                    self.rewards[i] = 0.0;
                    self.terminated[i] = false;
                    self.truncated[i] = false;
                    env.reset(self.seeds[i], obs)
                }
                Command::Step if self.autoreset[i] => {
                    self.autoreset[i] = false;
                    self.rewards[i] = 0.0;
                    self.terminated[i] = false;
                    self.truncated[i] = false;
                    env.reset(None, obs)
                }
                Command::Step => {
                    let action = if discrete {
                        Action::Discrete(self.actions_discrete[i])
                    } else {
                        Action::Continuous(&self.actions_continuous[i * act_dim..(i + 1) * act_dim])
                    };
                    env.step(action, obs).map(|r| {
                        self.rewards[i] = r.reward;
                        self.terminated[i] = r.terminated;
                        self.truncated[i] = r.truncated;
                        self.autoreset[i] = r.terminated || r.truncated;
                    })
                }
                Command::Stop => Ok(()),
            };
            if let Err(e) = result {
                self.error.get_or_insert(e);
            }
        }
    }
}

/// A worker thread and the channel that commands it.
struct Worker {
    commands: SyncSender<Command>,
    handle: Option<JoinHandle<()>>,
}

/// `N` environments of one kind stepped together, on worker threads, with
/// Gymnasium's next-step autoreset; outputs in `(N, …)` buffers.
pub struct VectorEnv<E: Env + 'static> {
    num_envs: usize,
    obs_len: usize,
    action_space: ActionSpace,
    /// Index of the first environment of each chunk, and `num_envs` last.
    starts: Vec<usize>,
    chunks: Vec<Arc<Mutex<Chunk<E>>>>,
    /// Workers for chunks 1.. (chunk 0 runs on the calling thread).
    workers: Vec<Worker>,
    done: Receiver<()>,
    obs: Vec<E::Obs>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A worker that panicked poisons its chunk; the data is still whole
    // enough to read (each env is only changed through its own methods).
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl<E: Env + 'static> VectorEnv<E> {
    /// Takes ownership of `envs` (at least one, all with the same spaces) and
    /// starts `workers − 1` threads (`workers` is clamped to `1..=N`).
    pub fn new(envs: Vec<E>, workers: usize) -> Result<Self, EnvError> {
        let num_envs = envs.len();
        if num_envs == 0 {
            return Err(EnvError::InvalidParameter(
                "a vector env needs at least one env".into(),
            ));
        }
        let space = envs[0].observation_space();
        let action_space = envs[0].action_space();
        if envs
            .iter()
            .any(|e| e.observation_space() != space || e.action_space() != action_space)
        {
            return Err(EnvError::InvalidParameter(
                "the envs of a vector env must have the same spaces".into(),
            ));
        }
        let obs_len = space.len();
        let act_dim = action_space.dim();
        let workers = workers.clamp(1, num_envs);
        let starts: Vec<usize> = (0..=workers).map(|w| w * num_envs / workers).collect();

        let mut envs = envs.into_iter();
        let chunks: Vec<Arc<Mutex<Chunk<E>>>> = starts
            .windows(2)
            .map(|w| {
                let n = w[1] - w[0];
                Arc::new(Mutex::new(Chunk {
                    envs: envs.by_ref().take(n).collect(),
                    autoreset: vec![false; n],
                    seeds: vec![None; n],
                    actions_discrete: vec![0; n],
                    actions_continuous: vec![0.0; n * act_dim],
                    obs: vec![E::Obs::default(); n * obs_len],
                    rewards: vec![0.0; n],
                    terminated: vec![false; n],
                    truncated: vec![false; n],
                    error: None,
                }))
            })
            .collect();

        let (done_tx, done) = sync_channel(workers);
        let discrete = action_space.is_discrete();
        let workers = chunks[1..]
            .iter()
            .map(|chunk| {
                let (commands, rx) = sync_channel::<Command>(1);
                let chunk = Arc::clone(chunk);
                let done_tx = done_tx.clone();
                let handle = std::thread::spawn(move || {
                    while let Ok(command) = rx.recv() {
                        if let Command::Stop = command {
                            break;
                        }
                        let ran = catch_unwind(AssertUnwindSafe(|| {
                            lock(&chunk).run(command, obs_len, act_dim, discrete)
                        }));
                        if ran.is_err() {
                            lock(&chunk).error =
                                Some(EnvError::Physics("an environment panicked".into()));
                        }
                        if done_tx.send(()).is_err() {
                            break;
                        }
                    }
                });
                Worker {
                    commands,
                    handle: Some(handle),
                }
            })
            .collect();

        Ok(VectorEnv {
            num_envs,
            obs_len,
            action_space,
            starts,
            chunks,
            workers,
            done,
            obs: vec![E::Obs::default(); num_envs * obs_len],
            rewards: vec![0.0; num_envs],
            terminated: vec![false; num_envs],
            truncated: vec![false; num_envs],
        })
    }

    /// Number of environments `N`.
    pub fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Number of worker threads, the calling thread included.
    pub fn workers(&self) -> usize {
        self.chunks.len()
    }

    /// Elements of one environment's observation.
    pub fn observation_len(&self) -> usize {
        self.obs_len
    }

    /// The environments' action space.
    pub fn action_space(&self) -> &ActionSpace {
        &self.action_space
    }

    /// Observations of the last reset or step, `N × observation_len`.
    pub fn observations(&self) -> &[E::Obs] {
        &self.obs
    }

    /// Rewards of the last step, one per environment.
    pub fn rewards(&self) -> &[f64] {
        &self.rewards
    }

    /// Whether each environment terminated at the last step.
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    /// Whether each environment was truncated at the last step.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// Resets every environment: with `Some(seed)`, environment `i` gets seed
    /// `seed + i` (Gymnasium's rule); with `None` each continues its stream.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(), EnvError> {
        let seeds: Vec<Option<u64>> = (0..self.num_envs)
            .map(|i| seed.map(|s| s.wrapping_add(i as u64)))
            .collect();
        self.reset_with_seeds(&seeds)
    }

    /// Resets every environment, environment `i` with `seeds[i]`.
    pub fn reset_with_seeds(&mut self, seeds: &[Option<u64>]) -> Result<(), EnvError> {
        check_len(self.num_envs, seeds.len())?;
        for (c, chunk) in self.chunks.iter().enumerate() {
            let (a, b) = (self.starts[c], self.starts[c + 1]);
            lock(chunk).seeds.copy_from_slice(&seeds[a..b]);
        }
        self.run(Command::Reset)
    }

    /// Steps every environment (an environment that finished at the previous
    /// step is reset instead and its action ignored). Every action is checked
    /// first: an invalid one (wrong kind or length, out of range, NaN) is an
    /// `Err` and no environment moves.
    pub fn step(&mut self, actions: VectorActions<'_>) -> Result<(), EnvError> {
        match (&self.action_space, actions) {
            (ActionSpace::Discrete(n), VectorActions::Discrete(a)) => {
                check_len(self.num_envs, a.len())?;
                if let Some(bad) = a.iter().find(|&&x| x < 0 || x as u64 >= *n as u64) {
                    return Err(EnvError::InvalidAction(format!(
                        "{bad} is not in Discrete({n})"
                    )));
                }
                for (c, chunk) in self.chunks.iter().enumerate() {
                    let (s, e) = (self.starts[c], self.starts[c + 1]);
                    lock(chunk).actions_discrete.copy_from_slice(&a[s..e]);
                }
            }
            (ActionSpace::Continuous { low, .. }, VectorActions::Continuous(a)) => {
                let dim = low.len();
                check_len(self.num_envs * dim, a.len())?;
                if let Some(bad) = a.iter().find(|x| !x.is_finite()) {
                    return Err(EnvError::InvalidAction(format!("{bad} is not finite")));
                }
                for (c, chunk) in self.chunks.iter().enumerate() {
                    let (s, e) = (self.starts[c], self.starts[c + 1]);
                    lock(chunk)
                        .actions_continuous
                        .copy_from_slice(&a[s * dim..e * dim]);
                }
            }
            _ => {
                return Err(EnvError::InvalidAction(format!(
                    "actions of the wrong kind for {:?}",
                    self.action_space
                )));
            }
        }
        self.run(Command::Step)
    }

    /// Runs `command` on every chunk and gathers the outputs.
    fn run(&mut self, command: Command) -> Result<(), EnvError> {
        let discrete = self.action_space.is_discrete();
        let act_dim = self.action_space.dim();
        let mut sent = 0;
        for worker in &self.workers {
            if worker.commands.send(command).is_ok() {
                sent += 1;
            }
        }
        lock(&self.chunks[0]).run(command, self.obs_len, act_dim, discrete);
        for _ in 0..sent {
            if self.done.recv().is_err() {
                break;
            }
        }
        if sent != self.workers.len() {
            return Err(EnvError::Physics("a worker thread stopped".into()));
        }
        let mut first_error = None;
        for (c, chunk) in self.chunks.iter().enumerate() {
            let chunk = lock(chunk);
            let (s, e) = (self.starts[c], self.starts[c + 1]);
            self.obs[s * self.obs_len..e * self.obs_len].copy_from_slice(&chunk.obs);
            self.rewards[s..e].copy_from_slice(&chunk.rewards);
            self.terminated[s..e].copy_from_slice(&chunk.terminated);
            self.truncated[s..e].copy_from_slice(&chunk.truncated);
            if first_error.is_none() {
                first_error = chunk.error.clone();
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Calls `f` with environment `index` (e.g. to render it); `None` when
    /// `index` is out of range.
    pub fn with_env<R>(&self, index: usize, f: impl FnOnce(&mut E) -> R) -> Option<R> {
        if index >= self.num_envs {
            return None;
        }
        let c = self.starts.partition_point(|&s| s <= index) - 1;
        let mut chunk = lock(&self.chunks[c]);
        Some(f(&mut chunk.envs[index - self.starts[c]]))
    }
}

impl<E: Env + 'static> Drop for VectorEnv<E> {
    fn drop(&mut self) {
        for worker in &self.workers {
            let _ = worker.commands.send(Command::Stop);
        }
        for worker in &mut self.workers {
            if let Some(handle) = worker.handle.take() {
                let _ = handle.join();
            }
        }
    }
}
