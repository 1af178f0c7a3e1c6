//! Continuous collision: fast bodies are swept against static geometry so that
//! they cannot tunnel through thin walls.
//!
//! A dynamic body is *fast* when it moved more than half its smallest extent in
//! a step. Its motion from the start to the end of the step is swept against
//! every static shape in the bounding box of the sweep; when time of impact
//! finds a hit, the body is moved back to the pose at that time (its velocity
//! is kept, and the next step's speculative contact stops it). A hit with a
//! shape that asked for pre-solve events is first shown to the pre-solve
//! callback, which may reject it (a one-way platform). Each fast body is
//! swept as soon as `finalize_bodies` has finalised it, in that stage's
//! blocks on the world's workers (as Box2D's `b2FinalizeBodiesTask` does):
//! it only meets static shapes, which no block writes, so the order does not
//! change results.
//!
//! Bullets are skipped here and swept afterwards against everything by
//! `bullet.rs`.
//!
//! # References
//! - E. Catto, *Continuous Collision*, GDC 2013; Box2D v3 `solver.c`
//!   (`b2SolveContinuous`).

use crate::body::{Body, BodySim, flags};
use crate::collision::DynamicTree;
use crate::collision::{ShapeProxy, ToiInput, time_of_impact};
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::filter::{CustomFilter, PreSolve};
use crate::id::NULL_INDEX;
use crate::joint::{JointStorage, bodies_allow_collision};
use crate::math::{PI, Rot, Sweep, Transform, Vec2, atan2};
use crate::pos::{Pos, WorldTransform, offset_transform, relative_to, sweep_base};
use crate::shape::{Shape, ShapeGeometry, speculative_aabb};
use crate::solver::solver_set::{STATIC_SET, SolverSet};
use crate::workers::SharedMut;

/// A fast body is swept when it moved more than this fraction of its
/// smallest extent in one step.
pub(crate) const SAFETY_FACTOR: f32 = 0.5;

/// When time of impact reports an initial overlap, a circle of this fraction of
/// the smallest extent around the shape's centroid is swept instead.
pub(crate) const CORE_FRACTION: f32 = 0.25;

/// The distance proxy of a shape, in its body's frame.
pub(crate) fn make_shape_proxy(geometry: &ShapeGeometry) -> ShapeProxy {
    let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let (count, radius) = match geometry {
        ShapeGeometry::Circle(c) => {
            points[0] = c.center;
            (1, c.radius)
        }
        ShapeGeometry::Capsule(c) => {
            points[0] = c.center1;
            points[1] = c.center2;
            (2, c.radius)
        }
        ShapeGeometry::Polygon(p) => {
            points[..p.count()].copy_from_slice(p.vertices());
            (p.count(), p.radius())
        }
        ShapeGeometry::Segment(s) => {
            points[0] = s.point1;
            points[1] = s.point2;
            (2, 0.0)
        }
        ShapeGeometry::ChainSegment(c) => {
            points[0] = c.segment.point1;
            points[1] = c.segment.point2;
            (2, 0.0)
        }
    };
    ShapeProxy {
        points,
        count,
        radius,
    }
}

/// How far a body turned over a step, radians: the angle from its start to its
/// end rotation (`relative`, in `[−π, π]`) plus the whole turns that make it
/// nearest to what its final angular velocity `w` (rad/s) turns in `sub_steps`
/// substeps of `h` seconds. A substep turns the rotation by `atan(h·w)`
/// (`Rot::integrate` normalises `q + h·w·q⊥`), so a body spinning faster than
/// half a turn per step is swept the long way round, as it moved.
pub(crate) fn step_angle(relative: f32, w: f32, h: f32, sub_steps: u32) -> f32 {
    let estimate = sub_steps as f32 * atan2(h * w, 1.0);
    let two_pi = 2.0 * PI;
    let turns = ((estimate - relative) / two_pi + 0.5).floor();
    if turns.is_finite() {
        relative + two_pi * turns
    } else {
        relative
    }
}

