//! `exec::Program` → one WebAssembly module (SIMD) that runs a batch of quads, each quad with
//! its own control flow, bit for bit as the interpreter's machine computes them (`docs/jit.md`).
//!
//! `run(nq, limit)` is one loop over the quads. For each quad the whole program runs with the
//! quad's registers in `v128` locals (one local per storage row: TEMP, OUT and ADDR rows start at
//! zero, IN and system-value rows are loaded from memory at the quad's start; immediates are
//! constants in the code, cached constants are loaded from memory at each use). The masks of
//! `exec/flow.rs` (`mesa-tgsi-notes.md` §5.2–5.3) are `v128` locals too: cond, loop, cont, kill,
//! exec = cond & loop & cont (UPDATE_EXEC_MASK), and one saved mask per IF nesting level and two
//! (loop, cont) per loop nesting level. IF/ELSE/ENDIF and BGNLOOP/ENDLOOP become wasm `if`,
//! `block` and `loop`; a body runs only when `v128.any_true(exec)`, and a body left with an
//! all-zero exec mask (after BRK or CONT, or an ENDIF that restores none) is left by a `br` to
//! its end. So inside a body exec is never all zero. Writes inside flow are blended with exec
//! (`v128.bitselect`); at the top level exec is all ones and writes are plain.
//!
//! The budget counts quad-instructions (`exec/work.rs`): an instruction is charged
//! once per quad whose exec mask is non-zero when it starts (ELSE, ENDIF and ENDLOOP: when they
//! end). Inside a body that is every instruction reached, so a straight run adds its length.
//! The total is an `i64` local over all quads; at every loop back-edge, after each quad and at
//! the end it is compared with `limit`, and the module returns −1 when it passed it (the caller
//! then reruns the batch in the interpreter, which stops at the same instruction).
//!
//! Memory holds what the caller stages: the IN and SV rows the program reads and the OUT rows
//! it writes, each at `slot * ROW_BYTES + q * 16`, the kill row, then the cached constants (16
//! bytes each, the same for every quad), and for a program that samples, the sampling scratch.
//!
//! Imports (`jit::imports`, `jit::host`): the libm lane formulas (SIN, POW, …) call the
//! interpreter's own functions lane by lane, texture instructions the interpreter's texture code
//! for the quad; the imports take function indices 0.., so `run` follows them.

mod alu;

use alu::{check_alu, dst_row, is_alu, is_derivative, is_texture};

use super::imports::{self, Which};
use crate::exec::program::{Dst, Inst, Program, Src, Store};
use crate::opcode::{Opcode as O, ValType as VT};
use std::collections::{BTreeSet, HashMap};
use wasm_encoder::{
    BlockType, CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection,
    ImportSection, Instruction as I, MemArg, MemorySection, MemoryType, Module, TypeSection,
    ValType,
};

/// Why a program is not compiled (it then runs in the interpreter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub reason: String,
    /// IR index of the instruction, if one is to blame.
    pub instruction: Option<u32>,
}

/// What the caller copies into the module's memory and back (`jit::stage_in`, `stage_out`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Storage rows copied in for every quad (the IN and SV rows the program reads), in slot
    /// order from slot 0.
    pub rows_in: Vec<u32>,
    /// Storage rows copied out (the OUT rows the program may write), in slot order after
    /// `rows_in`.
    pub rows_out: Vec<u32>,
    /// Cached-constant rows the program reads, 16 bytes each from [`Layout::const_base`]
    /// (uniform: the caller copies quad 0's lanes).
    pub consts: Vec<u32>,
    /// The program may kill lanes: the kill row (slot [`Layout::kill_slot`]) is copied out.
    /// Every run starts with no lane killed, so it is never copied in.
    pub kill: bool,
    /// The program samples textures: the sampling scratch (`jit::host::scratch`) follows the
    /// constants, at [`Layout::sample_base`].
    pub sampling: bool,
}

/// Largest batch a module runs (the render's batches are at most 512 quads); the machine runs
/// bigger ones in the interpreter.
pub const MAX_QUADS: u32 = 1024;
/// Bytes between two row slots.
pub const ROW_BYTES: u32 = MAX_QUADS * 16;

