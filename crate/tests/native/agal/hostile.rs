//! Hostile input never panics: truncated, wrong magic, bad register types, huge indices, and
//! deterministic random bytes and text go through the decoder, validator, disassembler and
//! assembler; whatever decodes re-encodes to the same bytes.

use crate::rng::Rng;
use tgsi::agal::{self, ShaderKind};

const CORPUS: &str = corpus!("/agal");

/// Decodes, and for accepted input checks re-encoding and that the other stages do not panic.
fn exercise(bytes: &[u8]) -> bool {
    match agal::decode(bytes) {
        Err(e) => {
            assert!(e.offset <= bytes.len(), "offset {} past {} bytes", e.offset, bytes.len());
            false
        }
        Ok(p) => {
            assert_eq!(agal::encode(&p), bytes);
            let _ = agal::validate(&p);
            let text = agal::disassemble(&p);
            let again = agal::assemble(&text, p.kind, p.version);
            if again.errors.is_empty() {
                assert_eq!(agal::encode(&again.program), bytes, "{}", text);
            }
            true
        }
    }
}

fn corpus_sample() -> Vec<u8> {
    std::fs::read(format!("{}/f02_tex_flag_combos.bin", CORPUS)).unwrap()
}

#[test]
fn truncations_of_a_valid_program() {
    let good = corpus_sample();
    for n in 0..good.len() {
        if n >= 31 && (n - 7) % 24 == 0 {
            // Cutting between whole tokens leaves a shorter valid program.
            assert!(exercise(&good[..n]));
            continue;
        }
        let e = agal::decode(&good[..n]).unwrap_err();
        // docs/agal.md "Layout": size must be 7 + 24n with n >= 1.
        assert!(e.code == "A3615" || e.code == "A0001", "{} bytes: {:?}", n, e);
    }
    assert!(exercise(&good));
}

#[test]
fn header_errors_have_their_offsets() {
    let good = corpus_sample();
    let mut b = good.clone();
    b[0] = 0xA1;
    assert_eq!(
        (agal::decode(&b).unwrap_err().offset, agal::decode(&b).unwrap_err().code),
        (0, "A3612")
    );
    let mut b = good.clone();
    b[1] = 9;
    assert_eq!(agal::decode(&b).unwrap_err().code, "A3617");
    let mut b = good.clone();
    b[5] = 0;
    assert_eq!(agal::decode(&b).unwrap_err().offset, 5);
    let mut b = good.clone();
    b[6] = 7;
    assert_eq!(agal::decode(&b).unwrap_err().code, "A3619");
}

#[test]
fn bad_register_types_and_huge_indices() {
    let good = corpus_sample();
    // Token 1 is `tex ft0, v0, fs0 …`: byte 7+7 is the destination type, 7+12 source 1's type.
    let mut b = good.clone();
    b[7 + 7] = 0x09;
    let e = agal::decode(&b).unwrap_err();
    assert_eq!((e.offset, e.code), (14, "A3655"));
    let mut b = good.clone();
    b[7 + 12] = 0x0F;
    assert_eq!(agal::decode(&b).unwrap_err().code, "A3655");
    // Huge register numbers decode and are reported by the validator, not by a panic.
    let mut b = good.clone();
    b[7 + 4] = 0xFF;
    b[7 + 5] = 0xFF;
    let p = agal::decode(&b).unwrap();
    assert!(agal::validate(&p).iter().any(|f| f.code == "A3661"));
    // Opcode past the table.
    let mut b = good;
    b[7] = 0x40;
    assert_eq!(agal::decode(&b).unwrap_err().code, "A3620");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x5EED_A6A1);
    let good = corpus_sample();
    let mut accepted = 0;
    for round in 0..20_000 {
        let bytes: Vec<u8> = if round % 2 == 0 {
            // Valid header, random tokens with small opcodes so that many decode.
            let mut b = good[..7].to_vec();
            for _ in 0..rng.below(4) * 24 + rng.below(2) * rng.below(24) {
                let r = rng.next() as u8;
                b.push(if b.len() % 24 == 7 {
                    r % 0x30
                } else if rng.below(3) == 0 {
                    0
                } else {
                    r
                });
            }
            b
        } else {
            // A corpus program with a few bytes flipped.
            let mut b = good.clone();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            b
        };
        accepted += exercise(&bytes) as usize;
    }
    assert!(accepted > 100, "only {} random inputs decoded", accepted);
}

#[test]
fn random_text_never_panics() {
    let pieces = [
        "mov",
        "tex",
        "m44",
        "kil",
        "ife",
        "els",
        "eif",
        " ",
        ", ",
        "vt0",
        "ft9",
        "vc[",
        "va0.x",
        "+",
        "-",
        "300",
        "]",
        ".xyzw",
        ".q",
        "<",
        ">",
        "2d",
        "cube",
        "-1.5",
        "99999",
        "fs",
        "oc",
        "op",
        "\n",
        "//",
        "é",
        "[",
        "vc[vt0.y+255]",
        "fd",
        "iid",
        "99999999999",
    ];
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let mut text = String::new();
        for _ in 0..rng.below(12) {
            text.push_str(pieces[rng.below(pieces.len())]);
        }
        for kind in [ShaderKind::Vertex, ShaderKind::Fragment] {
            let a = agal::assemble(&text, kind, 1 + rng.below(3) as u32);
            for d in &a.errors {
                assert!(d.span.end as usize <= text.len() + 1, "{:?} in {:?}", d, text);
            }
            let _ = agal::validate(&a.program);
        }
    }
}
