//! Exact rollback for a world whose set of objects stays the same.
//!
//! A [`RollbackState`] keeps what a step (or a call on a body or joint view)
//! can change:
//!
//! - the body rows (contact and island links, sleep timers, flags) and every
//!   solver set (body sims and states, contact, island and joint sims);
//! - the contacts with their id pool, the islands with theirs, the solver
//!   sets' id pool and the split candidate;
//! - the constraint graph's colours (body bit sets, contact and joint sims);
//! - per moving shape only its bounding boxes and "enlarged" flag;
//! - the kinematic and dynamic broad-phase trees and the move buffer;
//! - the joints (their rows hold the warm-start impulses), the event
//!   buffers and sensor overlaps, the settings and the step counter.
//!
//! In one of two forms. The fast one (`raw.rs`) copies the stores whole
//! into buffers it reuses. The compact one packs them (see `pack.rs`):
//! `code_world` says once, field by field, how each is coded, and runs for
//! both the save and the load. A field is coded as one bit when it equals a
//! guess both directions can make (the same field of the previous element;
//! the box a shape's body transform gives; a contact's shapes as its row
//! names them; a manifold point's anchor B and world point as its anchor A
//! plus one offset per manifold), and as its difference from the guess
//! otherwise, so the coding is exact whatever the world holds, and compact
//! where the guesses hold. Where a guess rarely holds, the value is coded
//! without one (the solver's numbers of a manifold point are raw words):
//! each decision costs time. The contact sims, most of the state, go in
//! blocks of 64 (`code_blocks`) through no call on the coder: per sim
//! one word of flags (every guess's hit or miss, and byte counts) and the
//! bytes that the flags say follow, in a column written and read in the
//! state's bytes in place; a sim's header (ids, bodies, material) is one guessed
//! image compared whole. Links that a list's other
//! direction gives (a contact row's links back) and where each contact's
//! sim is are read off what was coded before, and only rows that disagree
//! are coded. The broad phase's pair set is not packed: it is the set of
//! the contacts' shape pairs, updated on load from the rows that changed. Joint sims and events are
//! copied whole in both forms.
//!
//! What it leaves out is what only a structural call changes: the shapes'
//! geometry and materials, the bounds of static shapes, the chains, the
//! static tree, and the body, shape and chain id pools. So every call that
//! changes those — creating or destroying a body, shape, chain or joint,
//! changing a body's type, disabling or enabling it, taking a
//! [`ShapeMut`](crate::ShapeMut) or [`ChainMut`](crate::ChainMut), editing
//! the static tree (a static body moved, [`World::rebuild_static_tree`]),
//! [`World::restore`] — advances the world's structure generation, and
//! [`World::load_rollback`] refuses a state saved under another generation.
//! Use a [`Snapshot`](crate::Snapshot) across such calls.

use super::pack::{
    Coder, Field, Packer, Unpacker, all_or_each, delta, elements, guess, guess_all, near_pos,
    near_rot, near_tag,
};
use super::raw::{RawStores, Refill};
use crate::body::{Body, BodySim, BodyState, BodyType};
use crate::broad_phase::ProxyKey;
use crate::collision::dynamic_tree::{Child, Link, Node, Proxy};
use crate::collision::{DynamicTree, Manifold, ManifoldPoint, SimplexCache};
use crate::contact::{Contact, ContactEdge, ContactSim, pair_key, sim_flags};
use crate::error::{Error, Result};
use crate::events::{BodyMoveEvent, Events};
use crate::id::{BodyId, IdPool, NULL_INDEX};
use crate::joint::{JointSim, JointStorage};
use crate::math::{Rot, Transform, Vec2};
use crate::pos::{Pos, WorldAabb, WorldTransform};
use crate::shape::{Shape, speculative_aabb};
use crate::solver::constraint_graph::GraphColor;
use crate::solver::island::{Island, IslandSim};
use crate::solver::solver_set::{AWAKE_SET, SolverSet};
use crate::world::{World, WorldDef};
use std::cell::Cell;
use std::sync::Mutex;

// ---------------------------------------------------------------------------
// The coding of each store, one function per element type, for both
// directions (`pack.rs`). Each destructures its element without `..`, so a
// new field that is not coded does not compile.

/// The broad-phase trees a step changes (the static tree is left out).
pub(super) const MOVING_TREES: [BodyType; 2] = [BodyType::Kinematic, BodyType::Dynamic];

/// A tree slot's flag bits and index (as laid out in `dynamic_tree.rs`; the
/// split only steers guesses, so it cannot make the coding inexact).
const TREE_LEAF: u32 = 1 << 31;
const TREE_INDEX: u32 = (1 << 29) - 1;

impl Field for BodyType {
    fn code<C: Coder>(&mut self, c: &mut C) {
        let mut v = *self as u32;
        c.varint(&mut v);
        *self = match v {
            1 => BodyType::Kinematic,
            2 => BodyType::Dynamic,
            _ => BodyType::Static,
        };
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

/// The element before the first of a contact sim vector.
fn blank_contact_sim() -> ContactSim {
    ContactSim {
        contact_id: NULL_INDEX,
        body_sim_index_a: NULL_INDEX,
        body_sim_index_b: NULL_INDEX,
        shape_id_a: NULL_INDEX,
        shape_id_b: NULL_INDEX,
        inv_mass_a: 0.0,
        inv_i_a: 0.0,
        inv_mass_b: 0.0,
        inv_i_b: 0.0,
        manifold: Manifold::default(),
        friction: 0.0,
        restitution: 0.0,
        rolling_resistance: 0.0,
        tangent_speed: 0.0,
        sim_flags: 0,
        cache: Default::default(),
        cached_rotation_a: Rot::IDENTITY,
        cached_rotation_b: Rot::IDENTITY,
        cached_relative: Transform::IDENTITY,
        base_separation: [0.0; 2],
    }
}

const BLANK_LINK: Link = Link {
    parent: NULL_INDEX,
    slot: 0,
    allocated: false,
};

const BLANK_PROXY: Proxy = Proxy {
    category_bits: 0,
    user_data: 0,
    link: BLANK_LINK,
    generation: 0,
};

const BLANK_CHILD: Child = Child {
    aabb: WorldAabb {
        lower: Pos::ZERO,
        upper: Pos::ZERO,
    },
    word: 0,
    aux: 0,
    user_data: 0,
};

const BLANK_NODE: Node = Node {
    children: [BLANK_CHILD; 2],
};

/// A name: one bit when it is the previous body's.
fn code_name<C: Coder>(c: &mut C, name: &mut String, prev: &str) {
    let mut same = name.len() == prev.len() && (name.is_empty() || name == prev);
    c.bit(&mut same);
    if same {
        if C::UNPACKS {
            name.clear();
            name.push_str(prev);
        }
    } else {
        c.text(name);
    }
}

/// Flags of a body row (`code_body`): the head contact key's difference's
/// byte count less one (two flags), the contact count held, the rest of
/// the row's image held.
const B_KEY: usize = 0;
const B_COUNT: usize = 2;
const B_REST: usize = 3;

/// Words of a body row's image (`body_words`).
const BODY_WORDS: usize = 23;

/// The most bytes one body row puts in its block's column: its flag byte,
/// the head contact key (4), the contact count (a byte and a word), and an
/// image that missed every word (a mask of 3 and the words).
const BODY_ROW_BYTES: usize = 1 + 4 + 5 + (3 + BODY_WORDS * 4);
const _: () = assert!(BLOCK * BODY_ROW_BYTES <= COLUMN_BYTES);

/// A body row as words, but for its name, head contact key and contact
/// count (`code_body`).
#[inline(always)]
fn body_words(b: &Body) -> [u32; BODY_WORDS] {
    [
        b.id,
        b.generation,
        b.body_type as u32,
        b.flags,
        b.user_data as u32,
        (b.user_data >> 32) as u32,
        b.set_index,
        b.local_index,
        b.head_shape_id,
        b.shape_count,
        b.head_chain_id,
        b.head_joint_key,
        b.joint_count,
        b.island_id,
        b.island_prev,
        b.island_next,
        b.mass.to_bits(),
        b.inertia.to_bits(),
        b.sleep_threshold.to_bits(),
        b.safety_factor.to_bits(),
        b.sleep_time.to_bits(),
        u32::from(b.enable_contact_recycling),
        u32::from(b.enable_sleep),
    ]
}

/// A body row through its flag byte and its block's column (`code_blocks`;
/// its name apart, `code_body_rows`): the head contact key as a difference
/// from the previous row's (a list starts anywhere: no guess holds
/// often), the contact count as the previous row's, and the rest as one
/// image compared whole (`Lanes::image`): the id its index, the local
/// index and first shape after the previous row's, the island links none
/// out of an island (as with sleep off) else the bodies beside it, the
/// rest as the previous row's.
#[inline(always)]
fn code_body<C: Coder>(b: &mut Body, p: &Body, i: u32, l: &mut Lanes) {
    let Body {
        name: _, // `code_body_rows`
        user_data: _,
        set_index: _,
        local_index: _,
        head_contact_key,
        contact_count,
        head_shape_id: _,
        shape_count: _,
        head_chain_id: _,
        head_joint_key: _,
        joint_count: _,
        island_id: _,
        island_prev: _,
        island_next: _,
        mass: _,
        inertia: _,
        sleep_threshold: _,
        safety_factor: _,
        enable_contact_recycling: _,
        sleep_time: _,
        id: _,
        generation: _,
        body_type: _,
        enable_sleep: _,
        flags: _,
    } = b;
    l.diff::<C>(B_KEY, head_contact_key, p.head_contact_key);
    let mut count = [*contact_count];
    l.words::<C, 1>(B_COUNT, &mut count, [p.contact_count]);
    *contact_count = count[0];
    // (the links' guess follows the island's guess, the previous row's)
    let linked = |to: u32| {
        if p.island_id == NULL_INDEX {
            NULL_INDEX
        } else {
            to
        }
    };
    let mut guess = body_words(p);
    guess[0] = i;
    guess[7] = p.local_index.wrapping_add(1);
    guess[8] = p.head_shape_id.wrapping_add(1);
    guess[14] = linked(i.wrapping_sub(1));
    guess[15] = linked(i.wrapping_add(1));
    let mut w = if C::UNPACKS { guess } else { body_words(b) };
    l.image::<C, BODY_WORDS>(B_REST, &mut w, &guess);
    if C::UNPACKS {
        b.id = w[0];
        b.generation = w[1];
        b.body_type = match w[2] {
            1 => BodyType::Kinematic,
            2 => BodyType::Dynamic,
            _ => BodyType::Static,
        };
        b.flags = w[3];
        b.user_data = u64::from(w[4]) | u64::from(w[5]) << 32;
        [
            b.set_index,
            b.local_index,
            b.head_shape_id,
            b.shape_count,
            b.head_chain_id,
            b.head_joint_key,
            b.joint_count,
            b.island_id,
            b.island_prev,
            b.island_next,
        ] = std::array::from_fn(|k| w[6 + k]);
        [
            b.mass,
            b.inertia,
            b.sleep_threshold,
            b.safety_factor,
            b.sleep_time,
        ] = std::array::from_fn(|k| f32::from_bits(w[16 + k]));
        b.enable_contact_recycling = w[21] != 0;
        b.enable_sleep = w[22] != 0;
    }
}

/// The body rows: their names first (one bit when each is the previous
/// row's, as an unnamed world's are), then each row by `code_body` in
/// blocks.
#[inline(never)]
fn code_body_rows<C: Coder>(c: &mut C, bodies: &mut Vec<Body>, col: &mut Column) {
    let mut n = bodies.len() as u32;
    c.count(&mut n, 1);
    if C::UNPACKS {
        bodies.resize(n as usize, Body::default());
    }
    all_or_each!(c, |c| {
        for i in 0..bodies.len() {
            let (done, rest) = bodies.split_at_mut(i);
            let prev = done.last().map_or("", |b| &b.name[..]);
            code_name(c, &mut rest[0].name, prev);
        }
    });
    let blank = Body::default();
    code_blocks(c, bodies, &blank, col, 1, "body rows", |b, p, i, l| {
        code_body::<C>(b, p, i as u32, l);
    });
}

fn code_body_sim<C: Coder>(c: &mut C, s: &mut BodySim, p: &BodySim, _: u32) {
    let BodySim {
        transform,
        center,
        rotation0,
        center0,
        angle_delta,
        local_center,
        force,
        torque,
        inv_mass,
        inv_inertia,
        min_extent,
        max_extent,
        linear_damping,
        angular_damping,
        gravity_scale,
        body_id,
        flags,
    } = s;
    all_or_each!(c, |c| {
        delta(c, body_id, p.body_id.wrapping_add(1));
        guess(c, flags, p.flags);
        guess(c, local_center, p.local_center);
    });
    near_pos(c, center, p.center);
    near_rot(c, &mut transform.q, p.transform.q);
    all_or_each!(c, |c| {
        // as `finalize_bodies` places the origin
        let origin = *center - transform.q.rotate(*local_center);
        guess(c, &mut transform.p, origin);
        guess(c, rotation0, transform.q);
        guess(c, center0, *center);
        guess(c, force, p.force);
        guess_all(
            c,
            [
                (angle_delta, p.angle_delta),
                (torque, p.torque),
                (inv_mass, p.inv_mass),
                (inv_inertia, p.inv_inertia),
                (min_extent, p.min_extent),
                (max_extent, p.max_extent),
                (linear_damping, p.linear_damping),
                (angular_damping, p.angular_damping),
                (gravity_scale, p.gravity_scale),
            ],
        );
    });
}

/// A solver set's body states (`code_body_state`).
fn code_body_states<C: Coder>(c: &mut C, states: &mut Vec<BodyState>, col: &mut Column) {
    let mut n = states.len() as u32;
    c.count(&mut n, 1);
    if C::UNPACKS {
        states.resize(n as usize, BodyState::IDENTITY);
    }
    code_blocks(
        c,
        states,
        &BodyState::IDENTITY,
        col,
        1,
        "body sims and states",
        |s, p, _, l| {
            code_body_state::<C>(s, p, l);
        },
    );
}

/// The most bytes one body state puts in its block's column
/// (`code_body_state`): its flag byte, three floats near their guesses (4
/// each) and five words that missed behind their mask byte.
const BODY_BYTES: usize = 1 + 3 * 4 + (1 + 5 * 4);
const _: () = assert!(BLOCK * BODY_BYTES <= COLUMN_BYTES);

/// A body state through its flag byte and its block's column
/// (`code_blocks`): the velocities near the previous state's (their byte
/// counts less one in flags 0 to 5), the flags and the motion of the step
/// as the previous state's (flag 6, else `Lanes::words`).
#[inline(always)]
fn code_body_state<C: Coder>(s: &mut BodyState, p: &BodyState, l: &mut Lanes) {
    let BodyState {
        linear_velocity: v,
        angular_velocity,
        flags,
        delta_position: dp,
        delta_rotation: dq,
    } = s;
    l.near::<C>(0, &mut v.x, p.linear_velocity.x);
    l.near::<C>(2, &mut v.y, p.linear_velocity.y);
    l.near::<C>(4, angular_velocity, p.angular_velocity);
    let bits = |x: &[f32; 4]| x.map(f32::to_bits);
    let (pp, pq) = (p.delta_position, p.delta_rotation);
    let [x, y, c, q] = bits(&[dp.x, dp.y, dq.c, dq.s]);
    let [gx, gy, gc, gq] = bits(&[pp.x, pp.y, pq.c, pq.s]);
    let mut rest = [*flags, x, y, c, q];
    l.words::<C, 5>(6, &mut rest, [p.flags, gx, gy, gc, gq]);
    if C::UNPACKS {
        let [f, x, y, c, q] = rest;
        *flags = f;
        let [x, y, c, q] = [x, y, c, q].map(f32::from_bits);
        (*dp, *dq) = (Vec2::new(x, y), Rot { c, s: q });
    }
}

/// A slot of the recycling rotation table no contact sim has filled yet.
const UNLINKED: u32 = u32::MAX - 1;

/// A link to the next item of a list, guessed as the previous row's link
/// moved by as much as the row's own key (`key`, against the previous row's
/// `prev_key`): rows made in a pattern link in that pattern. A previous end
/// of list (`NULL_INDEX`) guesses an end.
#[inline(always)]
fn next_guess(prev_next: u32, key: u32, prev_key: u32) -> u32 {
    if prev_next == NULL_INDEX {
        NULL_INDEX
    } else {
        prev_next.wrapping_add(key.wrapping_sub(prev_key))
    }
}

/// Flags of a contact row (`code_contact`): its id, generation and flags
/// held; shape A held, else its difference's byte count less one (two
/// flags); shape B the same; each edge's body held; each edge's next key
/// held, else its difference's byte count less one (three flags each: a
/// list's next link is often its guess, and a hit costs neither byte nor
/// decode; on the 991-box pyramid the rows take 19.6 bytes a body this
/// way, 20.7 with two flags and a difference always written); the island held; the island's next
/// contact the same as a next key (three flags).
const R_HEAD: usize = 0;
const R_SHAPE_A: usize = 1;
const R_SHAPE_B: usize = 4;
const R_BODY: usize = 7;
const R_NEXT: usize = 9;
const R_ISLAND: usize = 15;
const R_ISLAND_NEXT: usize = 16;
/// Bytes of a contact row's flags.
const ROW_FLAG_BYTES: usize = 3;
const _: () = assert!(R_ISLAND_NEXT + 3 <= 8 * ROW_FLAG_BYTES);

/// The most bytes one contact row puts in its block's column: its flags,
/// a head that misses (a byte and three words), the two shapes (4 each),
/// the bodies (a byte and a word each), the next keys (4 each), the
/// island (a byte and a word) and its next contact (4).
const ROW_BYTES: usize = ROW_FLAG_BYTES + 13 + 2 * 4 + 2 * 5 + 2 * 4 + 5 + 4;
const _: () = assert!(BLOCK * ROW_BYTES <= COLUMN_BYTES);

/// A contact row but its links back (`code_contact_prevs`) and where its
/// sim is (`code_contact_places`), through its flags and its block's
/// column (`code_blocks`): its id as its index, its generation and flags as
/// the previous row's; shape A near the previous row's, shape B as far from
/// it as the previous row's were apart; each edge's body as its shape's;
/// each next key near the previous row's moved as this row's key
/// (`next_guess`); the island as the previous row's, its next contact as
/// the previous row's moved by one.
#[inline(always)]
fn code_contact<C: Coder>(ct: &mut Contact, p: &Contact, i: u32, shapes: &[Shape], l: &mut Lanes) {
    let Contact {
        // where its sim is: coded after the sims (`code_contact_places`)
        set_index: _,
        color_index: _,
        local_index: _,
        edges,
        shape_id_a,
        shape_id_b,
        // read off the links forward (`code_contact_prevs`)
        island_prev: _,
        island_next,
        island_id,
        contact_id,
        generation,
        flags,
    } = ct;
    let mut head = [*contact_id, *generation, *flags];
    l.words::<C, 3>(R_HEAD, &mut head, [i, p.generation, p.flags]);
    [*contact_id, *generation, *flags] = head;
    l.delta::<C>(R_SHAPE_A, shape_id_a, p.shape_id_a);
    let apart = p.shape_id_b.wrapping_sub(p.shape_id_a);
    l.delta::<C>(R_SHAPE_B, shape_id_b, shape_id_a.wrapping_add(apart));
    let ends = [*shape_id_a, *shape_id_b];
    for (k, edge) in edges.iter_mut().enumerate() {
        let ContactEdge {
            body_id,
            prev_key: _, // `code_contact_prevs`
            next_key,
        } = edge;
        // the shape's body (shapes are structural: the same in both directions)
        let body = shapes
            .get(ends[k] as usize)
            .map_or(p.edges[k].body_id, |s| s.body_id);
        let mut b = [*body_id];
        l.words::<C, 1>(R_BODY + k, &mut b, [body]);
        *body_id = b[0];
        // the body's list of contact edges
        let key = (i << 1) | k as u32;
        let guess = next_guess(p.edges[k].next_key, key, key.wrapping_sub(2));
        l.delta::<C>(R_NEXT + 3 * k, next_key, guess);
    }
    let mut island = [*island_id];
    l.words::<C, 1>(R_ISLAND, &mut island, [p.island_id]);
    *island_id = island[0];
    // the island's list of contacts
    let guess = next_guess(p.island_next, i, i.wrapping_sub(1));
    l.delta::<C>(R_ISLAND_NEXT, island_next, guess);
}

/// Notes row `i`'s links forward as the links back they make (`table`:
/// per contact, each edge's previous key and the island's previous
/// contact; `code_contact_prevs`). Called for each row in order, after
/// `NULL_INDEX` everywhere.
#[inline(always)]
fn note_links_back(table: &mut [[u32; 3]], i: usize, ct: &Contact) {
    // (a link to no row, `NULL_INDEX` among them, names no slot)
    let mut put = |to: u32, slot: usize, from: u32| {
        if let Some(row) = table.get_mut(to as usize) {
            row[slot] = from;
        }
    };
    let [e0, e1] = &ct.edges;
    let key = (i as u32) << 1;
    put(e0.next_key >> 1, (e0.next_key & 1) as usize, key);
    put(e1.next_key >> 1, (e1.next_key & 1) as usize, key | 1);
    put(ct.island_next, 2, i as u32);
}

/// The contact rows' links back (each edge's previous key, the previous
/// contact of the island): in a consistent world, the row whose link
/// forward names this one, or none. So they are read off the links forward
/// (`derived`: three slots per contact, filled by `note_links_back` while
/// the rows were coded, `code_contact_rows`), and only rows that disagree
/// are coded (none in a consistent world): their count, then for each the
/// gap from the last one and its three links against the derived ones.
#[inline(never)]
fn code_contact_prevs<C: Coder>(c: &mut C, contacts: &mut [Contact], derived: &[u32]) {
    code_off_table(
        c,
        contacts,
        derived,
        |ct| [ct.edges[0].prev_key, ct.edges[1].prev_key, ct.island_prev],
        |ct| {
            let [e0, e1] = &mut ct.edges;
            [&mut e0.prev_key, &mut e1.prev_key, &mut ct.island_prev]
        },
    );
}

/// Three fields of each contact row that `table` (three slots per contact,
/// derived from what was coded before) gives in a consistent world: only
/// the rows that disagree are coded, as their count, then for each the gap
/// from the last one and its three fields against the table's. `read` and
/// `write` name the fields.
fn code_off_table<C: Coder>(
    c: &mut C,
    contacts: &mut [Contact],
    table: &[u32],
    read: fn(&Contact) -> [u32; 3],
    write: fn(&mut Contact) -> [&mut u32; 3],
) {
    let rows = table.as_chunks::<3>().0;
    let row = |i: usize| -> [u32; 3] { rows.get(i).copied().unwrap_or([NULL_INDEX; 3]) };
    let disagree = |(i, ct): &(usize, &Contact)| read(ct) != row(*i);
    let mut misses = if C::UNPACKS {
        0
    } else {
        // (with no branch per row)
        contacts
            .iter()
            .enumerate()
            .map(|(i, ct)| u32::from(read(ct) != row(i)))
            .sum::<u32>()
    };
    c.varint(&mut misses);
    // (never more than the rows, whatever the bytes say)
    misses = misses.min(u32::try_from(contacts.len()).unwrap_or(u32::MAX));
    if C::UNPACKS {
        for (i, ct) in contacts.iter_mut().enumerate() {
            for (v, d) in write(ct).into_iter().zip(row(i)) {
                *v = d;
            }
        }
    }
    let mut next = 0usize;
    for _ in 0..misses {
        let mut gap = if C::UNPACKS {
            0
        } else {
            let at = contacts[next..]
                .iter()
                .enumerate()
                .map(|(k, ct)| (next + k, ct))
                .find(disagree)
                .map_or(contacts.len(), |(i, _)| i);
            (at - next) as u32
        };
        c.varint(&mut gap);
        let i = next.saturating_add(gap as usize);
        next = i.saturating_add(1);
        let mut blank = Contact::default();
        let ct = contacts.get_mut(i).unwrap_or(&mut blank);
        for (v, d) in write(ct).into_iter().zip(row(i)) {
            delta(c, v, d);
        }
    }
}

/// The contact rows (see `code_contact`), each noting its links back in
/// `derived` once it is coded (`note_links_back`, for `code_contact_prevs`).
#[inline(never)]
fn code_contact_rows<C: Coder>(
    c: &mut C,
    contacts: &mut Vec<Contact>,
    shapes: &[Shape],
    col: &mut Column,
    derived: &mut [u32],
) {
    let mut n = contacts.len() as u32;
    c.count(&mut n, ROW_FLAG_BYTES);
    if C::UNPACKS {
        contacts.resize(n as usize, Contact::default());
    }
    let blank = Contact::default();
    derived.fill(NULL_INDEX);
    let table = derived.as_chunks_mut::<3>().0;
    code_blocks(
        c,
        contacts,
        &blank,
        col,
        ROW_FLAG_BYTES,
        "contact rows",
        |ct, p, i, l| {
            code_contact::<C>(ct, p, i as u32, shapes, l);
            note_links_back(table, i, ct);
        },
    );
}

/// What the guesses of a contact sim read from stores coded before it.
struct SimGuesses<'a> {
    contacts: &'a [Contact],
    /// Per shape, what a contact sim reads of its body (`fill_shape_rows`).
    by_shape: &'a [[u32; SHAPE_ROW]],
    bodies: &'a [Body],
    sets: &'a [SolverSet],
    /// Per body, the bits of the last recycling rotation coded for it.
    turned: &'a [[Cell<u32>; 2]],
    /// Per contact, where its sim is (set, colour, index), filled in as
    /// the sims are coded, for `code_contact_places`.
    places: &'a [[Cell<u32>; 3]],
    /// The set and colour of the sims being coded.
    place: [u32; 2],
}

impl SimGuesses<'_> {
    /// Body `body`'s two slots of the rotation table, if it has them.
    fn turn_slots(&self, body: Option<u32>) -> Option<&[Cell<u32>]> {
        self.turned.get(body? as usize).map(|t| &t[..])
    }

