//! Interoperability behind optional cargo features.
//!
//! | feature | what it adds |
//! |---|---|
//! | `glam` | `From`/`TryFrom` between [`Vec2`](crate::Vec2), [`Rot`](crate::Rot), [`Transform`](crate::Transform), [`Mat22`](crate::Mat22) and glam's `Vec2`, `Mat2`, `Affine2` (any glam from 0.30 to 0.33) |
//! | `mint` | `From`/`TryFrom` between [`Vec2`](crate::Vec2), [`Rot`](crate::Rot), [`Transform`](crate::Transform), [`Mat22`](crate::Mat22) and mint's `Vector2<f32>`, `Point2<f32>`, `ColumnMatrix2<f32>`, `RowMatrix2<f32>`, `ColumnMatrix2x3<f32>`; `mint::IntoMint` for [`Vec2`](crate::Vec2) and [`Mat22`](crate::Mat22) |
//! | `serde` | `Serialize`/`Deserialize` for the math types, [`Aabb`](crate::collision::Aabb), the geometry types, the ids, [`BodyType`](crate::BodyType), [`Filter`](crate::Filter) and every `*Def` |
//!
//! Every conversion copies `f32` fields one for one: no arithmetic, so a round
//! trip gives back the same bits.
//!
//! The `glam` feature accepts glam 0.30 to 0.33 (checked with 0.30.10 and
//! 0.33.12). Cargo resolves it to the newest; an application using an older
//! glam in that range makes both one with
//! `cargo update -p glam@<newest> --precise <its version>`.
//!
//! # Rotations
//! A [`Rot`](crate::Rot) holds the cosine and sine of an angle θ. As a matrix it is the
//! rotation matrix whose columns are the rotated axes, `(c, s)` and `(−s, c)`:
//! glam's `Mat2::from_angle(θ)` and a mint `ColumnMatrix2` with `x = (c, s)`,
//! `y = (−s, c)`. A [`Transform`](crate::Transform) is the affine map `v ↦ R·v + p`: glam's
//! `Affine2 { matrix2: R, translation: p }` and mint's `ColumnMatrix2x3` with
//! columns `x = (c, s)`, `y = (−s, c)`, `z = p`.
//!
//! A rotation or transform always converts to a matrix (`From`). The way back
//! is `TryFrom`: it accepts only a matrix whose second column is exactly the
//! first turned a quarter turn, `(−s, c)`, and whose first column has unit
//! length within [`Rot::is_valid`](crate::Rot::is_valid)'s tolerance (a scaled or sheared matrix is
//! an [`Error::InvalidGeometry`](crate::Error::InvalidGeometry)); the numbers are then copied unchanged.
//!
//! # Serde
//! Fields keep their Rust names; enums are written by variant name. Missing
//! fields of a `*Def` take their `Default` values, so a file need only
//! list what differs (`{"body_type": "Dynamic", "position": {"x": 0, "y": 4}}`).
//! No `*Def` holds a callback: the custom filter and pre-solve callbacks are
//! installed on the [`World`](crate::World), and user data is a plain `u64`,
//! so nothing is skipped.
//!
//! Geometry is deserialised through its validating constructor and an
//! invalid shape is an error, never a bad value: [`Circle`](crate::collision::Circle)
//! through `Circle::new`, [`Capsule`](crate::collision::Capsule) through
//! `Capsule::new`, [`Segment`](crate::collision::Segment) through
//! `Segment::new`, and [`Polygon`](crate::collision::Polygon) (written as its
//! counter-clockwise `vertices`, `radius`, `normals` and `centroid`) through
//! the same checks as `make_polygon`: 3 to 8 strictly convex
//! counter-clockwise vertices within `±HUGE` and a radius in `[0, HUGE]`.
//! `normals` and `centroid` may be left out, and are then computed from the
//! vertices; when given, each must agree with the computed one to within
//! what `f32` rounding of the vertices explains, and is kept as written, so
//! that a polygon round-trips to an equal one.
//!
//! Ids are written as `{index, world, generation}`. An id names an object of
//! one [`World`](crate::World) in one process; a deserialised id is only
//! useful with the world that made it (any other world rejects it as
//! [`Error::InvalidId`](crate::Error::InvalidId)).

#[cfg(feature = "glam")]
mod glam;
#[cfg(feature = "mint")]
mod mint;
#[cfg(feature = "serde")]
pub(crate) mod serde;

/// The rotation whose matrix has columns `x_axis` and `y_axis`, if they are
/// exactly a rotation's: `y_axis` is `x_axis` turned a quarter turn and
/// `x_axis` has unit length (within [`Rot::is_valid`](crate::Rot::is_valid)'s tolerance).
#[cfg(any(feature = "glam", feature = "mint"))]
fn rot_from_columns(x_axis: crate::Vec2, y_axis: crate::Vec2) -> crate::Result<crate::Rot> {
    let q = crate::Rot {
        c: x_axis.x,
        s: x_axis.y,
    };
    if q.is_valid() && y_axis == q.y_axis() {
        Ok(q)
    } else {
        Err(crate::Error::InvalidGeometry(
            "the matrix is not a rotation: its columns must be (c, s) and (-s, c) with c² + s² = 1",
        ))
    }
}
