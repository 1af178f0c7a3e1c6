//! Handles: `Body`, `Shape`, `Chain`, and the `Filter` value.
use impulse2d::collision::{
    Capsule, Circle, MassData, Segment, compute_hull, make_offset_polygon, make_offset_rounded_box,
    make_polygon,
};
use impulse2d::{ChainDef, MotionLocks, Rot, ShapeDef, ShapeGeometry, ShapeType, Transform};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{V2, body_type, body_type_name, finite, options, set_fields, tup};
use crate::handle::{self, handle_impl, handle_methods};
use crate::joint::Joint;
use crate::ok;
use crate::world::{Kind, World};

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

/// Sets a keyword option that shape and chain definitions (`$def`) share,
/// or one of the `$extra` fields; false for another keyword.
macro_rules! surface_options {
    ($key:expr, $value:expr, $def:ident $(, $name:literal => $place:expr)*) => {
        set_fields!($key, $value;
            "friction" => $def.friction, "restitution" => $def.restitution,
            "rolling_resistance" => $def.rolling_resistance,
            "tangent_speed" => $def.tangent_speed,
            "enable_sensor_events" => $def.enable_sensor_events
            $(, $name => $place)*;
            vec:; into Filter: "filter" => $def.filter)
    };
}

/// A shape definition from keyword arguments; the user data is returned
/// apart. Unknown keywords raise `TypeError`.
fn shape_def(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<(ShapeDef, Option<Py<PyAny>>)> {
    let mut def = ShapeDef::default();
    let user_data = options(kwargs, "shape", |key, value| {
        Ok(surface_options!(key, value, def,
            "density" => def.density, "material" => def.user_material_id,
            "sensor" => def.is_sensor, "enable_contact_events" => def.enable_contact_events,
            "enable_hit_events" => def.enable_hit_events,
            "update_body_mass" => def.update_body_mass))
    })?;
    Ok((def, user_data))
}

handle_impl! {
    /// A handle to a rigid body. Compares and hashes by id; raises
    /// `StaleHandleError` once the body is destroyed.
    Body(BodyId): Body, body, body_mut, BodyRef, BodyMut
}

impl Body {
    /// Attaches `geometry` (or raises its error) with the options in `kwargs`.
    fn add(
        &self,
        py: Python<'_>,
        geometry: impulse2d::Result<ShapeGeometry>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<Shape>> {
        let geometry = ok(geometry)?;
        let (def, user_data) = shape_def(kwargs)?;
        let mut w = self.world.bind(py).try_borrow_mut()?;
        let id = ok(w.inner.create_shape(self.id, &def, geometry))?;
        w.set_user_data((Kind::Shape, id.index(), id.generation()), user_data);
        drop(w);
        Shape::handle(py, &self.world, id)
    }
}

handle_methods! {
    Body;
    /// (slot index, generation): the id as numbers.
    id;
    /// Whether the body still exists.
    is_valid;
    /// Any Python object kept with the body (None by default).
    user_data;
    views {
        /// "static", "kinematic" or "dynamic".
        #[getter] read get_type() -> &'static str = |b| body_type_name(b.body_type());
        /// The body's name (for debugging).
        #[getter] read name() -> String = |b| b.name().to_owned();
        #[setter] update set_name(value: &str) -> () = |mut b| b.set_name(value);
        /// World position of the body's origin, m. Setting it teleports the body
        /// (keeping its angle).
        #[getter] read position() -> (f32, f32) = |b| tup(b.position());
        #[setter] write set_position(value: V2) -> () = |mut b| {
            let q = b.rotation();
            b.set_transform(value.0, q)
        };
        /// Angle, rad, in [-pi, pi]. Setting it teleports the body (keeping its
        /// position).
        #[getter] read angle() -> f32 = |b| b.rotation().angle();
        /// Rotation as (cos, sin).
        #[getter] read rotation() -> (f32, f32) = |b| (b.rotation().c, b.rotation().s);
        /// Velocity of the centre of mass, m/s.
        #[getter] read linear_velocity() -> (f32, f32) = |b| tup(b.linear_velocity());
        #[setter] write set_linear_velocity(value: V2) -> () = |mut b| b.set_linear_velocity(value.0);
        /// Angular velocity, rad/s (counter-clockwise positive).
        #[getter] read angular_velocity() -> f32 = |b| b.angular_velocity();
        #[setter] write set_angular_velocity(value: f32) -> () = |mut b| b.set_angular_velocity(value);
        /// Mass, kg (0 for static and kinematic bodies).
        #[getter] read mass() -> f32 = |b| b.mass();
        /// Rotational inertia about the centre of mass, kg·m².
        #[getter] read inertia() -> f32 = |b| b.rotational_inertia();
        /// World position of the centre of mass, m.
        #[getter] read center_of_mass() -> (f32, f32) = |b| tup(b.world_center_of_mass());
        /// Centre of mass in the body's frame, m.
        #[getter] read local_center_of_mass() -> (f32, f32) = |b| tup(b.local_center_of_mass());
        /// Linear damping, 1/s.
        #[getter] read linear_damping() -> f32 = |b| b.linear_damping();
        #[setter] write set_linear_damping(value: f32) -> () = |mut b| b.set_linear_damping(value);
        /// Angular damping, 1/s.
        #[getter] read angular_damping() -> f32 = |b| b.angular_damping();
        #[setter] write set_angular_damping(value: f32) -> () = |mut b| b.set_angular_damping(value);
        /// Multiplier of the world's gravity for this body.
        #[getter] read gravity_scale() -> f32 = |b| b.gravity_scale();
        #[setter] write set_gravity_scale(value: f32) -> () = |mut b| b.set_gravity_scale(value);
        /// Whether the body is awake. Setting False puts its island to sleep.
        #[getter] read awake() -> bool = |b| b.is_awake();
        #[setter] update set_awake(value: bool) -> () = |mut b| b.set_awake(value);
        /// Whether the body may fall asleep.
        #[getter] read sleep_enabled() -> bool = |b| b.is_sleep_enabled();
        #[setter] update set_sleep_enabled(value: bool) -> () = |mut b| b.set_sleep_enabled(value);
        /// Whether the body takes part in the simulation.
        #[getter] read enabled() -> bool = |b| b.is_enabled();
        #[setter] write set_enabled(value: bool) -> () = |mut b| if value { b.enable() } else { b.disable(); Ok(()) };
        /// Whether the body is swept against other moving bodies (continuous
        /// collision for fast small bodies).
        #[getter] read bullet() -> bool = |b| b.is_bullet();
        #[setter] update set_bullet(value: bool) -> () = |mut b| b.set_bullet(value);
        /// Whether the body's rotation is locked.
        #[getter] read fixed_rotation() -> bool = |b| b.motion_locks().angular_z;
        #[setter] update set_fixed_rotation(value: bool) -> () = |mut b| {
            let locks = b.motion_locks();
            b.set_motion_locks(MotionLocks { angular_z: value, ..locks });
        };
        /// Motion locks (linear_x, linear_y, angular_z).
        #[getter] read motion_locks() -> (bool, bool, bool) = |b| {
            let l = b.motion_locks();
            (l.linear_x, l.linear_y, l.angular_z)
        };
        #[setter] update set_motion_locks(value: (bool, bool, bool)) -> () = |mut b| {
            let (linear_x, linear_y, angular_z) = value;
            b.set_motion_locks(MotionLocks { linear_x, linear_y, angular_z });
        };
    }
    calls {
        /// Applies `force` (N) at world `point` (m); wakes the body if `wake`.
        write apply_force(force: V2, point: V2, wake: bool = true) -> () = |mut b| b.apply_force(force.0, point.0, wake);
        /// Applies `force` (N) at the centre of mass.
        write apply_force_to_center(force: V2, wake: bool = true) -> () = |mut b| b.apply_force_to_center(force.0, wake);
        /// Applies `torque` (N·m).
        write apply_torque(torque: f32, wake: bool = true) -> () = |mut b| b.apply_torque(torque, wake);
        /// Applies `impulse` (N·s) at world `point` (m): changes the velocity at
        /// once.
        write apply_linear_impulse(impulse: V2, point: V2, wake: bool = true) -> () = |mut b| b.apply_linear_impulse(impulse.0, point.0, wake);
        /// Applies `impulse` (N·s) at the centre of mass.
        write apply_linear_impulse_to_center(impulse: V2, wake: bool = true) -> () = |mut b| b.apply_linear_impulse_to_center(impulse.0, wake);
        /// Applies an angular impulse (N·m·s).
        write apply_angular_impulse(impulse: f32, wake: bool = true) -> () = |mut b| b.apply_angular_impulse(impulse, wake);
        /// Attaches a capsule: the segment from `center1` to `center2` (body frame,
        /// m) rounded by `radius` (m).
        add add_capsule(center1: V2, center2: V2, radius: f32; **options) -> Py<Shape> =
            Capsule::new(center1.0, center2.0, radius).map(ShapeGeometry::Capsule);
        /// Attaches a two-sided segment from `point1` to `point2` (body frame, m).
        add add_segment(point1: V2, point2: V2; **options) -> Py<Shape> =
            Segment::new(point1.0, point2.0).map(ShapeGeometry::Segment);
        /// Overrides the mass properties: `mass` (kg), `center` (body frame, m),
        /// `inertia` about the centre (kg·m²). Dynamic bodies only.
        write set_mass_data(mass: f32, center: V2, inertia: f32) -> () = |mut b| {
            b.set_mass_data(MassData { mass, center: center.0, rotational_inertia: inertia })
        };
        /// Recomputes mass, centre and inertia from the shapes and densities.
        update apply_mass_from_shapes() -> () = |mut b| b.apply_mass_from_shapes();
        /// Clears the forces and torque accumulated for the next step.
        update clear_forces() -> () = |mut b| b.clear_forces();
        /// A point in the body's frame (m) in world coordinates.
        read world_point(local_point: V2) -> (f32, f32) = |b| tup(b.world_point(local_point.0));
        /// A world point (m) in the body's frame.
        read local_point(world_point: V2) -> (f32, f32) = |b| tup(b.local_point(world_point.0));
        /// A direction in the body's frame turned into world coordinates.
        read world_vector(local_vector: V2) -> (f32, f32) = |b| tup(b.world_vector(local_vector.0));
        /// A world direction turned into the body's frame.
        read local_vector(world_vector: V2) -> (f32, f32) = |b| tup(b.local_vector(world_vector.0));
        /// Velocity (m/s) of the body's material at a world point (m).
        read world_point_velocity(world_point: V2) -> (f32, f32) = |b| tup(b.world_point_velocity(world_point.0));
        /// Bounding box of the body's shapes: ((lower x, lower y), (upper x, upper y)), m.
        read aabb() -> ((f32, f32), (f32, f32)) = |b| (tup(b.aabb().lower), tup(b.aabb().upper));
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let detail = self.read(py, |b| {
            let p = b.position();
            let t = body_type_name(b.body_type());
            format!("type={t:?}, position=({}, {})", p.x, p.y)
        });
        handle::repr(self, "Body", detail)
    }

    /// The world the body belongs to.
    #[getter]
    fn world(&self, py: Python<'_>) -> Py<World> {
        self.world.clone_ref(py)
    }

    /// Destroys the body with its shapes, chains and joints.
    fn destroy(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = self.world.bind(py).try_borrow_mut()?;
        ok(w.inner.body(self.id))?;
        w.forget_body(self.id);
        ok(w.inner.destroy_body(self.id))
    }

    #[setter]
    fn set_type(&self, py: Python<'_>, value: &str) -> PyResult<()> {
        let t = body_type(value)?;
        self.write(py, |mut b| b.set_body_type(t))
    }

    #[setter]
    fn set_angle(&self, py: Python<'_>, value: f32) -> PyResult<()> {
        let value = finite(value, "angle")?;
        self.write(py, |mut b| {
            let p = b.position();
            b.set_transform(p, Rot::from_angle(value))
        })
    }

    /// Teleports the body: origin `position` (m) and `angle` (rad).
    fn set_transform(&self, py: Python<'_>, position: V2, angle: f32) -> PyResult<()> {
        let q = Rot::from_angle(finite(angle, "angle")?);
        self.write(py, |mut b| b.set_transform(position.0, q))
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

    /// The body's shapes (chain segments included).
    fn shapes(&self, py: Python<'_>) -> PyResult<Vec<Py<Shape>>> {
        let ids = self.read(py, |b| b.shapes())?;
        ids.into_iter()
            .map(|id| Shape::handle(py, &self.world, id))
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
            .map(|id| Joint::handle(py, &self.world, id))
            .collect()
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
        let circle = Circle::new(center.0, radius);
        self.add(py, circle.map(ShapeGeometry::Circle), options)
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
        self.add(py, Ok(ShapeGeometry::Polygon(polygon)), options)
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
        let polygon = make_offset_rounded_box(hx, hy, center.0, q, radius);
        self.add(py, polygon.map(ShapeGeometry::Polygon), options)
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
        let user_data = crate::convert::options(options, "chain", |key, value| {
            Ok(surface_options!(key, value, def))
        })?;
        let mut w = self.world.bind(py).try_borrow_mut()?;
        let id = ok(w.inner.create_chain(self.id, &def))?;
        w.set_user_data((Kind::Chain, id.index(), id.generation()), user_data);
        drop(w);
        Chain::handle(py, &self.world, id)
    }
}

