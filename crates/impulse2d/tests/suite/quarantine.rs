//! NaN quarantine: finite but absurd input (a force of 3e38 N, a mass of
//! 1e-30 kg pushed by 10 N, a torque of 3e38 N·m, an impulse of 3e38 N·s, a
//! time step that carries a body beyond `MAX_COORDINATE`) takes that one body
//! out of the simulation with an event saying why, and every other body keeps
//! stepping: the same bits as in a world without the absurd input for a body
//! that does not touch it, finite and valid for those that do. Checked on 1
//! and 2 workers, which must agree to the bit.

use crate::build;

use impulse2d::collision::MassData;
use impulse2d::core::MAX_COORDINATE;
use impulse2d::{
    BodyDef, BodyId, BodyQuarantineEvent, BodyType, JointDef, Pos, QuarantineReason,
    RevoluteJointDef, Transform, Vec2, World, WorldTransform,
};

/// The bodies of [`scene`].
struct Scene {
    world: World,
    /// Rests on the ground; receives the absurd input.
    bad: BodyId,
    /// Rests on the ground touching `bad`'s right side.
    neighbour: BodyId,
    /// Hangs from `bad` by a revolute joint, 2 m above it.
    hinged: BodyId,
    /// Falls far from everything else.
    free: BodyId,
}

fn dynamic_box(world: &mut World, position: Vec2, user_data: u64) -> BodyId {
    let body = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: impulse2d::pos::to_pos(position),
            user_data,
            enable_sleep: false,
            ..Default::default()
        })
        .unwrap();
    build::add_box(world, body, 0.5, 0.5);
    body
}