    /// The last recycling rotation coded for a body (its slots), if any.
    fn last_turn(slots: Option<&[Cell<u32>]>) -> Option<Rot> {
        match slots {
            Some([cos, sin]) if cos.get() != UNLINKED => Some(Rot {
                c: f32::from_bits(cos.get()),
                s: f32::from_bits(sin.get()),
            }),
            _ => None,
        }
    }

    /// Keeps `v` as the last recycling rotation coded for a body.
    fn keep_turn(slots: Option<&[Cell<u32>]>, v: Rot) {
        if let Some([cos, sin]) = slots {
            cos.set(v.c.to_bits());
            sin.set(v.s.to_bits());
        }
    }

    /// Shape `shape_id`'s row of `by_shape`.
    fn shape_row(&self, shape_id: u32) -> Option<&[u32]> {
        self.by_shape.get(shape_id as usize).map(|r| &r[..])
    }

    /// The sim of body `body` (at rest when there is none).
    fn body_sim(&self, body: Option<u32>) -> &BodySim {
        let sim = || {
            let body = self.bodies.get(body? as usize)?;
            let set = self.sets.get(body.set_index as usize)?;
            set.body_sims.get(body.local_index as usize)
        };
        sim().unwrap_or(&BodySim::REST)
    }
}

/// Slots per shape of the table `fill_shape_rows` fills.
const SHAPE_ROW: usize = 6;

/// Per shape, what a contact sim's guesses read of the shape's body, in
/// one row of `SHAPE_ROW` slots, so that a sim looks up its two shapes
/// rather than each shape's body, set and sim: the body's index, its index
/// in the awake set (`NULL_INDEX` when it is not awake), and the bits of its
/// inverse mass, inverse inertia and local centre (of `BodySim::REST` when
/// it has no sim).
#[inline(never)]
fn fill_shape_rows(table: &mut [u32], shapes: &[Shape], bodies: &[Body], sets: &[SolverSet]) {
    for (row, shape) in table.chunks_exact_mut(SHAPE_ROW).zip(shapes) {
        let body = bodies.get(shape.body_id as usize);
        let sim = body
            .and_then(|b| {
                sets.get(b.set_index as usize)?
                    .body_sims
                    .get(b.local_index as usize)
            })
            .unwrap_or(&BodySim::REST);
        let awake = match body {
            Some(b) if b.set_index == AWAKE_SET => b.local_index,
            _ => NULL_INDEX,
        };
        row.copy_from_slice(&[
            shape.body_id,
            awake,
            sim.inv_mass.to_bits(),
            sim.inv_inertia.to_bits(),
            sim.local_center.x.to_bits(),
            sim.local_center.y.to_bits(),
        ]);
    }
}

/// Items per block of `code_blocks` (one column each).
const BLOCK: usize = 64;

/// The most bytes one sim puts in its block's column (`code_sim`): its
/// flags (3); its id (4); a header that misses every word (a mask of 2 and 15 words); a
/// manifold head that misses (a mask of 1 and 4 words); the shared offsets
/// (16); the recycling cache (unused and missed: 32; used: two rotations
/// near their guesses, 9 each, the turn, 8, and the position, 8: 34); per
/// point slot, a point in use (anchor A 8, id 2, base separation 4, the
/// five numbers 20, anchor B and world point 16: 50) or an unused one that
/// missed (eleven words, the id and flag in 3, the base separation 4: 51).
const SIM_BYTES: usize = SIM_FLAG_BYTES + 4 + (2 + 15 * 4) + (1 + 4 * 4) + 16 + 34 + 2 * 51;

/// Bytes of a block's column: a power of two above the most a block
/// writes, so that a masked index is always in bounds.
const COLUMN_BYTES: usize = 16384;
const _: () = assert!(BLOCK * SIM_BYTES <= COLUMN_BYTES && COLUMN_BYTES.is_power_of_two());

/// Bits of a block's column length (up to `COLUMN_BYTES`).
const COLUMN_LEN_BITS: u32 = COLUMN_BYTES.trailing_zeros() + 1;

/// Bytes past a column's end that a cursor may write or read at its last
/// index (the most one move of it spans: twelve words, `Cursor::words`).
const COLUMN_PAD: usize = 48;

/// Low-byte masks by count (0 to 4; `Cursor::take`).
const LOW_BYTES: [u32; 8] = [0, 0xff, 0xffff, 0xff_ffff, u32::MAX, 0, 0, 0];

/// Bytes a block's cursor may touch: its column and the padding.
const COLUMN_SPAN: usize = COLUMN_BYTES + COLUMN_PAD;

/// Buffers for a block's column when the state's bytes cannot hold it in
/// place (near their end: `Coder::column_out`, `Coder::column_in`), reused
/// from block to block: `buf` holds the column, `spare` stands for the
/// direction's other side (never read).
struct Column {
    buf: [u8; COLUMN_SPAN],
    spare: [u8; COLUMN_SPAN],
}

impl Column {
    fn new() -> Column {
        Column {
            buf: [0; COLUMN_SPAN],
            spare: [0; COLUMN_SPAN],
        }
    }
}

/// Writes or reads a block's column (in the state's bytes, or a
/// [`Column`]) with no branch on what is written and no bounds check: `put`
/// writes a value's four bytes to `out` and moves on by as many as it
/// keeps (0 to 4), `take` reads four of `inp` and keeps as many as it is
/// told. The index is masked to the span (a block never comes near its
/// end, see [`COLUMN_BYTES`]).
struct Cursor<'a> {
    out: &'a mut [u8; COLUMN_SPAN],
    inp: &'a [u8; COLUMN_SPAN],
    at: usize,
}

