//! Handles: `Body`, `Shape`, `Chain`, and the `Filter` value.
use impulse2d::collision::{
    Capsule, Circle, MassData, Segment, compute_hull, make_offset_polygon, make_offset_rounded_box,
    make_polygon,
};
use impulse2d::{
    BodyId, BodyMut, BodyRef, ChainDef, ChainId, MotionLocks, Rot, ShapeDef, ShapeGeometry,
    ShapeId, ShapeMut, ShapeRef, ShapeType, Transform,
};
use pyo3::exceptions::PyTypeError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{PyTraverseError, pyclass::CompareOp};

use crate::convert::{V2, body_type, body_type_name, finite, tup};
use crate::handle::{self, Handle};
use crate::joint::Joint;
use crate::ok;
use crate::world::{Kind, World, shape_handle};

macro_rules! handle_impl {
    ($ty:ident, $kind:ident, $lookup:ident) => {
        impl Handle for $ty {
            const KIND: Kind = Kind::$kind;
            fn world_ref(&self) -> &Py<World> {
                &self.world
            }
            fn slot(&self) -> (u32, u32) {
                (self.id.index(), self.id.generation())
            }
            fn check(&self, world: &impulse2d::World) -> impulse2d::Result<()> {
                world.$lookup(self.id).map(|_| ())
            }
        }
    };
}
pub(crate) use handle_impl;

handle_impl!(Body, Body, body);
handle_impl!(Shape, Shape, shape);
handle_impl!(Chain, Chain, chain);

/// A shape filter: a shape in category `category_bits` collides with shapes
/// whose `mask_bits` include it (both ways); shapes with the same non-zero
/// `group_index` always collide (positive) or never (negative).
#[pyclass(module = "impulse2d._impulse2d", get_all, set_all, eq, from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    category_bits: u64,
    mask_bits: u64,
    group_index: i32,
}

#[pymethods]
impl Filter {
    #[new]
    #[pyo3(signature = (category_bits = 1, mask_bits = u64::MAX, group_index = 0))]
    fn new(category_bits: u64, mask_bits: u64, group_index: i32) -> Self {
        Filter {
            category_bits,
            mask_bits,
            group_index,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Filter(category_bits={:#x}, mask_bits={:#x}, group_index={})",
            self.category_bits, self.mask_bits, self.group_index
        )
    }
}

impl From<Filter> for impulse2d::Filter {
    fn from(f: Filter) -> Self {
        impulse2d::Filter {
            category_bits: f.category_bits,
            mask_bits: f.mask_bits,
            group_index: f.group_index,
        }
    }
}

impl From<impulse2d::Filter> for Filter {
    fn from(f: impulse2d::Filter) -> Self {
        Filter {
            category_bits: f.category_bits,
            mask_bits: f.mask_bits,
            group_index: f.group_index,
        }
    }
}

/// A shape definition from keyword arguments; the user data is returned
/// apart. Unknown keywords raise `TypeError`.
fn shape_def(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<(ShapeDef, Option<Py<PyAny>>)> {
    let mut def = ShapeDef::default();
    let mut user_data = None;
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            match key.as_str() {
                "density" => def.density = value.extract()?,
                "friction" => def.friction = value.extract()?,
                "restitution" => def.restitution = value.extract()?,
                "rolling_resistance" => def.rolling_resistance = value.extract()?,
                "tangent_speed" => def.tangent_speed = value.extract()?,
                "material" => def.user_material_id = value.extract()?,
                "filter" => def.filter = value.extract::<Filter>()?.into(),
                "sensor" => def.is_sensor = value.extract()?,
                "enable_contact_events" => def.enable_contact_events = value.extract()?,
                "enable_sensor_events" => def.enable_sensor_events = value.extract()?,
                "enable_hit_events" => def.enable_hit_events = value.extract()?,
                "update_body_mass" => def.update_body_mass = value.extract()?,
                "user_data" => user_data = Some(value.unbind()),
                _ => {
                    return Err(PyTypeError::new_err(format!(
                        "unknown shape option {key:?}"
                    )));
                }
            }
        }
    }
    Ok((def, user_data))
}

/// A handle to a rigid body. Compares and hashes by id; raises
/// `StaleHandleError` once the body is destroyed.
#[pyclass(module = "impulse2d._impulse2d", frozen, weakref)]
pub struct Body {
    pub(crate) world: Py<World>,
    pub(crate) id: BodyId,
}

impl Body {
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(BodyRef<'_>) -> T) -> PyResult<T> {
        let w = self.world.bind(py).try_borrow()?;
        Ok(f(ok(w.inner.body(self.id))?))
    }

