//! The assembler reproduces every `.bin` of the AGAL corpus (Adobe's bytes) from its `.agal`,
//! and the disassembler round-trips every `.bin` (`corpus/agal/MANIFEST.md`, `adobe/README.md`).

use std::path::{Path, PathBuf};
use tgsi::agal::{self, ShaderKind};

const CORPUS: &str = corpus!("/agal");

/// Every `.bin` (not `.away.bin`) in the corpus and its `adobe/` folder.
fn bins() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [PathBuf::from(CORPUS), Path::new(CORPUS).join("adobe")] {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("corpus dir").map(|e| e.unwrap().path()).collect();
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

/// Header fields read straight from the reference bytes (docs/agal.md "Layout"): version at 1..5,
/// type at 6.
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
        let Ok(text) = std::fs::read_to_string(&src) else {
            continue;
        };
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
        assert_eq!(
            hexdump(&agal::encode(&again.program)),
            hexdump(&bytes),
            "{}:\n{}",
            bin.display(),
            text
        );
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

/// Every corpus program is valid except these, whose problems are worked out by hand from the
/// sources (docs/agal.md "Semantics"): f08 `sat ft5, ft4` reads ft4.w after `crs ft4.xyz` (#3648);
/// f16 writes oc partially and twice (#3701 ×2, #3744, as MANIFEST.md says Flash rejects it); v04
/// and v05 copy vt1 (written .xyz by crs / m34) in full into a varying (#3648); Ruffle's
/// misc_opcodes writes m33/m34 results with a full mask (#3628 ×2) and uses never-written vt4, vt5
/// and vt5 as matrix rows or sources (#3647 ×3, docs/agal.md "Where implementations disagree").
#[test]
fn validator_findings_on_the_corpus() {
    let expected: &[(&str, &[&str])] = &[
        ("f08_alu_fragment.bin", &["A3648"]),
        ("f16_oc_write_masks.bin", &["A3701", "A3701", "A3744"]),
        ("v04_vector_ops.bin", &["A3648"]),
        ("v05_matrix_ops.bin", &["A3648"]),
        ("ruffle_misc_opcodes_vertex.bin", &["A3628", "A3647", "A3647", "A3628", "A3647"]),
    ];
    for bin in bins() {
        let name = bin.file_name().unwrap().to_string_lossy().to_string();
        let p = agal::decode(&std::fs::read(&bin).unwrap()).unwrap();
        let codes: Vec<&str> = agal::validate(&p).iter().map(|f| f.code).collect();
        let want: Vec<&str> =
            expected.iter().find(|(n, _)| *n == name).map(|(_, c)| c.to_vec()).unwrap_or_default();
        assert_eq!(codes, want, "{}", name);
    }
}
