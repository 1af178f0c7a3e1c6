//! The wide form of the contact solver: [`LANES`] constraints of one graph colour
//! solved at once, one per lane.
//!
//! Constraints of one colour share no dynamic body, so solving them side by
//! side gives the same result as solving them one after the other. Each lane
//! repeats the scalar solver's arithmetic operation for operation (see
//! [`lanes`](super::lanes)), so the wide and scalar solvers produce the same
//! bits; the tests below check it. Unused lanes have no bodies and zero
//! masses, so they apply nothing.
//!
//! Constraints are prepared wide too ([`prepare`]): each lane's inputs are read
//! from its contact, then the effective masses, base separations and approach
//! speeds of the eight lanes are computed at once, with the operations of the
//! scalar [`prepare`](super::contact_solver::prepare), which stays the
//! reference (the tests compare every field; see below). Restitution and
//! impulse storage also run on the wide blocks.
//!
//! What "the same bits" means in the tests: the wide prepare is compared with
//! the scalar one on every field's bits, except that a NaN is compared only as
//! a NaN (any NaN lane equals any NaN lane, whatever its sign and payload),
//! because Rust leaves the sign and payload of a computed NaN unspecified.
//! Where code only moves words (the row gathers, scatters and transposes in
//! `rows`, the row impulse store) the tests compare NaNs with their payloads
//! too. The solver tests at the end compare the bodies' transforms after
//! whole steps bit for bit, on one, two and four workers.
//!
//! # References
//! - E. Catto, Box2D v3 `contact_solver.c` (`b2ContactConstraintSIMD`).

use crate::body::{BodyState, flags};
use crate::contact::ContactSim;
use crate::id::NULL_INDEX;
#[cfg(target_arch = "x86_64")]
use crate::simd::isa::Isa;
use crate::solver::contact_solver::{ContactConstraint, ContactSoftening};
use crate::solver::lanes::{FloatW, LANES, Lane, LaneMask};
#[cfg(not(target_arch = "x86_64"))]
use crate::solver::lanes::{LaneMath, Math};
use crate::solver::softness::Softness;

/// One point of [`LANES`] constraints.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WidePoint {
    pub anchor_a_x: FloatW,
    pub anchor_a_y: FloatW,
    pub anchor_b_x: FloatW,
    pub anchor_b_y: FloatW,
    pub base_separation: FloatW,
    pub normal_impulse: FloatW,
    pub tangent_impulse: FloatW,
    pub total_normal_impulse: FloatW,
    pub normal_mass: FloatW,
    pub tangent_mass: FloatW,
    pub relative_velocity: FloatW,
}

/// The body states of [`LANES`] constraints (indices into the awake states
/// with the stand-in appended), with the largest of them. The fields are
/// private to this module, whose code keeps `max` at least every index: a
/// gather or scatter compares `max` with the states' length once and then
/// reads and writes without a check per index.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BodyIndices {
    a: [u32; LANES],
    b: [u32; LANES],
    max: u32,
}

impl BodyIndices {
    /// The indices of bodies A and B, lane by lane (the joint lanes make
    /// theirs with it).
    pub(crate) fn new(a: [u32; LANES], b: [u32; LANES]) -> BodyIndices {
        let max = a.iter().chain(&b).copied().max().unwrap_or(0);
        BodyIndices { a, b, max }
    }

    /// Body A of each lane.
    #[inline(always)]
    pub(crate) fn a(&self) -> Lanes<'_> {
        Lanes {
            indices: &self.a,
            max: self.max,
        }
    }

    /// Body B of each lane.
    #[inline(always)]
    pub(crate) fn b(&self) -> Lanes<'_> {
        Lanes {
            indices: &self.b,
            max: self.max,
        }
    }
}

/// One body per lane: what [`gather`] and [`scatter`] take. Made only from a
/// [`BodyIndices`], so every index is at most `max`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes<'a> {
    indices: &'a [u32; LANES],
    max: u32,
}

impl Lanes<'_> {
    /// The indices, lane by lane.
    #[inline(always)]
    pub(crate) fn indices(&self) -> &[u32; LANES] {
        self.indices
    }
}

/// [`LANES`] constraints of one colour.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WideConstraint {
    pub bodies: BodyIndices,
    pub normal_x: FloatW,
    pub normal_y: FloatW,
    pub inv_mass_a: FloatW,
    pub inv_i_a: FloatW,
    pub inv_mass_b: FloatW,
    pub inv_i_b: FloatW,
    pub friction: FloatW,
    pub restitution: FloatW,
    pub tangent_speed: FloatW,
    pub rolling_resistance: FloatW,
    pub rolling_mass: FloatW,
    pub rolling_impulse: FloatW,
    pub bias_rate: FloatW,
    pub mass_scale: FloatW,
    pub impulse_scale: FloatW,
    pub points: [WidePoint; 2],
}

impl WideConstraint {
    /// A block with no constraints: every lane uses the resting stand-in
    /// state at index `dummy` (see [`solve`]) and has zero masses.
    #[inline(always)]
    pub(crate) fn empty(dummy: u32) -> WideConstraint {
        WideConstraint {
            bodies: BodyIndices {
                a: [dummy; LANES],
                b: [dummy; LANES],
                max: dummy,
            },
            ..WideConstraint::default()
        }
    }
}

/// What the contact preparation takes from the step besides the contacts and
/// the states: the arguments of the scalar
/// [`prepare`](super::contact_solver::prepare).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PrepareParams {
    /// The softness of a contact between two bodies that are not static.
    pub contact_softness: Softness,
    /// The softness of a contact with a static body.
    pub static_softness: Softness,
    /// Contact softening between unequal masses, if on.
    pub softening: Option<ContactSoftening>,
    /// What the impulses of the last step are multiplied by: 1 with warm
    /// starting, else 0 (dimensionless).
    pub warm_start_scale: f32,
}

impl PrepareParams {
    /// The scalar constraint of one contact
    /// ([`prepare`](super::contact_solver::prepare) with these arguments).
    #[inline(always)]
    pub(crate) fn scalar(&self, sim: &ContactSim, states: &[BodyState]) -> ContactConstraint {
        super::contact_solver::prepare(
            sim,
            states,
            self.contact_softness,
            self.static_softness,
            self.softening,
            self.warm_start_scale,
        )
    }
}

