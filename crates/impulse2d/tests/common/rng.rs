//! A tiny deterministic random number generator (SplitMix64) and generators of
//! random shapes and poses in realistic ranges: sizes 0.05–5 m, positions within a
//! few metres, with the second shape of a pair placed so that overlapping, touching
//! and speculative (nearly touching) cases are all common.

#![allow(dead_code)]

use impulse2d::collision::{
    Capsule, ChainSegment, Circle, Polygon, Segment, compute_hull, make_offset_rounded_box,
    make_polygon,
};
use impulse2d::math::PI;
use impulse2d::{Rot, Sweep, Transform, Vec2};

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, full period, good
/// enough statistics for test-case generation, identical on every platform.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with `seed`; the same seed gives the same sequence.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, 24 random bits.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Log-uniform in `[lo, hi)`: small and large values equally likely per decade.
    pub fn log_range(&mut self, lo: f32, hi: f32) -> f32 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }

    /// Uniform integer in `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }

    /// Uniform in the square `[-r, r]²`.
    pub fn vec_in(&mut self, r: f32) -> Vec2 {
        Vec2::new(self.range(-r, r), self.range(-r, r))
    }

    /// A unit vector in a uniformly random direction.
    pub fn direction(&mut self) -> Vec2 {
        let (c, s) = impulse2d::math::cos_sin(self.angle());
        Vec2::new(c, s)
    }

    /// Uniform in `[-π, π)`.
    pub fn angle(&mut self) -> f32 {
        self.range(-PI, PI)
    }

    /// A uniformly random rotation.
    pub fn rot(&mut self) -> Rot {
        Rot::from_angle(self.angle())
    }

    /// A shape size (diameter, length, box width), log-uniform in 0.05–5 m.
    pub fn size(&mut self) -> f32 {
        self.log_range(0.05, 5.0)
    }

    /// A pose with its origin within `extent` metres of the world origin.
    pub fn transform(&mut self, extent: f32) -> Transform {
        Transform::new(self.vec_in(extent), self.rot())
    }

    /// A circle whose centre is off its body's origin by up to a quarter of its size.
    pub fn circle(&mut self) -> Circle {
        let d = self.size();
        Circle::new(self.vec_in(0.25 * d), 0.5 * d).unwrap()
    }

    /// A capsule of length and diameter 0.05–5 m, off its body's origin.
    pub fn capsule(&mut self) -> Capsule {
        let length = self.size();
        let radius = 0.5 * self.size();
        let c = self.vec_in(0.25 * length);
        let axis = self.direction() * (0.5 * length);
        Capsule::new(c - axis, c + axis, radius).unwrap()
    }

    /// A segment of length 0.05–5 m, off its body's origin.
    pub fn segment(&mut self) -> Segment {
        let length = self.size();
        let c = self.vec_in(0.25 * length);
        let axis = self.direction() * (0.5 * length);
        Segment::new(c - axis, c + axis).unwrap()
    }

    /// A chain segment with ghost vertices that make the chain convex, flat or
    /// concave at either end (each a third of the time, roughly).
    pub fn chain_segment(&mut self) -> ChainSegment {
        let s = self.segment();
        let dir = (s.point2 - s.point1).normalize();
        let ghost = |rng: &mut Rng, at: Vec2, outward: Vec2| {
            let length = rng.size();
            let bend = match rng.below(3) {
                0 => 0.0,
                1 => rng.range(0.05, 1.2),
                _ => -rng.range(0.05, 1.2),
            };
            at + Rot::from_angle(bend).rotate(outward) * length
        };
        let ghost1 = ghost(self, s.point1, -dir);
        let ghost2 = ghost(self, s.point2, dir);
        ChainSegment::new(ghost1, s, ghost2).unwrap()
    }

    /// A box (half-extents from the size range), offset and rotated in its body
    /// frame, rounded a third of the time.
    pub fn rounded_box(&mut self) -> Polygon {
        let hx = 0.5 * self.size();
        let hy = 0.5 * self.size();
        let radius = if self.chance(0.33) {
            0.2 * self.size()
        } else {
            0.0
        };
        let center = self.vec_in(0.25 * hx.max(hy));
        make_offset_rounded_box(hx, hy, center, self.rot(), radius).unwrap()
    }

    /// A convex polygon of 3 to 8 vertices from our hull of a point cloud,
    /// rounded with chance `rounded` by a radius of `radius_scale` × a size.
    pub fn hull_polygon(&mut self, rounded: f32, radius_scale: f32) -> Polygon {
        loop {
            let n = 3 + self.below(6);
            let cloud = self.point_cloud(n);
            if let Ok(hull) = compute_hull(&cloud) {
                let radius = if self.chance(rounded) {
                    radius_scale * self.size()
                } else {
                    0.0
                };
                return make_polygon(&hull, radius).unwrap();
            }
        }
    }

    /// `n` points scattered in an ellipse of the given size (for hulls).
    pub fn point_cloud(&mut self, n: usize) -> Vec<Vec2> {
        let rx = 0.5 * self.size();
        let ry = 0.5 * self.size();
        let center = self.vec_in(0.25 * rx.max(ry));
        let q = self.rot();
        (0..n)
            .map(|_| {
                let r = self.unit().sqrt();
                let d = self.direction();
                center + q.rotate(Vec2::new(rx * r * d.x, ry * r * d.y))
            })
            .collect()
    }

    /// Places a second body near `xf_a` so that two shapes of bounding radii
    /// `radius_a` and `radius_b` (about their bodies' origins) overlap, touch or
    /// nearly touch: the origins are `(radius_a + radius_b)·u` apart with
    /// `u ∈ [0.2, 1.1)`.
    pub fn pose_near(&mut self, xf_a: Transform, radius_a: f32, radius_b: f32) -> Transform {
        let u = self.range(0.2, 1.1);
        let p = xf_a.p + self.direction() * ((radius_a + radius_b) * u);
        Transform::new(p, self.rot())
    }
}

/// The largest distance from the body origin to any point of a polygon (with its radius).
pub fn polygon_bound(p: &Polygon) -> f32 {
    p.vertices().iter().map(|v| v.length()).fold(0.0, f32::max) + p.radius()
}

/// The largest distance from the body origin to any point of a capsule.
pub fn capsule_bound(c: &Capsule) -> f32 {
    c.center1.length().max(c.center2.length()) + c.radius
}

/// The largest distance from the body origin to any point of a circle.
pub fn circle_bound(c: &Circle) -> f32 {
    c.center.length() + c.radius
}

/// The largest distance from the body origin to any point of a segment.
pub fn segment_bound(s: &Segment) -> f32 {
    s.point1.length().max(s.point2.length())
}

/// A sweep whose centre (`local_center` in the body) moves from
/// `meet - travel + miss` to `meet + travel + miss`, turning from angle `a1` to
/// `a2` (radians).
pub fn sweep_across(
    meet: Vec2,
    travel: Vec2,
    miss: Vec2,
    local_center: Vec2,
    a1: f32,
    a2: f32,
) -> Sweep {
    Sweep {
        local_center,
        c1: meet - travel + miss,
        c2: meet + travel + miss,
        a1,
        a2,
    }
}
