//! The broad-phase filter that keeps jointed bodies from colliding: a pair
//! of shapes may collide unless a joint between their bodies forbids it.
//! (Where a joint lives and what it links is `world/joints.rs`.)

use crate::body::Body;
use crate::id::NULL_INDEX;
use crate::shape::Shape;

use super::JointStorage;

/// The broad-phase pair filter: whether a joint between the shapes' bodies
/// forbids their collision.
pub(crate) fn joint_allows_collision(
    joints: &JointStorage,
    shapes: &[Shape],
    bodies: &[Body],
    shape_a: u32,
    shape_b: u32,
) -> bool {
    let a = shapes[shape_a as usize].body_id;
    let b = shapes[shape_b as usize].body_id;
    bodies_may_collide(joints, bodies, a, b)
}

/// [`bodies_allow_collision`] for bodies given by id.
fn bodies_may_collide(joints: &JointStorage, bodies: &[Body], a: u32, b: u32) -> bool {
    bodies_allow_collision(joints, (a, &bodies[a as usize]), (b, &bodies[b as usize]))
}

/// Whether no joint between bodies `a` and `b` (given as (id, body))
/// forbids their collision: walks the shorter joint list of the two looking
/// for a joint between them that disables collision.
pub(crate) fn bodies_allow_collision(
    joints: &JointStorage,
    (a, body_a): (u32, &Body),
    (b, body_b): (u32, &Body),
) -> bool {
    let (start, other) = if body_a.joint_count <= body_b.joint_count {
        (body_a, b)
    } else {
        (body_b, a)
    };
    let mut key = start.head_joint_key;
    while key != NULL_INDEX {
        let joint = &joints.joints[(key >> 1) as usize];
        let edge = (key & 1) as usize;
        if !joint.collide_connected && joint.edges[edge ^ 1].body_id == other {
            return false;
        }
        key = joint.edges[edge].next_key;
    }
    true
}
