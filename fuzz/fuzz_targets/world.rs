//! Sequences of world API calls: bodies of every type, shapes of every kind
//! (sensors and chains included), joints of every type (including joints of a
//! body to itself or to a destroyed body), setters, forces, explosions, queries
//! and steps with odd time steps and substep counts, using ids that may be
//! stale, null or from another world.
//!
//! Properties: no call panics (every fallible call returns `Ok` or `Err`); a
//! destroyed object's id is no longer valid; a step with a finite, non-negative
//! time step and a substep count in `1..=MAX_SUB_STEPS` succeeds; after every
//! successful step `World::validate` holds and every body's position and
//! rotation are finite (and, after a step of positive length, its velocity:
//! the step quarantines a body whose motion overflows).
#![no_main]

use impulse2d::collision::{Aabb, MassData, RayCastInput, make_box};
use impulse2d::core::{HUGE, MAX_SUB_STEPS};
use impulse2d::{
    BodyDef, BodyId, BodyType, ChainDef, ChainId, DebugDraw, DistanceJointDef, DrawOptions,
    ExplosionDef, Filter, FilterJointDef, JointDef, JointId, MotionLocks, MotorJointDef,
    MouseJointDef, PrismaticJointDef, QueryFilter, RevoluteJointDef, Rot, ShapeDef, ShapeGeometry,
    ShapeId, Transform, Vec2, WeldJointDef, WheelJointDef, World, WorldDef,
};
use impulse2d_fuzz::{Bytes, Shape, decode_proxy, decode_shape};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Whether to print every call to stderr (set `IMPULSE2D_FUZZ_TRACE=1` when
/// replaying an input, to turn it into a regression test).
fn tracing() -> bool {
    static TRACE: OnceLock<bool> = OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("IMPULSE2D_FUZZ_TRACE").is_some())
}

macro_rules! trace {
    ($($arg:tt)*) => {
        if tracing() {
            eprintln!($($arg)*);
        }
    };
}

/// Every id handed out so far, live or not, plus ids from another world.
#[derive(Default)]
struct Ids {
    bodies: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    joints: Vec<JointId>,
    chains: Vec<ChainId>,
}

/// One of `ids` (the null id when there are none, or for one byte value in 16).
fn pick<T: Copy + Default>(b: &mut Bytes, ids: &[T]) -> T {
    let k = usize::from(b.byte());
    if ids.is_empty() || k % 16 == 15 {
        T::default()
    } else {
        ids[k % ids.len()]
    }
}

/// A call on an object: its id (see [`pick`]), a flag, then which of `ops`
/// calls, read in that order.
fn target<T: Copy + Default>(b: &mut Bytes, ids: &[T], ops: u8) -> (T, bool, u8) {
    let id = pick(b, ids);
    let on = b.flag();
    (id, on, b.byte() % ops)
}

/// A number for a setter: anything (NaN, infinities, huge, tiny, grid values).
fn num(b: &mut Bytes) -> f32 {
    b.raw_f32()
}

fn vec2(b: &mut Bytes) -> Vec2 {
    Vec2::new(num(b), num(b))
}

/// A rotation: usually from an angle, sometimes any two numbers.
fn rot(b: &mut Bytes) -> Rot {
    if b.byte() % 8 == 0 {
        Rot {
            c: num(b),
            s: num(b),
        }
    } else {
        Rot::from_angle(b.finite_f32(10.0))
    }
}

fn body_type(b: &mut Bytes) -> BodyType {
    match b.byte() % 3 {
        0 => BodyType::Static,
        1 => BodyType::Kinematic,
        _ => BodyType::Dynamic,
    }
}

fn filter(b: &mut Bytes) -> Filter {
    let bits = |b: &mut Bytes| match b.byte() % 4 {
        0 => 0,
        1 => u64::MAX,
        _ => 1 << (b.byte() % 4),
    };
    Filter {
        category_bits: bits(b),
        mask_bits: bits(b),
        group_index: i32::from(b.byte() % 5) - 2,
    }
}

