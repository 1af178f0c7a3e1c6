//! Closest points between convex shapes (GJK), segment–segment distance and
//! linear shape casts.
//!
//! # References
//! - E. G. Gilbert, D. W. Johnson, S. S. Keerthi, *A fast procedure for computing the
//!   distance between complex objects in three-dimensional space* (1988).
//! - E. Catto, *Computing Distance*, GDC 2010; Box2D v3 `distance.c`.
//! - G. van den Bergen, *Ray Casting against General Convex Objects* (2004).

use super::dynamic_tree::ShapeCastInput;
use super::geometry::{Capsule, Circle, Polygon, Segment};
use super::ray::CastOutput;
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES, TOI_TARGET_FRACTION};
use crate::error::{Error, Result, check_finite_vec, check_non_negative};
use crate::math::{Transform, Vec2};

/// A convex point cloud with a radius: the form in which GJK sees every shape
/// (a circle is one point with a radius, a capsule two, a polygon its vertices).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShapeProxy {
    /// The points, metres; only the first `count` are used.
    pub points: [Vec2; MAX_POLYGON_VERTICES],
    /// Number of points, 1 to 8.
    pub count: usize,
    /// Radius added around the points, metres.
    pub radius: f32,
}

/// Warm-start data for [`shape_distance`]: the vertex indices of the last simplex.
/// Start with `SimplexCache::default()`; pass the same cache the next frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplexCache {
    /// Number of simplex vertices, 0 to 3.
    pub count: u16,
    /// Vertex indices on proxy A.
    pub index_a: [u8; 3],
    /// Vertex indices on proxy B.
    pub index_b: [u8; 3],
}

/// Input for [`shape_distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceInput {
    /// The first shape.
    pub proxy_a: ShapeProxy,
    /// The second shape.
    pub proxy_b: ShapeProxy,
    /// World transform of the first shape.
    pub transform_a: Transform,
    /// World transform of the second shape.
    pub transform_b: Transform,
    /// Whether to account for the proxies' radii (otherwise the cores are measured).
    pub use_radii: bool,
}

/// Output of [`shape_distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceOutput {
    /// Closest point on shape A, world frame, metres.
    pub point_a: Vec2,
    /// Closest point on shape B, world frame, metres.
    pub point_b: Vec2,
    /// Unit normal pointing from A to B (zero when overlapping).
    pub normal: Vec2,
    /// Distance between the shapes, metres (0 when overlapping).
    pub distance: f32,
    /// GJK iterations used.
    pub iterations: u32,
    /// Number of vertices in the final simplex (1 to 3).
    pub simplex_count: u32,
}

/// Input for [`shape_cast`]: shape B moves by `translation_b` while A stays put.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShapeCastPairInput {
    /// The first (stationary) shape.
    pub proxy_a: ShapeProxy,
    /// The second (moving) shape.
    pub proxy_b: ShapeProxy,
    /// World transform of A.
    pub transform_a: Transform,
    /// World transform of B at the start of the cast.
    pub transform_b: Transform,
    /// Translation of B over the whole cast, metres.
    pub translation_b: Vec2,
    /// The fraction of the translation to consider, usually 1.
    pub max_fraction: f32,
    /// Allow shapes with a radius to move slightly into each other (as Box2D's
    /// character mover does); when false the cast stops at first touch.
    pub can_encroach: bool,
}

/// Result of [`segment_distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SegmentDistanceResult {
    /// Closest point on the first segment, metres.
    pub closest1: Vec2,
    /// Closest point on the second segment, metres.
    pub closest2: Vec2,
    /// Barycentric coordinate of `closest1` on the first segment, in `[0, 1]`.
    pub fraction1: f32,
    /// Barycentric coordinate of `closest2` on the second segment, in `[0, 1]`.
    pub fraction2: f32,
    /// Squared distance between the closest points, m².
    pub distance_squared: f32,
}

/// Most support-point queries one [`shape_distance`] call makes. Polygons of up to
/// eight vertices converge in a handful; the cap only guards against cycling caused
/// by round-off.
const MAX_GJK_ITERATIONS: u32 = 20;

/// A bound on the round-off of an `f32` cross product `a × b`, in units of
/// `|a|·|b|` (each product and the difference round by half an ulp; this is
/// four times more): a cross product larger in magnitude has the sign of the
/// exact one.
const CROSS_ROUND_OFF: f32 = 4.0 * f32::EPSILON;

/// Most conservative-advancement steps one [`shape_cast`] call takes.
const MAX_CAST_ITERATIONS: u32 = 20;

/// Makes a proxy from 1 to 8 points (metres) and a radius (metres, ≥ 0).
///
/// The points should describe a convex set, but need not be in any order: GJK only
/// ever asks for the point furthest along a direction.
///
/// Box2D: `b2MakeProxy`.
pub fn make_proxy(points: &[Vec2], radius: f32) -> Result<ShapeProxy> {
    make_offset_proxy(points, radius, Transform::IDENTITY)
}

/// Makes a proxy from 1 to 8 points (metres) moved by `xf`, and a radius
/// (metres, ≥ 0). Useful to place a shape inside its body's frame.
///
/// Box2D: `b2MakeOffsetProxy`.
pub fn make_offset_proxy(points: &[Vec2], radius: f32, xf: Transform) -> Result<ShapeProxy> {
    if points.is_empty() || points.len() > MAX_POLYGON_VERTICES {
        return Err(Error::InvalidGeometry("a shape proxy needs 1 to 8 points"));
    }
    check_non_negative(radius, "proxy radius")?;
    if !xf.is_valid() {
        return Err(Error::NonFinite {
            what: "proxy transform",
        });
    }
    let mut proxy = ShapeProxy {
        points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        count: points.len(),
        radius,
    };
    for (slot, &p) in proxy.points.iter_mut().zip(points) {
        check_finite_vec(p, "proxy point")?;
        *slot = xf.apply(p);
    }
    Ok(proxy)
}

impl ShapeProxy {
    /// A single point (metres) with a radius (metres). Not validated.
    fn from_point(point: Vec2, radius: f32) -> ShapeProxy {
        let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        points[0] = point;
        ShapeProxy {
            points,
            count: 1,
            radius,
        }
    }

    /// Two points (metres) with a radius (metres). Not validated.
    fn from_pair(p1: Vec2, p2: Vec2, radius: f32) -> ShapeProxy {
        let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        points[0] = p1;
        points[1] = p2;
        ShapeProxy {
            points,
            count: 2,
            radius,
        }
    }

    /// The proxy of a circle: its centre with its radius.
    pub fn from_circle(circle: &Circle) -> ShapeProxy {
        ShapeProxy::from_point(circle.center, circle.radius)
    }

