//! Chains: sequences of one-sided segments for smooth static terrain.
//!
//! Each link of a chain is a [`ChainSegment`] shape that knows its neighbours
//! (the "ghost" vertices), so that a body sliding along the chain does not
//! catch on the internal corners. Segments collide on their right side only
//! (the side of `right_perp(p2 − p1)`): a loop wound counter-clockwise keeps
//! bodies outside it, a loop wound clockwise keeps them inside.

use crate::collision::{ChainSegment, Segment};
use crate::core::LINEAR_SLOP;
use crate::error::{Error, Result, check_finite_vec};
use crate::id::{ChainId, NULL_INDEX};
use crate::math::Vec2;
use crate::shape::{Filter, ShapeDef, ShapeGeometry, SurfaceMaterial};
use crate::world::World;

def_struct! {
    /// Everything needed to create a chain.
    #[derive(Clone, Debug, PartialEq)]
    pub struct ChainDef {
        /// The vertices, metres, in the body frame. A loop needs at least 3; an
        /// open chain at least 4, because its first and last points are only
        /// ghosts (they shape the ends but are not collided with).
        ///
        /// Box2D: `b2ChainDef.points`, `b2ChainDef.count`.
        pub points: Vec<Vec2> = Vec::new(),
        /// Whether the last point connects back to the first.
        ///
        /// Box2D: `b2ChainDef.isLoop`.
        pub is_loop: bool = false,
        /// Friction coefficient of every segment (≥ 0).
        ///
        /// Box2D: `b2ChainDef.materials`, `b2SurfaceMaterial.friction`.
        pub friction: f32 = SurfaceMaterial::default().friction,
        /// Coefficient of restitution of every segment (≥ 0).
        ///
        /// Box2D: `b2ChainDef.materials`, `b2SurfaceMaterial.restitution`.
        pub restitution: f32 = SurfaceMaterial::default().restitution,
        /// Rolling resistance of every segment (≥ 0).
        ///
        /// Box2D: `b2ChainDef.materials`, `b2SurfaceMaterial.rollingResistance`.
        pub rolling_resistance: f32 = SurfaceMaterial::default().rolling_resistance,
        /// Surface speed, m/s.
        ///
        /// Box2D: `b2ChainDef.materials`, `b2SurfaceMaterial.tangentSpeed`.
        pub tangent_speed: f32 = SurfaceMaterial::default().tangent_speed,
        /// Surface materials: empty to give every segment the four numbers
        /// above, one for every segment, or one per segment in order (a loop has
        /// as many segments as points, an open chain three fewer). Any other
        /// count is an error.
        ///
        /// Box2D: `b2ChainDef.materials`, `b2ChainDef.materialCount`.
        pub materials: Vec<SurfaceMaterial> = Vec::new(),
        /// Collision filter of every segment.
        ///
        /// Box2D: `b2ChainDef.filter`.
        pub filter: Filter = Filter::default(),
        /// Let sensors detect the chain.
        ///
        /// Box2D: `b2ChainDef.enableSensorEvents`.
        pub enable_sensor_events: bool = false,
        /// Any number the application wants to attach (copied to every segment).
        ///
        /// Box2D: `b2ChainDef.userData`.
        pub user_data: u64 = 0,
    }
    /// Box2D: `b2DefaultChainDef`.
    impl Default for ChainDef;
}

/// A chain inside the world.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chain {
    /// The chain's index, or NULL while the slot is free.
    pub id: u32,
    pub generation: u32,
    pub body_id: u32,
    pub next_chain_id: u32,
    pub shape_indices: Vec<u32>,
    pub is_loop: bool,
    /// 1 when every segment shares one material, else the segment count.
    pub material_count: u32,
}

impl Chain {
    /// Clears the chain's data when its slot is freed (keeps the generation).
    pub(crate) fn free(&mut self) {
        self.id = NULL_INDEX;
        self.shape_indices = Vec::new();
        self.body_id = NULL_INDEX;
        self.next_chain_id = NULL_INDEX;
    }
}

/// Builds the chain segments of a definition, or says what is wrong with it.
fn make_segments(def: &ChainDef) -> Result<Vec<ChainSegment>> {
    let n = def.points.len();
    for &p in &def.points {
        check_finite_vec(p, "chain point")?;
    }
    let min_points = if def.is_loop { 3 } else { 4 };
    if n < min_points {
        return Err(Error::InvalidGeometry(if def.is_loop {
            "a chain loop needs at least 3 points"
        } else {
            "an open chain needs at least 4 points (the ends are ghosts)"
        }));
    }
    let at = |i: usize| def.points[i % n];
    let (first, count) = if def.is_loop { (0, n) } else { (1, n - 3) };
    let mut segments = Vec::with_capacity(count);
    for k in 0..count {
        let i = first + k;
        let (g1, p1, p2, g2) = if def.is_loop {
            (at(i + n - 1), at(i), at(i + 1), at(i + 2))
        } else {
            (at(i - 1), at(i), at(i + 1), at(i + 2))
        };
        if p1.distance_squared(p2) <= LINEAR_SLOP * LINEAR_SLOP {
            return Err(Error::InvalidGeometry(
                "chain points closer than the linear slop",
            ));
        }
        segments.push(ChainSegment::new(g1, Segment::new(p1, p2)?, g2)?);
    }
    Ok(segments)
}

