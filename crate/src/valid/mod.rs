//! The validator: tgsi_sanity's checks and the many Mesa misses (`mesa-tgsi-notes.md` §4),
//! control flow, operands, stages, semantics, linkage and limits. One file per concern.
//!
//! Every rule reports a [`Diagnostic`] with a stable code (`V…` for one shader, `L…` for the
//! linkage of two), a one-line message, the span it is about and, where it helps, a related
//! note. Every pass is linear (or `n log n`) in the size of the program text: register ranges
//! are handled as intervals and never expanded, so `TEMP[0..4000000000]` costs nothing.
//! The list of codes, with examples, is in `docs/diagnostics.md`.

pub mod control_flow;
pub mod declarations;
pub mod limits;
pub mod linkage;
pub mod operands;
pub mod regmap;
pub mod report;
pub mod semantics;
pub mod stages;
pub mod usage;

#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod unit_tests;

use crate::diag::Diagnostic;
use crate::ir::Shader;
use crate::opcode::{OpInfo, Opcode, OPCODES};

pub use control_flow::{match_blocks, target_of, BlockTarget};
pub use limits::Profile;

/// Options for [`check`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Name of the resource-limit profile ("tgsi_exec" by default, "agal1"/"agal2" from AGAL).
    pub profile: Option<String>,
}

/// What the passes share: the shader, its dialect and the declaration lookup.
pub(crate) struct Context<'a> {
    pub shader: &'a Shader,
    /// The shader uses a removed (2010-era) opcode: some rules soften to warnings.
    pub legacy: bool,
    pub decls: regmap::DeclMap,
}

impl<'a> Context<'a> {
    pub fn new(shader: &'a Shader) -> Context<'a> {
        let legacy =
            shader.instructions.iter().any(|i| op_info(i.opcode).is_some_and(|o| o.is_legacy()));
        Context { shader, legacy, decls: regmap::DeclMap::build(shader) }
    }
}

/// The table row of an opcode, or `None` for a number outside the table or an unused number
/// (a gap). Never panics, unlike `Opcode::info` on hand-built IR.
pub fn op_info(op: Opcode) -> Option<&'static OpInfo> {
    OPCODES.get(op.0 as usize).filter(|o| !o.is_gap())
}

/// Validates one shader. Diagnostics carry spans; call `diag::locate` to fill lines.
/// They come sorted by position (then by code), so output is stable.
pub fn check(shader: &Shader, options: &Options) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let profile = match options.profile.as_deref() {
        None => limits::Profile::default_profile(),
        Some(name) => match limits::Profile::by_name(name) {
            Some(p) => p,
            None => {
                out.push(Diagnostic::warning(
                    "V500",
                    format!(
                        "unknown limit profile '{}'; using '{}'",
                        name,
                        limits::DEFAULT_PROFILE
                    ),
                    shader.header_span,
                ));
                limits::Profile::default_profile()
            }
        },
    };
    out.extend(check_with_profile(shader, profile));
    out.sort_by(|a, b| (a.span.start, a.code).cmp(&(b.span.start, b.code)));
    out
}

/// Validates one shader against an explicit limit profile (for callers with their own limits,
/// such as an exporter for a smaller target). Same output as [`check`].
pub fn check_with_profile(shader: &Shader, profile: &Profile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let cx = Context::new(shader);
    declarations::check(&cx, &mut out);
    let mut structure = control_flow::analyze(shader);
    out.append(&mut structure.diagnostics);
    operands::check(&cx, &mut out);
    stages::check(&cx, &mut out);
    semantics::check(&cx, &mut out);
    limits::check(&cx, &structure, profile, &mut out);
    usage::check(&cx, &mut out);
    out.sort_by(|a, b| (a.span.start, a.code).cmp(&(b.span.start, b.code)));
    out
}

/// Checks the linkage between a vertex shader and a fragment shader.
/// Diagnostics about the vertex shader are returned first, then those about the fragment shader.
pub fn link(vs: &Shader, fs: &Shader) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    linkage::link(vs, fs)
}
