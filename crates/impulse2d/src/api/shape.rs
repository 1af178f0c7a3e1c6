//! [`ShapeView`]: reading and changing one shape.
//!
//! Covers Box2D's `b2Shape_*` functions (creation and destruction stay on
//! [`World`]: `b2CreateCircleShape` is [`World::create_circle_shape`], and so
//! on; `b2DestroyShape` is [`World::destroy_shape`]).

use std::ops::Deref;

use crate::body::BodyType;
use crate::collision::{
    Aabb, Capsule, CastOutput, ChainSegment, Circle, MassData, Polygon, RayCastInput, Segment,
};
use crate::contact::ContactData;
use crate::error::{Error, Result, check_finite, check_finite_vec, check_non_negative};
use crate::id::{BodyId, ChainId, NULL_INDEX, ShapeId};
use crate::math::Vec2;
use crate::shape::{Filter, ShapeDef, ShapeGeometry, ShapeType, SurfaceMaterial};
use crate::snapshot::recording::Logged;
use crate::solver::solver_set::AWAKE_SET;
use crate::world::World;

pub use crate::shape::AIR_DENSITY;

/// Declares the methods that take or give one kind of geometry, one row
/// each, the kind named by the geometry's type (a `ShapeGeometry` variant):
/// `World`'s creators (`fn create_x_shape(&mut self, body: BodyId, def:
/// &ShapeDef, x: &X);`), the view's getters (`fn x(&self) -> Option<X>;`)
/// and setters (`fn set_x(&mut self, x: &X);`, through `World::reshape`).
macro_rules! geometry_methods {
    () => {};

    (
        $(#[$doc:meta])*
        fn $f:ident(&mut self, body: BodyId, def: &ShapeDef, $g:ident: &$kind:ident);
        $($rest:tt)*
    ) => {
        $(#[$doc])*
        pub fn $f(&mut self, body: BodyId, def: &ShapeDef, $g: &$kind) -> Result<ShapeId> {
            self.create_shape(body, def, ShapeGeometry::$kind(*$g))
        }

        geometry_methods!($($rest)*);
    };

    ($(#[$doc:meta])* fn $f:ident(&self) -> Option<$kind:ident>; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $f(&self) -> Option<$kind> {
            match self.data().geometry {
                ShapeGeometry::$kind(g) => Some(g),
                _ => None,
            }
        }

        geometry_methods!($($rest)*);
    };

    ($(#[$doc:meta])* fn $f:ident(&mut self, $g:ident: &$kind:ident); $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $f(&mut self, $g: &$kind) -> Result<()> {
            self.world.reshape(self.index, ShapeGeometry::$kind(*$g))
        }

        geometry_methods!($($rest)*);
    };
}

view! {
    /// One shape of a world, validated once: the world borrow (`&World` or
    /// `&mut World`) and the shape's index. Made by [`World::shape`] and
    /// [`World::shape_mut`]; [`ShapeRef`] reads, [`ShapeMut`] also writes.
    ///
    /// Box2D: the `b2Shape_*` functions; `b2Shape_IsValid` is
    /// [`World::shape`]`(id).is_ok()`, `b2Shape_GetWorld` is moot (the view
    /// borrows the world).
    pub struct ShapeView<W>(ShapeId = shape_index, make_shape_id, "shape"): ShapeRef, ShapeMut;
    ///
    /// Box2D: `b2Shape_IsValid`.
    World::shape;
    /// Taking one advances [`World::structure_generation`] (a
    /// [`RollbackState`](crate::RollbackState) does not hold shape settings).
    World::shape_mut then note_structure_change;
    /// The world the view reads.
    ///
    /// Box2D: `b2Shape_GetWorld`.
    ShapeRef::world;
}

impl World {
    geometry_methods! {
        /// Attaches a circle to a body.
        ///
        /// Box2D: `b2CreateCircleShape`.
        fn create_circle_shape(&mut self, body: BodyId, def: &ShapeDef, circle: &Circle);
        /// Attaches a capsule to a body.
        ///
        /// Box2D: `b2CreateCapsuleShape`.
        fn create_capsule_shape(&mut self, body: BodyId, def: &ShapeDef, capsule: &Capsule);
        /// Attaches a convex polygon to a body.
        ///
        /// Box2D: `b2CreatePolygonShape`.
        fn create_polygon_shape(&mut self, body: BodyId, def: &ShapeDef, polygon: &Polygon);
        /// Attaches a two-sided segment to a body (it has no mass; use it on static
        /// or kinematic bodies).
        ///
        /// Box2D: `b2CreateSegmentShape`.
        fn create_segment_shape(&mut self, body: BodyId, def: &ShapeDef, segment: &Segment);
    }

    /// Attaches a free-standing one-sided chain segment (with its ghost
    /// vertices) to a body; its `chain_id` is ignored (the shape belongs to no
    /// chain). Chains are made by [`World::create_chain`].
    ///
    /// Box2D: `b2CreateChainSegmentShape`.
    pub fn create_chain_segment_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        segment: &ChainSegment,
    ) -> Result<ShapeId> {
        let bi = self.body_index(body)?;
        let geometry = ShapeGeometry::ChainSegment(ChainSegment {
            chain_id: NULL_INDEX,
            ..*segment
        });
        let index = self.create_shape_internal(bi, def, geometry, NULL_INDEX)?;
        Ok(self.make_shape_id(index))
    }

    /// Attaches any geometry to a body. Chain segments can only be made by
    /// [`World::create_chain`].
    pub fn create_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        geometry: ShapeGeometry,
    ) -> Result<ShapeId> {
        if matches!(geometry, ShapeGeometry::ChainSegment(_)) {
            return Err(Error::InvalidOperation(
                "chain segments are created by create_chain",
            ));
        }
        self.logged(
            || Logged::CreateShape(body, *def, geometry),
            |w| {
                let bi = w.body_index(body)?;
                let index = w.create_shape_internal(bi, def, geometry, NULL_INDEX)?;
                Ok(w.make_shape_id(index))
            },
        )
    }

    /// Destroys a shape and its contacts (waking the bodies it touched).
    /// `update_body_mass` recomputes the body's mass without it. Chain segments
    /// are destroyed with their chain ([`World::destroy_chain`]).
    ///
    /// Box2D: `b2DestroyShape`.
    pub fn destroy_shape(&mut self, id: ShapeId, update_body_mass: bool) -> Result<()> {
        self.logged(
            || Logged::DestroyShape(id, update_body_mass),
            |w| {
                let si = w.shape_index(id)?;
                if w.shapes[si].chain_id != NULL_INDEX {
                    return Err(Error::InvalidOperation(
                        "a chain segment is destroyed with its chain",
                    ));
                }
                let bi = w.shapes[si].body_id as usize;
                w.destroy_shape_internal(si, true);
                if update_body_mass {
                    w.update_body_mass_data(bi);
                }
                Ok(())
            },
        )
    }
}