/// A body definition: near the default with a few numbers set, or every field
/// arbitrary.
fn body_def(b: &mut Bytes) -> BodyDef {
    let mut def = BodyDef {
        body_type: body_type(b),
        position: b.finite_vec2(20.0),
        rotation: Rot::from_angle(b.finite_f32(4.0)),
        ..Default::default()
    };
    let mode = b.byte();
    if mode % 4 == 0 {
        def = BodyDef {
            position: vec2(b),
            rotation: rot(b),
            linear_velocity: vec2(b),
            angular_velocity: num(b),
            linear_damping: num(b),
            angular_damping: num(b),
            gravity_scale: num(b),
            sleep_threshold: num(b),
            ..def
        };
    }
    def.enable_sleep = mode & 0x04 == 0;
    def.is_awake = mode & 0x08 == 0;
    def.is_bullet = mode & 0x10 != 0;
    def.is_enabled = mode & 0x20 == 0;
    def.allow_fast_rotation = mode & 0x40 != 0;
    if mode & 0x80 != 0 {
        let locks = b.byte();
        def.motion_locks = MotionLocks {
            linear_x: locks & 1 != 0,
            linear_y: locks & 2 != 0,
            angular_z: locks & 4 != 0,
        };
    }
    def
}

fn shape_def(b: &mut Bytes) -> ShapeDef {
    let mut def = ShapeDef::default();
    let mode = b.byte();
    if mode % 4 == 0 {
        def.density = num(b);
        def.friction = num(b);
        def.restitution = num(b);
        def.rolling_resistance = num(b);
        def.tangent_speed = num(b);
    } else {
        def.density = b.finite_f32(10.0).abs();
        def.restitution = b.finite_f32(1.0).abs();
    }
    if mode & 0x04 != 0 {
        def.filter = filter(b);
    }
    def.is_sensor = mode & 0x08 != 0;
    def.enable_contact_events = mode & 0x10 == 0;
    def.enable_sensor_events = mode & 0x20 == 0;
    def.enable_hit_events = mode & 0x40 != 0;
    def.enable_pre_solve_events = mode & 0x80 != 0;
    def.update_body_mass = b.byte() % 8 != 0;
    def
}

/// A geometry in a body's frame: any of the fuzz decoder's shapes (chain
/// segments included, which `create_shape` must refuse) or a plain box.
fn geometry(b: &mut Bytes) -> Option<ShapeGeometry> {
    if b.byte() % 4 == 0 {
        let h = b.finite_f32(4.0).abs();
        return make_box(h, h).ok().map(ShapeGeometry::Polygon);
    }
    Some(match decode_shape(b)? {
        Shape::Circle(c) => ShapeGeometry::Circle(c),
        Shape::Capsule(c) => ShapeGeometry::Capsule(c),
        Shape::Polygon(p) => ShapeGeometry::Polygon(p),
        Shape::Segment(s) => ShapeGeometry::Segment(s),
        Shape::ChainSegment(c) => ShapeGeometry::ChainSegment(c),
    })
}

fn chain_def(b: &mut Bytes) -> ChainDef {
    let n = usize::from(b.byte() % 12);
    let wild = b.byte() % 8 == 0;
    let mut points = Vec::with_capacity(n);
    let mut p = b.finite_vec2(20.0);
    for _ in 0..n {
        if wild {
            points.push(vec2(b));
        } else {
            p = p + b.finite_vec2(4.0);
            points.push(p);
        }
    }
    let mut def = ChainDef {
        points,
        is_loop: b.flag(),
        enable_sensor_events: b.flag(),
        ..Default::default()
    };
    if wild {
        def.friction = num(b);
        def.restitution = num(b);
        def.rolling_resistance = num(b);
        def.tangent_speed = num(b);
        def.filter = filter(b);
    }
    def
}

/// The settings shared by every joint; the bodies may be the same one,
/// destroyed, null or from another world.
fn joint_base(b: &mut Bytes, ids: &Ids) -> JointDef {
    let mut def = JointDef {
        body_a: pick(b, &ids.bodies),
        body_b: pick(b, &ids.bodies),
        local_anchor_a: b.finite_vec2(4.0),
        local_anchor_b: b.finite_vec2(4.0),
        ..Default::default()
    };
    let mode = b.byte();
    def.collide_connected = mode & 1 != 0;
    def.break_on_threshold = mode & 2 != 0;
    if mode & 4 != 0 {
        def.constraint_hertz = Some(num(b));
        def.constraint_damping_ratio = Some(num(b));
    }
    if mode & 8 != 0 {
        def.force_threshold = num(b);
        def.torque_threshold = num(b);
    }
    if mode & 16 != 0 {
        def.local_anchor_a = vec2(b);
        def.local_anchor_b = vec2(b);
    }
    def
}

