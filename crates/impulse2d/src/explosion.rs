//! Explosions: an impulse on every dynamic shape near a point, proportional
//! to how much of the shape faces the blast.
//!
//! Each dynamic shape within `radius + falloff` of the centre (measured to
//! its closest point) receives, at that closest point and directed away from
//! the centre, an impulse of `impulse_per_length × exposed length`, where the
//! exposed length is the width of the shape seen from the centre (its extent
//! across the blast direction). Within `radius` the impulse is whole; across
//! the `falloff` band it drops linearly to zero. A shape the centre is inside
//! is pushed from its centroid. Sleeping bodies are woken.
//!
//! # References
//! - E. Catto, Box2D v3.1 `b2World_Explode` and `b2GetShapeProjectedPerimeter`.

use crate::body::BodyType;
use crate::collision::{Aabb, DistanceInput, ShapeProxy, SimplexCache, shape_distance};
use crate::core::MAX_POLYGON_VERTICES;
use crate::error::{Result, check_finite, check_finite_vec, check_non_negative};
use crate::math::{Transform, Vec2};
use crate::shape::ShapeGeometry;
use crate::solver::continuous::make_shape_proxy;
use crate::world::World;

def_struct! {
    /// An explosion (see [`World::explode`]).
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct ExplosionDef {
        /// Centre of the blast, world frame, metres.
        ///
        /// Box2D: `b2ExplosionDef.position`.
        pub position: Vec2 = Vec2::ZERO => check_finite_vec("explosion position"),
        /// Radius within which the impulse is whole, metres (≥ 0).
        ///
        /// Box2D: `b2ExplosionDef.radius`.
        pub radius: f32 = 1.0 => check_non_negative("explosion radius"),
        /// Width of the band beyond `radius` across which the impulse falls
        /// linearly to zero, metres (≥ 0).
        ///
        /// Box2D: `b2ExplosionDef.falloff`.
        pub falloff: f32 = 0.0 => check_non_negative("explosion falloff"),
        /// Impulse per metre of exposed shape width, N·s/m. Negative values pull
        /// shapes towards the centre (an implosion).
        ///
        /// Box2D: `b2ExplosionDef.impulsePerLength`.
        pub impulse_per_length: f32 = 1.0 => check_finite("explosion impulse per length"),
        /// Only shapes whose category shares a bit with this mask are affected.
        ///
        /// Box2D: `b2ExplosionDef.maskBits`.
        pub mask_bits: u64 = u64::MAX,
    }
    /// Box2D: `b2DefaultExplosionDef`.
    impl Default for ExplosionDef;

    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self);
}

/// The width of a shape seen along `line` (a unit vector in the shape's body
/// frame): the length of its projection on the line, metres.
pub(crate) fn projected_width(geometry: &ShapeGeometry, line: Vec2) -> f32 {
    let span = |points: &[Vec2]| {
        let (mut lo, mut hi) = (f32::MAX, f32::MIN);
        for p in points {
            let d = p.dot(line);
            lo = lo.min(d);
            hi = hi.max(d);
        }
        hi - lo
    };
    match geometry {
        ShapeGeometry::Circle(c) => 2.0 * c.radius,
        ShapeGeometry::Capsule(c) => span(&[c.center1, c.center2]) + 2.0 * c.radius,
        ShapeGeometry::Polygon(p) => span(p.vertices()) + 2.0 * p.radius(),
        ShapeGeometry::Segment(s) => span(&[s.point1, s.point2]),
        ShapeGeometry::ChainSegment(c) => span(&[c.segment.point1, c.segment.point2]),
    }
}

/// One shape's share of the blast, found before any body is changed.
struct Push {
    body_index: usize,
    point: Vec2,
    impulse: Vec2,
}

impl World {
    /// Applies an explosion to the dynamic shapes around `def.position` (see
    /// the [module documentation](self)): changes their bodies' velocities at
    /// once and wakes them.
    ///
    /// # Errors
    /// A non-finite number, or a negative radius or falloff.
    ///
    /// Box2D: `b2World_Explode`.
    pub fn explode(&mut self, def: &ExplosionDef) -> Result<()> {
        def.validate()?;
        self.record_change();
        let reach = def.radius + def.falloff;
        let center = def.position;
        let bounds = Aabb::new(
            center - Vec2::new(reach, reach),
            center + Vec2::new(reach, reach),
        );
        let mut pushes = Vec::new();
        let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        points[0] = center;
        let blast = ShapeProxy {
            points,
            count: 1,
            radius: 0.0,
        };
        let tree = self.broad_phase.tree(BodyType::Dynamic);
        tree.query(bounds, def.mask_bits, |_, data| {
            let shape = &self.shapes[data as usize];
            if shape.is_sensor {
                return true;
            }
            let bi = shape.body_id as usize;
            let xf = crate::pos::to_transform(self.body_sim(bi).transform);
            let input = DistanceInput {
                proxy_a: make_shape_proxy(&shape.geometry),
                proxy_b: blast,
                transform_a: xf,
                transform_b: Transform::IDENTITY,
                use_radii: true,
            };
            let output = shape_distance(&input, &mut SimplexCache::default());
            if output.distance > reach {
                return true;
            }
            let point = if output.distance == 0.0 {
                xf.apply(shape.geometry.centroid())
            } else {
                output.point_a
            };
            let (direction, length) = (point - center).get_length_and_normalize();
            let direction = if length > 10.0 * f32::EPSILON {
                direction
            } else {
                Vec2::new(1.0, 0.0)
            };
            let line = xf.q.inv_rotate(direction.left_perp());
            let width = projected_width(&shape.geometry, line);
            let scale = if output.distance > def.radius && def.falloff > 0.0 {
                ((reach - output.distance) / def.falloff).clamp(0.0, 1.0)
            } else {
                1.0
            };
            pushes.push(Push {
                body_index: bi,
                point,
                impulse: direction * (def.impulse_per_length * width * scale),
            });
            true
        });

        for push in pushes {
            self.wake_body(push.body_index);
            let sim = *self.body_sim(push.body_index);
            if let Some(state) = self.body_state_mut(push.body_index) {
                state.linear_velocity =
                    Vec2::mul_add(state.linear_velocity, sim.inv_mass, push.impulse);
                state.angular_velocity += sim.inv_inertia
                    * (crate::pos::to_pos(push.point) - sim.center).cross(push.impulse);
            }
        }
        Ok(())
    }
}
