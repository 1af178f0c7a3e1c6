//! Axis-aligned bounding boxes: the box type, its slab ray cast, and the boxes
//! of each shape under a transform.
//!
//! # References
//! - C. Ericson, *Real-Time Collision Detection* (2005), §5.3.3 (ray vs AABB by slabs).
//! - E. Catto, Box2D v3 `aabb.c` (`b2AABB_RayCast`), `geometry.c` (`b2Compute*AABB`).

use super::geometry::{Capsule, Circle, Polygon, Segment};
use super::ray::{CastOutput, RayCastInput};
use crate::core::HUGE;
use crate::math::{Transform, Vec2};

/// The methods [`Aabb`] and [`WorldAabb`](crate::pos::WorldAabb) (`f64` corners with
/// `large-world`) share, written once for the box type `$B`, its corner type `$P` and
/// its scalar `$S`.
macro_rules! box_methods {
    ($B:ident, $P:ident, $S:ty) => {
        /// The centre point.
        #[inline]
        pub fn center(&self) -> $P {
            $P::new(
                0.5 * (self.lower.x + self.upper.x),
                0.5 * (self.lower.y + self.upper.y),
            )
        }

        /// The perimeter, metres (the surface-area heuristic's cost in 2D).
        #[inline]
        pub fn perimeter(&self) -> $S {
            2.0 * ((self.upper.x - self.lower.x) + (self.upper.y - self.lower.y))
        }

        /// Whether this box fully contains `b`.
        #[inline]
        pub fn contains(&self, b: &$B) -> bool {
            self.lower.x <= b.lower.x
                && self.lower.y <= b.lower.y
                && b.upper.x <= self.upper.x
                && b.upper.y <= self.upper.y
        }

        /// Whether the boxes overlap (touching counts).
        #[inline]
        pub fn overlaps(&self, b: &$B) -> bool {
            !(b.lower.x > self.upper.x
                || b.lower.y > self.upper.y
                || self.lower.x > b.upper.x
                || self.lower.y > b.upper.y)
        }
    };
}
// (used from `pos` only with `large-world`)
#[cfg_attr(not(feature = "large-world"), allow(unused_imports))]
pub(crate) use box_methods;

/// An axis-aligned bounding box, metres. Valid when `lower <= upper` component-wise
/// and both corners are finite.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// The lower-left corner.
    pub lower: Vec2,
    /// The upper-right corner.
    pub upper: Vec2,
}

impl Aabb {
    /// Makes a box from its corners (not checked; see [`Aabb::is_valid`]).
    #[inline]
    pub const fn new(lower: Vec2, upper: Vec2) -> Aabb {
        Aabb { lower, upper }
    }

