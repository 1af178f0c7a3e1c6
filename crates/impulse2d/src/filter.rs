//! Collision filtering beyond categories and masks: a custom filter callback
//! that can veto a new contact, a pre-solve callback that can switch a
//! contact off for one step (or make continuous collision ignore a hit), and
//! re-filtering of existing contacts when a
//! shape's [`Filter`](crate::Filter) changes.
//!
//! Both callbacks are `Fn + Send + Sync`: the step may call them from several
//! threads at once, and they cannot reach the world (it is borrowed by the
//! step), so they decide from the ids and data they are given and whatever
//! they captured.
//!
//! # Panics in callbacks
//! A callback that panics cannot leave the world half-updated: every call is
//! made through `guarded`, which catches the panic, answers as if there were
//! no callback (`true`: the pair collides, the contact or hit stands; the
//! default rule for the friction and restitution mixing functions of
//! `contact.rs`) and keeps the panic. The step (or the call that asked the callback) then finishes
//! normally and, once the world is consistent again, resumes the first panic
//! it kept (`World::resume_callback_panic`). A caller that catches it
//! (`std::panic::catch_unwind`) finds a valid world and may step on.
//!
//! # References
//! - E. Catto, Box2D v3 `b2World_SetCustomFilterCallback`,
//!   `b2World_SetPreSolveCallback` and the "one-way platform" sample; v3.1
//!   `solver.c` (`b2ContinuousQueryCallback` asks the pre-solve callback).

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;

use crate::collision::{DistanceInput, Manifold, SimplexCache, ToiInput, shape_distance};
use crate::contact::{ContactEdges, ContactSim, sim_flags};
use crate::id::ShapeId;
use crate::shape::Shape;
use crate::world::World;

/// A custom filter: `false` keeps two shapes from colliding.
pub type CustomFilterFn = dyn Fn(ShapeId, ShapeId) -> bool + Send + Sync;

/// A pre-solve callback: `false` switches the contact off for this step
/// (its manifold is emptied, so it stops touching), or makes continuous
/// collision ignore a hit. See [`World::set_pre_solve`]. It is called from the
/// narrow phase and from continuous collision, which run on the world's
/// worker threads when there are several
/// ([`WorldDef::worker_count`](crate::WorldDef::worker_count)): calls for
/// different contacts may then run at the same time, in any order.
pub type PreSolveFn = dyn Fn(ShapeId, ShapeId, &Manifold) -> bool + Send + Sync;

/// Where a caught callback panic waits until the world is consistent again.
pub(crate) type PanicSlot = Mutex<Option<Box<dyn Any + Send + 'static>>>;

/// The world's callbacks.
#[derive(Default)]
pub(crate) struct Callbacks {
    custom_filter: Option<Box<CustomFilterFn>>,
    pre_solve: Option<Box<PreSolveFn>>,
    /// The first panic a callback raised since it was last resumed.
    panic: PanicSlot,
}

/// Calls a user callback; if it panics, keeps the panic in `slot` (the first
/// one only) and returns `fallback`, so that the engine code around the call
/// never unwinds half-way through a change.
pub(crate) fn guarded<R>(slot: &PanicSlot, fallback: R, call: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(answer) => answer,
        Err(payload) => {
            let mut kept = slot.lock().unwrap_or_else(|e| e.into_inner());
            if kept.is_none() {
                *kept = Some(payload);
            }
            fallback
        }
    }
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
            panic: &self.panic,
        }
    }

    /// The pre-solve callback with what it needs to make shape ids.
    pub(crate) fn pre_solve(&self, world: u16) -> PreSolve<'_> {
        PreSolve {
            f: self.pre_solve.as_deref(),
            world,
            panic: &self.panic,
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
    panic: &'a PanicSlot,
}

impl CustomFilter<'_> {
    /// Whether the callback (if any) lets shapes `a` and `b` collide. It is
    /// asked only when one of the shapes has custom filtering enabled.
    pub(crate) fn allows(&self, shapes: &[Shape], a: u32, b: u32) -> bool {
        self.allows_pair((a, &shapes[a as usize]), (b, &shapes[b as usize]))
    }

    /// [`allows`](Self::allows) for shapes given as (index, shape).
    pub(crate) fn allows_pair(
        &self,
        (a, shape_a): (u32, &Shape),
        (b, shape_b): (u32, &Shape),
    ) -> bool {
        let asks = shape_a.enable_custom_filtering || shape_b.enable_custom_filtering;
        match self.f {
            Some(f) if asks => {
                let (a, b) = (
                    shape_id(self.world, a, shape_a),
                    shape_id(self.world, b, shape_b),
                );
                guarded(self.panic, true, || f(a, b))
            }
            _ => true,
        }
    }
}

