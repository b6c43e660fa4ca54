//! The validator: tgsi_sanity's checks and the many Mesa misses (`mesa-tgsi-notes.md` §4),
//! control flow, operands, stages, semantics, linkage and limits. One file per concern.

use crate::diag::Diagnostic;
use crate::ir::Shader;

/// Options for [`check`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Name of the resource-limit profile ("tgsi_exec" by default, "agal1"/"agal2" from AGAL).
    pub profile: Option<String>,
}

/// Validates one shader. Diagnostics carry spans; call `diag::locate` to fill lines.
pub fn check(_shader: &Shader, _options: &Options) -> Vec<Diagnostic> {
    Vec::new()
}

/// Checks the linkage between a vertex shader and a fragment shader.
/// Diagnostics about the vertex shader are returned first, then those about the fragment shader.
pub fn link(_vs: &Shader, _fs: &Shader) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    (Vec::new(), Vec::new())
}