fn create_joint(w: &mut World, b: &mut Bytes, ids: &Ids) -> impulse2d::Result<JointId> {
    let kind = b.byte() % 8;
    let base = joint_base(b, ids);
    macro_rules! create {
        ($f:ident, $def:expr) => {{
            let def = $def;
            trace!("{}(&{def:?})", stringify!($f));
            w.$f(&def)
        }};
    }
    // A definition whose spring, limit and motor settings come last, in that
    // order: `$lower`, `$upper` name its limit, `$max` its motor's maximum.
    macro_rules! axial {
        ($ty:ident { $($f:ident $(: $v:expr)?),* ; $lower:ident, $upper:ident, $max:ident $(; ..$rest:expr)? }) => {
            $ty {
                $($f $(: $v)?,)*
                enable_spring: b.flag(),
                hertz: num(b),
                damping_ratio: num(b),
                enable_limit: b.flag(),
                $lower: num(b),
                $upper: num(b),
                enable_motor: b.flag(),
                motor_speed: num(b),
                $max: num(b),
                $(..$rest)?
            }
        };
    }
    match kind {
        0 => create!(
            create_distance_joint,
            axial!(DistanceJointDef {
                base, length: num(b);
                min_length, max_length, max_motor_force;
                ..Default::default()
            })
        ),
        1 => create!(create_filter_joint, FilterJointDef { base }),
        2 => create!(
            create_motor_joint,
            MotorJointDef {
                base,
                linear_offset: vec2(b),
                angular_offset: num(b),
                max_force: num(b),
                max_torque: num(b),
                correction_factor: num(b),
                ..Default::default()
            }
        ),
        3 => create!(
            create_mouse_joint,
            MouseJointDef {
                base,
                target: vec2(b),
                hertz: num(b),
                damping_ratio: num(b),
                max_force: num(b),
            }
        ),
        4 => create!(
            create_prismatic_joint,
            axial!(PrismaticJointDef {
                base, local_axis_a: vec2(b), reference_angle: num(b), target_translation: num(b);
                lower_translation, upper_translation, max_motor_force
            })
        ),
        5 => create!(
            create_revolute_joint,
            axial!(RevoluteJointDef {
                base, reference_angle: num(b), target_angle: num(b);
                lower_angle, upper_angle, max_motor_torque
            })
        ),
        6 => create!(
            create_weld_joint,
            WeldJointDef {
                base,
                reference_angle: num(b),
                linear_hertz: num(b),
                linear_damping_ratio: num(b),
                angular_hertz: num(b),
                angular_damping_ratio: num(b),
            }
        ),
        _ => create!(
            create_wheel_joint,
            axial!(WheelJointDef {
                base, local_axis_a: vec2(b);
                lower_translation, upper_translation, max_motor_torque
            })
        ),
    }
}

/// A typed joint setter or getter (on a joint that may be of another type).
fn joint_call(w: &mut World, b: &mut Bytes, id: JointId) {
    let (x, y) = (num(b), num(b));
    let on = b.flag();
    let op = b.byte() % 40;
    trace!("joint call {op} on {id:?}: x = {x:?}, y = {y:?}, on = {on}");
    let _ = joint_set(w, id, op, x, y, on);
}

