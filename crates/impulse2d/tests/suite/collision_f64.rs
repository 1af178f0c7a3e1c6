//! The collision layer judged against a plain double-precision reference
//! (`common/reference.rs`), with Box2D v3.2's answer (`boxdd-sys`) on the same
//! `f32` inputs beside ours.
//!
//! Manifold families: random polygons, rounded boxes, thin (1:100) boxes, the
//! same polygons 1 km, 10 km and 100 km from the origin, nearly parallel faces,
//! tiny against big, segments against polygons, deep overlaps, capsules (near
//! and far, and nearly parallel). A polygon case agrees with the reference when it
//! has the same number of points, the normal is within 1e-5 rad and every
//! separation within 1e-5 m; cases where the f64 reference finds a decision
//! within 2e-5 m of going the other way are ties, counted and left out. A capsule
//! case agrees when its closest point's separation is the true gap (distance of
//! the core segments minus the radii) within 1e-5 m, and a manifold is empty
//! exactly when the gap is beyond the speculative distance (again up to ties).
//!
//! Time-of-impact families: sweeps with translations up to 30 m per step and
//! rotations of 0, up to 0.5 rad, up to π and up to 4π per step. A sweep is a
//! miss when the f64 core distance falls below `target − tolerance` before the
//! reported fraction (or at all, for `Separated`), found by conservative
//! advancement in f64 stepping at most 1/1000 of the sweep; a hit is early when
//! the f64 core distance at its fraction exceeds `target + tolerance + 1e-4 m`.
//!
//! `COLLISION_F64_CASES` sets the number of cases per family (default 2,000; the
//! figures in `docs/collision-accuracy.md` are from 20,000). Each test prints its
//! table (`--nocapture`); `COLLISION_F64_SHOW=1` prints each case that is off
//! by more than the tolerances. Run in release.

use crate::common;

use common::box2d;
use common::reference::{self as r, D2, RefPolygon};
use common::rng::{Rng, capsule_bound, polygon_bound, sweep_across};
use common::shapes::{random_polygon, random_proxy};
use impulse2d::collision::{
    Capsule, Manifold, Polygon, Segment, ShapeProxy, ToiInput, ToiState, collide_capsules,
    collide_polygons, collide_segment_and_polygon, make_offset_box, make_offset_rounded_box,
    time_of_impact,
};
use impulse2d::core::{LINEAR_SLOP, SPECULATIVE_DISTANCE, TOI_TARGET_FRACTION};
use impulse2d::{Rot, Sweep, Transform, Vec2};

const NORMAL_TOL: f64 = 1e-5;
const SEPARATION_TOL: f64 = 1e-5;

