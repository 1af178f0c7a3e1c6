//! Components that describe bodies, colliders and joints, and the handles the plugin
//! adds once they exist in the physics world.

use bevy::math::Vec2;
use bevy::prelude::*;
use impulse2d as i2;

/// A rigid body. Its entity's [`Transform`] gives the pose (x, y and the rotation about
/// z; metres and radians) when the body is created, and the plugin writes the body's
/// pose back into it after each step. Changing the component changes the body's type.
///
/// In a hierarchy (through [`ChildOf`]) the body's pose in the world is its `Transform`
/// composed with its ancestors' (as in Bevy's `GlobalTransform`, but computed at each
/// fixed step, so it is current inside `FixedUpdate`), and the plugin writes the pose
/// back as the `Transform` in the parent's frame. The application moving the entity or
/// any ancestor (a new `Transform` or parent) teleports the body to its new place in the
/// world. The physics moving an ancestor's body does not carry a child body along:
/// each body moves by its own dynamics (join them with a joint to move them together).
///
/// Scale is not part of a body's pose: the `Transform`s' scale scales the colliders
/// (see [`Collider`]).
///
/// Box2D: `b2BodyDef.type`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[require(Transform, Velocity)]
pub enum RigidBody {
    /// Moved by forces, contacts and joints.
    #[default]
    Dynamic,
    /// Moved only by its velocity; pushes dynamic bodies, is not pushed.
    Kinematic,
    /// Never moves.
    Static,
}

impl RigidBody {
    pub(crate) fn body_type(self) -> i2::BodyType {
        match self {
            RigidBody::Dynamic => i2::BodyType::Dynamic,
            RigidBody::Kinematic => i2::BodyType::Kinematic,
            RigidBody::Static => i2::BodyType::Static,
        }
    }
}

/// A body's velocity: linear in m/s, angular in rad/s (counter-clockwise positive).
/// Written by the plugin after each step without triggering change detection, so a
/// `Changed<Velocity>` (and the plugin's sync) sees only the application's writes, which
/// set the body's velocity.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity {
    /// m/s.
    pub linear: Vec2,
    /// rad/s.
    pub angular: f32,
}

/// A force (N) at the centre of mass and a torque (N·m), applied at every fixed step
/// while the component is there.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ExternalForce {
    /// N, world frame.
    pub force: Vec2,
    /// N·m.
    pub torque: f32,
}

/// A linear impulse (N·s) at the centre of mass and an angular impulse (N·m·s), applied
/// once at the next fixed step and then reset to zero.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ExternalImpulse {
    /// N·s, world frame.
    pub impulse: Vec2,
    /// N·m·s.
    pub angular: f32,
}

/// Scales gravity for this body (1 by default).
///
/// Box2D: `b2BodyDef.gravityScale`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct GravityScale(pub f32);

/// Linear and angular damping, 1/s.
///
/// Box2D: `b2BodyDef.linearDamping`, `b2BodyDef.angularDamping`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Damping {
    /// 1/s.
    pub linear: f32,
    /// 1/s.
    pub angular: f32,
}

/// Which motions the solver keeps at zero.
///
/// Box2D: `b2BodyDef.motionLocks`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockedAxes {
    /// No motion along x.
    pub translation_x: bool,
    /// No motion along y.
    pub translation_y: bool,
    /// No rotation.
    pub rotation: bool,
}

impl LockedAxes {
    /// Only rotation locked (a character that stays upright).
    pub const ROTATION: LockedAxes = LockedAxes {
        translation_x: false,
        translation_y: false,
        rotation: true,
    };

    pub(crate) fn locks(self) -> i2::MotionLocks {
        i2::MotionLocks {
            linear_x: self.translation_x,
            linear_y: self.translation_y,
            angular_z: self.rotation,
        }
    }
}

/// Continuous collision against other moving bodies too (a bullet), not only against
/// static ones.
///
/// Box2D: `b2BodyDef.isBullet`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ccd;

/// Whether the body may fall asleep when it comes to rest (it may by default).
/// The plugin adds and removes [`Sleeping`] to say whether it is asleep.
///
/// Box2D: `b2BodyDef.enableSleep`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SleepingAllowed(pub bool);

/// Present while the body sleeps (kept by the plugin; read it, do not insert it).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sleeping;

