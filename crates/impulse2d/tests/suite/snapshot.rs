//! Snapshots: restore gives the same future (state hashes and contact,
//! sensor and joint events) as the original run, on 1, 2 and 4 workers and
//! across worlds; bad buffers are errors that change nothing.

use impulse2d::collision::{Capsule, Circle, make_box};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyId, BodyType, ChainDef, DistanceJointDef, Error, FilterJointDef, JointDef,
    JointId, MotorJointDef, MouseJointDef, MoverJointDef, PogoJointDef, PrismaticJointDef,
    RevoluteJointDef, ShapeDef, Snapshot, Vec2, WeldJointDef, WheelJointDef, World, WorldDef,
};
use proptest::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn new_world(workers: usize) -> World {
    World::new(&WorldDef {
        worker_count: workers,
        ..WorldDef::default()
    })
    .unwrap()
}

/// Live bodies in id order: the same list in a restored world and in one
/// made from a snapshot, so picks by position work in both.
fn bodies(world: &World) -> Vec<BodyId> {
    world.body_ids().collect()
}

fn dynamic_bodies(world: &World) -> Vec<BodyId> {
    bodies(world)
        .into_iter()
        .filter(|&b| world.body(b).unwrap().body_type() == BodyType::Dynamic)
        .collect()
}

/// Every joint, in joint index order.
fn joints(world: &World) -> Vec<JointId> {
    let mut all: Vec<JointId> = bodies(world)
        .into_iter()
        .flat_map(|b| world.body(b).unwrap().joints())
        .collect();
    all.sort_by_key(|j| j.index());
    all.dedup();
    all
}

/// One call into the world. Bodies and joints are picked by position in the
/// id-ordered lists, so the same op means the same call in any world.
#[derive(Clone, Debug)]
enum Op {
    Step,
    Impulse(usize, f32, f32),
    Velocity(usize, f32, f32),
    Sleep(usize),
    Wake(usize),
    Destroy(usize),
    Create(f32, f32, u8),
    Joint(u8, usize, usize),
    DestroyJoint(usize),
    Gravity(f32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => Just(Op::Step),
        1 => (any::<usize>(), -20.0f32..20.0, -20.0f32..20.0).prop_map(|(i, x, y)| Op::Impulse(i, x, y)),
        1 => (any::<usize>(), -5.0f32..5.0, -5.0f32..5.0).prop_map(|(i, x, y)| Op::Velocity(i, x, y)),
        1 => any::<usize>().prop_map(Op::Sleep),
        1 => any::<usize>().prop_map(Op::Wake),
        1 => any::<usize>().prop_map(Op::Destroy),
        1 => (-6.0f32..6.0, 0.5f32..6.0, any::<u8>()).prop_map(|(x, y, k)| Op::Create(x, y, k)),
        1 => (any::<u8>(), any::<usize>(), any::<usize>()).prop_map(|(k, a, b)| Op::Joint(k, a, b)),
        1 => any::<usize>().prop_map(Op::DestroyJoint),
        1 => (-12.0f32..0.0).prop_map(Op::Gravity),
    ]
}

fn create_body(world: &mut World, x: f32, y: f32, kind: u8) {
    let body = world
        .create_body(&BodyDef {
            body_type: if kind % 7 == 6 {
                BodyType::Kinematic
            } else {
                BodyType::Dynamic
            },
            position: to_pos(Vec2::new(x, y)),
            is_bullet: kind % 11 == 10,
            ..BodyDef::default()
        })
        .unwrap();
    let def = ShapeDef {
        is_sensor: kind % 13 == 12,
        enable_sensor_events: true,
        enable_contact_events: true,
        enable_hit_events: kind.is_multiple_of(2),
        ..ShapeDef::default()
    };
    match kind % 3 {
        0 => world
            .create_polygon_shape(body, &def, &make_box(0.3, 0.2).unwrap())
            .unwrap(),
        1 => world
            .create_circle_shape(body, &def, &Circle::new(Vec2::ZERO, 0.25).unwrap())
            .unwrap(),
        _ => world
            .create_capsule_shape(
                body,
                &def,
                &Capsule::new(Vec2::new(-0.2, 0.0), Vec2::new(0.2, 0.0), 0.15).unwrap(),
            )
            .unwrap(),
    };
}

fn create_joint(world: &mut World, kind: u8, a: BodyId, b: BodyId) {
    let base = JointDef {
        body_a: a,
        body_b: b,
        local_anchor_a: Vec2::new(0.2, 0.0),
        local_anchor_b: Vec2::new(-0.2, 0.0),
        ..JointDef::default()
    };
    let made = match kind % 10 {
        0 => world.create_revolute_joint(&RevoluteJointDef {
            base,
            enable_motor: true,
            motor_speed: 1.0,
            max_motor_torque: 5.0,
            enable_limit: true,
            lower_angle: -0.5,
            upper_angle: 0.5,
            ..RevoluteJointDef::default()
        }),
        1 => world.create_distance_joint(&DistanceJointDef {
            base,
            length: 1.0,
            enable_spring: true,
            hertz: 3.0,
            damping_ratio: 0.5,
            ..DistanceJointDef::default()
        }),
        2 => world.create_prismatic_joint(&PrismaticJointDef {
            base,
            enable_limit: true,
            lower_translation: -0.5,
            upper_translation: 0.5,
            ..PrismaticJointDef::default()
        }),
        3 => world.create_weld_joint(&WeldJointDef {
            base,
            linear_hertz: 5.0,
            angular_hertz: 5.0,
            ..WeldJointDef::default()
        }),
        4 => world.create_wheel_joint(&WheelJointDef {
            base,
            enable_motor: true,
            motor_speed: 2.0,
            max_motor_torque: 3.0,
            ..WheelJointDef::default()
        }),
        5 => world.create_motor_joint(&MotorJointDef {
            base,
            max_force: 50.0,
            max_torque: 10.0,
            ..MotorJointDef::default()
        }),
        6 => world.create_mouse_joint(&MouseJointDef {
            base,
            target: Vec2::new(0.0, 4.0),
            hertz: 4.0,
            damping_ratio: 0.7,
            max_force: 100.0,
        }),
        7 => world.create_mover_joint(&MoverJointDef {
            base,
            linear_velocity: Vec2::new(0.5, 0.0),
            max_velocity_force: Vec2::new(20.0, 20.0),
        }),
        8 => world.create_pogo_joint(&PogoJointDef {
            base,
            rest_length: 0.8,
            ..PogoJointDef::default()
        }),
        _ => world.create_filter_joint(&FilterJointDef { base }),
    };
    made.unwrap();
}

