//! Giving freed memory back to the operating system. glibc keeps the pages of freed blocks
//! in its arenas unless asked, so a peak (a dataset being loaded, a flood of connections)
//! would otherwise stay in the server's resident size for good; `malloc_trim` returns every
//! free page, also from the middle of a heap. Without glibc this does nothing.

/// Returns the allocator's free pages to the operating system (a walk of the heap: a few
/// milliseconds, so only after a peak, never per request).
pub fn release_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim has no preconditions; it only returns free pages to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
}
