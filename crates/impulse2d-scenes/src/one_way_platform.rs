//! A one-way platform: a body jumps up through a platform and lands on it.
//!
//! The platform's shape asks for pre-solve events; the world's pre-solve
//! callback ([`one_way_contact_enabled`]) switches its contacts off unless the
//! other shape is on top of it, pushing down. Follows the one-way platform
//! sample of Box2D v3.

use impulse2d::collision::{Manifold, make_box, make_offset_box};
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, Result, Rot, ShapeDef, ShapeId, Vec2, World};

use crate::flat_ground;

/// Height of the platform's top surface above the ground, metres.
pub const PLATFORM_TOP: f32 = 3.1;

/// Half-thickness of the platform, metres.
const PLATFORM_HALF_THICKNESS: f32 = 0.1;

/// A body overlapping the platform by more than this is passing through it
/// (its contact stays off even if the normal already points up), metres.
const PASS_THROUGH_DEPTH: f32 = 0.05;

/// The one-way platform scene.
#[derive(Clone, Debug, PartialEq)]
pub struct OneWayPlatform {
    /// Ground (top at y = 0).
    pub ground: BodyId,
    /// The static platform body, 6 m wide, top at [`PLATFORM_TOP`].
    pub platform: BodyId,
    /// The platform's shape (the one the pre-solve callback looks for).
    pub platform_shape: ShapeId,
    /// A 1 m box below the platform, centre at (0, 0.5), launched upwards.
    pub body: BodyId,
}

/// Whether a contact involving the one-way `platform` shape should act this
/// step: only when the manifold normal, taken from the platform to the other
/// shape, points up (the other shape is above), and the shapes overlap by
/// less than 5 cm (`PASS_THROUGH_DEPTH`). Contacts without the platform are left
/// alone.
pub fn one_way_contact_enabled(
    platform: ShapeId,
    shape_a: ShapeId,
    shape_b: ShapeId,
    manifold: &Manifold,
) -> bool {
    // The normal points from A to B.
    let up_from_platform = if shape_a == platform {
        manifold.normal
    } else if shape_b == platform {
        -manifold.normal
    } else {
        return true;
    };
    if up_from_platform.y < 0.7 {
        return false;
    }
    let deepest = manifold
        .points()
        .iter()
        .map(|p| p.separation)
        .fold(f32::MAX, f32::min);
    deepest > -PASS_THROUGH_DEPTH
}

/// Builds the scene: ground, a 6 m platform with its top at
/// [`PLATFORM_TOP`], and a 1 m box on the ground below it moving up at
/// `jump_speed` m/s (9 m/s lifts it about 4 m: through the platform and
/// back down onto it). Installs the world's pre-solve callback.
pub fn one_way_platform(world: &mut World, jump_speed: f32) -> Result<OneWayPlatform> {
    let ground = flat_ground(world, 20.0)?;
    let platform = world.create_body(&BodyDef::default())?;
    let slab = make_offset_box(
        3.0,
        PLATFORM_HALF_THICKNESS,
        Vec2::new(0.0, PLATFORM_TOP - PLATFORM_HALF_THICKNESS),
        Rot::IDENTITY,
    )?;
    let platform_def = ShapeDef {
        enable_pre_solve_events: true,
        ..ShapeDef::default()
    };
    let platform_shape = world.create_polygon_shape(platform, &platform_def, &slab)?;
    let body = world.create_body(&BodyDef {
        linear_velocity: Vec2::new(0.0, jump_speed),
        ..BodyDef::dynamic(to_pos(Vec2::new(0.0, 0.5)))
    })?;
    world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
    world.set_pre_solve(move |a, b, manifold| {
        one_way_contact_enabled(platform_shape, a, b, manifold)
    });
    Ok(OneWayPlatform {
        ground,
        platform,
        platform_shape,
        body,
    })
}
