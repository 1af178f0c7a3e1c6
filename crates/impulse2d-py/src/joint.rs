//! `Joint`: one handle class for every joint type, and joint creation from
//! keyword arguments.
use impulse2d::{
    DistanceJointDef, FilterJointDef, JointDef, JointId, JointMut, JointRef, JointType,
    MotorJointDef, MouseJointDef, MoverJointDef, PogoJointDef, PrismaticJointDef, RevoluteJointDef,
    WeldJointDef, WheelJointDef,
};
use pyo3::exceptions::PyTypeError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyDict;
use pyo3::{IntoPyObjectExt, PyTraverseError};

use crate::body::{Body, handle_impl};
use crate::convert::{V2, tup};
use crate::handle::{self, Handle};
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

/// Sets the named field of a definition from a keyword value; false if the
/// name is not one of the listed fields.
macro_rules! set_fields {
    ($key:expr, $value:expr;
     $( $name:literal => $place:expr ),* ;
     vec: $( $vname:literal => $vplace:expr ),* ) => {
        match $key {
            $( $name => { $place = $value.extract()?; true } )*
            $( $vname => { $vplace = $value.extract::<V2>()?.0; true } )*
            _ => false,
        }
    };
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
        JointType::Distance => build!(DistanceJointDef, create_distance_joint;
            "length" => length, "enable_spring" => enable_spring,
            "lower_spring_force" => lower_spring_force, "upper_spring_force" => upper_spring_force,
            "hertz" => hertz, "damping_ratio" => damping_ratio, "enable_limit" => enable_limit,
            "min_length" => min_length, "max_length" => max_length, "enable_motor" => enable_motor,
            "motor_speed" => motor_speed, "max_motor_force" => max_motor_force; vec:),
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
        JointType::Prismatic => build!(PrismaticJointDef, create_prismatic_joint;
            "reference_angle" => reference_angle, "target_translation" => target_translation,
            "enable_spring" => enable_spring, "hertz" => hertz, "damping_ratio" => damping_ratio,
            "enable_limit" => enable_limit, "lower_translation" => lower_translation,
            "upper_translation" => upper_translation, "enable_motor" => enable_motor,
            "motor_speed" => motor_speed, "max_motor_force" => max_motor_force;
            vec: "local_axis_a" => local_axis_a),
        JointType::Revolute => build!(RevoluteJointDef, create_revolute_joint;
            "reference_angle" => reference_angle, "target_angle" => target_angle,
            "enable_spring" => enable_spring, "hertz" => hertz, "damping_ratio" => damping_ratio,
            "enable_limit" => enable_limit, "lower_angle" => lower_angle,
            "upper_angle" => upper_angle, "enable_motor" => enable_motor,
            "motor_speed" => motor_speed, "max_motor_torque" => max_motor_torque; vec:),
        JointType::Weld => build!(WeldJointDef, create_weld_joint;
            "reference_angle" => reference_angle, "linear_hertz" => linear_hertz,
            "linear_damping_ratio" => linear_damping_ratio, "angular_hertz" => angular_hertz,
            "angular_damping_ratio" => angular_damping_ratio; vec:),
        JointType::Wheel => build!(WheelJointDef, create_wheel_joint;
            "enable_spring" => enable_spring, "hertz" => hertz, "damping_ratio" => damping_ratio,
            "enable_limit" => enable_limit, "lower_translation" => lower_translation,
            "upper_translation" => upper_translation, "enable_motor" => enable_motor,
            "motor_speed" => motor_speed, "max_motor_torque" => max_motor_torque;
            vec: "local_axis_a" => local_axis_a),
    };
    Py::new(
        py,
        Joint {
            world: world.clone().unbind(),
            id,
        },
    )
}

/// A handle to a joint of any type. Compares and hashes by id; raises
/// `StaleHandleError` once the joint is destroyed, and `TypeError` for a
/// property its type does not have.
#[pyclass(module = "impulse2d._impulse2d", frozen, weakref)]
pub struct Joint {
    pub(crate) world: Py<World>,
    pub(crate) id: JointId,
}

impl Joint {
    fn read<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(JointRef<'_>) -> impulse2d::Result<T>,
    ) -> PyResult<T> {
        let w = self.world.bind(py).try_borrow()?;
        ok(f(ok(w.inner.joint(self.id))?))
    }