/// The motion of a body over the last step (see [`step_angle`]), relative to
/// `base` (see [`sweep_base`]).
pub(crate) fn body_sweep(sim: &BodySim, base: Pos) -> Sweep {
    let a1 = sim.rotation0.angle();
    Sweep {
        local_center: sim.local_center,
        c1: sim.center0 - base,
        c2: sim.center - base,
        a1,
        a2: a1 + sim.angle_delta,
    }
}

/// A fast body's motion over the step, for time of impact. large-world: in
/// f32 relative to the start centre `base`.
pub(crate) struct FastMotion {
    /// The start centre ([`sweep_base`]).
    pub base: Pos,
    /// The sweep relative to `base`.
    pub sweep: Sweep,
    /// The transforms at the start and at the end, relative to `base`.
    pub xf1: Transform,
    pub xf2: Transform,
    /// The transform at the end, in the world.
    pub world_xf2: WorldTransform,
}

impl FastMotion {
    #[inline(always)]
    pub(crate) fn of(sim: &BodySim) -> FastMotion {
        let base = sweep_base(sim.center0);
        FastMotion::with_sweep(sim, base, body_sweep(sim, base))
    }

    /// [`of`](Self::of) with the sweep's angles left at 0: they cost two
    /// arc tangents, which only a sweep that meets a candidate needs (see
    /// [`SweepAngles`]).
    #[inline(always)]
    pub(crate) fn without_angles(sim: &BodySim) -> FastMotion {
        let base = sweep_base(sim.center0);
        let sweep = Sweep {
            local_center: sim.local_center,
            c1: sim.center0 - base,
            c2: sim.center - base,
            a1: 0.0,
            a2: 0.0,
        };
        FastMotion::with_sweep(sim, base, sweep)
    }

    #[inline(always)]
    fn with_sweep(sim: &BodySim, base: Pos, sweep: Sweep) -> FastMotion {
        let q1 = sim.rotation0;
        FastMotion {
            base,
            sweep,
            xf1: Transform::new(sweep.c1 - q1.rotate(sweep.local_center), q1),
            xf2: relative_to(sim.transform, base),
            world_xf2: sim.transform,
        }
    }

    /// Whether a fast shape whose centroid moves from `c1` to `c2` (relative
    /// to `base`) passes by shape `other` (whose body is at `other_xf`) when
    /// that is a chain segment: a chain segment is one-sided, and motion that
    /// starts behind it, or that barely moves into it (less than a core
    /// fraction of `min_extent`, metres), does not hit it. False for other
    /// shapes.
    #[inline(always)]
    pub(crate) fn skips_chain_segment(
        &self,
        other: &Shape,
        other_xf: WorldTransform,
        (c1, c2): (Vec2, Vec2),
        min_extent: f32,
    ) -> bool {
        let ShapeGeometry::ChainSegment(cs) = &other.geometry else {
            return false;
        };
        let xf = relative_to(other_xf, self.base);
        let p1 = xf.apply(cs.segment.point1);
        let p2 = xf.apply(cs.segment.point2);
        let (e, length) = (p2 - p1).get_length_and_normalize();
        if length <= LINEAR_SLOP {
            return false;
        }
        let s1 = (c1 - p1).cross(e);
        let s2 = (c2 - p1).cross(e);
        let core_distance = CORE_FRACTION * min_extent;
        s1 < 0.0 || (s1 - s2 < core_distance && s2 > core_distance)
    }
}

/// What a fast non-bullet body's sweep needs to work out its angles (see
/// [`step_angle`]), when it meets a candidate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SweepAngles {
    /// The body's final angular velocity, rad/s.
    pub w: f32,
    /// The substep, s, and the substep count.
    pub h: f32,
    pub sub_steps: u32,
}

