//! Hints to the processor that change no result.

/// Starts loading the first two cache lines of `value` into the cache, so that a read
/// a little later does not wait for memory. The world's update reads each pair's
/// record, both shapes' slots and tree leaves, and each touching pair's contact, at
/// scattered places; asking a few pairs ahead overlaps those misses with the work on
/// the pairs before (a 100,000-box scene spent most of its pair loops waiting).
/// Nothing on targets without a prefetch instruction.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (value as *const T).cast::<i8>();
        // SAFETY: a prefetch never faults and loads nothing the program sees; the
        // second address is computed without `offset`'s in-bounds requirement.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
    let _ = value;
}