    /// The proxy of a capsule: its two centres with its radius.
    pub fn from_capsule(capsule: &Capsule) -> ShapeProxy {
        ShapeProxy::from_pair(capsule.center1, capsule.center2, capsule.radius)
    }

    /// The proxy of a polygon: its vertices with its rounding radius.
    pub fn from_polygon(polygon: &Polygon) -> ShapeProxy {
        ShapeProxy {
            points: polygon.vertices,
            count: polygon.count,
            radius: polygon.radius,
        }
    }

    /// The proxy of a segment: its two end points, no radius.
    pub fn from_segment(segment: &Segment) -> ShapeProxy {
        ShapeProxy::from_pair(segment.point1, segment.point2, 0.0)
    }

    /// The points the algorithms use: the first `count`, with `count` clamped to
    /// 1..=8 so that a hand-built proxy can never index out of bounds (a default
    /// proxy is then a single point at the origin).
    #[inline]
    pub(crate) fn active_points(&self) -> &[Vec2] {
        &self.points[..self.count.clamp(1, MAX_POLYGON_VERTICES)]
    }
}

/// Index of the point furthest along `direction` (the first one on ties).
#[inline]
pub(crate) fn find_support(points: &[Vec2], direction: Vec2) -> usize {
    let mut best = 0;
    let mut best_value = points[0].dot(direction);
    for (i, p) in points.iter().enumerate().skip(1) {
        let value = p.dot(direction);
        if value > best_value {
            best = i;
            best_value = value;
        }
    }
    best
}

/// The closest points of the segments `p1–q1` and `p2–q2` (metres).
///
/// Either segment may be degenerate (a point); for parallel segments with several
/// closest pairs one of them is returned. Minimises over the two fractions in
/// closed form, clamping to the segments (Ericson, *Real-Time Collision
/// Detection*, §5.1.9).
///
/// Box2D: `b2SegmentDistance`.
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistanceResult {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let len1_sq = d1.dot(d1);
    let len2_sq = d2.dot(d2);
    let r_d1 = r.dot(d1);
    let r_d2 = r.dot(d2);
    let tiny = f32::EPSILON * f32::EPSILON;

    let (f1, f2) = if len1_sq < tiny && len2_sq < tiny {
        // Two points.
        (0.0, 0.0)
    } else if len1_sq < tiny {
        // A point against segment 2: project p1 onto it.
        (0.0, (r_d2 / len2_sq).clamp(0.0, 1.0))
    } else if len2_sq < tiny {
        // Segment 1 against a point: project p2 onto it.
        ((-r_d1 / len1_sq).clamp(0.0, 1.0), 0.0)
    } else {
        let d1_d2 = d1.dot(d2);
        let det = len1_sq * len2_sq - d1_d2 * d1_d2;
        // Unclamped minimiser on the first segment; any point will do when parallel.
        let mut f1 = if det > 0.0 {
            ((d1_d2 * r_d2 - r_d1 * len2_sq) / det).clamp(0.0, 1.0)
        } else {
            0.0
        };
        // Best point on segment 2 for that point on segment 1 ...
        let mut f2 = (d1_d2 * f1 + r_d2) / len2_sq;
        // ... and if it falls off segment 2, re-project its clamped end onto segment 1.
        if f2 < 0.0 {
            f2 = 0.0;
            f1 = (-r_d1 / len1_sq).clamp(0.0, 1.0);
        } else if f2 > 1.0 {
            f2 = 1.0;
            f1 = ((d1_d2 - r_d1) / len1_sq).clamp(0.0, 1.0);
        }
        (f1, f2)
    };

    let at = |f1: f32, f2: f32| {
        let closest1 = Vec2::mul_add(p1, f1, d1);
        let closest2 = Vec2::mul_add(p2, f2, d2);
        SegmentDistanceResult {
            closest1,
            closest2,
            fraction1: f1,
            fraction2: f2,
            distance_squared: closest1.distance_squared(closest2),
        }
    };
    let mut best = at(f1, f2);
    // Nearly parallel segments (within about 0.03 rad): the closed-form fraction
    // divides by det = |d1|²|d2|²·sin²θ, whose round-off can move it far along the
    // segments (a gap of 0.0196 m came out as 0.0201 m between boxes 0.1 mrad from
    // parallel). The closest pair of non-crossing segments includes an end point,
    // so the four end points projected onto the other segment are candidates too.
    if len1_sq >= tiny && len2_sq >= tiny {
        let d1_d2 = d1.dot(d2);
        let det = len1_sq * len2_sq - d1_d2 * d1_d2;
        if det < 1.0e-3 * len1_sq * len2_sq {
            let candidates = [
                (0.0, (r_d2 / len2_sq).clamp(0.0, 1.0)),
                (1.0, ((r_d2 + d1_d2) / len2_sq).clamp(0.0, 1.0)),
                ((-r_d1 / len1_sq).clamp(0.0, 1.0), 0.0),
                (((d1_d2 - r_d1) / len1_sq).clamp(0.0, 1.0), 1.0),
            ];
            for (f1, f2) in candidates {
                let c = at(f1, f2);
                if c.distance_squared < best.distance_squared {
                    best = c;
                }
            }
        }
    }
    best
}

/// One vertex of the GJK simplex: a point of the Minkowski difference `A − B` and
/// the two support points it came from. Everything is in A's frame.
#[derive(Clone, Copy, Debug, Default)]
struct SimplexVertex {
    /// Support point on A.
    wa: Vec2,
    /// Support point on B.
    wb: Vec2,
    /// `wa − wb`.
    w: Vec2,
    /// Barycentric weight of this vertex in the closest point.
    weight: f32,
    /// Index of `wa` in proxy A.
    index_a: u8,
    /// Index of `wb` in proxy B.
    index_b: u8,
}

impl SimplexVertex {
    fn new(a: &[Vec2], index_a: usize, b: &[Vec2], index_b: usize) -> SimplexVertex {
        let (wa, wb) = (a[index_a], b[index_b]);
        SimplexVertex {
            wa,
            wb,
            w: wa - wb,
            weight: 1.0,
            index_a: index_a as u8,
            index_b: index_b as u8,
        }
    }
}

/// The GJK simplex: a point, segment or triangle of `A − B` whose closest point to
/// the origin approaches the origin's closest point on `A − B`.
#[derive(Clone, Copy, Debug)]
struct Simplex {
    v: [SimplexVertex; 3],
    count: usize,
}

