//! Time of impact by conservative advancement on separating-axis functions.
//!
//! # References
//! - E. Catto, *Continuous Collision*, GDC 2013; Box2D v2.4 and v3 `b2TimeOfImpact`.
//! - B. Mirtich, *Impulse-based Dynamic Simulation of Rigid Body Systems* (1996),
//!   conservative advancement.

use super::distance::{DistanceInput, ShapeProxy, SimplexCache, find_support, shape_distance};
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES, TOI_TARGET_FRACTION};
use crate::math::{Sweep, Transform, Vec2};

/// Most distance evaluations (advances of the lower time bound) per call.
const MAX_TOI_ITERATIONS: u32 = 20;

/// Most evaluations of the separation function per root search.
const MAX_ROOT_ITERATIONS: u32 = 50;

/// Most root searches on one separating axis: each resolves the deepest vertex
/// pair at the far end of the interval, so a polygon needs at most one per vertex.
const MAX_PUSH_BACK_ITERATIONS: usize = MAX_POLYGON_VERTICES;

/// Input for [`time_of_impact`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiInput {
    /// The first shape, in its body's frame.
    pub proxy_a: ShapeProxy,
    /// The second shape, in its body's frame.
    pub proxy_b: ShapeProxy,
    /// Motion of the first body over the interval.
    pub sweep_a: Sweep,
    /// Motion of the second body over the interval.
    pub sweep_b: Sweep,
    /// The sweep fraction to search, in `[0, 1]` (usually 1).
    pub max_fraction: f32,
}

/// How [`time_of_impact`] ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToiState {
    /// The iteration limits were hit; `fraction` is the best conservative estimate.
    #[default]
    Failed,
    /// The shapes overlap at the start of the interval.
    Overlapped,
    /// The shapes come within the target separation at `fraction`.
    Hit,
    /// The shapes stay apart for the whole interval.
    Separated,
}

/// Output of [`time_of_impact`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiOutput {
    /// How the search ended.
    pub state: ToiState,
    /// The sweep fraction reached, in `[0, max_fraction]`.
    pub fraction: f32,
}

/// The axis along which a separation function measures, chosen from the closest
/// features of the two shapes at the time it is built.
#[derive(Clone, Copy, Debug)]
enum Axis {
    /// Vertex against vertex: a fixed world direction from A to B.
    Points { axis: Vec2 },
    /// An edge of A: its unit normal (pointing to B) and midpoint, in A's frame.
    FaceA { normal: Vec2, point: Vec2 },
    /// An edge of B: its unit normal (pointing to A) and midpoint, in B's frame.
    FaceB { normal: Vec2, point: Vec2 },
}

/// The transforms of bodies A and B at one time.
type Poses = (Transform, Transform);

/// The separation of the two shapes along one axis as a function of time.
///
/// For a fixed pair of vertices the separation is a smooth function of `t`; its
/// minimum over the vertices is a lower bound of the true distance as long as the
/// axis separates the shapes, which is what makes advancing along it conservative.
struct SeparationFunction<'a> {
    a: &'a [Vec2],
    b: &'a [Vec2],
    sweep_a: &'a Sweep,
    sweep_b: &'a Sweep,
    axis: Axis,
}

