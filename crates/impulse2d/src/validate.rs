//! The invariant checker: cross-checks every index and list of the world.
//!
//! Tests call [`World::validate`] after every step. It walks all solver sets,
//! bodies, shapes, contacts, islands and graph colours and reports the first
//! inconsistency it finds. It allocates and is slow; it changes nothing.

use crate::body::BodyType;
use crate::collision::{Polygon, make_polygon_from_placed};
use crate::contact::{contact_flags, pair_key, sim_flags};
use crate::error::Error;
use crate::id::NULL_INDEX;
use crate::math::Vec2;
use crate::solver::constraint_graph::{DYNAMIC_COLOR_COUNT, GRAPH_COLOR_COUNT, OVERFLOW_INDEX};
use crate::solver::island::Island;
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET, FIRST_SLEEPING_SET, STATIC_SET};
use crate::world::World;

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        let ok: bool = $cond;
        if !ok {
            return Err(format!($($msg)+));
        }
    };
}

/// Walks a doubly linked list from `head` (`NULL_INDEX` ends it): `visit(key)`
/// checks the node at a key and gives its back and next links. Each back link
/// must name the node before, and more than `limit` nodes is a loop; `what()`
/// names the list in those errors (formatted only then). Returns the number of nodes and the last
/// key (`NULL_INDEX` for an empty list).
pub(crate) fn walk_list(
    head: u32,
    limit: usize,
    what: impl Fn() -> String,
    mut visit: impl FnMut(u32) -> Result<(u32, u32), String>,
) -> Result<(usize, u32), String> {
    let (mut count, mut prev, mut key) = (0, NULL_INDEX, head);
    while key != NULL_INDEX {
        let (back, next) = visit(key)?;
        ensure!(back == prev, "{} has a bad back link", what());
        (prev, key) = (key, next);
        count += 1;
        ensure!(count <= limit, "{} loops", what());
    }
    Ok((count, prev))
}

/// The live slots of a store (a free one's `id` is NULL), in order, after
/// checking that each holds its own id (`kind` names the store in the error).
pub(crate) fn live_slots<'a, T>(
    kind: &str,
    items: &'a [T],
    id: impl Fn(&T) -> u32,
) -> Result<Vec<(usize, &'a T)>, String> {
    let mut live = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let item_id = id(item);
        if item_id != NULL_INDEX {
            ensure!(
                item_id == index as u32,
                "{kind} slot {index} holds id {item_id}"
            );
            live.push((index, item));
        }
    }
    Ok(live)
}

/// The links of an edge in body `index`'s list of contacts or joints
/// (`kind`), after checking that it points back to the body.
pub(crate) fn edge_links(
    kind: &str,
    index: usize,
    body_id: u32,
    prev: u32,
    next: u32,
) -> Result<(u32, u32), String> {
    ensure!(
        body_id == index as u32,
        "{kind} edge does not point back to body {index}"
    );
    Ok((prev, next))
}

/// Checks that `kind` `key` (a body or contact) of island `index` names the
/// island and is in its solver set (`place`: its island and set).
fn check_island_member(
    kind: &str,
    key: u32,
    index: usize,
    island: &Island,
    place: (u32, u32),
) -> Result<(), String> {
    ensure!(
        place.0 == index as u32,
        "{kind} {key} in island {index} names island {}",
        place.0
    );
    ensure!(
        place.1 == island.set_index,
        "{kind} {key} and island {index} in different sets"
    );
    Ok(())
}

/// The sim at `local` in `place` (a graph colour's or solver set's sims) of
/// `kind` `index` (a contact or joint).
pub(crate) fn sim_at<'a, T>(
    sims: &'a [T],
    local: u32,
    kind: &str,
    index: usize,
    place: impl std::fmt::Display,
) -> Result<&'a T, String> {
    let sim = sims.get(local as usize);
    sim.ok_or_else(|| format!("{kind} {index} local index out of {place}"))
}

/// Checks that body `index` lists as many of `what` as it counts.
pub(crate) fn check_count(
    index: usize,
    what: &str,
    listed: usize,
    counted: u32,
) -> Result<(), String> {
    ensure!(
        listed == counted as usize,
        "body {index} has {listed} {what} listed, {counted} counted"
    );
    Ok(())
}

