//! Parser throughput on a 10 MB shader (`cargo bench --bench parse`). The text mixes what real
//! dumps contain: numbered instructions with swizzles, write masks, negation, absolute values,
//! indirect and two-dimensional operands, texture instructions, control flow, and FLT32/UINT32
//! immediates. The result is reported in `docs/language.md`.

#[path = "harness/mod.rs"]
mod harness;

use harness::{Group, Throughput};
use tgsi::text::{self, Style};

const BODY: &[&str] = &[
    "MAD TEMP[0].xy, IN[0].xyxx, IMM[0].xxxx, IMM[0].yyyy",
    "MOV_SAT OUT[0], -|TEMP[1].wzyx|",
    "TEX TEMP[1], TEMP[0].xyxx, SAMP[0], 2D",
    "ADD TEMP[2].xyz, TEMP[0].xyzz, CONST[0][ADDR[0].x+3].xyzz",
    "UIF TEMP[3].xxxx :0",
    "  FSLT TEMP[4].x, TEMP[2].xxxx, IMM[1].zzzz",
    "ENDIF",
    "DP4 TEMP[5].x, CONST[1], TEMP[4]",
];

/// A valid fragment shader of about `bytes` bytes.
pub fn big_shader(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str("FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n");
    s.push_str("DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL CONST[0][0..15]\nDCL CONST[1]\nDCL ADDR[0]\nDCL TEMP[0..5]\n");
    for i in 0..500 {
        s.push_str(&format!(
            "IMM[{}] FLT32 {{{}, -0.25, 1e-3, 0x3f800000}}\n",
            2 * i,
            i as f32 * 0.37
        ));
        s.push_str(&format!("IMM[{}] UINT32 {{1065353216, {}, 0, 4294967295}}\n", 2 * i + 1, i));
    }
    let mut n = 0;
    while s.len() < bytes {
        let line = BODY[n % BODY.len()];
        s.push_str(&format!("{:3}: {}\n", n, line));
        n += 1;
    }
    s.push_str(&format!("{:3}: END\n", n));
    s
}

fn main() {
    let src = big_shader(10 << 20);
    let parsed = text::parse(&src);
    assert!(
        parsed.shader.is_some(),
        "{:?}",
        &parsed.diagnostics[..parsed.diagnostics.len().min(3)]
    );
    let shader = parsed.shader.unwrap();
    let mut g = Group::new("text");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(src.len() as u64));
    g.bench("parse 10 MB", || text::parse(std::hint::black_box(&src)));
    g.bench("print exact 10 MB", || text::print(std::hint::black_box(&shader), Style::Exact));
    g.bench("print mesa 10 MB", || text::print(std::hint::black_box(&shader), Style::Mesa));
}
