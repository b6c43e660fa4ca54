//! Validator: the rules Flash enforces when a program is uploaded (docs/agal.md "Opcodes", "Limits
//! per version", "Semantics"), each finding tagged with Flash's error number (`A` + number,
//! docs/agal.md "Diagnostic codes"). Per-instruction operand rules are here; whole-program rules
//! (temporaries, outputs, conditionals, linkage) are in `flow.rs`.

use super::bytecode::*;
use super::flow::Flow;
use crate::diag::{Diagnostic, Severity};
use crate::ir::Span;
use serde::Serialize;

/// One rule violation. `token` is the 0-based instruction index, or `None` for the program as a
/// whole.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub token: Option<usize>,
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
}

impl Finding {
    pub fn error(token: Option<usize>, code: &'static str, message: impl Into<String>) -> Finding {
        Finding { token, severity: Severity::Error, code, message: message.into() }
    }
    pub fn warning(
        token: Option<usize>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Finding {
        Finding { token, severity: Severity::Warning, code, message: message.into() }
    }
    /// As a diagnostic; `spans[token]` is the span of the instruction (assembly line or token
    /// bytes). Program-wide findings point at `whole`.
    pub fn to_diagnostic(&self, spans: &[Span], whole: Span) -> Diagnostic {
        let span = self.token.and_then(|t| spans.get(t).copied()).unwrap_or(whole);
        Diagnostic::new(self.severity, self.code, self.message.clone(), span)
    }
}

/// Span of each token's bytes in an encoded program (for diagnostics on binary input).
pub fn token_spans(p: &Program) -> Vec<Span> {
    (0..p.code.len()).map(|i| Span::new(7 + 24 * i, 7 + 24 * (i + 1))).collect()
}

/// Checks one program against the rules of docs/agal.md "Opcodes", docs/agal.md "Limits per
/// version" and docs/agal.md "Semantics".
pub fn validate(p: &Program) -> Vec<Finding> {
    let mut out = Vec::new();
    if !(1..=3).contains(&p.version) {
        out.push(Finding::error(
            None,
            "A3617",
            format!("AGAL version {} is not defined (1, 2 or 3)", p.version),
        ));
    }
    if p.code.is_empty() {
        out.push(Finding::error(None, "A3615", "the program has no instructions"));
    }
    let lim = limits(p.version);
    if p.code.len() > lim.tokens {
        out.push(Finding::error(
            None,
            "A3629",
            format!(
                "{} instructions exceed the AGAL {} limit of {} tokens",
                p.code.len(),
                p.version,
                lim.tokens
            ),
        ));
    }
    let mut flow = Flow::new(p);
    for (i, ins) in p.code.iter().enumerate() {
        let c = Check { p, lim: &lim, token: i, ins, out: &mut out };
        c.run();
        flow.step(i, ins, &mut out);
    }
    flow.finish(&mut out);
    out
}

struct Check<'a> {
    p: &'a Program,
    lim: &'a Limits,
    token: usize,
    ins: &'a Instruction,
    out: &'a mut Vec<Finding>,
}

