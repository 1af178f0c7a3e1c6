//! The world half of the mover toolkit: sweep a capsule mover through the
//! world ([`World::cast_mover`]) and gather the collision planes it touches
//! ([`World::collide_mover`]). The world-free half (planes, the plane solver,
//! velocity clipping) is in [`crate::collision`]; [`crate::character`] builds
//! a character controller on both.
//!
//! The work is done by functions over the stores they read (the broad-phase
//! trees, the shapes, the body transforms) through `MoverStores`; the `World`
//! methods only check the input and borrow those stores.
//!
//! # References
//! - E. Catto, Box2D v3.1 `world.c` (`b2World_CastMover`,
//!   `b2World_CollideMover`), `shape.c` (`b2CollideMover`, `b2ShapeCastShape`).

use crate::body::{Body, BodyType};
use crate::broad_phase::BroadPhase;
use crate::collision::{
    Capsule, PlaneResult, ShapeCastInput, ShapeCastPairInput, ShapeProxy,
    collide_mover_and_capsule, collide_mover_and_circle, collide_mover_and_polygon,
    collide_mover_and_segment, shape_cast,
};
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::error::{Error, Result, check_finite_vec};
use crate::id::ShapeId;
use crate::math::{Transform, Vec2};
use crate::query::QueryFilter;
use crate::shape::{Shape, ShapeGeometry};
use crate::solver::continuous::make_shape_proxy;
use crate::solver::solver_set::SolverSet;
use crate::world::World;

const TREE_ORDER: [BodyType; 3] = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic];

/// The world state the mover queries read, borrowed together.
#[derive(Clone, Copy)]
pub(crate) struct MoverStores<'a> {
    pub world_number: u16,
    pub bodies: &'a [Body],
    pub solver_sets: &'a [SolverSet],
    pub shapes: &'a [Shape],
    pub broad_phase: &'a BroadPhase,
}

