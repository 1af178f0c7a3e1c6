//! Box2D's ragdoll ("human", `shared/human.c`), used by the rain benchmark:
//! eleven capsule bones (the lower legs with a polygon foot) linked by ten
//! limited, sprung, slightly frictional revolute joints.
//!
//! The bone table is public so that the side-by-side benchmarks
//! (`impulse2d-compare`) build the very same ragdoll in every engine.

use impulse2d::collision::{Capsule, compute_hull, make_polygon};
use impulse2d::{
    BodyDef, BodyId, BodyType, Filter, JointDef, JointId, Pos, Result, RevoluteJointDef, ShapeDef,
    Vec2, World,
};
use std::f32::consts::PI;

/// Joint settings shared by every hinge of one ragdoll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanJoints {
    /// Friction torque of a bone with friction scale 1, N·m; applied as a
    /// motor of speed 0.
    pub friction_torque: f32,
    /// Spring stiffness towards the rest pose, Hz; 0 disables the springs.
    pub hertz: f32,
    /// Spring damping ratio (dimensionless).
    pub damping_ratio: f32,
}

/// Collision category of ragdoll shapes.
pub const HUMAN_CATEGORY: u32 = 2;
/// Categories a bone collides with: the ground (1) and other ragdolls (2).
pub const HUMAN_MASK: u32 = 1 | 2;
/// Categories a foot collides with: the ground only.
pub const HUMAN_FOOT_MASK: u32 = 1;
/// Friction of the bones' capsules.
pub const HUMAN_BONE_FRICTION: f32 = 0.2;
/// Friction of the feet.
pub const HUMAN_FOOT_FRICTION: f32 = 0.05;
/// Sleep threshold of every bone, m/s.
pub const HUMAN_SLEEP_THRESHOLD: f32 = 0.1;
/// The foot polygon in the lower leg's frame, metres (before rounding).
pub const HUMAN_FOOT_VERTICES: [[f32; 2]; 4] = [
    [-0.03, -0.185],
    [0.11, -0.185],
    [0.11, -0.16],
    [-0.03, -0.14],
];
/// Rounding radius of the foot polygon, metres.
pub const HUMAN_FOOT_RADIUS: f32 = 0.015;

/// One bone: its body and capsule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanBone {
    /// Body origin above the ragdoll's feet, metres.
    pub height: f32,
    /// Linear damping of the bone's body, 1/s.
    pub linear_damping: f32,
    /// Capsule centres on the body's y axis (lower, upper) and radius, metres.
    pub capsule: (f32, f32, f32),
    /// Whether the bone carries a foot polygon.
    pub foot: bool,
}

/// The hinge from a bone's parent (body A) to the bone (body B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanHinge {
    /// Index of the parent bone in [`HUMAN_BONES`].
    pub parent: usize,
    /// Pivot height above the feet, metres.
    pub pivot: f32,
    /// Reference angle, radians.
    pub reference_angle: f32,
    /// Lower and upper joint angle, radians.
    pub limits: [f32; 2],
    /// The bone's share of the joint friction torque (dimensionless).
    pub friction_scale: f32,
}

const fn bone(height: f32, linear_damping: f32, capsule: (f32, f32, f32), foot: bool) -> HumanBone {
    HumanBone {
        height,
        linear_damping,
        capsule,
        foot,
    }
}

const fn hinge(
    parent: usize,
    pivot: f32,
    reference_angle: f32,
    limits: [f32; 2],
    friction_scale: f32,
) -> HumanHinge {
    HumanHinge {
        parent,
        pivot,
        reference_angle,
        limits,
        friction_scale,
    }
}

const HIP: usize = 0;
const TORSO: usize = 1;
const UPPER_LEFT_LEG: usize = 3;
const UPPER_RIGHT_LEG: usize = 5;
const UPPER_LEFT_ARM: usize = 7;
const UPPER_RIGHT_ARM: usize = 9;

/// The bones in creation order (the order of Box2D's `CreateHuman`): hip (0),
/// torso (1), head (2), then the left and right legs (upper 3 and 5, lower 4
/// and 6) and arms (upper 7 and 9, lower 8 and 10); left and right alike.
pub const HUMAN_BONES: [HumanBone; 11] = [
    bone(0.95, 0.0, (-0.02, 0.02, 0.095), false),
    bone(1.2, 0.0, (-0.135, 0.135, 0.09), false),
    bone(1.475, 0.1, (-0.038, 0.039, 0.075), false),
    bone(0.775, 0.0, (-0.125, 0.125, 0.06), false),
    bone(0.475, 0.0, (-0.155, 0.125, 0.045), true),
    bone(0.775, 0.0, (-0.125, 0.125, 0.06), false),
    bone(0.475, 0.0, (-0.155, 0.125, 0.045), true),
    bone(1.225, 0.0, (-0.125, 0.125, 0.035), false),
    bone(0.975, 0.1, (-0.125, 0.125, 0.03), false),
    bone(1.225, 0.0, (-0.125, 0.125, 0.035), false),
    bone(0.975, 0.1, (-0.125, 0.125, 0.03), false),
];

