//! Tile maps without ghost collisions.
//!
//! A floor built of separate static polygons that share edges (a tile map:
//! boxes side by side, on one static body or on many) is one surface to
//! whatever slides over it. Collided with one by one as whole polygons, the
//! tiles catch a sliding box on the corners where they meet ("ghost
//! collisions"): near the joint, the side face of the next tile, which lies
//! inside the floor, is the axis of least penetration.
//!
//! So the edges of every static polygon are classified (again after any edit
//! of the static tree, see [`update_tiles`]): an edge is *internal* when edges
//! of other static polygons lying along it and facing the other way cover it
//! (within [`SHARED_EDGE_TOLERANCE`]); the others are *exposed*. A polygon
//! with an internal edge is a *tile*: it collides through its exposed edges
//! only, each as a one-sided chain segment whose ghost vertices are the
//! neighbouring vertices of the outline of the union of tiles, so the chain
//! segment's manifold, which admits only normals of that smooth outline,
//! applies. Of the exposed edges' manifolds the one that separates most wins,
//! as separating axes choose for a convex polygon. A shape whose centroid is
//! inside the tile (a deep overlap, where no exposed edge faces it) gets the
//! polygon's own manifold, so it is still pushed out.
//!
//! Polygons that are really apart (a gap wider than the tolerance, a step, an
//! edge only partly covered) have no internal edge and collide exactly as
//! before. Rounded polygons, sensors and shapes on non-static bodies are never
//! tiles.
//!
//! Determinism: the classification is a function of the static shapes'
//! geometry and poses alone. Covering intervals are sorted before they are
//! merged, and the ghost vertex at a corner is the candidate that turns least
//! through the outside, ties broken by shape index and edge; nothing depends
//! on the order in which the tree reports neighbours.
//!
//! # References
//! - E. Catto, *Ghost vertices* and Box2D's chain shapes (`b2ChainSegment`,
//!   `b2CollideChainSegmentAndPolygon`); the FAQ's advice on tile maps.

use crate::body::{Body, BodyType};
use crate::collision::{
    Aabb, ChainSegment, DynamicTree, Manifold, Polygon, Segment, SimplexCache,
    collide_chain_segment_and_capsule, collide_chain_segment_and_circle,
    collide_chain_segment_and_polygon,
};
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::id::NULL_INDEX;
use crate::math::{PI, Transform, Vec2, atan2};
use crate::shape::{Shape, ShapeGeometry};
use crate::solver::solver_set::{STATIC_SET, SolverSet};

/// Two edges closer than this (metres) count as shared: a gap narrower than a
/// tenth of the linear slop cannot be told from float round-off in tile
/// positions, and nothing the solver keeps apart fits through it.
pub const SHARED_EDGE_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// Sine of the largest angle between two edges that still count as lying
/// along each other.
const PARALLEL_SIN: f32 = 1.0e-4;

/// A tile's exposed edges, in its body's frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TileEdges {
    /// Bit `i`: edge `i` (vertex `i` to vertex `i + 1`) is exposed.
    pub exposed: u8,
    /// Per exposed edge: the outline's vertex before vertex `i`.
    pub ghost1: [Vec2; MAX_POLYGON_VERTICES],
    /// Per exposed edge: the outline's vertex after vertex `i + 1`.
    pub ghost2: [Vec2; MAX_POLYGON_VERTICES],
}

/// A candidate tile in world coordinates.
#[derive(Clone, Copy)]
struct WorldPolygon {
    vertices: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    transform: Transform,
}

impl WorldPolygon {
    fn edge(&self, i: usize) -> (Vec2, Vec2) {
        (self.vertices[i], self.vertices[(i + 1) % self.count])
    }
}

/// The static, solid, sharp polygon `shape` in world coordinates, if it may
/// be a tile.
fn world_polygon(shape: &Shape, bodies: &[Body], static_set: &SolverSet) -> Option<WorldPolygon> {
    if shape.id == NULL_INDEX || shape.is_sensor {
        return None;
    }
    let ShapeGeometry::Polygon(p) = &shape.geometry else {
        return None;
    };
    if p.radius() != 0.0 {
        return None;
    }
    let body = &bodies[shape.body_id as usize];
    if body.body_type != BodyType::Static || body.set_index != STATIC_SET {
        return None;
    }
    let transform =
        crate::pos::to_transform(static_set.body_sims[body.local_index as usize].transform);
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (w, v) in vertices.iter_mut().zip(p.vertices()) {
        *w = transform.apply(*v);
    }
    Some(WorldPolygon {
        vertices,
        count: p.count(),
        transform,
    })
}

