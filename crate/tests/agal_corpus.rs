//! The assembler reproduces every `.bin` of the AGAL corpus (Adobe's bytes) from its `.agal`,
//! and the disassembler round-trips every `.bin` (`corpus/agal/MANIFEST.md`, `adobe/README.md`).

use std::path::{Path, PathBuf};
use tgsi::agal::{self, ShaderKind};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/agal");

/// Every `.bin` (not `.away.bin`) in the corpus and its `adobe/` folder.
fn bins() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [PathBuf::from(CORPUS), Path::new(CORPUS).join("adobe")] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir).expect("corpus dir").map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".bin") && !name.ends_with(".away.bin") {
                out.push(p);
            }
        }
    }
    assert!(out.len() >= 25, "corpus has {} bins", out.len());
    out
}

/// Header fields read straight from the reference bytes (§1): version at 1..5, type at 6.
fn header(bytes: &[u8]) -> (u32, ShaderKind) {
    let version = u32::from_le_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
    let kind = if bytes[6] == 0 { ShaderKind::Vertex } else { ShaderKind::Fragment };
    (version, kind)
}

#[test]
fn assembler_reproduces_every_corpus_bin() {
    let mut checked = 0;
    for bin in bins() {
        let src = bin.with_extension("agal");
        let Ok(text) = std::fs::read_to_string(&src) else { continue };
        let expected = std::fs::read(&bin).unwrap();
        let (version, kind) = header(&expected);
        let out = agal::assemble(&text, kind, version);
        assert!(out.errors.is_empty(), "{}: {:?}", src.display(), out.errors);
        let got = agal::encode(&out.program);
        assert_eq!(hexdump(&got), hexdump(&expected), "{}", src.display());
        checked += 1;
    }
    assert!(checked >= 25, "only {} .agal files checked", checked);
}

#[test]
fn disassembler_round_trips_every_corpus_bin() {
    for bin in bins() {
        let bytes = std::fs::read(&bin).unwrap();
        let program = agal::decode(&bytes).unwrap_or_else(|e| panic!("{}: {}", bin.display(), e));
        assert_eq!(agal::encode(&program), bytes, "{}: re-encoding", bin.display());
        let text = agal::disassemble(&program);
        let again = agal::assemble(&text, program.kind, program.version);
        assert!(again.errors.is_empty(), "{}: {:?}\n{}", bin.display(), again.errors, text);
        assert_eq!(hexdump(&agal::encode(&again.program)), hexdump(&bytes), "{}:\n{}", bin.display(), text);
    }
}

fn hexdump(b: &[u8]) -> String {
    let mut s = String::new();
    for (i, x) in b.iter().enumerate() {
        if i == 7 || (i > 7 && (i - 7) % 24 == 0) {
            s.push('\n');
        }
        s.push_str(&format!("{:02x}", x));
    }
    s
}