impl World {
    /// Checks the world's internal invariants (solver sets, body and contact
    /// lists, islands, graph colours). Returns a description of the first
    /// broken one. Meant for tests; it is slow.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_sets()?;
        self.validate_bodies()?;
        self.validate_contacts()?;
        self.validate_islands()?;
        self.validate_graph()?;
        self.validate_sensors()?; // events
        self.joint_stores().validate_joints()?; // joints
        self.validate_proxies()?;
        Ok(())
    }

    /// Between steps, every shape's broad-phase proxy holds the shape's fat
    /// box, and no shape is left marked enlarged (the step's proxy
    /// enlargement consumed every mark, whichever way it was handed over).
    fn validate_proxies(&self) -> Result<(), String> {
        for (index, shape) in live_slots("shape", &self.shapes, |s| s.id)? {
            ensure!(
                !shape.enlarged_aabb,
                "shape {index} is still marked enlarged"
            );
            if let Some(key) = shape.proxy_key {
                let tree_box = self
                    .broad_phase
                    .fat_aabb(key)
                    .map_err(|e| format!("shape {index}'s proxy: {e}"))?;
                ensure!(
                    tree_box == shape.fat_aabb,
                    "shape {index}'s proxy box {tree_box:?} is not its fat box {:?}",
                    shape.fat_aabb
                );
            }
        }
        Ok(())
    }

    fn validate_sets(&self) -> Result<(), String> {
        for (set_index, set) in self.solver_sets.iter().enumerate() {
            let s = set_index as u32;
            if !set.in_use {
                ensure!(
                    set.body_sims.is_empty()
                        && set.contact_sims.is_empty()
                        && set.island_sims.is_empty(),
                    "free solver set {s} holds data"
                );
                continue;
            }
            if s == AWAKE_SET {
                ensure!(
                    set.body_states.len() == set.body_sims.len(),
                    "awake set has {} states for {} sims",
                    set.body_states.len(),
                    set.body_sims.len()
                );
            } else {
                ensure!(set.body_states.is_empty(), "set {s} has body states");
            }
            if s >= FIRST_SLEEPING_SET {
                ensure!(!set.body_sims.is_empty(), "sleeping set {s} is empty");
                ensure!(
                    !set.island_sims.is_empty(),
                    "sleeping set {s} has no island"
                );
            }
            if s == STATIC_SET || s == DISABLED_SET {
                ensure!(set.island_sims.is_empty(), "set {s} holds islands");
            }
            for (i, sim) in set.body_sims.iter().enumerate() {
                let body = self
                    .bodies
                    .get(sim.body_id as usize)
                    .ok_or_else(|| format!("set {s} sim {i} names body {}", sim.body_id))?;
                ensure!(body.id == sim.body_id, "set {s} sim {i} names a free body");
                ensure!(
                    body.set_index == s && body.local_index == i as u32,
                    "body {} thinks it is at ({}, {}), found at ({s}, {i})",
                    body.id,
                    body.set_index,
                    body.local_index
                );
                ensure!(
                    (s == STATIC_SET) == (body.body_type == BodyType::Static) || s == DISABLED_SET,
                    "body {} of type {:?} in set {s}",
                    body.id,
                    body.body_type
                );
                ensure!(
                    sim.transform.is_valid() && sim.center.is_finite(),
                    "body {} has a bad transform",
                    body.id
                );
            }
            for (i, cs) in set.contact_sims.iter().enumerate() {
                let c = &self.contacts[cs.contact_id as usize];
                ensure!(
                    c.contact_id == cs.contact_id,
                    "set {s} holds a free contact"
                );
                ensure!(
                    c.set_index == s && c.local_index == i as u32 && c.color_index == NULL_INDEX,
                    "contact {} thinks it is at set {} index {} colour {}, found in set {s} at {i}",
                    c.contact_id,
                    c.set_index,
                    c.local_index,
                    c.color_index
                );
                let touching = c.flags & contact_flags::TOUCHING != 0;
                if s >= FIRST_SLEEPING_SET {
                    ensure!(
                        touching,
                        "sleeping set {s} holds non-touching contact {}",
                        c.contact_id
                    );
                } else {
                    ensure!(!touching, "set {s} holds touching contact {}", c.contact_id);
                }
            }
            for (i, is) in set.island_sims.iter().enumerate() {
                let island = &self.islands[is.island_id as usize];
                ensure!(
                    island.island_id == is.island_id
                        && island.set_index == s
                        && island.local_index == i as u32,
                    "island {} is misplaced in set {s}",
                    is.island_id
                );
            }
        }
        Ok(())
    }

    fn validate_bodies(&self) -> Result<(), String> {
        let live = live_slots("body", &self.bodies, |b| b.id)?;
        for &(index, body) in &live {
            let set = self
                .solver_sets
                .get(body.set_index as usize)
                .filter(|s| s.in_use)
                .ok_or_else(|| format!("body {index} is in a bad set {}", body.set_index))?;
            ensure!(
                set.body_sims
                    .get(body.local_index as usize)
                    .map(|s| s.body_id)
                    == Some(index as u32),
                "body {index} sim is not at its local index"
            );
            let needs_island = body.set_index >= AWAKE_SET;
            ensure!(
                needs_island == (body.island_id != NULL_INDEX),
                "body {index} in set {} has island {}",
                body.set_index,
                body.island_id
            );
            if needs_island {
                let island = &self.islands[body.island_id as usize];
                ensure!(
                    island.set_index == body.set_index,
                    "body {index} is in set {} but its island is in set {}",
                    body.set_index,
                    island.set_index
                );
            }
            if body.body_type == BodyType::Dynamic {
                ensure!(body.mass > 0.0, "dynamic body {index} has no mass");
            }

            // Contact list.
            let what = || format!("body {index} contact list");
            let (count, _) = walk_list(body.head_contact_key, self.contacts.len(), what, |key| {
                let c = &self.contacts[(key >> 1) as usize];
                ensure!(
                    c.contact_id == key >> 1,
                    "body {index} lists free contact {}",
                    key >> 1
                );
                let edge = &c.edges[(key & 1) as usize];
                edge_links("contact", index, edge.body_id, edge.prev_key, edge.next_key)
            })?;
            check_count(index, "contacts", count, body.contact_count)?;

            // Shape list.
            let what = || format!("body {index} shape list");
            let (count, _) = walk_list(body.head_shape_id, self.shapes.len(), what, |shape_id| {
                let shape = &self.shapes[shape_id as usize];
                ensure!(
                    shape.id == shape_id,
                    "body {index} lists free shape {shape_id}"
                );
                ensure!(
                    shape.body_id == index as u32,
                    "shape {shape_id} names another body"
                );
                ensure!(
                    shape.proxy_key.is_some() == (body.set_index != DISABLED_SET),
                    "shape {shape_id} proxy does not match its body's enabled state"
                );
                ensure!(
                    body.set_index == DISABLED_SET || shape.fat_aabb.contains(&shape.aabb),
                    "shape {shape_id} fat box does not contain its box"
                );
                if let Some(key) = shape.proxy_key {
                    // The broad phase's box covers the shape (a refused
                    // enlargement would leave it behind).
                    let proxy_box = self.broad_phase.fat_aabb(key).map_err(|e| {
                        format!("shape {shape_id} has a stale proxy key {key:?}: {e}")
                    })?;
                    ensure!(
                        proxy_box.contains(&shape.aabb),
                        "shape {shape_id} box {:?} is outside its proxy's box {proxy_box:?}",
                        shape.aabb
                    );
                    // The step enlarges the proxy only when the shape leaves
                    // its own copy of the fat box: the two must agree.
                    ensure!(
                        proxy_box == shape.fat_aabb,
                        "shape {shape_id} fat box {:?} differs from its proxy's box {proxy_box:?}",
                        shape.fat_aabb
                    );
                }
                Ok((shape.prev_shape_id, shape.next_shape_id))
            })?;
            check_count(index, "shapes", count, body.shape_count)?;
        }
        ensure!(
            live.len() == self.body_ids.count() as usize,
            "body id pool count mismatch"
        );
        Ok(())
    }

    fn validate_contacts(&self) -> Result<(), String> {
        let live = live_slots("contact", &self.contacts, |c| c.contact_id)?;
        for &(index, c) in &live {
            ensure!(
                self.pair_set
                    .contains(&pair_key(c.shape_id_a, c.shape_id_b)),
                "contact {index} is missing from the pair set"
            );
            let touching = c.flags & contact_flags::TOUCHING != 0;
            let sim = if c.color_index != NULL_INDEX {
                ensure!(
                    c.set_index == AWAKE_SET,
                    "graph contact {index} not in the awake set"
                );
                ensure!(touching, "graph contact {index} is not touching");
                let sims = &self.graph.colors[c.color_index as usize].contact_sims;
                sim_at(sims, c.local_index, "contact", index, "its colour")?
            } else {
                ensure!(
                    !(touching && c.set_index == AWAKE_SET),
                    "awake touching contact {index} is not in the graph"
                );
                let sims = &self.solver_sets[c.set_index as usize].contact_sims;
                sim_at(sims, c.local_index, "contact", index, "its set")?
            };
            ensure!(
                sim.contact_id == index as u32,
                "contact {index} sim names {}",
                sim.contact_id
            );
            ensure!(
                sim.shape_id_a == c.shape_id_a && sim.shape_id_b == c.shape_id_b,
                "contact {index} sim has other shapes"
            );
            ensure!(
                touching == (sim.manifold.point_count > 0)
                    && touching == (sim.sim_flags & sim_flags::TOUCHING != 0),
                "contact {index} touching flag disagrees with its manifold"
            );
            // The narrow phase's change flags are consumed within the step.
            ensure!(
                sim.sim_flags
                    & (sim_flags::DISJOINT
                        | sim_flags::STARTED_TOUCHING
                        | sim_flags::STOPPED_TOUCHING)
                    == 0,
                "contact {index} carries a state change between steps"
            );
            ensure!(
                touching == (c.island_id != NULL_INDEX),
                "contact {index} touching={touching} but island {}",
                c.island_id
            );
            for (e, edge) in c.edges.iter().enumerate() {
                let shape = if e == 0 { c.shape_id_a } else { c.shape_id_b };
                ensure!(
                    self.shapes[shape as usize].body_id == edge.body_id,
                    "contact {index} edge {e} names the wrong body"
                );
            }
            let (a, b) = (
                &self.bodies[c.edges[0].body_id as usize],
                &self.bodies[c.edges[1].body_id as usize],
            );
            ensure!(
                a.set_index != DISABLED_SET && b.set_index != DISABLED_SET,
                "contact {index} involves a disabled body"
            );
            let any_awake = a.set_index == AWAKE_SET || b.set_index == AWAKE_SET;
            if c.set_index == AWAKE_SET {
                ensure!(any_awake, "awake contact {index} has no awake body");
            } else if c.set_index == DISABLED_SET {
                ensure!(!any_awake, "parked contact {index} has an awake body");
            }
        }
        ensure!(
            live.len() == self.contact_ids.count() as usize,
            "contact id pool count mismatch"
        );
        ensure!(
            live.len() == self.pair_set.len(),
            "{} pairs for {} contacts",
            self.pair_set.len(),
            live.len()
        );
        Ok(())
    }

    fn validate_islands(&self) -> Result<(), String> {
        for (index, island) in live_slots("island", &self.islands, |i| i.island_id)? {
            ensure!(island.head_body != NULL_INDEX, "island {index} has no body");
            let what = || format!("island {index} body list");
            let (count, last) = walk_list(island.head_body, self.bodies.len(), what, |b| {
                let body = &self.bodies[b as usize];
                let place = (body.island_id, body.set_index);
                check_island_member("body", b, index, island, place)?;
                Ok((body.island_prev, body.island_next))
            })?;
            ensure!(
                last == island.tail_body,
                "island {index} tail body is wrong"
            );
            ensure!(
                count == island.body_count as usize,
                "island {index} body count is wrong"
            );

            let what = || format!("island {index} contact list");
            let (count, last) = walk_list(island.head_contact, self.contacts.len(), what, |c| {
                let contact = &self.contacts[c as usize];
                let place = (contact.island_id, contact.set_index);
                check_island_member("contact", c, index, island, place)?;
                ensure!(
                    contact.flags & contact_flags::TOUCHING != 0,
                    "island {index} holds non-touching contact {c}"
                );
                Ok((contact.island_prev, contact.island_next))
            })?;
            ensure!(
                last == island.tail_contact,
                "island {index} tail contact is wrong"
            );
            ensure!(
                count == island.contact_count as usize,
                "island {index} contact count is wrong"
            );
        }
        Ok(())
    }

    fn validate_graph(&self) -> Result<(), String> {
        for (ci, color) in self.graph.colors.iter().enumerate() {
            let mut used = crate::bitset::BitSet::default();
            used.set_bit_count_and_clear(self.bodies.len() as u32);
            for (i, sim) in color.contact_sims.iter().enumerate() {
                let c = &self.contacts[sim.contact_id as usize];
                ensure!(
                    c.contact_id == sim.contact_id
                        && c.color_index == ci as u32
                        && c.local_index == i as u32,
                    "contact {} is misplaced in colour {ci}",
                    sim.contact_id
                );
                ensure!(
                    sim.manifold.point_count > 0,
                    "colour {ci} holds an empty manifold"
                );
                let mut statics = 0;
                for (body_id, sim_index) in [
                    (c.edges[0].body_id, sim.body_sim_index_a),
                    (c.edges[1].body_id, sim.body_sim_index_b),
                ] {
                    let body = &self.bodies[body_id as usize];
                    if body.body_type == BodyType::Static {
                        statics += 1;
                        ensure!(
                            sim_index == NULL_INDEX,
                            "static body {body_id} has a solver index"
                        );
                        continue;
                    }
                    ensure!(
                        body.set_index == AWAKE_SET,
                        "graph contact body {body_id} is not awake"
                    );
                    // Solver indices go stale when another island falls asleep
                    // and bodies move in the awake set; the narrow phase
                    // refreshes them before the solver reads them.
                    ensure!(
                        sim_index != NULL_INDEX,
                        "contact {} lost its solver index",
                        sim.contact_id
                    );
                    if ci != OVERFLOW_INDEX && body.body_type == BodyType::Dynamic {
                        ensure!(!used.get(body_id), "colour {ci} uses body {body_id} twice");
                        used.set(body_id);
                        ensure!(
                            color.body_set.get(body_id),
                            "colour {ci} misses body {body_id} in its set"
                        );
                    }
                }
                if ci != OVERFLOW_INDEX {
                    let both_dynamic = statics == 0
                        && self.bodies[c.edges[0].body_id as usize].body_type == BodyType::Dynamic
                        && self.bodies[c.edges[1].body_id as usize].body_type == BodyType::Dynamic;
                    if both_dynamic {
                        ensure!(
                            ci < DYNAMIC_COLOR_COUNT,
                            "dynamic pair in static colour {ci}"
                        );
                    } else {
                        ensure!(ci >= 1, "static contact in colour 0");
                    }
                }
            }
            self.joint_stores().validate_color_joints(ci, &mut used)?; // joints
            if ci != OVERFLOW_INDEX {
                for body_id in color.body_set.iter() {
                    ensure!(
                        used.get(body_id),
                        "colour {ci} marks body {body_id} without a constraint"
                    );
                }
            }
        }
        ensure!(
            GRAPH_COLOR_COUNT == OVERFLOW_INDEX + 1,
            "colour constants disagree"
        );
        Ok(())
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

/// A polygon from stored parts (serde, snapshots), checked as
/// [`make_polygon`](crate::collision::make_polygon) checks its input: 3 to 8
/// strictly convex counter-clockwise `vertices` within `±HUGE` and a `radius`
/// in `[0, HUGE]` (metres). The normals and centroid are computed from the
/// vertices; written ones are kept when they agree with them.
///
/// A constructor may compute the normals and centroid in another way than
/// from the stored vertices (a box rotates its axes' normals and takes its
/// centre as centroid), so a written normal is accepted when its length is 1
/// within 1e-3 (a rotation's own tolerance) and its direction differs from
/// the edge's by no more than the rounding of the edge's end points explains;
/// the centroid likewise.
///
/// # Errors
/// As [`make_polygon`](crate::collision::make_polygon);
/// [`Error::InvalidGeometry`] for a written normal or centroid that does not
/// belong to the vertices.
pub(crate) fn polygon_from_parts(
    vertices: &[Vec2],
    radius: f32,
    normals: Option<&[Vec2]>,
    centroid: Option<Vec2>,
) -> crate::error::Result<Polygon> {
    let mut polygon = make_polygon_from_placed(vertices, radius)?;
    let n = polygon.count;
    let scale = vertices
        .iter()
        .fold(0.0f32, |m, v| m.max(v.x.abs()).max(v.y.abs()));
    let vertex_error = PLACEMENT_ROUNDING * scale;
    if let Some(normals) = normals {
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
    if let Some(written) = centroid {
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
