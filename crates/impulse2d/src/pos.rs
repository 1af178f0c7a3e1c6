//! World positions: `f32` by default, `f64` with the `large-world` feature.
//!
//! Box2D v3.2's double build (`BOX2D_DOUBLE_PRECISION`) keeps everything in
//! `f32` except body positions, and subtracts positions before anything else
//! touches them. [`Pos`] is such a world position and [`WorldTransform`] a
//! body's pose. In the default build they are [`Vec2`] and [`Transform`]
//! (the same `f32` code as before the feature existed); with `large-world`
//! they hold `f64` coordinates, and `Pos - Pos` gives an `f32` [`Vec2`]
//! (difference in `f64`, then narrowed: Box2D's `b2SubPos`), `Pos + Vec2` a
//! `Pos` (`b2OffsetPos`). The functions below have one meaning in both
//! builds, so engine code is written once.

#[cfg(feature = "large-world")]
use crate::collision::Aabb;
use crate::math::{Transform, Vec2};

#[cfg(not(feature = "large-world"))]
mod single {
    use crate::math::{Transform, Vec2};
    /// A world position, metres: [`Vec2`] (`f32`) in the default build, a
    /// pair of `f64` with the `large-world` feature.
    pub type Pos = Vec2;
    /// A body's pose in the world: [`Transform`] in the default build, an
    /// `f64` translation with an `f32` rotation with the `large-world` feature.
    pub type WorldTransform = Transform;
    /// A box in world coordinates, metres (the broad phase's boxes):
    /// [`Aabb`](crate::collision::Aabb) (`f32`) in the default build, `f64`
    /// corners with the `large-world` feature.
    pub type WorldAabb = crate::collision::Aabb;
}
#[cfg(not(feature = "large-world"))]
pub use single::{Pos, WorldAabb, WorldTransform};

#[cfg(feature = "large-world")]
mod double {
    use crate::math::{Rot, Transform, Vec2};
    use std::ops::{Add, AddAssign, Sub, SubAssign};

    /// A world position, metres, in `f64` (the `large-world` build; [`Vec2`]
    /// in the default build).
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct Pos {
        /// x, metres.
        pub x: f64,
        /// y, metres.
        pub y: f64,
    }

    impl Pos {
        /// The origin.
        pub const ZERO: Pos = Pos { x: 0.0, y: 0.0 };

        /// A position from its coordinates, metres.
        #[inline]
        pub const fn new(x: f64, y: f64) -> Pos {
            Pos { x, y }
        }

        /// Whether both coordinates are finite.
        #[inline]
        pub fn is_finite(self) -> bool {
            self.x.is_finite() && self.y.is_finite()
        }

        /// Squared distance to `o`, m², of the `f32` difference (as
        /// [`Vec2::distance_squared`]).
        #[inline]
        pub fn distance_squared(self, o: Pos) -> f32 {
            (o - self).length_squared()
        }
    }

    impl From<Vec2> for Pos {
        #[inline]
        fn from(v: Vec2) -> Pos {
            Pos {
                x: v.x as f64,
                y: v.y as f64,
            }
        }
    }

    /// `a - b` in `f64`, narrowed to `f32` (Box2D: `b2SubPos`).
    impl Sub for Pos {
        type Output = Vec2;
        #[inline]
        fn sub(self, o: Pos) -> Vec2 {
            Vec2::new((self.x - o.x) as f32, (self.y - o.y) as f32)
        }
    }

    /// `p + d` (Box2D: `b2OffsetPos`).
    impl Add<Vec2> for Pos {
        type Output = Pos;
        #[inline]
        fn add(self, d: Vec2) -> Pos {
            Pos::new(self.x + d.x as f64, self.y + d.y as f64)
        }
    }

    impl Sub<Vec2> for Pos {
        type Output = Pos;
        #[inline]
        fn sub(self, d: Vec2) -> Pos {
            Pos::new(self.x - d.x as f64, self.y - d.y as f64)
        }
    }

    impl AddAssign<Vec2> for Pos {
        #[inline]
        fn add_assign(&mut self, d: Vec2) {
            *self = *self + d;
        }
    }

    impl SubAssign<Vec2> for Pos {
        #[inline]
        fn sub_assign(&mut self, d: Vec2) {
            *self = *self - d;
        }
    }

