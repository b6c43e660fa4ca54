//! Helpers shared by the AGAL export tests.
#![allow(dead_code, unused_imports)]

pub use crate::support::export;
pub use tgsi::agal::exec::{self, Inputs, Quad, QuadOutputs as Outputs, Vec4, LANES};
pub use tgsi::agal::lower::{Export, ExportOptions};
pub use tgsi::agal::{self, Sampler};

pub fn parse(src: &str) -> tgsi::ir::Shader {
    let p = tgsi::text::parse(src);
    p.shader.unwrap_or_else(|| panic!("parse failed: {:?}\n{}", p.diagnostics, src))
}

pub fn export_ok(src: &str, opts: &ExportOptions) -> Export {
    let e = export(&parse(src), opts);
    let program = e
        .program
        .as_ref()
        .unwrap_or_else(|| panic!("export failed: {:#?}\n{}", e.diagnostics, src));
    let errors: Vec<_> = agal::validate(program)
        .into_iter()
        .filter(|f| f.severity == tgsi::diag::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{:?}\n{}", errors, e.assembly);
    assert!(
        !e.diagnostics.iter().any(|d| d.code == "A3625"),
        "two constant sources left in:\n{}",
        e.assembly
    );
    // The bytes decode back to the same program (our own decoder; docs/agal.md "The bytecode"
    // layout).
    assert_eq!(agal::decode(&e.bytes).as_ref(), Ok(program));
    e
}

/// Lane inputs: three varyings GENERIC[0..2] (v2, v3, v4 by the default varying rule).
pub fn lanes_a() -> Quad {
    [
        [1.5, -2.25, 0.3, -0.75],
        [2.5, -0.5, 0.6, 0.25],
        [-3.5, 4.0, 0.9, 1.25],
        [0.125, 7.75, -1.2, 2.25],
    ]
}
pub fn lanes_b() -> Quad {
    [[0.5, 3.0, -1.0, 2.0], [-0.5, 2.0, 1.5, -2.0], [0.25, -3.0, 0.9, 4.0], [8.0, 7.75, -1.5, 0.5]]
}
pub fn lanes_c() -> Quad {
    [
        [-1.0, 0.75, 2.0, 3.0],
        [1.0, -0.25, 0.5, 0.125],
        [2.5, 1.5, -0.5, -4.0],
        [0.0625, 9.0, 1.0, -1.0],
    ]
}

pub fn run(
    e: &Export,
    varyings: &[Quad],
    attributes: &[Quad],
    consts: &[Vec4],
    sample: Option<exec::SampleFn>,
) -> Outputs {
    run_on(e, varyings, attributes, consts, sample, None)
}

pub fn fs_varyings() -> Vec<Quad> {
    let zero = [[0.0; 4]; LANES];
    vec![zero, zero, lanes_a(), lanes_b(), lanes_c(), zero, zero, zero]
}

pub const FS_HEAD: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL IN[2], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 { 0.5, 2.0, -1.0, 0.0 }
";

/// Exports `body` in a fragment shader and returns oc per lane.
pub fn frag(body: &str) -> (Export, Quad) {
    let src = format!("{}{}\n  MOV OUT[0], TEMP[0]\n  END\n", FS_HEAD, body);
    let e = export_ok(&src, &ExportOptions::default());
    let out = run(&e, &fs_varyings(), &[], &[], None);
    (e, out.outputs[0])
}

pub fn same_bits(got: Vec4, want: Vec4) -> bool {
    (0..4).all(|c| got[c].to_bits() == want[c].to_bits() || (got[c].is_nan() && want[c].is_nan()))
}

/// As [`run`], sampling through the interpreter's texture hooks (one request per quad).
pub fn run_with_hooks(
    e: &Export,
    varyings: &[Quad],
    attributes: &[Quad],
    consts: &[Vec4],
    hooks: &mut dyn tgsi::exec::TextureHooks,
) -> Outputs {
    run_on(e, varyings, attributes, consts, None, Some(hooks))
}

/// The export's program on one quad, with a sample function or texture hooks (or neither).
fn run_on(
    e: &Export,
    varyings: &[Quad],
    attributes: &[Quad],
    consts: &[Vec4],
    sample: Option<exec::SampleFn>,
    hooks: Option<&mut dyn tgsi::exec::TextureHooks>,
) -> Outputs {
    let constants = e.layout.constant_values(consts);
    let p = e.program.as_ref().expect("program");
    let varyings: Vec<exec::Reg> = varyings.iter().map(exec::reg_from_quad).collect();
    let attributes: Vec<exec::Reg> = attributes.iter().map(exec::reg_from_quad).collect();
    let inputs =
        Inputs { constants: &constants, attributes: &attributes, varyings: &varyings, sample };
    let result = match hooks {
        Some(h) => exec::run_with_textures(p, &inputs, h),
        None => exec::run(p, &inputs),
    };
    result.unwrap_or_else(|err| panic!("{}\n{}", err, e.assembly)).per_lane()
}

/// Every `.tgsi` file below `dir`, in sorted order.
pub fn tgsi_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<std::path::PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            tgsi_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "tgsi") {
            out.push(p);
        }
    }
}