/// What a step shows the application: the hash and every event, with ids
/// as (index, generation) so that worlds with other world numbers compare.
/// The last field is `u64` to hold a position's bits with `large-world`.
type Observed = Vec<(u64, Vec<(u32, u32, u32, u64)>)>;

/// `bits` as `u64`: `u32` and `u64` words alike (a position's bits are `u64`
/// with `large-world`).
fn widen(bits: impl Into<u64>) -> u64 {
    bits.into()
}

fn observe(world: &World, out: &mut Observed) {
    let mut ev = Vec::new();
    let c = world.contact_events();
    for e in c.begin {
        ev.push((
            0,
            e.contact_id.index(),
            e.shape_id_a.index(),
            widen(e.shape_id_b.index()),
        ));
        ev.push((
            1,
            e.contact_id.generation(),
            e.manifold.point_count as u32,
            0,
        ));
    }
    for e in c.end {
        ev.push((
            2,
            e.contact_id.index(),
            e.shape_id_a.index(),
            widen(e.shape_id_b.index()),
        ));
    }
    for e in c.hit {
        ev.push((
            3,
            e.shape_id_a.index(),
            e.shape_id_b.index(),
            widen(e.approach_speed.to_bits()),
        ));
    }
    let s = world.sensor_events();
    for e in s.begin {
        ev.push((4, e.sensor_shape_id.index(), e.visitor_shape_id.index(), 0));
    }
    for e in s.end {
        ev.push((5, e.sensor_shape_id.index(), e.visitor_shape_id.index(), 0));
    }
    for e in world.joint_events() {
        ev.push((
            6,
            e.joint_id.index(),
            e.joint_id.generation(),
            widen(e.force.to_bits()),
        ));
    }
    for e in world.body_events() {
        ev.push((
            7,
            e.body_id.index(),
            u32::from(e.fell_asleep),
            widen(e.transform.to_bits()[0]),
        ));
    }
    for e in world.body_quarantine_events() {
        ev.push((8, e.body_id.index(), e.body_id.generation(), 0));
    }
    out.push((world.state_hash(), ev));
}

/// Whether a body was quarantined (disabled after its motion stopped being
/// finite): a structural change that a rollback state does not survive.
fn quarantined(observed: &Observed) -> bool {
    observed.iter().flat_map(|(_, e)| e).any(|e| e.0 == 8)
}

fn pick<T: Copy>(list: &[T], i: usize) -> Option<T> {
    (!list.is_empty()).then(|| list[i % list.len()])
}

fn apply(world: &mut World, op: &Op, out: &mut Observed) {
    match *op {
        Op::Step => {
            world.step(DT, 4).unwrap();
            observe(world, out);
        }
        Op::Impulse(i, x, y) => {
            if let Some(b) = pick(&dynamic_bodies(world), i) {
                let mut b = world.body_mut(b).unwrap();
                b.apply_linear_impulse_to_center(Vec2::new(x, y), true)
                    .unwrap();
            }
        }
        Op::Velocity(i, x, y) => {
            if let Some(b) = pick(&dynamic_bodies(world), i) {
                world
                    .body_mut(b)
                    .unwrap()
                    .set_linear_velocity(Vec2::new(x, y))
                    .unwrap();
            }
        }
        Op::Sleep(i) => {
            if let Some(b) = pick(&dynamic_bodies(world), i) {
                world.body_mut(b).unwrap().set_awake(false);
            }
        }
        Op::Wake(i) => {
            if let Some(b) = pick(&dynamic_bodies(world), i) {
                world.body_mut(b).unwrap().set_awake(true);
            }
        }
        Op::Destroy(i) => {
            if let Some(b) = pick(&dynamic_bodies(world), i) {
                world.destroy_body(b).unwrap();
            }
        }
        Op::Create(x, y, k) => create_body(world, x, y, k),
        Op::Joint(k, a, b) => {
            let all = dynamic_bodies(world);
            if let (Some(a), Some(b)) = (pick(&all, a), pick(&all, b))
                && a != b
            {
                create_joint(world, k, a, b);
            }
        }
        Op::DestroyJoint(i) => {
            if let Some(j) = pick(&joints(world), i) {
                world.destroy_joint(j).unwrap();
            }
        }
        Op::Gravity(g) => world.set_gravity(Vec2::new(0.0, g)).unwrap(),
    }
}

