//! What the handle classes (`Body`, `Shape`, `Chain`, `Joint`) share:
//! comparison and hashing by id, garbage-collector support, validity and
//! user data, reading and writing the object through the engine's views, and
//! [`handle_methods!`], which writes a handle class's `#[pymethods]` block
//! from a table of properties and methods.
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

/// Destroys the object with `destroy` and drops its user data.
pub(crate) fn destroy<H: Handle>(
    h: &H,
    py: Python<'_>,
    destroy: impl FnOnce(&mut impulse2d::World) -> impulse2d::Result<()>,
) -> PyResult<()> {
    let mut w = h.world_ref().bind(py).try_borrow_mut()?;
    ok(destroy(&mut w.inner))?;
    w.set_user_data(h.key(), None);
    Ok(())
}

/// The `"Body(id=3:0, ...)"` text of `__repr__`: `detail` for a live object,
/// `destroyed` for a stale one.
pub(crate) fn repr<H: Handle>(h: &H, class: &str, detail: PyResult<String>) -> String {
    let (index, generation) = h.slot();
    let detail = detail.unwrap_or_else(|_| "destroyed".to_owned());
    format!("{class}(id={index}:{generation}, {detail})")
}

/// Declares a handle class `$ty` (a world and an id of type `$id`) whose
/// object the engine looks up with `World::$lookup` / `$lookup_mut`:
/// implements [`Handle`] and gives the class `handle` (a new handle),
/// `read` (a closure on the `$view_ref` view), `write` (a fallible closure on
/// the `$view_mut` view) and `update` (an infallible one).
macro_rules! handle_impl {
    (
        $(#[doc = $doc:tt])*
        $ty:ident($id:ident): $kind:ident, $lookup:ident, $lookup_mut:ident, $view_ref:ident, $view_mut:ident
    ) => {
        $(#[doc = $doc])*
        #[pyo3::pyclass(module = "impulse2d._impulse2d", frozen, weakref)]
        pub struct $ty {
            pub(crate) world: pyo3::Py<$crate::world::World>,
            pub(crate) id: impulse2d::$id,
        }

        impl $crate::handle::Handle for $ty {
            const KIND: $crate::world::Kind = $crate::world::Kind::$kind;
            fn world_ref(&self) -> &pyo3::Py<$crate::world::World> {
                &self.world
            }
            fn slot(&self) -> (u32, u32) {
                (self.id.index(), self.id.generation())
            }
            fn check(&self, world: &impulse2d::World) -> impulse2d::Result<()> {
                world.$lookup(self.id).map(|_| ())
            }
        }

        impl $ty {
            /// A new handle to the object `id` of `world`.
            pub(crate) fn handle(
                py: pyo3::Python<'_>,
                world: &pyo3::Py<$crate::world::World>,
                id: impulse2d::$id,
            ) -> pyo3::PyResult<pyo3::Py<$ty>> {
                let world = world.clone_ref(py);
                pyo3::Py::new(py, $ty { world, id })
            }

            /// Runs `f` on the object's read view (`StaleHandleError` if it
            /// is gone).
            fn read<T>(
                &self,
                py: pyo3::Python<'_>,
                f: impl FnOnce(impulse2d::$view_ref<'_>) -> T,
            ) -> pyo3::PyResult<T> {
                let w = self.world.bind(py).try_borrow()?;
                Ok(f($crate::ok(w.inner.$lookup(self.id))?))
            }

            /// Runs `f` on the object's write view; its error becomes the
            /// Python exception.
            fn write<T>(
                &self,
                py: pyo3::Python<'_>,
                f: impl FnOnce(impulse2d::$view_mut<'_>) -> impulse2d::Result<T>,
            ) -> pyo3::PyResult<T> {
                let mut w = self.world.bind(py).try_borrow_mut()?;
                $crate::ok(f($crate::ok(w.inner.$lookup_mut(self.id))?))
            }

            /// A handle to the body that `f` reads from the object.
            #[allow(dead_code, reason = "a body has no body")]
            fn body_of(
                &self,
                py: pyo3::Python<'_>,
                f: impl FnOnce(impulse2d::$view_ref<'_>) -> impulse2d::BodyId,
            ) -> pyo3::PyResult<pyo3::Py<$crate::body::Body>> {
                let id = self.read(py, f)?;
                $crate::body::Body::handle(py, &self.world, id)
            }

            /// Runs an infallible `f` on the object's write view.
            #[allow(dead_code, reason = "not every class has such a setter")]
            fn update(
                &self,
                py: pyo3::Python<'_>,
                f: impl FnOnce(impulse2d::$view_mut<'_>),
            ) -> pyo3::PyResult<()> {
                self.write(py, |view| {
                    f(view);
                    Ok(())
                })
            }
        }
    };
}
pub(crate) use handle_impl;

/// The `#[pymethods]` block of a handle class `$ty`.
///
/// It holds what every handle has: `__traverse__`, `__richcmp__`, `__hash__`
/// and the `id`, `is_valid` and `user_data` properties (their docstrings are
/// given in the invocation), then one method per row of the `views` table,
/// then one method per row of the `calls` table (rows of the same
/// form whose arguments may have defaults, `wake: bool = true`, and that may
/// end in `; **options`, passed on to `via` after the closure), then the
/// hand-written methods that follow.
///
/// A row `#[attrs] via name(args) -> T = closure;` is the method
/// `#[attrs] fn name(&self, py, args) -> PyResult<T> { self.via(py, closure) }`,
/// `via` being the class's `read` or `write` (or another method of that
/// form). So a property is `#[getter] read mass() -> f32 = |b| b.mass();`
/// and its setter `#[setter] write set_mass(value: f32) -> () = ...;`.
macro_rules! handle_methods {
    (
        $ty:ident;
        $(#[doc = $id_doc:tt])* id;
        $(#[doc = $valid_doc:tt])* is_valid;
        $(#[doc = $user_doc:tt])* user_data;
        views {
            $(
                $(#[$($attr:tt)*])*
                $via:ident $name:ident($($arg:ident: $arg_ty:ty),*) -> $ret:ty = $f:expr;
            )*
        }
        calls {
            $(
                $(#[doc = $call_doc:tt])*
                $call_via:ident $call:ident(
                    $($call_arg:ident: $call_arg_ty:ty $(= $default:tt)?),* $(; **$kwargs:ident)?
                ) -> $call_ret:ty = $call_f:expr;
            )*
        }
        $($methods:tt)*
    ) => {
        #[pyo3::pymethods]
        impl $ty {
            fn __traverse__(
                &self,
                visit: pyo3::gc::PyVisit<'_>,
            ) -> Result<(), pyo3::PyTraverseError> {
                $crate::handle::traverse(self, visit)
            }

            fn __richcmp__(
                &self,
                other: &pyo3::Bound<'_, pyo3::PyAny>,
                op: pyo3::pyclass::CompareOp,
            ) -> pyo3::Py<pyo3::PyAny> {
                $crate::handle::richcmp(self, other, op)
            }

            fn __hash__(&self) -> u64 {
                $crate::handle::hash(self)
            }

            $(#[doc = $id_doc])*
            #[getter]
            fn id(&self) -> (u32, u32) {
                $crate::handle::Handle::slot(self)
            }

            $(#[doc = $valid_doc])*
            #[getter]
            fn is_valid(&self, py: pyo3::Python<'_>) -> pyo3::PyResult<bool> {
                $crate::handle::is_valid(self, py)
            }

            $(#[doc = $user_doc])*
            #[getter]
            fn user_data(&self, py: pyo3::Python<'_>) -> pyo3::PyResult<pyo3::Py<pyo3::PyAny>> {
                $crate::handle::user_data(self, py)
            }

            #[setter]
            fn set_user_data(
                &self,
                py: pyo3::Python<'_>,
                value: pyo3::Py<pyo3::PyAny>,
            ) -> pyo3::PyResult<()> {
                $crate::handle::set_user_data(self, py, value)
            }

            $(
                $(#[$($attr)*])*
                fn $name(&self, py: pyo3::Python<'_>, $($arg: $arg_ty),*) -> pyo3::PyResult<$ret> {
                    self.$via(py, $f)
                }
            )*

            $(
                $(#[doc = $call_doc])*
                #[pyo3(signature = ($($call_arg $(= $default)?,)* $(**$kwargs)?))]
                fn $call(
                    &self,
                    py: pyo3::Python<'_>,
                    $($call_arg: $call_arg_ty,)*
                    $($kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>)?
                ) -> pyo3::PyResult<$call_ret> {
                    self.$call_via(py, $call_f $(, $kwargs)?)
                }
            )*

            $($methods)*
        }
    };
}
pub(crate) use handle_methods;
