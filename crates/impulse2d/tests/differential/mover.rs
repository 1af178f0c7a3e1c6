//! The mover toolkit against Box2D's: `solve_planes` / `b2SolvePlanes`,
//! `clip_vector` / `b2ClipVector` (same arithmetic in the same order, so the
//! same bits), and `World::collide_mover` / `b2World_CollideMover`,
//! `World::cast_mover` / `b2World_CastMover` on worlds of one random shape.

use super::support::{CASES, Mismatches, close, for_cases, vclose};
use crate::common::box2d::{self, ToB2};
use crate::common::rng::Rng;
use crate::common::shapes::random_polygon;
use boxdd_sys::ffi as c;
use impulse2d::collision::{
    Capsule, CollisionPlane, Plane, PlaneResult, clip_vector, solve_planes,
};
use impulse2d::{BodyDef, QueryFilter, ShapeDef, Transform, World, WorldDef};

fn random_planes(rng: &mut Rng) -> Vec<CollisionPlane> {
    let n = rng.below(7);
    (0..n)
        .map(|_| CollisionPlane {
            plane: Plane {
                normal: rng.direction(),
                offset: rng.range(-0.2, 0.5),
            },
            push_limit: if rng.chance(0.7) {
                f32::MAX
            } else {
                rng.range(0.0, 1.0)
            },
            push: rng.range(-1.0, 1.0),
            clip_velocity: rng.chance(0.8),
        })
        .collect()
}

fn to_b2(p: &CollisionPlane) -> c::b2CollisionPlane {
    c::b2CollisionPlane {
        plane: c::b2Plane {
            normal: p.plane.normal.to_b2(),
            offset: p.plane.offset,
        },
        pushLimit: p.push_limit,
        push: p.push,
        clipVelocity: p.clip_velocity,
    }
}

/// Same translation, iteration count and pushes, bit for bit; then the
/// clipped vector of a random velocity, bit for bit.
#[test]
fn solve_planes_and_clip_vector_match() {
    for_cases(0x5017, "solve_planes", CASES, |rng, _, m| {
        let mut ours = random_planes(rng);
        let mut theirs: Vec<c::b2CollisionPlane> = ours.iter().map(to_b2).collect();
        let target = rng.vec_in(2.0);
        let r = solve_planes(target, &mut ours);
        let r2 =
            unsafe { c::b2SolvePlanes(target.to_b2(), theirs.as_mut_ptr(), theirs.len() as i32) };
        let v = rng.vec_in(10.0);
        let clipped = clip_vector(v, &ours);
        let clipped2 =
            box2d::vec(unsafe { c::b2ClipVector(v.to_b2(), theirs.as_ptr(), theirs.len() as i32) });
        let check = || -> Result<(), String> {
            if r.translation != box2d::vec(r2.translation) {
                return Err("translation".into());
            }
            if r.iteration_count as i32 != r2.iterationCount {
                return Err("iterations".into());
            }
            if ours.iter().zip(&theirs).any(|(a, b)| a.push != b.push) {
                return Err("push".into());
            }
            if clipped != clipped2 {
                return Err("clip".into());
            }
            Ok(())
        };
        m.check(check(), || {
            format!(
                "target {target:?} planes {ours:?}\nours {r:?} {clipped:?}\nBox2D {:?} {} {clipped2:?}",
                box2d::vec(r2.translation),
                r2.iterationCount
            )
        });
    });
}

/// One random static shape in both engines at the same pose.
enum Geometry {
    Circle(impulse2d::collision::Circle),
    Capsule(Capsule),
    Polygon(impulse2d::collision::Polygon),
    Segment(impulse2d::collision::Segment),
}

struct Pair {
    ours: World,
    theirs: c::b2WorldId,
    xf: Transform,
    bound: f32,
}

impl Drop for Pair {
    fn drop(&mut self) {
        unsafe { c::b2DestroyWorld(self.theirs) };
    }
}

fn make_pair(rng: &mut Rng) -> Pair {
    let xf = rng.transform(2.0);
    let geometry = match rng.below(4) {
        0 => Geometry::Circle(rng.circle()),
        1 => Geometry::Capsule(rng.capsule()),
        2 => Geometry::Polygon(random_polygon(rng)),
        _ => Geometry::Segment(rng.segment()),
    };
    let mut ours = World::new(&WorldDef::default()).unwrap();
    let body = ours
        .create_body(&BodyDef {
            position: impulse2d::pos::to_pos(xf.p),
            rotation: xf.q,
            ..Default::default()
        })
        .unwrap();
    let def = ShapeDef::default();
    let theirs = unsafe {
        let wdef = c::b2DefaultWorldDef();
        let world = c::b2CreateWorld(&wdef);
        let mut bdef = c::b2DefaultBodyDef();
        bdef.position = xf.p.to_b2();
        bdef.rotation = xf.q.to_b2();
        let b = c::b2CreateBody(world, &bdef);
        let sdef = c::b2DefaultShapeDef();
        match &geometry {
            Geometry::Circle(g) => {
                c::b2CreateCircleShape(b, &sdef, &g.to_b2());
            }
            Geometry::Capsule(g) => {
                c::b2CreateCapsuleShape(b, &sdef, &g.to_b2());
            }
            Geometry::Polygon(g) => {
                c::b2CreatePolygonShape(b, &sdef, &g.to_b2());
            }
            Geometry::Segment(g) => {
                c::b2CreateSegmentShape(b, &sdef, &g.to_b2());
            }
        }
        world
    };
    let bound = match &geometry {
        Geometry::Circle(g) => {
            ours.create_circle_shape(body, &def, g).unwrap();
            g.center.length() + g.radius
        }
        Geometry::Capsule(g) => {
            ours.create_capsule_shape(body, &def, g).unwrap();
            g.center1.length().max(g.center2.length()) + g.radius
        }
        Geometry::Polygon(g) => {
            ours.create_polygon_shape(body, &def, g).unwrap();
            g.vertices().iter().map(|v| v.length()).fold(0.0, f32::max) + g.radius()
        }
        Geometry::Segment(g) => {
            ours.create_segment_shape(body, &def, g).unwrap();
            g.point1.length().max(g.point2.length())
        }
    };
    Pair {
        ours,
        theirs,
        xf,
        bound,
    }
}

