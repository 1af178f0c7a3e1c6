//! Python bindings for Impulse2D (module `impulse2d._impulse2d`; the Python
//! package `impulse2d` re-exports it).
use impulse2d::{Vec2, WorldDef};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// Maps an engine error onto a Python exception: a stale or foreign id is a
/// `RuntimeError`, anything else (bad numbers, bad geometry) a `ValueError`.
fn map_err(e: impulse2d::Error) -> PyErr {
    match e {
        impulse2d::Error::InvalidId { .. } => PyRuntimeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A physics world: bodies, shapes and joints, stepped in fixed time steps.
#[pyclass(module = "impulse2d._impulse2d")]
struct World {
    inner: impulse2d::World,
}

#[pymethods]
impl World {
    #[new]
    #[pyo3(signature = (gravity = (0.0, -10.0), workers = 1))]
    fn new(gravity: (f32, f32), workers: usize) -> PyResult<Self> {
        let def = WorldDef {
            gravity: Vec2::new(gravity.0, gravity.1),
            worker_count: workers,
            ..WorldDef::default()
        };
        let inner = impulse2d::World::new(&def).map_err(map_err)?;
        Ok(World { inner })
    }

    /// Advances the world by `dt` seconds in `substeps` substeps.
    #[pyo3(signature = (dt = 1.0 / 60.0, substeps = 4))]
    fn step(&mut self, py: Python<'_>, dt: f32, substeps: u32) -> PyResult<()> {
        let inner = &mut self.inner;
        py.detach(|| inner.step(dt, substeps)).map_err(map_err)
    }

    /// FNV-1a hash of every body's transform and velocities, in id order.
    fn state_hash(&self) -> u64 {
        self.inner.state_hash()
    }
}

#[pymodule]
fn _impulse2d(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<World>()?;
    Ok(())
}