    fn write<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(BodyMut<'_>) -> impulse2d::Result<T>,
    ) -> PyResult<T> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(f(ok(w.inner.body_mut(self.id))?))
    }

    /// Attaches `geometry` with the options in `kwargs`.
    fn add(
        &self,
        py: Python<'_>,
        geometry: ShapeGeometry,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let (def, user_data) = shape_def(kwargs)?;
        let mut w = self.world.bind(py).try_borrow_mut()?;
        let id = ok(w.inner.create_shape(self.id, &def, geometry))?;
        w.set_user_data((Kind::Shape, id.index(), id.generation()), user_data);
        drop(w);
        shape_handle(py, &self.world, id)
    }
}

#[pymethods]
impl Body {
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
        match self.read(py, |b| (b.body_type(), b.position())) {
            Ok((t, p)) => format!(
                "Body(id={}:{}, type={:?}, position=({}, {}))",
                self.id.index(),
                self.id.generation(),
                body_type_name(t),
                p.x,
                p.y
            ),
            Err(_) => format!(
                "Body(id={}:{}, destroyed)",
                self.id.index(),
                self.id.generation()
            ),
        }
    }

    /// The world the body belongs to.
    #[getter]
    fn world(&self, py: Python<'_>) -> Py<World> {
        self.world.clone_ref(py)
    }

    /// (slot index, generation): the id as numbers.
    #[getter]
    fn id(&self) -> (u32, u32) {
        (self.id.index(), self.id.generation())
    }

    /// Whether the body still exists.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        handle::is_valid(self, py)
    }

    /// Any Python object kept with the body (None by default).
    #[getter]
    fn user_data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        handle::user_data(self, py)
    }

    #[setter]
    fn set_user_data(&self, py: Python<'_>, value: Py<PyAny>) -> PyResult<()> {
        handle::set_user_data(self, py, value)
    }

    /// Destroys the body with its shapes, chains and joints.
    fn destroy(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(w.inner.body(self.id))?;
        w.forget_body(self.id);
        ok(w.inner.destroy_body(self.id))
    }

    /// "static", "kinematic" or "dynamic".
    #[getter]
    fn get_type(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |b| body_type_name(b.body_type()))
    }

    #[setter]
    fn set_type(&self, py: Python<'_>, value: &str) -> PyResult<()> {
        let t = body_type(value)?;
        self.write(py, |mut b| b.set_body_type(t))
    }

    /// The body's name (for debugging).
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        self.read(py, |b| b.name().to_owned())
    }

    #[setter]
    fn set_name(&self, py: Python<'_>, value: &str) -> PyResult<()> {
        self.write(py, |mut b| {
            b.set_name(value);
            Ok(())
        })
    }

    /// World position of the body's origin, m. Setting it teleports the body
    /// (keeping its angle).
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.position()))
    }

    #[setter]
    fn set_position(&self, py: Python<'_>, value: V2) -> PyResult<()> {
        self.write(py, |mut b| {
            let q = b.rotation();
            b.set_transform(value.0, q)
        })
    }

    /// Angle, rad, in [-pi, pi]. Setting it teleports the body (keeping its
    /// position).
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.rotation().angle())
    }

    #[setter]
    fn set_angle(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        let value = finite(value, "angle")?;
        self.write(py, |mut b| {
            let p = b.position();
            b.set_transform(p, Rot::from_angle(value))
        })
    }

    /// Rotation as (cos, sin).
    #[getter]
    fn rotation(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |b| {
            let q = b.rotation();
            (q.c, q.s)
        })
    }

    /// Teleports the body: origin `position` (m) and `angle` (rad).
    fn set_transform(&self, py: Python<'_>, position: V2, angle: f32) -> PyResult<()> {
        let angle = finite(angle, "angle")?;
        self.write(py, |mut b| {
            b.set_transform(position.0, Rot::from_angle(angle))
        })
    }

    /// Velocity of the centre of mass, m/s.
    #[getter]
    fn linear_velocity(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.linear_velocity()))
    }

    #[setter]
    fn set_linear_velocity(&self, py: Python<'_>, value: V2) -> PyResult<()> {
        self.write(py, |mut b| b.set_linear_velocity(value.0))
    }

    /// Angular velocity, rad/s (counter-clockwise positive).
    #[getter]
    fn angular_velocity(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.angular_velocity())
    }

    #[setter]
    fn set_angular_velocity(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut b| b.set_angular_velocity(value))
    }

    /// Mass, kg (0 for static and kinematic bodies).
    #[getter]
    fn mass(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.mass())
    }

    /// Rotational inertia about the centre of mass, kg·m².
    #[getter]
    fn inertia(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.rotational_inertia())
    }

    /// World position of the centre of mass, m.
    #[getter]
    fn center_of_mass(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.world_center_of_mass()))
    }

    /// Centre of mass in the body's frame, m.
    #[getter]
    fn local_center_of_mass(&self, py: Python<'_>) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.local_center_of_mass()))
    }

    /// Linear damping, 1/s.
    #[getter]
    fn linear_damping(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.linear_damping())
    }

    #[setter]
    fn set_linear_damping(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut b| b.set_linear_damping(value))
    }

    /// Angular damping, 1/s.
    #[getter]
    fn angular_damping(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.angular_damping())
    }

    #[setter]
    fn set_angular_damping(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut b| b.set_angular_damping(value))
    }

    /// Multiplier of the world's gravity for this body.
    #[getter]
    fn gravity_scale(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |b| b.gravity_scale())
    }

    #[setter]
    fn set_gravity_scale(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut b| b.set_gravity_scale(value))
    }

    /// Whether the body is awake. Setting False puts its island to sleep.
    #[getter]
    fn awake(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.is_awake())
    }

    #[setter]
    fn set_awake(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut b| {
            b.set_awake(value);
            Ok(())
        })
    }

    /// Whether the body may fall asleep.
    #[getter]
    fn sleep_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.is_sleep_enabled())
    }

    #[setter]
    fn set_sleep_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut b| {
            b.set_sleep_enabled(value);
            Ok(())
        })
    }

    /// Whether the body takes part in the simulation.
    #[getter]
    fn enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.is_enabled())
    }

    #[setter]
    fn set_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut b| {
            if value {
                b.enable()
            } else {
                b.disable();
                Ok(())
            }
        })
    }

    /// Whether the body is swept against other moving bodies (continuous
    /// collision for fast small bodies).
    #[getter]
    fn bullet(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.is_bullet())
    }

    #[setter]
    fn set_bullet(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut b| {
            b.set_bullet(value);
            Ok(())
        })
    }

    /// Whether the body's rotation is locked.
    #[getter]
    fn fixed_rotation(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.motion_locks().angular_z)
    }

    #[setter]
    fn set_fixed_rotation(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut b| {
            let locks = MotionLocks {
                angular_z: value,
                ..b.motion_locks()
            };
            b.set_motion_locks(locks);
            Ok(())
        })
    }

    /// Motion locks (linear_x, linear_y, angular_z).
    #[getter]
    fn motion_locks(&self, py: Python<'_>) -> PyResult<(bool, bool, bool)> {
        self.read(py, |b| {
            let l = b.motion_locks();
            (l.linear_x, l.linear_y, l.angular_z)
        })
    }

    #[setter]
    fn set_motion_locks(&self, py: Python<'_>, value: (bool, bool, bool)) -> PyResult<()> {
        self.write(py, |mut b| {
            b.set_motion_locks(MotionLocks {
                linear_x: value.0,
                linear_y: value.1,
                angular_z: value.2,
            });
            Ok(())
        })
    }

    /// Applies `force` (N) at world `point` (m); wakes the body if `wake`.
    #[pyo3(signature = (force, point, wake = true))]
    fn apply_force(&self, py: Python<'_>, force: V2, point: V2, wake: bool) -> PyResult<()> {
        self.write(py, |mut b| b.apply_force(force.0, point.0, wake))
    }

    /// Applies `force` (N) at the centre of mass.
    #[pyo3(signature = (force, wake = true))]
    fn apply_force_to_center(&self, py: Python<'_>, force: V2, wake: bool) -> PyResult<()> {
        self.write(py, |mut b| b.apply_force_to_center(force.0, wake))
    }

    /// Applies `torque` (N·m).
    #[pyo3(signature = (torque, wake = true))]
    fn apply_torque(&self, py: Python<'_>, torque: f32, wake: bool) -> PyResult<()> {
        self.write(py, |mut b| b.apply_torque(torque, wake))
    }

    /// Applies `impulse` (N·s) at world `point` (m): changes the velocity at
    /// once.
    #[pyo3(signature = (impulse, point, wake = true))]
    fn apply_linear_impulse(
        &self,
        py: Python<'_>,
        impulse: V2,
        point: V2,
        wake: bool,
    ) -> PyResult<()> {
        self.write(py, |mut b| b.apply_linear_impulse(impulse.0, point.0, wake))
    }

    /// Applies `impulse` (N·s) at the centre of mass.
    #[pyo3(signature = (impulse, wake = true))]
    fn apply_linear_impulse_to_center(
        &self,
        py: Python<'_>,
        impulse: V2,
        wake: bool,
    ) -> PyResult<()> {
        self.write(py, |mut b| {
            b.apply_linear_impulse_to_center(impulse.0, wake)
        })
    }

    /// Applies an angular impulse (N·m·s).
    #[pyo3(signature = (impulse, wake = true))]
    fn apply_angular_impulse(&self, py: Python<'_>, impulse: f32, wake: bool) -> PyResult<()> {
        self.write(py, |mut b| b.apply_angular_impulse(impulse, wake))
    }

    /// Sets the velocity that brings a kinematic body's origin to `position`
    /// (m) and `angle` (rad) in one step of `dt` seconds.
    fn set_target_transform(
        &self,
        py: Python<'_>,
        position: V2,
        angle: f32,
        dt: f32,
    ) -> PyResult<()> {
        let q = Rot::from_angle(finite(angle, "angle")?);
        self.write(py, |mut b| {
            b.set_target_transform(Transform::new(position.0, q), dt)
        })
    }

    /// Overrides the mass properties: `mass` (kg), `center` (body frame, m),
    /// `inertia` about the centre (kg·m²). Dynamic bodies only.
    fn set_mass_data(&self, py: Python<'_>, mass: f32, center: V2, inertia: f32) -> PyResult<()> {
        self.write(py, |mut b| {
            b.set_mass_data(MassData {
                mass,
                center: center.0,
                rotational_inertia: inertia,
            })
        })
    }

    /// Recomputes mass, centre and inertia from the shapes and densities.
    fn apply_mass_from_shapes(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |mut b| {
            b.apply_mass_from_shapes();
            Ok(())
        })
    }

    /// Clears the forces and torque accumulated for the next step.
    fn clear_forces(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |mut b| {
            b.clear_forces();
            Ok(())
        })
    }

    /// A point in the body's frame (m) in world coordinates.
    fn world_point(&self, py: Python<'_>, local_point: V2) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.world_point(local_point.0)))
    }

    /// A world point (m) in the body's frame.
    fn local_point(&self, py: Python<'_>, world_point: V2) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.local_point(world_point.0)))
    }

    /// A direction in the body's frame turned into world coordinates.
    fn world_vector(&self, py: Python<'_>, local_vector: V2) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.world_vector(local_vector.0)))
    }

    /// A world direction turned into the body's frame.
    fn local_vector(&self, py: Python<'_>, world_vector: V2) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.local_vector(world_vector.0)))
    }

    /// Velocity (m/s) of the body's material at a world point (m).
    fn world_point_velocity(&self, py: Python<'_>, world_point: V2) -> PyResult<(f32, f32)> {
        self.read(py, |b| tup(b.world_point_velocity(world_point.0)))
    }

    /// The body's shapes (chain segments included).
    fn shapes(&self, py: Python<'_>) -> PyResult<Vec<Py<Shape>>> {
        let ids = self.read(py, |b| b.shapes())?;
        ids.into_iter()
            .map(|id| shape_handle(py, &self.world, id))
            .collect()
    }

    /// The body's touching contacts.
    fn contacts(&self, py: Python<'_>) -> PyResult<Vec<crate::world::ContactData>> {
        let contacts = self.read(py, |b| b.contacts())?;
        crate::world::contact_list(py, &self.world, contacts)
    }

    /// The joints attached to the body.
    fn joints(&self, py: Python<'_>) -> PyResult<Vec<Py<Joint>>> {
        let ids = self.read(py, |b| b.joints())?;
        ids.into_iter()
            .map(|id| {
                Py::new(
                    py,
                    Joint {
                        world: self.world.clone_ref(py),
                        id,
                    },
                )
            })
            .collect()
    }

    /// Bounding box of the body's shapes: ((lower x, lower y), (upper x, upper y)), m.
    fn aabb(&self, py: Python<'_>) -> PyResult<((f32, f32), (f32, f32))> {
        self.read(py, |b| {
            let a = b.aabb();
            (tup(a.lower), tup(a.upper))
        })
    }

    /// Attaches a circle of `radius` (m) centred at `center` (body frame, m).
    /// Shape options (all shape-creating methods): density (kg/m²), friction,
    /// restitution, rolling_resistance, tangent_speed (m/s), material (int),
    /// filter (Filter), sensor, enable_contact_events, enable_sensor_events,
    /// enable_hit_events, update_body_mass, user_data.
    #[pyo3(text_signature = "($self, radius, center=(0.0, 0.0), **options)")]
    #[pyo3(signature = (radius, center = V2(impulse2d::Vec2::ZERO), **options))]
    fn add_circle(
        &self,
        py: Python<'_>,
        radius: f32,
        center: V2,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let circle = ok(Circle::new(center.0, radius))?;
        self.add(py, ShapeGeometry::Circle(circle), options)
    }

    /// Attaches a capsule: the segment from `center1` to `center2` (body frame,
    /// m) rounded by `radius` (m).
    #[pyo3(signature = (center1, center2, radius, **options))]
    fn add_capsule(
        &self,
        py: Python<'_>,
        center1: V2,
        center2: V2,
        radius: f32,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let capsule = ok(Capsule::new(center1.0, center2.0, radius))?;
        self.add(py, ShapeGeometry::Capsule(capsule), options)
    }

    /// Attaches a two-sided segment from `point1` to `point2` (body frame, m).
    #[pyo3(signature = (point1, point2, **options))]
    fn add_segment(
        &self,
        py: Python<'_>,
        point1: V2,
        point2: V2,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let segment = ok(Segment::new(point1.0, point2.0))?;
        self.add(py, ShapeGeometry::Segment(segment), options)
    }

    /// Attaches the convex hull of `points` (3 to 8, body frame, m), rounded
    /// by `radius` (m), placed at `position` turned by `angle` (rad).
    #[pyo3(
        text_signature = "($self, points, radius=0.0, position=(0.0, 0.0), angle=0.0, **options)"
    )]
    #[pyo3(signature = (points, radius = 0.0, position = V2(impulse2d::Vec2::ZERO), angle = 0.0, **options))]
    fn add_polygon(
        &self,
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        radius: f32,
        position: V2,
        angle: f32,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let pts = crate::convert::points(points)?;
        let hull = ok(compute_hull(&pts))?;
        let polygon = if position.0 == impulse2d::Vec2::ZERO && angle == 0.0 {
            ok(make_polygon(&hull, radius))?
        } else {
            let xf = Transform::new(position.0, Rot::from_angle(finite(angle, "angle")?));
            ok(make_offset_polygon(&hull, xf, radius))?
        };
        self.add(py, ShapeGeometry::Polygon(polygon), options)
    }

    /// Attaches a box of half-widths `hx`, `hy` (m) centred at `center` (body
    /// frame) turned by `angle` (rad), its corners rounded by `radius` (m;
    /// the box grows by it).
    #[pyo3(text_signature = "($self, hx, hy, center=(0.0, 0.0), angle=0.0, radius=0.0, **options)")]
    #[pyo3(signature = (hx, hy, center = V2(impulse2d::Vec2::ZERO), angle = 0.0, radius = 0.0, **options))]
    fn add_box(
        &self,
        py: Python<'_>,
        hx: f32,
        hy: f32,
        center: V2,
        angle: f32,
        radius: f32,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let q = Rot::from_angle(finite(angle, "angle")?);
        let polygon = ok(make_offset_rounded_box(hx, hy, center.0, q, radius))?;
        self.add(py, ShapeGeometry::Polygon(polygon), options)
    }

    /// Attaches a chain of one-sided segments through `points` (body frame,
    /// m), closed into a loop if `loop`. Shapes collide with a segment from
    /// the right-hand side of its direction (point i to point i + 1). An open
    /// chain needs at least 4 points and makes n - 3 segments: its first and
    /// last points are ghosts that only smooth the ends; a loop makes n. Options: friction, restitution,
    /// rolling_resistance, tangent_speed, filter, enable_sensor_events,
    /// user_data.
    #[pyo3(signature = (points, r#loop = false, **options))]
    fn add_chain(
        &self,
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        r#loop: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Chain>> {
        let mut def = ChainDef {
            points: crate::convert::points(points)?,
            is_loop: r#loop,
            ..ChainDef::default()
        };
        let mut user_data = None;
        if let Some(options) = options {
            for (key, value) in options.iter() {
                let key: String = key.extract()?;
                match key.as_str() {
                    "friction" => def.friction = value.extract()?,
                    "restitution" => def.restitution = value.extract()?,
                    "rolling_resistance" => def.rolling_resistance = value.extract()?,
                    "tangent_speed" => def.tangent_speed = value.extract()?,
                    "filter" => def.filter = value.extract::<Filter>()?.into(),
                    "enable_sensor_events" => def.enable_sensor_events = value.extract()?,
                    "user_data" => user_data = Some(value.unbind()),
                    _ => {
                        return Err(PyTypeError::new_err(format!(
                            "unknown chain option {key:?}"
                        )));
                    }
                }
            }
        }
        let mut w = self.world.bind(py).try_borrow_mut()?;
        let id = ok(w.inner.create_chain(self.id, &def))?;
        w.set_user_data((Kind::Chain, id.index(), id.generation()), user_data);
        drop(w);
        Py::new(
            py,
            Chain {
                world: self.world.clone_ref(py),
                id,
            },
        )
    }
}

