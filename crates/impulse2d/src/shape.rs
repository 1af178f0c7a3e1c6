//! Shapes attached to bodies: geometry plus material (density, friction,
//! restitution), collision filter and event flags.
//!
//! A shape lives in the world's shape array at its id, linked into its body's
//! shape list, with one proxy in the broad phase whose box is the shape's
//! bounding box grown by a margin (the "fat" box), so that slow bodies do not
//! touch the broad phase every step.

use crate::body::BodyType;
use crate::broad_phase::ProxyKey;
use crate::collision::{
    Aabb, Capsule, ChainSegment, Circle, MassData, Polygon, Segment, compute_capsule_aabb,
    compute_capsule_mass, compute_circle_aabb, compute_circle_mass, compute_polygon_aabb,
    compute_polygon_mass, compute_segment_aabb,
};
use crate::contact::ContactEdges;
use crate::core::{AABB_MARGIN, AABB_MARGIN_FRACTION, SPECULATIVE_DISTANCE};
use crate::error::{Error, Result, check_finite, check_non_negative};
use crate::id::NULL_INDEX;
use crate::math::{Transform, Vec2};
use crate::pos::{WorldAabb, WorldTransform, check_finite_pos};
use crate::world::World;

def_struct! {
    /// Which shapes may collide. Two shapes collide when each one's category is
    /// in the other's mask, unless they share a non-zero group: a positive group
    /// always collides, a negative group never does.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Filter {
        /// The categories this shape belongs to (usually one bit).
        ///
        /// Box2D: `b2Filter.categoryBits`.
        pub category_bits: u64 = 1,
        /// The categories this shape collides with.
        ///
        /// Box2D: `b2Filter.maskBits`.
        pub mask_bits: u64 = u64::MAX,
        /// Group override: shapes with the same positive group always collide,
        /// with the same negative group never; zero means no group.
        ///
        /// Box2D: `b2Filter.groupIndex`.
        pub group_index: i32 = 0,
    }
    /// Box2D: `b2DefaultFilter`.
    impl Default for Filter;
}

impl Filter {
    /// Whether two filters allow a collision.
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.mask_bits & other.category_bits) != 0 && (self.category_bits & other.mask_bits) != 0
    }
}

def_struct! {
    /// The surface of a shape or of one chain segment: how contacts with it
    /// behave. Friction and restitution are mixed with the other shape's by the
    /// world's mixing rules.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct SurfaceMaterial {
        /// Coulomb friction coefficient (≥ 0).
        ///
        /// Box2D: `b2SurfaceMaterial.friction`.
        pub friction: f32 = 0.6 => check_non_negative("friction"),
        /// Coefficient of restitution (≥ 0, usually ≤ 1).
        ///
        /// Box2D: `b2SurfaceMaterial.restitution`.
        pub restitution: f32 = 0.0 => check_non_negative("restitution"),
        /// Rolling resistance (≥ 0, dimensionless; scaled by the larger radius).
        ///
        /// Box2D: `b2SurfaceMaterial.rollingResistance`.
        pub rolling_resistance: f32 = 0.0 => check_non_negative("rolling resistance"),
        /// Surface speed along the tangent, m/s (conveyor belts).
        ///
        /// Box2D: `b2SurfaceMaterial.tangentSpeed`.
        pub tangent_speed: f32 = 0.0 => check_finite("tangent speed"),
        /// A material number of the application's own; not used by the engine.
        ///
        /// Box2D: `b2SurfaceMaterial.userMaterialId`.
        pub user_material_id: u64 = 0,
        /// Debug-draw colour as `0xRRGGBB` (0 for the default colours).
        ///
        /// Box2D: `b2SurfaceMaterial.customColor`.
        pub custom_color: u32 = 0,
    }
    /// Box2D: `b2DefaultSurfaceMaterial`.
    impl Default for SurfaceMaterial;

    /// Checks the numbers; the first bad field is named in the error.
    pub fn validate(&self);
}

