//! Conversions to and from glam (feature `glam`). See the [module docs](super).

use super::rot_from_columns;
use crate::error::{Error, Result};
use crate::math::{Mat22, Rot, Transform, Vec2};

impl From<glam::Vec2> for Vec2 {
    #[inline]
    fn from(v: glam::Vec2) -> Vec2 {
        Vec2::new(v.x, v.y)
    }
}

impl From<Vec2> for glam::Vec2 {
    #[inline]
    fn from(v: Vec2) -> glam::Vec2 {
        glam::Vec2::new(v.x, v.y)
    }
}

impl From<glam::Mat2> for Mat22 {
    #[inline]
    fn from(m: glam::Mat2) -> Mat22 {
        Mat22::new(m.x_axis.into(), m.y_axis.into())
    }
}

impl From<Mat22> for glam::Mat2 {
    #[inline]
    fn from(m: Mat22) -> glam::Mat2 {
        glam::Mat2::from_cols(m.cx.into(), m.cy.into())
    }
}

/// The rotation matrix, columns `(c, s)` and `(−s, c)` (as `Mat2::from_angle`).
impl From<Rot> for glam::Mat2 {
    #[inline]
    fn from(q: Rot) -> glam::Mat2 {
        glam::Mat2::from_cols(q.x_axis().into(), q.y_axis().into())
    }
}

/// Only an exact rotation matrix converts: see the [module docs](super).
impl TryFrom<glam::Mat2> for Rot {
    type Error = Error;

    #[inline]
    fn try_from(m: glam::Mat2) -> Result<Rot> {
        rot_from_columns(m.x_axis.into(), m.y_axis.into())
    }
}

/// `v ↦ R·v + p` as `Affine2 { matrix2: R, translation: p }`.
impl From<Transform> for glam::Affine2 {
    #[inline]
    fn from(xf: Transform) -> glam::Affine2 {
        glam::Affine2::from_mat2_translation(xf.q.into(), xf.p.into())
    }
}

/// Only an affine map whose matrix is exactly a rotation converts.
impl TryFrom<glam::Affine2> for Transform {
    type Error = Error;

    #[inline]
    fn try_from(a: glam::Affine2) -> Result<Transform> {
        let q = Rot::try_from(a.matrix2)?;
        Ok(Transform::new(a.translation.into(), q))
    }
}