impl<'a> SeparationFunction<'a> {
    /// Builds the axis from the simplex that GJK left in `cache` with the bodies at
    /// `poses`: one vertex pair gives a point axis, two vertices on one shape that
    /// shape's edge. `closest` are the closest points in world space there.
    fn new(
        cache: &SimplexCache,
        a: &'a [Vec2],
        sweep_a: &'a Sweep,
        b: &'a [Vec2],
        sweep_b: &'a Sweep,
        (xf_a, xf_b): Poses,
        closest: (Vec2, Vec2),
    ) -> SeparationFunction<'a> {
        let points_axis = Axis::Points {
            axis: (closest.1 - closest.0).normalize(),
        };
        let axis = if cache.count != 2 {
            points_axis
        } else if cache.index_a[0] == cache.index_a[1] {
            // One vertex of A against an edge of B.
            let (b1, b2) = (b[cache.index_b[0] as usize], b[cache.index_b[1] as usize]);
            let vertex_a = xf_a.apply(a[cache.index_a[0] as usize]);
            edge_axis(b1, b2, xf_b, vertex_a)
                .map_or(points_axis, |(normal, point)| Axis::FaceB { normal, point })
        } else {
            // An edge of A against one or two vertices of B.
            let (a1, a2) = (a[cache.index_a[0] as usize], a[cache.index_a[1] as usize]);
            let vertex_b = xf_b.apply(b[cache.index_b[0] as usize]);
            edge_axis(a1, a2, xf_a, vertex_b)
                .map_or(points_axis, |(normal, point)| Axis::FaceA { normal, point })
        };
        SeparationFunction {
            a,
            b,
            sweep_a,
            sweep_b,
            axis,
        }
    }

    /// Both bodies' transforms at time `t`.
    #[inline]
    fn poses(&self, t: f32) -> Poses {
        (self.sweep_a.transform_at(t), self.sweep_b.transform_at(t))
    }

    /// The smallest separation along the axis with the bodies at `poses`, with the
    /// vertex pair that achieves it (the index on the shape owning a face axis is 0).
    fn min_separation(&self, (xf_a, xf_b): Poses) -> (f32, usize, usize) {
        match self.axis {
            Axis::Points { axis } => {
                let ia = find_support(self.a, xf_a.q.inv_rotate(axis));
                let ib = find_support(self.b, xf_b.q.inv_rotate(-axis));
                let s = (xf_b.apply(self.b[ib]) - xf_a.apply(self.a[ia])).dot(axis);
                (s, ia, ib)
            }
            Axis::FaceA { normal, point } => {
                let n = xf_a.q.rotate(normal);
                let ib = find_support(self.b, xf_b.q.inv_rotate(-n));
                let s = (xf_b.apply(self.b[ib]) - xf_a.apply(point)).dot(n);
                (s, 0, ib)
            }
            Axis::FaceB { normal, point } => {
                let n = xf_b.q.rotate(normal);
                let ia = find_support(self.a, xf_a.q.inv_rotate(-n));
                let s = (xf_a.apply(self.a[ia]) - xf_b.apply(point)).dot(n);
                (s, ia, 0)
            }
        }
    }

    /// The separation of the vertex pair `ia`, `ib` along the axis with the bodies
    /// at `poses`.
    fn separation(&self, ia: usize, ib: usize, (xf_a, xf_b): Poses) -> f32 {
        match self.axis {
            Axis::Points { axis } => (xf_b.apply(self.b[ib]) - xf_a.apply(self.a[ia])).dot(axis),
            Axis::FaceA { normal, point } => {
                (xf_b.apply(self.b[ib]) - xf_a.apply(point)).dot(xf_a.q.rotate(normal))
            }
            Axis::FaceB { normal, point } => {
                (xf_a.apply(self.a[ia]) - xf_b.apply(point)).dot(xf_b.q.rotate(normal))
            }
        }
    }
}

/// The unit normal and midpoint (local frame of `xf`) of the edge `p1–p2`, with
/// the normal turned towards `other` (world frame). `None` for a zero-length edge.
fn edge_axis(p1: Vec2, p2: Vec2, xf: Transform, other: Vec2) -> Option<(Vec2, Vec2)> {
    let mut normal = (p2 - p1).right_perp().normalize();
    if normal == Vec2::ZERO {
        return None;
    }
    let mid = p1.lerp(p2, 0.5);
    if (other - xf.apply(mid)).dot(xf.q.rotate(normal)) < 0.0 {
        normal = -normal;
    }
    Some((normal, mid))
}

/// What resolving one separating axis achieved.
enum AxisResult {
    /// The search is over.
    Done(ToiOutput),
    /// The shapes are known to stay at least at the target distance up to this
    /// time; the bodies' transforms then.
    Advanced(f32, Poses),
}