/// The shape of a collider, in the frame of its entity (metres, radians). A collider on
/// an entity with a [`RigidBody`] belongs to that body; on a descendant of one (through
/// [`ChildOf`], at any depth, without a body of its own) it belongs to the nearest
/// ancestor's body, placed by the [`Transform`]s of the entity and the ancestors between.
/// Changing any of those `Transform`s (or the entity's parent) moves the collider on its
/// body.
///
/// # Scale
/// The collider takes the scale of its own `Transform`, of those between it and its
/// body, and the body's own scale in the world (its `Transform`'s and its ancestors').
/// Points (centres, capsule and segment ends, box corners, polygon and chain points) go
/// through the scaled map exactly, so boxes, polygons, segments and chains scale
/// exactly, uniformly or not (a box turned under a non-uniformly scaled parent becomes
/// the parallelogram Bevy's `GlobalTransform` shears it to). Radii (circles, capsules,
/// rounded corners) are multiplied by `√|sx·sy|`: `|s|` for a uniform scale `s`; under
/// a non-uniform scale a circle stays a circle, of the area of the ellipse it would be
/// (so its mass is the ellipse's), and a capsule's ends stretch while its radius scales
/// so. (avian2d 0.7 makes an exact ellipse of a non-uniformly scaled circle and a convex
/// polygon, 10 subdivisions per cap, of a capsule; Impulse2D's shapes, Box2D's, have no
/// ellipse and polygons have at most 8 vertices.) A negative scale mirrors (a chain is
/// reversed, so its solid side stays); a zero scale gives a degenerate shape, which is
/// refused (with a warning) like any other.
#[derive(Component, Clone, Debug, PartialEq)]
#[require(Transform)]
pub enum Collider {
    /// A circle of this radius around the origin.
    Circle {
        /// m.
        radius: f32,
    },
    /// Two points swept by a radius.
    Capsule {
        /// First centre, m.
        a: Vec2,
        /// Second centre, m.
        b: Vec2,
        /// m.
        radius: f32,
    },
    /// A box with these half extents, centred on the origin, corners rounded by
    /// `radius` (0 for a sharp box).
    Rectangle {
        /// Half width and half height, m.
        half_extents: Vec2,
        /// Corner radius, m.
        radius: f32,
    },
    /// The convex hull of these points (3 to 8 after the hull), rounded by `radius`.
    ConvexPolygon {
        /// m.
        points: Vec<Vec2>,
        /// m.
        radius: f32,
    },
    /// A two-sided line segment.
    Segment {
        /// m.
        a: Vec2,
        /// m.
        b: Vec2,
    },
    /// A chain of one-sided segments (terrain), counter-clockwise for the solid side
    /// inside when `closed`.
    Chain {
        /// m, at least 4 points.
        points: Vec<Vec2>,
        /// Whether the last point joins the first.
        closed: bool,
    },
}

impl Collider {
    /// A circle.
    pub fn circle(radius: f32) -> Collider {
        Collider::Circle { radius }
    }
    /// A box `width` × `height` metres.
    pub fn rectangle(width: f32, height: f32) -> Collider {
        Collider::Rectangle {
            half_extents: Vec2::new(width / 2.0, height / 2.0),
            radius: 0.0,
        }
    }
    /// A box `width` × `height` metres (outer size) with corners rounded by `radius`.
    pub fn round_rectangle(width: f32, height: f32, radius: f32) -> Collider {
        Collider::Rectangle {
            half_extents: Vec2::new(width / 2.0 - radius, height / 2.0 - radius),
            radius,
        }
    }
    /// A vertical capsule: total height `length + 2 radius`.
    pub fn capsule(length: f32, radius: f32) -> Collider {
        Collider::Capsule {
            a: Vec2::new(0.0, -length / 2.0),
            b: Vec2::new(0.0, length / 2.0),
            radius,
        }
    }
    /// The convex hull of `points`.
    pub fn convex_polygon(points: Vec<Vec2>) -> Collider {
        Collider::ConvexPolygon {
            points,
            radius: 0.0,
        }
    }
    /// A segment.
    pub fn segment(a: Vec2, b: Vec2) -> Collider {
        Collider::Segment { a, b }
    }
    /// An open chain through `points`.
    pub fn chain(points: Vec<Vec2>) -> Collider {
        Collider::Chain {
            points,
            closed: false,
        }
    }
}

