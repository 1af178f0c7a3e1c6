//! JavaScript bindings for Impulse2D, through `wasm-bindgen`.
//!
//! The classes [`World`], [`Body`], [`Shape`] and [`Joint`] are what the npm
//! package exports. A `Body`, `Shape` or `Joint` is a handle: it shares its
//! world and holds an id, so every call checks the id first and throws when
//! the object was destroyed (a stale handle). Numbers are checked by the
//! engine: NaN or infinity throws and changes nothing.
//!
//! Units are the engine's: metres, kilograms, seconds, radians.
//!
//! Worker threads are not available on `wasm32-unknown-unknown`: a world runs
//! its step on the calling thread, with the same bits as the native build.

mod draw;
mod handles;

use std::cell::RefCell;
use std::rc::Rc;

use impulse2d::collision::{Aabb, Capsule, Circle, Segment, compute_hull, make_box, make_polygon};
use impulse2d::{
    BodyDef, BodyId, JointDef, QueryFilter, Rot, ShapeDef as EngineShapeDef, ShapeId, Vec2 as V2,
    WorldDef,
};
use impulse2d_scenes::Scene;
use wasm_bindgen::prelude::*;

pub use draw::DrawFlags;
pub use handles::{Body, Joint, Shape};

/// An engine error as a JavaScript `Error`.
pub(crate) fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A result whose error becomes a thrown JavaScript `Error`.
pub(crate) type JsResult<T> = Result<T, JsError>;

#[cfg(target_family = "wasm")]
#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, for the step's profile.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Runs when the module is instantiated: gives the engine's profile the
/// page's clock (`performance.now`), since `std::time::Instant` is not
/// available on `wasm32-unknown-unknown`.
#[cfg(target_family = "wasm")]
#[wasm_bindgen(start)]
pub fn start() {
    impulse2d::profile::set_clock(performance_now);
}

/// A world, its scene script if it was made from a scene, and the number of
/// steps taken (the script's step counter).
pub(crate) struct Inner {
    pub(crate) world: impulse2d::World,
    pub(crate) scene: Option<Scene>,
    pub(crate) steps: u64,
}

pub(crate) type Shared = Rc<RefCell<Inner>>;

/// A point or vector, metres (or m/s, newtons …, as the method says).
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vec2 {
    /// The x coordinate.
    pub x: f32,
    /// The y coordinate.
    pub y: f32,
}

#[wasm_bindgen]
impl Vec2 {
    /// A vector from its coordinates.
    #[wasm_bindgen(constructor)]
    pub fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }
}

impl From<V2> for Vec2 {
    fn from(v: V2) -> Vec2 {
        Vec2 { x: v.x, y: v.y }
    }
}

/// A body's kind: static (never moves), kinematic (moves at the velocity it
/// is given) or dynamic (moved by forces and contacts).
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyType {
    /// Zero mass, never moves.
    Static = 0,
    /// Moves at its set velocity, pushes dynamic bodies.
    Kinematic = 1,
    /// Moved by gravity, forces and contacts.
    Dynamic = 2,
}

impl From<BodyType> for impulse2d::BodyType {
    fn from(t: BodyType) -> Self {
        match t {
            BodyType::Static => impulse2d::BodyType::Static,
            BodyType::Kinematic => impulse2d::BodyType::Kinematic,
            BodyType::Dynamic => impulse2d::BodyType::Dynamic,
        }
    }
}

impl From<impulse2d::BodyType> for BodyType {
    fn from(t: impulse2d::BodyType) -> Self {
        match t {
            impulse2d::BodyType::Static => BodyType::Static,
            impulse2d::BodyType::Kinematic => BodyType::Kinematic,
            impulse2d::BodyType::Dynamic => BodyType::Dynamic,
        }
    }
}

#[wasm_bindgen(typescript_custom_section)]
const SHAPE_OPTIONS_TS: &str = r#"
/** How a new shape behaves; every field is optional (the engine's defaults:
 * density 1 kg/m², friction 0.6, restitution 0, not a sensor, contact events
 * on, sensor and hit events off). */