/// A ground (top at y = 0), two 1 m boxes side by side on it, a box hinged
/// to the first, and a box far away; stepped 30 times so that the contacts
/// are touching and warm.
fn scene(workers: usize) -> Scene {
    let mut world = build::world_with_workers(workers);
    build::ground_slab(&mut world, 20.0);
    let bad = dynamic_box(&mut world, Vec2::new(0.0, 0.5), 7);
    let neighbour = dynamic_box(&mut world, Vec2::new(1.005, 0.5), 8);
    let hinged = dynamic_box(&mut world, Vec2::new(0.0, 2.5), 9);
    let free = dynamic_box(&mut world, Vec2::new(100.0, 50.0), 10);
    world
        .create_revolute_joint(&RevoluteJointDef {
            base: JointDef {
                body_a: bad,
                body_b: hinged,
                local_anchor_a: Vec2::new(0.0, 1.0),
                local_anchor_b: Vec2::new(0.0, -1.0),
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
    for _ in 0..30 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    Scene {
        world,
        bad,
        neighbour,
        hinged,
        free,
    }
}

/// The absurd inputs, each with the reason it must give.
#[derive(Clone, Copy, Debug)]
enum Absurd {
    /// 3e38 N on a 1 kg box.
    Force,
    /// A mass of 1e-30 kg (inertia 1e-30 kg·m²) pushed by 10 N.
    TinyMass,
    /// 3e38 N·m on a box of inertia 1/6 kg·m².
    Torque,
    /// 3e38 N·s on a 1 kg box: a finite velocity of 3e38 m/s whose square
    /// overflows.
    Impulse,
    /// 3e38 N·m·s: an angular velocity of 1.8e39 rad/s, infinite already.
    AngularImpulse,
}

fn apply(world: &mut World, body: BodyId, absurd: Absurd) {
    match absurd {
        Absurd::Force => world
            .body_mut(body)
            .unwrap()
            .apply_force_to_center(Vec2::new(3.0e38, 0.0), true)
            .unwrap(),
        Absurd::TinyMass => {
            let mass = MassData {
                mass: 1.0e-30,
                center: Vec2::ZERO,
                rotational_inertia: 1.0e-30,
            };
            world.body_mut(body).unwrap().set_mass_data(mass).unwrap();
            world
                .body_mut(body)
                .unwrap()
                .apply_force_to_center(Vec2::new(10.0, 0.0), true)
                .unwrap();
        }
        Absurd::Torque => world
            .body_mut(body)
            .unwrap()
            .apply_torque(3.0e38, true)
            .unwrap(),
        Absurd::Impulse => world
            .body_mut(body)
            .unwrap()
            .apply_linear_impulse_to_center(Vec2::new(3.0e38, 0.0), true)
            .unwrap(),
        Absurd::AngularImpulse => world
            .body_mut(body)
            .unwrap()
            .apply_angular_impulse(3.0e38, true)
            .unwrap(),
    }
}

fn bits(xf: WorldTransform) -> build::PoseBits {
    xf.to_bits()
}

fn assert_finite(world: &World, body: BodyId) {
    let xf = world.body(body).unwrap().transform();
    let v = world.body(body).unwrap().linear_velocity();
    let w = world.body(body).unwrap().angular_velocity();
    assert!(
        xf.p.is_finite() && xf.q.c.is_finite() && xf.q.s.is_finite() && v.is_finite(),
        "{body:?}: {xf:?}, v = {v:?}"
    );
    assert!(w.is_finite(), "{body:?}: w = {w}");
}

/// Runs one absurd input through the scene on `workers` workers and checks
/// everything; returns the bits of every body transform after the recovery,
/// for comparing worker counts.
fn run(absurd: Absurd, workers: usize) -> Vec<build::PoseBits> {
    let mut s = scene(workers);
    let mut reference = scene(workers);
    let before = s.world.body(s.bad).unwrap().transform();

    apply(&mut s.world, s.bad, absurd);
    s.world.step(1.0 / 60.0, 4).unwrap();
    reference.world.step(1.0 / 60.0, 4).unwrap();
    s.world.validate().unwrap();

    let expected = BodyQuarantineEvent {
        body_id: s.bad,
        user_data: 7,
        reason: QuarantineReason::Velocity,
    };
    assert_eq!(
        s.world.body_quarantine_events(),
        &[expected],
        "{absurd:?} on {workers} workers"
    );
    assert!(!s.world.body(s.bad).unwrap().is_enabled());
    // Left where it was at the start of the step, at rest.
    assert_eq!(bits(s.world.body(s.bad).unwrap().transform()), bits(before));
    assert_eq!(s.world.body(s.bad).unwrap().linear_velocity(), Vec2::ZERO);
    assert_eq!(s.world.body(s.bad).unwrap().angular_velocity(), 0.0);
    // Its touching contacts ended, with events.
    let bad_shape = s.world.body(s.bad).unwrap().shapes()[0];
    let ended = s
        .world
        .contact_events()
        .end
        .iter()
        .filter(|e| e.shape_id_a == bad_shape || e.shape_id_b == bad_shape);
    assert_eq!(ended.count(), 2, "with the ground and the neighbour");
    assert!(s.world.body(s.bad).unwrap().contacts().is_empty());

    // The rest steps on: the far body exactly as without the absurd input.
    for body in [s.neighbour, s.hinged, s.free] {
        assert!(s.world.body(body).unwrap().is_enabled());
        assert_finite(&s.world, body);
    }
    let hinged_y = s.world.body(s.hinged).unwrap().position().y;
    for _ in 0..60 {
        s.world.step(1.0 / 60.0, 4).unwrap();
        reference.world.step(1.0 / 60.0, 4).unwrap();
        s.world.validate().unwrap();
        assert!(s.world.body_quarantine_events().is_empty());
        for body in [s.neighbour, s.hinged, s.free] {
            assert_finite(&s.world, body);
        }
    }
    assert_eq!(
        bits(s.world.body(s.free).unwrap().transform()),
        bits(reference.world.body(reference.free).unwrap().transform())
    );
    // The joint to a disabled body holds nothing: the hinged box fell 2 m onto
    // the quarantined one's place (its centre from 2.5 to about 0.5).
    let y = s.world.body(s.hinged).unwrap().position().y;
    assert!(hinged_y > 2.4 && y < 0.6 && y > 0.4, "{hinged_y} -> {y}");
    assert_eq!(
        bits(s.world.body(s.bad).unwrap().transform()),
        bits(before),
        "a disabled body does not move"
    );

    // The way out: make the input sane again and enable the body.
    if let Absurd::TinyMass = absurd {
        s.world.body_mut(s.bad).unwrap().apply_mass_from_shapes();
    }
    // (The hinged box now sits where the body was: hang it back first.)
    s.world
        .body_mut(s.hinged)
        .unwrap()
        .set_transform(Vec2::new(0.0, 2.5), impulse2d::Rot::IDENTITY)
        .unwrap();
    s.world.body_mut(s.bad).unwrap().enable().unwrap();
    for _ in 0..60 {
        s.world.step(1.0 / 60.0, 4).unwrap();
        s.world.validate().unwrap();
        assert!(s.world.body_quarantine_events().is_empty());
    }
    for body in [s.bad, s.neighbour, s.hinged, s.free] {
        assert_finite(&s.world, body);
    }
    // Back on the ground (half a metre above it), where it was.
    let p = s.world.body(s.bad).unwrap().position();
    assert!(
        (p.y - 0.5).abs() < 0.02 && p.x.abs() < 0.1,
        "{absurd:?} on {workers} workers: {p:?}"
    );

    [s.bad, s.neighbour, s.hinged, s.free]
        .map(|b| bits(s.world.body(b).unwrap().transform()))
        .to_vec()
}

#[test]
fn absurd_input_quarantines_one_body_on_1_and_2_workers() {
    for absurd in [
        Absurd::Force,
        Absurd::TinyMass,
        Absurd::Torque,
        Absurd::Impulse,
        Absurd::AngularImpulse,
    ] {
        let one = run(absurd, 1);
        let two = run(absurd, 2);
        assert_eq!(one, two, "{absurd:?}: 1 and 2 workers differ");
    }
}

/// A kinematic body at 400 m/s for a step of 1e16 s would travel 4e18 m,
/// beyond `MAX_COORDINATE`: it is quarantined for its position, while a
/// kinematic body at rest and a weightless dynamic body at rest stay put.
#[test]
fn a_body_carried_beyond_max_coordinate_is_quarantined() {
    const { assert!(400.0 * 1.0e16 > MAX_COORDINATE) };
    for workers in [1, 2] {
        let mut world = build::world_with_workers(workers);
        let moving = build::body(&mut world, BodyType::Kinematic, Vec2::ZERO);
        build::set_velocity(&mut world, moving, Vec2::new(400.0, 0.0));
        let resting = build::body(&mut world, BodyType::Kinematic, Vec2::new(0.0, 10.0));
        let weightless = world
            .create_body(&BodyDef {
                gravity_scale: 0.0,
                ..build::def(BodyType::Dynamic, Vec2::new(0.0, 20.0))
            })
            .unwrap();
        for body in [moving, resting, weightless] {
            build::add_box(&mut world, body, 0.5, 0.5);
        }
        world.step(1.0e16, 1).unwrap();
        world.validate().unwrap();
        assert_eq!(
            world.body_quarantine_events(),
            &[BodyQuarantineEvent {
                body_id: moving,
                user_data: 0,
                reason: QuarantineReason::Position,
            }]
        );
        assert!(!world.body(moving).unwrap().is_enabled());
        assert_eq!(world.body(moving).unwrap().position(), Pos::ZERO);
        assert_eq!(world.body(resting).unwrap().position(), Pos::new(0.0, 10.0));
        assert_eq!(
            world.body(weightless).unwrap().position(),
            Pos::new(0.0, 20.0)
        );
        // The next ordinary step moves nothing that is left.
        world.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
        assert!(world.body_quarantine_events().is_empty());
    }
}

/// A kinematic target reached in a subnormal time step (1e-45 s) would need a
/// velocity of about 1e45 m/s, beyond `f32`: an error, and the body keeps its
/// velocity, rather than an infinite velocity for the step to quarantine.
#[test]
fn a_target_transform_too_soon_for_a_finite_velocity_is_an_error() {
    let mut world = build::world();
    let body = build::body(&mut world, BodyType::Kinematic, Vec2::ZERO);
    build::set_velocity(&mut world, body, Vec2::new(1.0, 0.0));
    let target = Transform::new(Vec2::new(1.0, 0.0), impulse2d::Rot::IDENTITY);
    let tiny = f32::from_bits(1);
    assert!(matches!(
        world
            .body_mut(body)
            .unwrap()
            .set_target_transform(target, tiny),
        Err(impulse2d::Error::OutOfRange { .. })
    ));
    assert_eq!(
        world.body(body).unwrap().linear_velocity(),
        Vec2::new(1.0, 0.0)
    );
    // One microsecond is fine: 1e6 m/s.
    world
        .body_mut(body)
        .unwrap()
        .set_target_transform(target, 1.0e-6)
        .unwrap();
    assert_eq!(
        world.body(body).unwrap().linear_velocity(),
        Vec2::new(1.0e6, 0.0)
    );
}

/// A friction or restitution mixing function answering NaN, infinity or a
/// negative number is overruled by the default rule, so the solver never sees
/// it: the same bits as with the default mixing, and nothing quarantined.
#[test]
fn a_mixing_function_answering_nan_is_overruled_by_the_default() {
    let answers = [f32::NAN, f32::INFINITY, -1.0];
    for (k, answer) in answers.into_iter().enumerate() {
        let mut odd = scene(1 + k % 2);
        let mut reference = scene(1 + k % 2);
        odd.world.set_friction_callback(move |_, _, _, _| answer);
        odd.world.set_restitution_callback(move |_, _, _, _| answer);
        // Wake everything and make the contacts mix again.
        let pairs = [
            (odd.bad, reference.bad),
            (odd.neighbour, reference.neighbour),
        ];
        for (a, b) in pairs {
            let mut view = odd.world.body_mut(a).unwrap();
            view.apply_linear_impulse_to_center(Vec2::new(0.5, 0.0), true)
                .unwrap();
            let mut view = reference.world.body_mut(b).unwrap();
            view.apply_linear_impulse_to_center(Vec2::new(0.5, 0.0), true)
                .unwrap();
        }
        for _ in 0..30 {
            odd.world.step(1.0 / 60.0, 4).unwrap();
            reference.world.step(1.0 / 60.0, 4).unwrap();
            odd.world.validate().unwrap();
            assert!(odd.world.body_quarantine_events().is_empty());
        }
        for (a, b) in pairs {
            assert_eq!(
                bits(odd.world.body(a).unwrap().transform()),
                bits(reference.world.body(b).unwrap().transform()),
                "mixing answering {answer}"
            );
        }
    }
}