impl SweepAngles {
    /// The sweep's start angle and how far the body turned (`step_angle`),
    /// radians, as `body_sweep` and `finalize_bodies` work them out.
    #[inline(always)]
    fn of(&self, sim_rotation0: Rot, final_q: Rot) -> (f32, f32) {
        let delta = step_angle(
            sim_rotation0.relative_angle(final_q),
            self.w,
            self.h,
            self.sub_steps,
        );
        (sim_rotation0.angle(), delta)
    }
}

/// A body that does not move, relative to `base`.
pub(crate) fn static_sweep(sim: &BodySim, base: Pos) -> Sweep {
    let a = sim.transform.q.angle();
    Sweep {
        local_center: sim.local_center,
        c1: sim.center - base,
        c2: sim.center - base,
        a1: a,
        a2: a,
    }
}

/// Whether a fast body should be swept: it moved more than `safety_factor`
/// (the body's, default [`SAFETY_FACTOR`]) of its smallest extent.
#[inline]
pub(crate) fn is_fast(max_motion: f32, safety_factor: f32, sim: &BodySim) -> bool {
    max_motion > safety_factor * sim.min_extent
}

/// What sweeping a fast body against static shapes reads besides the body
/// itself: shared by the blocks of `finalize_bodies` (`solver/mod.rs`), which
/// sweep each fast non-bullet body as they finalize it.
pub(crate) struct StaticSweep<'a> {
    /// The static bodies' sims (their transforms).
    pub static_set: &'a SolverSet,
    /// The broad phase's static tree.
    pub static_tree: &'a DynamicTree,
    /// Joints that may keep a body from colliding with a static one.
    pub joints: &'a JointStorage,
    pub custom_filter: CustomFilter<'a>,
    pub pre_solve: PreSolve<'a>,
}

/// A fast body's shape as its sweep sees it.
pub(crate) struct SweptShape {
    /// The shape's index.
    index: u32,
    /// Its distance proxy, body frame.
    proxy: ShapeProxy,
    /// Its centroid, body frame, metres.
    centroid: Vec2,
    /// The body's motion over the step, relative to `base`.
    sweep: Sweep,
    /// The world point the sweep is relative to ([`sweep_base`]).
    base: Pos,
}

impl SweptShape {
    pub(crate) fn new(index: u32, shape: &Shape, sweep: Sweep, base: Pos) -> SweptShape {
        SweptShape {
            index,
            proxy: make_shape_proxy(&shape.geometry),
            centroid: shape.geometry.centroid(),
            sweep,
            base,
        }
    }

    /// The fraction of the step at which this shape first reaches shape
    /// `other` (whose body is `other_sim`, taken at its final pose), if that
    /// is sooner than `fraction` and the pre-solve callback lets the hit
    /// stand; otherwise `fraction`.
    ///
    /// When the shapes start out touching, a circle around the centroid (of
    /// [`CORE_FRACTION`] of the shape's smallest extent) is swept instead, so
    /// that a body resting against a surface can still be caught.
    /// `other` is (index, shape) and `fast` this shape.
    pub(crate) fn first_hit(
        &self,
        (other, other_shape): (u32, &Shape),
        fast: &Shape,
        other_sim: &BodySim,
        pre_solve: &PreSolve,
        fraction: f32,
    ) -> f32 {
        let mut input = ToiInput {
            proxy_a: make_shape_proxy(&other_shape.geometry),
            proxy_b: self.proxy,
            sweep_a: static_sweep(other_sim, self.base),
            sweep_b: self.sweep,
            max_fraction: fraction,
        };
        let mut t = time_of_impact(&input).fraction;
        if t == 0.0 {
            let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
            points[0] = self.centroid;
            // (Worked out only here: few sweeps start out touching.)
            let core_radius = CORE_FRACTION * fast.extent(self.centroid).0;
            input.proxy_b = ShapeProxy {
                points,
                count: 1,
                radius: core_radius,
            };
            t = time_of_impact(&input).fraction;
        }
        let (hit, swept) = ((other, other_shape), (self.index, fast));
        #[cfg(not(feature = "large-world"))]
        if 0.0 < t && t < fraction && pre_solve.allows_impact(hit, swept, &input, t) {
            t
        } else {
            fraction
        }
        #[cfg(feature = "large-world")]
        if 0.0 < t && t < fraction && pre_solve.allows_impact(hit, swept, &input, t, self.base) {
            t
        } else {
            fraction
        }
    }
}

