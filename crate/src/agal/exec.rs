//! AGAL executor: runs a program on one 2x2 quad (4 lanes: top-left, top-right, bottom-left,
//! bottom-right, as the TGSI interpreter), so exported programs can be rendered and compared with
//! the TGSI interpreter. Semantics follow docs/agal.md "Opcodes" and its lane-positional rule
//! ("Semantics" 1).
//!
//! Registers use the interpreter's layout ([`Reg`]: four [`Lanes`], one per channel), and the
//! transcendental functions, sign, saturation and derivatives are the interpreter's own
//! (`crate::exec::ops`; Mesa's `tgsi_exec.c` `micro_ddx`, `micro_ddy`, `fetch_source`), so exported
//! programs compute what the TGSI interpreter computes.

use super::bytecode::*;
use super::flow::matrix_rows;
use crate::exec::machine::saturate;
use crate::exec::ops::{float, lane, quad};
pub use crate::exec::Lanes;
use crate::exec::{SampleRequest, TextureHooks};
use crate::ir::TextureTarget;
use crate::opcode::Opcode;
use crate::texture::sample::{Control, Request};

pub type Vec4 = [f32; 4];
/// Lanes of a quad.
pub const LANES: usize = 4;
/// One register of a quad in the interpreter's layout: channel c holds the four lanes.
pub type Reg = [Lanes; 4];
/// One register of a quad as a vector per lane (convenient for tests and hosts).
pub type Quad = [Vec4; LANES];

/// Per-lane vectors → the interpreter's channel-major register.
pub fn reg_from_quad(q: &Quad) -> Reg {
    std::array::from_fn(|c| Lanes::from_f32(std::array::from_fn(|l| q[l][c])))
}

/// The interpreter's channel-major register → per-lane vectors.
pub fn quad_from_reg(r: &Reg) -> Quad {
    std::array::from_fn(|l| std::array::from_fn(|c| f32::from_bits(r[c].0[l])))
}

/// Texture lookup: sampler operand and the coordinates of one lane → RGBA.
pub type SampleFn<'a> = &'a dyn Fn(&Sampler, Vec4) -> Vec4;

/// What a program reads.
#[derive(Default)]
pub struct Inputs<'a> {
    /// `vc`/`fc` registers; missing ones read as zero.
    pub constants: &'a [Vec4],
    /// `va` registers (vertex programs).
    pub attributes: &'a [Reg],
    /// `v` registers (fragment programs).
    pub varyings: &'a [Reg],
    pub sample: Option<SampleFn<'a>>,
}

/// What a program wrote, in the interpreter's layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// `op` (vertex) or `oc0..oc3` (fragment).
    pub outputs: [Reg; 4],
    pub depth: Lanes,
    /// `v0..v9` written by a vertex program.
    pub varyings: Vec<Reg>,
    /// Lanes discarded by `kil`, bit i = lane i (as the interpreter's `Batch::killed`).
    pub killed: u8,
}

/// [`Outputs`] as vectors per lane.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuadOutputs {
    pub outputs: [Quad; 4],
    pub depth: [f32; LANES],
    pub varyings: Vec<Quad>,
    pub killed: [bool; LANES],
}

impl Outputs {
    pub fn per_lane(&self) -> QuadOutputs {
        QuadOutputs {
            outputs: std::array::from_fn(|i| quad_from_reg(&self.outputs[i])),
            depth: self.depth.f32s(),
            varyings: self.varyings.iter().map(quad_from_reg).collect(),
            killed: std::array::from_fn(|l| self.killed & (1 << l) != 0),
        }
    }
}

const MAX_TEMPS: usize = 26;
const MAX_VARYINGS: usize = 10;

struct Machine<'a> {
    inputs: &'a Inputs<'a>,
    /// The interpreter's texture interface, called once per quad (so LOD can come from the
    /// lanes' differences); `Inputs::sample` is used when absent.
    hooks: Option<&'a mut dyn TextureHooks>,
    temps: Vec<Reg>,
    out: Outputs,
    /// Active lanes; a stack of masks for ife…eif.
    mask: [bool; LANES],
    stack: Vec<([bool; LANES], [bool; LANES])>,
}

/// Runs `p` on one quad. Errors (out-of-range registers, missing sampler) are reported, never
/// panicked on.
pub fn run(p: &Program, inputs: &Inputs) -> Result<Outputs, String> {
    run_machine(p, inputs, None)
}