impl Cursor<'_> {
    /// Appends the `n` (0 to 4) low bytes of `x`.
    #[inline(always)]
    fn put(&mut self, x: u32, n: usize) {
        let i = self.at & (COLUMN_BYTES - 1);
        self.out[i..i + 4].copy_from_slice(&x.to_le_bytes());
        self.at += n;
    }

    /// The next `n` (0 to 4) bytes as the low bytes of a word.
    #[inline(always)]
    fn take(&mut self, n: usize) -> u32 {
        let i = self.at & (COLUMN_BYTES - 1);
        let b = &self.inp[i..i + 4];
        self.at += n;
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & LOW_BYTES[n & 7]
    }

    /// The packer's `put` (giving `x` back), the unpacker's `take`.
    #[inline(always)]
    fn bytes<C: Coder>(&mut self, x: u32, n: usize) -> u32 {
        if C::UNPACKS {
            self.take(n)
        } else {
            self.put(x, n);
            x
        }
    }

    /// `N` whole words (a point's anchor and numbers, offsets), in either
    /// direction, as one move of the cursor.
    #[inline(always)]
    fn words<C: Coder, const N: usize>(&mut self, words: &mut [u32; N]) {
        const { assert!(4 * N <= COLUMN_PAD, "past the column's padding") };
        let i = self.at & (COLUMN_BYTES - 1);
        if C::UNPACKS {
            let b = &self.inp[i..i + 4 * N];
            *words = std::array::from_fn(|w| {
                u32::from_le_bytes([b[4 * w], b[4 * w + 1], b[4 * w + 2], b[4 * w + 3]])
            });
        } else {
            let b = &mut self.out[i..i + 4 * N];
            for (d, w) in b.chunks_exact_mut(4).zip(*words) {
                d.copy_from_slice(&w.to_le_bytes());
            }
        }
        self.at += 4 * N;
    }

    /// `N` floats as their whole words ([`Cursor::words`]).
    #[inline(always)]
    fn floats<C: Coder, const N: usize>(&mut self, v: [&mut f32; N]) {
        let mut w = std::array::from_fn(|k| v[k].to_bits());
        self.words::<C, N>(&mut w);
        if C::UNPACKS {
            for (v, w) in v.into_iter().zip(w) {
                *v = f32::from_bits(w);
            }
        }
    }
}

/// The flags of a sim (`Lanes`): one bit per decision.
const PLANES: usize = 20;
/// Bytes of a sim's flags.
const SIM_FLAG_BYTES: usize = 3;
/// The id's byte count less one (two planes).
const P_ID: usize = 0;
/// The header image held.
const P_HEAD: usize = 2;
/// The manifold head (count, rolling impulse, normal) held.
const P_MANIFOLD: usize = 3;
/// Anchor B and the world point are anchor A plus one offset each.
const P_SHARED: usize = 4;
/// Rotation A held (an unused recycling cache: the whole cache held).
const P_TURN_A: usize = 5;
/// Rotation B held.
const P_TURN_B: usize = 6;
/// The relative rotation held.
const P_RELATIVE: usize = 7;
/// The relative position's byte counts less one (two planes each).
const P_REL_X: usize = 8;
const P_REL_Y: usize = 10;
/// Per point slot (four planes each, from here): the id held,
/// `persisted`, the base separation is the separation, and an unused slot
/// held.
const P_POINT: usize = 12;
const _: () = assert!(P_POINT + 2 * 4 == PLANES && PLANES <= 8 * SIM_FLAG_BYTES);

/// One sim's decisions (a word of flags, bit `p` for each `P_` above) and
/// its block's column (`code_sim`).
struct Lanes<'a> {
    flags: u32,
    col: Cursor<'a>,
}

impl<'a> Lanes<'a> {
    /// A block's lanes, at its column's first byte: the packer's column
    /// in the state's bytes in place (`Coder::column_out`, else in `col`),
    /// the unpacker's read (its length first) from them in place
    /// (`Coder::column_in`, else through `col`). Gives the length read
    /// (the packer: 0).
    #[inline(always)]
    fn open<C: Coder>(c: &'a mut C, col: &'a mut Column) -> (Lanes<'a>, usize) {
        let Column { buf, spare } = col;
        let (out, inp, len) = if C::UNPACKS {
            let mut len = 0;
            c.bits(&mut len, COLUMN_LEN_BITS);
            let len = (len as usize).min(COLUMN_BYTES);
            (spare, c.column_in(buf, len), len)
        } else {
            (c.column_out(buf), &*spare, 0)
        };
        let col = Cursor { out, inp, at: 0 };
        (Lanes { flags: 0, col }, len)
    }

    /// Ends a block whose cursor ended `at` ([`Lanes::open`]): the packer
    /// keeps its column and its length, the unpacker checks that its items
    /// read the `len` bytes it held.
    #[inline(always)]
    fn close<C: Coder>(c: &mut C, col: &mut Column, len: usize, at: usize) {
        if C::UNPACKS {
            c.column_read(len, at);
        } else {
            debug_assert!(at <= COLUMN_BYTES);
            let mut len = at as u32;
            c.bits(&mut len, COLUMN_LEN_BITS);
            c.column_done(&mut col.buf, (len as usize).min(COLUMN_BYTES));
        }
    }

    /// A decision: the packer sets flag `p` and gives `hit` back, the
    /// unpacker reads it.
    #[inline(always)]
    fn flag<C: Coder>(&mut self, p: usize, hit: bool) -> bool {
        if C::UNPACKS {
            self.flags >> p & 1 != 0
        } else {
            self.flags |= u32::from(hit) << p;
            hit
        }
    }

    /// A value 0 to 3 in two planes from `p` (as [`Lanes::flag`]).
    #[inline(always)]
    fn tag<C: Coder>(&mut self, p: usize, t: u32) -> u32 {
        let lo = self.flag::<C>(p, t & 1 != 0);
        let hi = self.flag::<C>(p + 1, t & 2 != 0);
        u32::from(lo) | u32::from(hi) << 1
    }

    /// A float near `guess`: its byte count in two planes from `p`, the
    /// low bytes of its bits' exclusive or with the guess's in the column
    /// (as `pack::near`).
    #[inline(always)]
    fn near<C: Coder>(&mut self, p: usize, v: &mut f32, guess: f32) {
        let (x, t) = near_tag(*v, guess);
        let t = self.tag::<C>(p, t);
        let x = self.col.bytes::<C>(x, t as usize + 1);
        if C::UNPACKS {
            *v = f32::from_bits(x ^ guess.to_bits());
        }
    }

    /// Words as their guesses: flag `p` when they all hold, else that flag
    /// and, in the column, a byte of which missed and those words (`N` at
    /// most 8).
    #[inline(always)]
    fn words<C: Coder, const N: usize>(&mut self, p: usize, w: &mut [u32; N], guess: [u32; N]) {
        const { assert!(N <= 8, "the miss mask is one byte") };
        if self.flag::<C>(p, *w == guess) {
            if C::UNPACKS {
                *w = guess;
            }
            return;
        }
        let mut missed = 0;
        for (k, (w, g)) in w.iter().zip(guess).enumerate() {
            missed |= u32::from(*w != g) << k;
        }
        let missed = self.col.bytes::<C>(missed, 1);
        for (k, (w, g)) in w.iter_mut().zip(guess).enumerate() {
            let miss = missed >> k & 1;
            let x = self.col.bytes::<C>(*w, 4 * miss as usize);
            *w = if miss != 0 { x } else { g };
        }
    }

    /// Words as their guessed image (`N` at most 32): flag `p` when every
    /// word holds (one compare of the whole image), else that flag and, in
    /// the column, a mask of the words that missed (`N` bits, in whole
    /// bytes) and those words.
    #[inline(always)]
    fn image<C: Coder, const N: usize>(&mut self, p: usize, w: &mut [u32; N], guess: &[u32; N]) {
        const { assert!(N <= 32, "the miss mask is one word") };
        let held = !C::UNPACKS && w.iter().zip(guess).fold(0, |d, (a, b)| d | (a ^ b)) == 0;
        if self.flag::<C>(p, held) {
            if C::UNPACKS {
                *w = *guess;
            }
            return;
        }
        let mut missed = 0u32;
        if !C::UNPACKS {
            for (k, (a, b)) in w.iter().zip(guess).enumerate() {
                missed |= u32::from(a != b) << k;
            }
        }
        let all = u32::MAX >> (32 - N);
        let missed = self.col.bytes::<C>(missed, N.div_ceil(8)) & all;
        if C::UNPACKS {
            *w = *guess;
        }
        for k in ones(u64::from(missed)) {
            if let Some(x) = w.get_mut(k) {
                *x = self.col.bytes::<C>(*x, 4);
            }
        }
    }

    /// A word by its (wrapping) difference from `guess`, zigzagged: its
    /// byte count less one in two flags from `p`, its low bytes in the
    /// column (one byte within ±128).
    #[inline(always)]
    fn diff<C: Coder>(&mut self, p: usize, v: &mut u32, guess: u32) {
        let d = v.wrapping_sub(guess) as i32;
        let z = ((d << 1) ^ (d >> 31)) as u32;
        let t = self.tag::<C>(p, byte_tag(z));
        let z = self.col.bytes::<C>(z, t as usize + 1);
        if C::UNPACKS {
            let d = ((z >> 1) as i32) ^ -((z & 1) as i32);
            *v = guess.wrapping_add(d as u32);
        }
    }

    /// A word as `guess`: flag `p` when it holds, else [`Lanes::diff`]
    /// with the two flags after it.
    #[inline(always)]
    fn delta<C: Coder>(&mut self, p: usize, v: &mut u32, guess: u32) {
        if self.flag::<C>(p, *v == guess) {
            if C::UNPACKS {
                *v = guess;
            }
        } else {
            self.diff::<C>(p + 1, v, guess);
        }
    }

    /// A float as its four bytes in the column.
    #[inline(always)]
    fn float<C: Coder>(&mut self, v: &mut f32) {
        let x = self.col.bytes::<C>(v.to_bits(), 4);
        if C::UNPACKS {
            *v = f32::from_bits(x);
        }
    }

    /// A rotation near `guess`, all in the column: one byte of the two
    /// byte counts, then the low bytes of each (as `pack::near_rot`).
    #[inline(always)]
    fn near_rot<C: Coder>(&mut self, v: &mut Rot, guess: Rot) {
        let (xc, tc) = near_tag(v.c, guess.c);
        let (xs, ts) = near_tag(v.s, guess.s);
        let t = self.col.bytes::<C>(tc | ts << 2, 1);
        let xc = self.col.bytes::<C>(xc, (t & 3) as usize + 1);
        let xs = self.col.bytes::<C>(xs, (t >> 2 & 3) as usize + 1);
        if C::UNPACKS {
            *v = Rot {
                c: f32::from_bits(xc ^ guess.c.to_bits()),
                s: f32::from_bits(xs ^ guess.s.to_bits()),
            };
        }
    }
}

/// Bytes of a value's low end to keep (0 to 3: one to four bytes), with
/// no branch (`pack::near_tag`).
#[inline(always)]
fn byte_tag(x: u32) -> u32 {
    u32::from(x > 0xff) + u32::from(x > 0xffff) + u32::from(x > 0xff_ffff)
}

/// A recycling cache as words (`code_recycling`).
#[inline(always)]
fn recycling_words(s: &ContactSim) -> [u32; 8] {
    let (a, b, r) = (s.cached_rotation_a, s.cached_rotation_b, s.cached_relative);
    [a.c, a.s, b.c, b.s, r.p.x, r.p.y, r.q.c, r.q.s].map(f32::to_bits)
}

/// Anchor B and the world point of every point of a manifold are its
/// anchor A plus one offset for the whole manifold (`update_contact` forms
/// them from the same two poses: anchor B = anchor A + (origin A − origin
/// B), world point = anchor A + centre A, up to rounding), bit for bit:
/// the offsets, if so.
fn shared_offsets(m: &Manifold) -> Option<(Vec2, Vec2)> {
    let count = m.point_count.min(2);
    let first = m.points.first().filter(|_| count > 0)?;
    let (to_b, to_point) = (
        first.anchor_b - first.anchor_a,
        first.point - first.anchor_a,
    );
    m.points[..count]
        .iter()
        .all(|mp| {
            (mp.anchor_a + to_b).same(&mp.anchor_b) && (mp.anchor_a + to_point).same(&mp.point)
        })
        .then_some((to_b, to_point))
}

/// A contact sim vector, in blocks of [`BLOCK`] (`code_blocks`, each sim
/// by `code_sim`).
fn code_contact_sims<C: Coder>(
    c: &mut C,
    sims: &mut Vec<ContactSim>,
    blank: &ContactSim,
    g: &SimGuesses,
    col: &mut Column,
) {
    let mut n = sims.len() as u32;
    c.count(&mut n, SIM_FLAG_BYTES);
    if C::UNPACKS {
        sims.resize(n as usize, *blank);
    }
    code_blocks(
        c,
        sims,
        blank,
        col,
        SIM_FLAG_BYTES,
        "contact sims",
        |s, p, j, l| {
            code_sim::<C>(s, p, l, g);
            // (where the sims are, while the id is at hand: the last sim of
            // an id counts)
            if let Some([set, color, at]) = g.places.get(s.contact_id as usize) {
                set.set(g.place[0]);
                color.set(g.place[1]);
                at.set(j as u32);
            }
        },
    );
}

/// Items in blocks of [`BLOCK`] (`blank` is the item before the first),
/// each by `code(item, previous item, index, lanes)`, which puts every
/// decision in a flag of the item's `flag_bytes` bytes of flags and every
/// other byte after them, in the block's column (in the state's bytes in
/// place, `Lanes::open`). The packer codes the items into the column, then
/// codes its length; the unpacker reads the length first, then codes the
/// items from the column. So a guess costs no call on the coder and no
/// branch on the stream. (`label`: what the column's bytes count as,
/// `Coder::mark`.)
fn code_blocks<C: Coder, T>(
    c: &mut C,
    items: &mut [T],
    blank: &T,
    col: &mut Column,
    flag_bytes: usize,
    label: &'static str,
    mut code: impl FnMut(&mut T, &T, usize, &mut Lanes),
) {
    let mut start = 0;
    while start < items.len() {
        let end = items.len().min(start + BLOCK);
        c.mark(label);
        code_block(c, items, start..end, blank, col, flag_bytes, &mut code);
        start = end;
    }
}

/// Items `range` (at most [`BLOCK`]) of `code_blocks`.
#[inline(never)]
fn code_block<C: Coder, T>(
    c: &mut C,
    items: &mut [T],
    range: std::ops::Range<usize>,
    blank: &T,
    col: &mut Column,
    flag_bytes: usize,
    code: &mut impl FnMut(&mut T, &T, usize, &mut Lanes),
) {
    let (mut l, len) = Lanes::open::<C>(c, col);
    let flag_bytes = flag_bytes.min(4);
    for j in range.take(BLOCK) {
        let (done, rest) = items.split_at_mut(j);
        let (Some(item), prev) = (rest.first_mut(), done.last().unwrap_or(blank)) else {
            break;
        };
        // the flags first (the packer's once the item is coded)
        let at = l.col.at;
        l.flags = l.col.bytes::<C>(0, flag_bytes);
        code(item, prev, j, &mut l);
        if !C::UNPACKS {
            // (only its bytes: the item's follow)
            let i = at & (COLUMN_BYTES - 1);
            l.col.out[i..i + flag_bytes].copy_from_slice(&l.flags.to_le_bytes()[..flag_bytes]);
        }
    }
    let at = l.col.at;
    Lanes::close(c, col, len, at);
}

