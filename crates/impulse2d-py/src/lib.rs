//! Python bindings for Impulse2D: the extension module `impulse2d._impulse2d`,
//! re-exported by the pure-Python package `impulse2d` (`python/impulse2d/`).
//!
//! Errors: a stale or foreign handle raises [`StaleHandleError`] (a
//! `RuntimeError`), a joint property asked of the wrong joint type raises
//! `TypeError`, bad numbers, geometry and array shapes raise `ValueError`.
//! The engine reports every bad input as an `Err`; nothing here unwraps or
//! indexes out of range, so no Rust panic reaches Python.

mod body;
mod car_racing;
mod convert;
mod envs;
mod handle;
mod joint;
mod world;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    _impulse2d,
    StaleHandleError,
    PyRuntimeError,
    "A handle (Body, Shape, Chain, Joint) whose object was destroyed, or that belongs to another world."
);

/// Maps an engine error onto a Python exception.
pub(crate) fn map_err(e: impulse2d::Error) -> PyErr {
    match e {
        impulse2d::Error::InvalidId { .. } => StaleHandleError::new_err(e.to_string()),
        impulse2d::Error::WrongJointType { .. } => PyTypeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Turns an engine result into a Python one.
pub(crate) fn ok<T>(r: impulse2d::Result<T>) -> PyResult<T> {
    r.map_err(map_err)
}

#[pymodule]
fn _impulse2d(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", impulse2d::VERSION)?;
    m.add("StaleHandleError", m.py().get_type::<StaleHandleError>())?;
    m.add_class::<world::World>()?;
    m.add_class::<body::Body>()?;
    m.add_class::<body::Shape>()?;
    m.add_class::<body::Chain>()?;
    m.add_class::<body::Filter>()?;
    m.add_class::<joint::Joint>()?;
    m.add_class::<world::RayHit>()?;
    m.add_class::<world::ContactData>()?;
    m.add_class::<world::ContactBeginEvent>()?;
    m.add_class::<world::ContactEndEvent>()?;
    m.add_class::<world::ContactHitEvent>()?;
    m.add_class::<world::SensorBeginEvent>()?;
    m.add_class::<world::SensorEndEvent>()?;
    m.add_class::<world::JointEvent>()?;
    m.add_class::<world::BodyMoveEvent>()?;
    envs::register(m)?;
    m.add_class::<car_racing::CarRacingCore>()?;
    Ok(())
}
