//! `exec::Program` → one WebAssembly module (SIMD) that runs a batch of quads, each quad with
//! its own control flow, bit for bit as the interpreter's machine computes them (`docs/jit.md`).
//!
//! `run(nq, limit)` is one loop over the quads (`passes.rs`; a straight-line program that samples
//! runs in passes split at its texture instructions). For each quad the program runs with the
//! quad's registers in `v128` locals (one local per storage row: TEMP, OUT and ADDR rows start at
//! zero, IN and system-value rows are loaded from memory at the quad's start; immediates are
//! constants in the code, cached constants are loaded from memory at each use). The masks of
//! `exec/flow.rs` (tgsi_exec.c `exec_instruction`) are `v128` locals too: cond, loop, cont, switch,
//! func, kill, exec = cond & loop & cont & func & switch (UPDATE_EXEC_MASK), and saved masks per
//! IF, loop, switch and call nesting level. IF/ELSE/ENDIF, BGNLOOP/ENDLOOP and each CASE/DEFAULT's
//! code become wasm `if`, `block` and `loop`; subroutines are inlined at each CAL in a `block`. A
//! body runs only when `v128.any_true(exec)`, and a body left with an all-zero exec mask (after
//! BRK, CONT or RET, or a closer that restores none) is left by a `br` to its end. So inside a body
//! exec is never all zero. Writes inside flow are blended with exec (`v128.bitselect`); at the top
//! level exec is all ones and writes are plain. Operands addressed through ADDR select among their
//! file's registers lane by lane (`operands.rs`).
//!
//! The budget counts quad-instructions (`exec/work.rs`): an instruction is charged
//! once per quad whose exec mask is non-zero when it starts (ELSE, ENDIF and ENDLOOP: when they
//! end). Inside a body that is every instruction reached, so a straight run adds its length.
//! The total is an `i64` local over all quads; at every loop back-edge and after each quad it is
//! compared with `limit`, and the module returns −1 when it passed it (the caller then reruns
//! the batch in the interpreter, which stops at the same instruction). At the same places, a
//! module that calls the engine asks it, each time the total passes another
//! `exec::STOP_CHECK_INTERVAL`, whether its frame was stopped (the `poll` import) and returns
//! −1 if so: such a run ends within that much work of a stop, as the interpreter's does.
//!
//! Memory holds what the caller stages: the IN and SV rows the program reads and the OUT rows
//! it writes, each at `slot * ROW_BYTES + q * 16`, the kill row, then the cached constants (16
//! bytes each, the same for every quad), for a program that samples, the sampling scratch, and
//! for each constant buffer read through an index (`CONST[b][ADDR..]`) an area holding the
//! whole buffer and its length, which the host copies in for each run (`operands.rs` gathers a
//! lane's register from it).
//!
//! Imports (`jit::imports`, `jit::host`): the libm lane formulas (SIN, POW, …) call the
//! interpreter's own functions for each lane of a quad (one call per quad), texture
//! instructions the interpreter's texture code for the quad, and a module with any of those
//! has the stop flag (`poll`) too; the imports take function indices 0.., so `run` follows
//! them.

// Operands and lane formulas; masks and structured flow; the passes over the quads; nesting
// and inlining bounds.
mod alu;
mod flow;
mod flush;
mod layout;
mod operands;
mod pairs;
mod passes;
mod shape;
mod trig;

pub use layout::{
    sample_row_stride, Layout, BUFFER_AREA_BYTES, BUFFER_REGISTERS, MAX_QUADS, MAX_SPILLS,
    ROW_BYTES, SAMPLE_ROW_PAD, SAMPLE_SLOTS,
};

use alu::{check_alu, is_alu, is_derivative, is_texture};
use operands::{check_operands, dst_row, dst_rows, src_rows};
use shape::{main_end, shape, sub_body};

use super::imports::{self, Which};
use crate::exec::program::{Dst, Inst, Program, Src, Store};
use crate::exec::STOP_CHECK_INTERVAL;
use crate::opcode::{Opcode as O, ValType as VT};
use std::collections::{BTreeSet, HashMap};
use wasm_encoder::{
    BlockType, CodeSection, ConstExpr, DataSection, EntityType, ExportKind, ExportSection,
    Function, FunctionSection, ImportSection, Instruction as I, MemArg, MemorySection, MemoryType,
    Module, TypeSection, ValType,
};