export interface ShapeOptions {
  /** Mass per area, kg/m². */
  density?: number;
  /** Coulomb friction coefficient (non-negative). */
  friction?: number;
  /** Bounciness, 0 to 1. */
  restitution?: number;
  /** A sensor detects overlaps and does not collide. */
  isSensor?: boolean;
  /** Whether this shape's overlaps with sensors are reported. */
  enableSensorEvents?: boolean;
  /** Whether begin/end touch events are reported for this shape. */
  enableContactEvents?: boolean;
  /** Whether hit (impact) events are reported for this shape. */
  enableHitEvents?: boolean;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// A plain JavaScript object with the optional fields of `ShapeOptions`
    /// (see the TypeScript declaration).
    #[wasm_bindgen(typescript_type = "ShapeOptions")]
    pub type ShapeOptions;

    #[wasm_bindgen(method, getter, structural)]
    fn density(this: &ShapeOptions) -> Option<f32>;
    #[wasm_bindgen(method, getter, structural)]
    fn friction(this: &ShapeOptions) -> Option<f32>;
    #[wasm_bindgen(method, getter, structural)]
    fn restitution(this: &ShapeOptions) -> Option<f32>;
    #[wasm_bindgen(method, getter, structural, js_name = isSensor)]
    fn is_sensor(this: &ShapeOptions) -> Option<bool>;
    #[wasm_bindgen(method, getter, structural, js_name = enableSensorEvents)]
    fn enable_sensor_events(this: &ShapeOptions) -> Option<bool>;
    #[wasm_bindgen(method, getter, structural, js_name = enableContactEvents)]
    fn enable_contact_events(this: &ShapeOptions) -> Option<bool>;
    #[wasm_bindgen(method, getter, structural, js_name = enableHitEvents)]
    fn enable_hit_events(this: &ShapeOptions) -> Option<bool>;
}

/// The engine's shape definition from optional JavaScript options (missing
/// fields keep the engine's defaults).
pub(crate) fn shape_def(options: Option<&ShapeOptions>) -> EngineShapeDef {
    let d = EngineShapeDef::default();
    let Some(o) = options else {
        return d;
    };
    EngineShapeDef {
        density: o.density().unwrap_or(d.density),
        friction: o.friction().unwrap_or(d.friction),
        restitution: o.restitution().unwrap_or(d.restitution),
        is_sensor: o.is_sensor().unwrap_or(d.is_sensor),
        enable_sensor_events: o.enable_sensor_events().unwrap_or(d.enable_sensor_events),
        enable_contact_events: o.enable_contact_events().unwrap_or(d.enable_contact_events),
        enable_hit_events: o.enable_hit_events().unwrap_or(d.enable_hit_events),
        ..d
    }
}

/// Two shapes that began or stopped touching.
#[wasm_bindgen]
pub struct ContactEvent {
    shape_a: Shape,
    shape_b: Shape,
}

#[wasm_bindgen]
impl ContactEvent {
    /// The first shape.
    #[wasm_bindgen(getter, js_name = shapeA)]
    pub fn shape_a(&self) -> Shape {
        self.shape_a.clone()
    }
    /// The second shape.
    #[wasm_bindgen(getter, js_name = shapeB)]
    pub fn shape_b(&self) -> Shape {
        self.shape_b.clone()
    }
}

/// An impact faster than the world's hit event threshold.
#[wasm_bindgen]
pub struct HitEvent {
    shape_a: Shape,
    shape_b: Shape,
    /// Where, world frame, metres.
    pub point: Vec2,
    /// The contact normal, from shape A to shape B.
    pub normal: Vec2,
    /// The speed of approach along the normal, m/s.
    #[wasm_bindgen(js_name = approachSpeed)]
    pub approach_speed: f32,
}

#[wasm_bindgen]
impl HitEvent {
    /// The first shape.
    #[wasm_bindgen(getter, js_name = shapeA)]
    pub fn shape_a(&self) -> Shape {
        self.shape_a.clone()
    }
    /// The second shape.
    #[wasm_bindgen(getter, js_name = shapeB)]
    pub fn shape_b(&self) -> Shape {
        self.shape_b.clone()
    }
}

