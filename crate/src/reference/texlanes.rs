//! Texture lane tables: a sampling, fetch or query opcode run on the four lanes of one quad
//! against the built-in textures of the page (`web/textures.js`: `checker`, `mip-levels`, …),
//! through the engine's own sampler. The run is [`crate::exec::quad::run_quad_with`] with the
//! texture stage's [`Bindings`], the inspector's traced path: the trace's sampling step records
//! per lane the coordinates used, λ and the LOD, the level(s) read with their weights and every
//! texel with its weight ([`SampleTrace`]), so the page shows what the sampler did, not a second
//! emulation of it.
//!
//! Rows are those of [`super::lanes`] (`"src0, src1, … => expected"`), read in the opcode's
//! operand types, with one addition: a literal may be a fraction `p/q` (`240/255`, a texel
//! byte as UNORM8), so the expected colours say how they were derived. Float channels of the
//! result match within [`TOLERANCE`] (texel conversion and filter weights round in f32);
//! integer channels (TXQ) match exactly.

use super::lanes::{self, Kind, Row};
use crate::exec::quad::{run_quad_with, QuadRequest};
use crate::opcode::Opcode;
use crate::texture::bind::Bindings;
use crate::texture::sampler::TextureUnit;
use crate::texture::trace::SampleTrace;
use serde::Serialize;

/// One opcode's texture lane table.
pub struct TexLanes {
    pub op: Opcode,
    /// The lane program: IN[i] (constant inputs) are the row's sources, OUT[0] the result.
    pub program: &'static str,
    /// The textures, in the widget's `textures` attribute syntax (`0=checker`,
    /// `0=mip-levels,mipmap`): built-in names and sampler words.
    pub textures: &'static str,
    pub rows: [&'static str; 4],
    /// What the table shows, one sentence for the page.
    pub shows: &'static str,
}

/// Largest difference accepted between an expected float channel and the engine's.
pub const TOLERANCE: f32 = 2e-6;

/// The texture lane table of an opcode, if it has one.
pub fn of(op: Opcode) -> Option<&'static TexLanes> {
    super::data::TEX_LANES.iter().find(|t| t.op == op)
}

/// Every texture lane table.
pub fn all() -> &'static [TexLanes] {
    super::data::TEX_LANES
}