/// One contact sim, in order: its id (its difference from the last one's
/// plus one); its header against one guessed image (`head_words`); the
/// manifold's count, rolling impulse and normal as the last sim's (and no
/// rolling impulse); whether its points' anchor B and world point are
/// anchor A plus one offset each (`shared_offsets`), and those two; the
/// recycling cache (`code_recycling`); the two point slots
/// (`code_point`). Each guess reads only what was coded before it, so the
/// coding is exact whatever the sims hold.
#[inline(always)]
fn code_sim<C: Coder>(s: &mut ContactSim, p: &ContactSim, l: &mut Lanes, g: &SimGuesses) {
    // (in a colour the sims are in no order of their ids)
    l.diff::<C>(P_ID, &mut s.contact_id, p.contact_id.wrapping_add(1));

    let bodies = code_sim_header::<C>(s, p, l, g);

    let (m, pm) = (&mut s.manifold, &p.manifold);
    // the count, rolling impulse and normal as the last sim's (and no
    // rolling impulse)
    let mut head = [
        m.point_count as u32,
        m.rolling_impulse.to_bits(),
        m.normal.x.to_bits(),
        m.normal.y.to_bits(),
    ];
    let guess = [
        pm.point_count as u32,
        0,
        pm.normal.x.to_bits(),
        pm.normal.y.to_bits(),
    ];
    l.words::<C, 4>(P_MANIFOLD, &mut head, guess);
    if C::UNPACKS {
        // (at most two, whatever the bytes say: a step indexes the points)
        m.point_count = (head[0] as usize).min(2);
        m.rolling_impulse = f32::from_bits(head[1]);
        m.normal = Vec2::new(f32::from_bits(head[2]), f32::from_bits(head[3]));
    }

    let offsets = if C::UNPACKS { None } else { shared_offsets(m) };
    let shared = l.flag::<C>(P_SHARED, offsets.is_some());
    let (mut to_b, mut to_point) = offsets.unwrap_or((Vec2::ZERO, Vec2::ZERO));
    if shared {
        l.col
            .floats::<C, 4>([&mut to_b.x, &mut to_b.y, &mut to_point.x, &mut to_point.y]);
    }

    code_recycling::<C>(s, p, l, g, bodies, to_b, shared);
    for k in 0..2 {
        code_point::<C>(
            s,
            k,
            &p.manifold.points[k],
            l,
            shared.then_some((to_b, to_point)),
        );
    }
}

/// Words of a contact sim's header image (`code_sim_header`): shapes,
/// bodies' awake indices, inverse masses and inertias, material, flags and
/// the simplex cache (two words), and one word of padding.
const HEAD_WORDS: usize = 16;

/// A contact sim's header as words (`code_sim_header`; the id apart).
#[inline(always)]
fn head_words(s: &ContactSim) -> [u32; HEAD_WORDS] {
    let SimplexCache {
        count,
        index_a: [a0, a1, a2],
        index_b: [b0, b1, b2],
    } = s.cache;
    let [c0, c1] = count.to_le_bytes();
    [
        s.shape_id_a,
        s.shape_id_b,
        s.body_sim_index_a,
        s.body_sim_index_b,
        s.inv_mass_a.to_bits(),
        s.inv_i_a.to_bits(),
        s.inv_mass_b.to_bits(),
        s.inv_i_b.to_bits(),
        s.friction.to_bits(),
        s.restitution.to_bits(),
        s.rolling_resistance.to_bits(),
        s.tangent_speed.to_bits(),
        s.sim_flags,
        u32::from_le_bytes([c0, c1, a0, a1]),
        u32::from_le_bytes([a2, b0, b1, b2]),
        0,
    ]
}

/// Sets a contact sim's header from its words (`head_words`).
#[inline(always)]
fn set_head_words(s: &mut ContactSim, w: &[u32; HEAD_WORDS]) {
    let [c0, c1, a0, a1] = w[13].to_le_bytes();
    let [a2, b0, b1, b2] = w[14].to_le_bytes();
    s.cache = SimplexCache {
        count: u16::from_le_bytes([c0, c1]),
        index_a: [a0, a1, a2],
        index_b: [b0, b1, b2],
    };
    [
        s.shape_id_a,
        s.shape_id_b,
        s.body_sim_index_a,
        s.body_sim_index_b,
    ] = [w[0], w[1], w[2], w[3]];
    [
        s.inv_mass_a,
        s.inv_i_a,
        s.inv_mass_b,
        s.inv_i_b,
        s.friction,
        s.restitution,
        s.rolling_resistance,
        s.tangent_speed,
    ] = std::array::from_fn(|k| f32::from_bits(w[4 + k]));
    s.sim_flags = w[12];
}

/// A shape's body, as the header of a contact sim reads it: the body's
/// index and its row of the shape table (`fill_shape_rows`).
type ShapeBody<'g> = (Option<u32>, Option<&'g [u32]>);

/// A contact sim's header (`head_words`) against one guessed image of it:
/// the shapes its contact row names, the awake indices, inverse masses and
/// inertias of their bodies (`fill_shape_rows`), the rest as the sim
/// before (`p`). One bit when the whole image holds
/// (compared word for word with no branch); else that bit and, in the
/// column, a mask of the words that missed and those words. Gives each
/// shape's body.
#[inline(always)]
fn code_sim_header<'g, C: Coder>(
    s: &mut ContactSim,
    p: &ContactSim,
    l: &mut Lanes,
    g: &'g SimGuesses,
) -> (ShapeBody<'g>, ShapeBody<'g>) {
    let ContactSim {
        contact_id,
        // `head_words`
        body_sim_index_a: _,
        body_sim_index_b: _,
        shape_id_a: _,
        shape_id_b: _,
        inv_mass_a: _,
        inv_i_a: _,
        inv_mass_b: _,
        inv_i_b: _,
        manifold: _, // `code_sim`
        friction: _,
        restitution: _,
        rolling_resistance: _,
        tangent_speed: _,
        sim_flags: _,
        cache: _,
        cached_rotation_a: _, // `code_recycling`
        cached_rotation_b: _,
        cached_relative: _,
        base_separation: _, // `code_point`
    } = s;
    // the shapes its row names, their bodies' rows
    let (ga, gb) = g
        .contacts
        .get(*contact_id as usize)
        .map_or((p.shape_id_a, p.shape_id_b), |r| {
            (r.shape_id_a, r.shape_id_b)
        });
    let (ra, rb) = (g.shape_row(ga), g.shape_row(gb));
    let word = |r: Option<&[u32]>, k: usize, or: f32| r.map_or(or.to_bits(), |r| r[k]);
    let rows = [
        ga,
        gb,
        ra.map_or(NULL_INDEX, |r| r[1]),
        rb.map_or(NULL_INDEX, |r| r[1]),
        word(ra, 2, p.inv_mass_a),
        word(ra, 3, p.inv_i_a),
        word(rb, 2, p.inv_mass_b),
        word(rb, 3, p.inv_i_b),
    ];
    // (the packer compares field by field, with no branch)
    let apart = if C::UNPACKS {
        0
    } else {
        let w = head_words(s);
        let rest = |x: &ContactSim| {
            [
                x.friction,
                x.restitution,
                x.rolling_resistance,
                x.tangent_speed,
            ]
            .map(f32::to_bits)
        };
        let (a, b) = (rest(s), rest(p));
        w[..8].iter().zip(&rows).fold(0, |d, (w, r)| d | (w ^ r))
            | a.iter().zip(&b).fold(0, |d, (a, b)| d | (a ^ b))
            | (s.sim_flags ^ p.sim_flags)
            | u32::from(s.cache != p.cache)
    };
    let hit = l.flag::<C>(P_HEAD, apart == 0);
    if hit {
        if C::UNPACKS {
            [
                s.shape_id_a,
                s.shape_id_b,
                s.body_sim_index_a,
                s.body_sim_index_b,
            ] = [rows[0], rows[1], rows[2], rows[3]];
            [s.inv_mass_a, s.inv_i_a, s.inv_mass_b, s.inv_i_b] =
                [rows[4], rows[5], rows[6], rows[7]].map(f32::from_bits);
            s.friction = p.friction;
            s.restitution = p.restitution;
            s.rolling_resistance = p.rolling_resistance;
            s.tangent_speed = p.tangent_speed;
            s.sim_flags = p.sim_flags;
            s.cache = p.cache;
        }
        return ((ra.map(|r| r[0]), ra), (rb.map(|r| r[0]), rb));
    }
    let mut image = head_words(p);
    image[..8].copy_from_slice(&rows);
    let mut words = if C::UNPACKS { image } else { head_words(s) };
    let mut missed = 0u32;
    for (k, (w, i)) in words.iter().zip(&image).enumerate() {
        missed |= u32::from(w != i) << k;
    }
    // (the padding word never misses)
    let missed = l.col.bytes::<C>(missed, 2) & ((1 << (HEAD_WORDS - 1)) - 1);
    for k in ones(u64::from(missed)) {
        words[k] = l.col.bytes::<C>(words[k], 4);
    }
    if C::UNPACKS {
        set_head_words(s, &words);
    }
    let (ra, rb) = (g.shape_row(words[0]), g.shape_row(words[1]));
    ((ra.map(|r| r[0]), ra), (rb.map(|r| r[0]), rb))
}

/// The set bits of `m`, lowest first.
#[inline(always)]
fn ones(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            j
        })
    })
}

/// A contact sim's recycling cache: the bodies' rotations and relative pose
/// when the manifold was computed. Unused (no `RECYCLE_VALID` flag): one
/// bit when it is the last sim's, else its eight words. Used: each
/// rotation the last one coded for the same body (the contacts of a body
/// made at the same step share it), else near the body's rotation now;
/// the relative rotation as `collide_one` forms it from those two; the
/// relative position near its guess.
#[inline(always)]
fn code_recycling<C: Coder>(
    s: &mut ContactSim,
    p: &ContactSim,
    l: &mut Lanes,
    g: &SimGuesses,
    ((body_a, row_a), (body_b, row_b)): (ShapeBody, ShapeBody),
    to_b: Vec2,
    shared: bool,
) {
    let ContactSim {
        cached_rotation_a,
        cached_rotation_b,
        cached_relative,
        sim_flags,
        ..
    } = s;
    if *sim_flags & sim_flags::RECYCLE_VALID == 0 {
        let last = recycling_words(p);
        let mut w = if C::UNPACKS { last } else { recycling_words(s) };
        if !l.flag::<C>(P_TURN_A, w == last) {
            for x in &mut w {
                *x = l.col.bytes::<C>(*x, 4);
            }
        }
        if C::UNPACKS {
            let f = w.map(f32::from_bits);
            s.cached_rotation_a = Rot { c: f[0], s: f[1] };
            s.cached_rotation_b = Rot { c: f[2], s: f[3] };
            s.cached_relative = Transform {
                p: Vec2::new(f[4], f[5]),
                q: Rot { c: f[6], s: f[7] },
            };
        }
        return;
    }
    // (each body's sim is looked up only when a guess needs its pose now)
    let now = |body| g.body_sim(body).transform.q;
    let (slots_a, slots_b) = (g.turn_slots(body_a), g.turn_slots(body_b));
    for (v, p, slots, body) in [
        (&mut *cached_rotation_a, P_TURN_A, slots_a, body_a),
        (&mut *cached_rotation_b, P_TURN_B, slots_b, body_b),
    ] {
        let kept = SimGuesses::last_turn(slots).unwrap_or_else(|| now(body));
        if l.flag::<C>(p, v.same(&kept)) {
            if C::UNPACKS {
                *v = kept;
            }
        } else {
            l.near_rot::<C>(v, now(body));
        }
        SimGuesses::keep_turn(slots, *v);
    }
    // B's origin from A's then, in A's frame: with shared manifold offsets,
    // anchor A − anchor B plus the two centre offsets; else from the poses
    // now
    let local_center = |r: Option<&[u32]>| match r {
        Some(&[_, _, _, _, x, y]) => Vec2::new(f32::from_bits(x), f32::from_bits(y)),
        _ => Vec2::ZERO,
    };
    let (qa, qb) = (*cached_rotation_a, *cached_rotation_b);
    // the turn as `collide_one` forms it from the same two rotations
    let turn = qa.inv_mul(qb);
    // (with shared offsets the guess is qa⁻¹·(qa·centre A − qb·centre B −
    // offset), written with two rotations rather than three)
    let guessed = if shared {
        local_center(row_a) - turn.rotate(local_center(row_b)) - qa.inv_rotate(to_b)
    } else {
        let (xa, xb) = (g.body_sim(body_a).transform, g.body_sim(body_b).transform);
        xa.inv_mul(xb).p
    };
    l.near::<C>(P_REL_X, &mut cached_relative.p.x, guessed.x);
    l.near::<C>(P_REL_Y, &mut cached_relative.p.y, guessed.y);
    let q = &mut cached_relative.q;
    if l.flag::<C>(P_RELATIVE, q.same(&turn)) {
        if C::UNPACKS {
            *q = turn;
        }
    } else {
        l.float::<C>(&mut q.c);
        l.float::<C>(&mut q.s);
    }
}

/// Point slot `k` (0 or 1) of a contact sim's manifold, and its base
/// separation.
///
/// - A slot past the manifold's count: one bit when it is the default
///   point and its base separation its separation, else the point and the
///   base separation whole.
/// - A point: anchor A as two raw words (a guess near it saved about a
///   byte a coordinate, for two decisions each), the id as the last sim's
///   same point's (else two bytes), `persisted`, the five numbers a solver
///   leaves (separation, impulses, normal velocity: raw words, no guess
///   comes near them often enough to pay for its decision), and the base
///   separation as the separation (else a raw word: the separation moved
///   from it with the bodies' motion during the last step, which nothing
///   kept here gives back exactly). Anchor B and the world point are
///   anchor A plus the `shared` offsets, or else raw words.
#[inline(always)]
fn code_point<C: Coder>(
    s: &mut ContactSim,
    k: usize,
    pp: &ManifoldPoint,
    l: &mut Lanes,
    shared: Option<(Vec2, Vec2)>,
) {
    let p = P_POINT + 4 * (k & 1);
    let in_use = k < s.manifold.point_count;
    let (mp, base) = (&mut s.manifold.points[k & 1], &mut s.base_separation[k & 1]);
    if in_use {
        // anchor A and the five numbers, in one piece
        let mut words = [
            mp.anchor_a.x,
            mp.anchor_a.y,
            mp.separation,
            mp.normal_impulse,
            mp.tangent_impulse,
            mp.total_normal_impulse,
            mp.normal_velocity,
        ]
        .map(f32::to_bits);
        l.col.words::<C, 7>(&mut words);
        let last_id = pp.id;
        let id_hit = l.flag::<C>(p, mp.id == last_id);
        let id = l
            .col
            .bytes::<C>(u32::from(mp.id), 2 - 2 * usize::from(id_hit));
        let persisted = l.flag::<C>(p + 1, mp.persisted);
        if C::UNPACKS {
            // (before the base separation's guess reads the separation)
            [
                mp.anchor_a.x,
                mp.anchor_a.y,
                mp.separation,
                mp.normal_impulse,
                mp.tangent_impulse,
                mp.total_normal_impulse,
                mp.normal_velocity,
            ] = words.map(f32::from_bits);
        }
        let fresh = l.flag::<C>(p + 2, base.same(&mp.separation));
        let b = l.col.bytes::<C>(base.to_bits(), 4 - 4 * usize::from(fresh));
        if C::UNPACKS {
            mp.id = if id_hit { last_id } else { id as u16 };
            mp.persisted = persisted;
            *base = if fresh {
                mp.separation
            } else {
                f32::from_bits(b)
            };
        }
        match shared {
            Some((to_b, to_point)) => {
                if C::UNPACKS {
                    mp.anchor_b = mp.anchor_a + to_b;
                    mp.point = mp.anchor_a + to_point;
                }
            }
            None => {
                l.col.floats::<C, 4>([
                    &mut mp.anchor_b.x,
                    &mut mp.anchor_b.y,
                    &mut mp.point.x,
                    &mut mp.point.y,
                ]);
            }
        }
    } else {
        let hit = mp.same(&ManifoldPoint::default()) && base.same(&mp.separation);
        if l.flag::<C>(p + 3, hit) {
            if C::UNPACKS {
                *mp = ManifoldPoint::default();
                *base = mp.separation;
            }
        } else {
            let ManifoldPoint {
                point: Vec2 { x: px, y: py },
                anchor_a: Vec2 { x: ax, y: ay },
                anchor_b: Vec2 { x: bx, y: by },
                separation,
                normal_impulse,
                tangent_impulse,
                total_normal_impulse: total,
                normal_velocity,
                id,
                persisted,
            } = mp;
            l.col.floats::<C, 12>([
                px,
                py,
                ax,
                ay,
                bx,
                by,
                separation,
                normal_impulse,
                tangent_impulse,
                total,
                normal_velocity,
                base,
            ]);
            let x = l
                .col
                .bytes::<C>(u32::from(*id) | u32::from(*persisted) << 16, 3);
            if C::UNPACKS {
                (*id, *persisted) = (x as u16, x >> 16 != 0);
            }
        }
    }
}

