//! `World`: creation of bodies, the step, events, queries, numpy batches,
//! snapshots.
use std::collections::HashMap;
use std::sync::Mutex;

use impulse2d::collision::{Aabb, make_proxy};
use impulse2d::{
    BodyDef, BodyId, ExplosionDef, JointEventKind, JointType, MotionLocks, QueryFilter, Rot,
    ShapeId, Snapshot, Transform, Vec2, WorldDef,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict};
use pyo3::{PyTraverseError, intern};

use crate::body::{Body, Shape};
use crate::convert::{V2, body_type, finite, tup};
use crate::joint::Joint;
use crate::ok;

/// Which kind of object a user-data entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Body,
    Shape,
    Chain,
    Joint,
}

/// A user-data key: kind, slot index and generation (so a stale handle never
/// sees the data of the object that reused its slot).
pub(crate) type Key = (Kind, u32, u32);

/// A physics world: bodies, shapes and joints, advanced in fixed time steps.
///
/// Units: metres, kilograms, seconds, radians. Gravity in m/s².
#[pyclass(module = "impulse2d._impulse2d")]
pub struct World {
    pub(crate) inner: impulse2d::World,
    /// Python objects attached to handles (`Body.user_data`, ...).
    user_data: Mutex<HashMap<Key, Py<PyAny>>>,
}

impl World {
    /// Runs `f` on the engine's world.
    fn with_inner<T>(&self, f: impl FnOnce(&impulse2d::World) -> T) -> T {
        f(&self.inner)
    }

    /// Runs the change `f` on the engine's world.
    fn change<T>(
        &mut self,
        f: impl FnOnce(&mut impulse2d::World) -> impulse2d::Result<T>,
    ) -> impulse2d::Result<T> {
        f(&mut self.inner)
    }

    fn wrap(inner: impulse2d::World) -> World {
        World {
            inner,
            user_data: Mutex::new(HashMap::new()),
        }
    }

    /// The user data stored under `key` (None if there is none).
    pub(crate) fn get_user_data(&self, py: Python<'_>, key: Key) -> Py<PyAny> {
        let map = self.user_data.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&key)
            .map(|v| v.clone_ref(py))
            .unwrap_or_else(|| py.None())
    }

    /// Stores (or with None removes) the user data under `key`.
    pub(crate) fn set_user_data(&self, key: Key, value: Option<Py<PyAny>>) {
        let mut map = self.user_data.lock().unwrap_or_else(|e| e.into_inner());
        match value {
            Some(v) => map.insert(key, v),
            None => map.remove(&key),
        };
    }

    /// Drops the user data of a body about to be destroyed and of its shapes,
    /// chains and joints.
    pub(crate) fn forget_body(&self, id: BodyId) {
        let Ok(body) = self.inner.body(id) else {
            return;
        };
        let mut map = self.user_data.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&(Kind::Body, id.index(), id.generation()));
        for s in body.shapes() {
            map.remove(&(Kind::Shape, s.index(), s.generation()));
            if let Ok(Some(chain)) = self.inner.shape(s).map(|s| s.parent_chain()) {
                map.remove(&(Kind::Chain, chain.index(), chain.generation()));
            }
        }
        for j in body.joints() {
            map.remove(&(Kind::Joint, j.index(), j.generation()));
        }
    }
}

/// Python objects made from one of the world's event slices.
fn events<E, T>(
    slf: &Bound<'_, World>,
    slice: fn(&impulse2d::World) -> &[E],
    make: impl Fn(Python<'_>, &Py<World>, &E) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let py = slf.py();
    let world = slf.clone().unbind();
    let w = slf.try_borrow()?;
    slice(&w.inner)
        .iter()
        .map(|e| make(py, &world, e))
        .collect()
}

/// What `World.__reduce__` returns: a constructor and its arguments.
type Reduce<'py> = (Bound<'py, PyAny>, (Bound<'py, PyBytes>, usize));

/// The query filter from keyword arguments.
/// A Python callback behind a world cast (Box2D's b2CastResultFcn): its
/// float answer goes back to the cast; the first exception (or NaN answer)
/// stops the cast and is kept for [`CastCallback::finish`].
struct CastCallback<'a, 'py> {
    world: Py<World>,
    callback: &'a Bound<'py, PyAny>,
    what: &'static str,
    error: Option<PyErr>,
}

impl<'a, 'py> CastCallback<'a, 'py> {
    fn new(world: &Bound<'py, World>, callback: &'a Bound<'py, PyAny>, what: &'static str) -> Self {
        Self {
            world: world.clone().unbind(),
            callback,
            what,
            error: None,
        }
    }

    /// The callback's answer for one hit (0, stop, after an error).
    fn call(&mut self, id: ShapeId, point: Vec2, normal: Vec2, fraction: f32) -> f32 {
        if self.error.is_some() {
            return 0.0;
        }
        let py = self.callback.py();
        let answer = Shape::handle(py, &self.world, id).and_then(|shape| {
            self.callback
                .call1((shape, tup(point), tup(normal), fraction))?
                .extract::<f32>()
        });
        match answer {
            Ok(a) if a.is_nan() => {
                self.error = Some(PyValueError::new_err(format!(
                    "the {} callback returned NaN",
                    self.what
                )));
                0.0
            }
            Ok(a) => a,
            Err(e) => {
                self.error = Some(e);
                0.0
            }
        }
    }

    /// The callback's exception, if it raised one.
    fn finish(self) -> PyResult<()> {
        self.error.map_or(Ok(()), Err)
    }

    /// Runs `cast` on the world with `callback` (named `what` in errors)
    /// answering every hit; the cast's error or the callback's exception is
    /// raised.
    fn run(
        world: &Bound<'py, World>,
        callback: &'a Bound<'py, PyAny>,
        what: &'static str,
        cast: impl FnOnce(
            &impulse2d::World,
            &mut dyn FnMut(ShapeId, Vec2, Vec2, f32) -> f32,
        ) -> impulse2d::Result<()>,
    ) -> PyResult<()> {
        let mut hits = CastCallback::new(world, callback, what);
        let w = world.try_borrow()?;
        ok(cast(&w.inner, &mut |id, point, normal, fraction| {
            hits.call(id, point, normal, fraction)
        }))?;
        hits.finish()
    }
}

/// Handles to the shapes an overlap query (`query`, which reports each
/// shape to the given callback) finds, in the order it finds them.
fn overlapping(
    world: &Bound<'_, World>,
    query: impl FnOnce(&impulse2d::World, &mut dyn FnMut(ShapeId) -> bool) -> impulse2d::Result<()>,
) -> PyResult<Vec<Py<Shape>>> {
    let mut ids = Vec::new();
    ok(query(&world.try_borrow()?.inner, &mut |id| {
        ids.push(id);
        true
    }))?;
    ids.into_iter()
        .map(|id| Shape::handle(world.py(), world.as_unbound(), id))
        .collect()
}

fn query_filter(category_bits: u64, mask_bits: u64) -> QueryFilter {
    QueryFilter {
        category_bits,
        mask_bits,
    }
}

/// The body ids of a sequence of `Body` handles of this world.
fn body_ids(world: &Bound<'_, World>, bodies: &Bound<'_, PyAny>) -> PyResult<Vec<BodyId>> {
    let mut out = Vec::with_capacity(bodies.len().unwrap_or(0));
    for item in bodies.try_iter()? {
        let item = item?;
        let body = item
            .cast::<Body>()
            .map_err(|_| PyTypeError::new_err("expected a sequence of Body handles"))?;
        let body = body.get();
        if !body.world.is(world) {
            return Err(crate::StaleHandleError::new_err(
                "a Body of another world was given",
            ));
        }
        out.push(body.id);
    }
    Ok(out)
}

/// `values` as a contiguous float32 array of shape `(n, width)` (width 0:
/// shape `(n,)`), read into a vector; another shape is a `ValueError`.
fn read_array(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    n: usize,
    width: usize,
    what: &str,
) -> PyResult<Vec<f32>> {
    let np = py.import(intern!(py, "numpy"))?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", np.getattr("float32")?)?;
    let arr = np.call_method("ascontiguousarray", (values,), Some(&kwargs))?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    let expected: Vec<usize> = if width == 0 { vec![n] } else { vec![n, width] };
    if shape != expected {
        return Err(PyValueError::new_err(format!(
            "{what}: expected an array of shape {expected:?}, got {shape:?}"
        )));
    }
    let bytes = arr.call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    let out: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Some(bad) = out.iter().find(|v| !v.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "{what}: every value must be finite, got {bad}"
        )));
    }
    Ok(out)
}

