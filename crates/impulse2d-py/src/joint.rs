//! `Joint`: one handle class for every joint type, and joint creation from
//! keyword arguments.
use impulse2d::{
    DistanceJointDef, FilterJointDef, JointDef, JointRef, JointType, MotorJointDef, MouseJointDef,
    MoverJointDef, PogoJointDef, PrismaticJointDef, RevoluteJointDef, WeldJointDef, WheelJointDef,
};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::body::Body;
use crate::convert::{V2, set_fields, tup};
use crate::handle::{self, handle_impl, handle_methods};
use crate::ok;
use crate::world::{Kind, World};

/// The name of a joint type.
pub(crate) fn type_name(t: JointType) -> &'static str {
    match t {
        JointType::Distance => "distance",
        JointType::Filter => "filter",
        JointType::Motor => "motor",
        JointType::Mouse => "mouse",
        JointType::Mover => "mover",
        JointType::Pogo => "pogo",
        JointType::Prismatic => "prismatic",
        JointType::Revolute => "revolute",
        JointType::Weld => "weld",
        JointType::Wheel => "wheel",
    }
}

/// Sets a common joint field; false if `key` is not one.
fn set_base(base: &mut JointDef, key: &str, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(match key {
        "constraint_hertz" => {
            base.constraint_hertz = value.extract()?;
            true
        }
        "constraint_damping_ratio" => {
            base.constraint_damping_ratio = value.extract()?;
            true
        }
        _ => set_fields!(key, value;
            "collide_connected" => base.collide_connected,
            "force_threshold" => base.force_threshold,
            "torque_threshold" => base.torque_threshold,
            "break_on_threshold" => base.break_on_threshold;
            vec: "local_anchor_a" => base.local_anchor_a,
                 "local_anchor_b" => base.local_anchor_b),
    })
}

