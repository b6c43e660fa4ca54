//! The parser and printer against the corpus (`tests/corpus/`, `corpus!()`):
//!
//! * every softpipe `.tgsi` / `.vs.tgsi` parses without error and `--style mesa` reproduces it
//!   byte for byte;
//! * every third-party file parses, or is rejected with an error that points at a line and
//!   column; the per-file result is the table between the markers in `docs/language.md`
//!   (regenerate it with `UPDATE_DOCS=1 cargo test -p tgsi --test native front::corpus`);
//! * the exact style round-trips every file that parses: parse → print → parse gives the same
//!   shader model (spans aside), and printing again gives the same text.

use std::path::{Path, PathBuf};
use tgsi::text::{self, strip_spans, Style};

fn corpus() -> PathBuf {
    let dir = PathBuf::from(corpus!());
    assert!(dir.is_dir(), "the corpus is not at {}", dir.display());
    dir
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn softpipe_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    files_under(&corpus().join("softpipe"), &mut v);
    v.retain(|p| p.to_string_lossy().ends_with(".tgsi"));
    assert!(v.len() >= 50, "expected the 50 softpipe shaders, found {}", v.len());
    v
}

fn third_party_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    files_under(&corpus().join("third-party"), &mut v);
    v.retain(|p| !p.ends_with("SOURCES.txt") && !p.ends_with("REPORT.md"));
    v
}

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned()
}

#[test]
fn softpipe_parses_and_prints_back_byte_for_byte() {
    for path in softpipe_files() {
        let src = read(&path);
        let parsed = text::parse(&src);
        assert!(parsed.diagnostics.is_empty(), "{}: {:#?}", path.display(), parsed.diagnostics);
        let shader = parsed.shader.unwrap();
        let printed = text::print(&shader, Style::Mesa);
        assert!(
            printed == src,
            "{}: mesa style differs\n--- printed\n{}\n--- file\n{}",
            path.display(),
            printed,
            src
        );
    }
}

fn round_trip(path: &Path, src: &str) {
    let Some(first) = text::parse(src).shader else { return };
    let printed = text::print(&first, Style::Exact);
    let again = text::parse(&printed);
    assert!(
        !again.has_errors(),
        "{}: exact output does not parse: {:#?}\n{}",
        path.display(),
        again.diagnostics,
        printed
    );
    let second = again.shader.unwrap();
    assert!(
        strip_spans(&first) == strip_spans(&second),
        "{}: exact round trip changed the shader\n{}",
        path.display(),
        printed
    );
    for (a, b) in first.immediates.iter().zip(&second.immediates) {
        assert_eq!(a.bits, b.bits, "{}: immediate bits", path.display());
    }
    assert_eq!(
        text::print(&second, Style::Exact),
        printed,
        "{}: exact printing is not stable",
        path.display()
    );
    // The Mesa style is lossy for floats but must still read back.
    let mesa = text::print(&first, Style::Mesa);
    assert!(
        !text::parse(&mesa).has_errors(),
        "{}: mesa output does not parse\n{}",
        path.display(),
        mesa
    );
}

#[test]
fn exact_style_round_trips_every_corpus_file() {
    for path in softpipe_files().into_iter().chain(third_party_files()) {
        round_trip(&path, &read(&path));
    }
}

/// One line per third-party file: `| path | parses / rejected | first error |`.
fn third_party_table() -> String {
    let base = corpus().join("third-party");
    let mut out = String::new();
    let mut folder = String::new();
    let (mut ok, mut rejected) = (0, 0);
    for path in third_party_files() {
        let rel = path.strip_prefix(&base).unwrap().to_string_lossy().replace('\\', "/");
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        if dir != folder {
            out.push_str(&format!(
                "\n**{}/**\n\n| file | result | first error (line:column, code) |\n|---|---|---|\n",
                dir
            ));
            folder = dir;
        }
        let parsed = text::parse(&read(&path));
        let name = rel.rsplit('/').next().unwrap();
        match parsed.diagnostics.iter().find(|d| d.is_error()) {
            None => {
                ok += 1;
                let warns: Vec<&str> = {
                    let mut c: Vec<&str> = parsed.diagnostics.iter().map(|d| d.code).collect();
                    c.dedup();
                    c
                };
                let w = if warns.is_empty() {
                    String::new()
                } else {
                    format!(" (warnings {})", warns.join(", "))
                };
                out.push_str(&format!("| `{}` | parses{} | |\n", name, w));
            }
            Some(e) => {
                rejected += 1;
                assert!(e.line >= 1 && e.column >= 1, "{}: error without a position", rel);
                let msg = e.message.replace('|', "\\|");
                out.push_str(&format!(
                    "| `{}` | rejected | {}:{} {}: {} |\n",
                    name, e.line, e.column, e.code, msg
                ));
            }
        }
    }
    format!("{} files: {} parse, {} are rejected.\n{}", ok + rejected, ok, rejected, out)
}

const BEGIN: &str =
    "<!-- third-party results: begin (generated by crate/tests/native/front/corpus.rs) -->";
const END: &str = "<!-- third-party results: end -->";

#[test]
fn third_party_results_match_the_docs() {
    let table = third_party_table();
    let docs_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/language.md");
    let docs = std::fs::read_to_string(&docs_path).unwrap_or_default();
    let (Some(a), Some(b)) = (docs.find(BEGIN), docs.find(END)) else {
        panic!("docs/language.md lacks the markers {} … {}", BEGIN, END);
    };
    let current = &docs[a + BEGIN.len()..b];
    let wanted = format!("\n{}\n", table);
    if current != wanted {
        if std::env::var_os("UPDATE_DOCS").is_some() {
            let new = format!("{}{}{}", &docs[..a + BEGIN.len()], wanted, &docs[b..]);
            std::fs::write(&docs_path, new).unwrap();
        } else {
            panic!("docs/language.md's third-party table is out of date; run UPDATE_DOCS=1 cargo test -p tgsi --test native front::corpus\n{}", table);
        }
    }
}

/// Every shader file of the corpus that parses is read as it is by `tgsi check` and `tgsi fmt`:
/// the paste finder (`text::log`) sees one shader and nothing else in it — subroutines after
/// END and `;` comments included — so no file is taken for a log.
#[test]
fn every_corpus_shader_is_one_plain_shader_to_the_paste_finder() {
    let mut files = Vec::new();
    files_under(&corpus(), &mut files);
    files.retain(|p| p.to_string_lossy().ends_with(".tgsi"));
    assert!(files.len() >= 200, "only {} files", files.len());
    let mut checked = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        if text::parse(&src).shader.is_none() {
            continue;
        }
        let found = text::log::find(&src);
        assert!(text::log::is_plain(&src, &found), "{}: {:?}", path.display(), found);
        checked += 1;
    }
    assert!(checked >= 200, "only {checked} files parse");
}