/// Prepares a wide constraint from the up to [`LANES`] contacts `sims` of one
/// colour, lane `i` from `sims[i]`: the wide
/// [`prepare`](super::contact_solver::prepare), which gives the same bits as
/// it written lane by lane into [`WideConstraint::empty`]`(dummy)` (as the
/// solver did before; the tests keep that form as the reference). Static
/// bodies and empty lanes point at the stand-in state `dummy` (resting, like
/// the scalar `load`'s stand-in); empty lanes and the second point of a
/// one-point manifold are zeros.
///
/// Each lane's inputs are read from its contact: the masses and material,
/// and each point's anchors, separation and impulses, as rows of eight words
/// that are transposed into lanes (on x86-64 with SSE2 4 × 4 or AVX 8 × 8
/// shuffles, see `rows`). Then the eight lanes' effective masses, base
/// separations, warm-start impulses and approach speeds are computed at
/// once, with the scalar code's operations in its order (no fused
/// multiply-add; IEEE division is correctly rounded in every lane;
/// `if k > 0 { 1 / k } else { 0 }` is a select), and every field of the
/// block is written once.
#[inline(always)]
pub(crate) fn prepare<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] isa: I,
    w: &mut WideConstraint,
    sims: &[ContactSim],
    states: &[BodyState],
    dummy: u32,
    params: &PrepareParams,
) {
    #[cfg(target_arch = "x86_64")]
    let (m, gather, transpose_rows, put_row) = (
        isa,
        move |s: &[BodyState], l: Lanes<'_>| rows::gather(isa, s, l),
        move |r: &[[f32; 8]; LANES]| rows::transpose_rows(isa, r),
        move |out: &mut [f32; 8], row: [f32; 8]| rows::put_row(isa, out, row),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let (m, gather, put_row) = (LaneMath, gather, |out: &mut [f32; 8], row| *out = row);
    debug_assert!(sims.len() <= LANES);

    let mut softened = [FloatW::default(); 3];
    // Rows of eight words, transposed into lanes below: each lane's head
    // (`[normal_x normal_y rolling_impulse point_count is_static body_a
    // body_b 0]`, the bodies' indices as bits; an empty lane zeros and the
    // stand-in), the contact's masses and material, and each point's
    // anchors, separation and impulses. Every head row is written whole
    // (`put_row`), so that its transpose need not wait for eight word stores
    // to reach the cache before the lanes can be computed.
    let mut head_rows = [[0.0f32; 8]; LANES];
    let mut contact_rows = [[0.0f32; 8]; LANES];
    let mut point_rows = [[[0.0f32; 8]; LANES]; 2];
    let dummy_bits = f32::from_bits(dummy);
    for (i, head) in head_rows.iter_mut().enumerate().skip(sims.len()) {
        debug_assert!(i < LANES);
        let empty = [0.0, 0.0, 0.0, 0.0, 0.0, dummy_bits, dummy_bits, 0.0];
        put_row(head, empty);
    }
    for (i, sim) in sims.iter().enumerate().take(LANES) {
        let (a, b) = (sim.body_sim_index_a, sim.body_sim_index_b);
        let one_static = a == NULL_INDEX || b == NULL_INDEX;
        let or_dummy = |index| f32::from_bits(if index == NULL_INDEX { dummy } else { index });

        let manifold = &sim.manifold;
        debug_assert!(manifold.point_count > 0 && manifold.point_count <= 2);
        put_row(
            &mut head_rows[i],
            [
                manifold.normal.x,
                manifold.normal.y,
                manifold.rolling_impulse,
                manifold.point_count as f32,
                if one_static { 1.0 } else { 0.0 },
                or_dummy(a),
                or_dummy(b),
                0.0,
            ],
        );
        contact_rows[i] = [
            sim.inv_mass_a,
            sim.inv_i_a,
            sim.inv_mass_b,
            sim.inv_i_b,
            sim.friction,
            sim.restitution,
            sim.rolling_resistance,
            sim.tangent_speed,
        ];
        // Both points, the second also where there is one (its lanes are
        // cleared below).
        for (rows, mp) in point_rows.iter_mut().zip(&manifold.points) {
            rows[i] = [
                mp.anchor_a.x,
                mp.anchor_a.y,
                mp.anchor_b.x,
                mp.anchor_b.y,
                mp.separation,
                mp.normal_impulse,
                mp.tangent_impulse,
                mp.total_normal_impulse,
            ];
        }
        if let Some(softening) = params.softening {
            // Per lane: the softness depends on the lane's masses.
            let softness = if one_static {
                params.static_softness
            } else {
                softening.softness(sim.inv_mass_a, sim.inv_mass_b)
            };
            softened[0].0[i] = softness.bias_rate;
            softened[1].0[i] = softness.mass_scale;
            softened[2].0[i] = softness.impulse_scale;
        }
    }
    let [
        normal_x,
        normal_y,
        rolling_impulse,
        point_count,
        is_static,
        bodies_a,
        bodies_b,
        _,
    ] = transpose_rows(&head_rows);
    // The indices' bits, as they were put in the rows.
    let [bodies_a, bodies_b] = [bodies_a, bodies_b].map(|x| x.lanes().0.map(f32::to_bits));
    // At least every index (the stand-in is the last state).
    let max = bodies_a
        .iter()
        .chain(&bodies_b)
        .fold(dummy, |m, &i| m.max(i));
    w.bodies = BodyIndices {
        a: bodies_a,
        b: bodies_b,
        max,
    };
    w.normal_x = normal_x.lanes();
    w.normal_y = normal_y.lanes();

    let zero = m.splat(0.0);
    let one = m.splat(1.0);
    let scale = m.splat(params.warm_start_scale);
    if params.softening.is_none() {
        // Contacts with a static body are twice as stiff (see the scalar
        // prepare); empty lanes keep zeros.
        let used = point_count.gt(zero);
        let is_static = is_static.gt(zero);
        let pick = |s: f32, c: f32| {
            used.select(is_static.select(m.splat(s), m.splat(c)), zero)
                .lanes()
        };
        let (s, c) = (params.static_softness, params.contact_softness);
        softened = [
            pick(s.bias_rate, c.bias_rate),
            pick(s.mass_scale, c.mass_scale),
            pick(s.impulse_scale, c.impulse_scale),
        ];
    }
    [w.bias_rate, w.mass_scale, w.impulse_scale] = softened;

    let [
        ma,
        ia,
        mb,
        ib,
        friction,
        restitution,
        rolling_resistance,
        tangent_speed,
    ] = transpose_rows(&contact_rows);
    [w.inv_mass_a, w.inv_i_a, w.inv_mass_b, w.inv_i_b] = [ma, ia, mb, ib].map(Lane::lanes);
    [w.friction, w.restitution] = [friction, restitution].map(Lane::lanes);
    [w.rolling_resistance, w.tangent_speed] = [rolling_resistance, tangent_speed].map(Lane::lanes);
    let k_roll = ia + ib;
    w.rolling_mass = k_roll.gt(zero).select(one / k_roll, zero).lanes();
    w.rolling_impulse = (scale * rolling_impulse).lanes();

    let (nx, ny) = (normal_x, normal_y);
    // tangent = right_perp(normal) = (n.y, −n.x)
    let (tx, ty) = (ny, -nx);
    let a = gather(states, w.bodies.a());
    let b = gather(states, w.bodies.b());
    for (p, wp) in w.points.iter_mut().enumerate() {
        let [
            rax,
            ray,
            rbx,
            rby,
            separation,
            normal_impulse,
            tangent_impulse,
            _,
        ] = transpose_rows(&point_rows[p]);
        // s_base = s − (r_B − r_A)·n
        let base_separation = separation - ((rbx - rax) * nx + (rby - ray) * ny);

        let rna = rax * ny - ray * nx;
        let rnb = rbx * ny - rby * nx;
        let k_normal = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let normal_mass = k_normal.gt(zero).select(one / k_normal, zero);

        let rta = rax * ty - ray * tx;
        let rtb = rbx * ty - rby * tx;
        let k_tangent = ma + mb + ia * rta * rta + ib * rtb * rtb;
        let tangent_mass = k_tangent.gt(zero).select(one / k_tangent, zero);

        // v + ω × r (the scalar `scalar_cross`: (−ω·r.y, ω·r.x))
        let vrax = a.vx + (-a.w) * ray;
        let vray = a.vy + a.w * rax;
        let vrbx = b.vx + (-b.w) * rby;
        let vrby = b.vy + b.w * rbx;
        let relative_velocity = nx * (vrbx - vrax) + ny * (vrby - vray);
        // The scalar code's guard: an absurd approach speed (its square not
        // finite) is not passed on through restitution.
        let square = relative_velocity * relative_velocity;
        let relative_velocity = square.finite().select(relative_velocity, zero);

        // Lanes without this point (a one-point manifold's second, or an
        // empty lane) are zeros, as `empty` leaves them.
        let has = point_count.gt(m.splat(p as f32));
        let keep = |x| only(has, x, zero);
        wp.anchor_a_x = keep(rax);
        wp.anchor_a_y = keep(ray);
        wp.anchor_b_x = keep(rbx);
        wp.anchor_b_y = keep(rby);
        wp.base_separation = keep(base_separation);
        wp.normal_impulse = keep(scale * normal_impulse);
        wp.tangent_impulse = keep(scale * tangent_impulse);
        wp.total_normal_impulse = FloatW::default();
        wp.normal_mass = keep(normal_mass);
        wp.tangent_mass = keep(tangent_mass);
        wp.relative_velocity = keep(relative_velocity);
    }
}

/// Asks the CPU to bring the block that follows `w` in memory into its
/// cache, on x86-64 (elsewhere nothing): the contact preparation calls it
/// before preparing `w` when the next block is its own too. Preparing writes
/// every word of a block, at the end; a block not in the cache must first be
/// read in, and with the prefetch that read overlaps the preparation of the
/// block before. A hint only: no value changes, and nothing is read that the
/// program sees.
#[inline(always)]
pub(crate) fn prefetch_next(w: &WideConstraint) {
    crate::prefetch::prefetch_value(std::ptr::from_ref(w).wrapping_add(1));
}

/// Copies the impulses of [`LANES`] constraints back into their manifolds, in
/// lane order, for warm starting next step (the wide
/// [`store_impulses`](super::contact_solver::store_impulses)). On x86-64 each
/// point's `[normal_impulse tangent_impulse total_normal_impulse
/// normal_velocity]` is transposed out of the lanes with SSE shuffles and
/// written as one 16-byte row (`rows::impulse_rows`); the lane-by-lane form
/// ([`store_lanes`]) is its reference.
#[inline(always)]
pub(crate) fn store_impulses<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] _isa: I,
    w: &WideConstraint,
    sims: &mut [ContactSim],
) {
    #[cfg(target_arch = "x86_64")]
    rows::store_impulses(w, sims);
    #[cfg(not(target_arch = "x86_64"))]
    store_lanes(w, sims);
}

