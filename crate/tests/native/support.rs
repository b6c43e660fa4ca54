//! Entry points as the CLI and the page use them: validate, then compile or export. Tests go
//! through these so that every program they run is one `tgsi check` accepts.

use tgsi::agal::lower::{Export, ExportOptions};
use tgsi::diag::Diagnostic;
use tgsi::exec::Program;
use tgsi::ir::Shader;

/// Validate then compile; the first error when either refuses.
pub fn compile(shader: &Shader) -> Result<Program, Diagnostic> {
    tgsi::exec::build(shader).map_err(|all| {
        let first = all.iter().position(Diagnostic::is_error).unwrap_or(0);
        all.into_iter().nth(first).expect("a refusal carries a diagnostic")
    })
}

/// Validate then export to AGAL.
pub fn export(shader: &Shader, opts: &ExportOptions) -> Export {
    tgsi::agal::lower::export_checked(shader, opts)
}

/// Validate both, then export them as a linked pair (panics on a shader the validator refuses:
/// pair tests use valid programs).
pub fn export_pair(vs: &Shader, fs: &Shader, opts: &ExportOptions) -> (Export, Export) {
    let analyse = |s| {
        tgsi::valid::analyse(s, &Default::default())
            .unwrap_or_else(|d| panic!("test shader does not validate: {d:?}"))
    };
    tgsi::agal::lower::export_pair(&analyse(vs), &analyse(fs), opts)
}
