//! Per-stage rules (`tgsi.rst` "Properties" and
//! "Semantics"): opcodes reserved to one stage (V301: KILL, DDX, INTERP_* in fragment shaders,
//! EMIT/ENDPRIM in geometry shaders, BARRIER in compute shaders), shared memory only in compute
//! (V302), system values (V303) and properties (V304) per stage, no semantics or interpolation
//! on vertex-shader inputs (V305), what a fragment shader may output (V306), sampling with an
//! implicit level of detail outside fragment shaders (V307, a warning: derivatives exist only
//! across a fragment quad, tgsi_exec.c `micro_ddx`) and the properties a geometry shader needs
//! (V308, a warning).

use super::Context;
use crate::diag::Diagnostic;
use crate::ir::{DclExtra, File, MemoryKind, Processor, PropertyName, SemanticName};
use crate::opcode::{
    Opcode, StageMask, S_ALL, S_COMP, S_FRAG, S_GEOM, S_TESS_CTRL, S_TESS_EVAL, S_VERT,
};

fn bit(p: Processor) -> StageMask {
    1 << p.index()
}

/// Names of the stages in a mask, for messages ("fragment", "geometry and tessellation control").
fn stage_words(mask: StageMask) -> String {
    let words: Vec<&str> = [
        (S_VERT, "vertex"),
        (S_FRAG, "fragment"),
        (S_GEOM, "geometry"),
        (S_TESS_CTRL, "tessellation control"),
        (S_TESS_EVAL, "tessellation evaluation"),
        (S_COMP, "compute"),
    ]
    .iter()
    .filter(|(m, _)| mask & m != 0)
    .map(|(_, w)| *w)
    .collect();
    match words.as_slice() {
        [] => "no".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

fn stage_word(p: Processor) -> String {
    stage_words(bit(p))
}

/// Stages that provide a system value (`DCL SV[n], NAME`); 0 = not a system value.
pub fn system_value_stages(name: SemanticName) -> StageMask {
    use SemanticName::*;
    match name {
        Position | Face | SampleId | SamplePos | SampleMask | HelperInvocation => S_FRAG,
        PrimId => S_GEOM | S_TESS_CTRL | S_TESS_EVAL | S_FRAG,
        InstanceId | VertexId | VertexIdNoBase | BaseVertex | BaseInstance | DrawId => S_VERT,
        GridSize | BlockId | BlockSize | ThreadId | WorkDim | CsUserDataAmd => S_COMP,
        InvocationId => S_GEOM | S_TESS_CTRL,
        TessCoord => S_TESS_EVAL,
        TessOuter | TessInner => S_TESS_CTRL | S_TESS_EVAL,
        VerticesIn => S_GEOM | S_TESS_CTRL | S_TESS_EVAL,
        SubgroupSize | SubgroupInvocation | SubgroupEqMask | SubgroupGeMask | SubgroupGtMask
        | SubgroupLeMask | SubgroupLtMask | Layer | ViewportIndex | ViewportMask => S_ALL,
        _ => 0,
    }
}

/// Stages a property applies to.
pub fn property_stages(name: PropertyName) -> StageMask {
    use PropertyName::*;
    match name {
        GsInputPrimitive | GsOutputPrimitive | GsMaxOutputVertices | GsInvocations => S_GEOM,
        FsCoordOrigin
        | FsCoordPixelCenter
        | FsColor0WritesAllCbufs
        | FsDepthLayout
        | FsEarlyDepthStencil
        | FsPostDepthCoverage
        | FsBlendEquationAdvanced => S_FRAG,
        VsProhibitUcps | VsWindowSpacePosition | VsBlitSgprsAmd => S_VERT,
        TcsVerticesOut => S_TESS_CTRL,
        TesPrimMode | TesSpacing | TesVertexOrderCw | TesPointMode => S_TESS_EVAL,
        CsFixedBlockWidth | CsFixedBlockHeight | CsFixedBlockDepth | CsUserDataComponentsAmd => {
            S_COMP
        }
        NumClipdistEnabled | NumCulldistEnabled => S_VERT | S_GEOM | S_TESS_EVAL,
        NextShader | LegacyMathRules | LayerViewportRelative | SeparableProgram => S_ALL,
    }
}

/// Opcodes that choose a mip level from screen-space derivatives.
fn implicit_lod(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::TEX
            | Opcode::TXB
            | Opcode::TXP
            | Opcode::TEX2
            | Opcode::TXB2
            | Opcode::LODQ
            | Opcode::LOD
            | Opcode::SAMPLE
            | Opcode::SAMPLE_B
            | Opcode::SAMPLE_C
    )
}

pub(crate) fn check(cx: &Context, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    let p = shader.processor;
    for ins in &shader.instructions {
        let info = ins.opcode.info();
        if info.stages & bit(p) == 0 {
            out.push(Diagnostic::error(
                "V301",
                format!(
                    "{} is only available in {} shaders, not in a {} shader",
                    info.name,
                    stage_words(info.stages),
                    stage_word(p)
                ),
                ins.opcode_span,
            ));
        } else if p != Processor::Fragment && implicit_lod(ins.opcode) {
            out.push(Diagnostic::warning(
                "V307",
                format!(
                    "{} picks a mip level from screen-space derivatives, which only fragment shaders have: use TXL (explicit level) or TEX_LZ (level 0)",
                    info.name
                ),
                ins.opcode_span,
            ));
        }
    }
    if p == Processor::Geometry {
        for (name, why) in [
            (
                PropertyName::GsInputPrimitive,
                "the input primitive (how many vertices IN[v][…] has)",
            ),
            (PropertyName::GsOutputPrimitive, "the primitive type it emits"),
            (PropertyName::GsMaxOutputVertices, "how many vertices it may emit (without it, none)"),
        ] {
            if shader.property(name).is_none() {
                out.push(Diagnostic::warning(
                    "V308",
                    format!("a geometry shader should declare PROPERTY {}: {}", name, why),
                    shader.header_span,
                ));
            }
        }
    }
    for prop in &shader.properties {
        let stages = property_stages(prop.name);
        if stages & bit(p) == 0 {
            out.push(Diagnostic::error(
                "V304",
                format!(
                    "PROPERTY {} applies to {} shaders, not to a {} shader",
                    prop.name,
                    stage_words(stages),
                    stage_word(p)
                ),
                prop.span,
            ));
        }
    }
    for d in &shader.declarations {
        if let DclExtra::Memory { kind: MemoryKind::Shared } = d.extra {
            if p != Processor::Compute {
                out.push(Diagnostic::error(
                    "V302",
                    "shared MEMORY exists only in compute shaders",
                    d.span,
                ));
            }
        }
        match (d.file, p) {
            (File::Sv, _) => {
                if let Some(sem) = d.semantic {
                    let stages = system_value_stages(sem.name);
                    if stages == 0 {
                        out.push(Diagnostic::error(
                            "V303",
                            format!("{} is not a system value", sem.name),
                            sem.span,
                        ));
                    } else if stages & bit(p) == 0 {
                        out.push(Diagnostic::error(
                            "V303",
                            format!(
                                "system value {} exists in {} shaders, not in a {} shader",
                                sem.name,
                                stage_words(stages),
                                stage_word(p)
                            ),
                            sem.span,
                        ));
                    }
                } else {
                    out.push(Diagnostic::error(
                        "V303",
                        "a system value declaration needs a name, such as DCL SV[0], FACE",
                        d.span,
                    ));
                }
            }
            (File::In, Processor::Vertex) => {
                if let Some(sem) = d.semantic {
                    out.push(Diagnostic::error(
                        "V305",
                        format!("vertex shader inputs take no semantic: remove ', {}' (vertex attributes are numbered by IN[n])", sem.name),
                        sem.span,
                    ));
                }
                if d.interp.is_some() || d.location.is_some() {
                    out.push(Diagnostic::error(
                        "V305",
                        "vertex shader inputs are not interpolated: remove the interpolation mode",
                        d.span,
                    ));
                }
            }
            (File::Out, Processor::Fragment) => {
                if let Some(sem) = d.semantic {
                    use SemanticName::*;
                    if !matches!(sem.name, Color | Position | Stencil | SampleMask) {
                        out.push(Diagnostic::error(
                            "V306",
                            format!(
                                "a fragment shader outputs COLOR, POSITION (depth), STENCIL or SAMPLEMASK, not {}",
                                sem.name
                            ),
                            sem.span,
                        ));
                    }
                }
            }
            _ => {}
        }
    }
}
