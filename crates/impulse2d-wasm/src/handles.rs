//! Handles: a body, shape or joint id together with the world it lives in.
//! Every call looks the id up again, so a destroyed object's handle throws.

use std::rc::Rc;

use impulse2d::{BodyId, JointId, Rot, ShapeId, Vec2 as V2};
use wasm_bindgen::prelude::*;

use crate::{BodyType, JsResult, ShapeOptions, Shared, Vec2, js_error, shape_def};

/// Throws unless `handle_world` is `world` (a handle from another world).
fn same_world(handle_world: &Shared, world: &Shared) -> JsResult<()> {
    if Rc::ptr_eq(handle_world, world) {
        Ok(())
    } else {
        Err(JsError::new("the handle belongs to another world"))
    }
}

/// A body of a world. Throws once the body is destroyed.
#[wasm_bindgen]
#[derive(Clone)]
pub struct Body {
    world: Shared,
    id: BodyId,
}

impl Body {
    pub(crate) fn new(world: &Shared, id: BodyId) -> Body {
        Body {
            world: Rc::clone(world),
            id,
        }
    }

    pub(crate) fn id(&self) -> BodyId {
        self.id
    }

    pub(crate) fn check_world(&self, world: &Shared) -> JsResult<()> {
        same_world(&self.world, world)
    }