def_struct! {
    /// Everything but the geometry needed to create a shape. Use
    /// `..Default::default()` for the fields you do not set.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct ShapeDef {
        /// Area density, kg/m² (≥ 0). Zero-density shapes add no mass.
        ///
        /// Box2D: `b2ShapeDef.density`.
        pub density: f32 = 1.0 => check_non_negative("shape density"),
        /// Coulomb friction coefficient (≥ 0). Mixed as `√(f_a·f_b)`.
        ///
        /// Box2D: `b2ShapeDef.material`, `b2SurfaceMaterial.friction`.
        pub friction: f32 = SurfaceMaterial::default().friction => check_non_negative("shape friction"),
        /// Coefficient of restitution (≥ 0, usually ≤ 1). Mixed as `max(r_a, r_b)`.
        ///
        /// Box2D: `b2ShapeDef.material`, `b2SurfaceMaterial.restitution`.
        pub restitution: f32 = SurfaceMaterial::default().restitution => check_non_negative("shape restitution"),
        /// Rolling resistance (≥ 0, dimensionless; scaled by the larger radius).
        ///
        /// Box2D: `b2ShapeDef.material`, `b2SurfaceMaterial.rollingResistance`.
        pub rolling_resistance: f32 = SurfaceMaterial::default().rolling_resistance => check_non_negative("shape rolling resistance"),
        /// Surface speed along the tangent, m/s (conveyor belts).
        ///
        /// Box2D: `b2ShapeDef.material`, `b2SurfaceMaterial.tangentSpeed`.
        pub tangent_speed: f32 = SurfaceMaterial::default().tangent_speed => check_finite("shape tangent speed"),
        /// A material number of the application's own, reported in query results;
        /// not used by the engine.
        ///
        /// Box2D: `b2ShapeDef.material`, `b2SurfaceMaterial.userMaterialId`.
        pub user_material_id: u64 = SurfaceMaterial::default().user_material_id,
        /// Debug-draw colour as `0xRRGGBB` (0 for the default colours).
        ///
        /// Box2D: `b2ShapeDef.material`, `b2SurfaceMaterial.customColor`.
        pub custom_color: u32 = SurfaceMaterial::default().custom_color,
        /// Collision filter.
        ///
        /// Box2D: `b2ShapeDef.filter`.
        pub filter: Filter = Filter::default(),
        /// A sensor never collides (it makes no contacts); it reports the shapes
        /// overlapping it as sensor events (see [`World::sensor_events`]).
        ///
        /// Box2D: `b2ShapeDef.isSensor`.
        pub is_sensor: bool = false,
        /// Report begin/end touch events for contacts of this shape.
        ///
        /// Box2D: `b2ShapeDef.enableContactEvents`.
        pub enable_contact_events: bool = true,
        /// On a sensor: report overlaps. On other shapes: let sensors detect
        /// this shape. Both must be on for an overlap to be reported.
        ///
        /// Box2D: `b2ShapeDef.enableSensorEvents`.
        pub enable_sensor_events: bool = true,
        /// Report hit events (impacts faster than the world's hit threshold).
        ///
        /// Box2D: `b2ShapeDef.enableHitEvents`.
        pub enable_hit_events: bool = false,
        /// Call the world's pre-solve callback for contacts of this shape.
        ///
        /// Box2D: `b2ShapeDef.enablePreSolveEvents`.
        pub enable_pre_solve_events: bool = false,
        /// Ask the world's custom filter ([`World::set_custom_filter`]) about
        /// this shape's new pairs (a pair is asked about when either shape says
        /// so). On by default, unlike Box2D's opt-in default: a filter set on the
        /// world sees every pair unless shapes opt out.
        ///
        /// Box2D: `b2ShapeDef.enableCustomFiltering`.
        pub enable_custom_filtering: bool = true,
        /// Look for contacts of this shape at the next step even when it is on a
        /// static body (static shapes normally wait for moving shapes to find
        /// them, which is the same unless the shape is added next to sleeping
        /// bodies).
        ///
        /// Box2D: `b2ShapeDef.invokeContactCreation`.
        pub invoke_contact_creation: bool = false,
        /// Recompute the body's mass when this shape is added.
        ///
        /// Box2D: `b2ShapeDef.updateBodyMass`.
        pub update_body_mass: bool = true,
        /// Any number the application wants to attach.
        ///
        /// Box2D: `b2ShapeDef.userData`.
        pub user_data: u64 = 0,
    }
    /// Box2D: `b2DefaultShapeDef`.
    impl Default for ShapeDef;

    /// Checks the material numbers; the first bad field is named in the error.
    pub fn validate(&self);
}

