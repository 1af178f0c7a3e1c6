//! The ragdoll of Box2D's samples and `rain` benchmark: eleven capsule bones (two with a
//! polygon foot) linked by ten limited, sprung, slightly frictional hinges.

use crate::desc::{
    BodyDesc, Filter, Geometry, JointDesc, Kind, Motor, SceneDesc, ShapeDesc, Spring, V2,
};
use std::f32::consts::PI;

/// Joint settings shared by every hinge of one ragdoll.
#[derive(Clone, Copy, Debug)]
pub struct HumanJoints {
    /// Friction torque of a bone with friction scale 1 (N·m); applied as a motor of speed 0.
    pub friction_torque: f32,
    /// Spring stiffness toward the rest pose (Hz); 0 disables the springs.
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
}

/// One bone: its body, capsule and (for all but the hip) the hinge to its parent.
struct Bone {
    parent: Option<usize>,
    /// Body origin above the ragdoll's feet (m, at scale 1).
    height: f32,
    linear_damping: f32,
    friction_scale: f32,
    /// Capsule centres on the body's y axis and radius (m).
    capsule: (f32, f32, f32),
    foot: bool,
    /// Pivot height above the feet, reference angle and limits (rad) of the hinge to the parent.
    hinge: Option<(f32, f32, [f32; 2])>,
}

const fn bone(
    parent: Option<usize>,
    height: f32,
    linear_damping: f32,
    friction_scale: f32,
    capsule: (f32, f32, f32),
    foot: bool,
    hinge: Option<(f32, f32, [f32; 2])>,
) -> Bone {
    Bone {
        parent,
        height,
        linear_damping,
        friction_scale,
        capsule,
        foot,
        hinge,
    }
}

const HIP: usize = 0;
const TORSO: usize = 1;
const UPPER_LEFT_LEG: usize = 3;
const UPPER_RIGHT_LEG: usize = 5;
const UPPER_LEFT_ARM: usize = 7;
const UPPER_RIGHT_ARM: usize = 9;

/// The skeleton in creation order (the order of Box2D's `CreateHuman`).
const BONES: [Bone; 11] = [
    // hip
    bone(None, 0.95, 0.0, 1.0, (-0.02, 0.02, 0.095), false, None),
    // torso
    bone(
        Some(HIP),
        1.2,
        0.0,
        0.5,
        (-0.135, 0.135, 0.09),
        false,
        Some((1.0, 0.0, [-0.25 * PI, 0.0])),
    ),
    // head
    bone(
        Some(TORSO),
        1.475,
        0.1,
        0.25,
        (-0.038, 0.039, 0.075),
        false,
        Some((1.4, 0.0, [-0.3 * PI, 0.1 * PI])),
    ),
    // upper left leg
    bone(
        Some(HIP),
        0.775,
        0.0,
        1.0,
        (-0.125, 0.125, 0.06),
        false,
        Some((0.9, 0.0, [-0.05 * PI, 0.4 * PI])),
    ),
    // lower left leg
    bone(
        Some(UPPER_LEFT_LEG),
        0.475,
        0.0,
        0.5,
        (-0.155, 0.125, 0.045),
        true,
        Some((0.625, 0.0, [-0.5 * PI, -0.02 * PI])),
    ),
    // upper right leg
    bone(
        Some(HIP),
        0.775,
        0.0,
        1.0,
        (-0.125, 0.125, 0.06),
        false,
        Some((0.9, 0.0, [-0.05 * PI, 0.4 * PI])),
    ),
    // lower right leg
    bone(
        Some(UPPER_RIGHT_LEG),
        0.475,
        0.0,
        0.5,
        (-0.155, 0.125, 0.045),
        true,
        Some((0.625, 0.0, [-0.5 * PI, -0.02 * PI])),
    ),
    // upper left arm
    bone(
        Some(TORSO),
        1.225,
        0.0,
        0.5,
        (-0.125, 0.125, 0.035),
        false,
        Some((1.35, 0.0, [-0.1 * PI, 0.8 * PI])),
    ),
    // lower left arm
    bone(
        Some(UPPER_LEFT_ARM),
        0.975,
        0.1,
        0.1,
        (-0.125, 0.125, 0.03),
        false,
        Some((1.1, 0.25 * PI, [-0.2 * PI, 0.3 * PI])),
    ),
    // upper right arm
    bone(
        Some(TORSO),
        1.225,
        0.0,
        0.5,
        (-0.125, 0.125, 0.035),
        false,
        Some((1.35, 0.0, [-0.1 * PI, 0.8 * PI])),
    ),
    // lower right arm
    bone(
        Some(UPPER_RIGHT_ARM),
        0.975,
        0.1,
        0.1,
        (-0.125, 0.125, 0.03),
        false,
        Some((1.1, 0.25 * PI, [-0.2 * PI, 0.3 * PI])),
    ),
];

/// Bodies per ragdoll.
pub const HUMAN_BODY_COUNT: usize = BONES.len();

/// Appends one ragdoll standing with its feet at `position` (scale 1) to `scene`'s body and
/// joint lists (not to the initial set). `group` is the positive group number; its
/// negation keeps the ragdoll's own bones from colliding, as in Box2D's sample.
pub fn push_human(scene: &mut SceneDesc, position: V2, group: i32, joints: HumanJoints) {
    let base = scene.bodies.len();
    let filter = Filter {
        category: 2,
        mask: 1 | 2,
        group: -group,
    };
    // Feet touch the ground but not other ragdolls.
    let foot_filter = Filter {
        category: 2,
        mask: 1,
        group: -group,
    };
    let foot = Geometry::Polygon {
        vertices: vec![
            [-0.03, -0.185],
            [0.11, -0.185],
            [0.11, -0.16],
            [-0.03, -0.14],
        ],
        radius: 0.015,
    };

    for b in &BONES {
        let origin = [position[0], position[1] + b.height];
        let (y1, y2, radius) = b.capsule;
        let mut body = BodyDesc::new(Kind::Dynamic, origin).shape(
            ShapeDesc::new(Geometry::Capsule {
                center1: [0.0, y1],
                center2: [0.0, y2],
                radius,
            })
            .friction(0.2)
            .filter(filter),
        );
        body.sleep_threshold = 0.1;
        body.linear_damping = b.linear_damping;
        if b.foot {
            body = body.shape(
                ShapeDesc::new(foot.clone())
                    .friction(0.05)
                    .filter(foot_filter),
            );
        }
        scene.bodies.push(body);
    }

    for (i, b) in BONES.iter().enumerate() {
        let (Some(parent), Some((pivot_height, reference_angle, limits))) = (b.parent, b.hinge)
        else {
            continue;
        };
        let pivot_a = pivot_height - BONES[parent].height;
        let pivot_b = pivot_height - b.height;
        let mut joint =
            JointDesc::revolute(base + parent, base + i, [0.0, pivot_a], [0.0, pivot_b]);
        joint.reference_angle = reference_angle;
        joint.limits = Some(limits);
        joint.motor = Some(Motor {
            speed: 0.0,
            max_torque: b.friction_scale * joints.friction_torque,
        });
        if joints.hertz > 0.0 {
            joint.spring = Some(Spring {
                hertz: joints.hertz,
                damping_ratio: joints.damping_ratio,
            });
        }
        scene.joints.push(joint);
    }
}
