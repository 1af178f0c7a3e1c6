//! Ray casts against shapes and point-in-shape tests, all in the shape's local frame.
//!
//! # What a ray cast reports
//! A ray runs from `origin` to `origin + max_fraction · translation`. The result is
//! the **first** point where the ray enters the shape's surface:
//! `fraction` (in units of `translation`), the surface `point` and the outward unit
//! `normal` there.
//!
//! - **Origin inside a solid shape** (circle, capsule, polygon): reported as an
//!   *initial overlap*, exactly as Box2D v3.1+ does: `hit = true`, `fraction = 0`,
//!   `point = origin` and `normal = ZERO`. This holds even for a zero translation.
//!   For circles and capsules "inside" is strict (`distance < radius`); for a
//!   polygon without rounding, an origin on the boundary heading inwards is an
//!   overlap too.
//! - Segments have no inside: a ray starting on one passes through or hits it at
//!   fraction 0.
//! - **Zero translation** (length below `f32::EPSILON`) from outside: no hit.
//! - **Invalid input** (see [`RayCastInput::is_valid`]) or a shape with non-finite
//!   numbers: no hit, never a panic.
//!
//! # Rounded polygons
//! Box2D v3 casts rays at rounded polygons with its iterative shape cast
//! ([`shape_cast`](super::shape_cast)), which advances the ray's point until it is
//! about one linear slop *inside* the rounded surface, and reports that fraction
//! with the surface point. Here the cast is **exact**: a rounded polygon is the
//! union of its core, one rectangle of depth `radius` on each edge and a disk of
//! radius `radius` at each vertex, so from outside the first hit is the earliest
//! entry through an offset edge (within the edge's extent) or into a vertex disk.
//! Capsules are the two-vertex case of the same routine. Differential tests against
//! Box2D must allow Box2D's fraction to be *later* by up to about
//! `LINEAR_SLOP / |cos(incidence)|` (and grazing rays that hit here may miss there).
//!
//! # References
//! - E. Catto, Box2D v3 `geometry.c` (`b2RayCast*`, `b2PointIn*`).
//! - E. Haines et al., *Precision Improvements for Ray/Sphere Intersection*, Ray
//!   Tracing Gems (2019), ch. 7: the circle test works from the closest point of
//!   the ray's line to the centre to avoid cancellation.
//! - M. Cyrus, J. Beck, *Generalized two- and three-dimensional clipping* (1978):
//!   the polygon test clips the ray's interval against each edge's half-plane.

use super::geometry::{Capsule, Circle, Polygon, Segment, make_capsule_polygon};
use crate::core::{HUGE, MAX_POLYGON_VERTICES};
use crate::math::Vec2;

/// A ray from `origin` along `translation`, clipped at `max_fraction` of the
/// translation. All in the shape's local frame, metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RayCastInput {
    /// Start point, metres.
    pub origin: Vec2,
    /// The full displacement of the ray, metres; the ray ends at `origin + max_fraction·translation`.
    pub translation: Vec2,
    /// The fraction of `translation` to cast, in `[0, 1]` usually.
    pub max_fraction: f32,
}

impl RayCastInput {
    /// Makes a ray input (not checked; see [`RayCastInput::is_valid`]).
    #[inline]
    pub const fn new(origin: Vec2, translation: Vec2, max_fraction: f32) -> RayCastInput {
        RayCastInput {
            origin,
            translation,
            max_fraction,
        }
    }

    /// Whether the ray can be cast: finite origin and translation, and
    /// `0 ≤ max_fraction < HUGE`. Casts of an invalid ray report no hit.
    ///
    /// Box2D: `b2IsValidRay`.
    #[inline]
    pub fn is_valid(&self) -> bool {
        // `&` rather than `&&`: all cheap tests, one branch for the caller. The
        // range test also rejects a NaN or infinite `max_fraction`.
        self.origin.is_finite()
            & self.translation.is_finite()
            & (0.0..HUGE).contains(&self.max_fraction)
    }
}

impl RayCastInput {
    /// [`RayCastInput::is_valid`] in fewer instructions: a number is finite
    /// exactly when it times zero is zero (an infinity or a NaN gives NaN), and
    /// a sum with a NaN in it is NaN.
    #[inline(always)]
    pub(crate) fn is_valid_fast(&self) -> bool {
        let (p, d) = (self.origin, self.translation);
        ((p.x * 0.0 + d.x * 0.0) + (p.y * 0.0 + d.y * 0.0) == 0.0)
            & (0.0..HUGE).contains(&self.max_fraction)
    }
}

/// The result of a ray cast or shape cast.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CastOutput {
    /// Outward surface normal at the hit point: unit length for a hit, except an
    /// initial overlap (the cast starts inside the shape), where it is zero.
    pub normal: Vec2,
    /// Hit point, metres (the ray's origin for an initial overlap).
    pub point: Vec2,
    /// Fraction of the translation at which the hit occurs (0 for an initial overlap).
    pub fraction: f32,
    /// Iterations used (iterative casts only).
    pub iterations: u32,
    /// Whether anything was hit.
    pub hit: bool,
}

impl CastOutput {
    /// The report for a cast that starts inside the shape.
    #[inline]
    fn initial_overlap(origin: Vec2) -> CastOutput {
        CastOutput {
            point: origin,
            hit: true,
            ..CastOutput::default()
        }
    }

    #[inline]
    fn surface_hit(fraction: f32, point: Vec2, normal: Vec2) -> CastOutput {
        CastOutput {
            normal,
            point,
            fraction,
            iterations: 0,
            hit: true,
        }
    }
}

/// Whether a radius from a shape's public field is usable: finite and ≥ 0.
#[inline]
fn valid_radius(radius: f32) -> bool {
    radius.is_finite() && radius >= 0.0
}

/// Distance along the unit direction `u` at which a ray starting at `s` (relative
/// to a disk's centre) enters the disk of squared radius `rr`, if that is in
/// `[0, max_length]`. Returns `None` when the line misses the disk or the entry is
/// behind the start or beyond `max_length`.
fn disk_entry(s: Vec2, u: Vec2, rr: f32, max_length: f32) -> Option<f32> {
    // Closest point of the line to the centre, then back along the line by the
    // half-chord (Pythagoras). Working from the closest point keeps precision for
    // long rays and small disks.
    let t_closest = -s.dot(u);
    let closest = Vec2::mul_add(s, t_closest, u);
    let cc = closest.length_squared();
    if cc > rr {
        return None;
    }
    let t = t_closest - (rr - cc).sqrt();
    (0.0 <= t && t <= max_length).then_some(t)
}

