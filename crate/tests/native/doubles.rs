//! Double precision through `render`: the oracle cases of `tests/double-cases/` (softpipe's
//! pixels, every result double written as its two raw 32-bit words) compared bit for bit, and
//! hand-written TGSI for the D* opcodes Mesa's GLSL compiler does not emit (DFMA, DCEIL,
//! DROUND, DSSG) with expectations from IEEE-754 binary64 arithmetic worked out below.

use crate::denormals::compare_case;
use tgsi::render::job::{prepare, run, Request};
use tgsi::texture::bind::Bindings;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/double-cases/");

/// softpipe (Mesa 22.3) has no DTRUNC, DCEIL, DROUND, DSSG or DFMA in tgsi_exec's dispatch:
/// the instruction stores nothing and the destination keeps its old value. The playground
/// computes them as tgsi.rst defines (checked by hand below), so where such a result reaches
/// a pixel the two differ (case, column, channel, why).
const SOFTPIPE_SKIPS: &[(&str, usize, usize, &str)] = &[
    ("convert", 0, 1, "DTRUNC is a no-op in softpipe: −2.25 stays −2.25"),
    ("convert", 2, 1, "DTRUNC is a no-op in softpipe: 1.5 stays 1.5"),
];

macro_rules! oracle_cases {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            compare_case(CASES, stringify!($name), SOFTPIPE_SKIPS);
        }
    )*};
}

oracle_cases!(
    add_mul,
    sub_div,
    fma_mad,
    sqrt_rsq,
    rcp_abs,
    min_max,
    compare,
    round,
    fract_sign,
    ldexp_frexp,
    convert,
    mod_mix,
);

/// Renders a 2x2 fragment program and returns pixel (0, 0) as raw bits.
fn render_bits(fs: &str) -> [u32; 4] {
    let req = Request { fs, mesh: Some("fullscreen"), width: 2, height: 2, ..Request::default() };
    let (job, diags) = prepare(&req);
    let job = job.unwrap_or_else(|| {
        panic!("{:?}", diags.iter().map(|d| &d.diagnostic.message).collect::<Vec<_>>())
    });
    let mut textures = Bindings::new();
    let out = run(&job, None, &mut textures, job.default_budget())
        .unwrap_or_else(|d| panic!("{}", d.diagnostic.message));
    let px = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes());
    px[0].map(f32::to_bits)
}

/// The two words of a double, as the program writes them (low word first).
fn words(d: f64) -> [u32; 2] {
    let b = d.to_bits();
    [b as u32, (b >> 32) as u32]
}

/// `OP` applied to the FLT64 immediates `a` (and `b`, `c`), both results' words in the pixel.
fn run_op(op: &str, a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> [u32; 4] {
    let fs = format!(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
         IMM[0] FLT64 {{ {:e}, {:e} }}\nIMM[1] FLT64 {{ {:e}, {:e} }}\nIMM[2] FLT64 {{ {:e}, {:e} }}\n\
         {op} TEMP[0], IMM[0], IMM[1], IMM[2]\nMOV OUT[0], TEMP[0]\nEND\n",
        a[0], a[1], b[0], b[1], c[0], c[1]
    );
    let fs = fs.replace(
        ", IMM[1], IMM[2]\n",
        &match op.split_whitespace().next() {
            Some("DFMA") => ", IMM[1], IMM[2]\n".to_string(),
            _ => "\n".to_string(),
        },
    );
    render_bits(&fs)
}

fn pair(x: f64, y: f64) -> [u32; 4] {
    let (a, b) = (words(x), words(y));
    [a[0], a[1], b[0], b[1]]
}

#[test]
fn dfma_rounds_once() {
    // a·b + c with one rounding: a = 1 + 2^-30, b = 1 − 2^-30 → a·b = 1 − 2^-60 exactly;
    // + c = −1 gives −2^-60 fused, while a separate rounding of a·b gives 1.0 and then 0.
    let a = 1.0 + 2f64.powi(-30);
    let b = 1.0 - 2f64.powi(-30);
    let got = run_op("DFMA", [a, 2.0], [b, 3.0], [-1.0, 0.5]);
    assert_eq!(got, pair(-(2f64.powi(-60)), 6.5));
}

#[test]
fn dceil_dround_dssg() {
    // DCEIL: ceil(−2.5) = −2, ceil(2^-1074) = 1.
    assert_eq!(run_op("DCEIL", [-2.5, f64::from_bits(1)], [0.0; 2], [0.0; 2]), pair(-2.0, 1.0));
    // DROUND rounds half to even: 2.5 → 2, −3.5 → −4.
    assert_eq!(run_op("DROUND", [2.5, -3.5], [0.0; 2], [0.0; 2]), pair(2.0, -4.0));
    // DSSG: −7 → −1, +0 → 0.
    assert_eq!(run_op("DSSG", [-7.0, 0.0], [0.0; 2], [0.0; 2]), pair(-1.0, 0.0));
}
