//! `FloatW`: eight `f32` lanes with element-wise operations, written so that the
//! compiler turns them into SIMD instructions (two SSE registers on baseline x86-64,
//! one AVX register in the x86-64-v3 build of the kernels that `simd.rs` selects at
//! run time, NEON on ARM) without any `unsafe` or target-specific code. Eight lanes
//! match Box2D's AVX2 width; they are a little faster than four even on SSE (fewer
//! gathers and loop trips per constraint) and about a quarter faster on AVX2.
//!
//! Every operation is the plain IEEE operation applied lane by lane, and
//! `max`/`min`/`select` are written as comparisons, so a lane computes exactly
//! what the scalar code computes for the same inputs: the wide contact solver
//! gives the same bits as the scalar one.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// Number of lanes: constraints solved side by side.
pub(crate) const LANES: usize = 8;

/// [`LANES`] `f32` lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct FloatW(pub [f32; LANES]);

/// A lane mask (the result of a comparison).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MaskW(pub [bool; LANES]);

impl FloatW {
    #[inline(always)]
    pub(crate) fn splat(x: f32) -> FloatW {
        FloatW([x; LANES])
    }

    #[inline(always)]
    fn map2(self, o: FloatW, f: impl Fn(f32, f32) -> f32) -> FloatW {
        FloatW(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }
}

/// The scalar maximum used by both contact solvers: `a < b ? b : a`.
#[inline(always)]
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a < b { b } else { a }
}

/// The scalar minimum used by both contact solvers: `b < a ? b : a`.
#[inline(always)]
pub(crate) fn min(a: f32, b: f32) -> f32 {
    if b < a { b } else { a }
}

/// `impl $trait for $ty`: `$fn(a, b)` is `$body`.
macro_rules! binary_op {
    ($ty:ident, $trait:ident, $fn:ident, |$a:ident, $b:ident| $body:expr) => {
        impl $trait for $ty {
            type Output = $ty;
            #[inline(always)]
            fn $fn(self, o: $ty) -> $ty {
                let ($a, $b) = (self, o);
                $body
            }
        }
    };
}

binary_op!(FloatW, Add, add, |a, b| a.map2(b, |x, y| x + y));
binary_op!(FloatW, Sub, sub, |a, b| a.map2(b, |x, y| x - y));
binary_op!(FloatW, Mul, mul, |a, b| a.map2(b, |x, y| x * y));
binary_op!(FloatW, Div, div, |a, b| a.map2(b, |x, y| x / y));

impl Neg for FloatW {
    type Output = FloatW;
    #[inline(always)]
    fn neg(self) -> FloatW {
        let mut r = self.0;
        for x in &mut r {
            *x = -*x;
        }
        FloatW(r)
    }
}

/// Eight lanes as the wide kernels compute with them: [`FloatW`] (arrays that
/// LLVM vectorises), or in the x86-64-v3 build [`F256`] (one AVX register).
/// Every operation is [`FloatW`]'s, with the same bits.
pub(crate) trait Lane:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The result of a comparison.
    type Mask: LaneMask<Self>;
    /// Whether the row gather and scatter pass these lanes through memory
    /// (`black_box`), so that LLVM keeps the kernels' arithmetic eight lanes
    /// wide: the lane arrays need it, AVX registers do not. (x86-64 only: the
    /// row form's.)
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const THROUGH_MEMORY: bool;
    /// `self < o ? o : self`, lane by lane (the scalar [`max`]).
    fn max(self, o: Self) -> Self;
    /// `o < self ? o : self`, lane by lane (the scalar [`min`]).
    fn min(self, o: Self) -> Self;
    /// Lanes where `self > o`.
    fn gt(self, o: Self) -> Self::Mask;
    /// Lanes where `self != o`.
    fn ne(self, o: Self) -> Self::Mask;
    /// Lanes that are neither infinite nor NaN (the scalar `is_finite`).
    fn finite(self) -> Self::Mask;
    /// The square root of each lane (IEEE, correctly rounded: `f32::sqrt`).
    /// (x86-64 only: the grouped position integration's.)
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn sqrt(self) -> Self;
    /// The lanes as stored.
    fn lanes(self) -> FloatW;
}

