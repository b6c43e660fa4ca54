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
use crate::text::decimal;
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
    /// The LOD / level column for an opcode that filters no texels (fetches and queries: the
    /// engine records no sampler trace for them), in words; empty for sampling opcodes, whose
    /// column is the sampler's trace of each lane.
    pub level: &'static str,
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

/// Why a texture opcode has no lane table (shown in its section), if it has none for a reason.
pub fn reason_for_none(op: Opcode) -> Option<&'static str> {
    super::data::NO_TEX_LANES.iter().find(|(o, _)| *o == op).map(|(_, why)| *why)
}

/// Replaces every `p/q` literal of a row by its decimal value (`240/255` → `0.9411765`).
pub fn expand_fractions(row: &str) -> String {
    let mut out = String::with_capacity(row.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let frac = word.split_once('/').and_then(|(p, q)| {
            let (p, q) = (decimal::parse_f64(p)?, decimal::parse_f64(q)?);
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

    /// `cube-faces`: a cube of 16×16 faces, face i (+X, −X, +Y, −Y, +Z, −Z) one flat colour
    /// PALETTE[i]; bilinear, no mipmaps, repeat.
    fn cube_faces() -> TextureUnit {
        let faces: Vec<String> = (0..6)
            .map(|i| format!(r#"{{"face":{i},"texels":{}}}"#, texels(16, |_, _| PALETTE[i])))
            .collect();
        let json = format!(
            r#"{{"target":"CUBE","format":"RGBA8","width":16,"height":16,"sampler":{{"min_filter":"LINEAR","mag_filter":"LINEAR","wrap":"REPEAT","lod_bias":0}},"images":[{}]}}"#,
            faces.join(",")
        );
        parse_description(&json, &no_files).expect("cube-faces")
    }

    /// The units of a table's `textures` attribute (the built-ins the tables use): a
    /// hand-made texture per name; `mipmap` on `mip-levels` is its own chain (made above);
    /// `shadow` turns on LEQUAL comparison.
    fn units(t: &TexLanes) -> Vec<(u32, TextureUnit)> {
        let (unit, rest) = t.textures.split_once('=').expect("U=NAME");
        let mut words = rest.split(',');
        let mut tex = match (words.next(), rest.contains("mipmap")) {
            (Some("checker"), false) => checker(),
            (Some("mip-levels"), true) => mip_levels(),
            (Some("cube-faces"), false) => cube_faces(),
            _ => panic!("{}: no hand-made texture for {}", t.op.name(), t.textures),
        };
        for w in words {
            match w {
                "mipmap" => {}
                "shadow" => {
                    tex.sampler.compare = Some(crate::texture::sampler::CompareFunc::LessEqual)
                }
                other => panic!("{}: no hand-made sampler word {other}", t.op.name()),
            }
        }
        vec![(unit.parse().expect("a unit number"), tex)]
    }

    #[test]
    fn every_texture_lane_table_matches_its_hand_derived_rows() {
        let bad: Vec<String> = all().iter().filter_map(|t| check(t, units(t)).err()).collect();
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// The issue: every texture opcode gets a lane table. The opcodes are the table's
    /// `Category::Texture`; one without a table must say why on its page (`NO_TEX_LANES`).
    #[test]
    fn the_issue_names_these_opcodes_and_each_has_a_table() {
        use crate::opcode::Category;
        let texture: Vec<Opcode> =
            Opcode::all().filter(|o| o.info().category == Category::Texture).collect();
        // The issue names these; the category must hold them (so the list below is not empty).
        for op in [Opcode::TEX, Opcode::TXB, Opcode::TXL, Opcode::TXD, Opcode::TXF, Opcode::TXQ] {
            assert!(texture.contains(&op), "{} is not a texture opcode", op.name());
        }
        let mut missing = Vec::new();
        for &op in &texture {
            match (of(op), reason_for_none(op)) {
                (Some(_), None) => {}
                (None, Some(why)) => assert!(!why.is_empty(), "{}", op.name()),
                (Some(_), Some(_)) => missing.push(format!("{}: a table and a reason", op.name())),
                (None, None) => missing.push(format!("{}: no table and no reason", op.name())),
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
        // Tables are for texture opcodes only, one each.
        for t in all() {
            assert!(texture.contains(&t.op), "{} is not a texture opcode", t.op.name());
            assert_eq!(all().iter().filter(|u| u.op == t.op).count(), 1, "{}", t.op.name());
        }
    }

    /// The LOD / level words are for opcodes the sampler records no trace of, and only them.
    #[test]
    fn only_untraced_opcodes_put_words_in_the_level_column() {
        for t in all() {
            let r = check(t, units(t)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                r.sample.is_none(),
                !t.level.is_empty(),
                "{}: trace {:?}, level words {:?}",
                t.op.name(),
                r.sample.is_some(),
                t.level
            );
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
