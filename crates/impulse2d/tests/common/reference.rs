//! A plain double-precision reference for the collision layer: f64 vectors and
//! poses built from the same `f32` inputs the engine gets, the distance between
//! convex point sets by brute force over their edges, a double-precision port of
//! the manifold rules (separating axes, reference and incident edges, clipping,
//! the corner-to-corner rule; capsules), and the first time two swept shapes come
//! within a distance, found by conservative advancement in f64 with an exact
//! bound on the speed of any point, capped at a thousandth of the sweep.
//!
//! Decisions that the `f32` code cannot take reliably (two faces separating
//! equally within 2e-5 m, a separation within 2e-5 m of the speculative
//! distance, …) are reported as ties, so a comparison can leave them out.

#![allow(dead_code)]

use impulse2d::collision::{Capsule, Polygon};
use impulse2d::core::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use impulse2d::{Rot, Sweep, Transform, Vec2};
use std::ops::{Add, Mul, Neg, Sub};

/// How close (metres) two quantities compared by a decision may be before the
/// decision counts as a tie.
pub const TIE: f64 = 4e-6;

/// A double-precision vector.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D2 {
    pub x: f64,
    pub y: f64,
}

impl D2 {
    pub const ZERO: D2 = D2 { x: 0.0, y: 0.0 };
    pub fn new(x: f64, y: f64) -> D2 {
        D2 { x, y }
    }
    pub fn dot(self, o: D2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: D2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn length(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn normalize(self) -> D2 {
        let l = self.length();
        if l > 0.0 { self * (1.0 / l) } else { D2::ZERO }
    }
    /// (−y, x)
    pub fn left_perp(self) -> D2 {
        D2::new(-self.y, self.x)
    }
    /// (y, −x)
    pub fn right_perp(self) -> D2 {
        D2::new(self.y, -self.x)
    }
    pub fn lerp(self, b: D2, t: f64) -> D2 {
        self + (b - self) * t
    }
}

impl Add for D2 {
    type Output = D2;
    fn add(self, o: D2) -> D2 {
        D2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for D2 {
    type Output = D2;
    fn sub(self, o: D2) -> D2 {
        D2::new(self.x - o.x, self.y - o.y)
    }
}
impl Neg for D2 {
    type Output = D2;
    fn neg(self) -> D2 {
        D2::new(-self.x, -self.y)
    }
}
impl Mul<f64> for D2 {
    type Output = D2;
    fn mul(self, s: f64) -> D2 {
        D2::new(self.x * s, self.y * s)
    }
}

/// An `f32` vector in double precision (exact).
pub fn d2(v: Vec2) -> D2 {
    D2::new(f64::from(v.x), f64::from(v.y))
}

/// A rigid pose in double precision.
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    pub p: D2,
    pub c: f64,
    pub s: f64,
}

impl Pose {
    pub const IDENTITY: Pose = Pose {
        p: D2::ZERO,
        c: 1.0,
        s: 0.0,
    };
    pub fn apply(&self, v: D2) -> D2 {
        D2::new(
            self.c * v.x - self.s * v.y + self.p.x,
            self.s * v.x + self.c * v.y + self.p.y,
        )
    }
    pub fn rotate(&self, v: D2) -> D2 {
        D2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }
    pub fn inv_rotate(&self, v: D2) -> D2 {
        D2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }
}

/// An `f32` transform in double precision; the rotation is renormalised in f64
/// (the `f32` cosine/sine pair is unit only to within an `f32` ulp).
pub fn pose(xf: Transform) -> Pose {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let l = (c * c + s * s).sqrt();
    Pose {
        p: d2(xf.p),
        c: c / l,
        s: s / l,
    }
}

/// B's pose in A's frame, in f64.
pub fn relative(xf_a: Transform, xf_b: Transform) -> Pose {
    let (a, b) = (pose(xf_a), pose(xf_b));
    Pose {
        p: a.inv_rotate(b.p - a.p),
        c: a.c * b.c + a.s * b.s,
        s: a.c * b.s - a.s * b.c,
    }
}

/// How a sweep's rotation is interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The angle, linearly (ours: `Sweep::transform_at`).
    Angle = 0,
    /// The rotations at the ends (from `Rot::from_angle`), by normalised lerp
    /// (Box2D's `b2GetSweepTransform`).
    Nlerp = 1,
}

/// The body's pose at fraction `t` of a sweep, in f64.
pub fn sweep_pose(sweep: &Sweep, t: f64, path: Path) -> Pose {
    let (c1, c2) = (d2(sweep.c1), d2(sweep.c2));
    let c = c1 + (c2 - c1) * t;
    let (s, co) = match path {
        Path::Angle => {
            (f64::from(sweep.a1) + t * (f64::from(sweep.a2) - f64::from(sweep.a1))).sin_cos()
        }
        Path::Nlerp => {
            let (q1, q2) = (Rot::from_angle(sweep.a1), Rot::from_angle(sweep.a2));
            let cc = (1.0 - t) * f64::from(q1.c) + t * f64::from(q2.c);
            let ss = (1.0 - t) * f64::from(q1.s) + t * f64::from(q2.s);
            let l = (cc * cc + ss * ss).sqrt();
            (ss / l, cc / l)
        }
    };
    let q = Pose {
        p: D2::ZERO,
        c: co,
        s,
    };
    Pose {
        p: c - q.rotate(d2(sweep.local_center)),
        c: co,
        s,
    }
}

/// The closest distance between segments `p1–q1` and `p2–q2` (either may be a point).
pub fn segment_distance(p1: D2, q1: D2, p2: D2, q2: D2) -> (f64, D2, D2) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let (a, e) = (d1.dot(d1), d2.dot(d2));
    let f = d2.dot(r);
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        s = 0.0;
        t = 0.0;
    } else if a <= 1e-300 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    let c1 = p1 + d1 * s;
    let c2 = p2 + d2 * t;
    ((c2 - c1).length(), c1, c2)
}

