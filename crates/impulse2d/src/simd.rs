//! Which build of the hot loops a world runs: [`SimdPath`], chosen once when the
//! world is created.
//!
//! The solver's stages, the narrow phase's manifold updates and the body
//! finalization are written once as `#[inline(always)]` kernels and compiled
//! twice on x86-64: for the target the crate is built for (baseline x86-64, SSE2,
//! unless the builder asks for more) and inside a function compiled for
//! x86-64-v3 (AVX2, BMI1/2, F16C, FMA, LZCNT, MOVBE), through `dispatch!`. Which
//! one runs is decided by CPU detection (`is_x86_feature_detected!`) when the
//! world is created, or forced through [`WorldDef::simd`](crate::WorldDef::simd).
//!
//! Both builds compute the same bits: every operation is a plain IEEE operation
//! and Rust never contracts a multiply and an add into a fused multiply-add (the
//! FMA instructions are available to the v3 build but never emitted, because
//! nothing asks for `mul_add`), so the choice changes speed only.
//!
//! On other targets there is one build (the lanes compile to NEON on aarch64).

use crate::error::{Error, Result};

/// Which build of the hot loops (wide contact solver, joint and body stages,
/// manifold updates) a [`World`](crate::World) runs. Every path gives the same
/// bits; they differ only in speed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SimdPath {
    /// The fastest path this CPU runs: [`SimdPath::Avx2`] where the CPU has
    /// AVX2, FMA, BMI1/2, F16C, LZCNT and MOVBE (x86-64-v3), else
    /// [`SimdPath::Baseline`]. The default.
    #[default]
    Auto,
    /// The build for the compilation target (SSE2 on a default x86-64 build;
    /// NEON on aarch64).
    Baseline,
    /// The x86-64-v3 build (256-bit AVX2 lanes). [`World::new`](crate::World::new)
    /// fails when the CPU lacks it, or on targets other than x86-64.
    Avx2,
}

impl SimdPath {
    /// Whether this CPU can run [`SimdPath::Avx2`] (always `false` off x86-64).
    pub fn avx2_available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx")
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("f16c")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("movbe")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("sse4.2")
                && std::arch::is_x86_feature_detected!("ssse3")
                && std::arch::is_x86_feature_detected!("cmpxchg16b")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The path a world made with this setting runs: `Auto` resolved by CPU
    /// detection; never `Auto`.
    ///
    /// # Errors
    /// [`Error::InvalidOperation`] for [`SimdPath::Avx2`] on a CPU (or target)
    /// without it.
    pub fn resolve(self) -> Result<SimdPath> {
        match self {
            SimdPath::Auto if SimdPath::avx2_available() => Ok(SimdPath::Avx2),
            SimdPath::Auto | SimdPath::Baseline => Ok(SimdPath::Baseline),
            SimdPath::Avx2 if SimdPath::avx2_available() => Ok(SimdPath::Avx2),
            SimdPath::Avx2 => Err(Error::InvalidOperation(
                "SimdPath::Avx2 needs an x86-64 CPU with AVX2, FMA, BMI1/2, F16C, LZCNT and MOVBE",
            )),
        }
    }

    /// A short name: `"auto"`, `"baseline"` or `"avx2"`.
    pub fn name(self) -> &'static str {
        match self {
            SimdPath::Auto => "auto",
            SimdPath::Baseline => "baseline",
            SimdPath::Avx2 => "avx2",
        }
    }
}

impl std::str::FromStr for SimdPath {
    type Err = Error;

    /// Reads [`SimdPath::name`] back (`auto`, `baseline`, `avx2`).
    fn from_str(s: &str) -> Result<SimdPath> {
        match s {
            "auto" => Ok(SimdPath::Auto),
            "baseline" => Ok(SimdPath::Baseline),
            "avx2" => Ok(SimdPath::Avx2),
            _ => Err(Error::InvalidOperation(
                "unknown SIMD path (expected auto, baseline or avx2)",
            )),
        }
    }
}

impl std::fmt::Display for SimdPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Defines `name(simd, args…)`, which runs the `#[inline(always)]` function
/// `kernel(args…)` compiled for the world's resolved [`SimdPath`]: on x86-64
/// the kernel is compiled twice, for the crate's target (baseline) and inside a
/// function built for x86-64-v3.
///
/// ```ignore
/// #[inline(always)]
/// fn scale_kernel(v: &mut [f32], k: f32) { for x in v { *x *= k } }
/// multiversion!(
///     /// Docs.
///     fn scale(v: &mut [f32], k: f32) = scale_kernel
/// );
/// scale(world.simd, &mut v, 2.0);
/// ```
///
/// Generic parameters go in brackets after the name:
/// `fn each[F: FnMut(u32)](f: &mut F) = each_kernel`.
///
/// Every `#[inline(always)]` function the kernel calls is compiled into both
/// builds too; an out-of-line call stays a call to the one baseline copy. The
/// dispatch costs one branch per call, so it wraps loops over a block of work.
macro_rules! multiversion {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident $([$($gen:tt)*])? ($($arg:ident : $ty:ty),* $(,)?)
        $(-> $ret:ty)? = $kernel:path $(, $isa:ident)?
    ) => {
        $(#[$attr])*
        $vis fn $name $(<$($gen)*>)? (
            simd: $crate::simd::SimdPath,
            $($arg: $ty),*
        ) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx,avx2,bmi1,bmi2,f16c,fma,lzcnt,movbe,popcnt")]
            #[target_feature(enable = "sse3,ssse3,sse4.1,sse4.2,cmpxchg16b")]
            fn x86_64_v3 $(<$($gen)*>)? ($($arg: $ty),*) $(-> $ret)? {
                $crate::simd::kernel_call!($kernel, Avx2 $(, $isa)?; $($arg),*)
            }

            #[cfg(target_arch = "x86_64")]
            if simd == $crate::simd::SimdPath::Avx2 {
                // SAFETY: a world's path is `Avx2` only after `SimdPath::resolve`
                // detected every feature `x86_64_v3` is compiled for.
                #[allow(unsafe_code)]
                let result = unsafe { x86_64_v3($($arg),*) };
                return result;
            }
            let _ = simd;
            $crate::simd::kernel_call!($kernel, Baseline $(, $isa)?; $($arg),*)
        }
    };
}
pub(crate) use multiversion;

