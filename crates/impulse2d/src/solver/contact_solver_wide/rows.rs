//! The wide solver's gather and scatter a body row at a time (x86-64; other
//! targets use the lane-by-lane forms).
//!
//! A [`BodyState`] is 8 words, `[vx vy w flags | dpx dpy dqc dqs]`: two rows
//! of four `f32` (the flags travel as bits). The rows of four bodies are
//! transposed into four lanes with SSE shuffles, and two groups of four make
//! the eight lanes of a [`FloatW`]; in the kernels' x86-64-v3 build
//! (`simd::isa`) the gather reads each state as one 256-bit row and transposes
//! the eight rows with AVX shuffles instead. The scatter transposes
//! `[vx vy w flags]` back with SSE shuffles in both builds (SSE2 is part of
//! every x86-64 CPU) and writes each dynamic body's first row whole, the flags
//! with the bits that were read.
//!
//! Only moves and shuffles: every bit read is the bit written, so the result is
//! the lane-by-lane [`gather`](super::gather) and [`scatter`](super::scatter)'s,
//! which stay the reference (the tests below compare them bit for bit).

use std::arch::x86_64::{
    __m128, __m256, _mm_and_si128, _mm_castps_si128, _mm_cmpeq_epi32, _mm_loadu_ps, _mm_movehl_ps,
    _mm_movelh_ps, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi32, _mm_setr_ps, _mm_setzero_si128,
    _mm_storeu_ps, _mm_unpackhi_ps, _mm_unpacklo_ps, _mm256_loadu_ps, _mm256_permute2f128_ps,
    _mm256_setr_ps, _mm256_shuffle_ps, _mm256_storeu_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
};
use std::hint::black_box;
use std::mem::{offset_of, size_of};
use std::ops::{Deref, DerefMut};

use super::{BodyLanes, InBuild, Lanes, WideConstraint, WidePoint};
use crate::body::{BodyState, flags};
use crate::collision::ManifoldPoint;
use crate::contact::ContactSim;
use crate::simd::isa::Isa;
use crate::solver::lanes::{FloatW, LANES, Lane};

// The intrinsics below need SSE and SSE2, which every x86-64 target has.
const _: () = assert!(cfg!(target_feature = "sse") && cfg!(target_feature = "sse2"));

// `BodyState` (`#[repr(C)]`) is the two rows read here.
const _: () = {
    assert!(size_of::<BodyState>() == 8 * size_of::<f32>());
    assert!(offset_of!(BodyState, linear_velocity.x) == 0);
    assert!(offset_of!(BodyState, linear_velocity.y) == 4);
    assert!(offset_of!(BodyState, angular_velocity) == 8);
    assert!(offset_of!(BodyState, flags) == 12);
    assert!(offset_of!(BodyState, delta_position.x) == 16);
    assert!(offset_of!(BodyState, delta_position.y) == 20);
    assert!(offset_of!(BodyState, delta_rotation.c) == 24);
    assert!(offset_of!(BodyState, delta_rotation.s) == 28);
};

/// [`BodyLanes`] with the flags of each lane's body (bits in the `f32` lanes of
/// two registers: lanes 0–3, then 4–7), which [`scatter`] writes back
/// unchanged. The solver kernels see the [`BodyLanes`] through `Deref`.
pub(crate) struct RowLanes<F = FloatW> {
    lanes: BodyLanes<F>,
    flags: [__m128; 2],
}

impl<F> Deref for RowLanes<F> {
    type Target = BodyLanes<F>;
    #[inline(always)]
    fn deref(&self) -> &BodyLanes<F> {
        &self.lanes
    }
}

impl<F> DerefMut for RowLanes<F> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut BodyLanes<F> {
        &mut self.lanes
    }
}

/// Row `half` (0: `[vx vy w flags]`, 1: `[dpx dpy dqc dqs]`) of a body state.
#[inline(always)]
fn load_row(s: &BodyState, half: usize) -> __m128 {
    debug_assert!(half < 2);
    // SAFETY: `BodyState` is 8 four-byte words (the `const` checks above), so
    // words `4·half .. 4·half + 4` lie inside `*s`, which the reference keeps
    // readable; `loadu` needs no alignment, and any bits are a valid `f32`.
    #[allow(unsafe_code)]
    unsafe {
        _mm_loadu_ps(std::ptr::from_ref(s).cast::<f32>().add(4 * half))
    }
}

