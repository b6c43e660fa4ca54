//! Operand rules that tgsi_sanity never checked (Mesa's `tgsi_sanity.c`):
//! which register files an operand may use, address registers, two-dimensional indices, array
//! ids, write masks per output mode, source modifiers per operand type (`tgsi.rst` "Source
//! modifiers"; tgsi_exec.c `fetch_source`), texture targets against the SVIEW declaration, memory
//! qualifiers only on memory opcodes.

use super::declarations::reg_text;
use super::regmap::{two_d, TwoD};
use super::Context;
use crate::diag::Diagnostic;
use crate::ir::{
    DclDimension, DclExtra, File, Instruction, PropertyName, PropertyValue, RegRef, TextureTarget,
};
use crate::opcode::{OpInfo, Opcode, OutputMode, ValType, F_MEMORY, F_TEX, F_TEX_OFFSETS};
use std::collections::HashMap;

/// What a source slot of a resource instruction accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// An ordinary value: SAMP and SVIEW are refused.
    Value,
    /// The sampler of TEX-style opcodes: SAMP (or SVIEW).
    Sampler,
    /// A sampler view of the SAMPLE family.
    View,
    /// The sampler state of the SAMPLE family.
    SamplerState,
    /// Opcodes whose operand order varies between documents: anything goes.
    Any,
}

fn slot(op: Opcode, info: &OpInfo, i: usize) -> Slot {
    if info.has(F_TEX) {
        return if i + 1 == info.num_src as usize { Slot::Sampler } else { Slot::Value };
    }
    match op {
        Opcode::SAMPLE
        | Opcode::SAMPLE_B
        | Opcode::SAMPLE_C
        | Opcode::SAMPLE_C_LZ
        | Opcode::SAMPLE_D
        | Opcode::SAMPLE_L
        | Opcode::GATHER4
        | Opcode::LOD => match i {
            1 => Slot::View,
            2 => Slot::SamplerState,
            _ => Slot::Value,
        },
        Opcode::SAMPLE_I | Opcode::SAMPLE_I_MS | Opcode::SVIEWINFO => {
            if i == 1 {
                Slot::View
            } else {
                Slot::Value
            }
        }
        Opcode::SAMPLE_POS | Opcode::SAMPLE_INFO => Slot::Any,
        _ => Slot::Value,
    }
}

/// ARL, ARR and UARL load an address register; the legacy ARA adds to one and POPA pops one
/// from the 2010 address stack.
fn is_address_writer(op: Opcode) -> bool {
    matches!(op, Opcode::ARL | Opcode::ARR | Opcode::UARL | Opcode::ARA | Opcode::POPA)
}

fn is_wide(t: ValType) -> bool {
    matches!(t, ValType::Double | ValType::Int64 | ValType::Uint64)
}

/// First declaration of each (file, ARRAY id).
type Arrays = HashMap<(File, i64), usize>;

pub(crate) fn check(cx: &Context, out: &mut Vec<Diagnostic>) {
    let mut arrays: Arrays = HashMap::new();
    for (i, d) in cx.shader.declarations.iter().enumerate() {
        if let Some(id) = d.array_id {
            arrays.entry((d.file, id)).or_insert(i);
        }
    }
    for ins in &cx.shader.instructions {
        let info = ins.opcode.info();
        check_dsts(ins, info, out);
        check_srcs(ins, info, out);
        for reg in ins
            .dst
            .iter()
            .map(|d| &d.reg)
            .chain(ins.src.iter().map(|s| &s.reg))
            .chain(ins.tex_offsets.iter().map(|t| &t.reg))
        {
            check_indexing(cx, &arrays, reg, out);
        }
        check_target(cx, ins, info, out);
        if (ins.memory_qualifiers != 0 || ins.memory_format.is_some()) && !info.has(F_MEMORY) {
            out.push(Diagnostic::error(
                "V216",
                format!(
                    "{} does not access memory: memory qualifiers and formats only go on LOAD, STORE, ATOM* and RESQ",
                    info.name
                ),
                ins.span,
            ));
        }
    }
}