/// Creates a joint of type `kind` between two bodies from keyword options
/// (the fields of the matching Box2D definition, in snake case).
pub(crate) fn create_joint(
    world: &Bound<'_, World>,
    kind: JointType,
    body_a: &Bound<'_, Body>,
    body_b: &Bound<'_, Body>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<Joint>> {
    let py = world.py();
    let mut base = JointDef {
        body_a: body_a.get().id,
        body_b: body_b.get().id,
        ..JointDef::default()
    };
    let mut user_data: Option<Py<PyAny>> = None;
    let mut rest: Vec<(String, Bound<'_, PyAny>)> = Vec::new();
    if let Some(options) = options {
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            if key == "user_data" {
                user_data = Some(value.unbind());
            } else if !set_base(&mut base, &key, &value)? {
                rest.push((key, value));
            }
        }
    }
    macro_rules! build {
        // The motor, limit and spring switches and the spring's and motor's
        // numbers that the revolute, prismatic, wheel and distance joints share.
        ($def:ty, $create:ident, parts; $($rest:tt)*) => {
            build!($def, $create;
                "enable_spring" => enable_spring, "hertz" => hertz,
                "damping_ratio" => damping_ratio, "enable_limit" => enable_limit,
                "enable_motor" => enable_motor, "motor_speed" => motor_speed, $($rest)*)
        };
        ($def:ty, $create:ident; $( $name:literal => $field:ident ),* ; vec: $( $vname:literal => $vfield:ident ),*) => {{
            let mut def = <$def>::default();
            def.base = base;
            #[allow(unused_variables)]
            for (key, value) in &rest {
                let known = set_fields!(key.as_str(), value;
                    $( $name => def.$field ),* ;
                    vec: $( $vname => def.$vfield ),*);
                if !known {
                    return Err(PyTypeError::new_err(format!(
                        "unknown {} joint option {key:?}", type_name(kind)
                    )));
                }
            }
            let mut w = world.try_borrow_mut()?;
            let id = ok(w.inner.$create(&def))?;
            w.set_user_data((Kind::Joint, id.index(), id.generation()), user_data);
            id
        }};
    }
    let id = match kind {
        JointType::Distance => build!(DistanceJointDef, create_distance_joint, parts;
            "length" => length, "lower_spring_force" => lower_spring_force,
            "upper_spring_force" => upper_spring_force, "min_length" => min_length,
            "max_length" => max_length, "max_motor_force" => max_motor_force; vec:),
        JointType::Filter => build!(FilterJointDef, create_filter_joint; ; vec:),
        JointType::Motor => build!(MotorJointDef, create_motor_joint;
            "angular_offset" => angular_offset, "max_force" => max_force,
            "max_torque" => max_torque, "correction_factor" => correction_factor,
            "max_velocity_force" => max_velocity_force, "angular_velocity" => angular_velocity,
            "max_velocity_torque" => max_velocity_torque, "linear_hertz" => linear_hertz,
            "linear_damping_ratio" => linear_damping_ratio, "max_spring_force" => max_spring_force,
            "angular_hertz" => angular_hertz, "angular_damping_ratio" => angular_damping_ratio,
            "max_spring_torque" => max_spring_torque;
            vec: "linear_offset" => linear_offset, "linear_velocity" => linear_velocity),
        JointType::Mouse => build!(MouseJointDef, create_mouse_joint;
            "hertz" => hertz, "damping_ratio" => damping_ratio, "max_force" => max_force;
            vec: "target" => target),
        JointType::Mover => build!(MoverJointDef, create_mover_joint; ;
            vec: "linear_velocity" => linear_velocity, "max_velocity_force" => max_velocity_force),
        JointType::Pogo => build!(PogoJointDef, create_pogo_joint;
            "hertz" => hertz, "damping_ratio" => damping_ratio, "rest_length" => rest_length,
            "max_tension_force" => max_tension_force,
            "max_compression_force" => max_compression_force,
            "impulse" => impulse, "velocity" => velocity;
            vec: "normal" => normal),
        JointType::Prismatic => build!(PrismaticJointDef, create_prismatic_joint, parts;
            "reference_angle" => reference_angle, "target_translation" => target_translation,
            "lower_translation" => lower_translation, "upper_translation" => upper_translation,
            "max_motor_force" => max_motor_force;
            vec: "local_axis_a" => local_axis_a),
        JointType::Revolute => build!(RevoluteJointDef, create_revolute_joint, parts;
            "reference_angle" => reference_angle, "target_angle" => target_angle,
            "lower_angle" => lower_angle, "upper_angle" => upper_angle,
            "max_motor_torque" => max_motor_torque; vec:),
        JointType::Weld => build!(WeldJointDef, create_weld_joint;
            "reference_angle" => reference_angle, "linear_hertz" => linear_hertz,
            "linear_damping_ratio" => linear_damping_ratio, "angular_hertz" => angular_hertz,
            "angular_damping_ratio" => angular_damping_ratio; vec:),
        JointType::Wheel => build!(WheelJointDef, create_wheel_joint, parts;
            "lower_translation" => lower_translation, "upper_translation" => upper_translation,
            "max_motor_torque" => max_motor_torque; vec: "local_axis_a" => local_axis_a),
    };
    Joint::handle(py, world.as_unbound(), id)
}

handle_impl! {
    /// A handle to a joint of any type. Compares and hashes by id; raises
    /// `StaleHandleError` once the joint is destroyed, and `TypeError` for a
    /// property its type does not have.
    Joint(JointId): Joint, joint, joint_mut, JointRef, JointMut
}

impl Joint {
    /// Runs a fallible `f` (a part the joint's type may lack) on the read view.
    fn try_read<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(JointRef<'_>) -> impulse2d::Result<T>,
    ) -> PyResult<T> {
        ok(self.read(py, f)?)
    }

    fn kind(&self, py: Python<'_>) -> PyResult<JointType> {
        self.read(py, |j| j.joint_type())
    }

