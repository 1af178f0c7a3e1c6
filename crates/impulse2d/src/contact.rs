//! Contacts: one per pair of shapes whose fat boxes overlap.
//!
//! A contact is created when the broad phase finds a new overlapping pair and
//! destroyed when the fat boxes separate. In between, the narrow phase updates
//! its manifold every step; impulses are carried over from the previous step
//! for points with the same feature id (warm starting). A contact is
//! *touching* when its manifold has points (which happens up to the speculative
//! distance before the shapes meet); only touching contacts link islands and
//! enter the constraint graph.
//!
//! Material mixing (Box2D's rules): friction `√(f_a·f_b)`, restitution
//! `max(r_a, r_b)` (both replaceable with [`World::set_friction_mixing`] and
//! [`World::set_restitution_mixing`], or with functions that also see the
//! shapes' user material ids: [`World::set_friction_callback`],
//! [`World::set_restitution_callback`]), rolling resistance
//! `max(c_a, c_b)·max(radius_a, radius_b)`, tangent speed `s_a + s_b`.

use crate::body::BodyType;
use crate::collision::{
    Manifold, SimplexCache, collide_capsule_and_circle, collide_capsules,
    collide_chain_segment_and_capsule, collide_chain_segment_and_circle,
    collide_chain_segment_and_polygon, collide_circles, collide_polygon_and_capsule,
    collide_polygon_and_circle, collide_polygons, collide_segment_and_capsule,
    collide_segment_and_circle, collide_segment_and_polygon,
};
use crate::core::LINEAR_SLOP;
use crate::filter::{PanicSlot, guarded};
use crate::id::{ContactId, NULL_INDEX, ShapeId};
use crate::math::{Rot, Transform, Vec2};
use crate::pos::WorldTransform;
use crate::shape::{Shape, ShapeGeometry};
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;

/// Bits of [`Contact::flags`].
pub(crate) mod contact_flags {
    /// The manifold has points.
    pub const TOUCHING: u32 = 1 << 0;
    /// One of the shapes wants begin/end touch events.
    pub const ENABLE_CONTACT_EVENTS: u32 = 1 << 1;
}

/// Bits of [`ContactSim::sim_flags`], written by the narrow phase.
pub(crate) mod sim_flags {
    pub const TOUCHING: u32 = 1 << 0;
    /// The fat boxes no longer overlap: destroy the contact.
    pub const DISJOINT: u32 = 1 << 1;
    pub const STARTED_TOUCHING: u32 = 1 << 2;
    pub const STOPPED_TOUCHING: u32 = 1 << 3;
    pub const ENABLE_HIT_EVENT: u32 = 1 << 4;
    pub const ENABLE_PRE_SOLVE_EVENTS: u32 = 1 << 5;
    /// The cached poses below belong to the current manifold (recycling).
    pub const RECYCLE_VALID: u32 = 1 << 6;
}

/// One end of a contact in a body's doubly linked contact list. Keys are
/// `(contact_id << 1) | edge_index`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactEdge {
    pub body_id: u32,
    pub prev_key: u32,
    pub next_key: u32,
}

/// The cold part of a contact, stored in `World::contacts` at its id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Contact {
    /// The solver set holding the [`ContactSim`]: awake (in the graph when
    /// touching, in the awake set's list when not), a sleeping set (touching
    /// only) or the disabled set (non-touching contacts between sleeping bodies).
    pub set_index: u32,
    /// Graph colour when the contact is an awake constraint, else NULL.
    pub color_index: u32,
    pub local_index: u32,
    pub edges: [ContactEdge; 2],
    pub shape_id_a: u32,
    pub shape_id_b: u32,
    pub island_prev: u32,
    pub island_next: u32,
    pub island_id: u32,
    /// The contact's index, or NULL while the slot is free.
    pub contact_id: u32,
    pub generation: u32,
    pub flags: u32,
}

impl Contact {
    /// Whether shape `si` is one of the contact's two shapes.
    #[inline]
    pub(crate) fn has_shape(&self, si: usize) -> bool {
        self.shape_id_a as usize == si || self.shape_id_b as usize == si
    }
}

/// A walk along a body's contact list (from `Body::head_contact_key`) that
/// holds no borrow of the world between steps, so the loop may change or
/// destroy the contact it is at: the next key is read before it is handed out.
pub(crate) struct ContactEdges(u32);

impl ContactEdges {
    /// The walk over the contacts of `body`.
    #[inline]
    pub(crate) fn of(body: &crate::body::Body) -> ContactEdges {
        ContactEdges(body.head_contact_key)
    }

