//! Geometry shaders through `exec::run_geometry`: IN[v][n] inputs, EMIT / ENDPRIM with
//! streams, GS_MAX_OUTPUT_VERTICES and GS_INVOCATIONS. Expected vertices are written out here
//! from the shader's own arithmetic (copy, +10 in x).

use crate::support::compile;
use tgsi::exec::{run_geometry, Constants, GeometryInfo, Machine, NoTextures, Program};
use tgsi::ir::PrimType;

fn program(text: &str) -> Program {
    let parsed = tgsi::text::parse(text);
    let shader = parsed.shader.unwrap_or_else(|| panic!("parse: {:?}", parsed.diagnostics));
    compile(&shader).unwrap_or_else(|d| panic!("compile: {}", d.message))
}

fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// Emits each input triangle, then a copy moved by +10 in x: two triangles per input.
const TWO_TRIANGLES: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 6
PROPERTY GS_INVOCATIONS 1
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 {10.0, 0.0, 0.0, 0.0}
IMM[1] INT32 {0, 0, 0, 0}
MOV OUT[0], IN[0][0]
MOV OUT[1], IN[0][1]
EMIT IMM[1].xxxx
MOV OUT[0], IN[1][0]
MOV OUT[1], IN[1][1]
EMIT IMM[1].xxxx
MOV OUT[0], IN[2][0]
MOV OUT[1], IN[2][1]
EMIT IMM[1].xxxx
ENDPRIM IMM[1].xxxx
ADD OUT[0], IN[0][0], IMM[0]
MOV OUT[1], IN[0][1]
EMIT IMM[1].xxxx
ADD OUT[0], IN[1][0], IMM[0]
MOV OUT[1], IN[1][1]
EMIT IMM[1].xxxx
ADD OUT[0], IN[2][0], IMM[0]
MOV OUT[1], IN[2][1]
EMIT IMM[1].xxxx
ENDPRIM IMM[1].xxxx
END
";

fn triangle(k: usize) -> Vec<Vec<[u32; 4]>> {
    (0..3)
        .map(|v| vec![f([k as f32, v as f32, 0.5, 1.0]), f([v as f32, 0.0, 0.0, k as f32])])
        .collect()
}

#[test]
fn two_triangles_per_input_triangle() {
    let p = program(TWO_TRIANGLES);
    let info = GeometryInfo::of(&p);
    assert_eq!(
        (info.input, info.output, info.max_vertices, info.invocations),
        (PrimType::Triangles, PrimType::TriangleStrip, 6, 1)
    );
    // Five inputs: the second batch quad has three padding lanes.
    let inputs: Vec<_> = (0..5).map(triangle).collect();
    let out =
        run_geometry(&mut Machine::new(), &p, &Constants::new(), &mut NoTextures, &inputs).unwrap();
    assert_eq!(out.primitives.len(), 10);
    for (k, input) in inputs.iter().enumerate() {
        let (a, b) = (&out.primitives[2 * k], &out.primitives[2 * k + 1]);
        assert_eq!(a.vertices, *input, "copy of triangle {k}");
        let moved: Vec<Vec<[u32; 4]>> = (0..3)
            .map(|v| {
                vec![f([k as f32 + 10.0, v as f32, 0.5, 1.0]), f([v as f32, 0.0, 0.0, k as f32])]
            })
            .collect();
        assert_eq!(b.vertices, moved, "moved triangle {k}");
    }
    assert_eq!(out.triangles().len(), 10);
}

#[test]
fn streams_max_vertices_invocations_and_implicit_end() {
    // Two invocations per point; invocation i emits i + 1 vertices to stream i and never
    // calls ENDPRIM (END closes the primitive). GS_MAX_OUTPUT_VERTICES 1 drops the second.
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
PROPERTY GS_INVOCATIONS 2
DCL IN[][0], POSITION
DCL SV[0], INVOCATIONID
DCL SV[1], PRIM_ID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
MOV OUT[0], IN[0][0]
MOV OUT[1].x, SV[0].xxxx
MOV OUT[1].y, SV[1].xxxx
EMIT SV[0].xxxx
UIF SV[0].xxxx
  EMIT SV[0].xxxx
ENDIF
END
";
    let p = program(text);
    let inputs = vec![vec![vec![f([1.0, 2.0, 3.0, 4.0])]], vec![vec![f([5.0, 6.0, 7.0, 8.0])]]];
    let out =
        run_geometry(&mut Machine::new(), &p, &Constants::new(), &mut NoTextures, &inputs).unwrap();
    assert_eq!(out.primitives.len(), 4);
    for (i, prim) in out.primitives.iter().enumerate() {
        let (point, inv) = (i / 2, i % 2);
        assert_eq!(prim.stream, inv as u32);
        assert_eq!(prim.vertices.len(), 1, "max vertices drops the extra EMIT");
        assert_eq!(prim.vertices[0][0], inputs[point][0][0]);
        assert_eq!(prim.vertices[0][1], [inv as u32, point as u32, 0, 0]);
    }
}