    /// A body's pose: `f64` translation `p` (metres), `f32` rotation `q`
    /// (the `large-world` build; [`Transform`] in the default build; Box2D's
    /// `b2WorldTransform`).
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct WorldTransform {
        /// Origin of the local frame in world coordinates, metres.
        pub p: Pos,
        /// Rotation of the local frame.
        pub q: Rot,
    }

    impl WorldTransform {
        /// The identity pose.
        pub const IDENTITY: WorldTransform = WorldTransform {
            p: Pos::ZERO,
            q: Rot::IDENTITY,
        };

        /// A pose from a position and a rotation.
        #[inline]
        pub fn new(p: Pos, q: Rot) -> WorldTransform {
            WorldTransform { p, q }
        }

        /// A pose from a position (m) and an angle (rad).
        #[inline]
        pub fn from_angle(p: Pos, angle: f32) -> WorldTransform {
            WorldTransform {
                p,
                q: Rot::from_angle(angle),
            }
        }

        /// The raw bits of `[p.x, p.y]` and `[q.c, q.s]`: for checking that
        /// two runs give the same bits.
        pub fn to_bits(self) -> [u64; 4] {
            [
                self.p.x.to_bits(),
                self.p.y.to_bits(),
                self.q.c.to_bits() as u64,
                self.q.s.to_bits() as u64,
            ]
        }

        /// Maps a local point into the world: `q·v + p`, the rotation in
        /// `f32`, the translation in `f64` (Box2D: `b2TransformWorldPoint`).
        #[inline]
        pub fn apply(self, v: Vec2) -> Pos {
            self.p + self.q.rotate(v)
        }

        /// Maps a world point into this local frame: `qᵀ·(v − p)`, one `f64`
        /// subtraction then `f32` (Box2D: `b2InvTransformWorldPoint`).
        #[inline]
        pub fn apply_inv(self, v: Pos) -> Vec2 {
            self.q.inv_rotate(v - self.p)
        }

        /// The composition `self · b` (Box2D: `b2OffsetWorldTransform`).
        #[inline]
        #[allow(clippy::should_implement_trait)]
        pub fn mul(self, b: Transform) -> WorldTransform {
            WorldTransform {
                q: self.q.mul(b.q),
                p: self.p + self.q.rotate(b.p),
            }
        }

        /// `b` in the frame of `self`, in `f32` (Box2D:
        /// `b2InvMulWorldTransforms`).
        #[inline]
        pub fn inv_mul(self, b: WorldTransform) -> Transform {
            Transform {
                q: self.q.inv_mul(b.q),
                p: self.q.inv_rotate(b.p - self.p),
            }
        }

        /// Whether the pose is finite with a unit rotation.
        #[inline]
        pub fn is_valid(self) -> bool {
            self.p.is_finite() && self.q.is_valid()
        }
    }

    impl From<Transform> for WorldTransform {
        #[inline]
        fn from(t: Transform) -> WorldTransform {
            WorldTransform {
                p: t.p.into(),
                q: t.q,
            }
        }
    }
}
#[cfg(feature = "large-world")]
mod double_box {
    use super::Pos;
    use crate::collision::Aabb;
    use crate::math::Vec2;

    /// A box in world coordinates with `f64` corners, metres: the broad
    /// phase's boxes with the `large-world` feature ([`Aabb`] in the default
    /// build), so that boxes far from the origin keep their size instead of
    /// rounding out to the `f32` grid there (1 m at 10,000 km). Same methods
    /// as [`Aabb`].
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct WorldAabb {
        /// The lower-left corner.
        pub lower: Pos,
        /// The upper-right corner.
        pub upper: Pos,
    }

    impl WorldAabb {
        /// Makes a box from its corners (not checked; see [`WorldAabb::is_valid`]).
        #[inline]
        pub const fn new(lower: Pos, upper: Pos) -> WorldAabb {
            WorldAabb { lower, upper }
        }

        /// Whether the corners are finite and ordered (as [`Aabb::is_valid`]).
        #[inline]
        pub fn is_valid(&self) -> bool {
            let (l, u) = (self.lower, self.upper);
            l.is_finite() && u.is_finite() && u.x >= l.x && u.y >= l.y
        }

        crate::collision::box_methods!(WorldAabb, Pos, f64);

        /// The half-widths, metres (narrowed to `f32`).
        #[inline]
        pub fn extents(&self) -> Vec2 {
            Vec2::new(
                (0.5 * (self.upper.x - self.lower.x)) as f32,
                (0.5 * (self.upper.y - self.lower.y)) as f32,
            )
        }

