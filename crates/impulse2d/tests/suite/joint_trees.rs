//! Stiff joint chains (issue 17, part 1): revolute joints that link bodies
//! without a loop are solved together, exactly, so a heavy load does not
//! stretch its chain and a pulled-apart chain closes without flinging its
//! links. Each figure beside Box2D v3's for the same setup (`boxdd-sys`).

use crate::build;

use boxdd_sys::ffi as c;
use impulse2d::{Vec2, World, WorldDef};
use impulse2d_scenes::physics::{
    HEAVY_BALL_RADIUS, HEAVY_CHAIN_DAMPING, HEAVY_CHAIN_DENSITY, HEAVY_CHAIN_HALF_LENGTH,
    HEAVY_CHAIN_LINK_RADIUS, HEAVY_CHAIN_LINKS, heavy_chain,
};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;
/// Gap between neighbouring links of the pulled-apart chain, metres.
const SNAP_GAP: f32 = 1.0;

/// What a run measured: the worst total joint gap over the run (m) and the
/// fastest body seen after any step (m/s).
#[derive(Clone, Copy, Debug)]
struct Run {
    worst_stretch: f32,
    fastest: f32,
    last_stretch: f32,
}

/// Our run of [`heavy_chain`] with these settings for `steps` steps.
fn ours(gap: f32, ball_radius: f32, gravity_scale: f32, steps: usize) -> Run {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let chain = heavy_chain(
        &mut world,
        HEAVY_CHAIN_LINKS,
        gap,
        ball_radius,
        gravity_scale,
    )
    .unwrap();
    let mut bodies = chain.links.clone();
    bodies.extend(chain.ball);
    let mut run = Run {
        worst_stretch: 0.0,
        fastest: 0.0,
        last_stretch: 0.0,
    };
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
        let stretch = chain.stretch(&world).unwrap();
        run.worst_stretch = run.worst_stretch.max(stretch);
        run.last_stretch = stretch;
        for &b in &bodies {
            let v = world.body(b).unwrap().linear_velocity();
            assert!(v.is_finite(), "body speed {v:?}");
            run.fastest = run.fastest.max(v.length());
        }
    }
    world.validate().unwrap();
    run
}

fn b2v(v: Vec2) -> c::b2Vec2 {
    c::b2Vec2 { x: v.x, y: v.y }
}