/// Writes `row` over `[vx vy w flags]` of a body state.
#[inline(always)]
fn store_head(s: &mut BodyState, row: __m128) {
    store_row(s, 0, row);
}

/// Writes `row` over row `half` of a body state (as [`load_row`] reads it).
#[inline(always)]
fn store_row(s: &mut BodyState, half: usize, row: __m128) {
    debug_assert!(half < 2);
    // SAFETY: words `4·half .. 4·half + 4` of `*s` (see the `const` checks
    // above), which the exclusive reference lets us write; `storeu` needs no
    // alignment, and any bits are a valid `f32` or `u32`.
    #[allow(unsafe_code)]
    unsafe {
        _mm_storeu_ps(std::ptr::from_mut(s).cast::<f32>().add(4 * half), row);
    }
}

/// The 4 × 4 transpose: row `i` of the result holds element `i` of each row
/// of `r` (its own inverse).
#[inline(always)]
fn transpose([r0, r1, r2, r3]: [__m128; 4]) -> [__m128; 4] {
    // SAFETY: register shuffles that need SSE, which every x86-64 CPU has
    // (the first `const` check above). Today's compiler still asks for
    // `unsafe` (a feature on for the whole target does not count); should a
    // later one stop asking, `unused_unsafe` must not fail the build.
    #[allow(unsafe_code, unused_unsafe)]
    unsafe {
        let t0 = _mm_unpacklo_ps(r0, r1); // a0 a1 b0 b1
        let t1 = _mm_unpacklo_ps(r2, r3); // a2 a3 b2 b3
        let t2 = _mm_unpackhi_ps(r0, r1); // c0 c1 d0 d1
        let t3 = _mm_unpackhi_ps(r2, r3); // c2 c3 d2 d3
        [
            _mm_movelh_ps(t0, t1), // a0 a1 a2 a3
            _mm_movehl_ps(t1, t0), // b0 b1 b2 b3
            _mm_movelh_ps(t2, t3), // c0 c1 c2 c3
            _mm_movehl_ps(t3, t2), // d0 d1 d2 d3
        ]
    }
}

/// Eight lanes from the four lanes of two registers (lanes 0–3, then 4–7).
#[inline(always)]
fn join(lo: __m128, hi: __m128) -> FloatW {
    // SAFETY: both are 32 bytes of eight `f32` (`FloatW` is `[f32; 8]`), any
    // bits are valid for either.
    #[allow(unsafe_code)]
    unsafe {
        std::mem::transmute::<[__m128; 2], FloatW>([lo, hi])
    }
}

/// The two halves of eight lanes ([`join`] undone).
#[inline(always)]
fn split(x: FloatW) -> [__m128; 2] {
    // SAFETY: as in `join`.
    #[allow(unsafe_code)]
    unsafe {
        std::mem::transmute::<FloatW, [__m128; 2]>(x)
    }
}

