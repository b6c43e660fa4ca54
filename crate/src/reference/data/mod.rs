//! The hand-written page data, one file per family of the table's `Category`.

use super::Entry;

/// An example program of the reference, by name: `programs/reference-examples/NAME.tgsi`
/// (the one copy; `NAME` is the opcode in lower case, with `.cs`/`.gs` for other stages).
macro_rules! example_program {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../programs/reference-examples/",
            $name,
            ".tgsi"
        ))
    };
}

mod arith;
mod convert;
mod double;
mod flow;
mod int;
mod int64;
mod legacy;
mod quad;
mod render;
mod resource;
mod texlanes;
mod texture;

/// The hand-written rendered examples and the reasons of opcodes without one.
pub(in crate::reference) use render::{NO_RENDER, RENDERS};
/// The compute examples' buffers before and after.
pub(in crate::reference) use resource::BUFFERS;
/// The texture lane tables.
pub(in crate::reference) use texlanes::{NO_TEX_LANES, TEX_LANES};

pub(super) static ALL: &[&[Entry]] = &[
    arith::ENTRIES,
    int::ENTRIES,
    convert::ENTRIES,
    double::ENTRIES,
    int64::ENTRIES,
    quad::ENTRIES,
    flow::ENTRIES,
    texture::ENTRIES,
    resource::ENTRIES,
    legacy::ENTRIES,
];

use super::Live;
use crate::opcode::Opcode;

/// An entry run as a lane table by the generated program.
pub(super) const fn lanes(
    op: Opcode,
    edge: &'static str,
    mesa: &'static str,
    agal: &'static str,
    related: &'static str,
    rows: [&'static str; 4],
) -> Entry {
    Entry { op, edge, mesa, agal, related, live: Live::Lanes { program: "", rows } }
}

/// An entry run as a lane table by its own program (IN[i] are the row's sources, OUT[0] the
/// compared result).
pub(super) const fn lanes_in(
    op: Opcode,
    edge: &'static str,
    mesa: &'static str,
    agal: &'static str,
    related: &'static str,
    program: &'static str,
    rows: [&'static str; 4],
) -> Entry {
    Entry { op, edge, mesa, agal, related, live: Live::Lanes { program, rows } }
}

/// An entry shown by an example program, with the reason it has no lane table.
#[allow(clippy::too_many_arguments)] // one argument per page field, as `lanes`
pub(super) const fn example(
    op: Opcode,
    edge: &'static str,
    mesa: &'static str,
    agal: &'static str,
    related: &'static str,
    why: &'static str,
    text: &'static str,
    textures: &'static str,
) -> Entry {
    Entry { op, edge, mesa, agal, related, live: Live::Example { why, text, textures } }
}

/// The AGAL note of ops with no one-to-one instruction that the export writes as a sequence.
pub(super) const SEQ: &str = "No single AGAL instruction; the export writes an equivalent sequence where it can (docs/agal.md).";
/// The AGAL note of integer, double and 64-bit ops.
pub(super) const NO_INT: &str = "AGAL has only 32-bit float registers: integer, double and 64-bit operations cannot be exported.";
