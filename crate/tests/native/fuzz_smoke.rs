//! The fuzz targets on the stable toolchain, deterministically: every body of
//! `tgsi::fuzzing::TARGETS` (the same code the libFuzzer targets in `fuzz/` call) over its seed
//! corpus — the test data `scripts/fuzz.sh` seeds the fuzzer with, and the small seeds kept in
//! `fuzz/seeds/` — plus `GENERATED` inputs per target made from the seeds by a fixed-seed
//! xorshift mutator. No input may panic or break a promise the body checks (diagnostics inside
//! the input and capped, budgets respected — counted, never timed — round trips, texture
//! bytes), and every run stays within `fuzzing::BUDGET` instructions.

use crate::rng::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use tgsi::fuzzing::{self, Outcome, Target};

/// Mutated inputs per target.
const GENERATED: usize = 1000;
/// Longest generated input.
const MAX_LEN: usize = 1 << 16;

/// Words each target's inputs are made of, for the mutator to insert.
fn dictionary(target: &str) -> &'static [&'static str] {
    match target {
        "tgsi_text" | "render" => &[
            "FRAG\n",
            "VERT\n",
            "GEOM\n",
            "COMP\n",
            "DCL TEMP[0..3]\n",
            "DCL IN[0], GENERIC[0], PERSPECTIVE\n",
            "DCL OUT[0], COLOR\n",
            "DCL OUT[0], POSITION\n",
            "DCL SAMP[0]\n",
            "DCL SVIEW[0], 2D, FLOAT\n",
            "DCL CONST[0][0..4]\n",
            "IMM[0] FLT32 { 1.0, 0.5, -2.0, 1e30}\n",
            "IMM[1] UINT32 {4294967295, 0, 1, 2}\n",
            "BGNLOOP\n",
            "ENDLOOP\n",
            "BRK\n",
            "CONT\n",
            "IF TEMP[0].xxxx\n",
            "UIF TEMP[0].xxxx\n",
            "ELSE\n",
            "ENDIF\n",
            "SWITCH TEMP[0].xxxx\n",
            "CASE IMM[1].xxxx\n",
            "DEFAULT\n",
            "ENDSWITCH\n",
            "CAL :7\n",
            "BGNSUB\n",
            "ENDSUB\n",
            "RET\n",
            "KILL\n",
            "EMIT IMM[1].yyyy\n",
            "END\n",
            "MOV TEMP[0], IN[0]\n",
            "ADD TEMP[0], TEMP[0], IMM[0]\n",
            "TEX TEMP[1], TEMP[0], SAMP[0], 2D\n",
            "UDIV TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy\n",
            "MOV OUT[0], TEMP[0]\n",
            "TEMP[ADDR[0].x+1]",
            "PROPERTY CS_FIXED_BLOCK_WIDTH 4\n",
            "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n",
            "_SAT",
            ".xyzw",
            "-|",
            "|",
            "0x7fc00000",
            "2147483647",
            "-0",
            "[",
            "]",
            ",",
            "\0",
        ],
        "agal_asm" => &[
            "mov ",
            "add ",
            "tex ",
            "kil ",
            "m44 ",
            "ife ",
            "els\n",
            "eif\n",
            "ft0",
            "fc0",
            "v0",
            "fs0",
            "vt0",
            "va0",
            "vc[va0.x+5]",
            "op",
            "oc",
            "fd",
            ".xyzw",
            "<2d,linear,mipnone,repeat>",
            "<cube,nearest,clamp,dxt5>",
            ", ",
            "\n",
            "//",
            "-1",
            "4096",
            "\r",
        ],
        "texture_json" => &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"target\": \"3D\"",
            "\"format\": \"RGBA32F\"",
            "\"width\": 65535",
            "\"height\": 4096",
            "\"depth\": 64",
            "\"layers\": 2048",
            "\"levels\": 16",
            "\"texels\": [[1,2,3,4]]",
            "\"textures\": [",
            "\"unit\": 4294967295",
            "\"faces\": [",
            "\"images\": [\"a.png\"]",
            "-1",
            "1e300",
            "\"0x7f800000\"",
            "null",
        ],
        "vertices_json" => &[
            "{",
            "}",
            "[",
            "]",
            ",",
            "\"attributes\": [{\"name\": \"a\", \"location\": 2, \"components\": 3, \"kind\": \"u\"}]",
            "\"location\": 31",
            "\"components\": 4",
            "\"kind\": \"i\"",
            "{\"a\": [4294967295, -1, \"0x7fc00000\"]}",
            "\"draws\": [{\"mode\": \"TRIANGLE_FAN\", \"first\": 0, \"count\": 65536}]",
            "\"mode\": \"TRIANGLE_STRIP\"",
            "\"front_face\": \"CW\"",
            "\"provoking_vertex\": \"FIRST\"",
            "\"count\": 1048576",
            "1e38",
            "-3.5e-45",
            "\"\\ud800\"",
            "null",
        ],
        _ => &[
            "x",
            "X",
            ":",
            "=",
            ",",
            "0x3f800000",
            "0xFFFFFFFF",
            "4294967295",
            "-",
            "1e39",
            "nan",
            "inf",
            "nearest",
            "linear",
            "repeat",
            "clamp",
            "mirror",
            "border",
            "mipmap",
            "\n",
            "31",
            "4095",
        ],
    }
}

