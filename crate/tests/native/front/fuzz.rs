//! Property test of the parser on hostile input (deterministic, no dependency): random bytes,
//! random token soup and mutated corpus files must never panic, and must always give either a
//! shader (with no error) or at least one error with a real position. Whatever parses must
//! also print (both styles) and read back, and the exact style must round-trip the model.

use crate::rng::Rng;
use std::path::Path;
use tgsi::text::{self, strip_spans, Style};

const TOKENS: &[&str] = &[
    "FRAG",
    "VERT",
    "GEOM",
    "COMP",
    "TESS_CTRL",
    "DCL",
    "IMM",
    "PROPERTY",
    "MOV",
    "ADD",
    "MAD",
    "TEX",
    "IF",
    "UIF",
    "ELSE",
    "ENDIF",
    "BGNLOOP",
    "ENDLOOP",
    "END",
    "EMIT",
    "LOAD",
    "STORE",
    "ATOMUADD",
    "SAMPLE",
    "TXF",
    "KIL",
    "SUB",
    "XPD",
    "DFRACEXP",
    "TEMP",
    "IN",
    "OUT",
    "CONST",
    "SAMP",
    "SVIEW",
    "IMAGE",
    "BUFFER",
    "MEMORY",
    "ADDR",
    "SV",
    "RES",
    "IMMX",
    "FLT32",
    "UINT32",
    "INT32",
    "FLT64",
    "UINT64",
    "INT64",
    "GENERIC",
    "POSITION",
    "COLOR",
    "LINEAR",
    "CENTROID",
    "INVARIANT",
    "ARRAY",
    "LOCAL",
    "STREAM",
    "2D",
    "CUBE",
    "SHADOW2D",
    "2D_ARRAY",
    "FLOAT",
    "UINT",
    "WR",
    "RAW",
    "PIPE_FORMAT_R8_UNORM",
    "COHERENT",
    "GS_INPUT_PRIMITIVE",
    "TRIANGLES",
    "NEXT_SHADER",
    "_SAT",
    "[",
    "]",
    "[]",
    "(",
    ")",
    "{",
    "}",
    ",",
    ".",
    "..",
    ":",
    "-",
    "+",
    "|",
    ".xyzw",
    ".x",
    ".wx",
    "0",
    "1",
    "7",
    "-3",
    "4294967296",
    "0.5",
    "-1e-3",
    "0x3f800000",
    "0x1p-3",
    "inf",
    "nan",
    " ",
    " ",
    " ",
    "\n",
    "\n",
    "\r\n",
    "\t",
    ";",
    "; comment\n",
    "é",
    "\0",
];

/// Checks the properties; returns whether the text parsed.
fn check(src: &str, what: &str) -> bool {
    let parsed = std::panic::catch_unwind(|| text::parse(src))
        .unwrap_or_else(|_| panic!("parse panicked on {}: {:?}", what, src));
    for d in &parsed.diagnostics {
        assert!(
            d.line >= 1 && d.column >= 1,
            "{}: diagnostic without position {:?}\n{:?}",
            what,
            d,
            src
        );
        assert!(
            d.span.start <= d.span.end && d.span.end as usize <= src.len(),
            "{}: bad span {:?}",
            what,
            d
        );
    }
    match &parsed.shader {
        Some(shader) => {
            assert!(!parsed.has_errors(), "{}: a shader and an error", what);
            let exact = text::print(shader, Style::Exact);
            let again = text::parse(&exact);
            assert!(
                !again.has_errors(),
                "{}: exact output does not parse\n{:?}\n{:#?}\n{}",
                what,
                src,
                again.diagnostics,
                exact
            );
            assert!(
                strip_spans(shader) == strip_spans(again.shader.as_ref().unwrap()),
                "{}: round trip changed the model\n{:?}\n{}",
                what,
                src,
                exact
            );
            let mesa = text::print(shader, Style::Mesa);
            assert!(
                !text::parse(&mesa).has_errors(),
                "{}: mesa output does not parse\n{:?}\n{}",
                what,
                src,
                mesa
            );
        }
        None => assert!(parsed.has_errors(), "{}: neither a shader nor an error", what),
    }
    parsed.shader.is_some()
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..3000 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let mut src = String::from_utf8_lossy(&bytes).into_owned();
        if round % 2 == 0 {
            src.insert_str(0, "FRAG\n");
        }
        check(&src, "random bytes");
    }
}