impl<W: Deref<Target = World>> ShapeView<W> {
    fn data(&self) -> &crate::shape::Shape {
        &self.world.shapes[self.index]
    }

    /// The body the shape is attached to.
    ///
    /// Box2D: `b2Shape_GetBody`.
    pub fn body(&self) -> BodyId {
        self.world.make_body_id(self.data().body_id)
    }

    /// The chain the shape is a segment of, if any.
    ///
    /// Box2D: `b2Shape_GetParentChain`.
    pub fn parent_chain(&self) -> Option<ChainId> {
        let ci = self.data().chain_id;
        (ci != NULL_INDEX).then(|| self.world.make_chain_id(ci))
    }

    /// The kind of geometry.
    ///
    /// Box2D: `b2Shape_GetType`.
    pub fn shape_type(&self) -> ShapeType {
        self.data().geometry.shape_type()
    }

    /// The geometry, in the body frame.
    pub fn geometry(&self) -> ShapeGeometry {
        self.data().geometry
    }

    geometry_methods! {
        /// The circle, when the shape is one.
        ///
        /// Box2D: `b2Shape_GetCircle`.
        fn circle(&self) -> Option<Circle>;
        /// The capsule, when the shape is one.
        ///
        /// Box2D: `b2Shape_GetCapsule`.
        fn capsule(&self) -> Option<Capsule>;
        /// The polygon, when the shape is one.
        ///
        /// Box2D: `b2Shape_GetPolygon`.
        fn polygon(&self) -> Option<Polygon>;
        /// The segment, when the shape is one.
        ///
        /// Box2D: `b2Shape_GetSegment`.
        fn segment(&self) -> Option<Segment>;
        /// The chain segment (with its ghost vertices), when the shape is one.
        ///
        /// Box2D: `b2Shape_GetChainSegment`.
        fn chain_segment(&self) -> Option<ChainSegment>;
    }