fn check_dsts(ins: &Instruction, info: &OpInfo, out: &mut Vec<Diagnostic>) {
    for (k, d) in ins.dst.iter().enumerate() {
        let f = d.reg.file;
        if matches!(f, File::In | File::Const | File::Imm | File::Samp | File::Sview | File::Sv) {
            out.push(Diagnostic::error(
                "V201",
                format!("{} is read-only: an instruction cannot write to {}", f, reg_text(&d.reg)),
                d.reg.span,
            ));
        } else if f == File::Addr && !is_address_writer(ins.opcode) {
            out.push(Diagnostic::error(
                "V204",
                format!("only ARL, ARR and UARL (and the legacy ARA and POPA) may write an address register, not {}", info.name),
                d.reg.span,
            ));
        }
        let mask = d.write_mask.0 & 0xF;
        if mask == 0 {
            continue; // V006
        }
        if is_wide(ins.opcode.dst_value_type(k)) && !matches!(mask, 0x3 | 0xC | 0xF) {
            out.push(Diagnostic::error(
                "V210",
                format!(
                    "{} writes 64-bit values, which use channel pairs: the write mask must be .xy, .zw or .xyzw",
                    info.name
                ),
                d.span,
            ));
        }
        // Channel-dependent results whose selected channels are constants (tgsi.rst formulas):
        // LIT x = w = 1, DST x = 1, EXP w = 1, LOG w = 1.
        let constant_channels: u8 = match ins.opcode {
            Opcode::LIT => 0b1001,
            Opcode::DST => 0b0001,
            Opcode::EXP | Opcode::LOG => 0b1000,
            _ => 0,
        };
        if info.output == OutputMode::Channel
            && constant_channels != 0
            && mask & !constant_channels == 0
        {
            out.push(Diagnostic::warning(
                "V209",
                format!(
                    "{} always writes 1.0 in the channel(s) {}: this write mask selects nothing it computes",
                    info.name,
                    d.write_mask.suffix()
                ),
                d.span,
            ));
        }
        check_scalar_source(ins, info, mask, out);
        if ins.saturate
            && matches!(
                info.dst_type,
                ValType::Int | ValType::Uint | ValType::Int64 | ValType::Uint64
            )
        {
            out.push(Diagnostic::warning(
                "V213",
                format!("_SAT clamps floats, but {} produces integers", info.name),
                ins.opcode_span,
            ));
        }
    }
}

/// V211: a scalar opcode (RCP, RSQ, SQRT, EX2, LG2, POW, …; output mode "replicated") reads
/// only the first swizzle channel of each source (tgsi_exec.c, output mode REPL in
/// `tgsi_info_opcodes.h`). Writing one channel other than x from an unswizzled source (`RCP
/// TEMP[0].y, TEMP[1]`) computes from .x, which is almost never what was meant.
fn check_scalar_source(ins: &Instruction, info: &OpInfo, mask: u8, out: &mut Vec<Diagnostic>) {
    let multi_channel = matches!(
        ins.opcode,
        Opcode::DP2 | Opcode::DP3 | Opcode::DP4 | Opcode::DPH | Opcode::DP2A | Opcode::NRM4
    );
    if info.output != OutputMode::Replicated
        || multi_channel
        || !matches!(mask, 0b0010 | 0b0100 | 0b1000)
    {
        return;
    }
    let channel =
        crate::ir::CHANNEL_NAMES.get(mask.trailing_zeros() as usize).copied().unwrap_or('x');
    for s in ins
        .src
        .iter()
        .filter(|s| s.swizzle.is_identity() && !matches!(s.reg.file, File::Samp | File::Sview))
    {
        out.push(Diagnostic::warning(
            "V211",
            format!(
                "{} reads only the first swizzle channel, so this computes from .x and writes .{}: write {}.{} to use .{}",
                info.name,
                channel,
                super::declarations::reg_text(&s.reg),
                std::iter::repeat_n(channel, 4).collect::<String>(),
                channel
            ),
            s.span,
        ));
    }
}