/// A wide kernel's constraints, the build's arithmetic ([`Math`]), and the
/// row [`gather`] and [`scatter`] for the build it runs in: what the kernels
/// use in place of the lane-by-lane forms.
#[inline(always)]
#[allow(clippy::type_complexity)]
pub(super) fn in_build<I: Isa>(
    (isa, constraints): InBuild<'_, I>,
) -> (
    &mut [WideConstraint],
    I,
    impl Fn(&[BodyState], Lanes<'_>) -> RowLanes<I::F> + Copy + use<I>,
    fn(&mut [BodyState], Lanes<'_>, &RowLanes<I::F>),
) {
    let gather = move |states: &[BodyState], lanes: Lanes<'_>| gather(isa, states, lanes);
    (constraints, isa, gather, scatter::<I::F>)
}

/// Loads the states of [`LANES`] bodies: the row form of
/// [`gather`](super::gather), bit for bit. In the x86-64-v3 build (`I::AVX2`)
/// each state is one 256-bit row and the eight rows are transposed at once.
#[inline(always)]
pub(crate) fn gather<I: Isa>(isa: I, states: &[BodyState], lanes: Lanes<'_>) -> RowLanes<I::F> {
    let s = states_of(states, lanes);
    if I::AVX2 {
        // SAFETY: `isa` is a value of an `Isa` with `AVX2`, which (the
        // trait's contract) exists only where the CPU has AVX2, AVX with it.
        #[allow(unsafe_code)]
        let (lanes, flags) = unsafe { gather_avx(&s) };
        // Straight into the build's registers (`F256`): no trip through memory.
        return row_lanes(isa, lanes, flags);
    }
    let group =
        |g: usize, half: usize| transpose(std::array::from_fn(|k| load_row(s[4 * g + k], half)));
    let [vx0, vy0, w0, f0] = group(0, 0);
    let [vx1, vy1, w1, f1] = group(1, 0);
    let [px0, py0, qc0, qs0] = group(0, 1);
    let [px1, py1, qc1, qs1] = group(1, 1);
    let lanes = [
        join(vx0, vx1),
        join(vy0, vy1),
        join(w0, w1),
        join(px0, px1),
        join(py0, py1),
        join(qc0, qc1),
        join(qs0, qs1),
    ];
    // The lanes go through memory, so that LLVM sees eight-lane loads: left
    // visible, it folds the shuffles back into a scalar load and insert per
    // lane and word (what the row gather replaces), or does the arithmetic
    // in four-lane halves.
    row_lanes(isa, black_box(lanes), [f0, f1])
}

/// The gathered `[vx vy w dpx dpy dqc dqs]` and flags as [`RowLanes`] of the
/// build's lanes.
#[inline(always)]
fn row_lanes<I: Isa>(isa: I, lanes: [FloatW; 7], flags: [__m128; 2]) -> RowLanes<I::F> {
    let [vx, vy, w, dpx, dpy, dqc, dqs] = lanes.map(|x| isa.ld(x));
    RowLanes {
        lanes: BodyLanes {
            vx,
            vy,
            w,
            dpx,
            dpy,
            dqc,
            dqs,
        },
        flags,
    }
}

/// Writes the velocities of [`LANES`] bodies back, dynamic bodies only (see
/// `flags::DYNAMIC`): the row form of [`scatter`](super::scatter), bit for
/// bit. Each dynamic body's `[vx vy w flags]` is written whole, its flags with
/// the bits [`gather`] read.
#[inline(always)]
pub(crate) fn scatter<F: Lane>(states: &mut [BodyState], lanes: Lanes<'_>, b: &RowLanes<F>) {
    // As in `gather`: eight-lane stores, or LLVM does the arithmetic in halves.
    // (One form for both builds: an AVX form, 256-bit unpacks and shuffles
    // with a 128-bit store per body, made LLVM do much of the kernels'
    // arithmetic in four-lane halves, 25 % more instructions.)
    // AVX registers (`F256`) need no such trip: they are one value already.
    let v = [b.vx, b.vy, b.w].map(F::lanes);
    let [vx, vy, w] = if F::THROUGH_MEMORY { black_box(v) } else { v }.map(split);
    if !inside(lanes, states) {
        outside(lanes, states.len());
    }
    let indices = lanes.indices();
    for g in 0..2 {
        let rows = transpose([vx[g], vy[g], w[g], b.flags[g]]);
        for (k, row) in rows.into_iter().enumerate() {
            let index = indices[4 * g + k] as usize;
            // SAFETY: `index` is at most `lanes.max` (a `Lanes` comes only
            // from a `BodyIndices`, whose `max` its module keeps at least every
            // index), which is less than `states.len()` (checked above).
            #[allow(unsafe_code)]
            let s = unsafe { states.get_unchecked_mut(index) };
            if s.flags & flags::DYNAMIC == 0 {
                continue;
            }
            store_head(s, row);
        }
    }
}

/// `[vx vy w]` of eight consecutive states as the build's lanes, with their
/// flags (bits in the `f32` lanes of two registers, lanes 0–3 then 4–7): two
/// SSE 4 × 4 transposes of the states' first rows. Only moves.
#[inline(always)]
pub(super) fn load_heads<I: Isa>(isa: I, s: &[BodyState; LANES]) -> ([I::F; 3], [__m128; 2]) {
    let group = |g: usize| transpose(std::array::from_fn(|k| load_row(&s[4 * g + k], 0)));
    let [vx0, vy0, w0, f0] = group(0);
    let [vx1, vy1, w1, f1] = group(1);
    let lanes = [join(vx0, vx1), join(vy0, vy1), join(w0, w1)];
    // As in `gather`: the lane arrays go through memory.
    let lanes = if <I::F as Lane>::THROUGH_MEMORY {
        black_box(lanes)
    } else {
        lanes
    };
    (lanes.map(|x| isa.ld(x)), [f0, f1])
}

/// Writes `[vx vy w]` and `flags` (as [`load_heads`] returns them) over the
/// first row of eight consecutive states, every state (dynamic or not).
#[inline(always)]
pub(super) fn store_heads<F: Lane>(s: &mut [BodyState; LANES], v: [F; 3], flags: [__m128; 2]) {
    let v = v.map(F::lanes);
    let [vx, vy, w] = if F::THROUGH_MEMORY { black_box(v) } else { v }.map(split);
    for g in 0..2 {
        let rows = transpose([vx[g], vy[g], w[g], flags[g]]);
        for (k, row) in rows.into_iter().enumerate() {
            store_head(&mut s[4 * g + k], row);
        }
    }
}

/// `[dpx dpy dqc dqs]` of eight consecutive states as the build's lanes: two
/// SSE 4 × 4 transposes of the states' second rows. Only moves.
#[inline(always)]
pub(super) fn load_tails<I: Isa>(isa: I, s: &[BodyState; LANES]) -> [I::F; 4] {
    let group = |g: usize| transpose(std::array::from_fn(|k| load_row(&s[4 * g + k], 1)));
    let ([x0, y0, c0, s0], [x1, y1, c1, s1]) = (group(0), group(1));
    let lanes = [join(x0, x1), join(y0, y1), join(c0, c1), join(s0, s1)];
    // As in `load_heads`.
    let lanes = if <I::F as Lane>::THROUGH_MEMORY {
        black_box(lanes)
    } else {
        lanes
    };
    lanes.map(|x| isa.ld(x))
}

/// Writes `[dpx dpy dqc dqs]` (as [`load_tails`] returns them) over the
/// second row of eight consecutive states.
#[inline(always)]
pub(super) fn store_tails<F: Lane>(s: &mut [BodyState; LANES], t: [F; 4]) {
    let t = t.map(F::lanes);
    let [x, y, c, q] = if F::THROUGH_MEMORY { black_box(t) } else { t }.map(split);
    for g in 0..2 {
        let rows = transpose([x[g], y[g], c[g], q[g]]);
        for (k, row) in rows.into_iter().enumerate() {
            store_row(&mut s[4 * g + k], 1, row);
        }
    }
}

/// Whether any of the eight flag words (as [`load_heads`] returns them) has
/// a bit of `bits`.
#[inline(always)]
pub(super) fn any_flag([lo, hi]: [__m128; 2], bits: u32) -> bool {
    // SAFETY: SSE2 integer operations on registers (every x86-64 CPU has
    // SSE2: the first `const` check above); as in `transpose`.
    #[allow(unsafe_code, unused_unsafe)]
    unsafe {
        let both = _mm_or_si128(_mm_castps_si128(lo), _mm_castps_si128(hi));
        let set = _mm_and_si128(both, _mm_set1_epi32(bits.cast_signed()));
        _mm_movemask_epi8(_mm_cmpeq_epi32(set, _mm_setzero_si128())) != 0xFFFF
    }
}

/// Each lane's `[normal_impulse tangent_impulse total_normal_impulse
/// relative_velocity]` of one point: row `i` is lane `i`'s four words (two SSE
/// 4 × 4 transposes).
#[inline(always)]
fn impulse_rows(p: &WidePoint) -> [__m128; LANES] {
    let [ni, ti, tni, rv] = [
        p.normal_impulse,
        p.tangent_impulse,
        p.total_normal_impulse,
        p.relative_velocity,
    ]
    .map(split);
    let [r0, r1, r2, r3] = transpose([ni[0], ti[0], tni[0], rv[0]]);
    let [r4, r5, r6, r7] = transpose([ni[1], ti[1], tni[1], rv[1]]);
    [r0, r1, r2, r3, r4, r5, r6, r7]
}

// `ManifoldPoint` (`#[repr(C)]`) holds the four words a row writes, in the
// order of `impulse_rows`, next to each other.
const _: () = {
    let base = offset_of!(ManifoldPoint, normal_impulse);
    assert!(offset_of!(ManifoldPoint, tangent_impulse) == base + 4);
    assert!(offset_of!(ManifoldPoint, total_normal_impulse) == base + 8);
    assert!(offset_of!(ManifoldPoint, normal_velocity) == base + 12);
};

/// Writes `row` over `normal_impulse ..= normal_velocity` of a point.
#[inline(always)]
fn store_impulse_row(mp: &mut ManifoldPoint, row: __m128) {
    // SAFETY: the four words at `normal_impulse` are the point's
    // `normal_impulse`, `tangent_impulse`, `total_normal_impulse` and
    // `normal_velocity` (the `const` checks above), all `f32`, which the
    // exclusive reference lets us write; `storeu` needs no alignment.
    #[allow(unsafe_code)]
    unsafe {
        let base = std::ptr::from_mut(mp).cast::<u8>();
        let at = base.add(offset_of!(ManifoldPoint, normal_impulse));
        _mm_storeu_ps(at.cast::<f32>(), row);
    }
}

/// The row form of [`store_lanes`](super::store_lanes), bit for bit: each
/// point of each contact gets its four impulse words in one store.
#[inline(always)]
pub(super) fn store_impulses(w: &WideConstraint, sims: &mut [ContactSim]) {
    debug_assert!(sims.len() <= LANES);
    let rows = [impulse_rows(&w.points[0]), impulse_rows(&w.points[1])];
    for (i, sim) in sims.iter_mut().enumerate().take(LANES) {
        let manifold = &mut sim.manifold;
        manifold.rolling_impulse = w.rolling_impulse.0[i];
        let count = manifold.point_count;
        for (point_rows, mp) in rows.iter().zip(&mut manifold.points[..count]) {
            store_impulse_row(mp, point_rows[i]);
        }
    }
}

/// The state of each lane's body, after one check that every index is inside
/// `states`.
#[inline(always)]
fn states_of<'s>(states: &'s [BodyState], lanes: Lanes<'_>) -> [&'s BodyState; LANES] {
    if !inside(lanes, states) {
        outside(lanes, states.len());
    }
    let indices = lanes.indices();
    std::array::from_fn(|i| {
        // SAFETY: as in `scatter`: the index is at most `lanes.max`, which is
        // less than `states.len()` (checked above).
        #[allow(unsafe_code)]
        unsafe {
            states.get_unchecked(indices[i] as usize)
        }
    })
}

/// Whether every index of `lanes` is inside `states`: one comparison for
/// the eight lanes (`max`, at least each index: see `BodyIndices`).
#[inline(always)]
fn inside(lanes: Lanes<'_>, states: &[BodyState]) -> bool {
    (lanes.max as usize) < states.len()
}

/// The panic of an index past the states (cold: never taken by a world's solve).
#[cold]
#[inline(never)]
#[track_caller]
fn outside(lanes: Lanes<'_>, len: usize) -> ! {
    panic!(
        "body index {} (largest of the constraint) is past the {len} states",
        lanes.max
    )
}

/// [`gather`] in the x86-64-v3 build: the eight states as 256-bit rows,
/// transposed with AVX shuffles ([`transpose8`]).
#[target_feature(enable = "avx")]
#[inline]
fn gather_avx(s: &[&BodyState; LANES]) -> ([FloatW; 7], [__m128; 2]) {
    // SAFETY: each `BodyState` is eight four-byte words (the `const` checks
    // above) that its reference keeps readable; `loadu` needs no alignment.
    #[allow(unsafe_code)]
    let r: [__m256; LANES] =
        std::array::from_fn(|i| unsafe { _mm256_loadu_ps(std::ptr::from_ref(s[i]).cast()) });
    let [w0, w1, w2, w3, w4, w5, w6, w7] = transpose8(r);
    ([w0, w1, w2, w4, w5, w6, w7], split(w3))
}

/// The 8 × 8 transpose with AVX shuffles (unpack, shuffle, then swap the
/// 128-bit halves): lane `i` of word `w` of the result is word `w` of row `i`.
#[target_feature(enable = "avx")]
#[inline]
fn transpose8(r: [__m256; LANES]) -> [FloatW; 8] {
    // Word pairs of rows 2k, 2k + 1: [a0 b0 a1 b1 | a4 b4 a5 b5] and [a2 b2 a3 b3 | a6 b6 a7 b7].
    let lo = |a, b| _mm256_unpacklo_ps(a, b);
    let hi = |a, b| _mm256_unpackhi_ps(a, b);
    let t = [
        lo(r[0], r[1]),
        hi(r[0], r[1]),
        lo(r[2], r[3]),
        hi(r[2], r[3]),
        lo(r[4], r[5]),
        hi(r[4], r[5]),
        lo(r[6], r[7]),
        hi(r[6], r[7]),
    ];
    // Word w of rows 0–3 (then of 4–7) in the low half, word w + 4 in the high.
    let u = [
        _mm256_shuffle_ps::<0x44>(t[0], t[2]),
        _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
        _mm256_shuffle_ps::<0x44>(t[1], t[3]),
        _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
        _mm256_shuffle_ps::<0x44>(t[4], t[6]),
        _mm256_shuffle_ps::<0xEE>(t[4], t[6]),
        _mm256_shuffle_ps::<0x44>(t[5], t[7]),
        _mm256_shuffle_ps::<0xEE>(t[5], t[7]),
    ];
    std::array::from_fn(|w| {
        let v = if w < 4 {
            _mm256_permute2f128_ps::<0x20>(u[w], u[w + 4])
        } else {
            _mm256_permute2f128_ps::<0x31>(u[w - 4], u[w])
        };
        // SAFETY: as in `join`: 32 bytes of eight `f32` either way.
        #[allow(unsafe_code)]
        unsafe {
            std::mem::transmute::<__m256, FloatW>(v)
        }
    })
}

/// Eight rows of eight words as eight lanes: lane `i` of word `w` is
/// `rows[i][w]` (the row form of [`transpose_rows`](super::transpose_rows),
/// bit for bit: only moves). SSE2 4 × 4 transposes in the baseline build,
/// [`transpose8`] in the x86-64-v3 build.
#[inline(always)]
pub(super) fn transpose_rows<I: Isa>(isa: I, rows: &[[f32; 8]; LANES]) -> [I::F; 8] {
    if I::AVX2 {
        // SAFETY (the call): `isa` is a value of an `Isa` with `AVX2`, which
        // exists only where the CPU has AVX2, AVX with it.
        // SAFETY (the loads): each row is eight `f32` its reference keeps
        // readable; `loadu` needs no alignment.
        #[allow(unsafe_code)]
        let words =
            unsafe { transpose8(std::array::from_fn(|i| _mm256_loadu_ps(rows[i].as_ptr()))) };
        return words.map(|x| isa.ld(x));
    }
    let r = rows.map(|row| split(FloatW(row)));
    // Words 4h..4h + 4 of rows 4g..4g + 4.
    let block = |g: usize, h: usize| transpose(std::array::from_fn(|k| r[4 * g + k][h]));
    let (w0, w1) = (block(0, 0), block(1, 0));
    let (w4, w5) = (block(0, 1), block(1, 1));
    std::array::from_fn(|w| {
        let x = if w < 4 {
            join(w0[w], w1[w])
        } else {
            join(w4[w - 4], w5[w - 4])
        };
        isa.ld(x)
    })
}

/// Writes a row of eight words into `out` whole, at the width
/// [`transpose_rows`] reads it back: one 256-bit store in the x86-64-v3
/// build (`I::AVX2`), two 128-bit stores in the baseline build. A read that
/// spans several narrower stores the CPU has not yet written to the cache
/// cannot take its bits from them, and waits until they are written; a read
/// of exactly one store takes them at once. Only moves: `out` holds the bits
/// of `row`.
#[inline(always)]
pub(super) fn put_row<I: Isa>(_isa: I, out: &mut [f32; 8], row: [f32; 8]) {
    if I::AVX2 {
        // SAFETY: `isa` is a value of an `Isa` with `AVX2`, which exists only
        // where the CPU has AVX2, AVX with it.
        #[allow(unsafe_code)]
        unsafe {
            put_row_avx(out, row);
        }
        return;
    }
    let [a, b, c, d, e, f, g, h] = row;
    let out = out.as_mut_ptr();
    // SAFETY: words 0–3 and 4–7 of `*out`, eight `f32` the exclusive
    // reference lets us write; `storeu` needs no alignment. The register
    // builds need SSE, which every x86-64 CPU has (the `const` check above);
    // as in `transpose`.
    #[allow(unsafe_code, unused_unsafe)]
    unsafe {
        _mm_storeu_ps(out, _mm_setr_ps(a, b, c, d));
        _mm_storeu_ps(out.add(4), _mm_setr_ps(e, f, g, h));
    }
}

/// [`put_row`] in the x86-64-v3 build: one 256-bit store.
#[target_feature(enable = "avx")]
#[inline]
fn put_row_avx(out: &mut [f32; 8], [a, b, c, d, e, f, g, h]: [f32; 8]) {
    // SAFETY: the eight `f32` of `*out`, which the exclusive reference lets
    // us write; `storeu` needs no alignment.
    #[allow(unsafe_code)]
    unsafe {
        _mm256_storeu_ps(out.as_mut_ptr(), _mm256_setr_ps(a, b, c, d, e, f, g, h));
    }
}

#[cfg(test)]
mod tests {
    use super::super::BodyIndices;
    use super::super::rng::Rng;
    use super::*;
    use crate::math::{Rot, Vec2};
    use crate::simd::SimdPath;
    use crate::simd::isa::{Avx2, Baseline};

    /// A state's eight words as bits.
    fn bits(s: &BodyState) -> [u32; 8] {
        [
            s.linear_velocity.x.to_bits(),
            s.linear_velocity.y.to_bits(),
            s.angular_velocity.to_bits(),
            s.flags,
            s.delta_position.x.to_bits(),
            s.delta_position.y.to_bits(),
            s.delta_rotation.c.to_bits(),
            s.delta_rotation.s.to_bits(),
        ]
    }

    fn lane_bits(x: FloatW) -> [u32; LANES] {
        x.0.map(f32::to_bits)
    }

    /// An `f32` that is often awkward: a NaN with a random payload and sign,
    /// ±0, ±∞, a subnormal, or any random bits.
    fn awkward(rng: &mut Rng) -> f32 {
        let r = rng.next_u64();
        let sign = ((r >> 32) as u32) & 0x8000_0000;
        let payload = (r as u32) & 0x007F_FFFF;
        f32::from_bits(match rng.below(6) {
            0 => sign | 0x7F80_0000 | payload.max(1),
            1 => sign,
            2 => sign | 0x7F80_0000,
            3 => sign | payload,
            _ => (r >> 16) as u32,
        })
    }

    fn random_state(rng: &mut Rng) -> BodyState {
        let dynamic = if rng.chance(0.6) { flags::DYNAMIC } else { 0 };
        let flags = ((rng.next_u64() as u32) & !flags::DYNAMIC) | dynamic;
        BodyState {
            linear_velocity: Vec2::new(awkward(rng), awkward(rng)),
            angular_velocity: awkward(rng),
            flags,
            delta_position: Vec2::new(awkward(rng), awkward(rng)),
            delta_rotation: Rot {
                c: awkward(rng),
                s: awkward(rng),
            },
        }
    }

    fn random_lanes(rng: &mut Rng) -> FloatW {
        FloatW(std::array::from_fn(|_| awkward(rng)))
    }

    /// On 200 random sets of states and indices (repeated indices included)
    /// with awkward floats and random flags, the row forms read and write
    /// exactly what the lane-by-lane forms do, and never write a body that
    /// is not dynamic; and rows of eight words transpose into the lanes the
    /// lane-by-lane transpose gives.
    #[test]
    fn rows_match_lanes_bit_for_bit() {
        check_build(Baseline);
    }

    /// The same for the x86-64-v3 build's 256-bit transposes, where the CPU
    /// runs them.
    #[test]
    fn avx_rows_match_lanes_bit_for_bit() {
        if SimdPath::avx2_available() {
            // SAFETY: the CPU has every x86-64-v3 feature (just detected).
            #[allow(unsafe_code)]
            check_build(unsafe { Avx2::new() });
        } else {
            eprintln!("no AVX2 on this CPU: skipped");
        }
    }

    fn check_build<I: Isa>(isa: I) {
        let mut rng = Rng::new(0x5EED_0011);
        let mut repeated = 0;
        for _ in 0..200 {
            let n = 1 + rng.below(12);
            let states: Vec<BodyState> = (0..n).map(|_| random_state(&mut rng)).collect();
            let indices: [u32; LANES] = std::array::from_fn(|_| rng.below(n) as u32);
            let mut distinct = indices.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            repeated += usize::from(distinct.len() < LANES);

            // Body B's indices are A's reversed: `max` is the same.
            let mut reversed = indices;
            reversed.reverse();
            let bodies = BodyIndices::new(indices, reversed);
            assert_eq!(bodies.a().indices(), &indices);
            let rows = gather(isa, &states, bodies.a());
            let lanes = super::super::gather(&states, bodies.a());
            for (r, l) in [
                (rows.vx.lanes(), lanes.vx),
                (rows.vy.lanes(), lanes.vy),
                (rows.w.lanes(), lanes.w),
                (rows.dpx.lanes(), lanes.dpx),
                (rows.dpy.lanes(), lanes.dpy),
                (rows.dqc.lanes(), lanes.dqc),
                (rows.dqs.lanes(), lanes.dqs),
            ] {
                assert_eq!(lane_bits(r), lane_bits(l));
            }
            for (i, &index) in indices.iter().enumerate() {
                assert_eq!(
                    join(rows.flags[0], rows.flags[1]).0[i].to_bits(),
                    states[index as usize].flags
                );
            }

            // New velocities in every lane, then both scatters.
            let mut rows = rows;
            rows.lanes.vx = isa.ld(random_lanes(&mut rng));
            rows.lanes.vy = isa.ld(random_lanes(&mut rng));
            rows.lanes.w = isa.ld(random_lanes(&mut rng));
            let new = BodyLanes {
                vx: rows.vx.lanes(),
                vy: rows.vy.lanes(),
                w: rows.w.lanes(),
                ..lanes
            };
            let (mut by_rows, mut by_lanes) = (states.clone(), states.clone());
            scatter(&mut by_rows, bodies.a(), &rows);
            super::super::scatter(&mut by_lanes, bodies.a(), &new);
            for (k, s) in states.iter().enumerate() {
                assert_eq!(bits(&by_rows[k]), bits(&by_lanes[k]), "body {k}");
                let gathered = indices.contains(&(k as u32));
                if s.flags & flags::DYNAMIC == 0 || !gathered {
                    assert_eq!(bits(&by_rows[k]), bits(s), "body {k} written");
                } else {
                    // The last lane holding the body wins, in both forms.
                    let lane = indices.iter().rposition(|&i| i == k as u32).unwrap();
                    let expected = [new.vx.0[lane], new.vy.0[lane], new.w.0[lane]];
                    assert_eq!(bits(&by_rows[k])[..3], expected.map(f32::to_bits));
                    assert_eq!(bits(&by_rows[k])[3..], bits(s)[3..], "body {k}");
                }
            }
        }
        assert!(repeated > 100, "{repeated} trials with a repeated index");

        // The wide prepare's rows-to-lanes transpose, on random bits.
        for _ in 0..50 {
            let rows: [[f32; 8]; LANES] =
                std::array::from_fn(|_| std::array::from_fn(|_| awkward(&mut rng)));
            let by_rows = transpose_rows(isa, &rows).map(|x| lane_bits(x.lanes()));
            assert_eq!(by_rows, super::super::transpose_rows(&rows).map(lane_bits));
            assert_eq!(by_rows[5][2], rows[2][5].to_bits());

            // Rows written whole (`put_row`) hold the bits they were given,
            // NaN payloads too, and transpose as the same rows do.
            let mut put = [[0.0f32; 8]; LANES];
            for (out, row) in put.iter_mut().zip(&rows) {
                put_row(isa, out, *row);
            }
            assert_eq!(
                put.map(|r| r.map(f32::to_bits)),
                rows.map(|r| r.map(f32::to_bits))
            );
            let by_put = transpose_rows(isa, &put).map(|x| lane_bits(x.lanes()));
            assert_eq!(by_put, by_rows);
        }
    }

    /// A constraint whose largest index is past the states panics in the
    /// row gather and scatter (one check for the eight lanes), as the
    /// lane-by-lane forms do, instead of reading or writing past them.
    #[test]
    fn an_index_past_the_states_panics() {
        let states = vec![BodyState::IDENTITY; 4];
        // Largest index 4, in body B's last lane only. The one check covers A
        // and B, so A's gather panics too, although its own lanes are inside.
        let bodies = BodyIndices::new([0, 1, 2, 3, 0, 1, 2, 3], [3, 3, 3, 3, 3, 3, 3, 4]);
        let caught = |f: &mut dyn FnMut()| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err()
        };
        assert!(caught(&mut || {
            gather(Baseline, &states, bodies.a());
        }));
        assert!(caught(&mut || {
            super::super::gather(&states, bodies.b());
        }));
        assert!(caught(&mut || {
            gather(Baseline, &states, bodies.b());
        }));
        let fine = BodyIndices::new([0; LANES], [3; LANES]);
        let rows = gather(Baseline, &states, fine.b());
        let mut written = states.clone();
        assert!(caught(&mut || scatter(&mut written, bodies.a(), &rows)));
        assert_eq!(written, states, "nothing written before the panic");
        let mut five = vec![BodyState::IDENTITY; 5];
        gather(Baseline, &five, bodies.b());
        scatter(&mut five, bodies.b(), &rows);
    }
}
