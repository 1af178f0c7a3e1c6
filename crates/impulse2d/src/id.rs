//! Typed handles to objects owned by a [`World`](crate::World).
//!
//! An id is an index into one of the world's arrays plus a generation that is
//! bumped every time the slot is reused, plus the number of the world that made
//! it. A stale id (the object was destroyed) or a foreign id (made by another
//! world) is detected and reported as [`Error::InvalidId`](crate::Error::InvalidId):
//! never a panic, never a silent zero.

use std::sync::atomic::{AtomicU16, Ordering};

/// The index used for "no object" inside the engine's linked lists.
pub(crate) const NULL_INDEX: u32 = u32::MAX;

macro_rules! define_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        ///
        /// The default id is null: no world accepts it.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $name {
            pub(crate) index: u32,
            pub(crate) world: u16,
            pub(crate) generation: u32,
        }

        impl $name {
            slot_getters!(
                "The slot index inside the world (stable while the object lives; \
                 reused after it is destroyed). Useful as a key in user tables.",
                "The slot's generation: how many objects have used this slot."
            );
        }
    };
}

/// The public `index()` and `generation()` getters of a handle to a slot of a
/// pool (fields `index` and `generation`), with their docs.
macro_rules! slot_getters {
    ($index_doc:literal, $generation_doc:literal) => {
        #[doc = $index_doc]
        #[inline]
        pub fn index(self) -> u32 {
            self.index
        }

        #[doc = $generation_doc]
        #[inline]
        pub fn generation(self) -> u32 {
            self.generation
        }
    };
}
pub(crate) use slot_getters;

define_id!(
    /// A handle to a rigid body. See [`World::create_body`](crate::World::create_body).
    BodyId
);
define_id!(
    /// A handle to a shape attached to a body. See
    /// [`World::create_polygon_shape`](crate::World::create_polygon_shape) and friends.
    ShapeId
);
define_id!(
    /// A handle to a chain of one-sided segments. See
    /// [`World::create_chain`](crate::World::create_chain).
    ChainId
);
define_id!(
    /// A handle to a contact between two shapes. Contacts are created and
    /// destroyed by the world; the id names one for the lifetime of the contact.
    ContactId
);
define_id!(
    /// A handle to a joint between two bodies. See
    /// [`World::create_revolute_joint`](crate::World::create_revolute_joint) and friends.
    JointId
);

/// The world's id checks and id makers, one pair per store: `$index_fn(id)`
/// is the slot's index for an id of this world whose slot is live (its
/// `$live` field holds its own index) at the id's generation, and
/// `Err(InvalidId)` otherwise; `$make_fn(index)` is the id of live slot
/// `index`.
macro_rules! slot_ids {
    ($($id:ident in $($store:ident).+, $live:ident, $what:literal: $index_fn:ident, $make_fn:ident;)*) => {
        impl crate::world::World {
            $(
                #[doc = concat!("Checks a ", $what, " id and returns the ", $what, "'s index.")]
                pub(crate) fn $index_fn(&self, id: $id) -> crate::error::Result<usize> {
                    let invalid = crate::error::Error::InvalidId { what: $what };
                    if id.world != self.world_number {
                        return Err(invalid);
                    }
                    match self.$($store).+.get(id.index as usize) {
                        Some(s) if s.$live == id.index && s.generation == id.generation => {
                            Ok(id.index as usize)
                        }
                        _ => Err(invalid),
                    }
                }

                #[doc = concat!("The id of live ", $what, " slot `index`.")]
                pub(crate) fn $make_fn(&self, index: u32) -> $id {
                    $id {
                        index,
                        world: self.world_number,
                        generation: self.$($store).+[index as usize].generation,
                    }
                }
            )*
        }
    };
}

slot_ids! {
    BodyId in bodies, id, "body": body_index, make_body_id;
    ShapeId in shapes, id, "shape": shape_index, make_shape_id;
    ChainId in chains, id, "chain": chain_index, make_chain_id;
    JointId in joints.joints, joint_id, "joint": joint_index, make_joint_id;
}

/// Hands out a fresh number for each world so that ids from one world are
/// rejected by another. Wraps after 65,535 worlds, which only weakens the
/// foreign-id check, never safety.
pub(crate) fn next_world_number() -> u16 {
    static NEXT: AtomicU16 = AtomicU16::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A pool of reusable indices. Freed indices are reused last-in first-out, so
/// the sequence of indices depends only on the sequence of calls
/// (deterministic).
#[derive(Clone, Debug, Default)]
pub(crate) struct IdPool {
    pub(crate) free: Vec<u32>,
    pub(crate) next: u32,
}

impl IdPool {
    /// Takes an index: a freed one if any, otherwise the next new one.
    pub(crate) fn alloc(&mut self) -> u32 {
        if let Some(id) = self.free.pop() {
            id
        } else {
            let id = self.next;
            self.next += 1;
            id
        }
    }

    /// Returns an index to the pool.
    pub(crate) fn free(&mut self, id: u32) {
        debug_assert!(id < self.next);
        self.free.push(id);
    }

    /// One past the largest index ever handed out.
    pub(crate) fn capacity(&self) -> u32 {
        self.next
    }

    /// The number of indices in use.
    pub(crate) fn count(&self) -> u32 {
        self.next - self.free.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_reuses_last_freed_first() {
        let mut pool = IdPool::default();
        assert_eq!(pool.alloc(), 0);
        assert_eq!(pool.alloc(), 1);
        assert_eq!(pool.alloc(), 2);
        pool.free(0);
        pool.free(2);
        assert_eq!(pool.count(), 1);
        assert_eq!(pool.alloc(), 2);
        assert_eq!(pool.alloc(), 0);
        assert_eq!(pool.alloc(), 3);
        assert_eq!(pool.capacity(), 4);
    }
}

/// The kind of a joint (kept beside the ids so that the error type can name
/// it without depending on the joint module).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointType {
    /// Keeps two anchor points at a distance, or within a range, optionally
    /// with a spring and a motor. See [`DistanceJointDef`](crate::joint::DistanceJointDef).
    Distance,
    /// Only stops two bodies from colliding. See [`FilterJointDef`](crate::joint::FilterJointDef).
    Filter,
    /// Drives one body towards an offset from another with bounded force and
    /// torque. See [`MotorJointDef`](crate::joint::MotorJointDef).
    Motor,
    /// Drags one body's point towards a world target with a spring. See
    /// [`MouseJointDef`](crate::joint::MouseJointDef).
    Mouse,
    /// Drives one body's velocity relative to another, each axis with a
    /// bounded force, without turning it. See
    /// [`MoverJointDef`](crate::joint::MoverJointDef).
    Mover,
    /// A spring leg along a normal with bounded push and pull. See
    /// [`PogoJointDef`](crate::joint::PogoJointDef).
    Pogo,
    /// Lets the bodies slide along an axis without turning. See
    /// [`PrismaticJointDef`](crate::joint::PrismaticJointDef).
    Prismatic,
    /// Pins the bodies together at a point, free to turn. See
    /// [`RevoluteJointDef`](crate::joint::RevoluteJointDef).
    Revolute,
    /// Glues the bodies together, rigidly or with springs. See [`WeldJointDef`](crate::joint::WeldJointDef).
    Weld,
    /// A suspended, driven wheel: a line constraint with a spring, free
    /// rotation and a motor. See [`WheelJointDef`](crate::joint::WheelJointDef).
    Wheel,
}