/// Finds the latest time in `[t1, t_max]` up to which the axis of `f` keeps the
/// shapes at least `target` apart, by repeatedly finding the deepest vertex pair at
/// the far end and solving for when that pair reaches the target. `poses1` and
/// `poses_max` are the bodies' transforms at `t1` and `t_max`.
///
/// The transforms at a time are computed once and reused (each costs a cosine and
/// sine per body): at `t1` and `t_max` from the caller, and at each root from the
/// root search.
fn resolve_axis(
    f: &SeparationFunction<'_>,
    (t1, poses1): (f32, Poses),
    (t_max, poses_max): (f32, Poses),
    target: f32,
    tolerance: f32,
) -> AxisResult {
    let (mut t2, mut poses2) = (t_max, poses_max);
    for _ in 0..MAX_PUSH_BACK_ITERATIONS {
        let (s2, ia, ib) = f.min_separation(poses2);
        if s2 > target + tolerance {
            // Apart along this axis at the end: apart throughout.
            return AxisResult::Done(ToiOutput {
                state: ToiState::Separated,
                fraction: t_max,
            });
        }
        if s2 > target - tolerance {
            return AxisResult::Advanced(t2, poses2);
        }
        let s1 = f.separation(ia, ib, poses1);
        if s1 < target - tolerance {
            // This pair is already too close at t1: the root search of an earlier
            // axis gave up too early.
            return AxisResult::Done(ToiOutput {
                state: ToiState::Failed,
                fraction: t1,
            });
        }
        if s1 <= target + tolerance {
            return AxisResult::Done(ToiOutput {
                state: ToiState::Hit,
                fraction: t1,
            });
        }
        if let Some((t, poses)) = find_root(f, ia, ib, (t1, s1), (t2, s2), target, tolerance) {
            (t2, poses2) = (t, poses);
        }
    }
    AxisResult::Advanced(t1, poses1)
}

/// Solves `separation(ia, ib, t) = target` (to within `tolerance`) for `t` between
/// `lo` (where the separation is above the target) and `hi` (below), alternating
/// bisection, which always halves the bracket, with the secant (false position)
/// step, which converges fast once the function is nearly linear. Returns the
/// root with the bodies' transforms there.
fn find_root(
    f: &SeparationFunction<'_>,
    ia: usize,
    ib: usize,
    lo: (f32, f32),
    hi: (f32, f32),
    target: f32,
    tolerance: f32,
) -> Option<(f32, Poses)> {
    let ((mut t_lo, mut s_lo), (mut t_hi, mut s_hi)) = (lo, hi);
    for i in 0..MAX_ROOT_ITERATIONS {
        // The bracket keeps s_lo ≥ target + tolerance > target − tolerance ≥ s_hi, so
        // the secant denominator is never zero.
        let t = if i % 2 == 1 {
            t_lo + (target - s_lo) * (t_hi - t_lo) / (s_hi - s_lo)
        } else {
            0.5 * (t_lo + t_hi)
        };
        let poses = f.poses(t);
        let s = f.separation(ia, ib, poses);
        if (s - target).abs() < tolerance {
            return Some((t, poses));
        }
        if s > target {
            (t_lo, s_lo) = (t, s);
        } else {
            (t_hi, s_hi) = (t, s);
        }
    }
    None
}

