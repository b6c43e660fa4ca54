//! Trace mode: for one quad of a batch, every executed instruction with the masks and the value
//! of every lane of every channel it wrote (float, int and hex views come from the raw bits).
//! The untraced run loop is a separate instantiation, so tracing costs nothing when off.

use super::io::Constants;
use super::lanes::Lanes;
use super::machine::Machine;
use super::program::{Inst, Src, Store};
use crate::ir::Span;
use crate::opcode::Opcode;
use serde::Serialize;

/// Longest trace kept (steps beyond it are counted, not stored): `docs/limits.md`.
pub const MAX_TRACE_STEPS: usize = 100_000;

/// Why a lane did not run an instruction, most decisive first: a lane outside the primitive
/// still runs (its values feed DDX/DDY) but its results are never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LaneOff {
    /// Discarded by KILL / KILL_IF earlier.
    Killed,
    /// Left its subroutine with RET.
    Returned,
    /// Left the loop with BRK.
    LoopExited,
    /// Skipped the rest of this loop iteration with CONT.
    Continued,
    /// Its IF/ELSE branch is not the one being run.
    BranchNotTaken,
    /// Its SWITCH case is not the one being run.
    OtherCase,
}

impl LaneOff {
    pub fn describe(self) -> &'static str {
        match self {
            LaneOff::Killed => "killed",
            LaneOff::Returned => "returned",
            LaneOff::LoopExited => "loop exited",
            LaneOff::Continued => "continued",
            LaneOff::BranchNotTaken => "branch not taken",
            LaneOff::OtherCase => "other case",
        }
    }
}

/// One source operand as the instruction read it: each channel after swizzle, negate and
/// absolute value, per lane.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceSource {
    /// The operand as decoded: `-|TEMP[1].yxzw|`, `CONST[0][2].xxxx`, `IN[ADDR[0].x+1].xyzw`.
    pub operand: String,
    /// How the instruction reads the bits: `float`, `int`, `uint`, `double`, … (opcode table).
    pub ty: &'static str,
    /// `values[c][lane]`: channel c (x, y, z, w after swizzle) of each lane, as raw bits.
    pub values: [[u32; 4]; 4],
}

/// The opcode table's operand type as one lower-case word.
pub fn type_word(t: Option<crate::opcode::ValType>) -> &'static str {
    use crate::opcode::ValType as V;
    match t {
        Some(V::Float) | None => "float",
        Some(V::Int) => "int",
        Some(V::Uint) => "uint",
        Some(V::Double) => "double",
        Some(V::Int64) => "int64",
        Some(V::Uint64) => "uint64",
        Some(V::Untyped) => "untyped",
    }
}

/// One channel written by a traced instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceWrite {
    /// `TEMP[3]`, `OUT[0]`, … (for indirect destinations, the register of lane 0's address).
    pub register: String,
    pub channel: char,
    /// How the result bits are meant: `float`, `int`, `uint`, … (the opcode table).
    pub ty: &'static str,
    /// Raw bits per lane (in the interpreter's lane order) before the instruction.
    pub before: [u32; 4],
    /// Raw bits per lane after the instruction.
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
    /// Lanes active after the instruction: for IF, ELSE, BRK, CONT, RET, SWITCH, CASE, ENDLOOP
    /// … the decision it made.
    pub exec_after: u8,
    /// Lanes killed so far (after the instruction).
    pub kill_mask: u8,
    /// For each lane not in `exec_mask`, why.
    pub off: [Option<LaneOff>; 4],
    /// The iteration (from 1) of the innermost loop running this instruction, if any.
    pub iteration: Option<u32>,
    pub sources: Vec<TraceSource>,
    pub writes: Vec<TraceWrite>,
    /// For a sampling instruction: what the sampler did for this quad (LOD, levels, texels and
    /// their weights per lane).
    pub sample: Option<crate::texture::trace::SampleTrace>,
}

/// A whole trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trace {
    pub quad: usize,
    /// Lanes outside the primitive (helper lanes: they run for DDX/DDY, nothing is stored).
    pub helpers: u8,
    pub steps: Vec<TraceStep>,
    /// Steps executed beyond [`MAX_TRACE_STEPS`].
    pub dropped: u64,
    /// Open loops: (BGNLOOP pc, iteration).
    #[serde(skip)]
    loops: Vec<(u32, u32)>,
    /// The previous step's pc and opcode, and whether a lane was active after it (to tell a
    /// loop's back jump from its exit).
    #[serde(skip)]
    last: Option<(u32, &'static str, bool)>,
}

impl Trace {
    pub fn new(quad: usize) -> Trace {
        Trace { quad, ..Trace::default() }
    }

    /// Keeps the loop iteration counters: an ENDLOOP followed by an earlier pc went round
    /// again, followed by a later pc left the loop.
    fn count_loops(&mut self, step: &mut TraceStep) {
        if let Some((pc, "ENDLOOP", went_round)) = self.last {
            if step.pc <= pc {
                // Only rounds in which a lane of this quad went on count.
                if let (Some(top), true) = (self.loops.last_mut(), went_round) {
                    top.1 += 1;
                }
            } else {
                self.loops.pop();
            }
        }
        if step.opcode == Opcode::BGNLOOP.name()
            && self.loops.last().is_none_or(|&(pc, _)| pc != step.pc)
        {
            self.loops.push((step.pc, 1));
        }
        step.iteration = self.loops.last().map(|&(_, i)| i);
        self.last = Some((step.pc, step.opcode, step.exec_after != 0));
    }