    /// Reads through a checked view.
    fn read<T>(&self, f: impl FnOnce(impulse2d::BodyRef<'_>) -> T) -> JsResult<T> {
        let inner = self.world.borrow();
        Ok(f(inner.world.body(self.id).map_err(js_error)?))
    }

    /// Changes through a checked view; the change's own error throws too.
    fn write<T>(
        &self,
        f: impl FnOnce(&mut impulse2d::BodyMut<'_>) -> impulse2d::Result<T>,
    ) -> JsResult<T> {
        let mut inner = self.world.borrow_mut();
        let mut view = inner.world.body_mut(self.id).map_err(js_error)?;
        f(&mut view).map_err(js_error)
    }

    fn add_shape(
        &self,
        options: Option<ShapeOptions>,
        create: impl FnOnce(
            &mut impulse2d::World,
            BodyId,
            &impulse2d::ShapeDef,
        ) -> impulse2d::Result<ShapeId>,
    ) -> JsResult<Shape> {
        let def = shape_def(options.as_ref());
        let id = create(&mut self.world.borrow_mut().world, self.id, &def).map_err(js_error)?;
        Ok(Shape::new(&self.world, id))
    }
}

#[wasm_bindgen]
impl Body {
    /// Whether the body still exists.
    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self) -> bool {
        self.world.borrow().world.body(self.id).is_ok()
    }

    /// Whether two handles name the same body.
    pub fn equals(&self, other: &Body) -> bool {
        Rc::ptr_eq(&self.world, &other.world) && self.id == other.id
    }

    /// The id's slot index (stable while the body lives).
    #[wasm_bindgen(getter)]
    pub fn index(&self) -> u32 {
        self.id.index()
    }

    /// The body's origin, world frame, metres.
    pub fn position(&self) -> JsResult<Vec2> {
        self.read(|b| b.position().into())
    }

    /// The body's rotation angle, radians in [−π, π].
    pub fn angle(&self) -> JsResult<f32> {
        self.read(|b| b.rotation().angle())
    }

    /// Velocity of the centre of mass, m/s.
    #[wasm_bindgen(js_name = linearVelocity)]
    pub fn linear_velocity(&self) -> JsResult<Vec2> {
        self.read(|b| b.linear_velocity().into())
    }

    /// Angular velocity, rad/s.
    #[wasm_bindgen(js_name = angularVelocity)]
    pub fn angular_velocity(&self) -> JsResult<f32> {
        self.read(|b| b.angular_velocity())
    }

    /// Mass, kg.
    pub fn mass(&self) -> JsResult<f32> {
        self.read(|b| b.mass())
    }

    /// Static, kinematic or dynamic.
    #[wasm_bindgen(js_name = bodyType)]
    pub fn body_type(&self) -> JsResult<BodyType> {
        self.read(|b| b.body_type().into())
    }

    /// Whether the body is awake.
    #[wasm_bindgen(js_name = isAwake)]
    pub fn is_awake(&self) -> JsResult<bool> {
        self.read(|b| b.is_awake())
    }

    /// The body's shapes.
    pub fn shapes(&self) -> JsResult<Vec<Shape>> {
        let ids = self.read(|b| b.shapes())?;
        Ok(ids
            .into_iter()
            .map(|s| Shape::new(&self.world, s))
            .collect())
    }

    /// Moves the body to `(x, y)` metres turned by `angle` radians.
    #[wasm_bindgen(js_name = setTransform)]
    pub fn set_transform(&self, x: f32, y: f32, angle: f32) -> JsResult<()> {
        if !angle.is_finite() {
            return Err(JsError::new("body angle must be finite"));
        }
        self.write(|b| b.set_transform(V2::new(x, y), Rot::from_angle(angle)))
    }

    /// Sets the velocity of the centre of mass, m/s.
    #[wasm_bindgen(js_name = setLinearVelocity)]
    pub fn set_linear_velocity(&self, vx: f32, vy: f32) -> JsResult<()> {
        self.write(|b| b.set_linear_velocity(V2::new(vx, vy)))
    }

    /// Sets the angular velocity, rad/s.
    #[wasm_bindgen(js_name = setAngularVelocity)]
    pub fn set_angular_velocity(&self, w: f32) -> JsResult<()> {
        self.write(|b| b.set_angular_velocity(w))
    }

    /// Applies the force `(fx, fy)` newtons at the world point `(px, py)`
    /// during the next step, waking the body.
    #[wasm_bindgen(js_name = applyForce)]
    pub fn apply_force(&self, fx: f32, fy: f32, px: f32, py: f32) -> JsResult<()> {
        self.write(|b| b.apply_force(V2::new(fx, fy), V2::new(px, py), true))
    }

    /// Applies the force `(fx, fy)` newtons at the centre of mass.
    #[wasm_bindgen(js_name = applyForceToCenter)]
    pub fn apply_force_to_center(&self, fx: f32, fy: f32) -> JsResult<()> {
        self.write(|b| b.apply_force_to_center(V2::new(fx, fy), true))
    }

    /// Applies a torque, N·m, during the next step.
    #[wasm_bindgen(js_name = applyTorque)]
    pub fn apply_torque(&self, torque: f32) -> JsResult<()> {
        self.write(|b| b.apply_torque(torque, true))
    }

    /// Applies the impulse `(ix, iy)` N·s at the world point `(px, py)` now.
    #[wasm_bindgen(js_name = applyLinearImpulse)]
    pub fn apply_linear_impulse(&self, ix: f32, iy: f32, px: f32, py: f32) -> JsResult<()> {
        self.write(|b| b.apply_linear_impulse(V2::new(ix, iy), V2::new(px, py), true))
    }

    /// Applies the impulse `(ix, iy)` N·s at the centre of mass now.
    #[wasm_bindgen(js_name = applyLinearImpulseToCenter)]
    pub fn apply_linear_impulse_to_center(&self, ix: f32, iy: f32) -> JsResult<()> {
        self.write(|b| b.apply_linear_impulse_to_center(V2::new(ix, iy), true))
    }

    /// Changes the body's type.
    #[wasm_bindgen(js_name = setBodyType)]
    pub fn set_body_type(&self, body_type: BodyType) -> JsResult<()> {
        self.write(|b| b.set_body_type(body_type.into()))
    }

    /// Wakes the body or puts it to sleep.
    #[wasm_bindgen(js_name = setAwake)]
    pub fn set_awake(&self, awake: bool) -> JsResult<()> {
        self.write(|b| {
            b.set_awake(awake);
            Ok(())
        })
    }

    /// A world point expressed in the body's frame, metres.
    #[wasm_bindgen(js_name = localPoint)]
    pub fn local_point(&self, x: f32, y: f32) -> JsResult<Vec2> {
        self.read(|b| b.local_point(V2::new(x, y)).into())
    }

    /// A box of half-widths `hx`, `hy` metres centred on the body.
    #[wasm_bindgen(js_name = createBox)]
    pub fn create_box(&self, hx: f32, hy: f32, options: Option<ShapeOptions>) -> JsResult<Shape> {
        let polygon = crate::box_polygon(hx, hy)?;
        self.add_shape(options, |w, b, d| w.create_polygon_shape(b, d, &polygon))
    }

    /// A circle of `radius` metres centred at `(cx, cy)` in the body frame.
    #[wasm_bindgen(js_name = createCircle)]
    pub fn create_circle(
        &self,
        radius: f32,
        cx: Option<f32>,
        cy: Option<f32>,
        options: Option<ShapeOptions>,
    ) -> JsResult<Shape> {
        let c = crate::circle(cx.unwrap_or(0.0), cy.unwrap_or(0.0), radius)?;
        self.add_shape(options, |w, b, d| w.create_circle_shape(b, d, &c))
    }

    /// A capsule: the segment `(x1, y1)`–`(x2, y2)` (body frame) swept by
    /// `radius` metres.
    #[wasm_bindgen(js_name = createCapsule)]
    pub fn create_capsule(
        &self,
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        radius: f32,
        options: Option<ShapeOptions>,
    ) -> JsResult<Shape> {
        let c = crate::capsule(x1, y1, x2, y2, radius)?;
        self.add_shape(options, |w, b, d| w.create_capsule_shape(b, d, &c))
    }

    /// A segment `(x1, y1)`–`(x2, y2)` in the body frame (no area: for static
    /// ground).
    #[wasm_bindgen(js_name = createSegment)]
    pub fn create_segment(
        &self,
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        options: Option<ShapeOptions>,
    ) -> JsResult<Shape> {
        let s = crate::segment(x1, y1, x2, y2)?;
        self.add_shape(options, |w, b, d| w.create_segment_shape(b, d, &s))
    }

    /// The convex hull of `points` (`x0, y0, x1, y1, …`, 3 to 8 points, body
    /// frame), rounded by `radius` metres (default 0).
    #[wasm_bindgen(js_name = createPolygon)]
    pub fn create_polygon(
        &self,
        points: &[f32],
        radius: Option<f32>,
        options: Option<ShapeOptions>,
    ) -> JsResult<Shape> {
        let polygon = crate::polygon_from_points(points, radius.unwrap_or(0.0))?;
        self.add_shape(options, |w, b, d| w.create_polygon_shape(b, d, &polygon))
    }
}

/// A shape of a body. Throws once the shape (or its body) is destroyed.
#[wasm_bindgen]
#[derive(Clone)]
pub struct Shape {
    world: Shared,
    id: ShapeId,
}

impl Shape {
    pub(crate) fn new(world: &Shared, id: ShapeId) -> Shape {
        Shape {
            world: Rc::clone(world),
            id,
        }
    }