/// The same chain built in Box2D v3 (as [`heavy_chain`] builds it) and run
/// for `steps` steps.
fn box2d(gap: f32, ball_radius: f32, gravity_scale: f32, steps: usize) -> Run {
    let hx = HEAVY_CHAIN_HALF_LENGTH;
    let y = HEAVY_CHAIN_LINKS as f32 * hx;
    // SAFETY: plain calls on a world created and destroyed here.
    unsafe {
        let world = c::b2CreateWorld(&c::b2DefaultWorldDef());
        let mut pivot_def = c::b2DefaultBodyDef();
        pivot_def.position = b2v(Vec2::new(0.0, y));
        let pivot = c::b2CreateBody(world, &pivot_def);
        let mut shape = c::b2DefaultShapeDef();
        shape.density = HEAVY_CHAIN_DENSITY;
        let body = |x: f32| {
            let mut def = c::b2DefaultBodyDef();
            def.type_ = c::b2BodyType_b2_dynamicBody;
            def.position = b2v(Vec2::new(x, y));
            def.linearDamping = HEAVY_CHAIN_DAMPING;
            def.angularDamping = HEAVY_CHAIN_DAMPING;
            def.gravityScale = gravity_scale;
            c::b2CreateBody(world, &def)
        };
        let frame = |p: Vec2| c::b2Transform {
            p: b2v(p),
            q: c::b2Rot { c: 1.0, s: 0.0 },
        };
        let mut joints = Vec::new();
        let mut pin = |a, b, anchor_a: Vec2, anchor_b: Vec2| {
            let mut def = c::b2DefaultRevoluteJointDef();
            def.base.bodyIdA = a;
            def.base.bodyIdB = b;
            def.base.localFrameA = frame(anchor_a);
            def.base.localFrameB = frame(anchor_b);
            joints.push((
                c::b2CreateRevoluteJoint(world, &def),
                a,
                b,
                anchor_a,
                anchor_b,
            ));
        };
        let capsule = c::b2Capsule {
            center1: b2v(Vec2::new(-hx, 0.0)),
            center2: b2v(Vec2::new(hx, 0.0)),
            radius: HEAVY_CHAIN_LINK_RADIUS,
        };
        let mut bodies = Vec::new();
        let (mut previous, mut anchor, mut end) = (pivot, Vec2::ZERO, 0.0);
        for i in 0..HEAVY_CHAIN_LINKS {
            let left = if i == 0 { 0.0 } else { end + gap };
            let link = body(left + hx);
            c::b2CreateCapsuleShape(link, &shape, &capsule);
            pin(previous, link, anchor, Vec2::new(-hx, 0.0));
            bodies.push(link);
            (previous, anchor, end) = (link, Vec2::new(hx, 0.0), left + 2.0 * hx);
        }
        if ball_radius > 0.0 {
            let ball = body(end + gap + ball_radius);
            let circle = c::b2Circle {
                center: b2v(Vec2::ZERO),
                radius: ball_radius,
            };
            c::b2CreateCircleShape(ball, &shape, &circle);
            pin(previous, ball, anchor, Vec2::new(-ball_radius, 0.0));
            bodies.push(ball);
        }
        let stretch = || {
            joints
                .iter()
                .map(|&(_, a, b, anchor_a, anchor_b)| {
                    let pa = c::b2Body_GetWorldPoint(a, b2v(anchor_a));
                    let pb = c::b2Body_GetWorldPoint(b, b2v(anchor_b));
                    Vec2::new(pb.x - pa.x, pb.y - pa.y).length()
                })
                .sum::<f32>()
        };
        let mut run = Run {
            worst_stretch: 0.0,
            fastest: 0.0,
            last_stretch: 0.0,
        };
        for _ in 0..steps {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
            let s = stretch();
            run.worst_stretch = run.worst_stretch.max(s);
            run.last_stretch = s;
            for &b in &bodies {
                let v = c::b2Body_GetLinearVelocity(b);
                run.fastest = run.fastest.max(Vec2::new(v.x, v.y).length());
            }
        }
        c::b2DestroyWorld(world);
        run
    }
}

#[test]
fn ball_and_chain_stretches_under_2_percent() {
    // Solver2D's ball and chain: 40 links of 6 kg and a 4,000 kg ball,
    // released level, 10 s. Row by row, each soft joint holds the ball's
    // pull over its own links' effective mass and stretches by
    // T / (m_eff ω²); solved as one tree, the coupled effective mass holds
    // it (issue 17's goal: under 2 % of the chain's 40 m).
    let steps = 600;
    let rest = 2.0 * HEAVY_CHAIN_HALF_LENGTH * HEAVY_CHAIN_LINKS as f32;
    let run = ours(0.0, HEAVY_BALL_RADIUS, 1.0, steps);
    let theirs = box2d(0.0, HEAVY_BALL_RADIUS, 1.0, steps);
    eprintln!(
        "ball and chain, {steps} steps: ours worst stretch {:.3} m ({:.2} %), fastest {:.1} m/s; Box2D v3 {:.3} m ({:.2} %), fastest {:.1} m/s",
        run.worst_stretch,
        100.0 * run.worst_stretch / rest,
        run.fastest,
        theirs.worst_stretch,
        100.0 * theirs.worst_stretch / rest,
        theirs.fastest,
    );
    assert!(run.worst_stretch < 0.02 * rest, "{run:?}");
    // The same setup in Box2D shows the weakness being fixed.
    assert!(theirs.worst_stretch > 0.1 * rest, "{theirs:?}");
}