/// A lane mask of a [`Lane`] type: [`MaskW`]'s operations.
pub(crate) trait LaneMask<F>: Copy {
    /// Whether any lane is set.
    fn any(self) -> bool;
    /// Lanes set in both.
    fn and(self, o: Self) -> Self;
    /// Lanes not set.
    fn not(self) -> Self;
    /// `if_true` where the mask is set, else `if_false`.
    fn select(self, if_true: F, if_false: F) -> F;
}

/// Makes the [`Lane`] values of one build: the lane arrays ([`LaneMath`],
/// `simd::isa::Baseline` on x86-64) or, in the x86-64-v3 build,
/// `simd::isa::Avx2` (AVX registers).
pub(crate) trait Math: Copy {
    /// The lanes this build computes with.
    type F: Lane;
    /// Stored lanes as [`Self::F`].
    fn ld(self, x: FloatW) -> Self::F;
    /// `x` in every lane.
    fn splat(self, x: f32) -> Self::F;
}

/// The [`Math`] of the lane arrays, [`FloatW`] itself: the build for the
/// compilation target (`simd::isa::Baseline` on x86-64).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneMath;

impl Math for LaneMath {
    type F = FloatW;
    #[inline(always)]
    fn ld(self, x: FloatW) -> FloatW {
        x
    }
    #[inline(always)]
    fn splat(self, x: f32) -> FloatW {
        FloatW::splat(x)
    }
}

impl Lane for FloatW {
    type Mask = MaskW;
    const THROUGH_MEMORY: bool = true;

    /// `self < o ? o : self`, lane by lane (the scalar [`max`] rule).
    #[inline(always)]
    fn max(self, o: FloatW) -> FloatW {
        self.map2(o, max)
    }

    /// `o < self ? o : self`, lane by lane (the scalar [`min`] rule).
    #[inline(always)]
    fn min(self, o: FloatW) -> FloatW {
        self.map2(o, min)
    }

    /// Lanes where `self > o`.
    #[inline(always)]
    fn gt(self, o: FloatW) -> MaskW {
        MaskW(std::array::from_fn(|i| self.0[i] > o.0[i]))
    }

    /// Lanes where `self != o`.
    #[inline(always)]
    fn ne(self, o: FloatW) -> MaskW {
        MaskW(std::array::from_fn(|i| self.0[i] != o.0[i]))
    }

    /// Lanes that are neither infinite nor NaN.
    #[inline(always)]
    fn finite(self) -> MaskW {
        MaskW(self.0.map(f32::is_finite))
    }

    #[inline(always)]
    fn sqrt(self) -> FloatW {
        FloatW(self.0.map(f32::sqrt))
    }

    #[inline(always)]
    fn lanes(self) -> FloatW {
        self
    }
}

impl LaneMask<FloatW> for MaskW {
    /// Whether any lane is set.
    #[inline(always)]
    fn any(self) -> bool {
        self.0.iter().any(|&b| b)
    }

    /// Lanes set in both.
    #[inline(always)]
    fn and(self, o: MaskW) -> MaskW {
        MaskW(std::array::from_fn(|i| self.0[i] && o.0[i]))
    }

    /// Lanes not set.
    #[inline(always)]
    fn not(self) -> MaskW {
        MaskW(std::array::from_fn(|i| !self.0[i]))
    }

    /// `if_true` where the mask is set, else `if_false`.
    #[inline(always)]
    fn select(self, if_true: FloatW, if_false: FloatW) -> FloatW {
        FloatW(std::array::from_fn(|i| {
            if self.0[i] {
                if_true.0[i]
            } else {
                if_false.0[i]
            }
        }))
    }
}