    /// The next contact's id and the body's edge in it (0 or 1).
    #[inline]
    pub(crate) fn next(&mut self, contacts: &[Contact]) -> Option<(u32, usize)> {
        if self.0 == NULL_INDEX {
            return None;
        }
        let (contact_id, edge) = (self.0 >> 1, (self.0 & 1) as usize);
        self.0 = contacts[contact_id as usize].edges[edge].next_key;
        Some((contact_id, edge))
    }
}

impl Default for Contact {
    fn default() -> Self {
        let edge = ContactEdge {
            body_id: NULL_INDEX,
            prev_key: NULL_INDEX,
            next_key: NULL_INDEX,
        };
        Contact {
            set_index: NULL_INDEX,
            color_index: NULL_INDEX,
            local_index: NULL_INDEX,
            edges: [edge; 2],
            shape_id_a: NULL_INDEX,
            shape_id_b: NULL_INDEX,
            island_prev: NULL_INDEX,
            island_next: NULL_INDEX,
            island_id: NULL_INDEX,
            contact_id: NULL_INDEX,
            generation: 0,
            flags: 0,
        }
    }
}

/// The part of a contact the narrow phase and solver use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactSim {
    pub contact_id: u32,
    /// Index of each body in the awake set, or NULL when it is not awake
    /// (static bodies).
    pub body_sim_index_a: u32,
    pub body_sim_index_b: u32,
    pub shape_id_a: u32,
    pub shape_id_b: u32,
    pub inv_mass_a: f32,
    pub inv_i_a: f32,
    pub inv_mass_b: f32,
    pub inv_i_b: f32,
    pub manifold: Manifold,
    pub friction: f32,
    pub restitution: f32,
    pub rolling_resistance: f32,
    pub tangent_speed: f32,
    pub sim_flags: u32,
    pub cache: SimplexCache,
    /// Recycling: the bodies' rotations and relative pose when the manifold
    /// was computed, and each point's separation then.
    pub cached_rotation_a: Rot,
    pub cached_rotation_b: Rot,
    pub cached_relative: Transform,
    pub base_separation: [f32; 2],
}

/// A contact's public view: the shapes and the manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactData {
    /// The contact.
    pub contact_id: ContactId,
    /// The first shape (the manifold normal points from A to B).
    pub shape_id_a: ShapeId,
    /// The second shape.
    pub shape_id_b: ShapeId,
    /// Points, normal and the impulses of the last step.
    pub manifold: Manifold,
}

/// A body resting on one point whose contact force passes more than this
/// (metres) beside its centre of mass is tipping over and may not sleep
/// (see `World::island_is_tipping`): a hundredth of the linear slop, far
/// above the round-off of a ball's contact normal through its centre.
pub(crate) const TIPPING_ARM: f32 = 0.01 * LINEAR_SLOP;

/// The key of an unordered shape pair (smaller id in the high half).
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((lo as u64) << 32) | hi as u64
}

/// A rule combining the two shapes' coefficients into the contact's.
pub type MixingRule = fn(f32, f32) -> f32;

/// A mixing function that also sees the shapes' user material ids
/// ([`SurfaceMaterial::user_material_id`](crate::shape::SurfaceMaterial::user_material_id)):
/// `(coefficient_a, material_a, coefficient_b, material_b) → coefficient`. It
/// runs in the narrow phase, possibly on the worker threads, so it is
/// `Send + Sync`; it must be a pure function of its arguments (the same
/// answer every time) for results to stay deterministic, and should return a
/// finite value ≥ 0 (any other answer is replaced by the default rule's).
///
/// If it panics, that contact gets the default rule's coefficient, the step
/// finishes and then passes the panic on from [`World::step`]; the world stays
/// valid and may be stepped on (as for a panicking pre-solve callback, see
/// [`World::set_pre_solve`]).
pub type MixingFn = dyn Fn(f32, u64, f32, u64) -> f32 + Send + Sync;

/// Default friction mixing: the geometric mean `√(a·b)` (a frictionless
/// shape makes every contact frictionless).
// Never inlined, so that it has one address: passing it to
// `World::set_friction_mixing` restores the inline path of `Mixing::mix`.
#[inline(never)]
pub fn mix_friction(a: f32, b: f32) -> f32 {
    friction_rule(a, b)
}

/// Default restitution mixing: the larger coefficient (a bouncy ball
/// bounces on any floor).
#[inline(never)]
pub fn mix_restitution(a: f32, b: f32) -> f32 {
    restitution_rule(a, b)
}

