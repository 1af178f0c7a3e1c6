//! The ragdoll of Box2D's samples and `rain` benchmark: eleven capsule bones (two with a
//! polygon foot) linked by ten limited, sprung, slightly frictional hinges. The skeleton,
//! filters and materials come from `impulse2d_scenes::human`, which builds the same ragdoll
//! through Impulse2D's API for the scene registry.

use crate::desc::{
    BodyDesc, Filter, Geometry, JointDesc, Kind, Motor, SceneDesc, ShapeDesc, Spring, V2,
};
pub use impulse2d_scenes::human::{HUMAN_BODY_COUNT, HumanJoints};
use impulse2d_scenes::human::{
    HUMAN_BONE_FRICTION, HUMAN_BONES, HUMAN_CATEGORY, HUMAN_FOOT_FRICTION, HUMAN_FOOT_MASK,
    HUMAN_FOOT_RADIUS, HUMAN_FOOT_VERTICES, HUMAN_HINGES, HUMAN_MASK, HUMAN_SLEEP_THRESHOLD,
};

/// Appends one ragdoll standing with its feet at `position` (scale 1) to `scene`'s body and
/// joint lists (not to the initial set). `group` is the positive group number; its
/// negation keeps the ragdoll's own bones from colliding, as in Box2D's sample.
pub fn push_human(scene: &mut SceneDesc, position: V2, group: i32, joints: HumanJoints) {
    let base = scene.bodies.len();
    let filter = Filter {
        category: HUMAN_CATEGORY,
        mask: HUMAN_MASK,
        group: -group,
    };
    // Feet touch the ground but not other ragdolls.
    let foot_filter = Filter {
        mask: HUMAN_FOOT_MASK,
        ..filter
    };
    let foot = Geometry::Polygon {
        vertices: HUMAN_FOOT_VERTICES.to_vec(),
        radius: HUMAN_FOOT_RADIUS,
    };

    for b in &HUMAN_BONES {
        let origin = [position[0], position[1] + b.height];
        let (y1, y2, radius) = b.capsule;
        let mut body = BodyDesc::new(Kind::Dynamic, origin).shape(
            ShapeDesc::new(Geometry::Capsule {
                center1: [0.0, y1],
                center2: [0.0, y2],
                radius,
            })
            .friction(HUMAN_BONE_FRICTION)
            .filter(filter),
        );
        body.sleep_threshold = HUMAN_SLEEP_THRESHOLD;
        body.linear_damping = b.linear_damping;
        if b.foot {
            body = body.shape(
                ShapeDesc::new(foot.clone())
                    .friction(HUMAN_FOOT_FRICTION)
                    .filter(foot_filter),
            );
        }
        scene.bodies.push(body);
    }

    for (i, h) in HUMAN_HINGES.iter().enumerate() {
        let bone = i + 1;
        let pivot_a = h.pivot - HUMAN_BONES[h.parent].height;
        let pivot_b = h.pivot - HUMAN_BONES[bone].height;
        let mut joint =
            JointDesc::revolute(base + h.parent, base + bone, [0.0, pivot_a], [0.0, pivot_b]);
        joint.reference_angle = h.reference_angle;
        joint.limits = Some(h.limits);
        joint.motor = Some(Motor {
            speed: 0.0,
            max_torque: h.friction_scale * joints.friction_torque,
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
