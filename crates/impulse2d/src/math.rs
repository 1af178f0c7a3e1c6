//! Small `Copy` math types for 2D rigid bodies: [`Vec2`], [`Rot`], [`Transform`],
//! [`Mat22`] and [`Sweep`], plus deterministic trigonometry.
//!
//! Lengths are in metres, angles in radians. Every operation uses only IEEE-754
//! addition, multiplication, division and square root (correctly rounded on every
//! target) and never a fused multiply-add, so results are the same bits on every
//! platform. The standard library's `sin`, `cos` and `atan2` call the platform's
//! libm, whose results may differ in the last bit between systems; [`cos_sin`] and
//! [`atan2`] are our own polynomial approximations instead.
//!
//! # References
//! - E. Catto, Box2D v3 `math_functions.h` (rotation as cosine/sine, `b2IntegrateRotation`).
//! - Cody & Waite, *Software Manual for the Elementary Functions* (range reduction).

use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// π as `f32`.
pub const PI: f32 = std::f32::consts::PI;

/// A 2D vector or point, in metres unless documented otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Vec2 {
    /// x coordinate.
    pub x: f32,
    /// y coordinate.
    pub y: f32,
}

impl Vec2 {
    /// The zero vector.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };
    /// The unit x axis.
    pub const X: Vec2 = Vec2 { x: 1.0, y: 0.0 };
    /// The unit y axis.
    pub const Y: Vec2 = Vec2 { x: 0.0, y: 1.0 };

    /// Makes a vector from its coordinates.
    #[inline]
    pub const fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }

    /// 2D cross product (the z component of the 3D cross product).
    #[inline]
    pub fn cross(self, o: Vec2) -> f32 {
        self.x * o.y - self.y * o.x
    }

    /// Cross product of this vector with a scalar: `v × s = (s·v.y, −s·v.x)`.
    #[inline]
    pub fn cross_scalar(self, s: f32) -> Vec2 {
        Vec2::new(s * self.y, -s * self.x)
    }

    /// Cross product of a scalar with a vector: `s × v = (−s·v.y, s·v.x)`.
    #[inline]
    pub fn scalar_cross(s: f32, v: Vec2) -> Vec2 {
        Vec2::new(-s * v.y, s * v.x)
    }

    /// The vector rotated by +90° (counter-clockwise): `(−y, x)`.
    #[inline]
    pub fn left_perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }

    /// The vector rotated by −90° (clockwise): `(y, −x)`.
    #[inline]
    pub fn right_perp(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    /// Euclidean length.
    #[inline]
    pub fn length(self) -> f32 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Squared length.
    #[inline]
    pub fn length_squared(self) -> f32 {
        self.x * self.x + self.y * self.y
    }

    /// Distance between two points.
    #[inline]
    pub fn distance(self, o: Vec2) -> f32 {
        (o - self).length()
    }

    /// Squared distance between two points.
    #[inline]
    pub fn distance_squared(self, o: Vec2) -> f32 {
        (o - self).length_squared()
    }

    /// The unit vector in this direction, or zero when the length is below `f32::EPSILON`.
    #[inline]
    pub fn normalize(self) -> Vec2 {
        let len = self.length();
        if len < f32::EPSILON {
            return Vec2::ZERO;
        }
        let inv = 1.0 / len;
        Vec2::new(inv * self.x, inv * self.y)
    }

    /// The unit vector in this direction together with the original length.
    /// Returns `(ZERO, 0)` when the length is below `f32::EPSILON`.
    #[inline]
    pub fn get_length_and_normalize(self) -> (Vec2, f32) {
        let len = self.length();
        if len < f32::EPSILON {
            return (Vec2::ZERO, 0.0);
        }
        let inv = 1.0 / len;
        (Vec2::new(inv * self.x, inv * self.y), len)
    }

    /// Whether both coordinates are finite (neither NaN nor infinite).
    ///
    /// Box2D: `b2IsValidVec2`.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// Whether the length is within 6e-4 of one.
    #[inline]
    pub fn is_normalized(self) -> bool {
        let aa = self.length_squared();
        (1.0 - aa).abs() < 6.0 * f32::EPSILON * 100.0
    }

    /// Component-wise absolute value.
    #[inline]
    pub fn abs(self) -> Vec2 {
        Vec2::new(self.x.abs(), self.y.abs())
    }

    /// Component-wise minimum.
    #[inline]
    pub fn min(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.min(o.x), self.y.min(o.y))
    }

    /// Component-wise maximum.
    #[inline]
    pub fn max(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.max(o.x), self.y.max(o.y))
    }

    /// Linear interpolation `(1 − t)·self + t·b`.
    #[inline]
    pub fn lerp(self, b: Vec2, t: f32) -> Vec2 {
        Vec2::new((1.0 - t) * self.x + t * b.x, (1.0 - t) * self.y + t * b.y)
    }

    /// `a + s·b`, computed without a fused multiply-add.
    #[inline]
    pub fn mul_add(a: Vec2, s: f32, b: Vec2) -> Vec2 {
        Vec2::new(a.x + s * b.x, a.y + s * b.y)
    }

    /// `a − s·b`, computed without a fused multiply-add.
    #[inline]
    pub fn mul_sub(a: Vec2, s: f32, b: Vec2) -> Vec2 {
        Vec2::new(a.x - s * b.x, a.y - s * b.y)
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}
impl Mul<Vec2> for f32 {
    type Output = Vec2;
    #[inline]
    fn mul(self, v: Vec2) -> Vec2 {
        Vec2::new(self * v.x, self * v.y)
    }
}
impl Mul<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, s: f32) -> Vec2 {
        Vec2::new(s * self.x, s * self.y)
    }
}
impl Div<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn div(self, s: f32) -> Vec2 {
        Vec2::new(self.x / s, self.y / s)
    }
}
impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}
impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        self.x -= o.x;
        self.y -= o.y;
    }
}
impl MulAssign<f32> for Vec2 {
    #[inline]
    fn mul_assign(&mut self, s: f32) {
        self.x *= s;
        self.y *= s;
    }
}

