//! [`PointerDrag`]: pulling bodies around with a mouse joint, as a pointer does.

use bevy::prelude::*;
use impulse2d as i2;

use crate::PhysicsWorld;
use crate::systems::v;

/// Drags dynamic bodies with a mouse joint: [`press`](PointerDrag::press) on a body
/// grabs the point under the pointer, [`move_to`](PointerDrag::move_to) moves the target
/// and [`release`](PointerDrag::release) lets go. Points are in world coordinates,
/// metres; turning the cursor into such a point (the camera's
/// `viewport_to_world_2d`) is the application's part, so the logic runs headless too.
///
/// The joint hangs from a static body at the origin with no shapes and no entity (its
/// `user_data` is `u64::MAX`), made the first time something is grabbed. It pulls like a
/// spring of `hertz` with `damping_ratio`, with at most
/// `force_per_weight` times the body's weight: a body held still sags `g / (2π·hertz)²`
/// below the target (1 cm at 5 Hz).
#[derive(Resource, Clone, Debug)]
pub struct PointerDrag {
    /// Spring frequency, Hz (default 5).
    pub hertz: f32,
    /// Damping ratio (default 0.7).
    pub damping_ratio: f32,
    /// Largest pull as a multiple of the body's weight (default 1000).
    pub force_per_weight: f32,
    anchor: Option<i2::BodyId>,
    joint: Option<i2::JointId>,
    body: Option<i2::BodyId>,
}

impl Default for PointerDrag {
    fn default() -> Self {
        PointerDrag {
            hertz: 5.0,
            damping_ratio: 0.7,
            force_per_weight: 1000.0,
            anchor: None,
            joint: None,
            body: None,
        }
    }
}

impl PointerDrag {
    /// Grabs the dynamic body under `point` (one whose collider contains the point, not
    /// just its bounding box) and returns its entity, or `None` when there is none
    /// there (or `point` is not finite). A drag already going on is released first.
    pub fn press(&mut self, physics: &mut PhysicsWorld, point: Vec2) -> Option<Entity> {
        self.release(physics);
        if !point.is_finite() {
            return None;
        }
        let target = v(point);
        let body = body_at(&physics.world, target)?;
        let entity = physics.body_entity(body);
        // The joint's handle (debug drawing shows a mouse joint from its target, so
        // where the handle is does not matter).
        let anchor = match self.anchor.filter(|&a| physics.world.body(a).is_ok()) {
            Some(a) => a,
            None => {
                let a = physics
                    .world
                    .create_body(&i2::BodyDef {
                        user_data: u64::MAX,
                        ..Default::default()
                    })
                    .ok()?;
                self.anchor = Some(a);
                a
            }
        };
        let weight = {
            let b = physics.world.body(body).ok()?;
            b.mass() * physics.world.gravity().length()
        };
        let def = i2::MouseJointDef {
            base: i2::JointDef {
                body_a: anchor,
                body_b: body,
                ..Default::default()
            },
            target,
            hertz: self.hertz,
            damping_ratio: self.damping_ratio,
            max_force: self.force_per_weight * weight,
        };
        match physics.world.create_mouse_joint(&def) {
            Ok(joint) => {
                self.joint = Some(joint);
                self.body = Some(body);
                if let Ok(mut b) = physics.world.body_mut(body) {
                    b.set_awake(true);
                }
                entity
            }
            Err(e) => {
                log::warn!("bevy_impulse2d: drag not started: {e}");
                None
            }
        }
    }

    /// Moves the target of the drag going on (nothing without one, or for a point that
    /// is not finite).
    pub fn move_to(&mut self, physics: &mut PhysicsWorld, point: Vec2) {
        let Some(joint) = self.joint else { return };
        let Ok(j) = physics.world.joint_mut(joint) else {
            // The body (and so the joint) was destroyed.
            self.joint = None;
            self.body = None;
            return;
        };
        if let Ok(mut mouse) = j.mouse() {
            let _ = mouse.set_target(v(point));
        }
    }

    /// Lets go of the body being dragged, if any.
    pub fn release(&mut self, physics: &mut PhysicsWorld) {
        self.body = None;
        if let Some(joint) = self.joint.take()
            && physics.world.joint(joint).is_ok()
        {
            let _ = physics.world.destroy_joint(joint);
        }
    }

    /// The body being dragged (`None` after a release, or once it was destroyed).
    pub fn dragged(&self, physics: &PhysicsWorld) -> Option<i2::BodyId> {
        let joint = self.joint?;
        physics.world.joint(joint).ok()?;
        self.body
    }
}

/// A dynamic body with a collider that contains `point`.
fn body_at(world: &i2::World, point: i2::Vec2) -> Option<i2::BodyId> {
    let tiny = i2::collision::Aabb::new(
        point - i2::Vec2::new(0.001, 0.001),
        point + i2::Vec2::new(0.001, 0.001),
    );
    let mut found = None;
    let _ = world.overlap_aabb(tiny, i2::QueryFilter::default(), |shape| {
        let Ok(s) = world.shape(shape) else {
            return true;
        };
        let dynamic = world
            .body(s.body())
            .is_ok_and(|b| b.body_type() == i2::BodyType::Dynamic);
        if dynamic && s.test_point(point).unwrap_or(false) {
            found = Some(s.body());
            return false;
        }
        true
    });
    found
}