/// The edges of a convex point set in counter-clockwise order (one point: a
/// degenerate edge; two: the segment).
fn edges(points: &[D2]) -> impl Iterator<Item = (D2, D2)> + '_ {
    let n = points.len();
    let count = if n <= 2 { 1 } else { n };
    (0..count).map(move |i| (points[i], points[(i + 1) % n]))
}

/// Whether `p` is inside the convex counter-clockwise polygon `poly` (≥ 3 points).
fn inside(poly: &[D2], p: D2) -> bool {
    poly.len() >= 3 && edges(poly).all(|(a, b)| (b - a).cross(p - a) >= 0.0)
}

/// The distance between two convex point sets (counter-clockwise when they have
/// three or more points), 0 when they overlap.
pub fn hull_distance(a: &[D2], b: &[D2]) -> f64 {
    if inside(a, b[0]) || inside(b, a[0]) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for (p1, q1) in edges(a) {
        for (p2, q2) in edges(b) {
            best = best.min(segment_distance(p1, q1, p2, q2).0);
        }
    }
    best
}

/// A manifold of the reference, in A's frame.
#[derive(Clone, Debug, Default)]
pub struct RefManifold {
    pub normal: D2,
    /// Separations of the points, in the engine's point order.
    pub separations: Vec<f64>,
    /// Some decision was within `TIE` of going the other way.
    pub tie: bool,
}

/// A convex polygon in double precision (vertices counter-clockwise; a two-vertex
/// polygon is a capsule core, whose normals point to either side).
#[derive(Clone, Debug)]
pub struct RefPolygon {
    pub vertices: Vec<D2>,
    pub normals: Vec<D2>,
    pub radius: f64,
}

impl RefPolygon {
    pub fn from_polygon(p: &Polygon, xf: &Pose) -> RefPolygon {
        let vertices: Vec<D2> = p.vertices().iter().map(|v| xf.apply(d2(*v))).collect();
        Self::from_vertices(vertices, f64::from(p.radius()))
    }
    pub fn from_capsule(c: &Capsule, xf: &Pose) -> RefPolygon {
        Self::from_vertices(
            vec![xf.apply(d2(c.center1)), xf.apply(d2(c.center2))],
            f64::from(c.radius),
        )
    }
    fn from_vertices(vertices: Vec<D2>, radius: f64) -> RefPolygon {
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| {
                (vertices[(i + 1) % n] - vertices[i])
                    .right_perp()
                    .normalize()
            })
            .collect();
        RefPolygon {
            vertices,
            normals,
            radius,
        }
    }
    fn count(&self) -> usize {
        self.vertices.len()
    }
}

/// The face of `p1` that separates `p2` most: (index, separation, margin to the
/// runner-up).
fn max_separation(p1: &RefPolygon, p2: &RefPolygon) -> (usize, f64, f64) {
    let mut seps: Vec<(usize, f64)> = (0..p1.count())
        .map(|i| {
            let s = p2
                .vertices
                .iter()
                .map(|w| p1.normals[i].dot(*w - p1.vertices[i]))
                .fold(f64::MAX, f64::min);
            (i, s)
        })
        .collect();
    seps.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let margin = if seps.len() > 1 {
        seps[0].1 - seps[1].1
    } else {
        f64::MAX
    };
    (seps[0].0, seps[0].1, margin)
}

