//! Giving freed heap memory back to the system after the work that allocates
//! most at once. glibc keeps what a thread frees in its arena for later
//! allocations and gives back only a heap's free top: after the NFT grid's read
//! of a large listing (the service's answer, its parsed form, the grid's JSON)
//! the process would otherwise hold that peak for as long as it runs.

/// Returns the free pages of every malloc arena to the system (glibc's
/// `malloc_trim`; nothing elsewhere). A few milliseconds: call it off the
/// page's way (`spawn_blocking`).
pub fn give_back_freed_memory() {
    // The app's one `unsafe` (the crate denies it elsewhere).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: malloc_trim takes no pointer and releases only pages no
    // allocation holds; glibc locks each arena while it trims it, so other
    // threads may allocate meanwhile.
    unsafe {
        libc::malloc_trim(0);
    }
}
