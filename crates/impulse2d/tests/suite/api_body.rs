//! The body, shape and chain views: each run-time setter changes what the
//! simulation does, with the expected numbers worked out here (or by Box2D's
//! C through `boxdd-sys`), and bad input changes nothing.

use crate::build;

use boxdd_sys::ffi as c;
use impulse2d::collision::{Circle, make_box, make_offset_box};
use impulse2d::core::SPECULATIVE_DISTANCE;
use impulse2d::pos::{coord_to_f32, to_pos};
use impulse2d::{
    BodyDef, BodyId, BodyType, ChainDef, MotionLocks, Pos, Rot, ShapeDef, ShapeId, SurfaceMaterial,
    Vec2, World, WorldDef,
};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

fn world(gravity: Vec2) -> World {
    let def = WorldDef {
        gravity,
        ..Default::default()
    };
    World::new(&def).unwrap()
}

/// A dynamic body with its origin at `position`, no shapes yet.
fn dynamic(world: &mut World, position: Vec2) -> BodyId {
    let mut def = BodyDef {
        position: to_pos(position),
        ..Default::default()
    };
    def.body_type = BodyType::Dynamic;
    world.create_body(&def).unwrap()
}

fn add_box(world: &mut World, body: BodyId, hx: f32, hy: f32) -> ShapeId {
    build::add_box(world, body, hx, hy)
}

fn add_circle(world: &mut World, body: BodyId, radius: f32) -> ShapeId {
    let circle = Circle {
        center: Vec2::ZERO,
        radius,
    };
    world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap()
}

/// A static ground box whose top face is the line y = 0, 40 m wide.
fn ground(world: &mut World) -> (BodyId, ShapeId) {
    let g = world.create_body(&BodyDef::default()).unwrap();
    let poly = make_offset_box(20.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let s = world
        .create_polygon_shape(g, &ShapeDef::default(), &poly)
        .unwrap();
    (g, s)
}

/// A world under gravity 10 m/s² with [`ground`]: the world, the ground body
/// and its shape.
fn world_on_ground() -> (World, BodyId, ShapeId) {
    let mut w = world(Vec2::new(0.0, -10.0));
    let (g, s) = ground(&mut w);
    (w, g, s)
}

fn run(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

#[test]
fn gravity_scale_zero_floats_and_two_doubles() {
    let mut w = world(Vec2::new(0.0, -10.0));
    let float = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 5.0), 0.5, 0.5);
    let heavy = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(5.0, 5.0), 0.5, 0.5);
    w.body_mut(float).unwrap().set_gravity_scale(0.0).unwrap();
    w.body_mut(heavy).unwrap().set_gravity_scale(2.0).unwrap();
    assert_eq!(w.body(float).unwrap().gravity_scale(), 0.0);
    run(&mut w, 30);
    let b = w.body(float).unwrap();
    assert_eq!(b.linear_velocity(), Vec2::ZERO);
    assert_eq!(b.position(), Pos::new(0.0, 5.0));
    // v = 2·g·t after t = 0.5 s of free fall.
    let vy = w.body(heavy).unwrap().linear_velocity().y;
    assert!((vy - (-10.0)).abs() < 1e-3, "vy = {vy}");
}

/// Velocity after `steps` steps of pure damping `c`: each substep of length
/// h multiplies it by 1 / (1 + h·c).
fn damped(v0: f64, c: f64, steps: u32) -> f64 {
    let h = (DT / SUBSTEPS as f32) as f64;
    v0 * (1.0 / (1.0 + h * c)).powi((steps * SUBSTEPS) as i32)
}

#[test]
fn damping_set_at_run_time_slows_as_predicted() {
    let mut w = world(Vec2::ZERO);
    let b = dynamic(&mut w, Vec2::ZERO);
    add_circle(&mut w, b, 0.5);
    {
        let mut body = w.body_mut(b).unwrap();
        body.set_linear_velocity(Vec2::new(10.0, 0.0)).unwrap();
        body.set_angular_velocity(4.0).unwrap();
        body.set_linear_damping(2.0).unwrap();
        body.set_angular_damping(0.5).unwrap();
    }
    assert_eq!(w.body(b).unwrap().linear_damping(), 2.0);
    assert_eq!(w.body(b).unwrap().angular_damping(), 0.5);
    run(&mut w, 60);
    let body = w.body(b).unwrap();
    let v = body.linear_velocity().x as f64;
    let om = body.angular_velocity() as f64;
    assert!((v / damped(10.0, 2.0, 60) - 1.0).abs() < 1e-4, "v = {v}");
    assert!((om / damped(4.0, 0.5, 60) - 1.0).abs() < 1e-4, "w = {om}");
    // Within a few percent of the exact exponential decay too.
    assert!((v / (10.0 * (-2.0f64).exp()) - 1.0).abs() < 0.01);
}

#[test]
fn damping_matches_box2d() {
    let mut w = world(Vec2::new(0.0, -10.0));
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 10.0), 0.5, 0.5);
    w.body_mut(b).unwrap().set_linear_damping(0.7).unwrap();
    build::set_velocity(&mut w, b, Vec2::new(3.0, 2.0));
    run(&mut w, 40);
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    let theirs = unsafe {
        let mut def = c::b2DefaultWorldDef();
        def.gravity = c::b2Vec2 { x: 0.0, y: -10.0 };
        let world = c::b2CreateWorld(&def);
        let mut bd = c::b2DefaultBodyDef();
        bd.type_ = c::b2BodyType_b2_dynamicBody;
        bd.position = c::b2Vec2 { x: 0.0, y: 10.0 };
        let body = c::b2CreateBody(world, &bd);
        let sd = c::b2DefaultShapeDef();
        let poly = c::b2MakeBox(0.5, 0.5);
        c::b2CreatePolygonShape(body, &sd, &poly);
        c::b2Body_SetLinearDamping(body, 0.7);
        c::b2Body_SetLinearVelocity(body, c::b2Vec2 { x: 3.0, y: 2.0 });
        for _ in 0..40 {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
        }
        let v = c::b2Body_GetLinearVelocity(body);
        c::b2DestroyWorld(world);
        Vec2::new(v.x, v.y)
    };
    let ours = w.body(b).unwrap().linear_velocity();
    assert!((ours - theirs).length() < 1e-4, "{ours:?} vs {theirs:?}");
}