/// A shape that began or stopped overlapping a sensor.
#[wasm_bindgen]
pub struct SensorEvent {
    sensor: Shape,
    visitor: Shape,
}

#[wasm_bindgen]
impl SensorEvent {
    /// The sensor shape.
    #[wasm_bindgen(getter)]
    pub fn sensor(&self) -> Shape {
        self.sensor.clone()
    }
    /// The shape that entered or left it.
    #[wasm_bindgen(getter)]
    pub fn visitor(&self) -> Shape {
        self.visitor.clone()
    }
}

/// Where a ray hit a shape.
#[wasm_bindgen]
pub struct RayHit {
    shape: Shape,
    /// Where the ray enters the shape, world frame, metres.
    pub point: Vec2,
    /// The surface normal there (zero when the ray starts inside).
    pub normal: Vec2,
    /// The fraction of the translation at the hit, 0 to 1.
    pub fraction: f32,
}

#[wasm_bindgen]
impl RayHit {
    /// The shape hit.
    #[wasm_bindgen(getter)]
    pub fn shape(&self) -> Shape {
        self.shape.clone()
    }
}

/// Milliseconds spent in the stages of the last step (from
/// `performance.now()`).
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, Default)]
pub struct Profile {
    /// The whole step.
    pub step: f32,
    /// Broad phase: new pairs.
    pub pairs: f32,
    /// Narrow phase: manifolds.
    pub collide: f32,
    /// The solver (everything below).
    pub solve: f32,
    /// Building the contact constraints.
    #[wasm_bindgen(js_name = prepareConstraints)]
    pub prepare_constraints: f32,
    /// Solving with position bias.
    #[wasm_bindgen(js_name = solveImpulses)]
    pub solve_impulses: f32,
    /// Solving without bias.
    #[wasm_bindgen(js_name = relaxImpulses)]
    pub relax_impulses: f32,
    /// Transforms, sleep and shape boxes.
    #[wasm_bindgen(js_name = finalizeBodies)]
    pub finalize_bodies: f32,
    /// Continuous collision.
    pub continuous: f32,
}

/// A physics world: bodies, shapes, joints, the step, events and queries.
#[wasm_bindgen]
pub struct World {
    inner: Shared,
}

fn vec2(x: f32, y: f32) -> V2 {
    V2::new(x, y)
}

#[wasm_bindgen]
impl World {
    /// An empty world with gravity `(gravityX, gravityY)` m/s² (default
    /// `(0, -10)`).
    #[wasm_bindgen(constructor)]
    pub fn new(gravity_x: Option<f32>, gravity_y: Option<f32>) -> JsResult<World> {
        let def = WorldDef {
            gravity: vec2(gravity_x.unwrap_or(0.0), gravity_y.unwrap_or(-10.0)),
            ..WorldDef::default()
        };
        let world = impulse2d::World::new(&def).map_err(js_error)?;
        Ok(World::wrap(world, None))
    }

    /// A world holding one of the shared scenes (`World.sceneNames()`), built
    /// by the same code as the native command-line tool and testbed. Its
    /// script (if any) runs before every `step`.
    #[wasm_bindgen(js_name = fromScene)]
    pub fn from_scene(name: &str) -> JsResult<World> {
        let mut world = impulse2d::World::new(&WorldDef::default()).map_err(js_error)?;
        let scene = impulse2d_scenes::build(name, &mut world).map_err(js_error)?;
        Ok(World::wrap(world, Some(scene)))
    }

    /// Every scene's name as `category/name`.
    #[wasm_bindgen(js_name = sceneNames)]
    pub fn scene_names() -> Vec<String> {
        impulse2d_scenes::list()
            .iter()
            .map(|s| format!("{}/{}", s.category, s.name))
            .collect()
    }

    /// The description of the scene `name`, or `undefined`.
    #[wasm_bindgen(js_name = sceneDescription)]
    pub fn scene_description(name: &str) -> Option<String> {
        let short = name.rsplit('/').next().unwrap_or(name);
        impulse2d_scenes::list()
            .iter()
            .find(|s| s.name == short)
            .map(|s| s.description.to_string())
    }