    /// The speculative bounding box (tight box grown by the speculative distance).
    /// `f32`; with `large-world` the `f64` box rounded outwards.
    ///
    /// Box2D: `b2Shape_GetAABB`.
    pub fn aabb(&self) -> Aabb {
        crate::pos::to_aabb(self.data().aabb)
    }

    /// Mass, centroid (body frame) and rotational inertia about the centroid
    /// of this shape alone, from its density and geometry.
    ///
    /// Box2D: `b2Shape_ComputeMassData`.
    pub fn mass_data(&self) -> MassData {
        self.data().compute_mass()
    }

    /// Area density, kg/m².
    ///
    /// Box2D: `b2Shape_GetDensity`.
    pub fn density(&self) -> f32 {
        self.data().density
    }

    /// Friction coefficient.
    ///
    /// Box2D: `b2Shape_GetFriction`.
    pub fn friction(&self) -> f32 {
        self.data().friction
    }

    /// Coefficient of restitution.
    ///
    /// Box2D: `b2Shape_GetRestitution`.
    pub fn restitution(&self) -> f32 {
        self.data().restitution
    }

    /// Rolling resistance (dimensionless).
    pub fn rolling_resistance(&self) -> f32 {
        self.data().rolling_resistance
    }

    /// Surface speed along the tangent, m/s.
    pub fn tangent_speed(&self) -> f32 {
        self.data().tangent_speed
    }

    /// The application's material number.
    ///
    /// Box2D: `b2Shape_GetUserMaterial`.
    pub fn user_material(&self) -> u64 {
        self.data().user_material_id
    }

    /// The whole surface material.
    ///
    /// Box2D: `b2Shape_GetSurfaceMaterial`.
    pub fn surface_material(&self) -> SurfaceMaterial {
        self.data().material()
    }

    /// The collision filter.
    ///
    /// Box2D: `b2Shape_GetFilter`.
    pub fn filter(&self) -> Filter {
        self.data().filter
    }

    /// Whether the shape is a sensor.
    ///
    /// Box2D: `b2Shape_IsSensor`.
    pub fn is_sensor(&self) -> bool {
        self.data().is_sensor
    }

    /// The shape's user data.
    ///
    /// Box2D: `b2Shape_GetUserData`.
    pub fn user_data(&self) -> u64 {
        self.data().user_data
    }

    /// Whether new contacts of this shape report begin/end touch events.
    ///
    /// Box2D: `b2Shape_AreContactEventsEnabled`.
    pub fn contact_events_enabled(&self) -> bool {
        self.data().enable_contact_events
    }

    /// Whether the shape reports hit events.
    ///
    /// Box2D: `b2Shape_AreHitEventsEnabled`.
    pub fn hit_events_enabled(&self) -> bool {
        self.data().enable_hit_events
    }

    /// Whether the shape takes part in sensor events (as a sensor: reports
    /// overlaps; otherwise: is seen by sensors).
    ///
    /// Box2D: `b2Shape_AreSensorEventsEnabled`.
    pub fn sensor_events_enabled(&self) -> bool {
        self.data().enable_sensor_events
    }