/// Runs `p` on one quad, sampling textures through the interpreter's [`TextureHooks`] (the
/// texture module's bindings, or any test double): one request per quad, target from the
/// sampler's dimension, LOD bias from its bias byte.
pub fn run_with_textures(
    p: &Program,
    inputs: &Inputs,
    hooks: &mut dyn TextureHooks,
) -> Result<Outputs, String> {
    run_machine(p, inputs, Some(hooks))
}

fn run_machine<'a>(
    p: &Program,
    inputs: &'a Inputs<'a>,
    hooks: Option<&'a mut dyn TextureHooks>,
) -> Result<Outputs, String> {
    let mut m = Machine {
        inputs,
        hooks,
        temps: vec![[Lanes::ZERO; 4]; MAX_TEMPS],
        out: Outputs { varyings: vec![[Lanes::ZERO; 4]; MAX_VARYINGS], ..Outputs::default() },
        mask: [true; LANES],
        stack: Vec::new(),
    };
    for (i, ins) in p.code.iter().enumerate() {
        m.step(ins).map_err(|e| format!("instruction {} ({}): {}", i + 1, ins.info().name, e))?;
    }
    Ok(m.out)
}

fn lane_of(r: &Reg, lane: usize) -> Vec4 {
    std::array::from_fn(|c| f32::from_bits(r[c].0[lane & 3]))
}

