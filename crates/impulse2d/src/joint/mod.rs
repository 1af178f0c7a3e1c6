//! Joints: constraints that connect two bodies.
//!
//! Every joint type is solved inside the same soft-step solver as contacts:
//! it is *prepared* once per step (anchors relative to the centres of mass,
//! effective masses, softness coefficients), then in every substep it is
//! *warm started* with its accumulated impulses, *solved* with a position
//! bias and, after the positions are integrated, *relaxed* without bias.
//! Positions are never recomputed inside the step: the current separation of
//! two anchors is recovered from the bodies' position and rotation deltas.
//!
//! Joints live where contacts live. An awake joint sits in a colour of the
//! constraint graph (no two constraints of a colour share a dynamic body); a
//! sleeping joint sits in its island's solver set; a joint with a disabled
//! body sits in the disabled set; a joint between two bodies that cannot move
//! (static or kinematic) sits in the static set and is never solved. A joint
//! links the islands of its bodies, so jointed bodies sleep and wake together,
//! and destroying it may let the island split.
//!
//! The rigid parts of a joint (the revolute point, the prismatic line, the
//! weld) are soft constraints with the world's joint stiffness
//! ([`WorldDef::joint_hertz`](crate::WorldDef::joint_hertz) and
//! [`WorldDef::joint_damping_ratio`](crate::WorldDef::joint_damping_ratio)),
//! which a joint can override. Springs are soft constraints with their own
//! stiffness, expressed in hertz so that the result does not depend on the
//! masses: a body of any mass on a spring of `f` hertz oscillates at `f`.
//! Limits are speculative: they only remove the velocity that would cross
//! the limit within the substep, and push back softly once crossed.
//!
//! # References
//! - E. Catto, Box2D v3 `joint.c`, `revolute_joint.c`, `prismatic_joint.c`,
//!   `distance_joint.c`, `weld_joint.c`, `wheel_joint.c`, `motor_joint.c`,
//!   `mouse_joint.c`.
//! - E. Catto, *Solver2D* (2024) and *Soft Constraints*, GDC 2011.
//! - E. Catto, *Modeling and Solving Constraints*, GDC 2009 (Jacobians of the
//!   point, line and angle constraints used here).

