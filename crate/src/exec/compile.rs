//! Analysed IR → decoded program (`design.md` "The interpreter"): register files laid out in one
//! storage array, operands resolved to rows, swizzles/modifiers/types decoded, and every branch
//! given its target from the validator's matched blocks (`valid::Analysed`), never from the
//! `:label`s written in the text (`docs/interpreter.md` "Execution model").

use super::program::*;
use crate::diag::Diagnostic;
use crate::ir::{self, DclDimension, File, Interp, Shader};
use crate::opcode::{Denormal, Opcode, OutputMode, ValType};
use crate::valid::{self, Analysed};

/// Largest register count accepted per file (tgsi_exec has 4096 temporaries).
pub const MAX_REGS_PER_FILE: i64 = 4096;
/// Largest number of registers over all files together.
pub const MAX_TOTAL_REGS: i64 = 6144;

fn err(code: &'static str, msg: impl Into<String>, span: ir::Span) -> Diagnostic {
    Diagnostic::error(code, msg, span)
}

/// Sizes of each storage file: the declared range or the largest direct index used, whichever
/// is larger (the validator reports undeclared registers; the interpreter just runs them).
fn file_sizes(shader: &Shader) -> Result<[i64; 6], Diagnostic> {
    // TEMP, OUT, IN, SV, ADDR, IMM
    let mut n = [0i64; 6];
    let slot = |f: File| match f {
        File::Temp => Some(0),
        File::Out => Some(1),
        File::In => Some(2),
        File::Sv => Some(3),
        File::Addr => Some(4),
        _ => None,
    };
    for d in &shader.declarations {
        if let Some(s) = slot(d.file) {
            let last = d.range.last as i64 + 1;
            if last > MAX_REGS_PER_FILE {
                return Err(err(
                    "X002",
                    format!(
                        "{}[{}] is more registers than the interpreter holds ({})",
                        d.file, d.range.last, MAX_REGS_PER_FILE
                    ),
                    d.span,
                ));
            }
            n[s] = n[s].max(last);
        }
    }
    let mut see = |r: &ir::RegRef| -> Result<(), Diagnostic> {
        if let Some(s) = slot(r.file) {
            if r.index.indirect.is_none() {
                if r.index.offset < 0 || r.index.offset >= MAX_REGS_PER_FILE {
                    return Err(err(
                        "X002",
                        format!("register index {} is out of range", r.index.offset),
                        r.span,
                    ));
                }
                n[s] = n[s].max(r.index.offset + 1);
            }
        }
        for ind in [r.index.indirect, r.dimension.and_then(|d| d.indirect)].into_iter().flatten() {
            if let Some(s) = slot(ind.file) {
                n[s] = n[s].max((ind.index as i64 + 1).min(MAX_REGS_PER_FILE));
            }
        }
        Ok(())
    };
    for inst in &shader.instructions {
        for d in &inst.dst {
            see(&d.reg)?;
        }
        for s in &inst.src {
            see(&s.reg)?;
        }
    }
    if let Some(v) = shader.geometry_input_vertices() {
        // IN[v][n] of a geometry shader: one block of `stride` attributes per vertex.
        n[2] = n[2].max(1).saturating_mul(v as i64);
    }
    n[5] = shader.immediates.len() as i64;
    if n[5] > MAX_REGS_PER_FILE {
        return Err(err("X002", "too many immediates", ir::Span::default()));
    }
    // Bounds the storage of a batch (registers × 4 channels × quads).
    let total: i64 = n.iter().sum();
    if total > MAX_TOTAL_REGS {
        return Err(err(
            "X002",
            format!(
                "{} registers in all files is more than the interpreter holds ({})",
                total, MAX_TOTAL_REGS
            ),
            ir::Span::default(),
        ));
    }
    Ok(n)
}

/// Attributes per vertex of a geometry shader's 2-D inputs (largest IN index + 1).
fn vertex_stride(shader: &Shader) -> u32 {
    let mut n = 0u32;
    for d in &shader.declarations {
        if d.file == File::In {
            n = n.max(d.range.last.saturating_add(1).min(MAX_REGS_PER_FILE as u32));
        }
    }
    for inst in &shader.instructions {
        for s in &inst.src {
            if s.reg.file == File::In
                && s.reg.index.indirect.is_none()
                && (0..MAX_REGS_PER_FILE).contains(&s.reg.index.offset)
            {
                n = n.max(s.reg.index.offset as u32 + 1);
            }
        }
    }
    n.max(1)
}