#[test]
fn a_shape_resized_mid_run_rests_at_its_new_size() {
    let (mut w, _, _) = world_on_ground();
    let ball = dynamic(&mut w, Vec2::new(0.0, 2.0));
    let s = add_circle(&mut w, ball, 0.5);
    let crate_ = dynamic(&mut w, Vec2::new(4.0, 2.0));
    let p = add_box(&mut w, crate_, 0.25, 0.25);
    run(&mut w, 120);
    let y = w.body(ball).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.01, "y = {y}");
    let y = w.body(crate_).unwrap().position().y;
    assert!((y - 0.25).abs() < 0.01, "y = {y}");

    let bigger = Circle {
        center: Vec2::ZERO,
        radius: 1.0,
    };
    w.shape_mut(s).unwrap().set_circle(&bigger).unwrap();
    w.shape_mut(p)
        .unwrap()
        .set_polygon(&make_box(0.75, 0.75).unwrap())
        .unwrap();
    // Mass follows the geometry: π r² and (2·0.75)² at 1 kg/m².
    assert!((w.body(ball).unwrap().mass() - std::f32::consts::PI).abs() < 1e-5);
    assert!((w.body(crate_).unwrap().mass() - 2.25).abs() < 1e-5);
    assert_eq!(w.shape(s).unwrap().circle(), Some(bigger));
    assert!(w.body(ball).unwrap().is_awake());
    run(&mut w, 120);
    let y = w.body(ball).unwrap().position().y;
    assert!((y - 1.0).abs() < 0.01, "y = {y}");
    let y = w.body(crate_).unwrap().position().y;
    assert!((y - 0.75).abs() < 0.01, "y = {y}");
    w.validate().unwrap();
}

#[test]
fn bad_geometry_and_chain_segments_are_refused_unchanged() {
    let mut w = world(Vec2::new(0.0, -10.0));
    let b = dynamic(&mut w, Vec2::ZERO);
    let s = add_circle(&mut w, b, 0.5);
    let nan = Circle {
        center: Vec2::ZERO,
        radius: f32::NAN,
    };
    assert!(w.shape_mut(s).unwrap().set_circle(&nan).is_err());
    assert_eq!(w.shape(s).unwrap().circle().unwrap().radius, 0.5);
    let chain = w
        .create_chain(
            b,
            &ChainDef {
                points: vec![
                    Vec2::new(0.0, 0.0),
                    Vec2::new(1.0, 0.0),
                    Vec2::new(1.0, 1.0),
                ],
                is_loop: true,
                ..Default::default()
            },
        )
        .unwrap();
    let seg = w.chain(chain).unwrap().segments()[0];
    assert_eq!(w.shape(seg).unwrap().parent_chain(), Some(chain));
    assert_eq!(w.shape(s).unwrap().parent_chain(), None);
    let before = w.shape(seg).unwrap().geometry();
    assert!(
        w.shape_mut(seg)
            .unwrap()
            .set_circle(&Circle {
                center: Vec2::ZERO,
                radius: 1.0
            })
            .is_err()
    );
    assert_eq!(w.shape(seg).unwrap().geometry(), before);
}

/// Dynamic pressure ½ρ|u|² times the width across the wind.
fn wind_force(speed: f32, width: f32) -> f32 {
    0.5 * impulse2d::api::shape::AIR_DENSITY * speed * speed * width
}

#[test]
fn wind_pushes_a_body_downwind() {
    let mut w = world(Vec2::ZERO);
    let ball = dynamic(&mut w, Vec2::ZERO);
    let s = add_circle(&mut w, ball, 0.5);
    let crate_ = dynamic(&mut w, Vec2::new(5.0, 0.0));
    let p = add_box(&mut w, crate_, 0.5, 0.5);
    w.shape_mut(s)
        .unwrap()
        .apply_wind(Vec2::new(10.0, 0.0), 1.0, 0.0, true)
        .unwrap();
    // At 45° the square shows two faces, each √½ m wide across the wind.
    let diagonal = Vec2::new(1.0, 1.0).normalize() * 10.0;
    w.shape_mut(p)
        .unwrap()
        .apply_wind(diagonal, 1.0, 0.0, true)
        .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    // A force held for one step changes the velocity by F·dt/m.
    let m = w.body(ball).unwrap().mass();
    let v = w.body(ball).unwrap().linear_velocity();
    let expected = wind_force(10.0, 1.0) * DT / m;
    assert!((v.x / expected - 1.0).abs() < 1e-5, "{v:?}");
    assert_eq!(v.y, 0.0);
    let v = w.body(crate_).unwrap().linear_velocity();
    let expected = wind_force(10.0, std::f32::consts::SQRT_2) * DT / 1.0;
    assert!((v.length() / expected - 1.0).abs() < 1e-5, "{v:?}");
    assert!((v.x - v.y).abs() < 1e-6, "along the wind: {v:?}");
    assert!(w.body(crate_).unwrap().angular_velocity().abs() < 1e-6);

    // A body moving with the wind (drag 1) feels none.
    build::set_velocity(&mut w, ball, Vec2::new(10.0, 0.0));
    w.shape_mut(s)
        .unwrap()
        .apply_wind(Vec2::new(10.0, 0.0), 1.0, 0.0, true)
        .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    assert_eq!(
        w.body(ball).unwrap().linear_velocity(),
        Vec2::new(10.0, 0.0)
    );
    assert!(
        w.shape_mut(s)
            .unwrap()
            .apply_wind(Vec2::new(f32::NAN, 0.0), 1.0, 0.0, true)
            .is_err()
    );
    assert!(
        w.shape_mut(s)
            .unwrap()
            .apply_wind(Vec2::X, -1.0, 0.0, true)
            .is_err()
    );
}