/// The kind of a shape. The order matters: a contact's shape A has the lower
/// kind for the pairs that have a manifold function (see `contact.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeType {
    /// A [`Circle`].
    Circle,
    /// A [`Capsule`].
    Capsule,
    /// A two-sided [`Segment`].
    Segment,
    /// A [`Polygon`].
    Polygon,
    /// A one-sided [`ChainSegment`] owned by a chain.
    ChainSegment,
}

/// A shape's geometry, in its body's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeGeometry {
    /// A circle.
    Circle(Circle),
    /// A capsule.
    Capsule(Capsule),
    /// A two-sided segment.
    Segment(Segment),
    /// A convex polygon.
    Polygon(Polygon),
    /// A one-sided chain segment.
    ChainSegment(ChainSegment),
}

impl ShapeGeometry {
    /// The kind of geometry.
    pub fn shape_type(&self) -> ShapeType {
        match self {
            ShapeGeometry::Circle(_) => ShapeType::Circle,
            ShapeGeometry::Capsule(_) => ShapeType::Capsule,
            ShapeGeometry::Segment(_) => ShapeType::Segment,
            ShapeGeometry::Polygon(_) => ShapeType::Polygon,
            ShapeGeometry::ChainSegment(_) => ShapeType::ChainSegment,
        }
    }

    /// The tight bounding box at a transform (world coordinates in `f32`).
    #[inline(always)]
    pub fn compute_aabb(&self, xf: Transform) -> Aabb {
        match self {
            ShapeGeometry::Circle(c) => compute_circle_aabb(c, xf),
            ShapeGeometry::Capsule(c) => compute_capsule_aabb(c, xf),
            ShapeGeometry::Segment(s) => compute_segment_aabb(s, xf),
            ShapeGeometry::Polygon(p) => compute_polygon_aabb(p, xf),
            ShapeGeometry::ChainSegment(c) => compute_segment_aabb(&c.segment, xf),
        }
    }

    /// The margin of the shape's broad-phase box when its body moves, metres:
    /// [`AABB_MARGIN_FRACTION`] of its extent (half the length of a segment or capsule
    /// core plus the radius, the radius of a circle, the farthest vertex of a polygon from
    /// its centroid), at most [`AABB_MARGIN`]. Small shapes get small margins, so that
    /// their fat boxes do not overlap many neighbours.
    pub(crate) fn aabb_margin(&self) -> f32 {
        let extent = match self {
            ShapeGeometry::Circle(c) => c.radius,
            ShapeGeometry::Capsule(c) => 0.5 * (c.center2 - c.center1).length() + c.radius,
            ShapeGeometry::Polygon(p) => {
                let centroid = p.centroid();
                let max_sq = p
                    .vertices()
                    .iter()
                    .map(|&v| (v - centroid).length_squared())
                    .fold(0.0f32, f32::max);
                max_sq.sqrt()
            }
            ShapeGeometry::Segment(s) => 0.5 * (s.point2 - s.point1).length(),
            ShapeGeometry::ChainSegment(c) => 0.5 * (c.segment.point2 - c.segment.point1).length(),
        };
        (AABB_MARGIN_FRACTION * extent).min(AABB_MARGIN)
    }

    /// The radius of the rounded part (for rolling resistance), metres.
    pub(crate) fn radius(&self) -> f32 {
        match self {
            ShapeGeometry::Circle(c) => c.radius,
            ShapeGeometry::Capsule(c) => c.radius,
            ShapeGeometry::Polygon(p) => p.radius(),
            ShapeGeometry::Segment(_) | ShapeGeometry::ChainSegment(_) => 0.0,
        }
    }

    /// The centroid in the body frame, metres.
    pub(crate) fn centroid(&self) -> Vec2 {
        match self {
            ShapeGeometry::Circle(c) => c.center,
            ShapeGeometry::Capsule(c) => c.center1.lerp(c.center2, 0.5),
            ShapeGeometry::Polygon(p) => p.centroid(),
            ShapeGeometry::Segment(s) => s.point1.lerp(s.point2, 0.5),
            ShapeGeometry::ChainSegment(c) => c.segment.point1.lerp(c.segment.point2, 0.5),
        }
    }