/// Where each contact's sim is (its row's set, colour and index there):
/// what the sims coded before say (`places`, three slots per contact,
/// filled in as they were coded, `code_contact_sims`), so that only a row
/// that disagrees (none in a consistent world) costs more than the count.
#[inline(never)]
fn code_contact_places<C: Coder>(c: &mut C, contacts: &mut [Contact], places: &[u32]) {
    code_off_table(
        c,
        contacts,
        places,
        |ct| [ct.set_index, ct.color_index, ct.local_index],
        |ct| [&mut ct.set_index, &mut ct.color_index, &mut ct.local_index],
    );
}

fn code_island<C: Coder>(c: &mut C, island: &mut Island, p: &Island, i: u32) {
    // Free slots (reset to the default by `destroy_island`) come in runs:
    // one bit for a slot the same as the one before, bit for bit (what
    // the guesses below give such a slot, without making each of them).
    // (`==` compares every field, so a new one cannot be copied silently
    // from the slot before.)
    let mut repeat = !C::UNPACKS && *island == *p;
    c.bit(&mut repeat);
    if repeat {
        if C::UNPACKS {
            *island = *p;
        }
        return;
    }
    let Island {
        set_index,
        local_index,
        island_id,
        head_body,
        tail_body,
        body_count,
        head_contact,
        tail_contact,
        contact_count,
        head_joint,
        tail_joint,
        joint_count,
        constraint_remove_count,
    } = island;
    let free = NULL_INDEX;
    delta(c, island_id, if p.island_id == free { free } else { i });
    guess(c, set_index, p.set_index);
    let local = if *island_id == free {
        p.local_index
    } else {
        p.local_index.wrapping_add(1)
    };
    delta(c, local_index, local);
    guess_all(
        c,
        [
            (head_body, p.head_body),
            (tail_body, p.tail_body),
            (body_count, p.body_count),
            (head_contact, p.head_contact),
            (tail_contact, p.tail_contact),
            (contact_count, p.contact_count),
            (head_joint, p.head_joint),
            (tail_joint, p.tail_joint),
            (joint_count, p.joint_count),
            (constraint_remove_count, p.constraint_remove_count),
        ],
    );
}

/// The islands (a call of its own, so that profiles split the cost).
#[inline(never)]
fn code_islands<C: Coder>(c: &mut C, islands: &mut Vec<Island>) {
    elements(c, islands, &Island::default(), code_island);
}

/// The last step's body move events: one per awake body, in the awake
/// set's order, with the body's transform and user data then (as
/// `record_step_events` writes them), so guessed from the bodies now
/// (`code_body_move`; the first event's world as this world's number). One bit when every event is its guess (the bodies
/// have not changed since the step), else that bit and each event.
#[inline(never)]
fn code_body_moves<C: Coder>(
    c: &mut C,
    moves: &mut Vec<BodyMoveEvent>,
    bodies: &[Body],
    sets: &[SolverSet],
    world_number: u16,
) {
    let blank = BodyMoveEvent {
        body_id: BodyId {
            world: world_number,
            ..BodyId::default()
        },
        transform: WorldTransform::IDENTITY,
        user_data: 0,
        fell_asleep: false,
    };
    let awake = sets
        .get(AWAKE_SET as usize)
        .map_or(&[][..], |s| &s.body_sims[..]);
    let mut n = moves.len() as u32;
    c.varint(&mut n);
    if C::UNPACKS {
        moves.resize(n as usize, blank);
    }
    all_or_each!(c, |c| {
        for i in 0..moves.len() {
            let (done, rest) = moves.split_at_mut(i);
            let p = done.last().unwrap_or(&blank);
            code_body_move(c, &mut rest[0], p, i, bodies, sets, awake);
        }
    });
}

/// One body move event (`code_body_moves`): its body the awake body after
/// the previous event's, its generation, transform and user data the
/// body's now, its world and `fell_asleep` the previous event's.
#[inline(always)]
fn code_body_move<C: Coder>(
    c: &mut C,
    e: &mut BodyMoveEvent,
    p: &BodyMoveEvent,
    i: usize,
    bodies: &[Body],
    sets: &[SolverSet],
    awake: &[BodySim],
) {
    let BodyMoveEvent {
        body_id,
        transform,
        user_data,
        fell_asleep,
    } = e;
    let BodyId {
        index,
        world,
        generation,
    } = body_id;
    // the awake body after the previous event's
    let next = if i == 0 {
        awake.first()
    } else {
        bodies
            .get(p.body_id.index as usize)
            .filter(|b| b.set_index == AWAKE_SET)
            .and_then(|b| awake.get(b.local_index as usize + 1))
    };
    let next = next.map_or(p.body_id.index.wrapping_add(1), |s| s.body_id);
    delta(c, index, next);
    guess(c, world, p.body_id.world);
    let body = bodies.get(*index as usize);
    guess(
        c,
        generation,
        body.map_or(p.body_id.generation, |b| b.generation),
    );
    let sim = body.and_then(|b| {
        sets.get(b.set_index as usize)?
            .body_sims
            .get(b.local_index as usize)
    });
    guess(c, transform, sim.map_or(p.transform, |s| s.transform));
    guess(c, user_data, body.map_or(p.user_data, |b| b.user_data));
    guess(c, fell_asleep, p.fell_asleep);
}

fn code_id_pool<C: Coder>(c: &mut C, pool: &mut IdPool) {
    let IdPool { free, next } = pool;
    next.code(c);
    // ids freed in a run differ by the same step: each guessed as the
    // previous one moved by the last difference
    let mut step = 0u32;
    elements(c, free, &0, |c, v, p, _| {
        delta(c, v, p.wrapping_add(step));
        step = v.wrapping_sub(*p);
    });
}

/// A solver set's bodies, islands and joints (its contacts come later, once
/// the contact rows are in).
#[inline(never)]
fn code_set_bodies<C: Coder>(c: &mut C, set: &mut SolverSet, col: &mut Column) {
    let SolverSet {
        body_sims,
        body_states,
        contact_sims: _, // see `code_world`
        island_sims,
        joint_sims,
        in_use,
    } = set;
    in_use.code(c);
    elements(c, body_sims, &BodySim::REST, code_body_sim);
    code_body_states(c, body_states, col);
    let blank = IslandSim {
        island_id: NULL_INDEX,
    };
    elements(c, island_sims, &blank, |c, s, p, _| {
        delta(c, &mut s.island_id, p.island_id.wrapping_add(1));
    });
    c.joint_sims(joint_sims);
}

/// The box and fat box of each shape on a moving body (after the trees:
/// the fat box is guessed from the proxy's). Static shapes' boxes change
/// only with the static tree (a structural edit).
#[inline(never)]
fn code_shape_bounds<C: Coder>(
    c: &mut C,
    shapes: &mut [Shape],
    bodies: &[Body],
    solver_sets: &[SolverSet],
    trees: &[DynamicTree],
) {
    // (one bit when every guess holds, as between steps: the step leaves
    // each box where its body is and no proxy enlarged)
    all_or_each!(c, |c| {
        for shape in shapes.iter_mut() {
            code_shape_bound(c, shape, bodies, solver_sets, trees);
        }
    });
}

/// A shape's bounds (`code_shape_bounds`): its box as its body's transform
/// gives it, its fat box as its proxy's in the tree, "enlarged" not set.
#[inline(always)]
fn code_shape_bound<C: Coder>(
    c: &mut C,
    shape: &mut Shape,
    bodies: &[Body],
    solver_sets: &[SolverSet],
    trees: &[DynamicTree],
) {
    let Some(body) = bodies.get(shape.body_id as usize) else {
        return;
    };
    if body.body_type == BodyType::Static {
        return;
    }
    let xf = solver_sets
        .get(body.set_index as usize)
        .and_then(|s| s.body_sims.get(body.local_index as usize))
        .map_or(WorldTransform::IDENTITY, |s| s.transform);
    guess(c, &mut shape.aabb, speculative_aabb(&shape.geometry, xf));
    // the proxy's box in its tree
    let leaf = shape.proxy_key.and_then(|key| {
        let tree = trees.get(key.body_type() as usize)?;
        let link = tree.proxies.get(key.proxy_id().index() as usize)?.link;
        let node = tree.nodes.get(link.parent as usize)?;
        Some(node.children.get(usize::from(link.slot))?.aabb)
    });
    let fat = leaf.unwrap_or_else(|| shape.aabb.fattened(shape.aabb_margin));
    guess(c, &mut shape.fat_aabb, fat);
    guess(c, &mut shape.enlarged_aabb, false);
}

/// Words of a box (`aabb_words`): four `f32` corners, or four `f64`
/// with `large-world`.
const AABB_WORDS: usize = if cfg!(feature = "large-world") { 8 } else { 4 };

/// A box's corners as words (lower x, lower y, upper x, upper y; an `f64`
/// as its low word, then its high word).
#[inline(always)]
fn aabb_words(b: &WorldAabb) -> [u32; AABB_WORDS] {
    let corners = [b.lower.x, b.lower.y, b.upper.x, b.upper.y];
    #[cfg(not(feature = "large-world"))]
    {
        corners.map(f32::to_bits)
    }
    #[cfg(feature = "large-world")]
    {
        let w = corners.map(f64::to_bits);
        std::array::from_fn(|k| (w[k / 2] >> (32 * (k & 1))) as u32)
    }
}

/// Sets a box from its words (`aabb_words`).
#[inline(always)]
fn set_aabb_words(b: &mut WorldAabb, w: &[u32; AABB_WORDS]) {
    #[cfg(not(feature = "large-world"))]
    let [lx, ly, ux, uy] = w.map(f32::from_bits);
    #[cfg(feature = "large-world")]
    let [lx, ly, ux, uy]: [f64; 4] = std::array::from_fn(|k| {
        f64::from_bits(u64::from(w[2 * k]) | u64::from(w[2 * k + 1]) << 32)
    });
    (b.lower.x, b.lower.y, b.upper.x, b.upper.y) = (lx, ly, ux, uy);
}

/// A tree link (a proxy's or a node's) through its flag byte and its
/// block's column (`code_blocks`): the parent as its difference from the
/// previous link's (flags 0 and 1: a tree's parents follow no order that
/// a guess could use), then the slot as the other one than the previous
/// link's and "allocated" as the previous link's (flag 2, else
/// `Lanes::words`), with `extra` words and their guesses after them.
#[inline(always)]
fn code_tree_link<C: Coder, const N: usize>(
    link: &mut Link,
    p: &Link,
    extra: &mut [u32; N],
    guess: [u32; N],
    l: &mut Lanes,
) {
    let Link {
        parent,
        slot,
        allocated,
    } = link;
    l.diff::<C>(0, parent, p.parent);
    let mut w = [0u32; 8];
    let mut g = [0u32; 8];
    w[0] = u32::from(*slot);
    w[1] = u32::from(*allocated);
    g[0] = 1 - u32::from(p.slot.min(1));
    g[1] = u32::from(p.allocated);
    w[2..2 + N].copy_from_slice(extra);
    g[2..2 + N].copy_from_slice(&guess);
    if C::UNPACKS {
        w = g;
    }
    l.words::<C, 8>(2, &mut w, g);
    if C::UNPACKS {
        // (a slot is 0 or 1, "allocated" a bit, whatever the bytes say)
        *slot = (w[0] & 1) as u8;
        *allocated = w[1] & 1 != 0;
        extra.copy_from_slice(&w[2..2 + N]);
    }
}

/// A proxy (`code_tree_link`): its category bits, user data (guessed as
/// the previous proxy's plus one) and generation as the previous proxy's.
#[inline(always)]
fn code_proxy<C: Coder>(x: &mut Proxy, p: &Proxy, l: &mut Lanes) {
    let Proxy {
        category_bits,
        user_data,
        link,
        generation,
    } = x;
    let split = |v: u64| [v as u32, (v >> 32) as u32];
    let [c0, c1] = split(*category_bits);
    let [u0, u1] = split(*user_data);
    let mut w = [c0, c1, u0, u1, *generation, 0];
    let [g0, g1] = split(p.category_bits);
    let [h0, h1] = split(p.user_data.wrapping_add(1));
    code_tree_link::<C, 6>(link, &p.link, &mut w, [g0, g1, h0, h1, p.generation, 0], l);
    if C::UNPACKS {
        *category_bits = u64::from(w[0]) | u64::from(w[1]) << 32;
        *user_data = u64::from(w[2]) | u64::from(w[3]) << 32;
        *generation = w[4];
    }
}

/// A node's child slot, flags from `p0` (four: its flag bits held, the
/// index's difference in two, the rest held). `later` are the nodes after
/// this one (already coded: nodes go last to first), starting at node
/// index `first_later`. Its flag bits as the previous node's same slot's,
/// its index by its difference from that slot's; a proxy's generation and
/// user data as the proxy's, and its box whole (the shape's fat box,
/// which `code_shape_bounds` guesses from this); a node's height as one
/// more than its higher child's (as `internal_child` sets it), no user
/// data, and its box as the union of its children's (unless a proxy was
/// enlarged under it since the last rebuild), one image.
#[inline(always)]
fn code_child<C: Coder>(
    ch: &mut Child,
    p: &Child,
    proxies: &[Proxy],
    later: &[Node],
    first_later: usize,
    l: &mut Lanes,
    p0: usize,
) {
    let Child {
        aabb,
        word,
        aux,
        user_data,
    } = ch;
    let mut flags = [*word & !TREE_INDEX];
    let mut index = *word & TREE_INDEX;
    l.words::<C, 1>(p0, &mut flags, [p.word & !TREE_INDEX]);
    l.diff::<C>(p0 + 1, &mut index, p.word & TREE_INDEX);
    let flags = flags[0];
    if C::UNPACKS {
        *word = flags | index;
    }
    let split = |v: u64| [v as u32, (v >> 32) as u32];
    if flags & TREE_LEAF != 0 {
        let proxy = proxies.get(index as usize).unwrap_or(&BLANK_PROXY);
        let [u0, u1] = split(*user_data);
        let [g0, g1] = split(proxy.user_data);
        let mut w = [*aux, u0, u1];
        l.words::<C, 3>(p0 + 3, &mut w, [proxy.generation, g0, g1]);
        let mut b = aabb_words(aabb);
        l.col.words::<C, AABB_WORDS>(&mut b);
        if C::UNPACKS {
            *aux = w[0];
            *user_data = u64::from(w[1]) | u64::from(w[2]) << 32;
            set_aabb_words(aabb, &b);
        }
    } else {
        // the node this slot names (coded before it, usually)
        let below = (index as usize)
            .checked_sub(first_later)
            .and_then(|j| later.get(j));
        let height = |ch: &Child| if ch.word & TREE_LEAF != 0 { 0 } else { ch.aux };
        let (height, union) = below.map_or((p.aux, p.aabb), |n| {
            (
                1u32.wrapping_add(height(&n.children[0]).max(height(&n.children[1]))),
                n.children[0].aabb.union(&n.children[1].aabb),
            )
        });
        let mut guess = [0u32; 3 + AABB_WORDS];
        guess[0] = height;
        guess[3..].copy_from_slice(&aabb_words(&union));
        let mut w = guess;
        if !C::UNPACKS {
            let [u0, u1] = split(*user_data);
            w[..3].copy_from_slice(&[*aux, u0, u1]);
            w[3..].copy_from_slice(&aabb_words(aabb));
        }
        l.image::<C, { 3 + AABB_WORDS }>(p0 + 3, &mut w, &guess);
        if C::UNPACKS {
            *aux = w[0];
            *user_data = u64::from(w[1]) | u64::from(w[2]) << 32;
            let b: &[u32; AABB_WORDS] = w[3..].try_into().unwrap_or(&[0; AABB_WORDS]);
            set_aabb_words(aabb, b);
        }
    }
}