/// Sweeps fast non-bullet body `sim` (body `body`, whose shapes start at
/// `body.head_shape_id`) against the static shapes near its path and moves
/// it back to its first time of impact, if any; makes its end pose the next
/// step's start and updates its shapes' boxes. Returns whether one of its
/// shapes' fat boxes grew. The sweep's angles (and `sim.angle_delta`) are
/// worked out from `angles` only when a candidate passes the filters.
///
/// `finalize_bodies` runs it in its blocks (as Box2D's
/// `b2FinalizeBodiesTask` calls `b2SolveContinuous`), so it reaches the
/// shapes and bodies element by element: it writes only this body's shapes
/// (which belong to the caller's block) and reads besides them only static
/// shapes and bodies, which no block writes.
/// Not inlined: one build serves every SIMD path (the results are the same
/// bits on each).
#[allow(unsafe_code)]
#[inline(never)]
pub(crate) fn sweep_body(
    sim: &mut BodySim,
    (body_id, body): (u32, &Body),
    shapes: &SharedMut<Shape>,
    bodies: &SharedMut<Body>,
    sweep: &StaticSweep,
    angles: SweepAngles,
) -> bool {
    let StaticSweep {
        static_set,
        static_tree: tree,
        joints,
        custom_filter,
        pre_solve,
    } = sweep;
    let mut motion = FastMotion::without_angles(sim);
    let min_extent = sim.min_extent;
    let (rotation0, final_q) = (sim.rotation0, sim.transform.q);
    // (start angle, turn), once a candidate needs them.
    let mut turn: Option<(f32, f32)> = None;

    let mut fraction = 1.0f32;
    let mut shape_id = body.head_shape_id;
    while shape_id != NULL_INDEX {
        // SAFETY: a shape belongs to one body, and this body to the caller's
        // block; no other reference to it lives meanwhile.
        let shape = unsafe { shapes.get(shape_id as usize) };
        let next = shape.next_shape_id;
        // The box at the start of the step (finalisation leaves it there for
        // fast bodies) and at the end, which the shape keeps unless the body
        // is moved back below.
        let box1 = shape.aabb;
        let box2 = speculative_aabb(&shape.geometry, motion.world_xf2);
        shape.aabb = box2;
        if shape.is_sensor {
            shape_id = next;
            continue;
        }
        let fast_shape = &*shape;
        let swept_box = box1.union(&box2);
        // Made for the first candidate that passes the filters (most sweeps
        // meet none).
        let mut swept: Option<(SweptShape, (Vec2, Vec2))> = None;

        tree.query(swept_box, u64::MAX, |_, user_data| {
            let other_id = user_data as u32;
            // SAFETY: the static tree holds only static bodies' shapes,
            // which no block of `finalize_bodies` writes.
            let other = unsafe { shapes.get_shared(other_id as usize) };
            if other.body_id == body_id
                || other.is_sensor
                || !fast_shape.filter.should_collide(&other.filter)
                || !custom_filter.allows_pair((shape_id, fast_shape), (other_id, other))
            {
                return true;
            }
            // SAFETY: a static shape's body is static, and no block writes
            // static bodies.
            let other_body = unsafe { bodies.get_shared(other.body_id as usize) };
            debug_assert_eq!(other_body.set_index, STATIC_SET);
            let pair = ((body_id, body), (other.body_id, other_body));
            if !bodies_allow_collision(joints, pair.0, pair.1) {
                return true;
            }
            let other_sim = &static_set.body_sims[other_body.local_index as usize];

            let (swept, centroids) = swept.get_or_insert_with(|| {
                let (a1, delta) = *turn.get_or_insert_with(|| angles.of(rotation0, final_q));
                let sweep = Sweep {
                    a1,
                    a2: a1 + delta,
                    ..motion.sweep
                };
                let swept = SweptShape::new(shape_id, fast_shape, sweep, motion.base);
                let c = swept.centroid;
                (swept, (motion.xf1.apply(c), motion.xf2.apply(c)))
            });
            if motion.skips_chain_segment(other, other_sim.transform, *centroids, min_extent) {
                return true;
            }

            let other = (other_id, other);
            fraction = swept.first_hit(other, fast_shape, other_sim, pre_solve, fraction);
            true
        });
        shape_id = next;
    }

    if let Some((a1, delta)) = turn {
        sim.angle_delta = delta;
        motion.sweep.a1 = a1;
        motion.sweep.a2 = a1 + delta;
    }
    // (A hit means a candidate passed the filters, so the angles are set.)
    let moved_back = fraction < 1.0;
    if moved_back {
        sim.transform = offset_transform(motion.sweep.transform_at(fraction), motion.base);
        sim.center = sim.transform.apply(sim.local_center);
        sim.flags |= flags::HAD_TIME_OF_IMPACT;
    }
    let mut enlarged = false;
    let mut shape_id = body.head_shape_id;
    while shape_id != NULL_INDEX {
        // SAFETY: as above, this body's shape belongs to the caller's block.
        let shape = unsafe { shapes.get(shape_id as usize) };
        if moved_back {
            shape.aabb = speculative_aabb(&shape.geometry, sim.transform);
        } // else the boxes at the end pose are in place already
        enlarged |= grow_fat_aabb(shape);
        shape_id = shape.next_shape_id;
    }
    sim.center0 = sim.center;
    sim.rotation0 = sim.transform.q;
    enlarged
}