/// Why a program is not compiled (it then runs in the interpreter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub reason: String,
    /// IR index of the instruction, if one is to blame.
    pub instruction: Option<u32>,
}

/// Whether `code` has flow control of its own (IF, loops, SWITCH, calls, RET): exec may then
/// differ from all ones, and the program is not straight-line.
fn has_flow(code: &[Inst]) -> bool {
    code.iter().any(|i| matches!(i.op, O::IF | O::UIF | O::BGNLOOP | O::SWITCH | O::CAL | O::RET))
}

/// A generated module and the layout its caller fills.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub bytes: Vec<u8>,
    pub layout: Layout,
    /// Decoded instructions compiled (up to the main END).
    pub instructions: usize,
    /// The texture instructions the module samples with, by the index it passes to the
    /// `sample` import, each rewritten to read its staged operands (`jit::host`).
    pub samplers: Vec<Inst>,
    /// The module calls host functions (a libm lane formula, or the sampler; SIN and COS import
    /// only for large arguments but count, docs/jit.md "SIN and COS"): natively those shaders
    /// run faster in the interpreter (docs/jit.md "Speed of imported opcodes"), so the
    /// default engine leaves them to it.
    pub calls_host: bool,
    /// The most work one quad can be charged (every instruction up to the main END once, and
    /// END): a bound for a program without loops or calls, which a colour-storing form is.
    pub quad_work_bound: u64,
}

// Locals of `run`: the parameters, three i32, two i64, then v128 ones.
const NQ: u32 = 0;
const LIMIT: u32 = 1;
const QB: u32 = 2;
const QEND: u32 = 3;
const I32_TMP: u32 = 4;
const WORK: u32 = 5;
/// The work at which the module next looks at the limit and the stop flag (i64; at most
/// `LIMIT`, [`Gen::check_limit`]).
const NEXT: u32 = 6;
const EXEC: u32 = 7;
const COND: u32 = 8;
const LOOPM: u32 = 9;
const CONT: u32 = 10;
const KILL: u32 = 11;
/// The switch mask (`exec/flow.rs` SWITCH: the lanes a CASE or DEFAULT let in, less those that
/// left with BRK) and the function mask (the lanes of the current call, or of the main program,
/// that have not returned).
const SWITCHM: u32 = 12;
const FUNCM: u32 = 13;
/// Row locals, then saved masks, then scratch.
const FIRST_V128: u32 = 14;

/// The bits of storage row `row` when it is an immediate's channel (IMM rows past the
/// declared immediates read zero).
fn immediate_bits(program: &Program, row: u32) -> Option<u32> {
    let (base, regs) = program.layout.imm;
    let k = row.checked_sub(base).filter(|&k| k < regs * 4)? as usize;
    Some(program.immediates.get(k / 4).map_or(0, |v| v[k % 4]))
}

fn fail<T>(reason: impl Into<String>, inst: Option<&Inst>) -> Result<T, Unsupported> {
    Err(Unsupported { reason: reason.into(), instruction: inst.map(|i| i.ir_index) })
}

/// Where an operand row's value comes from.
#[derive(Clone, Copy)]
enum Row {
    /// A `v128` local (registers, and IN/SV rows loaded at the quad's start).
    Local(u32),
    /// An immediate: constant bits.
    Imm(u32),
    /// A cached constant: index into `Layout::consts`.
    Const(u32),
}

/// Whether a module runs one quad per pass or two (`pairs.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Two quads per pass for a program with a loop, of at most [`PAIRED_MAX_INSTRUCTIONS`]
    /// instructions, that calls no host function (docs/jit.md "Two quads per pass": a loop's
    /// chain of dependent instructions is where a second quad finds idle units; the doubled
    /// code stays small; a host call costs the same per quad either way); one otherwise.
    Auto,
    Single,
    Pairs,
}

