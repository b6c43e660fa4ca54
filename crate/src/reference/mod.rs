//! The opcode reference: for every row of the opcode table (`opcode.rs`), the page data we
//! wrote by hand — edge cases, where the spec and Mesa's `tgsi_exec` differ, the AGAL story,
//! related opcodes, and a live form: a lane table (four lanes of inputs with expected outputs
//! derived from the formula, asserted by `tests/native/reference`) or an example program with
//! the reason it cannot run in a lane table. `site` turns table + data into the static pages
//! at `/reference/` (`tgsi reference --out DIR`).
//!
//! The opcode list is the table's: entries are looked up by [`Opcode`], and the tests fail when
//! an opcode has no entry.

pub mod facts;
pub mod lanes;
pub mod site;
pub mod texlanes;

mod data;

use crate::opcode::Opcode;

/// One opcode's page data.
pub struct Entry {
    pub op: Opcode,
    /// NaN, ±0, ±Inf, denormals, overflow, out-of-range operands: what we do and why.
    pub edge: &'static str,
    /// Where `tgsi.rst` and Mesa's `tgsi_exec` (softpipe) differ, or what one leaves open
    /// (empty: no difference known).
    pub mesa: &'static str,
    /// The AGAL story beyond the table's AGAL column: why there is no one-to-one instruction,
    /// or what the export does instead.
    pub agal: &'static str,
    /// Related opcodes, separated by spaces (each must name a row of the table).
    pub related: &'static str,
    pub live: Live,
}

/// How the page shows the opcode running.
pub enum Live {
    /// Four lanes of one quad: `program` (or, when empty, the generated
    /// `OP OUT[0], IN[0], IN[1], …` fragment shader of [`lanes::program`]) run on the rows'
    /// inputs; each row is `"src0, src1, … => expected"` in the syntax of [`lanes::parse_row`].
    Lanes { program: &'static str, rows: [&'static str; 4] },
    /// Not executable in a lane table, for `why`. `text` is a complete example program that
    /// validates without diagnostics; fragment examples are drawn on the page with the
    /// `<tgsi-shader>` widget (`textures` is its attribute), others are shown as text.
    Example { why: &'static str, text: &'static str, textures: &'static str },
}

/// A compute example's BUFFER[0] (eight 32-bit words) before and after one block of the
/// example runs, derived by hand.
pub struct BufferCheck {
    pub op: Opcode,
    pub before: [u32; 8],
    pub after: [u32; 8],
}

/// The buffer check of an opcode's compute example, if it has one.
pub fn buffer_check(op: Opcode) -> Option<&'static BufferCheck> {
    data::BUFFERS.iter().find(|b| b.op == op)
}

/// Every buffer check.
pub fn buffer_checks() -> &'static [BufferCheck] {
    data::BUFFERS
}

/// The hand-written rendered example of an opcode whose lane table runs its own program:
/// (program, what the picture shows).
pub fn own_render(op: Opcode) -> Option<(&'static str, &'static str)> {
    data::RENDERS.iter().find(|r| r.ops.contains(&op)).map(|r| (r.text, r.shows))
}

/// Why an opcode has no rendered example (shown on its section).
pub fn no_render_reason(op: Opcode) -> Option<&'static str> {
    data::NO_RENDER.iter().find(|(o, _)| *o == op).map(|(_, why)| *why)
}

/// Every entry, in table order; `None` for an opcode without one (the tests fail then).
pub fn entry(op: Opcode) -> Option<&'static Entry> {
    data::ALL.iter().flat_map(|family| family.iter()).find(|e| e.op == op)
}

/// All entries of the data files (the tests check there is exactly one per opcode).
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    data::ALL.iter().flat_map(|family| family.iter())
}

/// The related opcodes of an entry; names that are no opcode are returned as `Err`.
pub fn related(e: &Entry) -> Vec<Result<Opcode, &'static str>> {
    e.related.split_whitespace().map(|w| Opcode::from_name(w).ok_or(w)).collect()
}
