//! Small builders shared by the scene files added for the command-line tool
//! and testbed (benchmarks, Solver2D's set, demos).

use impulse2d::collision::{Polygon, Segment, compute_hull, make_polygon};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, JointDef, Result, RevoluteJointDef, Rot, ShapeDef, Vec2, World};

/// A static body at the origin with no shapes yet.
pub(crate) fn static_body(world: &mut World) -> Result<BodyId> {
    world.create_body(&BodyDef::default())
}

/// A static body holding one segment from `a` to `b`.
pub(crate) fn segment_ground(
    world: &mut World,
    a: Vec2,
    b: Vec2,
    def: &ShapeDef,
) -> Result<BodyId> {
    let ground = static_body(world)?;
    world.create_segment_shape(
        ground,
        def,
        &Segment {
            point1: a,
            point2: b,
        },
    )?;
    Ok(ground)
}

/// A dynamic body at `position` with rotation `angle` (radians).
pub(crate) fn dynamic_body(world: &mut World, position: Vec2, angle: f32) -> Result<BodyId> {
    world.create_body(&BodyDef {
        rotation: Rot::from_angle(angle),
        ..BodyDef::dynamic(to_pos(position))
    })
}

/// The convex hull of `points` as a sharp polygon.
pub(crate) fn hull_polygon(points: &[Vec2]) -> Result<Polygon> {
    make_polygon(&compute_hull(points)?, 0.0)
}

/// A static body holding one segment along y = 0 from `x = -half_width` to
/// `x = half_width` (metres).
pub(crate) fn level_ground(world: &mut World, half_width: f32, def: &ShapeDef) -> Result<BodyId> {
    segment_ground(
        world,
        Vec2::new(-half_width, 0.0),
        Vec2::new(half_width, 0.0),
        def,
    )
}

/// Unrotated dynamic bodies at `positions`, in order, each holding one
/// `polygon` made with `def`.
pub(crate) fn polygon_bodies(
    world: &mut World,
    positions: impl IntoIterator<Item = Vec2>,
    def: &ShapeDef,
    polygon: &Polygon,
) -> Result<Vec<BodyId>> {
    let mut bodies = Vec::new();
    for p in positions {
        let b = dynamic_body(world, p, 0.0)?;
        world.create_polygon_shape(b, def, polygon)?;
        bodies.push(b);
    }
    Ok(bodies)
}

/// A plain revolute joint (no motor, limit or spring) between `a` and `b` at
/// the given local anchors (metres).
pub(crate) fn hinge(a: BodyId, b: BodyId, anchor_a: Vec2, anchor_b: Vec2) -> RevoluteJointDef {
    RevoluteJointDef {
        base: JointDef {
            body_a: a,
            body_b: b,
            local_anchor_a: anchor_a,
            local_anchor_b: anchor_b,
            ..JointDef::default()
        },
        ..RevoluteJointDef::default()
    }
}

/// `def` with its motor on, driving at `speed` (rad/s) with at most
/// `max_torque` (N·m).
pub(crate) fn motorised(def: RevoluteJointDef, speed: f32, max_torque: f32) -> RevoluteJointDef {
    RevoluteJointDef {
        enable_motor: true,
        motor_speed: speed,
        max_motor_torque: max_torque,
        ..def
    }
}