/// A rotation stored as its cosine and sine (a unit complex number).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Rot::IDENTITY
    }
}

impl Rot {
    /// No rotation.
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians, using the deterministic [`cos_sin`].
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (c, s) = cos_sin(angle);
        Rot { c, s }
    }

    /// The angle in radians, in `[−π, π]`, using the deterministic [`atan2`].
    #[inline]
    pub fn angle(self) -> f32 {
        atan2(self.s, self.c)
    }

    /// The rotated x axis `(c, s)`.
    #[inline]
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.c, self.s)
    }

    /// The rotated y axis `(−s, c)`.
    #[inline]
    pub fn y_axis(self) -> Vec2 {
        Vec2::new(-self.s, self.c)
    }

    /// Rotates a vector.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotates a vector by the inverse rotation.
    #[inline]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// The composition `self · b` (apply `b`, then `self`).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, b: Rot) -> Rot {
        Rot {
            c: self.c * b.c - self.s * b.s,
            s: self.s * b.c + self.c * b.s,
        }
    }

    /// The composition `selfᵀ · b` (the rotation from `self` to `b`).
    #[inline]
    pub fn inv_mul(self, b: Rot) -> Rot {
        Rot {
            c: self.c * b.c + self.s * b.s,
            s: self.c * b.s - self.s * b.c,
        }
    }

    /// The inverse rotation.
    #[inline]
    pub fn inverse(self) -> Rot {
        Rot {
            c: self.c,
            s: -self.s,
        }
    }

    /// The signed angle from `self` to `b`, in radians, in `[−π, π]`.
    #[inline]
    pub fn relative_angle(self, b: Rot) -> f32 {
        let r = self.inv_mul(b);
        atan2(r.s, r.c)
    }

    /// Rescales to unit length; the identity if the length is zero.
    #[inline]
    pub fn normalize(self) -> Rot {
        let mag = (self.s * self.s + self.c * self.c).sqrt();
        if mag == 0.0 {
            return Rot::IDENTITY;
        }
        let inv = 1.0 / mag;
        Rot {
            c: self.c * inv,
            s: self.s * inv,
        }
    }

    /// The rotation that turns the unit vector `v1` onto the unit vector `v2`
    /// (cosine their dot product, sine their cross product, rescaled to unit
    /// length; the identity when either is zero).
    ///
    /// Box2D: `b2ComputeRotationBetweenUnitVectors`.
    pub fn between_unit_vectors(v1: Vec2, v2: Vec2) -> Rot {
        Rot {
            c: v1.dot(v2),
            s: v1.cross(v2),
        }
        .normalize()
    }

    /// Whether the cosine/sine pair is finite and of unit length (within 6e-4).
    ///
    /// Box2D: `b2IsValidRotation`.
    #[inline]
    pub fn is_valid(self) -> bool {
        self.c.is_finite() && self.s.is_finite() && Vec2::new(self.c, self.s).is_normalized()
    }

    /// Advances the rotation by an angle increment `delta_angle` (radians) and
    /// re-normalises: `q₂ = normalize(q₁ + Δθ·q₁⊥)`. This is how bodies integrate
    /// rotation in the solver; it is exact to first order and needs no trigonometry.
    #[inline]
    pub fn integrate(self, delta_angle: f32) -> Rot {
        let q2 = Rot {
            c: self.c - delta_angle * self.s,
            s: self.s + delta_angle * self.c,
        };
        q2.normalize()
    }

    /// Normalised linear interpolation between two rotations, `t ∈ [0, 1]`.
    #[inline]
    pub fn nlerp(q1: Rot, q2: Rot, t: f32) -> Rot {
        let omt = 1.0 - t;
        Rot {
            c: omt * q1.c + t * q2.c,
            s: omt * q1.s + t * q2.s,
        }
        .normalize()
    }
}