/// The longest program [`Pairing::Auto`] runs in pairs (the module's code doubles).
pub const PAIRED_MAX_INSTRUCTIONS: usize = 256;

/// Compiles `program`, or says why not.
pub fn compile(program: &Program) -> Result<Compiled, Unsupported> {
    compile_with(program, Pairing::Auto)
}

/// Compiles `program` one or two quads per pass, or says why not.
pub fn compile_with(program: &Program, pairing: Pairing) -> Result<Compiled, Unsupported> {
    compile_as(program, pairing, None)
}

/// Compiles `program` to store OUT register `colour` into the render target itself
/// ([`Layout::colour`]), or says why not: a program that kills lanes, or with no such output.
pub fn compile_fused(program: &Program, colour: u32) -> Result<Compiled, Unsupported> {
    if colour >= program.layout.out.1 {
        return fail("the colour is not an OUT register of the program", None);
    }
    compile_as(program, Pairing::Auto, Some(colour))
}

fn compile_as(
    program: &Program,
    pairing: Pairing,
    colour: Option<u32>,
) -> Result<Compiled, Unsupported> {
    let end = main_end(program)?;
    let shape = shape(program, end)?;
    // What runs: the main program and the subroutine bodies it calls (inlined at each call).
    let pcs: Vec<usize> =
        (0..end).chain(shape.subs.iter().flat_map(|&(from, to)| from..to)).collect();
    let code = &program.code;
    for &pc in &pcs {
        let inst = &code[pc];
        check_operands(inst)?;
        if is_alu(inst.op) {
            check_alu(inst)?;
        }
    }
    // Every row an operand names, classified.
    let pl = program.layout;
    let within = |r: u32, (base, regs): (u32, u32)| r >= base && r < base + regs * 4;
    let mut read = BTreeSet::new();
    let mut reads: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut written = BTreeSet::new();
    // Rows a writer may leave a denormal in whatever it reads, and the copies (instruction,
    // channel, row) whose rows hold what they copy: which rows never hold a denormal is decided
    // from them (`flush::clean_rows`).
    let mut dirty = BTreeSet::new();
    let mut copies = Vec::new();
    // Rows a derivative reads: it reads the quad's other lanes, active or not.
    let mut read_across = BTreeSet::new();
    // Constant buffers read through an index (`Layout::const_buffers`).
    let mut buffers = BTreeSet::new();
    for &pc in &pcs {
        let inst = &code[pc];
        // Texture instructions read the quad's other lanes too (implicit derivatives).
        let across = is_derivative(inst.op) || is_texture(inst.op);
        for s in inst.src.iter().take(inst.num_src as usize).chain(inst.offsets[0].iter()) {
            if s.store == Store::Const {
                buffers.insert(indexed_buffer(s, inst)?);
            }
            for c in 0..4 {
                for r in src_rows(s, c) {
                    read.insert(r);
                    if across {
                        read_across.insert(r);
                    }
                    reads.entry(r).or_default().push(pc);
                }
            }
        }
        // The address channel of an indirect SAMP or SVIEW (staged for the sampler).
        if is_texture(inst.op) {
            for s in inst.src.iter().take(inst.num_src as usize) {
                if let (Store::None, Some(a)) = (s.store, s.indirect) {
                    read.insert(a.0);
                    read_across.insert(a.0);
                    reads.entry(a.0).or_default().push(pc);
                }
            }
        }
        for d in inst.dst.iter().take(inst.num_dst as usize) {
            if let Some(a) = d.indirect {
                read.insert(a.0);
                reads.entry(a.0).or_default().push(pc);
            }
            for c in (0..4).filter(|c| d.mask >> c & 1 != 0) {
                for r in dst_rows(d, c) {
                    if within(r, pl.input) || within(r, pl.sv) || r >= pl.imm.0 {
                        return fail(
                            format!("{}: this destination is not compiled", inst.op.name()),
                            Some(inst),
                        );
                    }
                    written.insert(r);
                    match flush::writer(inst, d) {
                        flush::Writer::Clean => {}
                        flush::Writer::Copy => copies.push((pc, c, r)),
                        flush::Writer::Dirty => {
                            dirty.insert(r);
                        }
                    }
                }
            }
        }
    }
    // Every IN row first, in order: the module's IN slots are then the machine's IN rows at the
    // module's row stride, which the render fills in place (`Accelerator::input_rows`).
    let mut layout = Layout {
        rows_in: (pl.input.0..pl.input.0 + pl.input.1 * 4).collect(),
        in_slots: pl.input.1 * 4,
        in_read: (0..pl.input.1 * 4).filter(|k| read.contains(&(pl.input.0 + k))).collect(),
        ..Layout::default()
    };
    let mut rows = HashMap::new();
    let mut next = FIRST_V128;
    for &r in read.union(&written) {
        if let Some(bits) = immediate_bits(program, r) {
            rows.insert(r, Row::Imm(bits));
        } else if within(r, pl.consts) {
            rows.insert(r, Row::Const(layout.consts.len() as u32));
            layout.consts.push(r);
        } else if r >= pl.imm.0 {
            // Past every file: nothing is stored there.
            rows.insert(r, Row::Imm(0));
        } else {
            if within(r, pl.sv) {
                layout.rows_in.push(r);
            }
            rows.insert(r, Row::Local(next));
            next += 1;
        }
    }
    // Every OUT row, in order: the module's OUT slots are then the machine's OUT rows at the
    // module's row stride, which the render reads in place (`Accelerator::kept_outputs`).
    layout.rows_out = (pl.out.0..pl.out.0 + pl.out.1 * 4).collect();
    layout.const_buffers = buffers.into_iter().collect();
    layout.kill = pcs.iter().any(|&pc| matches!(code[pc].op, O::KILL | O::KILL_IF));
    if colour.is_some() && layout.kill {
        return fail("a program that kills lanes leaves its colours to the render", None);
    }
    // A batch given back to the interpreter must have stored nothing (the interpreter's batch
    // that runs out of budget writes nothing): the runtime gives a batch back before running it
    // when its work could pass the limit, which needs a bound (`Compiled::quad_work_bound`).
    if colour.is_some() && pcs.iter().any(|&pc| matches!(code[pc].op, O::BGNLOOP | O::CAL)) {
        return fail("a program with a loop or a call leaves its colours to the render", None);
    }
    layout.colour = colour;
    // The imports the program calls (`jit::imports`), function indices 0.. in table order.
    let used: BTreeSet<Which> =
        pcs.iter().flat_map(|&pc| imports::used_by_inst(&code[pc]).iter().copied()).collect();
    let lane_imports: Vec<Which> = used.into_iter().collect();
    layout.sampling = pcs.iter().any(|&pc| is_texture(code[pc].op));
    // Batched sampling (`Layout::sample_rows`): a program without flow, sampling, one quad per
    // pass, with few rows to keep between passes.
    let straight = !has_flow(&code[..end]);
    let spills: Vec<u32> = {
        let mut v: Vec<u32> = rows
            .iter()
            .filter(|(r, k)| matches!(k, Row::Local(_)) && !layout.rows_in.contains(r))
            .map(|(&r, _)| r)
            .collect();
        v.sort_unstable();
        v
    };
    if layout.sampling && straight && pairing != Pairing::Pairs && spills.len() <= MAX_SPILLS {
        layout.sample_rows = true;
        layout.spills = spills;
    }
    // A quad's own sampling call may give the batch back halfway (the texture code reported an
    // error), after earlier quads stored; batched sampling calls before the pass that stores.
    if colour.is_some() && layout.sampling && !layout.sample_rows {
        return fail("a program that samples quad by quad leaves its colours to the render", None);
    }
    // Memory grows with the rows: the interpreter keeps very large programs.
    if layout.memory_bytes() > 1 << 30 {
        return fail("more storage rows than the compiled form holds (1 GiB)", None);
    }
    let deepest = shape.deepest;
    let if_saves = next;
    let loop_saves = if_saves + deepest.ifs;
    let switch_saves = loop_saves + 2 * deepest.loops;
    let call_saves = switch_saves + 4 * deepest.switches;
    let scratch = call_saves + deepest.calls;
    let pairs = match pairing {
        Pairing::Single => false,
        Pairing::Pairs => true,
        Pairing::Auto => {
            pcs.len() <= PAIRED_MAX_INSTRUCTIONS
                && pcs.iter().any(|&pc| code[pc].op == O::BGNLOOP)
                && lane_imports.is_empty()
                && !layout.sampling
        }
    };
    // The module calls the engine: it also looks at the stop flag (`Gen::check_limit`).
    let calls_host = !lane_imports.is_empty() || layout.sampling;
    // A row whose writers cannot leave a denormal in it holds none at any point of the program:
    // no denormal to read as zero (`Gen::src`).
    let flushed_rows = flush::clean_rows(program, &written, dirty, &copies);
    let flushed_reads = flush::flushed_reads(program, &pcs);
    let mut g = Gen {
        program,
        pairs,
        flushed_rows,
        flushed_reads,
        table: Vec::new(),
        layout: &layout,
        rows,
        code: Vec::new(),
        pending: 0,
        depth: 0,
        bodies: Vec::new(),
        regions: Vec::new(),
        reads,
        read_across,
        if_level: 0,
        loop_level: 0,
        exec_loop: false,
        cont_loops: 0,
        switch_level: 0,
        call_level: 0,
        floors: (0, 0),
        main_ret: shape.main_ret,
        if_saves,
        loop_saves,
        switch_saves,
        call_saves,
        selects: 0,
        scratch,
        next_scratch: scratch,
        max_local: scratch,
        lane_imports: lane_imports.clone(),
        polls: calls_host,
        samplers: Vec::new(),
    };
    g.run(end)?;
    let table = std::mem::take(&mut g.table);
    let v128s = g.max_local - EXEC;
    let extra: Vec<ValType> = if pairs {
        pairs::finish_locals(&mut g.code, g.max_local);
        pairs::extra_locals(g.max_local).collect()
    } else {
        Vec::new()
    };
    let mut f = Function::new_with_locals_types(
        [ValType::I32, ValType::I32, ValType::I32, ValType::I64, ValType::I64]
            .into_iter()
            .chain(std::iter::repeat_n(ValType::V128, v128s as usize))
            .chain(extra),
    );
    for i in &g.code {
        f.instruction(i);
    }
    let samplers = std::mem::take(&mut g.samplers);
    drop(g);
    layout.constants = table.len() as u32;
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32, ValType::I64], [ValType::I64]);
    // Types 1 to 3: a lane import of that many v128 quads.
    for n in 0..3 {
        types.ty().function(std::iter::repeat_n(ValType::V128, n + 1), [ValType::V128]);
    }
    // Type 4: the sampling import; type 5: the batched one; type 6: the stop flag.
    types.ty().function([ValType::I32, ValType::I32], [ValType::I32]);
    types.ty().function([ValType::I32, ValType::I32, ValType::I32], [ValType::I32]);
    types.ty().function([], [ValType::I32]);
    m.section(&types);
    let mut ims = ImportSection::new();
    for w in &lane_imports {
        let im = w.import();
        ims.import(imports::MODULE, im.name, EntityType::Function(im.lane.arity() as u32));
    }
    if layout.sample_rows {
        ims.import(imports::MODULE, imports::SAMPLE_ROWS.0, EntityType::Function(5));
    } else if layout.sampling {
        ims.import(imports::MODULE, imports::SAMPLE.0, EntityType::Function(4));
    }
    if calls_host {
        ims.import(imports::MODULE, imports::POLL.0, EntityType::Function(6));
        m.section(&ims);
    }
    let run_index = poll_index(&lane_imports, &layout) + calls_host as u32;
    let mut funcs = FunctionSection::new();
    funcs.function(0);
    m.section(&funcs);
    let mut mems = MemorySection::new();
    mems.memory(MemoryType {
        minimum: layout.memory_bytes().div_ceil(65536).max(1),
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    m.section(&mems);
    let mut ex = ExportSection::new();
    ex.export("run", ExportKind::Func, run_index);
    ex.export("mem", ExportKind::Memory, 0);
    m.section(&ex);
    let mut cs = CodeSection::new();
    cs.function(&f);
    m.section(&cs);
    if !table.is_empty() {
        let mut data = DataSection::new();
        let bytes: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
        data.active(0, &ConstExpr::i32_const(layout.constant_table() as i32), bytes);
        m.section(&data);
    }
    let quad_work_bound = code[..end].iter().map(|i| i.weight).sum::<u64>() + 1;
    Ok(Compiled {
        bytes: m.finish(),
        layout,
        instructions: end,
        samplers,
        calls_host,
        quad_work_bound,
    })
}

/// The function index of the stop-flag import ([`imports::POLL`]): after the lane imports and
/// the sampling one.
fn poll_index(lane_imports: &[Which], layout: &Layout) -> u32 {
    lane_imports.len() as u32 + layout.sampling as u32
}

fn mem(offset: u64) -> MemArg {
    MemArg { offset, align: 4, memory_index: 0 }
}

/// A 4-byte access (`i32.load`, `i64.load32_u`: alignment 2^2).
fn mem_word(offset: u64) -> MemArg {
    MemArg { offset, align: 2, memory_index: 0 }
}

/// The buffer of a constant operand read through an index (`Store::Const`: `CONST[b][ADDR..]`,
/// or a direct index past the cached range), or why it is not compiled: a buffer chosen
/// through an address register, or one outside `limits::MAX_CONST_BUFFERS`.
fn indexed_buffer(s: &Src, inst: &Inst) -> Result<u32, Unsupported> {
    if s.dim_indirect.is_some() {
        return fail(
            format!(
                "{}: a constant buffer chosen through an address register (CONST[ADDR..][..]) is not compiled",
                inst.op.name()
            ),
            Some(inst),
        );
    }
    match u32::try_from(s.dim) {
        Ok(b) if (b as usize) < crate::limits::MAX_CONST_BUFFERS => Ok(b),
        _ => fail(
            format!("{}: constant buffer {} is not compiled", inst.op.name(), s.dim),
            Some(inst),
        ),
    }
}

/// `v`'s bytes in each of four lanes.
fn splat_bytes(v: u32) -> [u8; 16] {
    let b = v.to_le_bytes();
    std::array::from_fn(|i| b[i % 4])
}

fn splat_u32(v: u32) -> I<'static> {
    I::V128Const(i128::from_le_bytes(splat_bytes(v)))
}