/// A mover near (often touching) the shape.
fn random_mover(rng: &mut Rng, pair: &Pair) -> Capsule {
    let radius = rng.range(0.05, 0.6);
    let center = pair.xf.p + rng.vec_in(pair.bound + radius + 0.3);
    let half = rng.direction() * rng.range(0.0, 0.8);
    Capsule {
        center1: center - half,
        center2: center + half,
        radius,
    }
}

unsafe extern "C" fn collect_plane(
    _shape: c::b2ShapeId,
    plane: *const c::b2PlaneResult,
    context: *mut std::ffi::c_void,
) -> bool {
    let out = unsafe { &mut *(context as *mut Vec<c::b2PlaneResult>) };
    out.push(unsafe { *plane });
    true
}

/// Planes: the same hit, normal (1e-4) and offset (1e-4 m); Box2D leaves the
/// point in the shape's frame (its header says "relative to the query
/// origin"), ours is in the world frame as documented, so ours is compared
/// after moving it into the shape's frame. Casts: the same fraction within
/// 1e-4 (GJK in world versus shape frame rounds differently).
#[test]
fn collide_and_cast_mover_match() {
    let mut rng = Rng::new(0xC0DE);
    let mut planes = Mismatches::new("collide_mover");
    let mut casts = Mismatches::new("cast_mover");
    let mut hits = 0;
    let mut stopped = 0;
    let filter = QueryFilter::default();
    let c_filter = unsafe { c::b2DefaultQueryFilter() };
    for _ in 0..CASES / 20 {
        let pair = make_pair(&mut rng);
        for _ in 0..20 {
            let mover = random_mover(&mut rng, &pair);
            let mut ours: Vec<PlaneResult> = Vec::new();
            pair.ours
                .collide_mover(&mover, filter, |_, p| {
                    ours.push(*p);
                    true
                })
                .unwrap();
            let mut theirs: Vec<c::b2PlaneResult> = Vec::new();
            unsafe {
                c::b2World_CollideMover(
                    pair.theirs,
                    c::b2Vec2 { x: 0.0, y: 0.0 },
                    &mover.to_b2(),
                    c_filter,
                    Some(collect_plane),
                    &mut theirs as *mut _ as *mut std::ffi::c_void,
                );
            }
            hits += theirs.len();
            let check = || -> Result<(), String> {
                if ours.len() != theirs.len() {
                    // A touch within round-off of the radius may go either way.
                    let edge = ours
                        .iter()
                        .map(|p| p.plane.offset)
                        .chain(theirs.iter().map(|p| p.plane.offset))
                        .all(|o| o.abs() < 1e-4);
                    return if edge { Ok(()) } else { Err("count".into()) };
                }
                for (a, b) in ours.iter().zip(&theirs) {
                    if !vclose(a.plane.normal, box2d::vec(b.plane.normal), 1e-4) {
                        return Err("normal".into());
                    }
                    if !close(a.plane.offset, b.plane.offset, 1e-4) {
                        return Err("offset".into());
                    }
                    if !vclose(pair.xf.apply_inv(a.point), box2d::vec(b.point), 1e-4) {
                        return Err("point".into());
                    }
                }
                Ok(())
            };
            planes.check_outputs(check(), || format!("mover {mover:?}"), &ours, &theirs);

            let translation = rng.vec_in(3.0);
            let f = pair.ours.cast_mover(&mover, translation, filter).unwrap();
            let f2 = unsafe {
                c::b2World_CastMover(
                    pair.theirs,
                    c::b2Vec2 { x: 0.0, y: 0.0 },
                    &mover.to_b2(),
                    translation.to_b2(),
                    c_filter,
                )
            };
            if f2 < 1.0 {
                stopped += 1;
            }
            casts.check(
                if close(f, f2, 1e-4) {
                    Ok(())
                } else {
                    Err("fraction".into())
                },
                || format!("mover {mover:?} translation {translation:?}\nours {f} Box2D {f2}"),
            );
        }
    }
    planes.finish();
    casts.finish();
    // The random movers must exercise both outcomes.
    assert!(hits > CASES / 10, "only {hits} planes");
    assert!(stopped > CASES / 10, "only {stopped} stopped casts");
}