impl Simplex {
    /// Rebuilds the simplex of a previous call from its vertex indices, or starts
    /// from the first points when the cache is empty or does not fit these proxies.
    fn from_cache(cache: &SimplexCache, a: &[Vec2], b: &[Vec2]) -> Simplex {
        let n = cache.count as usize;
        let fits = (1..=3).contains(&n)
            && cache.index_a[..n].iter().all(|&i| (i as usize) < a.len())
            && cache.index_b[..n].iter().all(|&i| (i as usize) < b.len());
        let mut s = Simplex {
            v: [SimplexVertex::default(); 3],
            count: 1,
        };
        if fits {
            for i in 0..n {
                s.v[i] =
                    SimplexVertex::new(a, cache.index_a[i] as usize, b, cache.index_b[i] as usize);
            }
            s.count = n;
        } else {
            s.v[0] = SimplexVertex::new(a, 0, b, 0);
        }
        s
    }

    fn cache(&self) -> SimplexCache {
        let mut cache = SimplexCache {
            count: self.count as u16,
            ..SimplexCache::default()
        };
        for i in 0..self.count {
            cache.index_a[i] = self.v[i].index_a;
            cache.index_b[i] = self.v[i].index_b;
        }
        cache
    }

    fn contains(&self, index_a: u8, index_b: u8) -> bool {
        self.v[..self.count]
            .iter()
            .any(|v| v.index_a == index_a && v.index_b == index_b)
    }

    /// Reduces the simplex to the smallest sub-simplex whose Voronoi region holds
    /// the origin, sets the barycentric weights of the closest point, and returns
    /// the vector from that closest point to the origin (zero when the origin is
    /// inside the triangle).
    fn solve(&mut self) -> Vec2 {
        match self.count {
            1 => {
                self.v[0].weight = 1.0;
                -self.v[0].w
            }
            2 => self.solve_segment(),
            _ => self.solve_triangle(),
        }
    }

    /// Keeps only vertex `i`.
    fn keep_vertex(&mut self, i: usize) -> Vec2 {
        self.v[0] = self.v[i];
        self.v[0].weight = 1.0;
        self.count = 1;
        -self.v[0].w
    }

    /// Keeps the edge `i–j` with unnormalised weights `ui` (of `i`) and `uj` (of `j`),
    /// both positive.
    fn keep_edge(&mut self, i: usize, j: usize, ui: f32, uj: f32) -> Vec2 {
        let (vi, vj) = (self.v[i], self.v[j]);
        let [wi, wj] = weights([ui, uj]);
        self.v[0] = vi;
        self.v[1] = vj;
        self.v[0].weight = wi;
        self.v[1].weight = wj;
        self.count = 2;
        edge_to_origin(vi.w, vj.w)
    }

    fn solve_segment(&mut self) -> Vec2 {
        let (w1, w2) = (self.v[0].w, self.v[1].w);
        let e = w2 - w1;
        // Writing the closest point as u1·w1 + u2·w2 over |e|²: u2 measures how far
        // past w1 the origin projects along e, u1 how far short of w2.
        let u2 = -w1.dot(e);
        if u2 <= 0.0 {
            return self.keep_vertex(0);
        }
        let u1 = w2.dot(e);
        if u1 <= 0.0 {
            return self.keep_vertex(1);
        }
        self.keep_edge(0, 1, u1, u2)
    }

    fn solve_triangle(&mut self) -> Vec2 {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);

        // Segment weights of each edge, as in `solve_segment`.
        let e12 = w2 - w1;
        let (u12_1, u12_2) = (w2.dot(e12), -w1.dot(e12));
        let e13 = w3 - w1;
        let (u13_1, u13_3) = (w3.dot(e13), -w1.dot(e13));
        let e23 = w3 - w2;
        let (u23_2, u23_3) = (w3.dot(e23), -w2.dot(e23));

        // Triangle weights: the signed areas of the sub-triangles opposite each
        // vertex, times the orientation's sign so that they are positive inside.
        // Only the sign is taken: the product of two cross products of a triangle
        // with a 1e-21 m edge underflows to 0, which read as "outside across that
        // edge" kept the degenerate edge, 7 mm further from the origin than the
        // triangle's nearest edge (a time of impact then stepped past a contact).
        let orientation = e12.cross(e13);
        let sign = if orientation == 0.0 {
            0.0
        } else {
            orientation.signum()
        };
        let t1 = sign * w2.cross(w3);
        let t2 = sign * w3.cross(w1);
        let t3 = sign * w1.cross(w2);

        // Vertex regions come first, then edges (an edge region also needs the origin
        // outside the triangle across that edge), then the interior.
        if u12_2 <= 0.0 && u13_3 <= 0.0 {
            return self.keep_vertex(0);
        }
        if u12_1 > 0.0 && u12_2 > 0.0 && t3 <= 0.0 {
            return self.keep_edge(0, 1, u12_1, u12_2);
        }
        if u13_1 > 0.0 && u13_3 > 0.0 && t2 <= 0.0 {
            return self.keep_edge(0, 2, u13_1, u13_3);
        }
        if u12_1 <= 0.0 && u23_3 <= 0.0 {
            return self.keep_vertex(1);
        }
        if u13_1 <= 0.0 && u23_2 <= 0.0 {
            return self.keep_vertex(2);
        }
        if u23_2 > 0.0 && u23_3 > 0.0 && t1 <= 0.0 {
            return self.keep_edge(1, 2, u23_2, u23_3);
        }

        // The origin is inside, or round-off failed every test above: a sliver
        // triangle far from the origin (two support points a few millimetres
        // apart, the third 100 m away, all 100 m from the origin) has cross
        // products made of round-off, whose signs mean nothing. The origin is
        // inside exactly when the three cross products `wj × wk` (twice the
        // signed areas of the sub-triangles it makes with each edge) have one
        // sign; it counts as inside only when each of them is further from
        // zero than its round-off, so that their computed signs are the exact
        // ones. Otherwise the nearest edge stands, at a distance of round-off
        // when the origin is that close to it. (Testing the point the weights
        // give instead fails both ways for vertices 100 m out: weights of
        // ±1.3e7 summed a point 53 m out to exactly 0, and the f32 weights of
        // a 600 m sliver that holds the origin 8 mm inside its long edge
        // summed a point 17 mm away.)
        let certain = |a: Vec2, b: Vec2| {
            let c = a.cross(b);
            let bound =
                CROSS_ROUND_OFF * CROSS_ROUND_OFF * (a.length_squared() * b.length_squared());
            (c * c > bound).then_some(c)
        };
        if let (Some(c1), Some(c2), Some(c3)) = (certain(w2, w3), certain(w3, w1), certain(w1, w2))
            && (c1 > 0.0) == (c2 > 0.0)
            && (c1 > 0.0) == (c3 > 0.0)
        {
            for (v, w) in self.v.iter_mut().zip(weights([c1, c2, c3])) {
                v.weight = w;
            }
            self.count = 3;
            return Vec2::ZERO;
        }
        self.keep_nearest_edge()
    }

    /// Keeps the edge of the triangle (or the vertex of that edge) nearest to
    /// the origin, and returns the vector from it to the origin.
    fn keep_nearest_edge(&mut self) -> Vec2 {
        let mut best = (f32::INFINITY, *self, Vec2::ZERO);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let mut edge = Simplex {
                v: [self.v[i], self.v[j], self.v[j]],
                count: 2,
            };
            let d = edge.solve_segment();
            if d.length_squared() < best.0 {
                best = (d.length_squared(), edge, d);
            }
        }
        *self = best.1;
        best.2
    }

    /// The closest points on A and on B (A's frame) that the simplex stands for.
    fn witness_points(&self) -> (Vec2, Vec2) {
        match self.count {
            1 => (self.v[0].wa, self.v[0].wb),
            2 => {
                let (v1, v2) = (self.v[0], self.v[1]);
                (
                    v1.weight * v1.wa + v2.weight * v2.wa,
                    v1.weight * v1.wb + v2.weight * v2.wb,
                )
            }
            _ => {
                // The origin is inside: A and B share this point.
                let [v1, v2, v3] = self.v;
                let p = v1.weight * v1.wa + v2.weight * v2.wa + v3.weight * v3.wa;
                (p, p)
            }
        }
    }
}

