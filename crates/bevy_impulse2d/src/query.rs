//! [`PhysicsQuery`]: ray casts, shape casts and overlap tests as a system parameter.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use impulse2d as i2;
use impulse2d::QueryFilter;

use crate::PhysicsWorld;
use crate::components::Collider;
use crate::systems::{bv, v};

/// What a ray hit first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The collider's entity.
    pub entity: Entity,
    /// Where the ray enters it, m.
    pub point: Vec2,
    /// The surface normal there.
    pub normal: Vec2,
    /// How far along the ray, m.
    pub distance: f32,
}

/// What a moving shape touched first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit {
    /// The collider's entity.
    pub entity: Entity,
    /// The touching point on its surface, m.
    pub point: Vec2,
    /// Its surface normal there.
    pub normal: Vec2,
    /// How far the shape travelled before touching, m.
    pub distance: f32,
}

/// Queries of the physics world as of the last step, from any system. Sensors are not
/// seen. Bad input (NaN, a zero direction) finds nothing.
#[derive(SystemParam)]
pub struct PhysicsQuery<'w> {
    physics: Res<'w, PhysicsWorld>,
}

/// A convex collider as a query proxy (chains have none).
fn proxy(collider: &Collider) -> Option<i2::collision::ShapeProxy> {
    use i2::collision::make_proxy;
    let p = |points: &[Vec2], r: f32| {
        make_proxy(&points.iter().map(|&q| v(q)).collect::<Vec<_>>(), r).ok()
    };
    match collider {
        Collider::Circle { radius } => p(&[Vec2::ZERO], *radius),
        Collider::Capsule { a, b, radius } => p(&[*a, *b], *radius),
        Collider::Rectangle {
            half_extents: h,
            radius,
        } => p(
            &[
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ],
            *radius,
        ),
        Collider::ConvexPolygon { points, radius } => {
            let hull =
                i2::collision::compute_hull(&points.iter().map(|&q| v(q)).collect::<Vec<_>>())
                    .ok()?;
            make_proxy(hull.points(), *radius).ok()
        }
        Collider::Segment { a, b } => p(&[*a, *b], 0.0),
        Collider::Chain { .. } => None,
    }
}

impl PhysicsQuery<'_> {
    /// The engine's world, for anything else.
    pub fn world(&self) -> &i2::World {
        &self.physics.world
    }

    /// The first collider a ray from `origin` along the unit `direction` meets within
    /// `max_distance` metres.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: QueryFilter,
    ) -> Option<RayHit> {
        let d = direction.try_normalize()? * max_distance;
        let hit = self
            .physics
            .world
            .cast_ray_closest(v(origin), v(d), filter)
            .ok()??;
        Some(RayHit {
            entity: self.physics.shape_entity(hit.shape_id)?,
            point: bv(hit.point),
            normal: bv(hit.normal),
            distance: hit.fraction * max_distance,
        })
    }

    /// Every collider whose bounding box overlaps the box from `min` to `max`, in the
    /// engine's order (static, kinematic, then dynamic colliders).
    pub fn overlap_aabb(&self, min: Vec2, max: Vec2, filter: QueryFilter) -> Vec<Entity> {
        let mut out = Vec::new();
        let aabb = i2::collision::Aabb::new(v(min), v(max));
        let _ = self.physics.world.overlap_aabb(aabb, filter, |s| {
            out.extend(self.physics.shape_entity(s));
            true
        });
        out
    }

    /// Every collider that overlaps `shape` placed at `position` with `angle` (radians).
    pub fn overlap_shape(
        &self,
        shape: &Collider,
        position: Vec2,
        angle: f32,
        filter: QueryFilter,
    ) -> Vec<Entity> {
        let mut out = Vec::new();
        let Some(proxy) = proxy(shape) else {
            return out;
        };
        let xf = i2::Transform::from_angle(v(position), angle);
        let _ = self.physics.world.overlap_shape(&proxy, xf, filter, |s| {
            out.extend(self.physics.shape_entity(s));
            true
        });
        out
    }

    /// The first collider that `shape`, placed at `position` with `angle`, meets when
    /// moved along the unit `direction` by up to `max_distance` metres.
    pub fn cast_shape(
        &self,
        shape: &Collider,
        position: Vec2,
        angle: f32,
        direction: Vec2,
        max_distance: f32,
        filter: QueryFilter,
    ) -> Option<ShapeHit> {
        let proxy = proxy(shape)?;
        let xf = i2::Transform::from_angle(v(position), angle);
        let d = direction.try_normalize()? * max_distance;
        let mut best: Option<(i2::ShapeId, i2::Vec2, i2::Vec2, f32)> = None;
        self.physics
            .world
            .cast_shape(&proxy, xf, v(d), filter, |s, point, normal, fraction| {
                best = Some((s, point, normal, fraction));
                fraction
            })
            .ok()?;
        let (s, point, normal, fraction) = best?;
        Some(ShapeHit {
            entity: self.physics.shape_entity(s)?,
            point: bv(point),
            normal: bv(normal),
            distance: fraction * max_distance,
        })
    }
}
