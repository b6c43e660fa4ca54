//! The dependency direction of the stages (ARCHITECTURE.md, "Layers"): a module of the crate
//! may use modules of its own layer or below, never above. This scans every source file for
//! `crate::<module>` paths (in `use` lines and in code) and `super::super::` escapes.

use std::path::Path;

/// Bottom to top. Modules on one line are one layer and may use each other.
const LAYERS: &[&[&str]] = &[
    &["half", "opcode"],
    &["ir"],
    &["diag", "limits"],
    &["text"],
    &["valid"],
    &["texture"],
    &["exec"],
    &["render"],
    &["jit"],
    &["agal"],
    &["diff"],
    &["reference"],
    &["cli", "wasm", "version", "lib", "fuzzing"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `crate::name` in `src` (the first path segment after `crate::`).
fn crate_paths(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in src.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(k) = rest.find("crate::") {
            let after = &rest[k + "crate::".len()..];
            let name: String =
                after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // `crate::{a, b}` groups are not used in this crate; a bare `crate::` would show here.
            out.push((n + 1, name));
            rest = after;
        }
    }
    out
}

fn visit(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src").flatten() {
        let p = e.path();
        if p.is_dir() {
            visit(&p, files);
        } else if p.extension().is_some_and(|x| x == "rs") {
            files.push(p);
        }
    }
}

#[test]
fn every_module_uses_only_its_layer_and_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    visit(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        // The top module a file belongs to: `exec/ops/int.rs` → exec, `half.rs` → half,
        // `bin/tgsi.rs` → cli (the binary is a shell around it).
        let first = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or("");
        let module = match first.strip_suffix(".rs") {
            Some(m) => m.to_string(),
            None if first == "bin" => "cli".to_string(),
            None => first.to_string(),
        };
        let Some(own) = layer_of(&module) else {
            problems.push(format!("{}: module '{module}' is in no layer", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(f).expect("read");
        for (line, used) in crate_paths(&text) {
            match layer_of(&used) {
                Some(l) if l > own => problems.push(format!(
                    "{}:{line}: {module} uses crate::{used}, a higher layer",
                    rel.display()
                )),
                None => {
                    problems.push(format!("{}:{line}: crate::{used} is in no layer", rel.display()))
                }
                _ => {}
            }
        }
        if text.contains("super::super::super") {
            problems.push(format!("{}: super::super::super escapes its module", rel.display()));
        }
    }
    assert!(problems.is_empty(), "layering violations:\n{}", problems.join("\n"));
}

#[test]
fn the_scan_sees_a_violation() {
    // The scanner itself: a higher-layer path in a lower module is found.
    let found =
        crate_paths("use crate::exec::Lanes; // not crate::render\nlet x = crate::render::f();");
    assert_eq!(found, vec![(1, "exec".to_string()), (2, "render".to_string())]);
    assert!(layer_of("exec") > layer_of("texture"));
}

/// Lines of `src` (comments removed) that name the opcode table's `Category`.
fn category_uses(src: &str) -> Vec<usize> {
    src.lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            code.contains("Category") || code.contains(".category")
        })
        .map(|(n, _)| n + 1)
        .collect()
}

/// `Category` groups opcodes for the documentation only (ARCHITECTURE.md, "Adding an opcode"):
/// no stage that checks or runs a program asks it; they read the table's `family`, `denormal`,
/// `fuse` and `output` columns. The reference, the page's opcode list (`wasm/front.rs`), the
/// AGAL export's refusal wording and the table itself may.
#[test]
fn the_engine_never_asks_the_documentation_category() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for module in ["ir", "text", "valid", "texture", "exec", "render", "jit", "diff"] {
        let mut files = Vec::new();
        visit(&src.join(module), &mut files);
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("read");
            for line in category_uses(&text) {
                let rel = f.strip_prefix(&src).expect("under src");
                problems.push(format!("{}:{line}", rel.display()));
            }
        }
    }
    assert!(problems.is_empty(), "the engine reads Category at:\n{}", problems.join("\n"));
    // The scan itself sees a use and skips a comment.
    assert_eq!(category_uses("// Category\nif op.info().category == C::Texture {}"), [2]);
}

/// The crates only the CLI uses are declared for native targets only (crate/Cargo.toml's
/// `cfg(not(target_arch = "wasm32"))` table), so the page's and the widget's wasm never link
/// them; and only `cli/` names them.
#[test]
fn cli_crates_are_native_only() {
    const CLI_ONLY: &[&str] = &["clap", "clap_complete", "annotate-snippets"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("crate/Cargo.toml");
    let mut table = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            table = line.to_string();
            continue;
        }
        let Some((name, _)) = line.split_once('=') else { continue };
        if CLI_ONLY.contains(&name.trim()) {
            assert_eq!(
                table,
                "[target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]",
                "{} is declared outside the native-only table",
                name.trim()
            );
        }
    }
    let mut files = Vec::new();
    visit(&root.join("src"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let in_cli = f.components().any(|c| c.as_os_str() == "cli");
        for krate in ["clap::", "clap_complete::", "annotate_snippets::"] {
            assert!(in_cli || !text.contains(krate), "{} uses {krate} outside cli/", f.display());
        }
    }
}

/// ARCHITECTURE.md, read from the repository (the crate is one folder below it).
fn architecture() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ARCHITECTURE.md");
    std::fs::read_to_string(&path).expect("ARCHITECTURE.md")
}

#[test]
fn every_module_of_the_crate_has_a_row_in_the_code_map() {
    let doc = architecture();
    let map = doc.split("## Code map").nth(1).and_then(|s| s.split("\n## ").next()).unwrap_or("");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for e in std::fs::read_dir(&src).expect("src").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        // The crate root and the binary's folder are the entry points, not stages.
        if name == "lib.rs" || name == "bin" {
            continue;
        }
        let cell =
            if e.path().is_dir() { format!("| `{name}/` |") } else { format!("| `{name}` |") };
        if !map.contains(&cell) {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "modules without a row in ARCHITECTURE.md's code map: {missing:?}");
}

#[test]
fn the_documented_layers_are_the_enforced_ones() {
    let doc = architecture();
    let section = doc.split("## Layers").nth(1).and_then(|s| s.split("\n## ").next()).unwrap_or("");
    // The numbered list: "N. `a`, `b`".
    let documented: Vec<Vec<String>> = section
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
        })
        .map(|l| l.split('`').skip(1).step_by(2).map(str::to_string).collect())
        .collect();
    // `version` and `lib` (the crate root) sit on the top layer of the test without a row.
    let enforced: Vec<Vec<String>> = LAYERS
        .iter()
        .map(|l| {
            l.iter().filter(|m| !["version", "lib"].contains(m)).map(|m| m.to_string()).collect()
        })
        .collect();
    assert_eq!(documented, enforced, "ARCHITECTURE.md's layer list and LAYERS disagree");
}