fn cases() -> usize {
    std::env::var("COLLISION_F64_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

/// How one engine did on one family.
#[derive(Default, Clone, Copy, Debug)]
struct Score {
    judged: usize,
    agree: usize,
    max_normal: f64,
    max_separation: f64,
}

impl Score {
    fn rate(&self) -> f64 {
        100.0 * self.agree as f64 / self.judged.max(1) as f64
    }
}

/// The deviation of a manifold from the reference: (normal angle, largest
/// separation difference), or `None` when the point counts differ.
fn deviation(m: &Manifold, xf_a: Transform, reference: &r::RefManifold) -> Option<(f64, f64)> {
    if m.point_count != reference.separations.len() {
        return None;
    }
    if m.point_count == 0 {
        return Some((0.0, 0.0));
    }
    let n_ref = r::pose(xf_a).rotate(reference.normal);
    let n = r::d2(m.normal);
    let angle = n.cross(n_ref).atan2(n.dot(n_ref)).abs();
    let sep = m
        .points()
        .iter()
        .zip(&reference.separations)
        .map(|(p, s)| (f64::from(p.separation) - s).abs())
        .fold(0.0, f64::max);
    Some((angle, sep))
}

fn judge(score: &mut Score, dev: Option<(f64, f64)>) {
    score.judged += 1;
    match dev {
        Some((angle, sep)) => {
            score.max_normal = score.max_normal.max(angle);
            score.max_separation = score.max_separation.max(sep);
            if angle <= NORMAL_TOL && sep <= SEPARATION_TOL {
                score.agree += 1;
            }
        }
        None => {
            score.max_normal = f64::INFINITY;
        }
    }
}

/// One row of a family table.
struct Row {
    family: &'static str,
    ties: usize,
    ours: Score,
    box2d: Score,
}

impl Row {
    fn new(family: &'static str) -> Row {
        Row {
            family,
            ties: 0,
            ours: Score::default(),
            box2d: Score::default(),
        }
    }
}

fn print_table(title: &str, rows: &[Row]) {
    eprintln!("\n{title}");
    eprintln!(
        "| family | judged | ties | ours: agree | max normal (rad) | max separation (m) | Box2D: agree | max normal (rad) | max separation (m) |"
    );
    eprintln!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        let (o, b) = (row.ours, row.box2d);
        eprintln!(
            "| {} | {} | {} | {:.3}% | {:.2e} | {:.2e} | {:.3}% | {:.2e} | {:.2e} |",
            row.family,
            o.judged,
            row.ties,
            o.rate(),
            o.max_normal,
            o.max_separation,
            b.rate(),
            b.max_normal,
            b.max_separation
        );
    }
}

/// The kind of pair a polygon family draws.
#[derive(Clone, Copy)]
enum PolygonFamily {
    Polygons,
    Rounded,
    Thin,
    Far(f32),
    NearParallel,
    TinyBig,
    SegmentPolygon,
    Deep,
}

fn rounded(rng: &mut Rng) -> Polygon {
    let (hx, hy) = (0.5 * rng.size(), 0.5 * rng.size());
    let radius = 0.2 * rng.size();
    let c = rng.vec_in(0.25 * hx.max(hy));
    make_offset_rounded_box(hx, hy, c, rng.rot(), radius).unwrap()
}

fn thin(rng: &mut Rng) -> Polygon {
    let h = 0.5 * rng.log_range(0.5, 5.0);
    make_offset_box(h, 0.01 * h, rng.vec_in(0.1 * h), rng.rot()).unwrap()
}

/// A random pose of B near A (see `Rng::pose_near`), with A's origin at `far`
/// metres from the world origin in a random direction.
fn place(rng: &mut Rng, far: f32, ra: f32, rb: f32) -> (Transform, Transform) {
    let p = if far > 0.0 {
        rng.direction() * far
    } else {
        rng.vec_in(2.0)
    };
    let xf_a = Transform::new(p, rng.rot());
    (xf_a, rng.pose_near(xf_a, ra, rb))
}

/// Shape A of a polygon family.
enum ShapeA {
    Polygon(Polygon),
    Segment(Segment),
}

/// A pair of a family: A, its pose, B, its pose.
fn draw(rng: &mut Rng, family: PolygonFamily) -> (ShapeA, Transform, Polygon, Transform) {
    if let PolygonFamily::SegmentPolygon = family {
        let s = rng.segment();
        let b = random_polygon(rng);
        let bound = s.point1.length().max(s.point2.length());
        let (xa, xb) = place(rng, 0.0, bound, polygon_bound(&b));
        return (ShapeA::Segment(s), xa, b, xb);
    }
    let (a, xa, b, xb) = draw_polygons(rng, family);
    (ShapeA::Polygon(a), xa, b, xb)
}

fn draw_polygons(rng: &mut Rng, family: PolygonFamily) -> (Polygon, Transform, Polygon, Transform) {
    match family {
        PolygonFamily::Polygons => {
            let (a, b) = (random_polygon(rng), random_polygon(rng));
            let (xa, xb) = place(rng, 0.0, polygon_bound(&a), polygon_bound(&b));
            (a, xa, b, xb)
        }
        PolygonFamily::Far(d) => {
            let (a, b) = (random_polygon(rng), random_polygon(rng));
            let (xa, xb) = place(rng, d, polygon_bound(&a), polygon_bound(&b));
            (a, xa, b, xb)
        }
        PolygonFamily::Rounded => {
            let (a, b) = (rounded(rng), rounded(rng));
            let (xa, xb) = place(rng, 0.0, polygon_bound(&a), polygon_bound(&b));
            (a, xa, b, xb)
        }
        PolygonFamily::Thin => {
            let (a, b) = (thin(rng), thin(rng));
            let (xa, xb) = place(rng, 0.0, polygon_bound(&a), polygon_bound(&b));
            (a, xa, b, xb)
        }
        PolygonFamily::TinyBig => {
            let a = make_offset_box(5.0, 5.0, Vec2::ZERO, Rot::IDENTITY).unwrap();
            let h = 0.005;
            let b = make_offset_box(h, rng.range(0.6, 1.0) * h, Vec2::ZERO, Rot::IDENTITY).unwrap();
            let xa = Transform::new(rng.vec_in(2.0), rng.rot());
            // B just inside, on or outside a random face of A.
            let face = rng.below(4);
            let n = a.normals()[face];
            let along = rng.range(-5.2, 5.2);
            let gap = rng.range(-0.01, 0.03);
            let local = n * (5.0 + h + gap) + n.left_perp() * along;
            (a, xa, b, Transform::new(xa.apply(local), rng.rot()))
        }
        PolygonFamily::NearParallel => {
            let (ha, hb) = (0.5 * rng.size(), 0.5 * rng.size());
            let a = make_offset_box(ha, 0.3 * ha, Vec2::ZERO, Rot::IDENTITY).unwrap();
            let b = make_offset_box(hb, 0.3 * hb, Vec2::ZERO, Rot::IDENTITY).unwrap();
            let xa = Transform::new(rng.vec_in(2.0), rng.rot());
            let tilt = rng.range(-1e-3, 1e-3);
            let gap = rng.range(-0.01, 0.03);
            let slide = rng.range(-(ha + hb), ha + hb);
            let local = Vec2::new(slide, 0.3 * ha + 0.3 * hb + gap);
            let xb = Transform::new(xa.apply(local), xa.q.mul(Rot::from_angle(tilt)));
            (a, xa, b, xb)
        }
        PolygonFamily::SegmentPolygon => unreachable!(),
        PolygonFamily::Deep => {
            let (a, b) = (random_polygon(rng), random_polygon(rng));
            let xa = Transform::new(rng.vec_in(2.0), rng.rot());
            let d = rng.range(0.0, 0.3) * (polygon_bound(&a) + polygon_bound(&b));
            let xb = Transform::new(xa.p + rng.direction() * d, rng.rot());
            (a, xa, b, xb)
        }
    }
}

fn polygon_family(name: &'static str, family: PolygonFamily, seed: u64, n: usize) -> Row {
    let mut rng = Rng::new(seed);
    let mut row = Row::new(name);
    for _ in 0..n {
        let (a, xa, b, xb) = draw(&mut rng, family);
        let identity = r::Pose::IDENTITY;
        let (ours, theirs, ra) = match &a {
            ShapeA::Segment(seg) => (
                collide_segment_and_polygon(seg, xa, &b, xb),
                box2d::collide_segment_and_polygon(seg, xa, &b, xb),
                RefPolygon::from_capsule(
                    &Capsule {
                        center1: seg.point1,
                        center2: seg.point2,
                        radius: 0.0,
                    },
                    &identity,
                ),
            ),
            ShapeA::Polygon(a) => (
                collide_polygons(a, xa, &b, xb),
                box2d::collide_polygons(a, xa, &b, xb),
                RefPolygon::from_polygon(a, &identity),
            ),
        };
        let rb = RefPolygon::from_polygon(&b, &r::relative(xa, xb));
        let reference = r::polygons(&ra, &rb);
        if reference.tie {
            row.ties += 1;
            continue;
        }
        let dev = deviation(&ours, xa, &reference);
        if std::env::var("COLLISION_F64_SHOW").is_ok()
            && dev.is_none_or(|(n, s)| n > NORMAL_TOL || s > SEPARATION_TOL)
        {
            eprintln!("{name}: {reference:?}\nours {ours:?}\nB at {xb:?} A at {xa:?}");
        }
        judge(&mut row.ours, dev);
        judge(&mut row.box2d, deviation(&theirs, xa, &reference));
    }
    row
}

/// Capsule families: `far` metres from the origin; `parallel` for nearly
/// parallel, side by side capsules.
fn capsule_family(name: &'static str, far: f32, parallel: bool, seed: u64, n: usize) -> Row {
    let mut rng = Rng::new(seed);
    let mut row = Row::new(name);
    for _ in 0..n {
        let a = rng.capsule();
        let (b, xa, xb) = if parallel {
            let length = (a.center2 - a.center1).length();
            let b = Capsule::new(
                Vec2::new(-0.5 * length, 0.0),
                Vec2::new(0.5 * length, 0.0),
                rng.range(0.02, 0.5),
            )
            .unwrap();
            let xa = Transform::new(rng.direction() * far + rng.vec_in(2.0), rng.rot());
            let axis = (a.center2 - a.center1).normalize();
            let mid = a.center1.lerp(a.center2, 0.5);
            let gap = rng.range(-0.01, 0.04);
            let offset = a.radius + b.radius + gap;
            let local = mid + axis.right_perp() * offset + axis * rng.range(-0.5, 0.5) * length;
            let tilt = rng.range(-0.02, 0.02);
            let angle = axis.y.atan2(axis.x) + tilt;
            (
                b,
                xa,
                Transform::new(xa.apply(local), xa.q.mul(Rot::from_angle(angle))),
            )
        } else {
            let b = rng.capsule();
            let (xa, xb) = place(&mut rng, far, capsule_bound(&a), capsule_bound(&b));
            (b, xa, xb)
        };
        let ours = collide_capsules(&a, xa, &b, xb);
        let theirs = box2d::collide_capsules(&a, xa, &b, xb);
        let identity = r::Pose::IDENTITY;
        let ra = RefPolygon::from_capsule(&a, &identity);
        let rb = RefPolygon::from_capsule(&b, &r::relative(xa, xb));
        let (gap, _) = r::capsule_gap(&ra, &rb);
        // Crossing cores: the penetration is along a side normal, not the
        // distance of the cores; only the engines' agreement is of interest there.
        let crossing = gap + ra.radius + rb.radius < 1e-6;
        if crossing || (gap - SPECULATIVE_DISTANCE as f64).abs() < r::TIE {
            row.ties += 1;
            continue;
        }
        let within = gap <= SPECULATIVE_DISTANCE as f64;
        for (score, m) in [(&mut row.ours, &ours), (&mut row.box2d, &theirs)] {
            score.judged += 1;
            if !within {
                if m.point_count == 0 {
                    score.agree += 1;
                } else {
                    let closest = m
                        .points()
                        .iter()
                        .map(|p| p.separation)
                        .fold(f32::MAX, f32::min);
                    score.max_separation =
                        score.max_separation.max((f64::from(closest) - gap).abs());
                }
                continue;
            }
            if m.point_count == 0 {
                score.max_separation = f64::INFINITY;
                continue;
            }
            let closest = m
                .points()
                .iter()
                .map(|p| p.separation)
                .fold(f32::MAX, f32::min);
            let dev = (f64::from(closest) - gap).abs();
            if dev > SEPARATION_TOL && std::env::var("COLLISION_F64_SHOW").is_ok() {
                eprintln!(
                    "{name}: gap {gap} closest {closest}: {a:?} at {xa:?}, {b:?} at {xb:?}: {m:?}"
                );
            }
            score.max_separation = score.max_separation.max(dev);
            if dev <= SEPARATION_TOL {
                score.agree += 1;
            }
        }
    }
    row
}

#[test]
fn manifolds_against_f64() {
    let n = cases();
    use PolygonFamily::*;
    let rows = vec![
        polygon_family("polygons", Polygons, 0xf640_0001, n),
        polygon_family("rounded boxes", Rounded, 0xf640_0002, n),
        polygon_family("thin 1:100 boxes", Thin, 0xf640_0003, n),
        polygon_family("polygons at 1 km", Far(1_000.0), 0xf640_0004, n),
        polygon_family("polygons at 10 km", Far(10_000.0), 0xf640_0005, n),
        polygon_family("polygons at 100 km", Far(100_000.0), 0xf640_0006, n),
        polygon_family("near-parallel faces", NearParallel, 0xf640_0007, n),
        polygon_family("1 cm vs 10 m", TinyBig, 0xf640_0008, n),
        polygon_family("segment vs polygon", SegmentPolygon, 0xf640_0009, n),
        polygon_family("deep overlaps", Deep, 0xf640_000a, n),
        capsule_family("capsules", 0.0, false, 0xf640_000b, n),
        capsule_family("capsules at 10 km", 10_000.0, false, 0xf640_000c, n),
        capsule_family("near-parallel capsules", 0.0, true, 0xf640_000d, n),
    ];
    print_table(
        &format!("Manifolds against the f64 reference ({n} cases per family)"),
        &rows,
    );
    for row in &rows {
        // Ours is within tolerance of f64 on every judged case, and never
        // farther from it than Box2D's float build on any family.
        assert!(
            row.ours.agree == row.ours.judged,
            "{}: ours agrees on {} of {} (max normal {:e} rad, separation {:e} m)",
            row.family,
            row.ours.agree,
            row.ours.judged,
            row.ours.max_normal,
            row.ours.max_separation
        );
        assert!(row.ours.rate() >= row.box2d.rate(), "{}", row.family);
        assert!(row.ties * 20 <= n, "{}: {} ties", row.family, row.ties);
    }
}

/// A sweep through `meet` at mid-interval: moving up to `travel` metres in all,
/// turning by up to `turn` radians.
fn sweep(rng: &mut Rng, meet: Vec2, bound: f32, travel: f32, turn: f32) -> Sweep {
    let half = rng.direction() * (0.5 * rng.range(0.0, travel));
    let miss = rng.vec_in(bound);
    let a1 = rng.angle();
    let local_center = rng.vec_in(0.25 * bound);
    sweep_across(
        meet,
        half,
        miss,
        local_center,
        a1,
        a1 + rng.range(-turn, turn),
    )
}

fn points(p: &ShapeProxy) -> &[Vec2] {
    &p.points[..p.count]
}

/// How one engine did on one family of sweeps.
#[derive(Default, Clone, Copy, Debug)]
struct ToiScore {
    sweeps: usize,
    contacts: usize,
    misses: usize,
    early: usize,
    failed: usize,
    worst_miss_depth: f64,
}

fn toi_family(turn: f32, seed: u64, n: usize, with_box2d: bool) -> (ToiScore, ToiScore) {
    let mut rng = Rng::new(seed);
    let (mut ours, mut theirs) = (ToiScore::default(), ToiScore::default());
    let tolerance = f64::from(TOI_TARGET_FRACTION * LINEAR_SLOP);
    for _ in 0..n {
        let a = random_proxy(&mut rng);
        let b = random_proxy(&mut rng);
        let meet = rng.vec_in(2.0);
        let (ba, bb) = (
            common::shapes::proxy_bound(&a),
            common::shapes::proxy_bound(&b),
        );
        let sweep_a = sweep(&mut rng, meet, ba, 30.0, turn);
        let sweep_b = sweep(&mut rng, meet, bb, 30.0, turn);
        let input = whole_step(a, b, sweep_a, sweep_b);
        let target = toi_target(&a, &b);
        let contact_on = |path: r::Path| {
            r::first_contact(
                points(&a),
                &sweep_a,
                points(&b),
                &sweep_b,
                target - tolerance,
                1e-3,
                path,
            )
        };
        // Box2D interpolates rotations by nlerp: judge it on its own path.
        let contacts = [contact_on(r::Path::Angle), contact_on(r::Path::Nlerp)];
        let (ad, bd): (Vec<D2>, Vec<D2>) = (
            points(&a).iter().map(|v| r::d2(*v)).collect(),
            points(&b).iter().map(|v| r::d2(*v)).collect(),
        );
        let start_overlap =
            r::distance_at(&ad, &sweep_a, &bd, &sweep_b, 0.0, r::Path::Angle) <= target - tolerance;
        let score = |s: &mut ToiScore, state: ToiState, fraction: f32, path: r::Path| {
            let contact = contacts[path as usize];
            s.sweeps += 1;
            if start_overlap {
                return;
            }
            if contact.is_some() {
                s.contacts += 1;
            }
            if state == ToiState::Failed {
                s.failed += 1;
            }
            let reported = if state == ToiState::Separated {
                None
            } else {
                Some(f64::from(fraction))
            };
            if let Some(tc) = contact
                && reported.is_none_or(|t| t > tc)
            {
                s.misses += 1;
                // How deep the shapes get before the reported time.
                let end = reported.unwrap_or(1.0);
                let depth = (0..=200)
                    .map(|k| tc + (end - tc) * f64::from(k) / 200.0)
                    .map(|t| target - r::distance_at(&ad, &sweep_a, &bd, &sweep_b, t, path))
                    .fold(0.0, f64::max);
                s.worst_miss_depth = s.worst_miss_depth.max(depth);
            }
            if state == ToiState::Hit
                && r::distance_at(&ad, &sweep_a, &bd, &sweep_b, f64::from(fraction), path)
                    > target + tolerance + 1e-4
            {
                s.early += 1;
            }
        };
        let out = time_of_impact(&input);
        score(&mut ours, out.state, out.fraction, r::Path::Angle);
        if with_box2d {
            let b2 = box2d::time_of_impact(&input);
            score(&mut theirs, b2.state, b2.fraction, r::Path::Nlerp);
        }
    }
    (ours, theirs)
}

#[test]
fn time_of_impact_never_misses() {
    let n = cases();
    let families = [
        ("translation only", 0.0, 0x701_0001, true),
        ("turns up to 0.5 rad", 0.5, 0x701_0002, true),
        ("turns up to π", std::f32::consts::PI, 0x701_0003, true),
        (
            "turns up to 4π",
            4.0 * std::f32::consts::PI,
            0x701_0004,
            false,
        ),
    ];
    eprintln!(
        "\nTime of impact against dense f64 sampling ({n} sweeps per family, translations up to 30 m)"
    );
    eprintln!(
        "| family | sweeps with contact | ours: misses | early | failed | worst depth missed (m) | Box2D: misses | early | worst depth missed (m) |"
    );
    eprintln!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut total_misses = 0;
    let mut total_early = 0;
    for (name, turn, seed, with_box2d) in families {
        let (o, b) = toi_family(turn, seed, n, with_box2d);
        let b2 = |v: String| if with_box2d { v } else { "—".to_string() };
        eprintln!(
            "| {name} | {} | {} | {} | {} | {:.3} | {} | {} | {} |",
            o.contacts,
            o.misses,
            o.early,
            o.failed,
            o.worst_miss_depth,
            b2(b.misses.to_string()),
            b2(b.early.to_string()),
            b2(format!("{:.3}", b.worst_miss_depth)),
        );
        total_misses += o.misses;
        total_early += o.early;
    }
    assert_eq!(total_misses, 0, "time of impact missed contacts");
    assert_eq!(total_early, 0, "time of impact stopped early");
}

/// Issue 23's example at 1 km: a corner contact whose normal was off by 4.4e-3 rad
/// when A's frame was shifted in world coordinates (ours (0.706958, 0.707255),
/// Box2D and f64 (0.710092, 0.704109)).
#[test]
fn issue_example_at_1_km_matches_f64() {
    let hull = |points: &[(f32, f32)]| {
        let points: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        impulse2d::collision::make_polygon(
            &impulse2d::collision::compute_hull(&points).unwrap(),
            0.0,
        )
        .unwrap()
    };
    let a = hull(&[
        (0.10581043, 0.25590461),
        (-0.3446323, 0.08389354),
        (-0.16158786, -0.6902653),
        (-0.00010417029, -0.49531576),
    ]);
    let b = hull(&[
        (0.17127967, -0.24237156),
        (0.019553142, 0.19776621),
        (-0.085200265, 0.24400654),
        (-0.17275128, 0.061098956),
        (-0.12947907, -0.16334617),
        (0.1207943, -0.2718078),
    ]);
    let xa = Transform::new(
        Vec2::new(-808.4292, -588.5935),
        Rot {
            c: -0.920403,
            s: -0.390971,
        },
    );
    let xb = Transform::new(
        Vec2::new(-808.3252, -587.75745),
        Rot {
            c: -0.2060724,
            s: 0.9785367,
        },
    );
    let reference = r::polygons(
        &RefPolygon::from_polygon(&a, &r::Pose::IDENTITY),
        &RefPolygon::from_polygon(&b, &r::relative(xa, xb)),
    );
    // (The reference flags it as a possible tie, a corner-to-corner normal between
    // corners close enough that f32 coordinates might not resolve it; they do.)
    let m = collide_polygons(&a, xa, &b, xb);
    let (angle, sep) = deviation(&m, xa, &reference).expect("same point count");
    assert!(
        angle <= NORMAL_TOL && sep <= SEPARATION_TOL,
        "{angle} rad, {sep} m: {m:?}"
    );
    // The f64 normal the issue quotes.
    let n = r::pose(xa).rotate(reference.normal);
    assert!(
        (n.x - 0.710092).abs() < 1e-5 && (n.y - 0.704109).abs() < 1e-5,
        "{n:?}"
    );
}

/// Issue 23's example of a missed contact: both engines said `Separated` while the
/// shapes overlap by 0.86 m at t ≈ 0.33 (a turn of 2 rad of A over the sweep).
#[test]
fn issue_example_turning_sweep_is_not_missed() {
    let proxy = |points: &[(f32, f32)], radius: f32| {
        let points: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        impulse2d::collision::make_proxy(&points, radius).unwrap()
    };
    let a = proxy(
        &[
            (0.9421054, -0.15942347),
            (1.3629302, -0.71149224),
            (-0.9647785, 0.5945369),
            (0.3020599, 0.46792924),
            (0.63848746, 1.3486806),
        ],
        0.43862206,
    );
    let b = proxy(
        &[(1.2444705, -1.5148621), (-1.2444705, 1.5148621)],
        0.4253323,
    );
    let sweep_a = Sweep {
        local_center: Vec2::new(0.1528164, 0.09523387),
        c1: Vec2::new(-0.1990757, -2.544091),
        c2: Vec2::new(-1.7154751, -0.70991874),
        a1: -3.0523536,
        a2: -5.0496182,
    };
    let sweep_b = Sweep {
        local_center: Vec2::new(-0.16920614, 0.18683253),
        c1: Vec2::new(5.036259, -9.422018),
        c2: Vec2::new(-14.339382, 10.817287),
        a1: -2.5073562,
        a2: -2.89594,
    };
    let out = time_of_impact(&whole_step(a, b, sweep_a, sweep_b));
    let target = toi_target(&a, &b);
    let tolerance = f64::from(TOI_TARGET_FRACTION * LINEAR_SLOP);
    // The proxy's points are not a hull in order here: the f64 distance needs
    // counter-clockwise hulls, so it is measured on the hull of A's points.
    let hull_a = impulse2d::collision::compute_hull(points(&a)).unwrap();
    let first = r::first_contact(
        hull_a.points(),
        &sweep_a,
        points(&b),
        &sweep_b,
        target - tolerance,
        1e-3,
        r::Path::Angle,
    )
    .expect("the shapes do meet");
    assert_eq!(out.state, ToiState::Hit, "{out:?}");
    assert!(
        f64::from(out.fraction) <= first,
        "{out:?}, first contact at {first}"
    );
}

/// The time-of-impact input for the whole step (fraction 0 to 1).
fn whole_step(
    proxy_a: ShapeProxy,
    proxy_b: ShapeProxy,
    sweep_a: Sweep,
    sweep_b: Sweep,
) -> ToiInput {
    ToiInput {
        proxy_a,
        proxy_b,
        sweep_a,
        sweep_b,
        max_fraction: 1.0,
    }
}

/// The separation time of impact aims for, as Box2D's `b2TimeOfImpact`: the
/// radii less a linear slop, and at least one linear slop (m).
fn toi_target(a: &ShapeProxy, b: &ShapeProxy) -> f64 {
    f64::from(LINEAR_SLOP.max(a.radius + b.radius - LINEAR_SLOP))
}
