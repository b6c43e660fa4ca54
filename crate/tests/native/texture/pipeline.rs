//! End to end through the interpreter: each case of `tests/texture-cases/` and the corpus shaders
//! 20_tex_nearest / 21_tex_linear are parsed, compiled and run on the interpreter with the
//! textures bound through `texture::bind::Bindings`; the pixels must equal softpipe's bit for bit.
//! Inputs as `tests/corpus/README.md`: GENERIC[0] = v_uv = ((x + 0.5)/W, (y + 0.5)/H), y from the
//! bottom; quads at even (x, y), lane l at (x + (l & 1), y + (l >> 1)).

use crate::support::compile;
use tgsi::exec::{Batch, Constants, Machine, MakeAccelerator};
use tgsi::ir::SemanticName;
use tgsi::texture::bind::Bindings;
use tgsi::texture::desc;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/texture-cases/");
const CORPUS: &str = corpus!("/softpipe/");

/// Cases the interpreter cannot pass yet, with the reason (none left: TG4, LODQ, indirect
/// samplers and per-quad TXQ levels now run).
const NOT_YET: &[(&str, &str)] = &[];

fn read_f32(path: &str) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

/// Runs one shader over a W×H frame; returns the number of differing pixels and the first few.
/// With `jit` the fragment program is compiled (`jit::native`): every batch must be run by the
/// module (a compiled run dispatches no instruction: its `RunStats::instructions` is 0), its
/// sampling through the `sample` import, and give the interpreter's outputs and work on the
/// same batch. Err when the JIT does not compile the program.
fn run_on(
    tgsi_path: &str,
    expected: &[u32],
    w: usize,
    h: usize,
    bindings: &mut Bindings,
    jit: bool,
) -> Result<(usize, Vec<String>), String> {
    let text = std::fs::read_to_string(tgsi_path).map_err(|e| e.to_string())?;
    let parsed = tgsi::text::parse(&text);
    let shader = parsed
        .shader
        .ok_or_else(|| format!("parse: {:?}", parsed.diagnostics.first().map(|d| &d.message)))?;
    let program = compile(&shader).map_err(|d| format!("compile: {}", d.message))?;
    let generic = program.input_index(SemanticName::Generic, 0);
    let color = program.output_index(SemanticName::Color, 0).unwrap_or(0);
    let consts = Constants::new();
    let nq = w / 2;
    let mut batch = Batch::new(&program, nq);
    let mut machine = Machine::new();
    let mut interp = Machine::new();
    if jit {
        let native = tgsi::jit::native::NativeProgram::new(&program)
            .map_err(|u| format!("not compiled: {}", u.reason))?;
        machine.accel = Some(native.make().ok_or("no instance")?);
    }
    let mut bad = Vec::new();
    let mut count = 0;
    for y0 in (0..h).step_by(2) {
        for q in 0..nq {
            if let Some(r) = generic {
                let uv = [0, 1, 2, 3].map(|l| {
                    let (x, y) = (q * 2 + (l & 1), y0 + (l >> 1));
                    [(x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32, 0.0, 1.0]
                });
                batch.set_input_f32(r as usize, q, uv);
            }
        }
        let mut again = batch.clone();
        let stats = machine
            .run_with(&program, &mut batch, &consts, bindings)
            .map_err(|e| format!("run: {}", e.diagnostic.message))?;
        if jit {
            if stats.instructions != 0 {
                return Err("a batch ran in the interpreter, not the module".into());
            }
            let want = interp
                .run_with(&program, &mut again, &consts, bindings)
                .map_err(|e| format!("run: {}", e.diagnostic.message))?;
            if want.work != stats.work || again.outputs != batch.outputs {
                return Err(format!("rows {y0}..: the interpreter's outputs or work differ"));
            }
        }
        for q in 0..nq {
            for l in 0..4 {
                let (x, y) = (q * 2 + (l & 1), y0 + (l >> 1));
                let got = batch.output_f32(color as usize, q, l).map(f32::to_bits);
                let want = &expected[(y * w + x) * 4..(y * w + x) * 4 + 4];
                if got != want {
                    count += 1;
                    if bad.len() < 4 {
                        bad.push(format!(
                            "({x},{y}) got {:?} want {:?}",
                            got.map(f32::from_bits),
                            want.iter().map(|b| f32::from_bits(*b)).collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
    }
    Ok((count, bad))
}

#[test]
fn texture_cases_through_the_interpreter() {
    texture_cases(false);
}

/// The same cases with the fragment program compiled: softpipe's pixels bit for bit, sampled by
/// the interpreter's texture code through the module's `sample` import.
#[test]
fn texture_cases_through_the_jit() {
    texture_cases(true);
}

fn texture_cases(jit: bool) {
    let mut names: Vec<String> = std::fs::read_dir(CASES)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".glsl"));
    names.sort();
    let mut failures = Vec::new();
    let mut passed = 0;
    for name in &names {
        let stem = name.trim_end_matches(".glsl");
        let json =
            std::fs::read_to_string(format!("{CASES}{stem}.textures.json")).unwrap_or_default();
        let mut b = Bindings::new();
        for (unit, t) in desc::parse_all(&json, &|n| Err(n.to_string()))
            .unwrap_or_else(|e| panic!("{stem}: {e}"))
        {
            b.bind(unit, t);
        }
        let expected = read_f32(&format!("{CASES}{stem}.f32"));
        let outcome = run_on(&format!("{CASES}{stem}.tgsi"), &expected, 32, 32, &mut b, jit);
        let not_yet = NOT_YET.iter().find(|(n, _)| *n == stem).map(|(_, why)| *why);
        match (outcome, not_yet) {
            (Ok((0, _)), None) => passed += 1,
            // txq_size: quads asking for a missing level are uninitialised in softpipe (128 pixels)
            (Ok((n, _)), None) if stem == "txq_size" && n <= 128 => passed += 1,
            (Ok((n, first)), None) => {
                failures.push(format!("{stem}: {n} pixels differ, {first:?}"))
            }
            (Err(e), None) => failures.push(format!("{stem}: {e}")),
            // a listed case that now passes is counted (and can be taken off the list)
            (Ok((0, _)), Some(_)) => {
                eprintln!("{stem}: passes now, remove it from NOT_YET");
                passed += 1;
            }
            (_, Some(why)) => eprintln!("{stem}: not yet: {why}"),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed + NOT_YET.len() >= names.len());
    println!(
        "texture cases passed ({}): {passed} of {}",
        if jit { "jit" } else { "interpreter" },
        names.len()
    );
}

#[test]
fn corpus_20_and_21_through_the_interpreter() {
    corpus_20_and_21(false);
}

#[test]
fn corpus_20_and_21_through_the_jit() {
    corpus_20_and_21(true);
}

fn corpus_20_and_21(jit: bool) {
    // The oracle's built-in 4×4 RGBA8 texture: texel (i, j) = (85i, 85j, 255·((i^j)&1), 255).
    let texels: Vec<String> = (0..16)
        .map(|n| {
            format!(
                "[{}, {}, {}, 255]",
                85 * (n % 4),
                85 * (n / 4),
                255 * (((n % 4) ^ (n / 4)) & 1)
            )
        })
        .collect();
    for (name, filter) in [("20_tex_nearest", "NEAREST"), ("21_tex_linear", "LINEAR")] {
        let json = format!(
            r#"{{"width": 4, "height": 4, "texels": [{}], "sampler": {{"filter": "{filter}", "wrap": "REPEAT"}}}}"#,
            texels.join(",")
        );
        let mut b = Bindings::new();
        b.bind(
            0,
            desc::parse_description(&json, &|n| Err(n.to_string()))
                .unwrap_or_else(|e| panic!("{e}")),
        );
        let expected = read_f32(&format!("{CORPUS}{name}.f32"));
        let r = run_on(&format!("{CORPUS}{name}.tgsi"), &expected, 64, 64, &mut b, jit)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.0, 0, "{name}: {:?}", r.1);
    }
}