    /// Validates geometry that the application may have built field by field.
    fn validate(&self) -> Result<()> {
        match self {
            ShapeGeometry::Circle(c) => {
                Circle::new(c.center, c.radius)?;
            }
            ShapeGeometry::Capsule(c) => {
                Capsule::new(c.center1, c.center2, c.radius)?;
            }
            ShapeGeometry::Segment(s) => {
                Segment::new(s.point1, s.point2)?;
            }
            ShapeGeometry::ChainSegment(c) => {
                ChainSegment::new(c.ghost1, c.segment, c.ghost2)?;
            }
            // Polygons are valid by construction (private fields).
            ShapeGeometry::Polygon(_) => {}
        }
        Ok(())
    }
}

/// A shape inside the world.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    /// The shape's index, or NULL while the slot is free.
    pub id: u32,
    pub generation: u32,
    pub body_id: u32,
    pub prev_shape_id: u32,
    pub next_shape_id: u32,
    /// The owning chain, or NULL.
    pub chain_id: u32,
    pub geometry: ShapeGeometry,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub rolling_resistance: f32,
    pub tangent_speed: f32,
    pub user_material_id: u64,
    pub custom_color: u32,
    pub filter: Filter,
    pub is_sensor: bool,
    pub enable_contact_events: bool,
    pub enable_sensor_events: bool,
    pub enable_hit_events: bool,
    pub enable_pre_solve_events: bool,
    pub enable_custom_filtering: bool,
    pub user_data: u64,
    /// The broad-phase proxy (none while the body is disabled).
    pub proxy_key: Option<ProxyKey>,
    /// The bounding box grown by the speculative distance (`f64` corners
    /// with `large-world`).
    pub aabb: WorldAabb,
    /// The box stored in the broad phase; always contains `aabb`.
    pub fat_aabb: WorldAabb,
    /// Set in body finalisation when `fat_aabb` grew this step.
    pub enlarged_aabb: bool,
    /// How much `fat_aabb` exceeds `aabb` when the body moves, metres
    /// ([`ShapeGeometry::aabb_margin`]).
    pub aabb_margin: f32,
    /// The exposed edges when the shape is a tile (a static polygon sharing
    /// an edge with another, see `tile_map.rs`), else `None`. Derived from
    /// the static shapes at the first step after the static tree changed.
    pub tile: Option<Box<crate::tile_map::TileEdges>>,
}

/// Mass data of a geometry of `density` kg/m² (zero for segments).
fn geometry_mass(geometry: &ShapeGeometry, density: f32) -> MassData {
    let r = match geometry {
        ShapeGeometry::Circle(c) => compute_circle_mass(c, density),
        ShapeGeometry::Capsule(c) => compute_capsule_mass(c, density),
        ShapeGeometry::Polygon(p) => compute_polygon_mass(p, density),
        ShapeGeometry::Segment(_) | ShapeGeometry::ChainSegment(_) => Ok(MassData::default()),
    };
    r.unwrap_or_default()
}

/// Checks that `density` gives `geometry` a finite mass, first moment and
/// rotational inertia (a density of 3e38 kg/m² on a 1 m² box does not).
pub(crate) fn check_shape_mass(geometry: &ShapeGeometry, density: f32) -> Result<()> {
    let md = geometry_mass(geometry, density);
    let moment = md.center * md.mass;
    if md.mass.is_finite() && moment.is_finite() && md.rotational_inertia.is_finite() {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what: "shape density",
            expected: "small enough for a finite mass and inertia",
            value: density,
        })
    }
}

impl Shape {
    /// The shape's surface material.
    pub(crate) fn material(&self) -> SurfaceMaterial {
        SurfaceMaterial {
            friction: self.friction,
            restitution: self.restitution,
            rolling_resistance: self.rolling_resistance,
            tangent_speed: self.tangent_speed,
            user_material_id: self.user_material_id,
            custom_color: self.custom_color,
        }
    }

    /// Sets the surface material (checked by the caller).
    pub(crate) fn set_material(&mut self, m: &SurfaceMaterial) {
        self.friction = m.friction;
        self.restitution = m.restitution;
        self.rolling_resistance = m.rolling_resistance;
        self.tangent_speed = m.tangent_speed;
        self.user_material_id = m.user_material_id;
        self.custom_color = m.custom_color;
    }

    /// Mass data from density and geometry (zero for segments).
    pub(crate) fn compute_mass(&self) -> MassData {
        geometry_mass(&self.geometry, self.density)
    }