    /// Advances the world by `dt` seconds in `substeps` substeps (default 4),
    /// running the scene's script first if the world came from a scene.
    /// Throws on a bad `dt` (NaN, negative, infinite) or substep count.
    pub fn step(&self, dt: f32, substeps: Option<u32>) -> JsResult<()> {
        let mut guard = self.inner.borrow_mut();
        let inner = &mut *guard;
        let step = inner.steps;
        if let Some(scene) = inner.scene.as_mut() {
            scene
                .before_step(&mut inner.world, step)
                .map_err(js_error)?;
        }
        inner
            .world
            .step(dt, substeps.unwrap_or(4))
            .map_err(js_error)?;
        inner.steps += 1;
        Ok(())
    }

    /// Steps taken so far.
    #[wasm_bindgen(getter, js_name = stepCount)]
    pub fn step_count(&self) -> f64 {
        self.inner.borrow().steps as f64
    }

    /// The FNV-1a hash of every body's motion, as 16 hex digits: the same
    /// string as the native build's `World::state_hash()` after the same
    /// steps.
    #[wasm_bindgen(js_name = stateHash)]
    pub fn state_hash(&self) -> String {
        format!("{:016x}", self.inner.borrow().world.state_hash())
    }

    /// Gravity, m/s².
    pub fn gravity(&self) -> Vec2 {
        self.inner.borrow().world.gravity().into()
    }

