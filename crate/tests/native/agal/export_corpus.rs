//! Every TGSI shader of the corpus goes through the export without panicking; what exports
//! passes our validator and decodes back to the same program. Prints a summary (exported,
//! refused by reason) used in `docs/agal.md`.
#![allow(clippy::needless_range_loop, clippy::approx_constant, clippy::unnecessary_sort_by)]

use crate::agal_common::tgsi_files;
use crate::rng::Rng;
use crate::support::export;
use std::collections::BTreeMap;
use std::path::Path;
use tgsi::agal::lower::ExportOptions;

const CORPUS: &str = corpus!();

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
                assert_eq!(tgsi::agal::decode(&e.bytes).as_ref(), Ok(p), "{}", f.display());
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
                    "A0200" => first.message.split(": ").skip(1).collect::<Vec<_>>().join(": "),
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

/// Corpus shaders with lines deleted, duplicated or swapped never make the export panic.
#[test]
fn mutated_corpus_shaders_never_panic() {
    let mut files = Vec::new();
    tgsi_files(Path::new(CORPUS), &mut files);
    let mut rng = Rng(0x00A6_A1E7);
    let mut exported = 0;
    for f in files.iter().take(60) {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..20 {
            let mut l = lines.clone();
            for _ in 0..1 + rng.next() % 3 {
                let n = l.len().max(1);
                let (i, j) = ((rng.next() as usize) % n, (rng.next() as usize) % n);
                match rng.next() % 3 {
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
    // The validator refuses the huge declarations before the export starts.
    assert!(e.diagnostics.iter().any(|d| d.code == "V501"), "{:?}", e.diagnostics.first());
}

/// Random instruction soups (all opcodes of the table, odd operands, huge and negative indices,
/// every file) go through the export without panicking; what exports validates.
#[test]
fn random_instruction_soups_never_panic() {
    let files = [
        "TEMP[0]",
        "TEMP[7]",
        "TEMP[65535]",
        "IN[0]",
        "IN[3]",
        "OUT[0]",
        "OUT[1]",
        "CONST[0]",
        "CONST[300]",
        "IMM[0]",
        "IMM[5]",
        "ADDR[0]",
        "SAMP[0]",
        "SV[0]",
        "CONST[ADDR[0].x+2]",
        "CONST[ADDR[0].x-3]",
        "TEMP[ADDR[0].x]",
        "CONST[1][0]",
    ];
    let mods = ["", "-", "|", "-|"];
    let swz = ["", ".x", ".xyzw", ".wzyx", ".xxxx", ".y"];
    let masks = ["", ".x", ".xy", ".w", ".xyz"];
    let ops: Vec<&tgsi::opcode::OpInfo> = tgsi::opcode::Opcode::all().map(|o| o.info()).collect();
    let mut rng = Rng(0xC0FFEE);
    let (mut parsed, mut exported) = (0, 0);
    for round in 0..3000 {
        let proc_ = if round % 2 == 0 { "FRAG" } else { "VERT" };
        let mut src = format!(
            "{}\nDCL IN[0..3]{}\nDCL OUT[0], {}\nDCL OUT[1], GENERIC[1]\nDCL TEMP[0..7]\nDCL CONST[0..3]\nDCL ADDR[0]\nDCL SAMP[0]\nIMM[0] FLT32 {{ 1.0, -2.0, 0.5, 0.0 }}\n",
            proc_,
            if round % 2 == 0 { ", GENERIC[0], PERSPECTIVE" } else { "" },
            if round % 2 == 0 { "COLOR" } else { "POSITION" }
        );
        for _ in 0..1 + rng.next() % 8 {
            // Mostly the opcode's own operand counts, sometimes a plain float opcode.
            let info = if rng.next().is_multiple_of(2) {
                ops[(rng.next() as usize) % ops.len()]
            } else {
                tgsi::opcode::Opcode::ADD.info()
            };
            let pick = |r: &mut Rng, xs: &[&str]| xs[(r.next() as usize) % xs.len()].to_string();
            let mut operands = Vec::new();
            for _ in 0..info.num_dst {
                operands.push(format!("{}{}", pick(&mut rng, &files), pick(&mut rng, &masks)));
            }
            for _ in 0..info.num_src {
                let m = pick(&mut rng, &mods);
                let reg = format!("{}{}", pick(&mut rng, &files), pick(&mut rng, &swz));
                operands.push(if m.contains('|') {
                    format!("{}{}|", m, reg)
                } else {
                    format!("{}{}", m, reg)
                });
            }
            if info.has(tgsi::opcode::F_TEX) {
                operands.push(pick(&mut rng, &["2D", "CUBE", "3D", "RECT", "SHADOW2D"]));
            }
            src.push_str(&format!("  {} {}\n", info.name, operands.join(", ")));
        }
        src.push_str("  MOV OUT[0], IN[0]\n  END\n");
        let Some(shader) = tgsi::text::parse(&src).shader else { continue };
        parsed += 1;
        let e = export(&shader, &ExportOptions::default());
        if let Some(p) = &e.program {
            exported += 1;
            let errs: Vec<_> = tgsi::agal::validate(p)
                .into_iter()
                .filter(|x| x.severity == tgsi::diag::Severity::Error)
                .collect();
            assert!(errs.is_empty(), "{:?}\n{}", errs, src);
        }
    }
    println!("{} soups parsed, {} exported", parsed, exported);
    assert!(parsed > 1000 && exported > 0, "{} parsed, {} exported", parsed, exported);
}