/// Barycentric weights summing to 1 from unnormalised ones of one sign, `u · (1/Σu)`.
/// When the sum is so small (subnormal, an edge of 1e-21 m) that its reciprocal
/// overflows, each weight is divided by the sum instead, which stays finite.
#[inline]
fn weights<const N: usize>(u: [f32; N]) -> [f32; N] {
    let sum = u.iter().sum::<f32>();
    let inv = 1.0 / sum;
    if inv.is_finite() {
        u.map(|x| x * inv)
    } else {
        u.map(|x| x / sum)
    }
}

/// The vector from the closest point of the line through `w1`, `w2` to the origin.
/// Computed as a multiple of the edge's perpendicular so that it stays exactly
/// perpendicular to the edge (subtracting nearly equal points would not). An edge
/// whose squared length is not a normal `f32` (shorter than about 1e-19 m) is a
/// point: the vector to its midpoint.
#[inline]
fn edge_to_origin(w1: Vec2, w2: Vec2) -> Vec2 {
    let e = w2 - w1;
    let mid = 0.5 * (w1 + w2);
    if e.dot(e) < f32::MIN_POSITIVE {
        return -mid;
    }
    // `mid × e / |e|²` is the signed distance from the line to the origin over |e|.
    (mid.cross(e) / e.dot(e)) * e.left_perp()
}

/// The distance between two convex proxies by GJK, with their closest points.
///
/// `cache` warm-starts the search from the simplex of a previous call (pass
/// `SimplexCache::default()` the first time) and receives this call's simplex. A
/// cache that does not fit the proxies is ignored. When the proxies' cores overlap
/// the distance is 0, the normal zero and both points a common point of the two
/// cores. With `use_radii` the radii are subtracted (never below 0) and the points
/// moved onto the rounded surfaces along the normal.
///
/// Proxies should be valid (see [`make_proxy`]); a hand-built `count` outside
/// 1..=8 is clamped into that range. The result is finite for finite input.
///
/// Box2D: `b2ShapeDistance`.
pub fn shape_distance(input: &DistanceInput, cache: &mut SimplexCache) -> DistanceOutput {
    let xf_a = input.transform_a;
    let a = input.proxy_a.active_points();

    // Work in A's frame: B's points are moved there once, and the result moved back.
    let b_to_a = xf_a.inv_mul(input.transform_b);
    let mut b_buf = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let b_src = input.proxy_b.active_points();
    for (dst, &p) in b_buf.iter_mut().zip(b_src) {
        *dst = b_to_a.apply(p);
    }
    let b = &b_buf[..b_src.len()];

    let mut simplex = Simplex::from_cache(cache, a, b);
    let mut to_origin = Vec2::ZERO;
    let mut iterations = 0;
    let mut overlapping = false;

    loop {
        // Remember the vertices before reduction: a support point equal to any of
        // them means no further progress is possible.
        let previous = simplex;
        let d = simplex.solve();
        if simplex.count == 3 || d.length_squared() < f32::EPSILON * f32::EPSILON {
            // The origin is in the triangle, or (numerically) on the segment or point.
            overlapping = true;
            break;
        }
        to_origin = d;
        if iterations == MAX_GJK_ITERATIONS {
            break;
        }
        let index_a = find_support(a, d);
        let index_b = find_support(b, -d);
        iterations += 1;
        if previous.contains(index_a as u8, index_b as u8) {
            break;
        }
        simplex.v[simplex.count] = SimplexVertex::new(a, index_a, b, index_b);
        simplex.count += 1;
    }

    *cache = simplex.cache();
    let (local_a, local_b) = simplex.witness_points();
    let mut output = DistanceOutput {
        point_a: xf_a.apply(local_a),
        point_b: xf_a.apply(local_b),
        normal: Vec2::ZERO,
        distance: 0.0,
        iterations,
        simplex_count: simplex.count as u32,
    };
    if overlapping {
        return output;
    }

    let normal = xf_a.q.rotate(to_origin.normalize());
    output.normal = normal;
    output.distance = local_a.distance(local_b);
    if input.use_radii {
        let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
        output.distance = (output.distance - ra - rb).max(0.0);
        // The points stay on the surfaces even when the rounded shapes overlap, so
        // they move continuously with the shapes.
        output.point_a = Vec2::mul_add(output.point_a, ra, normal);
        output.point_b = Vec2::mul_sub(output.point_b, rb, normal);
    }
    output
}