/// A handle to a shape. Compares and hashes by id; raises `StaleHandleError`
/// once the shape is destroyed.
#[pyclass(module = "impulse2d._impulse2d", frozen, weakref)]
pub struct Shape {
    pub(crate) world: Py<World>,
    pub(crate) id: ShapeId,
}

impl Shape {
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(ShapeRef<'_>) -> T) -> PyResult<T> {
        let w = self.world.bind(py).try_borrow()?;
        Ok(f(ok(w.inner.shape(self.id))?))
    }

    fn write<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(ShapeMut<'_>) -> impulse2d::Result<T>,
    ) -> PyResult<T> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(f(ok(w.inner.shape_mut(self.id))?))
    }
}

/// The name of a shape type.
fn shape_type_name(t: ShapeType) -> &'static str {
    match t {
        ShapeType::Circle => "circle",
        ShapeType::Capsule => "capsule",
        ShapeType::Segment => "segment",
        ShapeType::Polygon => "polygon",
        ShapeType::ChainSegment => "chain_segment",
    }
}

#[pymethods]
impl Shape {
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
        match self.read(py, |s| s.shape_type()) {
            Ok(t) => format!(
                "Shape(id={}:{}, type={:?})",
                self.id.index(),
                self.id.generation(),
                shape_type_name(t)
            ),
            Err(_) => format!(
                "Shape(id={}:{}, destroyed)",
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

    /// Whether the shape still exists.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        handle::is_valid(self, py)
    }

    /// Any Python object kept with the shape.
    #[getter]
    fn user_data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        handle::user_data(self, py)
    }