    /// Sets gravity, m/s². Throws on NaN or infinity.
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&self, x: f32, y: f32) -> JsResult<()> {
        self.inner
            .borrow_mut()
            .world
            .set_gravity(vec2(x, y))
            .map_err(js_error)
    }

    /// The scene script's status line (empty without one).
    #[wasm_bindgen(js_name = sceneStatus)]
    pub fn scene_status(&self) -> String {
        self.inner
            .borrow()
            .scene
            .as_ref()
            .map(|s| s.status())
            .unwrap_or_default()
    }

    /// The body the scene suggests following, if any.
    #[wasm_bindgen(js_name = sceneFocus)]
    pub fn scene_focus(&self) -> Option<Body> {
        let focus = self.inner.borrow().scene.as_ref().and_then(|s| s.focus)?;
        Some(Body::new(&self.inner, focus))
    }

    /// A new body of `type` at `(x, y)` metres turned by `angle` radians
    /// (default 0). Throws on NaN or infinity.
    #[wasm_bindgen(js_name = createBody)]
    pub fn create_body(
        &self,
        body_type: BodyType,
        x: f32,
        y: f32,
        angle: Option<f32>,
    ) -> JsResult<Body> {
        let angle = angle.unwrap_or(0.0);
        if !angle.is_finite() {
            return Err(JsError::new("body angle must be finite"));
        }
        let def = BodyDef {
            body_type: body_type.into(),
            position: vec2(x, y),
            rotation: Rot::from_angle(angle),
            ..BodyDef::default()
        };
        let id = self
            .inner
            .borrow_mut()
            .world
            .create_body(&def)
            .map_err(js_error)?;
        Ok(Body::new(&self.inner, id))
    }

    /// Destroys a body with its shapes and joints. Throws if it is already
    /// gone.
    #[wasm_bindgen(js_name = destroyBody)]
    pub fn destroy_body(&self, body: &Body) -> JsResult<()> {
        body.check_world(&self.inner)?;
        self.inner
            .borrow_mut()
            .world
            .destroy_body(body.id())
            .map_err(js_error)
    }

    /// Destroys a joint. Throws if it is already gone.
    #[wasm_bindgen(js_name = destroyJoint)]
    pub fn destroy_joint(&self, joint: &Joint) -> JsResult<()> {
        joint.check_world(&self.inner)?;
        self.inner
            .borrow_mut()
            .world
            .destroy_joint(joint.id())
            .map_err(js_error)
    }

    /// Every body, in the order of the batch getters (`transforms`,
    /// `velocities`).
    pub fn bodies(&self) -> Vec<Body> {
        let ids: Vec<BodyId> = self.inner.borrow().world.body_ids().collect();
        ids.into_iter()
            .map(|id| Body::new(&self.inner, id))
            .collect()
    }

    /// Number of bodies.
    #[wasm_bindgen(getter, js_name = bodyCount)]
    pub fn body_count(&self) -> u32 {
        self.inner.borrow().world.counters().body_count as u32
    }

    /// Number of awake bodies.
    #[wasm_bindgen(getter, js_name = awakeBodyCount)]
    pub fn awake_body_count(&self) -> u32 {
        self.inner.borrow().world.awake_body_count() as u32
    }

    /// Number of contacts (touching or not).
    #[wasm_bindgen(getter, js_name = contactCount)]
    pub fn contact_count(&self) -> u32 {
        self.inner.borrow().world.counters().contact_count as u32
    }

    /// Every body's pose as `x, y, angle` (metres, radians), three floats per
    /// body in the order of `bodies()`.
    pub fn transforms(&self) -> Vec<f32> {
        let inner = self.inner.borrow();
        let w = &inner.world;
        let mut out = Vec::with_capacity(3 * w.counters().body_count);
        for id in w.body_ids() {
            if let Ok(b) = w.body(id) {
                let p = b.position();
                out.extend_from_slice(&[p.x, p.y, b.rotation().angle()]);
            }
        }
        out
    }

    /// Every body's velocity as `vx, vy, w` (m/s, rad/s), three floats per
    /// body in the order of `bodies()`.
    pub fn velocities(&self) -> Vec<f32> {
        let inner = self.inner.borrow();
        let w = &inner.world;
        let mut out = Vec::with_capacity(3 * w.counters().body_count);
        for id in w.body_ids() {
            if let Ok(b) = w.body(id) {
                let v = b.linear_velocity();
                out.extend_from_slice(&[v.x, v.y, b.angular_velocity()]);
            }
        }
        out
    }

    /// A revolute joint (hinge) between two bodies at the world point
    /// `(x, y)`.
    #[wasm_bindgen(js_name = createRevoluteJoint)]
    pub fn create_revolute_joint(&self, a: &Body, b: &Body, x: f32, y: f32) -> JsResult<Joint> {
        let base = self.joint_base(a, b, vec2(x, y), vec2(x, y))?;
        self.make_joint(|w| {
            w.create_revolute_joint(&impulse2d::RevoluteJointDef {
                base,
                ..Default::default()
            })
        })
    }

    /// A weld joint gluing two bodies at the world point `(x, y)`.
    #[wasm_bindgen(js_name = createWeldJoint)]
    pub fn create_weld_joint(&self, a: &Body, b: &Body, x: f32, y: f32) -> JsResult<Joint> {
        let base = self.joint_base(a, b, vec2(x, y), vec2(x, y))?;
        self.make_joint(|w| {
            w.create_weld_joint(&impulse2d::WeldJointDef {
                base,
                ..Default::default()
            })
        })
    }

    /// A distance joint (a rod) between the world points `(ax, ay)` on `a`
    /// and `(bx, by)` on `b`, its length their current distance.
    #[wasm_bindgen(js_name = createDistanceJoint)]
    pub fn create_distance_joint(
        &self,
        a: &Body,
        b: &Body,
        ax: f32,
        ay: f32,
        bx: f32,
        by: f32,
    ) -> JsResult<Joint> {
        let (pa, pb) = (vec2(ax, ay), vec2(bx, by));
        let base = self.joint_base(a, b, pa, pb)?;
        self.make_joint(|w| {
            w.create_distance_joint(&impulse2d::DistanceJointDef {
                base,
                length: (pb - pa).length(),
                ..Default::default()
            })
        })
    }

    /// A prismatic joint (slider) between two bodies at the world point
    /// `(x, y)` along the world axis `(axisX, axisY)` (normalised here).
    #[wasm_bindgen(js_name = createPrismaticJoint)]
    pub fn create_prismatic_joint(
        &self,
        a: &Body,
        b: &Body,
        x: f32,
        y: f32,
        axis_x: f32,
        axis_y: f32,
    ) -> JsResult<Joint> {
        let base = self.joint_base(a, b, vec2(x, y), vec2(x, y))?;
        let axis = vec2(axis_x, axis_y);
        let len = axis.length();
        if !(len.is_finite() && len > 0.0) {
            return Err(JsError::new("prismatic axis must be finite and non-zero"));
        }
        let local_axis = {
            let inner = self.inner.borrow();
            inner
                .world
                .body(a.id())
                .map_err(js_error)?
                .local_vector(axis * (1.0 / len))
        };
        self.make_joint(|w| {
            w.create_prismatic_joint(&impulse2d::PrismaticJointDef {
                base,
                local_axis_a: local_axis,
                ..Default::default()
            })
        })
    }

    /// A mouse joint pulling the world point `(x, y)` of `b` towards a target
    /// (`joint.setTarget`), springy at `hertz` with `dampingRatio`, with at
    /// most `maxForce` newtons. `a` is any other body (usually a static one).
    #[wasm_bindgen(js_name = createMouseJoint)]
    pub fn create_mouse_joint(
        &self,
        a: &Body,
        b: &Body,
        x: f32,
        y: f32,
        hertz: f32,
        damping_ratio: f32,
        max_force: f32,
    ) -> JsResult<Joint> {
        let base = self.joint_base(a, b, vec2(x, y), vec2(x, y))?;
        self.make_joint(|w| {
            w.create_mouse_joint(&impulse2d::MouseJointDef {
                base,
                target: vec2(x, y),
                hertz,
                damping_ratio,
                max_force,
            })
        })
    }

    /// Contacts that began touching in the last step (shapes with contact
    /// events enabled).
    #[wasm_bindgen(js_name = contactBeginEvents)]
    pub fn contact_begin_events(&self) -> Vec<ContactEvent> {
        let inner = self.inner.borrow();
        inner
            .world
            .contact_events()
            .begin
            .iter()
            .map(|e| self.contact_event(e.shape_id_a, e.shape_id_b))
            .collect()
    }

    /// Contacts that stopped touching in the last step.
    #[wasm_bindgen(js_name = contactEndEvents)]
    pub fn contact_end_events(&self) -> Vec<ContactEvent> {
        let inner = self.inner.borrow();
        inner
            .world
            .contact_events()
            .end
            .iter()
            .map(|e| self.contact_event(e.shape_id_a, e.shape_id_b))
            .collect()
    }

    /// Impacts of the last step faster than the hit event threshold (shapes
    /// with hit events enabled).
    #[wasm_bindgen(js_name = contactHitEvents)]
    pub fn contact_hit_events(&self) -> Vec<HitEvent> {
        let inner = self.inner.borrow();
        inner
            .world
            .contact_events()
            .hit
            .iter()
            .map(|e| HitEvent {
                shape_a: Shape::new(&self.inner, e.shape_id_a),
                shape_b: Shape::new(&self.inner, e.shape_id_b),
                point: e.point.into(),
                normal: e.normal.into(),
                approach_speed: e.approach_speed,
            })
            .collect()
    }

    /// Shapes that began overlapping a sensor in the last step.
    #[wasm_bindgen(js_name = sensorBeginEvents)]
    pub fn sensor_begin_events(&self) -> Vec<SensorEvent> {
        let inner = self.inner.borrow();
        inner
            .world
            .sensor_events()
            .begin
            .iter()
            .map(|e| self.sensor_event(e.sensor_shape_id, e.visitor_shape_id))
            .collect()
    }

    /// Shapes that stopped overlapping a sensor in the last step.
    #[wasm_bindgen(js_name = sensorEndEvents)]
    pub fn sensor_end_events(&self) -> Vec<SensorEvent> {
        let inner = self.inner.borrow();
        inner
            .world
            .sensor_events()
            .end
            .iter()
            .map(|e| self.sensor_event(e.sensor_shape_id, e.visitor_shape_id))
            .collect()
    }

    /// The closest shape along the ray from `(x, y)` by the translation
    /// `(dx, dy)` metres, or `undefined`. Throws on NaN or infinity.
    #[wasm_bindgen(js_name = castRayClosest)]
    pub fn cast_ray_closest(&self, x: f32, y: f32, dx: f32, dy: f32) -> JsResult<Option<RayHit>> {
        let inner = self.inner.borrow();
        let hit = inner
            .world
            .cast_ray_closest(vec2(x, y), vec2(dx, dy), QueryFilter::default())
            .map_err(js_error)?;
        Ok(hit.map(|h| RayHit {
            shape: Shape::new(&self.inner, h.shape_id),
            point: h.point.into(),
            normal: h.normal.into(),
            fraction: h.fraction,
        }))
    }

    /// Every shape the ray from `(x, y)` by `(dx, dy)` metres passes through,
    /// nearest first.
    #[wasm_bindgen(js_name = castRay)]
    pub fn cast_ray(&self, x: f32, y: f32, dx: f32, dy: f32) -> JsResult<Vec<RayHit>> {
        let inner = self.inner.borrow();
        let mut hits: Vec<impulse2d::RayResult> = Vec::new();
        inner
            .world
            .cast_ray(
                vec2(x, y),
                vec2(dx, dy),
                QueryFilter::default(),
                |shape_id, point, normal, fraction| {
                    hits.push(impulse2d::RayResult {
                        shape_id,
                        point,
                        normal,
                        fraction,
                    });
                    1.0
                },
            )
            .map_err(js_error)?;
        hits.sort_by(|a, b| a.fraction.total_cmp(&b.fraction));
        Ok(hits
            .into_iter()
            .map(|h| RayHit {
                shape: Shape::new(&self.inner, h.shape_id),
                point: h.point.into(),
                normal: h.normal.into(),
                fraction: h.fraction,
            })
            .collect())
    }

    /// Every shape whose bounding box overlaps the box from `(minX, minY)`
    /// to `(maxX, maxY)` metres and whose tight box does too.
    #[wasm_bindgen(js_name = overlapAabb)]
    pub fn overlap_aabb(
        &self,
        min_x: f32,
        min_y: f32,
        max_x: f32,
        max_y: f32,
    ) -> JsResult<Vec<Shape>> {
        let inner = self.inner.borrow();
        let mut found = Vec::new();
        inner
            .world
            .overlap_aabb(
                Aabb::new(vec2(min_x, min_y), vec2(max_x, max_y)),
                QueryFilter::default(),
                |s| {
                    found.push(s);
                    true
                },
            )
            .map_err(js_error)?;
        Ok(found
            .into_iter()
            .map(|s| Shape::new(&self.inner, s))
            .collect())
    }

    /// Every shape containing the point `(x, y)` metres.
    #[wasm_bindgen(js_name = overlapPoint)]
    pub fn overlap_point(&self, x: f32, y: f32) -> JsResult<Vec<Shape>> {
        let p = vec2(x, y);
        let candidates = self.overlap_aabb(x, y, x, y)?;
        let inner = self.inner.borrow();
        Ok(candidates
            .into_iter()
            .filter(|s| {
                inner
                    .world
                    .shape(s.id())
                    .and_then(|v| v.test_point(p))
                    .unwrap_or(false)
            })
            .collect())
    }

    /// The last step's profile, milliseconds.
    pub fn profile(&self) -> Profile {
        let inner = self.inner.borrow();
        let p = inner.world.profile();
        Profile {
            step: p.step,
            pairs: p.pairs,
            collide: p.collide,
            solve: p.solve,
            prepare_constraints: p.prepare_constraints,
            solve_impulses: p.solve_impulses,
            relax_impulses: p.relax_impulses,
            finalize_bodies: p.finalize_bodies,
            continuous: p.continuous,
        }
    }

    /// A box around everything in the world, `[minX, minY, maxX, maxY]`
    /// metres, or an empty array for an empty world.
    #[wasm_bindgen(js_name = viewBounds)]
    pub fn view_bounds(&self) -> Vec<f32> {
        match self.inner.borrow().world.view_bounds() {
            Some(b) => vec![b.lower.x, b.lower.y, b.upper.x, b.upper.y],
            None => Vec::new(),
        }
    }

    /// The engine's debug drawing of the world as a command buffer (see
    /// `DrawFlags` and the package README for its layout), limited to the box
    /// `(minX, minY)`–`(maxX, maxY)` metres.
    #[wasm_bindgen(js_name = debugDraw)]
    pub fn debug_draw(
        &self,
        flags: u32,
        min_x: f32,
        min_y: f32,
        max_x: f32,
        max_y: f32,
    ) -> Vec<f32> {
        let inner = self.inner.borrow();
        draw::record(&inner.world, flags, vec2(min_x, min_y), vec2(max_x, max_y))
    }
}