    /// Whether the corners are finite and ordered.
    ///
    /// Box2D: `b2IsValidAABB`.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.lower.is_finite()
            & self.upper.is_finite()
            & (self.upper.x >= self.lower.x)
            & (self.upper.y >= self.lower.y)
    }

    box_methods!(Aabb, Vec2, f32);

    /// The half-widths.
    #[inline]
    pub fn extents(&self) -> Vec2 {
        Vec2::new(
            0.5 * (self.upper.x - self.lower.x),
            0.5 * (self.upper.y - self.lower.y),
        )
    }

    /// The smallest box containing both.
    #[inline]
    pub fn union(&self, b: &Aabb) -> Aabb {
        Aabb {
            lower: self.lower.min(b.lower),
            upper: self.upper.max(b.upper),
        }
    }

    /// Whether a point is inside or on the boundary.
    #[inline]
    pub fn contains_point(&self, p: Vec2) -> bool {
        p.x >= self.lower.x && p.x <= self.upper.x && p.y >= self.lower.y && p.y <= self.upper.y
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn fattened(&self, margin: f32) -> Aabb {
        Aabb {
            lower: Vec2::new(self.lower.x - margin, self.lower.y - margin),
            upper: Vec2::new(self.upper.x + margin, self.upper.y + margin),
        }
    }

    /// Casts a ray against the box by the slab test: the ray's parameter interval
    /// inside each axis' slab `[lower, upper]` is intersected, and the entry
    /// parameter is where the ray enters the last slab.
    ///
    /// The result's `fraction` is in units of `input.translation`; a hit needs
    /// `0 ≤ fraction ≤ input.max_fraction`. `normal` is the outward normal of the
    /// entry face (`±X` or `±Y`) and `point = origin + fraction · translation`.
    ///
    /// - **Origin strictly inside the box**: the entry parameter is negative,
    ///   which is reported as **no hit**, as in Box2D v3's `b2AABB_RayCast`. (An
    ///   origin on a face, heading inwards, hits at fraction 0.)
    /// - **Parallel to an axis** (that translation component below `f32::EPSILON`
    ///   in magnitude): the ray misses when its origin lies outside that slab and
    ///   the slab does not limit it otherwise.
    /// - An invalid ray (see [`RayCastInput::is_valid`]) or box: no hit.
    pub fn ray_cast(&self, input: &RayCastInput) -> CastOutput {
        #[cfg(target_arch = "x86_64")]
        {
            let d = input.translation;
            if (d.x.abs() >= f32::EPSILON) & (d.y.abs() >= f32::EPSILON) {
                return self.ray_cast_oblique(input);
            }
        }
        self.ray_cast_reference(input)
    }

    /// [`Aabb::ray_cast`] one slab at a time, each with its parallel case: the
    /// definition, and the path of rays parallel to an axis.
    fn ray_cast_reference(&self, input: &RayCastInput) -> CastOutput {
        let (p, d) = (input.origin, input.translation);
        let (x_enter, x_exit, x_sign) = slab(p.x, d.x, self.lower.x, self.upper.x);
        let (y_enter, y_exit, y_sign) = slab(p.y, d.y, self.lower.y, self.upper.y);
        // The ray enters the box where it enters the later of the two slabs (the x
        // slab on a tie). Parallel to both axes, it enters at −MAX or never.
        let (t_enter, normal) = if y_enter > x_enter {
            (y_enter, Vec2::new(0.0, y_sign))
        } else {
            (x_enter, Vec2::new(x_sign, 0.0))
        };
        let t_exit = if y_exit < x_exit { y_exit } else { x_exit };
        self.hit_report(input, t_enter, t_exit, || normal)
    }

    /// [`Aabb::ray_cast_reference`] for a ray parallel to neither axis (both
    /// translation components at least `f32::EPSILON` in magnitude), with both
    /// slabs in the lanes of one SSE2 register (x86-64's baseline): the same
    /// operations on the same numbers, so the same bits.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn ray_cast_oblique(&self, input: &RayCastInput) -> CastOutput {
        let (p, d) = (input.origin, input.translation);
        // The slab parameters of the lower and upper faces, and each axis'
        // entry and exit, as `slab` makes them.
        let [[lo_x, lo_y, hi_x, hi_y], [x_enter, y_enter, x_exit, y_exit]] = sse2::slabs(
            [self.lower.x, self.lower.y, self.upper.x, self.upper.y],
            [p.x, p.y],
            [d.x, d.y],
        );
        // As in the reference, but the entry face is worked out only for a hit.
        let t_enter = if y_enter > x_enter { y_enter } else { x_enter };
        let t_exit = if y_exit < x_exit { y_exit } else { x_exit };
        self.hit_report(input, t_enter, t_exit, || {
            if y_enter > x_enter {
                Vec2::new(0.0, if lo_y > hi_y { 1.0 } else { -1.0 })
            } else {
                Vec2::new(if lo_x > hi_x { 1.0 } else { -1.0 }, 0.0)
            }
        })
    }

    /// The cast's report given the parameters where the ray enters and leaves
    /// both slabs, and the normal of the entry face (asked for only on a hit).
    #[inline(always)]
    fn hit_report(
        &self,
        input: &RayCastInput,
        t_enter: f32,
        t_exit: f32,
        normal: impl FnOnce() -> Vec2,
    ) -> CastOutput {
        // `&` rather than `&&`: one branch. Most invalid input (NaN) fails here too.
        let hit = (t_enter <= t_exit) & (t_enter >= 0.0) & (t_enter <= input.max_fraction);
        // Checking validity only for hits keeps it off the path of misses.
        if !hit || !valid_cast(self, input) {
            return CastOutput::default();
        }
        CastOutput {
            normal: normal(),
            point: Vec2::mul_add(input.origin, t_enter, input.translation),
            fraction: t_enter,
            iterations: 0,
            hit: true,
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod sse2 {
    use super::{Aabb, RayCastInput};
    use std::arch::x86_64::{
        __m128, _mm_add_ps, _mm_cmpgt_ps, _mm_cmple_ps, _mm_cmpunord_ps, _mm_div_ps, _mm_max_ps,
        _mm_min_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_movemask_ps, _mm_mul_ps, _mm_set1_ps,
        _mm_setr_ps, _mm_setzero_ps, _mm_sub_ps,
    };

    /// For a box with corners `[lower.x, lower.y, upper.x, upper.y]` and the ray
    /// `p + t·d`: the parameters of the four faces, `(face − p) · (1 / d)`, and
    /// `[x_enter, y_enter, x_exit, y_exit]`, where an axis' entry is the lower
    /// face's parameter unless it is greater than the upper face's (`slab`'s
    /// choice; `minps`/`maxps` return their second operand unless the strict
    /// comparison holds, so they make the same choice).
    #[inline(always)]
    pub(super) fn slabs(corners: [f32; 4], p: [f32; 2], d: [f32; 2]) -> [[f32; 4]; 2] {
        // SAFETY: these intrinsics need only SSE2, which every x86-64 CPU has (it
        // is in the target's baseline features); they compute on values, with no
        // memory access.
        unsafe {
            let corners = _mm_setr_ps(corners[0], corners[1], corners[2], corners[3]);
            let p = _mm_setr_ps(p[0], p[1], p[0], p[1]);
            let inv = _mm_div_ps(_mm_set1_ps(1.0), _mm_setr_ps(d[0], d[1], d[0], d[1]));
            let t = _mm_mul_ps(_mm_sub_ps(corners, p), inv);
            let t_hi = _mm_movehl_ps(t, t);
            let enter = _mm_min_ps(t_hi, t);
            let exit = _mm_max_ps(t, t_hi);
            let chosen = _mm_movelh_ps(enter, exit);
            [
                std::mem::transmute::<__m128, [f32; 4]>(t),
                std::mem::transmute::<__m128, [f32; 4]>(chosen),
            ]
        }
    }

    /// Whether `a` and `b` are apart ([`Aabb::overlaps`] is false): some
    /// lane of `(b.lower, a.lower) > (a.upper, b.upper)`, one four-lane
    /// compare in place of a branch per side (a compare with NaN is false in
    /// both forms).
    #[inline(always)]
    #[cfg_attr(feature = "large-world", allow(dead_code))] // (f64 tree boxes there)
    pub(crate) fn apart(a: &Aabb, b: &Aabb) -> bool {
        // SAFETY: these intrinsics need only SSE, which every x86-64 CPU has (it
        // is in the target's baseline features); they compute on values, with no
        // memory access.
        unsafe {
            let a = _mm_setr_ps(a.lower.x, a.lower.y, a.upper.x, a.upper.y);
            let b = _mm_setr_ps(b.lower.x, b.lower.y, b.upper.x, b.upper.y);
            let apart = _mm_cmpgt_ps(_mm_movelh_ps(b, a), _mm_movehl_ps(b, a));
            _mm_movemask_ps(apart) != 0
        }
    }

    /// Whether the ray's origin and translation and the box's corners are
    /// finite (each times zero, plus its partner times zero, is not NaN) and
    /// the box's upper corner is at least its lower one on both axes: the
    /// part of [`valid_cast`](super::valid_cast) that is not `max_fraction`.
    #[inline(always)]
    pub(super) fn finite_and_ordered(b: &Aabb, input: &RayCastInput) -> bool {
        let (p, d) = (input.origin, input.translation);
        // SAFETY: as in `slabs`: SSE2 only, values only.
        unsafe {
            let ray = _mm_setr_ps(p.x, p.y, d.x, d.y);
            let corners = _mm_setr_ps(b.lower.x, b.lower.y, b.upper.x, b.upper.y);
            let zero = _mm_setzero_ps();
            let sum = _mm_add_ps(_mm_mul_ps(ray, zero), _mm_mul_ps(corners, zero));
            let not_finite = _mm_cmpunord_ps(sum, sum);
            // Lanes 0 and 1: lower ≤ upper (false for NaN).
            let ordered = _mm_cmple_ps(corners, _mm_movehl_ps(corners, corners));
            (_mm_movemask_ps(not_finite) | (!_mm_movemask_ps(ordered) & 0b11)) == 0
        }
    }
}

/// `input.is_valid() & b.is_valid()`, in fewer instructions: a number is
/// finite exactly when it times zero is zero (an infinity or a NaN gives NaN),
/// and a sum with a NaN in it is NaN, so the eight coordinates are finite
/// exactly when the sum of their products with zero is zero (in four lanes and
/// then across them; the order of the additions does not matter for that).
#[inline(always)]
fn valid_cast(b: &Aabb, input: &RayCastInput) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::finite_and_ordered(b, input) & (0.0..HUGE).contains(&input.max_fraction)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (p, d) = (input.origin, input.translation);
        let ray = [p.x, p.y, d.x, d.y];
        let corners = [b.lower.x, b.lower.y, b.upper.x, b.upper.y];
        let zero: [f32; 4] = std::array::from_fn(|i| ray[i] * 0.0 + corners[i] * 0.0);
        ((zero[0] + zero[2]) + (zero[1] + zero[3]) == 0.0)
            & (b.upper.x >= b.lower.x)
            & (b.upper.y >= b.lower.y)
            & (0.0..HUGE).contains(&input.max_fraction)
    }
}