/// [`mix_friction`]'s rule, inlined where the narrow phase mixes.
#[inline(always)]
fn friction_rule(a: f32, b: f32) -> f32 {
    (a * b).sqrt()
}

/// [`mix_restitution`]'s rule, inlined where the narrow phase mixes.
#[inline(always)]
fn restitution_rule(a: f32, b: f32) -> f32 {
    a.max(b)
}

/// The material mixing functions of a world (see [`World::set_friction_mixing`]).
/// `None` stands for the default rule ([`mix_friction`], [`mix_restitution`]),
/// which [`Mixing::mix`] computes inline: no call through a box and no unwind
/// guard per contact when the user set no function (issue 24: the two boxed
/// calls behind `catch_unwind` cost more than the narrow phase's SIMD dispatch
/// saved).
#[derive(Default)]
pub(crate) struct Mixing {
    /// The user's friction function; `None`: [`mix_friction`].
    pub friction: Option<Box<MixingFn>>,
    /// The user's restitution function; `None`: [`mix_restitution`].
    pub restitution: Option<Box<MixingFn>>,
    /// The first panic of a mixing function, resumed after the step (see
    /// `filter.rs`).
    pub panic: PanicSlot,
}

impl Mixing {
    /// The contact's friction and restitution from its two shapes. A mixing
    /// function that panics or answers NaN, infinity or a negative number is
    /// overruled by the default rule ([`mix_friction`], [`mix_restitution`]),
    /// so that the solver only ever sees finite coefficients ≥ 0. With the
    /// default rules (no user function) this is the two rules inline, with
    /// the same bits as calling them.
    #[inline(always)]
    pub(crate) fn mix(&self, a: &Shape, b: &Shape) -> (f32, f32) {
        let friction = friction_rule(a.friction, b.friction);
        let restitution = restitution_rule(a.restitution, b.restitution);
        if self.friction.is_none() && self.restitution.is_none() {
            return (friction, restitution);
        }
        self.mix_by_user_functions(a, b, friction, restitution)
    }

    /// [`Mixing::mix`] when a user function is set: each set function is
    /// called under the unwind guard and its answer checked; `friction` and
    /// `restitution` are the default rules' answers.
    #[inline(never)]
    fn mix_by_user_functions(
        &self,
        a: &Shape,
        b: &Shape,
        friction: f32,
        restitution: f32,
    ) -> (f32, f32) {
        let (ia, ib) = (a.user_material_id, b.user_material_id);
        let call = |f: Option<&MixingFn>, ca: f32, cb: f32, default: f32| {
            let Some(f) = f else {
                return default;
            };
            let mixed = guarded(&self.panic, default, || f(ca, ia, cb, ib));
            if mixed.is_finite() && mixed >= 0.0 {
                mixed
            } else {
                default
            }
        };
        (
            call(self.friction.as_deref(), a.friction, b.friction, friction),
            call(
                self.restitution.as_deref(),
                a.restitution,
                b.restitution,
                restitution,
            ),
        )
    }
}

/// A [`MixingRule`] as the world keeps it: `None` for the default rule
/// `default` itself (the inline path of [`Mixing::mix`]), else the rule as a
/// [`MixingFn`] (the material ids unused). The default rules are never
/// inlined, so each has one address; a rule computing the same under another
/// address takes the general path, with the same results.
fn from_rule(rule: MixingRule, default: MixingRule) -> Option<Box<MixingFn>> {
    if std::ptr::fn_addr_eq(rule, default) {
        None
    } else {
        Some(Box::new(move |a, _, b, _| rule(a, b)))
    }
}

impl std::fmt::Debug for Mixing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Mixing { .. }")
    }
}

/// Whether a manifold function exists for the pair, and whether the pair must
/// be swapped so that A has it (`Some(true)`).
pub(crate) fn pair_order(a: &ShapeGeometry, b: &ShapeGeometry) -> Option<bool> {
    use ShapeGeometry as G;
    match (a, b) {
        (G::Circle(_), G::Circle(_))
        | (G::Capsule(_), G::Circle(_) | G::Capsule(_))
        | (G::Polygon(_), G::Circle(_) | G::Capsule(_) | G::Polygon(_))
        | (G::Segment(_), G::Circle(_) | G::Capsule(_) | G::Polygon(_))
        | (G::ChainSegment(_), G::Circle(_) | G::Capsule(_) | G::Polygon(_)) => Some(false),
        (G::Circle(_), G::Capsule(_) | G::Polygon(_) | G::Segment(_) | G::ChainSegment(_))
        | (G::Capsule(_), G::Polygon(_) | G::Segment(_) | G::ChainSegment(_))
        | (G::Polygon(_), G::Segment(_) | G::ChainSegment(_)) => Some(true),
        _ => None,
    }
}