/// [`F256`]: eight lanes in one AVX register, for the x86-64-v3 build.
#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{FloatW, Lane, LaneMask, Math};
    use crate::simd::isa::Avx2;
    use std::arch::x86_64::{
        __m256, _CMP_GT_OQ, _CMP_LT_OQ, _CMP_NEQ_UQ, _mm256_add_ps, _mm256_and_ps,
        _mm256_andnot_ps, _mm256_blendv_ps, _mm256_cmp_ps, _mm256_div_ps, _mm256_max_ps,
        _mm256_min_ps, _mm256_movemask_ps, _mm256_mul_ps, _mm256_sqrt_ps, _mm256_sub_ps,
        _mm256_xor_ps,
    };
    use std::ops::{Add, Div, Mul, Neg, Sub};

    /// Eight `f32` lanes in an AVX register. A value exists only where the
    /// CPU has AVX: it is made from an [`Avx2`] (the proof, see
    /// `simd::isa::Isa`) or from other `F256` values, so its operations may
    /// use AVX instructions.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct F256(__m256);

    /// A lane mask of [`F256`] (all ones or all zeros per lane), from the same
    /// proof.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct M256(__m256);

    /// Runs `f`, an AVX operation.
    // SAFETY (for every caller): the operands are `F256` or `M256` values, which
    // exist only where the CPU has AVX (see `F256`).
    macro_rules! avx {
        ($e:expr) => {{
            #[allow(unsafe_code)]
            let r = unsafe { $e };
            r
        }};
    }

    impl Math for Avx2 {
        type F = F256;
        #[inline(always)]
        fn ld(self, x: FloatW) -> F256 {
            // SAFETY: both are 32 bytes of eight `f32`; any bits are valid.
            #[allow(unsafe_code)]
            F256(unsafe { std::mem::transmute::<FloatW, __m256>(x) })
        }
        #[inline(always)]
        fn splat(self, x: f32) -> F256 {
            self.ld(FloatW::splat(x))
        }
    }

    // `F256 op F256` as one AVX instruction.
    binary_op!(F256, Add, add, |a, b| F256(avx!(_mm256_add_ps(a.0, b.0))));
    binary_op!(F256, Sub, sub, |a, b| F256(avx!(_mm256_sub_ps(a.0, b.0))));
    binary_op!(F256, Mul, mul, |a, b| F256(avx!(_mm256_mul_ps(a.0, b.0))));
    // IEEE division, correctly rounded in every lane as the scalar `/`.
    binary_op!(F256, Div, div, |a, b| F256(avx!(_mm256_div_ps(a.0, b.0))));

    impl Neg for F256 {
        type Output = F256;
        /// The sign bit flipped, as IEEE negation (and [`FloatW`]'s).
        #[inline(always)]
        fn neg(self) -> F256 {
            let sign = Avx2::splat_unchecked(-0.0);
            F256(avx!(_mm256_xor_ps(self.0, sign)))
        }
    }

    impl Avx2 {
        /// `x` in every lane, as a raw register.
        #[inline(always)]
        fn splat_unchecked(x: f32) -> __m256 {
            // SAFETY: as in `ld`.
            #[allow(unsafe_code)]
            unsafe {
                std::mem::transmute::<FloatW, __m256>(FloatW::splat(x))
            }
        }
    }

    impl Lane for F256 {
        type Mask = M256;
        const THROUGH_MEMORY: bool = false;
        /// `self < o ? o : self`: `vmaxps(o, self)` gives `o` where `o > self`,
        /// else its second operand, `self` (NaNs and equal zeros included).
        #[inline(always)]
        fn max(self, o: F256) -> F256 {
            F256(avx!(_mm256_max_ps(o.0, self.0)))
        }
        /// `o < self ? o : self`: `vminps(o, self)`, as in `max`.
        #[inline(always)]
        fn min(self, o: F256) -> F256 {
            F256(avx!(_mm256_min_ps(o.0, self.0)))
        }
        /// `self > o` (false where either is NaN).
        #[inline(always)]
        fn gt(self, o: F256) -> M256 {
            M256(avx!(_mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0)))
        }
        /// `self != o` (true where either is NaN).
        #[inline(always)]
        fn ne(self, o: F256) -> M256 {
            M256(avx!(_mm256_cmp_ps::<_CMP_NEQ_UQ>(self.0, o.0)))
        }
        /// `|self| < ∞` (the sign bit cleared; false for ±∞ and NaN).
        #[inline(always)]
        fn finite(self) -> M256 {
            let sign = Avx2::splat_unchecked(-0.0);
            let magnitude = avx!(_mm256_andnot_ps(sign, self.0));
            let infinity = Avx2::splat_unchecked(f32::INFINITY);
            M256(avx!(_mm256_cmp_ps::<_CMP_LT_OQ>(magnitude, infinity)))
        }
        /// `vsqrtps`: correctly rounded, as `f32::sqrt`.
        #[inline(always)]
        fn sqrt(self) -> F256 {
            F256(avx!(_mm256_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn lanes(self) -> FloatW {
            // SAFETY: as in `ld`.
            #[allow(unsafe_code)]
            unsafe {
                std::mem::transmute::<__m256, FloatW>(self.0)
            }
        }
    }

    impl LaneMask<F256> for M256 {
        #[inline(always)]
        fn any(self) -> bool {
            avx!(_mm256_movemask_ps(self.0)) != 0
        }
        #[inline(always)]
        fn and(self, o: M256) -> M256 {
            M256(avx!(_mm256_and_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn not(self) -> M256 {
            let ones = f32::from_bits(u32::MAX);
            M256(avx!(_mm256_xor_ps(self.0, Avx2::splat_unchecked(ones))))
        }
        /// Each lane's sign bit (the comparison's all-ones) picks `if_true`.
        #[inline(always)]
        fn select(self, if_true: F256, if_false: F256) -> F256 {
            F256(avx!(_mm256_blendv_ps(if_false.0, if_true.0, self.0)))
        }
    }
}

/// The x86-64-v3 build's proof, for a test of its kernels: `None` (and a
/// note that the test is skipped) where this CPU does not run that build.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn test_avx2() -> Option<crate::simd::isa::Avx2> {
    if !crate::simd::SimdPath::avx2_available() {
        eprintln!("no AVX2 on this CPU: skipped");
        return None;
    }
    // SAFETY: the CPU has every x86-64-v3 feature (just detected).
    #[allow(unsafe_code)]
    Some(unsafe { crate::simd::isa::Avx2::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lanes from the first values of `v`, repeated.
    fn lanes(v: [f32; 4]) -> FloatW {
        FloatW(std::array::from_fn(|i| v[i % 4]))
    }

    #[test]
    fn lanes_match_scalar_rules() {
        let a = lanes([1.0, -2.0, 0.0, 5.0]);
        let b = lanes([0.5, 3.0, -0.0, 5.0]);
        assert_eq!(a.max(b), lanes([1.0, 3.0, 0.0, 5.0]));
        assert_eq!(a.min(b), lanes([0.5, -2.0, 0.0, 5.0]));
        for i in 0..LANES {
            assert_eq!(a.max(b).0[i].to_bits(), max(a.0[i], b.0[i]).to_bits());
            assert_eq!(a.min(b).0[i].to_bits(), min(a.0[i], b.0[i]).to_bits());
        }
        assert_eq!(a + b, lanes([1.5, 1.0, 0.0, 10.0]));
        assert_eq!(a - b, lanes([0.5, -5.0, 0.0, 0.0]));
        assert_eq!(a * b, lanes([0.5, -6.0, -0.0, 25.0]));
        let q = a / b;
        assert_eq!(q.0[0], 2.0);
        assert_eq!(q.0[1], -2.0 / 3.0);
        assert!(q.0[2].is_nan(), "0 / -0");
        assert_eq!(q.0[3], 1.0);
        let gt = a.gt(b);
        assert!((0..LANES).all(|i| gt.0[i] == (i % 4 == 0)));
        assert_eq!(gt.select(a, b), lanes([1.0, 3.0, -0.0, 5.0]));
        assert_eq!(-a, lanes([-1.0, 2.0, -0.0, -5.0]));
        let odd = lanes([f32::INFINITY, f32::NAN, -f32::MAX, f32::NEG_INFINITY]);
        let finite = odd.finite();
        assert!((0..LANES).all(|i| finite.0[i] == (i % 4 == 2)));
    }
    /// Every operation of the AVX lanes (`F256`, the x86-64-v3 build) gives
    /// the bits of the lane arrays' on awkward floats (NaNs with payloads,
    /// ±0, ±∞, subnormals, random bits), where the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_lanes_match_lane_arrays_bit_for_bit() {
        let Some(isa) = test_avx2() else { return };
        // xorshift64 (the shared test `Rng` is already a module of `rows`).
        let mut state = 0x5EED_0256_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut awkward = || {
            let r = next();
            let mut below = |n: u64| (next() % n) as usize;
            let sign = ((r >> 32) as u32) & 0x8000_0000;
            let payload = (r as u32) & 0x007F_FFFF;
            f32::from_bits(match below(7) {
                0 => sign | 0x7F80_0000 | payload.max(1),
                1 => sign,
                2 => sign | 0x7F80_0000,
                3 => sign | payload,
                4 => [1.0f32, -1.0, 0.5][below(3)].to_bits(),
                _ => (r >> 16) as u32,
            })
        };
        let bits = |x: FloatW| x.0.map(f32::to_bits);
        let mut compared = 0;
        for _ in 0..2000 {
            let (a, b, c, d) = (
                FloatW(std::array::from_fn(|_| awkward())),
                FloatW(std::array::from_fn(|_| awkward())),
                FloatW(std::array::from_fn(|_| awkward())),
                FloatW(std::array::from_fn(|_| awkward())),
            );
            let (va, vb, vc, vd) = (isa.ld(a), isa.ld(b), isa.ld(c), isa.ld(d));
            assert_eq!(bits(va.lanes()), bits(a));
            // Where both operands are NaN, which one's payload the result
            // carries depends on the order LLVM puts them in (it may swap
            // the operands of an addition or product: Rust leaves a computed
            // NaN's payload unspecified), so those lanes compare as one NaN.
            let both_nan = |x: FloatW| {
                let mut out = bits(x);
                for (i, w) in out.iter_mut().enumerate() {
                    if a.0[i].is_nan() && b.0[i].is_nan() {
                        *w = if f32::from_bits(*w).is_nan() {
                            u32::MAX
                        } else {
                            *w
                        };
                    }
                }
                out
            };
            assert_eq!(both_nan((va + vb).lanes()), both_nan(a + b));
            assert_eq!(both_nan((va - vb).lanes()), both_nan(a - b));
            assert_eq!(both_nan((va * vb).lanes()), both_nan(a * b));
            assert_eq!(both_nan((va / vb).lanes()), both_nan(a / b));
            assert_eq!(bits((-va).lanes()), bits(-a));
            assert_eq!(bits(Lane::max(va, vb).lanes()), bits(a.max(b)));
            assert_eq!(bits(Lane::min(va, vb).lanes()), bits(a.min(b)));
            let (gt, ne) = (Lane::gt(va, vb), Lane::ne(vc, vd));
            let (gt_w, ne_w) = (a.gt(b), c.ne(d));
            assert_eq!(bits(gt.select(vc, vd).lanes()), bits(gt_w.select(c, d)));
            assert_eq!(bits(ne.select(va, vb).lanes()), bits(ne_w.select(a, b)));
            let finite = Lane::finite(va);
            assert_eq!(
                bits(finite.select(vc, vd).lanes()),
                bits(a.finite().select(c, d))
            );
            let both = gt.and(ne.not());
            let both_w = gt_w.and(ne_w.not());
            assert_eq!(bits(both.select(va, vd).lanes()), bits(both_w.select(a, d)));
            assert_eq!(LaneMask::any(both), both_w.any());
            assert_eq!(LaneMask::any(gt), gt_w.any());
            assert_eq!(bits(isa.splat(a.0[3]).lanes()), bits(FloatW::splat(a.0[3])));
            compared += usize::from(both_w.any() && !both_w.0.iter().all(|&x| x));
        }
        assert!(compared > 100, "{compared} mixed masks");
    }
}