/// Ray cast against a circle, in its local frame.
///
/// Returns the first entry into the shape: `fraction` of the translation, surface
/// `point` and outward unit `normal`. A ray starting strictly inside reports an
/// *initial overlap* (`hit`, `fraction = 0`, `point = origin`, `normal = ZERO`),
/// as Box2D v3.1+ does, even with a zero translation. From outside, a zero
/// translation or an invalid ray ([`RayCastInput::is_valid`]) gives no hit.
///
/// Box2D: `b2RayCastCircle`.
pub fn ray_cast_circle(input: &RayCastInput, shape: &Circle) -> CastOutput {
    if !input.is_valid() || !shape.center.is_finite() || !valid_radius(shape.radius) {
        return CastOutput::default();
    }
    let s = input.origin - shape.center;
    let rr = shape.radius * shape.radius;
    if s.length_squared() < rr {
        return CastOutput::initial_overlap(input.origin);
    }
    let (u, length) = input.translation.get_length_and_normalize();
    if length == 0.0 {
        return CastOutput::default();
    }
    let Some(t) = disk_entry(s, u, rr, input.max_fraction * length) else {
        return CastOutput::default();
    };
    let mut normal = Vec2::mul_add(s, t, u).normalize();
    if normal == Vec2::ZERO {
        // A zero-radius circle hit dead centre: face the ray.
        normal = -u;
    }
    CastOutput::surface_hit(
        t / length,
        Vec2::mul_add(shape.center, shape.radius, normal),
        normal,
    )
}

/// Ray cast against a capsule, in its local frame. Exact: the earliest entry
/// through either side or into either end cap (the two-vertex case of a rounded
/// polygon).
///
/// Returns the first entry into the shape: `fraction` of the translation, surface
/// `point` and outward unit `normal`. A ray starting strictly inside reports an
/// *initial overlap* (`hit`, `fraction = 0`, `point = origin`, `normal = ZERO`),
/// as Box2D v3.1+ does, even with a zero translation. From outside, a zero
/// translation or an invalid ray ([`RayCastInput::is_valid`]) gives no hit.
/// A capsule whose centres coincide is cast as a circle.
///
/// Box2D: `b2RayCastCapsule`.
pub fn ray_cast_capsule(input: &RayCastInput, shape: &Capsule) -> CastOutput {
    if !input.is_valid()
        || !shape.center1.is_finite()
        || !shape.center2.is_finite()
        || !valid_radius(shape.radius)
    {
        return CastOutput::default();
    }
    if shape.center1.distance_squared(shape.center2) < f32::EPSILON * f32::EPSILON {
        return ray_cast_circle(
            input,
            &Circle {
                center: shape.center1,
                radius: shape.radius,
            },
        );
    }
    let polygon = make_capsule_polygon(shape);
    ray_cast_rounded(input, &polygon)
}

/// Ray cast against a segment. With `one_sided`, a ray whose origin is on the
/// segment's left side (looking from `point1` to `point2`) is ignored: only the
/// right side, where chain segments face outwards, can be hit.
///
/// The normal faces the ray's origin. A ray parallel to the segment never hits it.
///
/// Box2D: `b2RayCastSegment`.
pub fn ray_cast_segment(input: &RayCastInput, shape: &Segment, one_sided: bool) -> CastOutput {
    let miss = CastOutput::default();
    if !input.is_valid() || !shape.point1.is_finite() || !shape.point2.is_finite() {
        return miss;
    }
    let origin = input.origin;
    let d = input.translation;
    let v1 = shape.point1;
    let (axis, length) = (shape.point2 - v1).get_length_and_normalize();
    if length == 0.0 {
        return miss;
    }
    if one_sided && (origin - v1).cross(axis) < 0.0 {
        return miss;
    }
    // The segment's line is {p : n·(p − v1) = 0}; solve along the ray.
    let right = axis.right_perp();
    let height = right.dot(origin - v1);
    let approach = right.dot(d);
    if approach == 0.0 {
        return miss;
    }
    let t = -height / approach;
    if !(0.0 <= t && t <= input.max_fraction) {
        return miss;
    }
    let point = Vec2::mul_add(origin, t, d);
    let along = (point - v1).dot(axis);
    if !(0.0 <= along && along <= length) {
        return miss;
    }
    let normal = if height < 0.0 { -right } else { right };
    CastOutput::surface_hit(t, point, normal)
}

/// Ray cast against a convex polygon, rounded or not, in its local frame.
///
/// Returns the first entry into the polygon: `fraction` of the translation,
/// surface `point` and the outward unit `normal`. A ray starting inside reports an
/// *initial overlap* (`hit`, `fraction = 0`, `point = origin`, `normal = ZERO`), as
/// Box2D v3.1+ does; for a polygon without rounding an origin on the boundary
/// counts as inside, for a rounded one "inside" is strict. From outside, a zero
/// translation or an invalid ray ([`RayCastInput::is_valid`]) gives no hit.
///
/// Rounded polygons are cast **exactly**, as the union of the core, a rectangle of
/// depth `radius` on each edge and a disk at each vertex. (Box2D v3 uses its
/// iterative shape cast here, which advances until the ray is about one linear
/// slop inside the surface, so its fraction is later by up to about
/// `LINEAR_SLOP / |cos(incidence)|`.)
///
/// Box2D: `b2RayCastPolygon`.
pub fn ray_cast_polygon(input: &RayCastInput, shape: &Polygon) -> CastOutput {
    // Every way out is a tail call or a few instructions, so that the common
    // paths need no stack frame.
    if shape.radius > 0.0 {
        return cast_rounded_checked(input, shape);
    }
    #[cfg(target_arch = "x86_64")]
    if shape.count <= 4 {
        match avx2::detected() {
            // SAFETY: `detected` found AVX2 (and so AVX) on this CPU.
            #[allow(unsafe_code)]
            Some(true) => return unsafe { avx2::cast(input, shape) },
            Some(false) => {}
            None => return avx2::detect_then_cast(input, shape),
        }
    }
    cast_sharp(input, shape)
}

/// [`ray_cast_rounded`] for a valid ray; no hit for an invalid one.
#[inline(never)]
fn cast_rounded_checked(input: &RayCastInput, shape: &Polygon) -> CastOutput {
    if !input.is_valid() {
        return CastOutput::default();
    }
    ray_cast_rounded(input, shape)
}

/// [`ray_cast_polygon`] for a sharp polygon, clipping edge by edge.
#[inline(always)]
fn cast_sharp(input: &RayCastInput, shape: &Polygon) -> CastOutput {
    // The ray's validity is checked only where a hit is reported: an invalid ray
    // cannot make the clipping panic, and a miss is its answer anyway.
    let mut clip = Clip {
        lower: 0.0,
        upper: input.max_fraction,
        entry_edge: None,
    };
    if clip_sharp(input, shape, &mut clip).is_err() || !input.is_valid_fast() {
        return CastOutput::default();
    }
    sharp_report(input, shape, clip.lower, clip.entry_edge)
}

/// [`cast_sharp`] out of line, for the cases the AVX2 form leaves to it.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
#[cold]
fn cast_sharp_out_of_line(input: &RayCastInput, shape: &Polygon) -> CastOutput {
    cast_sharp(input, shape)
}

/// The report of a sharp polygon cast of a valid ray whose clipped interval is
/// not empty: it starts at `lower`, entering through `entry_edge` (`None`: the
/// origin is inside every edge's half-plane).
#[inline(always)]
fn sharp_report(
    input: &RayCastInput,
    shape: &Polygon,
    lower: f32,
    entry_edge: Option<usize>,
) -> CastOutput {
    match entry_edge {
        Some(i) => CastOutput::surface_hit(
            lower,
            Vec2::mul_add(input.origin, lower, input.translation),
            shape.normals[i],
        ),
        // Never entered a half-plane: the origin is inside all of them.
        None => CastOutput::initial_overlap(input.origin),
    }
}