/// What a source or result is, for the modifiers (tgsi_exec.c `fetch_source`).
fn src_type(s: &Src) -> VT {
    s.ty.unwrap_or(VT::Float)
}

/// A source modifier applied to immediate bits (as `src` applies it to a register).
fn modify(bits: u32, s: &Src) -> Option<u32> {
    if !(s.negate || s.absolute) {
        return Some(bits);
    }
    match src_type(s) {
        VT::Float | VT::Untyped => {
            let b = if s.absolute { bits & 0x7fff_ffff } else { bits };
            Some(if s.negate { b ^ 0x8000_0000 } else { b })
        }
        VT::Int | VT::Uint => {
            let v = bits as i32;
            let v = if s.absolute { v.wrapping_abs() } else { v };
            Some(if s.negate { v.wrapping_neg() } else { v } as u32)
        }
        _ => None,
    }
}

struct Gen<'p> {
    program: &'p Program,
    /// Storage rows that never hold a denormal (`flush::clean_rows`).
    flushed_rows: BTreeSet<u32>,
    /// Reads whose row a flushing instruction wrote last in the same straight run
    /// (`flush::flushed_reads`: instruction, source, channel).
    flushed_reads: BTreeSet<(u32, usize, usize)>,
    /// Two quads per pass (`pairs.rs`).
    pairs: bool,
    /// The constant table's values, in order (`Layout::constants`).
    table: Vec<u128>,
    layout: &'p Layout,
    rows: HashMap<u32, Row>,
    code: Vec<I<'static>>,
    /// Work charged on the current straight path and not yet added to `WORK`.
    pending: u64,
    /// Open wasm blocks (`block`, `loop`, `if`).
    depth: u32,
    /// `depth` inside each open body block (a `br` to it leaves the body).
    bodies: Vec<u32>,
    /// The open bodies' instruction ranges, and whether the body runs at most once per quad
    /// (see `plain_write`).
    regions: Vec<(usize, usize, bool)>,
    /// Storage row → the instructions that read it.
    reads: HashMap<u32, Vec<usize>>,
    /// Rows a derivative reads (every lane of the quad reads them: always blended).
    read_across: BTreeSet<u32>,
    if_level: u32,
    loop_level: u32,
    /// The loop being compiled is one whose loop mask is exec itself (`flow::exec_is_loop_mask`):
    /// its conditional breaks take lanes out of exec, and the loop mask stays all ones.
    exec_loop: bool,
    /// Open loops with a CONT of their own (outside them the cont mask is all ones).
    cont_loops: u32,
    /// Open switches, and calls being inlined.
    switch_level: u32,
    call_level: u32,
    /// `loop_level` and `switch_level` where the current subroutine body starts: its BRKs must
    /// leave a loop or switch of its own.
    floors: (u32, u32),
    /// The main program has a RET outside every subroutine: its function mask may lose lanes.
    main_ret: bool,
    /// First saved-cond local (one per IF level), saved loop/cont pair (per loop level), saved
    /// switch state (per switch level: the outer switch mask, the selector, the lanes that
    /// entered, the lanes no CASE matches) and saved function mask (per call level).
    if_saves: u32,
    loop_saves: u32,
    switch_saves: u32,
    call_saves: u32,
    /// Register selects emitted for indirect operands (`limits::MAX_JIT_INDIRECT_SELECTS`).
    selects: u64,
    /// Scratch locals: the first, the next free one (reset at each instruction), the end.
    scratch: u32,
    next_scratch: u32,
    max_local: u32,
    /// The lane imports this module has, in function-index order (the sampling import, if
    /// any, follows them).
    lane_imports: Vec<Which>,
    /// The module calls the engine (`Compiled::calls_host`), so it also looks at the stop flag
    /// ([`imports::POLL`]; see [`Gen::check_limit`]).
    polls: bool,
    /// The texture instructions compiled so far, rewritten for `jit::host::sample`.
    samplers: Vec<Inst>,
}