/// [`store_impulses`] a word at a time (the reference of the row form, and
/// the form where there is none).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn store_lanes(w: &WideConstraint, sims: &mut [ContactSim]) {
    debug_assert!(sims.len() <= LANES);
    for (i, sim) in sims.iter_mut().enumerate() {
        let manifold = &mut sim.manifold;
        manifold.rolling_impulse = w.rolling_impulse.0[i];
        let count = manifold.point_count;
        for (wp, mp) in w.points.iter().zip(&mut manifold.points[..count]) {
            mp.normal_impulse = wp.normal_impulse.0[i];
            mp.tangent_impulse = wp.tangent_impulse.0[i];
            mp.total_normal_impulse = wp.total_normal_impulse.0[i];
            mp.normal_velocity = wp.relative_velocity.0[i];
        }
    }
}

/// The states of the bodies of [`LANES`] constraints (or joints), lane by
/// lane, as the build computes with them ([`Lane`]): velocities (m/s, rad/s)
/// and the motion since the start of the step (m, and the rotation's cosine
/// and sine).
pub(crate) struct BodyLanes<F = FloatW> {
    pub(crate) vx: F,
    pub(crate) vy: F,
    pub(crate) w: F,
    pub(crate) dpx: F,
    pub(crate) dpy: F,
    pub(crate) dqc: F,
    pub(crate) dqs: F,
}

/// Loads the states of [`LANES`] bodies. Static bodies and empty lanes point at a
/// resting stand-in state appended to the awake states for the solve: it has
/// zero velocity and no motion, and it is not dynamic, so [`scatter`] never
/// writes it (threads solving one colour share it). This keeps gathering free
/// of branches. On x86-64 the kernels use the row form (`rows::gather`) and
/// this lane-by-lane form is its reference.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn gather(states: &[BodyState], lanes: Lanes<'_>) -> BodyLanes {
    // The reference checks each index; the row form checks `max` once,
    // which holds (`BodyIndices`) if every index is at most `max`.
    debug_assert!(lanes.indices.iter().all(|&i| i <= lanes.max));
    let indices = lanes.indices();
    let s: [&BodyState; LANES] = std::array::from_fn(|i| &states[indices[i] as usize]);
    BodyLanes {
        vx: FloatW(std::array::from_fn(|i| s[i].linear_velocity.x)),
        vy: FloatW(std::array::from_fn(|i| s[i].linear_velocity.y)),
        w: FloatW(std::array::from_fn(|i| s[i].angular_velocity)),
        dpx: FloatW(std::array::from_fn(|i| s[i].delta_position.x)),
        dpy: FloatW(std::array::from_fn(|i| s[i].delta_position.y)),
        dqc: FloatW(std::array::from_fn(|i| s[i].delta_rotation.c)),
        dqs: FloatW(std::array::from_fn(|i| s[i].delta_rotation.s)),
    }
}

#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn scatter(states: &mut [BodyState], lanes: Lanes<'_>, b: &BodyLanes) {
    for (i, &index) in lanes.indices().iter().enumerate() {
        let s = &mut states[index as usize];
        // Only dynamic bodies: see `flags::DYNAMIC`.
        if s.flags & flags::DYNAMIC == 0 {
            continue;
        }
        s.linear_velocity.x = b.vx.0[i];
        s.linear_velocity.y = b.vy.0[i];
        s.angular_velocity = b.w.0[i];
    }
}

/// `v − m·p` and `w − i·(r × p)` for one body, lane by lane (the scalar
/// `mul_sub` and cross product, operation for operation).
#[inline(always)]
fn apply_a<F: Lane>(b: &mut BodyLanes<F>, m: F, i: F, rx: F, ry: F, px: F, py: F) {
    b.vx = b.vx - m * px;
    b.vy = b.vy - m * py;
    b.w = b.w - i * (rx * py - ry * px);
}

#[inline(always)]
fn apply_b<F: Lane>(b: &mut BodyLanes<F>, m: F, i: F, rx: F, ry: F, px: F, py: F) {
    b.vx = b.vx + m * px;
    b.vy = b.vy + m * py;
    b.w = b.w + i * (rx * py - ry * px);
}

/// The constraints a wide kernel solves, with the build it is compiled into
/// (x86-64: see `simd::isa`).
#[cfg(target_arch = "x86_64")]
type InBuild<'a, I> = (I, &'a mut [WideConstraint]);