    pub(crate) fn id(&self) -> ShapeId {
        self.id
    }

    fn read<T>(&self, f: impl FnOnce(impulse2d::ShapeRef<'_>) -> T) -> JsResult<T> {
        let inner = self.world.borrow();
        Ok(f(inner.world.shape(self.id).map_err(js_error)?))
    }

    fn write<T>(
        &self,
        f: impl FnOnce(&mut impulse2d::ShapeMut<'_>) -> impulse2d::Result<T>,
    ) -> JsResult<T> {
        let mut inner = self.world.borrow_mut();
        let mut view = inner.world.shape_mut(self.id).map_err(js_error)?;
        f(&mut view).map_err(js_error)
    }
}

#[wasm_bindgen]
impl Shape {
    /// Whether the shape still exists.
    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self) -> bool {
        self.world.borrow().world.shape(self.id).is_ok()
    }

    /// Whether two handles name the same shape.
    pub fn equals(&self, other: &Shape) -> bool {
        Rc::ptr_eq(&self.world, &other.world) && self.id == other.id
    }

    /// The body the shape is attached to.
    pub fn body(&self) -> JsResult<Body> {
        let id = self.read(|s| s.body())?;
        Ok(Body::new(&self.world, id))
    }

    /// `"circle"`, `"capsule"`, `"segment"`, `"polygon"` or `"chainSegment"`.
    #[wasm_bindgen(js_name = shapeType)]
    pub fn shape_type(&self) -> JsResult<String> {
        self.read(|s| {
            match s.shape_type() {
                impulse2d::ShapeType::Circle => "circle",
                impulse2d::ShapeType::Capsule => "capsule",
                impulse2d::ShapeType::Segment => "segment",
                impulse2d::ShapeType::Polygon => "polygon",
                impulse2d::ShapeType::ChainSegment => "chainSegment",
            }
            .to_string()
        })
    }

    /// Friction coefficient.
    pub fn friction(&self) -> JsResult<f32> {
        self.read(|s| s.friction())
    }

    /// Sets the friction coefficient (non-negative).
    #[wasm_bindgen(js_name = setFriction)]
    pub fn set_friction(&self, friction: f32) -> JsResult<()> {
        self.write(|s| s.set_friction(friction))
    }

    /// Restitution (bounciness).
    pub fn restitution(&self) -> JsResult<f32> {
        self.read(|s| s.restitution())
    }

    /// Sets the restitution, 0 to 1.
    #[wasm_bindgen(js_name = setRestitution)]
    pub fn set_restitution(&self, restitution: f32) -> JsResult<()> {
        self.write(|s| s.set_restitution(restitution))
    }

    /// Density, kg/m².
    pub fn density(&self) -> JsResult<f32> {
        self.read(|s| s.density())
    }

    /// Sets the density, kg/m², and updates the body's mass.
    #[wasm_bindgen(js_name = setDensity)]
    pub fn set_density(&self, density: f32) -> JsResult<()> {
        self.write(|s| s.set_density(density, true))
    }

    /// Whether the shape is a sensor.
    #[wasm_bindgen(js_name = isSensor)]
    pub fn is_sensor(&self) -> JsResult<bool> {
        self.read(|s| s.is_sensor())
    }

    /// Whether the world point `(x, y)` is inside the shape.
    #[wasm_bindgen(js_name = testPoint)]
    pub fn test_point(&self, x: f32, y: f32) -> JsResult<bool> {
        let inner = self.world.borrow();
        let view = inner.world.shape(self.id).map_err(js_error)?;
        view.test_point(V2::new(x, y)).map_err(js_error)
    }
}

/// A joint between two bodies. Throws once the joint is destroyed, and for a
/// part the joint type lacks (a motor on a weld joint, say).
#[wasm_bindgen]
#[derive(Clone)]
pub struct Joint {
    world: Shared,
    id: JointId,
}

impl Joint {
    pub(crate) fn new(world: &Shared, id: JointId) -> Joint {
        Joint {
            world: Rc::clone(world),
            id,
        }
    }

