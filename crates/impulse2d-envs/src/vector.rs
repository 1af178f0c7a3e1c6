//! [`VectorEnv`]: `N` environments stepped together on worker threads.

use crate::env::Env;

/// `N` environments of one kind stepped together (in progress).
pub struct VectorEnv<E: Env> {
    envs: Vec<E>,
}

impl<E: Env> VectorEnv<E> {
    /// Takes ownership of `envs`.
    pub fn new(envs: Vec<E>) -> Self {
        VectorEnv { envs }
    }

    /// Number of environments.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Whether there are no environments.
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }
}
