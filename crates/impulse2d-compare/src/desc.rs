//! Engine-neutral scene descriptions.
//!
//! Every benchmark scene is written once, as plain data ([`SceneDesc`]), and each engine
//! adapter instantiates that data with its own API. Building from one description is what
//! makes "the same scene in three engines" checkable: body, shape and joint counts come
//! from the same lists, and the stability figures are computed by shared code from the
//! body states each engine reports.
//!
//! Units are SI throughout: metres, radians, seconds, kilograms per square metre.

use impulse2d_scenes::rain::RainLayout;
use std::ops::Range;

/// A 2D point or vector in metres (or metres per second for velocities).
pub type V2 = [f32; 2];

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Never moves; infinite mass.
    Static,
    /// Moves with its velocity; infinite mass.
    Kinematic,
    /// Moves under forces, contacts and joints.
    Dynamic,
}

/// Collision filtering, with Box2D's semantics: two shapes collide when each one's
/// category has a bit in the other's mask, unless both share the same negative group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Category bits of the shape.
    pub category: u32,
    /// Which categories this shape accepts.
    pub mask: u32,
    /// Non-zero: shapes with the same negative group never collide, the same positive
    /// group always collide.
    pub group: i32,
}

impl Filter {
    /// The mask as the 64-bit engines store it: all bits set ("accept every
    /// category") stays all bits set.
    pub fn mask_bits(self) -> u64 {
        if self.mask == u32::MAX {
            u64::MAX
        } else {
            u64::from(self.mask)
        }
    }
}

impl Default for Filter {
    fn default() -> Self {
        Self {
            category: 1,
            mask: u32::MAX,
            group: 0,
        }
    }
}

/// A collision shape's geometry in body-local coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// A disc.
    Circle {
        /// Centre (m).
        center: V2,
        /// Radius (m).
        radius: f32,
    },
    /// Two discs joined by their tangent lines.
    Capsule {
        /// First centre (m).
        center1: V2,
        /// Second centre (m).
        center2: V2,
        /// Radius (m).
        radius: f32,
    },
    /// A convex polygon (counter-clockwise vertices) inflated by `radius`.
    Polygon {
        /// Vertices in counter-clockwise order (m), at most 8.
        vertices: Vec<V2>,
        /// Rounding radius (m), 0 for sharp corners.
        radius: f32,
    },
    /// A line segment (two-sided).
    Segment {
        /// First end point (m).
        point1: V2,
        /// Second end point (m).
        point2: V2,
    },
    /// A closed loop of segments through `points` (Box2D chain shape, Rapier polyline).
    /// Counts as one shape per segment.
    ChainLoop {
        /// Loop vertices (m); the last connects back to the first.
        points: Vec<V2>,
    },
}

impl Geometry {
    /// An axis-aligned box of half-extents `hx`, `hy` centred at `center` (m).
    pub fn offset_box(hx: f32, hy: f32, center: V2) -> Self {
        let [cx, cy] = center;
        Geometry::Polygon {
            vertices: vec![
                [cx - hx, cy - hy],
                [cx + hx, cy - hy],
                [cx + hx, cy + hy],
                [cx - hx, cy + hy],
            ],
            radius: 0.0,
        }
    }

    /// An axis-aligned box of half-extents `hx`, `hy` centred at the body origin (m).
    pub fn cuboid(hx: f32, hy: f32) -> Self {
        Self::offset_box(hx, hy, [0.0, 0.0])
    }

    /// How many shapes this geometry becomes in Box2D (a chain loop is one per segment).
    pub fn shape_count(&self) -> usize {
        match self {
            Geometry::ChainLoop { points } => points.len(),
            _ => 1,
        }
    }

    /// Area (m²), counting the rounding of rounded polygons and capsules' caps; 0 for
    /// segments and chains.
    pub fn area(&self) -> f32 {
        match self {
            Geometry::Circle { radius, .. } => std::f32::consts::PI * radius * radius,
            Geometry::Capsule {
                center1,
                center2,
                radius,
            } => {
                let length = (center2[0] - center1[0]).hypot(center2[1] - center1[1]);
                std::f32::consts::PI * radius * radius + 2.0 * radius * length
            }
            Geometry::Polygon { vertices, radius } => {
                let n = vertices.len();
                let mut twice_area = 0.0;
                let mut perimeter = 0.0;
                for i in 0..n {
                    let a = vertices[i];
                    let b = vertices[(i + 1) % n];
                    twice_area += a[0] * b[1] - a[1] * b[0];
                    perimeter += (b[0] - a[0]).hypot(b[1] - a[1]);
                }
                0.5 * twice_area + perimeter * radius + std::f32::consts::PI * radius * radius
            }
            Geometry::Segment { .. } | Geometry::ChainLoop { .. } => 0.0,
        }
    }
}