    /// The smallest distance from the shape's centroid to its surface and the
    /// largest distance from `local_center` to any surface point, metres.
    pub(crate) fn extent(&self, local_center: Vec2) -> (f32, f32) {
        match &self.geometry {
            ShapeGeometry::Circle(c) => (c.radius, (c.center - local_center).length() + c.radius),
            ShapeGeometry::Capsule(c) => {
                let d1 = (c.center1 - local_center).length_squared();
                let d2 = (c.center2 - local_center).length_squared();
                (c.radius, d1.max(d2).sqrt() + c.radius)
            }
            ShapeGeometry::Polygon(p) => {
                let mut min_extent = f32::MAX;
                let mut max_sq = 0.0f32;
                for (v, n) in p.vertices().iter().zip(p.normals()) {
                    min_extent = min_extent.min(n.dot(*v - p.centroid()));
                    max_sq = max_sq.max((*v - local_center).length_squared());
                }
                (min_extent + p.radius(), max_sq.sqrt() + p.radius())
            }
            ShapeGeometry::Segment(s) => {
                let d1 = (s.point1 - local_center).length_squared();
                let d2 = (s.point2 - local_center).length_squared();
                (0.0, d1.max(d2).sqrt())
            }
            ShapeGeometry::ChainSegment(c) => {
                let d1 = (c.segment.point1 - local_center).length_squared();
                let d2 = (c.segment.point2 - local_center).length_squared();
                (0.0, d1.max(d2).sqrt())
            }
        }
    }
}

/// The tight world box of `geometry` at a body pose. With `large-world` the
/// box is computed in `f32` relative to the body origin and offset in `f64`
/// (its corners stay `f64`, so far from the origin it keeps its size).
#[inline(always)]
pub(crate) fn world_aabb(geometry: &ShapeGeometry, xf: WorldTransform) -> WorldAabb {
    #[cfg(feature = "large-world")]
    {
        let local = geometry.compute_aabb(Transform::new(Vec2::ZERO, xf.q));
        crate::pos::offset_aabb(local, xf.p)
    }
    #[cfg(not(feature = "large-world"))]
    {
        geometry.compute_aabb(xf)
    }
}

/// The speculative box of a shape: the tight box grown by the speculative distance.
#[inline(always)]
pub(crate) fn speculative_aabb(geometry: &ShapeGeometry, xf: WorldTransform) -> WorldAabb {
    world_aabb(geometry, xf).fattened(SPECULATIVE_DISTANCE)
}