/// The lane-by-lane `gather`, `scatter` and arithmetic, where there is no row form.
#[cfg(not(target_arch = "x86_64"))]
#[allow(clippy::type_complexity)]
#[inline(always)]
fn lane_build(
    constraints: &mut [WideConstraint],
) -> (
    &mut [WideConstraint],
    LaneMath,
    fn(&[BodyState], Lanes<'_>) -> BodyLanes,
    fn(&mut [BodyState], Lanes<'_>, &BodyLanes),
) {
    (constraints, LaneMath, gather, scatter)
}

/// Wide [`warm_start`](super::contact_solver::warm_start).
#[inline(always)]
pub(crate) fn warm_start<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] constraints: InBuild<'_, I>,
    #[cfg(not(target_arch = "x86_64"))] constraints: &mut [WideConstraint],
    states: &mut [BodyState],
) {
    #[cfg(target_arch = "x86_64")]
    let (constraints, m, gather, scatter) = rows::in_build(constraints);
    #[cfg(not(target_arch = "x86_64"))]
    let (constraints, m, gather, scatter) = lane_build(constraints);
    for c in constraints {
        let mut a = gather(states, c.bodies.a());
        let mut b = gather(states, c.bodies.b());
        let (nx, ny) = (m.ld(c.normal_x), m.ld(c.normal_y));
        // tangent = right_perp(normal) = (n.y, −n.x)
        let (tx, ty) = (ny, -nx);
        for p in &mut c.points {
            // P = n·λn + t·λt (Vec2 mul then add, as the scalar code)
            let px = nx * m.ld(p.normal_impulse) + tx * m.ld(p.tangent_impulse);
            let py = ny * m.ld(p.normal_impulse) + ty * m.ld(p.tangent_impulse);
            p.total_normal_impulse =
                (m.ld(p.total_normal_impulse) + m.ld(p.normal_impulse)).lanes();
            // The scalar code updates w before v here.
            a.w = a.w - m.ld(c.inv_i_a) * (m.ld(p.anchor_a_x) * py - m.ld(p.anchor_a_y) * px);
            a.vx = a.vx - m.ld(c.inv_mass_a) * px;
            a.vy = a.vy - m.ld(c.inv_mass_a) * py;
            b.w = b.w + m.ld(c.inv_i_b) * (m.ld(p.anchor_b_x) * py - m.ld(p.anchor_b_y) * px);
            b.vx = b.vx + m.ld(c.inv_mass_b) * px;
            b.vy = b.vy + m.ld(c.inv_mass_b) * py;
        }
        a.w = a.w - m.ld(c.inv_i_a) * m.ld(c.rolling_impulse);
        b.w = b.w + m.ld(c.inv_i_b) * m.ld(c.rolling_impulse);
        scatter(states, c.bodies.a(), &a);
        scatter(states, c.bodies.b(), &b);
    }
}

/// Wide [`solve`](super::contact_solver::solve).
#[inline(always)]
pub(crate) fn solve<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] constraints: InBuild<'_, I>,
    #[cfg(not(target_arch = "x86_64"))] constraints: &mut [WideConstraint],
    states: &mut [BodyState],
    inv_h: f32,
    max_push_speed: f32,
    use_bias: bool,
) {
    #[cfg(target_arch = "x86_64")]
    let (constraints, m, gather, scatter) = rows::in_build(constraints);
    #[cfg(not(target_arch = "x86_64"))]
    let (constraints, m, gather, scatter) = lane_build(constraints);
    let inv_h = m.splat(inv_h);
    let min_bias = m.splat(-max_push_speed);
    let zero = m.splat(0.0);
    let one = m.splat(1.0);
    for c in constraints {
        let mut a = gather(states, c.bodies.a());
        let mut b = gather(states, c.bodies.b());
        let dpx = b.dpx - a.dpx;
        let dpy = b.dpy - a.dpy;
        let (nx, ny) = (m.ld(c.normal_x), m.ld(c.normal_y));
        let (tx, ty) = (ny, -nx);
        let mut total_normal_impulse = zero;

        for p in &mut c.points {
            let (rax0, ray0) = (m.ld(p.anchor_a_x), m.ld(p.anchor_a_y));
            let (rbx0, rby0) = (m.ld(p.anchor_b_x), m.ld(p.anchor_b_y));
            // ds = dp + (q_B·r_B − q_A·r_A)
            let rbx = a_rot_x(b.dqc, b.dqs, rbx0, rby0);
            let rby = a_rot_y(b.dqc, b.dqs, rbx0, rby0);
            let rax = a_rot_x(a.dqc, a.dqs, rax0, ray0);
            let ray = a_rot_y(a.dqc, a.dqs, rax0, ray0);
            let dsx = dpx + (rbx - rax);
            let dsy = dpy + (rby - ray);
            let s = m.ld(p.base_separation) + (dsx * nx + dsy * ny);

            let speculative = s.gt(zero);
            let (soft_bias, soft_mass, soft_impulse) = if use_bias {
                (
                    (m.ld(c.mass_scale) * m.ld(c.bias_rate) * s).max(min_bias),
                    m.ld(c.mass_scale),
                    m.ld(c.impulse_scale),
                )
            } else {
                (zero, one, zero)
            };
            let bias = speculative.select(s * inv_h, soft_bias);
            let mass_scale = speculative.select(one, soft_mass);
            let impulse_scale = speculative.select(zero, soft_impulse);

            let vrax = a.vx + -(a.w * m.ld(p.anchor_a_y));
            let vray = a.vy + a.w * m.ld(p.anchor_a_x);
            let vrbx = b.vx + -(b.w * m.ld(p.anchor_b_y));
            let vrby = b.vy + b.w * m.ld(p.anchor_b_x);
            let vn = (vrbx - vrax) * nx + (vrby - vray) * ny;

            let impulse = -m.ld(p.normal_mass) * (mass_scale * vn + bias)
                - impulse_scale * m.ld(p.normal_impulse);
            let new_impulse = (m.ld(p.normal_impulse) + impulse).max(zero);
            let impulse = new_impulse - m.ld(p.normal_impulse);
            p.normal_impulse = new_impulse.lanes();
            p.total_normal_impulse = (m.ld(p.total_normal_impulse) + impulse).lanes();
            total_normal_impulse = total_normal_impulse + new_impulse;

            let px = nx * impulse;
            let py = ny * impulse;
            apply_a(
                &mut a,
                m.ld(c.inv_mass_a),
                m.ld(c.inv_i_a),
                m.ld(p.anchor_a_x),
                m.ld(p.anchor_a_y),
                px,
                py,
            );
            apply_b(
                &mut b,
                m.ld(c.inv_mass_b),
                m.ld(c.inv_i_b),
                m.ld(p.anchor_b_x),
                m.ld(p.anchor_b_y),
                px,
                py,
            );
        }

        // Friction and rolling resistance in the relax pass only (Box2D
        // v3.2): the biased pass solves non-penetration alone.
        if !use_bias {
            for p in &mut c.points {
                let vrax = a.vx + -(a.w * m.ld(p.anchor_a_y));
                let vray = a.vy + a.w * m.ld(p.anchor_a_x);
                let vrbx = b.vx + -(b.w * m.ld(p.anchor_b_y));
                let vrby = b.vy + b.w * m.ld(p.anchor_b_x);
                let vt = ((vrbx - vrax) * tx + (vrby - vray) * ty) - m.ld(c.tangent_speed);

                let impulse = -m.ld(p.tangent_mass) * vt;
                let max_friction = m.ld(c.friction) * m.ld(p.normal_impulse);
                let new_impulse = (m.ld(p.tangent_impulse) + impulse)
                    .max(-max_friction)
                    .min(max_friction);
                let impulse = new_impulse - m.ld(p.tangent_impulse);
                p.tangent_impulse = new_impulse.lanes();

                let px = tx * impulse;
                let py = ty * impulse;
                apply_a(
                    &mut a,
                    m.ld(c.inv_mass_a),
                    m.ld(c.inv_i_a),
                    m.ld(p.anchor_a_x),
                    m.ld(p.anchor_a_y),
                    px,
                    py,
                );
                apply_b(
                    &mut b,
                    m.ld(c.inv_mass_b),
                    m.ld(c.inv_i_b),
                    m.ld(p.anchor_b_x),
                    m.ld(p.anchor_b_y),
                    px,
                    py,
                );
            }

            // Rolling resistance, only in lanes that have it.
            let rolling = m.ld(c.rolling_resistance).gt(zero);
            if rolling.any() {
                let delta = -m.ld(c.rolling_mass) * (b.w - a.w);
                let old = m.ld(c.rolling_impulse);
                let max_lambda = m.ld(c.rolling_resistance) * total_normal_impulse;
                let new = (old + delta).max(-max_lambda).min(max_lambda);
                let delta = new - old;
                c.rolling_impulse = rolling.select(new, old).lanes();
                a.w = rolling.select(a.w - m.ld(c.inv_i_a) * delta, a.w);
                b.w = rolling.select(b.w + m.ld(c.inv_i_b) * delta, b.w);
            }
        }

        scatter(states, c.bodies.a(), &a);
        scatter(states, c.bodies.b(), &b);
    }
}