/// The pre-solve callback as the narrow phase sees it.
#[derive(Clone, Copy)]
pub(crate) struct PreSolve<'a> {
    f: Option<&'a PreSolveFn>,
    world: u16,
    panic: &'a PanicSlot,
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
        let (id_a, id_b) = (
            shape_id(self.world, sim.shape_id_a, a),
            shape_id(self.world, sim.shape_id_b, b),
        );
        let keep = guarded(self.panic, true, || f(id_a, id_b, &sim.manifold));
        if !keep {
            sim.manifold.point_count = 0;
            // Not recycled either: the empty manifold must not outlive the
            // callback's answer if the callback is removed.
            sim.sim_flags &=
                !(sim_flags::TOUCHING | sim_flags::ENABLE_HIT_EVENT | sim_flags::RECYCLE_VALID);
        }
        keep
    }

    /// Asks the callback about a hit found by continuous collision: shape
    /// `fast` (the swept one) reaches shape `hit` at `fraction` of the sweeps
    /// in `input`. Returns whether the hit stands (always, when neither shape
    /// asked for pre-solve events or there is no callback). large-world: the
    /// sweeps are relative to the world position `base` (`pos::sweep_base`).
    pub(crate) fn allows_impact(
        &self,
        (hit, a): (u32, &Shape),
        (fast, b): (u32, &Shape),
        input: &ToiInput,
        fraction: f32,
        #[cfg(feature = "large-world")] base: crate::pos::Pos,
    ) -> bool {
        let Some(f) = self.f.filter(|_| self.applies(a, b)) else {
            return true;
        };
        let (id_a, id_b) = (shape_id(self.world, hit, a), shape_id(self.world, fast, b));
        let manifold = impact_manifold(input, fraction);
        // large-world: the point in world coordinates, as a contact's
        // (`contact::update_contact`); anchors are differences already
        #[cfg(feature = "large-world")]
        let manifold = {
            let mut m = manifold;
            m.points[0].point = crate::pos::to_vec2(base + m.points[0].point);
            m
        };
        guarded(self.panic, true, || f(id_a, id_b, &manifold))
    }
}

/// The contact at a time of impact, as a one-point manifold for the
/// pre-solve callback: the closest points of the two proxies at `fraction`
/// of their sweeps, the normal from A to B, the point midway between the
/// surfaces, the separation the gap left there, anchors relative to each
/// body's origin at that time, and no impulses. The point is in the sweeps'
/// frame (relative to their `base` with large-world; the caller moves it
/// into the world).
fn impact_manifold(input: &ToiInput, fraction: f32) -> Manifold {
    let transform_a = input.sweep_a.transform_at(fraction);
    let transform_b = input.sweep_b.transform_at(fraction);
    let closest = shape_distance(
        &DistanceInput {
            proxy_a: input.proxy_a,
            proxy_b: input.proxy_b,
            transform_a,
            transform_b,
            use_radii: true,
        },
        &mut SimplexCache::default(),
    );
    let mut manifold = Manifold {
        normal: closest.normal,
        point_count: 1,
        ..Manifold::default()
    };
    let point = closest.point_a.lerp(closest.point_b, 0.5);
    let p = &mut manifold.points[0];
    p.point = point;
    p.anchor_a = point - transform_a.p;
    p.anchor_b = point - transform_b.p;
    p.separation = closest.distance;
    manifold
}

impl World {
    /// Installs a custom filter, asked about every new pair of shapes whose
    /// collision filters, bodies and joints allow a contact (and by
    /// continuous collision). Returning `false` keeps the shapes from
    /// colliding: no contact is made. Pairs that already have a contact keep
    /// it; the filter is asked again whenever the broad phase finds the pair
    /// anew (a shape moved or was re-filtered).
    ///
    /// # Panics
    /// If the filter panics, the world treats that call as `true` (the pair
    /// collides, as with no filter), finishes the step (or
    /// [`ShapeMut::set_filter`](crate::api::ShapeView::set_filter)) that asked it, and then
    /// resumes the first such panic from that call. The world is valid
    /// afterwards: a caller that catches the panic with
    /// [`std::panic::catch_unwind`] may keep stepping (clear or replace the
    /// filter first if it would panic again). Worker threads are unaffected.
    ///
    /// Box2D: `b2World_SetCustomFilterCallback`.
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
    ///
    /// Continuous collision asks it too (as Box2D v3.1 does), when the sweep of
    /// a fast body or bullet finds a hit with such a shape, before the body is
    /// moved back to the time of impact. The shapes are then (the shape hit,
    /// the fast body's shape), and the manifold is built at the time of impact
    /// from the closest points of the two shapes: one point, the normal from
    /// the shape hit to the fast shape, the point midway between the surfaces,
    /// the separation the gap left there (about
    /// [`LINEAR_SLOP`](crate::core::LINEAR_SLOP)), anchors relative to each
    /// body's origin at that time, no impulses, feature id 0. (When the shapes
    /// already touched at the start of the step, the fast shape is a small
    /// circle around its centroid for this sweep, and the manifold is that
    /// circle's.) Returning `false` ignores the hit, so a fast body passes
    /// up through a one-way platform instead of being stopped under it.
    ///
    /// # Panics
    /// If the callback panics (on any worker thread), the world treats that
    /// call as `true` (the contact or hit stands, as with no callback),
    /// finishes the step and then resumes the first such panic from
    /// [`step`](World::step), on the thread that called it. The world is valid
    /// afterwards and its worker threads keep working: a caller that catches
    /// the panic with [`std::panic::catch_unwind`] may keep stepping (clear or
    /// replace the callback first if it would panic again).
    ///
    /// Box2D: `b2World_SetPreSolveCallback`.
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

    /// Resumes the first panic a callback raised since the last call, if any
    /// (see the [module documentation](self)). Call it only where the world is
    /// consistent: at the end of a step or of a public call that asked a
    /// callback.
    pub(crate) fn resume_callback_panic(&mut self) {
        let take = |slot: &mut PanicSlot| slot.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        let kept = take(&mut self.callbacks.panic).or_else(|| take(&mut self.mixing.panic));
        if let Some(payload) = kept {
            resume_unwind(payload);
        }
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
        let mut edges = ContactEdges::of(&self.bodies[self.shapes[si].body_id as usize]);
        while let Some((contact_id, _)) = edges.next(&self.contacts) {
            let contact = &self.contacts[contact_id as usize];
            if !contact.has_shape(si) {
                continue;
            }
            let (a, b) = (contact.shape_id_a, contact.shape_id_b);
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