impl World {
    /// Creates a shape on body `bi` after validating everything.
    pub(crate) fn create_shape_internal(
        &mut self,
        bi: usize,
        def: &ShapeDef,
        geometry: ShapeGeometry,
        chain_id: u32,
    ) -> Result<u32> {
        def.validate()?;
        self.note_structure_change();
        geometry.validate()?;
        check_shape_mass(&geometry, def.density)?;
        let transform = self.body_sim(bi).transform;
        // Far-away or huge geometry cannot be simulated in f32.
        let aabb = world_aabb(&geometry, transform);
        check_finite_pos(aabb.lower, "shape bounds")?;
        check_finite_pos(aabb.upper, "shape bounds")?;

        let shape_id = self.shape_ids.alloc();
        if shape_id as usize == self.shapes.len() {
            self.shapes.push(Shape {
                id: NULL_INDEX,
                generation: 0,
                body_id: NULL_INDEX,
                prev_shape_id: NULL_INDEX,
                next_shape_id: NULL_INDEX,
                chain_id: NULL_INDEX,
                geometry,
                density: 0.0,
                friction: 0.0,
                restitution: 0.0,
                rolling_resistance: 0.0,
                tangent_speed: 0.0,
                user_material_id: 0,
                custom_color: 0,
                filter: Filter::default(),
                is_sensor: false,
                enable_contact_events: false,
                enable_sensor_events: false,
                enable_hit_events: false,
                enable_pre_solve_events: false,
                enable_custom_filtering: true,
                user_data: 0,
                proxy_key: None,
                aabb: WorldAabb::default(),
                fat_aabb: WorldAabb::default(),
                enlarged_aabb: false,
                aabb_margin: 0.0,
                tile: None,
            });
        }
        let head = self.bodies[bi].head_shape_id;
        let shape = &mut self.shapes[shape_id as usize];
        debug_assert_eq!(shape.id, NULL_INDEX);
        shape.id = shape_id;
        shape.generation = shape.generation.wrapping_add(1);
        shape.body_id = bi as u32;
        shape.prev_shape_id = NULL_INDEX;
        shape.next_shape_id = head;
        shape.chain_id = chain_id;
        shape.geometry = geometry;
        shape.aabb_margin = geometry.aabb_margin();
        shape.density = def.density;
        shape.friction = def.friction;
        shape.restitution = def.restitution;
        shape.rolling_resistance = def.rolling_resistance;
        shape.tangent_speed = def.tangent_speed;
        shape.user_material_id = def.user_material_id;
        shape.custom_color = def.custom_color;
        shape.filter = def.filter;
        shape.is_sensor = def.is_sensor;
        shape.enable_contact_events = def.enable_contact_events;
        shape.enable_sensor_events = def.enable_sensor_events;
        shape.enable_hit_events = def.enable_hit_events;
        shape.enable_pre_solve_events = def.enable_pre_solve_events;
        shape.enable_custom_filtering = def.enable_custom_filtering;
        shape.user_data = def.user_data;
        shape.proxy_key = None;
        shape.enlarged_aabb = false;
        shape.aabb = aabb;
        shape.fat_aabb = aabb;
        shape.tile = None; // classified at the next step (`tile_map.rs`)

        if head != NULL_INDEX {
            self.shapes[head as usize].prev_shape_id = shape_id;
        }
        self.bodies[bi].head_shape_id = shape_id;
        self.bodies[bi].shape_count += 1;

        if self.bodies[bi].set_index != crate::solver::solver_set::DISABLED_SET {
            let body_type = self.bodies[bi].body_type;
            let force = def.invoke_contact_creation;
            if let Err(e) = self.create_shape_proxy(shape_id as usize, body_type, transform, force)
            {
                self.unlink_shape_from_body(shape_id as usize);
                self.free_shape_slot(shape_id);
                return Err(e);
            }
        }

        if def.is_sensor {
            self.create_sensor(shape_id); // events: sensor overlap tracking
        }
        if def.update_body_mass {
            self.update_body_mass_data(bi);
        } else {
            // Extents are still needed for sleep and continuous collision.
            let lc = self.body_sim(bi).local_center;
            let (lo, hi) = self.shapes[shape_id as usize].extent(lc);
            let sim = self.body_sim_mut(bi);
            sim.min_extent = sim.min_extent.min(lo);
            sim.max_extent = sim.max_extent.max(hi);
        }
        Ok(shape_id)
    }

    /// Inserts the shape's fat box in the broad phase.
    pub(crate) fn create_shape_proxy(
        &mut self,
        si: usize,
        body_type: BodyType,
        transform: WorldTransform,
        force_pair_creation: bool,
    ) -> Result<()> {
        let shape = &mut self.shapes[si];
        debug_assert!(shape.proxy_key.is_none());
        shape.aabb = world_aabb(&shape.geometry, transform);
        // Static shapes never move, so a small margin keeps their tree tight.
        let margin = if body_type == BodyType::Static {
            SPECULATIVE_DISTANCE
        } else {
            shape.aabb_margin
        };
        shape.fat_aabb = shape.aabb.fattened(margin);
        let key = self.broad_phase.create_proxy(
            shape.fat_aabb,
            shape.filter.category_bits,
            si as u32,
            body_type,
            force_pair_creation,
        )?;
        self.shapes[si].proxy_key = Some(key);
        Ok(())
    }

    /// Removes the shape's proxy from the broad phase, if it has one.
    pub(crate) fn destroy_shape_proxy(&mut self, si: usize) {
        if let Some(key) = self.shapes[si].proxy_key.take() {
            let result = self.broad_phase.destroy_proxy(key);
            debug_assert!(result.is_ok());
        }
    }

    /// Recomputes a shape's box at a new transform; when it leaves the fat box,
    /// grows the fat box and moves the proxy.
    pub(crate) fn refresh_shape_aabb(
        &mut self,
        si: usize,
        transform: WorldTransform,
        move_proxy: bool,
    ) {
        let shape = &mut self.shapes[si];
        let aabb = speculative_aabb(&shape.geometry, transform);
        shape.aabb = aabb;
        if !shape.fat_aabb.contains(&aabb) {
            shape.fat_aabb = aabb.fattened(shape.aabb_margin);
            if move_proxy && let Some(key) = shape.proxy_key {
                let result = self.broad_phase.move_proxy(key, self.shapes[si].fat_aabb);
                debug_assert!(result.is_ok());
            }
        }
    }

