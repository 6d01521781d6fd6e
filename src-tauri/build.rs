fn main() {
    // Capabilities and the app's own permissions live beside the shell's sources,
    // not at the repository root. Declaring the app's permissions turns on the
    // check of app commands too: the window may call only what a capability lists.
    println!("cargo:rerun-if-changed=src-tauri/permissions");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(
            tauri_build::AppManifest::new()
                .permissions_path_pattern("./src-tauri/permissions/**/*"),
        );
    tauri_build::try_build(attributes).expect("tauri build script failed");
}