        /// The smallest box containing both.
        #[inline]
        pub fn union(&self, b: &WorldAabb) -> WorldAabb {
            WorldAabb {
                lower: Pos::new(self.lower.x.min(b.lower.x), self.lower.y.min(b.lower.y)),
                upper: Pos::new(self.upper.x.max(b.upper.x), self.upper.y.max(b.upper.y)),
            }
        }

        /// The box grown by `margin` (metres) on every side.
        #[inline]
        pub fn fattened(&self, margin: f32) -> WorldAabb {
            let m = margin as f64;
            WorldAabb {
                lower: Pos::new(self.lower.x - m, self.lower.y - m),
                upper: Pos::new(self.upper.x + m, self.upper.y + m),
            }
        }
    }

    /// The same box with `f64` corners (exact).
    impl From<Aabb> for WorldAabb {
        #[inline]
        fn from(b: Aabb) -> WorldAabb {
            WorldAabb {
                lower: b.lower.into(),
                upper: b.upper.into(),
            }
        }
    }

    /// Equal when the corners are equal as numbers.
    impl PartialEq<Aabb> for WorldAabb {
        fn eq(&self, b: &Aabb) -> bool {
            *self == WorldAabb::from(*b)
        }
    }
}

#[cfg(feature = "large-world")]
pub use double::{Pos, WorldTransform};
#[cfg(feature = "large-world")]
pub use double_box::WorldAabb;

/// A world coordinate, metres: `f32`, or `f64` with `large-world`.
#[cfg(not(feature = "large-world"))]
pub type Coord = f32;
/// A world coordinate, metres: `f32`, or `f64` with `large-world`.
#[cfg(feature = "large-world")]
pub type Coord = f64;

/// [`MAX_COORDINATE`](crate::core::MAX_COORDINATE) as a [`Coord`].
#[cfg(not(feature = "large-world"))]
pub const MAX_WORLD_COORDINATE: Coord = crate::core::MAX_COORDINATE;
/// [`MAX_COORDINATE`](crate::core::MAX_COORDINATE) as a [`Coord`].
#[cfg(feature = "large-world")]
pub const MAX_WORLD_COORDINATE: Coord = crate::core::MAX_COORDINATE as f64;

/// Checks that a world position is finite.
pub(crate) fn check_finite_pos(p: Pos, what: &'static str) -> crate::error::Result<()> {
    if p.is_finite() {
        Ok(())
    } else {
        Err(crate::error::Error::NonFinite { what })
    }
}

/// A world position from an `f32` vector (exact; the identity in the
/// default build; Box2D's `b2ToPos`).
#[inline(always)]
pub fn to_pos(v: Vec2) -> Pos {
    #[cfg(feature = "large-world")]
    {
        v.into()
    }
    #[cfg(not(feature = "large-world"))]
    {
        v
    }
}

/// A world position as an `f32` vector (rounded to nearest with
/// `large-world`; the identity in the default build; Box2D's `b2ToVec2`).
#[inline(always)]
pub fn to_vec2(p: Pos) -> Vec2 {
    #[cfg(feature = "large-world")]
    {
        Vec2::new(p.x as f32, p.y as f32)
    }
    #[cfg(not(feature = "large-world"))]
    {
        p
    }
}

/// A pose as an `f32` transform (the translation rounded with `large-world`;
/// the identity in the default build). Only for uses that are coarse anyway
/// far from the origin (drawing, `f32` world queries).
#[inline(always)]
pub fn to_transform(xf: WorldTransform) -> Transform {
    Transform {
        p: to_vec2(xf.p),
        q: xf.q,
    }
}

/// An `f32` transform as a pose (exact; the identity in the default build).
#[inline(always)]
pub fn to_world_transform(xf: Transform) -> WorldTransform {
    WorldTransform {
        p: to_pos(xf.p),
        q: xf.q,
    }
}

/// The pose `xf` relative to the world position `base`, in `f32`
/// (Box2D: `b2ToRelativeTransform`).
#[inline(always)]
pub fn relative_to(xf: WorldTransform, base: Pos) -> Transform {
    Transform {
        p: xf.p - base,
        q: xf.q,
    }
}

/// Two body poses as `f32` transforms for collision: in the default build
/// the poses themselves; with `large-world` the first at the origin (its
/// rotation only) and the second relative to the first's origin, so that
/// manifolds and distances are computed in `f32` near zero. Points a
/// collision function returns are then relative to the first body's origin.
#[inline(always)]
pub fn local_pair(xf_a: WorldTransform, xf_b: WorldTransform) -> (Transform, Transform) {
    #[cfg(feature = "large-world")]
    {
        (
            Transform::new(Vec2::ZERO, xf_a.q),
            relative_to(xf_b, xf_a.p),
        )
    }
    #[cfg(not(feature = "large-world"))]
    {
        (xf_a, xf_b)
    }
}

