//! Lane tables: the row syntax, the generated lane program, and one quad run through the
//! engine's own path ([`crate::exec::quad::run_quad`], the page's `execQuad`).
//!
//! A row is `"src0, src1, … => expected"`. Each source and the expected value is one literal
//! (every channel gets it) or `(a b c d)` (channel by channel; missing input channels are 0,
//! missing expected channels are not compared). 64-bit types fill channel pairs: a literal fills
//! xy and zw, `(a b)` gives xy then zw. A literal is read in the operand's type from the table
//! (`src_types`, `dst_type`) unless prefixed `f:` float, `i:` int, `u:` uint, `d:` double,
//! `l:` int64, `ul:` uint64:
//! * floats and doubles: decimals, `inf`, `-inf`, `nan` (expected: any quiet NaN, since the sign
//!   and payload of a generated NaN differ between x86 and WebAssembly engines), `-0`;
//! * integers: decimals;
//! * any type: `0x` and hex digits are the raw bits (8 digits, 16 for 64-bit types);
//! * expected only: `_` (not compared), `killed` (the lane was discarded; outputs not compared).

use crate::exec::quad::{run_quad, QuadRequest, QuadRun};
use crate::opcode::{Opcode, ValType, F_LEGACY};
use crate::text::decimal;

/// How a channel's bits are read (for comparing and for the page's float / hex / int views).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Kind {
    F32,
    I32,
    U32,
    /// Low / high word of a double.
    F64Lo,
    F64Hi,
    I64Lo,
    I64Hi,
    U64Lo,
    U64Hi,
    /// Expected only: not compared.
    Any,
    /// Expected only: any quiet float NaN.
    NanF,
    /// Expected only: the high word of any quiet double NaN (the low word is `Any`).
    NanD,
}

/// One channel of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    pub bits: u32,
    pub kind: Kind,
}

/// One parsed row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Per source register, four channels.
    pub inputs: Vec<[Cell; 4]>,
    /// Four channels of OUT[0]; `None` when the lane is expected to be killed.
    pub expected: Option<[Cell; 4]>,
}

fn kind_of(t: ValType) -> (Kind, bool) {
    match t {
        ValType::Float | ValType::Untyped => (Kind::F32, false),
        ValType::Int => (Kind::I32, false),
        ValType::Uint => (Kind::U32, false),
        ValType::Double => (Kind::F64Lo, true),
        ValType::Int64 => (Kind::I64Lo, true),
        ValType::Uint64 => (Kind::U64Lo, true),
    }
}

/// Reads one literal as `t` (or its prefix's type): one cell, or two (low, high) for 64 bits.
fn literal(word: &str, t: ValType, expected: bool) -> Result<Vec<Cell>, String> {
    let (t, w) = match word.split_once(':') {
        Some(("f", w)) => (ValType::Float, w),
        Some(("i", w)) => (ValType::Int, w),
        Some(("u", w)) => (ValType::Uint, w),
        Some(("d", w)) => (ValType::Double, w),
        Some(("l", w)) => (ValType::Int64, w),
        Some(("ul", w)) => (ValType::Uint64, w),
        Some((p, _)) => return Err(format!("unknown prefix '{p}:' in '{word}'")),
        None => (t, word),
    };
    let (kind, wide) = kind_of(t);
    let bad = || format!("'{word}' is not a {t:?} literal");
    if expected && w == "_" {
        let any = Cell { bits: 0, kind: Kind::Any };
        return Ok(if wide { vec![any, any] } else { vec![any] });
    }
    let cells = |v: u64| -> Vec<Cell> {
        let (lo, hi) = match kind {
            Kind::F64Lo => (Kind::F64Lo, Kind::F64Hi),
            Kind::I64Lo => (Kind::I64Lo, Kind::I64Hi),
            _ => (Kind::U64Lo, Kind::U64Hi),
        };
        vec![Cell { bits: v as u32, kind: lo }, Cell { bits: (v >> 32) as u32, kind: hi }]
    };
    if let Some(hex) = w.strip_prefix("0x") {
        let v = u64::from_str_radix(hex, 16).map_err(|_| bad())?;
        return Ok(if wide { cells(v) } else { vec![Cell { bits: v as u32, kind }] });
    }
    if expected && w == "nan" {
        return Ok(if wide {
            vec![Cell { bits: 0, kind: Kind::Any }, Cell { bits: 0, kind: Kind::NanD }]
        } else {
            vec![Cell { bits: 0, kind: Kind::NanF }]
        });
    }
    Ok(match t {
        ValType::Float | ValType::Untyped => {
            vec![Cell { bits: decimal::parse_f32(w).ok_or_else(bad)?.to_bits(), kind }]
        }
        ValType::Int => vec![Cell { bits: w.parse::<i32>().map_err(|_| bad())? as u32, kind }],
        ValType::Uint => vec![Cell { bits: w.parse::<u32>().map_err(|_| bad())?, kind }],
        ValType::Double => cells(decimal::parse_f64(w).ok_or_else(bad)?.to_bits()),
        ValType::Int64 => cells(w.parse::<i64>().map_err(|_| bad())? as u64),
        ValType::Uint64 => cells(w.parse::<u64>().map_err(|_| bad())?),
    })
}

