//! Linkage of vertex outputs to fragment inputs by semantic, as the Gallium semantics RFC (mesa-dev)
//! describes: an output feeds the input of the same semantic name and index; BCOLOR[n] replaces
//! COLOR[n] on back faces; an input nothing feeds reads (0, 0, 0, 1) and gets a warning.

use super::stage::{FsInterface, VsInterface};
use crate::diag::Diagnostic;
use crate::ir::{SemanticName, Span};

/// Where one fragment input register gets its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// Interpolated from a vertex output register; `back` replaces it on back faces (BCOLOR).
    Varying {
        front: u32,
        back: u32,
    },
    /// The window position (POSITION input).
    Position,
    /// +1 / −1 in x (FACE input).
    Face,
    PrimitiveId,
    /// Nothing feeds it: (0, 0, 0, 1).
    Missing,
}

/// Diagnostic code of the missing-input warning.
pub const MISSING_INPUT: &str = "R101";

/// Links every declared fragment input (parallel to `fs.inputs`), with warnings.
pub fn link(vs: &VsInterface, fs: &FsInterface) -> (Vec<InputSource>, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let sources = fs
        .inputs
        .iter()
        .map(|input| {
            let Some((name, index)) = input.semantic else {
                warnings.push(Diagnostic::warning(
                    MISSING_INPUT,
                    format!("fragment input IN[{}] has no semantic, so nothing feeds it; it reads (0, 0, 0, 1)", input.register),
                    Span::default(),
                ));
                return InputSource::Missing;
            };
            match name {
                SemanticName::Position => return InputSource::Position,
                SemanticName::Face => return InputSource::Face,
                SemanticName::PrimId => return InputSource::PrimitiveId,
                _ => {}
            }
            if let Some(uv) = vs.uv_wildcard {
                if matches!(name, SemanticName::Generic | SemanticName::TexCoord | SemanticName::Color) {
                    return InputSource::Varying { front: uv, back: uv };
                }
            }
            let front = vs.find(name, index);
            let back = if name == SemanticName::Color { vs.find(SemanticName::BColor, index) } else { None };
            match (front, back) {
                (Some(f), b) => InputSource::Varying { front: f, back: b.unwrap_or(f) },
                (None, Some(b)) => {
                    warnings.push(Diagnostic::warning(
                        MISSING_INPUT,
                        format!(
                            "fragment input {}[{}] is written only as BCOLOR[{}]: front faces read (0, 0, 0, 1)",
                            name, index, index
                        ),
                        Span::default(),
                    ));
                    InputSource::Varying { front: u32::MAX, back: b }
                }
                (None, None) => {
                    warnings.push(Diagnostic::warning(
                        MISSING_INPUT,
                        format!("fragment input {}[{}] has no matching vertex output; it reads (0, 0, 0, 1)", name, index),
                        Span::default(),
                    ));
                    InputSource::Missing
                }
            }
        })
        .collect();
    (sources, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Interp, Location};
    use crate::render::stage::{FsInput, VsOutput};

    fn fs_with(inputs: &[(SemanticName, u32)]) -> FsInterface {
        FsInterface {
            inputs: inputs
                .iter()
                .enumerate()
                .map(|(i, &(n, k))| FsInput {
                    register: i as u32,
                    semantic: Some((n, k)),
                    interp: Interp::Perspective,
                    location: Location::Center,
                    usage_mask: 0xF,
                })
                .collect(),
            input_registers: inputs.len(),
            ..FsInterface::default()
        }
    }

    #[test]
    fn links_by_semantic_and_index() {
        let vs = VsInterface {
            outputs: vec![
                VsOutput { register: 0, semantic: SemanticName::Position, index: 0 },
                VsOutput { register: 1, semantic: SemanticName::Generic, index: 3 },
                VsOutput { register: 2, semantic: SemanticName::Color, index: 0 },
                VsOutput { register: 3, semantic: SemanticName::BColor, index: 0 },
            ],
            ..VsInterface::default()
        };
        let fs = fs_with(&[
            (SemanticName::Generic, 3),
            (SemanticName::Color, 0),
            (SemanticName::Generic, 1),
        ]);
        let (s, w) = link(&vs, &fs);
        assert_eq!(s[0], InputSource::Varying { front: 1, back: 1 });
        assert_eq!(s[1], InputSource::Varying { front: 2, back: 3 });
        assert_eq!(s[2], InputSource::Missing);
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("GENERIC[1]"));
    }
}
