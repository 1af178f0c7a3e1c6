//! [`ChainView`]: reading and changing one chain.
//!
//! Covers Box2D's `b2Chain_*` functions (`b2CreateChain` is
//! [`World::create_chain`], `b2DestroyChain` [`World::destroy_chain`]).

use std::ops::Deref;

use crate::chain::ChainDef;
use crate::error::{Error, Result};
use crate::id::{BodyId, ChainId, ShapeId};
use crate::shape::SurfaceMaterial;
use crate::world::World;

view! {
    /// One chain of a world, validated once: the world borrow (`&World` or
    /// `&mut World`) and the chain's index. Made by [`World::chain`] and
    /// [`World::chain_mut`]; [`ChainRef`] reads, [`ChainMut`] also writes. Each
    /// segment is also a shape ([`World::shape`]).
    ///
    /// Box2D: the `b2Chain_*` functions; `b2Chain_IsValid` is
    /// [`World::chain`]`(id).is_ok()`, `b2Chain_GetWorld` is moot.
    pub struct ChainView<W>(ChainId = chain_index, make_chain_id, "chain"): ChainRef, ChainMut;
    ///
    /// Box2D: `b2Chain_IsValid`.
    World::chain;
    /// Taking one advances [`World::structure_generation`] (a
    /// [`RollbackState`](crate::RollbackState) does not hold chains).
    World::chain_mut then note_structure_change;
    /// The world the view reads.
    ///
    /// Box2D: `b2Chain_GetWorld`.
    ChainRef::world;
}

impl World {
    /// Attaches a chain of one-sided segments to a body (usually static).
    ///
    /// # Errors
    /// A stale body id, too few points, points closer than the linear slop,
    /// bad material numbers or a material count that is neither 0, 1 nor the
    /// segment count.
    ///
    /// Box2D: `b2CreateChain`.
    pub fn create_chain(&mut self, body: BodyId, def: &ChainDef) -> Result<ChainId> {
        let bi = self.body_index(body)?;
        self.add_chain(bi, def)
    }

    /// Destroys a chain and its segments.
    ///
    /// Box2D: `b2DestroyChain`.
    pub fn destroy_chain(&mut self, id: ChainId) -> Result<()> {
        let ci = self.chain_index(id)?;
        self.remove_chain(ci);
        Ok(())
    }
}

impl<W: Deref<Target = World>> ChainView<W> {
    /// The body the chain is attached to.
    pub fn body(&self) -> BodyId {
        self.world
            .make_body_id(self.world.chains[self.index].body_id)
    }

    /// Whether the chain is a closed loop.
    pub fn is_loop(&self) -> bool {
        self.world.chains[self.index].is_loop
    }

    /// The number of segments.
    ///
    /// Box2D: `b2Chain_GetSegmentCount`.
    pub fn segment_count(&self) -> usize {
        self.world.chains[self.index].shape_indices.len()
    }

    /// The segment shapes, in order.
    ///
    /// Box2D: `b2Chain_GetSegments`.
    pub fn segments(&self) -> Vec<ShapeId> {
        let world = &*self.world;
        world.chains[self.index]
            .shape_indices
            .iter()
            .map(|&si| world.make_shape_id(si))
            .collect()
    }

    /// The number of materials: 1 when the segments share one, else the
    /// segment count.
    ///
    /// Box2D: `b2Chain_GetSurfaceMaterialCount`.
    pub fn surface_material_count(&self) -> usize {
        self.world.chains[self.index].material_count as usize
    }

    /// Material `index` (below [`ChainView::surface_material_count`]).
    ///
    /// # Errors
    /// An index out of range.
    ///
    /// Box2D: `b2Chain_GetSurfaceMaterial`.
    pub fn surface_material(&self, index: usize) -> Result<SurfaceMaterial> {
        let si = self.material_segment(index)?;
        Ok(self.world.shapes[si].material())
    }

    fn material_segment(&self, index: usize) -> Result<usize> {
        if index >= self.surface_material_count() {
            return Err(Error::OutOfRange {
                what: "chain material index",
                expected: "below the chain's material count",
                value: index as f32,
            });
        }
        Ok(self.world.chains[self.index].shape_indices[index] as usize)
    }

    /// The friction of the first material.
    pub fn friction(&self) -> f32 {
        self.first_material().friction
    }

    /// The restitution of the first material.
    pub fn restitution(&self) -> f32 {
        self.first_material().restitution
    }

    fn first_material(&self) -> SurfaceMaterial {
        let si = self.world.chains[self.index].shape_indices[0] as usize;
        self.world.shapes[si].material()
    }
}

impl ChainView<&mut World> {
    /// Sets material `index`: with one material, every segment's; otherwise
    /// segment `index`'s. Contacts pick it up at the next step.
    ///
    /// # Errors
    /// An index out of range or a bad number (nothing changes).
    ///
    /// Box2D: `b2Chain_SetSurfaceMaterial`.
    pub fn set_surface_material(&mut self, material: &SurfaceMaterial, index: usize) -> Result<()> {
        self.material_segment(index)?;
        material.validate()?;
        let targets: Vec<u32> = if self.surface_material_count() == 1 {
            self.world.chains[self.index].shape_indices.clone()
        } else {
            vec![self.world.chains[self.index].shape_indices[index]]
        };
        for si in targets {
            self.world.shapes[si as usize].set_material(material);
            self.world.refresh_shape_contacts(si as usize);
        }
        Ok(())
    }

    fn change_all(&mut self, change: impl Fn(&mut SurfaceMaterial)) -> Result<()> {
        let shape_indices = self.world.chains[self.index].shape_indices.clone();
        for &si in &shape_indices {
            let mut m = self.world.shapes[si as usize].material();
            change(&mut m);
            m.validate()?;
        }
        for si in shape_indices {
            let mut m = self.world.shapes[si as usize].material();
            change(&mut m);
            self.world.shapes[si as usize].set_material(&m);
            self.world.refresh_shape_contacts(si as usize);
        }
        Ok(())
    }

    /// Sets the friction of every segment (≥ 0).
    pub fn set_friction(&mut self, friction: f32) -> Result<()> {
        self.change_all(|m| m.friction = friction)
    }

    /// Sets the restitution of every segment (≥ 0).
    pub fn set_restitution(&mut self, restitution: f32) -> Result<()> {
        self.change_all(|m| m.restitution = restitution)
    }
}