/// Reads one operand (literal or parenthesised vector) into four channels.
fn operand(text: &str, t: ValType, expected: bool) -> Result<[Cell; 4], String> {
    let text = text.trim();
    let fill = Cell { bits: 0, kind: if expected { Kind::Any } else { kind_of(t).0 } };
    let mut out = [fill; 4];
    if let Some(inner) = text.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        let mut at = 0;
        for w in inner.split_whitespace() {
            for c in literal(w, t, expected)? {
                *out.get_mut(at).ok_or_else(|| format!("more than four channels in '{text}'"))? = c;
                at += 1;
            }
        }
    } else {
        let cells = literal(text, t, expected)?;
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = cells[i % cells.len()];
        }
    }
    Ok(out)
}

/// Parses a row for `op`; `sources` is the number of IN registers the row fills.
pub fn parse_row(op: Opcode, row: &str) -> Result<Row, String> {
    let info = op.info();
    let (srcs, exp) = row.split_once("=>").ok_or_else(|| format!("no '=>' in '{row}'"))?;
    let inputs = if srcs.trim().is_empty() {
        Vec::new()
    } else {
        srcs.split(',')
            .enumerate()
            .map(|(i, s)| operand(s, info.src_type(i), false))
            .collect::<Result<_, _>>()?
    };
    let exp = exp.trim();
    let expected = if exp == "killed" { None } else { Some(operand(exp, info.dst_type, true)?) };
    Ok(Row { inputs, expected })
}

/// The generated lane program of an opcode with no program of its own: one fragment shader
/// `OP OUT[0], IN[0], IN[1], …` with one IN register per source.
pub fn program(op: Opcode) -> String {
    let info = op.info();
    let mut s = String::from("FRAG\n");
    for i in 0..info.num_src {
        s.push_str(&format!("DCL IN[{i}], GENERIC[{i}], CONSTANT\n"));
    }
    s.push_str("DCL OUT[0], COLOR\n");
    let mut ops = vec!["OUT[0]".to_string()];
    ops.extend((0..info.num_src).map(|i| format!("IN[{i}]")));
    s.push_str(&format!("  0: {} {}\n  1: END\n", info.name, ops.join(", ")));
    s
}

/// The program of a lane table: the entry's own or the generated one.
pub fn program_of(op: Opcode, own: &str) -> String {
    if own.is_empty() {
        program(op)
    } else {
        own.to_string()
    }
}

/// Runs the four rows as the four lanes of one quad (row i = lane i).
pub fn run(text: &str, rows: &[Row]) -> QuadRun {
    let registers = rows.iter().map(|r| r.inputs.len()).max().unwrap_or(0);
    let inputs = (0..registers)
        .map(|reg| {
            [0, 1, 2, 3].map(|lane| {
                rows.get(lane)
                    .and_then(|r| r.inputs.get(reg))
                    .map_or([0; 4], |cells| cells.map(|c| c.bits))
            })
        })
        .collect();
    run_quad(text, &QuadRequest { inputs, ..Default::default() })
}

