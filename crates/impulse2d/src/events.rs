//! Events: what happened during a step, read as borrowed slices afterwards.
//!
//! After [`World::step`] the world holds, until the next step:
//! - contact events ([`World::contact_events`]): shapes that began touching
//!   (their manifold has points), stopped touching, or hit each other faster
//!   than [`WorldDef::hit_event_threshold`](crate::WorldDef::hit_event_threshold);
//! - sensor events ([`World::sensor_events`]): shapes that began or stopped
//!   overlapping a sensor shape;
//! - body move events ([`World::body_events`]): the new transform of every
//!   awake body, and whether it fell asleep at the end of the step;
//! - body quarantine events ([`World::body_quarantine_events`]): bodies the
//!   step took out of the simulation because their motion stopped being
//!   finite (see [`QuarantineReason`]).
//!
//! # Pairing
//! Every begin-touch event is followed by exactly one end-touch event for the
//! same contact (or sensor and visitor), never by two and never preceded by
//! one. A contact that stops existing while touching (its shape or body is
//! destroyed, disabled, changes type or filter, or is moved away) reports its
//! end. End events caused by calls made between two steps are kept and
//! published with the next step's events, so none is lost; the shape ids they
//! carry may then be stale (check with [`World::shape`]).
//!
//! Whether a contact reports begin/end events is decided when it is created,
//! from [`ShapeDef::enable_contact_events`](crate::ShapeDef::enable_contact_events)
//! of its two shapes, and stays so for its lifetime, which keeps the pairing
//! intact when a shape's switch changes later.
//!
//! # References
//! - E. Catto, Box2D v3 `world.c` (`b2World_GetContactEvents`, double-buffered
//!   end events), `solver.c` (hit events), `sensor.c`.

use crate::collision::Manifold;
use crate::contact::{contact_flags, sim_flags};
use crate::id::{BodyId, ContactId, ShapeId};
use crate::math::Vec2;
use crate::sensor::Sensors;
use crate::solver::solver_set::{AWAKE_SET, FIRST_SLEEPING_SET};
use crate::world::World;

/// Two shapes began touching: their contact manifold has points (which
/// happens up to the speculative distance, 2 cm, before they meet).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactBeginTouchEvent {
    /// The contact; its end event carries the same id.
    pub contact_id: ContactId,
    /// The first shape (the manifold normal points from A to B).
    pub shape_id_a: ShapeId,
    /// The second shape.
    pub shape_id_b: ShapeId,
    /// The manifold when touching began.
    pub manifold: Manifold,
}

/// Two shapes stopped touching, or their contact was destroyed while touching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContactEndTouchEvent {
    /// The contact (already destroyed when the shapes were destroyed or
    /// separated far enough).
    pub contact_id: ContactId,
    /// The first shape (may be stale: the shape may have been destroyed).
    pub shape_id_a: ShapeId,
    /// The second shape (may be stale).
    pub shape_id_b: ShapeId,
}

/// Two shapes hit each other with an approach speed above the world's hit
/// event threshold. Reported for contacts where either shape has
/// [`ShapeDef::enable_hit_events`](crate::ShapeDef::enable_hit_events).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactHitEvent {
    /// The first shape.
    pub shape_id_a: ShapeId,
    /// The second shape.
    pub shape_id_b: ShapeId,
    /// The world point of the fastest-approaching contact point, metres.
    pub point: Vec2,
    /// The contact normal, from A to B (unit vector, world frame).
    pub normal: Vec2,
    /// The speed at which the shapes approached along the normal, m/s (> 0).
    pub approach_speed: f32,
}

/// The contact events of the last step (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactEvents<'a> {
    /// Contacts that began touching, in contact id order.
    pub begin: &'a [ContactBeginTouchEvent],
    /// Contacts that stopped touching or were destroyed while touching: first
    /// those caused by calls made before the step, then the step's own.
    pub end: &'a [ContactEndTouchEvent],
    /// Impacts faster than the hit event threshold, in constraint order.
    pub hit: &'a [ContactHitEvent],
}

/// A shape began overlapping a sensor shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SensorBeginTouchEvent {
    /// The sensor shape.
    pub sensor_shape_id: ShapeId,
    /// The shape that entered it.
    pub visitor_shape_id: ShapeId,
}

/// A shape stopped overlapping a sensor shape (or one of them was destroyed
/// or disabled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SensorEndTouchEvent {
    /// The sensor shape (may be stale).
    pub sensor_shape_id: ShapeId,
    /// The shape that left it (may be stale).
    pub visitor_shape_id: ShapeId,
}