struct Ctx {
    layout: Layout,
    const_slots: Vec<ConstSlot>,
    /// Geometry shaders: attributes per vertex of `IN[v][n]`.
    vertex_stride: Option<u32>,
    /// How the program treats denormals.
    denormals: Denormals,
}

impl Ctx {
    fn rows(&self, f: File) -> Option<(u32, u32)> {
        let l = &self.layout;
        Some(match f {
            File::Temp => l.temp,
            File::Out => l.out,
            File::In => l.input,
            File::Sv => l.sv,
            File::Addr => l.addr,
            File::Imm => l.imm,
            _ => return None,
        })
    }
    fn addr_row(&self, ind: &ir::IndirectAddr) -> Result<AddrRow, Diagnostic> {
        match self.rows(ind.file) {
            Some((base, count)) if ind.index < count => {
                Ok(AddrRow(base + ind.index * 4 + (ind.component as u32 & 3)))
            }
            _ => Err(err(
                "X001",
                format!("{}[{}] cannot hold an address", ind.file, ind.index),
                ind.span,
            )),
        }
    }
    fn const_slot(&mut self, buffer: u32, index: u32) -> u32 {
        let s = ConstSlot { buffer, index };
        match self.const_slots.iter().position(|c| *c == s) {
            Some(i) => i as u32,
            None => {
                self.const_slots.push(s);
                self.const_slots.len() as u32 - 1
            }
        }
    }
    fn src(&mut self, s: &ir::SrcOperand, ty: ValType) -> Result<Src, Diagnostic> {
        let r = &s.reg;
        let mut out = Src {
            swizzle: s.swizzle.0.map(|c| c & 3),
            negate: s.negate,
            absolute: s.absolute,
            ty: Some(ty),
            index: r.index.offset,
            file: Some(r.file),
            ..Src::default()
        };
        out.indirect = r.index.indirect.as_ref().map(|i| self.addr_row(i)).transpose()?;
        match r.file {
            File::In if self.vertex_stride.is_some() && r.dimension.is_some() => {
                // IN[v][n] → row v * stride + n; an indirect vertex index is not supported.
                let stride = self.vertex_stride.unwrap_or(1) as i64;
                let dim = r.dimension.unwrap_or(ir::Bracket::direct(0));
                if dim.indirect.is_some() {
                    return Err(err("X001", "an indirect vertex index IN[ADDR..][n] is not supported by the interpreter", r.span));
                }
                out.index = dim
                    .offset
                    .clamp(-1, 64)
                    .saturating_mul(stride)
                    .saturating_add(out.index.clamp(-1, MAX_REGS_PER_FILE));
                if let Some((base, count)) = self.rows(File::In) {
                    out.store = Store::Rows { base, count };
                }
            }
            File::Const => {
                let dim = r.dimension.unwrap_or(ir::Bracket::direct(0));
                out.dim = dim.offset;
                out.dim_indirect = dim.indirect.as_ref().map(|i| self.addr_row(i)).transpose()?;
                let direct = out.indirect.is_none() && out.dim_indirect.is_none();
                if direct
                    && (0..MAX_REGS_PER_FILE).contains(&out.index)
                    && (0..64).contains(&out.dim)
                {
                    let slot = self.const_slot(out.dim as u32, out.index as u32);
                    out.store = Store::Rows { base: slot * 4, count: 1 };
                    out.index = 0;
                } else {
                    out.store = Store::Const;
                }
            }
            f => match self.rows(f) {
                Some((base, count)) => out.store = Store::Rows { base, count },
                None => {
                    out.store = Store::None;
                    out.resource = r.index.offset.clamp(0, u32::MAX as i64) as u32;
                    // HWATOMIC[b][i]: the first bracket names the atomic buffer.
                    out.dim = r.dimension.map_or(0, |d| d.offset);
                }
            },
        }
        Ok(out)
    }
    fn dst(&self, d: &ir::DstOperand) -> Result<Dst, Diagnostic> {
        let r = &d.reg;
        let store = match r.file {
            File::Temp | File::Out | File::Addr => {
                self.rows(r.file).map(|(base, count)| Store::Rows { base, count })
            }
            // Buffers/images are written by memory opcodes through the resource hooks.
            File::Buffer | File::Image | File::Memory | File::Null => Some(Store::None),
            _ => None,
        };
        let Some(store) = store else {
            return Err(err("X001", format!("the interpreter cannot write to {}", r.file), d.span));
        };
        Ok(Dst {
            file: Some(r.file),
            store,
            index: r.index.offset,
            indirect: r.index.indirect.as_ref().map(|i| self.addr_row(i)).transpose()?,
            mask: d.write_mask.0 & 0xF,
        })
    }
}

