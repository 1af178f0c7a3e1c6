//! Serde support (feature `serde`): the forms geometry is read through, so
//! that it goes through its validating constructor. See the
//! [module docs](super).
//!
//! Everything else derives `Serialize`/`Deserialize` where it is defined.

use serde::{Deserialize, Serialize};

use crate::collision::make_polygon_from_placed;
use crate::collision::{Capsule, Circle, Polygon, Segment};
use crate::error::{Error, Result};
use crate::math::Vec2;

/// A circle as read, before [`Circle::new`] checks it.
#[derive(Deserialize)]
pub(crate) struct CircleFields {
    center: Vec2,
    radius: f32,
}

impl TryFrom<CircleFields> for Circle {
    type Error = Error;

    fn try_from(f: CircleFields) -> Result<Circle> {
        Circle::new(f.center, f.radius)
    }
}

/// A capsule as read, before [`Capsule::new`] checks it.
#[derive(Deserialize)]
pub(crate) struct CapsuleFields {
    center1: Vec2,
    center2: Vec2,
    radius: f32,
}

impl TryFrom<CapsuleFields> for Capsule {
    type Error = Error;

    fn try_from(f: CapsuleFields) -> Result<Capsule> {
        Capsule::new(f.center1, f.center2, f.radius)
    }
}

/// A segment as read, before [`Segment::new`] checks it.
#[derive(Deserialize)]
pub(crate) struct SegmentFields {
    point1: Vec2,
    point2: Vec2,
}

impl TryFrom<SegmentFields> for Segment {
    type Error = Error;

    fn try_from(f: SegmentFields) -> Result<Segment> {
        Segment::new(f.point1, f.point2)
    }
}

/// A polygon as written and read.
#[derive(Serialize, Deserialize)]
pub(crate) struct PolygonFields {
    /// Counter-clockwise vertices, metres.
    vertices: Vec<Vec2>,
    /// Rounding radius, metres.
    radius: f32,
    /// Outward unit edge normals; computed from the vertices when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    normals: Option<Vec<Vec2>>,
    /// Centroid, metres; computed from the vertices when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    centroid: Option<Vec2>,
}

impl From<Polygon> for PolygonFields {
    fn from(p: Polygon) -> PolygonFields {
        PolygonFields {
            vertices: p.vertices().to_vec(),
            radius: p.radius(),
            normals: Some(p.normals().to_vec()),
            centroid: Some(p.centroid()),
        }
    }
}

/// The bound on a placed vertex's rounding error used below, in units of the
/// largest coordinate: placing a vertex (a rotation and a translation in
/// `f32`) rounds it by a few units in the last place, and `16·2⁻²⁴` leaves
/// room for a polygon placed twice ([`Polygon::transformed`]).
const PLACEMENT_ROUNDING: f32 = 16.0 / 16_777_216.0;

/// The tolerance for `f32` round-off in a unit normal or a centroid computed
/// the other way from the same numbers.
const ROUND_OFF: f32 = 1.0e-5;

impl TryFrom<PolygonFields> for Polygon {
    type Error = Error;

    /// Checks the vertices and radius as [`make_polygon`](crate::collision::make_polygon)
    /// does, computes the normals and centroid, and keeps written ones that
    /// agree with them.
    ///
    /// A constructor may compute the normals and centroid in another way than
    /// from the stored vertices (a box rotates its axes' normals and takes its
    /// centre as centroid), so a written normal is accepted when its length is
    /// 1 within 1e-3 (a rotation's own tolerance) and its direction differs
    /// from the edge's by no more than the rounding of the edge's end points
    /// explains; the centroid likewise.
    fn try_from(f: PolygonFields) -> Result<Polygon> {
        let mut polygon = make_polygon_from_placed(&f.vertices, f.radius)?;
        let n = polygon.count;
        let scale = f
            .vertices
            .iter()
            .fold(0.0f32, |m, v| m.max(v.x.abs()).max(v.y.abs()));
        let vertex_error = PLACEMENT_ROUNDING * scale;
        if let Some(normals) = f.normals {
            if normals.len() != n {
                return Err(Error::InvalidGeometry(
                    "a polygon needs one normal per vertex",
                ));
            }
            for (i, &written) in normals.iter().enumerate() {
                let edge_length = (polygon.vertices[(i + 1) % n] - polygon.vertices[i]).length();
                let direction_error = ROUND_OFF + 2.0 * vertex_error / edge_length;
                let length = written.length();
                if !written.is_finite()
                    || (length - 1.0).abs() > 1.0e-3
                    || (written * (1.0 / length) - polygon.normals[i]).length() > direction_error
                {
                    return Err(Error::InvalidGeometry(
                        "a polygon normal is not the outward unit normal of its edge",
                    ));
                }
                polygon.normals[i] = written;
            }
        }
        if let Some(written) = f.centroid {
            let tolerance = ROUND_OFF * scale.max(1.0) + 2.0 * vertex_error;
            if !written.is_finite() || (written - polygon.centroid).length() > tolerance {
                return Err(Error::InvalidGeometry(
                    "a polygon centroid is not the centroid of its vertices",
                ));
            }
            polygon.centroid = written;
        }
        Ok(polygon)
    }
}