    /// Keeps a step unless the quad sat it out: no lane active before or after it (the batch
    /// was running other quads).
    pub(crate) fn push(&mut self, mut step: TraceStep) {
        self.count_loops(&mut step);
        if step.exec_mask == 0 && step.exec_after == 0 {
            return;
        }
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
    off: [Option<LaneOff>; 4],
    sources: Vec<TraceSource>,
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
            let Some(row) = dd.row(c) else { continue };
            out.push((format!("{}[{}]", file, index), ['x', 'y', 'z', 'w'][c], row));
        }
    }
    out
}

/// How a decoded source operand reads in TGSI syntax.
fn operand_text(s: &Src) -> String {
    let file = s.file.map_or("?", |f| f.name());
    let index = match s.indirect {
        Some(_) if s.index != 0 => format!("ADDR+{}", s.index),
        Some(_) => "ADDR".to_string(),
        None => s.index.to_string(),
    };
    let reg = match (s.file, s.store) {
        (Some(crate::ir::File::Const), Store::Rows { .. }) | (_, Store::Const) => {
            format!("CONST[{}][..]", s.dim)
        }
        _ => format!("{file}[{index}]"),
    };
    let swz: String = s.swizzle.iter().map(|&c| ['x', 'y', 'z', 'w'][c as usize & 3]).collect();
    let body = format!("{reg}.{swz}");
    let body = if s.absolute { format!("|{body}|") } else { body };
    if s.negate {
        format!("-{body}")
    } else {
        body
    }
}

/// The value operands of `inst` (not samplers, views, buffers or images) for quad `q`.
fn read_sources(m: &Machine, inst: &Inst, q: usize, consts: &Constants) -> Vec<TraceSource> {
    use crate::ir::File;
    let exec = m.exec.get(q..q + 1).unwrap_or_default();
    let io = super::regs::Io::quads(&m.regs, consts, exec, m.nq, q..q + 1, &mut []);
    inst.src
        .iter()
        .take(inst.num_src as usize)
        .filter(|s| {
            !matches!(
                s.file,
                Some(
                    File::Samp
                        | File::Sview
                        | File::Buffer
                        | File::Image
                        | File::Memory
                        | File::Constbuf
                        | File::Hwatomic
                )
            )
        })
        .map(|s| {
            let mut values = [[0u32; 4]; 4];
            for (c, v) in values.iter_mut().enumerate() {
                let mut out = [Lanes::ZERO];
                io.fetch_into(s, c, &mut out);
                *v = out[0].0;
            }
            TraceSource { operand: operand_text(s), ty: type_word(s.ty), values }
        })
        .collect()
}

/// Why each inactive lane of quad `q` is off.
fn lanes_off(m: &Machine, q: usize) -> [Option<LaneOff>; 4] {
    let bits = |v: &Vec<Lanes>| v.get(q).map_or(0xF, |l| l.bits4());
    let exec = bits(&m.exec);
    let kill = m.kill.get(q).map_or(0, |l| l.bits4());
    let masks = [
        (kill ^ 0xF, LaneOff::Killed),
        (bits(&m.func), LaneOff::Returned),
        (bits(&m.loop_mask), LaneOff::LoopExited),
        (bits(&m.cont), LaneOff::Continued),
        (bits(&m.cond), LaneOff::BranchNotTaken),
        (bits(&m.switch), LaneOff::OtherCase),
    ];
    std::array::from_fn(|l| {
        if exec >> l & 1 != 0 {
            return None;
        }
        masks.iter().find(|(m, _)| m >> l & 1 == 0).map(|&(_, why)| why)
    })
}

impl TraceStep {
    pub(crate) fn begin(
        m: &Machine,
        inst: &Inst,
        pc: usize,
        quad: usize,
        consts: &Constants,
    ) -> Option<Pending> {
        let exec = m.exec.get(quad)?;
        let targets = written_rows(m, inst, quad)
            .into_iter()
            .map(|(r, c, row)| {
                let bits = m.regs.get(row * m.nq + quad).copied().unwrap_or(Lanes::ZERO).0;
                (r, c, row, bits)
            })
            .collect();
        Some(Pending {
            pc: pc as u32,
            exec_mask: exec.bits4(),
            quad,
            off: lanes_off(m, quad),
            sources: read_sources(m, inst, quad, consts),
            targets,
        })
    }
}

impl Pending {
    pub(crate) fn end(self, m: &Machine, inst: &Inst) -> TraceStep {
        let q = self.quad;
        let writes = if self.exec_mask == 0 {
            Vec::new()
        } else {
            self.targets
                .into_iter()
                .map(|(register, channel, row, before)| TraceWrite {
                    register,
                    channel,
                    ty: type_word(Some(inst.op.info().dst_type)),
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
            exec_after: m.exec.get(q).map_or(0, |e| e.bits4()),
            kill_mask: m.kill.get(q).map_or(0, |k| k.bits4()),
            off: self.off,
            iteration: None,
            sources: self.sources,
            writes,
            sample: None,
        }
    }
}