/// A box around the segment `a`–`b`, grown by the tolerance.
fn edge_box(a: Vec2, b: Vec2) -> Aabb {
    let t = Vec2::new(SHARED_EDGE_TOLERANCE, SHARED_EDGE_TOLERANCE);
    Aabb {
        lower: a.min(b) - t,
        upper: a.max(b) + t,
    }
}

/// The static shapes whose boxes touch `aabb`, sorted by index.
fn neighbours(tree: &DynamicTree, aabb: Aabb, out: &mut Vec<u32>) {
    out.clear();
    tree.query(aabb, u64::MAX, |_, user_data| {
        out.push(user_data as u32);
        true
    });
    out.sort_unstable();
    out.dedup();
}

/// Whether edge `a`–`b` is covered by edges of the other polygons that lie
/// along it facing the other way.
fn is_internal(
    own: u32,
    a: Vec2,
    b: Vec2,
    polygons: &[Option<WorldPolygon>],
    near: &[u32],
    intervals: &mut Vec<(f32, f32)>,
) -> bool {
    let (d, length) = (b - a).get_length_and_normalize();
    if length <= SHARED_EDGE_TOLERANCE {
        return true; // a degenerate edge covers no surface
    }
    intervals.clear();
    for &other in near {
        if other == own {
            continue;
        }
        let Some(poly) = polygons.get(other as usize).and_then(|p| p.as_ref()) else {
            continue;
        };
        for j in 0..poly.count {
            let (c, e) = poly.edge(j);
            let dj = (e - c).normalize();
            if d.dot(dj) >= 0.0 || d.cross(dj).abs() > PARALLEL_SIN {
                continue;
            }
            let off_c = (c - a).cross(d).abs();
            let off_e = (e - a).cross(d).abs();
            if off_c > SHARED_EDGE_TOLERANCE || off_e > SHARED_EDGE_TOLERANCE {
                continue;
            }
            let (tc, te) = ((c - a).dot(d), (e - a).dot(d));
            intervals.push((tc.min(te), tc.max(te)));
        }
    }
    intervals.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
    let mut covered = 0.0f32;
    for &(lo, hi) in intervals.iter() {
        if lo > covered + SHARED_EDGE_TOLERANCE {
            return false;
        }
        covered = covered.max(hi);
    }
    covered >= length - SHARED_EDGE_TOLERANCE
}

/// The counter-clockwise angle from unit vector `u` to unit vector `v`, in
/// `[0, 2π)`.
fn ccw_angle(u: Vec2, v: Vec2) -> f32 {
    let a = atan2(u.cross(v), u.dot(v));
    if a < 0.0 { a + 2.0 * PI } else { a }
}

/// A candidate for a ghost vertex: (turn, is a neighbour's, shape, edge, vertex).
type Ghost = (f32, bool, u32, usize, Vec2);

fn better(best: Option<Ghost>, c: Ghost) -> Option<Ghost> {
    match best {
        Some(b)
            if b.0
                .total_cmp(&c.0)
                .then(b.1.cmp(&c.1))
                .then(b.2.cmp(&c.2))
                .then(b.3.cmp(&c.3))
                .is_le() =>
        {
            Some(b)
        }
        _ => Some(c),
    }
}

/// Which neighbour of a vertex on the outline [`ghost`] looks for.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    /// The vertex before `w`: the start of the exposed edge that ends at `w`.
    Before,
    /// The vertex after `w`: the end of the exposed edge that starts at `w`.
    After,
}

/// The tiles' polygons and, per tile, the bit mask of its exposed edges.
struct Tiles<'a> {
    polygons: &'a [Option<WorldPolygon>],
    exposed: &'a [u8],
}

