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
#[wasm_bindgen(getter_with_clone)]
pub struct ContactEvent {
    /// The first shape.
    #[wasm_bindgen(readonly, js_name = shapeA)]
    pub shape_a: Shape,
    /// The second shape.
    #[wasm_bindgen(readonly, js_name = shapeB)]
    pub shape_b: Shape,
}

/// An impact faster than the world's hit event threshold.
#[wasm_bindgen(getter_with_clone)]
pub struct HitEvent {
    /// The first shape.
    #[wasm_bindgen(readonly, js_name = shapeA)]
    pub shape_a: Shape,
    /// The second shape.
    #[wasm_bindgen(readonly, js_name = shapeB)]
    pub shape_b: Shape,
    /// Where, world frame, metres.
    pub point: Vec2,
    /// The contact normal, from shape A to shape B.
    pub normal: Vec2,
    /// The speed of approach along the normal, m/s.
    #[wasm_bindgen(js_name = approachSpeed)]
    pub approach_speed: f32,
}

/// A shape that began or stopped overlapping a sensor.
#[wasm_bindgen(getter_with_clone)]
pub struct SensorEvent {
    /// The sensor shape.
    #[wasm_bindgen(readonly)]
    pub sensor: Shape,
    /// The shape that entered or left it.
    #[wasm_bindgen(readonly)]
    pub visitor: Shape,
}

/// Where a ray hit a shape.
#[wasm_bindgen(getter_with_clone)]
pub struct RayHit {
    /// The shape hit.
    #[wasm_bindgen(readonly)]
    pub shape: Shape,
    /// Where the ray enters the shape, world frame, metres.
    pub point: Vec2,
    /// The surface normal there (zero when the ray starts inside).
    pub normal: Vec2,
    /// The fraction of the translation at the hit, 0 to 1.
    pub fraction: f32,
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
        self.change(|w| w.set_gravity(vec2(x, y)))
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
        self.change(|w| w.destroy_body(body.id()))
    }

    /// Destroys a joint. Throws if it is already gone.
    #[wasm_bindgen(js_name = destroyJoint)]
    pub fn destroy_joint(&self, joint: &Joint) -> JsResult<()> {
        joint.check_world(&self.inner)?;
        self.change(|w| w.destroy_joint(joint.id()))
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
        self.per_body(|b| {
            let p = b.position();
            [p.x, p.y, b.rotation().angle()]
        })
    }

    /// Every body's velocity as `vx, vy, w` (m/s, rad/s), three floats per
    /// body in the order of `bodies()`.
    pub fn velocities(&self) -> Vec<f32> {
        self.per_body(|b| {
            let v = b.linear_velocity();
            [v.x, v.y, b.angular_velocity()]
        })
    }
}