    /// Whether the world's pre-solve callback is called for this shape's contacts.
    ///
    /// Box2D: `b2Shape_ArePreSolveEventsEnabled`.
    pub fn pre_solve_events_enabled(&self) -> bool {
        self.data().enable_pre_solve_events
    }

    /// An upper bound of the number of contacts [`ShapeView::contacts`] returns.
    ///
    /// Box2D: `b2Shape_GetContactCapacity`.
    pub fn contact_capacity(&self) -> usize {
        self.world.bodies[self.data().body_id as usize].contact_count as usize
    }

    /// The touching contacts of this shape (manifold with at least one point).
    ///
    /// Box2D: `b2Shape_GetContactData`.
    pub fn contacts(&self) -> Vec<ContactData> {
        self.world.shape_contact_data(self.index)
    }

    /// An upper bound of the number of shapes [`ShapeView::sensor_overlaps`]
    /// returns (0 when the shape is not a sensor).
    ///
    /// Box2D: `b2Shape_GetSensorCapacity`.
    pub fn sensor_capacity(&self) -> usize {
        self.world.sensor_capacity_at(self.index)
    }

    /// The shapes overlapping this sensor at the end of the last step (shapes
    /// destroyed since are left out).
    ///
    /// # Errors
    /// [`Error::InvalidOperation`] when the shape is not a sensor.
    ///
    /// Box2D: `b2Shape_GetSensorData`.
    pub fn sensor_overlaps(&self) -> Result<Vec<ShapeId>> {
        self.world
            .sensor_overlaps_at(self.index)
            .ok_or(Error::InvalidOperation("the shape is not a sensor"))
    }

    /// Casts a ray, given in world coordinates, against this shape (whatever
    /// its filter, and even when it is a sensor). The output is in world
    /// coordinates; a ray starting inside the shape hits at fraction 0 with a
    /// zero normal.
    ///
    /// # Errors
    /// A ray with non-finite numbers or a negative `max_fraction`.
    ///
    /// Box2D: `b2Shape_RayCast`.
    pub fn ray_cast(&self, input: &RayCastInput) -> Result<CastOutput> {
        self.world.shape_ray_cast(self.index, input)
    }

    /// Whether a world point (metres) is inside the shape. Segments and
    /// chain segments have no inside.
    ///
    /// # Errors
    /// A non-finite point.
    ///
    /// Box2D: `b2Shape_TestPoint`.
    pub fn test_point(&self, point: Vec2) -> Result<bool> {
        check_finite_vec(point, "point")?;
        Ok(self.world.shape_test_point(self.index, point))
    }

    /// The point of the shape closest to `target` (world frame, metres): the
    /// target itself when it is inside the shape.
    ///
    /// # Errors
    /// A non-finite target.
    ///
    /// Box2D: `b2Shape_GetClosestPoint`.
    pub fn closest_point(&self, target: Vec2) -> Result<Vec2> {
        check_finite_vec(target, "target")?;
        Ok(self.world.shape_closest_point(self.index, target))
    }
}

impl ShapeView<&mut World> {
    /// Replaces the shape's user data.
    ///
    /// Box2D: `b2Shape_SetUserData`.
    pub fn set_user_data(&mut self, user_data: u64) {
        self.world.shapes[self.index].user_data = user_data;
    }

    /// Sets the density (kg/m², ≥ 0); `update_body_mass` recomputes the body's mass.
    /// A density that would give the shape an infinite mass or inertia is an
    /// error.
    ///
    /// Box2D: `b2Shape_SetDensity`.
    pub fn set_density(&mut self, density: f32, update_body_mass: bool) -> Result<()> {
        check_non_negative(density, "shape density")?;
        crate::shape::check_shape_mass(&self.world.shapes[self.index].geometry, density)?;
        self.world.shapes[self.index].density = density;
        if update_body_mass {
            let bi = self.world.shapes[self.index].body_id as usize;
            self.world.update_body_mass_data(bi);
        }
        Ok(())
    }