/// Recomputes the boxes of a body's shapes (the list from `head_shape_id`)
/// at its final transform `xf`; a box that left its fat box gets a new fat
/// box and is marked enlarged. Whether any was enlarged.
#[inline(always)]
pub(crate) fn refresh_shape_aabbs(
    shapes: &mut [Shape],
    head_shape_id: u32,
    xf: WorldTransform,
) -> bool {
    let mut enlarged = false;
    let mut shape_id = head_shape_id;
    while shape_id != NULL_INDEX {
        let shape = &mut shapes[shape_id as usize];
        shape.aabb = speculative_aabb(&shape.geometry, xf);
        enlarged |= grow_fat_aabb(shape);
        shape_id = shape.next_shape_id;
    }
    enlarged
}

/// Gives a shape whose box left its fat box a new fat box and marks it
/// enlarged. Whether it was enlarged.
#[inline(always)]
pub(crate) fn grow_fat_aabb(shape: &mut Shape) -> bool {
    if shape.fat_aabb.contains(&shape.aabb) {
        return false;
    }
    shape.fat_aabb = shape.aabb.fattened(shape.aabb_margin);
    shape.enlarged_aabb = true;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_angle_takes_the_long_way_round_when_the_body_spun_that_far() {
        // Four substeps of 1/240 s; a substep turns by atan(h·w).
        let (h, n) = (1.0 / 240.0, 4);
        for turn_per_substep in [0.3f32, 1.0, 1.4] {
            let w = turn_per_substep.tan() / h;
            let total = n as f32 * turn_per_substep;
            // What the rotations alone say: the total wrapped into [−π, π].
            let relative = Rot::from_angle(0.0).relative_angle(Rot::from_angle(total));
            let got = step_angle(relative, w, h, n);
            assert!((got - total).abs() < 1e-4, "{got} vs {total}");
            // And spinning the other way.
            let got = step_angle(-relative, -w, h, n);
            assert!((got + total).abs() < 1e-4, "{got} vs {}", -total);
        }
    }
}