#[test]
fn wind_matches_box2d() {
    let wind = Vec2::new(7.0, -3.0);
    let (drag, lift) = (0.8, 0.6);
    let start = Vec2::new(1.0, 2.0);
    let v0 = Vec2::new(-2.0, 1.0);
    let angle = 0.3f32;
    let spin = 1.5f32;
    for polygon in [false, true] {
        let mut w = world(Vec2::ZERO);
        let b = w
            .create_body(&BodyDef {
                rotation: Rot::from_angle(angle),
                linear_velocity: v0,
                angular_velocity: spin,
                ..build::def(BodyType::Dynamic, start)
            })
            .unwrap();
        let s = if polygon {
            // Off-centre so the wind also turns it.
            let poly =
                make_offset_box(0.6, 0.3, Vec2::new(0.4, 0.1), Rot::from_angle(0.2)).unwrap();
            w.create_polygon_shape(b, &ShapeDef::default(), &poly)
                .unwrap()
        } else {
            add_circle(&mut w, b, 0.4)
        };
        w.shape_mut(s)
            .unwrap()
            .apply_wind(wind, drag, lift, true)
            .unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        let ours = w.body(b).unwrap();
        let (ours_v, ours_w) = (ours.linear_velocity(), ours.angular_velocity());

        // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
        let (theirs_v, theirs_w) = unsafe {
            let mut def = c::b2DefaultWorldDef();
            def.gravity = c::b2Vec2 { x: 0.0, y: 0.0 };
            let world = c::b2CreateWorld(&def);
            let mut bd = c::b2DefaultBodyDef();
            bd.type_ = c::b2BodyType_b2_dynamicBody;
            bd.position = c::b2Vec2 {
                x: start.x,
                y: start.y,
            };
            let q = Rot::from_angle(angle);
            bd.rotation = c::b2Rot { c: q.c, s: q.s };
            bd.linearVelocity = c::b2Vec2 { x: v0.x, y: v0.y };
            bd.angularVelocity = spin;
            let body = c::b2CreateBody(world, &bd);
            let sd = c::b2DefaultShapeDef();
            let shape = if polygon {
                let poly = c::b2MakeOffsetBox(0.6, 0.3, c::b2Vec2 { x: 0.4, y: 0.1 }, {
                    let q = Rot::from_angle(0.2);
                    c::b2Rot { c: q.c, s: q.s }
                });
                c::b2CreatePolygonShape(body, &sd, &poly)
            } else {
                let circle = c::b2Circle {
                    center: c::b2Vec2 { x: 0.0, y: 0.0 },
                    radius: 0.4,
                };
                c::b2CreateCircleShape(body, &sd, &circle)
            };
            c::b2Shape_ApplyWind(
                shape,
                c::b2Vec2 {
                    x: wind.x,
                    y: wind.y,
                },
                drag,
                lift,
                true,
            );
            c::b2World_Step(world, DT, SUBSTEPS as i32);
            let v = c::b2Body_GetLinearVelocity(body);
            let om = c::b2Body_GetAngularVelocity(body);
            c::b2DestroyWorld(world);
            (Vec2::new(v.x, v.y), om)
        };
        // Same start (our rotations handed to Box2D); the sums may round
        // in a different order.
        let dv = ours_v - v0;
        let tv = theirs_v - v0;
        assert!(
            (dv - tv).length() <= 1e-3 * tv.length().max(1.0),
            "polygon {polygon}: {ours_v:?} vs {theirs_v:?}"
        );
        assert!(
            (ours_w - theirs_w).abs() <= 1e-3 * (theirs_w - spin).abs().max(1.0),
            "polygon {polygon}: {ours_w} vs {theirs_w}"
        );
    }
}

#[test]
fn tangent_speed_set_at_run_time_drives_a_box_along_a_conveyor() {
    let (mut w, _, belt) = world_on_ground();
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 0.5), 0.5, 0.5);
    run(&mut w, 30);
    assert!(w.body(b).unwrap().linear_velocity().x.abs() < 1e-3);
    assert!(!w.body(b).unwrap().is_awake(), "asleep on the belt");
    let g = w.shape(belt).unwrap().body();
    w.shape_mut(belt).unwrap().set_tangent_speed(2.0).unwrap();
    assert_eq!(w.shape(belt).unwrap().tangent_speed(), 2.0);
    // As in Box2D, changing a material wakes nothing; wake what rests on it.
    w.body_mut(g).unwrap().wake_touching();
    run(&mut w, 120);
    // Friction carries the box at the belt's speed (its sign is the
    // belt's tangent direction, along the top face).
    let v = w.body(b).unwrap().linear_velocity();
    assert!((v.x.abs() - 2.0).abs() < 0.02, "{v:?}");
    assert!(v.y.abs() < 0.02, "{v:?}");
}