impl Machine<'_> {
    fn read_reg(&self, reg: RegType, index: usize, lane: usize) -> Result<Vec4, String> {
        let zero = [0.0; 4];
        Ok(match reg {
            RegType::Constant => self.inputs.constants.get(index).copied().unwrap_or(zero),
            RegType::Temporary => {
                lane_of(self.temps.get(index).ok_or("temporary out of range")?, lane)
            }
            RegType::Attribute => {
                self.inputs.attributes.get(index).map(|r| lane_of(r, lane)).unwrap_or(zero)
            }
            RegType::Varying => {
                self.inputs.varyings.get(index).map(|r| lane_of(r, lane)).unwrap_or(zero)
            }
            _ => return Err(format!("register type {:?} cannot be read", reg)),
        })
    }

    /// Source value of one lane before swizzling; `row` steps matrix rows (docs/agal.md "Operands",
    /// matrix sources).
    fn fetch(&self, s: &Source, lane: usize, row: u16) -> Result<Vec4, String> {
        match s.indirect {
            None => self.read_reg(s.reg, s.index as usize + row as usize, lane),
            Some(ir) => {
                let v =
                    self.read_reg(ir.reg, ir.index as usize, lane)?[(ir.component & 3) as usize];
                let at = v.floor() as i64 + s.index as i64 + row as i64;
                if at < 0 {
                    return Ok([0.0; 4]);
                }
                self.read_reg(s.reg, at as usize, lane)
            }
        }
    }

    /// Swizzled source: lane-positional (docs/agal.md "Semantics").
    fn src(&self, s: &Source, lane: usize, row: u16) -> Result<Vec4, String> {
        let v = self.fetch(s, lane, row)?;
        Ok([v[s.lane(0)], v[s.lane(1)], v[s.lane(2)], v[s.lane(3)]])
    }

    fn write(&mut self, d: &Dest, lane: usize, v: Vec4) -> Result<(), String> {
        if !self.mask[lane] {
            return Ok(());
        }
        let i = d.index as usize;
        let slot: &mut Reg = match d.reg {
            RegType::Temporary => self.temps.get_mut(i).ok_or("temporary out of range")?,
            RegType::Output => self.out.outputs.get_mut(i).ok_or("output out of range")?,
            RegType::Varying => self.out.varyings.get_mut(i).ok_or("varying out of range")?,
            RegType::Depth => {
                if d.mask & 1 != 0 {
                    self.out.depth.0[lane] = v[0].to_bits();
                }
                return Ok(());
            }
            _ => return Err(format!("register type {:?} cannot be written", d.reg)),
        };
        for c in 0..4 {
            if d.mask & (1 << c) != 0 {
                slot[c].0[lane] = v[c].to_bits();
            }
        }
        Ok(())
    }

    fn step(&mut self, ins: &Instruction) -> Result<(), String> {
        let zero = Source::direct(RegType::Constant, 0, 0);
        let a = ins.src1.unwrap_or(zero);
        let b = ins.src2.unwrap_or(zero);
        match ins.op {
            opc::IFE | opc::INE | opc::IFG | opc::IFL => {
                let mut cond = [false; LANES];
                for (l, c) in cond.iter_mut().enumerate() {
                    let (x, y) = (self.src(&a, l, 0)?[0], self.src(&b, l, 0)?[0]);
                    // ifg: Ruffle's `>`; the [doc] text says ">=" (docs/agal.md "Where
                    // implementations disagree"). We export none.
                    *c = match ins.op {
                        opc::IFE => x == y,
                        opc::INE => x != y,
                        opc::IFG => x > y,
                        _ => x < y,
                    };
                }
                let outer = self.mask;
                self.stack.push((outer, cond));
                self.mask = std::array::from_fn(|l| outer[l] && cond[l]);
                return Ok(());
            }
            opc::ELS => {
                let (outer, cond) = self.stack.last().copied().ok_or("els without if")?;
                self.mask = std::array::from_fn(|l| outer[l] && !cond[l]);
                return Ok(());
            }
            opc::EIF => {
                let (outer, _) = self.stack.pop().ok_or("eif without if")?;
                self.mask = outer;
                return Ok(());
            }
            opc::KIL => {
                for l in 0..LANES {
                    if self.mask[l] && self.src(&a, l, 0)?[0] < 0.0 {
                        self.out.killed |= 1 << l;
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        let d = ins.dest.ok_or("missing destination")?;
        // Compute every lane first, then store, so a source may alias the destination.
        let mut results = [[0.0f32; 4]; LANES];
        if matches!(ins.op, opc::TEX | opc::TED | opc::TLD) && self.hooks.is_some() {
            results = self.sample_quad(ins, &a)?;
        } else if matches!(ins.op, opc::DDX | opc::DDY) {
            let v: Vec<Vec4> = (0..LANES).map(|l| self.src(&a, l, 0)).collect::<Result<_, _>>()?;
            // Coarse derivatives, the interpreter's own function (tgsi_exec.c
            // `micro_ddx`/`micro_ddy`).
            let op = if ins.op == opc::DDX { Opcode::DDX } else { Opcode::DDY };
            for c in 0..4 {
                let per_lane = quad::derivative(op, std::array::from_fn(|l| v[l][c]));
                for (l, r) in results.iter_mut().enumerate() {
                    r[c] = per_lane[l];
                }
            }
        } else {
            for (l, r) in results.iter_mut().enumerate() {
                *r = self.lane_op(ins, &a, &b, l)?;
            }
        }
        for (l, r) in results.iter().enumerate() {
            self.write(&d, l, *r)?;
        }
        Ok(())
    }

    /// A texture instruction for the whole quad through the hooks.
    fn sample_quad(&mut self, ins: &Instruction, a: &Source) -> Result<[Vec4; LANES], String> {
        let s = ins.sampler.ok_or("missing sampler")?;
        let coords: Vec<Vec4> = (0..LANES).map(|l| self.src(a, l, 0)).collect::<Result<_, _>>()?;
        let target = match s.dim {
            0 => TextureTarget::Tex2D,
            1 => TextureTarget::Cube,
            _ => TextureTarget::Tex3D,
        };
        let per_channel = |c: usize| -> [f32; 4] { std::array::from_fn(|l| coords[l][c]) };
        let bias = s.bias as f32 / 8.0;
        let coords = [per_channel(0), per_channel(1), per_channel(2), [0.0; 4], [bias; 4]];
        let mut request =
            Request::new(coords, if s.bias != 0 { Control::Bias } else { Control::Implicit });
        request.target = Some(target);
        let request =
            SampleRequest { sview: s.index as u32, sampler: s.index as u32, quad: 0, request };
        let hooks = self.hooks.as_mut().ok_or("no texture hooks")?;
        let rgba = hooks.get_samples(&request);
        Ok(std::array::from_fn(|l| std::array::from_fn(|c| rgba[c][l])))
    }

    fn lane_op(&self, ins: &Instruction, a: &Source, b: &Source, l: usize) -> Result<Vec4, String> {
        let x = self.src(a, l, 0)?;
        let y = if ins.src2.is_some() { self.src(b, l, 0)? } else { [0.0; 4] };
        let per = |f: &dyn Fn(f32, f32) -> f32| -> Vec4 { std::array::from_fn(|c| f(x[c], y[c])) };
        let dot3 = |p: Vec4, q: Vec4| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
        let dot4 = |p: Vec4, q: Vec4| p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
        // Transcendentals, sign and saturation are the interpreter's functions, so exported
        // programs compute what TGSI computes.
        Ok(match ins.op {
            opc::MOV => x,
            opc::ADD => per(&|p, q| lane::add(p, q)),
            opc::SUB => per(&|p, q| lane::sub(p, q)),
            opc::MUL => per(&|p, q| lane::mul(p, q)),
            opc::DIV => per(&|p, q| lane::div(p, q)),
            opc::RCP => per(&|p, _| 1.0 / p),
            opc::MIN => per(&|p, q| lane::min(p, q)),
            opc::MAX => per(&|p, q| lane::max(p, q)),
            opc::FRC => per(&|p, _| p - p.floor()),
            opc::SQT => per(&|p, _| p.sqrt()),
            opc::RSQ => per(&|p, _| 1.0 / p.sqrt()),
            opc::POW => per(&|p, q| float::pow(p, q)),
            opc::LOG => per(&|p, _| float::lg2(p)),
            opc::EXP => per(&|p, _| float::ex2(p)),
            opc::SIN => per(&|p, _| float::sin(p)),
            opc::COS => per(&|p, _| float::cos(p)),
            opc::ABS => per(&|p, _| p.abs()),
            opc::NEG => per(&|p, _| -p),
            opc::SAT => per(&|p, _| saturate(p)),
            opc::SGE => per(&|p, q| lane::sge(p, q)),
            opc::SLT => per(&|p, q| lane::slt(p, q)),
            opc::SEQ => per(&|p, q| lane::seq(p, q)),
            opc::SNE => per(&|p, q| lane::sne(p, q)),
            opc::SGN => per(&|p, _| float::ssg(p)),
            opc::DP3 => [dot3(x, y); 4],
            opc::DP4 => [dot4(x, y); 4],
            opc::NRM => {
                let r = 1.0 / dot3(x, x).sqrt();
                [x[0] * r, x[1] * r, x[2] * r, 0.0]
            }
            opc::CRS => [
                x[1] * y[2] - x[2] * y[1],
                x[2] * y[0] - x[0] * y[2],
                x[0] * y[1] - x[1] * y[0],
                0.0,
            ],
            opc::M33 | opc::M34 | opc::M44 => {
                let mut r = [0.0; 4];
                for (row, slot) in r.iter_mut().enumerate().take(matrix_rows(ins.op) as usize) {
                    let m = self.src(b, l, row as u16)?;
                    *slot = if ins.op == opc::M33 { dot3(x, m) } else { dot4(x, m) };
                }
                r
            }
            opc::TEX | opc::TED | opc::TLD => {
                let s = ins.sampler.ok_or("missing sampler")?;
                let f = self.inputs.sample.ok_or("no texture sampler was provided")?;
                f(&s, x)
            }
            _ => return Err(format!("opcode {} is not executable", ins.info().name)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agal::assemble;

    #[test]
    fn partial_masks_are_lane_positional() {
        // docs/agal.md "Semantics" 1: `mov ft0.zw, fc0.zw` (swizzle zwww) gives ft0.z = fc0.w.
        let a =
            assemble("mov ft0, fc1\nmov ft0.zw, fc0.zw\nmov oc, ft0\n", ShaderKind::Fragment, 1);
        let consts = [[1.0, 2.0, 3.0, 4.0], [0.0; 4]];
        let out = run(&a.program, &Inputs { constants: &consts, ..Inputs::default() })
            .unwrap()
            .per_lane();
        assert_eq!(out.outputs[0][0], [0.0, 0.0, 4.0, 4.0]);
    }

    #[test]
    fn m44_reads_four_rows() {
        let a = assemble("m44 op, va0, vc0\n", ShaderKind::Vertex, 1);
        let consts = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 3.0, 0.0],
            [1.0, 1.0, 1.0, 1.0],
        ];
        let attrs = [reg_from_quad(&[[1.0, 2.0, 3.0, 1.0]; LANES])];
        let out = run(
            &a.program,
            &Inputs { constants: &consts, attributes: &attrs, ..Inputs::default() },
        )
        .unwrap()
        .per_lane();
        // Rows: (1,0,0,0)·v = 1, (0,2,0,0)·v = 4, (0,0,3,0)·v = 9, (1,1,1,1)·v = 7.
        assert_eq!(out.outputs[0][2], [1.0, 4.0, 9.0, 7.0]);
    }
}
