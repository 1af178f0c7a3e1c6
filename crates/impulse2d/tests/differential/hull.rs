//! Convex hulls and polygons made from them, against Box2D's.

use super::support::{CASES, Mismatches, vclose};
use crate::common::box2d::{self, ToB2};
use crate::common::rng::Rng;
use impulse2d::Vec2;
use impulse2d::collision::{compute_hull, make_polygon};
use impulse2d::core::LINEAR_SLOP;

/// A cloud of 3 to 8 points that exercises welding and collinear removal: a
/// third of the clouds get near-duplicates (within a few linear slops of another
/// point), a third get points near the line between two others.
fn tricky_cloud(rng: &mut Rng) -> Vec<Vec2> {
    let n = 3 + rng.below(6);
    let mut cloud = rng.point_cloud(n);
    match rng.below(3) {
        0 if n < 8 => {
            let k = rng.below(n);
            let near = cloud[k] + rng.direction() * rng.range(0.0, 8.0 * LINEAR_SLOP);
            cloud.insert(rng.below(n + 1), near);
        }
        1 if n < 8 => {
            let (i, j) = (rng.below(n), rng.below(n));
            let along = cloud[i].lerp(cloud[j], rng.unit());
            let off = (cloud[j] - cloud[i]).normalize().left_perp()
                * rng.range(-4.0 * LINEAR_SLOP, 4.0 * LINEAR_SLOP);
            cloud.push(along + off);
        }
        _ => {}
    }
    cloud
}

/// Box2D's welding: a point is dropped when it is within 4 linear slops of ANY
/// earlier input point, kept or not.
fn box2d_weld(cloud: &[Vec2]) -> Vec<Vec2> {
    let tol = 4.0 * LINEAR_SLOP;
    (0..cloud.len())
        .filter(|&i| {
            cloud[..i]
                .iter()
                .all(|q| cloud[i].distance_squared(*q) >= tol * tol)
        })
        .map(|i| cloud[i])
        .collect()
}

/// Whether two point lists are the same cycle (perhaps starting elsewhere).
fn same_cycle(a: &[Vec2], b: &[Vec2]) -> bool {
    let n = a.len();
    n == b.len() && (n == 0 || (0..n).any(|k| (0..n).all(|i| a[(i + k) % n] == b[i])))
}

/// `compute_hull` against `b2ComputeHull`: both fail on the same clouds (Box2D
/// returns an empty hull), otherwise the same points in the same order.
///
/// The welding rules differ: Box2D drops a point near any EARLIER input point
/// (so of a chain of points 3 slops apart only the first survives), ours only a
/// point near a KEPT one. Where Box2D's rule welds anything, the test gives ours
/// the cloud as Box2D welds it and compares the hulls as cycles (Box2D picks its
/// first point from the bounding box of the raw cloud, welded points included);
/// it counts the clouds whose raw hulls differ because of the rule.
#[test]
fn compute_hull_matches() {
    let mut rng = Rng::new(0x4011);
    let mut m = Mismatches::new("compute_hull");
    let (mut failed, mut welded, mut weld_rule) = (0, 0, 0);
    for _ in 0..CASES {
        let raw = tricky_cloud(&mut rng);
        let theirs = box2d::compute_hull(&raw);
        let prewelded = box2d_weld(&raw);
        let exact = prewelded.len() == raw.len();
        let ours_raw = compute_hull(&raw);
        let ours = if exact {
            ours_raw.clone()
        } else {
            compute_hull(&prewelded)
        };
        if !exact {
            welded += 1;
            let raw_points = ours_raw
                .as_ref()
                .map(|h| h.points().to_vec())
                .unwrap_or_default();
            if !same_cycle(&raw_points, &theirs) {
                weld_rule += 1;
            }
        }
        let check = match &ours {
            Err(_) if theirs.is_empty() => {
                failed += 1;
                Ok(())
            }
            Err(e) => Err(format!("ours failed ({e}), Box2D made a hull")),
            Ok(h) if theirs.is_empty() => Err(format!(
                "Box2D failed, ours made {} points",
                h.points().len()
            )),
            Ok(h) if h.points() == theirs.as_slice() => Ok(()),
            Ok(h) if !exact && same_cycle(h.points(), &theirs) => Ok(()),
            Ok(h) if same_cycle(h.points(), &theirs) => {
                Err("order: same cycle, other start".into())
            }
            Ok(_) => Err("points: different".into()),
        };
        m.check(check, || format!("cloud {raw:?} (welded by Box2D's rule: {prewelded:?})\nours {ours:?}\nBox2D {theirs:?}"));
    }
    m.finish();
    eprintln!(
        "compute_hull: {failed} clouds fail in both; Box2D's rule welds {welded} clouds, \
         {weld_rule} of whose raw hulls differ from ours because of the rule"
    );
    assert!(failed < CASES / 10, "{failed} clouds had no hull");
}

/// `make_polygon` against `b2MakePolygon` on the same hull (our hull's points
/// copied into a `b2Hull`): the same vertices, normals (1e-6) and centroid (1e-5 m).
#[test]
fn make_polygon_matches() {
    let mut rng = Rng::new(0x9017);
    let mut m = Mismatches::new("make_polygon");
    for _ in 0..CASES {
        let n = 3 + rng.below(6);
        let cloud = rng.point_cloud(n);
        let radius = if rng.chance(0.5) {
            0.2 * rng.size()
        } else {
            0.0
        };
        let Ok(hull) = compute_hull(&cloud) else {
            continue;
        };
        let ours = make_polygon(&hull, radius).unwrap();
        let theirs = box2d::make_polygon_from_hull(hull.points(), radius);
        let mine = ours.to_b2();
        let check = || -> Result<(), String> {
            if mine.count != theirs.count || mine.radius != theirs.radius {
                return Err("count or radius".into());
            }
            for i in 0..theirs.count as usize {
                if !vclose(
                    box2d::vec(mine.vertices[i]),
                    box2d::vec(theirs.vertices[i]),
                    0.0,
                ) {
                    return Err(format!("vertex {i}"));
                }
                if !vclose(
                    box2d::vec(mine.normals[i]),
                    box2d::vec(theirs.normals[i]),
                    1e-6,
                ) {
                    return Err(format!("normal {i}"));
                }
            }
            if !vclose(box2d::vec(mine.centroid), box2d::vec(theirs.centroid), 1e-5) {
                return Err("centroid".into());
            }
            Ok(())
        };
        m.check(check(), || {
            format!("hull {hull:?} radius {radius}\nours {ours:?}\nBox2D {theirs:?}")
        });
    }
    m.finish();
}
