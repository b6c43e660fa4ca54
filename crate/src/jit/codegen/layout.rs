//! The module's linear memory: what the caller copies in and out, and where each part lives
//! (docs/jit.md "Memory and staging").

/// What the caller copies into the module's memory and back (`jit::stage_in`, `stage_out`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Storage rows copied in for every quad, in slot order from slot 0: every IN row in order
    /// (the first [`Layout::in_slots`], whether the program reads them or not), then the SV
    /// rows the program reads.
    pub rows_in: Vec<u32>,
    /// How many of `rows_in` are IN rows.
    pub in_slots: u32,
    /// The IN slots (below [`Layout::in_slots`]) the program reads: the only ones a run copies
    /// in when the render has not written them into the module itself (the module never loads
    /// the others).
    pub in_read: Vec<u32>,
    /// Storage rows copied out: every OUT row in order, in slot order after `rows_in` (the
    /// slots of rows the program never names are never stored to and stay zero).
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
    /// Constant buffers the program reads through an index (`CONST[b][ADDR[a].c + k]`), each
    /// with its area of [`BUFFER_AREA_BYTES`] from [`Layout::buffer_area`], in this order: the
    /// buffer's length in registers (a `u32`, set by the host before each run) in the first 16
    /// bytes, then room for [`BUFFER_REGISTERS`] registers of 16 bytes, then one register that
    /// stays zero (what an index outside the buffer reads).
    pub const_buffers: Vec<u32>,
    /// Splatted constants the code reads from memory (two quads per pass: an operand in memory
    /// leaves a register free), 16 bytes each from [`Layout::constant_table`]; the module's
    /// data segment holds them, so the host stages nothing for them.
    pub constants: u32,
    /// A straight-line program that samples, sampling a batch at a time (docs/jit.md "Batched
    /// sampling"): the module passes over the quads up to each texture instruction, staging
    /// its operands in rows of the batch from [`Layout::sample_rows_base`] (a row for each of
    /// the [`SAMPLE_SLOTS`] slots of `jit::host::scratch`; slot `k` of quad `q` at
    /// `base + k·(nq·16 + SAMPLE_ROW_PAD) + q·16`), calls the `sample_rows` import once, and
    /// passes over the quads again from that instruction on.
    /// Between passes the rows in [`Layout::spills`] (and the kill mask) wait in memory from
    /// [`Layout::spill_base`], quad by quad (quad `q`'s `n` rows at `base + q·n·16`).
    pub sample_rows: bool,
    /// With [`Layout::sample_rows`]: the register rows (TEMP, OUT, ADDR) kept between passes, in
    /// this order, then the kill mask when [`Layout::kill`].
    pub spills: Vec<u32>,
    /// The OUT register whose four rows are the colour the module stores into the render
    /// target itself (`compile_fused`, docs/jit.md "Colours stored by the module"): its rows are
    /// not stored to their slots; each quad's colour goes to the byte offset in its record
    /// instead, blended with what is there by the record's lane mask. Two record rows follow
    /// the kill slot ([`Layout::records_base`]).
    pub colour: Option<u32>,
}

/// Slots of a quad's sampling scratch (`jit::host::scratch`): the operands, the exec mask,
/// the four results.
pub const SAMPLE_SLOTS: u64 = crate::jit::host::scratch::RESULT as u64 + 4;
/// Bytes between two batched-sampling rows beyond the batch's `nq · 16`: rows a multiple of
/// 4 KiB apart would share the processor's cache sets.
pub const SAMPLE_ROW_PAD: u64 = 64;

/// Bytes between two batched-sampling rows of a batch of `nq` quads (the rows' layout, which
/// the module's code computes as `k · (QEND + SAMPLE_ROW_PAD)`, see `alu.rs` `sample_slot`).
pub fn sample_row_stride(nq: usize) -> usize {
    nq * 16 + SAMPLE_ROW_PAD as usize
}

/// The most register rows a batched-sampling program keeps between passes ([`Layout::spills`];
/// past it the module samples quad by quad).
pub const MAX_SPILLS: usize = 64;

/// Largest batch a module runs: the render's largest (`render::pipeline::MAX_BATCH_QUADS`); the
/// machine runs bigger ones in the interpreter.
pub const MAX_QUADS: u32 = crate::render::pipeline::MAX_BATCH_QUADS as u32;
/// Bytes between two row slots.
pub const ROW_BYTES: u32 = MAX_QUADS * 16;
/// Registers of a constant buffer's area: every register a buffer can hold
/// (`limits::MAX_CONST_REGISTERS`), so the module reads what the interpreter reads whatever
/// the declaration says (docs/jit.md, "Constant buffers").
pub const BUFFER_REGISTERS: u32 = crate::limits::MAX_CONST_REGISTERS as u32;
/// Bytes of a constant buffer's area: the length, the registers, the zero register.
pub const BUFFER_AREA_BYTES: u64 = 16 + (BUFFER_REGISTERS as u64 + 1) * 16;

impl Layout {
    pub fn kill_slot(&self) -> u32 {
        (self.rows_in.len() + self.rows_out.len()) as u32
    }
    /// Byte offset of the colour records ([`Layout::colour`]): a row of lane masks (all ones in
    /// a lane to store), then a row whose quads' lane 0 is the byte offset of the quad's colour
    /// in memory.
    pub fn records_base(&self) -> u64 {
        (self.kill_slot() as u64 + 1) * ROW_BYTES as u64
    }
    /// Byte offset of the first cached constant.
    pub fn const_base(&self) -> u64 {
        let records = if self.colour.is_some() { 2 } else { 0 };
        self.records_base() + records * ROW_BYTES as u64
    }
    /// Byte offset of the sampling scratch.
    pub fn sample_base(&self) -> u64 {
        self.const_base() + self.consts.len() as u64 * 16
    }
    /// Byte offset of the area of constant buffer `const_buffers[k]`.
    pub fn buffer_area(&self, k: usize) -> u64 {
        let scratch = if self.sampling { crate::jit::host::scratch::BYTES as u64 } else { 0 };
        self.sample_base() + scratch + k as u64 * BUFFER_AREA_BYTES
    }
    /// Byte offset of the rows kept between batched-sampling passes ([`Layout::spills`]).
    pub fn spill_base(&self) -> u64 {
        self.buffer_area(self.const_buffers.len())
    }
    /// Rows kept between batched-sampling passes, the kill mask among them.
    pub fn spill_rows(&self) -> u64 {
        if self.sample_rows {
            self.spills.len() as u64 + self.kill as u64
        } else {
            0
        }
    }
    /// Byte offset of the batched sampling's scratches ([`Layout::sample_rows`]).
    pub fn sample_rows_base(&self) -> u64 {
        self.spill_base() + self.spill_rows() * ROW_BYTES as u64
    }
    /// Byte offset of the constant table (`Layout::constants`).
    pub fn constant_table(&self) -> u64 {
        let rows = if self.sample_rows { SAMPLE_SLOTS } else { 0 };
        self.sample_rows_base() + rows * (ROW_BYTES as u64 + SAMPLE_ROW_PAD)
    }
    /// Linear memory the module uses (and declares as its minimum).
    pub fn memory_bytes(&self) -> u64 {
        self.constant_table() + self.constants as u64 * 16
    }
}