/// Replaces every `p/q` literal of a row by its decimal value (`240/255` → `0.9411765`).
pub fn expand_fractions(row: &str) -> String {
    let mut out = String::with_capacity(row.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let frac = word.split_once('/').and_then(|(p, q)| {
            let (p, q) = (p.parse::<f64>().ok()?, q.parse::<f64>().ok()?);
            (q != 0.0 && p.is_finite() && q.is_finite()).then(|| format!("{:?}", (p / q) as f32))
        });
        out.push_str(frac.as_deref().unwrap_or(word));
        word.clear();
    };
    for ch in row.chars() {
        if ch.is_whitespace() || matches!(ch, '(' | ')' | ',') {
            flush(&mut word, &mut out);
            out.push(ch);
        } else {
            word.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Parses a texture lane row (fractions allowed).
pub fn parse_row(op: Opcode, row: &str) -> Result<Row, String> {
    lanes::parse_row(op, &expand_fractions(row))
}

/// Whether the engine's `bits` are what `cell` expects: floats within [`TOLERANCE`], other
/// kinds as [`lanes::matches`].
pub fn close(cell: lanes::Cell, bits: u32) -> bool {
    match cell.kind {
        Kind::F32 => {
            let (e, g) = (f32::from_bits(cell.bits), f32::from_bits(bits));
            e == g || (e - g).abs() <= TOLERANCE
        }
        _ => lanes::matches(cell, bits),
    }
}

/// One run of a texture lane table.
#[derive(Serialize, Default)]
pub struct TexRun {
    /// `outputs[lane][channel]` of OUT[0] as raw bits (empty when nothing ran).
    pub outputs: Vec<[u32; 4]>,
    /// Per lane: whether the result is the row's expected one (`None`: the row did not parse).
    pub same: Vec<Option<bool>>,
    /// What the sampler did for the quad (sampling opcodes; fetches and queries have none).
    pub sample: Option<SampleTrace>,
    /// The first diagnostic when the program did not run.
    pub error: Option<String>,
}

/// Runs `program` on four parsed rows (row i = lane i) with `units` bound, and compares each
/// lane with its row's expected value.
pub fn run(op: Opcode, program: &str, units: Vec<(u32, TextureUnit)>, rows: &[Row]) -> TexRun {
    let mut bindings = Bindings::new();
    for (u, t) in units {
        bindings.bind(u, t);
    }
    let registers = rows.iter().map(|r| r.inputs.len()).max().unwrap_or(0);
    let inputs = (0..registers)
        .map(|reg| {
            [0, 1, 2, 3].map(|lane| {
                rows.get(lane)
                    .and_then(|r| r.inputs.get(reg))
                    .map_or([0; 4], |cells| cells.map(|c| c.bits))
            })
        })
        .collect();
    let q = run_quad_with(program, &QuadRequest { inputs, ..Default::default() }, &mut bindings);
    let mut out = TexRun {
        error: q.error.map(|d| format!("{} [{}]", d.message, d.code)),
        sample: q
            .trace
            .steps
            .iter()
            .rev()
            .find(|s| s.opcode == op.name() && s.sample.is_some())
            .and_then(|s| s.sample.clone()),
        ..TexRun::default()
    };
    if let Some(o) = q.outputs.first() {
        out.outputs = o.to_vec();
        out.same = rows
            .iter()
            .enumerate()
            .map(|(lane, r)| {
                r.expected
                    .map(|cells| cells.iter().enumerate().all(|(c, cell)| close(*cell, o[lane][c])))
            })
            .collect();
    }
    out
}

/// Runs a table on `units` and says which lanes differ from their rows.
pub fn check(t: &TexLanes, units: Vec<(u32, TextureUnit)>) -> Result<TexRun, String> {
    let rows: Vec<Row> = t.rows.iter().map(|r| parse_row(t.op, r)).collect::<Result<_, _>>()?;
    let r = run(t.op, t.program, units, &rows);
    if let Some(e) = &r.error {
        return Err(format!("{}: the lane program did not run: {e}", t.op.name()));
    }
    let bad: Vec<String> = r
        .same
        .iter()
        .enumerate()
        .filter(|(_, s)| **s != Some(true))
        .map(|(lane, _)| {
            let got = r.outputs.get(lane).map(|o| o.map(f32::from_bits));
            format!("lane {lane} ({}): got {got:?}", t.rows[lane])
        })
        .collect();
    if bad.is_empty() {
        Ok(r)
    } else {
        Err(format!("{}:\n  {}", t.op.name(), bad.join("\n  ")))
    }
}

#[cfg(test)]
mod tests {
    //! The built-in textures restated by hand from `web/textures.js` (the page's copy is
    //! checked by `tests/e2e/reference.test.mjs`, which reads the same rows through the page),
    //! and every texture lane table run on them. The rows' values are derived by hand in
    //! `data/texlanes.rs`; here the sampler's trace is checked against the filter formula.

    use super::*;
    use crate::texture::desc::parse_description;

    fn no_files(_: &str) -> Result<crate::texture::desc::RgbaImage, String> {
        Err("no files".into())
    }

    fn texels(n: usize, f: impl Fn(usize, usize) -> [u8; 4]) -> String {
        let all: Vec<String> = (0..n * n)
            .map(|i| {
                let t = f(i % n, i / n);
                format!("[{},{},{},{}]", t[0], t[1], t[2], t[3])
            })
            .collect();
        format!("[{}]", all.join(","))
    }

    /// `checker`: 8×8 RGBA8, texel (x, y) light (240, 240, 240, 255) when x + y is odd, else
    /// dark (40, 40, 48, 255); bilinear, repeat.
    fn checker() -> TextureUnit {
        let t = texels(
            8,
            |x, y| if (x + y) & 1 == 1 { [240, 240, 240, 255] } else { [40, 40, 48, 255] },
        );
        let json = format!(
            r#"{{"target":"2D","format":"RGBA8","width":8,"height":8,"levels":1,"sampler":{{"min_filter":"LINEAR","mag_filter":"LINEAR","wrap":"REPEAT","lod_bias":0}},"images":[{{"level":0,"texels":{t}}}]}}"#
        );
        parse_description(&json, &no_files).expect("checker")
    }

    const PALETTE: [[u8; 4]; 6] = [
        [230, 60, 60, 255],
        [60, 200, 80, 255],
        [60, 110, 240, 255],
        [240, 210, 50, 255],
        [200, 70, 220, 255],
        [60, 210, 220, 255],
    ];

    /// `mip-levels` with `mipmap`: 32×32 down to 1×1, level i one flat colour PALETTE[i];
    /// LINEAR_MIPMAP_LINEAR, bilinear magnification, repeat.
    fn mip_levels() -> TextureUnit {
        let images: Vec<String> = (0..6)
            .map(|i| format!(r#"{{"level":{i},"texels":{}}}"#, texels(32 >> i, |_, _| PALETTE[i])))
            .collect();
        let json = format!(
            r#"{{"target":"2D","format":"RGBA8","width":32,"height":32,"levels":6,"sampler":{{"min_filter":"LINEAR_MIPMAP_LINEAR","mag_filter":"LINEAR","wrap":"REPEAT","lod_bias":0}},"images":[{}]}}"#,
            images.join(",")
        );
        parse_description(&json, &no_files).expect("mip-levels")
    }

    /// The units of a table's `textures` attribute (the built-ins the tables use).
    fn units(t: &TexLanes) -> Vec<(u32, TextureUnit)> {
        match t.textures {
            "0=checker" => vec![(0, checker())],
            "0=mip-levels,mipmap" => vec![(0, mip_levels())],
            other => panic!("{}: no hand-made texture for {other}", t.op.name()),
        }
    }

    #[test]
    fn every_texture_lane_table_matches_its_hand_derived_rows() {
        for t in all() {
            if let Err(e) = check(t, units(t)) {
                panic!("{e}");
            }
        }
    }

    #[test]
    fn the_issue_names_these_opcodes_and_each_has_a_table() {
        for op in [Opcode::TEX, Opcode::TXB, Opcode::TXL, Opcode::TXD, Opcode::TXF, Opcode::TXQ] {
            assert!(of(op).is_some(), "{} has no texture lane table", op.name());
        }
    }

    #[test]
    fn a_wrong_texel_fails_the_check() {
        let t = of(Opcode::TEX).expect("TEX");
        let rows =
            ["(1.0625 0.0625 0 0) => (240/255 240/255 240/255 1)", t.rows[1], t.rows[2], t.rows[3]];
        let wrong = TexLanes { rows, ..*t };
        let e =
            check(&wrong, units(t)).err().expect("lane 0 reads the dark texel, not the light one");
        assert!(e.contains("lane 0"), "{e}");
    }

    #[test]
    fn fractions_read_as_decimals() {
        assert_eq!(expand_fractions("(240/255 1/2 0 1), 3 => _"), "(0.9411765 0.5 0 1), 3 => _");
        // Not a fraction: left alone for the row parser to judge.
        assert_eq!(expand_fractions("(a/b 1/0)"), "(a/b 1/0)");
    }

    /// TEX lane 3 sits on the corner of four texels: bilinear weights (1 − ½)(1 − ½) = ¼ each.
    #[test]
    fn tex_lane_3_reads_four_texels_with_weight_a_quarter() {
        let t = of(Opcode::TEX).expect("TEX");
        let r = check(t, units(t)).expect("TEX runs");
        let s = r.sample.expect("TEX records its taps");
        let lane = &s.lanes[3];
        assert_eq!(lane.levels.len(), 1);
        let taps = &lane.levels[0].taps;
        assert_eq!(taps.len(), 4);
        // s = 1.125: u = 8·1.125 − ½ = 8.5 → texels 8 and 9, wrapped (repeat) to 0 and 1;
        // t = 0.125: v = 0.5 → rows 0 and 1.
        let mut at: Vec<(i32, i32)> = taps.iter().map(|t| (t.x, t.y)).collect();
        at.sort();
        assert_eq!(at, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert!(taps.iter().all(|t| t.weight == 0.25), "{taps:?}");
        // Lane 1 (s = 1.125, t = 0.0625): v = 0 → two texels of row 0 with ½ each (the
        // other row's pair weighs 0).
        let w1: Vec<f32> =
            s.lanes[1].levels[0].taps.iter().filter(|t| t.weight > 0.0).map(|t| t.weight).collect();
        assert_eq!(w1, vec![0.5, 0.5]);
        // The quad's differences: ds/dx = 1/16 → 8 · 1/16 = ½ texel per pixel, λ = log2 ½ = −1:
        // magnified.
        assert!(s.lanes.iter().all(|l| l.magnified && l.lambda == -1.0), "{s:?}");
    }

    /// TXL lane 2 asks for LOD 3.25: levels 3 and 4 with weights 1 − 0.25 and 0.25.
    #[test]
    fn txl_mixes_two_levels_by_the_lods_fraction() {
        let t = of(Opcode::TXL).expect("TXL");
        let s = check(t, units(t)).expect("TXL runs").sample.expect("TXL records its taps");
        let levels: Vec<(u32, f32)> =
            s.lanes[2].levels.iter().map(|l| (l.level, l.weight)).collect();
        assert_eq!(levels, vec![(3, 0.75), (4, 0.25)]);
    }

    /// TXD: each lane's own derivatives give its λ: ρ = 32 · |d| = 1, 2, 4, 8 → λ = 0, 1, 2, 3.
    #[test]
    fn txd_takes_a_lambda_per_lane_from_its_derivatives() {
        let t = of(Opcode::TXD).expect("TXD");
        let s = check(t, units(t)).expect("TXD runs").sample.expect("TXD records its taps");
        let lambdas: Vec<f32> = s.lanes.iter().map(|l| l.lambda).collect();
        assert_eq!(lambdas, vec![0.0, 1.0, 2.0, 3.0]);
    }
}