/// The point continuous collision measures a fast body's sweep from: its
/// start centre of mass `center0` with `large-world` (Box2D's
/// `b2MakeRelativeSweep`), the origin in the default build.
#[inline(always)]
pub fn sweep_base(center0: Pos) -> Pos {
    #[cfg(feature = "large-world")]
    {
        center0
    }
    #[cfg(not(feature = "large-world"))]
    {
        let _ = center0;
        Vec2::ZERO
    }
}

/// A transform relative to the world position `base` as a pose: the inverse
/// of [`relative_to`] (in the default build, with `base` zero from
/// [`sweep_base`], the transform itself).
#[inline(always)]
pub fn offset_transform(xf: Transform, base: Pos) -> WorldTransform {
    #[cfg(feature = "large-world")]
    {
        WorldTransform {
            p: base + xf.p,
            q: xf.q,
        }
    }
    #[cfg(not(feature = "large-world"))]
    {
        let _ = base;
        xf
    }
}

/// The world box of a box `local` given relative to `origin`. With
/// `large-world` the corners are `origin + local` in `f64` (exact to the
/// `f64` rounding of the sum, 2e-9 m at 10,000 km).
#[cfg(feature = "large-world")]
#[inline]
pub fn offset_aabb(local: Aabb, origin: Pos) -> WorldAabb {
    WorldAabb {
        lower: origin + local.lower,
        upper: origin + local.upper,
    }
}

/// A world box as an `f32` box, rounded outwards with `large-world` (Box2D's
/// `b2RoundDownFloat` / `b2RoundUpFloat`, so the result contains the box);
/// the identity in the default build. For uses in `f32` world coordinates
/// (the public `aabb` getters, debug drawing).
#[inline(always)]
pub fn to_aabb(b: WorldAabb) -> crate::collision::Aabb {
    #[cfg(feature = "large-world")]
    {
        Aabb {
            lower: Vec2::new(round_down(b.lower.x), round_down(b.lower.y)),
            upper: Vec2::new(round_up(b.upper.x), round_up(b.upper.y)),
        }
    }
    #[cfg(not(feature = "large-world"))]
    {
        b
    }
}

/// An `f32` box as a world box (exact; the identity in the default build).
#[inline(always)]
pub fn to_world_aabb(b: crate::collision::Aabb) -> WorldAabb {
    #[cfg(feature = "large-world")]
    {
        b.into()
    }
    #[cfg(not(feature = "large-world"))]
    {
        b
    }
}

/// A world coordinate (or a sum of them) as `f32`: rounded to nearest with
/// `large-world`, the identity in the default build.
#[inline(always)]
pub fn coord_to_f32(x: Coord) -> f32 {
    #[cfg(feature = "large-world")]
    {
        x as f32
    }
    #[cfg(not(feature = "large-world"))]
    {
        x
    }
}

/// `x` narrowed to the largest `f32` not above it.
#[cfg(feature = "large-world")]
#[inline]
fn round_down(x: f64) -> f32 {
    let f = x as f32;
    if f as f64 > x { f.next_down() } else { f }
}

/// `x` narrowed to the smallest `f32` not below it.
#[cfg(feature = "large-world")]
#[inline]
fn round_up(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) < x { f.next_up() } else { f }
}

/// Whether positions are `f64` in this build (the `large-world` feature).
///
/// Box2D: `b2IsDoublePrecision`.
#[inline]
pub const fn is_double_precision() -> bool {
    cfg!(feature = "large-world")
}

/// Whether `p` is a valid position in Box2D's sense: both coordinates
/// finite, in either build. (Creating a body also needs each coordinate
/// within ±[`MAX_WORLD_COORDINATE`]; `World::create_body` checks that.)
///
/// Box2D: `b2IsValidPosition`.
#[inline]
pub fn is_valid_position(p: Pos) -> bool {
    p.is_finite()
}

/// Whether `xf` is a usable body pose: a finite position and a finite rotation
/// of unit length, in either build.
///
/// Box2D: `b2IsValidWorldTransform`.
#[inline]
pub fn is_valid_world_transform(xf: WorldTransform) -> bool {
    xf.is_valid()
}
