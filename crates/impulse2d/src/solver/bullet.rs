//! Continuous collision for bullets: fast bodies swept against everything.
//!
//! A bullet ([`BodyDef::is_bullet`](crate::BodyDef::is_bullet)) that moved
//! fast this step is swept, after the other fast bodies, against static,
//! kinematic and dynamic shapes. Non-bullet bodies are taken at their final
//! pose of the step (they have all been finalised, and ordinary fast bodies
//! already moved back by `continuous.rs`), so a bullet fired through a row of
//! thin boards stops at the first one, and the next step's speculative
//! contact makes it push the board. Two fast bullets are swept against each
//! other both moving (their sweeps over the step), and the first time they
//! touch stops both, so bullets crossing at any speed meet. Shapes the
//! collision filters, the custom filter or a joint keep from colliding are
//! not swept against, and a hit the pre-solve callback rejects is ignored.
//!
//! Every bullet's time of impact is found before any bullet is moved back (a
//! pair's time is the same for both, and each bullet takes its earliest), so
//! the order in which bullets are listed does not change the result.
//!
//! # References
//! - E. Catto, Box2D v3 `solver.c` (`b2SolveContinuous` with `isBullet`, and
//!   the bullet pass after the non-bullet continuous pass).

use crate::body::{BodySim, BodyType, flags};
use crate::collision::{ToiInput, time_of_impact};
use crate::id::NULL_INDEX;
use crate::joint::joint_allows_collision;
use crate::pos::{offset_transform, sweep_base};
use crate::shape::Shape;
use crate::shape::speculative_aabb;
use crate::solver::continuous::{
    FastMotion, SweptShape, body_sweep, make_shape_proxy, refresh_shape_aabbs,
};
use crate::solver::solver_set::AWAKE_SET;
use crate::world::World;

/// Sweeps the fast bullets listed in `world.scratch.fast_bullets` and moves
/// each back to its first time of impact; updates their shapes' boxes.
pub(crate) fn solve_bullets(world: &mut World) {
    let mut fractions = std::mem::take(&mut world.scratch.bullet_fractions);
    fractions.clear();
    let fast = &world.scratch.fast_bullets;
    // Against the non-bullets, at their final poses.
    for &sim_index in fast {
        debug_assert!(
            world.solver_sets[AWAKE_SET as usize].body_sims[sim_index as usize].flags
                & flags::IS_BULLET
                != 0
        );
        fractions.push(bullet_impact_fraction(world, sim_index as usize));
    }
    // Bullets against bullets, both moving.
    for k in 0..fast.len() {
        for j in k + 1..fast.len() {
            let t = bullet_pair_fraction(world, fast[k] as usize, fast[j] as usize);
            fractions[k] = fractions[k].min(t);
            fractions[j] = fractions[j].min(t);
        }
    }
    for (k, &fraction) in fractions.iter().enumerate() {
        let sim_index = world.scratch.fast_bullets[k] as usize;
        if finish_bullet(world, sim_index, fraction) {
            world.scratch.enlarged_bodies.set(sim_index as u32);
            // (Finalize skipped the bullet.)
            let body_id = world.solver_sets[AWAKE_SET as usize].body_sims[sim_index].body_id;
            let head = world.bodies[body_id as usize].head_shape_id;
            world.scratch.enlarged_proxies[sim_index] =
                crate::solver::EnlargedProxy::hand_over(head, &mut world.shapes[head as usize]);
        }
    }
    world.scratch.bullet_fractions = fractions;
}

/// The fraction of the step at which the bullet first hits a shape it may
/// collide with (1 when it hits nothing).
fn bullet_impact_fraction(world: &World, sim_index: usize) -> f32 {
    let sim = &world.solver_sets[AWAKE_SET as usize].body_sims[sim_index];
    let body = &world.bodies[sim.body_id as usize];
    let custom_filter = world.callbacks.custom_filter(world.world_number);
    let pre_solve = world.callbacks.pre_solve(world.world_number);
    let motion = FastMotion::of(sim);

    let mut fraction = 1.0f32;
    let mut shape_id = body.head_shape_id;
    while shape_id != NULL_INDEX {
        let fast_shape = &world.shapes[shape_id as usize];
        let this_id = shape_id;
        shape_id = fast_shape.next_shape_id;
        if fast_shape.is_sensor {
            continue;
        }
        let centroid = fast_shape.geometry.centroid();
        let centroid1 = motion.xf1.apply(centroid);
        let centroid2 = motion.xf2.apply(centroid);
        // The shape's box at the start of the step (finalisation left it
        // there for fast bodies) joined with its box at the end.
        let swept_box = fast_shape
            .aabb
            .union(&speculative_aabb(&fast_shape.geometry, motion.world_xf2));
        let swept = SweptShape::new(this_id, fast_shape, motion.sweep, motion.base);

        for body_type in [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic] {
            let tree = world.broad_phase.tree(body_type);
            tree.query(swept_box, u64::MAX, |_, user_data| {
                let other_id = user_data as u32;
                let other = &world.shapes[other_id as usize];
                if other.body_id == fast_shape.body_id
                    || other.is_sensor
                    || !fast_shape.filter.should_collide(&other.filter)
                    || !custom_filter.allows(&world.shapes, this_id, other_id)
                    || !joint_allows_collision(
                        &world.joints,
                        &world.shapes,
                        &world.bodies,
                        this_id,
                        other_id,
                    )
                {
                    return true;
                }
                let other_sim = world.body_sim(other.body_id as usize);
                let other_body = &world.bodies[other.body_id as usize];
                if other_sim.flags & flags::IS_BULLET != 0 && other_body.flags & flags::IS_FAST != 0
                {
                    return true; // swept against this one, both moving, below
                }
                let (centroids, min_extent) = ((centroid1, centroid2), sim.min_extent);
                if motion.skips_chain_segment(other, other_sim.transform, centroids, min_extent) {
                    return true;
                }
                let other = (other_id, other);
                fraction = swept.first_hit(other, fast_shape, other_sim, &pre_solve, fraction);
                true
            });
        }
    }
    fraction
}