    fn unlink_shape_from_body(&mut self, si: usize) {
        let (bi, prev, next) = {
            let s = &self.shapes[si];
            (s.body_id as usize, s.prev_shape_id, s.next_shape_id)
        };
        if prev != NULL_INDEX {
            self.shapes[prev as usize].next_shape_id = next;
        } else {
            self.bodies[bi].head_shape_id = next;
        }
        if next != NULL_INDEX {
            self.shapes[next as usize].prev_shape_id = prev;
        }
        self.bodies[bi].shape_count -= 1;
    }

    /// Marks a shape slot free (keeps the generation).
    pub(crate) fn free_shape_slot(&mut self, shape_id: u32) {
        self.destroy_sensor(shape_id); // events: a destroyed sensor ends its overlaps
        let shape = &mut self.shapes[shape_id as usize];
        shape.id = NULL_INDEX;
        shape.proxy_key = None;
        shape.body_id = NULL_INDEX;
        shape.prev_shape_id = NULL_INDEX;
        shape.next_shape_id = NULL_INDEX;
        shape.chain_id = NULL_INDEX;
        self.shape_ids.free(shape_id);
    }

    /// Destroys a shape's contacts and proxy and frees its slot.
    pub(crate) fn destroy_shape_internal(&mut self, si: usize, wake: bool) {
        self.note_structure_change();
        self.destroy_shape_contacts(si, wake);
        self.destroy_shape_proxy(si);
        self.unlink_shape_from_body(si);
        self.free_shape_slot(si as u32);
    }

    /// Destroys every contact that involves the shape.
    pub(crate) fn destroy_shape_contacts(&mut self, si: usize, wake: bool) {
        let mut edges = ContactEdges::of(&self.bodies[self.shapes[si].body_id as usize]);
        while let Some((contact_id, _)) = edges.next(&self.contacts) {
            if self.contacts[contact_id as usize].has_shape(si) {
                self.destroy_contact(contact_id, wake);
            }
        }
    }

    /// Replaces shape `si`'s filter. Contacts the new filter no longer allows
    /// are destroyed at once (reporting end-touch events and waking the
    /// bodies); the others are kept; new pairs are found at the next step.
    pub(crate) fn refilter_shape(&mut self, si: usize, filter: Filter) -> Result<()> {
        if self.shapes[si].filter == filter {
            return Ok(());
        }
        self.shapes[si].filter = filter;
        self.destroy_filtered_contacts(si); // events: keep the contacts still allowed
        let bi = self.shapes[si].body_id as usize;
        let mut result = Ok(());
        if self.shapes[si].proxy_key.is_some() {
            let body_type = self.bodies[bi].body_type;
            let transform = self.body_sim(bi).transform;
            self.destroy_shape_proxy(si);
            result = self.create_shape_proxy(si, body_type, transform, true);
        }
        // A panic of the custom filter, now that the shape is consistent.
        self.resume_callback_panic();
        result
    }

    /// Replaces shape `si`'s geometry: its contacts are destroyed (waking the
    /// bodies they touched) and found again at the next step, its broad-phase
    /// proxy is made anew at the new size, and the body's mass and extents are
    /// recomputed. Segments of a chain belong to it and cannot be changed; a
    /// free-standing chain segment's `chain_id` is ignored.
    pub(crate) fn reshape(&mut self, si: usize, geometry: ShapeGeometry) -> Result<()> {
        if self.shapes[si].chain_id != NULL_INDEX {
            return Err(Error::InvalidOperation(
                "a chain segment's geometry belongs to its chain",
            ));
        }
        let geometry = match geometry {
            ShapeGeometry::ChainSegment(c) => ShapeGeometry::ChainSegment(ChainSegment {
                chain_id: NULL_INDEX,
                ..c
            }),
            g => g,
        };
        geometry.validate()?;
        check_shape_mass(&geometry, self.shapes[si].density)?;
        let bi = self.shapes[si].body_id as usize;
        let transform = self.body_sim(bi).transform;
        let aabb = world_aabb(&geometry, transform);
        check_finite_pos(aabb.lower, "shape bounds")?;
        check_finite_pos(aabb.upper, "shape bounds")?;

        self.destroy_shape_contacts(si, true);
        let shape = &mut self.shapes[si];
        shape.geometry = geometry;
        shape.aabb_margin = geometry.aabb_margin();
        if shape.proxy_key.is_some() {
            let body_type = self.bodies[bi].body_type;
            self.destroy_shape_proxy(si);
            self.create_shape_proxy(si, body_type, transform, true)?;
        } else {
            shape.aabb = aabb;
            shape.fat_aabb = aabb;
        }
        self.wake_body(bi);
        self.update_body_mass_data(bi);
        Ok(())
    }
}

