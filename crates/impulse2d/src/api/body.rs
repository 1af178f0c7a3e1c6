//! [`BodyView`]: reading and changing one body.

use std::ops::Deref;

use crate::body::BodyType;
use crate::error::Result;
use crate::id::BodyId;
use crate::math::{Rot, Transform, Vec2};
use crate::world::World;

/// One body of a world, validated once: the world borrow (`&World` or
/// `&mut World`) and the body's index. Made by [`World::body`] and
/// [`World::body_mut`].
///
/// Box2D: the `b2Body_*` functions.
#[derive(Debug)]
pub struct BodyView<W> {
    world: W,
    index: usize,
}

/// A read-only view of a body.
pub type BodyRef<'w> = BodyView<&'w World>;
/// A read-write view of a body.
pub type BodyMut<'w> = BodyView<&'w mut World>;

impl World {
    /// A read-only view of a body; `Err(InvalidId)` for a stale or foreign id.
    pub fn body(&self, id: BodyId) -> Result<BodyRef<'_>> {
        let index = self.body_index(id)?;
        Ok(BodyView { world: self, index })
    }

    /// A read-write view of a body; `Err(InvalidId)` for a stale or foreign id.
    pub fn body_mut(&mut self, id: BodyId) -> Result<BodyMut<'_>> {
        let index = self.body_index(id)?;
        Ok(BodyView { world: self, index })
    }
}

impl<W: Deref<Target = World>> BodyView<W> {
    /// The body's id.
    pub fn id(&self) -> BodyId {
        self.world.make_body_id(self.index as u32)
    }

    /// The body's type.
    ///
    /// Box2D: `b2Body_GetType`.
    pub fn body_type(&self) -> BodyType {
        self.world.bodies[self.index].body_type
    }

    /// The transform of the body origin.
    ///
    /// Box2D: `b2Body_GetTransform`.
    pub fn transform(&self) -> Transform {
        self.world.body_sim(self.index).transform
    }

    /// The world position of the body origin, metres.
    ///
    /// Box2D: `b2Body_GetPosition`.
    pub fn position(&self) -> Vec2 {
        self.transform().p
    }

    /// The body's rotation.
    ///
    /// Box2D: `b2Body_GetRotation`.
    pub fn rotation(&self) -> Rot {
        self.transform().q
    }
}