/// A collider's surface and mass: density (kg/m²), friction, restitution, rolling
/// resistance and tangent speed (m/s, conveyor belts).
///
/// Box2D: `b2ShapeDef.density`, `b2ShapeDef.material`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// kg/m².
    pub density: f32,
    /// Coulomb coefficient.
    pub friction: f32,
    /// Coefficient of restitution.
    pub restitution: f32,
    /// Rolling resistance (dimensionless).
    pub rolling_resistance: f32,
    /// m/s along the surface.
    pub tangent_speed: f32,
}

impl Default for Material {
    fn default() -> Self {
        let d = i2::ShapeDef::default();
        Material {
            density: d.density,
            friction: d.friction,
            restitution: d.restitution,
            rolling_resistance: d.rolling_resistance,
            tangent_speed: d.tangent_speed,
        }
    }
}

/// Which colliders collide: two collide when each one's category is in the other's mask
/// and, for a shared non-zero group, the group is positive.
///
/// Box2D: `b2Filter`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionFilter {
    /// Categories this collider belongs to.
    pub category: u64,
    /// Categories it collides with.
    pub mask: u64,
    /// Same positive group: always collide; same negative group: never.
    pub group: i32,
}

impl Default for CollisionFilter {
    /// The engine's default filter: category 1, every mask bit, no group.
    fn default() -> Self {
        i2::Filter::default().into()
    }
}

/// The component for an engine filter (the same bits).
impl From<i2::Filter> for CollisionFilter {
    fn from(f: i2::Filter) -> Self {
        CollisionFilter {
            category: f.category_bits,
            mask: f.mask_bits,
            group: f.group_index,
        }
    }
}

impl CollisionFilter {
    pub(crate) fn filter(self) -> i2::Filter {
        i2::Filter {
            category_bits: self.category,
            mask_bits: self.mask,
            group_index: self.group,
        }
    }
}

/// The collider is a sensor: it collides with nothing and reports what overlaps it as
/// [`SensorEntered`](crate::SensorEntered) / [`SensorExited`](crate::SensorExited).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sensor;

/// The collider reports hits ([`ContactHit`](crate::ContactHit)): impacts faster than
/// the world's hit threshold.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HitEvents;

/// A joint between the bodies of two entities. The `def`'s `base.body_a`/`body_b` are
/// filled in by the plugin; the rest (anchors in each body's frame, motors, limits,
/// springs, break thresholds) is the definition's.
#[derive(Component, Clone, Debug)]
pub struct Joint {
    /// The entity of the first body.
    pub entity_a: Entity,
    /// The entity of the second body.
    pub entity_b: Entity,
    /// The joint type and its definition.
    pub def: JointDef,
}

/// Every joint type's definition.
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub enum JointDef {
    Distance(i2::DistanceJointDef),
    Filter(i2::FilterJointDef),
    Motor(i2::MotorJointDef),
    Mouse(i2::MouseJointDef),
    Mover(i2::MoverJointDef),
    Pogo(i2::PogoJointDef),
    Prismatic(i2::PrismaticJointDef),
    Revolute(i2::RevoluteJointDef),
    Weld(i2::WeldJointDef),
    Wheel(i2::WheelJointDef),
}

/// The body of an entity with a [`RigidBody`] (added by the plugin).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyHandle(pub i2::BodyId);

/// The shape (or chain) of an entity with a [`Collider`] (added by the plugin).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColliderHandle {
    /// A single shape.
    Shape(i2::ShapeId),
    /// A chain of segments.
    Chain(i2::ChainId),
}

/// Added by the plugin to a [`Joint`]'s entity when its joint broke (it passed a
/// threshold with `break_on_threshold` set): the joint is not made again while this is
/// there. Remove it, or change the `Joint`, to make the joint anew.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JointBroken;

/// The joint of an entity with a [`Joint`] (added by the plugin).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointHandle(pub i2::JointId);

/// The last two poses the physics computed (for interpolation) and the transform the
/// plugin last wrote, to tell the application's moves from its own (added by the plugin).
#[derive(Component, Clone, Copy, Debug)]
pub struct PhysicsPose {
    /// The pose before the last step.
    pub previous: i2::Transform,
    /// The pose after the last step.
    pub current: i2::Transform,
    pub(crate) written: Transform,
    /// The step that wrote `current` (the ones before say it did not move since).
    pub(crate) step: u64,
}