/// A float32 numpy array of shape `(n, width)` (width 0: `(n,)`) holding `data`.
fn make_array<'py>(py: Python<'py>, data: &[f32], width: usize) -> PyResult<Bound<'py, PyAny>> {
    let mut bytes = Vec::with_capacity(data.len() * 4);
    for v in data {
        bytes.extend_from_slice(&v.to_ne_bytes());
    }
    let buffer = PyByteArray::new(py, &bytes);
    let np = py.import(intern!(py, "numpy"))?;
    let arr = np.call_method1("frombuffer", (buffer, np.getattr("float32")?))?;
    match data.len().checked_div(width) {
        None => Ok(arr),
        Some(rows) => arr.call_method1("reshape", ((rows, width),)),
    }
}

/// The `#[pymethods]` block of `World`, with these tables in it:
/// - `read`: `#[attrs] name(args) -> T = closure;` is a getter or method
///   running `closure` on the engine's world;
/// - `write`: `#[attrs] name(args) = closure;` likewise for a setter or
///   method that changes the world (its error is raised);
/// - `joints`: `create_x_joint: X;` with its docstring's first line is the
///   method that creates an `X` joint from keyword options (the docstring
///   goes on with the options every joint takes);
/// - `events`: `name -> T = list, make;` is the method that returns `make`
///   of every event in the world's slice `list`;
/// - `rays`: `name -> T = query;` is the method with the arguments of a
///   ray query (origin, translation, category and mask bits) that returns
///   `query(world, origin, translation, filter)`;
/// - `arrays`: `name: width = read;` is the method that returns a float32
///   array of `width` values per body (0: one, shape `(n,)`), which `read`
///   appends for each;
/// - `array_setters`: `name(values): width, "what" = set;` is the method
///   that reads the array-like `values` (`width` floats per body) and calls
///   `set(world, ids, floats)` once the handles and the array are checked;
///
/// then the hand-written methods.
macro_rules! world_pymethods {
    (
        read {
            $( $(#[$($read_attr:tt)*])* $read:ident($($read_arg:ident: $read_ty:ty),*) -> $read_ret:ty = $read_f:expr; )*
        }
        write {
            $( $(#[$($write_attr:tt)*])* $write:ident($($write_arg:ident: $write_ty:ty),*) = $write_f:expr; )*
        }
        joints {
            $( $(#[doc = $joint_doc:tt])* $joint:ident: $joint_type:ident; )*
        }
        events {
            $( $(#[doc = $event_doc:tt])* $event:ident -> $event_ty:ty = $event_list:expr, $event_make:expr; )*
        }
        rays {
            $( $(#[doc = $ray_doc:tt])* $ray:ident -> $ray_ret:ty = $ray_f:expr; )*
        }
        arrays {
            $( $(#[doc = $get_doc:tt])* $get:ident: $get_width:literal = $get_f:expr; )*
        }
        array_setters {
            $(
                $(#[doc = $set_doc:tt])*
                $set:ident($values:ident): $set_width:literal, $what:literal = $set_f:expr;
            )*
        }
        $($methods:tt)*
    ) => {
        #[pymethods]
        impl World {
            $(
                $(#[$($read_attr)*])*
                fn $read(&self, $($read_arg: $read_ty),*) -> $read_ret {
                    self.with_inner($read_f)
                }
            )*

            $(
                $(#[$($write_attr)*])*
                fn $write(&mut self, $($write_arg: $write_ty),*) -> PyResult<()> {
                    ok(self.change($write_f))
                }
            )*

            $(
                $(#[doc = $joint_doc])*
                #[doc = " Common options: local_anchor_a, local_anchor_b (body frames, m),"]
                #[doc = " collide_connected, constraint_hertz, constraint_damping_ratio,"]
                #[doc = " force_threshold (N), torque_threshold (N·m), break_on_threshold, user_data."]
                #[pyo3(signature = (body_a, body_b, **options))]
                fn $joint(
                    slf: &Bound<'_, Self>,
                    body_a: &Bound<'_, Body>,
                    body_b: &Bound<'_, Body>,
                    options: Option<&Bound<'_, PyDict>>,
                ) -> PyResult<Py<Joint>> {
                    crate::joint::create_joint(slf, JointType::$joint_type, body_a, body_b, options)
                }
            )*

            $(
                $(#[doc = $event_doc])*
                fn $event(slf: &Bound<'_, Self>) -> PyResult<Vec<$event_ty>> {
                    events(slf, $event_list, $event_make)
                }
            )*

            $(
                $(#[doc = $ray_doc])*
                #[pyo3(signature = (origin, translation, *, category_bits = 1, mask_bits = u64::MAX))]
                fn $ray(
                    slf: &Bound<'_, Self>,
                    origin: V2,
                    translation: V2,
                    category_bits: u64,
                    mask_bits: u64,
                ) -> PyResult<$ray_ret> {
                    let filter = query_filter(category_bits, mask_bits);
                    ray_query(slf, origin.0, translation.0, filter, $ray_f)
                }
            )*

            $(
                $(#[doc = $get_doc])*
                fn $get<'py>(
                    slf: &Bound<'py, Self>,
                    bodies: &Bound<'py, PyAny>,
                ) -> PyResult<Bound<'py, PyAny>> {
                    body_array(slf, bodies, $get_width, $get_f)
                }
            )*

            $(
                $(#[doc = $set_doc])*
                fn $set(
                    slf: &Bound<'_, Self>,
                    bodies: &Bound<'_, PyAny>,
                    $values: &Bound<'_, PyAny>,
                ) -> PyResult<()> {
                    set_body_array(slf, bodies, $values, $set_width, $what, $set_f)
                }
            )*

            $($methods)*
        }
    };
}

world_pymethods! {
    read {
        /// Gravity, m/s².
        #[getter] gravity() -> (f32, f32) = |w| tup(w.gravity());
        /// Threads that run a step (1 to 64).
        #[getter] workers() -> usize = |w| w.worker_count();
        /// Steps taken so far.
        #[getter] step_count() -> u64 = |w| w.step_count();
        /// Bodies awake now.
        #[getter] awake_body_count() -> usize = |w| w.awake_body_count();
        /// Whether bodies may fall asleep.
        #[getter] sleep_enabled() -> bool = |w| w.is_sleeping_enabled();
        /// Whether fast bodies are swept against static geometry.
        #[getter] continuous_enabled() -> bool = |w| w.is_continuous_enabled();
        /// Whether each step starts from the last step's impulses.
        #[getter] warm_starting_enabled() -> bool = |w| w.is_warm_starting_enabled();
        /// Approach speed below which restitution is ignored, m/s.
        #[getter] restitution_threshold() -> f32 = |w| w.restitution_threshold();
        /// Approach speed above which a hit event is reported, m/s.
        #[getter] hit_event_threshold() -> f32 = |w| w.hit_event_threshold();
        /// Largest speed of any body, m/s.
        #[getter] maximum_linear_speed() -> f32 = |w| w.maximum_linear_speed();
        /// Contact stiffness as (hertz (Hz), damping ratio, push-out speed (m/s)).
        #[getter] contact_tuning() -> (f32, f32, f32) = |w| {
            let s = w.settings();
            (s.contact_hertz, s.contact_damping_ratio, s.contact_push_max_velocity)
        };
        /// Default joint stiffness as (hertz (Hz), damping ratio).
        #[getter] joint_tuning() -> (f32, f32) = |w| (w.settings().joint_hertz, w.settings().joint_damping_ratio);
        /// FNV-1a hash of every body's transform and velocities in id order (the
        /// same number the Rust `World::state_hash` and the CLI print).
        state_hash() -> u64 = |w| w.state_hash();
    }
    write {
        #[setter] set_gravity(gravity: V2) = |w| w.set_gravity(gravity.0);
        #[setter] set_workers(count: usize) = |w| w.set_worker_count(count);
        #[setter] set_sleep_enabled(enable: bool) = |w| { w.enable_sleeping(enable); Ok(()) };
        #[setter] set_continuous_enabled(enable: bool) = |w| { w.enable_continuous(enable); Ok(()) };
        #[setter] set_warm_starting_enabled(enable: bool) = |w| { w.enable_warm_starting(enable); Ok(()) };
        #[setter] set_restitution_threshold(speed: f32) = |w| w.set_restitution_threshold(speed);
        #[setter] set_hit_event_threshold(speed: f32) = |w| w.set_hit_event_threshold(speed);
        #[setter] set_maximum_linear_speed(speed: f32) = |w| w.set_maximum_linear_speed(speed);
        #[setter] set_contact_tuning(value: (f32, f32, f32)) = |w| w.set_contact_tuning(value.0, value.1, value.2);
        #[setter] set_joint_tuning(value: (f32, f32)) = |w| w.set_joint_tuning(value.0, value.1);
    }
    joints {
        /// Creates a distance joint between `body_a` and `body_b`. Options: length (m), enable_spring, hertz, damping_ratio, lower_spring_force, upper_spring_force (N), enable_limit, min_length, max_length (m), enable_motor, motor_speed (m/s), max_motor_force (N).
        create_distance_joint: Distance;
        /// Creates a filter joint between `body_a` and `body_b`. Options: none besides the common ones: the joint only stops the two bodies colliding.
        create_filter_joint: Filter;
        /// Creates a motor joint between `body_a` and `body_b`. Options: linear_offset (m), angular_offset (rad), max_force (N), max_torque (N·m), correction_factor, linear_velocity (m/s), angular_velocity (rad/s), max_velocity_force (N), max_velocity_torque (N·m), linear_hertz, angular_hertz (Hz), linear_damping_ratio, angular_damping_ratio, max_spring_force (N), max_spring_torque (N·m).
        create_motor_joint: Motor;
        /// Creates a mouse joint between `body_a` and `body_b`. Options: target (world point, m), hertz (Hz), damping_ratio, max_force (N).
        create_mouse_joint: Mouse;
        /// Creates a mover joint between `body_a` and `body_b`. Options: linear_velocity (m/s), max_velocity_force (N per axis).
        create_mover_joint: Mover;
        /// Creates a pogo joint between `body_a` and `body_b`. Options: normal, hertz (Hz), damping_ratio, rest_length (m), max_tension_force, max_compression_force (N), impulse (N·s), velocity (m/s).
        create_pogo_joint: Pogo;
        /// Creates a prismatic joint between `body_a` and `body_b`. Options: local_axis_a, reference_angle (rad), enable_spring, hertz, damping_ratio, target_translation (m), enable_limit, lower_translation, upper_translation (m), enable_motor, motor_speed (m/s), max_motor_force (N).
        create_prismatic_joint: Prismatic;
        /// Creates a revolute joint between `body_a` and `body_b`. Options: reference_angle (rad), enable_spring, hertz, damping_ratio, target_angle (rad), enable_limit, lower_angle, upper_angle (rad), enable_motor, motor_speed (rad/s), max_motor_torque (N·m).
        create_revolute_joint: Revolute;
        /// Creates a weld joint between `body_a` and `body_b`. Options: reference_angle (rad), linear_hertz, angular_hertz (Hz; 0 = rigid), linear_damping_ratio, angular_damping_ratio.
        create_weld_joint: Weld;
        /// Creates a wheel joint between `body_a` and `body_b`. Options: local_axis_a, enable_spring (default on), hertz (default 1 Hz), damping_ratio (0.7), enable_limit, lower_translation, upper_translation (m), enable_motor, motor_speed (rad/s), max_motor_torque (N·m).
        create_wheel_joint: Wheel;
    }
    events {
        /// Contacts that started touching during the last step.
        contact_begin_events -> ContactBeginEvent = |w| w.contact_events().begin, |py, world, e| Ok(ContactBeginEvent {
            shape_a: Shape::handle(py, world, e.shape_id_a)?,
            shape_b: Shape::handle(py, world, e.shape_id_b)?,
            normal: tup(e.manifold.normal),
            points: e.manifold.points().iter().map(|p| tup(p.point)).collect(),
        });
        /// Contacts that stopped touching during the last step (or whose shapes
        /// were destroyed since; their handles may be stale).
        contact_end_events -> ContactEndEvent = |w| w.contact_events().end, |py, world, e| Ok(ContactEndEvent { shape_a: Shape::handle(py, world, e.shape_id_a)?, shape_b: Shape::handle(py, world, e.shape_id_b)? });
        /// Contacts that began faster than the hit-event threshold during the last
        /// step, between shapes with hit events enabled.
        contact_hit_events -> ContactHitEvent = |w| w.contact_events().hit, |py, world, e| Ok(ContactHitEvent {
            shape_a: Shape::handle(py, world, e.shape_id_a)?,
            shape_b: Shape::handle(py, world, e.shape_id_b)?,
            point: tup(e.point),
            normal: tup(e.normal),
            approach_speed: e.approach_speed,
        });
        /// Shapes that began overlapping a sensor during the last step.
        sensor_begin_events -> SensorBeginEvent = |w| w.sensor_events().begin, |py, world, e| Ok(SensorBeginEvent { sensor: Shape::handle(py, world, e.sensor_shape_id)?, visitor: Shape::handle(py, world, e.visitor_shape_id)? });
        /// Shapes that stopped overlapping a sensor during the last step.
        sensor_end_events -> SensorEndEvent = |w| w.sensor_events().end, |py, world, e| Ok(SensorEndEvent { sensor: Shape::handle(py, world, e.sensor_shape_id)?, visitor: Shape::handle(py, world, e.visitor_shape_id)? });
        /// Joint events of the last step: "threshold_exceeded", "broken"
        /// (destroyed by its threshold), "body_destroyed".
        joint_events -> JointEvent = |w| w.joint_events(), |py, world, e| Ok(JointEvent {
            joint: Joint::handle(py, world, e.joint_id)?,
            kind: match e.kind {
                JointEventKind::ThresholdExceeded => "threshold_exceeded",
                JointEventKind::Broken => "broken",
                JointEventKind::BodyDestroyed => "body_destroyed",
            },
            joint_type: crate::joint::type_name(e.joint_type),
            force: e.force,
            torque: e.torque,
        });
        /// Bodies the last step moved (every awake body), with their new pose.
        body_move_events -> BodyMoveEvent = |w| w.body_events(), |py, world, e| Ok(BodyMoveEvent {
            body: Body::handle(py, world, e.body_id)?,
            position: tup(e.transform.p),
            angle: e.transform.q.angle(),
            fell_asleep: e.fell_asleep,
        });
    }
    rays {
        /// The closest shape hit by the ray from `origin` along `translation`
        /// (metres; the ray ends at origin + translation), or None. Sensors are
        /// not hit. category_bits / mask_bits filter shapes as Box2D's
        /// b2QueryFilter.
        cast_ray_closest -> Option<RayHit> = |world, origin, translation, filter| {
            let hit = ok(world.try_borrow()?.inner.cast_ray_closest(origin, translation, filter))?;
            hit.map(|h| RayHit::new(world, h.shape_id, h.point, h.normal, h.fraction)).transpose()
        };
        /// Every shape the ray from `origin` along `translation` hits, nearest
        /// first.
        cast_ray_all -> Vec<RayHit> = |world, origin, translation, filter| {
            let mut hits: Vec<(ShapeId, Vec2, Vec2, f32)> = Vec::new();
            ok(world.try_borrow()?.inner.cast_ray(origin, translation, filter, |id, p, n, f| {
                hits.push((id, p, n, f));
                1.0
            }))?;
            hits.sort_by(|a, b| a.3.total_cmp(&b.3).then(a.0.cmp(&b.0)));
            hits.into_iter().map(|(id, p, n, f)| RayHit::new(world, id, p, n, f)).collect()
        };
    }
    arrays {
        /// Positions of the bodies' origins: float32 array of shape (n, 2), metres.
        positions: 2 = |b, out| out.extend_from_slice(&[b.position().x, b.position().y]);
        /// Angles of the bodies: float32 array of shape (n,), radians in [-pi, pi].
        angles: 0 = |b, out| out.push(b.rotation().angle());
        /// Linear velocities of the bodies' centres of mass: float32 array of
        /// shape (n, 2), m/s.
        velocities: 2 = |b, out| out.extend_from_slice(&[b.linear_velocity().x, b.linear_velocity().y]);
        /// Angular velocities of the bodies: float32 array of shape (n,), rad/s.
        angular_velocities: 0 = |b, out| out.push(b.angular_velocity());
    }
    array_setters {
        /// Teleports the bodies to `positions` (array-like of shape (n, 2),
        /// metres), keeping their angles. Shapes and values are checked (and
        /// every handle) before any body moves.
        set_positions(positions): 2, "positions" = |w, ids, v| teleport(w, ids, |b, i| (Vec2::new(v[2 * i], v[2 * i + 1]), b.rotation()));
        /// Turns the bodies to `angles` (array-like of shape (n,), radians),
        /// keeping their positions.
        set_angles(angles): 0, "angles" = |w, ids, v| teleport(w, ids, |b, i| (b.position(), Rot::from_angle(v[i])));
        /// Sets the bodies' linear velocities (array-like of shape (n, 2), m/s).
        /// Static bodies in the list raise `ValueError` before anything changes.
        set_velocities(velocities): 2, "velocities" = |w, ids, v| set_each_movable(w, ids, |b, i| b.set_linear_velocity(Vec2::new(v[2 * i], v[2 * i + 1])));
        /// Sets the bodies' angular velocities (array-like of shape (n,), rad/s).
        set_angular_velocities(velocities): 0, "angular velocities" = |w, ids, v| set_each_movable(w, ids, |b, i| b.set_angular_velocity(v[i]));
    }

    /// Creates a world.
    ///
    /// gravity: m/s². workers: threads that run a step (1 to 64; results are the
    /// same bits for every count). The other settings are Box2D's world
    /// definition: contact_hertz (Hz), contact_damping_ratio, contact_speed
    /// (m/s, how fast overlap is pushed out), joint_hertz (Hz),
    /// joint_damping_ratio, restitution_threshold (m/s), hit_event_threshold
    /// (m/s), maximum_linear_speed (m/s), enable_sleep, enable_continuous.
    #[new]
    #[pyo3(
        text_signature = "(gravity=(0.0, -10.0), workers=1, *, enable_sleep=True, enable_continuous=True, contact_hertz=30.0, contact_damping_ratio=10.0, contact_speed=3.0, joint_hertz=60.0, joint_damping_ratio=2.0, restitution_threshold=1.0, hit_event_threshold=1.0, maximum_linear_speed=400.0)"
    )]
    #[pyo3(signature = (
        gravity = V2(Vec2::new(0.0, -10.0)),
        workers = 1,
        *,
        enable_sleep = true,
        enable_continuous = true,
        contact_hertz = 30.0,
        contact_damping_ratio = 10.0,
        contact_speed = 3.0,
        joint_hertz = 60.0,
        joint_damping_ratio = 2.0,
        restitution_threshold = 1.0,
        hit_event_threshold = 1.0,
        maximum_linear_speed = 400.0,
    ))]
    fn new(
        gravity: V2,
        workers: usize,
        enable_sleep: bool,
        enable_continuous: bool,
        contact_hertz: f32,
        contact_damping_ratio: f32,
        contact_speed: f32,
        joint_hertz: f32,
        joint_damping_ratio: f32,
        restitution_threshold: f32,
        hit_event_threshold: f32,
        maximum_linear_speed: f32,
    ) -> PyResult<Self> {
        let def = WorldDef {
            gravity: gravity.0,
            worker_count: workers,
            enable_sleep,
            enable_continuous,
            contact_hertz,
            contact_damping_ratio,
            contact_push_max_velocity: contact_speed,
            joint_hertz,
            joint_damping_ratio,
            restitution_threshold,
            hit_event_threshold,
            maximum_linear_speed,
            ..WorldDef::default()
        };
        Ok(World::wrap(ok(impulse2d::World::new(&def))?))
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Ok(map) = self.user_data.try_lock() {
            for v in map.values() {
                visit.call(v)?;
            }
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        if let Ok(mut map) = self.user_data.lock() {
            map.clear();
        }
    }

    /// Advances the world by `dt` seconds in `substeps` substeps (Box2D
    /// recommends 4). The GIL is released while the step runs. Events of the
    /// step are read afterwards (`contact_begin_events()`, ...).
    #[pyo3(signature = (dt = 1.0 / 60.0, substeps = 4))]
    fn step(&mut self, py: Python<'_>, dt: f32, substeps: u32) -> PyResult<()> {
        let inner = &mut self.inner;
        ok(py.detach(|| inner.step(dt, substeps)))?;
        // Joints the step destroyed lose their user data.
        let broken: Vec<Key> = self
            .inner
            .joint_events()
            .iter()
            .filter(|e| e.kind != JointEventKind::ThresholdExceeded)
            .map(|e| (Kind::Joint, e.joint_id.index(), e.joint_id.generation()))
            .collect();
        for key in broken {
            self.set_user_data(key, None);
        }
        Ok(())
    }

    /// The whole world as bytes (versioned, checksummed). `user_data` is not
    /// included.
    fn snapshot<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.snapshot().to_bytes())
    }

    /// Puts the world back to a snapshot. Corrupt bytes raise `ValueError` and
    /// leave the world unchanged. Handles keep naming the same ids.
    fn restore(&mut self, data: &[u8]) -> PyResult<()> {
        let snap = ok(Snapshot::from_bytes(data))?;
        ok(self.inner.restore(&snap))
    }

    /// A new world from snapshot bytes.
    #[staticmethod]
    #[pyo3(signature = (data, workers = 1))]
    fn from_snapshot(data: &[u8], workers: usize) -> PyResult<World> {
        let snap = ok(Snapshot::from_bytes(data))?;
        Ok(World::wrap(ok(impulse2d::World::from_snapshot(
            &snap, workers,
        ))?))
    }

    /// Pickling (and `copy.deepcopy`) goes through a snapshot: the copy has
    /// the same bodies, ids and state bits; `user_data` is not carried.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduce<'py>> {
        let w = slf.try_borrow()?;
        let data = PyBytes::new(slf.py(), &w.inner.snapshot().to_bytes());
        let make = slf.get_type().getattr("from_snapshot")?;
        Ok((make, (data, w.inner.worker_count())))
    }

    /// Creates a body. type: "static", "kinematic" or "dynamic"; position (m);
    /// angle (rad); linear_velocity (m/s); angular_velocity (rad/s);
    /// linear_damping, angular_damping (1/s); gravity_scale; bullet (swept
    /// against other moving bodies); fixed_rotation; awake; enable_sleep;
    /// enabled; user_data (any Python object). A body has no mass until
    /// shapes are added.
    #[pyo3(
        text_signature = "($self, type='dynamic', position=(0.0, 0.0), angle=0.0, *, linear_velocity=(0.0, 0.0), angular_velocity=0.0, linear_damping=0.0, angular_damping=0.0, gravity_scale=1.0, bullet=False, fixed_rotation=False, awake=True, enable_sleep=True, enabled=True, allow_fast_rotation=False, name=None, user_data=None)"
    )]
    #[pyo3(signature = (
        r#type = "dynamic",
        position = V2(Vec2::ZERO),
        angle = 0.0,
        *,
        linear_velocity = V2(Vec2::ZERO),
        angular_velocity = 0.0,
        linear_damping = 0.0,
        angular_damping = 0.0,
        gravity_scale = 1.0,
        bullet = false,
        fixed_rotation = false,
        awake = true,
        enable_sleep = true,
        enabled = true,
        allow_fast_rotation = false,
        name = None,
        user_data = None,
    ))]
    fn create_body(
        slf: &Bound<'_, Self>,
        r#type: &str,
        position: V2,
        angle: f32,
        linear_velocity: V2,
        angular_velocity: f32,
        linear_damping: f32,
        angular_damping: f32,
        gravity_scale: f32,
        bullet: bool,
        fixed_rotation: bool,
        awake: bool,
        enable_sleep: bool,
        enabled: bool,
        allow_fast_rotation: bool,
        name: Option<&str>,
        user_data: Option<Py<PyAny>>,
    ) -> PyResult<Py<Body>> {
        let py = slf.py();
        let def = BodyDef {
            body_type: body_type(r#type)?,
            position: position.0,
            rotation: Rot::from_angle(finite(angle, "angle")?),
            linear_velocity: linear_velocity.0,
            angular_velocity,
            linear_damping,
            angular_damping,
            gravity_scale,
            is_bullet: bullet,
            motion_locks: MotionLocks {
                angular_z: fixed_rotation,
                ..MotionLocks::default()
            },
            is_awake: awake,
            enable_sleep,
            is_enabled: enabled,
            allow_fast_rotation,
            ..BodyDef::default()
        };
        let mut w = slf.try_borrow_mut()?;
        let id = ok(w.inner.create_body(&def))?;
        if let Some(name) = name {
            ok(w.inner.body_mut(id))?.set_name(name);
        }
        w.set_user_data((Kind::Body, id.index(), id.generation()), user_data);
        drop(w);
        Body::handle(py, &slf.clone().unbind(), id)
    }

    /// Destroys a body with its shapes, chains and joints (same as
    /// `body.destroy()`). A stale handle raises `StaleHandleError`.
    fn destroy_body(&mut self, body: PyRef<'_, Body>) -> PyResult<()> {
        self.forget_body(body.id);
        ok(self.inner.destroy_body(body.id))
    }

    /// Every body, in id order.
    fn bodies(slf: &Bound<'_, Self>) -> PyResult<Vec<Py<Body>>> {
        let py = slf.py();
        let world = slf.clone().unbind();
        let ids: Vec<BodyId> = slf.try_borrow()?.inner.body_ids().collect();
        ids.into_iter()
            .map(|id| Body::handle(py, &world, id))
            .collect()
    }

    /// Casts a ray from `origin` along `translation` (metres) and calls
    /// `callback(shape, point, normal, fraction)` for the shapes it hits, in
    /// no particular order. The callback returns a float, as Box2D's
    /// b2CastResultFcn: -1 ignores this shape, 0 stops the cast, a fraction
    /// in (0, 1) clips the ray there, 1 goes on unclipped. An exception in the
    /// callback stops the cast and is raised.
    #[pyo3(signature = (origin, translation, callback, *, category_bits = 1, mask_bits = u64::MAX))]
    fn cast_ray(
        slf: &Bound<'_, Self>,
        origin: V2,
        translation: V2,
        callback: &Bound<'_, PyAny>,
        category_bits: u64,
        mask_bits: u64,
    ) -> PyResult<()> {
        let filter = query_filter(category_bits, mask_bits);
        CastCallback::run(slf, callback, "ray", |w, hit| {
            w.cast_ray(origin.0, translation.0, filter, hit)
        })
    }

    /// Sweeps the convex shape with the local vertices `points` (metres, at
    /// most 8; one point and a radius is a circle, two a capsule) rounded by
    /// `radius`, placed at `position` turned by `angle` (radians), along
    /// `translation` (metres), and calls `callback(shape, point, normal,
    /// fraction)` for the shapes it hits: `point` on the hit shape's surface,
    /// `normal` that surface's normal, `fraction` of `translation` travelled.
    /// The callback answers as `cast_ray`'s (-1 ignore, 0 stop, a fraction
    /// clips, 1 go on); an exception in it stops the cast and is raised.
    #[pyo3(
        text_signature = "($self, points, translation, callback, radius=0.0, position=(0.0, 0.0), angle=0.0, *, category_bits=1, mask_bits=2**64-1)"
    )]
    #[pyo3(signature = (points, translation, callback, radius = 0.0, position = V2(Vec2::ZERO), angle = 0.0, *, category_bits = 1, mask_bits = u64::MAX))]
    #[allow(clippy::too_many_arguments)]
    fn cast_shape(
        slf: &Bound<'_, Self>,
        points: &Bound<'_, PyAny>,
        translation: V2,
        callback: &Bound<'_, PyAny>,
        radius: f32,
        position: V2,
        angle: f32,
        category_bits: u64,
        mask_bits: u64,
    ) -> PyResult<()> {
        let pts = crate::convert::points(points)?;
        let proxy = ok(make_proxy(&pts, radius))?;
        let xf = Transform::new(position.0, Rot::from_angle(finite(angle, "angle")?));
        let filter = query_filter(category_bits, mask_bits);
        CastCallback::run(slf, callback, "shape cast", |w, hit| {
            w.cast_shape(&proxy, xf, translation.0, filter, hit)
        })
    }

    /// The shapes whose bounding box overlaps the box from `lower` to `upper`
    /// (metres; touching counts), in the broad phase's order.
    #[pyo3(signature = (lower, upper, *, category_bits = 1, mask_bits = u64::MAX))]
    fn overlap_aabb(
        slf: &Bound<'_, Self>,
        lower: V2,
        upper: V2,
        category_bits: u64,
        mask_bits: u64,
    ) -> PyResult<Vec<Py<Shape>>> {
        let aabb = Aabb {
            lower: lower.0,
            upper: upper.0,
        };
        let filter = query_filter(category_bits, mask_bits);
        overlapping(slf, |w, found| w.overlap_aabb(aabb, filter, found))
    }

    /// The shapes overlapping the convex hull of `points` (1 to 8, metres,
    /// in the query's frame) rounded by `radius`, placed at `position` turned
    /// by `angle`. One point and a radius is a circle, two a capsule.
    #[pyo3(
        text_signature = "($self, points, radius=0.0, position=(0.0, 0.0), angle=0.0, *, category_bits=1, mask_bits=2**64-1)"
    )]
    #[pyo3(signature = (points, radius = 0.0, position = V2(Vec2::ZERO), angle = 0.0, *, category_bits = 1, mask_bits = u64::MAX))]
    fn overlap_shape(
        slf: &Bound<'_, Self>,
        points: &Bound<'_, PyAny>,
        radius: f32,
        position: V2,
        angle: f32,
        category_bits: u64,
        mask_bits: u64,
    ) -> PyResult<Vec<Py<Shape>>> {
        let pts = crate::convert::points(points)?;
        let proxy = ok(make_proxy(&pts, radius))?;
        let xf = Transform::new(position.0, Rot::from_angle(finite(angle, "angle")?));
        let filter = query_filter(category_bits, mask_bits);
        overlapping(slf, |w, found| w.overlap_shape(&proxy, xf, filter, found))
    }

    /// Pushes bodies away from `position` (m): shapes within `radius` (m) get
    /// `impulse_per_length` (N·s/m) times their exposed perimeter, fading to
    /// zero over a further `falloff` (m). Only shapes whose category is in
    /// `mask_bits` are pushed.
    #[pyo3(signature = (position, radius, impulse_per_length, falloff = 0.0, *, mask_bits = u64::MAX))]
    fn explode(
        &mut self,
        position: V2,
        radius: f32,
        impulse_per_length: f32,
        falloff: f32,
        mask_bits: u64,
    ) -> PyResult<()> {
        ok(self.inner.explode(&ExplosionDef {
            position: position.0,
            radius,
            falloff,
            impulse_per_length,
            mask_bits,
        }))
    }

    /// Destroys a joint (same as `joint.destroy()`).
    fn destroy_joint(&mut self, joint: &Bound<'_, Joint>) -> PyResult<()> {
        let id = joint.get().id;
        self.set_user_data((Kind::Joint, id.index(), id.generation()), None);
        ok(self.inner.destroy_joint(id))
    }

    fn __repr__(&self) -> String {
        let g = self.inner.gravity();
        format!(
            "World(gravity=({}, {}), workers={}, step_count={})",
            g.x,
            g.y,
            self.inner.worker_count(),
            self.inner.step_count()
        )
    }
}

/// `query` of the world's handle and a ray query's arguments.
fn ray_query<T>(
    world: &Bound<'_, World>,
    origin: Vec2,
    translation: Vec2,
    filter: QueryFilter,
    query: impl FnOnce(&Bound<'_, World>, Vec2, Vec2, QueryFilter) -> PyResult<T>,
) -> PyResult<T> {
    query(world, origin, translation, filter)
}

/// A float32 array of `width` values per body (0: one value, shape `(n,)`)
/// that `read` appends for each of `bodies`.
fn body_array<'py>(
    world: &Bound<'py, World>,
    bodies: &Bound<'py, PyAny>,
    width: usize,
    read: impl Fn(impulse2d::BodyRef<'_>, &mut Vec<f32>),
) -> PyResult<Bound<'py, PyAny>> {
    let ids = body_ids(world, bodies)?;
    let w = world.try_borrow()?;
    let mut out = Vec::with_capacity(ids.len() * width.max(1));
    for id in ids {
        read(ok(w.inner.body(id))?, &mut out);
    }
    make_array(world.py(), &out, width)
}

/// Reads the array-like `values` (`width` floats per body of `bodies`; 0:
/// one, shape `(n,)`; `what` names it in errors) and calls `set` with the
/// world, the body ids and the floats once the handles and the array are
/// checked.
fn set_body_array(
    world: &Bound<'_, World>,
    bodies: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
    width: usize,
    what: &str,
    set: impl FnOnce(&mut impulse2d::World, &[BodyId], &[f32]) -> PyResult<()>,
) -> PyResult<()> {
    let ids = body_ids(world, bodies)?;
    let values = read_array(world.py(), values, ids.len(), width, what)?;
    set(&mut world.try_borrow_mut()?.inner, &ids, &values)
}

/// Teleports the bodies `ids` to the poses `pose` makes from each one's view
/// and index; every handle is checked before any body moves.
fn teleport(
    world: &mut impulse2d::World,
    ids: &[BodyId],
    pose: impl Fn(impulse2d::BodyRef<'_>, usize) -> (Vec2, Rot),
) -> PyResult<()> {
    let poses = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| ok(world.body(id)).map(|b| pose(b, i)))
        .collect::<PyResult<Vec<(Vec2, Rot)>>>()?;
    for (&id, (p, q)) in ids.iter().zip(poses) {
        ok(ok(world.body_mut(id))?.set_transform(p, q))?;
    }
    Ok(())
}

/// Changes each of the bodies `ids` with `set` (given its index), once they
/// are checked to be valid and not static.
fn set_each_movable(
    world: &mut impulse2d::World,
    ids: &[BodyId],
    set: impl Fn(&mut impulse2d::BodyMut<'_>, usize) -> impulse2d::Result<()>,
) -> PyResult<()> {
    check_movable(world, ids)?;
    for (i, &id) in ids.iter().enumerate() {
        ok(set(&mut ok(world.body_mut(id))?, i))?;
    }
    Ok(())
}

/// Every id valid and no static body among them (velocity setters), checked
/// before any body changes.
fn check_movable(world: &impulse2d::World, ids: &[BodyId]) -> PyResult<()> {
    for &id in ids {
        if ok(world.body(id))?.body_type() == impulse2d::BodyType::Static {
            return Err(PyValueError::new_err("a static body has no velocity"));
        }
    }
    Ok(())
}

/// Declares the record classes: frozen, every field a read-only attribute.
macro_rules! records {
    ($( $(#[doc = $doc:tt])* $name:ident { $($field:ident: $ty:ty),* } )*) => {
        $(
            $(#[doc = $doc])*
            #[pyclass(module = "impulse2d._impulse2d", frozen, get_all)]
            pub struct $name {
                $($field: $ty),*
            }
        )*
    };
}

records! {
    /// One ray hit: the shape, the point (m), the surface normal there and the
    /// fraction of the translation at which it was hit.
    RayHit { shape: Py<Shape>, point: (f32, f32), normal: (f32, f32), fraction: f32 }
    /// Two shapes started touching: `normal` points from shape_a to shape_b;
    /// `points` are the manifold's contact points (m).
    ContactBeginEvent { shape_a: Py<Shape>, shape_b: Py<Shape>, normal: (f32, f32), points: Vec<(f32, f32)> }
    /// A touching contact: `normal` points from shape_a to shape_b; `points`
    /// are the contact points (m, world) and `normal_impulses` the solver's
    /// accumulated normal impulse at each in the last step (N·s).
    ContactData { shape_a: Py<Shape>, shape_b: Py<Shape>, normal: (f32, f32), points: Vec<(f32, f32)>, normal_impulses: Vec<f32> }
    /// Two shapes stopped touching.
    ContactEndEvent { shape_a: Py<Shape>, shape_b: Py<Shape> }
    /// Two shapes hit each other faster than the hit-event threshold: contact
    /// point (m), normal (from a to b) and approach speed (m/s).
    ContactHitEvent { shape_a: Py<Shape>, shape_b: Py<Shape>, point: (f32, f32), normal: (f32, f32), approach_speed: f32 }
    /// A shape (`visitor`) began overlapping a sensor shape.
    SensorBeginEvent { sensor: Py<Shape>, visitor: Py<Shape> }
    /// A shape (`visitor`) stopped overlapping a sensor shape.
    SensorEndEvent { sensor: Py<Shape>, visitor: Py<Shape> }
    /// A joint's reaction passed its threshold (`kind` "threshold_exceeded"), or
    /// the joint was destroyed ("broken", "body_destroyed"). force (N), torque
    /// (N·m).
    JointEvent { joint: Py<Joint>, kind: &'static str, joint_type: &'static str, force: f32, torque: f32 }
    /// A body the step moved: new origin position (m), angle (rad), and whether
    /// it fell asleep in this step.
    BodyMoveEvent { body: Py<Body>, position: (f32, f32), angle: f32, fell_asleep: bool }
}

impl RayHit {
    /// A hit of the shape `id` of `world`.
    fn new(
        world: &Bound<'_, World>,
        id: ShapeId,
        point: Vec2,
        normal: Vec2,
        fraction: f32,
    ) -> PyResult<Self> {
        Ok(RayHit {
            shape: Shape::handle(world.py(), world.as_unbound(), id)?,
            point: tup(point),
            normal: tup(normal),
            fraction,
        })
    }
}

#[pymethods]
impl RayHit {
    fn __repr__(&self) -> String {
        format!(
            "RayHit(point={:?}, normal={:?}, fraction={})",
            self.point, self.normal, self.fraction
        )
    }
}

/// Python contact records from the engine's.
pub(crate) fn contact_list(
    py: Python<'_>,
    world: &Py<World>,
    contacts: Vec<impulse2d::ContactData>,
) -> PyResult<Vec<ContactData>> {
    contacts
        .into_iter()
        .map(|c| {
            Ok(ContactData {
                shape_a: Shape::handle(py, world, c.shape_id_a)?,
                shape_b: Shape::handle(py, world, c.shape_id_b)?,
                normal: tup(c.manifold.normal),
                points: c.manifold.points().iter().map(|p| tup(p.point)).collect(),
                normal_impulses: c
                    .manifold
                    .points()
                    .iter()
                    .map(|p| p.normal_impulse)
                    .collect(),
            })
        })
        .collect()
}
