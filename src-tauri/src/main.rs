// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    few_malloc_arenas();
    satchel_app::run();
}

/// glibc gives each thread that allocates an arena of its own, up to eight a
/// core, and an arena keeps the memory it once held: the thumbnails' file reads
/// and renders on the runtime's blocking threads had the NFT tab's first screen
/// hold seven arenas. The app's threads take turns on two instead: in a probe
/// of the desktop benchmark's session, the app's process held 4-5 MiB less at
/// that screen (109.1 MiB against 104.5 and 105.1), the same on the wallet page.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn few_malloc_arenas() {
    // SAFETY: mallopt sets one of the allocator's tunables and has no
    // preconditions; this runs before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}
