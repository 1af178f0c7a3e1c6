//! Shared input decoding for the Impulse2D fuzz targets.
//!
//! Each target turns the fuzzer's bytes into numbers with [`Bytes`] and into
//! shapes with [`decode_shape`]. The decoder is hand-written rather than derived so
//! that every byte string means something and the interesting values (NaN,
//! infinities, `f32::MAX`, values near the linear slop, grid values that make
//! duplicate and collinear points likely) each have a short encoding.
//!
//! Shapes are only ever built through the engine's public constructors; inputs they
//! reject are skipped. The decoder records whether any number that went into a
//! shape lies outside `±HUGE` ([`Bytes::wild`]): the targets always require "no
//! panic", and additionally "no NaN in the results" when every shape number is
//! within the documented working range.

mod snapshot_input;
pub use snapshot_input::{recording_buffer, seed_recording, seed_snapshot, snapshot_buffer};

use impulse2d::collision::{
    Capsule, ChainSegment, Circle, Polygon, Segment, ShapeProxy, compute_hull, make_offset_polygon,
    make_offset_rounded_box, make_proxy,
};
use impulse2d::core::{HUGE, MAX_POLYGON_VERTICES};
use impulse2d::{Rot, Sweep, Transform, Vec2};

/// A cursor over the fuzzer's bytes. Reading past the end yields zeros, so every
/// input, however short, decodes to something.
pub struct Bytes<'a> {
    data: &'a [u8],
    wild: bool,
}

impl<'a> Bytes<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, wild: false }
    }

    /// Whether a shape number read so far was non-finite or beyond `±HUGE`.
    pub fn wild(&self) -> bool {
        self.wild
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte, or 0 past the end.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// A boolean from the low bit of the next byte.
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    fn i16(&mut self) -> i16 {
        i16::from_le_bytes([self.byte(), self.byte()])
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// Any `f32` at all, chosen by a selector byte: NaN, ±infinity, raw bits
    /// (huge, subnormal, anything), values up to `±HUGE`, tiny values around the
    /// linear slop, zero, and coarse and fine grids (which make duplicate and
    /// collinear points common).
    pub fn raw_f32(&mut self) -> f32 {
        match self.byte() % 16 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => f32::from_bits(self.u32()),
            4 => f32::from(self.i16()) / 32767.0 * HUGE,
            5 => f32::from(self.i16()) * 1.0e-6,
            6 => 0.0,
            7 => f32::from(self.i16()) / 32.0,
            _ => f32::from(self.i16()) / 256.0,
        }
    }

    /// A number that goes into a shape constructor: anything (the constructors
    /// must reject what they cannot handle). Marks the input wild when the number
    /// is non-finite or beyond `±HUGE`.
    pub fn shape_f32(&mut self) -> f32 {
        let v = self.raw_f32();
        if !in_range(v) {
            self.wild = true;
        }
        v
    }

    /// A finite number within `±bound` (non-finite values become 0, others are clamped).
    pub fn finite_f32(&mut self, bound: f32) -> f32 {
        let v = self.raw_f32();
        if v.is_finite() {
            v.clamp(-bound, bound)
        } else {
            0.0
        }
    }

    /// A shape point (see [`Bytes::shape_f32`]).
    pub fn shape_vec2(&mut self) -> Vec2 {
        Vec2::new(self.shape_f32(), self.shape_f32())
    }

    /// A finite point within `±bound` on each axis.
    pub fn finite_vec2(&mut self, bound: f32) -> Vec2 {
        Vec2::new(self.finite_f32(bound), self.finite_f32(bound))
    }

    /// A finite transform: position within `±HUGE`, any finite angle within `±HUGE` rad.
    pub fn transform(&mut self) -> Transform {
        let p = self.finite_vec2(HUGE);
        Transform::new(p, Rot::from_angle(self.finite_f32(HUGE)))
    }

    /// A finite sweep: centres within `±HUGE`, angles within `±HUGE` rad.
    pub fn sweep(&mut self) -> Sweep {
        Sweep {
            local_center: self.finite_vec2(HUGE),
            c1: self.finite_vec2(HUGE),
            c2: self.finite_vec2(HUGE),
            a1: self.finite_f32(HUGE),
            a2: self.finite_f32(HUGE),
        }
    }
}

/// A shape built through the public constructors.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// From [`Circle::new`].
    Circle(Circle),
    /// From [`Capsule::new`].
    Capsule(Capsule),
    /// From one of the polygon constructors.
    Polygon(Polygon),
    /// From [`Segment::new`].
    Segment(Segment),
    /// From [`ChainSegment::new`].
    ChainSegment(ChainSegment),
}

impl Shape {
    /// The shape as GJK sees it (a chain segment is its segment).
    pub fn proxy(&self) -> ShapeProxy {
        match self {
            Shape::Circle(c) => ShapeProxy::from_circle(c),
            Shape::Capsule(c) => ShapeProxy::from_capsule(c),
            Shape::Polygon(p) => ShapeProxy::from_polygon(p),
            Shape::Segment(s) => ShapeProxy::from_segment(s),
            Shape::ChainSegment(c) => ShapeProxy::from_segment(&c.segment),
        }
    }
}

