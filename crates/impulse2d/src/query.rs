//! World queries: which shapes overlap a box or a shape, what a ray or a
//! moving shape hits first, and ray casts and closest points on one shape.
//!
//! Every world query walks the three broad-phase trees (static, kinematic,
//! dynamic, in that order) with the query's bounds, then tests each candidate
//! shape exactly. A [`QueryFilter`] selects shapes as a shape's
//! [`Filter`] would: a shape is seen when its category is in the query's mask
//! and the query's category is in the shape's mask. Sensor shapes and shapes
//! on disabled bodies are never reported.
//!
//! Ray and shape casts follow Box2D's callback protocol: the callback gets
//! each hit (in no particular order) and returns the fraction to clip the
//! cast to:
//! - `0` stops the cast;
//! - the hit's own fraction clips the cast there (only nearer hits follow),
//!   which finds the closest hit ([`World::cast_ray_closest`]);
//! - `1` continues with the cast unclipped (all hits);
//! - `-1` (any negative value) ignores this shape and continues.
//!
//! A cast that starts inside a shape reports it at fraction 0 with a zero
//! normal (a ray) or the separating direction (a shape cast).
//!
//! Bad input (NaN or infinite numbers, an inverted box, an invalid proxy, a
//! stale shape id) gives an [`Error`] before anything is called.
//!
//! # References
//! - E. Catto, Box2D v3 `world.c` (`b2World_OverlapAABB`, `b2World_CastRay`,
//!   `b2World_CastShape`, `b2RayCastClosestFcn`), `shape.c`.

use crate::body::BodyType;
use crate::collision::dynamic_tree::CastInput;
use crate::collision::{
    Aabb, CastOutput, DistanceInput, RayCastInput, ShapeCastInput, ShapeCastPairInput, ShapeProxy,
    SimplexCache, point_in_capsule, point_in_circle, point_in_polygon, ray_cast_capsule,
    ray_cast_circle, ray_cast_polygon, ray_cast_segment, shape_cast, shape_distance,
};
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::error::{Error, Result, check_finite_vec};
use crate::id::ShapeId;
use crate::math::{Transform, Vec2};
use crate::mover::behind_chain_segment;
use crate::shape::{Filter, Shape, ShapeGeometry};
use crate::solver::continuous::make_shape_proxy;
use crate::world::World;

/// Shapes within this distance of a query shape overlap it, metres.
const OVERLAP_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

const TREE_ORDER: [BodyType; 3] = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic];

/// Which shapes a query sees: those whose category is in `mask_bits` and
/// whose mask contains a bit of `category_bits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueryFilter {
    /// The categories the query belongs to (tested against shapes' masks).
    ///
    /// Box2D: `b2QueryFilter.categoryBits`.
    pub category_bits: u64,
    /// The shape categories the query accepts.
    ///
    /// Box2D: `b2QueryFilter.maskBits`.
    pub mask_bits: u64,
}

/// Box2D: `b2DefaultQueryFilter`.
impl Default for QueryFilter {
    /// Category 1 (the default shape category), every mask bit: sees every
    /// shape with a default [`Filter`].
    fn default() -> Self {
        QueryFilter {
            category_bits: 1,
            mask_bits: u64::MAX,
        }
    }
}

impl QueryFilter {
    /// Sees every shape whose mask is not zero.
    pub const ALL: QueryFilter = QueryFilter {
        category_bits: u64::MAX,
        mask_bits: u64::MAX,
    };

    /// Whether a shape with this collision filter is seen.
    pub fn accepts(&self, filter: &Filter) -> bool {
        (filter.category_bits & self.mask_bits) != 0 && (filter.mask_bits & self.category_bits) != 0
    }
}

/// The closest hit of a ray (see [`World::cast_ray_closest`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayResult {
    /// The shape hit.
    pub shape_id: ShapeId,
    /// Where the ray enters it, world frame, metres.
    pub point: Vec2,
    /// The shape's outward surface normal there (zero when the ray starts inside).
    pub normal: Vec2,
    /// The fraction of the translation at the hit.
    pub fraction: f32,
}

/// A ray cast against one shape's geometry, in its body's frame.
pub(crate) fn ray_cast_geometry(geometry: &ShapeGeometry, input: &RayCastInput) -> CastOutput {
    match geometry {
        ShapeGeometry::Circle(c) => ray_cast_circle(input, c),
        ShapeGeometry::Capsule(c) => ray_cast_capsule(input, c),
        ShapeGeometry::Segment(s) => ray_cast_segment(input, s, false),
        ShapeGeometry::Polygon(p) => ray_cast_polygon(input, p),
        ShapeGeometry::ChainSegment(c) => ray_cast_segment(input, &c.segment, true),
    }
}