/// The manifold of an ordered pair (see [`pair_order`]), points relative to the
/// body origins.
#[inline(always)]
fn compute_manifold(
    a: &ShapeGeometry,
    xf_a: Transform,
    b: &ShapeGeometry,
    xf_b: Transform,
    cache: &mut SimplexCache,
) -> Manifold {
    use ShapeGeometry as G;
    match (a, b) {
        (G::Circle(a), G::Circle(b)) => collide_circles(a, xf_a, b, xf_b),
        (G::Capsule(a), G::Circle(b)) => collide_capsule_and_circle(a, xf_a, b, xf_b),
        (G::Capsule(a), G::Capsule(b)) => collide_capsules(a, xf_a, b, xf_b),
        (G::Polygon(a), G::Circle(b)) => collide_polygon_and_circle(a, xf_a, b, xf_b),
        (G::Polygon(a), G::Capsule(b)) => collide_polygon_and_capsule(a, xf_a, b, xf_b),
        (G::Polygon(a), G::Polygon(b)) => collide_polygons(a, xf_a, b, xf_b),
        (G::Segment(a), G::Circle(b)) => collide_segment_and_circle(a, xf_a, b, xf_b),
        (G::Segment(a), G::Capsule(b)) => collide_segment_and_capsule(a, xf_a, b, xf_b),
        (G::Segment(a), G::Polygon(b)) => collide_segment_and_polygon(a, xf_a, b, xf_b),
        (G::ChainSegment(a), G::Circle(b)) => collide_chain_segment_and_circle(a, xf_a, b, xf_b),
        (G::ChainSegment(a), G::Capsule(b)) => {
            collide_chain_segment_and_capsule(a, xf_a, b, xf_b, cache)
        }
        (G::ChainSegment(a), G::Polygon(b)) => {
            collide_chain_segment_and_polygon(a, xf_a, b, xf_b, cache)
        }
        _ => Manifold::default(),
    }
}

/// The manifold of a pair with a tile (a static polygon sharing edges with
/// others, see `tile_map.rs`), collided through its exposed edges; `None`
/// when neither shape is a tile or the tile's own polygon manifold applies.
#[inline]
fn tile_manifold(a: &Shape, xf_a: Transform, b: &Shape, xf_b: Transform) -> Option<Manifold> {
    use crate::tile_map::{collide_tile, flip};
    if let (Some(edges), ShapeGeometry::Polygon(p)) = (a.tile.as_deref(), &a.geometry) {
        return collide_tile(p, edges, xf_a, &b.geometry, xf_b);
    }
    if let (Some(edges), ShapeGeometry::Polygon(p)) = (b.tile.as_deref(), &b.geometry) {
        return collide_tile(p, edges, xf_b, &a.geometry, xf_a).map(flip);
    }
    None
}