/// The edge of `p` most opposed to `n`: (index, margin to the runner-up).
fn incident_edge(p: &RefPolygon, n: D2) -> (usize, f64) {
    let mut d: Vec<(usize, f64)> = (0..p.count()).map(|i| (i, n.dot(p.normals[i]))).collect();
    d.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    (
        d[0].0,
        if d.len() > 1 {
            d[1].1 - d[0].1
        } else {
            f64::MAX
        },
    )
}

/// The reference face `i11` of `reference` against the incident edge `i21` of
/// `incident`: the separations of the clipped incident points, lower then upper.
fn clip(reference: &RefPolygon, i11: usize, incident: &RefPolygon, i21: usize) -> Option<[f64; 2]> {
    let i12 = (i11 + 1) % reference.count();
    let i22 = (i21 + 1) % incident.count();
    let (a1, a2) = (reference.vertices[i11], reference.vertices[i12]);
    let (b1, b2) = (incident.vertices[i21], incident.vertices[i22]);
    let normal = reference.normals[i11];
    let tangent = normal.left_perp();
    let upper1 = (a2 - a1).dot(tangent);
    let upper2 = (b1 - a1).dot(tangent);
    let lower2 = (b2 - a1).dot(tangent);
    let span = upper2 - lower2;
    let v_lower = if lower2 < 0.0 && span > 0.0 {
        b2.lerp(b1, -lower2 / span)
    } else {
        b2
    };
    let v_upper = if upper2 > upper1 && span > 0.0 {
        b2.lerp(b1, (upper1 - lower2) / span)
    } else {
        b1
    };
    if !(upper2 >= 0.0 && lower2 <= upper1) {
        return None;
    }
    if upper2.abs() < TIE || (lower2 - upper1).abs() < TIE {
        // Touching end to end: whether they overlap is a tie.
        return Some([f64::NAN; 2]);
    }
    let r = reference.radius + incident.radius;
    Some([
        (v_lower - a1).dot(normal) - r,
        (v_upper - a1).dot(normal) - r,
    ])
}

/// The manifold of two polygons (capsule cores as two-vertex polygons) in A's
/// frame, following the engine's and Box2D's rules.
pub fn polygons(a: &RefPolygon, b: &RefPolygon) -> RefManifold {
    let mut out = RefManifold::default();
    let radius = a.radius + b.radius;
    let too_far = SPECULATIVE_DISTANCE as f64 + radius;
    let (edge_a, sep_a, margin_a) = max_separation(a, b);
    let (edge_b, sep_b, margin_b) = max_separation(b, a);
    out.tie |= margin_a < TIE || margin_b < TIE;
    out.tie |= (sep_a - too_far).abs() < TIE || (sep_b - too_far).abs() < TIE;
    if sep_a > too_far || sep_b > too_far {
        return out;
    }
    let flip = sep_b > sep_a;
    out.tie |= (sep_b - sep_a).abs() < TIE;
    let (edge_a, edge_b, inc_margin) = if flip {
        let (e, m) = incident_edge(a, b.normals[edge_b]);
        (e, edge_b, m)
    } else {
        let (e, m) = incident_edge(b, a.normals[edge_a]);
        (edge_a, e, m)
    };
    out.tie |= inc_margin < 1e-6;
    let clipped = |out: &mut RefManifold| {
        let r = if flip {
            clip(b, edge_b, a, edge_a)
        } else {
            clip(a, edge_a, b, edge_b)
        };
        if let Some([lower, upper]) = r {
            out.tie |= lower.is_nan();
            if flip {
                out.normal = -b.normals[edge_b];
                out.separations = vec![upper, lower];
            } else {
                out.normal = a.normals[edge_a];
                out.separations = vec![lower, upper];
            }
        }
    };
    let slop = 0.1 * LINEAR_SLOP as f64;
    out.tie |= (sep_a - slop).abs() < TIE || (sep_b - slop).abs() < TIE;
    if sep_a <= slop && sep_b <= slop {
        clipped(&mut out);
        return out;
    }
    let (i11, i12) = (edge_a, (edge_a + 1) % a.count());
    let (i21, i22) = (edge_b, (edge_b + 1) % b.count());
    let (dist, ca, cb) = segment_distance(
        a.vertices[i11],
        a.vertices[i12],
        b.vertices[i21],
        b.vertices[i22],
    );
    let separation = dist - radius;
    out.tie |= (separation - SPECULATIVE_DISTANCE as f64).abs() < TIE;
    if separation > SPECULATIVE_DISTANCE as f64 {
        return out;
    }
    clipped(&mut out);
    let deepest = out.separations.iter().copied().fold(f64::MAX, f64::min);
    let at_end = |p: D2, v1: D2, v2: D2| {
        let (d1, d2) = ((p - v1).length(), (p - v2).length());
        d1.min(d2) < TIE
    };
    let corners = at_end(ca, a.vertices[i11], a.vertices[i12])
        && at_end(cb, b.vertices[i21], b.vertices[i22]);
    out.tie |= ((separation + slop) - deepest).abs() < TIE;
    if separation + slop < deepest && corners {
        // The direction between two corners `dist` apart, from f32 coordinates of
        // size `scale`, is only good to about 2·ulp(scale)/dist.
        let scale = a
            .vertices
            .iter()
            .chain(&b.vertices)
            .fold(0.0f64, |m, v| m.max(v.x.abs()).max(v.y.abs()));
        out.tie |= 4.0 * scale * f64::from(f32::EPSILON) / dist > 0.5e-5;
        out.normal = if dist > 0.0 {
            (cb - ca).normalize()
        } else {
            out.normal
        };
        out.separations = vec![separation];
    }
    out
}