/// The parameter interval `(enter, exit)` of the ray `p + t·d` (one coordinate)
/// inside the slab `[lo, hi]`, and the sign of the outward normal of the face it
/// enters through (−1 for `lo`, +1 for `hi`). A ray parallel to the slab (|d| below
/// `f32::EPSILON`) is inside it for all `t`, `(−MAX, MAX, 0)`, or never,
/// `(MAX, −MAX, 0)`.
#[inline]
fn slab(p: f32, d: f32, lo: f32, hi: f32) -> (f32, f32, f32) {
    if d.abs() < f32::EPSILON {
        return if lo <= p && p <= hi {
            (-f32::MAX, f32::MAX, 0.0)
        } else {
            (f32::MAX, -f32::MAX, 0.0)
        };
    }
    let inv = 1.0 / d;
    let t_lo = (lo - p) * inv;
    let t_hi = (hi - p) * inv;
    // Entering through the lower face when moving up (t_lo < t_hi).
    if t_lo > t_hi {
        (t_hi, t_lo, 1.0)
    } else {
        (t_lo, t_hi, -1.0)
    }
}

/// Returned for non-finite input: `f32::min`/`max` would otherwise let a NaN
/// corner silently drop out of the box.
const NON_FINITE: Aabb = Aabb {
    lower: Vec2::new(f32::NAN, f32::NAN),
    upper: Vec2::new(f32::NAN, f32::NAN),
};