    /// Changes the material and makes the shape's contacts pick it up at the
    /// next step.
    fn change_material(&mut self, change: impl FnOnce(&mut SurfaceMaterial)) -> Result<()> {
        let mut m = self.world.shapes[self.index].material();
        change(&mut m);
        m.validate()?;
        self.world.shapes[self.index].set_material(&m);
        self.world.refresh_shape_contacts(self.index);
        Ok(())
    }

    /// Sets the friction coefficient (≥ 0); contacts pick it up next step.
    ///
    /// Box2D: `b2Shape_SetFriction`.
    pub fn set_friction(&mut self, friction: f32) -> Result<()> {
        self.change_material(|m| m.friction = friction)
    }

    /// Sets the coefficient of restitution (≥ 0); contacts pick it up next step.
    ///
    /// Box2D: `b2Shape_SetRestitution`.
    pub fn set_restitution(&mut self, restitution: f32) -> Result<()> {
        self.change_material(|m| m.restitution = restitution)
    }

    /// Sets the rolling resistance (≥ 0); contacts pick it up next step.
    pub fn set_rolling_resistance(&mut self, rolling_resistance: f32) -> Result<()> {
        self.change_material(|m| m.rolling_resistance = rolling_resistance)
    }

    /// Sets the surface speed along the tangent, m/s (conveyor belts);
    /// contacts pick it up next step.
    pub fn set_tangent_speed(&mut self, tangent_speed: f32) -> Result<()> {
        self.change_material(|m| m.tangent_speed = tangent_speed)
    }

    /// Sets the application's material number.
    ///
    /// Box2D: `b2Shape_SetUserMaterial`.
    pub fn set_user_material(&mut self, material: u64) {
        self.world.shapes[self.index].user_material_id = material;
    }

    /// Replaces the whole surface material (checked first: nothing changes
    /// when a number is bad).
    ///
    /// Box2D: `b2Shape_SetSurfaceMaterial`.
    pub fn set_surface_material(&mut self, material: &SurfaceMaterial) -> Result<()> {
        self.change_material(|m| *m = *material)
    }

    /// Replaces the collision filter. Contacts the new filter no longer allows
    /// are destroyed at once (reporting end-touch events and waking the
    /// bodies); the others are kept; new pairs are found at the next step.
    ///
    /// Box2D: `b2Shape_SetFilter`.
    pub fn set_filter(&mut self, filter: Filter) -> Result<()> {
        self.world.refilter_shape(self.index, filter)
    }

    /// Turns begin/end touch events on or off for contacts of this shape made
    /// from now on (existing contacts keep reporting as they were created, so
    /// that every begin still gets its end).
    ///
    /// Box2D: `b2Shape_EnableContactEvents`.
    pub fn set_contact_events_enabled(&mut self, enable: bool) {
        self.world.shapes[self.index].enable_contact_events = enable;
    }

    /// Turns hit events on or off for this shape (from the next step).
    ///
    /// Box2D: `b2Shape_EnableHitEvents`.
    pub fn set_hit_events_enabled(&mut self, enable: bool) {
        self.world.shapes[self.index].enable_hit_events = enable;
        // The contacts' hit flag is refreshed with their manifold.
        self.world.refresh_shape_contacts(self.index);
    }

    /// Turns sensor events on or off for this shape. On a sensor, turning
    /// them off ends its overlaps at the next step; on another shape, it stops
    /// (or starts) being seen by sensors from the next step.
    ///
    /// Box2D: `b2Shape_EnableSensorEvents`.
    pub fn set_sensor_events_enabled(&mut self, enable: bool) {
        self.world.shapes[self.index].enable_sensor_events = enable;
    }

    /// Turns the pre-solve callback on or off for this shape's contacts (from
    /// the next step).
    ///
    /// Box2D: `b2Shape_EnablePreSolveEvents`.
    pub fn set_pre_solve_events_enabled(&mut self, enable: bool) {
        self.world.shapes[self.index].enable_pre_solve_events = enable;
        self.world.refresh_shape_contacts(self.index);
    }

