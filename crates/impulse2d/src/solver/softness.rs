//! Soft constraints: mass-independent stiffness and damping.
//!
//! A constraint `C = 0` solved softly behaves like a spring of natural
//! frequency `f` (hertz) and damping ratio `ζ` attached to the effective mass,
//! integrated implicitly over the substep `h`. With `ω = 2πf`:
//! `a1 = 2ζ + hω`, `a2 = hω·a1`, `a3 = 1 / (1 + a2)`, and the solver uses
//! `bias_rate = ω / a1`, `mass_scale = a2·a3`, `impulse_scale = a3`:
//!
//! `Δλ = −m_eff·(mass_scale·v + mass_scale·bias_rate·C) − impulse_scale·λ`.
//!
//! # References
//! - E. Catto, *Solver2D* (2024) and Box2D v3 `solver.h` (`b2MakeSoft`).
//! - E. Catto, *Soft Constraints*, GDC 2011.

use crate::math::PI;

/// Coefficients of a soft constraint for one substep.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Softness {
    /// Converts position error (m) into a velocity bias (m/s), 1/s.
    pub bias_rate: f32,
    /// Fraction of the rigid impulse applied (dimensionless, in [0, 1]).
    pub mass_scale: f32,
    /// Fraction of the accumulated impulse removed each iteration (in [0, 1]).
    pub impulse_scale: f32,
}

impl Softness {
    /// A rigid constraint with no position correction.
    pub const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// The coefficients for stiffness `hertz`, damping ratio `zeta` and substep `h` (s).
    pub(crate) fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz == 0.0 {
            return Softness::RIGID;
        }
        let omega = 2.0 * PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One soft iteration from rest impulse equals one implicit Euler step of
    /// the spring-damper `x'' = −k·x − c·x'` with `k = ω²`, `c = 2ζω` (unit
    /// mass): `v₂ = (v₁ − h·k·x₁) / (1 + h·c + h²·k)`.
    #[test]
    fn matches_implicit_euler_spring() {
        let (f, zeta, h) = (30.0f32, 10.0f32, 1.0 / 240.0);
        let s = Softness::new(f, zeta, h);
        let (x1, v1) = (-0.01f32, -0.5f32);
        // Soft impulse on a unit mass with nothing accumulated.
        let v2_soft = v1 - (s.mass_scale * v1 + s.mass_scale * s.bias_rate * x1);

        let omega = 2.0 * std::f64::consts::PI * f as f64;
        let (k, c, h) = (omega * omega, 2.0 * zeta as f64 * omega, h as f64);
        let v2_implicit = (v1 as f64 - h * k * x1 as f64) / (1.0 + h * c + h * h * k);
        assert!((v2_soft as f64 - v2_implicit).abs() < 1e-6);
    }

    #[test]
    fn zero_hertz_is_rigid() {
        assert_eq!(Softness::new(0.0, 1.0, 0.01), Softness::RIGID);
    }

    #[test]
    fn stiffer_spring_corrects_more() {
        let h = 1.0 / 240.0;
        let soft = Softness::new(30.0, 10.0, h);
        let stiff = Softness::new(60.0, 10.0, h);
        assert!(stiff.mass_scale * stiff.bias_rate > soft.mass_scale * soft.bias_rate);
        assert!(soft.mass_scale > 0.0 && soft.mass_scale < 1.0);
        assert!((soft.mass_scale + soft.impulse_scale - 1.0).abs() < 1e-6);
    }
}