/// One shape attached to a body.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeDesc {
    /// Geometry in body coordinates.
    pub geometry: Geometry,
    /// Density (kg/m²).
    pub density: f32,
    /// Coulomb friction coefficient; pairs mix by geometric mean (Box2D's rule).
    pub friction: f32,
    /// Restitution; pairs mix by maximum (Box2D's rule).
    pub restitution: f32,
    /// Collision filter.
    pub filter: Filter,
}

/// Builder setters `name(mut self, value) -> Self`, one per field.
macro_rules! setters {
    ($($(#[$doc:meta])* $field:ident: $ty:ty;)*) => {
        $(
            $(#[$doc])*
            pub fn $field(mut self, $field: $ty) -> Self {
                self.$field = $field;
                self
            }
        )*
    };
}

impl ShapeDesc {
    /// A shape with Box2D's default material: density 1 kg/m², friction 0.6, no bounce.
    pub fn new(geometry: Geometry) -> Self {
        Self {
            geometry,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::default(),
        }
    }

    setters! {
        /// Sets the density (kg/m²).
        density: f32;
        /// Sets the friction coefficient.
        friction: f32;
        /// Sets the restitution.
        restitution: f32;
        /// Sets the collision filter.
        filter: Filter;
    }
}

/// One rigid body and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// Static, kinematic or dynamic.
    pub kind: Kind,
    /// Origin position (m).
    pub position: V2,
    /// Rotation (rad).
    pub angle: f32,
    /// Initial linear velocity of the origin (m/s).
    pub linear_velocity: V2,
    /// Initial angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Linear damping (1/s).
    pub linear_damping: f32,
    /// Starts awake (false: created asleep, as Box2D's `isAwake = false`).
    pub awake: bool,
    /// May fall asleep (the world's sleep switch also applies).
    pub enable_sleep: bool,
    /// Box2D's sleep speed threshold (m/s); other engines use their own default.
    pub sleep_threshold: f32,
    /// Attached shapes.
    pub shapes: Vec<ShapeDesc>,
}

impl BodyDesc {
    /// A body of the given kind at `position` with Box2D's defaults.
    pub fn new(kind: Kind, position: V2) -> Self {
        Self {
            kind,
            position,
            angle: 0.0,
            linear_velocity: [0.0, 0.0],
            angular_velocity: 0.0,
            linear_damping: 0.0,
            awake: true,
            enable_sleep: true,
            sleep_threshold: 0.05,
            shapes: Vec::new(),
        }
    }

    /// Adds a shape.
    pub fn shape(mut self, shape: ShapeDesc) -> Self {
        self.shapes.push(shape);
        self
    }

    /// Mass (kg) from the shapes' areas and densities.
    pub fn mass(&self) -> f32 {
        self.shapes
            .iter()
            .map(|s| s.density * s.geometry.area())
            .sum()
    }
}

/// A revolute joint motor: drives the relative angular velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    /// Target relative angular velocity (rad/s).
    pub speed: f32,
    /// Largest torque the motor may apply (N·m).
    pub max_torque: f32,
}

/// A revolute joint spring pulling the joint angle toward zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    /// Stiffness as a frequency (Hz).
    pub hertz: f32,
    /// Damping ratio (non-dimensional).
    pub damping_ratio: f32,
}

/// A revolute (hinge) joint between two bodies of the scene.
#[derive(Clone, Debug, PartialEq)]
pub struct JointDesc {
    /// Key of the first body (index into [`SceneDesc::bodies`]).
    pub body_a: usize,
    /// Key of the second body.
    pub body_b: usize,
    /// Pivot in body A's frame (m).
    pub local_anchor_a: V2,
    /// Pivot in body B's frame (m).
    pub local_anchor_b: V2,
    /// Joint angle = (angle B − angle A) − reference angle (rad).
    pub reference_angle: f32,
    /// Lower and upper joint angle (rad).
    pub limits: Option<[f32; 2]>,
    /// Angular motor.
    pub motor: Option<Motor>,
    /// Angular spring toward joint angle 0.
    pub spring: Option<Spring>,
}

impl JointDesc {
    /// A free hinge between `a` and `b` at the given local pivots.
    pub fn revolute(body_a: usize, body_b: usize, local_anchor_a: V2, local_anchor_b: V2) -> Self {
        Self {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            reference_angle: 0.0,
            limits: None,
            motor: None,
            spring: None,
        }
    }

    /// Sets a motor driving the joint at `speed` (rad/s) with at most
    /// `max_torque` (N·m).
    pub fn with_motor(mut self, speed: f32, max_torque: f32) -> Self {
        self.motor = Some(Motor { speed, max_torque });
        self
    }

    /// The limit, motor and spring in Box2D's flat form, each `(enabled, a, b)`:
    /// `(enableLimit, lowerAngle, upperAngle)`, `(enableMotor, motorSpeed,
    /// maxMotorTorque)`, `(enableSpring, hertz, dampingRatio)`; an absent part is
    /// `(false, 0, 0)`, the default definitions' values.
    pub fn flat_parts(&self) -> [(bool, f32, f32); 3] {
        let flat = |part: Option<[f32; 2]>| part.map_or((false, 0.0, 0.0), |[a, b]| (true, a, b));
        [
            flat(self.limits),
            flat(self.motor.map(|m| [m.speed, m.max_torque])),
            flat(self.spring.map(|s| [s.hertz, s.damping_ratio])),
        ]
    }
}