#[test]
fn token_soup_never_panics() {
    let mut rng = Rng(42);
    for _ in 0..4000 {
        let mut src =
            String::from(*rng.pick(&["FRAG\n", "VERT\n", "GEOM\n", "COMP\n", "TESS_CTRL\n", ""]));
        for _ in 0..rng.below(60) {
            let token: &&str = rng.pick(TOKENS);
            src.push_str(token);
            if rng.below(3) == 0 {
                src.push(' ');
            }
        }
        check(&src, "token soup");
    }
}

fn corpus_texts() -> Vec<String> {
    let corpus = Path::new(corpus!());
    let mut out = Vec::new();
    let mut stack = vec![corpus.join("softpipe"), corpus.join("third-party")];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tgsi" || x == "sh" || x == "txt")
                && !p.ends_with("SOURCES.txt")
            {
                out.push(String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned());
            }
        }
    }
    out.sort();
    assert!(out.len() > 100, "corpus not found under {}", corpus.display());
    out
}

#[test]
fn mutated_corpus_files_never_panic() {
    let texts = corpus_texts();
    let mut rng = Rng(7);
    let mut parsed = 0;
    for round in 0..6000 {
        let text = &texts[round % texts.len()];
        let b = if round % 2 == 0 {
            gentle_mutation(text, &mut rng)
        } else {
            byte_mutation(text, &mut rng)
        };
        parsed += check(&String::from_utf8_lossy(&b), "mutated corpus file") as usize;
    }
    // Many mutants must still parse, or the round-trip half of the property tests nothing.
    assert!(parsed > 1000, "only {} of 6000 mutants parsed", parsed);
}

/// Byte-level damage: overwrite, delete, insert a token, cut, copy a chunk, truncate.
fn byte_mutation(text: &str, rng: &mut Rng) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let at = rng.below(b.len());
        match rng.below(6) {
            0 => b[at] = rng.next() as u8,
            1 => {
                b.remove(at);
            }
            2 => {
                let t = rng.pick(TOKENS).as_bytes().to_vec();
                b.splice(at..at, t);
            }
            3 => {
                let end = (at + rng.below(40)).min(b.len());
                b.drain(at..end);
            }
            4 => {
                let end = (at + rng.below(40)).min(b.len());
                let chunk = b[at..end].to_vec();
                let to = rng.below(b.len());
                b.splice(to..to, chunk);
            }
            _ => b.truncate(at),
        }
    }
    b
}

/// Changes that often keep the text valid: duplicate, drop or swap lines (not the header),
/// change a digit, flip case, change a swizzle letter, add blanks and comments.
fn gentle_mutation(text: &str, rng: &mut Rng) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        if lines.len() < 2 {
            break;
        }
        let i = 1 + rng.below(lines.len() - 1);
        match rng.below(8) {
            0 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            1 => {
                lines.remove(i);
            }
            2 => {
                let j = 1 + rng.below(lines.len() - 1);
                lines.swap(i, j);
            }
            3 => {
                let digits: Vec<usize> = lines[i]
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(k, _)| k)
                    .collect();
                if !digits.is_empty() {
                    let k = *rng.pick(&digits);
                    let d = (b'0' + rng.below(10) as u8) as char;
                    lines[i].replace_range(k..k + 1, &d.to_string());
                }
            }
            4 => lines[i] = lines[i].to_ascii_lowercase(),
            5 => {
                let letters: Vec<usize> = lines[i]
                    .char_indices()
                    .filter(|(_, c)| "xyzw".contains(*c))
                    .map(|(k, _)| k)
                    .collect();
                if !letters.is_empty() {
                    let k = *rng.pick(&letters);
                    let c = *rng.pick(&["x", "y", "z", "w"]);
                    lines[i].replace_range(k..k + 1, c);
                }
            }
            6 => lines[i].push_str(" ; note"),
            _ => lines[i] = format!("\t {}  ", lines[i].replace(", ", " ,  ")),
        }
    }
    let mut out = lines.join(if rng.below(4) == 0 { "\r\n" } else { "\n" });
    out.push('\n');
    out.into_bytes()
}