    #[setter]
    fn set_user_data(&self, py: Python<'_>, value: Py<PyAny>) -> PyResult<()> {
        handle::set_user_data(self, py, value)
    }

    /// Destroys the shape; the body's mass is recomputed if `update_body_mass`.
    /// Chain segments are destroyed with their chain (`Chain.destroy`).
    #[pyo3(signature = (update_body_mass = true))]
    fn destroy(&self, py: Python<'_>, update_body_mass: bool) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(w.inner.destroy_shape(self.id, update_body_mass))?;
        w.set_user_data(self.key(), None);
        Ok(())
    }

    /// "circle", "capsule", "segment", "polygon" or "chain_segment".
    #[getter]
    fn get_type(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |s| shape_type_name(s.shape_type()))
    }

    /// The body the shape is attached to.
    #[getter]
    fn body(&self, py: Python<'_>) -> PyResult<Py<Body>> {
        let id = self.read(py, |s| s.body())?;
        crate::world::body_handle(py, &self.world, id)
    }

    /// The geometry as a dict in the body's frame (m): circle {center,
    /// radius}, capsule {center1, center2, radius}, segment {point1, point2},
    /// polygon {vertices, radius}, chain_segment {ghost1, point1, point2,
    /// ghost2}; plus "type".
    fn geometry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = self.read(py, |s| s.geometry())?;
        let d = PyDict::new(py);
        match g {
            ShapeGeometry::Circle(c) => {
                d.set_item("type", "circle")?;
                d.set_item("center", tup(c.center))?;
                d.set_item("radius", c.radius)?;
            }
            ShapeGeometry::Capsule(c) => {
                d.set_item("type", "capsule")?;
                d.set_item("center1", tup(c.center1))?;
                d.set_item("center2", tup(c.center2))?;
                d.set_item("radius", c.radius)?;
            }
            ShapeGeometry::Segment(s) => {
                d.set_item("type", "segment")?;
                d.set_item("point1", tup(s.point1))?;
                d.set_item("point2", tup(s.point2))?;
            }
            ShapeGeometry::Polygon(p) => {
                d.set_item("type", "polygon")?;
                let v: Vec<(f32, f32)> = p.vertices().iter().map(|&v| tup(v)).collect();
                d.set_item("vertices", v)?;
                d.set_item("radius", p.radius())?;
            }
            ShapeGeometry::ChainSegment(s) => {
                d.set_item("type", "chain_segment")?;
                d.set_item("ghost1", tup(s.ghost1))?;
                d.set_item("point1", tup(s.segment.point1))?;
                d.set_item("point2", tup(s.segment.point2))?;
                d.set_item("ghost2", tup(s.ghost2))?;
            }
        }
        Ok(d)
    }

    /// Whether the shape is a sensor (fixed at creation).
    #[getter]
    fn sensor(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s| s.is_sensor())
    }

    /// Density, kg/m². Setting it recomputes the body's mass.
    #[getter]
    fn density(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |s| s.density())
    }

    #[setter]
    fn set_density(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut s| s.set_density(value, true))
    }

    /// Coulomb friction coefficient.
    #[getter]
    fn friction(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |s| s.friction())
    }

    #[setter]
    fn set_friction(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut s| s.set_friction(value))
    }

    /// Coefficient of restitution (bounciness, 0 to 1).
    #[getter]
    fn restitution(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |s| s.restitution())
    }

    #[setter]
    fn set_restitution(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut s| s.set_restitution(value))
    }

    /// Rolling resistance (dimensionless).
    #[getter]
    fn rolling_resistance(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |s| s.rolling_resistance())
    }

    #[setter]
    fn set_rolling_resistance(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut s| s.set_rolling_resistance(value))
    }

    /// Surface speed along the shape (conveyor belts), m/s.
    #[getter]
    fn tangent_speed(&self, py: Python<'_>) -> PyResult<f32> {
        self.read(py, |s| s.tangent_speed())
    }

    #[setter]
    fn set_tangent_speed(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        self.write(py, |mut s| s.set_tangent_speed(value))
    }

    /// User material id (an int for your own friction rules).
    #[getter]
    fn material(&self, py: Python<'_>) -> PyResult<u64> {
        self.read(py, |s| s.user_material())
    }

    #[setter]
    fn set_material(&self, py: Python<'_>, value: u64) -> PyResult<()> {
        self.write(py, |mut s| {
            s.set_user_material(value);
            Ok(())
        })
    }

    /// The collision filter.
    #[getter]
    fn filter(&self, py: Python<'_>) -> PyResult<Filter> {
        self.read(py, |s| s.filter().into())
    }

    #[setter]
    fn set_filter(&self, py: Python<'_>, value: Filter) -> PyResult<()> {
        self.write(py, |mut s| s.set_filter(value.into()))
    }

    /// Whether the shape reports contact begin/end events.
    #[getter]
    fn contact_events_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s| s.contact_events_enabled())
    }

    #[setter]
    fn set_contact_events_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut s| {
            s.set_contact_events_enabled(value);
            Ok(())
        })
    }

    /// Whether the shape reports hit events.
    #[getter]
    fn hit_events_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s| s.hit_events_enabled())
    }

    #[setter]
    fn set_hit_events_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut s| {
            s.set_hit_events_enabled(value);
            Ok(())
        })
    }

    /// Whether the shape is seen by sensors.
    #[getter]
    fn sensor_events_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s| s.sensor_events_enabled())
    }

    #[setter]
    fn set_sensor_events_enabled(&self, py: Python<'_>, value: bool) -> PyResult<()> {
        self.write(py, |mut s| {
            s.set_sensor_events_enabled(value);
            Ok(())
        })
    }

    /// Bounding box ((lower x, lower y), (upper x, upper y)), m.
    fn aabb(&self, py: Python<'_>) -> PyResult<((f32, f32), (f32, f32))> {
        self.read(py, |s| {
            let a = s.aabb();
            (tup(a.lower), tup(a.upper))
        })
    }

    /// Whether the world point (m) is inside the shape.
    fn test_point(&self, py: Python<'_>, point: V2) -> PyResult<bool> {
        ok(self.read(py, |s| s.test_point(point.0))?)
    }

    /// The point of the shape closest to the world point `target` (m).
    fn closest_point(&self, py: Python<'_>, target: V2) -> PyResult<(f32, f32)> {
        ok(self.read(py, |s| s.closest_point(target.0))?).map(tup)
    }

    /// The shape's touching contacts.
    fn contacts(&self, py: Python<'_>) -> PyResult<Vec<crate::world::ContactData>> {
        let contacts = self.read(py, |s| s.contacts())?;
        crate::world::contact_list(py, &self.world, contacts)
    }

    /// The shapes overlapping this sensor now (as of the last step).
    fn sensor_overlaps(&self, py: Python<'_>) -> PyResult<Vec<Py<Shape>>> {
        let ids = ok(self.read(py, |s| s.sensor_overlaps())?)?;
        ids.into_iter()
            .map(|id| shape_handle(py, &self.world, id))
            .collect()
    }

    /// Mass properties of the shape: (mass kg, centre (m, body frame),
    /// rotational inertia about the centre kg·m²).
    fn mass_data(&self, py: Python<'_>) -> PyResult<(f32, (f32, f32), f32)> {
        self.read(py, |s| {
            let m = s.mass_data();
            (m.mass, tup(m.center), m.rotational_inertia)
        })
    }
}