/// One setter through the joint views; parts the joint lacks are errors.
fn joint_set(
    w: &mut World,
    id: JointId,
    op: u8,
    x: f32,
    y: f32,
    on: bool,
) -> impulse2d::Result<()> {
    if op >= 34 {
        read_joint(w, id)?;
    }
    let mut j = w.joint_mut(id)?;
    match op {
        0 => j.distance()?.set_length(x)?,
        1 => j.distance()?.set_spring_force_range(x, y)?,
        2 => j.motor()?.enable(on),
        3 => j.motor()?.set_speed(x)?,
        4 => j.motor()?.set_max_force(x)?,
        5 => j.limit()?.enable(on),
        6 => j.limit()?.set_range(x, y)?,
        7 => j.spring()?.enable(on),
        8 => j.spring()?.set_hertz(x)?,
        9 => j.spring()?.set_damping_ratio(x)?,
        10 => j.revolute()?.set_target_angle(x)?,
        11 => j.prismatic()?.set_target_translation(x)?,
        12 => j.motor_joint()?.set_linear_offset(Vec2::new(x, y))?,
        13 => j.motor_joint()?.set_angular_offset(x)?,
        14 => j.motor_joint()?.set_max_force(x)?,
        15 => j.motor_joint()?.set_max_torque(x)?,
        16 => j.motor_joint()?.set_correction_factor(x)?,
        17 => j.mouse()?.set_target(Vec2::new(x, y))?,
        18 => j.mouse()?.set_hertz(x)?,
        19 => j.mouse()?.set_damping_ratio(x)?,
        20 => j.mouse()?.set_max_force(x)?,
        21 => j.weld()?.set_linear_hertz(x)?,
        22 => j.weld()?.set_linear_damping_ratio(x)?,
        23 => j.weld()?.set_angular_hertz(x)?,
        24 => j.weld()?.set_angular_damping_ratio(x)?,
        25 => j.set_collide_connected(on),
        26 => j.set_constraint_tuning(Some(x), on.then_some(y))?,
        27 => j.set_force_threshold(x)?,
        28 => j.set_torque_threshold(y)?,
        29 => j.set_break_on_threshold(on),
        30 => j.wake_bodies(),
        31 => j.set_user_data(7),
        32 => j.set_local_frame_a(Transform::new(Vec2::new(x, y), Rot::from_angle(x)))?,
        33 => j.set_local_frame_b(Transform::new(Vec2::new(y, x), Rot { c: x, s: y }))?,
        _ => {}
    }
    Ok(())
}

/// Every getter of a joint; the results must be finite when the world is sane.
fn read_joint(w: &World, id: JointId) -> impulse2d::Result<()> {
    let j = w.joint(id)?;
    let _ = (j.joint_type(), j.body_a(), j.body_b(), j.world_anchors());
    let _ = (j.local_frame_a(), j.local_frame_b(), j.user_data());
    let _ = (
        j.constraint_force(),
        j.constraint_torque(),
        j.constraint_tuning(),
    );
    let _ = (
        j.force_threshold(),
        j.torque_threshold(),
        j.break_on_threshold(),
    );
    let _ = (j.linear_separation(), j.angular_separation());
    if let Ok(m) = j.motor() {
        let _ = (m.is_enabled(), m.speed(), m.max_force(), m.force());
    }
    if let Ok(l) = j.limit() {
        let _ = (l.is_enabled(), l.lower(), l.upper());
    }
    if let Ok(s) = j.spring() {
        let _ = (s.is_enabled(), s.hertz(), s.damping_ratio());
    }
    if let Ok(d) = j.distance() {
        let _ = (
            d.def(),
            d.current_length(),
            d.length(),
            d.spring_force_range(),
        );
    }
    if let Ok(m) = j.motor_joint() {
        let _ = m.def();
    }
    if let Ok(m) = j.mouse() {
        let _ = m.def();
    }
    if let Ok(p) = j.prismatic() {
        let _ = (p.def(), p.translation(), p.speed(), p.target_translation());
    }
    if let Ok(r) = j.revolute() {
        let _ = (r.def(), r.angle(), r.speed(), r.target_angle());
    }
    if let Ok(wd) = j.weld() {
        let _ = wd.def();
    }
    if let Ok(wh) = j.wheel() {
        let _ = (wh.def(), wh.translation());
    }
    Ok(())
}

/// A drawing surface that draws nothing.
struct NoDraw;
impl DebugDraw for NoDraw {}