/// Ground (a box and a chain loop around the pit), a few bodies and joints.
fn build(world: &mut World, seed: u8) {
    let ground = world.create_body(&BodyDef::default()).unwrap();
    world
        .create_polygon_shape(
            ground,
            &ShapeDef::default(),
            &impulse2d::collision::make_offset_box(
                8.0,
                0.5,
                Vec2::new(0.0, -0.5),
                impulse2d::Rot::IDENTITY,
            )
            .unwrap(),
        )
        .unwrap();
    let points = vec![
        Vec2::new(-8.0, 0.0),
        Vec2::new(-8.0, 12.0),
        Vec2::new(-9.0, 12.0),
        Vec2::new(-9.0, -1.0),
    ];
    world
        .create_chain(
            ground,
            &ChainDef {
                points,
                is_loop: true,
                ..ChainDef::default()
            },
        )
        .unwrap();
    for i in 0..8u8 {
        create_body(
            world,
            -3.0 + 0.8 * f32::from(i),
            0.5 + 0.45 * f32::from(i % 3),
            seed.wrapping_add(i),
        );
    }
    let dynamic = dynamic_bodies(world);
    for k in 0..3u8 {
        let a = dynamic[usize::from(k)];
        let b = dynamic[usize::from(k) + 3];
        create_joint(world, seed.wrapping_add(k * 3), a, b);
    }
}

fn run(world: &mut World, ops: &[Op]) -> Observed {
    let mut out = Vec::new();
    for op in ops {
        apply(world, op, &mut out);
    }
    world.validate().unwrap();
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn restore_gives_the_same_future(
        seed in any::<u8>(),
        workers in prop::sample::select(vec![1usize, 2, 4]),
        before in prop::collection::vec(op(), 0..120),
        after in prop::collection::vec(op(), 1..120),
    ) {
        let mut world = new_world(workers);
        build(&mut world, seed);
        run(&mut world, &before);
        let snap = world.snapshot();
        // Through bytes, as a game would store it.
        let snap = Snapshot::from_bytes(&snap.to_bytes()).unwrap();
        let expected = run(&mut world, &after);

        // The same world, rolled back.
        world.restore(&snap).unwrap();
        prop_assert_eq!(world.snapshot().to_bytes(), snap.to_bytes());
        prop_assert_eq!(&run(&mut world, &after), &expected);

        // New worlds on other worker counts; a world of 4 restored into.
        for n in [1usize, 2, 4] {
            let mut other = World::from_snapshot(&snap, n).unwrap();
            prop_assert_eq!(&run(&mut other, &after), &expected, "from_snapshot on {} workers", n);
        }
        let mut other = new_world(4);
        build(&mut other, seed.wrapping_add(1));
        other.restore(&snap).unwrap();
        prop_assert_eq!(&run(&mut other, &after), &expected, "restore into another world");
    }
}

/// A world that has run a while: contacts, sleep, joints.
fn busy_world() -> World {
    let mut world = new_world(1);
    build(&mut world, 7);
    let mut out = Vec::new();
    for _ in 0..90 {
        apply(&mut world, &Op::Step, &mut out);
    }
    world
}

#[test]
fn ids_taken_before_the_snapshot_stay_valid() {
    let mut world = busy_world();
    let ids = bodies(&world);
    let snap = world.snapshot();
    for &b in &ids[1..4] {
        world.destroy_body(b).unwrap();
    }
    assert!(world.body(ids[2]).is_err());
    world.restore(&snap).unwrap();
    for &b in &ids {
        assert!(world.body(b).is_ok());
    }
    // A body made after restore reuses slots exactly as the original would.
    let mut a = World::from_snapshot(&snap, 1).unwrap();
    create_body(&mut a, 0.0, 3.0, 1);
    create_body(&mut world, 0.0, 3.0, 1);
    assert_eq!(
        bodies(&a)
            .iter()
            .map(|b| (b.index(), b.generation()))
            .collect::<Vec<_>>(),
        bodies(&world)
            .iter()
            .map(|b| (b.index(), b.generation()))
            .collect::<Vec<_>>()
    );
}

#[test]
fn restore_keeps_the_callbacks() {
    let mut world = busy_world();
    let snap = world.snapshot();
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = calls.clone();
    world.set_custom_filter(move |_, _| {
        seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    });
    world.restore(&snap).unwrap();
    create_body(&mut world, -3.0, 0.5, 0); // overlaps a resting body
    world.step(DT, 4).unwrap();
    assert!(calls.load(std::sync::atomic::Ordering::Relaxed) > 0);
}

#[test]
fn truncated_and_corrupted_buffers_are_errors_and_change_nothing() {
    let mut world = busy_world();
    let good = world.snapshot();
    let mut other = new_world(1);
    build(&mut other, 3);
    other.step(DT, 4).unwrap();
    let bytes = other.snapshot().to_bytes();
    let before = world.snapshot();
    let is_invalid = |r: Result<Snapshot, Error>| matches!(r, Err(Error::InvalidData(_)));
    // Every truncation.
    for len in 0..bytes.len() {
        assert!(
            is_invalid(Snapshot::from_bytes(&bytes[..len])),
            "truncated to {len}"
        );
    }
    // A flipped bit anywhere (every byte, one bit each, rotating).
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        assert!(is_invalid(Snapshot::from_bytes(&b)), "bit flip at byte {i}");
    }
    // Another version.
    let mut b = bytes.clone();
    b[8] = b[8].wrapping_add(1);
    assert!(is_invalid(Snapshot::from_bytes(&b)));
    // Extra bytes.
    let mut b = bytes.clone();
    b.push(0);
    assert!(is_invalid(Snapshot::from_bytes(&b)));
    assert_eq!(world.snapshot(), before);
    // Restoring a good snapshot still works and a bad worker count is an error.
    assert!(World::from_snapshot(&good, 0).is_err());
    world.restore(&good).unwrap();
    assert_eq!(world.snapshot(), before);
}