    geometry_methods! {
        /// Makes the shape a circle. Its contacts are destroyed (waking the
        /// bodies) and found again at the next step at the new size; the body's
        /// mass is recomputed from its shapes.
        ///
        /// # Errors
        /// Invalid geometry, or a chain segment (it belongs to its chain).
        ///
        /// Box2D: `b2Shape_SetCircle`.
        fn set_circle(&mut self, circle: &Circle);
        /// Makes the shape a capsule (see [`ShapeView::set_circle`]).
        ///
        /// Box2D: `b2Shape_SetCapsule`.
        fn set_capsule(&mut self, capsule: &Capsule);
        /// Makes the shape a polygon (see [`ShapeView::set_circle`]).
        ///
        /// Box2D: `b2Shape_SetPolygon`.
        fn set_polygon(&mut self, polygon: &Polygon);
        /// Makes the shape a two-sided segment (see [`ShapeView::set_circle`]).
        ///
        /// Box2D: `b2Shape_SetSegment`.
        fn set_segment(&mut self, segment: &Segment);
        /// Makes the shape a free-standing one-sided chain segment (with its
        /// ghost vertices; its `chain_id` is ignored) (see
        /// [`ShapeView::set_circle`]).
        ///
        /// Box2D: `b2Shape_SetChainSegment`.
        fn set_chain_segment(&mut self, segment: &ChainSegment);
    }

    /// Pushes the shape's body with the force of the air moving at `wind`
    /// (m/s, world frame) past it, for the next step (as
    /// [`BodyView::apply_force`](crate::api::BodyView::apply_force)).
    ///
    /// The air's velocity relative to the shape is `wind − drag·v`, with `v`
    /// the velocity of the shape's centroid: `drag` (≥ 0, dimensionless) says
    /// how much the shape's own motion counts (1 for a body moving through
    /// still air). Each face turned to the relative wind takes the dynamic
    /// pressure `½ρ|u|²` ([`AIR_DENSITY`], the world one metre deep) over its
    /// width projected across the wind, along the wind, plus `lift` (≥ 0,
    /// dimensionless) times that force across the wind, turned away from the
    /// face; a circle presents its diameter. The force acts at the face's
    /// centre (a circle's centre), so an off-centre shape also feels a torque.
    ///
    /// Only circles, capsules and polygons on dynamic bodies feel wind; a
    /// sleeping body is left alone unless `wake` is set.
    ///
    /// # Errors
    /// A non-finite wind, a negative or non-finite drag or lift.
    ///
    /// Box2D: `b2Shape_ApplyWind`.
    pub fn apply_wind(&mut self, wind: Vec2, drag: f32, lift: f32, wake: bool) -> Result<()> {
        check_finite_vec(wind, "wind")?;
        check_non_negative(drag, "drag")?;
        check_non_negative(lift, "lift")?;
        let bi = self.world.shapes[self.index].body_id as usize;
        let geometry = self.world.shapes[self.index].geometry;
        if matches!(
            geometry,
            ShapeGeometry::Segment(_) | ShapeGeometry::ChainSegment(_)
        ) || self.world.bodies[bi].body_type != BodyType::Dynamic
            || !self.world.force_target(bi, wake)
        {
            return Ok(());
        }
        debug_assert_eq!(self.world.bodies[bi].set_index, AWAKE_SET);
        let state = *self
            .world
            .body_state(bi)
            .expect("an awake body has a state");
        let sim = self.world.body_sim_mut(bi);
        let (force, torque) = crate::shape::wind_load(
            &geometry,
            sim.transform,
            sim.center,
            state.linear_velocity,
            state.angular_velocity,
            wind,
            drag,
            lift,
        );
        check_finite_vec(force, "wind force")?;
        check_finite(torque, "wind torque")?;
        sim.force += force;
        sim.torque += torque;
        Ok(())
    }
}