#[test]
fn rolling_resistance_set_at_run_time_stops_a_ball() {
    // A solid disc rolling without slipping, resisted by a torque c·r·N with
    // N = m·g, decelerates at a = c·r·m·g·r / I_contact = c·g / 1.5
    // (I_contact = 1.5·m·r²): from v0 it stops after v0 / a.
    let (c, g, v0) = (0.3f32, 10.0f32, 5.0f32);
    let stop_time = v0 / (c * g / 1.5);
    let mut rolled = [0.0f32; 2];
    for (k, resist) in [false, true].into_iter().enumerate() {
        let mut w = world(Vec2::new(0.0, -g));
        ground(&mut w);
        let ball = dynamic(&mut w, Vec2::new(-15.0, 0.5));
        let s = add_circle(&mut w, ball, 0.5);
        run(&mut w, 10);
        {
            let mut body = w.body_mut(ball).unwrap();
            body.set_linear_velocity(Vec2::new(v0, 0.0)).unwrap();
            body.set_angular_velocity(-v0 / 0.5).unwrap();
        }
        if resist {
            w.shape_mut(s).unwrap().set_rolling_resistance(c).unwrap();
        }
        let mut stopped_at = None;
        for i in 0..240 {
            w.step(DT, SUBSTEPS).unwrap();
            if stopped_at.is_none() && w.body(ball).unwrap().linear_velocity().x < 0.01 {
                stopped_at = Some((i + 1) as f32 * DT);
            }
        }
        rolled[k] = coord_to_f32(w.body(ball).unwrap().position().x) + 15.0;
        if resist {
            let t = stopped_at.expect("the ball stops");
            assert!((t / stop_time - 1.0).abs() < 0.1, "stopped after {t} s");
            // Distance v0²/(2a).
            let d = v0 * v0 / (2.0 * c * g / 1.5);
            assert!((rolled[k] / d - 1.0).abs() < 0.1, "rolled {} m", rolled[k]);
        } else {
            assert!(stopped_at.is_none());
        }
    }
    assert!(rolled[0] > 3.0 * rolled[1]);
}

/// A 0.2 m box flying at 36 m/s (0.6 m a step) at a thin static wall at x = 1.
fn fly_at_wall(safety_factor: Option<f32>) -> f32 {
    let mut w = world(Vec2::ZERO);
    let wall = w.create_body(&BodyDef::default()).unwrap();
    let segment =
        impulse2d::collision::Segment::new(Vec2::new(1.0, -2.0), Vec2::new(1.0, 2.0)).unwrap();
    w.create_segment_shape(wall, &ShapeDef::default(), &segment)
        .unwrap();
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.1, 0.0), 0.1, 0.1);
    {
        let mut body = w.body_mut(b).unwrap();
        if let Some(f) = safety_factor {
            body.set_safety_factor(f).unwrap();
        }
        body.set_linear_velocity(Vec2::new(36.0, 0.0)).unwrap();
    }
    run(&mut w, 5);
    coord_to_f32(w.body(b).unwrap().position().x)
}

#[test]
fn safety_factor_decides_when_continuous_collision_engages() {
    // The box moves 0.6 m a step; its smallest extent is 0.1 m. It is swept
    // when 0.6 > factor × 0.1, that is for factors below 6.
    assert!(fly_at_wall(None) < 1.0, "default 0.5: swept, stopped");
    assert!(fly_at_wall(Some(5.5)) < 1.0, "5.5: swept, stopped");
    assert!(fly_at_wall(Some(6.5)) > 1.0, "6.5: not swept, tunnels");
    let mut w = world(Vec2::ZERO);
    let b = dynamic(&mut w, Vec2::ZERO);
    assert_eq!(w.body(b).unwrap().safety_factor(), 0.5);
    assert!(w.body_mut(b).unwrap().set_safety_factor(-1.0).is_err());
    assert!(w.body_mut(b).unwrap().set_safety_factor(f32::NAN).is_err());
    assert_eq!(w.body(b).unwrap().safety_factor(), 0.5);
}

#[test]
fn body_event_toggles_turn_contact_and_hit_events_on_and_off() {
    let (mut w, _, floor) = world_on_ground();
    // A contact reports when either shape asks: keep the ground quiet.
    w.shape_mut(floor)
        .unwrap()
        .set_contact_events_enabled(false);
    let quiet = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(-2.0, 2.0), 0.5, 0.5);
    let loud = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(2.0, 2.0), 0.5, 0.5);
    w.body_mut(quiet).unwrap().set_contact_events_enabled(false);
    w.body_mut(loud).unwrap().set_hit_events_enabled(true);
    let mut begins = Vec::new();
    let mut hits = Vec::new();
    for _ in 0..90 {
        w.step(DT, SUBSTEPS).unwrap();
        let events = w.contact_events();
        for e in events.begin {
            for s in [e.shape_id_a, e.shape_id_b] {
                if let Ok(shape) = w.shape(s) {
                    begins.push(shape.body());
                }
            }
        }
        for e in events.hit {
            for s in [e.shape_id_a, e.shape_id_b] {
                if let Ok(shape) = w.shape(s) {
                    hits.push(shape.body());
                }
            }
        }
    }
    assert!(begins.contains(&loud));
    assert!(!begins.contains(&quiet));
    assert!(hits.contains(&loud));
    assert!(!hits.contains(&quiet));
}

#[test]
fn motion_locks_set_at_run_time_hold_their_axes() {
    let mut w = world(Vec2::new(0.0, -10.0));
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 5.0), 0.5, 0.5);
    let locks = MotionLocks {
        linear_x: true,
        linear_y: true,
        angular_z: false,
    };
    {
        let mut body = w.body_mut(b).unwrap();
        body.set_linear_velocity(Vec2::new(3.0, 0.0)).unwrap();
        body.set_angular_velocity(1.0).unwrap();
        body.set_motion_locks(locks);
    }
    assert_eq!(w.body(b).unwrap().motion_locks(), locks);
    assert_eq!(w.body(b).unwrap().linear_velocity(), Vec2::ZERO);
    run(&mut w, 30);
    let body = w.body(b).unwrap();
    assert_eq!(body.position(), Pos::new(0.0, 5.0));
    // Rotation stays free: half a second at 1 rad/s.
    assert!((body.rotation().angle() - 0.5).abs() < 1e-3);
    w.body_mut(b)
        .unwrap()
        .set_motion_locks(MotionLocks::default());
    run(&mut w, 30);
    assert!(w.body(b).unwrap().position().y < 4.0);
}

