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

use std::ops::{Add, Mul, Neg, Sub};

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
    pub(crate) const ZERO: FloatW = FloatW([0.0; LANES]);

    #[inline(always)]
    pub(crate) fn splat(x: f32) -> FloatW {
        FloatW([x; LANES])
    }

    #[inline(always)]
    fn map2(self, o: FloatW, f: impl Fn(f32, f32) -> f32) -> FloatW {
        FloatW(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }

    /// `self < o ? o : self`, lane by lane (the scalar [`max`] rule).
    #[inline(always)]
    pub(crate) fn max(self, o: FloatW) -> FloatW {
        self.map2(o, max)
    }

    /// `o < self ? o : self`, lane by lane (the scalar [`min`] rule).
    #[inline(always)]
    pub(crate) fn min(self, o: FloatW) -> FloatW {
        self.map2(o, min)
    }

    /// Lanes where `self != o`.
    #[inline(always)]
    pub(crate) fn ne(self, o: FloatW) -> MaskW {
        MaskW(std::array::from_fn(|i| self.0[i] != o.0[i]))
    }

    /// Lanes where `self > o`.
    #[inline(always)]
    pub(crate) fn gt(self, o: FloatW) -> MaskW {
        MaskW(std::array::from_fn(|i| self.0[i] > o.0[i]))
    }
}

impl MaskW {
    /// Whether any lane is set.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        self.0.iter().any(|&b| b)
    }

    /// Lanes set in both.
    #[inline(always)]
    pub(crate) fn and(self, o: MaskW) -> MaskW {
        MaskW(std::array::from_fn(|i| self.0[i] && o.0[i]))
    }

    /// Lanes not set.
    #[inline(always)]
    pub(crate) fn not(self) -> MaskW {
        MaskW(std::array::from_fn(|i| !self.0[i]))
    }

    /// `if_true` where the mask is set, else `if_false`.
    #[inline(always)]
    pub(crate) fn select(self, if_true: FloatW, if_false: FloatW) -> FloatW {
        FloatW(std::array::from_fn(|i| {
            if self.0[i] {
                if_true.0[i]
            } else {
                if_false.0[i]
            }
        }))
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

macro_rules! lane_op {
    ($trait:ident, $fn:ident, $op:tt) => {
        impl $trait for FloatW {
            type Output = FloatW;
            #[inline(always)]
            fn $fn(self, o: FloatW) -> FloatW {
                self.map2(o, |a, b| a $op b)
            }
        }
    };
}

lane_op!(Add, add, +);
lane_op!(Sub, sub, -);
lane_op!(Mul, mul, *);

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
        let gt = a.gt(b);
        assert!((0..LANES).all(|i| gt.0[i] == (i % 4 == 0)));
        assert_eq!(gt.select(a, b), lanes([1.0, 3.0, -0.0, 5.0]));
        assert_eq!(-a, lanes([-1.0, 2.0, -0.0, -5.0]));
    }
}
