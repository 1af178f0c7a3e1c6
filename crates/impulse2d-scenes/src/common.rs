//! Small builders shared by the scene files added for the command-line tool
//! and testbed (benchmarks, Solver2D's set, demos).

use impulse2d::collision::{Polygon, Segment, compute_hull, make_polygon};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, BodyType, Result, Rot, ShapeDef, Vec2, World};

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
        body_type: BodyType::Dynamic,
        position: to_pos(position),
        rotation: Rot::from_angle(angle),
        ..BodyDef::default()
    })
}

/// The convex hull of `points` as a sharp polygon.
pub(crate) fn hull_polygon(points: &[Vec2]) -> Result<Polygon> {
    make_polygon(&compute_hull(points)?, 0.0)
}
