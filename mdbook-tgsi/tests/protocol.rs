//! The binary as mdBook runs it: `supports`, and `[context, book]` JSON in, the book out, with
//! the widget's files written into the book's source folder.

use serde_json::{json, Value};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-tgsi");

const BLUE: &str = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mdbook-tgsi starts");
    if let Some(mut stdin) = child.stdin.take() {
        // A process that exits without reading (supports) closes the pipe: ignore that.
        let _ = stdin.write_all(input.as_bytes());
    }
    child.wait_with_output().expect("mdbook-tgsi ends")
}

/// A scratch book folder with `src/` and a stand-in package folder (`pkg/`, one file per kind).
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mdbook-tgsi-protocol-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("src/shaders")).expect("src");
    fs::create_dir_all(dir.join("src/deep")).expect("a chapter's folder");
    fs::create_dir_all(dir.join("pkg/pkg")).expect("pkg");
    fs::write(dir.join("pkg/tgsi-shader.js"), "import './chunk-A.js';\n").expect("entry");
    fs::write(dir.join("pkg/chunk-A.js"), "export {};\n").expect("chunk");
    fs::write(dir.join("pkg/pkg/tgsi_bg.wasm"), b"\0asm").expect("wasm");
    fs::write(dir.join("pkg/README.md"), "npm's").expect("readme");
    fs::write(dir.join("src/shaders/blue.tgsi"), BLUE).expect("shader");
    dir
}

fn chapter(name: &str, content: &str, path: &str, sub_items: Value) -> Value {
    json!({"Chapter": {
        "name": name, "content": content, "number": [1], "sub_items": sub_items,
        "path": path, "source_path": path, "parent_names": []
    }})
}

/// mdBook 0.4.52's input for a book at `root` (the context as it writes it, see book.rs).
fn input(root: &Path, sections: Value) -> String {
    json!([
        {
            "root": root,
            "config": {
                "book": {"authors": [], "language": "en", "src": "src", "title": "T"},
                "build": {"build-dir": "book", "create-missing": false, "extra-watch-dirs": [], "use-default-preprocessors": true},
                "output": {"html": {}},
                "preprocessor": {"tgsi": {"assets": "pkg", "before": ["links"]}}
            },
            "renderer": "html",
            "mdbook_version": "0.4.52"
        },
        {"sections": sections, "__non_exhaustive": null}
    ])
    .to_string()
}

#[test]
fn supports_html_only() {
    assert_eq!(run(&["supports", "html"], "").status.code(), Some(0));
    assert_eq!(run(&["supports", "markdown"], "").status.code(), Some(1));
    assert_eq!(run(&["supports"], "").status.code(), Some(2));
}

#[test]
fn a_book_goes_through_and_its_widgets_files_are_written() {
    let root = scratch("round-trip");
    let sections = json!([
        {"PartTitle": "Part"},
        chapter("A", &format!("# A\n\n```tgsi width=8\n{BLUE}```\n"), "a.md", json!([
            chapter("B", "{{#tgsi ../shaders/blue.tgsi hide-source}}\n", "deep/b.md", json!([]))
        ])),
        "Separator",
        chapter("C", "# C\n\nNo shader.\n", "c.md", json!([]))
    ]);
    let out = run(&[], &input(&root, sections.clone()));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let book: Value = serde_json::from_slice(&out.stdout).expect("the book is JSON");
    assert_eq!(book["__non_exhaustive"], Value::Null);
    let s = &book["sections"];
    assert_eq!(s[0], sections[0]);
    assert_eq!(s[2], sections[2]);
    assert_eq!(s[3], sections[3]);
    let a = s[1]["Chapter"]["content"].as_str().expect("content");
    assert!(
        a.starts_with(
            "<script type=\"module\" src=\"tgsi-shader/tgsi-shader.js\"></script>\n\n# A\n"
        ),
        "{a}"
    );
    assert!(a.contains("<tgsi-shader width=\"8\">"), "{a}");
    let b = s[1]["Chapter"]["sub_items"][0]["Chapter"]["content"].as_str().expect("content");
    assert!(
        b.starts_with("<script type=\"module\" src=\"../tgsi-shader/tgsi-shader.js\"></script>"),
        "{b}"
    );
    assert!(b.contains(&format!("<script type=\"text/x-tgsi\">\n{BLUE}</script>")), "{b}");
    for key in ["name", "number", "path", "source_path", "parent_names"] {
        assert_eq!(s[1]["Chapter"][key], sections[1]["Chapter"][key], "{key}");
    }
    // The package's page files are in src/tgsi-shader/; npm's README is not.
    let written = root.join("src/tgsi-shader");
    assert_eq!(
        fs::read_to_string(written.join("tgsi-shader.js")).expect("entry"),
        "import './chunk-A.js';\n"
    );
    assert!(written.join("chunk-A.js").is_file());
    assert!(written.join("pkg/tgsi_bg.wasm").is_file());
    assert!(!written.join("README.md").exists());
    fs::remove_dir_all(&root).expect("clean up");
}

#[test]
fn a_shader_error_fails_with_the_chapters_line_and_writes_nothing() {
    let root = scratch("error");
    // Line 1 "# A", 2 blank, 3 the fence, 4 FRAG, 5 DCL OUT[0], 6 the MOV of the undeclared
    // TEMP[7], which starts at column 18.
    let content =
        "# A\n\n```tgsi\nFRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[7]\n  1: END\n```\n";
    let out = run(&[], &input(&root, json!([chapter("A", content, "guide/a.md", json!([]))])));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "src/guide/a.md:6:18: error: source register TEMP[7] is not declared [V005]\n"
        ),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(!root.join("src/tgsi-shader").exists());
    fs::remove_dir_all(&root).expect("clean up");
}

#[test]
fn bad_input_exits_2_without_a_panic() {
    for input in [
        "",
        "not json",
        "[]",
        "{\"sections\": []}",
        "[{}, {}]",
        "[{\"root\": \"/nowhere\"}, {\"sections\": 3}]",
    ] {
        let out = run(&[], input);
        assert_eq!(out.status.code(), Some(2), "{input}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("mdbook-tgsi: error: "), "{input}: {err}");
    }
}

#[test]
fn a_missing_assets_folder_is_a_clear_error() {
    let root = scratch("no-assets");
    fs::remove_dir_all(root.join("pkg")).expect("remove pkg");
    let content = format!("```tgsi\n{BLUE}```\n");
    let out = run(&[], &input(&root, json!([chapter("A", &content, "a.md", json!([]))])));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("[preprocessor.tgsi] assets: ") && err.contains("holds no tgsi-shader.js"),
        "{err}"
    );
    fs::remove_dir_all(&root).expect("clean up");
}