/// Declares a joint definition: the struct (serialisable with the `serde`
/// feature; missing fields take their defaults), its `Default` from the
/// defaults given after `=`, and `validate`, which checks `base` and then
/// each field with the check named after its default, in order, then the
/// checks that relate fields (`also`).
///
/// Besides plain fields, a definition lists the field groups that several
/// joint types share, one line each, with their field names and defaults;
/// their types, checks and documentation are written once, here (the group's
/// own doc lines, its `Box2D:` tag, are added to each of its fields):
/// - `spring(enable = d, hertz = d, damping = d);` a spring switch, its
///   stiffness (Hz, ≥ 0) and damping ratio (≥ 0);
/// - `stiffness(hertz = d, damping = d);` the same without the switch;
/// - `motor(enable = d, speed = d, max = d) "speed unit", "force unit";`
///   a motor switch, its target speed (finite) and largest force or torque
///   (≥ 0);
/// - `limit(enable = d, lower = d, upper = d) "unit" $(, check)?;` a limit
///   switch and its bounds, each checked by `check` if given, and
///   `lower <= upper`.
macro_rules! joint_def {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($kind:literal) {
            $(#[$base_meta:meta])*
            pub base: JointDef;
            $($body:tt)*
        }
        $(also $more:ident;)?
    ) => {
        joint_def!(@munch [$(#[$meta])* pub struct $name [base [$(#[$base_meta])*]] [$($more)?]] $kind [[] [] [] []] $($body)*);
    };

    // A definition without a `base` (the base itself).
    ($(#[$meta:meta])* pub struct $name:ident($kind:literal) { $($body:tt)* }) => {
        joint_def!(@munch [$(#[$meta])* pub struct $name [] []] $kind [[] [] [] []] $($body)*);
    };

    // A plain field; `what` names it in the error of its check.
    (@munch $head:tt $kind:literal [[$($f:tt)*] [$($d:tt)*] [$($c:tt)*] $rows:tt]
        $(#[$fm:meta])*
        pub $field:ident: $ty:ty = $default:expr $(, $check:ident($what:expr))?;
        $($rest:tt)*
    ) => {
        joint_def!(@munch $head $kind
            [[$($f)* $(#[$fm])* pub $field: $ty,] [$($d)* $field: $default,] [$($c)* $({$check ($field) $what})?] $rows]
            $($rest)*
        );
    };

    // A check that relates fields.
    (@munch $head:tt $kind:literal [$f:tt $d:tt [$($c:tt)*] $rows:tt] check $check:ident($($arg:ident),*) $what:expr; $($rest:tt)*) => {
        joint_def!(@munch $head $kind [$f $d [$($c)* {$check ($($arg),*) $what}] $rows] $($rest)*);
    };

    // Fields that describe one row of the joint (see `DefFields`).
    (@munch $head:tt $kind:literal [$f:tt $d:tt $c:tt [$($r:tt)*]] row $row:ident [$($def_field:ident)*] [$($row_field:ident)*]; $($rest:tt)*) => {
        joint_def!(@munch $head $kind [$f $d $c [$($r)* {$row [$($def_field)*] [$($row_field)*]}]] $($rest)*);
    };

    // A spring: a switch, then its stiffness.
    (@munch $head:tt $kind:literal $acc:tt $(#[$gm:meta])* spring($enable:ident = $de:expr, $hertz:ident = $dh:expr, $damping:ident = $dd:expr); $($rest:tt)*) => {
        joint_def!(@munch $head $kind $acc
            #[doc = "Whether the spring acts."] #[doc = ""] $(#[$gm])* pub $enable: bool = $de;
            $(#[$gm])* stiffness($hertz = $dh, $damping = $dd);
            row Spring [$enable $hertz $damping] [enable hertz damping_ratio];
            $($rest)*
        );
    };

    // Spring stiffness and damping.
    (@munch $head:tt $kind:literal $acc:tt $(#[$gm:meta])* stiffness($hertz:ident = $dh:expr, $damping:ident = $dd:expr); $($rest:tt)*) => {
        joint_def!(@munch $head $kind $acc
            /// Spring stiffness, Hz (≥ 0; zero: no spring force). A body
            /// of any mass on the spring oscillates at this frequency.
            ///
            $(#[$gm])*
            pub $hertz: f32 = $dh, check_non_negative(concat!($kind, " ", stringify!($hertz)));
            #[doc = "Spring damping ratio (≥ 0, dimensionless; 1 is critical)."] #[doc = ""] $(#[$gm])*
            pub $damping: f32 = $dd, check_non_negative(concat!($kind, " ", stringify!($damping)));
            $($rest)*
        );
    };

    // A motor: a switch, its target speed and its largest force or torque.
    (@munch $head:tt $kind:literal $acc:tt $(#[$gm:meta])* motor($enable:ident = $de:expr, $speed:ident = $ds:expr, $max:ident = $dm:expr) $speed_unit:literal, $max_unit:literal; $($rest:tt)*) => {
        joint_def!(@munch $head $kind $acc
            #[doc = "Whether the motor acts."] #[doc = ""] $(#[$gm])* pub $enable: bool = $de;
            #[doc = concat!("Target speed of the motor, ", $speed_unit, ".")] #[doc = ""] $(#[$gm])*
            pub $speed: f32 = $ds, check_finite(concat!($kind, " ", stringify!($speed)));
            #[doc = concat!("Largest force or torque the motor applies, ", $max_unit, " (≥ 0). With a zero speed this is joint friction.")]
            #[doc = ""] $(#[$gm])* pub $max: f32 = $dm, check_non_negative(concat!($kind, " ", stringify!($max)));
            row Motor [$enable $speed $max] [enable speed max_force];
            $($rest)*
        );
    };

    // A limit: a switch and the bounds, each checked by `check` if given.
    (@munch $head:tt $kind:literal $acc:tt $(#[$gm:meta])* limit($enable:ident = $de:expr, $lower:ident = $dl:expr, $upper:ident = $du:expr) $unit:literal $(, $check:ident)?; $($rest:tt)*) => {
        joint_def!(@munch $head $kind $acc
            #[doc = "Whether the motion is limited."] #[doc = ""] $(#[$gm])* pub $enable: bool = $de;
            #[doc = concat!("Lower limit, ", $unit, ".")] #[doc = ""] $(#[$gm])*
            pub $lower: f32 = $dl $(, $check(concat!($kind, " ", stringify!($lower))))?;
            #[doc = concat!("Upper limit, ", $unit, " (≥ lower).")] #[doc = ""] $(#[$gm])*
            pub $upper: f32 = $du $(, $check(concat!($kind, " ", stringify!($upper))))?;
            check check_range($lower, $upper) concat!($kind, " limits");
            row Limit [$enable $lower $upper] [enable lower upper];
            $($rest)*
        );
    };

    // All fields read: the struct, its default, its checks and its rows.
    (@munch
        [$(#[$meta:meta])* pub struct $name:ident [$($base:ident [$(#[$base_meta:meta])*])?] [$($more:ident)?]]
        $kind:literal
        [[$($f:tt)*] [$($d:tt)*] [$({$check:ident ($($arg:ident),*) $what:expr})*] [$({$row:ident [$($def_field:ident)*] [$($row_field:ident)*]})*]]
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(default)
        )]
        pub struct $name {
            $($(#[$base_meta])* pub $base: JointDef,)?
            $($f)*
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $($base: JointDef::default(),)?
                    $($d)*
                }
            }
        }

        impl $name {
            /// Checks every number; the first bad field is named in the
            /// error.
            pub fn validate(&self) -> Result<()> {
                $(self.$base.validate()?;)?
                $($check($(self.$arg),*, $what)?;)*
                $(self.$more()?;)?
                Ok(())
            }
        }

        $(
            impl $crate::joint::DefFields<$crate::joint::axial::$row> for $name {
                fn get(&self) -> $crate::joint::axial::$row {
                    $crate::joint::axial::$row::new($(self.$def_field),*)
                }

                fn set(&mut self, row: &$crate::joint::axial::$row) {
                    $(self.$def_field = row.$row_field;)*
                }
            }
        )*
    };
}

/// Writes `build` (a checked definition to the joint frames and data) and
/// `read` (the definition an existing joint would be re-created with) for a
/// joint type whose data is its definition's fields: `axis` and `angle` name
/// the fields the frames are made from (else the x axis and zero), `copy` the
/// fields the data keeps as they are, and `rows` the spring, motor and limit
/// groups (see [`DefFields`]).
macro_rules! build_read {
    (
        $def:ident => $variant:ident($data:ident)
        $(, axis = $axis:ident)? $(, angle = $angle:ident)?
        , copy [$($field:ident),*] $(, rows [$($row:ident),*])?
    ) => {
        impl $def {
            /// Checks the definition and makes the joint frames and data.
            pub(crate) fn build(
                &self,
            ) -> $crate::error::Result<($crate::math::Transform, $crate::math::Transform, $crate::joint::JointKind)> {
                self.validate()?;
                let axis = $crate::joint::or_default!($crate::math::Vec2::X $(, self.$axis)?);
                let angle = $crate::joint::or_default!(0.0 $(, self.$angle)?);
                let (fa, fb) = self.base.frames(axis, angle);
                let joint = $data {
                    $($field: self.$field,)*
                    $($($row: $crate::joint::DefFields::get(self),)*)?
                    ..$data::default()
                };
                Ok((fa, fb, $crate::joint::JointKind::$variant(joint)))
            }

            /// The definition an existing joint would be re-created with.
            pub(crate) fn read(
                base: $crate::joint::JointDef,
                sim: &$crate::joint::JointBase,
                j: &$data,
            ) -> Self {
                let _ = sim;
                #[allow(unused_mut, clippy::needless_update)]
                let mut def = $def {
                    base,
                    $($axis: sim.local_frame_a.q.x_axis(),)?
                    $($angle: $crate::joint::reference_angle(sim),)?
                    $($field: j.$field,)*
                    ..Self::default()
                };
                $($($crate::joint::DefFields::set(&mut def, &j.$row);)*)?
                def
            }
        }
    };
}

/// The last of its arguments: a default, or the value that overrides it.
macro_rules! or_default {
    ($default:expr) => {
        $default
    };
    ($default:expr, $value:expr) => {
        $value
    };
}
pub(crate) use or_default;

pub(crate) mod axial;
pub(crate) mod distance;
mod filter;
mod link;
pub(crate) mod motor;
pub(crate) mod mouse;
pub(crate) mod mover;
mod pair;
pub(crate) mod pogo;
pub(crate) mod prismatic;
pub(crate) mod revolute;
pub(crate) mod solver;
pub(crate) mod tree;
mod validate;
pub(crate) mod weld;
pub(crate) mod wheel;
pub(crate) mod wide;

use crate::error::{Error, Result, check_finite, check_finite_vec};
pub use crate::id::JointType;
use crate::id::{BodyId, IdPool, JointId, NULL_INDEX};
use crate::math::{Rot, Transform, Vec2};
use crate::solver::softness::Softness;

pub use distance::DistanceJointDef;
pub use filter::FilterJointDef;
pub use motor::MotorJointDef;
pub use mouse::MouseJointDef;
pub use mover::MoverJointDef;
pub use pogo::PogoJointDef;
pub use prismatic::PrismaticJointDef;
pub use revolute::RevoluteJointDef;
pub use weld::WeldJointDef;
pub use wheel::WheelJointDef;

pub(crate) use link::{bodies_allow_collision, joint_allows_collision};
pub(crate) use validate::JointStores;

use axial::{Limit, Motor, Spring};
use distance::DistanceJoint;
use motor::MotorJoint;
use mouse::MouseJoint;
use mover::MoverJoint;
use pogo::PogoJoint;
use prismatic::PrismaticJoint;
use revolute::RevoluteJoint;
use weld::WeldJoint;
use wheel::WheelJoint;

joint_def! {
    /// Settings shared by every joint type: the two bodies, the anchors and
    /// the behaviour common to all joints. Each joint definition holds one in
    /// its `base` field. `validate` checks the numbers (the body ids are
    /// checked when the joint is created).
    pub struct JointDef("joint") {
        /// The first body.
        ///
        /// Box2D: `b2JointDef.bodyIdA`.
        pub body_a: BodyId = BodyId::default();
        /// The second body (must differ from `body_a`).
        ///
        /// Box2D: `b2JointDef.bodyIdB`.
        pub body_b: BodyId = BodyId::default();
        /// The anchor point on body A, in body A's frame (relative to its
        /// origin), metres.
        ///
        /// Box2D: `b2JointDef.localFrameA`.
        pub local_anchor_a: Vec2 = Vec2::ZERO, check_finite_vec("joint local anchor A");
        /// The anchor point on body B, in body B's frame, metres.
        ///
        /// Box2D: `b2JointDef.localFrameB`.
        pub local_anchor_b: Vec2 = Vec2::ZERO, check_finite_vec("joint local anchor B");
        /// Whether the two bodies still collide with each other. When `false`
        /// (the default) their existing contacts are destroyed and no new ones
        /// are made.
        ///
        /// Box2D: `b2JointDef.collideConnected`.
        pub collide_connected: bool = false;
        /// Stiffness of the joint's rigid parts, Hz (≥ 0); `None` uses the
        /// world's [`joint_hertz`](crate::WorldDef::joint_hertz). It is capped at
        /// a quarter of the substep rate.
        ///
        /// Box2D: `b2JointDef.constraintHertz`.
        pub constraint_hertz: Option<f32> = None, check_optional("joint constraint hertz");
        /// Damping ratio of the joint's rigid parts (≥ 0, dimensionless); `None`
        /// uses the world's [`joint_damping_ratio`](crate::WorldDef::joint_damping_ratio).
        ///
        /// Box2D: `b2JointDef.constraintDampingRatio`.
        pub constraint_damping_ratio: Option<f32> = None, check_optional("joint constraint damping ratio");
        /// Reaction force at or above which the joint reports a [`JointEvent`],
        /// N (≥ 0; 0 reports the joint on every step it is awake, `f32::MAX`
        /// never).
        ///
        /// Box2D: `b2JointDef.forceThreshold`.
        pub force_threshold: f32 = f32::MAX, check_threshold("joint force threshold");
        /// Reaction torque at or above which the joint reports a [`JointEvent`],
        /// N·m (≥ 0; 0 reports the joint on every step it is awake, `f32::MAX`
        /// never).
        ///
        /// Box2D: `b2JointDef.torqueThreshold`.
        pub torque_threshold: f32 = f32::MAX, check_threshold("joint torque threshold");
        /// Destroy the joint when a threshold is reached (the event then has
        /// [`JointEventKind::Broken`]).
        pub break_on_threshold: bool = false;
        /// Any number the application wants to attach.
        ///
        /// Box2D: `b2JointDef.userData`.
        pub user_data: u64 = 0;
    }
}

/// Checks an optional value: absent, or finite and `>= 0`.
fn check_optional(value: Option<f32>, what: &'static str) -> Result<()> {
    value.map_or(Ok(()), |value| check_non_negative(value, what))
}

/// Definition fields that describe one row of a joint (a spring, motor or
/// limit group of [`joint_def!`]), read and written as a whole.
pub(crate) trait DefFields<Row> {
    /// The row the fields describe (with no accumulated impulse).
    fn get(&self) -> Row;
    /// Sets the fields from a row.
    fn set(&mut self, row: &Row);
}

/// Checks that a value is finite and `>= 0`.
pub(crate) fn check_non_negative(value: f32, what: &'static str) -> Result<()> {
    crate::error::check_non_negative(value, what)
}

/// Thresholds may be infinite but not NaN or negative.
pub(crate) fn check_threshold(value: f32, what: &'static str) -> Result<()> {
    if value.is_nan() {
        return Err(Error::NonFinite { what });
    }
    if value < 0.0 {
        return Err(Error::OutOfRange {
            what,
            expected: ">= 0",
            value,
        });
    }
    Ok(())
}

/// Checks that `lower <= upper`, both finite.
pub(crate) fn check_range(lower: f32, upper: f32, what: &'static str) -> Result<()> {
    check_finite(lower, what)?;
    check_finite(upper, what)?;
    if lower > upper {
        return Err(Error::OutOfRange {
            what,
            expected: "lower <= upper",
            value: lower,
        });
    }
    Ok(())
}

/// Checks that an angle is finite and within `[−π, π]`.
pub(crate) fn check_angle(angle: f32, what: &'static str) -> Result<()> {
    check_finite(angle, what)?;
    if angle.abs() > crate::math::PI {
        return Err(Error::OutOfRange {
            what,
            expected: "within [-pi, pi]",
            value: angle,
        });
    }
    Ok(())
}

/// What happened to a joint, reported by [`World::joint_events`](crate::World::joint_events).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointEventKind {
    /// The reaction force or torque reached the joint's threshold (was at or
    /// above it) during the step; the joint still exists.
    ThresholdExceeded,
    /// The reaction reached a threshold and the joint was destroyed (it had
    /// [`JointDef::break_on_threshold`] set). Its id is now stale.
    Broken,
    /// The joint was destroyed because one of its bodies was destroyed. Its
    /// id is now stale.
    BodyDestroyed,
}

/// A joint event, read with [`World::joint_events`](crate::World::joint_events) after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointEvent {
    /// The joint (stale for [`JointEventKind::Broken`] and
    /// [`JointEventKind::BodyDestroyed`]).
    pub joint_id: JointId,
    /// The joint's type.
    pub joint_type: JointType,
    /// What happened.
    pub kind: JointEventKind,
    /// The joint's user data.
    pub user_data: u64,
    /// Magnitude of the reaction force in the last substep, N (zero for
    /// [`JointEventKind::BodyDestroyed`]).
    pub force: f32,
    /// Magnitude of the reaction torque in the last substep, N·m (zero for
    /// [`JointEventKind::BodyDestroyed`]).
    pub torque: f32,
}

/// One end of a joint in a body's doubly linked joint list. Keys are
/// `(joint_id << 1) | edge_index`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointEdge {
    pub body_id: u32,
    pub prev_key: u32,
    pub next_key: u32,
}

impl JointEdge {
    pub(crate) const NULL: JointEdge = JointEdge {
        body_id: NULL_INDEX,
        prev_key: NULL_INDEX,
        next_key: NULL_INDEX,
    };
}

/// The cold part of a joint, stored in the world's joint array at its id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Joint {
    /// The joint's index, or NULL while the slot is free.
    pub joint_id: u32,
    pub generation: u32,
    pub joint_type: JointType,
    pub edges: [JointEdge; 2],
    /// The solver set holding the [`JointSim`] (awake: in the graph).
    pub set_index: u32,
    /// Graph colour when awake, else NULL.
    pub color_index: u32,
    /// Index of the sim in its colour or set.
    pub local_index: u32,
    pub island_id: u32,
    pub island_prev: u32,
    pub island_next: u32,
    pub collide_connected: bool,
    pub break_on_threshold: bool,
    pub user_data: u64,
}

impl Default for Joint {
    fn default() -> Self {
        Joint {
            joint_id: NULL_INDEX,
            generation: 0,
            joint_type: JointType::Filter,
            edges: [JointEdge::NULL; 2],
            set_index: NULL_INDEX,
            color_index: NULL_INDEX,
            local_index: NULL_INDEX,
            island_id: NULL_INDEX,
            island_prev: NULL_INDEX,
            island_next: NULL_INDEX,
            collide_connected: false,
            break_on_threshold: false,
            user_data: 0,
        }
    }
}

/// Data every joint type has: settings from the definition plus what the
/// step prepares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointBase {
    pub joint_id: u32,
    pub body_id_a: u32,
    pub body_id_b: u32,
    /// The joint frames in the body frames (origin-relative). The position is
    /// the anchor; the rotation carries the axis (prismatic, wheel) and the
    /// reference angle (frame B is frame A turned by minus the reference angle).
    pub local_frame_a: Transform,
    pub local_frame_b: Transform,
    pub constraint_hertz: Option<f32>,
    pub constraint_damping_ratio: Option<f32>,
    pub force_threshold: f32,
    pub torque_threshold: f32,

    // Prepared once per step.
    /// Awake-set indices of the bodies, or NULL when not awake (static).
    pub index_a: u32,
    pub index_b: u32,
    pub inv_mass_a: f32,
    pub inv_i_a: f32,
    pub inv_mass_b: f32,
    pub inv_i_b: f32,
    /// The joint frames at the start of the step: world rotation, and anchor
    /// relative to the body's centre of mass in world orientation.
    pub frame_a: Transform,
    pub frame_b: Transform,
    /// Centre of B minus centre of A at the start of the step, metres.
    pub delta_center: Vec2,
    /// Softness of the rigid parts for this step.
    pub softness: Softness,
    /// Whether a joint tree solves the point row this step (`tree.rs`),
    /// not the joint's own solve. Set before every solve, never saved.
    pub in_tree: bool,
}

impl JointBase {
    /// A joint base with no bodies, identity frames, the default settings
    /// and nothing prepared: the start of a base built field by field
    /// (snapshot/check.rs reads a recorded joint's settings through one).
    pub(crate) const UNPREPARED: JointBase = JointBase {
        joint_id: NULL_INDEX,
        body_id_a: NULL_INDEX,
        body_id_b: NULL_INDEX,
        local_frame_a: Transform::IDENTITY,
        local_frame_b: Transform::IDENTITY,
        constraint_hertz: None,
        constraint_damping_ratio: None,
        force_threshold: f32::MAX,
        torque_threshold: f32::MAX,
        index_a: NULL_INDEX,
        index_b: NULL_INDEX,
        inv_mass_a: 0.0,
        inv_i_a: 0.0,
        inv_mass_b: 0.0,
        inv_i_b: 0.0,
        frame_a: Transform::IDENTITY,
        frame_b: Transform::IDENTITY,
        delta_center: Vec2::ZERO,
        softness: Softness::RIGID,
        in_tree: false,
    };
}

/// The per-type data of a joint.
#[derive(Clone, Copy, Debug)]
pub(crate) enum JointKind {
    Distance(DistanceJoint),
    Filter,
    Motor(MotorJoint),
    Mouse(MouseJoint),
    Mover(MoverJoint),
    Pogo(PogoJoint),
    Prismatic(PrismaticJoint),
    Revolute(RevoluteJoint),
    Weld(WeldJoint),
    Wheel(WheelJoint),
}

impl JointKind {
    /// Forgets the accumulated impulses, so that the next solve does not warm
    /// start from them (a quarantined body's joints may hold non-finite ones).
    pub(crate) fn clear_impulses(&mut self) {
        if let Some((spring, motor, limit)) = self.axial_parts_mut() {
            spring.impulse = 0.0;
            motor.impulse = 0.0;
            limit.reset();
        }
        match self {
            JointKind::Distance(_) | JointKind::Filter => {}
            JointKind::Motor(j) => j.clear_impulses(),
            JointKind::Mouse(j) => (j.linear_impulse, j.angular_impulse) = (Vec2::ZERO, 0.0),
            JointKind::Mover(j) => j.axes.iter_mut().for_each(|axis| axis.impulse = 0.0),
            JointKind::Pogo(j) => j.spring.impulse = 0.0,
            JointKind::Prismatic(j) => j.impulse = Vec2::ZERO,
            JointKind::Revolute(j) => j.linear_impulse = Vec2::ZERO,
            JointKind::Weld(j) => (j.linear_impulse, j.angular_impulse) = (Vec2::ZERO, 0.0),
            JointKind::Wheel(j) => j.perp_impulse = 0.0,
        }
    }

    /// The joint type this data belongs to.
    pub(crate) fn joint_type(&self) -> JointType {
        match self {
            JointKind::Distance(_) => JointType::Distance,
            JointKind::Filter => JointType::Filter,
            JointKind::Motor(_) => JointType::Motor,
            JointKind::Mouse(_) => JointType::Mouse,
            JointKind::Mover(_) => JointType::Mover,
            JointKind::Pogo(_) => JointType::Pogo,
            JointKind::Prismatic(_) => JointType::Prismatic,
            JointKind::Revolute(_) => JointType::Revolute,
            JointKind::Weld(_) => JointType::Weld,
            JointKind::Wheel(_) => JointType::Wheel,
        }
    }

    /// The spring, motor and limit along or about the axis, for the types
    /// that have them (revolute, prismatic, wheel, distance).
    fn axial_parts(&self) -> Option<(&Spring, &Motor, &Limit)> {
        match self {
            JointKind::Distance(j) => Some((&j.spring, &j.motor, &j.limit)),
            JointKind::Prismatic(j) => Some((&j.spring, &j.motor, &j.limit)),
            JointKind::Revolute(j) => Some((&j.spring, &j.motor, &j.limit)),
            JointKind::Wheel(j) => Some((&j.spring, &j.motor, &j.limit)),
            _ => None,
        }
    }

    fn axial_parts_mut(&mut self) -> Option<(&mut Spring, &mut Motor, &mut Limit)> {
        match self {
            JointKind::Distance(j) => Some((&mut j.spring, &mut j.motor, &mut j.limit)),
            JointKind::Prismatic(j) => Some((&mut j.spring, &mut j.motor, &mut j.limit)),
            JointKind::Revolute(j) => Some((&mut j.spring, &mut j.motor, &mut j.limit)),
            JointKind::Wheel(j) => Some((&mut j.spring, &mut j.motor, &mut j.limit)),
            _ => None,
        }
    }

    /// The motor along or about the axis, for the types that have one.
    pub(crate) fn motor(&self) -> Option<&Motor> {
        self.axial_parts().map(|(_, motor, _)| motor)
    }

    pub(crate) fn motor_mut(&mut self) -> Option<&mut Motor> {
        self.axial_parts_mut().map(|(_, motor, _)| motor)
    }

    /// The limits along or about the axis, for the types that have them.
    pub(crate) fn limit(&self) -> Option<&Limit> {
        self.axial_parts().map(|(_, _, limit)| limit)
    }

    pub(crate) fn limit_mut(&mut self) -> Option<&mut Limit> {
        self.axial_parts_mut().map(|(_, _, limit)| limit)
    }

    /// The spring along or about the axis, for the types that have one.
    pub(crate) fn spring(&self) -> Option<&Spring> {
        self.axial_parts().map(|(spring, _, _)| spring)
    }

    pub(crate) fn spring_mut(&mut self) -> Option<&mut Spring> {
        self.axial_parts_mut().map(|(spring, _, _)| spring)
    }
}

/// Per-type joint data found in a [`JointKind`].
pub(crate) trait JointData: Sized {
    /// What the wrong-type error says was expected.
    const NAME: &'static str;
    fn of(kind: &JointKind) -> Option<&Self>;
    fn of_mut(kind: &mut JointKind) -> Option<&mut Self>;
}

macro_rules! joint_data {
    ($ty:ty, $variant:ident, $name:literal) => {
        impl JointData for $ty {
            const NAME: &'static str = $name;
            fn of(kind: &JointKind) -> Option<&Self> {
                match kind {
                    JointKind::$variant(j) => Some(j),
                    _ => None,
                }
            }
            fn of_mut(kind: &mut JointKind) -> Option<&mut Self> {
                match kind {
                    JointKind::$variant(j) => Some(j),
                    _ => None,
                }
            }
        }
    };
    // A part several joint types share, found by `JointKind`'s accessors.
    ($ty:ty, $name:literal, $get:ident, $get_mut:ident) => {
        impl JointData for $ty {
            const NAME: &'static str = $name;
            fn of(kind: &JointKind) -> Option<&Self> {
                kind.$get()
            }
            fn of_mut(kind: &mut JointKind) -> Option<&mut Self> {
                kind.$get_mut()
            }
        }
    };
}

joint_data!(Motor, "a joint with a motor", motor, motor_mut);
joint_data!(Limit, "a joint with limits", limit, limit_mut);
joint_data!(Spring, "a joint with a spring", spring, spring_mut);
joint_data!(DistanceJoint, Distance, "a distance joint");
joint_data!(MotorJoint, Motor, "a motor joint");
joint_data!(MouseJoint, Mouse, "a mouse joint");
joint_data!(MoverJoint, Mover, "a mover joint");
joint_data!(PogoJoint, Pogo, "a pogo joint");
joint_data!(PrismaticJoint, Prismatic, "a prismatic joint");
joint_data!(RevoluteJoint, Revolute, "a revolute joint");
joint_data!(WeldJoint, Weld, "a weld joint");
joint_data!(WheelJoint, Wheel, "a wheel joint");

/// The part of a joint the solver works on, stored in a graph colour or a
/// solver set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointSim {
    pub base: JointBase,
    pub kind: JointKind,
}

/// All joint data owned by the world.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointStorage {
    pub joints: Vec<Joint>,
    pub ids: IdPool,
    /// Events visible through [`World::joint_events`](crate::World::joint_events).
    pub events: Vec<JointEvent>,
    /// Events caused by user calls since the last step; they become visible
    /// with the next step's events so that none is lost.
    pub pending_events: Vec<JointEvent>,
    /// Inverse substep of the last step, 1/s (turns impulses into forces).
    pub inv_h: f32,
    /// Joints taken out of the solver while a body changes state.
    pub detached: Vec<(u32, JointSim)>,
    /// Joints over their thresholds this step: `(joint, force, torque)`.
    pub over_threshold: Vec<(u32, f32, f32)>,
    /// Whether any joint may have a force or torque threshold below
    /// `f32::MAX`: set when a joint is made or set so, never cleared (so a
    /// rollback, which leaves it, cannot hide a threshold it brings back),
    /// and worked out after a snapshot is decoded. While it is false the
    /// step does not look at the joints' reactions at all.
    pub thresholds_seen: bool,
}

impl JointDef {
    /// The two joint frames: the anchors, an axis in body A's frame
    /// (normalised here) and a reference angle (radians).
    pub(crate) fn frames(
        &self,
        local_axis_a: Vec2,
        reference_angle: f32,
    ) -> (Transform, Transform) {
        make_frames(
            self.local_anchor_a,
            self.local_anchor_b,
            local_axis_a,
            reference_angle,
        )
    }
}

/// Builds the two joint frames from anchors, an axis in body A's frame
/// (normalised here) and a reference angle (radians).
pub(crate) fn make_frames(
    local_anchor_a: Vec2,
    local_anchor_b: Vec2,
    local_axis_a: Vec2,
    reference_angle: f32,
) -> (Transform, Transform) {
    let axis = local_axis_a.normalize();
    let qa = Rot {
        c: axis.x,
        s: axis.y,
    };
    let qb = qa.mul(Rot::from_angle(-reference_angle));
    (
        Transform::new(local_anchor_a, qa),
        Transform::new(local_anchor_b, qb),
    )
}

/// The reference angle stored in two frames (inverse of [`make_frames`]).
pub(crate) fn reference_angle(base: &JointBase) -> f32 {
    base.local_frame_b.q.relative_angle(base.local_frame_a.q)
}

/// Checks an axis: finite and not zero.
pub(crate) fn check_axis(axis: Vec2, what: &'static str) -> Result<()> {
    check_finite_vec(axis, what)?;
    if axis.length() < crate::core::EPSILON_LENGTH {
        return Err(Error::OutOfRange {
            what,
            expected: "a non-zero vector",
            value: axis.length(),
        });
    }
    Ok(())
}

/// The error for a typed call on a joint of another type.
pub(crate) fn wrong_type(expected: &'static str, actual: JointType) -> Error {
    Error::WrongJointType { expected, actual }
}