impl<'a> MoverStores<'a> {
    /// Borrows the stores of `world`.
    pub fn of(world: &'a World) -> MoverStores<'a> {
        MoverStores {
            world_number: world.world_number,
            bodies: &world.bodies,
            solver_sets: &world.solver_sets,
            shapes: &world.shapes,
            broad_phase: &world.broad_phase,
        }
    }

    /// The transform of the body that owns shape `shape`.
    fn shape_transform(&self, shape: &Shape) -> Transform {
        let body = &self.bodies[shape.body_id as usize];
        // large-world: movers work in f32 world coordinates
        crate::pos::to_transform(
            self.solver_sets[body.set_index as usize].body_sims[body.local_index as usize]
                .transform,
        )
    }

    fn shape_id(&self, index: u32) -> ShapeId {
        ShapeId {
            index,
            world: self.world_number,
            generation: self.shapes[index as usize].generation,
        }
    }
}

/// Checks a mover: finite, radius above two linear slops (Box2D's requirement:
/// the cast keeps a slop of overlap and needs room for it).
pub(crate) fn check_mover(mover: &Capsule) -> Result<()> {
    check_finite_vec(mover.center1, "mover center1")?;
    check_finite_vec(mover.center2, "mover center2")?;
    if !mover.radius.is_finite() {
        return Err(Error::NonFinite {
            what: "mover radius",
        });
    }
    if mover.radius <= 2.0 * LINEAR_SLOP {
        return Err(Error::OutOfRange {
            what: "mover radius",
            expected: "more than two linear slops (0.01 m)",
            value: mover.radius,
        });
    }
    Ok(())
}

fn mover_proxy(mover: &Capsule) -> ShapeProxy {
    let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    points[0] = mover.center1;
    points[1] = mover.center2;
    ShapeProxy {
        points,
        count: 2,
        radius: mover.radius,
    }
}

/// The collision plane between a world-frame mover and one shape at
/// `transform`; the normal and the point come back in the world frame.
///
/// Box2D: `b2CollideMover` (which leaves the point in the shape's frame; ours
/// is in the world frame, as its documentation says).
pub(crate) fn collide_mover_with_shape(
    mover: &Capsule,
    geometry: &ShapeGeometry,
    transform: Transform,
) -> PlaneResult {
    let local = Capsule {
        center1: transform.apply_inv(mover.center1),
        center2: transform.apply_inv(mover.center2),
        radius: mover.radius,
    };
    let mut result = match geometry {
        ShapeGeometry::Capsule(c) => collide_mover_and_capsule(&local, c),
        ShapeGeometry::Circle(c) => collide_mover_and_circle(&local, c),
        ShapeGeometry::Polygon(p) => collide_mover_and_polygon(&local, p),
        ShapeGeometry::Segment(s) => collide_mover_and_segment(&local, s),
        ShapeGeometry::ChainSegment(c) => collide_mover_and_segment(&local, &c.segment),
    };
    if result.hit {
        result.plane.normal = transform.q.rotate(result.plane.normal);
        result.point = transform.apply(result.point);
    }
    result
}

/// Calls `callback(shape, plane)` for every shape `filter` accepts that the
/// mover touches, with a unit normal; the callback returns `false` to stop.
pub(crate) fn collide_mover_in(
    stores: MoverStores<'_>,
    mover: &Capsule,
    filter: QueryFilter,
    mut callback: impl FnMut(ShapeId, &PlaneResult) -> bool,
) {
    let r = Vec2::new(mover.radius, mover.radius);
    let bounds = crate::collision::Aabb::new(
        mover.center1.min(mover.center2) - r,
        mover.center1.max(mover.center2) + r,
    );
    let mut go_on = true;
    for body_type in TREE_ORDER {
        stores
            .broad_phase
            .tree(body_type)
            .query(bounds, filter.mask_bits, |_, data| {
                let index = data as u32;
                let shape = &stores.shapes[index as usize];
                if shape.is_sensor || !filter.accepts(&shape.filter) {
                    return true;
                }
                let result =
                    collide_mover_with_shape(mover, &shape.geometry, stores.shape_transform(shape));
                if result.hit && result.plane.normal.is_normalized() {
                    go_on = callback(stores.shape_id(index), &result);
                }
                go_on
            });
        if !go_on {
            break;
        }
    }
}

/// Whether a one-sided chain segment faces away from a proxy (its points'
/// mean is behind the segment), in the segment's frame.
pub(crate) fn behind_chain_segment(geometry: &ShapeGeometry, local_points: &[Vec2]) -> bool {
    let ShapeGeometry::ChainSegment(chain) = geometry else {
        return false;
    };
    let mut centroid = Vec2::ZERO;
    for &p in local_points {
        centroid += p;
    }
    centroid *= 1.0 / local_points.len() as f32;
    let edge = chain.segment.point2 - chain.segment.point1;
    (centroid - chain.segment.point1).cross(edge) < 0.0
}

/// The fraction of `translation` the mover can travel before it hits a shape
/// that `filter` and `accept` accept, encroaching by up to a linear slop.
/// Shapes the mover already overlaps (core within two slops) are ignored: the
/// collision planes deal with them.
pub(crate) fn cast_mover_in(
    stores: MoverStores<'_>,
    mover: &Capsule,
    translation: Vec2,
    filter: QueryFilter,
    mut accept: impl FnMut(ShapeId) -> bool,
) -> f32 {
    let proxy = mover_proxy(mover);
    let mut fraction = 1.0f32;
    for body_type in TREE_ORDER {
        let input = ShapeCastInput {
            proxy,
            translation,
            max_fraction: fraction,
            can_encroach: true,
        };
        stores.broad_phase.tree(body_type).shape_cast(
            &input,
            filter.mask_bits,
            |sub_input, _, data| {
                let index = data as u32;
                let shape = &stores.shapes[index as usize];
                if shape.is_sensor || !filter.accepts(&shape.filter) {
                    return fraction;
                }
                let xf = stores.shape_transform(shape);
                let local = [xf.apply_inv(mover.center1), xf.apply_inv(mover.center2)];
                if behind_chain_segment(&shape.geometry, &local) || !accept(stores.shape_id(index))
                {
                    return fraction;
                }
                let output = shape_cast(&ShapeCastPairInput {
                    proxy_a: make_shape_proxy(&shape.geometry),
                    proxy_b: proxy,
                    transform_a: xf,
                    transform_b: Transform::IDENTITY,
                    translation_b: translation,
                    max_fraction: sub_input.max_fraction,
                    can_encroach: true,
                });
                if !output.hit || output.fraction == 0.0 {
                    return fraction;
                }
                fraction = output.fraction;
                fraction
            },
        );
        if fraction == 0.0 {
            break;
        }
    }
    fraction
}

impl World {
    /// The fraction (0 to 1) of `translation` (metres) that the capsule
    /// `mover` (world frame) can travel before it hits a shape `filter`
    /// accepts. The mover may end up to one linear slop inside what it hits,
    /// and shapes it already overlaps are ignored (see
    /// [`World::collide_mover`] for those). Sensors are never hit.
    ///
    /// Box2D: `b2World_CastMover`.
    ///
    /// # Errors
    /// Non-finite numbers, or a radius of two linear slops (0.01 m) or less.
    pub fn cast_mover(
        &self,
        mover: &Capsule,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<f32> {
        check_mover(mover)?;
        check_finite_vec(translation, "mover translation")?;
        Ok(cast_mover_in(
            MoverStores::of(self),
            mover,
            translation,
            filter,
            |_| true,
        ))
    }

    /// Calls `callback(shape, plane)` for every shape `filter` accepts that
    /// the capsule `mover` (world frame) touches or overlaps: the plane's
    /// normal points from the shape to the mover, its offset is the overlap
    /// depth (metres) and its point the closest point of the shape (world
    /// frame). Feed the planes to [`crate::collision::solve_planes`]. Sensors
    /// are never reported; the callback returns `false` to stop.
    ///
    /// Box2D: `b2World_CollideMover`.
    ///
    /// # Errors
    /// Non-finite numbers, or a radius of two linear slops (0.01 m) or less.
    pub fn collide_mover(
        &self,
        mover: &Capsule,
        filter: QueryFilter,
        callback: impl FnMut(ShapeId, &PlaneResult) -> bool,
    ) -> Result<()> {
        check_mover(mover)?;
        collide_mover_in(MoverStores::of(self), mover, filter, callback);
        Ok(())
    }
}