/// Recomputes a contact's manifold and material and carries impulses over
/// from the old manifold by feature id. `center_offset_*` is the body's centre
/// of mass relative to its origin (world orientation); anchors are shifted to
/// be relative to the centre of mass. Returns whether the shapes touch.
/// Inlined into the narrow phase's kernel, so that it and the manifold
/// functions are compiled into each SIMD build (see `simd.rs`).
#[inline(always)]
pub(crate) fn update_contact(
    mixing: &Mixing,
    speculative: bool,
    sim: &mut ContactSim,
    shape_a: &Shape,
    world_xf_a: WorldTransform,
    center_offset_a: Vec2,
    shape_b: &Shape,
    world_xf_b: WorldTransform,
    center_offset_b: Vec2,
) -> bool {
    let old = sim.manifold;
    // large-world: the manifold in f32 relative to body A's origin
    let (xf_a, xf_b) = crate::pos::local_pair(world_xf_a, world_xf_b);
    sim.manifold = tile_manifold(shape_a, xf_a, shape_b, xf_b).unwrap_or_else(|| {
        compute_manifold(
            &shape_a.geometry,
            xf_a,
            &shape_b.geometry,
            xf_b,
            &mut sim.cache,
        )
    });

    // Box2D's testing switch (`WorldDef::enable_speculative`): without
    // speculation a two-point manifold keeps only the points within 1.5 linear
    // slops of touching.
    if !speculative && sim.manifold.point_count == 2 {
        let m = &mut sim.manifold;
        if m.points[0].separation > 1.5 * LINEAR_SLOP {
            m.points[0] = m.points[1];
            m.point_count = 1;
        } else if m.points[1].separation > 1.5 * LINEAR_SLOP {
            m.point_count = 1;
        }
    }

    (sim.friction, sim.restitution) = mixing.mix(shape_a, shape_b);
    sim.rolling_resistance = if shape_a.rolling_resistance > 0.0 || shape_b.rolling_resistance > 0.0
    {
        let radius = shape_a.geometry.radius().max(shape_b.geometry.radius());
        shape_a.rolling_resistance.max(shape_b.rolling_resistance) * radius
    } else {
        0.0
    };
    sim.tangent_speed = shape_a.tangent_speed + shape_b.tangent_speed;

    let point_count = sim.manifold.point_count;
    let touching = point_count > 0;

    if touching && (shape_a.enable_hit_events || shape_b.enable_hit_events) {
        sim.sim_flags |= sim_flags::ENABLE_HIT_EVENT;
    } else {
        sim.sim_flags &= !sim_flags::ENABLE_HIT_EVENT;
    }

    if touching {
        sim.manifold.rolling_impulse = old.rolling_impulse;
    }

    for mp in &mut sim.manifold.points[..point_count] {
        #[cfg(feature = "large-world")]
        {
            mp.point = crate::pos::to_vec2(world_xf_a.p + mp.point);
        }
        mp.anchor_a -= center_offset_a;
        mp.anchor_b -= center_offset_b;
        mp.normal_impulse = 0.0;
        mp.tangent_impulse = 0.0;
        mp.total_normal_impulse = 0.0;
        mp.normal_velocity = 0.0;
        mp.persisted = false;
        if let Some(old_point) = old.points().iter().find(|p| p.id == mp.id) {
            mp.normal_impulse = old_point.normal_impulse;
            mp.tangent_impulse = old_point.tangent_impulse;
            mp.persisted = true;
        }
    }

    if touching {
        sim.sim_flags |= sim_flags::TOUCHING;
    } else {
        sim.sim_flags &= !sim_flags::TOUCHING;
    }
    touching
}

impl World {
    /// Replaces the rule that combines two shapes' friction coefficients
    /// (default [`mix_friction`], the geometric mean; pass it to restore the
    /// default). Contacts pick it up at the next step. The rule should return
    /// a finite value ≥ 0 (any other answer is replaced by the default rule's).
    ///
    /// # Panics
    /// A rule that panics is handled as a [`MixingFn`] that panics: the step
    /// finishes with the default rule for that contact, then passes the panic
    /// on; the world stays valid.
    pub fn set_friction_mixing(&mut self, rule: MixingRule) {
        self.mixing.friction = from_rule(rule, mix_friction);
    }

    /// Replaces the rule that combines two shapes' restitution coefficients
    /// (default [`mix_restitution`], the larger one; pass it to restore the
    /// default).
    pub fn set_restitution_mixing(&mut self, rule: MixingRule) {
        self.mixing.restitution = from_rule(rule, mix_restitution);
    }

    /// Replaces friction mixing with a function that also sees the shapes'
    /// user material ids (see [`MixingFn`]), for material tables such as
    /// "ice on anything is frictionless". Contacts pick it up at the next
    /// step; [`World::set_friction_mixing`] with [`mix_friction`] restores the
    /// default.
    ///
    /// Box2D: `b2World_SetFrictionCallback`.
    pub fn set_friction_callback(
        &mut self,
        mix: impl Fn(f32, u64, f32, u64) -> f32 + Send + Sync + 'static,
    ) {
        self.mixing.friction = Some(Box::new(mix));
    }

    /// Replaces restitution mixing with a function that also sees the shapes'
    /// user material ids (see [`MixingFn`]); [`World::set_restitution_mixing`]
    /// with [`mix_restitution`] restores the default.
    ///
    /// Box2D: `b2World_SetRestitutionCallback`.
    pub fn set_restitution_callback(
        &mut self,
        mix: impl Fn(f32, u64, f32, u64) -> f32 + Send + Sync + 'static,
    ) {
        self.mixing.restitution = Some(Box::new(mix));
    }

