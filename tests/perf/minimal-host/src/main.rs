//! The desktop benchmark's host: the minimal window (`tests/perf/minimal-window`,
//! its page and its `mark_shown`) with Satchel's widget plugin added, the one
//! line an application adds to embed it. Started beside the minimal window, it
//! shows what the plugin costs a host that has not used it yet; through
//! WebDriver, its page opens the widget (`openWidget`) for the time to the
//! widget's first page and the host's memory with the widget open.

/// The page reports it is on screen (the benchmark's stopwatch), as the
/// minimal window's does.
#[tauri::command]
fn mark_shown(what: String) {
    if std::env::var("SATCHEL_PERF_MARKS").as_deref() == Ok("1") {
        println!("shown {what}");
    }
}

fn main() {
    #[allow(clippy::expect_used)] // a benchmark fixture: nothing to recover
    tauri::Builder::default()
        .plugin(tauri_plugin_satchel::init())
        .invoke_handler(tauri::generate_handler![mark_shown])
        .run(tauri::generate_context!())
        .expect("the minimal host runs");
}
