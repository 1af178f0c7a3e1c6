//! NaN quarantine: a body whose motion stops being finite during a step is
//! taken out of the simulation instead of spreading NaN to everything it
//! touches.
//!
//! Only absurd but finite input gets a body there: a force of 3e38 N, a mass
//! of 1e-30 kg pushed by an ordinary force, a huge torque or impulse, a time
//! step of `f32::MAX` seconds. It is caught where it happens:
//! - `integrate_velocities` (each substep): a velocity that is not finite, or
//!   whose square overflows, is set to zero and the body flagged
//!   ([`flags::QUARANTINED_VELOCITY`]), so the constraint solvers never see it
//!   and no impulse carries it to another body;
//! - `finalize_bodies`: a flagged body, or one whose velocity, rotation delta
//!   or new centre is not finite (or the centre beyond
//!   [`MAX_COORDINATE`](crate::core::MAX_COORDINATE)), keeps the pose it had
//!   at the start of the step and zero velocity; its shape boxes are not
//!   touched, so nothing reaches the broad phase; it keeps its island awake.
//! - At the end of the step ([`World::quarantine_bodies`]), in awake order,
//!   each such body is disabled as by [`BodyMut::disable`](crate::api::BodyView::disable) (its contacts end
//!   with events, its joints move to the disabled set with their accumulated
//!   impulses cleared) and a [`BodyQuarantineEvent`] says why.
//!
//! Every other body steps on. All of it is per body and merged by bit sets, so
//! the result is the same on any worker count, and a step that quarantines
//! nothing does no more work than a bitset clear and a flag test per body.
//!
//! Rapier 0.35 has a similar safeguard; Box2D asserts (`b2IsValidVec2`) in
//! `b2FinalizeBodiesTask` instead.

use crate::body::flags;
use crate::events::{BodyQuarantineEvent, QuarantineReason};
use crate::id::{BodyId, NULL_INDEX};
use crate::solver::solver_set::DISABLED_SET;
use crate::world::World;

impl World {
    /// Disables the bodies `finalize_bodies` found with a non-finite motion
    /// (`scratch.quarantined`, by body id in awake order) and reports them.
    pub(crate) fn quarantine_bodies(&mut self) {
        let mut bodies = std::mem::take(&mut self.scratch.quarantined);
        for &body_id in &bodies {
            let bi = body_id as usize;
            let body = &mut self.bodies[bi];
            let reason = if body.flags & flags::QUARANTINED_VELOCITY != 0 {
                QuarantineReason::Velocity
            } else {
                QuarantineReason::Position
            };
            body.flags &= !flags::QUARANTINED;
            let event = BodyQuarantineEvent {
                body_id: BodyId {
                    index: body_id,
                    world: self.world_number,
                    generation: body.generation,
                },
                user_data: body.user_data,
                reason,
            };
            self.disable_body_at(bi);
            self.clear_body_joint_impulses(bi);
            self.events.body_quarantines.push(event);
        }
        bodies.clear();
        self.scratch.quarantined = bodies;
    }

    /// Forgets the accumulated impulses of a disabled body's joints (they may
    /// be non-finite after the step that quarantined it, and would be warm
    /// started from when the body is enabled again).
    fn clear_body_joint_impulses(&mut self, bi: usize) {
        let mut key = self.bodies[bi].head_joint_key;
        while key != NULL_INDEX {
            let joint = &self.joints.joints[(key >> 1) as usize];
            key = joint.edges[(key & 1) as usize].next_key;
            debug_assert_eq!(joint.set_index, DISABLED_SET);
            let sims = &mut self.solver_sets[joint.set_index as usize].joint_sims;
            sims[joint.local_index as usize].kind.clear_impulses();
        }
    }
}