#[test]
fn missing_vertices_and_attributes_read_zero() {
    // Attribute 3 is past the declared attributes: a direct IN[0][3] is refused by the
    // validator (V005), so the index comes from ADDR at run time and reads 0. A vertex past the
    // primitive can only be named directly (V207 refuses it; V217 refuses indirect vertices).
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL ADDR[0]
IMM[0] INT32 {0, 0, 0, 0}
IMM[1] INT32 {3, 0, 0, 0}
UARL ADDR[0].x, IMM[1].xxxx
MOV OUT[0], IN[1][ADDR[0].x]
MOV OUT[1], IN[2][ADDR[0].x]
EMIT IMM[0].xxxx
END
";
    let p = program(text);
    let out =
        run_geometry(&mut Machine::new(), &p, &Constants::new(), &mut NoTextures, &[triangle(1)])
            .unwrap();
    assert_eq!(out.primitives.len(), 1);
    assert_eq!(out.primitives[0].vertices[0], vec![[0; 4], [0; 4]]);
}

#[test]
fn hostile_properties_and_indices_are_bounded() {
    // Huge property values are clamped (1024 vertices, 32 invocations); an attribute index far
    // past the declared ones reads 0; an endless EMIT loop stops at the instruction budget.
    // Vertex indices past the primitive are refused before running (direct: V207, indirect: V217).
    for (vertex, code) in [("IN[5][0]", "V207"), ("IN[ADDR[0].x][0]", "V217")] {
        let t = format!("GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nDCL ADDR[0]\nIMM[0] INT32 {{0, 0, 0, 0}}\nUARL ADDR[0].x, IMM[0].xxxx\nMOV OUT[0], {vertex}\nEMIT IMM[0].xxxx\nEND\n");
        let shader = tgsi::text::parse(&t).shader.expect("parses");
        assert_eq!(crate::support::compile(&shader).err().map(|d| d.code), Some(code), "{vertex}");
    }
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 4294967295
PROPERTY GS_INVOCATIONS 4294967295
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL ADDR[0]
IMM[0] INT32 {0, 0, 0, 0}
IMM[1] INT32 {99999, 0, 0, 0}
UARL ADDR[0].x, IMM[1].xxxx
MOV OUT[0], IN[0][ADDR[0].x]
BGNLOOP
  EMIT IMM[0].xxxx
ENDLOOP
END
";
    let p = program(text);
    let info = GeometryInfo::of(&p);
    assert_eq!((info.max_vertices, info.invocations), (1024, 32));
    let err = run_geometry(
        &mut Machine::with_budget(10_000),
        &p,
        &Constants::new(),
        &mut NoTextures,
        &[vec![vec![f([1.0; 4])]]],
    )
    .unwrap_err();
    assert_eq!(err.diagnostic.code, "X005");
    // With a loop that ends, the vertex count is capped.
    let text = text.replace("BGNLOOP\n  EMIT IMM[0].xxxx\nENDLOOP", "BGNLOOP\n  EMIT IMM[0].xxxx\n  UADD TEMP[0].x, TEMP[0].xxxx, IMM[2].xxxx\n  USGE TEMP[0].y, TEMP[0].xxxx, IMM[2].yyyy\n  UIF TEMP[0].yyyy\n    BRK\n  ENDIF\nENDLOOP")
        .replace("IMM[0] INT32 {0, 0, 0, 0}", "DCL TEMP[0]\nIMM[0] INT32 {0, 0, 0, 0}")
        .replace("IMM[1] INT32 {99999, 0, 0, 0}", "IMM[1] INT32 {99999, 0, 0, 0}\nIMM[2] UINT32 {1, 2000, 0, 0}");
    let p = program(&text);
    let out = run_geometry(
        &mut Machine::new(),
        &p,
        &Constants::new(),
        &mut NoTextures,
        &[vec![vec![f([1.0; 4])]]],
    )
    .unwrap();
    assert_eq!(out.primitives.len(), 32, "one point list per invocation");
    assert!(out.primitives.iter().all(|p| p.vertices.len() == 1024 && p.vertices[0][0] == [0; 4]));
}