/// The bounding box of a circle placed by `xf`, metres. Non-finite input gives a
/// box that fails [`Aabb::is_valid`].
///
/// Box2D: `b2ComputeCircleAABB`.
#[inline(always)]
pub fn compute_circle_aabb(shape: &Circle, xf: Transform) -> Aabb {
    let p = xf.apply(shape.center);
    let r = Vec2::new(shape.radius, shape.radius);
    Aabb::new(p - r, p + r)
}

/// The bounding box of a capsule placed by `xf`, metres. Non-finite input gives a
/// box that fails [`Aabb::is_valid`].
///
/// Box2D: `b2ComputeCapsuleAABB`.
#[inline(always)]
pub fn compute_capsule_aabb(shape: &Capsule, xf: Transform) -> Aabb {
    let Some((lower, upper)) = placed_bounds(shape.center1, shape.center2, xf) else {
        return NON_FINITE;
    };
    let r = Vec2::new(shape.radius, shape.radius);
    Aabb::new(lower - r, upper + r)
}

/// The bounding box of a polygon placed by `xf`, including its rounding radius,
/// metres. Non-finite input gives a box that fails [`Aabb::is_valid`].
///
/// Box2D: `b2ComputePolygonAABB`.
#[inline(always)]
pub fn compute_polygon_aabb(shape: &Polygon, xf: Transform) -> Aabb {
    let vertices = shape.vertices();
    let first = xf.apply(vertices[0]);
    let (lower, upper) = vertices[1..].iter().fold((first, first), |(lo, hi), &v| {
        let w = xf.apply(v);
        (lo.min(w), hi.max(w))
    });
    // The vertices are finite by construction; only the transform can poison them.
    if !(xf.p.is_finite() && xf.q.c.is_finite() && xf.q.s.is_finite()) {
        return NON_FINITE;
    }
    let r = Vec2::new(shape.radius, shape.radius);
    Aabb::new(lower - r, upper + r)
}

