//! `exec::Program` → one WebAssembly module (SIMD) that runs a whole batch of quads exactly as
//! the interpreter's machine does (`docs/jit.md`).
//!
//! Flow is batch-wide like the machine's (`exec/flow.rs`, `mesa-tgsi-notes.md` §5.2–5.3): an IF
//! whose condition no active lane of the batch takes jumps to its ELSE/ENDIF, a loop goes on
//! while any lane of the batch is live, and every decoded instruction dispatched adds one to the
//! clock at the same points as the machine's. Between two flow instructions the straight-line
//! ALU instructions run as one loop over the quads, registers of the current quad in `v128`
//! locals (loaded on first use, stored once at the end, blended with the exec mask).
//!
//! Linear memory is row-major like the machine's storage, with a fixed row stride of
//! [`MAX_QUADS`] quads: row `r` of quad `q` is at `r * ROW_BYTES + q * 16`, so every access is
//! one load or store at a constant offset from the quad's base `q * 16`, and a pass over the
//! quads (a mask update, a block) reads each row as a contiguous stream. The program's storage
//! rows come first, then the mask rows (exec, cond, loop, cont, kill) and the mask stacks (one
//! slot per nesting level, known statically).
//!
//! Export: `run(nq: i32, limit: i64) -> i64` returns the clock (instructions dispatched), or
//! −1 when the clock would pass `limit`: the caller then reruns the batch in the interpreter,
//! which stops at the same instruction with the same diagnostic.

use crate::exec::program::{Dst, Inst, Program, Src, Store};
use crate::opcode::{Opcode as O, ValType as VT};
use std::collections::HashMap;
use wasm_encoder::{
    BlockType, CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction as I,
    MemArg, MemorySection, MemoryType, Module, TypeSection, ValType,
};

/// Why a program is not compiled (it then runs in the interpreter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub reason: String,
    /// IR index of the instruction, if one is to blame.
    pub instruction: Option<u32>,
}

/// Where things live in one quad's slice of linear memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Storage rows of the program (`exec::program::Layout::rows`).
    pub rows: u32,
    /// First mask row: exec, then cond, loop, cont, kill.
    pub masks: u32,
    /// Rows per quad in all.
    pub quad_rows: u32,
}

/// Largest batch a module runs (the render's batches are at most 512 quads); the machine runs
/// bigger ones in the interpreter.
pub const MAX_QUADS: u32 = 1024;
/// Bytes between two rows.
pub const ROW_BYTES: u32 = MAX_QUADS * 16;

impl Layout {
    /// Linear memory the module uses (and declares as its minimum).
    pub fn memory_bytes(&self) -> u64 {
        self.quad_rows as u64 * ROW_BYTES as u64
    }
    pub fn exec(&self) -> u32 {
        self.masks
    }
    pub fn cond(&self) -> u32 {
        self.masks + 1
    }
    pub fn loop_row(&self) -> u32 {
        self.masks + 2
    }
    pub fn cont(&self) -> u32 {
        self.masks + 3
    }
    pub fn kill(&self) -> u32 {
        self.masks + 4
    }
}

/// A generated module and the layout its caller fills.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub bytes: Vec<u8>,
    pub layout: Layout,
    /// Decoded instructions compiled (up to the main END).
    pub instructions: usize,
}

/// Mask rows before the stacks: exec, cond, loop, cont, kill.
const MASK_ROWS: u32 = 5;

// Locals of `run`.
const NQ: u32 = 0;
const LIMIT: u32 = 1;
const CLOCK: u32 = 2;
const QB: u32 = 3;
const QEND: u32 = 4;
const ANY: u32 = 5;
const I32_TMP: u32 = 6;
/// The span of quads (byte offsets `q * 16`, end exclusive) that may have an active lane; quads
/// outside it have an all-zero exec mask, and passes skip them.
const LO: u32 = 7;
const HI: u32 = 8;
/// The bounds of the current pass, and the span the pass finds.
const PLO: u32 = 9;
const PHI: u32 = 10;
const NLO: u32 = 11;
const NHI: u32 = 12;
/// First v128 local: EXEC, ACC, then scratch and row caches.
const EXEC: u32 = 13;
const ACC: u32 = 14;
const FIRST_FREE: u32 = 15;

fn fail<T>(reason: impl Into<String>, inst: Option<&Inst>) -> Result<T, Unsupported> {
    Err(Unsupported { reason: reason.into(), instruction: inst.map(|i| i.ir_index) })
}