    /// Creates the contact for a new shape pair. Pairs without a manifold
    /// function (segment against segment, …) get no contact.
    pub(crate) fn create_contact(&mut self, shape_a: u32, shape_b: u32) {
        let Some(swap) = pair_order(
            &self.shapes[shape_a as usize].geometry,
            &self.shapes[shape_b as usize].geometry,
        ) else {
            return;
        };
        let (shape_a, shape_b) = if swap {
            (shape_b, shape_a)
        } else {
            (shape_a, shape_b)
        };
        let (sa, sb) = (
            &self.shapes[shape_a as usize],
            &self.shapes[shape_b as usize],
        );
        let body_a = sa.body_id;
        let body_b = sb.body_id;
        let set_a = self.bodies[body_a as usize].set_index;
        let set_b = self.bodies[body_b as usize].set_index;
        debug_assert!(set_a != DISABLED_SET && set_b != DISABLED_SET);

        // Non-touching contacts between two non-awake bodies live in the
        // disabled set until something wakes them.
        let set_index = if set_a == AWAKE_SET || set_b == AWAKE_SET {
            AWAKE_SET
        } else {
            DISABLED_SET
        };

        let mut flags = 0;
        if sa.enable_contact_events || sb.enable_contact_events {
            flags |= contact_flags::ENABLE_CONTACT_EVENTS;
        }
        let mut sim_flag_bits = 0;
        if sa.enable_pre_solve_events || sb.enable_pre_solve_events {
            sim_flag_bits |= sim_flags::ENABLE_PRE_SOLVE_EVENTS;
        }
        let (friction, restitution) = self.mixing.mix(sa, sb);

        let contact_id = self.contact_ids.alloc();
        if contact_id as usize == self.contacts.len() {
            self.contacts.push(Contact::default());
        }
        let local_index = self.solver_sets[set_index as usize].contact_sims.len() as u32;
        let head_a = self.bodies[body_a as usize].head_contact_key;
        let head_b = self.bodies[body_b as usize].head_contact_key;
        {
            let c = &mut self.contacts[contact_id as usize];
            debug_assert_eq!(c.contact_id, NULL_INDEX);
            let generation = c.generation.wrapping_add(1);
            *c = Contact {
                set_index,
                color_index: NULL_INDEX,
                local_index,
                edges: [
                    ContactEdge {
                        body_id: body_a,
                        prev_key: NULL_INDEX,
                        next_key: head_a,
                    },
                    ContactEdge {
                        body_id: body_b,
                        prev_key: NULL_INDEX,
                        next_key: head_b,
                    },
                ],
                shape_id_a: shape_a,
                shape_id_b: shape_b,
                contact_id,
                generation,
                flags,
                ..Contact::default()
            };
        }

        // Push the two edges on the bodies' contact lists.
        let key_a = contact_id << 1;
        if head_a != NULL_INDEX {
            self.contacts[(head_a >> 1) as usize].edges[(head_a & 1) as usize].prev_key = key_a;
        }
        self.bodies[body_a as usize].head_contact_key = key_a;
        self.bodies[body_a as usize].contact_count += 1;

        let key_b = (contact_id << 1) | 1;
        // Re-read: body B's head may be the edge just pushed when A == B's list
        // (never: shapes on one body do not collide), but stay safe.
        let head_b = self.bodies[body_b as usize].head_contact_key;
        self.contacts[contact_id as usize].edges[1].next_key = head_b;
        if head_b != NULL_INDEX {
            self.contacts[(head_b >> 1) as usize].edges[(head_b & 1) as usize].prev_key = key_b;
        }
        self.bodies[body_b as usize].head_contact_key = key_b;
        self.bodies[body_b as usize].contact_count += 1;

        self.pair_set.insert(pair_key(shape_a, shape_b));

        self.solver_sets[set_index as usize]
            .contact_sims
            .push(ContactSim {
                contact_id,
                body_sim_index_a: NULL_INDEX,
                body_sim_index_b: NULL_INDEX,
                shape_id_a: shape_a,
                shape_id_b: shape_b,
                inv_mass_a: 0.0,
                inv_i_a: 0.0,
                inv_mass_b: 0.0,
                inv_i_b: 0.0,
                manifold: Manifold::default(),
                friction,
                restitution,
                rolling_resistance: 0.0,
                tangent_speed: 0.0,
                sim_flags: sim_flag_bits,
                cache: SimplexCache::default(),
                cached_rotation_a: Rot::IDENTITY,
                cached_rotation_b: Rot::IDENTITY,
                cached_relative: Transform::IDENTITY,
                base_separation: [0.0; 2],
            });
    }