/// The outline's vertex on `side` of `w`, for the exposed edge of tile `own`
/// of direction `d` that starts (`Side::After`) or ends (`Side::Before`) at
/// `w`: of the exposed edges that reach `w` (the own polygon's neighbouring
/// edge, whose far vertex is `own_vertex`, and the edges of the tiles `near`
/// through `w`), the one met first turning clockwise from `d` through the
/// outside (for `Side::After`, counter-clockwise from `-d`). `fallback` when
/// none does.
#[allow(clippy::too_many_arguments)]
fn ghost(
    tiles: &Tiles<'_>,
    near: &[u32],
    own: u32,
    side: Side,
    w: Vec2,
    d: Vec2,
    own_vertex: Option<Vec2>,
    fallback: Vec2,
) -> Vec2 {
    let back = -d;
    let turn = |v: Vec2| {
        let towards = (v - w).normalize();
        match side {
            Side::Before => ccw_angle(towards, d),
            Side::After => ccw_angle(back, towards),
        }
    };
    let mut best: Option<Ghost> = None;
    if let Some(v) = own_vertex {
        best = better(best, (turn(v), false, own, 0, v));
    }
    for &other in near {
        if other == own {
            continue;
        }
        let Some(poly) = tiles.polygons.get(other as usize).and_then(|p| p.as_ref()) else {
            continue;
        };
        for j in 0..poly.count {
            if tiles.exposed[other as usize] & (1 << j) == 0 {
                continue;
            }
            let (c, e) = poly.edge(j);
            let v = if side == Side::Before { c } else { e };
            if v.distance(w) <= SHARED_EDGE_TOLERANCE || !on_segment(w, c, e) {
                continue;
            }
            best = better(best, (turn(v), true, other, j, v));
        }
    }
    best.map_or(fallback, |g| g.4)
}

/// Whether `w` lies on segment `c`–`e` (within the tolerance).
fn on_segment(w: Vec2, c: Vec2, e: Vec2) -> bool {
    let (d, length) = (e - c).get_length_and_normalize();
    if length <= SHARED_EDGE_TOLERANCE {
        return false;
    }
    let t = (w - c).dot(d);
    (w - c).cross(d).abs() <= SHARED_EDGE_TOLERANCE
        && t >= -SHARED_EDGE_TOLERANCE
        && t <= length + SHARED_EDGE_TOLERANCE
}

/// Classifies the edges of every static polygon and gives each tile (a
/// polygon with an internal edge) its [`TileEdges`]; every other shape's is
/// cleared. `tree` is the static broad-phase tree (user data: shape index).
pub(crate) fn update_tiles(
    shapes: &mut [Shape],
    bodies: &[Body],
    static_set: &SolverSet,
    tree: &DynamicTree,
) {
    let polygons: Vec<Option<WorldPolygon>> = shapes
        .iter()
        .map(|s| world_polygon(s, bodies, static_set))
        .collect();
    let mut near = Vec::new();
    let mut intervals = Vec::new();

    // Pass 1: which edges are exposed.
    let mut exposed = vec![0u8; shapes.len()];
    for (index, poly) in polygons.iter().enumerate() {
        let Some(poly) = poly else { continue };
        for i in 0..poly.count {
            let (a, b) = poly.edge(i);
            neighbours(tree, edge_box(a, b), &mut near);
            if !is_internal(index as u32, a, b, &polygons, &near, &mut intervals) {
                exposed[index] |= 1 << i;
            }
        }
    }

    // Pass 2: the ghost vertices of the tiles' exposed edges.
    let tiles = Tiles {
        polygons: &polygons,
        exposed: &exposed,
    };
    for (index, shape) in shapes.iter_mut().enumerate() {
        shape.tile = None;
        let Some(poly) = &polygons[index] else {
            continue;
        };
        let all = ((1u16 << poly.count) - 1) as u8;
        if exposed[index] == all {
            continue;
        }
        let own = index as u32;
        let n = poly.count;
        let mut edges = TileEdges {
            exposed: exposed[index],
            ..TileEdges::default()
        };
        for i in 0..n {
            if exposed[index] & (1 << i) == 0 {
                continue;
            }
            let (a, b) = poly.edge(i);
            let d = (b - a).normalize();
            let prev = (i + n - 1) % n;
            let next = (i + 1) % n;
            let own_prev = (exposed[index] & (1 << prev) != 0).then(|| poly.vertices[prev]);
            let own_next = (exposed[index] & (1 << next) != 0).then(|| poly.edge(next).1);
            let ends = [
                (Side::Before, a, own_prev, poly.vertices[prev]),
                (Side::After, b, own_next, poly.edge(next).1),
            ];
            let [g1, g2] = ends.map(|(side, w, own_vertex, fallback)| {
                neighbours(tree, edge_box(w, w), &mut near);
                let g = ghost(&tiles, &near, own, side, w, d, own_vertex, fallback);
                poly.transform.apply_inv(g)
            });
            (edges.ghost1[i], edges.ghost2[i]) = (g1, g2);
        }
        shape.tile = Some(Box::new(edges));
    }
}