/// A rigid transform: translation `p` (metres) then rotation `q`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transform {
    /// Translation (origin of the local frame in world coordinates), metres.
    pub p: Vec2,
    /// Rotation of the local frame.
    pub q: Rot,
}

impl Transform {
    /// The raw bits of the position and rotation, `[p.x, p.y, q.c, q.s]`:
    /// for checking that two runs give the same bits.
    pub fn to_bits(self) -> [u32; 4] {
        [
            self.p.x.to_bits(),
            self.p.y.to_bits(),
            self.q.c.to_bits(),
            self.q.s.to_bits(),
        ]
    }

    /// The identity transform.
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    /// Makes a transform from a position and a rotation.
    #[inline]
    pub fn new(p: Vec2, q: Rot) -> Transform {
        Transform { p, q }
    }

    /// Makes a transform from a position (m) and an angle (rad).
    #[inline]
    pub fn from_angle(p: Vec2, angle: f32) -> Transform {
        Transform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// Maps a local point into this frame's parent: `q·v + p`.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        Vec2::new(
            (self.q.c * v.x - self.q.s * v.y) + self.p.x,
            (self.q.s * v.x + self.q.c * v.y) + self.p.y,
        )
    }

    /// Maps a point in the parent frame into this local frame: `qᵀ·(v − p)`.
    #[inline]
    pub fn apply_inv(self, v: Vec2) -> Vec2 {
        let vx = v.x - self.p.x;
        let vy = v.y - self.p.y;
        Vec2::new(
            self.q.c * vx + self.q.s * vy,
            -self.q.s * vx + self.q.c * vy,
        )
    }

    /// The composition `self · b` (apply `b`, then `self`).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, b: Transform) -> Transform {
        Transform {
            q: self.q.mul(b.q),
            p: self.q.rotate(b.p) + self.p,
        }
    }

    /// The composition `selfᵀ · b`: `b` expressed in the frame of `self`.
    #[inline]
    pub fn inv_mul(self, b: Transform) -> Transform {
        Transform {
            q: self.q.inv_mul(b.q),
            p: self.q.inv_rotate(b.p - self.p),
        }
    }

    /// Whether the transform is finite with a unit rotation.
    ///
    /// Box2D: `b2IsValidTransform`.
    #[inline]
    pub fn is_valid(self) -> bool {
        self.p.is_finite() && self.q.is_valid()
    }
}

/// A 2×2 matrix stored by columns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mat22 {
    /// First column.
    pub cx: Vec2,
    /// Second column.
    pub cy: Vec2,
}

impl Mat22 {
    /// The zero matrix.
    pub const ZERO: Mat22 = Mat22 {
        cx: Vec2::ZERO,
        cy: Vec2::ZERO,
    };

    /// Makes a matrix from two columns.
    #[inline]
    pub fn new(cx: Vec2, cy: Vec2) -> Mat22 {
        Mat22 { cx, cy }
    }

    /// Matrix times vector.
    #[inline]
    pub fn mul_vec(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cx.x * v.x + self.cy.x * v.y,
            self.cx.y * v.x + self.cy.y * v.y,
        )
    }

    /// The inverse, or zero when the matrix is singular or the arithmetic
    /// overflows (entries near 1e19 and beyond: a joint between bodies of
    /// absurdly small mass).
    #[inline]
    pub fn inverse(self) -> Mat22 {
        let (a, b, c, d) = (self.cx.x, self.cy.x, self.cx.y, self.cy.y);
        let mut det = a * d - b * c;
        if det != 0.0 {
            det = 1.0 / det;
        }
        let m = Mat22 {
            cx: Vec2::new(det * d, -det * c),
            cy: Vec2::new(-det * b, det * a),
        };
        if m.cx.is_finite() && m.cy.is_finite() {
            m
        } else {
            Mat22::ZERO
        }
    }

    /// Solves `self · x = b`; zero when the matrix is singular or the
    /// arithmetic overflows.
    #[inline]
    pub fn solve(self, b: Vec2) -> Vec2 {
        let (a11, a12, a21, a22) = (self.cx.x, self.cy.x, self.cx.y, self.cy.y);
        let mut det = a11 * a22 - a12 * a21;
        if det != 0.0 {
            det = 1.0 / det;
        }
        let x = Vec2::new(det * (a22 * b.x - a12 * b.y), det * (a11 * b.y - a21 * b.x));
        if x.is_finite() { x } else { Vec2::ZERO }
    }

    /// Component-wise absolute value.
    #[inline]
    pub fn abs(self) -> Mat22 {
        Mat22 {
            cx: self.cx.abs(),
            cy: self.cy.abs(),
        }
    }

    /// The transpose.
    #[inline]
    pub fn transpose(self) -> Mat22 {
        Mat22 {
            cx: Vec2::new(self.cx.x, self.cy.x),
            cy: Vec2::new(self.cx.y, self.cy.y),
        }
    }
}

