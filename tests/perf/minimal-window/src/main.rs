//! The baseline the desktop benchmark measures Satchel against: a Tauri window
//! showing one line of bundled text, built as the app is. Its page marks itself
//! shown as Satchel's do: after a paint, through a command that prints `shown
//! page` on standard output when `SATCHEL_PERF_MARKS=1`.

/// The page reports it is on screen (the benchmark's stopwatch), as Satchel's
/// `markShown` does.
#[tauri::command]
fn mark_shown(what: String) {
    if std::env::var("SATCHEL_PERF_MARKS").as_deref() == Ok("1") {
        println!("shown {what}");
    }
}

fn main() {
    #[allow(clippy::expect_used)] // a benchmark fixture: nothing to recover
    tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![mark_shown])
        .run(tauri::generate_context!())
        .expect("the minimal window runs");
}