/// Wide [`apply_restitution`](super::contact_solver::apply_restitution).
#[inline(always)]
pub(crate) fn apply_restitution<#[cfg(target_arch = "x86_64")] I: Isa>(
    #[cfg(target_arch = "x86_64")] constraints: InBuild<'_, I>,
    #[cfg(not(target_arch = "x86_64"))] constraints: &mut [WideConstraint],
    states: &mut [BodyState],
    threshold: f32,
) {
    #[cfg(target_arch = "x86_64")]
    let (constraints, m, gather, scatter) = rows::in_build(constraints);
    #[cfg(not(target_arch = "x86_64"))]
    let (constraints, m, gather, scatter) = lane_build(constraints);
    let zero = m.splat(0.0);
    let neg_threshold = m.splat(-threshold);
    for c in constraints {
        let bouncy = m.ld(c.restitution).ne(zero);
        if !bouncy.any() {
            continue;
        }
        let mut a = gather(states, c.bodies.a());
        let mut b = gather(states, c.bodies.b());
        let (nx, ny) = (m.ld(c.normal_x), m.ld(c.normal_y));
        for p in &mut c.points {
            // Only points that approached faster than the threshold and
            // received an impulse (not speculative ones).
            let active = bouncy
                .and(m.ld(p.relative_velocity).gt(neg_threshold).not())
                .and(m.ld(p.total_normal_impulse).ne(zero));
            if !active.any() {
                continue;
            }
            let vrax = a.vx + -(a.w * m.ld(p.anchor_a_y));
            let vray = a.vy + a.w * m.ld(p.anchor_a_x);
            let vrbx = b.vx + -(b.w * m.ld(p.anchor_b_y));
            let vrby = b.vy + b.w * m.ld(p.anchor_b_x);
            let vn = (vrbx - vrax) * nx + (vrby - vray) * ny;

            let impulse =
                -m.ld(p.normal_mass) * (vn + m.ld(c.restitution) * m.ld(p.relative_velocity));
            let new_impulse = (m.ld(p.normal_impulse) + impulse).max(zero);
            let impulse = new_impulse - m.ld(p.normal_impulse);
            p.normal_impulse = active.select(new_impulse, m.ld(p.normal_impulse)).lanes();
            p.total_normal_impulse = active
                .select(
                    m.ld(p.total_normal_impulse) + impulse,
                    m.ld(p.total_normal_impulse),
                )
                .lanes();

            let px = nx * impulse;
            let py = ny * impulse;
            let (a0, b0) = (copy_velocities(&a), copy_velocities(&b));
            apply_a(
                &mut a,
                m.ld(c.inv_mass_a),
                m.ld(c.inv_i_a),
                m.ld(p.anchor_a_x),
                m.ld(p.anchor_a_y),
                px,
                py,
            );
            apply_b(
                &mut b,
                m.ld(c.inv_mass_b),
                m.ld(c.inv_i_b),
                m.ld(p.anchor_b_x),
                m.ld(p.anchor_b_y),
                px,
                py,
            );
            keep_inactive(&mut a, a0, active);
            keep_inactive(&mut b, b0, active);
        }
        scatter(states, c.bodies.a(), &a);
        scatter(states, c.bodies.b(), &b);
    }
}

/// Eight rows of eight words as eight lanes: lane `i` of word `w` is
/// `rows[i][w]`. On x86-64 the kernels use the row form
/// (`rows::transpose_rows`), and this lane-by-lane form is its reference.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn transpose_rows(rows: &[[f32; 8]; LANES]) -> [FloatW; 8] {
    std::array::from_fn(|w| FloatW(std::array::from_fn(|i| rows[i][w])))
}

/// `x` in the lanes of `mask`, else `zero`, as stored.
#[inline(always)]
fn only<F: Lane>(mask: F::Mask, x: F, zero: F) -> FloatW {
    mask.select(x, zero).lanes()
}

#[inline(always)]
fn copy_velocities<F: Lane>(b: &BodyLanes<F>) -> (F, F, F) {
    (b.vx, b.vy, b.w)
}

/// Restores the velocities of the lanes outside `active`.
#[inline(always)]
fn keep_inactive<F: Lane>(b: &mut BodyLanes<F>, old: (F, F, F), active: F::Mask) {
    b.vx = active.select(b.vx, old.0);
    b.vy = active.select(b.vy, old.1);
    b.w = active.select(b.w, old.2);
}

/// x component of `q·r` (the scalar `Rot::rotate`).
#[inline(always)]
fn a_rot_x<F: Lane>(c: F, s: F, rx: F, ry: F) -> F {
    c * rx - s * ry
}

/// y component of `q·r`.
#[inline(always)]
fn a_rot_y<F: Lane>(c: F, s: F, rx: F, ry: F) -> F {
    s * rx + c * ry
}

// The row form of `gather` and `scatter`, which the kernels use on x86-64;
// `gather` and `scatter` above are its reference (the tests compare them bit
// for bit) and the form on other targets.
#[cfg(target_arch = "x86_64")]
mod rows;
// The wide joint passes (`joint/wide.rs`) gather and scatter with them too.
#[cfg(target_arch = "x86_64")]
pub(crate) use rows::{RowLanes, gather as gather_rows, scatter as scatter_rows};

