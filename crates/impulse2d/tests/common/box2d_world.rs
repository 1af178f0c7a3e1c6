//! Box2D v3.2 worlds (through `boxdd-sys`) for the tests that compare a whole
//! simulation with ours.

#![allow(dead_code)]

use boxdd_sys::ffi as c;

/// A Box2D world (default definition) with the ground the scenes'
/// `flat_ground(half_width)` builds: a static 2 m thick slab of half-width
/// `half_width` m whose top is at y = 0. Returns the world and the ground body.
///
/// # Safety
/// Plain FFI calls; the caller destroys the world.
pub unsafe fn world_with_ground(half_width: f32) -> (c::b2WorldId, c::b2BodyId) {
    // SAFETY: the caller's.
    unsafe {
        let world = c::b2CreateWorld(&c::b2DefaultWorldDef());
        let ground = c::b2CreateBody(world, &c::b2DefaultBodyDef());
        let slab = c::b2MakeOffsetBox(
            half_width,
            1.0,
            c::b2Vec2 { x: 0.0, y: -1.0 },
            c::b2Rot { c: 1.0, s: 0.0 },
        );
        c::b2CreatePolygonShape(ground, &c::b2DefaultShapeDef(), &slab);
        (world, ground)
    }
}