/// Compiles `program`, or says why not.
pub fn compile(program: &Program) -> Result<Compiled, Unsupported> {
    let end = main_end(program)?;
    let (ifs, loops) = nesting(program, end)?;
    let rows = program.layout.rows;
    let masks = rows;
    let quad_rows = masks
        .checked_add(MASK_ROWS + ifs + 2 * loops + 1)
        .ok_or(Unsupported { reason: "too many rows".into(), instruction: None })?;
    let layout = Layout { rows, masks, quad_rows };
    // Memory grows with the rows: the interpreter keeps very large programs.
    if layout.memory_bytes() > 1 << 30 {
        return fail("more storage rows than the compiled form holds (1 GiB)", None);
    }
    let mut g = Gen {
        program,
        layout,
        code: Vec::new(),
        v128_locals: 0,
        next_v128: FIRST_FREE,
        if_level: 0,
        loop_level: 0,
        if_slots: ifs,
        taken: Vec::new(),
        free: Vec::new(),
    };
    // clock = 0 (zeroed local); qend = nq * 16; any = 1 (every mask starts all ones).
    g.e(I::LocalGet(NQ));
    g.e(I::I32Const(16));
    g.e(I::I32Mul);
    g.e(I::LocalSet(QEND));
    g.e(I::I32Const(1));
    g.e(I::LocalSet(ANY));
    g.e(I::LocalGet(QEND));
    g.e(I::LocalSet(HI));
    g.range(0, end)?;
    // END is dispatched too (the machine counts it before stopping).
    if program.code.get(end).is_some() {
        g.tick(1);
    }
    g.code.push(I::LocalGet(CLOCK));
    g.code.push(I::End);
    let v128s = g.v128_locals.max(g.next_v128 - EXEC);
    let mut f = Function::new_with_locals_types(
        [ValType::I64]
            .into_iter()
            .chain(std::iter::repeat_n(ValType::I32, 10))
            .chain(std::iter::repeat_n(ValType::V128, v128s as usize)),
    );
    for i in &g.code {
        f.instruction(i);
    }
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32, ValType::I64], [ValType::I64]);
    m.section(&types);
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
    ex.export("run", ExportKind::Func, 0);
    ex.export("mem", ExportKind::Memory, 0);
    m.section(&ex);
    let mut code = CodeSection::new();
    code.function(&f);
    m.section(&code);
    Ok(Compiled { bytes: m.finish(), layout, instructions: end })
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

fn mem(offset: u32) -> MemArg {
    MemArg { offset: offset as u64, align: 4, memory_index: 0 }
}

fn splat_u32(v: u32) -> I<'static> {
    I::V128Const(i128::from_le_bytes([v.to_le_bytes(); 4].concat().try_into().unwrap_or([0; 16])))
}

/// What a source or result is, for the modifiers (`mesa-tgsi-notes.md` §5.5).
fn src_type(s: &Src) -> VT {
    s.ty.unwrap_or(VT::Float)
}

struct Gen<'p> {
    program: &'p Program,
    layout: Layout,
    code: Vec<I<'static>>,
    /// v128 locals needed (beyond EXEC) at the high-water mark.
    v128_locals: u32,
    next_v128: u32,
    if_level: u32,
    loop_level: u32,
    /// IF stack slots (the loop slots follow them).
    if_slots: u32,
    /// Locals handed out since the last `release`, and locals free for reuse in this block.
    taken: Vec<u32>,
    free: Vec<u32>,
}

/// One straight-line block's row cache: storage row → v128 local, and the rows written.
#[derive(Default)]
struct Cache {
    rows: HashMap<u32, u32>,
    dirty: Vec<u32>,
}