/// Density of air at sea level and 15 °C, kg/m³ (wind on a 2D shape takes
/// the world as one metre deep).
pub const AIR_DENSITY: f32 = 1.225;

/// The aerodynamic force (N) and its torque about the body's centre of mass
/// `center` (N·m) on a shape of a body with transform `xf`, velocity `v` and
/// angular velocity `w`, in air moving at `wind` (see
/// [`ShapeView::apply_wind`](crate::api::ShapeView::apply_wind)).
///
/// The air's velocity relative to the shape, `u = wind − drag·(velocity of
/// the shape's centroid)`, is taken as uniform over the shape. A face of
/// length `L` and outward normal `n` with `n·û < 0` is hit by the air; its
/// width across the wind is `−L·(n·û)` and it takes the dynamic pressure
/// `q = ½ρ|u|²` over that width, pushing along `û`, plus `lift` times that
/// force along the part of `−n` perpendicular to `û`. A circle presents its
/// diameter; a capsule its diameter plus its core segment's width across the
/// wind, with the lift of the core's windward side. Polygon rounding is
/// ignored. Segments feel nothing.
#[allow(clippy::too_many_arguments)]
pub(crate) fn wind_load(
    geometry: &ShapeGeometry,
    xf: WorldTransform,
    center: crate::pos::Pos,
    v: Vec2,
    w: f32,
    wind: Vec2,
    drag: f32,
    lift: f32,
) -> (Vec2, f32) {
    let centroid = xf.apply(geometry.centroid());
    let shape_velocity = v + Vec2::scalar_cross(w, centroid - center);
    let u = wind - shape_velocity * drag;
    let (dir, speed) = u.get_length_and_normalize();
    if speed == 0.0 {
        return (Vec2::ZERO, 0.0);
    }
    let q = 0.5 * AIR_DENSITY * speed * speed;
    // The force on one windward face (length `len`, unit outward normal `n`).
    let face = |n: Vec2, len: f32| -> Vec2 {
        let width = -len * n.dot(dir);
        if width <= 0.0 {
            return Vec2::ZERO;
        }
        let side = (n - dir * n.dot(dir)) * -1.0;
        (dir + side * lift) * (q * width)
    };
    match geometry {
        ShapeGeometry::Circle(c) => {
            let f = dir * (q * 2.0 * c.radius);
            (f, (centroid - center).cross(f))
        }
        ShapeGeometry::Capsule(c) => {
            let d = xf.q.rotate(c.center2 - c.center1);
            let (axis, len) = d.get_length_and_normalize();
            // The core's two long sides: take the one facing the wind.
            let mut n = axis.right_perp();
            if n.dot(dir) > 0.0 {
                n = -n;
            }
            let f = dir * (q * 2.0 * c.radius) + face(n, len);
            (f, (centroid - center).cross(f))
        }
        ShapeGeometry::Polygon(p) => {
            let vs = p.vertices();
            let mut force = Vec2::ZERO;
            let mut torque = 0.0;
            let mut v1 = xf.apply(vs[vs.len() - 1]);
            for &local in vs {
                let v2 = xf.apply(local);
                let (edge, len) = (v2 - v1).get_length_and_normalize();
                // Counter-clockwise winding: the outward normal is on the right.
                let f = face(edge.right_perp(), len);
                #[cfg(not(feature = "large-world"))]
                let mid = (v1 + v2) * 0.5;
                #[cfg(feature = "large-world")]
                let mid = v1 + (v2 - v1) * 0.5;
                force += f;
                torque += (mid - center).cross(f);
                v1 = v2;
            }
            (force, torque)
        }
        ShapeGeometry::Segment(_) | ShapeGeometry::ChainSegment(_) => (Vec2::ZERO, 0.0),
    }
}
