//! Every TGSI shader of the corpus goes through the export without panicking; what exports
//! passes our validator and decodes back to the same program. Prints a summary (exported,
//! refused by reason) used in `docs/agal.md`.
#![allow(
    clippy::needless_range_loop,
    clippy::approx_constant,
    clippy::unnecessary_sort_by
)]

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

/// xorshift64*, fixed seed.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Corpus shaders with lines deleted, duplicated or swapped never make the export panic.
#[test]
fn mutated_corpus_shaders_never_panic() {
    let mut files = Vec::new();
    tgsi_files(Path::new(CORPUS), &mut files);
    let mut rng = 0x00A6_A1E7_u64;
    let mut exported = 0;
    for f in files.iter().take(60) {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..20 {
            let mut l = lines.clone();
            for _ in 0..1 + next(&mut rng) % 3 {
                let n = l.len().max(1);
                let (i, j) = ((next(&mut rng) as usize) % n, (next(&mut rng) as usize) % n);
                match next(&mut rng) % 3 {
                    0 if !l.is_empty() => {
                        l.remove(i);
                    }
                    1 if !l.is_empty() => l.insert(j, l[i]),
                    _ if !l.is_empty() => l.swap(i, j),
                    _ => {}
                }
            }
            let src = l.join("\n");
            if let Some(shader) = tgsi::text::parse(&src).shader {
                let e = export(&shader, &ExportOptions::default());
                if let Some(p) = &e.program {
                    exported += 1;
                    assert!(
                        tgsi::agal::validate(p)
                            .iter()
                            .all(|x| x.severity != tgsi::diag::Severity::Error),
                        "{}",
                        src
                    );
                }
            }
        }
    }
    assert!(exported > 0);
}

/// Huge declarations and long instruction streams end in a diagnostic, quickly.
#[test]
fn huge_shaders_are_bounded() {
    let mut src = String::from("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0..4000000]\nDCL TEMP[0..4000000]\n");
    for _ in 0..20_000 {
        src.push_str("IF IN[0].xxxx\nENDIF\n");
    }
    src.push_str("MOV OUT[0], IN[0]\nRET\nEND\n");
    let start = std::time::Instant::now();
    let shader = tgsi::text::parse(&src).shader.expect("parses");
    let e = export(&shader, &ExportOptions::default());
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    assert!(e.program.is_none());
    assert!(
        e.diagnostics.iter().any(|d| d.code == "A3629"),
        "{:?}",
        e.diagnostics.first()
    );
}