impl Gen<'_> {
    fn e(&mut self, i: I<'static>) {
        self.code.push(i);
    }
    fn local(&mut self) -> u32 {
        if let Some(l) = self.free.pop() {
            self.taken.push(l);
            return l;
        }
        let l = self.next_v128;
        self.taken.push(l);
        self.next_v128 += 1;
        self.v128_locals = self.v128_locals.max(self.next_v128 - EXEC);
        l
    }
    fn in_flow(&self) -> bool {
        self.if_level + self.loop_level > 0
    }

    /// Instructions `[from, to)`: straight-line runs and structured flow.
    fn range(&mut self, from: usize, to: usize) -> Result<(), Unsupported> {
        let code = &self.program.code;
        let mut pc = from;
        let mut run_start = pc;
        while pc < to {
            let Some(inst) = code.get(pc) else { break };
            if is_alu(inst.op) {
                pc += 1;
                continue;
            }
            self.block(run_start, pc)?;
            pc = self.flow(pc, to)?;
            run_start = pc;
        }
        self.block(run_start, pc.min(to))
    }

    /// Adds `n` to the clock and leaves with −1 when it passes the limit (the machine counts
    /// an instruction before running it and stops when its clock exceeds the limit).
    fn tick(&mut self, n: u64) {
        if n == 0 {
            return;
        }
        self.e(I::LocalGet(CLOCK));
        self.e(I::I64Const(n as i64));
        self.e(I::I64Add);
        self.e(I::LocalTee(CLOCK));
        self.e(I::LocalGet(LIMIT));
        self.e(I::I64GtS);
        self.e(I::If(BlockType::Empty));
        self.e(I::I64Const(-1));
        self.e(I::Return);
        self.e(I::End);
    }

    /// `for qb in (PLO..PHI).step_by(16) { body }` (set the bounds with `pass_current` or
    /// `pass_saved`); unsigned, so an empty span (−1, 0) runs nothing.
    fn quad_loop(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        self.e(I::LocalGet(PLO));
        self.e(I::LocalTee(QB));
        self.e(I::LocalGet(PHI));
        self.e(I::I32LtU);
        self.e(I::If(BlockType::Empty));
        self.e(I::Loop(BlockType::Empty));
        body(self)?;
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(16));
        self.e(I::I32Add);
        self.e(I::LocalTee(QB));
        self.e(I::LocalGet(PHI));
        self.e(I::I32LtU);
        self.e(I::BrIf(0));
        self.e(I::End);
        self.e(I::End);
        Ok(())
    }

    /// The next pass runs over the current span.
    fn pass_current(&mut self) {
        self.e(I::LocalGet(LO));
        self.e(I::LocalSet(PLO));
        self.e(I::LocalGet(HI));
        self.e(I::LocalSet(PHI));
    }

    /// Address of saved span `slot` (one per IF level, then one per loop level).
    fn span_addr(&self, slot: u32) -> u64 {
        let row = self.layout.quad_rows - 1;
        row as u64 * ROW_BYTES as u64 + slot as u64 * 8
    }

    /// Saves the current span in `slot` (at a push: the matching restores run over it).
    fn save_span(&mut self, slot: u32) {
        let a = self.span_addr(slot);
        for (k, l) in [(0, LO), (4, HI)] {
            self.e(I::I32Const(0));
            self.e(I::LocalGet(l));
            self.e(I::I32Store(MemArg { offset: a + k, align: 2, memory_index: 0 }));
        }
    }

    /// The next pass runs over the span saved in `slot`: a restore may make lanes active again
    /// anywhere in the span of its push, and nowhere else.
    fn pass_saved(&mut self, slot: u32) {
        let a = self.span_addr(slot);
        for (k, l) in [(0, PLO), (4, PHI)] {
            self.e(I::I32Const(0));
            self.e(I::I32Load(MemArg { offset: a + k, align: 2, memory_index: 0 }));
            self.e(I::LocalSet(l));
        }
    }

    /// Inside a pass, after EXEC holds the quad's new exec mask: widens the span found.
    fn track_span(&mut self) {
        self.e(I::LocalGet(EXEC));
        self.e(I::V128AnyTrue);
        self.e(I::If(BlockType::Empty));
        self.e(I::LocalGet(QB));
        self.e(I::I32Const(16));
        self.e(I::I32Add);
        self.e(I::LocalSet(NHI));
        self.e(I::LocalGet(NLO));
        self.e(I::I32Const(-1));
        self.e(I::I32Eq);
        self.e(I::If(BlockType::Empty));
        self.e(I::LocalGet(QB));
        self.e(I::LocalSet(NLO));
        self.e(I::End);
        self.e(I::End);
    }

    fn span_start(&mut self) {
        self.e(I::I32Const(-1));
        self.e(I::LocalSet(NLO));
        self.e(I::I32Const(0));
        self.e(I::LocalSet(NHI));
    }

    /// After a pass: the span found becomes current; any = it is not empty.
    fn span_end(&mut self) {
        self.e(I::LocalGet(NLO));
        self.e(I::LocalSet(LO));
        self.e(I::LocalGet(NHI));
        self.e(I::LocalSet(HI));
        self.e(I::LocalGet(NLO));
        self.e(I::I32Const(-1));
        self.e(I::I32Ne);
        self.e(I::LocalSet(ANY));
    }

    fn load_row(&mut self, row: u32) {
        self.e(I::LocalGet(QB));
        self.e(I::V128Load(mem(row * ROW_BYTES)));
    }
    /// Stores the v128 on top of the stack (after `QB` was pushed below it) — use `store_local`.
    fn store_local(&mut self, row: u32, local: u32) {
        self.e(I::LocalGet(QB));
        self.e(I::LocalGet(local));
        self.e(I::V128Store(mem(row * ROW_BYTES)));
    }

    /// A straight-line run of ALU instructions `[a, b)`.
    fn block(&mut self, a: usize, b: usize) -> Result<(), Unsupported> {
        if a >= b {
            return Ok(());
        }
        let insts: Vec<Inst> = self.program.code[a..b].to_vec();
        for inst in &insts {
            check_alu(inst)?;
        }
        self.tick((b - a) as u64);
        let flow = self.in_flow();
        if flow {
            self.e(I::LocalGet(ANY));
            self.e(I::If(BlockType::Empty));
        }
        let mark = self.next_v128;
        self.pass_current();
        self.quad_loop(|g| {
            if flow {
                let exec = g.layout.exec();
                g.load_row(exec);
                g.e(I::LocalTee(EXEC));
                g.e(I::V128AnyTrue);
                g.e(I::If(BlockType::Empty));
            }
            let mut cache = Cache::default();
            g.taken.clear();
            for inst in &insts {
                g.alu(inst, &mut cache, flow)?;
                // Temporaries go back to the pool; row caches live to the block's end.
                let keep: Vec<u32> = cache.rows.values().copied().collect();
                let taken = std::mem::take(&mut g.taken);
                g.free.extend(taken.into_iter().filter(|l| !keep.contains(l)));
            }
            let mut dirty = std::mem::take(&mut cache.dirty);
            dirty.sort_unstable();
            dirty.dedup();
            for row in dirty {
                if let Some(&l) = cache.rows.get(&row) {
                    g.store_local(row, l);
                }
            }
            if flow {
                g.e(I::End);
            }
            Ok(())
        })?;
        self.next_v128 = mark;
        self.free.clear();
        self.taken.clear();
        if flow {
            self.e(I::End);
        }
        Ok(())
    }

    /// Pushes storage row `row` of the current quad (cached in a local).
    fn row(&mut self, row: u32, cache: &mut Cache) {
        let l = self.row_local(row, cache);
        self.e(I::LocalGet(l));
    }

    /// The local caching row `row` of the current quad (loaded on first use).
    fn row_local(&mut self, row: u32, cache: &mut Cache) -> u32 {
        match cache.rows.get(&row) {
            Some(&l) => l,
            None => {
                let l = self.local();
                self.load_row(row);
                self.e(I::LocalSet(l));
                cache.rows.insert(row, l);
                l
            }
        }
    }

    /// Sets mask row `row` (in the cache) to memory row `from` (a stack slot).
    fn restore(&mut self, row: u32, from: u32, cache: &mut Cache) -> Vec<u32> {
        let l = self.local();
        self.load_row(from);
        self.e(I::LocalSet(l));
        cache.rows.insert(row, l);
        vec![row]
    }

    /// Pushes channel `c` of source `i` with its modifiers.
    fn src(
        &mut self,
        inst: &Inst,
        i: usize,
        c: usize,
        cache: &mut Cache,
    ) -> Result<(), Unsupported> {
        let s = inst.src[i];
        let Some(row) = s.direct_row(c) else {
            return fail(
                format!(
                    "{}: indirect, constant-buffer or out-of-range operands are not compiled",
                    inst.op.name()
                ),
                Some(inst),
            );
        };
        self.row(row, cache);
        if s.negate || s.absolute {
            match src_type(&s) {
                VT::Float | VT::Untyped => {
                    if s.absolute {
                        self.e(splat_u32(0x7fff_ffff));
                        self.e(I::V128And);
                    }
                    if s.negate {
                        self.e(splat_u32(0x8000_0000));
                        self.e(I::V128Xor);
                    }
                }
                VT::Int | VT::Uint => {
                    if s.absolute {
                        self.e(I::I32x4Abs);
                    }
                    if s.negate {
                        self.e(I::I32x4Neg);
                    }
                }
                _ => return fail("64-bit operand modifiers are not compiled", Some(inst)),
            }
        }
        Ok(())
    }

    /// Pushes a source into a fresh local and returns it.
    fn src_local(
        &mut self,
        inst: &Inst,
        i: usize,
        c: usize,
        cache: &mut Cache,
    ) -> Result<u32, Unsupported> {
        self.src(inst, i, c, cache)?;
        let l = self.local();
        self.e(I::LocalSet(l));
        Ok(l)
    }

    /// One ALU instruction for the current quad: every enabled result channel is computed
    /// into a local before any is written (a destination may be a source).
    fn alu(&mut self, inst: &Inst, cache: &mut Cache, flow: bool) -> Result<(), Unsupported> {
        let d = inst.dst[0];
        let replicated = is_replicated(inst.op);
        let mut results = [None; 4];
        if replicated {
            self.compute(inst, 0, cache)?;
            let l = self.local();
            self.e(I::LocalSet(l));
            results = [Some(l); 4];
        } else {
            for c in 0..4 {
                if d.mask >> c & 1 != 0 {
                    self.compute(inst, c, cache)?;
                    let l = self.local();
                    self.e(I::LocalSet(l));
                    results[c] = Some(l);
                }
            }
        }
        let sat = inst.saturate && matches!(inst.op.info().dst_type, VT::Float | VT::Untyped);
        for c in 0..4 {
            let Some(val) = results[c] else { continue };
            if d.mask >> c & 1 == 0 {
                continue;
            }
            let Some(row) = dst_row(&d, c) else { continue };
            self.e(I::LocalGet(val));
            if sat {
                self.saturate();
            }
            if flow {
                self.row(row, cache);
                self.e(I::LocalGet(EXEC));
                self.e(I::V128Bitselect);
            }
            let l = match cache.rows.get(&row) {
                Some(&l) => l,
                None => {
                    let l = self.local();
                    cache.rows.insert(row, l);
                    l
                }
            };
            self.e(I::LocalSet(l));
            cache.dirty.push(row);
        }
        Ok(())
    }

    /// `x > 0 ? (x < 1 ? x : 1) : 0` on the value on the stack (`machine::saturate`: NaN → 0,
    /// −0 → +0).
    fn saturate(&mut self) {
        let x = self.local();
        self.e(I::LocalSet(x));
        // (x < 1 ? x : 1) & (x > 0)
        self.e(I::LocalGet(x));
        self.e(splat_u32(1f32.to_bits()));
        self.e(I::LocalGet(x));
        self.e(splat_u32(1f32.to_bits()));
        self.e(I::F32x4Lt);
        self.e(I::V128Bitselect);
        self.e(I::LocalGet(x));
        self.e(splat_u32(0));
        self.e(I::F32x4Gt);
        self.e(I::V128And);
    }

    /// Pushes result channel `c` of `inst` (channel 0 for replicated ops).
    fn compute(&mut self, inst: &Inst, c: usize, cache: &mut Cache) -> Result<(), Unsupported> {
        let one = splat_u32(1f32.to_bits());
        let zero = splat_u32(0);
        macro_rules! bin {
            ($op:expr) => {{
                self.src(inst, 0, c, cache)?;
                self.src(inst, 1, c, cache)?;
                self.e($op);
            }};
        }
        macro_rules! un {
            ($op:expr) => {{
                self.src(inst, 0, c, cache)?;
                self.e($op);
            }};
        }
        match inst.op {
            O::MOV | O::UARL => self.src(inst, 0, c, cache)?,
            O::ADD => bin!(I::F32x4Add),
            O::SUB => bin!(I::F32x4Sub),
            O::MUL => bin!(I::F32x4Mul),
            O::DIV => bin!(I::F32x4Div),
            O::MAD => {
                bin!(I::F32x4Mul);
                self.src(inst, 2, c, cache)?;
                self.e(I::F32x4Add);
            }
            O::LRP => {
                // a * (b - c) + c
                let cc = self.src_local(inst, 2, c, cache)?;
                self.src(inst, 0, c, cache)?;
                self.src(inst, 1, c, cache)?;
                self.e(I::LocalGet(cc));
                self.e(I::F32x4Sub);
                self.e(I::F32x4Mul);
                self.e(I::LocalGet(cc));
                self.e(I::F32x4Add);
            }
            O::MIN | O::MAX => {
                // lane::min/max: select(a < b | b != b, a, b) (glibc's fminf/fmaxf).
                let a = self.src_local(inst, 0, c, cache)?;
                let b = self.src_local(inst, 1, c, cache)?;
                self.e(I::LocalGet(a));
                self.e(I::LocalGet(b));
                self.e(I::LocalGet(a));
                self.e(I::LocalGet(b));
                self.e(if inst.op == O::MIN { I::F32x4Lt } else { I::F32x4Gt });
                self.e(I::LocalGet(b));
                self.e(I::LocalGet(b));
                self.e(I::F32x4Ne);
                self.e(I::V128Or);
                self.e(I::V128Bitselect);
            }
            O::SLT | O::SGE | O::SEQ | O::SNE | O::SGT | O::SLE => {
                bin!(float_cmp(inst.op));
                self.e(one);
                self.e(I::V128And);
            }
            O::FSLT | O::FSGE | O::FSEQ | O::FSNE => bin!(float_cmp(inst.op)),
            O::FLR => un!(I::F32x4Floor),
            O::CEIL => un!(I::F32x4Ceil),
            O::TRUNC => un!(I::F32x4Trunc),
            O::ROUND => un!(I::F32x4Nearest),
            O::FRC => {
                let a = self.src_local(inst, 0, c, cache)?;
                self.e(I::LocalGet(a));
                self.e(I::LocalGet(a));
                self.e(I::F32x4Floor);
                self.e(I::F32x4Sub);
            }
            O::ABS => {
                self.src(inst, 0, c, cache)?;
                self.e(splat_u32(0x7fff_ffff));
                self.e(I::V128And);
            }
            O::SSG => {
                // x > 0 → 1.0, x < 0 → −1.0, else (0, NaN) 0.
                let a = self.src_local(inst, 0, c, cache)?;
                self.e(I::LocalGet(a));
                self.e(zero.clone());
                self.e(I::F32x4Gt);
                self.e(one);
                self.e(I::V128And);
                self.e(I::LocalGet(a));
                self.e(zero);
                self.e(I::F32x4Lt);
                self.e(splat_u32((-1f32).to_bits()));
                self.e(I::V128And);
                self.e(I::V128Or);
            }
            O::CMP => {
                // src0 < 0 ? src1 : src2
                self.src(inst, 1, c, cache)?;
                self.src(inst, 2, c, cache)?;
                self.src(inst, 0, c, cache)?;
                self.e(zero);
                self.e(I::F32x4Lt);
                self.e(I::V128Bitselect);
            }
            O::UCMP => {
                self.src(inst, 1, c, cache)?;
                self.src(inst, 2, c, cache)?;
                self.src(inst, 0, c, cache)?;
                self.e(zero);
                self.e(I::I32x4Ne);
                self.e(I::V128Bitselect);
            }
            O::RCP => {
                self.e(one);
                self.src(inst, 0, 0, cache)?;
                self.e(I::F32x4Div);
            }
            O::SQRT => un!(I::F32x4Sqrt),
            O::RSQ => {
                self.e(one);
                self.src(inst, 0, 0, cache)?;
                self.e(I::F32x4Sqrt);
                self.e(I::F32x4Div);
            }
            O::DP2 | O::DP3 | O::DP4 | O::DPH | O::DP2A => {
                // tgsi_exec's MUL then MADs (product and sum each rounded, product first).
                let n = match inst.op {
                    O::DP2 | O::DP2A => 2,
                    O::DP3 | O::DPH => 3,
                    _ => 4,
                };
                self.src(inst, 0, 0, cache)?;
                self.src(inst, 1, 0, cache)?;
                self.e(I::F32x4Mul);
                for k in 1..n {
                    let acc = self.local();
                    self.e(I::LocalSet(acc));
                    self.src(inst, 0, k, cache)?;
                    self.src(inst, 1, k, cache)?;
                    self.e(I::F32x4Mul);
                    self.e(I::LocalGet(acc));
                    self.e(I::F32x4Add);
                }
                match inst.op {
                    O::DPH => {
                        self.src(inst, 1, 3, cache)?;
                        self.e(I::F32x4Add);
                    }
                    O::DP2A => {
                        self.src(inst, 2, 0, cache)?;
                        self.e(I::F32x4Add);
                    }
                    _ => {}
                }
            }
            O::UADD => bin!(I::I32x4Add),
            O::UMUL => bin!(I::I32x4Mul),
            O::UMAD => {
                bin!(I::I32x4Mul);
                self.src(inst, 2, c, cache)?;
                self.e(I::I32x4Add);
            }
            O::INEG => un!(I::I32x4Neg),
            O::IABS => un!(I::I32x4Abs),
            O::ISSG => {
                let a = self.src_local(inst, 0, c, cache)?;
                self.e(I::LocalGet(a));
                self.e(zero.clone());
                self.e(I::I32x4GtS);
                self.e(splat_u32(1));
                self.e(I::V128And);
                self.e(I::LocalGet(a));
                self.e(zero);
                self.e(I::I32x4LtS);
                self.e(I::V128Or);
            }
            O::IMIN => bin!(I::I32x4MinS),
            O::IMAX => bin!(I::I32x4MaxS),
            O::UMIN => bin!(I::I32x4MinU),
            O::UMAX => bin!(I::I32x4MaxU),
            O::ISGE => bin!(I::I32x4GeS),
            O::ISLT => bin!(I::I32x4LtS),
            O::USEQ => bin!(I::I32x4Eq),
            O::USNE => bin!(I::I32x4Ne),
            O::USGE => bin!(I::I32x4GeU),
            O::USLT => bin!(I::I32x4LtU),
            O::AND => bin!(I::V128And),
            O::OR => bin!(I::V128Or),
            O::XOR => bin!(I::V128Xor),
            O::NOT => un!(I::V128Not),
            O::I2F => un!(I::F32x4ConvertI32x4S),
            O::U2F => un!(I::F32x4ConvertI32x4U),
            // Saturating truncation, NaN → 0: Rust's `as` (int.rs f2i/f2u).
            O::F2I => un!(I::I32x4TruncSatF32x4S),
            O::F2U => un!(I::I32x4TruncSatF32x4U),
            O::ARL => {
                self.src(inst, 0, c, cache)?;
                self.e(I::F32x4Floor);
                self.e(I::I32x4TruncSatF32x4S);
            }
            O::ARR => {
                self.src(inst, 0, c, cache)?;
                self.e(splat_u32(0.5f32.to_bits()));
                self.e(I::F32x4Add);
                self.e(I::F32x4Floor);
                self.e(I::I32x4TruncSatF32x4S);
            }
            O::SHL | O::ISHR | O::SHR | O::USHR => {
                // Per-lane counts (wasm SIMD shifts take one count): lane by lane, the scalar
                // shifts take the count modulo 32 as int.rs does.
                let a = self.src_local(inst, 0, c, cache)?;
                let b = self.src_local(inst, 1, c, cache)?;
                let op = match inst.op {
                    O::SHL => I::I32Shl,
                    O::USHR => I::I32ShrU,
                    _ => I::I32ShrS,
                };
                self.e(I::LocalGet(a));
                for lane in 0..4u8 {
                    self.e(I::LocalGet(a));
                    self.e(I::I32x4ExtractLane(lane));
                    self.e(I::LocalGet(b));
                    self.e(I::I32x4ExtractLane(lane));
                    self.e(op.clone());
                    self.e(I::LocalSet(I32_TMP));
                    self.e(I::LocalGet(I32_TMP));
                    self.e(I::I32x4ReplaceLane(lane));
                }
            }
            _ => return fail(format!("{} is not compiled", inst.op.name()), Some(inst)),
        }
        Ok(())
    }

    /// A flow instruction at `pc`; returns where the caller goes on.
    fn flow(&mut self, pc: usize, to: usize) -> Result<usize, Unsupported> {
        let inst = self.program.code[pc].clone();
        let l = self.layout;
        match inst.op {
            O::NOP => {
                self.tick(1);
                Ok(pc + 1)
            }
            O::IF | O::UIF if inst.cond_break && self.loop_level > 0 => {
                self.cond_break(&inst, pc, to)
            }
            O::IF | O::UIF => {
                let (else_pc, endif_pc) = self.if_targets(&inst, pc, to)?;
                let slot = l.masks + MASK_ROWS + self.if_level;
                let span = self.if_level;
                self.tick(1);
                let float = inst.op == O::IF;
                self.save_span(span);
                self.pass_current();
                self.mask_update(|g, cache| {
                    // push cond; cond &= (src.x != 0)
                    let cond = g.row_local(l.cond(), cache);
                    g.store_local(slot, cond);
                    g.src(&inst, 0, 0, cache)?;
                    g.e(splat_u32(0));
                    g.e(if float { I::F32x4Ne } else { I::I32x4Ne });
                    g.e(I::LocalGet(cond));
                    g.e(I::V128And);
                    g.e(I::LocalSet(cond));
                    Ok(vec![l.cond()])
                })?;
                self.if_level += 1;
                self.skip_unless_any(|g| g.range(pc + 1, else_pc.unwrap_or(endif_pc)))?;
                if let Some(e) = else_pc {
                    self.tick(1);
                    self.pass_saved(span);
                    self.mask_update(|g, cache| {
                        // cond = ~cond & parent
                        let cond = g.row_local(l.cond(), cache);
                        g.e(I::LocalGet(cond));
                        g.e(I::V128Not);
                        g.load_row(slot);
                        g.e(I::V128And);
                        g.e(I::LocalSet(cond));
                        Ok(vec![l.cond()])
                    })?;
                    self.skip_unless_any(|g| g.range(e + 1, endif_pc))?;
                }
                self.if_level -= 1;
                self.tick(1);
                self.pass_saved(span);
                self.mask_update(|g, cache| Ok(g.restore(l.cond(), slot, cache)))?;
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
                let slot = l.masks + MASK_ROWS + self.if_slots + 2 * self.loop_level;
                let span = self.if_slots + self.loop_level;
                self.tick(1);
                // Skipped when no lane is active (the machine jumps past ENDLOOP).
                self.e(I::Block(BlockType::Empty));
                self.e(I::LocalGet(ANY));
                self.e(I::I32Eqz);
                self.e(I::BrIf(0));
                let t = self.local();
                self.save_span(span);
                self.pass_current();
                self.quad_loop(|g| {
                    g.load_row(l.loop_row());
                    g.e(I::LocalSet(t));
                    g.store_local(slot, t);
                    g.load_row(l.cont());
                    g.e(I::LocalSet(t));
                    g.store_local(slot + 1, t);
                    Ok(())
                })?;
                self.next_v128 = t;
                self.taken.clear();
                self.loop_level += 1;
                self.e(I::Loop(BlockType::Empty));
                self.range(pc + 1, end)?;
                // ENDLOOP: restore Cont (it lasts one iteration), loop while any lane is live.
                self.tick(1);
                self.pass_saved(span);
                self.mask_update(|g, cache| Ok(g.restore(l.cont(), slot + 1, cache)))?;
                self.e(I::LocalGet(ANY));
                self.e(I::BrIf(0));
                self.e(I::End);
                self.loop_level -= 1;
                self.pass_saved(span);
                self.mask_update(|g, cache| Ok(g.restore(l.loop_row(), slot, cache)))?;
                self.e(I::End);
                Ok(end + 1)
            }
            O::BRK | O::CONT => {
                if self.loop_level == 0 || inst.aux != 0 {
                    return fail(
                        format!("{} outside a loop is not compiled", inst.op.name()),
                        Some(&inst),
                    );
                }
                self.tick(1);
                let row = if inst.op == O::BRK { l.loop_row() } else { l.cont() };
                self.pass_current();
                self.mask_update(|g, cache| {
                    // mask &= ~exec
                    let m = g.row_local(row, cache);
                    g.e(I::LocalGet(m));
                    g.load_row(l.exec());
                    g.e(I::V128Not);
                    g.e(I::V128And);
                    g.e(I::LocalSet(m));
                    Ok(vec![row])
                })?;
                Ok(pc + 1)
            }
            O::KILL | O::KILL_IF => {
                self.tick(1);
                let mark = self.next_v128;
                self.pass_current();
                self.quad_loop(|g| {
                    let mut cache = Cache::default();
                    g.load_row(l.exec());
                    g.e(I::LocalSet(EXEC));
                    if inst.op == O::KILL {
                        g.load_row(l.kill());
                        g.e(I::LocalGet(EXEC));
                        g.e(I::V128Or);
                    } else {
                        // Lanes where any swizzled channel is negative (flow.rs KILL_IF).
                        g.load_row(l.kill());
                        for c in 0..4 {
                            g.src(&inst, 0, c, &mut cache)?;
                            g.e(splat_u32(0));
                            g.e(I::F32x4Lt);
                            g.e(I::LocalGet(EXEC));
                            g.e(I::V128And);
                            g.e(I::V128Or);
                        }
                    }
                    let k = g.local();
                    g.e(I::LocalSet(k));
                    g.store_local(l.kill(), k);
                    Ok(())
                })?;
                self.next_v128 = mark;
                self.free.clear();
                self.taken.clear();
                Ok(pc + 1)
            }
            _ => fail(format!("{} is not compiled", inst.op.name()), Some(&inst)),
        }
    }

    /// `IF c; BRK; ENDIF` inside a loop (`Inst::cond_break`) as one pass: loop &= ~(exec & c).
    /// The clock advances as the three instructions would: 3 when some lane breaks, else 2
    /// (the IF jumps to its ENDIF). Near the limit the module hands the batch back (the
    /// interpreter then decides exactly where the budget runs out).
    fn cond_break(&mut self, inst: &Inst, pc: usize, to: usize) -> Result<usize, Unsupported> {
        let (else_pc, endif_pc) = self.if_targets(inst, pc, to)?;
        if else_pc.is_some() || endif_pc != pc + 2 {
            return fail("IF marked as a conditional break has another shape", Some(inst));
        }
        let l = self.layout;
        let float = inst.op == O::IF;
        // Bail out unless all three instructions fit.
        self.e(I::LocalGet(CLOCK));
        self.e(I::I64Const(3));
        self.e(I::I64Add);
        self.e(I::LocalGet(LIMIT));
        self.e(I::I64GtS);
        self.e(I::If(BlockType::Empty));
        self.e(I::I64Const(-1));
        self.e(I::Return);
        self.e(I::End);
        let mark = self.next_v128;
        let taken = self.local();
        let t = self.local();
        self.e(splat_u32(0));
        self.e(I::LocalSet(ACC));
        self.e(splat_u32(0));
        self.e(I::LocalSet(taken));
        self.pass_current();
        self.span_start();
        self.quad_loop(|g| {
            let mut cache = Cache::default();
            // t = exec & (src.x != 0)
            g.src(inst, 0, 0, &mut cache)?;
            g.e(splat_u32(0));
            g.e(if float { I::F32x4Ne } else { I::I32x4Ne });
            g.load_row(l.exec());
            g.e(I::V128And);
            g.e(I::LocalTee(t));
            g.e(I::LocalGet(taken));
            g.e(I::V128Or);
            g.e(I::LocalSet(taken));
            // loop &= ~t; exec = cond & loop & cont
            g.load_row(l.loop_row());
            g.e(I::LocalGet(t));
            g.e(I::V128Not);
            g.e(I::V128And);
            g.e(I::LocalSet(t));
            g.store_local(l.loop_row(), t);
            g.load_row(l.cond());
            g.e(I::LocalGet(t));
            g.e(I::V128And);
            g.load_row(l.cont());
            g.e(I::V128And);
            g.e(I::LocalSet(EXEC));
            g.store_local(l.exec(), EXEC);
            g.track_span();
            Ok(())
        })?;
        self.span_end();
        self.e(I::LocalGet(CLOCK));
        self.e(I::I64Const(2));
        self.e(I::I64Add);
        self.e(I::LocalGet(taken));
        self.e(I::V128AnyTrue);
        self.e(I::I64ExtendI32U);
        self.e(I::I64Add);
        self.e(I::LocalSet(CLOCK));
        self.next_v128 = mark;
        self.free.clear();
        self.taken.clear();
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

    /// `block; br_if !any; body; end` — the machine jumps over a body no lane enters.
    fn skip_unless_any(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        self.e(I::Block(BlockType::Empty));
        self.e(I::LocalGet(ANY));
        self.e(I::I32Eqz);
        self.e(I::BrIf(0));
        body(self)?;
        self.e(I::End);
        Ok(())
    }

    /// One pass over the quads that changes mask rows (the closure returns the rows it
    /// changed, left in the cache), then exec = cond & loop & cont and `any` (UPDATE_EXEC_MASK).
    fn mask_update(
        &mut self,
        change: impl FnOnce(&mut Self, &mut Cache) -> Result<Vec<u32>, Unsupported>,
    ) -> Result<(), Unsupported> {
        let l = self.layout;
        self.span_start();
        let mark = self.next_v128;
        self.quad_loop(|g| {
            let mut cache = Cache::default();
            let changed = change(g, &mut cache)?;
            for r in changed {
                let loc = cache.rows[&r];
                g.store_local(r, loc);
            }
            g.row(l.cond(), &mut cache);
            g.row(l.loop_row(), &mut cache);
            g.e(I::V128And);
            g.row(l.cont(), &mut cache);
            g.e(I::V128And);
            g.e(I::LocalSet(EXEC));
            g.store_local(l.exec(), EXEC);
            g.track_span();
            Ok(())
        })?;
        self.next_v128 = mark;
        self.free.clear();
        self.taken.clear();
        self.span_end();
        Ok(())
    }
}