fn check_srcs(ins: &Instruction, info: &OpInfo, out: &mut Vec<Diagnostic>) {
    for (i, s) in ins.src.iter().enumerate() {
        let f = s.reg.file;
        let sl = slot(ins.opcode, info, i);
        let resource = matches!(f, File::Samp | File::Sview);
        match sl {
            Slot::Value if resource && !(ins.opcode == Opcode::SAMP2HND && f == File::Samp) => {
                out.push(Diagnostic::error(
                    "V202",
                    format!(
                        "{} can only be the sampler operand of a texture instruction, not an operand of {}",
                        reg_text(&s.reg),
                        info.name
                    ),
                    s.reg.span,
                ))
            }
            Slot::Sampler if !resource => out.push(Diagnostic::error(
                "V203",
                format!("the last source of {} must be a sampler such as SAMP[0], not {}", info.name, f),
                s.reg.span,
            )),
            Slot::View if f != File::Sview => out.push(Diagnostic::error(
                "V203",
                format!("source {} of {} must be a sampler view SVIEW[n], not {}", i + 1, info.name, f),
                s.reg.span,
            )),
            Slot::SamplerState if f != File::Samp => out.push(Diagnostic::error(
                "V203",
                format!("source {} of {} must be a sampler SAMP[n], not {}", i + 1, info.name, f),
                s.reg.span,
            )),
            _ => {}
        }
        // The legacy PUSHA pushes an address register: its operand is the register itself.
        if f == File::Addr && ins.opcode != Opcode::PUSHA {
            out.push(Diagnostic::error(
                "V205",
                "an address register is only read as an index, as in TEMP[ADDR[0].x+1]",
                s.reg.span,
            ));
        }
        let resource_like = resource
            || matches!(
                f,
                File::Image | File::Buffer | File::Memory | File::Hwatomic | File::Constbuf
            );
        if (s.absolute || s.negate) && resource_like {
            out.push(Diagnostic::error(
                "V212",
                format!("a modifier cannot apply to the resource {}", reg_text(&s.reg)),
                s.span,
            ));
        } else if s.absolute {
            let t = info.src_type(i);
            if matches!(t, ValType::Int | ValType::Uint | ValType::Int64 | ValType::Uint64) {
                out.push(Diagnostic::error(
                    "V212",
                    format!(
                        "|abs| is a float modifier, but source {} of {} is an integer (use IABS or I64ABS)",
                        i + 1,
                        info.name
                    ),
                    s.span,
                ));
            }
        }
    }
}