/// The hinges in creation order: hinge `i` joins bone `i + 1` of
/// [`HUMAN_BONES`] to its parent (every bone but the hip has one).
pub const HUMAN_HINGES: [HumanHinge; HUMAN_BODY_COUNT - 1] = [
    hinge(HIP, 1.0, 0.0, [-0.25 * PI, 0.0], 0.5),
    hinge(TORSO, 1.4, 0.0, [-0.3 * PI, 0.1 * PI], 0.25),
    hinge(HIP, 0.9, 0.0, [-0.05 * PI, 0.4 * PI], 1.0),
    hinge(UPPER_LEFT_LEG, 0.625, 0.0, [-0.5 * PI, -0.02 * PI], 0.5),
    hinge(HIP, 0.9, 0.0, [-0.05 * PI, 0.4 * PI], 1.0),
    hinge(UPPER_RIGHT_LEG, 0.625, 0.0, [-0.5 * PI, -0.02 * PI], 0.5),
    hinge(TORSO, 1.35, 0.0, [-0.1 * PI, 0.8 * PI], 0.5),
    hinge(UPPER_LEFT_ARM, 1.1, 0.25 * PI, [-0.2 * PI, 0.3 * PI], 0.1),
    hinge(TORSO, 1.35, 0.0, [-0.1 * PI, 0.8 * PI], 0.5),
    hinge(UPPER_RIGHT_ARM, 1.1, 0.25 * PI, [-0.2 * PI, 0.3 * PI], 0.1),
];

/// Bodies per ragdoll.
pub const HUMAN_BODY_COUNT: usize = HUMAN_BONES.len();

/// One ragdoll's bodies (in [`HUMAN_BONES`] order) and joints.
#[derive(Clone, Debug, PartialEq)]
pub struct Human {
    /// The bones' bodies.
    pub bones: Vec<BodyId>,
    /// The hinges, each from a bone's parent to the bone.
    pub joints: Vec<JointId>,
}

impl Human {
    /// Destroys the ragdoll's bodies (and with them its joints).
    pub fn destroy(&self, world: &mut World) -> Result<()> {
        for &bone in &self.bones {
            world.destroy_body(bone)?;
        }
        Ok(())
    }
}

fn filter(mask: u32, group: i32) -> Filter {
    Filter {
        category_bits: u64::from(HUMAN_CATEGORY),
        mask_bits: u64::from(mask),
        group_index: -group,
    }
}

/// A ragdoll standing with its feet at `feet` (1.5 m tall). `group` (> 0)
/// is negated into the collision group that keeps its own bones apart.
pub fn human(world: &mut World, feet: Pos, group: i32, joints: HumanJoints) -> Result<Human> {
    let bone_def = ShapeDef {
        friction: HUMAN_BONE_FRICTION,
        filter: filter(HUMAN_MASK, group),
        ..ShapeDef::default()
    };
    let foot_def = ShapeDef {
        friction: HUMAN_FOOT_FRICTION,
        filter: filter(HUMAN_FOOT_MASK, group),
        ..ShapeDef::default()
    };
    let foot_points = HUMAN_FOOT_VERTICES.map(|[x, y]| Vec2::new(x, y));
    let foot = make_polygon(&compute_hull(&foot_points)?, HUMAN_FOOT_RADIUS)?;
    let mut human = Human {
        bones: Vec::with_capacity(HUMAN_BODY_COUNT),
        joints: Vec::with_capacity(HUMAN_BODY_COUNT - 1),
    };
    for b in &HUMAN_BONES {
        let body = world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: feet + Vec2::new(0.0, b.height),
            linear_damping: b.linear_damping,
            sleep_threshold: HUMAN_SLEEP_THRESHOLD,
            ..BodyDef::default()
        })?;
        let (y1, y2, radius) = b.capsule;
        let capsule = Capsule {
            center1: Vec2::new(0.0, y1),
            center2: Vec2::new(0.0, y2),
            radius,
        };
        world.create_capsule_shape(body, &bone_def, &capsule)?;
        if b.foot {
            world.create_polygon_shape(body, &foot_def, &foot)?;
        }
        human.bones.push(body);
    }
    for (i, h) in HUMAN_HINGES.iter().enumerate() {
        let (a, b) = (&HUMAN_BONES[h.parent], &HUMAN_BONES[i + 1]);
        human
            .joints
            .push(world.create_revolute_joint(&RevoluteJointDef {
                base: JointDef {
                    body_a: human.bones[h.parent],
                    body_b: human.bones[i + 1],
                    local_anchor_a: Vec2::new(0.0, h.pivot - a.height),
                    local_anchor_b: Vec2::new(0.0, h.pivot - b.height),
                    ..JointDef::default()
                },
                reference_angle: h.reference_angle,
                enable_limit: true,
                lower_angle: h.limits[0],
                upper_angle: h.limits[1],
                enable_motor: true,
                motor_speed: 0.0,
                max_motor_torque: h.friction_scale * joints.friction_torque,
                enable_spring: joints.hertz > 0.0,
                hertz: joints.hertz,
                damping_ratio: joints.damping_ratio,
                ..RevoluteJointDef::default()
            })?);
    }
    Ok(human)
}