impl Layout {
    pub fn kill_slot(&self) -> u32 {
        (self.rows_in.len() + self.rows_out.len()) as u32
    }
    /// Byte offset of the first cached constant.
    pub fn const_base(&self) -> u64 {
        (self.kill_slot() as u64 + 1) * ROW_BYTES as u64
    }
    /// Byte offset of the sampling scratch.
    pub fn sample_base(&self) -> u64 {
        self.const_base() + self.consts.len() as u64 * 16
    }
    /// Linear memory the module uses (and declares as its minimum).
    pub fn memory_bytes(&self) -> u64 {
        self.sample_base() + if self.sampling { super::host::scratch::BYTES as u64 } else { 0 }
    }
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
}

// Locals of `run`: the parameters, three i32, one i64, then v128 ones.
const NQ: u32 = 0;
const LIMIT: u32 = 1;
const QB: u32 = 2;
const QEND: u32 = 3;
const I32_TMP: u32 = 4;
const WORK: u32 = 5;
const EXEC: u32 = 6;
const COND: u32 = 7;
const LOOPM: u32 = 8;
const CONT: u32 = 9;
const KILL: u32 = 10;
/// Row locals, then saved masks, then scratch.
const FIRST_V128: u32 = 11;

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

/// Compiles `program`, or says why not.
pub fn compile(program: &Program) -> Result<Compiled, Unsupported> {
    let end = main_end(program)?;
    let (ifs, loops) = nesting(program, end)?;
    let code = &program.code[..end];
    for inst in code {
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
    // Rows a derivative reads: it reads the quad's other lanes, active or not.
    let mut read_across = BTreeSet::new();
    for (pc, inst) in code.iter().enumerate() {
        // Texture instructions read the quad's other lanes too (implicit derivatives).
        let across = is_derivative(inst.op) || is_texture(inst.op);
        for s in inst.src.iter().take(inst.num_src as usize).chain(inst.offsets[0].iter()) {
            for c in 0..4 {
                if let Some(r) = s.direct_row(c) {
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
            for c in (0..4).filter(|c| d.mask >> c & 1 != 0) {
                if let Some(r) = dst_row(d, c) {
                    if within(r, pl.input) || within(r, pl.sv) || r >= pl.imm.0 {
                        return fail(
                            format!("{}: this destination is not compiled", inst.op.name()),
                            Some(inst),
                        );
                    }
                    written.insert(r);
                }
            }
        }
    }
    let mut layout = Layout::default();
    let mut rows = HashMap::new();
    let mut next = FIRST_V128;
    for &r in read.union(&written) {
        if within(r, pl.imm) {
            let k = (r - pl.imm.0) as usize;
            let bits = program.immediates.get(k / 4).map_or(0, |v| v[k % 4]);
            rows.insert(r, Row::Imm(bits));
        } else if within(r, pl.consts) {
            rows.insert(r, Row::Const(layout.consts.len() as u32));
            layout.consts.push(r);
        } else if r >= pl.imm.0 {
            // Past every file: nothing is stored there.
            rows.insert(r, Row::Imm(0));
        } else {
            if within(r, pl.input) || within(r, pl.sv) {
                layout.rows_in.push(r);
            }
            if within(r, pl.out) {
                layout.rows_out.push(r);
            }
            rows.insert(r, Row::Local(next));
            next += 1;
        }
    }
    layout.kill = code.iter().any(|i| matches!(i.op, O::KILL | O::KILL_IF));
    // The imports the program calls (`jit::imports`), function indices 0.. in table order.
    let used: BTreeSet<Which> =
        code.iter().flat_map(|i| imports::used_by(i.op).iter().copied()).collect();
    let lane_imports: Vec<Which> = used.into_iter().collect();
    layout.sampling = code.iter().any(|i| is_texture(i.op));
    // Memory grows with the rows: the interpreter keeps very large programs.
    if layout.memory_bytes() > 1 << 30 {
        return fail("more storage rows than the compiled form holds (1 GiB)", None);
    }
    let if_saves = next;
    let loop_saves = if_saves + ifs;
    let scratch = loop_saves + 2 * loops;
    let mut g = Gen {
        program,
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
        cont_loops: 0,
        if_saves,
        loop_saves,
        scratch,
        next_scratch: scratch,
        max_local: scratch,
        lane_imports: lane_imports.clone(),
        samplers: Vec::new(),
    };
    g.run(end)?;
    let v128s = g.max_local - EXEC;
    let mut f = Function::new_with_locals_types(
        [ValType::I32, ValType::I32, ValType::I32, ValType::I64]
            .into_iter()
            .chain(std::iter::repeat_n(ValType::V128, v128s as usize)),
    );
    for i in &g.code {
        f.instruction(i);
    }
    let samplers = std::mem::take(&mut g.samplers);
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32, ValType::I64], [ValType::I64]);
    // Types 1 to 3: a lane import of that many f32 parameters.
    for n in 0..3 {
        types.ty().function(std::iter::repeat_n(ValType::F32, n + 1), [ValType::F32]);
    }
    // Type 4: the sampling import.
    types.ty().function([ValType::I32, ValType::I32], [ValType::I32]);
    m.section(&types);
    if !lane_imports.is_empty() || layout.sampling {
        let mut ims = ImportSection::new();
        for w in &lane_imports {
            let im = w.import();
            ims.import(imports::MODULE, im.name, EntityType::Function(im.lane.arity() as u32));
        }
        if layout.sampling {
            ims.import(imports::MODULE, imports::SAMPLE.0, EntityType::Function(4));
        }
        m.section(&ims);
    }
    let run_index = lane_imports.len() as u32 + layout.sampling as u32;
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
    Ok(Compiled { bytes: m.finish(), layout, instructions: end, samplers })
}

/// Index one past the last instruction of the main program: its top-level END (subroutine
/// bodies after it are never entered without CAL, which is not compiled).
fn main_end(p: &Program) -> Result<usize, Unsupported> {
    let mut depth = 0i32;
    for (pc, inst) in p.code.iter().enumerate() {
        match inst.op {
            O::IF | O::UIF | O::BGNLOOP => depth += 1,
            O::ENDIF | O::ENDLOOP => depth -= 1,
            O::END if depth == 0 => return Ok(pc),
            O::END => return fail("END inside IF or a loop is not compiled", Some(inst)),
            _ => {}
        }
    }
    Ok(p.code.len())
}

/// Deepest IF nesting and deepest loop nesting up to `end`.
fn nesting(p: &Program, end: usize) -> Result<(u32, u32), Unsupported> {
    let (mut i, mut l, mut mi, mut ml) = (0u32, 0u32, 0u32, 0u32);
    for inst in p.code.iter().take(end) {
        match inst.op {
            O::IF | O::UIF => {
                i += 1;
                mi = mi.max(i);
            }
            O::ENDIF => i = i.saturating_sub(1),
            O::BGNLOOP => {
                l += 1;
                ml = ml.max(l);
            }
            O::ENDLOOP => l = l.saturating_sub(1),
            _ => {}
        }
    }
    if mi > 64 || ml > 64 {
        return fail("nesting deeper than 64 is not compiled", None);
    }
    Ok((mi, ml))
}

/// Whether `code[from..to]` has a BRK or CONT of the loop around it (not of a loop inside).
fn leaves_loop(code: &[Inst], from: usize, to: usize, which: &[O]) -> bool {
    let mut depth = 0u32;
    for inst in code.get(from..to).unwrap_or(&[]) {
        match inst.op {
            O::BGNLOOP => depth += 1,
            O::ENDLOOP => depth = depth.saturating_sub(1),
            op if depth == 0 && which.contains(&op) => return true,
            _ => {}
        }
    }
    false
}

fn mem(offset: u64) -> MemArg {
    MemArg { offset, align: 4, memory_index: 0 }
}

fn splat_u32(v: u32) -> I<'static> {
    I::V128Const(i128::from_le_bytes([v.to_le_bytes(); 4].concat().try_into().unwrap_or([0; 16])))
}