/// The ray's parameter interval `[lower, upper]` inside the half-planes of the
/// edges clipped so far, and the edge through which it last moved `lower`.
struct Clip {
    lower: f32,
    upper: f32,
    entry_edge: Option<usize>,
}

/// The interval is empty: the ray misses.
struct Miss;

impl Clip {
    /// Clips the interval against edge `i`'s half-plane, given how far the ray's
    /// origin is inside it (`depth`, negative outside) and the rate at which the
    /// ray leaves it (`approach`, the edge normal · translation): the crossing is
    /// at `t = depth / approach`. The comparisons with `lower` and `upper` are
    /// made multiplied out (flipping for a negative `approach`), so that only a
    /// crossing that moves a bound costs a division. The interval can only
    /// become empty when a bound moves.
    #[inline(always)]
    fn edge(&mut self, i: usize, depth: f32, approach: f32) -> Result<(), Miss> {
        // The bound this edge can move: `lower` if the ray enters its
        // half-plane, else `upper`. For a parallel ray (`approach` ±0) and a
        // valid one (finite `upper`) the test is `depth < ±0`: outside the
        // edge, a miss. (An invalid ray can take other turns here than in the
        // form that tests the sign first, but its answer is a miss either way.)
        let bound = if approach < 0.0 {
            self.lower
        } else {
            self.upper
        };
        if depth < bound * approach {
            if approach < 0.0 {
                // Entering this half-plane.
                self.lower = depth / approach;
                self.entry_edge = Some(i);
            } else if approach > 0.0 {
                // Leaving this half-plane.
                self.upper = depth / approach;
            } else {
                // Parallel to the edge and outside it.
                return Err(Miss);
            }
            if self.upper < self.lower {
                return Err(Miss);
            }
        }
        Ok(())
    }
}

/// Clips the ray's interval against each edge's half-plane of the sharp polygon
/// `shape`, in order (the reference form: one edge at a time).
///
/// Everything is relative to the first vertex, since the polygon may be far from
/// the origin of its frame: edge `i`'s depth is `n_i · ((v_i − v_0) − (origin − v_0))`.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn clip_sharp_scalar(input: &RayCastInput, shape: &Polygon, clip: &mut Clip) -> Result<(), Miss> {
    let base = shape.vertices[0];
    let origin = input.origin - base;
    let d = input.translation;
    for (i, (n, v)) in shape.normals().iter().zip(shape.vertices()).enumerate() {
        clip.edge(i, n.dot(*v - base - origin), n.dot(d))?;
    }
    Ok(())
}