/// One input changed a few times: bits, bytes, ranges, dictionary words, splices, numbers.
fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], dict: &[&str]) -> Vec<u8> {
    let mut v = seeds.get(rng.below(seeds.len())).cloned().unwrap_or_default();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                const BYTES: &[u8] = b"\0\xff\x7f\x80\n\r 09-.[{\"x,;";
                let i = at.min(v.len() - 1);
                v[i] = BYTES[rng.below(BYTES.len())];
            }
            2 => {
                let end = (at + 1 + rng.below(32)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 if !v.is_empty() => {
                let start = rng.below(v.len());
                let end = (start + 1 + rng.below(64)).min(v.len());
                let piece = v[start..end].to_vec();
                let to = rng.below(v.len() + 1);
                v.splice(to..to, piece);
            }
            4 => {
                let word = dict[rng.below(dict.len())].as_bytes();
                v.splice(at..at, word.iter().copied());
            }
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                v.truncate(at);
                v.extend_from_slice(&other[from..]);
            }
            _ => {
                let n = match rng.below(4) {
                    0 => u64::from(u32::MAX),
                    1 => 1 << rng.below(40),
                    2 => 0,
                    _ => rng.next(),
                };
                v.splice(at..at, n.to_string().bytes());
            }
        }
    }
    v.truncate(MAX_LEN);
    v
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files under `dir` (recursively) whose names end with `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The seed corpus of `target`: what `scripts/fuzz.sh` gives libFuzzer (the same folders and
/// the same framing), and `fuzz/seeds/TARGET/`.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let corpus = PathBuf::from(corpus!());
    let tests = repo().join("tests");
    let mut out: Vec<Vec<u8>> =
        files(&repo().join("fuzz/seeds").join(target), "").iter().map(|p| read(p)).collect();
    let tgsi_files = || {
        let mut v = files(&corpus.join("softpipe"), ".tgsi");
        v.extend(files(&corpus.join("third-party"), ".tgsi"));
        v.extend(files(&corpus.join("third-party"), ".txt"));
        // Every fourth piglit shader: they are many and much alike.
        v.extend(files(&corpus.join("piglit"), ".tgsi").into_iter().step_by(4));
        v.extend(files(&tests.join("texture-cases"), ".tgsi"));
        v.extend(files(&tests.join("diagnostics"), ".tgsi"));
        v.extend(files(&tests.join("snapshots/inputs"), ".tgsi"));
        v
    };
    match target {
        "tgsi_text" => out.extend(tgsi_files().iter().map(|p| read(p))),
        "agal_bytes" => out.extend(files(&corpus.join("agal"), ".bin").iter().map(|p| read(p))),
        "agal_asm" => {
            for p in files(&corpus.join("agal"), ".agal") {
                let name =
                    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let fragment = name.starts_with('f') || name.contains("fragment");
                let version = if name.contains("_v2") { 2u8 } else { 1 };
                let mut v = vec![(version - 1) << 1 | u8::from(fragment)];
                v.extend(read(&p));
                out.push(v);
            }
        }
        "texture_json" => {
            out.extend(files(&tests.join("texture-cases"), ".json").iter().map(|p| read(p)))
        }
        "vertices_json" => {
            out.extend(
                files(&tests.join("vertex-cases"), ".vertices.json").iter().map(|p| read(p)),
            );
            // The piglit draws the corpus keeps (one in five: they are many and much alike).
            let piglit = files(&corpus.join("piglit"), ".vertices.json");
            out.extend(piglit.iter().map(|p| read(p)));
        }
        "render" => {
            for fs in files(&corpus.join("softpipe"), ".tgsi") {
                let name = fs.to_string_lossy().into_owned();
                if name.ends_with(".vs.tgsi") {
                    continue;
                }
                let fs_text = String::from_utf8_lossy(&read(&fs)).into_owned();
                let vs = fs.with_extension("vs.tgsi");
                let vs_text = vs.exists().then(|| String::from_utf8_lossy(&read(&vs)).into_owned());
                out.push(fuzzing::render_input(7, 5, 0, &fs_text, vs_text.as_deref()));
            }
        }
        _ => {}
    }
    out
}

/// What a campaign over one target found.
#[derive(Default)]
struct Findings {
    inputs: usize,
    accepted: usize,
    completed: usize,
    problems: Vec<String>,
}

/// Runs `body` over the seeds and `generated` mutations of them.
fn campaign(name: &str, body: Target, seeds: &[Vec<u8>], generated: usize) -> Findings {
    let mut found = Findings::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    let dict = dictionary(name);
    let mut one = |input: &[u8], label: String| {
        found.inputs += 1;
        let shown = || {
            let s = String::from_utf8_lossy(&input[..input.len().min(400)]).into_owned();
            format!("{name} {label} ({} bytes): {s:?}", input.len())
        };
        match catch_unwind(AssertUnwindSafe(|| body(input))) {
            Err(_) => found.problems.push(format!("panicked: {}", shown())),
            Ok(Err(broken)) => found.problems.push(format!("{broken}\n  input: {}", shown())),
            Ok(Ok(Outcome { accepted, completed, instructions })) => {
                if instructions > fuzzing::BUDGET {
                    found.problems.push(format!("ran {instructions} instructions: {}", shown()));
                }
                found.accepted += usize::from(accepted);
                found.completed += usize::from(completed);
            }
        }
    };
    for (i, s) in seeds.iter().enumerate() {
        one(s, format!("seed {i}"));
    }
    for i in 0..generated {
        let input = mutate(&mut rng, seeds, dict);
        one(&input, format!("generated {i}"));
    }
    found
}

#[test]
fn every_fuzz_target_survives_its_seeds_and_generated_inputs() {
    let mut problems = Vec::new();
    for &(name, body) in fuzzing::TARGETS {
        let seeds = seeds(name);
        assert!(!seeds.is_empty(), "{name}: no seeds");
        let f = campaign(name, body, &seeds, GENERATED);
        eprintln!(
            "fuzz smoke {name}: {} inputs ({} seeds), {} accepted, {} went all the way",
            f.inputs,
            seeds.len(),
            f.accepted,
            f.completed
        );
        // The seeds are real inputs: some of them must get through, or the framing is wrong.
        assert!(f.completed > 0, "{name}: no input went all the way");
        problems.extend(f.problems);
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// The harness sees a broken promise and a panic (so the test above can fail).
#[test]
fn the_smoke_harness_reports_broken_promises_and_panics() {
    fn broken(data: &[u8]) -> Result<Outcome, String> {
        match data.first() {
            Some(b'!') => Err("a broken promise".into()),
            Some(b'?') => panic!("a panic"),
            _ => Ok(Outcome { accepted: true, completed: true, instructions: fuzzing::BUDGET + 1 }),
        }
    }
    let seeds = vec![b"!".to_vec(), b"?".to_vec(), b"ok".to_vec()];
    let f = campaign("test", broken, &seeds, 0);
    assert_eq!(f.inputs, 3);
    assert_eq!(f.problems.len(), 3, "{:?}", f.problems);
    assert!(f.problems[0].contains("a broken promise"));
    assert!(f.problems[1].starts_with("panicked"));
    assert!(f.problems[2].contains("instructions"));
    // The mutator is deterministic.
    let (mut a, mut b) = (Rng(7), Rng(7));
    assert_eq!(mutate(&mut a, &seeds, &["x"]), mutate(&mut b, &seeds, &["x"]));
}