// The velocity integration on x86-64, eight bodies at a time.
#[cfg(target_arch = "x86_64")]
mod bodies;
#[cfg(target_arch = "x86_64")]
pub(crate) use bodies::{integrate_positions, integrate_velocities};

// The tests' random numbers (shared with the integration tests).
#[cfg(test)]
#[path = "../../tests/common/rng.rs"]
mod rng;

#[cfg(test)]
mod prepare_tests {
    use super::rng::Rng;
    use super::*;
    use crate::collision::{Manifold, ManifoldPoint, SimplexCache};
    use crate::math::Vec2;
    use crate::solver::contact_solver::ContactSoftening;

    /// `(vec![f, …], (rest, …))` of a value's fields: the fields `f, …` in a
    /// list, the others `rest, …` as they are. The destructuring is
    /// exhaustive, so a field added to the type must be named here.
    macro_rules! fields {
        ($value:expr, $ty:ident { $($f:ident),* ; $($rest:ident),* }) => {{
            let $ty { $($f,)* $($rest,)* } = $value;
            (vec![$($f),*], ($($rest,)*))
        }};
    }

    /// Every lane field of a block, in a fixed order.
    fn fields_mut(w: &mut WideConstraint) -> Vec<&mut FloatW> {
        #[rustfmt::skip]
        let (mut all, (_, points)) = fields!(w, WideConstraint {
            normal_x, normal_y, inv_mass_a, inv_i_a, inv_mass_b, inv_i_b, friction, restitution,
            tangent_speed, rolling_resistance, rolling_mass, rolling_impulse, bias_rate,
            mass_scale, impulse_scale; bodies, points
        });
        for p in points {
            #[rustfmt::skip]
            let (point, ()) = fields!(p, WidePoint {
                anchor_a_x, anchor_a_y, anchor_b_x, anchor_b_y, base_separation, normal_impulse,
                tangent_impulse, total_normal_impulse, normal_mass, tangent_mass,
                relative_velocity;
            });
            all.extend(point);
        }
        all
    }

    /// The lane writer the wide prepare replaced, its reference: a prepared
    /// scalar constraint into lane `i`, a static body (NULL index) as the
    /// stand-in state `dummy`. A one-point manifold's second point is not
    /// written: in a block from `empty` it keeps zero masses and applies
    /// nothing, as the scalar loop skips it.
    fn set_lane(w: &mut WideConstraint, i: usize, c: &ContactConstraint, dummy: u32) {
        let or_dummy = |index| if index == NULL_INDEX { dummy } else { index };
        let (a, b) = (or_dummy(c.index_a), or_dummy(c.index_b));
        let bodies = &mut w.bodies;
        bodies.a[i] = a;
        bodies.b[i] = b;
        bodies.max = bodies.max.max(a).max(b);
        let soft = c.softness;
        // In the order of `fields_mut`.
        #[rustfmt::skip]
        let mut values = vec![
            c.normal.x, c.normal.y, c.inv_mass_a, c.inv_i_a, c.inv_mass_b, c.inv_i_b,
            c.friction, c.restitution, c.tangent_speed, c.rolling_resistance, c.rolling_mass,
            c.rolling_impulse, soft.bias_rate, soft.mass_scale, soft.impulse_scale,
        ];
        let constraint_fields = values.len();
        for cp in &c.points {
            #[rustfmt::skip]
            values.extend([
                cp.anchor_a.x, cp.anchor_a.y, cp.anchor_b.x, cp.anchor_b.y, cp.base_separation,
                cp.normal_impulse, cp.tangent_impulse, cp.total_normal_impulse, cp.normal_mass,
                cp.tangent_mass, cp.relative_velocity,
            ]);
        }
        let point_fields = (values.len() - constraint_fields) / 2;
        let written = constraint_fields + c.point_count as usize * point_fields;
        for (field, x) in fields_mut(w).into_iter().zip(values).take(written) {
            field.0[i] = x;
        }
    }

    /// The block as bits: body indices, `max`, then every lane field, each
    /// NaN as one NaN. (Which NaN an operation on two NaNs returns depends on
    /// the order of its operands in the machine code, which the compiler may
    /// swap: Rust leaves the payload and sign of a computed NaN unspecified,
    /// so the scalar code's NaN bits are not fixed by its source either.
    /// Where the NaNs are is: every other value is compared bit for bit.)
    fn bits(w: &WideConstraint) -> Vec<u32> {
        let mut w = *w;
        let BodyIndices { a, b, max } = w.bodies;
        let mut out: Vec<u32> = a.iter().chain(&b).copied().collect();
        out.push(max);
        for f in fields_mut(&mut w) {
            out.extend(f.0.map(|x| if x.is_nan() { f32::NAN } else { x }.to_bits()));
        }
        out
    }

    /// A float that is now and then NaN (random payload and sign), ±∞, ±0
    /// or a subnormal, else in `lo..hi`.
    pub(super) fn value(rng: &mut Rng, lo: f32, hi: f32, odd: f32) -> f32 {
        if !rng.chance(odd) {
            return rng.range(lo, hi);
        }
        let r = rng.next_u64();
        let sign = ((r >> 32) as u32) & 0x8000_0000;
        let payload = (r as u32) & 0x007F_FFFF;
        f32::from_bits(match rng.below(5) {
            0 => sign | 0x7F80_0000 | payload.max(1),
            1 => sign | 0x7F80_0000,
            2 => sign,
            3 => sign | payload,
            _ => sign | 0x7F00_0000 | payload, // about ±1e38: its square overflows
        })
    }

    /// An inverse mass or inertia: often zero (static, kinematic, or a body
    /// that does not rotate), now and then awkward.
    fn inverse(rng: &mut Rng) -> f32 {
        if rng.chance(0.3) {
            0.0
        } else {
            value(rng, 0.01, 10.0, 0.03)
        }
    }