/// The first time (fraction of the step) at which bullets `ia` and `ib`
/// (awake indices) touch while both move along their sweeps, or 1.
fn bullet_pair_fraction(world: &World, ia: usize, ib: usize) -> f32 {
    let awake = &world.solver_sets[AWAKE_SET as usize];
    let (sim_a, sim_b) = (&awake.body_sims[ia], &awake.body_sims[ib]);
    // large-world: both sweeps in f32 relative to A's start centre
    let base = sweep_base(sim_a.center0);
    let (sweep_a, sweep_b) = (body_sweep(sim_a, base), body_sweep(sim_b, base));
    let custom_filter = world.callbacks.custom_filter(world.world_number);
    let pre_solve = world.callbacks.pre_solve(world.world_number);
    let shapes = &world.shapes;
    let swept_box = |sim: &BodySim, shape: &Shape| {
        shape
            .aabb
            .union(&speculative_aabb(&shape.geometry, sim.transform))
    };
    let mut fraction = 1.0f32;
    let mut a = world.bodies[sim_a.body_id as usize].head_shape_id;
    while a != NULL_INDEX {
        let shape_a = &shapes[a as usize];
        let mut b = world.bodies[sim_b.body_id as usize].head_shape_id;
        while b != NULL_INDEX {
            let shape_b = &shapes[b as usize];
            let next_b = shape_b.next_shape_id;
            if shape_a.is_sensor
                || shape_b.is_sensor
                || !shape_a.filter.should_collide(&shape_b.filter)
                || !swept_box(sim_a, shape_a).overlaps(&swept_box(sim_b, shape_b))
                || !custom_filter.allows(shapes, a, b)
                || !joint_allows_collision(&world.joints, shapes, &world.bodies, a, b)
            {
                b = next_b;
                continue;
            }
            let input = ToiInput {
                proxy_a: make_shape_proxy(&shape_a.geometry),
                proxy_b: make_shape_proxy(&shape_b.geometry),
                sweep_a,
                sweep_b,
                max_fraction: 1.0,
            };
            let t = time_of_impact(&input).fraction;
            // Already touching at the start: the contact solver has them.
            let (hit, swept) = ((a, shape_a), (b, shape_b));
            #[cfg(not(feature = "large-world"))]
            if 0.0 < t && t < fraction && pre_solve.allows_impact(hit, swept, &input, t) {
                fraction = t;
            }
            #[cfg(feature = "large-world")]
            if 0.0 < t && t < fraction && pre_solve.allows_impact(hit, swept, &input, t, base) {
                fraction = t;
            }
            b = next_b;
        }
        a = shape_a.next_shape_id;
    }
    fraction
}

/// Moves the bullet back to `fraction` of its motion (when below 1), makes
/// the end pose the next step's start and refreshes its shapes' boxes.
/// Returns whether a fat box grew.
fn finish_bullet(world: &mut World, sim_index: usize, fraction: f32) -> bool {
    let World {
        solver_sets,
        bodies,
        shapes,
        ..
    } = world;
    let sim = &mut solver_sets[AWAKE_SET as usize].body_sims[sim_index];
    if fraction < 1.0 {
        let base = sweep_base(sim.center0);
        let sweep = body_sweep(sim, base);
        sim.transform = offset_transform(sweep.transform_at(fraction), base);
        sim.center = sim.transform.apply(sweep.local_center);
        sim.flags |= flags::HAD_TIME_OF_IMPACT;
    }
    sim.center0 = sim.center;
    sim.rotation0 = sim.transform.q;

    let xf = sim.transform;
    refresh_shape_aabbs(shapes, bodies[sim.body_id as usize].head_shape_id, xf)
}
