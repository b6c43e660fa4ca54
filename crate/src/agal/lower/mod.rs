//! TGSI → AGAL export (`docs/agal.md`): register mapping, instruction lowering, register
//! allocation by liveness, choice of the lowest AGAL version that fits, and the constant layout
//! the host must upload. Constructs AGAL cannot express are refused with a diagnostic naming the
//! instruction and the reason.

mod alloc;
mod bools;
mod instr;
mod io;
pub mod layout;
mod operands;

use crate::agal::bytecode::*;
use crate::agal::{codec, disasm, validate};
use crate::diag::Diagnostic;
use crate::ir::{File, Processor, SemanticName, Shader, Span};
use crate::valid::Analysed;
pub use layout::{default_varying, Binding, ConstSlot, Layout, VaryingKey};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Sampler state the shader text does not carry (TGSI keeps it in the host's sampler objects).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SamplerState {
    /// Nibble values of docs/agal.md "Sampler".
    pub filter: u8,
    pub mip: u8,
    pub wrap: u8,
}

impl Default for SamplerState {
    /// linear, mipnone, clamp.
    fn default() -> Self {
        SamplerState { filter: 1, mip: 0, wrap: 0 }
    }
}

/// Options of the export.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// AGAL version to produce; `None` picks the lowest that fits.
    pub version: Option<u32>,
    /// Explicit varying order (slot i = entry i); `None` uses [`default_varying`].
    pub varyings: Option<Vec<VaryingKey>>,
    /// Per-sampler state, by SAMP/SVIEW index.
    pub samplers: BTreeMap<u32, SamplerState>,
}

/// The result of an export.
#[derive(Clone, Debug, Serialize)]
pub struct Export {
    pub program: Option<Program>,
    pub version: u32,
    pub bytes: Vec<u8>,
    pub assembly: String,
    pub layout: Layout,
    /// Refusals and limit errors (with TGSI spans), plus warnings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Lowering state for one shader at one AGAL version.
pub(crate) struct Lower<'a> {
    pub shader: &'a Shader,
    pub kind: ShaderKind,
    pub version: u32,
    pub opts: &'a ExportOptions,
    pub code: Vec<Instruction>,
    /// TGSI instruction index each AGAL instruction came from.
    pub origin: Vec<Option<usize>>,
    pub current: Option<usize>,
    next_virtual: u32,
    virtuals: HashMap<(File, u32), u16>,
    pub imm_base: u16,
    /// Constant registers after CONST: immediates and internal values, packed (bits, label).
    pub pool: Vec<[Option<(u32, String)>; 4]>,
    pub samplers: BTreeMap<u16, (Sampler, String)>,
    pub varyings_used: BTreeMap<u16, VaryingKey>,
    pub diags: Vec<Diagnostic>,
    pub layout: Layout,
    /// Which TEMP components hold integer booleans, kept as 1.0/0.0 (`bools.rs`).
    pub bools: bools::Bools,
}

/// Virtual temporaries are numbered below this; more means the shader is absurdly large.
const MAX_VIRTUALS: u32 = 60_000;

/// Lowered programs longer than this cannot fit any version (AGAL 3: 2048 tokens, docs/agal.md
/// "Limits per version").
const MAX_LOWERED: usize = 4096;