impl Check<'_> {
    fn err(&mut self, code: &'static str, msg: impl Into<String>) {
        self.out.push(Finding::error(Some(self.token), code, msg));
    }

    fn name(&self, reg: RegType, index: u16) -> String {
        super::disasm::reg_text(reg, index, self.p.kind)
    }

    fn run(mut self) {
        let Some(info) = op_info(self.ins.op) else {
            self.err("A3620", format!("opcode 0x{:x} is not an AGAL opcode", self.ins.op));
            return;
        };
        let vertex = self.p.kind == ShaderKind::Vertex;
        if info.code == opc::TED {
            self.err("A3621", "ted is not available in any AGAL version Adobe's tools produce");
        } else if info.min_version > 3 {
            self.err("A3805", format!("{} (vertex texture fetch) needs AGAL version 4", info.name));
        } else if info.min_version > self.p.version {
            self.err(
                "A3726",
                format!("{} needs AGAL version {} or later", info.name, info.min_version),
            );
        }
        match info.stage {
            Stage::FragmentOnly if vertex => {
                self.err("A3622", format!("{} is only allowed in fragment programs", info.name))
            }
            Stage::VertexOnly if !vertex => {
                self.err("A3803", format!("{} is only allowed in vertex programs", info.name))
            }
            _ => {}
        }
        if let Some(d) = self.ins.dest {
            self.dest(info, d);
        }
        let mut indirect = 0;
        let mut constants = 0;
        for s in self.ins.sources().copied().collect::<Vec<_>>() {
            self.source(s);
            indirect += s.indirect.is_some() as u32;
            constants += (s.reg == RegType::Constant) as u32;
            if info.scalar && !s.is_replicated() {
                self.err(
                    "A3703",
                    format!(
                        "{} needs a scalar operand with a replicated swizzle such as .x, found {}",
                        info.name,
                        super::disasm::source_text(&s, self.p.kind)
                    ),
                );
            }
        }
        if indirect > 1 {
            self.err("A3626", "both sources are addressed indirectly");
        }
        if constants > 1 && !info.scalar {
            // Flash has this message; whether it is enforced is not verified (docs/agal.md
            // "Opcodes"), so warn.
            self.out.push(Finding::warning(
                Some(self.token),
                "A3625",
                "both sources are constants (Flash may reject this; precompute the value)",
            ));
        }
        if let Some(s) = self.ins.sampler {
            self.sampler(s);
        }
    }

    fn bound(&mut self, reg: RegType, index: u16) {
        let count = self.lim.count(reg, self.p.kind);
        if index < count {
            return;
        }
        let code = match reg {
            RegType::Sampler => "A3656",
            RegType::Varying => "A3657",
            RegType::Attribute => "A3658",
            RegType::Constant => "A3659",
            RegType::Output => "A3660",
            RegType::Temporary => "A3661",
            RegType::Depth => "A3749",
            RegType::InstanceId => "A3789",
        };
        let msg = format!(
            "{} is out of bounds: AGAL {} {} programs have {} such register(s)",
            self.name(reg, index),
            self.p.version,
            self.p.kind.word(),
            count
        );
        self.err(code, msg);
    }

    fn dest(&mut self, info: &OpInfo, d: Dest) {
        let vertex = self.p.kind == ShaderKind::Vertex;
        let n = self.name(d.reg, d.index);
        match d.reg {
            RegType::Attribute => self.err("A3651", format!("attribute {} cannot be written", n)),
            RegType::Constant => self.err("A3652", format!("constant {} cannot be written", n)),
            RegType::Sampler => self.err("A3649", format!("sampler {} cannot be written", n)),
            RegType::InstanceId => self.err("A3788", "the instance id cannot be written"),
            RegType::Varying if !vertex => {
                self.err("A3650", format!("varying {} can only be written in vertex programs", n))
            }
            RegType::Depth if vertex => {
                self.err("A3750", "the depth output is only available in fragment programs")
            }
            RegType::Depth => {
                self.bound(d.reg, d.index);
                if d.mask != 1 {
                    self.err("A3756", "the depth output must be written with mask .x");
                }
            }
            _ => self.bound(d.reg, d.index),
        }
        if d.reg == RegType::Output && !vertex && d.mask != 0xF {
            self.err(
                "A3701",
                format!("color output {} must be written in full (all four components)", n),
            );
        }
        if info.xyz_dest && d.mask & 0x8 != 0 {
            self.err("A3628", format!("{} produces three components; its destination must not include w (mask it .xyz)", info.name));
        }
    }

    fn source(&mut self, s: Source) {
        let vertex = self.p.kind == ShaderKind::Vertex;
        match s.reg {
            RegType::Sampler => self
                .err("A3638", "a sampler can only be the sampler operand of a texture instruction"),
            RegType::Attribute if !vertex => {
                self.err("A3645", "attributes can only be read in vertex programs")
            }
            RegType::Varying if vertex => {
                self.err("A3644", "varyings can only be read in fragment programs")
            }
            RegType::Output | RegType::Depth => {
                self.err("A3646", "output registers cannot be read")
            }
            RegType::InstanceId if !vertex || self.p.version < 3 => {
                self.err("A3789", "the instance id (iid) needs an AGAL 3 vertex program")
            }
            _ if s.indirect.is_none() => self.bound(s.reg, s.index),
            _ => {}
        }
        let Some(ir) = s.indirect else { return };
        if !vertex {
            self.err("A3639", "indirect addressing is only allowed in vertex programs");
        }
        if s.reg != RegType::Constant {
            self.err("A3640", "indirect addressing can only read constants");
        }
        match ir.reg {
            RegType::Attribute | RegType::Constant | RegType::Temporary => {
                self.bound(ir.reg, ir.index)
            }
            _ => self
                .err("A3642", "the index register must be an attribute, a constant or a temporary"),
        }
    }

    fn sampler(&mut self, s: Sampler) {
        self.bound(RegType::Sampler, s.index);
        if s.dim == 1 && s.wrap != 0 {
            self.err("A3662", format!("cube sampler fs{} must use clamp wrapping", s.index));
        }
        if s.filter >= 2 && self.p.kind == ShaderKind::Vertex {
            self.err("A3804", "anisotropic filtering is not available to vertex samplers");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agal::assemble;

    fn codes(kind: ShaderKind, version: u32, text: &str) -> Vec<&'static str> {
        let a = assemble(text, kind, version);
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        validate(&a.program).into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn valid_programs_have_no_findings() {
        assert_eq!(
            codes(ShaderKind::Vertex, 1, "m44 op, va0, vc0\nmov v0, va1\n"),
            Vec::<&str>::new()
        );
        assert_eq!(
            codes(
                ShaderKind::Fragment,
                1,
                "tex ft0, v0, fs0 <2d,linear,mipnone,repeat>\nmov oc, ft0\n"
            ),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn each_operand_rule_has_its_flash_number() {
        let f = ShaderKind::Fragment;
        let v = ShaderKind::Vertex;
        assert!(codes(v, 1, "nrm vt0, va0\nmov op, vt0\n").contains(&"A3628"));
        assert!(codes(f, 1, "kil v0.xy\nmov oc, v0\n").contains(&"A3703"));
        assert!(codes(f, 1, "mov oc.xyz, v0\n").contains(&"A3701"));
        assert!(codes(v, 1, "mov vt0, vc[vt1.x+3]\nmov op, vt0\n").contains(&"A3647"));
        assert!(
            codes(f, 1, "tex ft0, v0, fs0 <cube,linear,repeat>\nmov oc, ft0\n").contains(&"A3662")
        );
        assert!(codes(v, 2, "mov vt0, vc[va0.x+1]\nadd op, vt0, vc[va1.x+2]\n").is_empty());
    }
}
