//! An opcode's facts in plain text, code between backticks: the list (syntax, operands,
//! result, stages, Mesa number, budget), what tgsi.rst and tgsi_exec say, and the AGAL story.
//! The site's sections (`site`, which turns backticks into `<code>`) and `tgsi explain` (which
//! prints them) both read them here, so the two cannot say different things.

use super::Entry;
use crate::opcode::{Category, OpInfo, Opcode, OutputMode, ValType, S_ALL};

/// The families of the reference's index (the site's and `tgsi explain --list`'s), in the
/// order shown, with their titles.
pub const FAMILIES: &[(Category, &str)] = &[
    (Category::Arithmetic, "Arithmetic"),
    (Category::Comparison, "Comparison and selection"),
    (Category::Transcendental, "Transcendental"),
    (Category::Integer, "Integer"),
    (Category::Bitwise, "Bitwise"),
    (Category::Conversion, "Conversion"),
    (Category::Double, "Double precision"),
    (Category::Int64, "64-bit integer"),
    (Category::Pack, "Packing"),
    (Category::Derivative, "Derivatives"),
    (Category::Address, "Address registers"),
    (Category::Flow, "Control flow"),
    (Category::Texture, "Textures"),
    (Category::Resource, "Buffers, images and memory"),
    (Category::Atomic, "Atomics"),
    (Category::Interpolation, "Interpolation"),
    (Category::InterLane, "Inter-lane (quad)"),
    (Category::Legacy, "Legacy (2010)"),
];

/// The facts of one opcode.
pub struct Facts {
    /// (label, text) in the order shown.
    pub list: Vec<(&'static str, String)>,
    /// Where tgsi.rst and tgsi_exec differ, or that no difference is known.
    pub mesa: String,
    /// The AGAL instruction and the export's story, or that the export refuses the opcode.
    pub agal: String,
}

/// The facts of `op`, whose page data is `e`.
pub fn facts(op: Opcode, e: &Entry) -> Facts {
    let info = op.info();
    let srcs: Vec<&str> = (0..info.num_src as usize).map(|i| type_name(info.src_type(i))).collect();
    let mut list = vec![
        ("Syntax", format!("`{}`", syntax(info))),
        (
            "Operands",
            format!(
                "dst: {}; sources: {}",
                if info.num_dst == 0 { "none" } else { type_name(info.dst_type) },
                if srcs.is_empty() { "none".to_string() } else { srcs.join(", ") }
            ),
        ),
        ("Result", output_mode(info.output).to_string()),
        ("Stages", stages(info)),
        ("Mesa number", info.mesa.map_or("none (legacy, 2010)".to_string(), |n| n.to_string())),
    ];
    if let Some(why) = budget_note(op) {
        list.push(("Budget", why));
    }
    let mesa = if e.mesa.is_empty() {
        "No difference known: we do what both say.".to_string()
    } else {
        e.mesa.to_string()
    };
    let agal = match (info.agal, e.agal) {
        ("", "") => "No AGAL equivalent: the export refuses it.".to_string(),
        ("", note) => note.to_string(),
        (a, "") => format!("`{a}`"),
        (a, note) => format!("`{a}`. {note}"),
    };
    Facts { list, mesa, agal }
}

pub(super) fn type_name(t: ValType) -> &'static str {
    match t {
        ValType::Float => "float",
        ValType::Int => "int",
        ValType::Uint => "uint",
        ValType::Double => "double (channel pair)",
        ValType::Int64 => "int64 (channel pair)",
        ValType::Uint64 => "uint64 (channel pair)",
        ValType::Untyped => "untyped bits",
    }
}

/// `MUL dst, src0, src1`, with the texture target, branch label or memory qualifiers the
/// table's flags allow.
pub fn syntax(info: &OpInfo) -> String {
    let mut ops: Vec<String> = Vec::new();
    for i in 0..info.num_dst {
        ops.push(if info.num_dst > 1 { format!("dst{i}") } else { "dst".into() });
    }
    for i in 0..info.num_src {
        ops.push(if info.num_src > 1 { format!("src{i}") } else { "src".into() });
    }
    if info.has(crate::opcode::F_TEX) {
        ops.push("target".into());
    }
    let mut s = info.name.to_string();
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    if info.has(crate::opcode::F_BRANCH) {
        s.push_str(" [:label]");
    }
    if info.has(crate::opcode::F_TEX_OFFSETS) {
        s.push_str(" [, offsets]");
    }
    if info.has(crate::opcode::F_MEMORY) {
        s.push_str(" [, qualifiers]");
    }
    s
}

fn stages(info: &OpInfo) -> String {
    if info.stages == S_ALL {
        return "every stage".into();
    }
    let names = [
        "vertex",
        "fragment",
        "geometry",
        "tessellation control",
        "tessellation evaluation",
        "compute",
    ];
    let list: Vec<&str> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| info.stages >> i & 1 == 1)
        .map(|(_, n)| *n)
        .collect();
    list.join(", ")
}

fn output_mode(o: OutputMode) -> &'static str {
    match o {
        OutputMode::Component => "per component",
        OutputMode::Replicated => "scalar, replicated to every enabled channel",
        OutputMode::Channel => "a formula per channel",
        OutputMode::Other => "see the formula",
        OutputMode::None => "no destination",
    }
}

/// Why an opcode costs more than one quad-instruction of the budget (`exec::work::weight`).
fn budget_note(op: Opcode) -> Option<String> {
    let w = crate::exec::work::weight(op);
    let why = if w == crate::exec::work::SAMPLE_WEIGHT {
        "it reads and filters texels for each lane"
    } else if w == crate::exec::work::TRIG_WEIGHT {
        "it runs a libm function (glibc's sinf or cosf) on each lane"
    } else {
        "it runs a libm function (glibc's powf or logf) on each lane"
    };
    (w > 1).then(|| {
        format!("{w} quad-instructions for each quad with an active lane, not 1: {why}, many times the cost of a lane-wise operation")
    })
}

/// What an opcode's example is introduced as, before its reason: an opcode with a texture lane
/// table has it as its rendered example; the others because no lane table can run it.
pub fn example_label(op: Opcode) -> &'static str {
    if super::texlanes::of(op).is_some() {
        "The rendered example"
    } else {
        "Not executable in a lane table"
    }
}