    /// A property `what` that some joint types have: `get` answers None for
    /// the others, which raise `TypeError`.
    fn typed<T>(
        &self,
        py: Python<'_>,
        (what, get): (
            &str,
            impl FnOnce(JointRef<'_>) -> impulse2d::Result<Option<T>>,
        ),
    ) -> PyResult<T> {
        let t = self.kind(py)?;
        self.try_read(py, get)?.ok_or_else(|| no_such(t, what))
    }
}

/// `j.part()?.call` with the part that the joint's type has: the part listed
/// for its type, else the last (which fails with `WrongJointType` if the
/// joint lacks it too).
macro_rules! part_of {
    ($j:ident { $($t:ident => $part:ident,)* _ => $default:ident }.$call:ident $args:tt) => {
        match $j.joint_type() {
            $(JointType::$t => $j.$part()?.$call $args,)*
            _ => $j.$default()?.$call $args,
        }
    };
}

/// The error for a property the joint's type does not have.
fn no_such(t: JointType, what: &str) -> PyErr {
    PyTypeError::new_err(format!("a {} joint has no {what}", type_name(t)))
}

handle_methods! {
    Joint;
    /// (slot index, generation).
    id;
    /// Whether the joint still exists.
    is_valid;
    /// Any Python object kept with the joint.
    user_data;
    views {
        /// The joint type: "distance", "filter", "motor", "mouse", "mover",
        /// "pogo", "prismatic", "revolute", "weld" or "wheel".
        #[getter] read get_type() -> &'static str = |j| type_name(j.joint_type());
        /// The first body.
        #[getter] body_of body_a() -> Py<Body> = |j| j.body_a();
        /// The second body.
        #[getter] body_of body_b() -> Py<Body> = |j| j.body_b();
        /// Anchor on body A in its frame, m.
        #[getter] read local_anchor_a() -> (f32, f32) = |j| tup(j.local_anchor_a());
        /// Anchor on body B in its frame, m.
        #[getter] read local_anchor_b() -> (f32, f32) = |j| tup(j.local_anchor_b());
        /// Whether the two bodies collide with each other.
        #[getter] read collide_connected() -> bool = |j| j.collide_connected();
        #[setter] update set_collide_connected(value: bool) -> () = |mut j| j.set_collide_connected(value);
        /// Reaction force of the last step on body B, N.
        #[getter] read constraint_force() -> (f32, f32) = |j| tup(j.constraint_force());
        /// Reaction torque of the last step on body B, N·m.
        #[getter] read constraint_torque() -> f32 = |j| j.constraint_torque();
        /// How far the joint's position constraint is violated, m.
        #[getter] read linear_separation() -> f32 = |j| j.linear_separation();
        /// How far the joint's angular constraint is violated, rad.
        #[getter] read angular_separation() -> f32 = |j| j.angular_separation();
        /// Reaction force above which a joint event is reported (or the joint
        /// breaks, with break_on_threshold), N.
        #[getter] read force_threshold() -> f32 = |j| j.force_threshold();
        #[setter] write set_force_threshold(value: f32) -> () = |mut j| j.set_force_threshold(value);
        /// Reaction torque threshold, N·m.
        #[getter] read torque_threshold() -> f32 = |j| j.torque_threshold();
        #[setter] write set_torque_threshold(value: f32) -> () = |mut j| j.set_torque_threshold(value);
        /// Whether passing a threshold destroys the joint.
        #[getter] read break_on_threshold() -> bool = |j| j.break_on_threshold();
        #[setter] update set_break_on_threshold(value: bool) -> () = |mut j| j.set_break_on_threshold(value);

        // --- motor (revolute, prismatic, wheel, distance) ---

        /// Whether the motor is on (revolute, prismatic, wheel, distance).
        #[getter] try_read motor_enabled() -> bool = |j| Ok(j.motor()?.is_enabled());
        #[setter] write set_motor_enabled(value: bool) -> () = |j| { j.motor()?.enable(value); Ok(()) };
        /// Motor speed: rad/s (revolute, wheel) or m/s (prismatic, distance).
        #[getter] try_read motor_speed() -> f32 = |j| Ok(j.motor()?.speed());
        #[setter] write set_motor_speed(value: f32) -> () = |j| j.motor()?.set_speed(value);
        /// Largest motor torque (N·m; revolute, wheel) or force (N; prismatic,
        /// distance).
        #[getter] try_read max_motor_force() -> f32 = |j| Ok(j.motor()?.max_force());
        #[setter] write set_max_motor_force(value: f32) -> () = |j| j.motor()?.set_max_force(value);
        /// Motor torque (N·m) or force (N) of the last step.
        #[getter] try_read motor_force() -> f32 = |j| Ok(j.motor()?.force());

        // --- limit (revolute, prismatic, wheel, distance) ---

        /// Whether the limit is on (revolute, prismatic, wheel, distance).
        #[getter] try_read limit_enabled() -> bool = |j| Ok(j.limit()?.is_enabled());
        #[setter] write set_limit_enabled(value: bool) -> () = |j| { j.limit()?.enable(value); Ok(()) };
        /// (lower, upper) limit: rad (revolute), m (prismatic, wheel, distance
        /// length range).
        #[getter] try_read limits() -> (f32, f32) = |j| j.limit().map(|l| (l.lower(), l.upper()));
        #[setter] write set_limits(value: (f32, f32)) -> () = |j| j.limit()?.set_range(value.0, value.1);

        // --- spring (revolute, prismatic, wheel, distance; mouse, pogo) ---

        /// Whether the spring is on (revolute, prismatic, wheel, distance).
        #[getter] try_read spring_enabled() -> bool = |j| Ok(j.spring()?.is_enabled());
        #[setter] write set_spring_enabled(value: bool) -> () = |j| { j.spring()?.enable(value); Ok(()) };
        /// Spring stiffness as a frequency, Hz (revolute, prismatic, wheel,
        /// distance, mouse, pogo).
        #[getter] try_read spring_hertz() -> f32 = |j| Ok(part_of!(j { Mouse => mouse, Pogo => pogo, _ => spring }.hertz()));
        #[setter] write set_spring_hertz(value: f32) -> () = |j| part_of!(j { Mouse => mouse, Pogo => pogo, _ => spring }.set_hertz(value));
        /// Spring damping ratio (dimensionless; 1 is critical).
        #[getter] try_read spring_damping_ratio() -> f32 = |j| Ok(part_of!(j { Mouse => mouse, Pogo => pogo, _ => spring }.damping_ratio()));
        #[setter] write set_spring_damping_ratio(value: f32) -> () = |j| part_of!(j { Mouse => mouse, Pogo => pogo, _ => spring }.set_damping_ratio(value));

        // --- typed parts ---

        /// Revolute: relative angle of body B to body A, rad.
        #[getter] try_read angle() -> f32 = |j| Ok(j.revolute()?.angle());
        /// Relative speed: rad/s (revolute), m/s (prismatic).
        #[getter] typed speed() -> f32 = ("speed", |j| Ok(match j.joint_type() {
            JointType::Revolute => Some(j.revolute()?.speed()),
            JointType::Prismatic => Some(j.prismatic()?.speed()),
            _ => None,
        }));
        /// Translation along the axis, m (prismatic, wheel).
        #[getter] typed translation() -> f32 = ("translation", |j| Ok(match j.joint_type() {
            JointType::Prismatic => Some(j.prismatic()?.translation()),
            JointType::Wheel => Some(j.wheel()?.translation()),
            _ => None,
        }));
        /// Revolute: the spring's target angle, rad.
        #[getter] try_read target_angle() -> f32 = |j| Ok(j.revolute()?.target_angle());
        #[setter] write set_target_angle(value: f32) -> () = |j| j.revolute()?.set_target_angle(value);
        /// Prismatic: the spring's target translation, m.
        #[getter] try_read target_translation() -> f32 = |j| Ok(j.prismatic()?.target_translation());
        #[setter] write set_target_translation(value: f32) -> () = |j| j.prismatic()?.set_target_translation(value);
        /// Distance: rest length, m.
        #[getter] try_read length() -> f32 = |j| Ok(j.distance()?.length());
        #[setter] write set_length(value: f32) -> () = |j| j.distance()?.set_length(value);
        /// Distance: current distance between the anchors, m.
        #[getter] try_read current_length() -> f32 = |j| Ok(j.distance()?.current_length());
        /// Distance: (lower, upper) spring force, N.
        #[getter] try_read spring_force_range() -> (f32, f32) = |j| Ok(j.distance()?.spring_force_range());
        #[setter] write set_spring_force_range(value: (f32, f32)) -> () = |j| j.distance()?.set_spring_force_range(value.0, value.1);
        /// Weld and motor joints: linear spring stiffness, Hz (0 = rigid).
        #[getter] try_read linear_hertz() -> f32 = |j| Ok(part_of!(j { Motor => motor_joint, _ => weld }.linear_hertz()));
        #[setter] write set_linear_hertz(value: f32) -> () = |j| part_of!(j { Motor => motor_joint, _ => weld }.set_linear_hertz(value));
        /// Weld and motor joints: linear damping ratio.
        #[getter] try_read linear_damping_ratio() -> f32 = |j| Ok(part_of!(j { Motor => motor_joint, _ => weld }.linear_damping_ratio()));
        #[setter] write set_linear_damping_ratio(value: f32) -> () = |j| part_of!(j { Motor => motor_joint, _ => weld }.set_linear_damping_ratio(value));
        /// Weld and motor joints: angular spring stiffness, Hz (0 = rigid).
        #[getter] try_read angular_hertz() -> f32 = |j| Ok(part_of!(j { Motor => motor_joint, _ => weld }.angular_hertz()));
        #[setter] write set_angular_hertz(value: f32) -> () = |j| part_of!(j { Motor => motor_joint, _ => weld }.set_angular_hertz(value));
        /// Weld and motor joints: angular damping ratio.
        #[getter] try_read angular_damping_ratio() -> f32 = |j| Ok(part_of!(j { Motor => motor_joint, _ => weld }.angular_damping_ratio()));
        #[setter] write set_angular_damping_ratio(value: f32) -> () = |j| part_of!(j { Motor => motor_joint, _ => weld }.set_angular_damping_ratio(value));
        /// Motor joint: target position of B relative to A, m.
        #[getter] try_read linear_offset() -> (f32, f32) = |j| Ok(tup(j.motor_joint()?.linear_offset()));
        #[setter] write set_linear_offset(value: V2) -> () = |j| j.motor_joint()?.set_linear_offset(value.0);
        /// Motor joint: target angle of B relative to A, rad.
        #[getter] try_read angular_offset() -> f32 = |j| Ok(j.motor_joint()?.angular_offset());
        #[setter] write set_angular_offset(value: f32) -> () = |j| j.motor_joint()?.set_angular_offset(value);
        /// Largest force, N (motor joint, mouse joint).
        #[getter] try_read max_force() -> f32 = |j| Ok(part_of!(j { Mouse => mouse, _ => motor_joint }.max_force()));
        #[setter] write set_max_force(value: f32) -> () = |j| part_of!(j { Mouse => mouse, _ => motor_joint }.set_max_force(value));
        /// Motor joint: largest torque, N·m.
        #[getter] try_read max_torque() -> f32 = |j| Ok(j.motor_joint()?.max_torque());
        #[setter] write set_max_torque(value: f32) -> () = |j| j.motor_joint()?.set_max_torque(value);
        /// Motor joint: position correction factor (0 to 1).
        #[getter] try_read correction_factor() -> f32 = |j| Ok(j.motor_joint()?.correction_factor());
        #[setter] write set_correction_factor(value: f32) -> () = |j| j.motor_joint()?.set_correction_factor(value);
        /// Target linear velocity, m/s (motor joint, mover joint).
        #[getter] try_read linear_velocity() -> (f32, f32) = |j| Ok(tup(part_of!(j { Mover => mover, _ => motor_joint }.linear_velocity())));
        #[setter] write set_linear_velocity(value: V2) -> () = |j| part_of!(j { Mover => mover, _ => motor_joint }.set_linear_velocity(value.0));
        /// Motor joint: target angular velocity, rad/s.
        #[getter] try_read angular_velocity() -> f32 = |j| Ok(j.motor_joint()?.angular_velocity());
        #[setter] write set_angular_velocity(value: f32) -> () = |j| j.motor_joint()?.set_angular_velocity(value);
        /// Motor joint: torque that drives the target angular velocity, N·m.
        #[getter] try_read max_velocity_torque() -> f32 = |j| Ok(j.motor_joint()?.max_velocity_torque());
        #[setter] write set_max_velocity_torque(value: f32) -> () = |j| j.motor_joint()?.set_max_velocity_torque(value);
        /// Motor joint: largest spring force, N.
        #[getter] try_read max_spring_force() -> f32 = |j| Ok(j.motor_joint()?.max_spring_force());
        #[setter] write set_max_spring_force(value: f32) -> () = |j| j.motor_joint()?.set_max_spring_force(value);
        /// Motor joint: largest spring torque, N·m.
        #[getter] try_read max_spring_torque() -> f32 = |j| Ok(j.motor_joint()?.max_spring_torque());
        #[setter] write set_max_spring_torque(value: f32) -> () = |j| j.motor_joint()?.set_max_spring_torque(value);
        /// Mouse joint: target point, m (world).
        #[getter] try_read target() -> (f32, f32) = |j| Ok(tup(j.mouse()?.target()));
        #[setter] write set_target(value: V2) -> () = |j| j.mouse()?.set_target(value.0);
        /// Pogo joint: rest length, m.
        #[getter] try_read rest_length() -> f32 = |j| Ok(j.pogo()?.rest_length());
        #[setter] write set_rest_length(value: f32) -> () = |j| j.pogo()?.set_rest_length(value);
        /// Pogo joint: (tension, compression) force limits, N.
        #[getter] try_read max_forces() -> (f32, f32) = |j| Ok(j.pogo()?.max_forces());
        #[setter] write set_max_forces(value: (f32, f32)) -> () = |j| j.pogo()?.set_max_forces(value.0, value.1);
    }
    calls {
        /// Both anchors in world coordinates, m.
        read world_anchors() -> ((f32, f32), (f32, f32)) = |j| {
            let (a, b) = j.world_anchors();
            (tup(a), tup(b))
        };
        /// Wakes both bodies.
        update wake_bodies() -> () = |mut j| j.wake_bodies();
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let detail = self.kind(py).map(|t| format!("type={:?}", type_name(t)));
        handle::repr(self, "Joint", detail)
    }

    /// Destroys the joint.
    fn destroy(&self, py: Python<'_>) -> PyResult<()> {
        handle::destroy(self, py, |w| w.destroy_joint(self.id))
    }

    /// Force that drives the target velocity, N: a float (motor joint) or a
    /// pair per axis (mover joint).
    #[getter]
    fn max_velocity_force(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.kind(py)? {
            JointType::Mover => self
                .try_read(py, |j| Ok(tup(j.mover()?.max_velocity_force())))?
                .into_py_any(py),
            _ => self
                .try_read(py, |j| Ok(j.motor_joint()?.max_velocity_force()))?
                .into_py_any(py),
        }
    }

    #[setter]
    fn set_max_velocity_force(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        match self.kind(py)? {
            JointType::Mover => {
                let v = value.extract::<V2>()?.0;
                self.write(py, |j| j.mover()?.set_max_velocity_force(v))
            }
            _ => {
                let v: f32 = value.extract()?;
                self.write(py, |j| j.motor_joint()?.set_max_velocity_force(v))
            }
        }
    }
}
