//! World settings at run time: the `b2World_*` switches and tuning values.
//!
//! Each setter checks its numbers first and changes nothing when one is bad;
//! the step reads the settings afresh, so a change takes effect at the next
//! [`World::step`]. The values are also in [`World::settings`].

use crate::collision::Aabb;
use crate::error::{Result, check_finite_vec, check_non_negative, check_positive};
use crate::id::NULL_INDEX;
use crate::math::Vec2;
use crate::solver::solver_set::AWAKE_SET;
use crate::workers::Workers;
use crate::world::{World, check_worker_count};

/// Declares world settings getters and setters, one row each (the rows of
/// `part_view!` in api/joint.rs): `fn name(&self) -> T = field;` reads
/// `settings.field`; `fn set_name(&mut self, v: T) = field, check("what");`
/// checks `v` (the error names `what`; nothing changes) and stores it;
/// `fn enable_name(&mut self, v: T) = field;` stores `v`. The step reads the
/// settings afresh, so a change takes effect at the next step.
macro_rules! settings {
    () => {};

    ($(#[$doc:meta])* fn $f:ident(&self) -> $ty:ty = $field:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $f(&self) -> $ty {
            self.settings.$field
        }

        settings!($($rest)*);
    };

    (
        $(#[$doc:meta])*
        fn $f:ident(&mut self, $v:ident: $ty:ty) = $field:ident, $check:ident($what:literal);
        $($rest:tt)*
    ) => {
        $(#[$doc])*
        pub fn $f(&mut self, $v: $ty) -> Result<()> {
            $check($v, $what)?;
            self.settings.$field = $v;
            Ok(())
        }

        settings!($($rest)*);
    };

    ($(#[$doc:meta])* fn $f:ident(&mut self, $v:ident: $ty:ty) = $field:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $f(&mut self, $v: $ty) {
            self.settings.$field = $v;
        }

        settings!($($rest)*);
    };
}

impl World {
    settings! {
        /// Gravity, m/s².
        ///
        /// Box2D: `b2World_GetGravity`.
        fn gravity(&self) -> Vec2 = gravity;
        /// Changes gravity (m/s²). Sleeping bodies stay asleep until something wakes them.
        ///
        /// Box2D: `b2World_SetGravity`.
        fn set_gravity(&mut self, gravity: Vec2) = gravity, check_finite_vec("gravity");
        /// Whether bodies may fall asleep.
        ///
        /// Box2D: `b2World_IsSleepingEnabled`.
        fn is_sleeping_enabled(&self) -> bool = enable_sleep;
        /// Turns continuous collision (fast bodies swept against static shapes) on
        /// or off. Bullets are swept against everything either way.
        ///
        /// Box2D: `b2World_EnableContinuous`.
        fn enable_continuous(&mut self, enable: bool) = enable_continuous;
        /// Whether continuous collision is on.
        ///
        /// Box2D: `b2World_IsContinuousEnabled`.
        fn is_continuous_enabled(&self) -> bool = enable_continuous;
        /// Turns warm starting on or off: with it off, every step's contact and
        /// joint impulses start from zero instead of the last step's. For studying
        /// the solver; stacks sag without it.
        ///
        /// Box2D: `b2World_EnableWarmStarting`.
        fn enable_warm_starting(&mut self, enable: bool) = enable_warm_starting;
        /// Whether warm starting is on.
        ///
        /// Box2D: `b2World_IsWarmStartingEnabled`.
        fn is_warm_starting_enabled(&self) -> bool = enable_warm_starting;
        /// Turns speculative contact points on or off (see
        /// [`WorldDef::enable_speculative`](crate::WorldDef::enable_speculative)).
        /// For testing the solver; games keep it on.
        ///
        /// Box2D: `b2World_EnableSpeculative`.
        fn enable_speculative(&mut self, enable: bool) = enable_speculative;
        /// Whether speculative contact points are kept.
        fn is_speculative_enabled(&self) -> bool = enable_speculative;
        /// Turns contact softening between bodies of unequal mass on or off (see
        /// [`WorldDef::enable_contact_softening`](crate::WorldDef::enable_contact_softening);
        /// Box2D sets it only in the world definition). Takes effect at the next step.
        fn enable_contact_softening(&mut self, enable: bool) = enable_contact_softening;
        /// Whether contacts between bodies of unequal mass are softened.
        fn is_contact_softening_enabled(&self) -> bool = enable_contact_softening;
        /// Sets the approach speed below which contacts do not bounce, m/s (≥ 0).
        /// Small values keep bodies from coming to rest.
        ///
        /// Box2D: `b2World_SetRestitutionThreshold`.
        fn set_restitution_threshold(&mut self, speed: f32) = restitution_threshold, check_non_negative("restitution threshold");
        /// The approach speed below which contacts do not bounce, m/s.
        ///
        /// Box2D: `b2World_GetRestitutionThreshold`.
        fn restitution_threshold(&self) -> f32 = restitution_threshold;
        /// Sets the approach speed above which a contact reports a hit event, m/s
        /// (≥ 0; shapes opt in with `ShapeDef::enable_hit_events`).
        ///
        /// Box2D: `b2World_SetHitEventThreshold`.
        fn set_hit_event_threshold(&mut self, speed: f32) = hit_event_threshold, check_non_negative("hit event threshold");
        /// The approach speed above which a contact reports a hit event, m/s.
        ///
        /// Box2D: `b2World_GetHitEventThreshold`.
        fn hit_event_threshold(&self) -> f32 = hit_event_threshold;
        /// Sets the contact recycling distance, metres (≥ 0; 0 turns recycling
        /// off): see [`WorldDef::contact_recycle_distance`](crate::WorldDef::contact_recycle_distance).
        ///
        /// Box2D: `b2World_SetContactRecycleDistance`.
        fn set_contact_recycle_distance(&mut self, distance: f32) = contact_recycle_distance, check_non_negative("contact recycle distance");
        /// The contact recycling distance, metres.
        ///
        /// Box2D: `b2World_GetContactRecycleDistance`.
        fn contact_recycle_distance(&self) -> f32 = contact_recycle_distance;
        /// Sets the largest speed of any body, m/s (finite, > 0).
        ///
        /// Box2D: `b2World_SetMaximumLinearSpeed`.
        fn set_maximum_linear_speed(&mut self, speed: f32) = maximum_linear_speed, check_positive("maximum linear speed");
        /// The largest speed of any body, m/s.
        ///
        /// Box2D: `b2World_GetMaximumLinearSpeed`.
        fn maximum_linear_speed(&self) -> f32 = maximum_linear_speed;
        /// Sets the application's value kept with the world.
        ///
        /// Box2D: `b2World_SetUserData`.
        fn set_user_data(&mut self, user_data: u64) = user_data;
        /// The application's value kept with the world (0 unless set).
        ///
        /// Box2D: `b2World_GetUserData`.
        fn user_data(&self) -> u64 = user_data;
    }

    /// Sets the contact stiffness (Hz, ≥ 0; capped at a quarter of the substep
    /// rate), its damping ratio (≥ 0) and the largest speed at which
    /// overlapping shapes are pushed apart (m/s, ≥ 0).
    ///
    /// Box2D: `b2World_SetContactTuning`.
    pub fn set_contact_tuning(
        &mut self,
        hertz: f32,
        damping_ratio: f32,
        push_max_velocity: f32,
    ) -> Result<()> {
        check_non_negative(hertz, "contact hertz")?;
        check_non_negative(damping_ratio, "contact damping ratio")?;
        check_non_negative(push_max_velocity, "contact push max velocity")?;
        self.settings.contact_hertz = hertz;
        self.settings.contact_damping_ratio = damping_ratio;
        self.settings.contact_push_max_velocity = push_max_velocity;
        Ok(())
    }

    /// Sets the stiffness (Hz, ≥ 0) and damping ratio (≥ 0) of joints that do
    /// not set their own (see [`WorldDef::joint_hertz`](crate::WorldDef::joint_hertz)).
    pub fn set_joint_tuning(&mut self, hertz: f32, damping_ratio: f32) -> Result<()> {
        check_non_negative(hertz, "joint hertz")?;
        check_non_negative(damping_ratio, "joint damping ratio")?;
        self.settings.joint_hertz = hertz;
        self.settings.joint_damping_ratio = damping_ratio;
        Ok(())
    }

    /// How many bodies are awake.
    ///
    /// Box2D: `b2World_GetAwakeBodyCount`.
    pub fn awake_body_count(&self) -> usize {
        self.solver_sets[AWAKE_SET as usize].body_sims.len()
    }

    /// The number of threads that run a step's parallel stages, the calling
    /// thread included.
    ///
    /// Box2D: `b2World_GetWorkerCount`.
    pub fn worker_count(&self) -> usize {
        self.workers.count()
    }

    /// Changes the number of threads that run a step's parallel stages (1 to
    /// [`MAX_WORKERS`](crate::MAX_WORKERS)): the helper threads stop and `count − 1` new ones
    /// start. Results are the same bits on any count. On WebAssembly without
    /// threads (`wasm32-unknown-unknown`) the count stays 1 (see
    /// [`WorldDef::worker_count`](crate::WorldDef::worker_count)).
    ///
    /// # Errors
    /// A count of 0 or above [`MAX_WORKERS`](crate::MAX_WORKERS), or threads that cannot start
    /// (then the world keeps its workers).
    ///
    /// Box2D: `b2World_SetWorkerCount`.
    pub fn set_worker_count(&mut self, count: usize) -> Result<()> {
        check_worker_count(count)?;
        if count != self.workers.count() {
            self.workers = Workers::new(count)?;
        }
        self.settings.worker_count = count;
        Ok(())
    }

    /// Rebuilds the broad phase's tree of static shapes from scratch (a
    /// binned surface-area build), which can make queries against many static
    /// shapes created one by one faster. Changes no simulation result.
    ///
    /// Box2D: `b2World_RebuildStaticTree`.
    pub fn rebuild_static_tree(&mut self) {
        self.broad_phase.rebuild_static_tree();
    }

    /// The smallest box holding every shape's bounding box, world frame,
    /// metres; `None` when the world has no shape. (Box2D's bounds are the
    /// broad-phase trees' fattened boxes; these are the shapes' own.)
    ///
    /// Box2D: `b2World_GetBounds`.
    pub fn bounds(&self) -> Option<Aabb> {
        self.shapes
            .iter()
            .filter(|s| s.id != NULL_INDEX)
            .map(|s| s.aabb)
            .reduce(|a, b| a.union(&b))
            .map(crate::pos::to_aabb)
    }
}

#[cfg(test)]
mod tests {
    use crate::collision::{Aabb, make_box};
    use crate::math::Vec2;
    use crate::test_build as build;
    use crate::{BodyDef, BodyType, QueryFilter, ShapeDef, World, WorldDef};

    /// A row of 200 static boxes created left to right: rebuilding the static
    /// tree keeps it valid and balanced (height at most twice ⌈log₂ 200⌉ = 16)
    /// and no higher than before, and queries find the same shapes.
    #[test]
    fn rebuilding_the_static_tree_keeps_queries_and_balances_it() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        for i in 0..200 {
            let body = world
                .create_body(&BodyDef {
                    position: crate::pos::to_pos(Vec2::new(i as f32, 0.0)),
                    ..Default::default()
                })
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.4, 0.4).unwrap())
                .unwrap();
        }
        let query = Aabb::new(Vec2::new(10.5, -1.0), Vec2::new(20.5, 1.0));
        let found = |world: &World| {
            let mut ids = Vec::new();
            world
                .overlap_aabb(query, QueryFilter::default(), |id| {
                    ids.push(id);
                    true
                })
                .unwrap();
            ids.sort_by_key(|id| id.index());
            ids
        };
        let before = found(&world);
        // Boxes 11 to 20 overlap x ∈ [10.5, 20.5] (box i spans i ± 0.4).
        assert_eq!(before.len(), 10);
        let height_before = world.broad_phase.tree(BodyType::Static).height();
        world.rebuild_static_tree();
        let tree = world.broad_phase.tree(BodyType::Static);
        tree.validate().unwrap();
        assert!(
            tree.height() <= height_before,
            "{} > {height_before}",
            tree.height()
        );
        assert!(tree.height() <= 16, "height {}", tree.height());
        assert_eq!(found(&world), before);
    }

    /// A pile of boxes of two user materials with friction and restitution
    /// mixed by material: the wide (eight lanes) and scalar solvers, and one
    /// or two workers, give the same bits.
    #[test]
    fn mixing_callbacks_agree_across_wide_scalar_and_threads() {
        let run = |wide: bool, workers: usize| {
            let mut world = World::new(&WorldDef {
                worker_count: workers,
                ..Default::default()
            })
            .unwrap();
            world.use_wide_solver = wide;
            world.set_friction_callback(|fa, a, fb, b| if a == b { fa.max(fb) } else { 0.1 });
            world
                .set_restitution_callback(|ra, a, rb, b| if a + b == 1 { 0.3 } else { ra.min(rb) });
            build::box_body(&mut world, BodyType::Static, Vec2::ZERO, 20.0, 1.0);
            let square = make_box(0.4, 0.4).unwrap();
            let bodies: Vec<_> = (0..48)
                .map(|i| {
                    let position = Vec2::new((i % 6) as f32 * 0.9 - 2.5, 2.0 + (i / 6) as f32);
                    let body = build::body(&mut world, BodyType::Dynamic, position);
                    let def = ShapeDef {
                        user_material_id: (i % 2) as u64,
                        ..Default::default()
                    };
                    world.create_polygon_shape(body, &def, &square).unwrap();
                    body
                })
                .collect();
            for _ in 0..120 {
                world.step(1.0 / 60.0, 4).unwrap();
            }
            bodies
                .iter()
                .map(|&b| {
                    let p = world.body(b).unwrap().position();
                    (p.x.to_bits(), p.y.to_bits())
                })
                .collect::<Vec<_>>()
        };
        let reference = run(false, 1);
        assert_eq!(run(true, 1), reference);
        assert_eq!(run(true, 2), reference);
    }
}
