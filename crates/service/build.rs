// `sqlx::migrate!` embeds the migrations folder when the crate is compiled:
// a migration added or changed must rebuild it.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
