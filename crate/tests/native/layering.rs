//! The dependency direction of the stages (ARCHITECTURE.md, "Layers"): a module of the crate
//! may use modules of its own layer or below, never above. This scans every source file for
//! `crate::<module>` paths (in `use` lines and in code) and `super::super::` escapes.
//! Inside each folder the files must not use each other in a circle
//! (`no_folder_has_an_import_circle`).

use std::path::Path;

/// Bottom to top. Modules on one line are one layer and may use each other.
const LAYERS: &[&[&str]] = &[
    &["half", "opcode", "sort"],
    &["ir"],
    &["diag", "limits"],
    &["text", "json"],
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
/// `fuse` and `output` columns, as the AGAL export's refusal wording does. The reference, the
/// page's opcode list (`wasm/front.rs`) and the table itself may.
#[test]
fn the_engine_never_asks_the_documentation_category() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for module in ["ir", "text", "valid", "texture", "exec", "render", "jit", "agal", "diff"] {
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
/// The places in `src` of the crate where a line of code (comments and a file's closing
/// `#[cfg(test)]` module left out) contains one of `needles`, outside the files `allowed` (paths
/// relative to `src`). A needle `A…B` matches a line holding A and then B.
fn code_containing(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    code_containing_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), needles, allowed)
}

fn code_containing_in(root: &Path, needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (rel, text) in source_tree_in(root) {
        if allowed.contains(&rel.as_str()) {
            continue;
        }
        let lines = text.lines().zip(code_lines(&text));
        for (n, (line, code)) in lines.enumerate() {
            if line.trim() == "#[cfg(test)]" {
                break;
            }
            let holds = |needle: &&str| match needle.split_once('…') {
                Some((a, b)) => code.find(a).is_some_and(|at| code[at..].contains(b)),
                None => code.contains(needle),
            };
            if needles.iter().any(holds) {
                found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

/// One reader of floats in text: `text::decimal` (correctly rounded, and the reason core's
/// parser and its table stay out of the widget's engine).
#[test]
fn every_float_in_text_is_read_by_text_decimal() {
    let found = code_containing(
        &[
            "parse::<f32>",
            "parse::<f64>",
            "f32::from_str",
            "f64::from_str",
            ": f32 =….parse()",
            ": f64 =….parse()",
            "lexical",
        ],
        &["text/decimal.rs"],
    );
    assert_eq!(found, Vec::<String>::new(), "floats read from text outside text::decimal");
}

/// One reader of the options the browser passes: `wasm/read.rs`, field by field (no serde
/// deserialization in the wasm API, whose readers and messages would bring core's float
/// printing into the widget's engine).
#[test]
fn every_wasm_call_reads_its_options_with_wasm_read() {
    let found = code_containing(&["from_value", "Deserialize", "serde_json::from"], &[]);
    let in_wasm: Vec<&String> = found.iter().filter(|f| f.starts_with("wasm/")).collect();
    assert_eq!(in_wasm, Vec::<&String>::new(), "options read outside wasm/read.rs");
}

#[test]
fn the_scan_for_readers_sees_one_in_code_not_in_a_comment() {
    let dir = std::env::temp_dir().join(format!("tgsi-layering-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("wasm")).expect("a scratch folder");
    let text =
        "// parse::<f64> in a comment\nlet v = s.parse::<f32>();\nlet w: f64 = s.parse()?;\n\
                #[cfg(test)]\nmod tests { fn t() { s.parse::<f32>(); } }\n";
    std::fs::write(dir.join("wasm/a.rs"), text).expect("a scratch file");
    let needles = ["parse::<f32>", "parse::<f64>", ": f64 =….parse()"];
    let found = code_containing_in(&dir, &needles, &[]);
    let _ = std::fs::remove_dir_all(&dir);
    let want = ["wasm/a.rs:2: let v = s.parse::<f32>();", "wasm/a.rs:3: let w: f64 = s.parse()?;"];
    assert_eq!(found, want);
}

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

// Import circles inside a folder (issue 47). A folder of `src` is a module with files below it
// (`exec/`, `exec/ops/`, `jit/codegen/`, and `src` itself); its nodes are its files and
// subfolders (a subfolder is one node here, and a folder of its own). File A uses sibling B when
// A (or anything in subfolder A) names B by a path: `super::B…`, `super::{B, …}`,
// `crate::folder::B…`, `super::super::B` from a subfolder. The folder's own file (`mod.rs`, or
// `name.rs` beside `name/`) is the folder, not a node: it declares every child, so counting it
// would put each child that uses one of its items in a circle with it. A name of that file is
// followed instead: to the child it re-exports (or imports) the name from, `use child::{X, Y as
// Z}`, or for `pub use child::*` to the child that defines the name; a name the file defines
// itself is no edge. `super` inside an inline `mod tests { … }` goes one level further up. Paths
// in comments are not read; methods that one file's `impl` block adds to another file's type are
// not seen (they are named by no path).

/// Folders whose files still use each other in a circle: the test checks every other folder,
/// and that each of these still has one (a folder whose circle is opened leaves the list).
const FOLDERS_WITH_CIRCLES: &[&str] =
    &["agal", "agal/lower", "reference", "texture", "valid", "wasm"];

/// File `from` of `folder` uses its sibling `to`; `at` is the first place (`file:line`).
#[derive(Clone, Debug, PartialEq)]
struct Use {
    folder: String,
    from: String,
    to: String,
    at: String,
}

/// `exec/ops/int.rs` → exec, ops, int; `exec/ops/mod.rs` → exec, ops; `lib.rs` → (the root).
fn module_path(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> =
        rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if rel == "lib.rs" || parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A path's segments, and the name a `use … as` gives it.
type Leaf = (Vec<String>, Option<String>);

/// The leaves of the path or use tree at the start of `s` (`super::{a::B, c as D}` gives
/// `super a B` and `super c` with the alias D) and how many bytes it spans.
fn path_tree(s: &str) -> (Vec<Leaf>, usize) {
    fn tree(s: &[u8], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Leaf>) {
        let mut path = prefix;
        loop {
            if s.get(*at) == Some(&b'{') {
                *at += 1;
                loop {
                    while s.get(*at).is_some_and(|c| c.is_ascii_whitespace() || *c == b',') {
                        *at += 1;
                    }
                    match s.get(*at) {
                        Some(b'}') => {
                            *at += 1;
                            return;
                        }
                        None => return,
                        _ => {}
                    }
                    let before = *at;
                    tree(s, at, path.clone(), out);
                    if *at == before {
                        // Not a path: step over it so that the scan always moves on.
                        *at += 1;
                    }
                }
            }
            let start = *at;
            while s.get(*at).is_some_and(|c| is_ident(*c) || *c == b'*') {
                *at += 1;
            }
            if *at == start {
                break;
            }
            path.push(String::from_utf8_lossy(&s[start..*at]).into_owned());
            if !s[*at..].starts_with(b"::") {
                break;
            }
            *at += 2;
        }
        let mut alias = None;
        if s[*at..].starts_with(b" as ") {
            let start = *at + 4;
            let mut end = start;
            while s.get(end).is_some_and(|c| is_ident(*c)) {
                end += 1;
            }
            alias = Some(String::from_utf8_lossy(&s[start..end]).into_owned());
            *at = end;
        }
        if !path.is_empty() {
            out.push((path, alias));
        }
    }
    let mut out = Vec::new();
    let mut at = 0;
    tree(s.as_bytes(), &mut at, Vec::new(), &mut out);
    (out, at)
}

/// The full path (from the crate root) that a `crate::`, `self::` or `super::` path names in
/// module `here`; None for other paths.
fn resolve(path: &[String], here: &[String]) -> Option<Vec<String>> {
    let (mut full, mut rest) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (here.to_vec(), &path[1..]),
        Some("super") => {
            let mut full = here.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                full.pop()?;
                rest = &rest[1..];
            }
            (full, rest)
        }
        _ => return None,
    };
    // `super::{self, x}`: a group's `self` is the path before it.
    if let Some(k) = rest.iter().position(|s| s == "self") {
        rest = &rest[..k];
    }
    full.extend(rest.iter().cloned());
    Some(full)
}

/// The lines of `text` with comments cut off.
fn code_lines(text: &str) -> Vec<&str> {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect()
}

/// Per line, the inline modules (`mod tests {`) it is inside. rustfmt closes an inline module
/// with a `}` alone at the indentation of its `mod` line.
fn inline_modules(lines: &[&str]) -> Vec<Vec<String>> {
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::new();
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        out.push(open.iter().map(|(n, _)| n.clone()).collect());
        if open.last().is_some_and(|(_, i)| *i == indent) && line.trim() == "}" {
            open.pop();
            continue;
        }
        let mut item = line.trim();
        if let Some(r) = item.strip_prefix("pub") {
            item = r.trim_start();
            if item.starts_with('(') {
                item = item.split_once(')').map_or("", |(_, r)| r.trim_start());
            }
        }
        if let Some(r) = item.strip_prefix("mod ").filter(|r| r.ends_with('{')) {
            let name = r.bytes().take_while(|c| is_ident(*c)).map(char::from).collect();
            open.push((name, indent));
        }
    }
    out
}

/// Every `crate::`, `self::` and `super::` path in `lines` (a use tree gives one per leaf),
/// with its line number.
fn rooted_paths(lines: &[&str]) -> Vec<(usize, Vec<String>)> {
    let code = lines.join("\n");
    let starts: Vec<usize> =
        std::iter::once(0).chain(code.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(rest) = code.get(i..).filter(|r| !r.is_empty()) {
        let rooted = ["crate::", "super::", "self::"].iter().any(|r| rest.starts_with(r));
        if rooted && !code[..i].bytes().last().is_some_and(is_ident) {
            let (leaves, len) = path_tree(rest);
            let line = starts.partition_point(|s| *s <= i);
            out.extend(leaves.into_iter().map(|(p, _)| (line, p)));
            i += len.max(1);
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// The uses between sibling files in every folder of a source tree: (path under `src` with
/// `/`, text) for each file. The rule is the one above this test's functions.
fn sibling_uses(tree: &[(String, String)]) -> Vec<Use> {
    use std::collections::{BTreeMap, BTreeSet};
    // The binary is a crate of its own.
    let tree: Vec<&(String, String)> =
        tree.iter().filter(|(r, _)| !r.starts_with("bin/")).collect();
    let texts: BTreeMap<Vec<String>, &str> =
        tree.iter().map(|(rel, text)| (module_path(rel), text.as_str())).collect();
    let modules: BTreeSet<Vec<String>> =
        texts.keys().flat_map(|m| (0..=m.len()).map(|k| m[..k].to_vec())).collect();
    // The names each folder's own file imports or re-exports: (folder, name) → full path; and
    // the children it re-exports whole (`pub use child::*`).
    let mut named: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    let mut globs: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for (folder, text) in &texts {
        let code = code_lines(text).join("\n");
        let mut offset = 0;
        for line in code.split('\n') {
            let start = offset;
            offset += line.len() + 1;
            let item = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
                .iter()
                .find_map(|p| line.strip_prefix(p).map(|_| start + p.len()));
            let Some(at) = item else { continue };
            for (path, alias) in path_tree(&code[at..]).0 {
                let full = resolve(&path, folder)
                    .unwrap_or_else(|| folder.iter().chain(&path).cloned().collect());
                let (Some(last), true) = (full.last(), full.starts_with(folder)) else { continue };
                if last == "*" {
                    if let Some(child) =
                        full.get(folder.len()).filter(|_| full.len() == folder.len() + 2)
                    {
                        globs.entry(folder.clone()).or_default().push(child.clone());
                    }
                } else {
                    named.insert((folder.clone(), alias.unwrap_or_else(|| last.clone())), full);
                }
            }
        }
    }
    let child = |folder: &[String], name: &str| {
        let mut c = folder.to_vec();
        c.push(name.to_string());
        modules.contains(&c).then_some(c)
    };
    // The child of `folder` that `full` (a path below it) names, if any.
    let node = |folder: &[String], full: &[String]| -> Option<String> {
        let name = full.get(folder.len())?;
        if child(folder, name).is_some() {
            return Some(name.clone());
        }
        if let Some(p) = named.get(&(folder.to_vec(), name.clone())) {
            let to = p.get(folder.len()).filter(|_| p.len() > folder.len() + 1);
            return to.filter(|n| child(folder, n).is_some()).cloned();
        }
        let defines = |text: &str| {
            ["struct", "enum", "fn", "const", "type", "trait", "static", "mod"].iter().any(|k| {
                let item = format!("pub {k} {name}");
                text.match_indices(&item).any(|(i, _)| {
                    !text.as_bytes().get(i + item.len()).copied().is_some_and(is_ident)
                })
            })
        };
        let mut glob = globs.get(folder).into_iter().flatten();
        glob.find(|g| child(folder, g).and_then(|c| texts.get(&c).copied()).is_some_and(defines))
            .cloned()
    };
    let mut uses: Vec<Use> = Vec::new();
    for (rel, text) in &tree {
        let own = module_path(rel);
        let lines = code_lines(text);
        let inline = inline_modules(&lines);
        for (line, path) in rooted_paths(&lines) {
            let mut here = own.clone();
            here.extend(inline.get(line - 1).into_iter().flatten().cloned());
            let Some(full) = resolve(&path, &here) else { continue };
            for depth in 0..own.len() {
                let folder = &own[..depth];
                let from = &own[depth];
                if !full.starts_with(folder) {
                    continue;
                }
                let Some(to) = node(folder, &full).filter(|to| to != from) else { continue };
                let folder = folder.join("/");
                if !uses.iter().any(|u| u.folder == folder && &u.from == from && u.to == to) {
                    let at = format!("{rel}:{line}");
                    uses.push(Use { folder, from: from.clone(), to, at });
                }
            }
        }
    }
    uses
}

/// Each circle (two or more files of a folder that reach each other) with its folder, named by
/// its files and the shortest way round from the first: `{a, b}: a → b (a.rs:3) → a (b.rs:9)`.
fn circles(uses: &[Use]) -> Vec<(String, String)> {
    use std::collections::{BTreeMap, BTreeSet, VecDeque};
    let mut out = Vec::new();
    let folders: BTreeSet<&str> = uses.iter().map(|u| u.folder.as_str()).collect();
    for folder in folders {
        let mut next: BTreeMap<&str, Vec<&Use>> = BTreeMap::new();
        for u in uses.iter().filter(|u| u.folder == folder) {
            next.entry(&u.from).or_default().push(u);
        }
        let reach = |start: &str| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![start];
            while let Some(n) = todo.pop() {
                for u in next.get(n).into_iter().flatten() {
                    if seen.insert(u.to.as_str()) {
                        todo.push(&u.to);
                    }
                }
            }
            seen
        };
        let mut done = BTreeSet::new();
        for &n in next.keys() {
            if done.contains(n) || !reach(n).contains(n) {
                continue;
            }
            let circle: BTreeSet<&str> =
                reach(n).into_iter().filter(|m| reach(m).contains(n)).collect();
            done.extend(circle.iter().copied());
            // Breadth first from n back to n: each file reached with the use that reached it.
            let mut came: BTreeMap<&str, &Use> = BTreeMap::new();
            let mut queue = VecDeque::from([n]);
            'search: while let Some(m) = queue.pop_front() {
                for u in next.get(m).into_iter().flatten() {
                    if u.to == n {
                        came.insert(n, u);
                        break 'search;
                    }
                    if !came.contains_key(u.to.as_str()) {
                        came.insert(&u.to, u);
                        queue.push_back(&u.to);
                    }
                }
            }
            let mut steps = Vec::new();
            let mut at = n;
            while let Some(u) = came.get(at) {
                steps.push(format!(" → {} ({})", u.to, u.at));
                at = &u.from;
                if at == n {
                    break;
                }
            }
            steps.reverse();
            let files: Vec<&str> = circle.into_iter().collect();
            out.push((
                folder.to_string(),
                format!("{{{}}}: {n}{}", files.join(", "), steps.concat()),
            ));
        }
    }
    out
}

/// Every source file under `src`: (path with `/`, text).
fn source_tree() -> Vec<(String, String)> {
    source_tree_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// [`source_tree`] of the files under `src`.
fn source_tree_in(src: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    visit(src, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(src).expect("under src");
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>();
            (rel.join("/"), std::fs::read_to_string(f).expect("read"))
        })
        .collect()
}

#[test]
fn no_folder_has_an_import_circle() {
    let uses = sibling_uses(&source_tree());
    // The scan sees the real tree's uses (a scan that found none would pass anything).
    for (folder, from, to) in
        [("exec", "dispatch", "ops"), ("exec/ops", "float", "lane"), ("render", "job", "watch")]
    {
        assert!(
            uses.iter().any(|u| u.folder == folder && u.from == from && u.to == to),
            "the scan missed {folder}: {from} → {to}"
        );
    }
    let found = circles(&uses);
    let mut problems: Vec<String> = found
        .iter()
        .filter(|(folder, _)| !FOLDERS_WITH_CIRCLES.contains(&folder.as_str()))
        .map(|(folder, circle)| format!("{folder}/: {circle}"))
        .collect();
    for folder in FOLDERS_WITH_CIRCLES {
        if !found.iter().any(|(f, _)| f == folder) {
            problems.push(format!("{folder}/ has no circle now: take it off FOLDERS_WITH_CIRCLES"));
        }
    }
    assert!(problems.is_empty(), "files that use each other in a circle:\n{}", problems.join("\n"));
}

#[test]
fn the_scan_sees_an_import_circle() {
    // `a` names `b`'s Thing through the folder's re-export (a group over two lines, renamed), `b`
    // calls `c` by a crate path, and `c`'s test module uses `a` and the folder's own `own`
    // (`super::super` from inside `mod tests`); `super::*` there is `c` itself.
    let mut tree: Vec<(String, String)> = [
        ("lib.rs", "pub mod m;\n"),
        ("m/mod.rs", "mod a;\nmod b;\nmod c;\npub use b::{\n    Thing as Renamed,\n};\nfn own() {}\n"),
        ("m/a.rs", "// super::c only in a comment\nuse super::Renamed;\n"),
        ("m/b.rs", "pub struct Thing;\n\npub fn f() {\n    crate::m::c::g();\n}\n"),
        ("m/c.rs", "pub fn g() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::{a, own};\n}\n"),
    ]
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .to_vec();
    let uses = sibling_uses(&tree);
    let named: Vec<(&str, &str, &str)> =
        uses.iter().map(|u| (u.from.as_str(), u.to.as_str(), u.at.as_str())).collect();
    assert_eq!(named, [("a", "b", "m/a.rs:2"), ("b", "c", "m/b.rs:4"), ("c", "a", "m/c.rs:6")]);
    assert!(uses.iter().all(|u| u.folder == "m"));
    assert_eq!(
        circles(&uses),
        [(
            "m".to_string(),
            "{a, b, c}: a → b (m/a.rs:2) → c (m/b.rs:4) → a (m/c.rs:6)".to_string()
        )]
    );
    // Without the test module's use of `a` the circle is open.
    tree[4].1 = "pub fn g() {}\n".to_string();
    assert_eq!(circles(&sibling_uses(&tree)), []);
}