    pub(crate) fn id(&self) -> JointId {
        self.id
    }

    pub(crate) fn check_world(&self, world: &Shared) -> JsResult<()> {
        same_world(&self.world, world)
    }

    fn read<T>(
        &self,
        f: impl FnOnce(impulse2d::JointRef<'_>) -> impulse2d::Result<T>,
    ) -> JsResult<T> {
        let inner = self.world.borrow();
        f(inner.world.joint(self.id).map_err(js_error)?).map_err(js_error)
    }

    fn write<T>(
        &self,
        f: impl FnOnce(impulse2d::JointMut<'_>) -> impulse2d::Result<T>,
    ) -> JsResult<T> {
        let mut inner = self.world.borrow_mut();
        let view = inner.world.joint_mut(self.id).map_err(js_error)?;
        f(view).map_err(js_error)
    }
}

#[wasm_bindgen]
impl Joint {
    /// Whether the joint still exists.
    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self) -> bool {
        self.world.borrow().world.joint_is_valid(self.id)
    }

    /// `"revolute"`, `"prismatic"`, `"weld"`, `"distance"`, `"mouse"`, … .
    #[wasm_bindgen(js_name = jointType)]
    pub fn joint_type(&self) -> JsResult<String> {
        self.read(|j| Ok(format!("{:?}", j.joint_type()).to_lowercase()))
    }

    /// The first body.
    #[wasm_bindgen(js_name = bodyA)]
    pub fn body_a(&self) -> JsResult<Body> {
        let id = self.read(|j| Ok(j.body_a()))?;
        Ok(Body::new(&self.world, id))
    }

    /// The second body.
    #[wasm_bindgen(js_name = bodyB)]
    pub fn body_b(&self) -> JsResult<Body> {
        let id = self.read(|j| Ok(j.body_b()))?;
        Ok(Body::new(&self.world, id))
    }

    /// The force the joint applied in the last step, newtons.
    #[wasm_bindgen(js_name = constraintForce)]
    pub fn constraint_force(&self) -> JsResult<Vec2> {
        self.read(|j| Ok(j.constraint_force().into()))
    }

    /// A revolute joint's angle, radians. Throws for other types.
    pub fn angle(&self) -> JsResult<f32> {
        self.read(|j| Ok(j.revolute()?.angle()))
    }

    /// Turns the motor on or off (revolute, prismatic, wheel, distance).
    #[wasm_bindgen(js_name = enableMotor)]
    pub fn enable_motor(&self, enable: bool) -> JsResult<()> {
        self.write(|j| {
            j.motor()?.enable(enable);
            Ok(())
        })
    }

    /// The motor's speed, rad/s or m/s.
    #[wasm_bindgen(js_name = setMotorSpeed)]
    pub fn set_motor_speed(&self, speed: f32) -> JsResult<()> {
        self.write(|j| j.motor()?.set_speed(speed))
    }

    /// The motor's largest torque or force (N·m or N).
    #[wasm_bindgen(js_name = setMaxMotorForce)]
    pub fn set_max_motor_force(&self, force: f32) -> JsResult<()> {
        self.write(|j| j.motor()?.set_max_force(force))
    }

    /// Turns the limit on or off (revolute, prismatic, wheel, distance).
    #[wasm_bindgen(js_name = enableLimit)]
    pub fn enable_limit(&self, enable: bool) -> JsResult<()> {
        self.write(|j| {
            j.limit()?.enable(enable);
            Ok(())
        })
    }

    /// The limit's range (radians or metres), `lower ≤ upper`.
    #[wasm_bindgen(js_name = setLimits)]
    pub fn set_limits(&self, lower: f32, upper: f32) -> JsResult<()> {
        self.write(|j| j.limit()?.set_range(lower, upper))
    }

    /// A mouse joint's target, world frame, metres. Throws for other types.
    #[wasm_bindgen(js_name = setTarget)]
    pub fn set_target(&self, x: f32, y: f32) -> JsResult<()> {
        self.write(|j| j.mouse()?.set_target(V2::new(x, y)))
    }
}