/// Whether `bits` is what `cell` expects.
pub fn matches(cell: Cell, bits: u32) -> bool {
    match cell.kind {
        Kind::Any => true,
        Kind::NanF => bits & 0x7fc0_0000 == 0x7fc0_0000,
        Kind::NanD => bits & 0x7ff8_0000 == 0x7ff8_0000,
        _ => cell.bits == bits,
    }
}

/// Runs an entry's lane table and compares every lane with its row; `Err` says which lane,
/// channel and value differ (or why the program did not run).
pub fn check(op: Opcode, own_program: &str, rows: &[&str; 4]) -> Result<(), String> {
    let parsed: Vec<Row> = rows.iter().map(|r| parse_row(op, r)).collect::<Result<_, _>>()?;
    let text = program_of(op, own_program);
    let run = run(&text, &parsed);
    if let Some(e) = run.error {
        return Err(format!(
            "{}: the lane program did not run: {} [{}]",
            op.name(),
            e.message,
            e.code
        ));
    }
    let out = run.outputs.first().ok_or_else(|| format!("{}: no OUT[0]", op.name()))?;
    let mut problems = Vec::new();
    for (lane, row) in parsed.iter().enumerate() {
        let killed = run.killed & (1 << lane) != 0;
        match row.expected {
            None if !killed => problems.push(format!("lane {lane}: expected killed, was not")),
            None => {}
            Some(_) if killed => problems.push(format!("lane {lane}: killed, expected a value")),
            Some(cells) => {
                for (c, cell) in cells.iter().enumerate() {
                    if !matches(*cell, out[lane][c]) {
                        problems.push(format!(
                            "lane {lane} ({}) channel {}: expected {:?} 0x{:08x}, got 0x{:08x}",
                            rows[lane],
                            "xyzw".as_bytes()[c] as char,
                            cell.kind,
                            cell.bits,
                            out[lane][c]
                        ));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}:\n  {}", op.name(), problems.join("\n  ")))
    }
}

/// Whether an example or lane program is expected to draw a legacy-dialect warning.
pub fn is_legacy(op: Opcode) -> bool {
    op.info().has(F_LEGACY)
}

/// One lane's OUT[0] (`bits`, four channels) written back in the row syntax, read as `op`'s
/// destination type: one literal when every channel (or, for 64-bit types, both channel pairs)
/// agree, else `(a b c d)` (`(a b)` for pairs). A literal reads back to the same bits
/// ([`parse_row`]): floats in their shortest exact form (`1e38`, `-0`, `inf`), a NaN as its raw
/// bits (`0x7fc00000`), since its payload is part of what ran.
pub fn format_lane(op: Opcode, bits: [u32; 4]) -> String {
    let (kind, wide) = kind_of(op.info().dst_type);
    let words: Vec<String> = if wide {
        [0, 2]
            .iter()
            .map(|&c| format_wide(kind, u64::from(bits[c]) | u64::from(bits[c + 1]) << 32))
            .collect()
    } else {
        bits.iter().map(|&b| format_word(kind, b)).collect()
    };
    if words.iter().all(|w| *w == words[0]) {
        words[0].clone()
    } else {
        format!("({})", words.join(" "))
    }
}

fn format_word(kind: Kind, bits: u32) -> String {
    let v = f32::from_bits(bits);
    match kind {
        Kind::I32 => (bits as i32).to_string(),
        Kind::U32 => bits.to_string(),
        _ if v.is_nan() => format!("0x{bits:08x}"),
        _ => format_float(v, f64::from(v)),
    }
}

fn format_wide(kind: Kind, bits: u64) -> String {
    let v = f64::from_bits(bits);
    match kind {
        Kind::I64Lo => (bits as i64).to_string(),
        Kind::U64Lo => bits.to_string(),
        _ if v.is_nan() => format!("0x{bits:016x}"),
        _ => format_float(v, v),
    }
}

/// A float (not NaN) as the row syntax reads it: `inf`, `-inf`, `-0`, plain decimals between
/// 1e-4 and 1e7, exponent form outside; the shortest digits that give `v`'s own type back.
fn format_float<T: std::fmt::Display + std::fmt::LowerExp>(v: T, wide: f64) -> String {
    let a = wide.abs();
    if wide.is_infinite() {
        if wide < 0.0 { "-inf" } else { "inf" }.to_string()
    } else if a != 0.0 && !(1e-4..1e7).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