/// Casts proxy B along `translation_b` against the stationary proxy A by
/// conservative advancement: repeatedly measure the distance with GJK and move B
/// forward by the distance still to go over B's approach speed along the normal.
///
/// B stops when its core is within `max(LINEAR_SLOP, rA + rB − LINEAR_SLOP)` of
/// A's core (so rounded shapes end up touching with a linear slop of overlap), to
/// within a quarter of the linear slop. On a hit, `fraction` is the fraction of
/// `translation_b`, `point` lies on A's surface and `normal` is A's surface normal
/// there (pointing towards B).
///
/// When B starts within the target (the shapes touch or overlap) the result is a
/// hit at fraction 0 whose point is midway between the surfaces; its normal points from A's core to
/// B's core, or against the translation when the cores themselves overlap (zero if
/// the translation is zero as well). With `can_encroach`, shapes whose cores are
/// still more than two linear slops apart may start inside each other's radius and
/// move one linear slop deeper before the hit.
///
/// Non-finite transforms, translation or `max_fraction` give "no hit".
///
/// Box2D: `b2ShapeCast`.
pub fn shape_cast(input: &ShapeCastPairInput) -> CastOutput {
    let mut output = CastOutput::default();
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    if !input.transform_a.is_valid()
        || !input.transform_b.is_valid()
        || !input.translation_b.is_finite()
        || !input.max_fraction.is_finite()
        || !ra.is_finite()
        || !rb.is_finite()
    {
        return output;
    }

    let tolerance = TOI_TARGET_FRACTION * LINEAR_SLOP;
    let mut target = LINEAR_SLOP.max(ra + rb - LINEAR_SLOP);
    // Relative first: the cast runs in A's frame (B's pose and translation moved
    // there once), so shapes far from the origin lose nothing to the size of their
    // world coordinates; the answer is moved back at the end.
    let xf_a = input.transform_a;
    let start_b = xf_a.inv_mul(input.transform_b);
    let delta = xf_a.q.inv_rotate(input.translation_b);
    let mut distance_input = DistanceInput {
        proxy_a: input.proxy_a,
        proxy_b: input.proxy_b,
        transform_a: Transform::IDENTITY,
        transform_b: start_b,
        use_radii: false,
    };
    let to_world = |mut output: CastOutput| {
        output.normal = xf_a.q.rotate(output.normal);
        output.point = xf_a.apply(output.point);
        output
    };
    let mut cache = SimplexCache::default();
    let mut fraction = 0.0;

    for iteration in 0..MAX_CAST_ITERATIONS {
        output.iterations = iteration + 1;
        let d = shape_distance(&distance_input, &mut cache);

        if d.distance < target + tolerance {
            if iteration > 0 {
                output.hit = true;
                output.fraction = fraction;
                output.normal = d.normal;
                output.point = Vec2::mul_add(d.point_a, ra, d.normal);
                return to_world(output);
            }
            if input.can_encroach && d.distance > 2.0 * LINEAR_SLOP {
                // Allow the move to sink one more slop into the current overlap.
                target = d.distance - LINEAR_SLOP;
            } else {
                output.hit = true;
                output.normal = if d.distance > 0.0 {
                    d.normal
                } else {
                    (-delta).normalize()
                };
                let surface_a = Vec2::mul_add(d.point_a, ra, d.normal);
                let surface_b = Vec2::mul_sub(d.point_b, rb, d.normal);
                output.point = surface_a.lerp(surface_b, 0.5);
                return to_world(output);
            }
        }

        // Speed of approach along the normal (negative when closing in).
        let approach = delta.dot(d.normal);
        if approach >= 0.0 {
            return output;
        }
        fraction += (target - d.distance) / approach;
        if fraction >= input.max_fraction {
            return output;
        }
        distance_input.transform_b.p = Vec2::mul_add(start_b.p, fraction, delta);
    }

    // Out of iterations without reaching the target: report no hit.
    output
}

/// Sweeps `input.proxy` along `input.translation` against a shape at rest in the
/// same frame (metres): [`shape_cast`] with the shape as A and both transforms the
/// identity. `point` and `normal` are on the shape's surface.
fn shape_cast_against(shape: ShapeProxy, input: &ShapeCastInput) -> CastOutput {
    shape_cast(&ShapeCastPairInput {
        proxy_a: shape,
        proxy_b: input.proxy,
        transform_a: Transform::IDENTITY,
        transform_b: Transform::IDENTITY,
        translation_b: input.translation,
        max_fraction: input.max_fraction,
        can_encroach: input.can_encroach,
    })
}

/// Casts `input.proxy` along `input.translation` against a circle at rest, both in
/// the same frame (metres); see [`shape_cast`] for the result.
///
/// Box2D: `b2ShapeCastCircle`.
pub fn shape_cast_circle(input: &ShapeCastInput, shape: &Circle) -> CastOutput {
    shape_cast_against(ShapeProxy::from_circle(shape), input)
}

/// Casts `input.proxy` along `input.translation` against a capsule at rest, both
/// in the same frame (metres); see [`shape_cast`] for the result.
///
/// Box2D: `b2ShapeCastCapsule`.
pub fn shape_cast_capsule(input: &ShapeCastInput, shape: &Capsule) -> CastOutput {
    shape_cast_against(ShapeProxy::from_capsule(shape), input)
}

/// Casts `input.proxy` along `input.translation` against a segment at rest, both
/// in the same frame (metres); see [`shape_cast`] for the result.
///
/// Box2D: `b2ShapeCastSegment`.
pub fn shape_cast_segment(input: &ShapeCastInput, shape: &Segment) -> CastOutput {
    shape_cast_against(ShapeProxy::from_segment(shape), input)
}

