//! What a shader declares, in the form the page's panels need (constant slots, sampler units,
//! sampler views, every declaration with its line): computed from the parsed IR, so the page
//! never reads TGSI text itself. Exported through wasm as `describe(text)`.

use crate::ir::*;
use serde::Serialize;

/// Registers listed per declaration at most (a huge `TEMP[0..4000000]` is one entry; the
/// constant and sampler lists stop here).
pub const MAX_LISTED: u32 = 64;

/// One declaration.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclSummary {
    pub file: &'static str,
    /// First and last register of the range.
    pub first: u32,
    pub last: u32,
    /// The first bracket of a two-dimensional declaration (`CONST[1][0..3]` → 1), if any.
    pub dimension: Option<u32>,
    pub semantic: Option<&'static str>,
    pub semantic_index: Option<u32>,
    pub interpolation: Option<&'static str>,
    /// SVIEW: the texture target and return type.
    pub target: Option<&'static str>,
    pub return_type: Option<&'static str>,
    /// 1-based line and column of the declaration in the text.
    pub line: u32,
    pub column: u32,
}

/// The panels' view of a shader.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub processor: &'static str,
    pub declarations: Vec<DeclSummary>,
    /// Declared constant registers as (buffer, index), sorted, at most [`MAX_LISTED`] per
    /// declaration.
    pub constants: Vec<(u32, u32)>,
    /// Declared sampler units, sorted.
    pub samplers: Vec<u32>,
    /// Every instruction in program order (its index is a trace's `pc`): where it is and
    /// what it is, for the inspector's scrubber.
    pub instructions: Vec<InstSummary>,
}

/// One instruction's place in the text, and the register channels it writes.
#[derive(Clone, Debug, Serialize)]
pub struct InstSummary {
    pub opcode: &'static str,
    pub line: u32,
    pub column: u32,
    /// Each channel of each destination's write mask, as the inspector's watch names it
    /// (`TEMP[0].x`); destinations with an indirect or a second bracket are left out.
    pub writes: Vec<String>,
}

/// The channels `ins` writes (see [`InstSummary::writes`]).
fn written_channels(ins: &Instruction) -> Vec<String> {
    let mut out = Vec::new();
    for d in &ins.dst {
        if d.reg.index.indirect.is_some() || d.reg.dimension.is_some() {
            continue;
        }
        for (c, name) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
            if d.write_mask.has(c) {
                out.push(format!("{}[{}].{}", d.reg.file.name(), d.reg.index.offset, name));
            }
        }
    }
    out
}

/// Summarises the declarations of `shader`; `text` is the source it was parsed from (for lines).
pub fn summarize(shader: &Shader, text: &str) -> Summary {
    let lines = LineIndex::new(text);
    let mut s = Summary { processor: shader.processor.name(), ..Summary::default() };
    for d in &shader.declarations {
        let dimension = match d.dimension {
            DclDimension::Range(r) => Some(r.first),
            _ => None,
        };
        let (target, return_type) = match &d.extra {
            DclExtra::SamplerView { target, return_types } => {
                (Some(target.name()), Some(return_types[0].name()))
            }
            _ => (None, None),
        };
        let (line, column) = lines.line_col(d.span.start);
        s.declarations.push(DeclSummary {
            file: d.file.name(),
            first: d.range.first,
            last: d.range.last,
            dimension,
            semantic: d.semantic.map(|x| x.name.name()),
            semantic_index: d.semantic.map(|x| x.index),
            interpolation: d.interp.map(Interp::name),
            target,
            return_type,
            line,
            column,
        });
        let listed = d.range.first..=d.range.last.min(d.range.first.saturating_add(MAX_LISTED - 1));
        match d.file {
            File::Const => {
                let buffers = match d.dimension {
                    DclDimension::Range(r) => {
                        r.first..=r.last.min(r.first.saturating_add(MAX_LISTED - 1))
                    }
                    _ => 0..=0,
                };
                for b in buffers {
                    s.constants.extend(listed.clone().map(|i| (b, i)));
                }
            }
            File::Samp => s.samplers.extend(listed.filter(|&u| u < MAX_LISTED)),
            _ => {}
        }
    }
    for ins in &shader.instructions {
        let (line, column) = lines.line_col(ins.span.start);
        let writes = written_channels(ins);
        s.instructions.push(InstSummary { opcode: ins.opcode.name(), line, column, writes });
    }
    s.constants.sort_unstable();
    s.constants.dedup();
    s.samplers.sort_unstable();
    s.samplers.dedup();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_samplers_and_lines() {
        let text = "FRAG\nDCL IN[0], GENERIC[3], LINEAR\nDCL CONST[0..1]\nDCL CONST[2][5]\nDCL SAMP[1]\nDCL SVIEW[1], 2D, FLOAT\nDCL TEMP[0..4000000]\nEND\n";
        let shader = crate::text::parse(text).shader.expect("parses");
        let s = summarize(&shader, text);
        assert_eq!(s.processor, "FRAG");
        assert_eq!(s.constants, vec![(0, 0), (0, 1), (2, 5)]);
        assert_eq!(s.samplers, vec![1]);
        assert_eq!(s.instructions.len(), 1);
        assert_eq!((s.instructions[0].opcode, s.instructions[0].line), ("END", 8));
        assert!(s.instructions[0].writes.is_empty());
        let input = &s.declarations[0];
        assert_eq!(
            (input.file, input.semantic, input.semantic_index),
            ("IN", Some("GENERIC"), Some(3))
        );
        assert_eq!((input.interpolation, input.line, input.column), (Some("LINEAR"), 2, 1));
        let view = &s.declarations[4];
        assert_eq!((view.target, view.return_type), (Some("2D"), Some("FLOAT")));
        // A huge range is one declaration, not millions of entries.
        assert_eq!(s.declarations[5].last, 4_000_000);
        assert_eq!(s.declarations.len(), 6);
    }

    #[test]
    fn instructions_name_the_channels_they_write() {
        let text = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\nDCL ADDR[0]\n\
                    MOV TEMP[2].yw, TEMP[0]\nMOV OUT[0], TEMP[1]\nMOV TEMP[ADDR[0].x].x, TEMP[0]\n\
                    IF TEMP[0].xxxx\nENDIF\nEND\n";
        let shader = crate::text::parse(text).shader.expect("parses");
        let s = summarize(&shader, text);
        let writes: Vec<Vec<&str>> =
            s.instructions.iter().map(|i| i.writes.iter().map(String::as_str).collect()).collect();
        assert_eq!(writes[0], ["TEMP[2].y", "TEMP[2].w"]);
        assert_eq!(writes[1], ["OUT[0].x", "OUT[0].y", "OUT[0].z", "OUT[0].w"]);
        // An indirect destination names no fixed register; IF, ENDIF and END write nothing.
        assert!(writes[2..].iter().all(|w| w.is_empty()), "{writes:?}");
    }
}
