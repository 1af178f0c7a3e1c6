//! Collision filtering beyond categories and masks: a custom filter callback
//! that can veto a new contact, a pre-solve callback that can switch a
//! contact off for one step, and re-filtering of existing contacts when a
//! shape's [`Filter`](crate::Filter) changes.
//!
//! Both callbacks are `Fn + Send + Sync`: the step may call them from several
//! threads at once, and they cannot reach the world (it is borrowed by the
//! step), so they decide from the ids and data they are given and whatever
//! they captured.
//!
//! # References
//! - E. Catto, Box2D v3 `b2World_SetCustomFilterCallback`,
//!   `b2World_SetPreSolveCallback` and the "one-way platform" sample.

use crate::collision::Manifold;
use crate::contact::{ContactSim, sim_flags};
use crate::id::{NULL_INDEX, ShapeId};
use crate::shape::Shape;
use crate::world::World;

/// A custom filter: `false` keeps two shapes from colliding.
pub type CustomFilterFn = dyn Fn(ShapeId, ShapeId) -> bool + Send + Sync;

/// A pre-solve callback: `false` switches the contact off for this step
/// (its manifold is emptied, so it stops touching). It is called from the
/// narrow phase, which runs on the world's worker threads when
/// [`WorldDef::worker_count`](crate::WorldDef::worker_count) > 1: calls for
/// different contacts may then run at the same time, in any order.
pub type PreSolveFn = dyn Fn(ShapeId, ShapeId, &Manifold) -> bool + Send + Sync;

/// The world's callbacks.
#[derive(Default)]
pub(crate) struct Callbacks {
    custom_filter: Option<Box<CustomFilterFn>>,
    pre_solve: Option<Box<PreSolveFn>>,
}

impl std::fmt::Debug for Callbacks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Callbacks")
            .field("custom_filter", &self.custom_filter.is_some())
            .field("pre_solve", &self.pre_solve.is_some())
            .finish()
    }
}

impl Callbacks {
    /// The custom filter with what it needs to make shape ids.
    pub(crate) fn custom_filter(&self, world: u16) -> CustomFilter<'_> {
        CustomFilter {
            f: self.custom_filter.as_deref(),
            world,
        }
    }

    /// The pre-solve callback with what it needs to make shape ids.
    pub(crate) fn pre_solve(&self, world: u16) -> PreSolve<'_> {
        PreSolve {
            f: self.pre_solve.as_deref(),
            world,
        }
    }
}

fn shape_id(world: u16, index: u32, shape: &Shape) -> ShapeId {
    ShapeId {
        index,
        world,
        generation: shape.generation,
    }
}

/// The custom filter as the step sees it.
#[derive(Clone, Copy)]
pub(crate) struct CustomFilter<'a> {
    f: Option<&'a CustomFilterFn>,
    world: u16,
}

impl CustomFilter<'_> {
    /// Whether the callback (if any) lets shapes `a` and `b` collide.
    pub(crate) fn allows(&self, shapes: &[Shape], a: u32, b: u32) -> bool {
        match self.f {
            None => true,
            Some(f) => f(
                shape_id(self.world, a, &shapes[a as usize]),
                shape_id(self.world, b, &shapes[b as usize]),
            ),
        }
    }
}

/// The pre-solve callback as the narrow phase sees it.
#[derive(Clone, Copy)]
pub(crate) struct PreSolve<'a> {
    f: Option<&'a PreSolveFn>,
    world: u16,
}

impl PreSolve<'_> {
    /// Whether the callback must see this pair's contact every step (such a
    /// contact is never recycled, so the callback sees a fresh manifold).
    pub(crate) fn applies(&self, a: &Shape, b: &Shape) -> bool {
        self.f.is_some() && (a.enable_pre_solve_events || b.enable_pre_solve_events)
    }

    /// Asks the callback about a touching contact whose manifold was just
    /// computed; when it says no, empties the manifold so that the contact is
    /// not touching this step. Returns whether the contact still touches.
    pub(crate) fn filter_contact(&self, sim: &mut ContactSim, a: &Shape, b: &Shape) -> bool {
        let Some(f) = self.f else { return true };
        if !self.applies(a, b) || sim.manifold.point_count == 0 {
            return sim.manifold.point_count > 0;
        }
        let keep = f(
            shape_id(self.world, sim.shape_id_a, a),
            shape_id(self.world, sim.shape_id_b, b),
            &sim.manifold,
        );
        if !keep {
            sim.manifold.point_count = 0;
            // Not recycled either: the empty manifold must not outlive the
            // callback's answer if the callback is removed.
            sim.sim_flags &=
                !(sim_flags::TOUCHING | sim_flags::ENABLE_HIT_EVENT | sim_flags::RECYCLE_VALID);
        }
        keep
    }
}

impl World {
    /// Installs a custom filter, asked about every new pair of shapes whose
    /// collision filters, bodies and joints allow a contact (and by
    /// continuous collision). Returning `false` keeps the shapes from
    /// colliding: no contact is made. Pairs that already have a contact keep
    /// it; the filter is asked again whenever the broad phase finds the pair
    /// anew (a shape moved or was re-filtered).
    pub fn set_custom_filter(
        &mut self,
        filter: impl Fn(ShapeId, ShapeId) -> bool + Send + Sync + 'static,
    ) {
        self.callbacks.custom_filter = Some(Box::new(filter));
    }

    /// Removes the custom filter.
    pub fn clear_custom_filter(&mut self) {
        self.callbacks.custom_filter = None;
    }

    /// Installs a pre-solve callback, called every step for each touching
    /// contact of a shape with
    /// [`enable_pre_solve_events`](crate::ShapeDef::enable_pre_solve_events),
    /// after its manifold is computed and before the solver. The manifold
    /// normal points from the first shape to the second. Returning `false`
    /// switches the contact off for this step: it stops touching (reporting an
    /// end-touch event if it was touching) and pushes nothing. Enough for
    /// one-way platforms.
    pub fn set_pre_solve(
        &mut self,
        callback: impl Fn(ShapeId, ShapeId, &Manifold) -> bool + Send + Sync + 'static,
    ) {
        self.callbacks.pre_solve = Some(Box::new(callback));
    }

    /// Removes the pre-solve callback.
    pub fn clear_pre_solve(&mut self) {
        self.callbacks.pre_solve = None;
    }

    /// Whether the custom filter lets two shapes collide.
    pub(crate) fn custom_filter_allows(&self, a: u32, b: u32) -> bool {
        self.callbacks
            .custom_filter(self.world_number)
            .allows(&self.shapes, a, b)
    }

    /// After a shape's filter changed: destroys (with end events, waking the
    /// bodies) the shape's contacts that the new filter or the custom filter
    /// no longer allow, and keeps the others untouched.
    pub(crate) fn destroy_filtered_contacts(&mut self, si: usize) {
        let bi = self.shapes[si].body_id as usize;
        let mut key = self.bodies[bi].head_contact_key;
        while key != NULL_INDEX {
            let contact_id = key >> 1;
            let contact = &self.contacts[contact_id as usize];
            key = contact.edges[(key & 1) as usize].next_key;
            let (a, b) = (contact.shape_id_a, contact.shape_id_b);
            if a as usize != si && b as usize != si {
                continue;
            }
            let allowed = self.shapes[a as usize]
                .filter
                .should_collide(&self.shapes[b as usize].filter)
                && self.custom_filter_allows(a, b);
            if !allowed {
                self.destroy_contact(contact_id, true);
            }
        }
    }
}