/// The most bytes one tree node puts in its block's column
/// (`code_nodes`): its flag byte, and per slot its flag bits (a mask byte
/// and a word), its index (4) and the larger of a leaf's (a mask byte,
/// three words and the box) and a node's (an image of 3 words and the box
/// that missed every word).
const NODE_BYTES: usize = 1 + 2 * (5 + 4 + (1 + (3 + AABB_WORDS) * 4));
const _: () = assert!(BLOCK * NODE_BYTES <= COLUMN_BYTES);
/// The same for a proxy or a node link (`code_tree_link`).
const LINK_BYTES: usize = 1 + 4 + (1 + 8 * 4);
const _: () = assert!(BLOCK * LINK_BYTES <= COLUMN_BYTES);

/// A tree's nodes, last to first (a rebuild lays them out depth first, so
/// a node's children are usually coded before it and its boxes can be
/// guessed), in blocks of [`BLOCK`] as `code_blocks` codes items (one flag
/// byte a node, `code_child` for each slot).
fn code_nodes<C: Coder>(c: &mut C, nodes: &mut [Node], proxies: &[Proxy], col: &mut Column) {
    let mut end = nodes.len();
    while end > 0 {
        let start = end.saturating_sub(BLOCK);
        c.mark("trees");
        let (mut l, len) = Lanes::open::<C>(c, col);
        for i in (start..end).rev() {
            let (head, later) = nodes.split_at_mut(i + 1);
            let prev = later.first().unwrap_or(&BLANK_NODE);
            let Some(node) = head.last_mut() else { break };
            let at = l.col.at;
            l.flags = l.col.bytes::<C>(0, 1);
            let [c0, c1] = &mut node.children;
            code_child::<C>(c0, &prev.children[0], proxies, later, i + 1, &mut l, 0);
            code_child::<C>(c1, &prev.children[1], proxies, later, i + 1, &mut l, 4);
            if !C::UNPACKS {
                let i = at & (COLUMN_BYTES - 1);
                l.col.out[i] = l.flags as u8;
            }
        }
        let at = l.col.at;
        Lanes::close(c, col, len, at);
        end = start;
    }
}

#[inline(never)]
fn code_tree<C: Coder>(c: &mut C, t: &mut DynamicTree, col: &mut Column) {
    let DynamicTree {
        nodes,
        node_links,
        node_free,
        node_count,
        proxies,
        proxy_free,
        proxy_count,
        category_union: _, // worked out from the proxies below when unpacking
        scratch: _,        // rewritten before it is read
    } = t;
    for v in [node_free, node_count, proxy_free, proxy_count] {
        v.code(c);
    }
    let mut n = proxies.len() as u32;
    c.count(&mut n, 1);
    if C::UNPACKS {
        proxies.resize(n as usize, BLANK_PROXY);
    }
    code_blocks(c, proxies, &BLANK_PROXY, col, 1, "trees", |x, p, _, l| {
        code_proxy::<C>(x, p, l)
    });
    let mut n = node_links.len() as u32;
    c.count(&mut n, 1);
    if C::UNPACKS {
        node_links.resize(n as usize, BLANK_LINK);
    }
    code_blocks(c, node_links, &BLANK_LINK, col, 1, "trees", |x, p, _, l| {
        code_tree_link::<C, 0>(x, p, &mut [], [], l)
    });
    let mut n = nodes.len() as u32;
    c.count(&mut n, 1);
    if C::UNPACKS {
        nodes.resize(n as usize, BLANK_NODE);
    }
    code_nodes(c, nodes, proxies, col);
}

#[inline(never)]
fn code_graph_color<C: Coder>(
    c: &mut C,
    color: &mut GraphColor,
    blank: &ContactSim,
    g: &SimGuesses,
    col: &mut Column,
) {
    let GraphColor {
        body_set,
        contact_sims,
        joint_sims,
    } = color;
    elements(c, &mut body_set.words, &0, |c, w, _, _| w.code(c));
    code_contact_sims(c, contact_sims, blank, g, col);
    c.joint_sims(joint_sims);
}

/// Every store a [`RollbackState`] packs, in order, for both directions;
/// each guess uses only what was coded before it. After unpacking, the pair
/// set is rebuilt from the contacts.
fn code_world<C: Coder>(c: &mut C, world: &mut World, links: &mut Vec<u32>) {
    let World {
        world_number,
        settings: _, // kept whole
        bodies,
        body_ids: _,  // structural
        shapes,       // only the bounds
        shape_ids: _, // structural
        chains: _,    // structural
        chain_ids: _, // structural
        contacts,
        contact_ids,
        islands,
        island_ids,
        solver_sets,
        solver_set_ids,
        graph,
        broad_phase,
        pair_set,
        split_island_id,
        step_index,
        scratch: _, // rewritten before it is read
        profile: _, // timings
        use_wide_solver,
        mixing: _,    // callbacks: not data
        events,       // kept whole but for the body moves
        callbacks: _, // callbacks: not data
        joints: _,    // kept whole
        workers: _,   // threads: not data
        simd: _,      // same bits on every path
        structure: _,
        recorder: _,
        tiles_seen: _, // derived from the static shapes
    } = world;
    step_index.code(c);
    split_island_id.code(c);
    use_wide_solver.code(c);
    // (the blocks' column, reused: `code_blocks`)
    let mut col = Column::new();
    c.mark("body rows");
    code_body_rows(c, bodies, &mut col);
    c.mark("body sims and states");
    code_id_pool(c, contact_ids);
    code_id_pool(c, island_ids);
    code_id_pool(c, solver_set_ids);

    let mut set_count = solver_sets.len() as u32;
    c.varint(&mut set_count);
    if C::UNPACKS {
        solver_sets.resize_with(set_count as usize, SolverSet::default);
    }
    for set in solver_sets.iter_mut() {
        code_set_bodies(c, set, &mut col);
    }
    c.mark("trees");
    for t in MOVING_TREES {
        let tree = &mut broad_phase.trees[t as usize];
        code_tree(c, tree, &mut col);
        if C::UNPACKS {
            tree.tighten_category_union();
        }
    }
    c.mark("shape bounds");
    code_shape_bounds(c, shapes, bodies, solver_sets, &broad_phase.trees);
    c.mark("contact rows");
    let mut n = contacts.len() as u32;
    c.count(&mut n, ROW_FLAG_BYTES);
    // Scratch: three slots per contact for where its sim is
    // (`code_contact_places`), then three for its links back
    // (`code_contact_prevs`), then two per body: the last recycling
    // rotation a contact sim of the body had (the bits of its cosine and
    // sine), then a row per shape (`fill_shape_rows`), then (unpacking) two
    // per contact row the world held before: its shapes, for the pair set
    // (`update_pair_set`).
    let before = if C::UNPACKS { contacts.len() } else { 0 };
    // (not cleared first: each part is filled below before it is read)
    links.resize(
        6 * n as usize + 2 * bodies.len() + SHAPE_ROW * shapes.len() + 2 * before,
        UNLINKED,
    );
    let (places, links) = links.split_at_mut(3 * n as usize);
    let (derived, links) = links.split_at_mut(3 * n as usize);
    let (turned, links) = links.split_at_mut(2 * bodies.len());
    let (by_shape, old_pairs) = links.split_at_mut(SHAPE_ROW * shapes.len());
    turned.fill(UNLINKED);
    if C::UNPACKS {
        keep_pairs(contacts, old_pairs);
    }
    code_contact_rows(c, contacts, &shapes[..], &mut col, derived);
    c.mark("contact links back");
    code_contact_prevs(c, contacts, derived);
    c.mark("contact sims: ids, bodies, material");
    let turned = Cell::from_mut(turned).as_slice_of_cells().as_chunks().0;
    places.fill(NULL_INDEX);
    let put = Cell::from_mut(&mut *places)
        .as_slice_of_cells()
        .as_chunks()
        .0;
    fill_shape_rows(by_shape, &shapes[..], &bodies[..], &solver_sets[..]);
    let by_shape = by_shape.as_chunks().0;
    let blank = blank_contact_sim();
    for k in 0..solver_sets.len() {
        // (taken out for the while, so that the guesses can read the sets)
        let mut sims = std::mem::take(&mut solver_sets[k].contact_sims);
        let g = SimGuesses {
            contacts: &contacts[..],
            by_shape,
            bodies: &bodies[..],
            sets: &solver_sets[..],
            turned,
            places: put,
            place: [k as u32, NULL_INDEX],
        };
        code_contact_sims(c, &mut sims, &blank, &g, &mut col);
        solver_sets[k].contact_sims = sims;
    }
    for (k, color) in graph.colors.iter_mut().enumerate() {
        let g = SimGuesses {
            contacts: &contacts[..],
            by_shape,
            bodies: &bodies[..],
            sets: &solver_sets[..],
            turned,
            places: put,
            place: [AWAKE_SET, k as u32],
        };
        code_graph_color(c, color, &blank, &g, &mut col);
    }
    c.mark("contact places");
    code_contact_places(c, contacts, places);
    c.mark("islands");
    code_islands(c, islands);
    c.mark("move buffer");
    elements(c, &mut broad_phase.move_buffer, &None, |c, m, p, _| {
        let mut moved = m.is_some();
        moved.code(c);
        *m = moved.then(|| {
            let blank = ProxyKey {
                key: 0,
                generation: 0,
            };
            let (mut k, p) = (m.unwrap_or(blank), p.unwrap_or(blank));
            delta(c, &mut k.key, p.key);
            guess(c, &mut k.generation, p.generation);
            k
        });
    });
    c.mark("move slots");
    for slots in &mut broad_phase.move_slots {
        elements(c, slots, &NULL_INDEX, |c, v, p, _| guess(c, v, *p));
    }
    c.mark("body move events");
    code_body_moves(
        c,
        &mut events.body_moves,
        bodies,
        solver_sets,
        *world_number,
    );
    if C::UNPACKS {
        update_pair_set(pair_set, contacts, old_pairs.as_chunks().0);
    }
}

/// A contact row's shapes, or `NULL_INDEX` twice for a free slot (what
/// `update_pair_set` compares).
#[inline(always)]
fn pair_of(ct: &Contact) -> [u32; 2] {
    if ct.contact_id != NULL_INDEX {
        [ct.shape_id_a, ct.shape_id_b]
    } else {
        [NULL_INDEX; 2]
    }
}

/// Keeps each contact row's shapes (`pair_of`) in two slots of `to`, before
/// a load overwrites the rows (`update_pair_set`).
#[inline(never)]
fn keep_pairs(contacts: &[Contact], to: &mut [u32]) {
    for (slot, ct) in to.chunks_exact_mut(2).zip(contacts) {
        slot.copy_from_slice(&pair_of(ct));
    }
}

/// Brings the pair set (the shape pairs of the contacts in use, a world
/// invariant) from the rows the world held before a load (`old`, kept by
/// `keep_pairs`) to the loaded ones, touching only the rows that changed:
/// first every key that left a row, then every key that came into one (a
/// pair that moved to another row is removed, then put back). A rollback
/// usually comes back to most of the same contacts, so this makes a few
/// hash operations where rebuilding the set made one per contact.
#[inline(never)]
fn update_pair_set(pair_set: &mut crate::world::PairSet, contacts: &[Contact], old: &[[u32; 2]]) {
    // (a compare per row, no branch, when nothing changed)
    let same = old.len() == contacts.len()
        && old.iter().zip(contacts).fold(0, |d, (o, ct)| {
            let [a, b] = pair_of(ct);
            d | (o[0] ^ a) | (o[1] ^ b)
        }) == 0;
    if same {
        return;
    }
    let key = |[a, b]: [u32; 2]| (a != NULL_INDEX).then(|| pair_key(a, b));
    let rows = old.len().max(contacts.len());
    let changed = |i: usize| {
        let then = old.get(i).copied().unwrap_or([NULL_INDEX; 2]);
        let now = contacts.get(i).map_or([NULL_INDEX; 2], pair_of);
        (then != now).then_some((key(then), key(now)))
    };
    for (then, _) in (0..rows).filter_map(changed) {
        if let Some(k) = then {
            pair_set.remove(&k);
        }
    }
    for (_, now) in (0..rows).filter_map(changed) {
        if let Some(k) = now {
            pair_set.insert(k);
        }
    }
}

/// What a step can change in a world whose set of objects stays the same
/// (body rows, solver sets, contacts, islands, graph colours, the moving
/// broad-phase trees, joints, events and settings), for exact rollback:
/// [`World::save_rollback`] fills it, [`World::load_rollback`] puts it back.
/// Reuse one value: after the first save its buffers are large enough, and
/// saving or loading allocates nothing while the world keeps its size.
///
/// Two forms, chosen when the state is made:
///
/// - [`RollbackState::new`]: the stores copied whole (a few `memcpy`s).
///   The fast one, for saving every frame: at 10k bodies a save and a load
///   together take about a tenth of a step, for about 1.4 kB per body.
/// - [`RollbackState::compact`]: the stores packed field by field, each
///   field coded as a bit when a guess from what came before it holds and
///   as its difference from the guess otherwise (`pack.rs`); exact whatever
///   the world holds. Several times smaller, for keeping many states (a
///   replay buffer, the testbed's rewind) or for sizing what a resend
///   would cost, and several times slower than the copy.
///
/// Either is private to the world it was saved from, not a file format; for
/// bytes to store or send use a [`Snapshot`](crate::Snapshot).
///
/// ```
/// # use impulse2d::{BodyDef, BodyType, Pos, RollbackState, ShapeDef, Vec2, World, WorldDef};
/// # use impulse2d::collision::make_box;
/// # fn main() -> impulse2d::Result<()> {
/// let mut world = World::new(&WorldDef::default())?;
/// let ground = world.create_body(&BodyDef::default())?;
/// world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 0.5)?)?;
/// let ball = world.create_body(&BodyDef {
///     body_type: BodyType::Dynamic,
///     position: Pos::new(0.0, 4.0),
///     ..BodyDef::default()
/// })?;
/// world.create_polygon_shape(ball, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
///
/// let mut state = RollbackState::new(); // reuse it: no allocation after the first save
/// world.save_rollback(&mut state);
/// for _ in 0..60 { world.step(1.0 / 60.0, 4)?; }  // the predicted frames
/// let predicted = world.state_hash();
///
/// world.load_rollback(&state)?;                    // a late input arrives: go back
/// world.body_mut(ball)?.apply_linear_impulse_to_center(Vec2::new(2.0, 0.0), true)?;
/// for _ in 0..60 { world.step(1.0 / 60.0, 4)?; }  // re-simulate with it
/// assert_ne!(world.state_hash(), predicted);
///
/// world.load_rollback(&state)?;                    // without it again: the same bits
/// for _ in 0..60 { world.step(1.0 / 60.0, 4)?; }
/// assert_eq!(world.state_hash(), predicted);
///
/// world.create_body(&BodyDef::default())?;         // the set of objects changed:
/// assert!(world.load_rollback(&state).is_err());   // refused, world untouched
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Default)]
pub struct RollbackState {
    /// `Some((world number, structure generation))` once saved.
    origin: Option<(u16, u64)>,
    step_index: u64,
    settings: WorldDef,
    /// Whether the stores are packed (`code_world`) rather than copied.
    compact: bool,
    /// The copied stores (the fast form), made by its first save: boxed so
    /// that a compact state does not carry their few kilobytes of roots.
    raw: Option<Box<RawStores>>,
    /// The packed stores (the compact form): bytes, and one bit per guess.
    bytes: Vec<u8>,
    bits: Vec<u64>,
    /// Every solver set's and colour's joint sims, in coding order.
    joint_sims: Vec<JointSim>,
    /// The contact rows' link table (`code_world`), reused.
    links: Mutex<Vec<u32>>,
    joints: JointStorage,
    events: Events,
}