/// Casts `input.proxy` along `input.translation` against a polygon at rest, both
/// in the same frame (metres); see [`shape_cast`] for the result.
///
/// Box2D: `b2ShapeCastPolygon`.
pub fn shape_cast_polygon(input: &ShapeCastInput, shape: &Polygon) -> CastOutput {
    shape_cast_against(ShapeProxy::from_polygon(shape), input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{make_box, make_offset_box, make_square};
    use crate::math::Rot;

    const EPS: f32 = 1e-5;

    fn near(a: f32, b: f32, tol: f32) -> bool {
        (a - b).abs() <= tol
    }

    fn near_vec(a: Vec2, b: Vec2, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    fn distance(
        a: ShapeProxy,
        xf_a: Transform,
        b: ShapeProxy,
        xf_b: Transform,
        use_radii: bool,
    ) -> DistanceOutput {
        let input = DistanceInput {
            proxy_a: a,
            proxy_b: b,
            transform_a: xf_a,
            transform_b: xf_b,
            use_radii,
        };
        shape_distance(&input, &mut SimplexCache::default())
    }

    fn at(x: f32, y: f32) -> Transform {
        Transform::new(Vec2::new(x, y), Rot::IDENTITY)
    }

    fn point_proxy(x: f32, y: f32, radius: f32) -> ShapeProxy {
        make_proxy(&[Vec2::new(x, y)], radius).unwrap()
    }

    #[test]
    fn make_proxy_validates_its_input() {
        assert!(matches!(
            make_proxy(&[], 0.0),
            Err(Error::InvalidGeometry(_))
        ));
        assert!(matches!(
            make_proxy(&[Vec2::ZERO; 9], 0.0),
            Err(Error::InvalidGeometry(_))
        ));
        assert!(matches!(
            make_proxy(&[Vec2::new(f32::NAN, 0.0)], 0.0),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            make_proxy(&[Vec2::ZERO], -0.1),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            make_proxy(&[Vec2::ZERO], f32::INFINITY),
            Err(Error::NonFinite { .. })
        ));
        let p = make_proxy(&[Vec2::X, Vec2::Y, Vec2::ZERO], 0.25).unwrap();
        assert_eq!(p.count, 3);
        assert_eq!(p.radius, 0.25);
        assert_eq!(p.points[1], Vec2::Y);
    }

    #[test]
    fn offset_proxy_moves_the_points() {
        // A quarter turn maps (1, 0) to (0, 1), then the shift by (2, 3) gives (2, 4).
        let xf = Transform::from_angle(Vec2::new(2.0, 3.0), 0.5 * crate::math::PI);
        let p = make_offset_proxy(&[Vec2::X, Vec2::new(0.0, -2.0)], 0.0, xf).unwrap();
        assert!(near_vec(p.points[0], Vec2::new(2.0, 4.0), EPS));
        assert!(near_vec(p.points[1], Vec2::new(4.0, 3.0), EPS));
        let bad = Transform::new(Vec2::new(f32::NAN, 0.0), Rot::IDENTITY);
        assert!(make_offset_proxy(&[Vec2::X], 0.0, bad).is_err());
    }

    #[test]
    fn proxies_from_shapes() {
        let c = ShapeProxy::from_circle(&Circle::new(Vec2::new(1.0, 2.0), 0.5).unwrap());
        assert_eq!(
            (c.count, c.radius, c.points[0]),
            (1, 0.5, Vec2::new(1.0, 2.0))
        );
        let cap =
            ShapeProxy::from_capsule(&Capsule::new(Vec2::ZERO, Vec2::new(1.0, 0.0), 0.2).unwrap());
        assert_eq!((cap.count, cap.radius, cap.points[1]), (2, 0.2, Vec2::X));
        let seg = ShapeProxy::from_segment(&Segment::new(Vec2::Y, Vec2::X).unwrap());
        assert_eq!((seg.count, seg.radius, seg.points[0]), (2, 0.0, Vec2::Y));
        let poly = ShapeProxy::from_polygon(&make_box(1.0, 2.0).unwrap());
        assert_eq!((poly.count, poly.radius), (4, 0.0));
        assert!(poly.points[..4].contains(&Vec2::new(1.0, 2.0)));
        assert!(poly.points[..4].contains(&Vec2::new(-1.0, -2.0)));
    }

    #[test]
    fn squares_three_apart_face_to_face() {
        // Half-width 1, centres 3 apart: faces at x = 1 and x = 2.
        let sq = ShapeProxy::from_polygon(&make_square(1.0).unwrap());
        let out = distance(sq, at(0.0, 0.0), sq, at(3.0, 0.0), false);
        assert!(near(out.distance, 1.0, EPS), "{out:?}");
        assert!(near_vec(out.normal, Vec2::X, EPS));
        // The faces overlap over y ∈ [−1, 1]: any pair straight across is closest.
        assert!(near(out.point_a.x, 1.0, EPS) && near(out.point_b.x, 2.0, EPS));
        assert!(near(out.point_a.y, out.point_b.y, EPS) && out.point_a.y.abs() <= 1.0 + EPS);
        assert!((1..=2).contains(&out.simplex_count));
    }

    #[test]
    fn square_against_diamond_has_unique_closest_points() {
        // B is the same square turned 45°: its corner points at A, √2 from its centre.
        // With the centre at 2 + √2 that corner is at (2, 0), one metre from A's face.
        let sq = ShapeProxy::from_polygon(&make_square(1.0).unwrap());
        let xf_b = Transform::from_angle(Vec2::new(2.0 + 2f32.sqrt(), 0.0), 0.25 * crate::math::PI);
        let out = distance(sq, at(0.0, 0.0), sq, xf_b, false);
        assert!(near(out.distance, 1.0, EPS), "{out:?}");
        assert!(near_vec(out.point_a, Vec2::new(1.0, 0.0), EPS));
        assert!(near_vec(out.point_b, Vec2::new(2.0, 0.0), EPS));
        assert!(near_vec(out.normal, Vec2::X, EPS));
    }

    #[test]
    fn point_against_segment() {
        let seg = make_proxy(&[Vec2::ZERO, Vec2::new(2.0, 0.0)], 0.0).unwrap();
        // Above the interior: straight down onto the segment.
        let out = distance(
            seg,
            at(0.0, 0.0),
            point_proxy(0.5, 2.0, 0.0),
            at(0.0, 0.0),
            false,
        );
        assert!(near(out.distance, 2.0, EPS));
        assert!(near_vec(out.point_a, Vec2::new(0.5, 0.0), EPS));
        assert!(near_vec(out.normal, Vec2::Y, EPS));
        // Beyond the end (3, 1): the end point (2, 0) at √2, normal along (1, 1)/√2.
        let out = distance(
            seg,
            at(0.0, 0.0),
            point_proxy(0.0, 0.0, 0.0),
            at(3.0, 1.0),
            false,
        );
        assert!(near(out.distance, 2f32.sqrt(), EPS));
        assert!(near_vec(out.point_a, Vec2::new(2.0, 0.0), EPS));
        assert!(near_vec(out.normal, Vec2::new(1.0, 1.0).normalize(), EPS));
        // On the segment: overlap.
        let out = distance(
            seg,
            at(0.0, 0.0),
            point_proxy(1.0, 0.0, 0.0),
            at(0.0, 0.0),
            false,
        );
        assert_eq!(out.distance, 0.0);
        assert_eq!(out.normal, Vec2::ZERO);
    }

    #[test]
    fn circle_against_rotated_box_with_radius() {
        // A: box 2 × 0.5 half-extents turned a quarter turn, so it spans x ∈ [−0.5, 0.5],
        // y ∈ [−2, 2]. B: circle of radius 0.5 at (3, 1). Core gap 2.5, surface gap 2.
        let bar = ShapeProxy::from_polygon(&make_box(2.0, 0.5).unwrap());
        let xf_a = Transform::from_angle(Vec2::ZERO, 0.5 * crate::math::PI);
        let circle = ShapeProxy::from_circle(&Circle::new(Vec2::ZERO, 0.5).unwrap());
        let core = distance(bar, xf_a, circle, at(3.0, 1.0), false);
        assert!(near(core.distance, 2.5, EPS), "{core:?}");
        assert!(near_vec(core.point_a, Vec2::new(0.5, 1.0), EPS));
        assert!(near_vec(core.point_b, Vec2::new(3.0, 1.0), EPS));
        let surf = distance(bar, xf_a, circle, at(3.0, 1.0), true);
        assert!(near(surf.distance, 2.0, EPS));
        assert!(near_vec(surf.point_a, Vec2::new(0.5, 1.0), EPS));
        assert!(near_vec(surf.point_b, Vec2::new(2.5, 1.0), EPS));
        assert!(near_vec(surf.normal, Vec2::X, EPS));
    }

    #[test]
    fn radii_overlap_reports_zero_but_keeps_the_normal() {
        // Circles of radius 1 with centres 1.5 apart overlap by 0.5.
        let c = point_proxy(0.0, 0.0, 1.0);
        let out = distance(c, at(0.0, 0.0), c, at(1.5, 0.0), true);
        assert_eq!(out.distance, 0.0);
        assert!(near_vec(out.normal, Vec2::X, EPS));
        assert!(near_vec(out.point_a, Vec2::new(1.0, 0.0), EPS));
        assert!(near_vec(out.point_b, Vec2::new(0.5, 0.0), EPS));
    }

    #[test]
    fn overlapping_boxes_give_zero() {
        let sq = ShapeProxy::from_polygon(&make_square(1.0).unwrap());
        let out = distance(
            sq,
            at(0.0, 0.0),
            sq,
            Transform::from_angle(Vec2::new(1.2, 0.7), 0.3),
            false,
        );
        assert_eq!(out.distance, 0.0);
        assert_eq!(out.normal, Vec2::ZERO);
        // The common point lies inside both squares.
        let p = out.point_a;
        assert!(p.x.abs() <= 1.0 + EPS && p.y.abs() <= 1.0 + EPS);
        assert_eq!(out.point_a, out.point_b);
    }

    #[test]
    fn warm_start_matches_cold_start() {
        let a = ShapeProxy::from_polygon(
            &make_offset_box(1.0, 0.5, Vec2::new(0.2, 0.0), Rot::from_angle(0.4)).unwrap(),
        );
        let b = ShapeProxy::from_polygon(&make_box(0.7, 0.3).unwrap());
        let mut cache = SimplexCache::default();
        let mut cold_iterations = 0;
        for step in 0..20 {
            let xf_b =
                Transform::from_angle(Vec2::new(3.0 - 0.05 * step as f32, 1.0), 0.1 * step as f32);
            let input = DistanceInput {
                proxy_a: a,
                proxy_b: b,
                transform_a: at(0.0, 0.0),
                transform_b: xf_b,
                use_radii: false,
            };
            let cold = shape_distance(&input, &mut SimplexCache::default());
            let warm = shape_distance(&input, &mut cache);
            assert!(near(cold.distance, warm.distance, 1e-5), "step {step}");
            assert!(cache.count >= 1 && cache.count <= 2);
            cold_iterations += cold.iterations;
            // Re-running with the cache just written needs at most one support query.
            let again = shape_distance(&input, &mut cache);
            assert!(again.iterations <= 1, "{again:?}");
            assert_eq!(again.distance, warm.distance);
        }
        assert!(cold_iterations > 20);
    }

    #[test]
    fn stale_or_foreign_cache_is_ignored() {
        let sq = ShapeProxy::from_polygon(&make_square(1.0).unwrap());
        let input = DistanceInput {
            proxy_a: sq,
            proxy_b: point_proxy(0.0, 0.0, 0.0),
            transform_a: at(0.0, 0.0),
            transform_b: at(3.0, 0.5),
            use_radii: false,
        };
        let mut cache = SimplexCache {
            count: 3,
            index_a: [7, 0, 1],
            index_b: [5, 5, 5],
        };
        let out = shape_distance(&input, &mut cache);
        assert!(near(out.distance, 2.0, EPS));
        let mut cache = SimplexCache {
            count: 9,
            ..SimplexCache::default()
        };
        assert!(near(shape_distance(&input, &mut cache).distance, 2.0, EPS));
    }

    #[test]
    fn hand_built_proxies_do_not_panic() {
        // A default proxy has count 0: it is used as a single point at the origin.
        let empty = ShapeProxy::default();
        let out = distance(empty, at(0.0, 0.0), empty, at(0.0, 2.0), false);
        assert!(near(out.distance, 2.0, EPS));
        let mut huge = point_proxy(1.0, 0.0, 0.0);
        huge.count = 100;
        let _ = distance(huge, at(0.0, 0.0), empty, at(0.0, 2.0), true);
        let mut nan = point_proxy(0.0, 0.0, 0.0);
        nan.points[0].x = f32::NAN;
        nan.radius = f32::NAN;
        let _ = distance(nan, at(0.0, 0.0), huge, at(0.0, 2.0), true);
        let _ = shape_cast(&ShapeCastPairInput {
            proxy_a: nan,
            proxy_b: huge,
            translation_b: Vec2::new(-1.0, 0.0),
            max_fraction: 1.0,
            ..ShapeCastPairInput::default()
        });
    }

    #[test]
    fn segment_distance_crossing() {
        let r = segment_distance(
            Vec2::new(-1.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, -1.0),
            Vec2::new(0.0, 1.0),
        );
        assert!(near(r.distance_squared, 0.0, EPS));
        assert!(near(r.fraction1, 0.5, EPS) && near(r.fraction2, 0.5, EPS));
        assert!(near_vec(r.closest1, Vec2::ZERO, EPS) && near_vec(r.closest2, Vec2::ZERO, EPS));
    }

    #[test]
    fn segment_distance_parallel() {
        // y = 0 over x ∈ [0, 2] and y = 1 over x ∈ [1, 3]: gap 1 anywhere over x ∈ [1, 2].
        let r = segment_distance(
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(3.0, 1.0),
        );
        assert!(near(r.distance_squared, 1.0, EPS));
        assert!(near_vec(r.closest2 - r.closest1, Vec2::Y, EPS));
        assert!((1.0 - EPS..=2.0 + EPS).contains(&r.closest1.x));
        assert!(near_vec(r.closest1, Vec2::new(2.0 * r.fraction1, 0.0), EPS));
        assert!(near_vec(
            r.closest2,
            Vec2::new(1.0 + 2.0 * r.fraction2, 1.0),
            EPS
        ));
        // Parallel and disjoint along the line: end to end.
        let r = segment_distance(
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(3.0, 0.0),
        );
        assert!(near(r.distance_squared, 4.0, EPS));
        assert!(near(r.fraction1, 1.0, EPS) && near(r.fraction2, 1.0, EPS));
    }

    #[test]
    fn segment_distance_skew_ends() {
        // (0,0)–(1,0) against (2,1)–(2,3): end (1,0) to end (2,1), squared distance 2.
        let r = segment_distance(
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(2.0, 3.0),
        );
        assert!(near(r.distance_squared, 2.0, EPS));
        assert!(near(r.fraction1, 1.0, EPS) && near(r.fraction2, 0.0, EPS));
    }

    #[test]
    fn segment_distance_degenerate() {
        let p = Vec2::new(0.5, 1.0);
        let (s1, s2) = (Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
        // A point against a segment, either way round: the foot (0.5, 0) at distance 1.
        let r = segment_distance(p, p, s1, s2);
        assert!(near(r.distance_squared, 1.0, EPS) && near(r.fraction2, 0.75, EPS));
        assert!(near_vec(r.closest1, p, EPS) && near_vec(r.closest2, Vec2::new(0.5, 0.0), EPS));
        let r = segment_distance(s1, s2, p, p);
        assert!(near(r.distance_squared, 1.0, EPS) && near(r.fraction1, 0.75, EPS));
        // A point beyond the end clamps to it.
        let r = segment_distance(Vec2::new(3.0, 0.0), Vec2::new(3.0, 0.0), s1, s2);
        assert!(near(r.fraction2, 1.0, EPS) && near(r.distance_squared, 4.0, EPS));
        // Two points.
        let r = segment_distance(p, p, Vec2::ZERO, Vec2::ZERO);
        assert!(near(r.distance_squared, 1.25, EPS));
        assert_eq!((r.fraction1, r.fraction2), (0.0, 0.0));
    }

    fn circle_cast(start_x: f32, translation: Vec2, can_encroach: bool) -> CastOutput {
        let sq = ShapeProxy::from_polygon(&make_square(1.0).unwrap());
        shape_cast(&ShapeCastPairInput {
            proxy_a: sq,
            proxy_b: point_proxy(0.0, 0.0, 0.5),
            transform_a: at(0.0, 0.0),
            transform_b: at(start_x, 0.0),
            translation_b: translation,
            max_fraction: 1.0,
            can_encroach,
        })
    }

    #[test]
    fn circle_cast_against_box_hits_at_the_target() {
        // Circle of radius 0.5 from x = −5 towards the face x = −1 over 10 m. The cast
        // stops when the centre is r − slop = 0.495 from the face, x = −1.495, after
        // 3.505 m: fraction 0.3505, within a quarter slop over 10 m.
        let out = circle_cast(-5.0, Vec2::new(10.0, 0.0), false);
        assert!(out.hit);
        let want = (4.0 - (0.5 - LINEAR_SLOP)) / 10.0;
        assert!(
            near(out.fraction, want, 0.25 * LINEAR_SLOP / 10.0),
            "{out:?}"
        );
        assert!(near_vec(out.normal, Vec2::new(-1.0, 0.0), EPS));
        assert!(near_vec(out.point, Vec2::new(-1.0, 0.0), 1e-4));
        // Head-on against a face one advance lands on the target; the next confirms it.
        assert!(out.iterations <= 3, "{out:?}");
    }

    #[test]
    fn circle_cast_misses() {
        // Moving away, sideways past the box, or stopping short of it.
        assert!(!circle_cast(-5.0, Vec2::new(-10.0, 0.0), false).hit);
        assert!(!circle_cast(-5.0, Vec2::new(0.0, 10.0), false).hit);
        assert!(!circle_cast(-5.0, Vec2::new(3.0, 0.0), false).hit);
        // Passing above: the circle's lowest point stays 0.5 above the top face.
        let sq = ShapeProxy::from_polygon(&make_square(1.0).unwrap());
        let out = shape_cast(&ShapeCastPairInput {
            proxy_a: sq,
            proxy_b: point_proxy(0.0, 0.0, 0.5),
            transform_a: at(0.0, 0.0),
            transform_b: at(-5.0, 2.0),
            translation_b: Vec2::new(10.0, 0.0),
            max_fraction: 1.0,
            can_encroach: false,
        });
        assert!(!out.hit);
        // Non-finite input is "no hit".
        assert!(!circle_cast(-5.0, Vec2::new(f32::NAN, 0.0), false).hit);
    }

    #[test]
    fn cast_starting_in_overlap_hits_at_zero() {
        // Centre 0.3 from the face: the circle pokes 0.2 into the box.
        let out = circle_cast(-1.3, Vec2::new(10.0, 0.0), false);
        assert!(out.hit);
        assert_eq!(out.fraction, 0.0);
        assert!(near_vec(out.normal, Vec2::new(-1.0, 0.0), EPS));
        // Midway between the box face (−1) and the circle's surface (−0.8).
        assert!(near_vec(out.point, Vec2::new(-0.9, 0.0), 1e-4));
        // Cores overlapping: the normal opposes the motion.
        let out = circle_cast(0.0, Vec2::new(0.0, -2.0), false);
        assert!(out.hit && out.fraction == 0.0);
        assert!(near_vec(out.normal, Vec2::Y, EPS));
    }

    #[test]
    fn encroaching_cast_moves_one_slop_deeper() {
        // Core gap 0.4 < r − slop: with encroachment the target becomes 0.4 − slop,
        // reached after one slop of travel over 1 m.
        let out = circle_cast(-1.4, Vec2::new(1.0, 0.0), true);
        assert!(out.hit);
        assert!(
            near(out.fraction, LINEAR_SLOP, 0.25 * LINEAR_SLOP),
            "{out:?}"
        );
        // Moving away from the overlap is free.
        assert!(!circle_cast(-1.4, Vec2::new(-1.0, 0.0), true).hit);
    }
    /// A point with radius 0.5 swept from x = 5 towards a unit circle at the origin
    /// stops with its core a linear slop inside the summed radius, at x = 1.495:
    /// fraction (5 − 1.495) / 10 of the 10 m translation.
    #[test]
    fn shape_cast_against_each_shape_stops_at_first_touch() {
        let input = ShapeCastInput {
            proxy: make_proxy(&[Vec2::new(5.0, 0.0)], 0.5).unwrap(),
            translation: Vec2::new(-10.0, 0.0),
            max_fraction: 1.0,
            can_encroach: false,
        };
        let expected = (5.0 - (1.5 - LINEAR_SLOP)) / 10.0;
        let tol = 0.25 * LINEAR_SLOP / 10.0 + 1e-6;
        let circle = Circle::new(Vec2::ZERO, 1.0).unwrap();
        let out = shape_cast_circle(&input, &circle);
        assert!(out.hit && near(out.fraction, expected, tol), "{out:?}");
        assert!(near_vec(out.point, Vec2::new(1.0, 0.0), 1e-3));
        assert!(near_vec(out.normal, Vec2::new(1.0, 0.0), 1e-4));
        // A vertical capsule of radius 1 through the origin: the same first touch.
        let capsule = Capsule::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 1.0).unwrap();
        let out = shape_cast_capsule(&input, &capsule);
        assert!(out.hit && near(out.fraction, expected, tol), "{out:?}");
        // A 2 m square (half-width 1): its face at x = 1 is touched at the same place.
        let out = shape_cast_polygon(&input, &make_square(1.0).unwrap());
        assert!(out.hit && near(out.fraction, expected, tol), "{out:?}");
        // A vertical segment at x = 1 (no radius): the core stops 0.5 − slop away.
        let segment = Segment::new(Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0)).unwrap();
        let out = shape_cast_segment(&input, &segment);
        assert!(out.hit && near(out.fraction, expected, tol), "{out:?}");
        // Moving away: no hit.
        let away = ShapeCastInput {
            translation: Vec2::new(10.0, 0.0),
            ..input
        };
        assert!(!shape_cast_circle(&away, &circle).hit);
    }
}