#[test]
fn a_scene_from_the_registry_restores_exactly() {
    for name in ["ragdolls", "bridge", "card_house"] {
        let mut world = new_world(2);
        let Ok(mut scene) = impulse2d_scenes::build(name, &mut world) else {
            continue;
        };
        for step in 0..40 {
            scene.step(&mut world, step, DT, 4).unwrap();
        }
        let snap = world.snapshot();
        let mut hashes = Vec::new();
        for step in 40..100 {
            scene.step(&mut world, step, DT, 4).unwrap();
            hashes.push(world.state_hash());
        }
        let mut again = World::from_snapshot(&snap, 4).unwrap();
        let replay: Vec<u64> = (40..100)
            .map(|_| {
                again.step(DT, 4).unwrap();
                again.state_hash()
            })
            .collect();
        if scene.script.is_none() {
            assert_eq!(replay, hashes, "{name}");
        }
    }
}

#[test]
fn rollback_across_sleep_and_contacts_beginning_and_ending() {
    let mut world = new_world(2);
    build(&mut world, 11);
    let mut out = Vec::new();
    for _ in 0..10 {
        apply(&mut world, &Op::Step, &mut out);
    }
    let snap = world.snapshot();
    // Falling bodies land (begin), a kick separates some (end), everything
    // settles and falls asleep.
    let mut after = vec![Op::Step; 40];
    after.push(Op::Impulse(2, 0.0, 8.0));
    after.extend(vec![Op::Step; 200]);
    let expected = run(&mut world, &after);
    let kinds = |k: u32| {
        expected
            .iter()
            .flat_map(|(_, e)| e)
            .filter(|e| e.0 == k)
            .count()
    };
    assert!(kinds(0) > 0, "no contact began");
    assert!(kinds(2) > 0, "no contact ended");
    let slept = expected
        .iter()
        .flat_map(|(_, e)| e)
        .any(|e| e.0 == 7 && e.2 == 1);
    assert!(slept, "nothing fell asleep");
    world.restore(&snap).unwrap();
    assert_eq!(run(&mut world, &after), expected);
    let mut other = World::from_snapshot(&snap, 4).unwrap();
    assert_eq!(run(&mut other, &after), expected);
}

