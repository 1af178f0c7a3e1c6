//! Handles: a body, shape or joint id together with the world it lives in.
//! Every call looks the id up again, so a destroyed object's handle throws.
//!
//! [`handle!`] declares a handle class and what every handle has;
//! [`methods!`] writes a class's JavaScript methods from a table, one row a
//! method that runs a closure on the object's read or write view.

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

/// The tables' docstrings are plain string literals, `[" line", " line"]`,
/// one per line: wasm-bindgen copies a doc attribute's literal into the
/// TypeScript declarations as written, and a `///` comment that passes
/// through `macro_rules!` becomes a raw string (`r" line"`).
///
/// Declares the handle class `$ty`: a world and an id of type `$id`, which
/// the engine looks up with `World::$lookup` (view `$view_ref`) and
/// `World::$lookup_mut` (view `$view_mut`). Gives it `new`, `id`,
/// `check_world`, `read` (a closure on the read view), `try_read` (a fallible
/// one), `write` (a fallible closure on the write view), `body_of` (a handle
/// to the body a closure reads), and the JavaScript methods `isValid` and
/// (where asked) `equals`, with the docs given.
macro_rules! handle {
    (
        [$($doc:tt),*]
        $ty:ident($id:ident): $lookup:ident, $lookup_mut:ident, $view_ref:ident, $view_mut:ident;
        [$($valid_doc:tt),*] is_valid;
        $([$($equals_doc:tt),*] equals;)?
    ) => {
        $(#[doc = $doc])*
        #[wasm_bindgen]
        #[derive(Clone)]
        pub struct $ty {
            world: Shared,
            id: $id,
        }

        #[allow(dead_code, reason = "not every class uses every helper")]
        impl $ty {
            pub(crate) fn new(world: &Shared, id: $id) -> $ty {
                $ty {
                    world: Rc::clone(world),
                    id,
                }
            }

            pub(crate) fn id(&self) -> $id {
                self.id
            }

            pub(crate) fn check_world(&self, world: &Shared) -> JsResult<()> {
                same_world(&self.world, world)
            }

            /// Reads through a checked view.
            fn read<T>(&self, f: impl FnOnce(impulse2d::$view_ref<'_>) -> T) -> JsResult<T> {
                let inner = self.world.borrow();
                Ok(f(inner.world.$lookup(self.id).map_err(js_error)?))
            }

            /// Reads through a checked view; the read's own error throws too.
            fn try_read<T>(
                &self,
                f: impl FnOnce(impulse2d::$view_ref<'_>) -> impulse2d::Result<T>,
            ) -> JsResult<T> {
                self.read(f)?.map_err(js_error)
            }

            /// Changes through a checked view; the change's own error throws too.
            fn write<T>(
                &self,
                f: impl FnOnce(impulse2d::$view_mut<'_>) -> impulse2d::Result<T>,
            ) -> JsResult<T> {
                let mut inner = self.world.borrow_mut();
                let view = inner.world.$lookup_mut(self.id).map_err(js_error)?;
                f(view).map_err(js_error)
            }

            /// A handle to the body that `f` reads from the object.
            fn body_of(&self, f: impl FnOnce(impulse2d::$view_ref<'_>) -> BodyId) -> JsResult<Body> {
                let id = self.read(f)?;
                Ok(Body::new(&self.world, id))
            }
        }

        #[wasm_bindgen]
        impl $ty {
            $(#[doc = $valid_doc])*
            #[wasm_bindgen(js_name = isValid)]
            pub fn is_valid(&self) -> bool {
                self.world.borrow().world.$lookup(self.id).is_ok()
            }

            $(
                $(#[doc = $equals_doc])*
                pub fn equals(&self, other: &$ty) -> bool {
                    Rc::ptr_eq(&self.world, &other.world) && self.id == other.id
                }
            )?
        }
    };
}

/// JavaScript methods of `$ty`, one a row: `jsName rust_name(args) -> T =
/// via closure;` is `pub fn rust_name(&self, args) -> JsResult<T> {
/// self.via(closure) }` exported as `jsName`, `via` being `read`, `write`,
/// `try_read`, `body_of` or `add_shape`.
macro_rules! methods {
    ($ty:ident {
        $(
            [$($doc:tt),*]
            $js:ident $name:ident($($arg:ident: $arg_ty:ty),*) -> $ret:ty = $via:ident $f:expr;
        )*
    }) => {
        #[wasm_bindgen]
        impl $ty {
            $(
                $(#[doc = $doc])*
                #[wasm_bindgen(js_name = $js)]
                pub fn $name(&self, $($arg: $arg_ty),*) -> JsResult<$ret> {
                    self.$via($f)
                }
            )*
        }
    };
}

handle! {
    [" A body of a world. Throws once the body is destroyed."] Body(BodyId): body, body_mut, BodyRef, BodyMut;
    [" Whether the body still exists."] is_valid;
    [" Whether two handles name the same body."] equals;
}

impl Body {
    /// Creates a shape on the body from `options` and the checked `geometry`.
    fn add_shape<G>(
        &self,
        (options, geometry, create): (
            Option<ShapeOptions>,
            G,
            impl FnOnce(
                &mut impulse2d::World,
                BodyId,
                &impulse2d::ShapeDef,
                &G,
            ) -> impulse2d::Result<ShapeId>,
        ),
    ) -> JsResult<Shape> {
        let def = shape_def(options.as_ref());
        let id = create(&mut self.world.borrow_mut().world, self.id, &def, &geometry)
            .map_err(js_error)?;
        Ok(Shape::new(&self.world, id))
    }
}

#[wasm_bindgen]
impl Body {
    /// The id's slot index (stable while the body lives).
    #[wasm_bindgen(getter)]
    pub fn index(&self) -> u32 {
        self.id.index()
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
        self.write(|mut b| b.set_transform(V2::new(x, y), Rot::from_angle(angle)))
    }
}

methods!(Body {
    [" The body's origin, world frame, metres."] position position() -> Vec2 = read |b| b.position().into();
    [" The body's rotation angle, radians in [−π, π]."] angle angle() -> f32 = read |b| b.rotation().angle();
    [" Velocity of the centre of mass, m/s."] linearVelocity linear_velocity() -> Vec2 = read |b| b.linear_velocity().into();
    [" Angular velocity, rad/s."] angularVelocity angular_velocity() -> f32 = read |b| b.angular_velocity();
    [" Mass, kg."] mass mass() -> f32 = read |b| b.mass();
    [" Static, kinematic or dynamic."] bodyType body_type() -> BodyType = read |b| b.body_type().into();
    [" Whether the body is awake."] isAwake is_awake() -> bool = read |b| b.is_awake();
    [" Sets the velocity of the centre of mass, m/s."] setLinearVelocity set_linear_velocity(vx: f32, vy: f32) -> () = write |mut b| b.set_linear_velocity(V2::new(vx, vy));
    [" Sets the angular velocity, rad/s."] setAngularVelocity set_angular_velocity(w: f32) -> () = write |mut b| b.set_angular_velocity(w);
    [" Applies the force `(fx, fy)` newtons at the world point `(px, py)`", " during the next step, waking the body."] applyForce apply_force(fx: f32, fy: f32, px: f32, py: f32) -> () = write |mut b| b.apply_force(V2::new(fx, fy), V2::new(px, py), true);
    [" Applies the force `(fx, fy)` newtons at the centre of mass."] applyForceToCenter apply_force_to_center(fx: f32, fy: f32) -> () = write |mut b| b.apply_force_to_center(V2::new(fx, fy), true);
    [" Applies a torque, N·m, during the next step."] applyTorque apply_torque(torque: f32) -> () = write |mut b| b.apply_torque(torque, true);
    [" Applies the impulse `(ix, iy)` N·s at the world point `(px, py)` now."] applyLinearImpulse apply_linear_impulse(ix: f32, iy: f32, px: f32, py: f32) -> () = write |mut b| b.apply_linear_impulse(V2::new(ix, iy), V2::new(px, py), true);
    [" Applies the impulse `(ix, iy)` N·s at the centre of mass now."] applyLinearImpulseToCenter apply_linear_impulse_to_center(ix: f32, iy: f32) -> () = write |mut b| b.apply_linear_impulse_to_center(V2::new(ix, iy), true);
    [" Changes the body's type."] setBodyType set_body_type(body_type: BodyType) -> () = write |mut b| b.set_body_type(body_type.into());
    [" Wakes the body or puts it to sleep."] setAwake set_awake(awake: bool) -> () = write |mut b| { b.set_awake(awake); Ok(()) };
    [" A world point expressed in the body's frame, metres."] localPoint local_point(x: f32, y: f32) -> Vec2 = read |b| b.local_point(V2::new(x, y)).into();
    [" A box of half-widths `hx`, `hy` metres centred on the body."] createBox create_box(hx: f32, hy: f32, options: Option<ShapeOptions>) -> Shape = add_shape
        (options, crate::box_polygon(hx, hy)?, |w, b, d, p| w.create_polygon_shape(b, d, p));
    [" A circle of `radius` metres centred at `(cx, cy)` in the body frame."] createCircle create_circle(radius: f32, cx: Option<f32>, cy: Option<f32>, options: Option<ShapeOptions>) -> Shape = add_shape
        (options, crate::circle(cx.unwrap_or(0.0), cy.unwrap_or(0.0), radius)?, |w, b, d, c| w.create_circle_shape(b, d, c));
    [" A capsule: the segment `(x1, y1)`–`(x2, y2)` (body frame) swept by", " `radius` metres."] createCapsule create_capsule(x1: f32, y1: f32, x2: f32, y2: f32, radius: f32, options: Option<ShapeOptions>) -> Shape = add_shape
        (options, crate::capsule(x1, y1, x2, y2, radius)?, |w, b, d, c| w.create_capsule_shape(b, d, c));
    [" A segment `(x1, y1)`–`(x2, y2)` in the body frame (no area: for static", " ground)."] createSegment create_segment(x1: f32, y1: f32, x2: f32, y2: f32, options: Option<ShapeOptions>) -> Shape = add_shape
        (options, crate::segment(x1, y1, x2, y2)?, |w, b, d, s| w.create_segment_shape(b, d, s));
    [" The convex hull of `points` (`x0, y0, x1, y1, …`, 3 to 8 points, body", " frame), rounded by `radius` metres (default 0)."] createPolygon create_polygon(points: &[f32], radius: Option<f32>, options: Option<ShapeOptions>) -> Shape = add_shape
        (options, crate::polygon_from_points(points, radius.unwrap_or(0.0))?, |w, b, d, p| w.create_polygon_shape(b, d, p));
});

handle! {
    [" A shape of a body. Throws once the shape (or its body) is destroyed."] Shape(ShapeId): shape, shape_mut, ShapeRef, ShapeMut;
    [" Whether the shape still exists."] is_valid;
    [" Whether two handles name the same shape."] equals;
}

/// The JavaScript name of a shape type.
fn shape_type_name(t: impulse2d::ShapeType) -> String {
    match t {
        impulse2d::ShapeType::Circle => "circle",
        impulse2d::ShapeType::Capsule => "capsule",
        impulse2d::ShapeType::Segment => "segment",
        impulse2d::ShapeType::Polygon => "polygon",
        impulse2d::ShapeType::ChainSegment => "chainSegment",
    }
    .to_string()
}

methods!(Shape {
    [" The body the shape is attached to."] body body() -> Body = body_of |s| s.body();
    [" `\"circle\"`, `\"capsule\"`, `\"segment\"`, `\"polygon\"` or `\"chainSegment\"`."] shapeType shape_type() -> String = read |s| shape_type_name(s.shape_type());
    [" Friction coefficient."] friction friction() -> f32 = read |s| s.friction();
    [" Sets the friction coefficient (non-negative)."] setFriction set_friction(friction: f32) -> () = write |mut s| s.set_friction(friction);
    [" Restitution (bounciness)."] restitution restitution() -> f32 = read |s| s.restitution();
    [" Sets the restitution, 0 to 1."] setRestitution set_restitution(restitution: f32) -> () = write |mut s| s.set_restitution(restitution);
    [" Density, kg/m²."] density density() -> f32 = read |s| s.density();
    [" Sets the density, kg/m², and updates the body's mass."] setDensity set_density(density: f32) -> () = write |mut s| s.set_density(density, true);
    [" Whether the shape is a sensor."] isSensor is_sensor() -> bool = read |s| s.is_sensor();
    [" Whether the world point `(x, y)` is inside the shape."] testPoint test_point(x: f32, y: f32) -> bool = try_read |s| s.test_point(V2::new(x, y));
});

handle! {
    [" A joint between two bodies. Throws once the joint is destroyed, and for a", " part the joint type lacks (a motor on a weld joint, say)."] Joint(JointId): joint, joint_mut, JointRef, JointMut;
    [" Whether the joint still exists."] is_valid;
}

methods!(Joint {
    [" `\"revolute\"`, `\"prismatic\"`, `\"weld\"`, `\"distance\"`, `\"mouse\"`, … ."] jointType joint_type() -> String = read |j| format!("{:?}", j.joint_type()).to_lowercase();
    [" The first body."] bodyA body_a() -> Body = body_of |j| j.body_a();
    [" The second body."] bodyB body_b() -> Body = body_of |j| j.body_b();
    [" The force the joint applied in the last step, newtons."] constraintForce constraint_force() -> Vec2 = read |j| j.constraint_force().into();
    [" A revolute joint's angle, radians. Throws for other types."] angle angle() -> f32 = try_read |j| Ok(j.revolute()?.angle());
    [" Turns the motor on or off (revolute, prismatic, wheel, distance)."] enableMotor enable_motor(enable: bool) -> () = write |j| { j.motor()?.enable(enable); Ok(()) };
    [" The motor's speed, rad/s or m/s."] setMotorSpeed set_motor_speed(speed: f32) -> () = write |j| j.motor()?.set_speed(speed);
    [" The motor's largest torque or force (N·m or N)."] setMaxMotorForce set_max_motor_force(force: f32) -> () = write |j| j.motor()?.set_max_force(force);
    [" Turns the limit on or off (revolute, prismatic, wheel, distance)."] enableLimit enable_limit(enable: bool) -> () = write |j| { j.limit()?.enable(enable); Ok(()) };
    [" The limit's range (radians or metres), `lower ≤ upper`."] setLimits set_limits(lower: f32, upper: f32) -> () = write |j| j.limit()?.set_range(lower, upper);
    [" A mouse joint's target, world frame, metres. Throws for other types."] setTarget set_target(x: f32, y: f32) -> () = write |j| j.mouse()?.set_target(V2::new(x, y));
});
