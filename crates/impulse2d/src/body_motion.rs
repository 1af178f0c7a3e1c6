//! Driving bodies: kinematic target transforms.
//!
//! # References
//! - E. Catto, Box2D v3.1 `b2Body_SetTargetTransform`.

use crate::body::{BodyType, check_position, check_rotation};
use crate::error::{Error, Result, check_positive};
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;

impl World {
    /// Sets the velocity that brings the body's origin to `target` in one step
    /// of `time_step` seconds: linear velocity of the centre of mass from its
    /// displacement, angular velocity from the rotation between the current
    /// and target angles (the shorter way round). Meant for kinematic bodies
    /// moved along a path; works on dynamic bodies too, which other forces
    /// then disturb. The target is reached exactly in translation and to the
    /// solver's rotation integration in angle, as long as the speeds stay
    /// below the world's limits (see
    /// [`WorldDef::maximum_linear_speed`](crate::WorldDef::maximum_linear_speed);
    /// a quarter turn per step) and the body has no damping.
    ///
    /// A sleeping body is woken unless the motion is slower than its sleep
    /// threshold. Disabled bodies are left alone.
    ///
    /// # Errors
    /// A static body, a bad target, or a time step that is not finite and
    /// positive or so short that the velocity would overflow.
    pub(crate) fn drive_body_to(
        &mut self,
        bi: usize,
        target: crate::pos::WorldTransform,
        time_step: f32,
    ) -> Result<()> {
        check_position(target.p, "target position")?;
        check_rotation(target.q, "target rotation")?;
        check_positive(time_step, "time step")?;
        if self.bodies[bi].body_type == BodyType::Static {
            return Err(Error::InvalidOperation("a static body cannot move"));
        }
        if self.bodies[bi].set_index == DISABLED_SET {
            return Ok(());
        }
        let sim = self.body_sim(bi);
        let inv_dt = 1.0 / time_step;
        let linear = (target.apply(sim.local_center) - sim.center) * inv_dt;
        let angular = sim.transform.q.relative_angle(target.q) * inv_dt;
        if !linear.is_finite() || !angular.is_finite() {
            // A time step so short (a subnormal number) that the velocity
            // overflows.
            return Err(Error::OutOfRange {
                what: "time step",
                expected: "long enough for a finite velocity",
                value: time_step,
            });
        }
        if self.bodies[bi].set_index != AWAKE_SET {
            let max_speed = linear.length() + angular.abs() * sim.max_extent;
            if max_speed < self.bodies[bi].sleep_threshold {
                return Ok(());
            }
            self.wake_body(bi);
        }
        let state = self.body_state_mut(bi).expect("an awake body has a state");
        state.linear_velocity = linear;
        state.angular_velocity = angular;
        Ok(())
    }
}
