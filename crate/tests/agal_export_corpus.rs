//! Every TGSI shader of the corpus goes through the export without panicking; what exports
//! passes our validator and decodes back to the same program. Prints a summary (exported,
//! refused by reason) used in `docs/agal.md`.
#![allow(clippy::needless_range_loop, clippy::approx_constant, clippy::unnecessary_sort_by)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tgsi::agal::lower::{export, ExportOptions};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");

fn tgsi_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            tgsi_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "tgsi") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_shaders_export_or_are_refused_cleanly() {
    let mut files = Vec::new();
    tgsi_files(Path::new(CORPUS), &mut files);
    assert!(files.len() > 100, "{} files", files.len());
    let (mut parsed, mut exported) = (0, 0);
    let mut versions = [0usize; 4];
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Some(shader) = tgsi::text::parse(&text).shader else {
            continue;
        };
        parsed += 1;
        let e = export(&shader, &ExportOptions::default());
        match &e.program {
            Some(p) => {
                exported += 1;
                versions[e.version as usize] += 1;
                assert_eq!(
                    tgsi::agal::decode(&e.bytes).as_ref(),
                    Ok(p),
                    "{}",
                    f.display()
                );
                let errs: Vec<_> = tgsi::agal::validate(p)
                    .into_iter()
                    .filter(|x| x.severity == tgsi::diag::Severity::Error)
                    .collect();
                assert!(errs.is_empty(), "{}: {:?}", f.display(), errs);
            }
            None => {
                let first = e
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .expect("a failed export has an error");
                let reason = match first.code {
                    "A0200" => first
                        .message
                        .split(": ")
                        .skip(1)
                        .collect::<Vec<_>>()
                        .join(": "),
                    code => format!("[{}] {}", code, first.message),
                };
                let reason: String = reason.chars().take(90).collect();
                *reasons.entry(reason).or_insert(0) += 1;
            }
        }
    }
    println!(
        "parsed {} of {} corpus shaders; exported {} (AGAL 1: {}, 2: {}, 3: {})",
        parsed,
        files.len(),
        exported,
        versions[1],
        versions[2],
        versions[3]
    );
    let mut by_count: Vec<_> = reasons.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1));
    for (r, n) in by_count {
        println!("{:4}  {}", n, r);
    }
    assert!(exported > 0);
}