/// The motion of a body over a time interval, used by time of impact.
///
/// The body's centre of mass moves linearly from `c1` to `c2` while its angle moves
/// linearly from `a1` to `a2`. Angles are kept as plain radians (not cosine/sine) so
/// that a body spinning through more than half a turn in one step is swept correctly.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sweep {
    /// Centre of mass in the body's local frame, metres.
    pub local_center: Vec2,
    /// World centre of mass at the start of the interval (t = 0), metres.
    pub c1: Vec2,
    /// World centre of mass at the end of the interval (t = 1), metres.
    pub c2: Vec2,
    /// Body angle at the start of the interval, radians.
    pub a1: f32,
    /// Body angle at the end of the interval, radians.
    pub a2: f32,
}

impl Sweep {
    /// The body transform at fraction `t ∈ [0, 1]` of the interval.
    ///
    /// Box2D: `b2GetSweepTransform`.
    #[inline]
    pub fn transform_at(&self, t: f32) -> Transform {
        let c = Vec2::new(
            (1.0 - t) * self.c1.x + t * self.c2.x,
            (1.0 - t) * self.c1.y + t * self.c2.y,
        );
        let angle = (1.0 - t) * self.a1 + t * self.a2;
        let q = Rot::from_angle(angle);
        // Shift from the centre of mass to the body origin.
        Transform {
            p: c - q.rotate(self.local_center),
            q,
        }
    }

    /// Wraps `a1` into `[−π, π]` and shifts `a2` by the same whole turns, so that
    /// angles stay small (and precise) for bodies that have spun many times.
    #[inline]
    pub fn normalize(&mut self) {
        let two_pi = 2.0 * PI;
        let d = two_pi * (self.a1 / two_pi).floor();
        self.a1 -= d;
        self.a2 -= d;
        if self.a1 > PI {
            self.a1 -= two_pi;
            self.a2 -= two_pi;
        }
    }

    /// Whether all numbers are finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.local_center.is_finite()
            && self.c1.is_finite()
            && self.c2.is_finite()
            && self.a1.is_finite()
            && self.a2.is_finite()
    }
}

/// Wraps an angle into `[−π, π]`. Non-finite input is returned unchanged.
#[inline]
pub fn unwind_angle(angle: f32) -> f32 {
    if !angle.is_finite() {
        return angle;
    }
    if (-PI..=PI).contains(&angle) {
        return angle;
    }
    use std::f64::consts::TAU;
    let a = f64::from(angle);
    let wrapped = a - TAU * round_to_integer(a * (1.0 / TAU));
    wrapped as f32
}

/// `x` rounded to the nearest integer (halves away from zero), without a libm
/// call (`f64::round` is one on baseline x86-64): a truncating conversion to `i64`
/// after adding ±0.5. Values of 2⁵² and beyond are already integers.
#[inline]
fn round_to_integer(x: f64) -> f64 {
    if x.abs() < 4_503_599_627_370_496.0 {
        (x + 0.5f64.copysign(x)) as i64 as f64
    } else {
        x
    }
}

/// π/2 = `HALF_PI_HEAD + HALF_PI_TAIL` to about 90 bits. The head has 33
/// significant bits, so its product with a quadrant number below 2²⁰ is exact.
const HALF_PI_HEAD: f64 = 1.570_796_326_734_125_6;
const HALF_PI_TAIL: f64 = 6.077_100_506_506_192e-11;

/// Deterministic cosine and sine of `angle` (radians), as `(cos, sin)`.
///
/// Computed in `f64` with plain multiplies and adds (no libm, no fused
/// multiply-add), so the result is the same on every platform. The angle is
/// reduced to `r ∈ [−π/4, π/4]` around the nearest multiple of π/2 (Cody–Waite,
/// with π/2 in two parts), then `sin r` and `cos r` are Taylor polynomials whose
/// truncation errors (below 2e-9 and 1.2e-10) are far under an `f32` ulp. The
/// result is nearly always the correctly rounded `f32` (at most 0.53 ulp from the
/// exact value over the tests' sweep). Angles beyond ±10⁶ rad (whose `f32`
/// spacing is already 0.06 rad) are first reduced exactly modulo the `f64` value
/// of 2π. Non-finite input gives `(1, 0)`.
///
/// Box2D: `b2ComputeCosSin`.
pub fn cos_sin(angle: f32) -> (f32, f32) {
    if !angle.is_finite() {
        return (1.0, 0.0);
    }
    use std::f64::consts::{FRAC_2_PI, TAU};
    let mut x = f64::from(angle);
    if x.abs() > 1.0e6 {
        // Exact remainder (IEEE `fmod`), keeping the quadrant number below 2²⁰.
        x %= TAU;
    }
    // The nearest quadrant number k, by the round-to-nearest addition of 1.5·2⁵²:
    // the sum has no fraction bits left, and its low mantissa bits hold k in two's
    // complement (|k| < 2²⁰ here). Cheaper than a float-to-integer conversion,
    // which Rust makes saturating.
    const ROUNDER: f64 = 6_755_399_441_055_744.0;
    let shifted = x * FRAC_2_PI + ROUNDER;
    let k = shifted - ROUNDER;
    let quadrant = shifted.to_bits();
    let r = (x - k * HALF_PI_HEAD) - k * HALF_PI_TAIL;
    let r2 = r * r;
    // Reciprocal factorials as constants: dividing by a factorial in the
    // polynomial would stay a run-time division.
    const S3: f64 = -1.0 / 6.0;
    const S5: f64 = 1.0 / 120.0;
    const S7: f64 = -1.0 / 5_040.0;
    const S9: f64 = 1.0 / 362_880.0;
    const C4: f64 = 1.0 / 24.0;
    const C6: f64 = -1.0 / 720.0;
    const C8: f64 = 1.0 / 40_320.0;
    const C10: f64 = -1.0 / 3_628_800.0;
    let sin_r = r + r * r2 * (S3 + r2 * (S5 + r2 * (S7 + r2 * S9)));
    let cos_r = 1.0 + r2 * (-0.5 + r2 * (C4 + r2 * (C6 + r2 * (C8 + r2 * C10))));
    // Quadrant k mod 4: turning by π/2 maps (cos, sin) to (−sin, cos), by π negates.
    // So odd quadrants swap the pair; the cosine is negative in quadrants 1 and 2,
    // the sine in 2 and 3: sign bits from the quadrant's bits.
    let (c, s) = if quadrant & 1 == 0 {
        (cos_r, sin_r)
    } else {
        (sin_r, cos_r)
    };
    let cos_sign = ((quadrant + 1) & 2) << 62;
    let sin_sign = (quadrant & 2) << 62;
    let c = f64::from_bits(c.to_bits() ^ cos_sign);
    let s = f64::from_bits(s.to_bits() ^ sin_sign);
    (c as f32, s as f32)
}