/// The manifold between tile `polygon` (pose `xf_tile`, edges `edges`) and
/// shape `other` (pose `xf_other`), normal from the tile to `other`; `None`
/// when the polygon's own manifold applies (`other` is a segment or chain
/// segment, or its centroid is inside the tile).
pub(crate) fn collide_tile(
    polygon: &Polygon,
    edges: &TileEdges,
    xf_tile: Transform,
    other: &ShapeGeometry,
    xf_other: Transform,
) -> Option<Manifold> {
    if !matches!(
        other,
        ShapeGeometry::Circle(_) | ShapeGeometry::Capsule(_) | ShapeGeometry::Polygon(_)
    ) {
        return None;
    }
    let centroid = xf_tile.apply_inv(xf_other.apply(other.centroid()));
    let vertices = polygon.vertices();
    let inside = polygon
        .normals()
        .iter()
        .zip(vertices)
        .all(|(n, v)| n.dot(centroid - *v) < 0.0);
    if inside {
        return None;
    }
    let count = vertices.len();
    let mut best: Option<(f32, Manifold)> = None;
    for i in 0..count {
        if edges.exposed & (1 << i) == 0 {
            continue;
        }
        let chain = ChainSegment {
            ghost1: edges.ghost1[i],
            segment: Segment {
                point1: vertices[i],
                point2: vertices[(i + 1) % count],
            },
            ghost2: edges.ghost2[i],
            chain_id: u32::MAX,
        };
        let mut cache = SimplexCache::default();
        let mut m = match other {
            ShapeGeometry::Circle(c) => {
                collide_chain_segment_and_circle(&chain, xf_tile, c, xf_other)
            }
            ShapeGeometry::Capsule(c) => {
                collide_chain_segment_and_capsule(&chain, xf_tile, c, xf_other, &mut cache)
            }
            ShapeGeometry::Polygon(p) => {
                collide_chain_segment_and_polygon(&chain, xf_tile, p, xf_other, &mut cache)
            }
            _ => return None,
        };
        if m.point_count == 0 {
            continue;
        }
        // Tell the edges' points apart for warm starting.
        for mp in &mut m.points[..m.point_count] {
            mp.id |= (i as u16) << 12;
        }
        let separation = m
            .points()
            .iter()
            .map(|p| p.separation)
            .fold(f32::MAX, f32::min);
        if best.as_ref().is_none_or(|(s, _)| separation > *s) {
            best = Some((separation, m));
        }
    }
    Some(best.map_or_else(Manifold::default, |(_, m)| m))
}