impl World {
    fn wrap(world: impulse2d::World, scene: Option<Scene>) -> World {
        World {
            inner: Rc::new(RefCell::new(Inner {
                world,
                scene,
                steps: 0,
            })),
        }
    }

    /// A joint definition's common part with world anchors turned into the
    /// bodies' frames; throws for stale or foreign bodies.
    fn joint_base(&self, a: &Body, b: &Body, pa: V2, pb: V2) -> JsResult<JointDef> {
        a.check_world(&self.inner)?;
        b.check_world(&self.inner)?;
        let inner = self.inner.borrow();
        let w = &inner.world;
        let local_a = w.body(a.id()).map_err(js_error)?.local_point(pa);
        let local_b = w.body(b.id()).map_err(js_error)?.local_point(pb);
        Ok(JointDef {
            body_a: a.id(),
            body_b: b.id(),
            local_anchor_a: local_a,
            local_anchor_b: local_b,
            ..JointDef::default()
        })
    }

    fn make_joint(
        &self,
        create: impl FnOnce(&mut impulse2d::World) -> impulse2d::Result<impulse2d::JointId>,
    ) -> JsResult<Joint> {
        let id = create(&mut self.inner.borrow_mut().world).map_err(js_error)?;
        Ok(Joint::new(&self.inner, id))
    }