/// World queries with any numbers.
fn query(w: &World, b: &mut Bytes, ids: &Ids) {
    let filter = if b.flag() {
        QueryFilter::default()
    } else {
        QueryFilter {
            category_bits: u64::from(b.byte()),
            mask_bits: u64::MAX >> (b.byte() % 64),
        }
    };
    let answer = match b.byte() % 4 {
        0 => 0.0,
        1 => 1.0,
        2 => -1.0,
        _ => num(b),
    };
    let mut calls = 0u32;
    let op = b.byte() % 9;
    trace!("query {op} with {filter:?}, callback answer {answer:?}");
    let _ = match op {
        0 => {
            let (p, q) = (vec2(b), vec2(b));
            w.overlap_aabb(Aabb::new(p, p + q), filter, |_| {
                calls += 1;
                calls < 1000
            })
        }
        1 => match decode_proxy(b) {
            Some(proxy) => w.overlap_shape(&proxy, Transform::new(vec2(b), rot(b)), filter, |_| {
                calls += 1;
                calls < 1000
            }),
            None => Ok(()),
        },
        2 => w.cast_ray(vec2(b), vec2(b), filter, |_, _, _, fraction| {
            if answer.is_nan() { fraction } else { answer }
        }),
        3 => w.cast_ray_closest(vec2(b), vec2(b), filter).map(|_| ()),
        4 => match decode_proxy(b) {
            Some(proxy) => w.cast_shape(
                &proxy,
                Transform::new(vec2(b), rot(b)),
                vec2(b),
                filter,
                |_, _, _, fraction| if answer.is_nan() { fraction } else { answer },
            ),
            None => Ok(()),
        },
        5 => {
            let input = RayCastInput {
                origin: vec2(b),
                translation: vec2(b),
                max_fraction: num(b),
            };
            w.shape(pick(b, &ids.shapes))
                .and_then(|view| view.ray_cast(&input))
                .map(|_| ())
        }
        6 => w
            .shape(pick(b, &ids.shapes))
            .and_then(|view| view.test_point(vec2(b)))
            .map(|_| ()),
        7 => w
            .shape(pick(b, &ids.shapes))
            .and_then(|view| view.closest_point(vec2(b)))
            .map(|_| ()),
        _ => w
            .shape(pick(b, &ids.shapes))
            .and_then(|view| view.sensor_overlaps())
            .map(|_| ()),
    };
}

/// Reads events and per-object data (ids in events may be stale by now).
fn read(w: &World, b: &mut Bytes, ids: &Ids) {
    match b.byte() % 6 {
        0 => {
            let contacts = w.contact_events();
            let sensors = w.sensor_events();
            let n = contacts.begin.len() + contacts.end.len() + contacts.hit.len();
            let n = n + sensors.begin.len() + sensors.end.len();
            let n = n + w.body_events().len() + w.joint_events().len();
            std::hint::black_box(n);
        }
        1 => {
            let id = pick(b, &ids.bodies);
            let _ = w.body(id).map(|view| view.transform());
            let _ = w.body(id).map(|view| view.linear_velocity());
            let _ = w.body(id).map(|view| view.mass_data());
            let _ = w.body(id).map(|view| view.world_point_velocity(vec2(b)));
            let _ = w.body(id).map(|view| view.shapes());
            let _ = w.body_joints(id);
            if let Ok(contacts) = w.body(id).map(|view| view.contacts()) {
                for c in contacts {
                    w.contact_data(c.contact_id)
                        .expect("a listed contact is live");
                }
            }
        }
        2 => {
            let id = pick(b, &ids.shapes);
            let _ = w.shape(id).map(|view| view.aabb());
            let _ = w.shape(id).map(|view| view.geometry());
            let _ = w.shape(id).map(|view| view.filter());
            let _ = w.shape(id).map(|view| view.body());
        }
        3 => {
            let _ = w.chain(pick(b, &ids.chains)).map(|view| view.segments());
        }
        4 => {
            let options = DrawOptions {
                draw_aabbs: true,
                draw_contacts: true,
                draw_contact_normals: true,
                draw_contact_impulses: true,
                draw_friction_impulses: true,
                draw_islands: true,
                draw_graph_colors: true,
                draw_mass: true,
                ..Default::default()
            };
            w.draw(&mut NoDraw, &options);
            let _ = w.view_bounds();
        }
        _ => {
            std::hint::black_box(w.counters());
        }
    }
}

/// A time step: zero, normal, tiny, huge, negative, NaN or anything.
fn time_step(b: &mut Bytes) -> f32 {
    match b.byte() % 8 {
        0 => 0.0,
        1 => 1.0e-30,
        2 => f32::from_bits(1),
        3 => f32::MAX,
        4 => -1.0 / 60.0,
        5 => f32::NAN,
        6 => num(b),
        _ => 1.0 / 60.0,
    }
}