#[test]
fn clear_forces_drops_what_was_applied() {
    let mut w = world(Vec2::ZERO);
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::ZERO, 0.5, 0.5);
    let mut body = w.body_mut(b).unwrap();
    body.apply_force_to_center(Vec2::new(100.0, 0.0), true)
        .unwrap();
    body.apply_torque(5.0, true).unwrap();
    body.clear_forces();
    w.step(DT, SUBSTEPS).unwrap();
    assert_eq!(w.body(b).unwrap().linear_velocity(), Vec2::ZERO);
    assert_eq!(w.body(b).unwrap().angular_velocity(), 0.0);
    // Without clearing, the same force gives F·dt/m.
    w.body_mut(b)
        .unwrap()
        .apply_force_to_center(Vec2::new(60.0, 0.0), true)
        .unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    assert!((w.body(b).unwrap().linear_velocity().x - 1.0).abs() < 1e-5);
}

#[test]
fn sleep_threshold_set_at_run_time_lets_a_drifting_body_sleep() {
    let mut w = world(Vec2::ZERO);
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::ZERO, 0.5, 0.5);
    build::set_velocity(&mut w, b, Vec2::new(1.0, 0.0));
    run(&mut w, 60);
    assert!(w.body(b).unwrap().is_awake(), "1 m/s is above 0.05 m/s");
    w.body_mut(b).unwrap().set_sleep_threshold(2.0).unwrap();
    assert_eq!(w.body(b).unwrap().sleep_threshold(), 2.0);
    // It sleeps once it has been below the threshold for TIME_TO_SLEEP.
    let steps = (impulse2d::TIME_TO_SLEEP / DT).ceil() as usize + 2;
    run(&mut w, steps);
    assert!(!w.body(b).unwrap().is_awake());
    assert!(w.body_mut(b).unwrap().set_sleep_threshold(-1.0).is_err());
    assert_eq!(w.body(b).unwrap().sleep_threshold(), 2.0);
}

#[test]
fn wake_touching_wakes_the_bodies_on_a_static_ground() {
    let (mut w, g, _) = world_on_ground();
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 0.5), 0.5, 0.5);
    run(&mut w, 120);
    assert!(!w.body(b).unwrap().is_awake());
    w.body_mut(g).unwrap().wake_touching();
    assert!(w.body(b).unwrap().is_awake());
}

#[test]
fn body_read_outs() {
    let mut w = world(Vec2::ZERO);
    let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 4.0), 0.5, 0.5);
    add_circle(&mut w, b, 0.25);
    // Shape boxes are the speculative ones after a step.
    w.step(DT, SUBSTEPS).unwrap();
    let body = w.body(b).unwrap();
    assert_eq!(body.shape_count(), 2);
    assert_eq!(body.joint_count(), 0);
    assert!(body.joints().is_empty());
    let s = SPECULATIVE_DISTANCE;
    let aabb = body.aabb();
    assert!((aabb.lower - Vec2::new(-0.5 - s, 3.5 - s)).length() < 1e-6);
    assert!((aabb.upper - Vec2::new(0.5 + s, 4.5 + s)).length() < 1e-6);

    let mut body = w.body_mut(b).unwrap();
    body.set_linear_velocity(Vec2::new(1.0, 0.0)).unwrap();
    body.set_angular_velocity(2.0).unwrap();
    body.set_name("crate");
    body.set_user_data(7);
    // v + ω × r with r = (1, 0): (1, 0) + (0, 2).
    assert_eq!(
        body.local_point_velocity(Vec2::new(1.0, 0.0)),
        Vec2::new(1.0, 2.0)
    );
    assert_eq!(
        body.world_point_velocity(Vec2::new(1.0, 4.0)),
        Vec2::new(1.0, 2.0)
    );
    assert_eq!(body.name(), "crate");
    assert_eq!(body.user_data(), 7);
    assert!(body.set_gravity_scale(f32::INFINITY).is_err());
    assert!(body.set_linear_damping(-1.0).is_err());
    assert_eq!(body.gravity_scale(), 1.0);
    assert_eq!(body.linear_damping(), 0.0);
}

#[test]
fn surface_materials_on_shapes_and_chain_segments() {
    let mut w = world(Vec2::new(0.0, -10.0));
    let g = w.create_body(&BodyDef::default()).unwrap();
    let points = vec![
        Vec2::new(-10.0, 0.0),
        Vec2::new(-5.0, 0.0),
        Vec2::new(0.0, 0.0),
        Vec2::new(5.0, 0.0),
        Vec2::new(10.0, 0.0),
    ];
    let ice = SurfaceMaterial {
        friction: 0.0,
        user_material_id: 3,
        ..Default::default()
    };
    let rubber = SurfaceMaterial {
        friction: 1.0,
        restitution: 0.5,
        custom_color: 0x30_30_30,
        ..Default::default()
    };
    // Two segments need no material, one, or two.
    assert!(
        w.create_chain(
            g,
            &ChainDef {
                points: points.clone(),
                materials: vec![ice, rubber, ice],
                ..Default::default()
            }
        )
        .is_err()
    );
    let chain = w
        .create_chain(
            g,
            &ChainDef {
                points,
                materials: vec![ice, rubber],
                ..Default::default()
            },
        )
        .unwrap();
    let view = w.chain(chain).unwrap();
    assert_eq!(view.segment_count(), 2);
    assert_eq!(view.surface_material_count(), 2);
    assert_eq!(view.surface_material(0).unwrap(), ice);
    assert_eq!(view.surface_material(1).unwrap(), rubber);
    assert!(view.surface_material(2).is_err());
    let segs = view.segments();
    assert_eq!(w.shape(segs[1]).unwrap().surface_material(), rubber);
    assert_eq!(w.shape(segs[0]).unwrap().user_material(), 3);

    let bad = SurfaceMaterial {
        friction: -1.0,
        ..Default::default()
    };
    assert!(
        w.chain_mut(chain)
            .unwrap()
            .set_surface_material(&bad, 0)
            .is_err()
    );
    assert!(
        w.chain_mut(chain)
            .unwrap()
            .set_surface_material(&ice, 5)
            .is_err()
    );
    assert_eq!(w.chain(chain).unwrap().surface_material(0).unwrap(), ice);
    w.chain_mut(chain)
        .unwrap()
        .set_surface_material(&rubber, 0)
        .unwrap();
    assert_eq!(w.shape(segs[0]).unwrap().surface_material(), rubber);
    assert_eq!(w.shape(segs[1]).unwrap().surface_material(), rubber);
    assert!(
        w.shape_mut(segs[0])
            .unwrap()
            .set_surface_material(&bad)
            .is_err()
    );
    assert_eq!(w.shape(segs[0]).unwrap().friction(), 1.0);
    w.chain_mut(chain).unwrap().set_friction(0.25).unwrap();
    assert_eq!(w.chain(chain).unwrap().friction(), 0.25);
    assert_eq!(w.shape(segs[1]).unwrap().friction(), 0.25);
}