/// The first time in `[0, max_fraction]` at which two moving convex shapes come
/// within the target distance, by conservative advancement on separating axes.
///
/// The target separation of the cores is `max(LINEAR_SLOP, rA + rB − LINEAR_SLOP)`
/// (rounded shapes end up touching with a linear slop of overlap), reached to within
/// a quarter of the linear slop. Each round measures the distance with GJK at the
/// current time `t1`, builds a separating axis from the closest features (points,
/// an edge of A or an edge of B) and finds the latest time up to which that axis
/// keeps the shapes apart; that time becomes the new `t1`. Angles are unwound on a
/// copy of the sweeps first so that bodies that have spun many turns stay precise.
///
/// States: [`ToiState::Hit`] with the fraction reached; [`ToiState::Separated`]
/// with `fraction = max_fraction`; [`ToiState::Overlapped`] with fraction 0 when
/// the cores already overlap at the start; [`ToiState::Failed`] when an iteration
/// limit is hit (the fraction is then still a time before any contact), or with
/// fraction 0 for non-finite sweeps, radii or `max_fraction`. `max_fraction` is
/// clamped to `[0, 1]`. Like any conservative advancement, a brief contact that
/// starts and ends between the sampled times of a fast spin may be missed.
///
/// Box2D: `b2TimeOfImpact`.
pub fn time_of_impact(input: &ToiInput) -> ToiOutput {
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    if !input.sweep_a.is_finite()
        || !input.sweep_b.is_finite()
        || !input.max_fraction.is_finite()
        || !ra.is_finite()
        || !rb.is_finite()
    {
        return ToiOutput {
            state: ToiState::Failed,
            fraction: 0.0,
        };
    }

    let mut sweep_a = input.sweep_a;
    let mut sweep_b = input.sweep_b;
    sweep_a.normalize();
    sweep_b.normalize();
    let t_max = input.max_fraction.clamp(0.0, 1.0);

    let a = input.proxy_a.active_points();
    let b = input.proxy_b.active_points();
    let target = LINEAR_SLOP.max(ra + rb - LINEAR_SLOP);
    let tolerance = TOI_TARGET_FRACTION * LINEAR_SLOP;
    debug_assert!(target > tolerance);

    let mut distance_input = DistanceInput {
        proxy_a: input.proxy_a,
        proxy_b: input.proxy_b,
        use_radii: false,
        ..DistanceInput::default()
    };
    let mut cache = SimplexCache::default();
    let mut t1 = 0.0;
    let mut poses1 = (sweep_a.transform_at(t1), sweep_b.transform_at(t1));
    // The transforms at t_max, computed when first needed.
    let mut poses_max = None;

    for _ in 0..MAX_TOI_ITERATIONS {
        (distance_input.transform_a, distance_input.transform_b) = poses1;
        let d = shape_distance(&distance_input, &mut cache);

        if d.distance <= 0.0 {
            return ToiOutput {
                state: ToiState::Overlapped,
                fraction: 0.0,
            };
        }
        if d.distance <= target + tolerance {
            return ToiOutput {
                state: ToiState::Hit,
                fraction: t1,
            };
        }

        let f = SeparationFunction::new(
            &cache,
            a,
            &sweep_a,
            b,
            &sweep_b,
            poses1,
            (d.point_a, d.point_b),
        );
        let poses_max = *poses_max.get_or_insert_with(|| f.poses(t_max));
        match resolve_axis(&f, (t1, poses1), (t_max, poses_max), target, tolerance) {
            AxisResult::Done(output) => return output,
            AxisResult::Advanced(t, poses) => (t1, poses1) = (t, poses),
        }
    }

    ToiOutput {
        state: ToiState::Failed,
        fraction: t1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{DistanceOutput, make_box, make_proxy, make_square};
    use crate::math::PI;

    const TARGET_TOL: f32 = TOI_TARGET_FRACTION * LINEAR_SLOP;

    fn still(x: f32, y: f32, angle: f32) -> Sweep {
        moving((x, y, angle), (x, y, angle))
    }

    fn moving(from: (f32, f32, f32), to: (f32, f32, f32)) -> Sweep {
        Sweep {
            local_center: Vec2::ZERO,
            c1: Vec2::new(from.0, from.1),
            c2: Vec2::new(to.0, to.1),
            a1: from.2,
            a2: to.2,
        }
    }

    fn toi(a: ShapeProxy, sweep_a: Sweep, b: ShapeProxy, sweep_b: Sweep) -> ToiOutput {
        time_of_impact(&ToiInput {
            proxy_a: a,
            proxy_b: b,
            sweep_a,
            sweep_b,
            max_fraction: 1.0,
        })
    }

    fn square(h: f32) -> ShapeProxy {
        ShapeProxy::from_polygon(&make_square(h).unwrap())
    }

    fn core_distance(
        a: ShapeProxy,
        sa: &Sweep,
        b: ShapeProxy,
        sb: &Sweep,
        t: f32,
    ) -> DistanceOutput {
        let input = DistanceInput {
            proxy_a: a,
            proxy_b: b,
            transform_a: sa.transform_at(t),
            transform_b: sb.transform_at(t),
            use_radii: false,
        };
        shape_distance(&input, &mut SimplexCache::default())
    }

    #[test]
    fn approaching_boxes_hit_when_the_gap_reaches_the_target() {
        // A at rest, B (both half-width 0.5) from x = 5 to x = −5: the gap starts at 4
        // and closes at 10 m per sweep; contact is at gap = slop.
        let out = toi(
            square(0.5),
            still(0.0, 0.0, 0.0),
            square(0.5),
            moving((5.0, 0.0, 0.0), (-5.0, 0.0, 0.0)),
        );
        assert_eq!(out.state, ToiState::Hit);
        let want = (4.0 - LINEAR_SLOP) / 10.0;
        assert!(
            (out.fraction - want).abs() <= TARGET_TOL / 10.0 + 1e-6,
            "{out:?} vs {want}"
        );
    }

    #[test]
    fn both_moving_with_an_offset_centre_of_mass() {
        // A moves right 2 m, B left 8 m: the gap of 4 closes at 10 m per sweep, as above.
        // B's origin sits 0.25 left of its centre of mass; the sweep is of the centre.
        let mut sweep_b = moving((5.0, 0.0, 0.0), (-3.0, 0.0, 0.0));
        sweep_b.local_center = Vec2::new(0.25, 0.0);
        let b = ShapeProxy::from_polygon(
            &crate::collision::make_offset_box(
                0.5,
                0.5,
                Vec2::new(0.25, 0.0),
                crate::math::Rot::IDENTITY,
            )
            .unwrap(),
        );
        let out = toi(
            square(0.5),
            moving((0.0, 0.0, 0.0), (2.0, 0.0, 0.0)),
            b,
            sweep_b,
        );
        assert_eq!(out.state, ToiState::Hit);
        let want = (4.0 - LINEAR_SLOP) / 10.0;
        assert!(
            (out.fraction - want).abs() <= TARGET_TOL / 10.0 + 1e-6,
            "{out:?} vs {want}"
        );
    }

    #[test]
    fn approaching_circles_account_for_radii() {
        // Radii 0.5 + 0.5: target core distance 1 − slop, from 5 at 10 m per sweep.
        let c = make_proxy(&[Vec2::ZERO], 0.5).unwrap();
        let out = toi(
            c,
            still(0.0, 0.0, 0.0),
            c,
            moving((5.0, 0.0, 0.0), (-5.0, 0.0, 0.0)),
        );
        assert_eq!(out.state, ToiState::Hit);
        let want = (5.0 - (1.0 - LINEAR_SLOP)) / 10.0;
        assert!(
            (out.fraction - want).abs() <= TARGET_TOL / 10.0 + 1e-6,
            "{out:?} vs {want}"
        );
    }

    /// Separation of the point (0.5, 0.5) from the top face of a bar of half-height
    /// 0.1 turned by `angle` about the origin: the face normal is (−sin θ, cos θ), so
    /// the separation is 0.5·(cos θ − sin θ) − 0.1 (while the point projects onto
    /// the face, which it does for θ ∈ [0, π/2]: 0.5·(cos θ + sin θ) ≤ 0.71 < 1).
    fn bar_gap(angle: f64) -> f64 {
        0.5 * (angle.cos() - angle.sin()) - 0.1
    }

    fn check_bar_hit(out: ToiOutput, a1: f32) {
        assert_eq!(out.state, ToiState::Hit, "{out:?}");
        let angle = (out.fraction * 0.5 * PI) as f64;
        let gap = bar_gap(angle);
        let target = LINEAR_SLOP as f64;
        let tol = TARGET_TOL as f64 + 1e-5;
        assert!(
            (gap - target).abs() <= tol,
            "gap {gap} at {angle} (a1 = {a1})"
        );
        // The analytic contact angle: cos θ − sin θ = 0.21, i.e. √2·cos(θ + π/4) = 0.21.
        let exact = (0.21f64 / 2f64.sqrt()).acos() - std::f64::consts::FRAC_PI_4;
        // d(gap)/dθ = −0.5·(sin θ + cos θ) ≈ −0.70 here, so a quarter slop of gap is
        // at most 0.0018 rad, i.e. 0.0012 of the quarter-turn sweep.
        let slope = 0.5 * (exact.sin() + exact.cos());
        let frac_tol = tol / slope / std::f64::consts::FRAC_PI_2;
        let exact_fraction = exact / std::f64::consts::FRAC_PI_2;
        assert!(((out.fraction as f64) - exact_fraction).abs() <= frac_tol);
    }

    #[test]
    fn rotating_bar_hits_a_point() {
        // B: a 2 × 0.2 bar turning a quarter turn about its centre at the origin;
        // A: the point (0.5, 0.5), which the bar's top face sweeps into.
        let bar = ShapeProxy::from_polygon(&make_box(1.0, 0.1).unwrap());
        let point = make_proxy(&[Vec2::new(0.5, 0.5)], 0.0).unwrap();
        for a1 in [0.0, 20.0 * PI, -6.0 * PI] {
            let sweep = moving((0.0, 0.0, a1), (0.0, 0.0, a1 + 0.5 * PI));
            check_bar_hit(toi(point, still(0.0, 0.0, 0.0), bar, sweep), a1);
            // The same with the roles of A and B swapped.
            check_bar_hit(toi(bar, sweep, point, still(0.0, 0.0, 0.0)), a1);
        }
    }

    #[test]
    fn separated_and_overlapped() {
        // B passes 2 m above A: never closer than 1 m.
        let out = toi(
            square(0.5),
            still(0.0, 0.0, 0.0),
            square(0.5),
            moving((5.0, 2.0, 0.0), (-5.0, 2.0, 1.0)),
        );
        assert_eq!(
            out,
            ToiOutput {
                state: ToiState::Separated,
                fraction: 1.0
            }
        );
        // Stopping short: 2 m of travel leaves a 2 m gap.
        let out = time_of_impact(&ToiInput {
            proxy_a: square(0.5),
            proxy_b: square(0.5),
            sweep_a: still(0.0, 0.0, 0.0),
            sweep_b: moving((5.0, 0.0, 0.0), (-5.0, 0.0, 0.0)),
            max_fraction: 0.2,
        });
        assert_eq!(
            out,
            ToiOutput {
                state: ToiState::Separated,
                fraction: 0.2
            }
        );
        // Overlapping at the start.
        let out = toi(
            square(0.5),
            still(0.0, 0.0, 0.0),
            square(0.5),
            moving((0.7, 0.2, 0.3), (-5.0, 0.0, 0.0)),
        );
        assert_eq!(
            out,
            ToiOutput {
                state: ToiState::Overlapped,
                fraction: 0.0
            }
        );
    }

    #[test]
    fn touching_at_the_start_is_a_hit_at_zero() {
        // Gap 0.003 < slop + tolerance.
        let out = toi(
            square(0.5),
            still(0.0, 0.0, 0.0),
            square(0.5),
            moving((1.003, 0.0, 0.0), (1.003, 5.0, 0.0)),
        );
        assert_eq!(
            out,
            ToiOutput {
                state: ToiState::Hit,
                fraction: 0.0
            }
        );
    }

    #[test]
    fn hit_leaves_the_core_gap_at_the_target() {
        // A tumbling box B flying diagonally into a spinning box A: whatever the
        // fraction, the core gap there must be target ± tolerance.
        let (a, b) = (
            square(0.5),
            ShapeProxy::from_polygon(&make_box(0.8, 0.2).unwrap()),
        );
        let sa = moving((0.0, 0.0, 0.0), (0.0, 0.0, 1.5));
        let sb = moving((4.0, 3.0, 0.3), (-2.0, -1.0, -2.0));
        let out = toi(a, sa, b, sb);
        assert_eq!(out.state, ToiState::Hit);
        assert!(out.fraction > 0.0 && out.fraction < 1.0);
        let d = core_distance(a, &sa, b, &sb, out.fraction).distance;
        assert!(
            (d - LINEAR_SLOP).abs() <= TARGET_TOL + 1e-5,
            "{d} at {out:?}"
        );
    }

    #[test]
    fn bad_input_fails_without_panicking() {
        let mut sweep = still(0.0, 0.0, 0.0);
        sweep.a2 = f32::NAN;
        let out = toi(square(0.5), sweep, square(0.5), still(3.0, 0.0, 0.0));
        assert_eq!(
            out,
            ToiOutput {
                state: ToiState::Failed,
                fraction: 0.0
            }
        );
        let out = time_of_impact(&ToiInput {
            max_fraction: f32::INFINITY,
            ..ToiInput::default()
        });
        assert_eq!(out.state, ToiState::Failed);
        // Default (empty) proxies are single points at the origin: overlapping.
        let out = time_of_impact(&ToiInput {
            max_fraction: 1.0,
            ..ToiInput::default()
        });
        assert_eq!(out.state, ToiState::Overlapped);
    }
}