    fn random_sim(rng: &mut Rng, body_count: usize) -> ContactSim {
        let index = |rng: &mut Rng| {
            if rng.chance(0.25) {
                NULL_INDEX
            } else {
                rng.below(body_count) as u32
            }
        };
        let (a, b) = (index(rng), index(rng));
        let normal = match rng.below(4) {
            // Axis-aligned normals: their zero component gives ±0 products.
            0 => [Vec2::new(0.0, 1.0), Vec2::new(-1.0, 0.0)][rng.below(2)],
            1 => Vec2::new(value(rng, -1.0, 1.0, 0.3), value(rng, -1.0, 1.0, 0.3)),
            _ => rng.direction(),
        };
        // Anchors at a centre of mass (zero) make the effective masses the
        // inverse masses alone, zero between two bodies that do not move.
        let anchor = |rng: &mut Rng| {
            if rng.chance(0.1) {
                Vec2::ZERO
            } else {
                Vec2::new(value(rng, -2.0, 2.0, 0.03), value(rng, -2.0, 2.0, 0.03))
            }
        };
        // Both points random: a one-point manifold's second is garbage.
        let points = [(); 2].map(|()| ManifoldPoint {
            anchor_a: anchor(rng),
            anchor_b: anchor(rng),
            separation: value(rng, -0.05, 0.05, 0.03),
            normal_impulse: value(rng, 0.0, 5.0, 0.03),
            tangent_impulse: value(rng, -2.0, 2.0, 0.03),
            total_normal_impulse: value(rng, 0.0, 5.0, 0.5),
            normal_velocity: value(rng, -5.0, 5.0, 0.5),
            ..ManifoldPoint::default()
        });
        let manifold = Manifold {
            normal,
            rolling_impulse: value(rng, -1.0, 1.0, 0.05),
            points,
            point_count: 1 + rng.below(2),
        };
        // (The narrow phase's fields, which the solver does not read, are
        // random too.)
        ContactSim {
            contact_id: rng.below(1000) as u32,
            cached_rotation_a: rng.rot(),
            body_sim_index_a: a,
            body_sim_index_b: b,
            cached_rotation_b: rng.rot(),
            shape_id_a: rng.below(100) as u32,
            inv_mass_a: inverse(rng),
            inv_i_a: inverse(rng),
            shape_id_b: rng.below(100) as u32,
            inv_mass_b: inverse(rng),
            inv_i_b: inverse(rng),
            sim_flags: rng.next_u64() as u32,
            manifold,
            cached_relative: rng.transform(5.0),
            friction: value(rng, 0.0, 1.0, 0.02),
            restitution: if rng.chance(0.5) { 0.0 } else { rng.unit() },
            base_separation: [rng.unit(), rng.unit()],
            rolling_resistance: if rng.chance(0.5) { 0.0 } else { rng.unit() },
            cache: SimplexCache::default(),
            tangent_speed: if rng.chance(0.8) {
                0.0
            } else {
                rng.range(-1.0, 1.0)
            },
        }
    }

    /// Awake body states (velocities now and then NaN, ±∞ or huge), with
    /// the resting stand-in appended as the solve appends it.
    fn random_states(rng: &mut Rng, body_count: usize) -> Vec<BodyState> {
        let mut states: Vec<BodyState> = (0..body_count)
            .map(|_| BodyState {
                linear_velocity: Vec2::new(value(rng, -20.0, 20.0, 0.05), rng.range(-20.0, 20.0)),
                angular_velocity: value(rng, -10.0, 10.0, 0.05),
                flags: if rng.chance(0.8) { flags::DYNAMIC } else { 0 },
                delta_position: Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                delta_rotation: rng.rot(),
            })
            .collect();
        states.push(BodyState::IDENTITY);
        states
    }

    /// Today's reference: the scalar prepare of each contact, written lane by
    /// lane into an empty block.
    fn reference(
        sims: &[ContactSim],
        states: &[BodyState],
        dummy: u32,
        p: &PrepareParams,
    ) -> (WideConstraint, Vec<ContactConstraint>) {
        let mut w = WideConstraint::empty(dummy);
        let scalar: Vec<ContactConstraint> = sims.iter().map(|sim| p.scalar(sim, states)).collect();
        for (lane, c) in scalar.iter().enumerate() {
            set_lane(&mut w, lane, c, dummy);
        }
        (w, scalar)
    }

    type Prepare<'a> =
        &'a dyn Fn(&mut WideConstraint, &[ContactSim], &[BodyState], u32, &PrepareParams);

    /// On 3,000 random blocks of 1 to 8 contacts (static bodies, one and two
    /// points, softening on and off, warm starting on and off, zero effective
    /// masses, NaN, infinite and overflowing velocities) written over a block
    /// of garbage, `prepare` gives the reference's bits in every field.
    fn check_prepare(prepare: Prepare<'_>) {
        let mut rng = Rng::new(0x5EED_0016);
        let h = 1.0 / 240.0;
        let (mut statics, mut one_point, mut partial, mut zero_mass, mut guarded) = (0, 0, 0, 0, 0);
        let mut softened = 0;
        for trial in 0..3000 {
            let body_count = 1 + rng.below(20);
            let states = random_states(&mut rng, body_count);
            let dummy = body_count as u32;
            let lanes = if rng.chance(0.5) {
                LANES
            } else {
                1 + rng.below(LANES)
            };
            let sims: Vec<ContactSim> = (0..lanes)
                .map(|_| random_sim(&mut rng, body_count))
                .collect();
            let softening = rng.chance(0.3).then_some(ContactSoftening {
                hertz: 30.0,
                damping_ratio: 10.0,
                h,
            });
            let params = PrepareParams {
                contact_softness: Softness::new(30.0, 10.0, h),
                static_softness: Softness::new(60.0, 10.0, h),
                softening,
                warm_start_scale: if rng.chance(0.2) { 0.0 } else { 1.0 },
            };
            let (expected, scalar) = reference(&sims, &states, dummy, &params);

            // Written over garbage: every lane field NaN or random bits.
            let mut w = WideConstraint::empty(0);
            for f in fields_mut(&mut w) {
                *f = FloatW(std::array::from_fn(|_| value(&mut rng, -9.0, 9.0, 0.5)));
            }
            w.bodies = BodyIndices::new([7; LANES], [3; LANES]);
            prepare(&mut w, &sims, &states, dummy, &params);
            let (got, want) = (bits(&w), bits(&expected));
            if let Some(k) = (0..got.len()).find(|&k| got[k] != want[k]) {
                // Words: 8 + 8 body indices, `max`, then 8 lanes per field.
                let (field, lane) = ((k.max(17) - 17) / LANES, (k.max(17) - 17) % LANES);
                panic!(
                    "trial {trial}: word {k} (field {field}, lane {lane}): {:#x} for {:#x}\n\
                     {sims:?}\n{states:?}",
                    got[k], want[k]
                );
            }

            partial += usize::from(lanes < LANES);
            softened += usize::from(softening.is_some());
            for (sim, c) in sims.iter().zip(&scalar) {
                statics += usize::from(c.index_a == NULL_INDEX || c.index_b == NULL_INDEX);
                one_point += usize::from(c.point_count == 1);
                for cp in &c.points[..sim.manifold.point_count] {
                    zero_mass += usize::from(cp.normal_mass == 0.0 || cp.tangent_mass == 0.0);
                    let moving = [c.index_a, c.index_b].iter().any(|&i| {
                        let s = crate::body::load(&states, i);
                        !(s.linear_velocity.x * s.angular_velocity).is_finite()
                    });
                    guarded += usize::from(moving && cp.relative_velocity == 0.0);
                }
            }
        }
        for (what, count) in [
            ("contacts with a static body", statics),
            ("one-point manifolds", one_point),
            ("partial blocks", partial),
            ("zero effective masses", zero_mass),
            ("approach speeds guarded", guarded),
            ("softened blocks", softened),
        ] {
            assert!(count > 200, "{count} {what}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn wide_prepare_matches_scalar_prepare_bit_for_bit() {
        use crate::simd::isa::Baseline;
        check_prepare(&|w, s, st, d, p| prepare(Baseline, w, s, st, d, p));
    }

    /// The same in the x86-64-v3 build (AVX registers), where the CPU runs it.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_wide_prepare_matches_scalar_prepare_bit_for_bit() {
        let Some(isa) = crate::solver::lanes::test_avx2() else {
            return;
        };
        check_prepare(&|w, s, st, d, p| prepare(isa, w, s, st, d, p));
    }

    /// Every word of a manifold as bits (NaNs with their payloads).
    fn manifold_bits(m: &Manifold) -> Vec<u32> {
        let mut out = vec![m.normal.x, m.normal.y, m.rolling_impulse]
            .into_iter()
            .map(f32::to_bits)
            .collect::<Vec<_>>();
        for p in &m.points {
            #[rustfmt::skip]
            let words = [
                p.point.x, p.point.y, p.anchor_a.x, p.anchor_a.y, p.anchor_b.x, p.anchor_b.y,
                p.separation, p.normal_impulse, p.tangent_impulse, p.total_normal_impulse,
                p.normal_velocity,
            ];
            out.extend(words.map(f32::to_bits));
            out.extend([u32::from(p.id), u32::from(p.persisted)]);
        }
        out.push(m.point_count as u32);
        out
    }

    /// On 2,000 random blocks (every lane field NaN, ±∞, ±0, subnormal or
    /// random now and then) stored into 1 to 8 contacts of one or two points
    /// (the second point of a one-point manifold holding garbage, which must
    /// stay), the row store writes exactly the bits the lane-by-lane store
    /// writes, and nothing else.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn row_store_matches_lane_store_bit_for_bit() {
        let mut rng = Rng::new(0x5EED_0017);
        let (mut one_point, mut partial) = (0, 0);
        for trial in 0..2000 {
            let lanes = 1 + rng.below(LANES);
            let sims: Vec<ContactSim> = (0..lanes).map(|_| random_sim(&mut rng, 10)).collect();
            let mut w = WideConstraint::empty(0);
            for f in fields_mut(&mut w) {
                *f = FloatW(std::array::from_fn(|_| value(&mut rng, -9.0, 9.0, 0.3)));
            }
            let (mut by_lanes, mut by_rows) = (sims.clone(), sims.clone());
            store_lanes(&w, &mut by_lanes);
            rows::store_impulses(&w, &mut by_rows);
            for (k, (a, b)) in by_lanes.iter().zip(&by_rows).enumerate() {
                let (a, b) = (manifold_bits(&a.manifold), manifold_bits(&b.manifold));
                assert_eq!(a, b, "trial {trial}, contact {k}");
            }
            // The lane store itself wrote the block's lanes.
            for (i, (sim, stored)) in sims.iter().zip(&by_lanes).enumerate() {
                let m = &stored.manifold;
                assert_eq!(
                    m.rolling_impulse.to_bits(),
                    w.rolling_impulse.0[i].to_bits()
                );
                for (p, mp) in m.points.iter().enumerate() {
                    let lane = w.points[p].tangent_impulse.0[i];
                    let want = if p < m.point_count {
                        lane
                    } else {
                        sim.manifold.points[p].tangent_impulse
                    };
                    assert_eq!(mp.tangent_impulse.to_bits(), want.to_bits());
                }
                one_point += usize::from(m.point_count == 1);
            }
            partial += usize::from(lanes < LANES);
        }
        assert!(one_point > 1000 && partial > 1000, "{one_point} {partial}");
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[test]
    fn wide_prepare_matches_scalar_prepare_bit_for_bit() {
        check_prepare(&|w, s, st, d, p| prepare(w, s, st, d, p));
    }
}

#[cfg(test)]
mod tests {
    use crate::collision::make_box;
    use crate::test_build as build;
    use crate::{BodyType, ShapeDef, Vec2, World, WorldDef};

