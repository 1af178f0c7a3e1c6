//! Cache prefetch hints for passes that know which values they will read
//! next: the narrow phase's serial and parallel passes, the proxy
//! enlargement, the tree queries and rebuild, the wide contact preparation.
//!
//! A hint only: it changes no value, reads nothing the program sees and
//! cannot fault, so any address will do, even one past an allocation or
//! not mapped at all. On x86-64 it is SSE's `prefetcht0` (in every x86-64
//! CPU's baseline); elsewhere it does nothing.

/// Asks the CPU to bring the cache lines of the `bytes` bytes from `at` into
/// its first-level cache, without waiting for them (nothing for zero bytes).
#[inline(always)]
pub(crate) fn prefetch_bytes(at: *const u8, bytes: usize) {
    if bytes == 0 {
        return;
    }
    for offset in (0..bytes).step_by(64) {
        prefetch_line(at.wrapping_add(offset));
    }
    // The last line, where `at` is not on a line boundary.
    prefetch_line(at.wrapping_add(bytes - 1));
}

/// Asks the CPU to bring the value at `at` into its first-level cache, as
/// [`prefetch_bytes`] does for its bytes.
#[inline(always)]
pub(crate) fn prefetch_value<T>(at: *const T) {
    prefetch_bytes(at.cast(), size_of::<T>());
}

/// The hint for the cache line that holds `at`.
#[inline(always)]
fn prefetch_line(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 CPU has (it is in
    // the target's baseline features); it reads nothing the program sees and
    // cannot fault, whatever the address.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prefetch is a hint: any address, even one that is not mapped, and
    /// any length are fine, and nothing changes.
    #[test]
    fn a_prefetch_anywhere_is_harmless() {
        let data = [1.5f32; 100];
        prefetch_bytes(data.as_ptr().cast(), size_of_val(&data));
        prefetch_value(&data);
        prefetch_bytes(std::ptr::null(), 1280);
        prefetch_bytes(std::ptr::without_provenance(usize::MAX - 63), 64);
        prefetch_bytes(std::ptr::null(), 0);
        prefetch_value(std::ptr::without_provenance::<[u64; 40]>(usize::MAX - 8));
        assert_eq!(data, [1.5f32; 100]);
    }
}