/// Compiles an analysed shader into a [`Program`]. Control flow comes from the validator's
/// matched blocks. The remaining `X…` failures guard the interpreter's storage against
/// hand-built IR; for a program that `valid::analyse` accepted they cannot happen (the
/// `valid::agreement` tests check that over the corpus and generated edge cases).
pub fn compile(analysed: &Analysed) -> Result<Program, Diagnostic> {
    compile_with(analysed, Denormals::of_stage(analysed.shader().processor))
}

/// [`compile`] with the denormal mode given: a fragment shader is compiled a second time with
/// [`Denormals::InDraw`] for the draw chunks softpipe shades inside its draw call.
pub fn compile_with(analysed: &Analysed, denormals: Denormals) -> Result<Program, Diagnostic> {
    let shader = analysed.shader();
    let n = file_sizes(shader)?;
    let mut layout = Layout::default();
    let mut next = 0u32;
    // Cached constants go first so that their rows are `slot * 4`; they are sized after decoding.
    let stride = shader.geometry_input_vertices().map(|_| vertex_stride(shader));
    let mut ctx = Ctx { layout, const_slots: Vec::new(), vertex_stride: stride, denormals };
    // Placeholder: decode once to count constant slots, then lay out the rest after them.
    for inst in &shader.instructions {
        for s in &inst.src {
            let r = &s.reg;
            if r.file == File::Const && r.index.indirect.is_none() {
                let dim = r.dimension.unwrap_or(ir::Bracket::direct(0));
                if dim.indirect.is_none()
                    && (0..MAX_REGS_PER_FILE).contains(&r.index.offset)
                    && (0..64).contains(&dim.offset)
                {
                    ctx.const_slot(dim.offset as u32, r.index.offset as u32);
                }
            }
        }
    }
    let nconst = ctx.const_slots.len() as u32;
    layout.consts = (0, nconst);
    next += nconst * 4;
    let mut place = |count: i64| {
        let r = (next, count as u32);
        next += count as u32 * 4;
        r
    };
    layout.temp = place(n[0]);
    layout.out = place(n[1]);
    layout.input = place(n[2]);
    layout.sv = place(n[3]);
    layout.addr = place(n[4]);
    layout.imm = place(n[5]);
    layout.rows = next;
    ctx.layout = layout;

    let mut code = Vec::with_capacity(shader.instructions.len() + 1);
    for (i, inst) in shader.instructions.iter().enumerate() {
        code.push(decode(&mut ctx, inst, i)?);
    }
    // An implicit END so that running off the end stops cleanly.
    let mut end = Inst::blank(Opcode::END);
    end.ir_index = shader.instructions.len() as u32;
    end.span = shader.instructions.last().map(|i| i.span).unwrap_or_default();
    code.push(end);

    let switches = link_flow(analysed, &mut code);
    let max_depth = analysed.max_depth().min(u32::MAX as usize) as u32;
    if ctx.denormals == Denormals::Keep {
        mark_cond_breaks(&mut code);
    }

    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut system_values = Vec::new();
    for d in shader.distinct_declarations() {
        if d.dimension != DclDimension::None && d.file != File::Const {
            // 2-D inputs (GS/tessellation vertices) are not run by this interpreter's batches.
            if d.file == File::In {
                continue;
            }
        }
        for r in
            d.range.first..=d.range.last.min(d.range.first.saturating_add(MAX_REGS_PER_FILE as u32))
        {
            let semantic = d.semantic.map(|s| (s.name, s.index + (r - d.range.first)));
            match d.file {
                File::In => inputs.push(InputInfo {
                    index: r,
                    semantic,
                    interp: match d.interp {
                        Some(Interp::Constant) => InputInterp::Constant,
                        Some(Interp::Linear) => InputInterp::Linear,
                        Some(Interp::Color) => InputInterp::Color,
                        _ => InputInterp::Perspective,
                    },
                    usage_mask: d.usage_mask.0,
                }),
                File::Out => outputs.push(OutputInfo { index: r, semantic }),
                File::Sv => {
                    if let Some((name, _)) = semantic {
                        system_values.push((r, name));
                    }
                }
                _ => {}
            }
        }
    }
    let can_kill = code.iter().any(|i| {
        matches!(i.op, Opcode::KILL | Opcode::KILL_IF | Opcode::KIL | Opcode::KILP | Opcode::DEMOTE)
    });
    let mut sviews = Vec::new();
    let mut images = Vec::new();
    let mut memories = Vec::new();
    for d in shader.distinct_declarations() {
        let regs = d.range.first
            ..=d.range.last.min(d.range.first.saturating_add(MAX_REGS_PER_FILE as u32));
        match &d.extra {
            ir::DclExtra::SamplerView { target, .. } => sviews.extend(regs.map(|r| (r, *target))),
            ir::DclExtra::Image { target, format, .. } => {
                images.extend(regs.map(|r| (r, *target, format.clone())))
            }
            ir::DclExtra::Memory { kind } => memories.extend(regs.map(|r| (r, *kind))),
            _ => {}
        }
    }
    let prewritten = super::prewrite::prewritten_rows(&code, layout.rows as usize);
    let dirty = super::prewrite::dirty_rows(&code, &layout);
    let touches_masks = super::prewrite::touches_masks(&code);
    Ok(Program {
        prewritten,
        dirty,
        touches_masks,
        sviews,
        images,
        memories,
        properties: shader.properties.clone(),
        vertex_stride: stride.unwrap_or(0),
        processor: shader.processor,
        code,
        layout,
        immediates: shader.immediates.iter().map(|m| m.bits).collect(),
        const_slots: ctx.const_slots,
        switches,
        inputs,
        outputs,
        system_values,
        max_depth,
        can_kill,
    })
}