/// Decodes up to `max` points for a hull (each coordinate anything, see
/// [`Bytes::shape_f32`]). Each point may instead repeat an earlier one, exactly or
/// nudged by a tiny amount, or lie on the line through two earlier ones, so
/// duplicates and collinear runs are common.
pub fn decode_points(b: &mut Bytes, max: usize) -> Vec<Vec2> {
    let n = usize::from(b.byte()) % (max + 1);
    let mut points: Vec<Vec2> = Vec::with_capacity(n);
    for _ in 0..n {
        let mode = b.byte() % 8;
        let p = match (mode, points.len()) {
            (0, k) if k >= 1 => {
                let q = points[usize::from(b.byte()) % k];
                q + Vec2::new(b.finite_f32(0.05) * 0.1, b.finite_f32(0.05) * 0.1)
            }
            (1, k) if k >= 2 => {
                let q = points[usize::from(b.byte()) % k];
                let r = points[usize::from(b.byte()) % k];
                q.lerp(r, b.finite_f32(4.0))
            }
            _ => b.shape_vec2(),
        };
        if !(in_range(p.x) && in_range(p.y)) {
            b.wild = true;
        }
        points.push(p);
    }
    points
}

/// Decodes a polygon through one of the polygon constructors (a rounded offset box,
/// or `compute_hull` of up to 8 points placed by `make_offset_polygon`), or `None`
/// when a constructor rejects the numbers.
pub fn decode_polygon(b: &mut Bytes) -> Option<Polygon> {
    if b.flag() {
        let (hx, hy) = (b.shape_f32(), b.shape_f32());
        let center = b.shape_vec2();
        let rotation = Rot::from_angle(b.finite_f32(HUGE));
        let radius = b.shape_f32();
        make_offset_rounded_box(hx, hy, center, rotation, radius).ok()
    } else {
        let points = decode_points(b, MAX_POLYGON_VERTICES);
        let hull = compute_hull(&points).ok()?;
        let xf = if b.flag() {
            b.transform()
        } else {
            Transform::IDENTITY
        };
        make_offset_polygon(&hull, xf, b.shape_f32()).ok()
    }
}

/// Decodes one shape, or `None` when its constructor rejects the numbers.
pub fn decode_shape(b: &mut Bytes) -> Option<Shape> {
    let shape = match b.byte() % 5 {
        0 => Shape::Circle(Circle::new(b.shape_vec2(), b.shape_f32()).ok()?),
        1 => Shape::Capsule(Capsule::new(b.shape_vec2(), b.shape_vec2(), b.shape_f32()).ok()?),
        2 => Shape::Polygon(decode_polygon(b)?),
        3 => Shape::Segment(Segment::new(b.shape_vec2(), b.shape_vec2()).ok()?),
        _ => {
            let ghost1 = b.shape_vec2();
            let segment = Segment {
                point1: b.shape_vec2(),
                point2: b.shape_vec2(),
            };
            let ghost2 = b.shape_vec2();
            Shape::ChainSegment(ChainSegment::new(ghost1, segment, ghost2).ok()?)
        }
    };
    Some(shape)
}

/// Decodes one shape as a struct literal, bypassing validation (the manifold
/// functions promise not to panic even then): circles, capsules, segments and
/// chain segments with any numbers. Polygons, whose fields are private, still go
/// through [`decode_polygon`].
pub fn decode_shape_unchecked(b: &mut Bytes) -> Option<Shape> {
    let shape = match b.byte() % 5 {
        0 => Shape::Circle(Circle {
            center: b.shape_vec2(),
            radius: b.shape_f32(),
        }),
        1 => Shape::Capsule(Capsule {
            center1: b.shape_vec2(),
            center2: b.shape_vec2(),
            radius: b.shape_f32(),
        }),
        2 => Shape::Polygon(decode_polygon(b)?),
        3 => Shape::Segment(Segment {
            point1: b.shape_vec2(),
            point2: b.shape_vec2(),
        }),
        _ => Shape::ChainSegment(ChainSegment {
            ghost1: b.shape_vec2(),
            segment: Segment {
                point1: b.shape_vec2(),
                point2: b.shape_vec2(),
            },
            ghost2: b.shape_vec2(),
            chain_id: u32::MAX,
        }),
    };
    Some(shape)
}

/// Decodes a distance proxy: either a shape's proxy or [`make_proxy`] over 1 to 8
/// arbitrary (possibly non-convex, duplicate) points. `None` when rejected.
pub fn decode_proxy(b: &mut Bytes) -> Option<ShapeProxy> {
    if b.byte().is_multiple_of(4) {
        let n = 1 + usize::from(b.byte() % 8);
        let points: Vec<Vec2> = (0..n).map(|_| b.shape_vec2()).collect();
        make_proxy(&points, b.shape_f32()).ok()
    } else {
        Some(decode_shape(b)?.proxy())
    }
}

/// Whether `v` is finite and within `±HUGE` (false for NaN).
pub fn in_range(v: f32) -> bool {
    v.is_finite() && v.abs() <= HUGE
}

/// Whether every component is finite.
pub fn finite2(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}