impl<'a> Lower<'a> {
    fn new(
        shader: &'a Shader,
        kind: ShaderKind,
        version: u32,
        opts: &'a ExportOptions,
    ) -> Lower<'a> {
        // CONST[i] stays at register i; immediates follow the last declared constant.
        let const_end = shader
            .declarations
            .iter()
            .filter(|d| d.file == File::Const)
            .map(|d| d.range.last as u64 + 1)
            .max()
            .unwrap_or(0)
            .min(u16::MAX as u64 / 2) as u16;
        Lower {
            shader,
            kind,
            version,
            opts,
            code: Vec::new(),
            origin: Vec::new(),
            current: None,
            next_virtual: 0,
            virtuals: HashMap::new(),
            imm_base: const_end,
            pool: Vec::new(),
            samplers: BTreeMap::new(),
            varyings_used: BTreeMap::new(),
            diags: Vec::new(),
            layout: Layout::default(),
            bools: bools::Bools::default(),
        }
    }

    pub fn span(&self) -> Span {
        self.current
            .and_then(|i| self.shader.instructions.get(i))
            .map(|i| i.span)
            .unwrap_or_default()
    }

    /// Reports a construct AGAL cannot express.
    pub fn refuse(&mut self, span: Span, msg: impl Into<String>) {
        let name = self
            .current
            .and_then(|i| self.shader.instructions.get(i))
            .map(|i| i.opcode.name())
            .unwrap_or("shader");
        let span = if span.is_empty() { self.span() } else { span };
        self.diags.push(Diagnostic::error("A0200", format!("{}: {}", name, msg.into()), span));
    }

    pub fn refuse_none<T>(&mut self, span: Span, msg: impl Into<String>) -> Option<T> {
        self.refuse(span, msg);
        None
    }

    pub fn new_virtual(&mut self) -> Option<u16> {
        if self.next_virtual >= MAX_VIRTUALS {
            let span = self.span();
            return self
                .refuse_none(span, "the shader needs more temporaries than the export can track");
        }
        self.next_virtual += 1;
        Some((self.next_virtual - 1) as u16)
    }

    /// The virtual temporary standing for a TGSI TEMP, OUT or ADDR register.
    pub fn temp_virtual(&mut self, file: File, index: u32) -> Option<u16> {
        if let Some(&v) = self.virtuals.get(&(file, index)) {
            return Some(v);
        }
        let v = self.new_virtual()?;
        self.virtuals.insert((file, index), v);
        Some(v)
    }

    pub fn varying_slot(&mut self, key: VaryingKey, span: Span) -> Option<u16> {
        let slot = match &self.opts.varyings {
            Some(order) => order.iter().position(|k| *k == key).and_then(|p| u16::try_from(p).ok()),
            None => default_varying(key),
        };
        match slot {
            Some(s) => match self.varyings_used.get(&s) {
                Some(other) if *other != key => {
                    let msg = format!(
                        "{}[{}] and {}[{}] both map to v{} under the fixed varying rule; export the vertex and fragment shaders together",
                        key.0.name(),
                        key.1,
                        other.0.name(),
                        other.1,
                        s
                    );
                    self.refuse_none(span, msg)
                }
                _ => {
                    self.varyings_used.insert(s, key);
                    Some(s)
                }
            },
            None => self.refuse_none(
                span,
                format!(
                    "{}[{}] has no varying slot (COLOR[0..1], GENERIC[k] and TEXCOORD[k] do)",
                    key.0.name(),
                    key.1
                ),
            ),
        }
    }

    /// Appends an instruction; a second constant source is first copied to a temporary
    /// (Flash's `#3625`).
    pub fn emit(&mut self, op: u8, dest: Option<Dest>, a: Option<Source>, b: Option<Source>) {
        let mut a = a;
        if let (Some(x), Some(y)) = (a, b) {
            if x.reg == RegType::Constant && y.reg == RegType::Constant {
                if let Some(t) = self.new_virtual() {
                    self.push(Instruction {
                        op: opc::MOV,
                        dest: Some(Dest { reg: RegType::Temporary, index: t, mask: 0xF }),
                        src1: Some(x),
                        src2: None,
                        sampler: None,
                    });
                    a = Some(Source::direct(RegType::Temporary, t, SWIZZLE_IDENTITY));
                }
            }
        }
        self.push(Instruction { op, dest, src1: a, src2: b, sampler: None });
    }

    pub fn push(&mut self, ins: Instruction) {
        self.code.push(ins);
        self.origin.push(self.current);
    }

    pub fn virtual_of(&self, file: File, index: u32) -> Option<u16> {
        self.virtuals.get(&(file, index)).copied()
    }
}

/// Findings that a higher AGAL version may not have: allocation, token count, AGAL 2 opcodes,
/// register bounds (docs/agal.md "Limits per version").
const VERSION_LIMIT_CODES: &[&str] = &[
    "A0201", "A3629", "A3726", "A3656", "A3657", "A3658", "A3659", "A3660", "A3661", "A3749",
    "A3789",
];

/// Exports one vertex or fragment shader that the validator accepted.
pub fn export(analysed: &Analysed, opts: &ExportOptions) -> Export {
    let shader = analysed.shader();
    let kind = match shader.processor {
        Processor::Vertex => ShaderKind::Vertex,
        Processor::Fragment => ShaderKind::Fragment,
        other => {
            let d = Diagnostic::error(
                "A0200",
                format!(
                    "{} shaders cannot be exported: AGAL has only vertex and fragment programs",
                    other.name()
                ),
                shader.header_span,
            );
            return failed(1, vec![d]);
        }
    };
    let versions: Vec<u32> = match opts.version {
        Some(v) => vec![v],
        None => vec![1, 2, 3],
    };
    let mut last = failed(1, Vec::new());
    for v in versions {
        let attempt = export_at(shader, kind, v, opts);
        // Only limit errors can go away in a later version: stop at the first attempt without
        // them, so other errors are reported for the lowest version that has no limit noise.
        let limit_errors = attempt
            .diagnostics
            .iter()
            .any(|d| d.is_error() && VERSION_LIMIT_CODES.contains(&d.code));
        if attempt.program.is_some() || !limit_errors {
            return attempt;
        }
        last = attempt;
    }
    last
}