impl Inst {
    pub fn blank(op: Opcode) -> Inst {
        Inst {
            op,
            saturate: false,
            dst: [Dst::default(); 2],
            num_dst: 0,
            src: [Src::default(); 5],
            num_src: 0,
            target: 0,
            aux: 0,
            texture: None,
            offsets: [None],
            fused: false,
            kernel: None,
            cond_break: false,
            charged_at_end: super::work::charged_at_end(op),
            weight: super::work::weight(op),
            daz: 0,
            ftz: false,
            libm_daz: false,
            ir_index: 0,
            span: ir::Span::default(),
        }
    }
}

fn decode(ctx: &mut Ctx, inst: &ir::Instruction, i: usize) -> Result<Inst, Diagnostic> {
    let info = inst.opcode.info();
    let mut out = Inst::blank(inst.opcode);
    out.saturate = inst.saturate;
    out.ir_index = i as u32;
    out.span = inst.span;
    out.texture = inst.texture;
    if inst.dst.len() > 2 || inst.src.len() > 5 {
        return Err(err("X001", "too many operands for the interpreter", inst.span));
    }
    for (k, d) in inst.dst.iter().enumerate() {
        out.dst[k] = ctx.dst(d)?;
    }
    out.num_dst = inst.dst.len() as u8;
    for (k, s) in inst.src.iter().enumerate() {
        out.src[k] = ctx.src(s, info.src_type(k))?;
    }
    out.num_src = inst.src.len() as u8;
    if let Some(o) = inst.tex_offsets.first() {
        let op = ir::SrcOperand {
            reg: o.reg,
            swizzle: ir::Swizzle([o.swizzle[0], o.swizzle[1], o.swizzle[2], 0]),
            negate: false,
            absolute: false,
            span: o.span,
        };
        out.offsets[0] = Some(ctx.src(&op, ValType::Int)?);
    }
    out.fused = can_fuse(&out);
    // Fewer source operands than the table says (hand-written text): missing ones read 0.
    if (out.num_src as usize) < info.num_src as usize && info.output != OutputMode::None {
        out.num_src = info.num_src.min(5);
    }
    out.kernel = super::kernels::decode(&out);
    if ctx.denormals != Denormals::Keep {
        flush_operands(&mut out, ctx.denormals);
    }
    Ok(out)
}

/// Marks the float operands and results that a flushing stage treats as zero when denormal, as
/// the table's `denormal` column says for the opcode ([`Denormal`]): only Float-typed operands
/// and results are flushed. Such an instruction takes the general path, which applies the
/// flushes.
fn flush_operands(out: &mut Inst, denormals: Denormals) {
    let info = out.op.info();
    let compared = match info.denormal {
        Denormal::Bits => return,
        Denormal::Trig if denormals == Denormals::InDraw => return,
        Denormal::LibmBase => {
            out.libm_daz = true;
            out.ftz = true;
            out.kernel = None;
            out.fused = false;
            return;
        }
        Denormal::Condition(k) => Some(k as usize),
        Denormal::Flush | Denormal::Trig => None,
    };
    let mut any = false;
    for k in 0..out.num_src as usize {
        if info.src_type(k) == ValType::Float && compared.is_none_or(|c| c == k) {
            out.daz |= 1 << k;
            any = true;
        }
    }
    // A selection (CMP, CND) returns another source's bits; IF has no result.
    out.ftz = info.dst_type == ValType::Float && compared.is_none() && out.num_dst > 0;
    if any || out.ftz {
        out.kernel = None;
        out.fused = false;
    }
}