/// How `multiversion!` calls its kernel: `kernel(args…)`. On x86-64, a kernel
/// declared `= kernel, isa` also gets
/// the build it is compiled into as a value of type [`isa::Baseline`] or
/// [`isa::Avx2`] first, so that it may use that build's instructions.
#[cfg(target_arch = "x86_64")]
macro_rules! kernel_call {
    ($kernel:path, Avx2, isa; $($arg:ident),*) => {{
        // SAFETY: this is the body of `multiversion!`'s `x86_64_v3`, compiled
        // for the x86-64-v3 features and called only by the dispatch's `Avx2`
        // branch, which a world takes only after `SimdPath::resolve` detected
        // them: the CPU has every feature `Avx2::new` asks for.
        #[allow(unsafe_code)]
        let isa = unsafe { $crate::simd::isa::Avx2::new() };
        $kernel(isa, $($arg),*)
    }};
    ($kernel:path, Baseline, isa; $($arg:ident),*) => {
        $kernel($crate::simd::isa::Baseline, $($arg),*)
    };
    ($kernel:path, $build:ident; $($arg:ident),*) => { $kernel($($arg),*) };
}
/// How `multiversion!` calls its kernel: `kernel(args…)`.
#[cfg(not(target_arch = "x86_64"))]
macro_rules! kernel_call {
    ($kernel:path, $build:ident $(, $isa:ident)?; $($arg:ident),*) => { $kernel($($arg),*) };
}
pub(crate) use kernel_call;

/// The build of a `multiversion!` kernel as a type (x86-64): a kernel generic over [`Isa`](isa::Isa) may use AVX2
/// instructions where `I::AVX2`, on the strength of the value of `I` it was
/// handed, which only the x86-64-v3 build can make ([`isa::Avx2::new`]).
#[cfg(target_arch = "x86_64")]
pub(crate) mod isa {
    use crate::solver::lanes::Math;

    /// The build a kernel is compiled into.
    ///
    /// # Safety
    /// A value of an implementing type is a proof: it may exist only where the
    /// CPU running the program has every feature of its build (for `AVX2` true,
    /// those of `multiversion!`'s x86-64-v3 build, AVX2 and the rest), so that
    /// code holding one may run those instructions.
    ///
    /// It is also the build's [`Math`]: the lanes its kernels compute with.
    #[allow(unsafe_code)]
    pub(crate) unsafe trait Isa: Copy + Math {
        /// Whether it is the x86-64-v3 build (AVX2 and the rest of `multiversion!`'s list).
        const AVX2: bool;
    }

    /// The build for the compilation target (SSE2), which computes with the
    /// lane arrays (LLVM makes SSE of them): the lanes' [`LaneMath`].
    pub(crate) use crate::solver::lanes::LaneMath as Baseline;

    // SAFETY: the compilation target's features are on every CPU that runs
    // the program at all.
    #[allow(unsafe_code)]
    unsafe impl Isa for Baseline {
        const AVX2: bool = false;
    }

    /// The x86-64-v3 build. The private field keeps it from being built but
    /// through [`Avx2::new`].
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx2(());

    impl Avx2 {
        /// The proof that this CPU runs the x86-64-v3 build.
        ///
        /// # Safety
        /// The CPU must have every feature of `multiversion!`'s x86-64-v3
        /// build (what [`SimdPath::avx2_available`](super::SimdPath::avx2_available)
        /// detects). Only `multiversion!`'s `x86_64_v3` (through `kernel_call!`)
        /// and tests after `avx2_available` call it.
        #[allow(unsafe_code)]
        #[inline(always)]
        pub(crate) unsafe fn new() -> Avx2 {
            Avx2(())
        }
    }

    // SAFETY: a value exists only through `Avx2::new`, whose caller promises
    // the features.
    #[allow(unsafe_code)]
    unsafe impl Isa for Avx2 {
        const AVX2: bool = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_by_detection() {
        assert_eq!(SimdPath::Baseline.resolve(), Ok(SimdPath::Baseline));
        let auto = SimdPath::Auto.resolve().unwrap();
        assert_eq!(SimdPath::Avx2.resolve().is_ok(), SimdPath::avx2_available());
        let expected = if SimdPath::avx2_available() {
            SimdPath::Avx2
        } else {
            SimdPath::Baseline
        };
        assert_eq!(auto, expected);
        for p in [SimdPath::Auto, SimdPath::Baseline, SimdPath::Avx2] {
            assert_eq!(p.name().parse::<SimdPath>(), Ok(p));
        }
        assert!("sse".parse::<SimdPath>().is_err());
    }
}
