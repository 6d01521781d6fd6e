fn main() {
    // Capabilities live beside the shell's sources, not at the repository root.
    let attributes =
        tauri_build::Attributes::new().capabilities_path_pattern("./src-tauri/capabilities/**/*");
    tauri_build::try_build(attributes).expect("tauri build script failed");
}