/// A group of bodies and joints created and destroyed together while a scene runs
/// (rain's ragdoll groups).
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// Keys of the batch's bodies.
    pub bodies: Range<usize>,
    /// Indices of the batch's joints in [`SceneDesc::joints`].
    pub joints: Range<usize>,
}

/// Something a scene does between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Create the bodies, shapes and joints of batch `n`.
    Spawn(usize),
    /// Destroy the bodies (and so the joints) of batch `n`.
    Despawn(usize),
}

/// A whole scene: the world settings, every body that will ever exist, and what happens
/// between steps.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDesc {
    /// Scene name as in Box2D's benchmark (`large_pyramid`, ...).
    pub name: String,
    /// Gravity (m/s²).
    pub gravity: V2,
    /// World-wide sleep switch (Box2D's `b2World_EnableSleeping`).
    pub enable_sleep: bool,
    /// Every body, indexed by key. Bodies outside `initial_bodies` belong to batches.
    pub bodies: Vec<BodyDesc>,
    /// Bodies created when the scene is built.
    pub initial_bodies: Range<usize>,
    /// Every joint. Joints outside `initial_joints` belong to batches.
    pub joints: Vec<JointDesc>,
    /// Joints created when the scene is built.
    pub initial_joints: Range<usize>,
    /// Groups spawned and despawned while running.
    pub batches: Vec<Batch>,
    /// Spawning schedule, if the scene has one: the scene registry's rain layout, whose
    /// [`RainLayout::firing`] also drives the registry's `RainScript`, so the engines here
    /// and the command-line tool fire the same groups on the same steps. Batch index =
    /// [`RainLayout::group_index`].
    pub schedule: Option<RainLayout>,
}

impl SceneDesc {
    /// An empty scene with Box2D's default gravity (0, −10) m/s² and sleeping on.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            gravity: [0.0, -10.0],
            enable_sleep: true,
            bodies: Vec::new(),
            initial_bodies: 0..0,
            joints: Vec::new(),
            initial_joints: 0..0,
            batches: Vec::new(),
            schedule: None,
        }
    }

    /// Adds an initial body and returns its key.
    pub fn add_body(&mut self, body: BodyDesc) -> usize {
        debug_assert!(
            self.batches.is_empty(),
            "initial bodies come before batches"
        );
        self.bodies.push(body);
        self.initial_bodies = 0..self.bodies.len();
        self.bodies.len() - 1
    }

    /// Adds an initial joint.
    pub fn add_joint(&mut self, joint: JointDesc) {
        debug_assert!(
            self.batches.is_empty(),
            "initial joints come before batches"
        );
        self.joints.push(joint);
        self.initial_joints = 0..self.joints.len();
    }

    /// Actions before step `step` (0-based): for a firing, in every row, the column's
    /// batch despawned (when it is replaced) then spawned.
    pub fn actions(&self, step: u32) -> Vec<Action> {
        let Some(layout) = self.schedule else {
            return Vec::new();
        };
        let Some(firing) = layout.firing(u64::from(step)) else {
            return Vec::new();
        };
        let mut actions = Vec::with_capacity(2 * layout.rows);
        for row in 0..layout.rows {
            let batch = layout.group_index(row, firing.column);
            if firing.replaces {
                actions.push(Action::Despawn(batch));
            }
            actions.push(Action::Spawn(batch));
        }
        actions
    }

    /// Whether any joint exists in the scene (initial or in batches).
    pub fn has_joints(&self) -> bool {
        !self.joints.is_empty()
    }
}

/// Position and velocity of one body, as an engine reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyState {
    /// Origin position (m).
    pub position: V2,
    /// Rotation (rad).
    pub angle: f32,
    /// Linear velocity of the centre of mass (m/s).
    pub linear_velocity: V2,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
}

impl BodyState {
    /// Maps a body-local point to world coordinates (m).
    pub fn transform_point(&self, local: V2) -> V2 {
        let (s, c) = self.angle.sin_cos();
        [
            self.position[0] + c * local[0] - s * local[1],
            self.position[1] + s * local[0] + c * local[1],
        ]
    }

    /// Maps a world point into body-local coordinates (m).
    pub fn inverse_transform_point(&self, world: V2) -> V2 {
        let (s, c) = self.angle.sin_cos();
        let d = [world[0] - self.position[0], world[1] - self.position[1]];
        [c * d[0] + s * d[1], -s * d[0] + c * d[1]]
    }

    /// True when every number is finite.
    pub fn is_finite(&self) -> bool {
        self.position.iter().all(|v| v.is_finite())
            && self.angle.is_finite()
            && self.linear_velocity.iter().all(|v| v.is_finite())
            && self.angular_velocity.is_finite()
    }
}
