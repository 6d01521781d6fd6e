//! The workspace's shape, checked from the workspace: no Rust file of any of
//! its crates imports in a circle (a file reached from another through
//! `crate::`/`super::` paths never reaches back to it). A circle is where a
//! foundation stops being readable and testable alone. The crates are the
//! workspace's members, read from its `Cargo.toml`: a new crate is checked
//! without being listed here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every member crate's source folder (`src/`, or `src-tauri/src` for the
/// app's package at the root), from the workspace's `members`, globs expanded.
fn crate_sources() -> Vec<PathBuf> {
    let root = root();
    let manifest =
        std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace's Cargo.toml");
    let members = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace's members");
    let mut sources = Vec::new();
    for member in members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
    {
        let dirs: Vec<PathBuf> = match member.strip_suffix("/*") {
            Some(parent) => std::fs::read_dir(root.join(parent))
                .expect("a members folder")
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("Cargo.toml").is_file())
                .collect(),
            None => vec![root.join(member)],
        };
        for dir in dirs {
            // The app's package keeps its sources in src-tauri/.
            let src = if member == "." {
                dir.join("src-tauri/src")
            } else {
                dir.join("src")
            };
            if src.is_dir() {
                sources.push(src);
            }
        }
    }
    sources.sort();
    sources
}

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The module a file is: `a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs` is the root.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file
        .strip_prefix(src)
        .expect("inside src")
        .with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

/// The paths a file names through `crate::` or `super::`, as module paths
/// (possibly longer than a module: items are cut off when resolving). Test
/// modules at the end of a file are left out.
fn named_paths(module: &Module, text: &str) -> Vec<Module> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| w.starts_with("crate::") || w.starts_with("super::"))
        .collect();
    for word in words {
        let mut parts = word.split("::").filter(|p| !p.is_empty());
        let mut path: Module = match parts.next() {
            Some("crate") => Vec::new(),
            // `super` of `a::b` (`a/b.rs` or `a/b/mod.rs`) is `a`.
            _ => module[..module.len().saturating_sub(1)].to_vec(),
        };
        for part in parts {
            if part == "super" {
                path.pop();
            } else {
                path.push(part.to_owned());
            }
        }
        found.push(path);
    }
    // `use crate::{a, b::c};` groups.
    for group in code.split("use crate::{").skip(1) {
        let inner = group.split("};").next().unwrap_or_default();
        let mut depth = 0;
        let mut item = String::new();
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    found.push(item.trim().split("::").map(str::to_owned).collect());
                    item.clear();
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        if !item.trim().is_empty() {
            found.push(item.trim().split("::").map(str::to_owned).collect());
        }
    }
    found
}

/// The longest known module a path starts with.
fn resolve(modules: &BTreeSet<Module>, path: &Module) -> Option<Module> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| modules.contains(m))
}

/// Groups of modules that reach each other (Tarjan's strongly connected
/// components), those of more than one module.
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on_stack: BTreeSet<Module>,
        found: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, m: &Module) {
            let n = self.index.len();
            self.index.insert(m.clone(), n);
            self.low.insert(m.clone(), n);
            self.stack.push(m.clone());
            self.on_stack.insert(m.clone());
            for next in self.edges.get(m).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[m].min(self.low[next]);
                    self.low.insert(m.clone(), low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[m].min(self.index[next]);
                    self.low.insert(m.clone(), low);
                }
            }
            if self.low[m] == self.index[m] {
                let mut group = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(&top);
                    let done = &top == m;
                    group.push(top);
                    if done {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for m in edges.keys() {
        if !walk.index.contains_key(m) {
            walk.visit(m);
        }
    }
    walk.found
}

fn graph_of(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let module = module_of(src, file);
        let text = std::fs::read_to_string(file).expect("a readable file");
        let targets: BTreeSet<Module> = named_paths(&module, &text)
            .iter()
            .filter_map(|p| resolve(&modules, p))
            // A file naming its own items, or a parent naming a child it declares,
            // is no dependency of interest: a parent module always reaches its
            // children.
            .filter(|t| t != &module && !t.is_empty())
            .collect();
        edges.insert(module, targets);
    }
    edges
}

#[test]
fn no_file_imports_in_a_circle() {
    let sources = crate_sources();
    // Every member: the service, the connect crate, the plugin, the app…
    for expected in [
        "crates/service/src",
        "crates/desktop/src",
        "crates/tauri-plugin-satchel/src",
        "src-tauri/src",
        "devstack/src",
        "tests/src",
    ] {
        assert!(
            sources.contains(&root().join(expected)),
            "{expected} is not checked: {sources:?}"
        );
    }
    let mut found = Vec::new();
    for src in &sources {
        for group in circles(&graph_of(src)) {
            let names: Vec<String> = group.iter().map(|m| m.join("::")).collect();
            found.push(format!("{}: {}", src.display(), names.join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let module = |s: &str| -> Module { s.split("::").map(str::to_owned).collect() };
    let mut edges = BTreeMap::new();
    edges.insert(module("a"), BTreeSet::from([module("b")]));
    edges.insert(module("b"), BTreeSet::from([module("c")]));
    edges.insert(module("c"), BTreeSet::from([module("a")]));
    edges.insert(module("d"), BTreeSet::from([module("a")]));
    let found = circles(&edges);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), 3);
    let text = "use crate::{error::ApiError, state::AppState};\nuse super::x;\n/// see `crate::y`\n#[cfg(test)]\nuse crate::z;";
    let paths = named_paths(&module("http::pin"), text);
    assert!(paths.contains(&module("error::ApiError")));
    assert!(paths.contains(&module("state::AppState")));
    assert!(paths.contains(&module("http::x")));
    assert!(
        !paths.iter().any(|p| p == &module("z")),
        "tests are left out"
    );
    assert!(
        !paths.iter().any(|p| p == &module("y")),
        "comments are left out"
    );
}