/// [`clip_sharp_scalar`] with the depths and approaches of two edges computed at
/// once in the four lanes of one SSE2 register (x86-64's baseline): the same
/// operations on the same numbers, so the same bits, in about half the
/// instructions per edge. (An odd count computes one unused slot of the
/// fixed-size arrays; its numbers are never looked at.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn clip_sharp(input: &RayCastInput, shape: &Polygon, clip: &mut Clip) -> Result<(), Miss> {
    let base = shape.vertices[0];
    let origin = input.origin - base;
    let d = input.translation;
    let count = shape.count;
    for k in 0..MAX_POLYGON_VERTICES / 2 {
        let i = 2 * k;
        if i >= count {
            break;
        }
        let (v0, v1) = (shape.vertices[i], shape.vertices[i + 1]);
        let (n0, n1) = (shape.normals[i], shape.normals[i + 1]);
        let [depth0, depth1, approach0, approach1] = sse2::two_edges(
            [v0.x, v0.y, v1.x, v1.y],
            [n0.x, n0.y, n1.x, n1.y],
            [base.x, base.y],
            [origin.x, origin.y],
            [d.x, d.y],
        );
        clip.edge(i, depth0, approach0)?;
        if i + 1 < count {
            clip.edge(i + 1, depth1, approach1)?;
        }
    }
    Ok(())
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::{
        __m128, _mm_add_ps, _mm_mul_ps, _mm_setr_ps, _mm_shuffle_ps, _mm_sub_ps,
    };

    /// For the edges `[v0, v1]` (`v`, as x0 y0 x1 y1) with normals `n`:
    /// `[n0·((v0 − b) − o), n1·((v1 − b) − o), n0·d, n1·d]`, each dot product
    /// `x·x′ + y·y′` as `Vec2::dot` computes it.
    #[inline(always)]
    pub(super) fn two_edges(
        v: [f32; 4],
        n: [f32; 4],
        b: [f32; 2],
        o: [f32; 2],
        d: [f32; 2],
    ) -> [f32; 4] {
        // SAFETY: these intrinsics need only SSE2, which every x86-64 CPU has (it
        // is in the target's baseline features); they compute on values, with no
        // memory access.
        unsafe {
            let v = _mm_setr_ps(v[0], v[1], v[2], v[3]);
            let n = _mm_setr_ps(n[0], n[1], n[2], n[3]);
            let b = _mm_setr_ps(b[0], b[1], b[0], b[1]);
            let o = _mm_setr_ps(o[0], o[1], o[0], o[1]);
            let d = _mm_setr_ps(d[0], d[1], d[0], d[1]);
            let p = _mm_mul_ps(n, _mm_sub_ps(_mm_sub_ps(v, b), o));
            let q = _mm_mul_ps(n, d);
            // [x terms of p and q] + [their y terms].
            let x_terms = _mm_shuffle_ps::<0b10_00_10_00>(p, q);
            let y_terms = _mm_shuffle_ps::<0b11_01_11_01>(p, q);
            std::mem::transmute::<__m128, [f32; 4]>(_mm_add_ps(x_terms, y_terms))
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
use clip_sharp_scalar as clip_sharp;

/// The sharp polygon's clipping for up to four edges with no branch on the
/// data, in the eight lanes of AVX2 registers, exact to the edge-by-edge form.
///
/// The edge-by-edge clip moves `lower` to an entering edge's crossing
/// `t = depth / approach` when `depth < lower · approach`, and `upper` to a
/// leaving edge's crossing when `depth < upper · approach`. Those multiplied
/// tests are the division's comparisons `t > lower` and `t < upper` up to
/// rounding, so the interval it ends with is, but for crossings within an ulp
/// of a bound, the largest entering crossing (at least 0) and the smallest
/// leaving one (at most `max_fraction`). This form computes those as running
/// maxima and minima over the edges in order (prefix scans), then checks,
/// edge by edge, that the multiplied test against the running bound before
/// the edge gives what the scan assumed. If every edge agrees, the running
/// bounds are by induction the bounds the edge-by-edge clip holds after each
/// edge, so its answer (miss, entry edge, `lower`) is this one, bit for bit;
/// otherwise it runs the edge-by-edge clip.
///
/// Lanes 0–3 hold the entering side (edges 0–3 and `lower`), lanes 4–7 the
/// leaving side negated (`−upper`, `−t`, `−approach`: negation is exact, and
/// `(−u)·(−a) = u·a`), so one max-scan serves both. An edge is entering when
/// its approach's sign bit is set: an approach of −0 then divides to ±∞ and,
/// exactly when the edge-by-edge clip reports a parallel ray outside the edge
/// (`depth < 0`), moves `lower` to +∞ (or `upper` to −∞ for +0), which empties
/// the interval.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use super::{
        CastOutput, HUGE, Polygon, RayCastInput, Vec2, cast_sharp_out_of_line, sharp_report,
    };
    use std::arch::x86_64::{
        __m256, _CMP_LT_OQ, _mm_cmpunord_ps, _mm_cvtss_f32, _mm_movemask_ps, _mm_mul_ps,
        _mm_permute_ps, _mm_setr_ps, _mm_setzero_ps, _mm256_add_ps, _mm256_and_ps, _mm256_blend_ps,
        _mm256_blendv_ps, _mm256_castps_si256, _mm256_castps256_ps128, _mm256_castsi256_ps,
        _mm256_cmp_ps, _mm256_cmpgt_epi32, _mm256_div_ps, _mm256_extractf128_ps, _mm256_loadu_ps,
        _mm256_max_ps, _mm256_movemask_ps, _mm256_mul_ps, _mm256_permute_ps,
        _mm256_permutevar8x32_ps, _mm256_set1_epi32, _mm256_set1_ps, _mm256_setr_epi32,
        _mm256_setr_ps, _mm256_shuffle_ps, _mm256_slli_si256, _mm256_sub_ps, _mm256_xor_ps,
    };
    use std::mem::offset_of;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Whether this CPU runs [`cast`] (AVX2, which implies AVX):
    /// 0 not known yet, 1 yes, 2 no.
    static AVX2: AtomicU8 = AtomicU8::new(0);

    /// Whether this CPU runs [`cast`], once [`detect_then_cast`]
    /// has found out (`None` before).
    #[inline(always)]
    pub(super) fn detected() -> Option<bool> {
        match AVX2.load(Ordering::Relaxed) {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        }
    }

    /// Finds out whether this CPU has AVX2, then casts. (Out of line, so that
    /// the caller's common paths need no stack frame.)
    #[cold]
    #[inline(never)]
    pub(super) fn detect_then_cast(input: &RayCastInput, shape: &Polygon) -> CastOutput {
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        AVX2.store(if avx2 { 1 } else { 2 }, Ordering::Relaxed);
        super::ray_cast_polygon(input, shape)
    }

    // `Vec2` is two `f32`s, x then y: the loads below read four of them as
    // eight `f32`s.
    const _: () =
        assert!(size_of::<Vec2>() == 8 && offset_of!(Vec2, x) == 0 && offset_of!(Vec2, y) == 4);

    /// How many casts the scan could not prove (tests only).
    #[cfg(test)]
    pub(super) static UNPROVEN: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    /// [`ray_cast_polygon`](super::ray_cast_polygon) for a sharp polygon of
    /// at most four edges (`shape.count ≤ 4`), clipping as the module describes.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`detected`]).
    #[target_feature(enable = "avx,avx2")]
    pub(super) unsafe fn cast(input: &RayCastInput, shape: &Polygon) -> CastOutput {
        debug_assert!(shape.count <= 4);
        let pair = |a: f32, b: f32| _mm256_setr_ps(a, b, a, b, a, b, a, b);
        let (base, o, d) = (shape.vertices[0], input.origin, input.translation);
        let base = pair(base.x, base.y);
        let ray = Ray {
            origin: _mm256_sub_ps(pair(o.x, o.y), base),
            base,
            translation: pair(d.x, d.y),
        };
        // Each side's starting bound: lower = 0, −upper = −max_fraction.
        let start = _mm256_and_ps(
            _mm256_set1_ps(-input.max_fraction),
            _mm256_castsi256_ps(_mm256_setr_epi32(0, 0, 0, 0, -1, -1, -1, -1)),
        );
        let (after, disagree, entered) = four_edges(shape, &ray, start);
        if disagree != 0 {
            #[cfg(test)]
            UNPROVEN.fetch_add(1, Ordering::Relaxed);
            return cast_sharp_out_of_line(input, shape);
        }
        // The bounds after the last edge: lane 3 (lower) and lane 7 (−upper).
        let lower = _mm_cvtss_f32(_mm_permute_ps::<0b11_11_11_11>(_mm256_castps256_ps128(
            after,
        )));
        let neg_upper = _mm_cvtss_f32(_mm_permute_ps::<0b11_11_11_11>(_mm256_extractf128_ps::<1>(
            after,
        )));
        // No hit for an invalid ray either (`RayCastInput::is_valid`: a
        // coordinate times 0 is NaN exactly when it is not finite).
        let ray = _mm_setr_ps(o.x, o.y, d.x, d.y);
        let times_zero = _mm_mul_ps(ray, _mm_setzero_ps());
        let finite = _mm_movemask_ps(_mm_cmpunord_ps(times_zero, times_zero)) == 0;
        if -neg_upper < lower || !(finite & (0.0..HUGE).contains(&input.max_fraction)) {
            return CastOutput::default();
        }
        // The entry edge: the last entering edge that moved `lower`.
        let entry_edge = (entered != 0).then(|| 31 - entered.leading_zeros() as usize);
        sharp_report(input, shape, lower, entry_edge)
    }

    /// The ray, as pairs `x y` repeated across a register: the origin and the
    /// translation, and the polygon's first vertex, which the origin is
    /// relative to.
    struct Ray {
        origin: __m256,
        base: __m256,
        translation: __m256,
    }

    /// The first four edges (those below `shape.count`) of the clip, from the
    /// bounds `start` (`[lower ×4 | −upper ×4]`): the bounds after each edge
    /// (`[lower after edge k | −upper after edge k]`), the edges whose
    /// multiplied test disagrees with the scan (bits 0–7: entering side, then
    /// leaving side), and the entering edges that moved `lower` (bits 0–3).
    #[target_feature(enable = "avx,avx2")]
    #[inline]
    fn four_edges(shape: &Polygon, ray: &Ray, start: __m256) -> (__m256, i32, i32) {
        // SAFETY: each array holds eight `Vec2`s, so its first four are 32
        // readable bytes, eight `f32`s (the `const` check above); `loadu`
        // needs no alignment.
        let (v, n) = unsafe {
            (
                _mm256_loadu_ps(shape.vertices.as_ptr().cast()),
                _mm256_loadu_ps(shape.normals.as_ptr().cast()),
            )
        };
        // Per edge, the x and y terms of n·((v − v0) − (origin − v0)) and n·d,
        // added x + y as `Vec2::dot` adds them: [depth0 depth1 app0 app1 | depth2 depth3 app2 app3].
        let p = _mm256_mul_ps(n, _mm256_sub_ps(_mm256_sub_ps(v, ray.base), ray.origin));
        let q = _mm256_mul_ps(n, ray.translation);
        let h = _mm256_add_ps(
            _mm256_shuffle_ps::<0b10_00_10_00>(p, q),
            _mm256_shuffle_ps::<0b11_01_11_01>(p, q),
        );
        // The four depths twice; the four approaches, then negated.
        let depth = _mm256_permutevar8x32_ps(h, _mm256_setr_epi32(0, 1, 4, 5, 0, 1, 4, 5));
        let approach = _mm256_xor_ps(
            _mm256_permutevar8x32_ps(h, _mm256_setr_epi32(2, 3, 6, 7, 2, 3, 6, 7)),
            _mm256_setr_ps(0.0, 0.0, 0.0, 0.0, -0.0, -0.0, -0.0, -0.0),
        );
        let t = _mm256_div_ps(depth, approach);
        // The lanes that move their side's bound: edges that exist, with the
        // approach's sign bit set (only the sign bits of `moves` are used).
        let count = _mm256_set1_epi32(shape.count as i32);
        let exists = _mm256_cmpgt_epi32(count, _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3));
        let moves = _mm256_and_ps(approach, _mm256_castsi256_ps(exists));
        // The crossings that can move a bound, the others replaced by the
        // start (also a NaN crossing: `max` returns its second operand then).
        let w = _mm256_max_ps(_mm256_blendv_ps(start, t, moves), start);
        // The bound before each edge: the running max of the start and the
        // crossings of the edges before it (an exclusive prefix scan: shift in
        // the start, then two doubling steps).
        let shifted = _mm256_castsi256_ps(_mm256_slli_si256::<4>(_mm256_castps_si256(w)));
        let before = _mm256_blend_ps::<0b0001_0001>(shifted, start);
        let before = _mm256_max_ps(before, _mm256_permute_ps::<0b10_01_00_00>(before));
        let before = _mm256_max_ps(before, _mm256_permute_ps::<0b01_00_01_00>(before));
        // Every moving edge must take the multiplied test's turn.
        let multiplied = _mm256_cmp_ps::<_CMP_LT_OQ>(depth, _mm256_mul_ps(before, approach));
        let divided = _mm256_cmp_ps::<_CMP_LT_OQ>(before, t);
        let disagree = _mm256_movemask_ps(_mm256_and_ps(_mm256_xor_ps(multiplied, divided), moves));
        let entered = _mm256_movemask_ps(_mm256_and_ps(divided, moves)) & 0b1111;
        (_mm256_max_ps(w, before), disagree, entered)
    }
}