/// Indirect addressing, array ids and two-dimensional indices of one register reference.
fn check_indexing(cx: &Context, arrays: &Arrays, reg: &RegRef, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    for b in reg.dimension.iter().chain(std::iter::once(&reg.index)) {
        if let Some(a) = b.indirect {
            if a.file != File::Addr && a.file != File::Null {
                out.push(Diagnostic::error(
                    "V206",
                    format!("indirect indices must come from ADDR, not {}", a.file),
                    a.span,
                ));
            }
        }
    }
    if reg.index.array_id != 0 {
        let id = reg.index.array_id as i64;
        match arrays.get(&(reg.file, id)).and_then(|&i| shader.declarations.get(i)) {
            None => out.push(Diagnostic::error(
                "V207",
                format!("no {} declaration has ARRAY({})", reg.file, id),
                reg.index.span,
            )),
            Some(d) if reg.index.indirect.is_some() && !d.range.contains(reg.index.offset) => out
                .push(
                    Diagnostic::error(
                        "V207",
                        format!(
                            "offset {} is outside ARRAY({}), which covers {}[{}..{}]",
                            reg.index.offset, id, d.file, d.range.first, d.range.last
                        ),
                        reg.index.span,
                    )
                    .with_related("the array is declared here", d.span),
                ),
            _ => {}
        }
    }
    match (two_d(shader.processor, reg.file), reg.dimension) {
        (TwoD::Never, Some(dim)) => out.push(Diagnostic::error(
            "V208",
            format!("{} takes one index, but this reference has two", reg.file),
            dim.span.join(reg.index.span),
        )),
        (TwoD::Required, None) => {
            // Per-vertex registers need a vertex index; patch-style declarations do not.
            let decl = cx
                .decls
                .find(reg.file, 0, reg.index.offset)
                .and_then(|i| shader.declarations.get(i));
            if decl.is_some_and(|d| d.dimension == DclDimension::Implied)
                && reg.index.indirect.is_none()
            {
                out.push(Diagnostic::error(
                    "V208",
                    format!(
                        "{} in a {} shader is per vertex: write {}[vertex][{}]",
                        reg.file, shader.processor, reg.file, reg.index.offset
                    ),
                    reg.span,
                ));
            }
        }
        // Mesa indexes geometry-shader vertices indirectly; the playground's interpreter lays
        // each vertex out as a block of rows chosen when the program is compiled, so it cannot.
        (TwoD::Required, Some(dim))
            if reg.file == File::In
                && dim.indirect.is_some()
                && shader.processor == crate::ir::Processor::Geometry =>
        {
            out.push(Diagnostic::error(
                "V217",
                "an indirect vertex index (IN[ADDR[..]][n]) cannot be run by the playground's interpreter: index the vertex directly",
                dim.span.join(reg.index.span),
            ));
        }
        (TwoD::Required, Some(dim)) if reg.file == File::In && dim.indirect.is_none() => {
            let vertices = match shader.property(PropertyName::GsInputPrimitive) {
                Some(PropertyValue::Primitive(p))
                    if shader.processor == crate::ir::Processor::Geometry =>
                {
                    Some(p.vertices_per_primitive())
                }
                _ => None,
            };
            if let Some(n) = vertices {
                if dim.offset < 0 || dim.offset >= n as i64 {
                    out.push(Diagnostic::error(
                        "V207",
                        format!(
                            "vertex index {} is out of range: the input primitive has {} vertices (0..{})",
                            dim.offset,
                            n,
                            n.saturating_sub(1)
                        ),
                        dim.span,
                    ));
                }
            }
        }
        _ => {}
    }
}

/// Texture targets: present exactly on texture opcodes, and consistent with `DCL SVIEW`.
fn check_target(cx: &Context, ins: &Instruction, info: &OpInfo, out: &mut Vec<Diagnostic>) {
    if info.has(F_TEX) && ins.opcode != Opcode::SAMP2HND && ins.texture.is_none() {
        out.push(Diagnostic::error(
            "V215",
            format!("{} needs a texture target such as 2D after its operands", info.name),
            ins.span,
        ));
        return;
    }
    if ins.texture.is_some() && !info.has(F_TEX) && !info.has(F_TEX_OFFSETS) && !info.has(F_MEMORY)
    {
        out.push(Diagnostic::error(
            "V215",
            format!("{} is not a texture instruction and takes no texture target", info.name),
            ins.span,
        ));
        return;
    }
    let (Some(target), true) = (ins.texture, info.has(F_TEX)) else { return };
    let Some(sampler) = ins.src.last() else { return };
    if sampler.reg.index.indirect.is_some() || target == TextureTarget::Unknown {
        return;
    }
    // tgsi_exec uses the same unit number for the sampler and the sampler view.
    let Some(view) = cx
        .decls
        .find(File::Sview, 0, sampler.reg.index.offset)
        .and_then(|i| cx.shader.declarations.get(i))
    else {
        return;
    };
    let DclExtra::SamplerView { target: declared, .. } = view.extra else { return };
    if declared != TextureTarget::Unknown && base_target(declared) != base_target(target) {
        out.push(
            Diagnostic::error(
                "V214",
                format!(
                    "{} samples unit {} as {}, but SVIEW[{}] is declared {}",
                    info.name, sampler.reg.index.offset, target, sampler.reg.index.offset, declared
                ),
                ins.span,
            )
            .with_related("the sampler view declaration", view.span),
        );
    }
}

/// The target without its depth comparison: SHADOW2D reads a 2D view.
fn base_target(t: TextureTarget) -> TextureTarget {
    use TextureTarget::*;
    match t {
        Shadow1D => Tex1D,
        Shadow2D => Tex2D,
        ShadowRect => Rect,
        Shadow1DArray => Array1D,
        Shadow2DArray => Array2D,
        ShadowCube => Cube,
        ShadowCubeArray => CubeArray,
        other => other,
    }
}
