//! Convex hulls and polygons made from them, against Box2D's.

use super::support::{CASES, for_cases, vclose};
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

/// Whether two point lists are the same cycle (perhaps starting elsewhere).
fn same_cycle(a: &[Vec2], b: &[Vec2]) -> bool {
    let n = a.len();
    n == b.len() && (n == 0 || (0..n).any(|k| (0..n).all(|i| a[(i + k) % n] == b[i])))
}

/// `compute_hull` against `b2ComputeHull`: both fail on the same clouds (Box2D
/// returns an empty hull), otherwise the same points in the same order. Both weld
/// a point near any earlier input point, so clouds with near-duplicates (a third
/// of them) compare exactly too; the test counts how many clouds welding touched.
#[test]
fn compute_hull_matches() {
    let (mut failed, mut welded) = (0, 0);
    let weld_sq = (4.0 * LINEAR_SLOP) * (4.0 * LINEAR_SLOP);
    for_cases(0x4011, "compute_hull", CASES, |rng, _, m| {
        let cloud = tricky_cloud(rng);
        let theirs = box2d::compute_hull(&cloud);
        let ours = compute_hull(&cloud);
        if (1..cloud.len()).any(|i| {
            cloud[..i]
                .iter()
                .any(|q| cloud[i].distance_squared(*q) < weld_sq)
        }) {
            welded += 1;
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
            Ok(h) if same_cycle(h.points(), &theirs) => {
                Err("order: same cycle, other start".into())
            }
            Ok(_) => Err("points: different".into()),
        };
        m.check_outputs(check, || format!("cloud {cloud:?}"), &ours, &theirs);
    });
    eprintln!(
        "compute_hull: {failed} clouds fail in both; welding drops points of {welded} clouds"
    );
    assert!(failed < CASES / 10, "{failed} clouds had no hull");
    assert!(welded > CASES / 20, "only {welded} clouds exercise welding");
}

/// `make_polygon` against `b2MakePolygon` on the same hull (our hull's points
/// copied into a `b2Hull`): the same vertices, normals (1e-6) and centroid (1e-5 m).
#[test]
fn make_polygon_matches() {
    for_cases(0x9017, "make_polygon", CASES, |rng, _, m| {
        let n = 3 + rng.below(6);
        let cloud = rng.point_cloud(n);
        let radius = if rng.chance(0.5) {
            0.2 * rng.size()
        } else {
            0.0
        };
        let Ok(hull) = compute_hull(&cloud) else {
            return;
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
        m.check_outputs(
            check(),
            || format!("hull {hull:?} radius {radius}"),
            &ours,
            &theirs,
        );
    });
}