/// The bounding box of a segment placed by `xf`, metres. Non-finite input gives a
/// box that fails [`Aabb::is_valid`].
///
/// Box2D: `b2ComputeSegmentAABB`.
#[inline(always)]
pub fn compute_segment_aabb(shape: &Segment, xf: Transform) -> Aabb {
    placed_bounds(shape.point1, shape.point2, xf)
        .map_or(NON_FINITE, |(lower, upper)| Aabb::new(lower, upper))
}

/// The lower and upper corners of the box around points `a` and `b` placed by
/// `xf`; `None` when either placed point is not finite.
#[inline(always)]
fn placed_bounds(a: Vec2, b: Vec2, xf: Transform) -> Option<(Vec2, Vec2)> {
    let v1 = xf.apply(a);
    let v2 = xf.apply(b);
    (v1.is_finite() && v2.is_finite()).then(|| (v1.min(v2), v1.max(v2)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::make_rounded_box;
    use crate::math::{PI, Rot};

    /// The four-lane test says "apart" exactly when `overlaps` says no, for
    /// boxes that touch, nest, cross, lie apart on either axis, and hold
    /// NaN or infinite corners.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_four_lane_apart_test_is_not_overlaps() {
        let values = [-2.0, -1.0, 0.0, 0.5, 1.0, 3.0, f32::INFINITY, f32::NAN];
        let mut boxes = Vec::new();
        for &lx in &values {
            for &ly in &values {
                for (&ux, &uy) in values.iter().zip(values.iter().rev()) {
                    boxes.push(Aabb::new(v(lx, ly), v(ux, uy)));
                }
                boxes.push(Aabb::new(v(lx, ly), v(lx + 1.0, ly + 2.0)));
            }
        }
        let mut apart_count = 0;
        for a in &boxes {
            for b in &boxes {
                assert_eq!(sse2::apart(a, b), !a.overlaps(b), "{a:?} {b:?}");
                apart_count += usize::from(sse2::apart(a, b));
            }
        }
        // Both answers occur (the comparison is not vacuous).
        assert!(apart_count > 0 && apart_count < boxes.len() * boxes.len());
    }

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn near(a: Vec2, b: Vec2) -> bool {
        (a - b).length() < 1e-6
    }

    const BOX: Aabb = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0));

    #[test]
    fn fast_cast_validity_is_the_validity() {
        // Each number of the ray and the box an edge value (or an ordinary
        // one), the others ordinary, and random pairs of edge values.
        let e = super::super::ray::tests::EDGE_VALUES;
        let check = |x: [f32; 9]| {
            let b = Aabb::new(v(x[0], x[1]), v(x[2], x[3]));
            let input = RayCastInput::new(v(x[4], x[5]), v(x[6], x[7]), x[8]);
            assert_eq!(
                valid_cast(&b, &input),
                input.is_valid() & b.is_valid(),
                "{b:?} {input:?}"
            );
            input.is_valid() & b.is_valid()
        };
        let base = [-1.0, -1.0, 1.0, 1.0, -3.0, 0.5, 6.0, 0.1, 1.0];
        let mut seen = [0usize; 2];
        for i in 0..9 {
            for j in 0..9 {
                for &a in &e {
                    for &b in &e {
                        let mut x = base;
                        x[i] = a;
                        x[j] = b;
                        seen[check(x) as usize] += 1;
                    }
                }
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0);
    }

    #[test]
    fn diagonal_ray_enters_through_the_later_slab() {
        // x-slab: t ∈ [0.25, 0.75]; y-slab: t ∈ [0.5, 0.75]. Entry at 0.5 through
        // the bottom face, at (1, 0).
        let out = BOX.ray_cast(&RayCastInput::new(v(-1.0, -2.0), v(4.0, 4.0), 1.0));
        assert!(out.hit);
        assert!((out.fraction - 0.5).abs() < 1e-6);
        assert!(near(out.normal, v(0.0, -1.0)));
        assert!(near(out.point, v(1.0, 0.0)));
        // x-slab [0.5, 1], y-slab [0.125, 0.375]: disjoint, a miss.
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(-2.0, -0.5), v(4.0, 4.0), 1.0))
                .hit
        );
    }

    #[test]
    fn parallel_rays_inside_and_outside_the_slab() {
        let out = BOX.ray_cast(&RayCastInput::new(v(-1.0, 0.5), v(4.0, 0.0), 1.0));
        assert!(out.hit);
        assert!((out.fraction - 0.25).abs() < 1e-6);
        assert!(near(out.normal, v(-1.0, 0.0)));
        assert!(near(out.point, v(0.0, 0.5)));
        let out = BOX.ray_cast(&RayCastInput::new(v(3.0, 0.5), v(-4.0, 0.0), 1.0));
        assert!(out.hit && near(out.normal, v(1.0, 0.0)));
        let out = BOX.ray_cast(&RayCastInput::new(v(1.0, 3.0), v(0.0, -4.0), 1.0));
        assert!(out.hit && near(out.normal, v(0.0, 1.0)) && (out.fraction - 0.5).abs() < 1e-6);
        // Outside the y-slab, parallel to it.
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(-1.0, 1.5), v(4.0, 0.0), 1.0))
                .hit
        );
        // Outside the x-slab, parallel to it.
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(2.5, -1.0), v(0.0, 4.0), 1.0))
                .hit
        );
    }

    #[test]
    fn origin_inside_max_fraction_and_bad_input() {
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(1.0, 0.5), v(4.0, 0.0), 1.0))
                .hit
        );
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(-1.0, 0.5), v(4.0, 0.0), 0.24))
                .hit
        );
        assert!(
            BOX.ray_cast(&RayCastInput::new(v(-1.0, 0.5), v(4.0, 0.0), 0.25))
                .hit
        );
        // Pointing away.
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(-1.0, 0.5), v(-4.0, 0.0), 1.0))
                .hit
        );
        let inverted = Aabb::new(v(1.0, 1.0), v(0.0, 0.0));
        assert!(
            !inverted
                .ray_cast(&RayCastInput::new(v(-1.0, 0.5), v(4.0, 0.0), 1.0))
                .hit
        );
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(-1.0, f32::NAN), v(4.0, 0.0), 1.0))
                .hit
        );
        assert!(
            !BOX.ray_cast(&RayCastInput::new(v(-1.0, 0.5), v(f32::INFINITY, 0.0), 1.0))
                .hit
        );
        // Invalid boxes that the slab arithmetic alone would let this ray hit (at
        // x = 0, fraction 0.25): an infinite corner, and a NaN only in y, which the
        // y slab's comparisons silently ignore.
        let ray = RayCastInput::new(v(-1.0, 0.5), v(4.0, 0.1), 1.0);
        assert!(BOX.ray_cast(&ray).hit);
        for bad in [
            Aabb::new(v(0.0, 0.0), v(f32::INFINITY, 1.0)),
            Aabb::new(v(0.0, f32::NAN), v(1.0, 1.0)),
        ] {
            assert!(!bad.ray_cast(&ray).hit, "{bad:?}");
        }
    }

    #[test]
    fn shape_boxes_under_a_quarter_turn() {
        let xf = Transform::new(v(1.0, 0.0), Rot::from_angle(0.5 * PI));
        // (1, 2) rotated by 90° is (−2, 1); moved by (1, 0): (−1, 1).
        let c = Circle::new(v(1.0, 2.0), 0.5).unwrap();
        let a = compute_circle_aabb(&c, xf);
        assert!(near(a.lower, v(-1.5, 0.5)) && near(a.upper, v(-0.5, 1.5)));

        let cap = Capsule::new(v(0.0, 0.0), v(2.0, 0.0), 0.5).unwrap();
        let a = compute_capsule_aabb(&cap, xf);
        assert!(
            near(a.lower, v(0.5, -0.5)) && near(a.upper, v(1.5, 2.5)),
            "{a:?}"
        );

        let rb = make_rounded_box(1.0, 0.5, 0.1).unwrap();
        let a = compute_polygon_aabb(&rb, xf);
        assert!(
            near(a.lower, v(0.4, -1.1)) && near(a.upper, v(1.6, 1.1)),
            "{a:?}"
        );

        let seg = Segment::new(v(-1.0, 0.0), v(1.0, 3.0)).unwrap();
        let a = compute_segment_aabb(&seg, Transform::IDENTITY);
        assert_eq!((a.lower, a.upper), (v(-1.0, 0.0), v(1.0, 3.0)));
    }

    #[test]
    fn non_finite_input_gives_invalid_boxes() {
        let bad_xf = Transform::new(v(f32::NAN, 0.0), Rot::IDENTITY);
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        assert!(!compute_circle_aabb(&c, bad_xf).is_valid());
        let cap = Capsule {
            center1: v(f32::NAN, 0.0),
            center2: v(1.0, 0.0),
            radius: 0.5,
        };
        assert!(!compute_capsule_aabb(&cap, Transform::IDENTITY).is_valid());
        let seg = Segment {
            point1: v(0.0, 0.0),
            point2: v(f32::INFINITY, 0.0),
        };
        assert!(!compute_segment_aabb(&seg, Transform::IDENTITY).is_valid());
        let rb = make_rounded_box(1.0, 0.5, 0.1).unwrap();
        assert!(!compute_polygon_aabb(&rb, bad_xf).is_valid());
    }

    /// `Aabb::ray_cast` as it was before the two-lane form (session 20), kept
    /// here verbatim as the reference the current one must match bit for bit.
    fn slab_cast_before(b: &Aabb, input: &RayCastInput) -> CastOutput {
        let (p, d) = (input.origin, input.translation);
        let (x_enter, x_exit, x_sign) = slab(p.x, d.x, b.lower.x, b.upper.x);
        let (y_enter, y_exit, y_sign) = slab(p.y, d.y, b.lower.y, b.upper.y);
        let (t_enter, normal) = if y_enter > x_enter {
            (y_enter, Vec2::new(0.0, y_sign))
        } else {
            (x_enter, Vec2::new(x_sign, 0.0))
        };
        let t_exit = if y_exit < x_exit { y_exit } else { x_exit };
        let hit = (t_enter <= t_exit) & (t_enter >= 0.0) & (t_enter <= input.max_fraction);
        if !hit || !(input.is_valid() & b.is_valid()) {
            return CastOutput::default();
        }
        CastOutput {
            normal,
            point: Vec2::mul_add(p, t_enter, d),
            fraction: t_enter,
            iterations: 0,
            hit: true,
        }
    }

    #[test]
    fn slab_cast_matches_the_one_slab_at_a_time_form_bit_for_bit() {
        use crate::collision::ray::tests::{Lcg, SPECIAL_NUMBERS, report_bits};
        let specials = SPECIAL_NUMBERS;
        let mut rng = Lcg(0xAABB_2020);
        let mut seen = [0usize; 2];
        for case in 0..500_000 {
            let lower = v(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            let size = v(rng.range(0.0, 2.0), rng.range(0.0, 2.0));
            let mut b = Aabb::new(lower, lower + size);
            let center = b.center();
            let (mut origin, mut translation, mut max_fraction) = rng.ray_near(center, 4.0, case);
            match case % 13 {
                // Aimed at a corner, from a face's plane, along a face.
                0 => translation = rng.pick(&[b.lower, b.upper, v(b.lower.x, b.upper.y)]) - origin,
                1 => origin.x = rng.pick(&[b.lower.x, b.upper.x]),
                2 => origin.y = rng.pick(&[b.lower.y, b.upper.y]),
                3 => {
                    origin.y = rng.pick(&[b.lower.y, b.upper.y]);
                    translation.y = 0.0;
                }
                // Parallel (or nearly) to an axis.
                4 => translation.x = rng.pick(&specials[..5]),
                5 => translation.y = rng.pick(&specials[..5]),
                // From inside; zero length; a box of zero width.
                6 => origin = center,
                7 => translation = Vec2::ZERO,
                8 => b.upper.x = b.lower.x,
                // Special numbers anywhere.
                9 | 10 => {
                    let x = rng.pick(&specials);
                    match rng.next() % 9 {
                        0 => origin.x = x,
                        1 => origin.y = x,
                        2 => translation.x = x,
                        3 => translation.y = x,
                        4 => max_fraction = x,
                        5 => b.lower.x = x,
                        6 => b.lower.y = x,
                        7 => b.upper.x = x,
                        _ => b.upper.y = x,
                    }
                }
                _ => {}
            }
            let input = RayCastInput::new(origin, translation, max_fraction);
            let now = b.ray_cast(&input);
            let before = slab_cast_before(&b, &input);
            assert_eq!(
                report_bits(&now),
                report_bits(&before),
                "{b:?} {input:?}: {now:?} vs {before:?}"
            );
            seen[now.hit as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k > 50_000), "{seen:?}");
    }
}