    fn contact_event(&self, a: ShapeId, b: ShapeId) -> ContactEvent {
        ContactEvent {
            shape_a: Shape::new(&self.inner, a),
            shape_b: Shape::new(&self.inner, b),
        }
    }

    fn sensor_event(&self, sensor: ShapeId, visitor: ShapeId) -> SensorEvent {
        SensorEvent {
            sensor: Shape::new(&self.inner, sensor),
            visitor: Shape::new(&self.inner, visitor),
        }
    }
}

/// Builds a polygon from a flat array of points `x0, y0, x1, y1, …` (3 to 8
/// points; their convex hull), rounded by `radius`.
pub(crate) fn polygon_from_points(
    points: &[f32],
    radius: f32,
) -> JsResult<impulse2d::collision::Polygon> {
    if !points.len().is_multiple_of(2) {
        return Err(JsError::new("polygon points must be x, y pairs"));
    }
    let pts: Vec<V2> = points.chunks_exact(2).map(|p| vec2(p[0], p[1])).collect();
    let hull = compute_hull(&pts).map_err(js_error)?;
    make_polygon(&hull, radius).map_err(js_error)
}

pub(crate) fn box_polygon(hx: f32, hy: f32) -> JsResult<impulse2d::collision::Polygon> {
    make_box(hx, hy).map_err(js_error)
}

pub(crate) fn circle(cx: f32, cy: f32, r: f32) -> JsResult<Circle> {
    Circle::new(vec2(cx, cy), r).map_err(js_error)
}

pub(crate) fn capsule(x1: f32, y1: f32, x2: f32, y2: f32, r: f32) -> JsResult<Capsule> {
    Capsule::new(vec2(x1, y1), vec2(x2, y2), r).map_err(js_error)
}

pub(crate) fn segment(x1: f32, y1: f32, x2: f32, y2: f32) -> JsResult<Segment> {
    Segment::new(vec2(x1, y1), vec2(x2, y2)).map_err(js_error)
}