/// The closest point of the manifold of two capsules: the true gap between them
/// (distance between the core segments minus the radii), and the direction.
pub fn capsule_gap(a: &RefPolygon, b: &RefPolygon) -> (f64, D2) {
    let (d, ca, cb) = segment_distance(a.vertices[0], a.vertices[1], b.vertices[0], b.vertices[1]);
    (d - a.radius - b.radius, (cb - ca).normalize())
}

/// The largest distance of `points` from `center`.
pub fn max_radius(points: &[D2], center: D2) -> f64 {
    points
        .iter()
        .fold(0.0f64, |r, p| r.max((*p - center).length()))
}

/// The first fraction in `[0, 1]` at which the core distance of two swept
/// convex point sets falls to `level` or below, or `None`. Conservative
/// advancement in f64 with the bound `|Δc_B − Δc_A| + |Δθ_A|·R_A + |Δθ_B|·R_B` on
/// how fast the distance can shrink (on the nlerp path the angle moves at most
/// π/2 times faster than linearly for turns up to π, so the bound is scaled by
/// that), stepping at most `max_step` at a time (so the sweep is also sampled
/// densely where nothing is near).
pub fn first_contact(
    a: &[Vec2],
    sweep_a: &Sweep,
    b: &[Vec2],
    sweep_b: &Sweep,
    level: f64,
    max_step: f64,
    path: Path,
) -> Option<f64> {
    let t_max = 1.0;
    let a: Vec<D2> = a.iter().map(|v| d2(*v)).collect();
    let b: Vec<D2> = b.iter().map(|v| d2(*v)).collect();
    let motion = |s: &Sweep| d2(s.c2) - d2(s.c1);
    let speed = (motion(sweep_b) - motion(sweep_a)).length()
        + (f64::from(sweep_a.a2) - f64::from(sweep_a.a1)).abs()
            * max_radius(&a, d2(sweep_a.local_center))
        + (f64::from(sweep_b.a2) - f64::from(sweep_b.a1)).abs()
            * max_radius(&b, d2(sweep_b.local_center));
    let speed = match path {
        Path::Angle => speed,
        // (Generous: nlerp's angular speed is at most 1/cos(θ/2) of the mean,
        // which is below 4 for turns up to 0.9π, and no more than the chord
        // allows; a larger bound only samples more densely.)
        Path::Nlerp => 8.0 * speed,
    };
    let mut t = 0.0;
    loop {
        let d = distance_at(&a, sweep_a, &b, sweep_b, t, path);
        if d <= level {
            return Some(t);
        }
        if t >= t_max {
            return None;
        }
        let step = if speed > 0.0 {
            ((d - level) / speed).clamp(1e-7, max_step)
        } else {
            max_step
        };
        t = (t + step).min(t_max);
    }
}

/// The core distance of two swept point sets at fraction `t`, in f64.
pub fn distance_at(
    a: &[D2],
    sweep_a: &Sweep,
    b: &[D2],
    sweep_b: &Sweep,
    t: f64,
    path: Path,
) -> f64 {
    let (xa, xb) = (sweep_pose(sweep_a, t, path), sweep_pose(sweep_b, t, path));
    let pa: Vec<D2> = a.iter().map(|v| xa.apply(*v)).collect();
    let pb: Vec<D2> = b.iter().map(|v| xb.apply(*v)).collect();
    hull_distance(&pa, &pb)
}