/// `m` seen from the other shape: normal reversed, anchors swapped.
pub(crate) fn flip(mut m: Manifold) -> Manifold {
    m.normal = -m.normal;
    for mp in &mut m.points[..m.point_count] {
        std::mem::swap(&mut mp.anchor_a, &mut mp.anchor_b);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{make_box, make_offset_box};
    use crate::{BodyDef, BodyId, Rot, ShapeDef, ShapeId, World, WorldDef};

    /// Square tiles of side 1 at `centers` on one static body at the origin.
    fn tiles(world: &mut World, centers: &[Vec2]) -> (BodyId, Vec<ShapeId>) {
        let body = world.create_body(&BodyDef::default()).unwrap();
        let ids = centers
            .iter()
            .map(|&c| {
                let poly = make_offset_box(0.5, 0.5, c, Rot::IDENTITY).unwrap();
                world
                    .create_polygon_shape(body, &ShapeDef::default(), &poly)
                    .unwrap()
            })
            .collect();
        (body, ids)
    }

    fn edges(world: &mut World, shape: ShapeId) -> Option<TileEdges> {
        world.update_tiles();
        world.shapes[shape.index() as usize]
            .tile
            .as_deref()
            .cloned()
    }

    // A box's edges (make_box / make_offset_box): 0 bottom, 1 right, 2 top, 3 left.
    const BOTTOM: u8 = 1;
    const RIGHT: u8 = 2;
    const TOP: u8 = 4;
    const LEFT: u8 = 8;

    #[test]
    fn a_row_of_tiles_shares_its_side_edges() {
        let mut w = World::new(&WorldDef::default()).unwrap();
        let centers = [0.5, 1.5, 2.5].map(|x| Vec2::new(x, -0.5));
        let (_, ids) = tiles(&mut w, &centers);
        assert_eq!(edges(&mut w, ids[0]).unwrap().exposed, BOTTOM | TOP | LEFT);
        assert_eq!(edges(&mut w, ids[2]).unwrap().exposed, BOTTOM | RIGHT | TOP);
        let middle = edges(&mut w, ids[1]).unwrap();
        assert_eq!(middle.exposed, BOTTOM | TOP);
        // The middle top edge runs from (2, 0) to (1, 0); the outline goes on
        // along the neighbours' tops on both sides.
        assert_eq!(middle.ghost1[2], Vec2::new(3.0, 0.0));
        assert_eq!(middle.ghost2[2], Vec2::new(0.0, 0.0));
        // The left tile's top edge ends at its own convex corner.
        let left = edges(&mut w, ids[0]).unwrap();
        assert_eq!(left.ghost1[2], Vec2::new(2.0, 0.0));
        assert_eq!(left.ghost2[2], Vec2::new(0.0, -1.0));
    }

    #[test]
    fn a_gap_a_step_or_a_partial_cover_keeps_every_edge() {
        for second in [
            Vec2::new(1.51, -0.5), // a 1 cm gap
            Vec2::new(1.5, -0.4),  // a 10 cm step
            Vec2::new(1.5, 0.5),   // only corners touch
        ] {
            let mut w = World::new(&WorldDef::default()).unwrap();
            let (_, ids) = tiles(&mut w, &[Vec2::new(0.5, -0.5), second]);
            assert_eq!(edges(&mut w, ids[0]), None, "{second:?}");
            assert_eq!(edges(&mut w, ids[1]), None, "{second:?}");
        }
        // A gap narrower than the tolerance is no gap.
        let mut w = World::new(&WorldDef::default()).unwrap();
        let second = Vec2::new(1.5 + 0.5 * SHARED_EDGE_TOLERANCE, -0.5);
        let (_, ids) = tiles(&mut w, &[Vec2::new(0.5, -0.5), second]);
        assert_eq!(edges(&mut w, ids[0]).unwrap().exposed, BOTTOM | TOP | LEFT);
    }

    #[test]
    fn tiles_on_separate_turned_bodies_and_two_half_covers_count() {
        let mut w = World::new(&WorldDef::default()).unwrap();
        let q = Rot::from_angle(0.5);
        let ids: Vec<ShapeId> = [0.0f32, 1.0]
            .iter()
            .map(|&k| {
                let b = w
                    .create_body(&BodyDef {
                        position: crate::pos::to_pos(
                            q.rotate(Vec2::new(k, 0.0)) + Vec2::new(3.0, 2.0),
                        ),
                        rotation: q,
                        ..Default::default()
                    })
                    .unwrap();
                w.create_polygon_shape(b, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
                    .unwrap()
            })
            .collect();
        assert_eq!(edges(&mut w, ids[0]).unwrap().exposed, BOTTOM | TOP | LEFT);
        assert_eq!(edges(&mut w, ids[1]).unwrap().exposed, BOTTOM | RIGHT | TOP);

        // A 2 × 1 tile on two 1 × 1 tiles: its bottom is covered by two halves.
        let mut w = World::new(&WorldDef::default()).unwrap();
        let (body, ids) = tiles(&mut w, &[Vec2::new(0.5, -1.5), Vec2::new(1.5, -1.5)]);
        let wide = make_offset_box(1.0, 0.5, Vec2::new(1.0, -0.5), Rot::IDENTITY).unwrap();
        let top = w
            .create_polygon_shape(body, &ShapeDef::default(), &wide)
            .unwrap();
        assert_eq!(edges(&mut w, top).unwrap().exposed, RIGHT | TOP | LEFT);
        assert_eq!(edges(&mut w, ids[0]).unwrap().exposed, BOTTOM | LEFT);
    }

    #[test]
    fn destroying_a_tile_exposes_its_neighbours_edges() {
        let mut w = World::new(&WorldDef::default()).unwrap();
        let (_, ids) = tiles(&mut w, &[Vec2::new(0.5, -0.5), Vec2::new(1.5, -0.5)]);
        assert!(edges(&mut w, ids[0]).is_some());
        w.destroy_shape(ids[1], true).unwrap();
        assert_eq!(edges(&mut w, ids[0]), None);
    }

    #[test]
    fn the_classification_does_not_depend_on_creation_order() {
        let centers: Vec<Vec2> = (0..6)
            .map(|k| Vec2::new(0.5 + (k % 3) as f32, -0.5 - (k / 3) as f32))
            .collect();
        let mut forward = World::new(&WorldDef::default()).unwrap();
        let (_, a) = tiles(&mut forward, &centers);
        let reversed: Vec<Vec2> = centers.iter().rev().copied().collect();
        let mut backward = World::new(&WorldDef::default()).unwrap();
        let (_, b) = tiles(&mut backward, &reversed);
        for k in 0..centers.len() {
            let x = edges(&mut forward, a[k]);
            let y = edges(&mut backward, b[centers.len() - 1 - k]);
            assert_eq!(x, y, "tile at {:?}", centers[k]);
        }
    }
}