impl World {
    /// Attaches a chain to body `bi` after checking its definition (see
    /// [`World::create_chain`]).
    pub(crate) fn add_chain(&mut self, bi: usize, def: &ChainDef) -> Result<ChainId> {
        self.note_structure_change();
        let shape_def = ShapeDef {
            density: 0.0,
            friction: def.friction,
            restitution: def.restitution,
            rolling_resistance: def.rolling_resistance,
            tangent_speed: def.tangent_speed,
            filter: def.filter,
            enable_sensor_events: def.enable_sensor_events,
            user_data: def.user_data,
            update_body_mass: false,
            ..ShapeDef::default()
        };
        shape_def.validate()?;
        let segments = make_segments(def)?;
        for m in &def.materials {
            m.validate()?;
        }
        if def.materials.len() > 1 && def.materials.len() != segments.len() {
            return Err(Error::InvalidOperation(
                "a chain needs no material, one, or one per segment",
            ));
        }

        let chain_id = self.chain_ids.alloc();
        if chain_id as usize == self.chains.len() {
            self.chains.push(Chain {
                id: NULL_INDEX,
                ..Chain::default()
            });
        }
        let mut shape_indices = Vec::with_capacity(segments.len());
        for (k, mut seg) in segments.into_iter().enumerate() {
            seg.chain_id = chain_id;
            let mut shape_def = shape_def;
            if let Some(m) = def.materials.get(k).or(def.materials.first()) {
                shape_def.friction = m.friction;
                shape_def.restitution = m.restitution;
                shape_def.rolling_resistance = m.rolling_resistance;
                shape_def.tangent_speed = m.tangent_speed;
                shape_def.user_material_id = m.user_material_id;
                shape_def.custom_color = m.custom_color;
            }
            match self.create_shape_internal(
                bi,
                &shape_def,
                ShapeGeometry::ChainSegment(seg),
                chain_id,
            ) {
                Ok(si) => shape_indices.push(si),
                Err(e) => {
                    for &si in &shape_indices {
                        self.destroy_shape_internal(si as usize, false);
                    }
                    self.chain_ids.free(chain_id);
                    return Err(e);
                }
            }
        }
        let next = self.bodies[bi].head_chain_id;
        let chain = &mut self.chains[chain_id as usize];
        chain.id = chain_id;
        chain.generation = chain.generation.wrapping_add(1);
        chain.body_id = bi as u32;
        chain.next_chain_id = next;
        chain.shape_indices = shape_indices;
        chain.is_loop = def.is_loop;
        chain.material_count = if def.materials.len() > 1 {
            chain.shape_indices.len() as u32
        } else {
            1
        };
        self.bodies[bi].head_chain_id = chain_id;
        Ok(ChainId {
            index: chain_id,
            world: self.world_number,
            generation: chain.generation,
        })
    }

    /// Destroys chain `ci` and its segments.
    pub(crate) fn remove_chain(&mut self, ci: usize) {
        self.note_structure_change();
        let bi = self.chains[ci].body_id as usize;
        let shape_indices = std::mem::take(&mut self.chains[ci].shape_indices);
        for si in shape_indices {
            self.destroy_shape_internal(si as usize, true);
        }
        // Unlink from the body's chain list.
        let next = self.chains[ci].next_chain_id;
        if self.bodies[bi].head_chain_id == ci as u32 {
            self.bodies[bi].head_chain_id = next;
        } else {
            let mut c = self.bodies[bi].head_chain_id;
            while c != NULL_INDEX {
                if self.chains[c as usize].next_chain_id == ci as u32 {
                    self.chains[c as usize].next_chain_id = next;
                    break;
                }
                c = self.chains[c as usize].next_chain_id;
            }
        }
        self.chains[ci].free();
        self.chain_ids.free(ci as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_chain_drops_end_ghosts_and_loop_wraps() {
        let segments = |points: &[Vec2], is_loop: bool| {
            make_segments(&ChainDef {
                points: points.to_vec(),
                is_loop,
                ..ChainDef::default()
            })
        };
        let pts: Vec<Vec2> = (0..5).map(|i| Vec2::new(i as f32, 0.0)).collect();
        let open = segments(&pts, false).unwrap();
        assert_eq!(open.len(), 2);
        assert_eq!(open[0].ghost1, pts[0]);
        assert_eq!(open[0].segment.point1, pts[1]);
        assert_eq!(open[1].ghost2, pts[4]);

        let square = crate::test_points::points([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
        let closed = segments(&square, true).unwrap();
        assert_eq!(closed.len(), 4);
        assert_eq!(closed[0].ghost1, square[3]);
        assert_eq!(closed[3].segment.point2, square[0]);
        assert_eq!(closed[3].ghost2, square[1]);

        assert!(segments(&square[..3], false).is_err());
    }
}