/// Exact ray cast against a rounded convex polygon (or a capsule as a two-vertex
/// polygon): the earliest entry through an offset edge or into a vertex disk.
fn ray_cast_rounded(input: &RayCastInput, shape: &Polygon) -> CastOutput {
    let n = shape.count;
    let radius = shape.radius;
    let rr = radius * radius;
    let base = shape.vertices[0];
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (rel, &v) in vertices.iter_mut().zip(shape.vertices()) {
        *rel = v - base;
    }
    let vertices = &vertices[..n];
    let normals = &shape.normals[..n];
    let origin = input.origin - base;

    if core_distance_squared(vertices, normals, origin) < rr {
        return CastOutput::initial_overlap(input.origin);
    }
    let (u, length) = input.translation.get_length_and_normalize();
    if length == 0.0 {
        return CastOutput::default();
    }
    let max_length = input.max_fraction * length;

    // (distance along u, surface point relative to base, normal)
    let mut best: Option<(f32, Vec2, Vec2)> = None;
    for i in 0..n {
        let a = vertices[i];
        let b = vertices[(i + 1) % n];
        let normal = normals[i];
        let approach = normal.dot(u);
        if approach >= 0.0 {
            continue;
        }
        // Height of the origin above the offset edge; the ray can only enter
        // through it from above.
        let height = normal.dot(origin - a) - radius;
        if height < 0.0 {
            continue;
        }
        let t = height / -approach;
        if t > max_length || best.is_some_and(|(t_best, _, _)| t >= t_best) {
            continue;
        }
        let edge = b - a;
        let s = (Vec2::mul_add(origin, t, u) - a).dot(edge) / edge.length_squared();
        if !(0.0..=1.0).contains(&s) {
            continue;
        }
        let point = Vec2::mul_add(a.lerp(b, s), radius, normal);
        best = Some((t, point, normal));
    }
    if radius > 0.0 {
        for &v in vertices {
            let s = origin - v;
            let limit = best.map_or(max_length, |(t_best, _, _)| t_best);
            if let Some(t) = disk_entry(s, u, rr, limit) {
                if best.is_some_and(|(t_best, _, _)| t >= t_best) {
                    continue;
                }
                let normal = Vec2::mul_add(s, t, u).normalize();
                best = Some((t, Vec2::mul_add(v, radius, normal), normal));
            }
        }
    }
    match best {
        Some((t, point, normal)) => CastOutput::surface_hit(t / length, point + base, normal),
        None => CastOutput::default(),
    }
}

/// Squared distance from `p` to the solid convex polygon `vertices` (with outward
/// edge `normals`), zero inside. A two-vertex polygon is a segment.
fn core_distance_squared(vertices: &[Vec2], normals: &[Vec2], p: Vec2) -> f32 {
    let n = vertices.len();
    if n >= 3
        && vertices
            .iter()
            .zip(normals)
            .all(|(&v, &normal)| normal.dot(p - v) <= 0.0)
    {
        return 0.0;
    }
    let mut best = f32::INFINITY;
    for i in 0..n {
        best = best.min(segment_distance_squared(
            vertices[i],
            vertices[(i + 1) % n],
            p,
        ));
    }
    best
}