/// Calls that change no object's existence: what a rollback covers.
fn rollback_op() -> impl Strategy<Value = Op> {
    op().prop_filter("not structural", |o| {
        !matches!(
            o,
            Op::Destroy(_) | Op::Create(..) | Op::Joint(..) | Op::DestroyJoint(_)
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Save, run `after`; load, run something else; load, run `after`
    /// again: the same hashes and events each time, and the loaded world
    /// snapshots to the same bytes as the world at the save.
    #[test]
    fn rollback_gives_the_same_future(
        seed in any::<u8>(),
        workers in prop::sample::select(vec![1usize, 2, 4]),
        before in prop::collection::vec(op(), 0..120),
        after in prop::collection::vec(rollback_op(), 1..120),
        mispredicted in prop::collection::vec(rollback_op(), 0..60),
        compact in any::<bool>(),
    ) {
        let mut world = new_world(workers);
        build(&mut world, seed);
        run(&mut world, &before);
        let mut state = if compact {
            impulse2d::RollbackState::compact()
        } else {
            impulse2d::RollbackState::new()
        };
        let at_save = world.snapshot();
        world.save_rollback(&mut state);
        // Saving (which runs the same coding as loading) changes nothing.
        prop_assert_eq!(world.snapshot().to_bytes(), at_save.to_bytes());
        let expected = run(&mut world, &after);
        if quarantined(&expected) {
            // A body blew up and was disabled: the world changed structure.
            prop_assert!(world.load_rollback(&state).is_err());
            return Ok(());
        }

        world.load_rollback(&state).unwrap();
        prop_assert_eq!(world.snapshot().to_bytes(), at_save.to_bytes());
        let other = run(&mut world, &mispredicted);
        if quarantined(&other) {
            prop_assert!(world.load_rollback(&state).is_err());
            return Ok(());
        }
        world.load_rollback(&state).unwrap();
        prop_assert_eq!(world.snapshot().to_bytes(), at_save.to_bytes());
        prop_assert_eq!(&run(&mut world, &after), &expected);

        // The state saved again over the same buffers still rolls back.
        world.load_rollback(&state).unwrap();
        world.save_rollback(&mut state);
        let other = run(&mut world, &mispredicted);
        prop_assume!(!quarantined(&other));
        world.load_rollback(&state).unwrap();
        prop_assert_eq!(&run(&mut world, &after), &expected);
    }
}

#[test]
fn rollback_across_sleep_wake_and_contacts_beginning_and_ending() {
    rollback_across_sleep_wake(impulse2d::RollbackState::new());
    rollback_across_sleep_wake(impulse2d::RollbackState::compact());
}

fn rollback_across_sleep_wake(mut state: impulse2d::RollbackState) {
    let mut world = new_world(4);
    build(&mut world, 11);
    let mut out = Vec::new();
    for _ in 0..10 {
        apply(&mut world, &Op::Step, &mut out);
    }
    world.save_rollback(&mut state);
    let mut after = vec![Op::Step; 40];
    after.push(Op::Impulse(2, 0.0, 8.0));
    after.extend(vec![Op::Step; 200]);
    after.push(Op::Wake(1));
    after.push(Op::Impulse(1, 3.0, 3.0));
    after.extend(vec![Op::Step; 30]);
    let expected = run(&mut world, &after);
    let kinds = |k: u32, flag: Option<u32>| {
        expected
            .iter()
            .flat_map(|(_, e)| e)
            .filter(|e| e.0 == k && flag.is_none_or(|f| e.2 == f))
            .count()
    };
    assert!(kinds(0, None) > 0, "no contact began");
    assert!(kinds(2, None) > 0, "no contact ended");
    assert!(kinds(7, Some(1)) > 0, "nothing fell asleep");
    assert!(kinds(7, Some(0)) > 0, "nothing woke");
    // Roll back from the end (everything changed: contacts, islands, sleep).
    world.load_rollback(&state).unwrap();
    assert_eq!(run(&mut world, &after), expected);
    // Roll back into the middle, from a state saved while things slept.
    world.load_rollback(&state).unwrap();
    let mut out = Vec::new();
    for op in &after[..250] {
        apply(&mut world, op, &mut out);
    }
    world.save_rollback(&mut state);
    let tail = run(&mut world, &after[250..]);
    world.load_rollback(&state).unwrap();
    assert_eq!(run(&mut world, &after[250..]), tail);
    assert_eq!(&tail[..], &expected[expected.len() - tail.len()..]);
}

#[test]
fn rollback_refuses_a_changed_world_and_changes_nothing() {
    let mut world = busy_world();
    let mut state = impulse2d::RollbackState::new();
    assert!(world.load_rollback(&state).is_err(), "empty state");
    world.save_rollback(&mut state);
    let mut other = busy_world();
    assert!(other.load_rollback(&state).is_err(), "another world");

    // Each structural change makes the saved state unusable.
    type Change = fn(&mut World);
    let changes: [(&str, Change); 8] = [
        ("create body", |w| create_body(w, 0.0, 5.0, 1)),
        ("destroy body", |w| {
            let b = dynamic_bodies(w)[0];
            w.destroy_body(b).unwrap();
        }),
        ("create joint", |w| {
            let d = dynamic_bodies(w);
            create_joint(w, 0, d[0], d[1]);
        }),
        ("destroy joint", |w| {
            let j = joints(w)[0];
            w.destroy_joint(j).unwrap();
        }),
        ("body type", |w| {
            let b = dynamic_bodies(w)[0];
            w.body_mut(b)
                .unwrap()
                .set_body_type(BodyType::Kinematic)
                .unwrap();
        }),
        ("disable", |w| {
            let b = dynamic_bodies(w)[0];
            w.body_mut(b).unwrap().disable();
        }),
        ("shape edit", |w| {
            let b = dynamic_bodies(w)[0];
            let s = w.body(b).unwrap().shapes()[0];
            w.shape_mut(s).unwrap().set_friction(0.1).unwrap();
        }),
        ("static body moved", |w| {
            let g = bodies(w)[0];
            w.body_mut(g)
                .unwrap()
                .set_transform(Vec2::new(0.0, 0.1), impulse2d::Rot::IDENTITY)
                .unwrap();
        }),
    ];
    for (what, change) in changes {
        let mut w = World::from_snapshot(&world.snapshot(), 1).unwrap();
        let mut s = impulse2d::RollbackState::new();
        w.save_rollback(&mut s);
        w.step(DT, 4).unwrap();
        change(&mut w);
        let before = w.snapshot();
        assert!(
            matches!(w.load_rollback(&s), Err(Error::InvalidOperation(_))),
            "{what}"
        );
        assert_eq!(w.snapshot(), before, "{what}: the world changed");
    }
    // A restored snapshot too.
    let snap = world.snapshot();
    world.restore(&snap).unwrap();
    assert!(world.load_rollback(&state).is_err(), "after restore");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Record any calls and steps, replay on 1, 2 and 4 workers: no
    /// divergence, the same steps, and the same final world.
    #[test]
    fn replay_reproduces_a_recording(
        seed in any::<u8>(),
        workers in prop::sample::select(vec![1usize, 2, 4]),
        interval in 1u32..5,
        before in prop::collection::vec(op(), 0..60),
        during in prop::collection::vec(op(), 1..120),
    ) {
        let mut world = new_world(workers);
        build(&mut world, seed);
        run(&mut world, &before);
        world.start_recording(interval).unwrap();
        let observed = run(&mut world, &during);
        let recording = world.stop_recording().unwrap();
        prop_assert!(!world.is_recording());
        let recording = impulse2d::Recording::from_bytes(recording.as_bytes()).unwrap();
        for n in [1usize, 2, 4] {
            let mut replay = impulse2d::Replay::new(&recording, n).unwrap();
            let mut hashes = Vec::new();
            while let Some(s) = replay.step().unwrap() {
                if let Some(h) = s.recorded_hash {
                    prop_assert_eq!(h, s.hash);
                }
                hashes.push(s.hash);
            }
            prop_assert_eq!(replay.divergence(), None);
            let expected: Vec<u64> = observed.iter().map(|o| o.0).collect();
            prop_assert_eq!(&hashes, &expected);
            prop_assert_eq!(replay.world().state_hash(), world.state_hash());
            if n == workers {
                // (The worker count is part of the settings a snapshot holds.)
                prop_assert!(replay.world().snapshot() == world.snapshot(), "final worlds differ");
            }
        }
    }
}

/// A recording of 60 steps, a hash after each, that a replay does not
/// reproduce, and what the recorded world gave. The custom filter is a
/// callback, which a recording does not hold: the replay lets the filtered
/// pairs collide and diverges when they meet.
fn diverging_recording() -> (impulse2d::Recording, Observed) {
    let mut world = new_world(1);
    build(&mut world, 5);
    world.set_custom_filter(|_, _| false);
    world.start_recording(1).unwrap();
    let mut out = Vec::new();
    for _ in 0..60 {
        apply(&mut world, &Op::Step, &mut out);
    }
    (world.stop_recording().unwrap(), out)
}

#[test]
fn replay_finds_the_first_divergence() {
    let (recording, out) = diverging_recording();
    let mut replay = impulse2d::Replay::new(&recording, 2).unwrap();
    let divergence = replay.run_to_end().unwrap().expect("diverges");
    assert_eq!(replay.steps(), 60);
    assert!(replay.is_at_end());
    replay.restart().unwrap();
    assert!(!replay.is_at_end() && replay.steps() == 0 && replay.divergence().is_none());
    assert_eq!(replay.run_to_end().unwrap(), Some(divergence));
    assert_eq!(divergence.recorded, out[divergence.step as usize - 1].0);
    assert_ne!(divergence.recorded, divergence.replayed);
    // Every step before it matched.
    let mut again = impulse2d::Replay::new(&recording, 1).unwrap();
    for k in 1..divergence.step {
        let s = again.step().unwrap().unwrap();
        assert_eq!(s.step, k);
        assert_eq!(s.recorded_hash, Some(s.hash));
    }
}

/// A call that fails validation changes nothing, so the log holds nothing
/// of it: the recording is as long as one made without such calls, and
/// replays without divergence.
#[test]
fn rejected_calls_are_not_recorded() {
    let record = |rejected: bool| {
        let mut world = new_world(1);
        build(&mut world, 5);
        world.start_recording(1).unwrap();
        let body = dynamic_bodies(&world)[0];
        let mut out = Vec::new();
        for step in 0..20 {
            if rejected && step % 5 == 0 {
                let mut b = world.body_mut(body).unwrap();
                let nan = Vec2::new(f32::NAN, 0.0);
                assert!(b.set_transform(nan, impulse2d::Rot::IDENTITY).is_err());
                assert!(b.set_linear_velocity(nan).is_err());
                assert!(b.set_angular_velocity(f32::INFINITY).is_err());
                assert!(b.apply_force(nan, Vec2::ZERO, true).is_err());
                assert!(b.apply_force_to_center(nan, true).is_err());
                assert!(b.apply_torque(f32::NAN, true).is_err());
                assert!(b.apply_linear_impulse(Vec2::ZERO, nan, true).is_err());
                assert!(b.apply_linear_impulse_to_center(nan, true).is_err());
                assert!(b.apply_angular_impulse(f32::NAN, true).is_err());
                let here = impulse2d::Transform::IDENTITY;
                assert!(b.set_target_transform(here, 0.0).is_err());
            }
            apply(&mut world, &Op::Step, &mut out);
        }
        world.stop_recording().unwrap()
    };
    let with_rejected = record(true);
    assert_eq!(
        with_rejected.as_bytes().len(),
        record(false).as_bytes().len()
    );
    let mut replay = impulse2d::Replay::new(&with_rejected, 1).unwrap();
    assert_eq!(replay.run_to_end().unwrap(), None);
}

#[test]
fn truncated_and_corrupted_recordings_are_errors() {
    let mut world = new_world(1);
    build(&mut world, 9);
    world.start_recording(3).unwrap();
    let mut out = Vec::new();
    for (i, op) in [
        Op::Step,
        Op::Impulse(1, 2.0, 3.0),
        Op::Step,
        Op::Create(0.0, 4.0, 2),
    ]
    .iter()
    .cycle()
    .take(24)
    .enumerate()
    {
        apply(&mut world, op, &mut out);
        if i == 5 {
            let b = dynamic_bodies(&world)[0];
            world
                .body_mut(b)
                .unwrap()
                .set_linear_velocity(Vec2::new(1.0, 0.0))
                .unwrap();
        }
    }
    let bytes = world.stop_recording().unwrap().as_bytes().to_vec();
    let is_invalid =
        |r: Result<impulse2d::Recording, Error>| matches!(r, Err(Error::InvalidData(_)));
    for len in 0..bytes.len() {
        assert!(
            is_invalid(impulse2d::Recording::from_bytes(&bytes[..len])),
            "truncated to {len}"
        );
    }
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        assert!(
            is_invalid(impulse2d::Recording::from_bytes(&b)),
            "bit flip at byte {i}"
        );
    }
    let good = impulse2d::Recording::from_bytes(&bytes).unwrap();
    assert_eq!(
        impulse2d::Replay::new(&good, 1)
            .unwrap()
            .run_to_end()
            .unwrap(),
        None
    );
    assert!(world.start_recording(0).is_err());
}

/// Bodies, shapes and joints created and destroyed while recording are
/// logged as calls, not as keyframes: a recording of a world that keeps
/// replacing a jointed pair of bodies is far smaller than a keyframe per
/// replacement would make it (each keyframe is a whole snapshot, at least
/// the size of the seed), and replays exactly.
#[test]
fn creating_and_destroying_objects_is_logged_compactly() {
    let mut world = new_world(1);
    build(&mut world, 3);
    // A stack of boxes, so that a keyframe would cost far more than a call.
    for k in 0..60 {
        create_body(&mut world, (k % 6) as f32 - 6.0, 1.0 + (k / 6) as f32, 0);
    }
    let seed = world.snapshot().len();
    world.start_recording(5).unwrap();
    let mut pair: Option<(BodyId, BodyId)> = None;
    for i in 0..120 {
        if i % 10 == 0 {
            if let Some((a, b)) = pair.take() {
                world.destroy_body(a).unwrap();
                world.destroy_body(b).unwrap();
            }
            let make = |world: &mut World, x: f32| {
                let body = world
                    .create_body(&BodyDef {
                        body_type: BodyType::Dynamic,
                        position: to_pos(Vec2::new(x, 6.0)),
                        name: format!("link {i}"),
                        ..Default::default()
                    })
                    .unwrap();
                let shape = world
                    .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.3, 0.2).unwrap())
                    .unwrap();
                (body, shape)
            };
            let (a, _) = make(&mut world, 1.0);
            let (b, extra) = make(&mut world, 1.8);
            world
                .create_circle_shape(
                    b,
                    &ShapeDef::default(),
                    &Circle::new(Vec2::ZERO, 0.1).unwrap(),
                )
                .unwrap();
            world.destroy_shape(extra, true).unwrap();
            world
                .create_revolute_joint(&RevoluteJointDef {
                    base: JointDef {
                        body_a: a,
                        body_b: b,
                        local_anchor_a: Vec2::new(0.4, 0.0),
                        local_anchor_b: Vec2::new(-0.4, 0.0),
                        ..Default::default()
                    },
                    ..Default::default()
                })
                .unwrap();
            pair = Some((a, b));
        }
        world.step(DT, 4).unwrap();
    }
    let recording = world.stop_recording().unwrap();
    // Twelve replacements, none a keyframe: only the seed is a snapshot.
    assert!(
        recording.len() < seed + seed / 2,
        "{} bytes beside a seed of {seed}",
        recording.len()
    );
    for workers in [1, 2] {
        let mut replay = impulse2d::Replay::new(&recording, workers).unwrap();
        assert_eq!(replay.run_to_end().unwrap(), None);
        assert_eq!(replay.steps(), 120);
        assert_eq!(replay.world().state_hash(), world.state_hash());
        assert_eq!(replay.world().snapshot().len(), world.snapshot().len());
    }
}

