//! `F4`: four `f32` lanes with element-wise operations, written so that the
//! compiler turns them into SIMD instructions (SSE on x86-64, NEON on ARM)
//! without any `unsafe` or target-specific code.
//!
//! Every operation is the plain IEEE operation applied lane by lane, and
//! `max`/`min`/`select` are written as comparisons, so a lane computes exactly
//! what the scalar code computes for the same inputs: the wide contact solver
//! gives the same bits as the scalar one.

use std::ops::{Add, Mul, Neg, Sub};

/// Number of lanes.
pub(crate) const LANES: usize = 4;

/// Four `f32` lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct F4(pub [f32; LANES]);

/// A lane mask (the result of a comparison).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct M4(pub [bool; LANES]);

impl F4 {
    pub(crate) const ZERO: F4 = F4([0.0; LANES]);

    #[inline(always)]
    pub(crate) fn splat(x: f32) -> F4 {
        F4([x; LANES])
    }

    #[inline(always)]
    fn map2(self, o: F4, f: impl Fn(f32, f32) -> f32) -> F4 {
        F4(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }

    /// `self < o ? o : self`, lane by lane (the scalar [`max`] rule).
    #[inline(always)]
    pub(crate) fn max(self, o: F4) -> F4 {
        self.map2(o, max)
    }

    /// `o < self ? o : self`, lane by lane (the scalar [`min`] rule).
    #[inline(always)]
    pub(crate) fn min(self, o: F4) -> F4 {
        self.map2(o, min)
    }

    /// Lanes where `self != o`.
    #[inline(always)]
    pub(crate) fn ne(self, o: F4) -> M4 {
        M4(std::array::from_fn(|i| self.0[i] != o.0[i]))
    }

    /// Lanes where `self > o`.
    #[inline(always)]
    pub(crate) fn gt(self, o: F4) -> M4 {
        M4(std::array::from_fn(|i| self.0[i] > o.0[i]))
    }
}

impl M4 {
    /// Whether any lane is set.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        self.0.iter().any(|&b| b)
    }

    /// Lanes set in both.
    #[inline(always)]
    pub(crate) fn and(self, o: M4) -> M4 {
        M4(std::array::from_fn(|i| self.0[i] && o.0[i]))
    }

    /// Lanes not set.
    #[inline(always)]
    pub(crate) fn not(self) -> M4 {
        M4(std::array::from_fn(|i| !self.0[i]))
    }

    /// `if_true` where the mask is set, else `if_false`.
    #[inline(always)]
    pub(crate) fn select(self, if_true: F4, if_false: F4) -> F4 {
        F4(std::array::from_fn(|i| {
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
        impl $trait for F4 {
            type Output = F4;
            #[inline(always)]
            fn $fn(self, o: F4) -> F4 {
                self.map2(o, |a, b| a $op b)
            }
        }
    };
}

lane_op!(Add, add, +);
lane_op!(Sub, sub, -);
lane_op!(Mul, mul, *);

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        let mut r = self.0;
        for x in &mut r {
            *x = -*x;
        }
        F4(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_match_scalar_rules() {
        let a = F4([1.0, -2.0, 0.0, 5.0]);
        let b = F4([0.5, 3.0, -0.0, 5.0]);
        assert_eq!(a.max(b).0, [1.0, 3.0, 0.0, 5.0]);
        assert_eq!(a.min(b).0, [0.5, -2.0, 0.0, 5.0]);
        for i in 0..LANES {
            assert_eq!(a.max(b).0[i].to_bits(), max(a.0[i], b.0[i]).to_bits());
            assert_eq!(a.min(b).0[i].to_bits(), min(a.0[i], b.0[i]).to_bits());
        }
        assert_eq!((a + b).0, [1.5, 1.0, 0.0, 10.0]);
        assert_eq!((a - b).0, [0.5, -5.0, 0.0, 0.0]);
        assert_eq!((a * b).0, [0.5, -6.0, -0.0, 25.0]);
        assert_eq!(a.gt(b).0, [true, false, false, false]);
        assert_eq!(a.gt(b).select(a, b).0, [1.0, 3.0, -0.0, 5.0]);
        assert_eq!((-a).0, [-1.0, 2.0, -0.0, -5.0]);
    }
}