fn float_cmp(op: O) -> I<'static> {
    match op {
        O::SLT | O::FSLT => I::F32x4Lt,
        O::SGE | O::FSGE => I::F32x4Ge,
        O::SEQ | O::FSEQ => I::F32x4Eq,
        O::SNE | O::FSNE => I::F32x4Ne,
        O::SGT => I::F32x4Gt,
        _ => I::F32x4Le,
    }
}

/// Storage row of a direct destination channel (`Machine::dst_row`).
fn dst_row(d: &Dst, c: usize) -> Option<u32> {
    match (d.store, d.indirect) {
        (Store::Rows { base, count }, None) if d.index >= 0 && (d.index as u64) < count as u64 => {
            Some(base + d.index as u32 * 4 + c as u32)
        }
        _ => None,
    }
}

/// Opcodes computed once from x (or a dot product) and written to every enabled channel.
fn is_replicated(op: O) -> bool {
    matches!(op, O::RCP | O::RSQ | O::SQRT | O::DP2 | O::DP3 | O::DP4 | O::DPH | O::DP2A)
}

/// Not a flow instruction (flow ones are compiled by `Gen::flow`).
fn is_alu(op: O) -> bool {
    crate::exec::ops::family(op) != crate::exec::ops::Family::Flow
}

/// The destinations an ALU instruction may have here: one direct register.
fn check_alu(inst: &Inst) -> Result<(), Unsupported> {
    if inst.num_dst > 1 {
        return fail(format!("{} has two destinations", inst.op.name()), Some(inst));
    }
    if inst.num_dst == 1 {
        let d = inst.dst[0];
        if d.indirect.is_some() {
            return fail(
                format!("{}: indirect destinations are not compiled", inst.op.name()),
                Some(inst),
            );
        }
        if !matches!(d.store, Store::Rows { .. } | Store::None) {
            return fail(
                format!("{}: this destination is not compiled", inst.op.name()),
                Some(inst),
            );
        }
    }
    Ok(())
}
