//! The geometry stage inside the render pipeline (`tgsi render --gs`): a geometry shader that
//! emits two rectangles (two triangle strips) per input triangle, fed by the fragment-only
//! vertex stage. Expected pixels follow from the rectangles written in the shader.

use tgsi::exec::NoTextures;
use tgsi::render::job::{self, Request, Source};

/// Left half of the window: colour = GENERIC[0] of input vertex 1, which is the built-in uv of
/// the fullscreen triangle's vertex (3, −1): (3·0.5 + 0.5, −1·0.5 + 0.5, 0, 1) = (2, 0, 0, 1).
/// Right half: blue.
const GS: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 8
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 {-1.0, 0.0, 1.0, 0.0}
IMM[1] INT32 {0, 0, 0, 0}
MOV OUT[1], IN[1][1]
MOV OUT[0], IMM[0].xxyz
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].yxyz
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].xzyz
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].yzyz
EMIT IMM[1].xxxx
ENDPRIM IMM[1].xxxx
MOV OUT[1], IMM[0].yyzz
MOV OUT[0], IMM[0].yxyz
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].zxyz
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].yzyz
EMIT IMM[1].xxxx
MOV OUT[0], IMM[0].zzyz
EMIT IMM[1].xxxx
END
";

const FS: &str =
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";

#[test]
fn two_rectangles_per_input_triangle() {
    let req = Request { fs: FS, gs: Some(GS), width: 16, height: 8, ..Request::default() };
    let (job, diags) = job::prepare(&req);
    let job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let out = job::run(&job, None, &mut NoTextures, 1 << 20).unwrap_or_else(|e| panic!("{e:?}"));
    for y in 0..8 {
        for x in 0..16 {
            let want = if x < 8 { [2.0, 0.0, 0.0, 1.0] } else { [0.0, 0.0, 1.0, 1.0] };
            assert_eq!(out.framebuffer.pixel(0, x, y), want, "pixel ({x}, {y})");
        }
    }
    // One input triangle, two strips of two triangles each.
    assert_eq!(out.stats.triangles, 4);
}

#[test]
fn geometry_shader_problems_are_reported_as_geometry() {
    // Lines out cannot be drawn (R104); a parse error points into the geometry shader.
    let lines = GS.replace("TRIANGLE_STRIP", "LINE_STRIP");
    let (job, diags) = job::prepare(&Request {
        fs: FS,
        gs: Some(&lines),
        width: 4,
        height: 4,
        ..Request::default()
    });
    assert!(job.is_none());
    // It points at line 3, `PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP`.
    assert!(
        diags.iter().any(|d| d.source == Source::Geometry
            && d.diagnostic.code == "R104"
            && d.diagnostic.line == 3),
        "{diags:?}"
    );
    let broken =
        GS.replace("EMIT IMM[1].xxxx\nMOV OUT[0], IMM[0].yxyz", "EMIT IMM[1].xxxx\nFOO OUT[0]");
    let (job, diags) = job::prepare(&Request {
        fs: FS,
        gs: Some(&broken),
        width: 4,
        height: 4,
        ..Request::default()
    });
    assert!(job.is_none());
    assert!(
        diags.iter().any(|d| d.source == Source::Geometry && d.diagnostic.line > 0),
        "{diags:?}"
    );
    // An endless geometry shader stops at the budget and is reported against its text.
    let endless = GS.replace("ENDPRIM IMM[1].xxxx", "BGNLOOP\nENDLOOP");
    let (job, _) = job::prepare(&Request {
        fs: FS,
        gs: Some(&endless),
        width: 4,
        height: 4,
        ..Request::default()
    });
    let err = job::run(&job.unwrap(), None, &mut NoTextures, 10_000).err().unwrap();
    assert_eq!((err.source, err.diagnostic.code), (Source::Geometry, "X005"));
}
