//! Conversions to and from mint (feature `mint`). See the [module docs](super).
//!
//! mint has no 2D rotation type, so a [`Rot`] maps to its rotation matrix
//! (`ColumnMatrix2`) and a [`Transform`] to its affine matrix
//! (`ColumnMatrix2x3`); row-major matrices convert through mint's own
//! `From` between the two layouts.

use super::rot_from_columns;
use crate::error::{Error, Result};
use crate::math::{Mat22, Rot, Transform, Vec2};

/// `From` both ways between [`Vec2`] and a mint type with fields `x`, `y`.
macro_rules! vec2_conversions {
    ($($mint:ident),*) => {
        $(
            impl From<mint::$mint<f32>> for Vec2 {
                #[inline]
                fn from(v: mint::$mint<f32>) -> Vec2 {
                    Vec2::new(v.x, v.y)
                }
            }

            impl From<Vec2> for mint::$mint<f32> {
                #[inline]
                fn from(v: Vec2) -> mint::$mint<f32> {
                    mint::$mint { x: v.x, y: v.y }
                }
            }
        )*
    };
}

vec2_conversions!(Vector2, Point2);

impl mint::IntoMint for Vec2 {
    type MintType = mint::Vector2<f32>;
}

impl From<mint::ColumnMatrix2<f32>> for Mat22 {
    #[inline]
    fn from(m: mint::ColumnMatrix2<f32>) -> Mat22 {
        Mat22::new(m.x.into(), m.y.into())
    }
}

impl From<Mat22> for mint::ColumnMatrix2<f32> {
    #[inline]
    fn from(m: Mat22) -> mint::ColumnMatrix2<f32> {
        mint::ColumnMatrix2 {
            x: m.cx.into(),
            y: m.cy.into(),
        }
    }
}

impl From<mint::RowMatrix2<f32>> for Mat22 {
    #[inline]
    fn from(m: mint::RowMatrix2<f32>) -> Mat22 {
        mint::ColumnMatrix2::from(m).into()
    }
}

impl From<Mat22> for mint::RowMatrix2<f32> {
    #[inline]
    fn from(m: Mat22) -> mint::RowMatrix2<f32> {
        mint::ColumnMatrix2::from(m).into()
    }
}

impl mint::IntoMint for Mat22 {
    type MintType = mint::ColumnMatrix2<f32>;
}

/// The rotation matrix, columns `x = (c, s)` and `y = (−s, c)`.
impl From<Rot> for mint::ColumnMatrix2<f32> {
    #[inline]
    fn from(q: Rot) -> mint::ColumnMatrix2<f32> {
        mint::ColumnMatrix2 {
            x: q.x_axis().into(),
            y: q.y_axis().into(),
        }
    }
}

/// Only an exact rotation matrix converts: see the [module docs](super).
impl TryFrom<mint::ColumnMatrix2<f32>> for Rot {
    type Error = Error;

    #[inline]
    fn try_from(m: mint::ColumnMatrix2<f32>) -> Result<Rot> {
        rot_from_columns(m.x.into(), m.y.into())
    }
}

/// The 2×3 affine matrix `[R | p]`: columns `x = (c, s)`, `y = (−s, c)`, `z = p`.
impl From<Transform> for mint::ColumnMatrix2x3<f32> {
    #[inline]
    fn from(xf: Transform) -> mint::ColumnMatrix2x3<f32> {
        mint::ColumnMatrix2x3 {
            x: xf.q.x_axis().into(),
            y: xf.q.y_axis().into(),
            z: xf.p.into(),
        }
    }
}

/// Only an affine matrix whose 2×2 part is exactly a rotation converts.
impl TryFrom<mint::ColumnMatrix2x3<f32>> for Transform {
    type Error = Error;

    #[inline]
    fn try_from(m: mint::ColumnMatrix2x3<f32>) -> Result<Transform> {
        let q = rot_from_columns(m.x.into(), m.y.into())?;
        Ok(Transform::new(m.z.into(), q))
    }
}