/// What a plain replay gives at every frame: the state hash, the snapshot and
/// the divergence so far (index = frame).
fn stepped_frames(
    recording: &impulse2d::Recording,
    workers: usize,
) -> Vec<(u64, Snapshot, Option<impulse2d::Divergence>)> {
    let mut replay = impulse2d::Replay::new(recording, workers).unwrap();
    let at = |r: &impulse2d::Replay| (r.world().state_hash(), r.world().snapshot(), r.divergence());
    let mut frames = vec![at(&replay)];
    while replay.step().unwrap().is_some() {
        frames.push(at(&replay));
    }
    frames
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A recording of any calls and steps; the player seeks to frames in any
    /// order, under budgets from below one snapshot to a few: every seek
    /// reaches the state (hash and snapshot bytes) and divergence that plain
    /// stepping from the start reaches, and the key frames stay under the
    /// budget on a grid of the minimum interval times a power of two.
    #[test]
    fn seeking_reaches_the_stepped_state(
        seed in any::<u8>(),
        workers in prop::sample::select(vec![1usize, 2]),
        during in prop::collection::vec(op(), 40..240),
        fixed in any::<bool>(),
        min_interval in 1u64..6,
        snapshots in 0usize..6,
        targets in prop::collection::vec(any::<u64>(), 1..24),
    ) {
        let mut world = new_world(workers);
        build(&mut world, seed);
        world.start_recording(1).unwrap();
        let mut during = during;
        if fixed {
            // Only calls that keep the structure: rollback key frames.
            during.retain(|op| {
                matches!(op, Op::Step | Op::Impulse(..) | Op::Velocity(..) | Op::Sleep(_) | Op::Wake(_))
            });
        }
        run(&mut world, &during);
        let recording = world.stop_recording().unwrap();
        let frames = stepped_frames(&recording, workers);
        let count = frames.len() as u64 - 1;

        let mut player = impulse2d::ReplayPlayer::new(&recording, workers).unwrap();
        prop_assert_eq!(player.info().frame_count, count);
        prop_assert_eq!(player.info().worker_count, workers);
        prop_assert_eq!(player.info().hash_interval, 1);
        prop_assert!(player.info().fixed_step);
        prop_assert_eq!((player.info().time_step, player.info().sub_step_count), (DT, 4));
        // 0 snapshots: a budget of one byte, below any snapshot.
        let largest = frames.iter().map(|f| f.1.len()).max().unwrap();
        let budget = (snapshots * largest).max(1);
        player.set_keyframe_policy(budget, min_interval).unwrap();
        for target in targets {
            let target = target % (count + 1);
            player.seek(target).unwrap();
            let (hash, snapshot, divergence) = &frames[target as usize];
            prop_assert_eq!(player.frame(), target);
            prop_assert_eq!(player.world().state_hash(), *hash, "frame {}", target);
            prop_assert!(player.world().snapshot() == *snapshot, "frame {}", target);
            prop_assert_eq!(player.divergence(), *divergence);
            // (Calls after the last step are records after it: a replay is
            // at its end only once it has looked past them.)
            prop_assert!(!player.is_at_end() || target == count);
            prop_assert!(player.keyframe_bytes() <= budget);
            let ratio = player.keyframe_interval() / min_interval;
            prop_assert!(player.keyframe_interval().is_multiple_of(min_interval) && ratio.is_power_of_two());
            if snapshots == 0 {
                prop_assert_eq!(player.keyframe_count(), 0);
            }
        }
        // Key frames were kept when two snapshots fit: the interval doubles
        // only while two do not.
        player.seek(count).unwrap();
        if snapshots >= 2 && count >= min_interval {
            prop_assert!(player.keyframe_count() > 0);
        }
        if fixed && player.keyframe_count() > 0 {
            // Rollback states: smaller than any snapshot after a step (about
            // 0.6 of one in a world this small, 0.23 at 10k bodies).
            let each = player.keyframe_bytes() / player.keyframe_count();
            let smallest = frames[1..].iter().map(|f| f.1.len()).min().unwrap();
            prop_assert!(each < smallest, "{} bytes a key frame, snapshots {}", each, smallest);
        }
        // Stepping on from a seek gives the recorded hashes.
        player.seek(count / 2).unwrap();
        while let Some(s) = player.step().unwrap() {
            prop_assert_eq!(s.recorded_hash, Some(s.hash));
            prop_assert_eq!(s.hash, frames[s.step as usize].0);
        }
    }
}