#[test]
fn pulled_apart_chain_closes_without_flinging_its_links() {
    // 40 weightless links created with 1 m gaps (39 m of error) and no
    // velocity: any speed is the position correction's. Solved as a tree,
    // the relax pass takes out exactly the velocity the correction added,
    // so the links end the steps at rest while the gaps close (issue 17's
    // goal: no body faster than 20 m/s). After 2 s the gaps are closed.
    let steps = 120;
    let run = ours(SNAP_GAP, 0.0, 0.0, steps);
    let theirs = box2d(SNAP_GAP, 0.0, 0.0, steps);
    eprintln!(
        "pulled-apart chain, {steps} steps: ours fastest {:.2} m/s, stretch at the end {:.4} m; Box2D v3 fastest {:.1} m/s, at the end {:.4} m",
        run.fastest, run.last_stretch, theirs.fastest, theirs.last_stretch
    );
    assert!(run.fastest < 20.0, "{run:?}");
    assert!(run.last_stretch < 0.01, "{run:?}");
    assert!(theirs.fastest > 20.0, "{theirs:?}");
}

/// Over-constrained and singular chains must not reach the exact tree solve's
/// pivots as if they were regular: a plank pinned to the ground at both ends
/// (four point rows on three degrees of freedom), the same plank on two separate
/// static posts, and a chain of two fixed-rotation links pinned at both ends (six
/// rows on four). Each starts exactly assembled under gravity, so the answer is
/// worked out from the setup: no body ever gains a step of free fall, after a
/// second all are at rest, and the planks' hinges are closed to within the
/// joints' soft sag (g/ω² = 7e-5 m at 60 Hz, far below the 1 mm asserted).
#[test]
fn over_constrained_chains_hold_still() {
    use build::{body, pin};
    use impulse2d::{BodyType, MotionLocks};
    for case in 0..3 {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let ground = body(&mut world, BodyType::Static, Vec2::ZERO);
        let post = body(&mut world, BodyType::Static, Vec2::new(2.0, 0.0));
        let links = if case == 2 { 2 } else { 1 };
        let half = 1.0 / links as f32;
        let bodies: Vec<_> = (0..links)
            .map(|i| {
                let x = half + 2.0 * half * i as f32;
                let b =
                    build::box_body(&mut world, BodyType::Dynamic, Vec2::new(x, 0.0), half, 0.1);
                if case == 2 {
                    let locks = MotionLocks {
                        angular_z: true,
                        ..MotionLocks::default()
                    };
                    world.body_mut(b).unwrap().set_motion_locks(locks);
                }
                b
            })
            .collect();
        let (left, right) = (Vec2::new(-half, 0.0), Vec2::new(half, 0.0));
        let mut joints = vec![pin(&mut world, ground, bodies[0], Vec2::ZERO, left)];
        for pair in bodies.windows(2) {
            joints.push(pin(&mut world, pair[0], pair[1], right, left));
        }
        let last = *bodies.last().unwrap();
        joints.push(match case {
            0 => pin(&mut world, ground, last, Vec2::new(2.0, 0.0), right),
            _ => pin(&mut world, post, last, Vec2::ZERO, right),
        });
        for step in 0..300 {
            world.step(DT, SUBSTEPS).unwrap();
            for &b in &bodies {
                // Held, a body never gains a step of free fall (g·dt), and it
                // is at rest once the joints' transient has died out.
                let v = world.body(b).unwrap().linear_velocity();
                let bound = if step < 60 { 9.81 * DT } else { 0.01 };
                assert!(
                    v.is_finite() && v.length() < bound,
                    "case {case} step {step}: speed {v:?}"
                );
            }
            // Two fixed-rotation links on three pins have no exact answer; the
            // row solver settles them at a compromise of its soft rows, so only
            // the planks' hinges are held to the sag bound.
            for &j in joints.iter().filter(|_| step >= 60 && case < 2) {
                let (a, b) = world.joint(j).unwrap().world_anchors();
                let (dx, dy) = (a.x - b.x, a.y - b.y);
                assert!(
                    dx.hypot(dy) < 1e-3,
                    "case {case} step {step}: hinge open by ({dx}, {dy})"
                );
            }
        }
    }
}