fn can_fuse(inst: &Inst) -> bool {
    let info = inst.op.info();
    let d = inst.dst[0];
    let (Store::Rows { base, count }, None) = (d.store, d.indirect) else { return false };
    let direct = d.index >= 0 && (d.index as u64) < count as u64;
    let first = (base as i64).saturating_add(d.index.saturating_mul(4));
    let in_dst = |a: Option<AddrRow>| {
        a.is_some_and(|a| (first..first.saturating_add(4)).contains(&(a.0 as i64)))
    };
    let aliases = inst.src[..inst.num_src as usize].iter().any(|s| {
        (s.store == Store::Rows { base, count } && (s.indirect.is_some() || s.index == d.index))
            || in_dst(s.indirect)
            || in_dst(s.dim_indirect)
    });
    info.fuse && inst.num_dst == 1 && !inst.saturate && direct && !aliases
}

/// Marks each `IF/UIF c; BRK; ENDIF` (no ELSE, the BRK leaving a loop) for the fused
/// conditional break.
fn mark_cond_breaks(code: &mut [Inst]) {
    for pc in 0..code.len() {
        let op = |k: usize| code.get(pc + k).map(|i| i.op);
        let fusable = matches!(op(0), Some(Opcode::IF | Opcode::UIF))
            && op(1) == Some(Opcode::BRK)
            && code.get(pc + 1).is_some_and(|b| b.aux == 0)
            && op(2) == Some(Opcode::ENDIF)
            && code.get(pc).is_some_and(|i| i.target as usize == pc + 2);
        if let Some(i) = code.get_mut(pc) {
            i.cond_break = fusable;
        }
    }
}

/// Fills each structural instruction's `target` and `aux` from the validator's matched blocks
/// (`valid::BlockTarget`): jumps go to the partner the validator proved, BRK learns whether it
/// leaves a loop or a SWITCH, and each SWITCH gets its list of CASE values in order.
fn link_flow(analysed: &Analysed, code: &mut [Inst]) -> Vec<SwitchInfo> {
    let mut switches: Vec<SwitchInfo> = Vec::new();
    for t in analysed.targets() {
        let (at, partner, end) = (t.at, t.partner, t.end);
        let Some(op) = code.get(at).map(|i| i.op) else { continue };
        match op {
            // IF/UIF → ELSE or ENDIF; ELSE → ENDIF; loops and subroutines → their other end;
            // SWITCH → ENDSWITCH; CAL → the BGNSUB.
            Opcode::IF
            | Opcode::UIF
            | Opcode::IFC
            | Opcode::ELSE
            | Opcode::BGNLOOP
            | Opcode::ENDLOOP
            | Opcode::SWITCH
            | Opcode::BGNSUB
            | Opcode::CAL
            | Opcode::CALLNZ => code[at].target = partner as u32,
            Opcode::BRK | Opcode::BREAKC => {
                let leaves_switch = code.get(partner).is_some_and(|i| i.op == Opcode::ENDSWITCH);
                code[at].aux = leaves_switch as u32;
            }
            _ => {}
        }
        if op == Opcode::SWITCH {
            code[at].aux = switches.len() as u32;
            switches.push(SwitchInfo::default());
        }
        // CASE/DEFAULT: the SWITCH is the partner of their ENDSWITCH (targets are sorted, so
        // the SWITCH was numbered before its labels).
        if matches!(op, Opcode::CASE | Opcode::DEFAULT) {
            let switch = analysed.target(end).map(|e| e.partner);
            let sw = switch.and_then(|s| code.get(s)).map_or(0, |s| s.aux);
            code[at].aux = sw;
            if op == Opcode::CASE {
                let value = code[at].src[0];
                if let Some(info) = switches.get_mut(sw as usize) {
                    info.cases.push(value);
                }
            }
        }
    }
    switches
}

/// Validates and compiles in one step: what every entry point (CLI, wasm, render) calls, so a
/// program runs exactly when `tgsi check` accepts it. `Err` holds the validator's diagnostics
/// (or the one compile failure).
pub fn build(shader: &Shader) -> Result<Program, Vec<Diagnostic>> {
    let analysed = valid::analyse(shader, &valid::Options::default())?;
    compile(&analysed).map_err(|d| vec![d])
}
