//! The crate's error type: every fallible public function returns [`Result<T>`].
//!
//! Bad input (non-finite numbers, degenerate geometry, stale ids) is reported as an
//! [`Error`] that says what was wrong; nothing in the public API panics on it and no
//! state is changed by a call that fails.

use std::fmt;

/// What went wrong in a call into the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// A number that must be finite was NaN or infinite. `what` names the argument.
    NonFinite {
        /// The argument or field that was not finite.
        what: &'static str,
    },
    /// A number was outside its allowed range. `what` names it, `expected` says the range.
    OutOfRange {
        /// The argument or field.
        what: &'static str,
        /// The allowed range, for example `">= 0"`.
        expected: &'static str,
        /// The value that was given.
        value: f32,
    },
    /// Geometry that cannot be used: a hull with fewer than three usable points, a
    /// zero-area polygon, a zero-length segment, too many vertices, …
    InvalidGeometry(&'static str),
    /// An id that refers to nothing: destroyed already, never created, or created by
    /// another world. `what` names the kind of id.
    InvalidId {
        /// The kind of id (`"body"`, `"shape"`, `"joint"`, `"chain"`, `"proxy"`).
        what: &'static str,
    },
    /// The call is not allowed in the object's current state. The text says why.
    InvalidOperation(&'static str),
    /// A snapshot buffer that is truncated, corrupted, of another format
    /// version or describes an inconsistent world. The text says which.
    InvalidData(&'static str),
    /// A joint view asked for a part or type the joint does not have
    /// (`world.joint(id)?.revolute()` on a prismatic joint, `.motor()` on a
    /// weld joint).
    WrongJointType {
        /// What the call needed, for example `"a revolute joint"`.
        expected: &'static str,
        /// The joint's type.
        actual: crate::id::JointType,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NonFinite { what } => write!(f, "{what} must be finite (got NaN or infinity)"),
            Error::OutOfRange {
                what,
                expected,
                value,
            } => write!(f, "{what} must be {expected} (got {value})"),
            Error::InvalidGeometry(why) => write!(f, "invalid geometry: {why}"),
            Error::InvalidData(why) => write!(f, "invalid data: {why}"),
            Error::InvalidId { what } => {
                write!(
                    f,
                    "invalid {what} id: destroyed, never created, or from another world"
                )
            }
            Error::InvalidOperation(why) => write!(f, "invalid operation: {why}"),
            Error::WrongJointType { expected, actual } => {
                write!(
                    f,
                    "wrong joint type: needs {expected}, this is a {actual:?} joint"
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Checks that a scalar is finite.
#[inline]
pub(crate) fn check_finite(value: f32, what: &'static str) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite { what })
    }
}

/// Checks that a vector is finite.
#[inline]
pub(crate) fn check_finite_vec(value: crate::math::Vec2, what: &'static str) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite { what })
    }
}

/// Checks that a scalar is finite and in `range`; `expected` says the range
/// in the error.
#[inline]
pub(crate) fn check_in_range(
    value: f32,
    range: impl std::ops::RangeBounds<f32>,
    what: &'static str,
    expected: &'static str,
) -> Result<()> {
    check_finite(value, what)?;
    if range.contains(&value) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what,
            expected,
            value,
        })
    }
}

/// Checks that a scalar is finite and `> 0`.
#[inline]
pub(crate) fn check_positive(value: f32, what: &'static str) -> Result<()> {
    check_finite(value, what)?;
    if value > 0.0 {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what,
            expected: "> 0",
            value,
        })
    }
}

/// Checks that a scalar is finite and `>= 0`.
#[inline]
pub(crate) fn check_non_negative(value: f32, what: &'static str) -> Result<()> {
    check_finite(value, what)?;
    if value >= 0.0 {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what,
            expected: ">= 0",
            value,
        })
    }
}
