//! Trace mode: for one quad of a batch, every executed instruction with the masks and the value
//! of every lane of every channel it wrote (float, int and hex views come from the raw bits).
//! The untraced run loop is a separate instantiation, so tracing costs nothing when off.

use super::lanes::Lanes;
use super::machine::Machine;
use super::program::{Inst, Program};
use crate::ir::Span;
use serde::Serialize;

/// Longest trace kept (steps beyond it are counted, not stored).
pub const MAX_TRACE_STEPS: usize = 100_000;

/// One channel written by a traced instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceWrite {
    /// `TEMP[3]`, `OUT[0]`, … (for indirect destinations, the register of lane 0's address).
    pub register: String,
    pub channel: char,
    /// Raw bits per lane (TL, TR, BL, BR) before the instruction.
    pub before: [u32; 4],
    /// Raw bits per lane (TL, TR, BL, BR) after the instruction.
    pub bits: [u32; 4],
}

impl TraceWrite {
    pub fn floats(&self) -> [f32; 4] {
        self.bits.map(f32::from_bits)
    }
    pub fn ints(&self) -> [i32; 4] {
        self.bits.map(|b| b as i32)
    }
    pub fn hex(&self) -> [String; 4] {
        self.bits.map(|b| format!("0x{:08x}", b))
    }
}

/// One executed instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStep {
    /// Index in the decoded program (equals the IR instruction index).
    pub pc: u32,
    pub opcode: &'static str,
    pub span: Span,
    /// Lanes active before the instruction (bit i = lane i).
    pub exec_mask: u8,
    /// Lanes killed so far (after the instruction).
    pub kill_mask: u8,
    pub writes: Vec<TraceWrite>,
}

/// A whole trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trace {
    pub quad: usize,
    pub steps: Vec<TraceStep>,
    /// Steps executed beyond [`MAX_TRACE_STEPS`].
    pub dropped: u64,
}

impl Trace {
    pub(crate) fn push(&mut self, step: TraceStep) {
        if self.steps.len() < MAX_TRACE_STEPS {
            self.steps.push(step);
        } else {
            self.dropped += 1;
        }
    }
    /// One line per step: `3: ADD  exec=1111  TEMP[0].x = (1 2 3 4)`.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for st in &self.steps {
            s.push_str(&format!(
                "{:3}: {:<10} exec={:04b}",
                st.pc,
                st.opcode,
                st.exec_mask.reverse_bits() >> 4
            ));
            for w in &st.writes {
                let f = w.floats();
                s.push_str(&format!(
                    "  {}.{} = ({} {} {} {})",
                    w.register, w.channel, f[0], f[1], f[2], f[3]
                ));
            }
            s.push('\n');
        }
        s
    }
}

pub(crate) struct Pending {
    pc: u32,
    exec_mask: u8,
    quad: usize,
    /// Every channel the instruction may write, with its storage row and bits before it ran.
    targets: Vec<(String, char, usize, [u32; 4])>,
}

/// The channels `inst` writes in quad `q`: register name, channel letter, storage row.
fn written_rows(m: &Machine, inst: &Inst, q: usize) -> Vec<(String, char, usize)> {
    let mut out = Vec::new();
    if inst.op.info().output == crate::opcode::OutputMode::None {
        return out;
    }
    for d in inst.dst.iter().take(inst.num_dst as usize) {
        let index = match d.indirect {
            // Show the register lane 0 addressed.
            Some(a) => d.index.saturating_add(
                m.regs.get(a.0 as usize * m.nq + q).map_or(0, |l| l.0[0] as i32 as i64),
            ),
            None => d.index,
        };
        let file = d.file.map_or("?", |f| f.name());
        for c in 0..4 {
            if d.mask >> c & 1 == 0 {
                continue;
            }
            let mut dd = *d;
            dd.index = index;
            dd.indirect = None;
            let Some(row) = Machine::dst_row(&dd, c) else { continue };
            out.push((format!("{}[{}]", file, index), ['x', 'y', 'z', 'w'][c], row));
        }
    }
    out
}

impl TraceStep {
    pub(crate) fn begin(m: &Machine, inst: &Inst, pc: usize, quad: usize) -> Option<Pending> {
        let exec = m.exec.get(quad)?;
        let targets = written_rows(m, inst, quad)
            .into_iter()
            .map(|(r, c, row)| {
                let bits = m.regs.get(row * m.nq + quad).copied().unwrap_or(Lanes::ZERO).0;
                (r, c, row, bits)
            })
            .collect();
        Some(Pending { pc: pc as u32, exec_mask: exec.bits4(), quad, targets })
    }
}

impl Pending {
    pub(crate) fn end(self, m: &Machine, inst: &Inst, program: &Program) -> TraceStep {
        let _ = program;
        let q = self.quad;
        let writes = if self.exec_mask == 0 {
            Vec::new()
        } else {
            self.targets
                .into_iter()
                .map(|(register, channel, row, before)| TraceWrite {
                    register,
                    channel,
                    before,
                    bits: m.regs.get(row * m.nq + q).copied().unwrap_or(Lanes::ZERO).0,
                })
                .collect()
        };
        TraceStep {
            pc: self.pc,
            opcode: inst.op.name(),
            span: inst.span,
            exec_mask: self.exec_mask,
            kill_mask: m.kill.get(self.quad).map_or(0, |k| k.bits4()),
            writes,
        }
    }
}
