//! Serde support (feature `serde`): the forms geometry is read through, so
//! that it goes through its validating constructor. See the
//! [module docs](super).
//!
//! Everything else derives `Serialize`/`Deserialize` where it is defined.

use serde::{Deserialize, Serialize};

use crate::collision::{Capsule, Circle, Polygon, Segment};
use crate::error::{Error, Result};
use crate::math::Vec2;
use crate::validate::polygon_from_parts;

/// The form a shape is read in (`$fields`: its fields, by name) and its
/// conversion through the shape's validating constructor `$shape::new`, which
/// takes the fields in order.
macro_rules! checked_fields {
    ($(#[$doc:meta])* $fields:ident => $shape:ident { $($field:ident: $ty:ty),* }) => {
        $(#[$doc])*
        #[derive(Deserialize)]
        pub(crate) struct $fields {
            $($field: $ty),*
        }

        impl TryFrom<$fields> for $shape {
            type Error = Error;

            fn try_from(f: $fields) -> Result<$shape> {
                $shape::new($(f.$field),*)
            }
        }
    };
}

checked_fields!(
    /// A circle as read, before [`Circle::new`] checks it.
    CircleFields => Circle { center: Vec2, radius: f32 }
);
checked_fields!(
    /// A capsule as read, before [`Capsule::new`] checks it.
    CapsuleFields => Capsule { center1: Vec2, center2: Vec2, radius: f32 }
);
checked_fields!(
    /// A segment as read, before [`Segment::new`] checks it.
    SegmentFields => Segment { point1: Vec2, point2: Vec2 }
);

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

impl TryFrom<PolygonFields> for Polygon {
    type Error = Error;

    /// Checks the vertices and radius as [`make_polygon`](crate::collision::make_polygon)
    /// does, computes the normals and centroid, and keeps written ones that
    /// agree with them (see [`polygon_from_parts`]).
    fn try_from(f: PolygonFields) -> Result<Polygon> {
        polygon_from_parts(&f.vertices, f.radius, f.normals.as_deref(), f.centroid)
    }
}