/// Deterministic four-quadrant arctangent of `y/x`, in radians in `[−π, π]`.
///
/// Evaluated in `f64` with one division: the ratio `min/max` of `|x|` and `|y|` is
/// reduced below `tan(π/8)` and a near-minimax polynomial (relative error below
/// 1e-9) gives its arctangent; accurate to well below one `f32` ulp. `atan2(0, 0)`
/// is 0; NaN input gives 0.
///
/// Box2D: `b2Atan2`.
#[inline(always)]
pub fn atan2(y: f32, x: f32) -> f32 {
    if y.is_nan() || x.is_nan() {
        return 0.0;
    }
    use std::f64::consts::{FRAC_PI_2, PI as PI64};
    let (yd, xd) = (y as f64, x as f64);
    let ax = xd.abs();
    let ay = yd.abs();
    if ax == 0.0 && ay == 0.0 {
        return 0.0;
    }
    // Angle in [0, π/2] of (ax, ay).
    let swap = ay > ax;
    let base = if swap {
        atan_ratio(ax, ay)
    } else {
        atan_ratio(ay, ax)
    };
    let mut a = if swap { FRAC_PI_2 - base } else { base };
    if xd < 0.0 {
        a = PI64 - a;
    }
    if yd < 0.0 {
        a = -a;
    }
    a as f32
}

/// tan(π/8) = √2 − 1 ([`atan_ratio`]'s reduction bound).
const TAN_PI_8: f64 = 0.414_213_562_373_095_1;

/// atan u = u·P(u²) on |u| ≤ tan(π/8): P interpolates atan(√z)/√z at six
/// Chebyshev nodes of z ∈ [0, tan²(π/8)] (relative error below 7e-10).
const ATAN_P: [f64; 6] = [
    0.999_999_999_371_228_2,
    -0.333_333_068_930_501_63,
    0.199_981_830_411_302_88,
    -0.142_395_326_702_465_94,
    0.105_698_288_100_539_37,
    -0.060_263_052_360_603_8,
];

/// `u·P(u²)` ([`ATAN_P`]).
#[inline(always)]
fn atan_poly(u: f64) -> f64 {
    let z = u * u;
    let [p0, p1, p2, p3, p4, p5] = ATAN_P;
    let p = p0 + z * (p1 + z * (p2 + z * (p3 + z * (p4 + z * p5))));
    u * p
}

/// `atan(n / d)` for `0 ≤ n ≤ d`, `d > 0`, in `[0, π/4]`; 0 when both are infinite.
fn atan_ratio(n: f64, d: f64) -> f64 {
    use std::f64::consts::FRAC_PI_4;
    // atan t = π/4 + atan((t − 1)/(t + 1)), so |u| ≤ tan(π/8) either way.
    let (offset, u) = if n > TAN_PI_8 * d {
        (FRAC_PI_4, (n - d) / (n + d))
    } else {
        (0.0, n / d)
    };
    if !u.is_finite() {
        return 0.0;
    }
    offset + atan_poly(u)
}