    /// Builds a small pyramid next to a few spinning balls on a ramp-free
    /// ground, knocks it, and returns every body's transform bits after `steps`.
    fn run(use_wide: bool, steps: usize) -> Vec<build::PoseBits> {
        run_on(use_wide, steps, 1, false)
    }

    fn run_on(
        use_wide: bool,
        steps: usize,
        worker_count: usize,
        enable_contact_softening: bool,
    ) -> Vec<build::PoseBits> {
        let mut world = World::new(&WorldDef {
            worker_count,
            enable_contact_softening,
            ..WorldDef::default()
        })
        .unwrap();
        world.use_wide_solver = use_wide;
        let ground = build::body(&mut world, BodyType::Static, Vec2::ZERO);
        build::add_box(&mut world, ground, 40.0, 1.0);
        let mut bodies = Vec::new();
        for row in 0..8 {
            for k in 0..(8 - row) {
                let body = build::body(
                    &mut world,
                    BodyType::Dynamic,
                    Vec2::new(-3.5 + row as f32 * 0.5 + k as f32, 1.5 + row as f32),
                );
                let shape = ShapeDef {
                    rolling_resistance: if k % 2 == 0 { 0.1 } else { 0.0 },
                    restitution: if k % 3 == 0 { 0.4 } else { 0.0 },
                    ..Default::default()
                };
                world
                    .create_polygon_shape(body, &shape, &make_box(0.5, 0.5).unwrap())
                    .unwrap();
                bodies.push(body);
            }
        }
        // Bouncy balls dropped from 4 m hit the boxes at about 8 m/s, well
        // above the restitution threshold.
        for k in 0..6 {
            let ball = build::body(
                &mut world,
                BodyType::Dynamic,
                Vec2::new(-3.0 + 1.1 * k as f32, 12.0),
            );
            let shape = ShapeDef {
                restitution: 0.7,
                ..Default::default()
            };
            let circle = crate::collision::Circle {
                center: Vec2::ZERO,
                radius: 0.3,
            };
            world.create_circle_shape(ball, &shape, &circle).unwrap();
            bodies.push(ball);
        }
        for (k, &b) in bodies.iter().enumerate().step_by(5) {
            world
                .body_mut(b)
                .unwrap()
                .apply_linear_impulse_to_center(Vec2::new(2.0 - k as f32 * 0.3, 1.0), true)
                .unwrap();
        }
        for _ in 0..steps {
            world.step(1.0 / 60.0, 4).unwrap();
            world.validate().unwrap();
        }
        bodies
            .iter()
            .map(|&b| world.body(b).unwrap().transform().to_bits())
            .collect()
    }

    #[test]
    fn wide_and_scalar_solvers_give_the_same_bits() {
        let wide = run(true, 200);
        let scalar = run(false, 200);
        assert_eq!(wide.len(), 42);
        assert_eq!(wide, scalar);
    }

    /// The same on several worker threads, with either solver.
    #[test]
    fn wide_and_scalar_solvers_give_the_same_bits_on_2_and_4_threads() {
        let one = run(true, 120);
        for workers in [2, 4] {
            assert_eq!(
                run_on(true, 120, workers, false),
                one,
                "wide, {workers} workers"
            );
            assert_eq!(
                run_on(false, 120, workers, false),
                one,
                "scalar, {workers} workers"
            );
        }
    }

    /// With contact softening (the balls weigh 0.28 kg, the boxes 1 kg: their
    /// contacts are softened by 0.5, box on box by 1) both solvers still give
    /// the same bits, on one thread and on two, and the softening changes them.
    #[test]
    fn wide_and_scalar_solvers_agree_with_contact_softening() {
        let wide = run_on(true, 200, 1, true);
        assert_eq!(run_on(false, 200, 1, true), wide, "scalar");
        assert_eq!(run_on(true, 200, 2, true), wide, "wide, 2 workers");
        assert_ne!(run(true, 200), wide, "softening made no difference");
    }
}
