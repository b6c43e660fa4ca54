//! The validator: tgsi_sanity's checks and the many Mesa misses (Mesa's `tgsi_sanity.c`),
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
use crate::opcode::Opcode;

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
        let legacy = shader.instructions.iter().any(|i| i.opcode.info().is_legacy());
        Context { shader, legacy, decls: regmap::DeclMap::build(shader) }
    }
}

/// Validates one shader. Diagnostics carry spans; call `diag::locate` to fill lines.
/// They come sorted by position (then by code), so output is stable.
pub fn check(shader: &Shader, options: &Options) -> Vec<Diagnostic> {
    let (profile, mut out) = resolve_profile(shader, options);
    out.extend(run(shader, profile).0);
    sort(&mut out);
    crate::limits::cap_diagnostics(&mut out);
    out
}

/// Validates one shader against an explicit limit profile (for callers with their own limits,
/// such as an exporter for a smaller target). Same output as [`check`].
pub fn check_with_profile(shader: &Shader, profile: &Profile) -> Vec<Diagnostic> {
    run(shader, profile).0
}

/// Validates and, when there is no error, returns the analysed program every later stage takes
/// (`exec::compile`, the render pipeline, the AGAL export, the page's panels). `Err` holds every
/// diagnostic (errors and warnings, sorted) when there is at least one error; `Ok` keeps the
/// warnings. This is the one place where the structure of a program is decided.
pub fn analyse<'s>(shader: &'s Shader, options: &Options) -> Result<Analysed<'s>, Vec<Diagnostic>> {
    let (profile, mut out) = resolve_profile(shader, options);
    let (found, structure) = run(shader, profile);
    out.extend(found);
    sort(&mut out);
    crate::limits::cap_diagnostics(&mut out);
    if out.iter().any(Diagnostic::is_error) {
        return Err(out);
    }
    Ok(Analysed {
        shader,
        structure,
        warnings: out,
        profile,
        decls: regmap::DeclMap::build(shader),
    })
}

/// A shader the validator accepted, with what the validator worked out about it. Only
/// [`analyse`] makes one, so a stage that takes an `Analysed` never sees an unvalidated program
/// and never re-derives structure (the type system enforces it: the fields are private).
pub struct Analysed<'s> {
    shader: &'s Shader,
    structure: control_flow::Structure,
    warnings: Vec<Diagnostic>,
    profile: &'static Profile,
    decls: regmap::DeclMap,
}

impl<'s> Analysed<'s> {
    pub fn shader(&self) -> &'s Shader {
        self.shader
    }
    /// Warnings and notes of the validation (it had no error).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }
    pub fn profile(&self) -> &'static Profile {
        self.profile
    }
    /// The matched blocks: every structural instruction with its partner and end, sorted by
    /// instruction index (the table in [`BlockTarget`]'s documentation).
    pub fn targets(&self) -> &[BlockTarget] {
        &self.structure.targets
    }
    /// The matched block of instruction `at`, if it is a structural instruction.
    pub fn target(&self, at: usize) -> Option<&BlockTarget> {
        target_of(&self.structure.targets, at)
    }
    /// Deepest nesting of IF, loops and SWITCH together.
    pub fn max_depth(&self) -> usize {
        self.structure.max_depth
    }
    /// Deepest nesting of IF, loops and SWITCH, each counted on its own.
    pub fn construct_depths(&self) -> [usize; 3] {
        let s = &self.structure;
        [s.max_cond_depth, s.max_loop_depth, s.max_switch_depth]
    }
    /// Deepest chain of subroutine calls from the main program.
    pub fn call_depth(&self) -> usize {
        self.structure.call_depth
    }
    /// The subroutines as (BGNSUB, ENDSUB) instruction indices, in program order.
    pub fn subroutines(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.targets().iter().filter(|t| t.opcode == Opcode::BGNSUB).map(|t| (t.at, t.partner))
    }
    /// The resolved declarations: which register of which file is declared.
    pub fn declarations(&self) -> &regmap::DeclMap {
        &self.decls
    }
}

fn resolve_profile(shader: &Shader, options: &Options) -> (&'static Profile, Vec<Diagnostic>) {
    match options.profile.as_deref() {
        None => (limits::Profile::default_profile(), Vec::new()),
        Some(name) => match limits::Profile::by_name(name) {
            Some(p) => (p, Vec::new()),
            None => (
                limits::Profile::default_profile(),
                vec![Diagnostic::warning(
                    "V500",
                    format!(
                        "unknown limit profile '{}'; using '{}'",
                        name,
                        limits::DEFAULT_PROFILE
                    ),
                    shader.header_span,
                )],
            ),
        },
    }
}

fn sort(out: &mut Vec<Diagnostic>) {
    crate::sort::sort_by(out, |a, b| (a.span.start, a.code).cmp(&(b.span.start, b.code)));
}

/// Every pass, once: the diagnostics (sorted) and the control-flow structure.
fn run(shader: &Shader, profile: &Profile) -> (Vec<Diagnostic>, control_flow::Structure) {
    let mut out = Vec::new();
    let cx = Context::new(shader);
    declarations::check(&cx, profile, &mut out);
    let mut structure = control_flow::analyze(shader);
    out.append(&mut structure.diagnostics);
    operands::check(&cx, &mut out);
    stages::check(&cx, &mut out);
    semantics::check(&cx, &mut out);
    limits::check(&cx, &structure, profile, &mut out);
    usage::check(&cx, &mut out);
    sort(&mut out);
    (out, structure)
}

/// Checks the linkage between a vertex shader and a fragment shader.
/// Diagnostics about the vertex shader are returned first, then those about the fragment shader.
pub fn link(vs: &Shader, fs: &Shader) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    linkage::link(vs, fs)
}