#[test]
fn shape_material_changes_reach_the_contacts() {
    // A box sliding at 4 m/s on friction 0.5 stops after v²/(2·μ·g) = 1.6 m
    // (friction mixed as √(μa·μb) with both shapes at 0.5); on friction 0
    // it keeps its speed.
    let (mut w, _, floor) = world_on_ground();
    let b = dynamic(&mut w, Vec2::new(0.0, 0.5));
    let s = add_box(&mut w, b, 0.5, 0.5);
    run(&mut w, 30);
    w.shape_mut(floor).unwrap().set_friction(0.0).unwrap();
    build::set_velocity(&mut w, b, Vec2::new(4.0, 0.0));
    run(&mut w, 30);
    let v = w.body(b).unwrap().linear_velocity().x;
    assert!((v - 4.0).abs() < 1e-3, "v = {v}");
    let x0 = w.body(b).unwrap().position().x;
    w.shape_mut(floor).unwrap().set_friction(0.5).unwrap();
    w.shape_mut(s).unwrap().set_friction(0.5).unwrap();
    run(&mut w, 120);
    let d = w.body(b).unwrap().position().x - x0;
    assert!((d / 1.6 - 1.0).abs() < 0.05, "slid {d} m");
}

#[test]
fn sensor_capacity_and_data() {
    let mut w = world(Vec2::ZERO);
    let g = w.create_body(&BodyDef::default()).unwrap();
    let sensor = w
        .create_polygon_shape(
            g,
            &ShapeDef {
                is_sensor: true,
                enable_sensor_events: true,
                ..Default::default()
            },
            &make_box(2.0, 2.0).unwrap(),
        )
        .unwrap();
    let b = dynamic(&mut w, Vec2::ZERO);
    let visitor = add_circle(&mut w, b, 0.5);
    assert_eq!(w.shape(sensor).unwrap().sensor_capacity(), 0);
    w.step(DT, SUBSTEPS).unwrap();
    let view = w.shape(sensor).unwrap();
    assert_eq!(view.sensor_capacity(), 1);
    assert_eq!(view.sensor_overlaps().unwrap(), vec![visitor]);
    assert_eq!(w.shape(visitor).unwrap().sensor_capacity(), 0);
    assert!(w.shape(visitor).unwrap().sensor_overlaps().is_err());
}

/// Bits of every body transform after `steps` steps of a small tilted stack.
fn stack_bits(recycle_distance: f32, body_recycling: bool, steps: usize) -> Vec<build::PoseBits> {
    let mut w = World::new(&WorldDef {
        contact_recycle_distance: recycle_distance,
        ..Default::default()
    })
    .unwrap();
    ground(&mut w);
    let mut ids = Vec::new();
    for i in 0..4 {
        let b = w
            .create_body(&BodyDef {
                rotation: Rot::from_angle(0.05 * i as f32),
                ..build::def(
                    BodyType::Dynamic,
                    Vec2::new(0.1 * i as f32, 0.5 + 1.01 * i as f32),
                )
            })
            .unwrap();
        add_box(&mut w, b, 0.5, 0.5);
        w.body_mut(b)
            .unwrap()
            .set_contact_recycling_enabled(body_recycling);
        ids.push(b);
    }
    run(&mut w, steps);
    let mut bits = Vec::new();
    for b in ids {
        bits.push(w.body(b).unwrap().transform().to_bits());
        assert!(w.body(b).unwrap().is_contact_recycling_enabled() == body_recycling);
    }
    bits
}

#[test]
fn bodies_without_contact_recycling_step_as_a_world_without_it() {
    let default = WorldDef::default().contact_recycle_distance;
    let off_per_body = stack_bits(default, false, 150);
    let off_in_world = stack_bits(0.0, true, 150);
    assert_eq!(off_per_body, off_in_world);
}

#[test]
fn free_standing_chain_segment_is_one_sided_and_can_be_flipped() {
    use impulse2d::collision::{ChainSegment, Segment};
    let segment = |a: f32, b: f32| {
        ChainSegment::new(
            Vec2::new(2.0 * a, 0.0),
            Segment::new(Vec2::new(a, 0.0), Vec2::new(b, 0.0)).unwrap(),
            Vec2::new(2.0 * b, 0.0),
        )
        .unwrap()
    };
    let mut w = world(Vec2::new(0.0, -10.0));
    let g = w.create_body(&BodyDef::default()).unwrap();
    // Wound right to left, its solid side (the right of p1 → p2) is up.
    let s = w
        .create_chain_segment_shape(g, &ShapeDef::default(), &segment(1.0, -1.0))
        .unwrap();
    assert_eq!(w.shape(s).unwrap().parent_chain(), None);
    let ball = dynamic(&mut w, Vec2::new(0.0, 1.0));
    add_circle(&mut w, ball, 0.5);
    run(&mut w, 90);
    let y = w.body(ball).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.01, "rests on it: y = {y}");
    // Flipped, its solid side faces down: the ball falls through.
    w.shape_mut(s)
        .unwrap()
        .set_chain_segment(&segment(-1.0, 1.0))
        .unwrap();
    run(&mut w, 60);
    assert!(w.body(ball).unwrap().position().y < -1.0);
}