impl RollbackState {
    /// An empty state of the fast form, which copies the stores whole
    /// (nothing saved yet; loading it is an error).
    pub fn new() -> RollbackState {
        RollbackState::default()
    }

    /// An empty state of the compact form, which packs the stores (nothing
    /// saved yet; loading it is an error).
    pub fn compact() -> RollbackState {
        RollbackState {
            compact: true,
            ..RollbackState::default()
        }
    }

    /// Whether this state packs the stores ([`RollbackState::compact`])
    /// rather than copying them.
    pub fn is_compact(&self) -> bool {
        self.compact
    }

    /// Whether a world has been saved into this state.
    pub fn is_saved(&self) -> bool {
        self.origin.is_some()
    }

    /// The step counter of the world when it was saved (0 before any save).
    pub fn step_index(&self) -> u64 {
        self.step_index
    }

    /// Bytes of world state held (the saved elements, not the spare capacity).
    pub fn byte_len(&self) -> usize {
        use std::mem::size_of_val;
        let e = &self.events;
        let events = size_of_val(&e.contact_begin[..])
            + size_of_val(&e.contact_end[..])
            + size_of_val(&e.contact_end_pending[..])
            + size_of_val(&e.contact_hit[..])
            + size_of_val(&e.sensor_begin[..])
            + size_of_val(&e.sensor_end[..])
            + size_of_val(&e.sensor_end_pending[..])
            + size_of_val(&e.body_moves[..])
            + size_of_val(&e.body_quarantines[..])
            + size_of_val(&e.sensors.list[..])
            + e.sensors
                .list
                .iter()
                .map(|s| size_of_val(&s.overlaps[..]) + size_of_val(&s.next[..]))
                .sum::<usize>();
        let j = &self.joints;
        let joints = size_of_val(&j.joints[..])
            + size_of_val(&j.ids.free[..])
            + size_of_val(&j.events[..])
            + size_of_val(&j.pending_events[..])
            + size_of_val(&j.detached[..])
            + size_of_val(&j.over_threshold[..]);
        let stores = if self.compact {
            self.bytes.len() + size_of_val(&self.bits[..]) + size_of_val(&self.joint_sims[..])
        } else {
            self.raw
                .as_ref()
                .map_or(0, |raw| std::mem::size_of::<RawStores>() + raw.byte_len())
        };
        std::mem::size_of::<Self>() + stores + joints + events
    }

    /// Frees what a compact state holds beyond its saved elements, so that
    /// its heap is [`RollbackState::byte_len`] less the struct itself (for a
    /// state kept a long time, as a key frame is): the packed buffers, the
    /// joints' and events' copies shrunk to their lengths, and the scratch
    /// link table of `code_world` dropped (a load or save uses the
    /// caller's, [`RollbackState::swap_scratch`], or grows it again), and
    /// the unused copied-form stores. A copied state keeps its
    /// copies' spare room.
    pub(crate) fn trim(&mut self) {
        if self.compact {
            self.raw = None;
        }
        // Shrinks each vector to its length.
        macro_rules! shrink {
            ($($v:expr),* $(,)?) => { $( $v.shrink_to_fit(); )* };
        }
        shrink!(self.bytes, self.bits, self.joint_sims);
        *self.links.get_mut().unwrap_or_else(|e| e.into_inner()) = Vec::new();
        let j = &mut self.joints;
        shrink!(
            j.joints,
            j.ids.free,
            j.events,
            j.pending_events,
            j.detached,
            j.over_threshold
        );
        let e = &mut self.events;
        shrink!(
            e.contact_begin,
            e.contact_end,
            e.contact_end_pending,
            e.contact_hit,
            e.sensor_begin,
            e.sensor_end,
            e.sensor_end_pending,
            e.body_moves,
            e.body_quarantines,
            e.sensors.slot_of_shape,
            e.sensors.list,
        );
        for s in &mut e.sensors.list {
            s.overlaps.shrink_to_fit();
            s.next.shrink_to_fit();
        }
    }

    /// Swaps the state's scratch link table (used by a compact save or
    /// load) with `scratch`: many trimmed states can share one table, lent
    /// for each save or load.
    pub(crate) fn swap_scratch(&mut self, scratch: &mut Vec<u32>) {
        std::mem::swap(
            self.links.get_mut().unwrap_or_else(|e| e.into_inner()),
            scratch,
        );
    }
}

impl World {
    /// Advances the structure generation (a call changed the set of objects
    /// or something a [`RollbackState`] leaves out).
    pub(crate) fn note_structure_change(&mut self) {
        self.structure = self.structure.wrapping_add(1);
    }

    /// The structure generation: it changes whenever the set of objects or
    /// anything a [`RollbackState`] leaves out changes (see
    /// [`World::load_rollback`]).
    pub fn structure_generation(&self) -> u64 {
        self.structure.wrapping_add(
            self.broad_phase
                .static_edits
                .wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }

    /// Saves what the next steps can change into `state`, reusing its
    /// buffers (no allocation once they are large enough). Call between
    /// steps; [`World::load_rollback`] puts it back.
    ///
    /// It takes `&mut self` because for a compact state one description of
    /// the stores (`code_world`) runs for both the save and the load; saving
    /// changes nothing in the world.
    pub fn save_rollback(&mut self, state: &mut RollbackState) {
        state.origin = Some((self.world_number, self.structure_generation()));
        state.step_index = self.step_index;
        state.settings = self.settings;
        if state.compact {
            let mut packer = Packer::new(&mut state.bytes, &mut state.bits, &mut state.joint_sims);
            let links = state.links.get_mut().unwrap_or_else(|e| e.into_inner());
            code_world(&mut packer, self, links);
            packer.finish();
            // Room for a somewhat larger state next time, so that saving
            // stays free of allocation while the world's state varies a little.
            state.bytes.reserve(state.bytes.len() / 4);
            state.bits.reserve(state.bits.len() / 4);
            state.joint_sims.reserve(state.joint_sims.len() / 4);
        } else {
            state.raw.get_or_insert_with(Box::default).save(self);
        }
        state.joints.refill(&self.joints);
        if state.compact {
            // the body moves are packed with the stores: not copied here
            let moves = std::mem::take(&mut self.events.body_moves);
            state.events.refill(&self.events);
            self.events.body_moves = moves;
        } else {
            state.events.refill(&self.events);
        }
    }

    /// Puts the world back into the state saved in `state` by
    /// [`World::save_rollback`]: the following steps give the same bits,
    /// events and state hash as after the save, on any worker count. The
    /// world keeps its callbacks and worker count. No allocation once the
    /// world's buffers are large enough.
    ///
    /// # Errors
    /// [`Error::InvalidOperation`] and the world unchanged when `state` is
    /// empty, was saved from another world, or the world's structure has
    /// changed since (a body, shape, chain or joint created or destroyed, a
    /// body's type changed, disabled or enabled, a shape or chain edited, the
    /// static tree changed, a snapshot restored; see
    /// [`World::structure_generation`]).
    pub fn load_rollback(&mut self, state: &RollbackState) -> Result<()> {
        match state.origin {
            None => {
                return Err(Error::InvalidOperation(
                    "the rollback state holds nothing (save_rollback first)",
                ));
            }
            Some((number, _)) if number != self.world_number => {
                return Err(Error::InvalidOperation(
                    "the rollback state was saved from another world",
                ));
            }
            Some((_, generation)) if generation != self.structure_generation() => {
                return Err(Error::InvalidOperation(
                    "the world's objects changed since the rollback state was saved",
                ));
            }
            Some(_) => {}
        }
        self.settings = WorldDef {
            worker_count: self.settings.worker_count,
            simd: self.settings.simd,
            ..state.settings
        };
        self.joints.refill(&state.joints);
        self.events.refill(&state.events);
        if state.compact {
            // (after the events: it unpacks the body moves)
            let mut unpacker = Unpacker::new(&state.bytes, &state.bits, &state.joint_sims);
            let mut links = state.links.lock().unwrap_or_else(|e| e.into_inner());
            code_world(&mut unpacker, self, &mut links);
            debug_assert!(unpacker.at_end(), "rollback state not read to its end");
        } else {
            // (a saved copied state has its stores)
            if let Some(raw) = state.raw.as_deref() {
                raw.load(self);
            }
            self.step_index = state.step_index;
        }
        self.record_change();
        Ok(())
    }

    /// Where the bytes of a compact [`RollbackState`] of this world go: bytes
    /// per part of the coding, in coding order (joint sims, joints and
    /// events, kept whole, are not counted). For measuring the packing.
    #[doc(hidden)]
    pub fn rollback_breakdown(&mut self) -> Vec<(&'static str, f64)> {
        let (mut bytes, mut bits, mut joint_sims) = (Vec::new(), Vec::new(), Vec::new());
        let mut stats = Vec::new();
        let mut packer = Packer::counting(&mut bytes, &mut bits, &mut joint_sims, &mut stats);
        packer.mark("settings");
        code_world(&mut packer, self, &mut Vec::new());
        packer.finish();
        stats
            .into_iter()
            .filter(|(label, _)| !label.is_empty())
            .map(|(label, bits)| (label, bits as f64 / 8.0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generator of test values (xorshift, 64 bits; the seed must not be
    /// zero).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u32 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            (x >> 32) as u32
        }

        /// A multiple of 1/64 in [-2, 2]: sums of a few stay exact.
        fn float(&mut self) -> f32 {
            (self.next() % 257) as f32 / 64.0 - 2.0
        }
    }

    /// A contact sim whose manifold has `count` points; `shared`: every
    /// point's anchor B and world point are its anchor A plus (2, 1) and
    /// (3, 4) (exact sums), else each point has offsets of its own.
    fn sim(r: &mut Rng, id: u32, count: usize, shared: bool) -> ContactSim {
        let mut s = blank_contact_sim();
        s.contact_id = id;
        (s.shape_id_a, s.shape_id_b) = (3, 4);
        s.friction = 0.625;
        s.manifold.normal = Vec2::new(0.0, 1.0);
        s.manifold.point_count = count;
        for k in 0..count {
            let a = Vec2::new(r.float(), r.float());
            let (to_b, to_point) = if shared {
                (Vec2::new(2.0, 1.0), Vec2::new(3.0, 4.0))
            } else {
                (Vec2::new(r.float(), 0.5), Vec2::new(k as f32, r.float()))
            };
            let separation = r.float();
            s.manifold.points[k] = ManifoldPoint {
                anchor_a: a,
                anchor_b: a + to_b,
                point: a + to_point,
                separation,
                normal_impulse: r.float(),
                tangent_impulse: r.float(),
                total_normal_impulse: r.float(),
                normal_velocity: r.float(),
                id: (r.next() % 3) as u16 * 257,
                persisted: r.next().is_multiple_of(2),
            };
            s.base_separation[k] = if r.next().is_multiple_of(2) {
                separation
            } else {
                r.float()
            };
        }
        s
    }

    /// A sim unlike the others in every field (a mix of every kind of
    /// miss): random ids, materials, flags, recycling cache and a stale
    /// unused point.
    fn odd_sim(r: &mut Rng) -> ContactSim {
        let (count, id, shared) = (
            (r.next() % 3) as usize,
            r.next(),
            r.next().is_multiple_of(2),
        );
        let mut s = sim(r, id, count, shared);
        s.body_sim_index_a = r.next() % 5;
        s.shape_id_b = r.next();
        s.inv_mass_a = r.float();
        s.restitution = r.float();
        s.cache.count = 2;
        s.sim_flags = r.next() & sim_flags::RECYCLE_VALID;
        s.cached_rotation_a = Rot::from_angle(r.float());
        s.cached_rotation_b = Rot::from_angle(r.float());
        s.cached_relative.p = Vec2::new(r.float(), r.float());
        s.manifold.rolling_impulse = f32::from(u8::from(r.next().is_multiple_of(4)));
        if count < 2 {
            // what a manifold that lost a point may leave behind
            s.manifold.points[1].separation = r.float();
            s.base_separation[1] = r.float();
        }
        s
    }

    /// Nothing to guess from but the sims themselves.
    const NO_GUESSES: SimGuesses<'static> = SimGuesses {
        contacts: &[],
        by_shape: &[],
        bodies: &[],
        sets: &[],
        turned: &[],
        places: &[],
        place: [NULL_INDEX; 2],
    };

    /// Unpacks sims over `loaded` (`NO_GUESSES`); whether every byte was
    /// read.
    fn unpack(bytes: &[u8], bits: &[u64], loaded: &mut Vec<ContactSim>) -> bool {
        let mut u = Unpacker::new(bytes, bits, &[]);
        code_contact_sims(
            &mut u,
            loaded,
            &blank_contact_sim(),
            &NO_GUESSES,
            &mut Column::new(),
        );
        u.at_end()
    }

    /// Packs `saved` as `code_world` packs a solver set's sims
    /// (`NO_GUESSES`): the bytes and bits.
    fn pack(saved: &[ContactSim]) -> (Vec<u8>, Vec<u64>) {
        let mut sims = saved.to_vec();
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        code_contact_sims(
            &mut p,
            &mut sims,
            &blank_contact_sim(),
            &NO_GUESSES,
            &mut Column::new(),
        );
        p.finish();
        // (Debug prints each float so that it reads back to the same bits,
        // and these hold no NaN)
        assert_eq!(
            format!("{sims:?}"),
            format!("{saved:?}"),
            "packer changed them"
        );
        (bytes, bits)
    }

    /// Packs `saved`, unpacks them over other sims and checks every bit
    /// came back. Gives the bytes used.
    fn round_trip(saved: &[ContactSim]) -> usize {
        let (bytes, bits) = pack(saved);
        let mut loaded = vec![odd_sim(&mut Rng(7)); 3];
        assert!(unpack(&bytes, &bits, &mut loaded));
        assert_eq!(format!("{loaded:?}"), format!("{saved:?}"));
        bytes.len()
    }

    #[test]
    fn blocks_of_hits_misses_and_a_partial_last_block_come_back_bit_for_bit() {
        let mut r = Rng(1);
        let same = sim(&mut r, 9, 2, true);
        for n in [0, 1, 2, 63, 64, 65, 130, 150] {
            // all hits (after the first against the blank sim)
            round_trip(&vec![same; n]);
            // all misses
            let odd: Vec<_> = (0..n).map(|_| odd_sim(&mut r)).collect();
            round_trip(&odd);
            // mixed: runs of like sims, one- and two-point manifolds,
            // shared offsets or not, now and then an odd one
            let mixed: Vec<_> = (0..n)
                .map(|i| match r.next() % 5 {
                    0 => odd_sim(&mut r),
                    1 => same,
                    k => sim(&mut r, i as u32, k as usize - 2, k != 3),
                })
                .collect();
            round_trip(&mixed);
        }
    }

    #[test]
    fn corrupted_sim_bytes_unpack_without_a_panic() {
        // mixed sims, packed; then each byte flipped in turn (and the
        // bits, and the buffers cut short): the unpacker reads whatever it
        // finds, never out of bounds
        let mut r = Rng(5);
        let saved: Vec<_> = (0..70)
            .map(|i| match r.next() % 3 {
                0 => odd_sim(&mut r),
                k => sim(&mut r, i, k as usize, k == 2),
            })
            .collect();
        let (bytes, bits) = pack(&saved);
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 1 << (i % 8);
            unpack(&b, &bits, &mut saved.clone());
        }
        for i in 0..bits.len() * 64 {
            let mut w = bits.clone();
            w[i / 64] ^= 1 << (i % 64);
            unpack(&bytes, &w, &mut saved.clone());
        }
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            unpack(&bytes[..cut], &bits, &mut saved.clone());
        }
    }

