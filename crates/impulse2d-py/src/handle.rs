//! What the handle classes (`Body`, `Shape`, `Chain`, `Joint`) share:
//! comparison and hashing by id, garbage-collector support, validity and
//! user data.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::pyclass::boolean_struct::True;
use pyo3::{IntoPyObjectExt, PyClass, PyTraverseError};

use crate::ok;
use crate::world::{Key, Kind, World};

/// A frozen handle class: a world and an id.
pub(crate) trait Handle: PyClass<Frozen = True> + Sync {
    /// The kind of object, for user data and hashing.
    const KIND: Kind;
    /// The world the handle belongs to.
    fn world_ref(&self) -> &Py<World>;
    /// The id's slot index and generation.
    fn slot(&self) -> (u32, u32);
    /// Ok if the object still exists in `world`.
    fn check(&self, world: &impulse2d::World) -> impulse2d::Result<()>;

    /// The user-data key.
    fn key(&self) -> Key {
        let (index, generation) = self.slot();
        (Self::KIND, index, generation)
    }
}

/// `__traverse__`: the handle keeps its world alive.
pub(crate) fn traverse<H: Handle>(h: &H, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
    visit.call(h.world_ref())
}

/// `__eq__` / `__ne__`: same kind, same id, same world.
pub(crate) fn richcmp<H: Handle>(h: &H, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
    let py = other.py();
    let same = other
        .cast::<H>()
        .map(|o| o.get().key() == h.key() && o.get().world_ref().is(h.world_ref()))
        .unwrap_or(false);
    match op {
        CompareOp::Eq => same.into_py_any(py),
        CompareOp::Ne => (!same).into_py_any(py),
        _ => Ok(py.NotImplemented()),
    }
    .unwrap_or_else(|_| py.NotImplemented())
}

/// `__hash__`: of kind, slot index and generation.
pub(crate) fn hash<H: Handle>(h: &H) -> u64 {
    let mut hasher = DefaultHasher::new();
    let (index, generation) = h.slot();
    (H::KIND as u8, index, generation).hash(&mut hasher);
    hasher.finish()
}

/// Whether the object still exists.
pub(crate) fn is_valid<H: Handle>(h: &H, py: Python<'_>) -> PyResult<bool> {
    let w = h.world_ref().bind(py).try_borrow()?;
    Ok(h.check(&w.inner).is_ok())
}

/// The object's user data (None if unset).
pub(crate) fn user_data<H: Handle>(h: &H, py: Python<'_>) -> PyResult<Py<PyAny>> {
    let w = h.world_ref().bind(py).try_borrow()?;
    ok(h.check(&w.inner))?;
    Ok(w.get_user_data(py, h.key()))
}

/// Replaces (None: removes) the object's user data.
pub(crate) fn set_user_data<H: Handle>(h: &H, py: Python<'_>, value: Py<PyAny>) -> PyResult<()> {
    let w = h.world_ref().bind(py).try_borrow()?;
    ok(h.check(&w.inner))?;
    let value = if value.is_none(py) { None } else { Some(value) };
    w.set_user_data(h.key(), value);
    Ok(())
}