/// Validates, then exports: a shader the validator refuses gives its diagnostics and no
/// program. What the CLI, the wasm API and the tests call with a parsed shader.
pub fn export_checked(shader: &Shader, opts: &ExportOptions) -> Export {
    match crate::valid::analyse(shader, &crate::valid::Options::default()) {
        Ok(a) => export(&a, opts),
        Err(all) => failed(1, all),
    }
}

fn failed(version: u32, diagnostics: Vec<Diagnostic>) -> Export {
    Export {
        program: None,
        version,
        bytes: Vec::new(),
        assembly: String::new(),
        layout: Layout::default(),
        diagnostics,
    }
}

/// One attempt at a fixed version: lower, allocate, validate.
fn export_at(shader: &Shader, kind: ShaderKind, version: u32, opts: &ExportOptions) -> Export {
    let mut l = Lower::new(shader, kind, version, opts);
    instr::lower_all(&mut l);
    if crate::diag::has_errors(&l.diags) {
        return failed(version, l.diags);
    }
    if l.code.len() > MAX_LOWERED {
        // Beyond every version's token limit: stop before the quadratic passes.
        let d = Diagnostic::error(
            "A3629",
            format!(
                "the shader lowers to more than {} AGAL instructions; AGAL 3 allows 2048 tokens",
                MAX_LOWERED
            ),
            shader.header_span,
        );
        return failed(version, vec![d]);
    }
    alloc::finish(&mut l);
    if crate::diag::has_errors(&l.diags) {
        return failed(version, l.diags);
    }
    let program = Program { version, kind, code: std::mem::take(&mut l.code) };
    let spans: Vec<Span> = l
        .origin
        .iter()
        .map(|o| {
            o.and_then(|i| shader.instructions.get(i)).map(|i| i.span).unwrap_or(shader.header_span)
        })
        .collect();
    let mut diags = l.diags;
    let findings = validate::validate(&program);
    let errors = findings.iter().any(|f| f.severity == crate::diag::Severity::Error);
    diags.extend(findings.iter().map(|f| {
        let mut d = f.to_diagnostic(&spans, shader.header_span);
        d.message = format!("AGAL {}: {}", version, d.message);
        d
    }));
    if errors {
        return failed(version, diags);
    }
    Export {
        bytes: codec::encode(&program),
        assembly: disasm::disassemble(&program),
        layout: l.layout,
        program: Some(program),
        version,
        diagnostics: diags,
    }
}

/// The semantics a vertex shader writes / a fragment shader reads, for packing varyings.
fn varying_keys(shader: &Shader, file: File) -> Vec<VaryingKey> {
    shader
        .distinct_declarations()
        .into_iter()
        .filter(|d| d.file == file)
        .filter_map(|d| d.semantic)
        .filter(|s| {
            !matches!(
                s.name,
                SemanticName::Position
                    | SemanticName::Face
                    | SemanticName::Psize
                    | SemanticName::EdgeFlag
            )
        })
        .map(|s| (s.name, s.index))
        .collect()
}

/// Exports a vertex and a fragment shader together: varyings are packed into consecutive `v`
/// registers (colors first, then GENERIC/TEXCOORD by index) and both programs get the same AGAL
/// version (Flash's `#3757`).
pub fn export_pair(
    vs_analysed: &Analysed,
    fs_analysed: &Analysed,
    opts: &ExportOptions,
) -> (Export, Export) {
    let (vs, fs) = (vs_analysed.shader(), fs_analysed.shader());
    let mut keys = varying_keys(vs, File::Out);
    keys.extend(varying_keys(fs, File::In));
    keys.sort_by_key(|k| (k.0 != SemanticName::Color, k.1, k.0));
    keys.dedup();
    let mut o = opts.clone();
    if o.varyings.is_none() {
        o.varyings = Some(keys);
    }
    let mut a = export(vs_analysed, &o);
    let mut b = export(fs_analysed, &o);
    if o.version.is_none() && a.program.is_some() && b.program.is_some() && a.version != b.version {
        o.version = Some(a.version.max(b.version));
        a = export(vs_analysed, &o);
        b = export(fs_analysed, &o);
    }
    // Linkage rules (#3757, #3632) are reported on the fragment side.
    if let (Some(pa), Some(pb)) = (&a.program, &b.program) {
        for f in crate::agal::flow::validate_link(pa, pb) {
            b.diagnostics.push(f.to_diagnostic(&[], fs.header_span));
        }
    }
    (a, b)
}