    #[test]
    fn columns_in_place_are_the_buffered_columns_and_any_bytes_decode() {
        // enough sims that most blocks' columns go in place: a packer
        // writing into a buffer with room (here full of other bytes) gives
        // the bytes of one that went through the column buffer
        let mut r = Rng(11);
        let saved: Vec<_> = (0..1000).map(|_| odd_sim(&mut r)).collect();
        let (buffered, bits) = pack(&saved);
        assert!(buffered.len() > 2 * COLUMN_SPAN);
        let mut bytes = vec![0xa5; buffered.len() + COLUMN_SPAN];
        let (mut again, mut joints) = (Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut again, &mut joints);
        code_contact_sims(
            &mut p,
            &mut saved.clone(),
            &blank_contact_sim(),
            &NO_GUESSES,
            &mut Column::new(),
        );
        p.finish();
        assert_eq!((&bytes, &again), (&buffered, &bits));
        // read in place: the sims come back, and corrupted bytes decode
        // without a panic
        let mut loaded = vec![odd_sim(&mut Rng(3)); 5];
        assert!(unpack(&bytes, &bits, &mut loaded));
        assert_eq!(format!("{loaded:?}"), format!("{saved:?}"));
        for i in (0..bytes.len()).step_by(17) {
            let mut b = bytes.clone();
            b[i] ^= 1 << (i % 8);
            unpack(&b, &bits, &mut saved.clone());
        }
    }

    #[test]
    fn a_corrupted_count_or_point_count_stays_in_bounds() {
        // 70 sims packed: the count (70, one varint byte) comes first
        let mut r = Rng(6);
        let saved: Vec<_> = (0..70).map(|i| sim(&mut r, i, 2, false)).collect();
        let (bytes, bits) = pack(&saved);
        assert_eq!(bytes[0], 70);
        // a count of 2^32 - 1: no more sims than the bytes hold flag bytes of
        let mut b = vec![0xff, 0xff, 0xff, 0xff, 0x0f];
        b.extend_from_slice(&bytes[1..]);
        let mut loaded = Vec::new();
        assert!(!unpack(&b, &bits, &mut loaded));
        assert!(loaded.len() <= b.len() / SIM_FLAG_BYTES);
        // a sim whose point count reads as 3 or more: no more than two
        for count in [3, 7, 255] {
            let mut odd = saved.clone();
            odd[0].manifold.point_count = count;
            let (bytes, bits) = pack(&odd);
            let mut loaded = Vec::new();
            unpack(&bytes, &bits, &mut loaded);
            assert_eq!(loaded.len(), 70);
            assert!(loaded.iter().all(|s| s.manifold.point_count <= 2));
        }
    }

    /// Packs contact rows (no shapes to guess their bodies from) and
    /// unpacks them over other rows; then with each byte of the pack
    /// flipped in turn (no panic). Gives whether they came back.
    fn rows_round_trip(saved: &[Contact]) -> bool {
        let mut col = Column::new();
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        code_contact_rows(&mut p, &mut saved.to_vec(), &[], &mut col, &mut [0; 30]);
        p.finish();
        let unpack = |bytes: &[u8], col: &mut Column| {
            let mut loaded = vec![Contact::default(); 5];
            let mut u = Unpacker::new(bytes, &bits, &joints);
            code_contact_rows(&mut u, &mut loaded, &[], col, &mut [0; 30]);
            (format!("{loaded:?}"), u.at_end())
        };
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 1 << (i % 8);
            unpack(&b, &mut col);
        }
        unpack(&bytes, &mut col) == (format!("{saved:?}"), true)
    }

    #[test]
    fn contact_rows_of_every_kind_come_back_bit_for_bit() {
        let mut r = Rng(11);
        for n in [0, 1, 63, 64, 65, 150] {
            // rows as a world makes them (ids their index, lists in step),
            // now and then a free slot or a row with random links
            let rows: Vec<Contact> = (0..n as u32)
                .map(|i| {
                    let mut ct = Contact::default();
                    match r.next() % 6 {
                        // a free slot
                        0 => ct.generation = r.next(),
                        // every field at random
                        1 => {
                            let mut w = || r.next();
                            (ct.contact_id, ct.generation, ct.flags) = (w(), w(), w());
                            (ct.shape_id_a, ct.shape_id_b) = (w(), w());
                            for e in &mut ct.edges {
                                (e.body_id, e.next_key) = (w(), w());
                            }
                            (ct.island_id, ct.island_next) = (w(), w());
                        }
                        _ => {
                            (ct.contact_id, ct.flags) = (i, 1);
                            (ct.shape_id_a, ct.shape_id_b) = (2 * i, 2 * i + 1 + r.next() % 3);
                            for (k, e) in ct.edges.iter_mut().enumerate() {
                                e.body_id = ct.shape_id_a / 2 + k as u32;
                                e.next_key = (i + 1) << 1 | k as u32;
                            }
                            (ct.island_id, ct.island_next) = (r.next() % 2, i + 1);
                        }
                    }
                    ct
                })
                .collect();
            assert!(rows_round_trip(&rows), "{n} rows");
        }
    }

    #[test]
    fn body_rows_of_every_kind_come_back_bit_for_bit() {
        // rows as a world makes them (ids their index, shapes in step, no
        // island), now and then one in an island, one named, or one with
        // every field at random
        let mut r = Rng(17);
        let saved: Vec<Body> = (0..150u32)
            .map(|i| {
                let mut b = Body {
                    id: i,
                    local_index: i,
                    head_shape_id: i,
                    shape_count: 1,
                    mass: 1.0,
                    head_contact_key: r.next() % 500,
                    contact_count: r.next() % 4,
                    ..Body::default()
                };
                match r.next() % 6 {
                    0 => {
                        b.island_id = r.next() % 3;
                        (b.island_prev, b.island_next) = (i.wrapping_sub(1), i + 1);
                    }
                    1 => b.name = format!("body {}", r.next() % 3),
                    2 => {
                        let mut w = || r.next();
                        (b.user_data, b.set_index, b.generation) = (u64::from(w()) << 7, w(), w());
                        (b.flags, b.joint_count, b.head_joint_key) = (w(), w(), w());
                        b.body_type = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic]
                            [(w() % 3) as usize];
                        (b.sleep_time, b.inertia) = (r.float(), r.float());
                        b.enable_sleep = r.next().is_multiple_of(2);
                    }
                    _ => {}
                }
                b
            })
            .collect();
        let mut col = Column::new();
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        code_body_rows(&mut p, &mut saved.clone(), &mut col);
        p.finish();
        let mut loaded = vec![
            Body {
                name: "other".into(),
                island_id: 4,
                ..Body::default()
            };
            3
        ];
        let mut u = Unpacker::new(&bytes, &bits, &joints);
        code_body_rows(&mut u, &mut loaded, &mut col);
        assert!(u.at_end());
        assert_eq!(format!("{loaded:?}"), format!("{saved:?}"));
    }

    #[test]
    fn body_states_come_back_bit_for_bit() {
        // velocities at random, now and then flags and a motion of the step
        // unlike the last state's
        let mut r = Rng(13);
        let saved: Vec<BodyState> = (0..150)
            .map(|i| {
                let mut s = BodyState::IDENTITY;
                s.linear_velocity = Vec2::new(r.float(), r.float());
                s.angular_velocity = r.float();
                if i % 3 == 0 {
                    s.flags = r.next();
                    s.delta_position = Vec2::new(r.float(), r.float());
                    s.delta_rotation = Rot::from_angle(r.float());
                }
                s
            })
            .collect();
        let mut col = Column::new();
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        code_body_states(&mut p, &mut saved.clone(), &mut col);
        p.finish();
        let mut loaded = vec![BodyState::IDENTITY; 3];
        let mut u = Unpacker::new(&bytes, &bits, &joints);
        code_body_states(&mut u, &mut loaded, &mut col);
        assert!(u.at_end());
        assert_eq!(format!("{loaded:?}"), format!("{saved:?}"));
    }

    #[test]
    fn a_sim_like_the_last_costs_its_id_its_offsets_and_its_numbers() {
        // A sim equal to the one before it, with two points whose base
        // separation is the separation and with shared offsets: its flags
        // (3 bytes); its id's difference from the guess (the last one's +
        // 1) is -1, one byte; every other guess of its header, manifold
        // head and (unused) recycling cache holds (flags only); the two
        // offsets (16 bytes); per point, anchor A (8 bytes) and the five
        // numbers (20 bytes). 76 bytes, whether it starts a new block or
        // not.
        let mut s = sim(&mut Rng(3), 40, 2, true);
        s.base_separation = [
            s.manifold.points[0].separation,
            s.manifold.points[1].separation,
        ];
        for n in [1, 2, 63, 64, 65, 100] {
            assert_eq!(
                round_trip(&vec![s; n + 1]) - round_trip(&vec![s; n]),
                SIM_FLAG_BYTES + 1 + 16 + 2 * 28,
                "{n} sims"
            );
        }
    }
}

#[cfg(test)]
/// Runs of like elements: free island slots, freed ids.
mod run_tests {
    use super::*;

    /// Packs with `pack`, then unpacks with `unpack`, which must read it
    /// all; gives the bits and bytes used.
    fn coded(pack: impl FnOnce(&mut Packer), unpack: impl FnOnce(&mut Unpacker)) -> (usize, usize) {
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        pack(&mut p);
        let used = p.position();
        p.finish();
        let mut u = Unpacker::new(&bytes, &bits, &joints);
        unpack(&mut u);
        assert!(u.at_end());
        (used, bytes.len())
    }

    /// Packs and unpacks (over other islands) `saved`; every field must
    /// come back. Gives the bits and bytes used.
    fn round_trip(saved: &[Island]) -> (usize, usize) {
        let mut islands = saved.to_vec();
        let mut loaded = vec![
            Island {
                head_body: 7,
                ..Island::default()
            };
            2
        ];
        let used = coded(
            |p| code_islands(p, &mut islands),
            |u| code_islands(u, &mut loaded),
        );
        assert_eq!(format!("{loaded:?}"), format!("{saved:?}"));
        used
    }

    #[test]
    fn ids_freed_in_a_run_cost_one_bit_each() {
        // Packs and unpacks (over another pool) a pool; gives the bits and
        // bytes used.
        fn round_trip(free: &[u32]) -> (usize, usize) {
            let saved = IdPool {
                free: free.to_vec(),
                next: 40,
            };
            let mut pool = saved.clone();
            let mut loaded = IdPool {
                free: vec![5; 3],
                next: 1,
            };
            let used = coded(
                |p| code_id_pool(p, &mut pool),
                |u| code_id_pool(u, &mut loaded),
            );
            assert_eq!((loaded.free, loaded.next), (saved.free, saved.next));
            used
        }
        // descending and ascending runs, and ids out of step
        let run: Vec<u32> = (20..30).rev().chain([3, 31, 7]).chain(32..38).collect();
        let (bits, bytes) = round_trip(&run);
        // one more id in step with the last two (37, 38): one bit, no byte
        let mut longer = run.clone();
        longer.push(38);
        assert_eq!(round_trip(&longer), (bits + 1, bytes));
        // one out of step (30 against the guess 38 + 1): its bit and one
        // varint byte
        longer.push(30);
        assert_eq!(round_trip(&longer), (bits + 1 + 1 + 8, bytes + 1));
    }

    #[test]
    fn a_free_slot_after_a_free_slot_costs_one_bit() {
        let live = |i: u32| Island {
            island_id: i,
            set_index: 1,
            local_index: i,
            head_body: 3 * i,
            tail_body: 3 * i + 2,
            body_count: 3,
            ..Island::default()
        };
        // live islands between runs of free slots (the default island)
        let mut saved = vec![live(0), live(1)];
        saved.extend(std::iter::repeat_n(Island::default(), 10));
        saved.push(live(12));
        saved.extend(std::iter::repeat_n(Island::default(), 5));
        let (bits, bytes) = round_trip(&saved);
        // one more free slot at the end: one bit ("as the one before"), no byte
        saved.push(Island::default());
        assert_eq!(round_trip(&saved), (bits + 1, bytes));
        // a free slot unlike the one before (a stale count) comes back too
        saved.push(Island {
            constraint_remove_count: 4,
            ..Island::default()
        });
        round_trip(&saved);
    }
}

#[cfg(test)]
mod link_tests {
    use super::*;

    /// Rows 0..4 whose links forward make, through edge 0, the list
    /// 2 → 0 → 3 and, through edge 1, the list 1 → 2; island list 0 → 1.
    fn rows() -> Vec<Contact> {
        let mut rows = vec![Contact::default(); 4];
        rows[2].edges[0].next_key = 0 << 1;
        rows[0].edges[0].next_key = 3 << 1;
        rows[1].edges[1].next_key = (2 << 1) | 1;
        rows[0].island_next = 1;
        // the links back a consistent world has
        rows[0].edges[0].prev_key = 2 << 1;
        rows[3].edges[0].prev_key = 0 << 1;
        rows[2].edges[1].prev_key = (1 << 1) | 1;
        rows[1].island_prev = 0;
        rows
    }

    fn round_trip(saved: &[Contact]) -> usize {
        let mut rows = saved.to_vec();
        let mut scratch = vec![NULL_INDEX; 3 * rows.len()];
        let (mut bytes, mut bits, mut joints) = (Vec::new(), Vec::new(), Vec::new());
        let mut p = Packer::new(&mut bytes, &mut bits, &mut joints);
        for (i, ct) in rows.iter().enumerate() {
            note_links_back(scratch.as_chunks_mut().0, i, ct);
        }
        code_contact_prevs(&mut p, &mut rows, &scratch);
        p.finish();
        // the loaded rows start with only the links forward
        let mut loaded = saved.to_vec();
        for ct in &mut loaded {
            ct.edges[0].prev_key = 7;
            ct.edges[1].prev_key = 7;
            ct.island_prev = 7;
        }
        let mut u = Unpacker::new(&bytes, &bits, &joints);
        code_contact_prevs(&mut u, &mut loaded, &scratch);
        assert!(u.at_end());
        let back = |c: &Contact| [c.edges[0].prev_key, c.edges[1].prev_key, c.island_prev];
        assert_eq!(
            loaded.iter().map(back).collect::<Vec<_>>(),
            saved.iter().map(back).collect::<Vec<_>>()
        );
        bytes.len()
    }

    #[test]
    fn links_back_are_read_off_the_links_forward_and_odd_ones_coded() {
        // consistent: only the count of disagreeing rows (0), one byte
        assert_eq!(round_trip(&rows()), 1);
        // row 3 claims a link back that no row's link forward makes: the
        // count (1), the gap to it (3), then its three links against the
        // derived ones: two hits, and 10 against the derived NULL_INDEX, a
        // miss by 11 (wrapping), one varint byte
        let mut odd = rows();
        odd[3].edges[1].prev_key = 5 << 1;
        assert_eq!(round_trip(&odd), 3);
    }
}

#[cfg(test)]
mod pair_tests {
    use super::*;

    /// Rows with these shape pairs (`None`: a free slot).
    fn rows(pairs: &[Option<(u32, u32)>]) -> Vec<Contact> {
        pairs
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut ct = Contact::default();
                if let Some((a, b)) = *p {
                    (ct.contact_id, ct.shape_id_a, ct.shape_id_b) = (i as u32, a, b);
                }
                ct
            })
            .collect()
    }

    #[test]
    fn the_pair_set_follows_rows_that_changed_moved_came_and_went() {
        let before = rows(&[Some((1, 2)), Some((3, 4)), None, Some((5, 6)), Some((7, 8))]);
        for after in [
            // the same rows
            before.clone(),
            // a pair moved to another row, one freed, one new, one swapped
            // end for end (the same key)
            rows(&[Some((3, 4)), Some((1, 2)), Some((9, 1)), None, Some((8, 7))]),
            // fewer rows, then more
            rows(&[Some((5, 6))]),
            rows(&[
                None,
                Some((3, 4)),
                None,
                Some((5, 6)),
                Some((7, 8)),
                Some((2, 9)),
            ]),
            Vec::new(),
        ] {
            let mut set = super::super::check::pair_set(&before);
            let mut old = vec![0; 2 * before.len()];
            keep_pairs(&before, &mut old);
            update_pair_set(&mut set, &after, old.as_chunks().0);
            assert_eq!(set, super::super::check::pair_set(&after));
        }
    }
}