/// What a source or result is, for the modifiers (`mesa-tgsi-notes.md` §5.5).
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
    /// Open loops with a CONT of their own (outside them the cont mask is all ones).
    cont_loops: u32,
    /// First saved-cond local (one per IF level) and saved loop/cont pair (per loop level).
    if_saves: u32,
    loop_saves: u32,
    /// Scratch locals: the first, the next free one (reset at each instruction), the end.
    scratch: u32,
    next_scratch: u32,
    max_local: u32,
    /// The lane imports this module has, in function-index order (the sampling import, if
    /// any, follows them).
    lane_imports: Vec<Which>,
    /// The texture instructions compiled so far, rewritten for `jit::host::sample`.
    samplers: Vec<Inst>,
}

impl Gen<'_> {
    fn e(&mut self, i: I<'static>) {
        self.code.push(i);
    }
    /// Adds the pending charge to `WORK` (before any branch, and before `WORK` is read).
    fn flush(&mut self) {
        if self.pending > 0 {
            self.e(I::LocalGet(WORK));
            self.e(I::I64Const(self.pending as i64));
            self.e(I::I64Add);
            self.e(I::LocalSet(WORK));
            self.pending = 0;
        }
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
    /// Returns −1 when the work passed the limit.
    fn check_limit(&mut self) {
        self.flush();
        self.e(I::LocalGet(WORK));
        self.e(I::LocalGet(LIMIT));
        self.e(I::I64GtS);
        self.e(I::If(BlockType::Empty));
        self.e(I::I64Const(-1));
        self.e(I::Return);
        self.e(I::End);
    }
    fn local(&mut self) -> u32 {
        let l = self.next_scratch;
        self.next_scratch += 1;
        self.max_local = self.max_local.max(self.next_scratch);
        l
    }
    fn in_flow(&self) -> bool {
        self.if_level + self.loop_level > 0
    }

    /// The whole function: the loop over the quads.
    fn run(&mut self, end: usize) -> Result<(), Unsupported> {
        let l = self.layout;
        let has_flow =
            self.program.code[..end].iter().any(|i| matches!(i.op, O::IF | O::UIF | O::BGNLOOP));
        self.e(I::LocalGet(NQ));
        self.e(I::I32Const(16));
        self.e(I::I32Mul);
        self.e(I::LocalSet(QEND));
        self.e(I::Block(BlockType::Empty));
        self.e(I::LocalGet(QEND));
        self.e(I::I32Eqz);
        self.e(I::BrIf(0));
        self.e(I::Loop(BlockType::Empty));
        // The quad's start: registers zero, IN/SV rows loaded, masks all ones, nothing killed.
        let rows: Vec<(u32, Row)> = {
            let mut v: Vec<(u32, Row)> = self.rows.iter().map(|(&r, &k)| (r, k)).collect();
            v.sort_by_key(|p| p.0);
            v
        };
        for &(r, k) in &rows {
            let Row::Local(loc) = k else { continue };
            match l.rows_in.iter().position(|&x| x == r) {
                Some(slot) => {
                    self.e(I::LocalGet(QB));
                    self.e(I::V128Load(mem(slot as u64 * ROW_BYTES as u64)));
                }
                None => self.e(splat_u32(0)),
            }
            self.e(I::LocalSet(loc));
        }
        if has_flow {
            for m in [COND, LOOPM, CONT, EXEC] {
                self.e(splat_u32(!0));
                self.e(I::LocalSet(m));
            }
        }
        if l.kill {
            self.e(splat_u32(0));
            self.e(I::LocalSet(KILL));
        }
        self.range(0, end)?;
        // END is dispatched too.
        if self.program.code.get(end).is_some() {
            self.charge(1);
        }
        // The quad's end: the OUT rows and the kill mask go back to memory.
        let base = l.rows_in.len() as u64;
        for (i, &r) in l.rows_out.iter().enumerate() {
            if let Some(&Row::Local(loc)) = self.rows.get(&r) {
                self.e(I::LocalGet(QB));
                self.e(I::LocalGet(loc));
                self.e(I::V128Store(mem((base + i as u64) * ROW_BYTES as u64)));
            }
        }
        if l.kill {
            self.e(I::LocalGet(QB));
            self.e(I::LocalGet(KILL));
            self.e(I::V128Store(mem(l.kill_slot() as u64 * ROW_BYTES as u64)));
        }
        self.check_limit();
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(16));
        self.e(I::I32Add);
        self.e(I::LocalTee(QB));
        self.e(I::LocalGet(QEND));
        self.e(I::I32LtU);
        self.e(I::BrIf(0));
        self.e(I::End);
        self.e(I::End);
        self.e(I::LocalGet(WORK));
        self.e(I::End);
        Ok(())
    }

    /// Instructions `[from, to)` of one body (exec is not all zero on entry).
    fn range(&mut self, from: usize, to: usize) -> Result<(), Unsupported> {
        let mut pc = from;
        while pc < to {
            let Some(inst) = self.program.code.get(pc) else { break };
            if is_alu(inst.op) {
                let inst = inst.clone();
                self.charge(1);
                self.alu(&inst)?;
                pc += 1;
            } else {
                pc = self.flow(pc, to)?;
            }
        }
        Ok(())
    }

    /// EXEC = cond & loop & cont (UPDATE_EXEC_MASK), leaving out the masks known to be all
    /// ones here: cond outside every IF, loop outside every loop, cont outside every loop with
    /// a CONT.
    fn update_exec(&mut self) {
        let masks: Vec<u32> =
            [(COND, self.if_level > 0), (LOOPM, self.loop_level > 0), (CONT, self.cont_loops > 0)]
                .into_iter()
                .filter(|m| m.1)
                .map(|m| m.0)
                .collect();
        match masks.split_first() {
            None => self.e(splat_u32(!0)),
            Some((&first, rest)) => {
                self.e(I::LocalGet(first));
                for &m in rest {
                    self.e(I::LocalGet(m));
                    self.e(I::V128And);
                }
            }
        }
        self.e(I::LocalSet(EXEC));
    }

    /// `if any_true(exec) { instructions [from, to) }` for an IF or ELSE body (the ELSE
    /// itself charged first), the body leaving to its end with `leave_body`.
    fn guarded_body(&mut self, from: usize, to: usize, is_else: bool) -> Result<(), Unsupported> {
        self.e(I::LocalGet(EXEC));
        self.e(I::V128AnyTrue);
        self.open(I::If(BlockType::Empty));
        if is_else {
            self.charge(1);
        }
        self.bodies.push(self.depth);
        self.regions.push((from, to, self.loop_level == 0));
        self.range(from, to)?;
        self.regions.pop();
        self.bodies.pop();
        self.close();
        Ok(())
    }

    /// Whether a write of `row` in the current body may skip the blend with exec: the lanes
    /// whose exec is zero here stay inactive in this body for the rest of the quad's run (the
    /// body runs at most once per quad: an IF or ELSE body outside every loop, or the body of
    /// an outermost loop without CONT, where a lane once inactive has broken out or never
    /// entered), and no instruction outside the body reads the row (nor is it an OUT row, nor
    /// read by a derivative, which reads the inactive lanes too), so what those lanes hold in
    /// it is never read.
    fn plain_write(&self, row: u32) -> bool {
        let Some(&(from, to, once)) = self.regions.last() else { return true };
        once && !self.layout.rows_out.contains(&row)
            && !self.read_across.contains(&row)
            && self.reads.get(&row).is_none_or(|pcs| pcs.iter().all(|&pc| pc >= from && pc < to))
    }

    /// After a closer that may have left exec all zero: leaves the enclosing body if so.
    fn leave_if_idle(&mut self) {
        self.e(I::LocalGet(EXEC));
        self.e(I::V128AnyTrue);
        self.e(I::I32Eqz);
        self.open(I::If(BlockType::Empty));
        self.leave_body();
        self.close();
    }

    /// Pushes the IF condition of `inst`: lanes where src.x is non-zero (IF: as a float, so −0
    /// is false and NaN true; UIF: as bits).
    fn condition(&mut self, inst: &Inst) -> Result<(), Unsupported> {
        self.src(inst, 0, 0)?;
        self.e(splat_u32(0));
        self.e(if inst.op == O::IF { I::F32x4Ne } else { I::I32x4Ne });
        Ok(())
    }

    /// A flow instruction at `pc` (exec is not all zero); returns where the caller goes on.
    fn flow(&mut self, pc: usize, to: usize) -> Result<usize, Unsupported> {
        let inst = self.program.code[pc].clone();
        self.next_scratch = self.scratch;
        match inst.op {
            O::NOP => {
                self.charge(1);
                Ok(pc + 1)
            }
            O::IF | O::UIF if inst.cond_break && self.loop_level > 0 => {
                self.cond_break(&inst, pc, to)
            }
            O::IF | O::UIF => {
                let (else_pc, endif_pc) = self.if_targets(&inst, pc, to)?;
                let save = self.if_saves + self.if_level;
                self.charge(1);
                self.e(I::LocalGet(COND));
                self.e(I::LocalSet(save));
                // push cond; cond &= (src.x != 0)
                self.condition(&inst)?;
                self.e(I::LocalGet(COND));
                self.e(I::V128And);
                self.e(I::LocalSet(COND));
                self.if_level += 1;
                self.update_exec();
                self.guarded_body(pc + 1, else_pc.unwrap_or(endif_pc), false)?;
                if let Some(e) = else_pc {
                    // ELSE: cond = ~cond & parent; charged when it leaves a lane active.
                    self.e(I::LocalGet(COND));
                    self.e(I::V128Not);
                    self.e(I::LocalGet(save));
                    self.e(I::V128And);
                    self.e(I::LocalSet(COND));
                    self.update_exec();
                    self.guarded_body(e + 1, endif_pc, true)?;
                }
                self.if_level -= 1;
                // ENDIF: pop cond; charged when it leaves a lane active (a BRK or CONT inside
                // may have removed them all: the rest of the body is then skipped).
                self.e(I::LocalGet(save));
                self.e(I::LocalSet(COND));
                self.update_exec();
                if self.loop_level > 0
                    && leaves_loop(&self.program.code, pc + 1, endif_pc, &[O::BRK, O::CONT])
                {
                    self.leave_if_idle();
                }
                self.charge(1);
                Ok(endif_pc + 1)
            }
            O::BGNLOOP => {
                let end = inst.target as usize;
                if end <= pc
                    || end >= to
                    || self.program.code.get(end).map(|i| i.op) != Some(O::ENDLOOP)
                {
                    return fail("BGNLOOP without its ENDLOOP", Some(&inst));
                }
                let save = self.loop_saves + 2 * self.loop_level;
                let conts = leaves_loop(&self.program.code, pc + 1, end, &[O::CONT]);
                self.charge(1);
                self.e(I::LocalGet(LOOPM));
                self.e(I::LocalSet(save));
                if conts {
                    self.e(I::LocalGet(CONT));
                    self.e(I::LocalSet(save + 1));
                }
                self.loop_level += 1;
                self.cont_loops += conts as u32;
                self.open(I::Loop(BlockType::Empty));
                self.open(I::Block(BlockType::Empty));
                self.bodies.push(self.depth);
                self.regions.push((pc + 1, end, self.loop_level == 1 && !conts));
                self.range(pc + 1, end)?;
                self.regions.pop();
                self.bodies.pop();
                self.close();
                // ENDLOOP: restore cont (it lasts one iteration); go on while a lane is live,
                // charged then, and at the exit (the enclosing exec, not all zero).
                if conts {
                    self.e(I::LocalGet(save + 1));
                    self.e(I::LocalSet(CONT));
                }
                self.update_exec();
                self.e(I::LocalGet(EXEC));
                self.e(I::V128AnyTrue);
                self.open(I::If(BlockType::Empty));
                self.charge(1);
                self.check_limit();
                self.e(I::Br(1));
                self.close();
                self.close();
                self.loop_level -= 1;
                self.cont_loops -= conts as u32;
                self.e(I::LocalGet(save));
                self.e(I::LocalSet(LOOPM));
                self.update_exec();
                self.charge(1);
                Ok(end + 1)
            }
            O::BRK | O::CONT => {
                if self.loop_level == 0 || inst.aux != 0 {
                    return fail(
                        format!("{} outside a loop is not compiled", inst.op.name()),
                        Some(&inst),
                    );
                }
                // mask &= ~exec: exec becomes all zero, the rest of the body is skipped.
                self.charge(1);
                let m = if inst.op == O::BRK { LOOPM } else { CONT };
                self.e(I::LocalGet(m));
                self.e(I::LocalGet(EXEC));
                self.e(I::V128Not);
                self.e(I::V128And);
                self.e(I::LocalSet(m));
                self.leave_body();
                Ok(pc + 1)
            }
            O::KILL | O::KILL_IF => {
                self.charge(1);
                let flow = self.in_flow();
                if inst.op == O::KILL {
                    if flow {
                        self.e(I::LocalGet(KILL));
                        self.e(I::LocalGet(EXEC));
                        self.e(I::V128Or);
                    } else {
                        self.e(splat_u32(!0));
                    }
                } else {
                    // Lanes where any swizzled channel is negative (flow.rs KILL_IF).
                    for c in 0..4 {
                        self.src(&inst, 0, c)?;
                        self.e(splat_u32(0));
                        self.e(I::F32x4Lt);
                        if c > 0 {
                            self.e(I::V128Or);
                        }
                    }
                    if flow {
                        self.e(I::LocalGet(EXEC));
                        self.e(I::V128And);
                    }
                    self.e(I::LocalGet(KILL));
                    self.e(I::V128Or);
                }
                self.e(I::LocalSet(KILL));
                Ok(pc + 1)
            }
            _ => fail(format!("{} is not compiled", inst.op.name()), Some(&inst)),
        }
    }

    /// `IF c; BRK; ENDIF` inside a loop (`Inst::cond_break`): loop &= ~(exec & c), charged as
    /// its three instructions: the IF, the BRK when a lane of the quad takes it, the ENDIF when
    /// it leaves a lane active.
    fn cond_break(&mut self, inst: &Inst, pc: usize, to: usize) -> Result<usize, Unsupported> {
        let (else_pc, endif_pc) = self.if_targets(inst, pc, to)?;
        if else_pc.is_some() || endif_pc != pc + 2 {
            return fail("IF marked as a conditional break has another shape", Some(inst));
        }
        self.charge(1);
        let t = self.local();
        self.condition(inst)?;
        self.e(I::LocalGet(EXEC));
        self.e(I::V128And);
        self.e(I::LocalTee(t));
        self.e(I::V128AnyTrue);
        // Most passes break no lane: then nothing changes.
        self.open(I::If(BlockType::Empty));
        self.charge(1);
        self.e(I::LocalGet(LOOPM));
        self.e(I::LocalGet(t));
        self.e(I::V128Not);
        self.e(I::V128And);
        self.e(I::LocalSet(LOOPM));
        self.update_exec();
        self.leave_if_idle();
        self.close();
        self.charge(1);
        Ok(endif_pc + 1)
    }

    fn if_targets(
        &self,
        inst: &Inst,
        pc: usize,
        to: usize,
    ) -> Result<(Option<usize>, usize), Unsupported> {
        let code = &self.program.code;
        let t = inst.target as usize;
        let bad = || fail("IF without its ENDIF", Some(inst));
        if t <= pc || t >= to {
            return bad();
        }
        match code.get(t).map(|i| i.op) {
            Some(O::ENDIF) => Ok((None, t)),
            Some(O::ELSE) => {
                let e = code[t].target as usize;
                if e <= t || e >= to || code.get(e).map(|i| i.op) != Some(O::ENDIF) {
                    return bad();
                }
                Ok((Some(t), e))
            }
            _ => bad(),
        }
    }
}