/// [`atan2`] of eight pairs `(y[i], x[i])`, the same bits lane by lane:
/// every branch of the scalar function is taken in every lane and the
/// lanes' results selected, in `f64` arrays the compiler vectorises (no
/// branch on the data).
#[inline(always)]
pub(crate) fn atan2_lanes(y: [f32; 8], x: [f32; 8]) -> [f32; 8] {
    use std::array::from_fn;
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI as PI64};
    let yd: [f64; 8] = from_fn(|i| f64::from(y[i]));
    let xd: [f64; 8] = from_fn(|i| f64::from(x[i]));
    let ax: [f64; 8] = from_fn(|i| xd[i].abs());
    let ay: [f64; 8] = from_fn(|i| yd[i].abs());
    let swap: [bool; 8] = from_fn(|i| ay[i] > ax[i]);
    // `atan_ratio(n, d)`.
    let n: [f64; 8] = from_fn(|i| if swap[i] { ax[i] } else { ay[i] });
    let d: [f64; 8] = from_fn(|i| if swap[i] { ay[i] } else { ax[i] });
    let big: [bool; 8] = from_fn(|i| n[i] > TAN_PI_8 * d[i]);
    let num: [f64; 8] = from_fn(|i| if big[i] { n[i] - d[i] } else { n[i] });
    let den: [f64; 8] = from_fn(|i| if big[i] { n[i] + d[i] } else { d[i] });
    let u: [f64; 8] = from_fn(|i| num[i] / den[i]);
    let offset: [f64; 8] = from_fn(|i| if big[i] { FRAC_PI_4 } else { 0.0 });
    let poly: [f64; 8] = from_fn(|i| offset[i] + atan_poly(u[i]));
    let base: [f64; 8] = from_fn(|i| if u[i].is_finite() { poly[i] } else { 0.0 });
    // The quadrant.
    let a: [f64; 8] = from_fn(|i| {
        if swap[i] {
            FRAC_PI_2 - base[i]
        } else {
            base[i]
        }
    });
    let a: [f64; 8] = from_fn(|i| if xd[i] < 0.0 { PI64 - a[i] } else { a[i] });
    let a: [f64; 8] = from_fn(|i| if yd[i] < 0.0 { -a[i] } else { a[i] });
    from_fn(|i| {
        let zero = y[i].is_nan() || x[i].is_nan() || (ax[i] == 0.0 && ay[i] == 0.0);
        if zero { 0.0 } else { a[i] as f32 }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `atan2_lanes` gives `atan2`'s bits in every lane, on random angles
    /// and lengths and on awkward floats (±0, ±∞, NaN, subnormals, equal
    /// magnitudes, random bits).
    #[test]
    fn atan2_lanes_matches_atan2_bit_for_bit() {
        // A 64-bit linear congruential generator (Knuth's MMIX constants).
        let mut state = 0x5EED_A7A2_u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state ^ (state >> 29)
        };
        let mut value = || {
            let r = next();
            let sign = ((r >> 32) as u32) & 0x8000_0000;
            match r % 10 {
                0 => f32::from_bits(sign),
                1 => f32::from_bits(sign | 0x7F80_0000),
                2 => f32::from_bits(sign | 0x7FC0_0000 | ((r >> 40) as u32 & 0x3F_FFFF)),
                3 => f32::from_bits(sign | ((r >> 40) as u32 & 0x7F_FFFF)),
                4 => [1.0f32, -1.0, 0.5, 3.0e38][(r >> 8) as usize % 4],
                5 => f32::from_bits((r >> 16) as u32),
                _ => {
                    let (c, s) = cos_sin(((r >> 20) as u32 as f32 / u32::MAX as f32 - 0.5) * 7.0);
                    if r & 0x100 == 0 { c } else { s }
                }
            }
        };
        for _ in 0..20_000 {
            let y: [f32; 8] = std::array::from_fn(|_| value());
            let mut x: [f32; 8] = std::array::from_fn(|_| value());
            // Equal magnitudes now and then (the branch between octants).
            x[0] = y[0];
            x[1] = -y[1];
            let lanes = atan2_lanes(y, x);
            for i in 0..8 {
                assert_eq!(
                    lanes[i].to_bits(),
                    atan2(y[i], x[i]).to_bits(),
                    "atan2({:?}, {:?})",
                    y[i],
                    x[i]
                );
            }
        }
    }

    /// How many `f32` steps `got` is from the exact `want` (0 when `got` is the
    /// correctly rounded value or ties with it; 1 for the other neighbour).
    fn ulps_off(got: f32, want: f64) -> f64 {
        let rounded = want as f32;
        // The spacing of f32 values around the exact value.
        let spacing = f64::from(rounded.abs().next_up() - rounded.abs());
        (f64::from(got) - want).abs() / spacing
    }

    #[test]
    fn cos_sin_is_within_one_ulp() {
        // Dense over a few turns, and sparse out to the fast path's limit; the exact
        // values come from the f64 standard library (tests may use libm).
        let mut worst: f64 = 0.0;
        let mut check = |a: f32| {
            let (c, s) = cos_sin(a);
            let a64 = f64::from(a);
            let (ce, se) = (a64.cos(), a64.sin());
            worst = worst.max(ulps_off(c, ce)).max(ulps_off(s, se));
            assert!(ulps_off(c, ce) < 1.0, "cos({a}) = {c} vs {ce}");
            assert!(ulps_off(s, se) < 1.0, "sin({a}) = {s} vs {se}");
        };
        let mut a = -20.0f32;
        while a < 20.0 {
            check(a);
            a += 0.000_37;
        }
        let mut a = 1.0f32;
        while a < 1.0e6 {
            check(a);
            check(-a);
            a *= 1.000_3;
        }
        // Tiny angles, where sin x = x to within an ulp, and the f32 values nearest to
        // multiples of π/2 (the ends of the reduction interval and near zeros of sin
        // and cos).
        for a in [1e-30f32, 1e-10, 3e-4, -3e-4] {
            check(a);
        }
        for k in -64..=64 {
            let m = (k as f32) * (PI / 2.0);
            for a in [m.next_down(), m, m.next_up()] {
                check(a);
            }
        }
        // Measured 0.528: the final rounding (0.5) plus the polynomial error.
        assert!(worst < 0.55, "worst error {worst} ulp");
    }

    #[test]
    fn cos_sin_special_values() {
        assert_eq!(cos_sin(0.0), (1.0, 0.0));
        assert_eq!(cos_sin(-0.0).0, 1.0);
        assert_eq!(cos_sin(f32::NAN), (1.0, 0.0));
        assert_eq!(cos_sin(f32::INFINITY), (1.0, 0.0));
        // Far beyond the reduction range: still a unit vector.
        for a in [1.0e7f32, -3.0e20, f32::MAX] {
            let (c, s) = cos_sin(a);
            assert!((c * c + s * s - 1.0).abs() < 1e-6, "{a}: {c}, {s}");
        }
        // Quadrants: cos(π/2 + x) = −sin x, sin(π + x) = −sin x, and so on, with
        // x = 0.3 and the f32 sum's own rounding folded into the tolerance.
        let (c0, s0) = cos_sin(0.3);
        let (c1, s1) = cos_sin(0.3 + PI / 2.0);
        let (c2, s2) = cos_sin(0.3 + PI);
        let (c3, s3) = cos_sin(0.3 - PI / 2.0);
        for (got, want) in [
            (c1, -s0),
            (s1, c0),
            (c2, -c0),
            (s2, -s0),
            (c3, s0),
            (s3, -c0),
        ] {
            assert!((got - want).abs() < 2e-7, "{got} vs {want}");
        }
    }

    #[test]
    fn half_pi_split_is_exact_enough() {
        // The head's low 20 mantissa bits are zero (33 significant bits), and head
        // plus tail is π/2 (checked against the f64 constant, which the tail refines).
        assert_eq!(HALF_PI_HEAD.to_bits() & ((1 << 20) - 1), 0);
        assert!((HALF_PI_HEAD + HALF_PI_TAIL - std::f64::consts::FRAC_PI_2).abs() < 1e-16);
    }

    #[test]
    fn round_to_integer_rounds_halves_away_from_zero() {
        assert_eq!(round_to_integer(2.4), 2.0);
        assert_eq!(round_to_integer(2.5), 3.0);
        assert_eq!(round_to_integer(-2.5), -3.0);
        assert_eq!(round_to_integer(-2.6), -3.0);
        assert_eq!(round_to_integer(0.3), 0.0);
        assert_eq!(round_to_integer(1.0e300), 1.0e300);
        assert_eq!(
            round_to_integer(-9_007_199_254_740_993.0),
            -9_007_199_254_740_993.0
        );
    }

    #[test]
    fn atan2_is_within_an_ulp_of_the_exact_value() {
        let mut worst = 0.0f64;
        let mut check = |y: f32, x: f32| {
            let got = atan2(y, x);
            let want = f64::from(y).atan2(f64::from(x));
            worst = worst.max(ulps_off(got, want));
            assert!(
                ulps_off(got, want) < 1.0,
                "atan2({y}, {x}) = {got} vs {want}"
            );
        };
        // Directions all around the circle at magnitudes from 1e-6 to 1e6, and ratios
        // near the reduction points tan(π/8) and 1.
        let mut state = 0x2545_f491_u32;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let a = (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 * PI - PI;
            let r = 10f32.powi((state % 13) as i32 - 6);
            let (c, s) = cos_sin(a);
            check(r * s, r * c);
        }
        for t in [
            0.414_213_55f32,
            0.414_213_57,
            0.999_999_94,
            1.0,
            1e-30,
            1e30,
        ] {
            for (y, x) in [(t, 1.0), (1.0, t), (-t, 1.0), (t, -1.0), (-1.0, -t)] {
                check(y, x);
            }
        }
        // The final rounding (0.5) plus the polynomial error.
        assert!(worst < 0.51, "worst {worst} ulp");
    }

    #[test]
    fn atan2_matches_std_closely() {
        for i in 0..2000 {
            let a = -PI + (i as f32) * (2.0 * PI / 2000.0);
            for r in [1e-3f32, 1.0, 1e4] {
                let (y, x) = (r * (a as f64).sin() as f32, r * (a as f64).cos() as f32);
                let got = atan2(y, x) as f64;
                let want = (y as f64).atan2(x as f64);
                assert!(
                    (got - want).abs() < 3e-7,
                    "atan2({y},{x}) = {got} vs {want}"
                );
            }
        }
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert!((atan2(1.0, 0.0) - PI / 2.0).abs() < 1e-7);
        assert!((atan2(0.0, -1.0) - PI).abs() < 1e-7);
        assert!((atan2(-1.0, f32::INFINITY)).abs() < 1e-7);
    }

    #[test]
    fn rotation_round_trip() {
        let q = Rot::from_angle(0.7);
        assert!((q.angle() - 0.7).abs() < 1e-6);
        let v = Vec2::new(1.5, -2.0);
        let w = q.inv_rotate(q.rotate(v));
        assert!((w - v).length() < 1e-6);
        let q2 = Rot::from_angle(-2.5);
        assert!((q.relative_angle(q2) - (-3.2 + 2.0 * PI)).abs() < 1e-5);
        let t = Transform::from_angle(Vec2::new(3.0, 4.0), 1.1);
        let p = Vec2::new(-1.0, 2.0);
        assert!((t.apply_inv(t.apply(p)) - p).length() < 1e-5);
        let u = Transform::from_angle(Vec2::new(-2.0, 1.0), -0.4);
        let tu = t.mul(u);
        assert!((tu.apply(p) - t.apply(u.apply(p))).length() < 1e-5);
        let rel = t.inv_mul(tu);
        assert!((rel.apply(p) - u.apply(p)).length() < 1e-5);
    }

    #[test]
    fn integrate_rotation_small_steps_matches_angle() {
        // 600 steps of 0.01 rad: first-order integration with normalisation
        // tracks the exact angle 6 rad to within atan(0.01) − 0.01 ≈ 3.3e-7 per step.
        let mut q = Rot::IDENTITY;
        for _ in 0..600 {
            q = q.integrate(0.01);
        }
        let exact = unwind_angle(600.0 * 0.01f32.atan());
        assert!((q.angle() - exact).abs() < 1e-4);
    }

    #[test]
    fn sweep_transform_and_normalize() {
        let mut s = Sweep {
            local_center: Vec2::new(0.5, 0.0),
            c1: Vec2::new(0.0, 0.0),
            c2: Vec2::new(2.0, 0.0),
            a1: 7.0 * PI,
            a2: 7.5 * PI,
        };
        let before = s.transform_at(0.5);
        s.normalize();
        assert!(s.a1 >= -PI && s.a1 <= PI);
        assert!((s.a2 - s.a1 - 0.5 * PI).abs() < 1e-5);
        let after = s.transform_at(0.5);
        assert!((before.p - after.p).length() < 1e-4);
        // Centre of mass at t = 0.5 is (1, 0); angle 7.25π ≡ −0.75π.
        let com = after.apply(s.local_center);
        assert!((com - Vec2::new(1.0, 0.0)).length() < 1e-5);
        assert!((after.q.angle() + 0.75 * PI).abs() < 1e-5);
    }

    #[test]
    fn mat22_solve() {
        let m = Mat22::new(Vec2::new(2.0, 1.0), Vec2::new(1.0, 3.0));
        let x = m.solve(Vec2::new(3.0, 5.0));
        // 2x + y = 3, x + 3y = 5 → x = 0.8, y = 1.4
        assert!((x - Vec2::new(0.8, 1.4)).length() < 1e-6);
        assert!((m.inverse().mul_vec(Vec2::new(3.0, 5.0)) - x).length() < 1e-6);
        assert_eq!(Mat22::ZERO.solve(Vec2::X), Vec2::ZERO);
    }
    #[test]
    fn rotation_between_unit_vectors_turns_one_onto_the_other() {
        // A quarter turn: x onto y.
        let q = Rot::between_unit_vectors(Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0));
        assert!((q.c - 0.0).abs() < 1e-7 && (q.s - 1.0).abs() < 1e-7);
        // Directions at 0.3 rad and 1.1 rad: the rotation is 0.8 rad, and it maps
        // the first onto the second.
        let (c1, s1) = (0.3f32.cos(), 0.3f32.sin());
        let (c2, s2) = (1.1f32.cos(), 1.1f32.sin());
        let (v1, v2) = (Vec2::new(c1, s1), Vec2::new(c2, s2));
        let q = Rot::between_unit_vectors(v1, v2);
        assert!((q.angle() - 0.8).abs() < 1e-5);
        assert!((q.rotate(v1) - v2).length() < 1e-6);
        // Opposite vectors: half a turn. A zero vector: the identity.
        let q = Rot::between_unit_vectors(v1, -v1);
        assert!((q.c + 1.0).abs() < 1e-6 && q.s.abs() < 1e-6);
        assert_eq!(Rot::between_unit_vectors(Vec2::ZERO, v1), Rot::IDENTITY);
    }
}