fn sub_steps(b: &mut Bytes) -> u32 {
    match b.byte() % 8 {
        0 => 0,
        1 => u32::MAX,
        2 => MAX_SUB_STEPS,
        3 => MAX_SUB_STEPS + 1,
        4 => u32::from(b.byte()),
        5 => 1,
        6 => 8,
        _ => 4,
    }
}

/// Substeps one input may run in all (beyond, valid counts become 1), so that
/// inputs full of `MAX_SUB_STEPS` steps do not slow the fuzzer to a crawl.
const SUB_STEP_BUDGET: u32 = 4 * MAX_SUB_STEPS;

/// Steps, then checks the invariants when the step succeeded.
fn step(w: &mut World, b: &mut Bytes, ids: &Ids, budget: &mut u32) {
    let (dt, mut n) = (time_step(b), sub_steps(b));
    if (1..=MAX_SUB_STEPS).contains(&n) {
        if n > *budget {
            n = 1;
        }
        *budget = budget.saturating_sub(n);
    }
    trace!("step({dt:?}, {n})");
    let result = w.step(dt, n);
    trace!("  -> {result:?}");
    let good_input = dt.is_finite() && dt >= 0.0 && (1..=MAX_SUB_STEPS).contains(&n);
    assert_eq!(
        result.is_ok(),
        good_input,
        "step({dt:e}, {n}) returned {result:?}"
    );
    if result.is_err() {
        return;
    }
    if let Err(e) = w.validate() {
        panic!("invalid world after step({dt:e}, {n}): {e}");
    }
    for &id in &ids.bodies {
        if let Ok(xf) = w.body(id).map(|view| view.transform()) {
            assert!(
                xf.p.x.is_finite()
                    && xf.p.y.is_finite()
                    && xf.q.c.is_finite()
                    && xf.q.s.is_finite(),
                "body {id:?} at {xf:?} after step({dt:e}, {n})"
            );
        }
        // A step that simulated quarantined every body whose motion overflowed.
        if let Some(body) = w.body(id).ok().filter(|_| dt > 0.0) {
            let (v, av) = (body.linear_velocity(), body.angular_velocity());
            assert!(
                v.is_finite() && av.is_finite(),
                "body {id:?} moves at {v:?}, {av:?} after step({dt:e}, {n})"
            );
        }
    }
}

/// Records the id a successful creation returned.
fn keep<T: std::fmt::Debug>(result: impulse2d::Result<T>, ids: &mut Vec<T>) {
    trace!("  -> {result:?}");
    if let Ok(id) = result {
        ids.push(id);
    }
}

/// Destroys an object by an id from `$ids` (live, stale, null or foreign);
/// when that succeeds, the id must be stale.
macro_rules! destroy {
    ($w:ident, $b:ident, $ids:expr, $destroy:ident, view $view:ident $(, $arg:expr)?) => {{
        let id = pick(&mut $b, &$ids);
        let result = $w.$destroy(id $(, $arg)?);
        trace!("{}({id:?}) -> {result:?}", stringify!($destroy));
        if result.is_ok() {
            assert!($w.$view(id).is_err(), "{id:?} still valid after {}", stringify!($destroy));
        }
    }};
    ($w:ident, $b:ident, $ids:expr, $destroy:ident, $is_valid:ident $(, $arg:expr)?) => {{
        let id = pick(&mut $b, &$ids);
        let result = $w.$destroy(id $(, $arg)?);
        trace!("{}({id:?}) -> {result:?}", stringify!($destroy));
        if result.is_ok() {
            assert!(!$w.$is_valid(id), "{id:?} still valid after {}", stringify!($destroy));
        }
    }};
}

/// Builds a small world whose ids are mixed into the fuzzed world's pools.
fn foreign_ids(ids: &mut Ids) {
    let Ok(mut other) = World::new(&WorldDef::default()) else {
        return;
    };
    for i in 0..3 {
        let Ok(body) = other.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: Vec2::new(i as f32, 0.0),
            ..Default::default()
        }) else {
            return;
        };
        ids.bodies.push(body);
        if let Ok(shape) = make_box(0.5, 0.5)
            .and_then(|p| other.create_polygon_shape(body, &ShapeDef::default(), &p))
        {
            ids.shapes.push(shape);
        }
    }
    if let (Some(&a), Some(&b)) = (ids.bodies.first(), ids.bodies.get(1)) {
        let def = RevoluteJointDef {
            base: JointDef {
                body_a: a,
                body_b: b,
                ..Default::default()
            },
            ..Default::default()
        };
        if let Ok(j) = other.create_revolute_joint(&def) {
            ids.joints.push(j);
        }
    }
    let chain = ChainDef {
        points: vec![
            Vec2::new(-1.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ],
        is_loop: true,
        ..Default::default()
    };
    if let Ok(c) = other.create_chain(ids.bodies[0], &chain) {
        ids.chains.push(c);
    }
}