/// The sensor events of the last step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SensorEvents<'a> {
    /// Overlaps that began, by sensor and then by visitor shape index.
    pub begin: &'a [SensorBeginTouchEvent],
    /// Overlaps that ended: first those caused by calls made before the step,
    /// then the step's own.
    pub end: &'a [SensorEndTouchEvent],
}

/// The new pose of a body the step moved (every awake body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMoveEvent {
    /// The body.
    pub body_id: BodyId,
    /// The transform of the body origin after the step (`f64` translation
    /// with `large-world`).
    pub transform: crate::pos::WorldTransform,
    /// The body's user data.
    pub user_data: u64,
    /// Whether the body's island fell asleep at the end of the step.
    pub fell_asleep: bool,
}

/// Why the step took a body out of the simulation (see
/// [`BodyQuarantineEvent`]).
///
/// Only absurd input gets a body here: a force, torque or impulse so large
/// for the body's mass (a force of 3e38 N, a mass of 1e-30 kg), a velocity
/// so large or a time step so long that `f32` arithmetic overflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuarantineReason {
    /// The linear or angular velocity became non-finite, or so large that its
    /// square overflows `f32` (above about 1.8e19 m/s or rad/s).
    Velocity,
    /// The position or rotation the step would move the body to is not
    /// finite, or its centre would leave ±[`MAX_COORDINATE`](crate::core::MAX_COORDINATE).
    Position,
}

/// A body the step took out of the simulation because its motion stopped
/// being finite (Box2D asserts instead).
///
/// The body is disabled, exactly as by [`BodyMut::disable`](crate::api::BodyView::disable), at the pose
/// it had at the start of the step, with zero velocity, no pending force or
/// torque, and its joints' accumulated impulses cleared; its contacts ended
/// (with end events). Nothing non-finite reached the broad phase, and every
/// other body kept stepping. Fix what made it blow up (its mass, the forces
/// applied to it, the time step), then [`BodyMut::enable`](crate::api::BodyView::enable) puts it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyQuarantineEvent {
    /// The body (now disabled).
    pub body_id: BodyId,
    /// The body's user data.
    pub user_data: u64,
    /// What stopped being finite.
    pub reason: QuarantineReason,
}

/// The event buffers and the sensors' overlap lists.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    pub(crate) contact_begin: Vec<ContactBeginTouchEvent>,
    /// End events of the last step (published).
    pub(crate) contact_end: Vec<ContactEndTouchEvent>,
    /// End events caused by calls made since the last step.
    pub(crate) contact_end_pending: Vec<ContactEndTouchEvent>,
    pub(crate) contact_hit: Vec<ContactHitEvent>,
    pub(crate) sensor_begin: Vec<SensorBeginTouchEvent>,
    pub(crate) sensor_end: Vec<SensorEndTouchEvent>,
    pub(crate) sensor_end_pending: Vec<SensorEndTouchEvent>,
    pub(crate) body_moves: Vec<BodyMoveEvent>,
    pub(crate) body_quarantines: Vec<BodyQuarantineEvent>,
    /// Whether a step is running (end events go to the published buffers).
    pub(crate) in_step: bool,
    /// The sensor shapes and what overlaps them.
    pub sensors: Sensors,
}

impl Events {
    pub(crate) fn push_contact_end(&mut self, event: ContactEndTouchEvent) {
        if self.in_step {
            self.contact_end.push(event);
        } else {
            self.contact_end_pending.push(event);
        }
    }

    pub(crate) fn push_sensor_begin(&mut self, event: SensorBeginTouchEvent) {
        self.sensor_begin.push(event);
    }

    pub(crate) fn push_sensor_end(&mut self, event: SensorEndTouchEvent) {
        if self.in_step {
            self.sensor_end.push(event);
        } else {
            self.sensor_end_pending.push(event);
        }
    }
}