/// A world-frame ray cast against a shape at transform `xf`.
fn ray_cast_shape(shape: &Shape, xf: Transform, input: &RayCastInput) -> CastOutput {
    let local = RayCastInput {
        origin: xf.apply_inv(input.origin),
        translation: xf.q.inv_rotate(input.translation),
        max_fraction: input.max_fraction,
    };
    let mut output = ray_cast_geometry(&shape.geometry, &local);
    if output.hit {
        output.point = xf.apply(output.point);
        output.normal = xf.q.rotate(output.normal);
    }
    output
}

/// Checks a query box.
fn check_aabb(aabb: &Aabb) -> Result<()> {
    check_finite_vec(aabb.lower, "query box lower bound")?;
    check_finite_vec(aabb.upper, "query box upper bound")?;
    if !aabb.is_valid() {
        return Err(Error::InvalidGeometry(
            "query box lower bound is above its upper bound",
        ));
    }
    Ok(())
}

/// Checks a query proxy and returns it moved into the world frame.
fn world_proxy(proxy: &ShapeProxy, xf: Transform) -> Result<ShapeProxy> {
    if !(1..=MAX_POLYGON_VERTICES).contains(&proxy.count) {
        return Err(Error::InvalidGeometry("a shape proxy needs 1 to 8 points"));
    }
    if !xf.p.is_finite() || !xf.q.c.is_finite() || !xf.q.s.is_finite() {
        return Err(Error::NonFinite {
            what: "query transform",
        });
    }
    if !xf.q.is_valid() {
        return Err(Error::OutOfRange {
            what: "query rotation",
            expected: "a unit cosine/sine pair",
            value: (xf.q.c * xf.q.c + xf.q.s * xf.q.s).sqrt(),
        });
    }
    crate::error::check_non_negative(proxy.radius, "proxy radius")?;
    let mut out = *proxy;
    for p in &mut out.points[..proxy.count] {
        check_finite_vec(*p, "proxy point")?;
        *p = xf.apply(*p);
        check_finite_vec(*p, "proxy point")?;
    }
    Ok(out)
}

/// The bounding box of a world-frame proxy.
fn proxy_aabb(proxy: &ShapeProxy) -> Aabb {
    let points = &proxy.points[..proxy.count];
    let (mut lower, mut upper) = (points[0], points[0]);
    for &p in &points[1..] {
        lower = lower.min(p);
        upper = upper.max(p);
    }
    let r = Vec2::new(proxy.radius, proxy.radius);
    Aabb::new(lower - r, upper + r)
}

impl World {
    /// The transform of the body a shape is attached to.
    fn shape_transform(&self, shape: &Shape) -> Transform {
        // large-world: queries are in f32 world coordinates
        crate::pos::to_transform(self.body_sim(shape.body_id as usize).transform)
    }

    /// Whether a query with `filter` may report the shape.
    fn query_sees(shape: &Shape, filter: &QueryFilter) -> bool {
        !shape.is_sensor && filter.accepts(&shape.filter)
    }

    /// Calls `callback` for every shape whose bounding box overlaps `aabb`
    /// (metres; touching counts) and that `filter` accepts. The callback
    /// returns `false` to stop the query.
    ///
    /// # Errors
    /// A box with non-finite or inverted bounds.
    ///
    /// Box2D: `b2World_OverlapAABB`.
    pub fn overlap_aabb(
        &self,
        aabb: Aabb,
        filter: QueryFilter,
        mut callback: impl FnMut(ShapeId) -> bool,
    ) -> Result<()> {
        check_aabb(&aabb)?;
        self.overlap_trees(aabb, &filter, &mut callback, |shape| {
            let tight = shape.geometry.compute_aabb(self.shape_transform(shape));
            tight.overlaps(&aabb)
        });
        Ok(())
    }

    /// The loop [`World::overlap_aabb`] and [`World::overlap_shape`] share:
    /// the shapes in every tree whose boxes overlap `bounds`, that `filter`
    /// accepts and that `overlaps` (the exact test) go to `callback`, until it
    /// returns `false`.
    fn overlap_trees(
        &self,
        bounds: Aabb,
        filter: &QueryFilter,
        callback: &mut impl FnMut(ShapeId) -> bool,
        overlaps: impl Fn(&Shape) -> bool,
    ) {
        let mut go_on = true;
        for body_type in TREE_ORDER {
            let tree = self.broad_phase.tree(body_type);
            tree.query(bounds, filter.mask_bits, |_, data| {
                let index = data as u32;
                let shape = &self.shapes[index as usize];
                if !Self::query_sees(shape, filter) || !overlaps(shape) {
                    return true;
                }
                go_on = callback(self.make_shape_id(index));
                go_on
            });
            if !go_on {
                break;
            }
        }
    }

