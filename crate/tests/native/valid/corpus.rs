//! Mesa accepts (and tgsi_exec runs) every shader of the softpipe corpus, so none of them may
//! produce an error. Also checks that every example of `docs/diagnostics.md` produces its code.

use crate::valid_support::*;

#[test]
fn softpipe_corpus_has_no_errors() {
    let dir = corpus_path("softpipe");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("corpus").flatten().map(|e| e.path()).collect();
    files.sort();
    let mut n = 0;
    let mut warnings = 0;
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "tgsi")) {
        let text = std::fs::read_to_string(path).expect("read");
        let d = diags(&text);
        let errors: Vec<_> = d.iter().filter(|x| x.is_error()).collect();
        assert!(errors.is_empty(), "{}: {:#?}", path.display(), errors);
        warnings += d.len();
        n += 1;
    }
    assert!(n >= 50, "only {} files", n); // 25 fragment + 25 vertex shaders
    eprintln!("softpipe corpus: {} files, 0 errors, {} warnings/notes", n, warnings);
}

/// The `#### CODE — title` sections of the docs and the first ```tgsi block of each.
fn doc_examples() -> Vec<(String, String)> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/diagnostics.md"))
            .expect("docs");
    let mut out = Vec::new();
    let mut code: Option<String> = None;
    let mut block: Option<String> = None;
    for line in doc.lines() {
        if let Some(b) = block.as_mut() {
            if line.starts_with("```") {
                if let Some(c) = code.take() {
                    out.push((c, b.clone()));
                }
                block = None;
            } else {
                b.push_str(line);
                b.push('\n');
            }
        } else if let Some(rest) = line.strip_prefix("#### ") {
            code = rest.split_whitespace().next().map(str::to_string);
        } else if line.trim_end() == "```tgsi" {
            block = Some(String::new());
        }
    }
    out
}

/// The `#### L…` sections: (code, vertex shader, fragment shader) from their tgsi-vs/tgsi-fs blocks.
fn doc_link_examples() -> Vec<(String, String, String)> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/diagnostics.md"))
            .expect("docs");
    let mut out = Vec::new();
    let (mut code, mut vs, mut cur): (Option<String>, Option<String>, Option<(bool, String)>) =
        (None, None, None);
    for line in doc.lines() {
        if let Some((is_vs, b)) = cur.as_mut() {
            if line.starts_with("```") {
                if *is_vs {
                    vs = Some(b.clone());
                } else if let (Some(c), Some(v)) = (code.take(), vs.take()) {
                    out.push((c, v, b.clone()));
                }
                cur = None;
            } else {
                b.push_str(line);
                b.push('\n');
            }
        } else if let Some(rest) = line.strip_prefix("#### ") {
            code = rest.split_whitespace().next().map(str::to_string);
            vs = None;
        } else if line.starts_with("```tgsi-vs") {
            cur = Some((true, String::new()));
        } else if line.starts_with("```tgsi-fs") {
            cur = Some((false, String::new()));
        }
    }
    out
}

#[test]
fn every_documented_linkage_example_produces_its_code() {
    let examples = doc_link_examples();
    assert_eq!(examples.len(), 5, "L000..L004");
    for (code, vs, fs) in examples {
        let (v, f) = link(&vs, &fs);
        assert!(
            v.iter().chain(&f).any(|x| x.code == code),
            "example of {}:\n{}\n{}\n{:#?} {:#?}",
            code,
            vs,
            fs,
            v,
            f
        );
    }
}

#[test]
fn every_documented_example_produces_its_code() {
    let examples = doc_examples();
    assert!(examples.len() >= 55, "found {} examples", examples.len());
    for (code, text) in examples {
        let d = diags(&text);
        assert!(
            d.iter().any(|x| x.code == code),
            "example of {} does not produce it:\n{}\n{:#?}",
            code,
            text,
            d
        );
    }
}

/// Files of the third-party corpus flagged in SOURCES.txt as not whole shaders
/// (printf templates, entry-point pieces without END).
fn flagged_pieces() -> Vec<String> {
    let sources =
        std::fs::read_to_string(corpus_path("third-party/SOURCES.txt")).expect("SOURCES.txt");
    sources
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let notes = cols.get(4).copied().unwrap_or("");
            (notes.contains("no-END") || notes.contains("printf-template"))
                .then(|| cols.first().copied().unwrap_or("").to_string())
        })
        .collect()
}

/// Modern syntax = parses with no warning except P105 (a bare `IMM`, which Mesa 24 still
/// reads). Legacy opcodes (P106), `+ 3` offsets (P104) and `RES` (P107) are older dialects.
#[test]
fn third_party_modern_files_have_no_errors() {
    let root = corpus_path("third-party");
    let pieces = flagged_pieces();
    let mut stack = vec![root.clone()];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n != "SOURCES.txt") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut modern, mut warnings) = (0, 0);
    for path in files {
        let rel =
            path.strip_prefix(&root).map(|r| r.to_string_lossy().to_string()).unwrap_or_default();
        if pieces.contains(&rel) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let parsed = tgsi::text::parse(&text);
        let Some(shader) = parsed.shader.as_ref() else { continue };
        if parsed.diagnostics.iter().any(|d| d.code != "P105") {
            continue;
        }
        let d = tgsi::valid::check(shader, &tgsi::valid::Options::default());
        let errors: Vec<_> = d.iter().filter(|x| x.is_error()).collect();
        assert!(errors.is_empty(), "{}: {:#?}", rel, errors);
        warnings += d.len();
        modern += 1;
    }
    assert!(modern >= 80, "only {} modern files", modern);
    eprintln!(
        "third-party corpus: {} modern-syntax files, 0 errors, {} warnings",
        modern, warnings
    );
}

/// Every code the validator can emit (a `"V123"` / `"L123"` literal in `src/valid/`) has its
/// own `#### CODE` section in the docs, and every documented code exists.
#[test]
fn every_code_is_documented() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/valid");
    let mut emitted = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(dir).expect("src/valid").flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name == "unit_tests.rs" || name == "testkit.rs" {
            continue;
        }
        let src = std::fs::read_to_string(e.path()).expect("read");
        let bytes = src.as_bytes();
        for i in 0..bytes.len().saturating_sub(5) {
            let w = &bytes[i..i + 6];
            if w[0] == b'"'
                && (w[1] == b'V' || w[1] == b'L')
                && w[2..5].iter().all(u8::is_ascii_digit)
                && w[5] == b'"'
            {
                emitted.insert(String::from_utf8_lossy(&w[1..5]).to_string());
            }
        }
    }
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/diagnostics.md"))
            .expect("docs");
    let documented: std::collections::BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("#### "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(emitted.len() >= 60, "found {} codes", emitted.len());
    let missing: Vec<_> = emitted.difference(&documented).collect();
    let stale: Vec<_> = documented.difference(&emitted).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "undocumented: {:?}, documented but never emitted: {:?}",
        missing,
        stale
    );
}