/// The world's event getters (docstrings as in `handles::methods!`), one a row: `jsName rust_name -> T = list,
/// make;` returns `make` of every event in the slice `list` reads.
macro_rules! event_lists {
    ($( [$($doc:tt),*] $js:ident $name:ident -> $t:ty = $list:expr, $make:expr; )*) => {
        #[wasm_bindgen]
        impl World {
            $(
                $(#[doc = $doc])*
                #[wasm_bindgen(js_name = $js)]
                pub fn $name(&self) -> Vec<$t> {
                    self.events($list, $make)
                }
            )*
        }
    };
}

event_lists! {
    [" Contacts that began touching in the last step (shapes with contact", " events enabled)."] contactBeginEvents contact_begin_events -> ContactEvent = |w| w.contact_events().begin, |s, e| s.contact_event(e.shape_id_a, e.shape_id_b);
    [" Contacts that stopped touching in the last step."] contactEndEvents contact_end_events -> ContactEvent = |w| w.contact_events().end, |s, e| s.contact_event(e.shape_id_a, e.shape_id_b);
    [" Impacts of the last step faster than the hit event threshold (shapes", " with hit events enabled)."] contactHitEvents contact_hit_events -> HitEvent = |w| w.contact_events().hit, |s, e| HitEvent { shape_a: s.shape(e.shape_id_a), shape_b: s.shape(e.shape_id_b), point: e.point.into(), normal: e.normal.into(), approach_speed: e.approach_speed };
    [" Shapes that began overlapping a sensor in the last step."] sensorBeginEvents sensor_begin_events -> SensorEvent = |w| w.sensor_events().begin, |s, e| s.sensor_event(e.sensor_shape_id, e.visitor_shape_id);
    [" Shapes that stopped overlapping a sensor in the last step."] sensorEndEvents sensor_end_events -> SensorEvent = |w| w.sensor_events().end, |s, e| s.sensor_event(e.sensor_shape_id, e.visitor_shape_id);
}

/// The world's joint constructors (docstrings as in `handles::methods!`), one a row: `jsName rust_name(args) =
/// closure;`, the closure making the joint from the world.
macro_rules! joint_makers {
    ($( [$($doc:tt),*] $js:ident $name:ident($($arg:ident: $arg_ty:ty),*) = $make:expr; )*) => {
        #[wasm_bindgen]
        impl World {
            $(
                $(#[doc = $doc])*
                #[wasm_bindgen(js_name = $js)]
                pub fn $name(&self, $($arg: $arg_ty),*) -> JsResult<Joint> {
                    ($make)(self)
                }
            )*
        }
    };
}

joint_makers! {
    [" A revolute joint (hinge) between two bodies at the world point", " `(x, y)`."] createRevoluteJoint create_revolute_joint(a: &Body, b: &Body, x: f32, y: f32) = |world: &World| {
        world.joint_at(a, b, vec2(x, y), vec2(x, y), |w, base| {
            w.create_revolute_joint(&impulse2d::RevoluteJointDef { base, ..Default::default() })
        })
    };
    [" A weld joint gluing two bodies at the world point `(x, y)`."] createWeldJoint create_weld_joint(a: &Body, b: &Body, x: f32, y: f32) = |world: &World| {
        world.joint_at(a, b, vec2(x, y), vec2(x, y), |w, base| {
            w.create_weld_joint(&impulse2d::WeldJointDef { base, ..Default::default() })
        })
    };
    [" A distance joint (a rod) between the world points `(ax, ay)` on `a`", " and `(bx, by)` on `b`, its length their current distance."] createDistanceJoint create_distance_joint(a: &Body, b: &Body, ax: f32, ay: f32, bx: f32, by: f32) = |world: &World| {
        let (pa, pb) = (vec2(ax, ay), vec2(bx, by));
        world.joint_at(a, b, pa, pb, |w, base| {
            let length = (pb - pa).length();
            w.create_distance_joint(&impulse2d::DistanceJointDef { base, length, ..Default::default() })
        })
    };
    [" A prismatic joint (slider) between two bodies at the world point", " `(x, y)` along the world axis `(axisX, axisY)` (normalised here)."] createPrismaticJoint create_prismatic_joint(a: &Body, b: &Body, x: f32, y: f32, axis_x: f32, axis_y: f32) = |world: &World| {
        let base = world.joint_base(a, b, vec2(x, y), vec2(x, y))?;
        let axis = vec2(axis_x, axis_y);
        let len = axis.length();
        if !(len.is_finite() && len > 0.0) {
            return Err(JsError::new("prismatic axis must be finite and non-zero"));
        }
        let local_axis_a = {
            let inner = world.inner.borrow();
            inner.world.body(a.id()).map_err(js_error)?.local_vector(axis * (1.0 / len))
        };
        world.make_joint(|w| {
            w.create_prismatic_joint(&impulse2d::PrismaticJointDef { base, local_axis_a, ..Default::default() })
        })
    };
    [" A mouse joint pulling the world point `(x, y)` of `b` towards a target", " (`joint.setTarget`), springy at `hertz` with `dampingRatio`, with at", " most `maxForce` newtons. `a` is any other body (usually a static one)."] createMouseJoint create_mouse_joint(a: &Body, b: &Body, x: f32, y: f32, hertz: f32, damping_ratio: f32, max_force: f32) = |world: &World| {
        world.joint_at(a, b, vec2(x, y), vec2(x, y), |w, base| {
            let target = vec2(x, y);
            w.create_mouse_joint(&impulse2d::MouseJointDef { base, target, hertz, damping_ratio, max_force })
        })
    };
}

#[wasm_bindgen]
impl World {
    /// The closest shape along the ray from `(x, y)` by the translation
    /// `(dx, dy)` metres, or `undefined`. Throws on NaN or infinity.
    #[wasm_bindgen(js_name = castRayClosest)]
    pub fn cast_ray_closest(&self, x: f32, y: f32, dx: f32, dy: f32) -> JsResult<Option<RayHit>> {
        let inner = self.inner.borrow();
        let hit = inner
            .world
            .cast_ray_closest(vec2(x, y), vec2(dx, dy), QueryFilter::default())
            .map_err(js_error)?;
        Ok(hit.map(|h| self.ray_hit(h)))
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
        Ok(hits.into_iter().map(|h| self.ray_hit(h)).collect())
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
        let id = self.change(create)?;
        Ok(Joint::new(&self.inner, id))
    }

    /// A joint between `a` and `b` anchored at the world points `pa` and
    /// `pb`: `create` makes it from the common definition.
    fn joint_at(
        &self,
        a: &Body,
        b: &Body,
        pa: V2,
        pb: V2,
        create: impl FnOnce(&mut impulse2d::World, JointDef) -> impulse2d::Result<impulse2d::JointId>,
    ) -> JsResult<Joint> {
        let base = self.joint_base(a, b, pa, pb)?;
        self.make_joint(|w| create(w, base))
    }

    /// Runs a change on the world; its error throws.
    fn change<T>(
        &self,
        f: impl FnOnce(&mut impulse2d::World) -> impulse2d::Result<T>,
    ) -> JsResult<T> {
        f(&mut self.inner.borrow_mut().world).map_err(js_error)
    }

    /// Three floats per body, in the order of `bodies()`.
    fn per_body(&self, f: impl Fn(impulse2d::BodyRef<'_>) -> [f32; 3]) -> Vec<f32> {
        let inner = self.inner.borrow();
        let w = &inner.world;
        let mut out = Vec::with_capacity(3 * w.counters().body_count);
        for id in w.body_ids() {
            if let Ok(b) = w.body(id) {
                out.extend_from_slice(&f(b));
            }
        }
        out
    }

    /// `make` of every event in the slice that `list` reads from the world.
    fn events<E, T>(
        &self,
        list: impl FnOnce(&impulse2d::World) -> &[E],
        make: impl Fn(&World, &E) -> T,
    ) -> Vec<T> {
        let inner = self.inner.borrow();
        list(&inner.world).iter().map(|e| make(self, e)).collect()
    }

    /// A handle to the shape `id`.
    fn shape(&self, id: ShapeId) -> Shape {
        Shape::new(&self.inner, id)
    }

    fn ray_hit(&self, h: impulse2d::RayResult) -> RayHit {
        RayHit {
            shape: self.shape(h.shape_id),
            point: h.point.into(),
            normal: h.normal.into(),
            fraction: h.fraction,
        }
    }

    fn contact_event(&self, a: ShapeId, b: ShapeId) -> ContactEvent {
        ContactEvent {
            shape_a: self.shape(a),
            shape_b: self.shape(b),
        }
    }

    fn sensor_event(&self, sensor: ShapeId, visitor: ShapeId) -> SensorEvent {
        SensorEvent {
            sensor: self.shape(sensor),
            visitor: self.shape(visitor),
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