    /// Calls `callback` for every shape that `filter` accepts and that
    /// overlaps (or touches, within a tenth of the linear slop) the convex
    /// `proxy` placed at `transform`. The callback returns `false` to stop.
    ///
    /// # Errors
    /// A proxy with no points or more than 8, non-finite numbers, a negative
    /// radius, or a transform that is not finite with a unit rotation.
    ///
    /// Box2D: `b2World_OverlapShape`.
    pub fn overlap_shape(
        &self,
        proxy: &ShapeProxy,
        transform: Transform,
        filter: QueryFilter,
        mut callback: impl FnMut(ShapeId) -> bool,
    ) -> Result<()> {
        let query = world_proxy(proxy, transform)?;
        self.overlap_trees(proxy_aabb(&query), &filter, &mut callback, |shape| {
            self.shape_overlaps(shape, &query)
        });
        Ok(())
    }

    /// Whether a shape overlaps a world-frame proxy.
    fn shape_overlaps(&self, shape: &Shape, query: &ShapeProxy) -> bool {
        let input = DistanceInput {
            proxy_a: make_shape_proxy(&shape.geometry),
            proxy_b: *query,
            transform_a: self.shape_transform(shape),
            transform_b: Transform::IDENTITY,
            use_radii: true,
        };
        shape_distance(&input, &mut SimplexCache::default()).distance <= OVERLAP_TOLERANCE
    }