#[test]
fn custom_filtering_is_asked_only_for_shapes_that_enable_it() {
    let (mut w, _, floor) = world_on_ground();
    w.set_custom_filter(|_, _| false);
    // Ground opted out: a pair is asked about when either shape opts in.
    let g = w.shape(floor).unwrap().body();
    w.destroy_shape(floor, false).unwrap();
    let poly = make_offset_box(20.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let quiet = ShapeDef {
        enable_custom_filtering: false,
        ..Default::default()
    };
    w.create_polygon_shape(g, &quiet, &poly).unwrap();
    let free = dynamic(&mut w, Vec2::new(-2.0, 1.0));
    w.create_polygon_shape(free, &quiet, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let filtered = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(2.0, 1.0), 0.5, 0.5);
    run(&mut w, 60);
    assert!((w.body(free).unwrap().position().y - 0.5).abs() < 0.01);
    assert!(w.body(filtered).unwrap().position().y < -1.0);
}

#[test]
fn invoke_contact_creation_finds_sleeping_bodies_under_a_new_static_shape() {
    for invoke in [false, true] {
        let (mut w, _, _) = world_on_ground();
        let b = build::box_body(&mut w, BodyType::Dynamic, Vec2::new(0.0, 0.5), 0.5, 0.5);
        run(&mut w, 60);
        assert!(!w.body(b).unwrap().is_awake());
        let before = w.body(b).unwrap().contact_capacity();
        // A static post dropped through the sleeping box.
        let post = build::body(&mut w, BodyType::Static, Vec2::new(0.0, 0.5));
        let def = ShapeDef {
            invoke_contact_creation: invoke,
            ..Default::default()
        };
        w.create_polygon_shape(post, &def, &make_box(0.1, 1.0).unwrap())
            .unwrap();
        w.step(DT, SUBSTEPS).unwrap();
        let found = w.body(b).unwrap().contact_capacity() > before;
        assert_eq!(found, invoke, "invoke = {invoke}");
    }
}

/// Box2D's C world for the differential tests below.
struct Box2dWorld(c::b2WorldId);

impl Box2dWorld {
    fn new(gravity: Vec2) -> Self {
        // SAFETY: plain FFI calls on a fresh world.
        unsafe {
            let mut def = c::b2DefaultWorldDef();
            def.gravity = c::b2Vec2 {
                x: gravity.x,
                y: gravity.y,
            };
            Box2dWorld(c::b2CreateWorld(&def))
        }
    }

    fn body(&self, body_type: BodyType, position: Vec2) -> c::b2BodyId {
        // SAFETY: the world is alive; the def outlives the call.
        unsafe {
            let mut bd = c::b2DefaultBodyDef();
            bd.type_ = match body_type {
                BodyType::Static => c::b2BodyType_b2_staticBody,
                BodyType::Kinematic => c::b2BodyType_b2_kinematicBody,
                BodyType::Dynamic => c::b2BodyType_b2_dynamicBody,
            };
            bd.position = v2(position);
            c::b2CreateBody(self.0, &bd)
        }
    }

    fn step(&self, steps: usize) {
        for _ in 0..steps {
            // SAFETY: the world is alive.
            unsafe { c::b2World_Step(self.0, DT, SUBSTEPS as i32) };
        }
    }
}

impl Drop for Box2dWorld {
    fn drop(&mut self) {
        // SAFETY: created by b2CreateWorld, destroyed once.
        unsafe { c::b2DestroyWorld(self.0) };
    }
}

fn v2(v: Vec2) -> c::b2Vec2 {
    c::b2Vec2 { x: v.x, y: v.y }
}

fn from_b2(v: c::b2Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

#[test]
fn run_time_body_setters_in_free_flight_match_box2d() {
    let start = Vec2::new(0.0, 20.0);
    let mut w = world(Vec2::new(0.0, -10.0));
    let b = build::box_body(&mut w, BodyType::Dynamic, start, 0.5, 0.25);
    let theirs = Box2dWorld::new(Vec2::new(0.0, -10.0));
    let tb = theirs.body(BodyType::Dynamic, start);
    // SAFETY: live ids of a live world for every call below.
    unsafe {
        let poly = c::b2MakeBox(0.5, 0.25);
        c::b2CreatePolygonShape(tb, &c::b2DefaultShapeDef(), &poly);
    }
    let compare = |w: &World, when: &str| {
        let ours = w.body(b).unwrap();
        // SAFETY: as above.
        let (p, q, v, om, aabb, lpv) = unsafe {
            (
                from_b2(c::b2Body_GetPosition(tb)),
                c::b2Body_GetRotation(tb),
                from_b2(c::b2Body_GetLinearVelocity(tb)),
                c::b2Body_GetAngularVelocity(tb),
                c::b2Body_ComputeAABB(tb),
                from_b2(c::b2Body_GetLocalPointVelocity(
                    tb,
                    c::b2Vec2 { x: 0.5, y: 0.25 },
                )),
            )
        };
        let tol = 1e-4;
        assert!(
            (ours.position() - to_pos(p)).length() < tol,
            "{when}: position"
        );
        assert!((ours.rotation().s - q.s).abs() < tol, "{when}: rotation");
        assert!((ours.linear_velocity() - v).length() < tol, "{when}: v");
        assert!((ours.angular_velocity() - om).abs() < tol, "{when}: w");
        let a = ours.aabb();
        assert!(
            (a.lower - from_b2(aabb.lowerBound)).length() < tol,
            "{when}: aabb"
        );
        assert!(
            (a.upper - from_b2(aabb.upperBound)).length() < tol,
            "{when}: aabb"
        );
        let pv = ours.local_point_velocity(Vec2::new(0.5, 0.25));
        assert!((pv - lpv).length() < tol, "{when}: point velocity");
    };

    {
        let mut body = w.body_mut(b).unwrap();
        body.set_gravity_scale(0.5).unwrap();
        body.set_linear_damping(0.2).unwrap();
        body.set_angular_damping(0.3).unwrap();
        body.set_linear_velocity(Vec2::new(1.0, 3.0)).unwrap();
        body.set_angular_velocity(2.0).unwrap();
        body.apply_force(Vec2::new(5.0, 0.0), Vec2::new(0.0, 20.5), true)
            .unwrap();
    }
    // SAFETY: as above.
    unsafe {
        c::b2Body_SetGravityScale(tb, 0.5);
        c::b2Body_SetLinearDamping(tb, 0.2);
        c::b2Body_SetAngularDamping(tb, 0.3);
        c::b2Body_SetLinearVelocity(tb, c::b2Vec2 { x: 1.0, y: 3.0 });
        c::b2Body_SetAngularVelocity(tb, 2.0);
        c::b2Body_ApplyForce(
            tb,
            c::b2Vec2 { x: 5.0, y: 0.0 },
            c::b2Vec2 { x: 0.0, y: 20.5 },
            true,
        );
    }
    run(&mut w, 20);
    theirs.step(20);
    compare(&w, "after damping and gravity scale");

    let locks = MotionLocks {
        linear_x: false,
        linear_y: true,
        angular_z: false,
    };
    {
        let mut body = w.body_mut(b).unwrap();
        body.apply_force_to_center(Vec2::new(0.0, 50.0), true)
            .unwrap();
        body.clear_forces();
        body.set_motion_locks(locks);
    }
    // SAFETY: as above.
    unsafe {
        c::b2Body_ApplyForceToCenter(tb, c::b2Vec2 { x: 0.0, y: 50.0 }, true);
        c::b2Body_ClearForces(tb);
        c::b2Body_SetMotionLocks(
            tb,
            c::b2MotionLocks {
                linearX: false,
                linearY: true,
                angularZ: false,
            },
        );
    }
    run(&mut w, 20);
    theirs.step(20);
    compare(&w, "after clear forces and a y lock");
}

#[test]
fn a_circle_resized_mid_run_rests_where_box2d_puts_it() {
    let (mut w, _, _) = world_on_ground();
    let ball = dynamic(&mut w, Vec2::new(0.0, 2.0));
    let s = add_circle(&mut w, ball, 0.5);
    let theirs = Box2dWorld::new(Vec2::new(0.0, -10.0));
    let tg = theirs.body(BodyType::Static, Vec2::ZERO);
    let tb = theirs.body(BodyType::Dynamic, Vec2::new(0.0, 2.0));
    // SAFETY: live ids of a live world for every call below.
    let ts = unsafe {
        let poly = c::b2MakeOffsetBox(
            20.0,
            1.0,
            c::b2Vec2 { x: 0.0, y: -1.0 },
            c::b2Rot { c: 1.0, s: 0.0 },
        );
        c::b2CreatePolygonShape(tg, &c::b2DefaultShapeDef(), &poly);
        let circle = c::b2Circle {
            center: c::b2Vec2 { x: 0.0, y: 0.0 },
            radius: 0.5,
        };
        c::b2CreateCircleShape(tb, &c::b2DefaultShapeDef(), &circle)
    };
    run(&mut w, 60);
    theirs.step(60);
    let bigger = Circle {
        center: Vec2::ZERO,
        radius: 1.0,
    };
    w.shape_mut(s).unwrap().set_circle(&bigger).unwrap();
    // SAFETY: as above. Box2D leaves the mass to the caller.
    unsafe {
        let circle = c::b2Circle {
            center: c::b2Vec2 { x: 0.0, y: 0.0 },
            radius: 1.0,
        };
        c::b2Shape_SetCircle(ts, &circle);
        c::b2Body_ApplyMassFromShapes(tb);
        assert!((w.body(ball).unwrap().mass() - c::b2Body_GetMass(tb)).abs() < 1e-5);
    }
    for _ in 0..120 {
        w.step(DT, SUBSTEPS).unwrap();
        theirs.step(1);
        // SAFETY: as above.
        let y = unsafe { c::b2Body_GetPosition(tb).y };
        let ours = coord_to_f32(w.body(ball).unwrap().position().y);
        assert!((ours - y).abs() < 0.01, "{ours} vs {y}");
    }
    let y = w.body(ball).unwrap().position().y;
    assert!((y - 1.0).abs() < 0.01);
}

#[test]
fn a_body_lists_its_joints_newest_first() {
    use impulse2d::{JointDef, RevoluteJointDef};
    let mut w = world(Vec2::ZERO);
    let a = dynamic(&mut w, Vec2::ZERO);
    let b = dynamic(&mut w, Vec2::X);
    let c2 = dynamic(&mut w, Vec2::new(2.0, 0.0));
    let hinge = |body_a, body_b| RevoluteJointDef {
        base: JointDef {
            body_a,
            body_b,
            ..Default::default()
        },
        ..Default::default()
    };
    let j1 = w.create_revolute_joint(&hinge(a, b)).unwrap();
    let j2 = w.create_revolute_joint(&hinge(b, c2)).unwrap();
    assert_eq!(w.body(b).unwrap().joint_count(), 2);
    assert_eq!(w.body(b).unwrap().joints(), vec![j2, j1]);
    assert_eq!(w.body(a).unwrap().joints(), vec![j1]);
    w.destroy_joint(j1).unwrap();
    assert_eq!(w.body(b).unwrap().joints(), vec![j2]);
    assert_eq!(w.body(a).unwrap().joint_count(), 0);
}