    /// Destroys a contact: unlinks it from its bodies, its island and the
    /// array that holds its sim. `wake` wakes both bodies if it was touching.
    pub(crate) fn destroy_contact(&mut self, contact_id: u32, wake: bool) {
        self.emit_contact_end(contact_id); // events: a touching contact ends when destroyed
        let contact = self.contacts[contact_id as usize];
        self.pair_set
            .remove(&pair_key(contact.shape_id_a, contact.shape_id_b));

        for (edge_index, edge) in contact.edges.iter().enumerate() {
            if edge.prev_key != NULL_INDEX {
                let k = edge.prev_key;
                self.contacts[(k >> 1) as usize].edges[(k & 1) as usize].next_key = edge.next_key;
            }
            if edge.next_key != NULL_INDEX {
                let k = edge.next_key;
                self.contacts[(k >> 1) as usize].edges[(k & 1) as usize].prev_key = edge.prev_key;
            }
            let body = &mut self.bodies[edge.body_id as usize];
            if body.head_contact_key == (contact_id << 1) | edge_index as u32 {
                body.head_contact_key = edge.next_key;
            }
            body.contact_count -= 1;
        }

        if contact.island_id != NULL_INDEX {
            self.unlink_contact(contact_id);
        }

        if contact.color_index != NULL_INDEX {
            debug_assert_eq!(contact.set_index, AWAKE_SET);
            self.remove_contact_from_graph(
                contact.edges[0].body_id,
                contact.edges[1].body_id,
                contact.color_index,
                contact.local_index,
            );
        } else {
            self.remove_contact_sim_from_set(contact.set_index, contact.local_index);
        }

        let c = &mut self.contacts[contact_id as usize];
        c.contact_id = NULL_INDEX;
        c.set_index = NULL_INDEX;
        c.color_index = NULL_INDEX;
        c.local_index = NULL_INDEX;
        c.island_id = NULL_INDEX;
        c.island_prev = NULL_INDEX;
        c.island_next = NULL_INDEX;
        self.contact_ids.free(contact_id);

        let touching = contact.flags & contact_flags::TOUCHING != 0;
        if wake && touching {
            self.wake_body(contact.edges[0].body_id as usize);
            self.wake_body(contact.edges[1].body_id as usize);
        }
    }

    /// Swap-removes a contact sim from a solver set's list, fixing the moved one.
    pub(crate) fn remove_contact_sim_from_set(&mut self, set_index: u32, local_index: u32) {
        let sims = &mut self.solver_sets[set_index as usize].contact_sims;
        let li = local_index as usize;
        sims.swap_remove(li);
        if li < sims.len() {
            let moved = sims[li].contact_id as usize;
            self.contacts[moved].local_index = local_index;
        }
    }

    /// Whether a dynamic body of island `island_id` rests on a single point
    /// (one manifold point carrying load over all its contacts), pushed there
    /// more than [`TIPPING_ARM`] beside its centre of mass, with no joint
    /// holding it: balanced on a corner, it is
    /// tipping over however slowly, and the island must not fall asleep. (The
    /// sleep timer alone lets a box that landed within a few millimetres of
    /// balance sleep on its corner before it has visibly started to fall.)
    pub(crate) fn island_is_tipping(&self, island_id: u32) -> bool {
        if self.settings.gravity == Vec2::ZERO {
            return false;
        }
        let mut body_id = self.islands[island_id as usize].head_body;
        while body_id != NULL_INDEX {
            let body = &self.bodies[body_id as usize];
            let index = body_id as usize;
            body_id = body.island_next;
            if body.body_type != BodyType::Dynamic
                || body.joint_count > 0
                || self.body_sim(index).gravity_scale == 0.0
            {
                continue;
            }
            // The points that carry load, over all the body's contacts.
            let mut loaded = 0;
            let mut arm = 0.0f32;
            let mut key = body.head_contact_key;
            while key != NULL_INDEX && loaded < 2 {
                let edge = (key & 1) as usize;
                let contact = &self.contacts[(key >> 1) as usize];
                key = contact.edges[edge].next_key;
                if contact.flags & contact_flags::TOUCHING == 0 {
                    continue;
                }
                let m = &self.contact_sim(contact.contact_id).manifold;
                for mp in m.points().iter().filter(|p| p.normal_impulse > 0.0) {
                    loaded += 1;
                    let r = if edge == 0 { mp.anchor_a } else { mp.anchor_b };
                    arm = r.cross(m.normal).abs();
                }
            }
            if loaded == 1 && arm > TIPPING_ARM {
                return true;
            }
        }
        false
    }