    fn write<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(JointMut<'_>) -> impulse2d::Result<T>,
    ) -> PyResult<T> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(f(ok(w.inner.joint_mut(self.id))?))
    }

    fn kind(&self, py: Python<'_>) -> PyResult<JointType> {
        self.read(py, |j| Ok(j.joint_type()))
    }
}

handle_impl!(Joint, Joint, joint);

/// The error for a property the joint's type does not have.
fn no_such(t: JointType, what: &str) -> PyErr {
    PyTypeError::new_err(format!("a {} joint has no {what}", type_name(t)))
}

#[pymethods]
impl Joint {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        handle::traverse(self, visit)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        handle::richcmp(self, other, op)
    }

    fn __hash__(&self) -> u64 {
        handle::hash(self)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.kind(py) {
            Ok(t) => format!(
                "Joint(id={}:{}, type={:?})",
                self.id.index(),
                self.id.generation(),
                type_name(t)
            ),
            Err(_) => format!(
                "Joint(id={}:{}, destroyed)",
                self.id.index(),
                self.id.generation()
            ),
        }
    }

    /// (slot index, generation).
    #[getter]
    fn id(&self) -> (u32, u32) {
        (self.id.index(), self.id.generation())
    }

    /// Whether the joint still exists.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        handle::is_valid(self, py)
    }

    /// Any Python object kept with the joint.
    #[getter]
    fn user_data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        handle::user_data(self, py)
    }

    #[setter]
    fn set_user_data(&self, py: Python<'_>, value: Py<PyAny>) -> PyResult<()> {
        handle::set_user_data(self, py, value)
    }

    /// Destroys the joint.
    fn destroy(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(w.inner.destroy_joint(self.id))?;
        w.set_user_data(self.key(), None);
        Ok(())
    }

    /// The joint type: "distance", "filter", "motor", "mouse", "mover",
    /// "pogo", "prismatic", "revolute", "weld" or "wheel".
    #[getter]
    fn get_type(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.kind(py).map(type_name)
    }

    /// The first body.
    #[getter]
    fn body_a(&self, py: Python<'_>) -> PyResult<Py<Body>> {
        let id = self.read(py, |j| Ok(j.body_a()))?;
        crate::world::body_handle(py, &self.world, id)
    }

    /// The second body.
    #[getter]
    fn body_b(&self, py: Python<'_>) -> PyResult<Py<Body>> {
        let id = self.read(py, |j| Ok(j.body_b()))?;
        crate::world::body_handle(py, &self.world, id)
    }

    /// Anchor on body A in its frame, m.
    #[getter]
    fn local_anchor_a(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(tup(j.local_anchor_a())))
    }

    /// Anchor on body B in its frame, m.
    #[getter]
    fn local_anchor_b(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(tup(j.local_anchor_b())))
    }

    /// Both anchors in world coordinates, m.
    fn world_anchors(&self, py: Python<'_>) -> PyResult<((f32, f32), (f32, f32))> {
        self.read(py, |j| {
            let (a, b) = j.world_anchors();
            Ok((tup(a), tup(b)))
        })
    }

    /// Whether the two bodies collide with each other.
    #[getter]
    fn collide_connected(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |j| Ok(j.collide_connected()))
    }

    #[setter]
    fn set_collide_connected(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut j| {
            j.set_collide_connected(value);
            Ok(())
        })
    }

    /// Reaction force of the last step on body B, N.
    #[getter]
    fn constraint_force(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(tup(j.constraint_force())))
    }

    /// Reaction torque of the last step on body B, N·m.
    #[getter]
    fn constraint_torque(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.constraint_torque()))
    }

    /// How far the joint's position constraint is violated, m.
    #[getter]
    fn linear_separation(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.linear_separation()))
    }

    /// How far the joint's angular constraint is violated, rad.
    #[getter]
    fn angular_separation(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.angular_separation()))
    }

    /// Reaction force above which a joint event is reported (or the joint
    /// breaks, with break_on_threshold), N.
    #[getter]
    fn force_threshold(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.force_threshold()))
    }

    #[setter]
    fn set_force_threshold(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut j| j.set_force_threshold(value))
    }

    /// Reaction torque threshold, N·m.
    #[getter]
    fn torque_threshold(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.torque_threshold()))
    }

    #[setter]
    fn set_torque_threshold(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut j| j.set_torque_threshold(value))
    }

    /// Whether passing a threshold destroys the joint.
    #[getter]
    fn break_on_threshold(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |j| Ok(j.break_on_threshold()))
    }

    #[setter]
    fn set_break_on_threshold(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut j| {
            j.set_break_on_threshold(value);
            Ok(())
        })
    }

    /// Wakes both bodies.
    fn wake_bodies(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |mut j| {
            j.wake_bodies();
            Ok(())
        })
    }

    // --- motor (revolute, prismatic, wheel, distance) ---

    /// Whether the motor is on (revolute, prismatic, wheel, distance).
    #[getter]
    fn motor_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |j| Ok(j.motor()?.is_enabled()))
    }

    #[setter]
    fn set_motor_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |j| {
            j.motor()?.enable(value);
            Ok(())
        })
    }

    /// Motor speed: rad/s (revolute, wheel) or m/s (prismatic, distance).
    #[getter]
    fn motor_speed(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor()?.speed()))
    }

    #[setter]
    fn set_motor_speed(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor()?.set_speed(value))
    }

    /// Largest motor torque (N·m; revolute, wheel) or force (N; prismatic,
    /// distance).
    #[getter]
    fn max_motor_force(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor()?.max_force()))
    }

    #[setter]
    fn set_max_motor_force(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor()?.set_max_force(value))
    }

    /// Motor torque (N·m) or force (N) of the last step.
    #[getter]
    fn motor_force(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor()?.force()))
    }

    // --- limit (revolute, prismatic, wheel, distance) ---

    /// Whether the limit is on (revolute, prismatic, wheel, distance).
    #[getter]
    fn limit_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |j| Ok(j.limit()?.is_enabled()))
    }

    #[setter]
    fn set_limit_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |j| {
            j.limit()?.enable(value);
            Ok(())
        })
    }

    /// (lower, upper) limit: rad (revolute), m (prismatic, wheel, distance
    /// length range).
    #[getter]
    fn limits(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| {
            let l = j.limit()?;
            Ok((l.lower(), l.upper()))
        })
    }

    #[setter]
    fn set_limits(&self, py: Python<'_>, value: (f32, f32)) -> PyResult<()> {
        self.write(py, |j| j.limit()?.set_range(value.0, value.1))
    }

    // --- spring (revolute, prismatic, wheel, distance; mouse, pogo) ---

    /// Whether the spring is on (revolute, prismatic, wheel, distance).
    #[getter]
    fn spring_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |j| Ok(j.spring()?.is_enabled()))
    }

    #[setter]
    fn set_spring_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |j| {
            j.spring()?.enable(value);
            Ok(())
        })
    }

    /// Spring stiffness as a frequency, Hz (revolute, prismatic, wheel,
    /// distance, mouse, pogo).
    #[getter]
    fn spring_hertz(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Mouse => Ok(j.mouse()?.hertz()),
            JointType::Pogo => Ok(j.pogo()?.hertz()),
            _ => Ok(j.spring()?.hertz()),
        })
    }

    #[setter]
    fn set_spring_hertz(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Mouse => j.mouse()?.set_hertz(value),
            JointType::Pogo => j.pogo()?.set_hertz(value),
            _ => j.spring()?.set_hertz(value),
        })
    }

    /// Spring damping ratio (dimensionless; 1 is critical).
    #[getter]
    fn spring_damping_ratio(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Mouse => Ok(j.mouse()?.damping_ratio()),
            JointType::Pogo => Ok(j.pogo()?.damping_ratio()),
            _ => Ok(j.spring()?.damping_ratio()),
        })
    }

    #[setter]
    fn set_spring_damping_ratio(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Mouse => j.mouse()?.set_damping_ratio(value),
            JointType::Pogo => j.pogo()?.set_damping_ratio(value),
            _ => j.spring()?.set_damping_ratio(value),
        })
    }

    // --- typed parts ---

    /// Revolute: relative angle of body B to body A, rad.
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.revolute()?.angle()))
    }

    /// Revolute: the spring's target angle, rad.
    #[getter]
    fn target_angle(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.revolute()?.target_angle()))
    }

    #[setter]
    fn set_target_angle(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.revolute()?.set_target_angle(value))
    }

    /// Relative speed: rad/s (revolute), m/s (prismatic).
    #[getter]
    fn speed(&self, py: Python<'_>) -> PyResult<f32> {
        let t = self.kind(py)?;
        self.read(py, |j| match t {
            JointType::Revolute => Ok(Some(j.revolute()?.speed())),
            JointType::Prismatic => Ok(Some(j.prismatic()?.speed())),
            _ => Ok(None),
        })?
        .ok_or_else(|| no_such(t, "speed"))
    }

    /// Translation along the axis, m (prismatic, wheel).
    #[getter]
    fn translation(&self, py: Python<'_>) -> PyResult<f32> {
        let t = self.kind(py)?;
        self.read(py, |j| match t {
            JointType::Prismatic => Ok(Some(j.prismatic()?.translation())),
            JointType::Wheel => Ok(Some(j.wheel()?.translation())),
            _ => Ok(None),
        })?
        .ok_or_else(|| no_such(t, "translation"))
    }

    /// Prismatic: the spring's target translation, m.
    #[getter]
    fn target_translation(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.prismatic()?.target_translation()))
    }

    #[setter]
    fn set_target_translation(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.prismatic()?.set_target_translation(value))
    }

    /// Distance: rest length, m.
    #[getter]
    fn length(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.distance()?.length()))
    }

    #[setter]
    fn set_length(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.distance()?.set_length(value))
    }

    /// Distance: current distance between the anchors, m.
    #[getter]
    fn current_length(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.distance()?.current_length()))
    }

    /// Distance: (lower, upper) spring force, N.
    #[getter]
    fn spring_force_range(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(j.distance()?.spring_force_range()))
    }

    #[setter]
    fn set_spring_force_range(&self, py: Python<'_>, value: (f32, f32)) -> PyResult<()> {
        self.write(py, |j| {
            j.distance()?.set_spring_force_range(value.0, value.1)
        })
    }

    /// Weld and motor joints: linear spring stiffness, Hz (0 = rigid).
    #[getter]
    fn linear_hertz(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Motor => Ok(j.motor_joint()?.linear_hertz()),
            _ => Ok(j.weld()?.linear_hertz()),
        })
    }

    #[setter]
    fn set_linear_hertz(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Motor => j.motor_joint()?.set_linear_hertz(value),
            _ => j.weld()?.set_linear_hertz(value),
        })
    }

    /// Weld and motor joints: linear damping ratio.
    #[getter]
    fn linear_damping_ratio(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Motor => Ok(j.motor_joint()?.linear_damping_ratio()),
            _ => Ok(j.weld()?.linear_damping_ratio()),
        })
    }

    #[setter]
    fn set_linear_damping_ratio(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Motor => j.motor_joint()?.set_linear_damping_ratio(value),
            _ => j.weld()?.set_linear_damping_ratio(value),
        })
    }

    /// Weld and motor joints: angular spring stiffness, Hz (0 = rigid).
    #[getter]
    fn angular_hertz(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Motor => Ok(j.motor_joint()?.angular_hertz()),
            _ => Ok(j.weld()?.angular_hertz()),
        })
    }

    #[setter]
    fn set_angular_hertz(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Motor => j.motor_joint()?.set_angular_hertz(value),
            _ => j.weld()?.set_angular_hertz(value),
        })
    }

    /// Weld and motor joints: angular damping ratio.
    #[getter]
    fn angular_damping_ratio(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Motor => Ok(j.motor_joint()?.angular_damping_ratio()),
            _ => Ok(j.weld()?.angular_damping_ratio()),
        })
    }

    #[setter]
    fn set_angular_damping_ratio(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Motor => j.motor_joint()?.set_angular_damping_ratio(value),
            _ => j.weld()?.set_angular_damping_ratio(value),
        })
    }

    /// Motor joint: target position of B relative to A, m.
    #[getter]
    fn linear_offset(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(tup(j.motor_joint()?.linear_offset())))
    }

    #[setter]
    fn set_linear_offset(&self, py: Python<'_>, value: V2) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_linear_offset(value.0))
    }

    /// Motor joint: target angle of B relative to A, rad.
    #[getter]
    fn angular_offset(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.angular_offset()))
    }

    #[setter]
    fn set_angular_offset(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_angular_offset(value))
    }

    /// Largest force, N (motor joint, mouse joint).
    #[getter]
    fn max_force(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| match j.joint_type() {
            JointType::Mouse => Ok(j.mouse()?.max_force()),
            _ => Ok(j.motor_joint()?.max_force()),
        })
    }

    #[setter]
    fn set_max_force(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Mouse => j.mouse()?.set_max_force(value),
            _ => j.motor_joint()?.set_max_force(value),
        })
    }

    /// Motor joint: largest torque, N·m.
    #[getter]
    fn max_torque(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.max_torque()))
    }

    #[setter]
    fn set_max_torque(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_max_torque(value))
    }

    /// Motor joint: position correction factor (0 to 1).
    #[getter]
    fn correction_factor(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.correction_factor()))
    }

    #[setter]
    fn set_correction_factor(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_correction_factor(value))
    }

    /// Target linear velocity, m/s (motor joint, mover joint).
    #[getter]
    fn linear_velocity(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| match j.joint_type() {
            JointType::Mover => Ok(tup(j.mover()?.linear_velocity())),
            _ => Ok(tup(j.motor_joint()?.linear_velocity())),
        })
    }

    #[setter]
    fn set_linear_velocity(&self, py: Python<'_>, value: V2) -> PyResult<()> {
        self.write(py, |j| match j.joint_type() {
            JointType::Mover => j.mover()?.set_linear_velocity(value.0),
            _ => j.motor_joint()?.set_linear_velocity(value.0),
        })
    }

    /// Motor joint: target angular velocity, rad/s.
    #[getter]
    fn angular_velocity(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.angular_velocity()))
    }

    #[setter]
    fn set_angular_velocity(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_angular_velocity(value))
    }

    /// Force that drives the target velocity, N: a float (motor joint) or a
    /// pair per axis (mover joint).
    #[getter]
    fn max_velocity_force(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let t = self.kind(py)?;
        match t {
            JointType::Mover => self
                .read(py, |j| Ok(tup(j.mover()?.max_velocity_force())))?
                .into_py_any(py),
            _ => self
                .read(py, |j| Ok(j.motor_joint()?.max_velocity_force()))?
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

    /// Motor joint: torque that drives the target angular velocity, N·m.
    #[getter]
    fn max_velocity_torque(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.max_velocity_torque()))
    }

    #[setter]
    fn set_max_velocity_torque(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_max_velocity_torque(value))
    }

    /// Motor joint: largest spring force, N.
    #[getter]
    fn max_spring_force(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.max_spring_force()))
    }

    #[setter]
    fn set_max_spring_force(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_max_spring_force(value))
    }

    /// Motor joint: largest spring torque, N·m.
    #[getter]
    fn max_spring_torque(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.motor_joint()?.max_spring_torque()))
    }

    #[setter]
    fn set_max_spring_torque(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.motor_joint()?.set_max_spring_torque(value))
    }

    /// Mouse joint: target point, m (world).
    #[getter]
    fn target(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(tup(j.mouse()?.target())))
    }

    #[setter]
    fn set_target(&self, py: Python<'_>, value: V2) -> PyResult<()> {
        self.write(py, |j| j.mouse()?.set_target(value.0))
    }

    /// Pogo joint: rest length, m.
    #[getter]
    fn rest_length(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |j| Ok(j.pogo()?.rest_length()))
    }

    #[setter]
    fn set_rest_length(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |j| j.pogo()?.set_rest_length(value))
    }

    /// Pogo joint: (tension, compression) force limits, N.
    #[getter]
    fn max_forces(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |j| Ok(j.pogo()?.max_forces()))
    }

    #[setter]
    fn set_max_forces(&self, py: Python<'_>, value: (f32, f32)) -> PyResult<()> {
        self.write(py, |j| j.pogo()?.set_max_forces(value.0, value.1))
    }
}
