//! Conversions between Python values and the engine's types.
use impulse2d::{BodyType, Vec2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A 2-vector from any Python sequence of two numbers (tuple, list, numpy
/// array). A sequence of another length is a `ValueError`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct V2(pub Vec2);

impl<'a, 'py> FromPyObject<'a, 'py> for V2 {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let len = obj
            .len()
            .map_err(|_| PyTypeError::new_err("expected a pair of numbers (x, y)"))?;
        if len != 2 {
            return Err(PyValueError::new_err(format!(
                "expected a pair of numbers (x, y), got a sequence of {len}"
            )));
        }
        let x: f64 = obj.get_item(0)?.extract()?;
        let y: f64 = obj.get_item(1)?.extract()?;
        Ok(V2(Vec2::new(x as f32, y as f32)))
    }
}

/// A Python pair from a vector.
pub(crate) fn tup(v: Vec2) -> (f32, f32) {
    (v.x, v.y)
}

/// A list of points from a sequence of pairs.
pub(crate) fn points(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec2>> {
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(item?.extract::<V2>()?.0);
    }
    Ok(out)
}

/// `"static"`, `"kinematic"` or `"dynamic"`.
pub(crate) fn body_type(name: &str) -> PyResult<BodyType> {
    match name {
        "static" => Ok(BodyType::Static),
        "kinematic" => Ok(BodyType::Kinematic),
        "dynamic" => Ok(BodyType::Dynamic),
        _ => Err(PyValueError::new_err(format!(
            "body type must be 'static', 'kinematic' or 'dynamic', not {name:?}"
        ))),
    }
}

/// The name of a body type.
pub(crate) fn body_type_name(t: BodyType) -> &'static str {
    match t {
        BodyType::Static => "static",
        BodyType::Kinematic => "kinematic",
        BodyType::Dynamic => "dynamic",
    }
}

/// A finite number or a `ValueError` naming it.
pub(crate) fn finite(value: f32, what: &str) -> PyResult<f32> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "{what} must be finite, got {value}"
        )))
    }
}

/// Sets the named field of a definition from a keyword value; false if the
/// name is not one of the listed fields (`vec:` fields take a pair, `into T:`
/// fields a `T` converted into the field's type).
macro_rules! set_fields {
    ($key:expr, $value:expr;
     $( $name:literal => $place:expr ),* ;
     vec: $( $vname:literal => $vplace:expr ),*
     $(; into $ity:ty: $( $iname:literal => $iplace:expr ),*)? ) => {
        match $key {
            $( $name => { $place = $value.extract()?; true } )*
            $( $vname => { $vplace = $value.extract::<$crate::convert::V2>()?.0; true } )*
            $($( $iname => { $iplace = $value.extract::<$ity>()?.into(); true } )*)?
            _ => false,
        }
    };
}
pub(crate) use set_fields;

/// Reads keyword options: `user_data` is returned, every other keyword goes
/// to `set`, which answers false for one it does not know (a `TypeError`
/// "unknown {what} option").
pub(crate) fn options(
    kwargs: Option<&Bound<'_, PyDict>>,
    what: &str,
    mut set: impl FnMut(&str, &Bound<'_, PyAny>) -> PyResult<bool>,
) -> PyResult<Option<Py<PyAny>>> {
    let mut user_data = None;
    for (key, value) in kwargs.into_iter().flatten() {
        let key: String = key.extract()?;
        if key == "user_data" {
            user_data = Some(value.unbind());
        } else if !set(&key, &value)? {
            return Err(PyTypeError::new_err(format!(
                "unknown {what} option {key:?}"
            )));
        }
    }
    Ok(user_data)
}