    /// The sim of a contact, wherever it lives.
    pub(crate) fn contact_sim(&self, contact_id: u32) -> &ContactSim {
        let c = &self.contacts[contact_id as usize];
        if c.color_index != NULL_INDEX {
            &self.graph.colors[c.color_index as usize].contact_sims[c.local_index as usize]
        } else {
            &self.solver_sets[c.set_index as usize].contact_sims[c.local_index as usize]
        }
    }

    /// The sim of a contact, wherever it lives, for writing.
    pub(crate) fn contact_sim_mut(&mut self, contact_id: u32) -> &mut ContactSim {
        let c = &self.contacts[contact_id as usize];
        if c.color_index != NULL_INDEX {
            &mut self.graph.colors[c.color_index as usize].contact_sims[c.local_index as usize]
        } else {
            &mut self.solver_sets[c.set_index as usize].contact_sims[c.local_index as usize]
        }
    }

    /// Makes the shape's contacts recompute their manifold and material at
    /// the next step instead of being recycled.
    pub(crate) fn refresh_shape_contacts(&mut self, si: usize) {
        let mut edges = ContactEdges::of(&self.bodies[self.shapes[si].body_id as usize]);
        while let Some((contact_id, _)) = edges.next(&self.contacts) {
            if self.contacts[contact_id as usize].has_shape(si) {
                self.contact_sim_mut(contact_id).sim_flags &= !sim_flags::RECYCLE_VALID;
            }
        }
    }

    /// The public ids of contact `index` and of its two shapes.
    pub(crate) fn contact_public_ids(&self, index: u32) -> (ContactId, ShapeId, ShapeId) {
        let c = &self.contacts[index as usize];
        let id = ContactId {
            index,
            world: self.world_number,
            generation: c.generation,
        };
        (
            id,
            self.make_shape_id(c.shape_id_a),
            self.make_shape_id(c.shape_id_b),
        )
    }

    fn make_contact_data(&self, index: u32) -> ContactData {
        let (contact_id, shape_id_a, shape_id_b) = self.contact_public_ids(index);
        let manifold = self.contact_sim(index).manifold;
        ContactData {
            contact_id,
            shape_id_a,
            shape_id_b,
            manifold,
        }
    }

    /// The touching contacts of body `bi` (manifold with at least one point).
    pub(crate) fn body_contact_data(&self, bi: usize) -> Vec<ContactData> {
        self.touching_contact_data(bi, None)
    }

    /// The touching contacts of shape `si`.
    pub(crate) fn shape_contact_data(&self, si: usize) -> Vec<ContactData> {
        self.touching_contact_data(self.shapes[si].body_id as usize, Some(si as u32))
    }

    /// The touching contacts in body `bi`'s list, all or only those of one shape.
    fn touching_contact_data(&self, bi: usize, shape: Option<u32>) -> Vec<ContactData> {
        let mut out = Vec::new();
        let mut edges = ContactEdges::of(&self.bodies[bi]);
        while let Some((contact_id, _)) = edges.next(&self.contacts) {
            let c = &self.contacts[contact_id as usize];
            let of_shape = shape.is_none_or(|s| c.shape_id_a == s || c.shape_id_b == s);
            if of_shape && c.flags & contact_flags::TOUCHING != 0 {
                out.push(self.make_contact_data(contact_id));
            }
        }
        out
    }

    /// The current data of a contact, or `Err(InvalidId)` once it is destroyed.
    ///
    /// Box2D: `b2Contact_GetData`.
    pub fn contact_data(&self, id: ContactId) -> crate::Result<ContactData> {
        let invalid = crate::Error::InvalidId { what: "contact" };
        if id.world != self.world_number {
            return Err(invalid);
        }
        match self.contacts.get(id.index as usize) {
            Some(c) if c.contact_id == id.index && c.generation == id.generation => {
                Ok(self.make_contact_data(id.index))
            }
            _ => Err(invalid),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WorldDef;

    /// A new world mixes by the default rules inline (no boxed function);
    /// a user rule or callback is kept, and passing the default rules back
    /// returns to the inline path.
    #[test]
    fn default_rules_take_the_inline_path() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let inline = |w: &World| w.mixing.friction.is_none() && w.mixing.restitution.is_none();
        assert!(inline(&world));
        world.set_friction_mixing(|a, b| a.min(b));
        world.set_restitution_callback(|a, _, b, _| a + b);
        assert!(world.mixing.friction.is_some() && world.mixing.restitution.is_some());
        world.set_friction_mixing(mix_friction);
        world.set_restitution_mixing(mix_restitution);
        assert!(inline(&world));
    }
}