/// Worker threads of the fuzzed world: 2 when this file is built as the
/// `world_2_workers` target (which includes it), else 1.
fn worker_count() -> usize {
    if env!("CARGO_BIN_NAME") == "world_2_workers" {
        2
    } else {
        1
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let mut def = WorldDef {
        worker_count: worker_count(),
        ..WorldDef::default()
    };
    if b.byte() % 4 == 0 {
        def.gravity = vec2(&mut b);
        def.contact_hertz = num(&mut b);
        def.joint_hertz = num(&mut b);
        def.maximum_linear_speed = num(&mut b);
        def.contact_recycle_distance = num(&mut b);
        def.relax_iterations = u32::from(b.byte() % 4);
        def.enable_continuous = b.flag();
    }
    let Ok(mut w) = World::new(&def) else {
        return;
    };
    trace!("World::new(&{def:?})");
    let mut ids = Ids::default();
    foreign_ids(&mut ids);

    let mut ops = 0;
    let mut budget = SUB_STEP_BUDGET;
    while !b.is_empty() && ops < 400 {
        ops += 1;
        match b.byte() % 24 {
            0 | 1 => {
                let def = body_def(&mut b);
                trace!("create_body(&{def:?})");
                keep(w.create_body(&def), &mut ids.bodies);
            }
            2 => destroy!(w, b, ids.bodies, destroy_body, view body),
            3 | 4 => {
                let body = pick(&mut b, &ids.bodies);
                let def = shape_def(&mut b);
                if let Some(g) = geometry(&mut b) {
                    trace!("create_shape({body:?}, &{def:?}, {g:?})");
                    keep(w.create_shape(body, &def, g), &mut ids.shapes);
                }
            }
            5 => destroy!(w, b, ids.shapes, destroy_shape, view shape, b.flag()),
            6 => {
                let body = pick(&mut b, &ids.bodies);
                let def = chain_def(&mut b);
                let r = w.create_chain(body, &def);
                trace!("create_chain({body:?}, &{def:?}) -> {r:?}");
                if let Ok(id) = r {
                    ids.chains.push(id);
                    if let Ok(segments) = w.chain(id).map(|view| view.segments()) {
                        ids.shapes.extend(segments);
                    }
                }
            }
            7 => {
                let id = pick(&mut b, &ids.chains);
                let r = w.destroy_chain(id);
                trace!("destroy_chain({id:?}) -> {r:?}");
            }
            8 | 9 => {
                let r = create_joint(&mut w, &mut b, &ids);
                keep(r, &mut ids.joints);
            }
            10 => destroy!(w, b, ids.joints, destroy_joint, joint_is_valid),
            11 => {
                let id = pick(&mut b, &ids.joints);
                joint_call(&mut w, &mut b, id);
            }
            12 => {
                let id = pick(&mut b, &ids.bodies);
                let r = match b.byte() % 3 {
                    0 => {
                        let (p, q) = (vec2(&mut b), rot(&mut b));
                        trace!("set_body_transform({id:?}, {p:?}, {q:?})");
                        w.body_mut(id).and_then(|mut view| view.set_transform(p, q))
                    }
                    1 => {
                        let xf = Transform::new(vec2(&mut b), rot(&mut b));
                        let dt = num(&mut b);
                        trace!("set_body_target_transform({id:?}, {xf:?}, {dt:?})");
                        w.body_mut(id)
                            .and_then(|mut view| view.set_target_transform(xf, dt))
                    }
                    _ => {
                        let (p, q) = (b.finite_vec2(HUGE), rot(&mut b));
                        trace!("set_body_transform({id:?}, {p:?}, {q:?})");
                        w.body_mut(id).and_then(|mut view| view.set_transform(p, q))
                    }
                };
                trace!("  -> {r:?}");
            }
            13 => {
                let id = pick(&mut b, &ids.bodies);
                let (v, av) = (vec2(&mut b), num(&mut b));
                let r1 = w
                    .body_mut(id)
                    .and_then(|mut view| view.set_linear_velocity(v));
                let r2 = w
                    .body_mut(id)
                    .and_then(|mut view| view.set_angular_velocity(av));
                trace!(
                    "set_body_{{linear, angular}}_velocity({id:?}, {v:?}, {av:?}) -> {r1:?}, {r2:?}"
                );
            }
            14 => {
                let id = pick(&mut b, &ids.bodies);
                let op = b.byte() % 8;
                let (t, on) = (body_type(&mut b), b.flag());
                let mass = MassData {
                    mass: num(&mut b),
                    center: vec2(&mut b),
                    rotational_inertia: num(&mut b),
                };
                let r = w.body_mut(id).and_then(|mut view| match op {
                    0 => view.set_body_type(t),
                    1 => Ok(view.disable()),
                    2 => view.enable(),
                    3 => Ok(view.set_awake(on)),
                    4 => Ok(view.set_sleep_enabled(on)),
                    5 => Ok(view.set_bullet(on)),
                    6 => Ok(view.apply_mass_from_shapes()),
                    _ => view.set_mass_data(mass),
                });
                trace!("body call {op} on {id:?}: {t:?}, on = {on}, {mass:?} -> {r:?}");
            }
            15 => {
                let (id, on, op) = target(&mut b, &ids.shapes, 9);
                let (f, x) = (filter(&mut b), num(&mut b));
                let r = w.shape_mut(id).and_then(|mut view| match op {
                    0 => view.set_filter(f),
                    1 => view.set_density(x, on),
                    2 => view.set_friction(x),
                    3 => view.set_restitution(x),
                    4 => Ok(view.set_contact_events_enabled(on)),
                    5 => Ok(view.set_hit_events_enabled(on)),
                    6 => Ok(view.set_sensor_events_enabled(on)),
                    7 => Ok(view.set_pre_solve_events_enabled(on)),
                    _ => Ok(view.set_user_data(3)),
                });
                trace!("shape call {op} on {id:?}: {f:?}, x = {x:?}, on = {on} -> {r:?}");
            }
            16 => {
                let (id, wake, op) = target(&mut b, &ids.bodies, 6);
                let (v, p) = (vec2(&mut b), vec2(&mut b));
                let r = w.body_mut(id).and_then(|mut view| match op {
                    0 => view.apply_force(v, p, wake),
                    1 => view.apply_force_to_center(v, wake),
                    2 => view.apply_torque(v.x, wake),
                    3 => view.apply_linear_impulse(v, p, wake),
                    4 => view.apply_linear_impulse_to_center(v, wake),
                    _ => view.apply_angular_impulse(v.x, wake),
                });
                trace!("apply {op} on {id:?}: {v:?} at {p:?}, wake = {wake} -> {r:?}");
            }
            17 => {
                let def = ExplosionDef {
                    position: vec2(&mut b),
                    radius: num(&mut b),
                    falloff: num(&mut b),
                    impulse_per_length: num(&mut b),
                    mask_bits: if b.flag() { u64::MAX } else { 1 },
                };
                let r = w.explode(&def);
                trace!("explode(&{def:?}) -> {r:?}");
            }
            18 => query(&w, &mut b, &ids),
            19 => read(&w, &mut b, &ids),
            20 => {
                let op = b.byte() % 8;
                let g = vec2(&mut b);
                let on = b.flag();
                trace!("world call {op}: {g:?}, on = {on}");
                match op {
                    0 => {
                        let _ = w.set_gravity(g);
                    }
                    1 => w.enable_sleeping(on),
                    2 => w.set_custom_filter(|a, b| (a.index() ^ b.index()) % 3 != 0),
                    3 => w.clear_custom_filter(),
                    4 => w.set_pre_solve(|a, b, m| {
                        (a.index() + b.index()) % 2 == 0 || m.normal.y > 0.0
                    }),
                    5 => w.clear_pre_solve(),
                    6 => w.set_friction_mixing(f32::max),
                    _ => w.set_restitution_mixing(f32::min),
                }
            }
            _ => step(&mut w, &mut b, &ids, &mut budget),
        }
    }
});