    /// Casts a ray from `origin` along `translation` (metres) and calls
    /// `callback(shape, point, normal, fraction)` for the shapes it hits that
    /// `filter` accepts; the callback's answer clips the ray (see the
    /// [module documentation](self)). Chain segments are hit from their
    /// outer side only.
    ///
    /// # Errors
    /// A non-finite origin or translation.
    ///
    /// Box2D: `b2World_CastRay`.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
        mut callback: impl FnMut(ShapeId, Vec2, Vec2, f32) -> f32,
    ) -> Result<()> {
        check_finite_vec(origin, "ray origin")?;
        check_finite_vec(translation, "ray translation")?;
        self.cast_trees(
            |fraction| RayCastInput::new(origin, translation, fraction),
            &filter,
            &mut callback,
            |shape, sub_input| ray_cast_shape(shape, self.shape_transform(shape), sub_input),
        );
        Ok(())
    }

    /// The loop [`World::cast_ray`] and [`World::cast_shape`] share: every
    /// tree in [`TREE_ORDER`] is swept with `input_at(clip)`, `clip` being
    /// what the callback's answers have clipped the cast to so far. A shape
    /// the filter accepts goes to `cast` (the exact cast against it) and a hit
    /// to `callback`, whose answer clips the sweep (see the
    /// [module documentation](self)).
    fn cast_trees<I: CastInput>(
        &self,
        input_at: impl Fn(f32) -> I,
        filter: &QueryFilter,
        callback: &mut impl FnMut(ShapeId, Vec2, Vec2, f32) -> f32,
        cast: impl Fn(&Shape, &I) -> CastOutput,
    ) {
        let mut fraction = 1.0f32;
        for body_type in TREE_ORDER {
            let tree = self.broad_phase.tree(body_type);
            input_at(fraction).cast_on(tree, filter.mask_bits, |sub_input, _, data| {
                let index = data as u32;
                let shape = &self.shapes[index as usize];
                if !Self::query_sees(shape, filter) {
                    return sub_input.max_fraction();
                }
                let output = cast(shape, sub_input);
                if !output.hit {
                    return sub_input.max_fraction();
                }
                let id = self.make_shape_id(index);
                let answer = callback(id, output.point, output.normal, output.fraction);
                if (0.0..=1.0).contains(&answer) {
                    fraction = fraction.min(answer);
                }
                answer
            });
            if fraction == 0.0 {
                break;
            }
        }
    }

    /// The first shape the ray from `origin` along `translation` hits among
    /// those `filter` accepts, or `None`.
    ///
    /// # Errors
    /// A non-finite origin or translation.
    ///
    /// Box2D: `b2World_CastRayClosest`.
    pub fn cast_ray_closest(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Option<RayResult>> {
        let mut best: Option<RayResult> = None;
        self.cast_ray(
            origin,
            translation,
            filter,
            |shape_id, point, normal, fraction| {
                best = Some(RayResult {
                    shape_id,
                    point,
                    normal,
                    fraction,
                });
                fraction
            },
        )?;
        Ok(best)
    }

    /// Sweeps the convex `proxy`, placed at `transform`, along `translation`
    /// (metres) and calls `callback(shape, point, normal, fraction)` for the
    /// shapes it hits that `filter` accepts: `point` is on the hit shape's
    /// surface and `normal` is that surface's normal. The callback's answer
    /// clips the cast (see the [module documentation](self)). Chain segments
    /// are one-sided: a proxy whose points' mean starts behind one (on its
    /// left, looking from its first point to its second) does not hit it.
    ///
    /// # Errors
    /// An invalid proxy or transform (as [`World::overlap_shape`]) or a
    /// non-finite translation.
    ///
    /// Box2D: `b2World_CastShape`.
    pub fn cast_shape(
        &self,
        proxy: &ShapeProxy,
        transform: Transform,
        translation: Vec2,
        filter: QueryFilter,
        mut callback: impl FnMut(ShapeId, Vec2, Vec2, f32) -> f32,
    ) -> Result<()> {
        let query = world_proxy(proxy, transform)?;
        check_finite_vec(translation, "cast translation")?;
        let input_at = |max_fraction| ShapeCastInput {
            proxy: query,
            translation,
            max_fraction,
            can_encroach: false,
        };
        self.cast_trees(input_at, &filter, &mut callback, |shape, sub_input| {
            self.cast_against(shape, &query, translation, sub_input)
        });
        Ok(())
    }

    /// A world-frame proxy swept against one shape.
    fn cast_against(
        &self,
        shape: &Shape,
        query: &ShapeProxy,
        translation: Vec2,
        input: &ShapeCastInput,
    ) -> CastOutput {
        let transform = self.shape_transform(shape);
        // A one-sided chain segment is not hit by a proxy whose points' mean
        // starts behind it (as Box2D's `b2ShapeCastShape`).
        if matches!(shape.geometry, ShapeGeometry::ChainSegment(_)) {
            let mut local = [Vec2::ZERO; MAX_POLYGON_VERTICES];
            let points = &query.points[..query.count];
            for (l, &p) in local.iter_mut().zip(points) {
                *l = transform.apply_inv(p);
            }
            if behind_chain_segment(&shape.geometry, &local[..points.len()]) {
                return CastOutput::default();
            }
        }
        shape_cast(&ShapeCastPairInput {
            proxy_a: make_shape_proxy(&shape.geometry),
            proxy_b: *query,
            transform_a: transform,
            transform_b: Transform::IDENTITY,
            translation_b: translation,
            max_fraction: input.max_fraction,
            can_encroach: input.can_encroach,
        })
    }

    /// Casts a ray, given in world coordinates, against one shape (whatever
    /// its filter, and even when it is a sensor). The output is in world
    /// coordinates; a ray starting inside the shape hits at fraction 0 with a
    /// zero normal.
    ///
    /// # Errors
    /// A ray with non-finite numbers or a negative `max_fraction`.
    pub(crate) fn shape_ray_cast(&self, si: usize, input: &RayCastInput) -> Result<CastOutput> {
        check_finite_vec(input.origin, "ray origin")?;
        check_finite_vec(input.translation, "ray translation")?;
        if !input.is_valid() {
            return Err(Error::OutOfRange {
                what: "ray max fraction",
                expected: "finite and >= 0",
                value: input.max_fraction,
            });
        }
        let shape = &self.shapes[si];
        Ok(ray_cast_shape(shape, self.shape_transform(shape), input))
    }

    /// Whether a world point (metres) is inside the shape. Segments and
    /// chain segments have no inside.
    pub(crate) fn shape_test_point(&self, si: usize, point: Vec2) -> bool {
        let shape = &self.shapes[si];
        let local = self.shape_transform(shape).apply_inv(point);
        match &shape.geometry {
            ShapeGeometry::Circle(c) => point_in_circle(local, c),
            ShapeGeometry::Capsule(c) => point_in_capsule(local, c),
            ShapeGeometry::Polygon(p) => point_in_polygon(local, p),
            ShapeGeometry::Segment(_) | ShapeGeometry::ChainSegment(_) => false,
        }
    }

    /// The point of the shape closest to `target` (world frame, metres): the
    /// target itself when it is inside the shape (`target` finite).
    pub(crate) fn shape_closest_point(&self, si: usize, target: Vec2) -> Vec2 {
        if self.shape_test_point(si, target) {
            return target;
        }
        let shape = &self.shapes[si];
        let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        points[0] = target;
        let input = DistanceInput {
            proxy_a: make_shape_proxy(&shape.geometry),
            proxy_b: ShapeProxy {
                points,
                count: 1,
                radius: 0.0,
            },
            transform_a: self.shape_transform(shape),
            transform_b: Transform::IDENTITY,
            use_radii: true,
        };
        shape_distance(&input, &mut SimplexCache::default()).point_a
    }
}