handle_impl! {
    /// A handle to a shape. Compares and hashes by id; raises `StaleHandleError`
    /// once the shape is destroyed.
    Shape(ShapeId): Shape, shape, shape_mut, ShapeRef, ShapeMut
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

handle_methods! {
    Shape;
    /// (slot index, generation).
    id;
    /// Whether the shape still exists.
    is_valid;
    /// Any Python object kept with the shape.
    user_data;
    views {
        /// The body the shape is attached to.
        #[getter] body_of body() -> Py<Body> = |s| s.body();
        /// "circle", "capsule", "segment", "polygon" or "chain_segment".
        #[getter] read get_type() -> &'static str = |s| shape_type_name(s.shape_type());
        /// Whether the shape is a sensor (fixed at creation).
        #[getter] read sensor() -> bool = |s| s.is_sensor();
        /// Density, kg/m². Setting it recomputes the body's mass.
        #[getter] read density() -> f32 = |s| s.density();
        #[setter] write set_density(value: f32) -> () = |mut s| s.set_density(value, true);
        /// Coulomb friction coefficient.
        #[getter] read friction() -> f32 = |s| s.friction();
        #[setter] write set_friction(value: f32) -> () = |mut s| s.set_friction(value);
        /// Coefficient of restitution (bounciness, 0 to 1).
        #[getter] read restitution() -> f32 = |s| s.restitution();
        #[setter] write set_restitution(value: f32) -> () = |mut s| s.set_restitution(value);
        /// Rolling resistance (dimensionless).
        #[getter] read rolling_resistance() -> f32 = |s| s.rolling_resistance();
        #[setter] write set_rolling_resistance(value: f32) -> () = |mut s| s.set_rolling_resistance(value);
        /// Surface speed along the shape (conveyor belts), m/s.
        #[getter] read tangent_speed() -> f32 = |s| s.tangent_speed();
        #[setter] write set_tangent_speed(value: f32) -> () = |mut s| s.set_tangent_speed(value);
        /// User material id (an int for your own friction rules).
        #[getter] read material() -> u64 = |s| s.user_material();
        #[setter] update set_material(value: u64) -> () = |mut s| s.set_user_material(value);
        /// The collision filter.
        #[getter] read filter() -> Filter = |s| s.filter().into();
        #[setter] write set_filter(value: Filter) -> () = |mut s| s.set_filter(value.into());
        /// Whether the shape reports contact begin/end events.
        #[getter] read contact_events_enabled() -> bool = |s| s.contact_events_enabled();
        #[setter] update set_contact_events_enabled(value: bool) -> () = |mut s| s.set_contact_events_enabled(value);
        /// Whether the shape reports hit events.
        #[getter] read hit_events_enabled() -> bool = |s| s.hit_events_enabled();
        #[setter] update set_hit_events_enabled(value: bool) -> () = |mut s| s.set_hit_events_enabled(value);
        /// Whether the shape is seen by sensors.
        #[getter] read sensor_events_enabled() -> bool = |s| s.sensor_events_enabled();
        #[setter] update set_sensor_events_enabled(value: bool) -> () = |mut s| s.set_sensor_events_enabled(value);
    }
    calls {
        /// Bounding box ((lower x, lower y), (upper x, upper y)), m.
        read aabb() -> ((f32, f32), (f32, f32)) = |s| (tup(s.aabb().lower), tup(s.aabb().upper));
        /// Mass properties of the shape: (mass kg, centre (m, body frame),
        /// rotational inertia about the centre kg·m²).
        read mass_data() -> (f32, (f32, f32), f32) = |s| {
            let m = s.mass_data();
            (m.mass, tup(m.center), m.rotational_inertia)
        };
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let detail = self.read(py, |s| format!("type={:?}", shape_type_name(s.shape_type())));
        handle::repr(self, "Shape", detail)
    }

    /// Destroys the shape; the body's mass is recomputed if `update_body_mass`.
    /// Chain segments are destroyed with their chain (`Chain.destroy`).
    #[pyo3(signature = (update_body_mass = true))]
    fn destroy(&self, py: Python<'_>, update_body_mass: bool) -> PyResult<()> {
        handle::destroy(self, py, |w| w.destroy_shape(self.id, update_body_mass))
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
            .map(|id| Shape::handle(py, &self.world, id))
            .collect()
    }
}

handle_impl! {
    /// A handle to a chain of one-sided segments.
    Chain(ChainId): Chain, chain, chain_mut, ChainRef, ChainMut
}

handle_methods! {
    Chain;
    /// (slot index, generation).
    id;
    /// Whether the chain still exists.
    is_valid;
    /// Any Python object kept with the chain.
    user_data;
    views {
        /// The body the chain is attached to.
        #[getter] body_of body() -> Py<Body> = |c| c.body();
        /// Whether the chain is a closed loop.
        #[getter] read is_loop() -> bool = |c| c.is_loop();
        /// Friction of every segment (reads the first).
        #[getter] read friction() -> f32 = |c| c.friction();
        #[setter] write set_friction(value: f32) -> () = |mut c| c.set_friction(value);
        /// Restitution of every segment (reads the first).
        #[getter] read restitution() -> f32 = |c| c.restitution();
        #[setter] write set_restitution(value: f32) -> () = |mut c| c.set_restitution(value);
    }
    calls {}

    /// The chain's segments (shapes of type "chain_segment").
    fn segments(&self, py: Python<'_>) -> PyResult<Vec<Py<Shape>>> {
        let ids = self.read(py, |c| c.segments())?;
        ids.into_iter()
            .map(|id| Shape::handle(py, &self.world, id))
            .collect()
    }

    /// Destroys the chain and its segments.
    fn destroy(&self, py: Python<'_>) -> PyResult<()> {
        let mut segments = Vec::new();
        handle::destroy(self, py, |w| {
            segments = w.chain(self.id)?.segments();
            w.destroy_chain(self.id)
        })?;
        let w = self.world.bind(py).try_borrow()?;
        for s in segments {
            w.set_user_data((Kind::Shape, s.index(), s.generation()), None);
        }
        Ok(())
    }
}
