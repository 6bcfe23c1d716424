//! Giving freed memory back: glibc keeps freed pages in its arenas, so a peak (a dataset
//! load, a flood of connections) would stay in the resident size for good. Without glibc
//! this does nothing.

/// Returns every free page to the kernel: a heap walk of a few milliseconds, so only after a
/// peak, never per request.
pub fn release_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim has no preconditions; it only returns free pages to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
}