/// After seeks in both directions the player still finds the recording's
/// first divergence at the step where it happens, and not before.
#[test]
fn seeking_keeps_divergence_detection() {
    let (recording, _) = diverging_recording();
    let expected = impulse2d::Replay::new(&recording, 1)
        .unwrap()
        .run_to_end()
        .unwrap()
        .expect("diverges");
    let d = expected.step;
    assert!(d > 2, "diverges at step {d}");

    let mut player = impulse2d::ReplayPlayer::new(&recording, 2).unwrap();
    player.set_keyframe_policy(1 << 24, 2).unwrap();
    player.seek(60).unwrap();
    assert_eq!(player.divergence(), Some(expected));
    assert!(player.keyframe_count() >= 25);
    player.seek(d - 1).unwrap(); // back, from a key frame before it
    assert_eq!(player.divergence(), None);
    let s = player.step().unwrap().unwrap();
    assert_eq!(s.step, d);
    assert_eq!(s.recorded_hash, Some(expected.recorded));
    assert_eq!(s.hash, expected.replayed);
    assert_eq!(player.divergence(), Some(expected));
    player.seek(0).unwrap();
    assert_eq!(player.divergence(), None);
    player.seek(d + 1).unwrap(); // forward, from a key frame after it
    assert_eq!(player.divergence(), Some(expected));
    player.restart().unwrap();
    assert_eq!((player.frame(), player.divergence()), (0, None));
}