impl World {
    /// The contact events of the last step. The slices borrow the world: copy
    /// what you need before changing it.
    ///
    /// Box2D: `b2World_GetContactEvents`.
    pub fn contact_events(&self) -> ContactEvents<'_> {
        ContactEvents {
            begin: &self.events.contact_begin,
            end: &self.events.contact_end,
            hit: &self.events.contact_hit,
        }
    }

    /// The sensor overlap events of the last step.
    ///
    /// Box2D: `b2World_GetSensorEvents`.
    pub fn sensor_events(&self) -> SensorEvents<'_> {
        SensorEvents {
            begin: &self.events.sensor_begin,
            end: &self.events.sensor_end,
        }
    }

    /// The bodies the last step moved (every awake body, in awake order).
    ///
    /// Box2D: `b2World_GetBodyEvents`.
    pub fn body_events(&self) -> &[BodyMoveEvent] {
        &self.events.body_moves
    }

    /// The bodies the last step quarantined (took out of the simulation
    /// because their motion stopped being finite), in awake order; see
    /// [`BodyQuarantineEvent`].
    pub fn body_quarantine_events(&self) -> &[BodyQuarantineEvent] {
        &self.events.body_quarantines
    }

    /// Starts a step's events: drops the last step's and publishes the end
    /// events caused by calls made since.
    pub(crate) fn begin_step_events(&mut self) {
        let e = &mut self.events;
        e.contact_begin.clear();
        e.contact_hit.clear();
        e.sensor_begin.clear();
        e.body_moves.clear();
        e.body_quarantines.clear();
        // The pending buffers become the published ones (and the old published
        // ones, cleared, the next pending ones): no allocation.
        std::mem::swap(&mut e.contact_end, &mut e.contact_end_pending);
        e.contact_end_pending.clear();
        std::mem::swap(&mut e.sensor_end, &mut e.sensor_end_pending);
        e.sensor_end_pending.clear();
        e.in_step = true;
    }

    /// Ends the events of a zero-length step, which simulates nothing (sensor
    /// overlaps are not updated either).
    pub(crate) fn end_paused_step_events(&mut self) {
        self.events.in_step = false;
    }

    /// Ends a step's events: sensor overlaps, and which moved bodies fell
    /// asleep.
    pub(crate) fn end_step_events(&mut self) {
        self.update_sensors();
        let World {
            events,
            bodies,
            solver_sets,
            ..
        } = self;
        // The moves are the awake bodies when the solver finished; only
        // falling asleep (or the quarantine) takes bodies out of the awake
        // set since, and nothing adds one. None left: none fell asleep.
        if solver_sets[AWAKE_SET as usize].body_sims.len() >= events.body_moves.len() {
            events.in_step = false;
            return;
        }
        for event in &mut events.body_moves {
            let set = bodies[event.body_id.index as usize].set_index;
            event.fell_asleep = set >= FIRST_SLEEPING_SET;
        }
        events.in_step = false;
    }

    /// Records a begin-touch event for a contact that has just begun touching
    /// (if its shapes asked for contact events).
    pub(crate) fn emit_contact_begin(&mut self, contact_id: u32, manifold: &Manifold) {
        let c = &self.contacts[contact_id as usize];
        if c.flags & contact_flags::ENABLE_CONTACT_EVENTS == 0 {
            return;
        }
        let (contact_id, shape_id_a, shape_id_b) = self.contact_public_ids(contact_id);
        let manifold = *manifold;
        let event = ContactBeginTouchEvent {
            contact_id,
            shape_id_a,
            shape_id_b,
            manifold,
        };
        self.events.contact_begin.push(event);
    }

    /// Records an end-touch event for a contact that stops touching or is
    /// about to be destroyed, if it is touching and reports events. Call it
    /// before the contact's touching flag is cleared.
    pub(crate) fn emit_contact_end(&mut self, contact_id: u32) {
        let c = &self.contacts[contact_id as usize];
        let wanted = contact_flags::TOUCHING | contact_flags::ENABLE_CONTACT_EVENTS;
        if c.flags & wanted != wanted {
            return;
        }
        let (contact_id, shape_id_a, shape_id_b) = self.contact_public_ids(contact_id);
        let event = ContactEndTouchEvent {
            contact_id,
            shape_id_a,
            shape_id_b,
        };
        self.events.push_contact_end(event);
    }

    /// Gathers the step's hit events, and brings the move events of the
    /// bullets swept after the finalize stage (which wrote every awake body's
    /// move event) up to date. Runs after the
    /// solver, before islands fall asleep (so that bodies going to sleep are
    /// still in the awake set and their contacts in the graph).
    pub(crate) fn record_step_events(&mut self) {
        let threshold = self.settings.hit_event_threshold;
        let World {
            graph,
            shapes,
            solver_sets,
            events,
            world_number,
            scratch,
            ..
        } = self;
        let shape_id = |index: u32| ShapeId {
            index,
            world: *world_number,
            generation: shapes[index as usize].generation,
        };
        // Without a flagged contact in the colours, no need to read them all.
        let colors: &[_] = if scratch.hit_events_possible {
            &graph.colors
        } else {
            &[]
        };
        for color in colors {
            for sim in &color.contact_sims {
                if sim.sim_flags & sim_flags::ENABLE_HIT_EVENT == 0 {
                    continue;
                }
                // The fastest approaching point that the solver actually
                // pushed on (a speculative point may approach without meeting).
                let mut best: Option<(f32, Vec2)> = None;
                for mp in sim.manifold.points() {
                    let approach_speed = -mp.normal_velocity;
                    let faster = best.is_none_or(|(speed, _)| approach_speed > speed);
                    if approach_speed > threshold && mp.total_normal_impulse > 0.0 && faster {
                        best = Some((approach_speed, mp.point));
                    }
                }
                if let Some((approach_speed, point)) = best {
                    events.contact_hit.push(ContactHitEvent {
                        shape_id_a: shape_id(sim.shape_id_a),
                        shape_id_b: shape_id(sim.shape_id_b),
                        point,
                        normal: sim.manifold.normal,
                        approach_speed,
                    });
                }
            }
        }

        // The finalize stage wrote every awake body's move event; the
        // bullets moved since, in their sweeps.
        let sims = &solver_sets[AWAKE_SET as usize].body_sims;
        for &i in &scratch.fast_bullets {
            events.body_moves[i as usize].transform = sims[i as usize].transform;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::collision::make_box;
    use crate::contact::sim_flags;
    use crate::pos::to_pos;
    use crate::{BodyDef, BodyType, ShapeDef, Vec2, World, WorldDef};

    /// What makes skipping the hit events' scan exact: whenever the step says
    /// no contact of the colours may carry the hit-event flag, none does.
    /// Returns whether one does.
    fn check_hit_scan_skip(world: &World) -> bool {
        let flagged = world
            .graph
            .colors
            .iter()
            .flat_map(|c| &c.contact_sims)
            .any(|s| s.sim_flags & sim_flags::ENABLE_HIT_EVENT != 0);
        assert!(
            world.scratch.hit_events_possible || !flagged,
            "a flagged contact in the colours, but its scan was skipped"
        );
        flagged
    }

    #[test]
    fn hit_scan_is_skipped_only_without_flagged_contacts() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::default()).unwrap();
        let slab = make_box(20.0, 0.5).unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &slab)
            .unwrap();
        let square = make_box(0.5, 0.5).unwrap();
        let loud = ShapeDef {
            enable_hit_events: true,
            ..Default::default()
        };
        let mut shapes = Vec::new();
        let mut boxes = Vec::new();
        for i in 0..8 {
            let body = world
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: to_pos(Vec2::new(0.0, 1.0 + 1.05 * i as f32)),
                    ..Default::default()
                })
                .unwrap();
            shapes.push(world.create_polygon_shape(body, &loud, &square).unwrap());
            boxes.push(body);
        }
        // Landing with hit events on: flagged contacts, and the scan runs.
        let mut saw_flagged = false;
        let mut steps = 0;
        while world.body(boxes[0]).unwrap().is_awake() {
            world.step(1.0 / 60.0, 4).unwrap();
            saw_flagged |= check_hit_scan_skip(&world);
            steps += 1;
            assert!(steps < 2000, "the stack never fell asleep");
        }
        assert!(saw_flagged);
        // Asleep, the stack's contacts keep the flag while the shapes drop it.
        for &s in &shapes {
            world.shape_mut(s).unwrap().set_hit_events_enabled(false);
        }
        for _ in 0..5 {
            world.step(1.0 / 60.0, 4).unwrap();
            assert!(!check_hit_scan_skip(&world));
            assert!(
                !world.scratch.hit_events_possible,
                "nothing awake is flagged"
            );
        }
        // A quiet box dropped on the stack wakes it in the narrow phase's
        // state changes: its woken contacts join the colours still flagged
        // (they are updated only from the next step on).
        let dropped = world
            .create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: to_pos(Vec2::new(0.0, 9.0)),
                linear_velocity: Vec2::new(0.0, -4.0),
                ..Default::default()
            })
            .unwrap();
        world
            .create_polygon_shape(dropped, &ShapeDef::default(), &square)
            .unwrap();
        let mut woke_flagged = false;
        for _ in 0..120 {
            world.step(1.0 / 60.0, 4).unwrap();
            woke_flagged |= check_hit_scan_skip(&world);
        }
        assert!(
            woke_flagged,
            "the woken contacts kept their flag for a step"
        );
        // Updated since, they carry it no more and the scan is skipped again.
        assert!(!check_hit_scan_skip(&world));
        assert!(!world.scratch.hit_events_possible);
    }
}