/// A handle to a chain of one-sided segments.
#[pyclass(module = "impulse2d._impulse2d", frozen, weakref)]
pub struct Chain {
    pub(crate) world: Py<World>,
    pub(crate) id: ChainId,
}

#[pymethods]
impl Chain {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        handle::traverse(self, visit)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        handle::richcmp(self, other, op)
    }

    fn __hash__(&self) -> u64 {
        handle::hash(self)
    }

    /// (slot index, generation).
    #[getter]
    fn id(&self) -> (u32, u32) {
        (self.id.index(), self.id.generation())
    }

    /// Whether the chain still exists.
    #[getter]
    fn is_valid(&self, py: Python<'_>) -> PyResult<bool> {
        handle::is_valid(self, py)
    }

    /// Any Python object kept with the chain.
    #[getter]
    fn user_data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        handle::user_data(self, py)
    }

    #[setter]
    fn set_user_data(&self, py: Python<'_>, value: Py<PyAny>) -> PyResult<()> {
        handle::set_user_data(self, py, value)
    }

    /// The body the chain is attached to.
    #[getter]
    fn body(&self, py: Python<'_>) -> PyResult<Py<Body>> {
        let id = {
            let w = self.world.bind(py).try_borrow()?;
            ok(w.inner.chain(self.id))?.body()
        };
        crate::world::body_handle(py, &self.world, id)
    }

    /// Whether the chain is a closed loop.
    #[getter]
    fn is_loop(&self, py: Python<'_>) -> PyResult<bool> {
        let w = self.world.bind(py).try_borrow()?;
        Ok(ok(w.inner.chain(self.id))?.is_loop())
    }

    /// The chain's segments (shapes of type "chain_segment").
    fn segments(&self, py: Python<'_>) -> PyResult<Vec<Py<Shape>>> {
        let ids = {
            let w = self.world.bind(py).try_borrow()?;
            ok(w.inner.chain(self.id))?.segments()
        };
        ids.into_iter()
            .map(|id| shape_handle(py, &self.world, id))
            .collect()
    }

    /// Friction of every segment (reads the first).
    #[getter]
    fn friction(&self, py: Python<'_>) -> PyResult<f32> {
        let w = self.world.bind(py).try_borrow()?;
        Ok(ok(w.inner.chain(self.id))?.friction())
    }

    #[setter]
    fn set_friction(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(ok(w.inner.chain_mut(self.id))?.set_friction(value))
    }

    /// Restitution of every segment (reads the first).
    #[getter]
    fn restitution(&self, py: Python<'_>) -> PyResult<f32> {
        let w = self.world.bind(py).try_borrow()?;
        Ok(ok(w.inner.chain(self.id))?.restitution())
    }

    #[setter]
    fn set_restitution(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(ok(w.inner.chain_mut(self.id))?.set_restitution(value))
    }

    /// Destroys the chain and its segments.
    fn destroy(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        let segments = ok(w.inner.chain(self.id))?.segments();
        ok(w.inner.destroy_chain(self.id))?;
        for s in segments {
            w.set_user_data((Kind::Shape, s.index(), s.generation()), None);
        }
        w.set_user_data((Kind::Chain, self.id.index(), self.id.generation()), None);
        Ok(())
    }
}