/// Squared distance from `p` to the segment `a–b`.
fn segment_distance_squared(a: Vec2, b: Vec2, p: Vec2) -> f32 {
    let e = b - a;
    let ee = e.length_squared();
    let t = if ee > 0.0 {
        ((p - a).dot(e) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance_squared(Vec2::mul_add(a, t, e))
}

/// Whether `point` is inside the circle or on its boundary (local frame, metres).
/// Non-finite input gives `false`.
///
/// Box2D: `b2PointInCircle`.
pub fn point_in_circle(point: Vec2, shape: &Circle) -> bool {
    point.is_finite() && point.distance_squared(shape.center) <= shape.radius * shape.radius
}

/// Whether `point` is inside the capsule or on its boundary (local frame, metres).
/// Non-finite input gives `false`.
///
/// Box2D: `b2PointInCapsule`.
pub fn point_in_capsule(point: Vec2, shape: &Capsule) -> bool {
    point.is_finite()
        && segment_distance_squared(shape.center1, shape.center2, point)
            <= shape.radius * shape.radius
}

/// Whether `point` is inside the polygon, including its rounding, or on its
/// boundary (local frame, metres): its distance to the core polygon is at most
/// the radius. Non-finite input gives `false`.
///
/// Box2D: `b2PointInPolygon`.
pub fn point_in_polygon(point: Vec2, shape: &Polygon) -> bool {
    if !point.is_finite() {
        return false;
    }
    let n = shape.count;
    core_distance_squared(&shape.vertices[..n], &shape.normals[..n], point)
        <= shape.radius * shape.radius
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::collision::{Aabb, make_box, make_offset_box, make_rounded_box};
    use crate::math::Rot;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn ray(origin: Vec2, translation: Vec2) -> RayCastInput {
        RayCastInput::new(origin, translation, 1.0)
    }

    fn near(a: Vec2, b: Vec2, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    #[test]
    fn circle_head_on_and_oblique() {
        let c = Circle::new(v(2.0, 1.0), 0.5).unwrap();
        // From (0,1) along +x by 4: enters at x = 1.5, fraction 1.5/4.
        let out = ray_cast_circle(&ray(v(0.0, 1.0), v(4.0, 0.0)), &c);
        assert!(out.hit);
        assert!((out.fraction - 0.375).abs() < 1e-6);
        assert!(near(out.point, v(1.5, 1.0), 1e-6));
        assert!(near(out.normal, v(-1.0, 0.0), 1e-6));
        // Offset by 0.3 in y: half-chord 0.4, enters at x = 2 − 0.4.
        let out = ray_cast_circle(&ray(v(0.0, 1.3), v(4.0, 0.0)), &c);
        assert!(out.hit);
        assert!((out.fraction - 1.6 / 4.0).abs() < 1e-6);
        assert!(near(out.point, v(1.6, 1.3), 1e-6));
        assert!(near(out.normal, v(-0.8, 0.6), 1e-6));
        // Miss above, too short, pointing away.
        assert!(!ray_cast_circle(&ray(v(0.0, 1.6), v(4.0, 0.0)), &c).hit);
        assert!(!ray_cast_circle(&ray(v(0.0, 1.0), v(1.4, 0.0)), &c).hit);
        assert!(!ray_cast_circle(&ray(v(0.0, 1.0), v(-4.0, 0.0)), &c).hit);
        // max_fraction clips: the hit is at 0.375.
        let clipped = RayCastInput::new(v(0.0, 1.0), v(4.0, 0.0), 0.37);
        assert!(!ray_cast_circle(&clipped, &c).hit);
    }

    #[test]
    fn starting_inside_is_an_initial_overlap() {
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        for t in [v(5.0, 0.0), Vec2::ZERO] {
            let out = ray_cast_circle(&ray(v(0.2, 0.1), t), &c);
            assert!(out.hit);
            assert_eq!(out.fraction, 0.0);
            assert_eq!(out.normal, Vec2::ZERO);
            assert_eq!(out.point, v(0.2, 0.1));
        }
        let cap = Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap();
        let out = ray_cast_capsule(&ray(v(0.9, 0.4), v(0.0, 3.0)), &cap);
        assert!(out.hit && out.fraction == 0.0 && out.normal == Vec2::ZERO);
        let b = make_box(1.0, 1.0).unwrap();
        let out = ray_cast_polygon(&ray(v(0.5, -0.5), v(3.0, 1.0)), &b);
        assert!(out.hit && out.fraction == 0.0 && out.normal == Vec2::ZERO);
        let rb = make_rounded_box(1.0, 1.0, 0.5).unwrap();
        let out = ray_cast_polygon(&ray(v(1.3, 1.3), v(3.0, 1.0)), &rb);
        assert!(out.hit && out.fraction == 0.0 && out.normal == Vec2::ZERO);
        // Zero translation from outside: no hit.
        assert!(!ray_cast_circle(&ray(v(2.0, 0.0), Vec2::ZERO), &c).hit);
        assert!(!ray_cast_polygon(&ray(v(2.0, 0.0), Vec2::ZERO), &b).hit);
        assert!(!ray_cast_polygon(&ray(v(1.4, 1.4), Vec2::ZERO), &rb).hit);
    }

    #[test]
    fn capsule_side_and_caps() {
        let cap = Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap();
        // Straight down onto the side: hits y = 0.5 at fraction (2 − 0.5)/4.
        let out = ray_cast_capsule(&ray(v(0.3, 2.0), v(0.0, -4.0)), &cap);
        assert!(out.hit);
        assert!((out.fraction - 0.375).abs() < 1e-6);
        assert!(near(out.point, v(0.3, 0.5), 1e-6));
        assert!(near(out.normal, v(0.0, 1.0), 1e-6));
        // From below.
        let out = ray_cast_capsule(&ray(v(0.3, -2.0), v(0.0, 4.0)), &cap);
        assert!(near(out.normal, v(0.0, -1.0), 1e-6));
        // Along the axis into the right cap: hits x = 1.5.
        let out = ray_cast_capsule(&ray(v(3.0, 0.0), v(-4.0, 0.0)), &cap);
        assert!(out.hit);
        assert!((out.fraction - 0.375).abs() < 1e-6);
        assert!(near(out.normal, v(1.0, 0.0), 1e-6));
        // Down onto the left cap at x = −1.3: cap surface y = √(0.25 − 0.09) = 0.4.
        let out = ray_cast_capsule(&ray(v(-1.3, 2.0), v(0.0, -4.0)), &cap);
        assert!(out.hit);
        assert!(near(out.point, v(-1.3, 0.4), 1e-5));
        assert!(near(out.normal, v(-0.6, 0.8), 1e-5));
        // Parallel outside, and past the cap.
        assert!(!ray_cast_capsule(&ray(v(-3.0, 0.6), v(6.0, 0.0)), &cap).hit);
        assert!(!ray_cast_capsule(&ray(v(-1.6, 2.0), v(0.0, -4.0)), &cap).hit);
    }

    #[test]
    fn segment_two_and_one_sided() {
        let seg = Segment::new(v(-1.0, 0.0), v(1.0, 0.0)).unwrap();
        // From above (left of point1 → point2).
        let down = ray(v(0.5, 1.0), v(0.0, -2.0));
        let out = ray_cast_segment(&down, &seg, false);
        assert!(out.hit);
        assert!((out.fraction - 0.5).abs() < 1e-6);
        assert!(near(out.point, v(0.5, 0.0), 1e-6));
        assert!(near(out.normal, v(0.0, 1.0), 1e-6));
        assert!(!ray_cast_segment(&down, &seg, true).hit);
        // From below (the right side): both modes hit, normal faces down.
        let up = ray(v(0.5, -1.0), v(0.0, 2.0));
        for one_sided in [false, true] {
            let out = ray_cast_segment(&up, &seg, one_sided);
            assert!(out.hit);
            assert!(near(out.normal, v(0.0, -1.0), 1e-6));
        }
        // Beyond the ends, parallel, too short.
        assert!(!ray_cast_segment(&ray(v(1.5, 1.0), v(0.0, -2.0)), &seg, false).hit);
        assert!(!ray_cast_segment(&ray(v(-2.0, 0.0), v(4.0, 0.0)), &seg, false).hit);
        assert!(!ray_cast_segment(&ray(v(0.5, 1.0), v(0.0, -0.9)), &seg, false).hit);
    }

    #[test]
    fn box_faces_and_max_fraction() {
        let b = make_offset_box(1.0, 0.5, v(3.0, 0.0), Rot::IDENTITY).unwrap();
        let out = ray_cast_polygon(&ray(v(0.0, 0.2), v(4.0, 0.0)), &b);
        assert!(out.hit);
        assert!((out.fraction - 0.5).abs() < 1e-6);
        assert!(near(out.point, v(2.0, 0.2), 1e-6));
        assert!(near(out.normal, v(-1.0, 0.0), 1e-6));
        let short = RayCastInput::new(v(0.0, 0.2), v(4.0, 0.0), 0.49);
        assert!(!ray_cast_polygon(&short, &b).hit);
        // Parallel to the top face, just above it.
        assert!(!ray_cast_polygon(&ray(v(0.0, 0.51), v(8.0, 0.0)), &b).hit);
    }

    #[test]
    fn rounded_box_corner_hit_matches_the_corner_circle() {
        // Core box half-extents 1 × 1, radius 0.5. A ray along −x at y = 1.3 is
        // above the straight right face (|y| ≤ 1), so it meets the top-right
        // corner circle, centre (1, 1): x = 1 + √(0.5² − 0.3²) = 1.4.
        let rb = make_rounded_box(1.0, 1.0, 0.5).unwrap();
        let out = ray_cast_polygon(&ray(v(3.0, 1.3), v(-4.0, 0.0)), &rb);
        assert!(out.hit);
        assert!((out.fraction - 1.6 / 4.0).abs() < 1e-6, "{}", out.fraction);
        assert!(near(out.point, v(1.4, 1.3), 1e-6));
        assert!(near(out.normal, v(0.8, 0.6), 1e-6));
        // Diagonal into the corner: hits at (1, 1) + 0.5 (1, 1)/√2.
        let out = ray_cast_polygon(&ray(v(3.0, 3.0), v(-2.0, -2.0)), &rb);
        let h = 0.5 / 2.0f32.sqrt();
        assert!(out.hit);
        assert!(near(out.point, v(1.0 + h, 1.0 + h), 1e-5));
        assert!((out.fraction - (2.0 - h) / 2.0).abs() < 1e-5);
        // On the straight part: the face is at x = 1.5.
        let out = ray_cast_polygon(&ray(v(3.0, 0.2), v(-4.0, 0.0)), &rb);
        assert!((out.fraction - 0.375).abs() < 1e-6);
        assert!(near(out.normal, v(1.0, 0.0), 1e-6));
        // The line x + y = 2.8 passes (1.4, 1.4), inside the mitred box, but
        // stays 0.8/√2 ≈ 0.566 > 0.5 from the corner centre, and meets the
        // straight faces' lines outside their extents: no hit.
        assert!(!ray_cast_polygon(&ray(v(3.0, -0.2), v(-3.0, 3.0)), &rb).hit);
    }

    #[test]
    fn invalid_rays_miss() {
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        let b = make_box(1.0, 1.0).unwrap();
        let seg = Segment::new(v(-1.0, 0.0), v(1.0, 0.0)).unwrap();
        let cap = Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap();
        let aabb = Aabb::new(v(-1.0, -1.0), v(1.0, 1.0));
        let bad = [
            RayCastInput::new(v(f32::NAN, 0.0), v(1.0, 0.0), 1.0),
            RayCastInput::new(v(-3.0, 0.0), v(f32::INFINITY, 0.0), 1.0),
            RayCastInput::new(v(-3.0, 0.0), v(6.0, 0.0), f32::NAN),
            RayCastInput::new(v(-3.0, 0.0), v(6.0, 0.0), -1.0),
            RayCastInput::new(v(-3.0, 0.0), v(6.0, 0.0), f32::INFINITY),
            // Beyond HUGE, and (from inside the shapes, where the casts would report
            // an initial overlap) NaN fractions and a NaN coordinate.
            RayCastInput::new(v(-3.0, 0.0), v(6.0, 0.0), 2.0e5),
            RayCastInput::new(v(0.0, 0.0), v(6.0, 0.0), f32::NAN),
            RayCastInput::new(v(0.0, f32::NAN), v(1.0, 0.0), 1.0),
        ];
        for input in &bad {
            assert!(!input.is_valid());
            assert!(!ray_cast_circle(input, &c).hit);
            assert!(!ray_cast_capsule(input, &cap).hit);
            assert!(!ray_cast_polygon(input, &b).hit);
            assert!(!ray_cast_segment(input, &seg, false).hit);
            assert!(!aabb.ray_cast(input).hit);
        }
        let nan_circle = Circle {
            center: Vec2::ZERO,
            radius: f32::NAN,
        };
        assert!(!ray_cast_circle(&ray(v(-3.0, 0.0), v(6.0, 0.0)), &nan_circle).hit);
    }

    /// Values at the edges of what counts as valid: zeros of both signs, the
    /// largest finite numbers, infinities, NaNs (two payloads), and `HUGE` and
    /// its neighbours (the bound on `max_fraction`).
    pub(crate) const EDGE_VALUES: [f32; 13] = [
        0.0,
        -0.0,
        1.5,
        -2.0,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        HUGE,
        99_999.99,
    ];

    #[test]
    fn fast_validity_is_the_validity() {
        // Every combination of edge values in the five numbers of a ray.
        let e = &EDGE_VALUES;
        let mut seen = [0usize; 2];
        for &ox in e {
            for &oy in e {
                for &dx in e {
                    for &dy in e {
                        for &f in e {
                            let input = RayCastInput::new(v(ox, oy), v(dx, dy), f);
                            assert_eq!(input.is_valid_fast(), input.is_valid(), "{input:?}");
                            seen[input.is_valid() as usize] += 1;
                        }
                    }
                }
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0);
    }

    #[test]
    fn point_tests() {
        let c = Circle::new(v(1.0, 1.0), 1.0).unwrap();
        assert!(point_in_circle(v(1.5, 1.5), &c));
        assert!(point_in_circle(v(2.0, 1.0), &c));
        assert!(!point_in_circle(v(1.8, 1.8), &c));
        let cap = Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap();
        assert!(point_in_capsule(v(0.0, 0.49), &cap));
        assert!(point_in_capsule(v(1.3, 0.3), &cap));
        assert!(!point_in_capsule(v(1.4, 0.4), &cap));
        let b = make_box(1.0, 0.5).unwrap();
        assert!(point_in_polygon(v(0.9, 0.4), &b));
        assert!(point_in_polygon(v(1.0, 0.0), &b));
        assert!(!point_in_polygon(v(1.01, 0.0), &b));
        let rb = make_rounded_box(1.0, 0.5, 0.2).unwrap();
        assert!(point_in_polygon(v(1.19, 0.0), &rb));
        assert!(point_in_polygon(v(1.1, 0.6), &rb));
        // Outside the corner arc, inside the mitred box.
        assert!(!point_in_polygon(v(1.15, 0.65), &rb));
        for f in [
            point_in_circle(v(f32::NAN, 0.0), &c),
            point_in_polygon(v(0.0, f32::INFINITY), &b),
        ] {
            assert!(!f);
        }
    }

    /// The sharp polygon cast as it was before the two-edge form (session 20),
    /// kept here verbatim as the reference the current one must match bit for bit.
    fn sharp_cast_before(input: &RayCastInput, shape: &Polygon) -> CastOutput {
        let base = shape.vertices[0];
        let origin = input.origin - base;
        let d = input.translation;
        let mut lower = 0.0f32;
        let mut upper = input.max_fraction;
        let mut entry_edge = None;
        for (i, (n, v)) in shape.normals().iter().zip(shape.vertices()).enumerate() {
            let depth = n.dot(*v - base - origin);
            let approach = n.dot(d);
            if approach < 0.0 {
                if depth < lower * approach {
                    lower = depth / approach;
                    entry_edge = Some(i);
                    if upper < lower {
                        return CastOutput::default();
                    }
                }
            } else if approach > 0.0 {
                if depth < upper * approach {
                    upper = depth / approach;
                    if upper < lower {
                        return CastOutput::default();
                    }
                }
            } else if depth < 0.0 {
                return CastOutput::default();
            }
        }
        if !input.is_valid() {
            return CastOutput::default();
        }
        match entry_edge {
            Some(i) => CastOutput::surface_hit(
                lower,
                Vec2::mul_add(input.origin, lower, d),
                shape.normals[i],
            ),
            None => CastOutput::initial_overlap(input.origin),
        }
    }

    /// The bits of a cast's report, for exact comparison (NaN-safe).
    pub(crate) fn report_bits(o: &CastOutput) -> [u32; 7] {
        [
            o.normal.x.to_bits(),
            o.normal.y.to_bits(),
            o.point.x.to_bits(),
            o.point.y.to_bits(),
            o.fraction.to_bits(),
            o.iterations,
            o.hit as u32,
        ]
    }

    /// Numbers that edge cases are made of: signed zeros, values at and just
    /// under the parallel threshold (the first five), units, tiny and huge
    /// values, infinities and NaN.
    pub(crate) const SPECIAL_NUMBERS: [f32; 13] = [
        0.0,
        -0.0,
        f32::EPSILON,
        -f32::EPSILON,
        0.99 * f32::EPSILON,
        1.0,
        -1.0,
        f32::MIN_POSITIVE,
        1e-30,
        f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];

    /// A small deterministic generator for the differential tests.
    pub(crate) struct Lcg(pub(crate) u64);

    impl Lcg {
        pub(crate) fn next(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as u32
        }

        /// Uniform in `[lo, hi)`.
        pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * (self.next() as f32 / (1u64 << 31) as f32)
        }

        pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.next() as usize % items.len()]
        }

        /// A ray from within `spread` of `center` along up to 8 m each way; every
        /// third `case` clipped at a random `max_fraction` in `[0, 1.5)`.
        pub(crate) fn ray_near(
            &mut self,
            center: Vec2,
            spread: f32,
            case: usize,
        ) -> (Vec2, Vec2, f32) {
            let origin = center + v(self.range(-spread, spread), self.range(-spread, spread));
            let translation = v(self.range(-8.0, 8.0), self.range(-8.0, 8.0));
            let max_fraction = if case.is_multiple_of(3) {
                self.range(0.0, 1.5)
            } else {
                1.0
            };
            (origin, translation, max_fraction)
        }
    }

    #[test]
    fn sharp_polygon_cast_matches_the_one_edge_at_a_time_form_bit_for_bit() {
        use crate::collision::{compute_hull, make_polygon};
        let specials = SPECIAL_NUMBERS;
        let mut rng = Lcg(0x5EED_2020);
        let mut seen = [0usize; 3]; // misses, surface hits, initial overlaps
        // Casts through the AVX2 scan (polygons of up to four edges, on a CPU
        // with AVX2), and how many of those it left to the edge-by-edge clip.
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        #[cfg(target_arch = "x86_64")]
        let unproven_before = avx2::UNPROVEN.load(std::sync::atomic::Ordering::Relaxed);
        let mut scanned = 0usize;
        for case in 0..400_000 {
            // A convex polygon of 3 to 8 vertices, near the origin or far from it.
            let n = 3 + rng.next() as usize % 6;
            let far = if case % 7 == 0 { 1.0e4 } else { 0.0 };
            let center = v(rng.range(-far, far), rng.range(-far, far));
            let points: Vec<Vec2> = (0..n)
                .map(|k| {
                    let angle = (k as f32 + rng.range(0.0, 0.8)) * std::f32::consts::TAU / n as f32;
                    let r = rng.range(0.3, 2.0);
                    center + v(r * angle.cos(), r * angle.sin())
                })
                .collect();
            let Ok(hull) = compute_hull(&points) else {
                continue;
            };
            let poly = make_polygon(&hull, 0.0).unwrap();
            let verts = poly.vertices();
            // Rays: random, through vertices, along edges (parallel, on the
            // line), from inside, of zero length, and with special numbers.
            let pick_vertex = |rng: &mut Lcg| verts[rng.next() as usize % verts.len()];
            let (mut origin, mut translation, mut max_fraction) = rng.ray_near(center, 5.0, case);
            match case % 11 {
                0 => translation = pick_vertex(&mut rng) - origin,
                1 => {
                    // Along an edge's line, from before it.
                    let k = rng.next() as usize % verts.len();
                    let (a, b) = (verts[k], verts[(k + 1) % verts.len()]);
                    origin = a - (b - a) * rng.range(0.0, 2.0);
                    translation = (b - a) * rng.range(0.5, 4.0);
                }
                2 => {
                    // Parallel to an edge, offset inside or outside.
                    let k = rng.next() as usize % verts.len();
                    let (a, b) = (verts[k], verts[(k + 1) % verts.len()]);
                    let off = poly.normals()[k] * rng.pick(&[-0.1, 0.0, 0.1]);
                    origin = a - (b - a) + off;
                    translation = (b - a) * 3.0;
                }
                3 => origin = poly.centroid() + v(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)),
                4 => translation = Vec2::ZERO,
                5 => origin = pick_vertex(&mut rng),
                6 => {
                    let which = rng.next() % 5;
                    let x = rng.pick(&specials);
                    match which {
                        0 => origin.x = x,
                        1 => origin.y = x,
                        2 => translation.x = x,
                        3 => translation.y = x,
                        _ => max_fraction = x,
                    }
                }
                7 => translation *= 1e-7,
                _ => {}
            }
            let input = RayCastInput::new(origin, translation, max_fraction);
            let now = ray_cast_polygon(&input, &poly);
            let before = sharp_cast_before(&input, &poly);
            #[cfg(target_arch = "x86_64")]
            if avx2 && poly.count <= 4 {
                scanned += 1;
            }
            // The two clipping forms also agree on the interval itself.
            let fresh = || Clip {
                lower: 0.0,
                upper: max_fraction,
                entry_edge: None,
            };
            let (mut one, mut two) = (fresh(), fresh());
            let one_ok = clip_sharp_scalar(&input, &poly, &mut one).is_ok();
            let two_ok = clip_sharp(&input, &poly, &mut two).is_ok();
            assert_eq!(one_ok, two_ok, "{input:?} {poly:?}");
            if one_ok {
                assert_eq!(
                    (one.lower.to_bits(), one.upper.to_bits(), one.entry_edge),
                    (two.lower.to_bits(), two.upper.to_bits(), two.entry_edge),
                    "{input:?} {poly:?}"
                );
            }
            assert_eq!(
                report_bits(&now),
                report_bits(&before),
                "{input:?} {poly:?}: {now:?} vs {before:?}"
            );
            seen[match (now.hit, now.fraction == 0.0 && now.normal == Vec2::ZERO) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            }] += 1;
        }
        // Each kind of answer came up many times.
        assert!(seen.iter().all(|&k| k > 10_000), "{seen:?}");
        // On a CPU with AVX2, the scan answered most casts of small polygons
        // itself (the count of unproven casts may include other tests' casts
        // running at the same time, so the bound is loose).
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            let unproven =
                avx2::UNPROVEN.load(std::sync::atomic::Ordering::Relaxed) - unproven_before;
            assert!(
                scanned > 100_000 && unproven < scanned / 20,
                "{scanned} {unproven}"
            );
            eprintln!("AVX2 scan: {scanned} casts, {unproven} left to the edge-by-edge clip");
        }
        let _ = scanned;
    }
}