impl Gen<'_> {
    fn e(&mut self, i: I<'static>) {
        self.code.push(i);
    }
    /// Pushes `v` in every lane: a constant in the code, or in pairs a load from the constant
    /// table (the processor then reads it as a memory operand instead of keeping a register).
    fn k(&mut self, v: u32) {
        if !self.pairs {
            self.e(splat_u32(v));
            return;
        }
        self.load_constant(u128::from_le_bytes(splat_bytes(v)));
    }
    /// Pushes the 16 bytes `v` from the constant table (added there if new).
    fn load_constant(&mut self, v: u128) {
        let at = match self.table.iter().position(|&x| x == v) {
            Some(i) => i,
            None => {
                self.table.push(v);
                self.table.len() - 1
            }
        };
        self.e(I::I32Const(0));
        self.e(I::V128Load(mem(self.layout.constant_table() + at as u64 * 16)));
    }
    /// Adds the pending charge to `WORK` (before any branch, and before `WORK` is read).
    fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending);
        self.settle(n, I::I64Add);
    }
    /// `WORK ±= n` (`op`: `i64.add` or `i64.sub`) under the current exec: in pairs once per
    /// quad with an active lane, as [`Gen::flush`] charges.
    fn settle(&mut self, n: u64, op: I<'static>) {
        if n == 0 {
            return;
        }
        self.e(I::LocalGet(WORK));
        self.e(I::I64Const(n as i64));
        if self.pairs {
            self.e(I::LocalGet(pairs::ACTIVE));
            self.e(I::I64Mul);
        }
        self.e(op);
        self.e(I::LocalSet(WORK));
    }
    fn charge(&mut self, n: u64) {
        self.pending += n;
    }
    /// Opens a `block`, `loop` or `if` (flushing the charge first).
    fn open(&mut self, i: I<'static>) {
        self.flush();
        self.e(i);
        self.depth += 1;
    }
    fn close(&mut self) {
        self.flush();
        self.e(I::End);
        self.depth -= 1;
    }
    /// Leaves the innermost body.
    fn leave_body(&mut self) {
        self.flush();
        let target = self.bodies.last().copied().unwrap_or(self.depth);
        self.e(I::Br(self.depth - target));
    }
    /// Returns −1 (the interpreter reruns the batch) when the i32 on the stack is 0: an
    /// import's "not done".
    fn give_back_unless_done(&mut self) {
        self.e(I::I32Eqz);
        self.give_back_if();
    }
    /// Returns −1 (the interpreter reruns the batch) when the i32 on the stack is not 0.
    fn give_back_if(&mut self) {
        self.e(I::If(BlockType::Empty));
        self.e(I::I64Const(-1));
        self.e(I::Return);
        self.e(I::End);
    }
    /// At a loop's back-edge and a quad's end: returns −1 (the interpreter reruns the batch)
    /// once the work passed the limit. A module that calls the engine also looks at the stop
    /// flag: once the work has passed `NEXT` it returns −1 when it passed the limit or the
    /// frame was stopped (the [`imports::POLL`] call), else sets `NEXT` another
    /// `STOP_CHECK_INTERVAL` on, at most to the limit; the usual path is the one comparison a
    /// limit check costs anyway. (The others do not: a call in a loop, even one never taken,
    /// made 26_mandelbrot 0.74x natively, its registers saved around it; their work costs so
    /// little that `ACCELERATED_WORK_CAP` bounds their time.)
    fn check_limit(&mut self) {
        self.flush();
        self.e(I::LocalGet(WORK));
        if !self.polls {
            self.e(I::LocalGet(LIMIT));
            self.e(I::I64GtS);
            self.give_back_if();
            return;
        }
        self.e(I::LocalGet(NEXT));
        self.e(I::I64GtS);
        self.e(I::If(BlockType::Empty));
        self.e(I::LocalGet(WORK));
        self.e(I::LocalGet(LIMIT));
        self.e(I::I64GtS);
        self.e(I::Call(poll_index(&self.lane_imports, self.layout)));
        self.e(I::I32Or);
        self.give_back_if();
        self.set_next();
        self.e(I::End);
    }
    /// In a module that polls, `NEXT` = the work another `STOP_CHECK_INTERVAL` on, at most the
    /// limit: `LIMIT − WORK < interval ? LIMIT : WORK + interval` (no overflow: WORK ≤ LIMIT).
    /// At the start of a run (`WORK` = 0) the first interval.
    fn set_next(&mut self) {
        if !self.polls {
            return;
        }
        self.e(I::LocalGet(LIMIT));
        self.e(I::LocalGet(WORK));
        self.e(I::I64Const(STOP_CHECK_INTERVAL as i64));
        self.e(I::I64Add);
        self.e(I::LocalGet(LIMIT));
        self.e(I::LocalGet(WORK));
        self.e(I::I64Sub);
        self.e(I::I64Const(STOP_CHECK_INTERVAL as i64));
        self.e(I::I64LtS);
        self.e(I::Select);
        self.e(I::LocalSet(NEXT));
    }
    fn local(&mut self) -> u32 {
        let l = self.next_scratch;
        self.next_scratch += 1;
        self.max_local = self.max_local.max(self.next_scratch);
        l
    }
    /// Whether exec may differ from all ones here.
    fn in_flow(&self) -> bool {
        self.if_level + self.loop_level + self.switch_level + self.call_level > 0 || self.main_ret
    }

    /// Instructions `[from, to)` of one body (exec is not all zero on entry).
    fn range(&mut self, from: usize, to: usize) -> Result<(), Unsupported> {
        let mut pc = from;
        while pc < to {
            let Some(inst) = self.program.code.get(pc) else { break };
            if is_alu(inst.op) {
                let inst = inst.clone();
                self.charge(inst.weight);
                self.both(|g| g.alu(&inst))?;
                pc += 1;
            } else {
                pc = self.flow(pc, to)?;
            }
        }
        Ok(())
    }
}