/// The body list grows with the bodies the replay meets, a destroyed one
/// reads as `None`, a seek back shortens the list; bad input is an error
/// that changes nothing.
#[test]
fn player_lists_bodies_and_refuses_bad_input() {
    let mut world = new_world(1);
    build(&mut world, 11);
    let seed_bodies = bodies(&world);
    world.start_recording(4).unwrap();
    let dynamic = |world: &mut World, x: f32| {
        let body = world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: to_pos(Vec2::new(x, 5.0)),
                ..Default::default()
            })
            .unwrap();
        world
            .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.2, 0.2).unwrap())
            .unwrap();
        body
    };
    let mut a = None;
    let mut b = None;
    for step in 0..30 {
        if step == 10 {
            a = Some(dynamic(&mut world, 2.0));
        }
        if step == 20 {
            b = Some(dynamic(&mut world, -2.0));
            world.destroy_body(a.unwrap()).unwrap();
        }
        world.step(DT, 4).unwrap();
    }
    let (a, b) = (a.unwrap(), b.unwrap());
    let recording = world.stop_recording().unwrap();
    let mut player = impulse2d::ReplayPlayer::new(&recording, 1).unwrap();
    let n = seed_bodies.len();
    let same = |x: BodyId, y: BodyId| (x.index(), x.generation()) == (y.index(), y.generation());

    assert_eq!(player.body_count(), n);
    for (i, &body) in seed_bodies.iter().enumerate() {
        assert!(same(player.body_id(i).unwrap().unwrap(), body));
    }
    player.seek(10).unwrap();
    assert_eq!(player.body_count(), n);
    player.seek(11).unwrap(); // `a` was created before the 11th step
    assert_eq!(player.body_count(), n + 1);
    let a_replayed = player.body_id(n).unwrap().unwrap();
    assert!(same(a_replayed, a));
    assert!(player.world().body(a_replayed).is_ok());
    player.seek(30).unwrap();
    assert_eq!(player.body_count(), n + 2);
    assert_eq!(player.body_id(n).unwrap(), None, "destroyed");
    assert!(same(player.body_id(n + 1).unwrap().unwrap(), b));
    player.seek(5).unwrap();
    assert_eq!(player.body_count(), n);
    assert!(matches!(player.body_id(n), Err(Error::OutOfRange { .. })));
    player.seek(25).unwrap(); // forward again: the same list
    assert_eq!(player.body_count(), n + 2);
    assert!(same(player.body_id(n + 1).unwrap().unwrap(), b));

    // Bad input.
    let hash = player.world().state_hash();
    assert!(matches!(player.seek(31), Err(Error::OutOfRange { .. })));
    assert!(matches!(
        player.seek(u64::MAX),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!((player.frame(), player.world().state_hash()), (25, hash));
    player.set_keyframe_policy(4096, 3).unwrap();
    assert!(matches!(
        player.set_keyframe_policy(0, 4),
        Err(Error::OutOfRange { .. })
    ));
    assert!(matches!(
        player.set_keyframe_policy(1 << 20, 0),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(player.keyframe_budget(), 4096);
    assert_eq!(player.keyframe_min_interval(), 3);
    assert_eq!(player.keyframe_interval(), 3);
    assert!(matches!(
        player.body_id(usize::MAX),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(player.info().frame_count, 30);
    assert_eq!(player.info().hash_interval, 4);
    // Creating bodies and shapes and destroying bodies are logged as calls:
    // the seed is the only snapshot.
    assert_eq!(player.info().recorded_keyframes, 1);
    assert_eq!(player.info().recording_bytes, recording.len());
}
