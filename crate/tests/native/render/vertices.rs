//! Custom geometry (`--vertices`): the cases of `tests/vertex-cases/` (made with Mesa's softpipe
//! by `make_cases.py`: triangle lists, strips and fans, several draws, both front faces, both
//! provoking-vertex conventions with flat varyings, perspective-correct against screen-linear
//! interpolation, integer attributes) rendered through the job and through the CLI and compared
//! with softpipe's pixels bit for bit; primitive ids per draw and the reader's diagnostics by
//! hand.

use crate::conformance::constants_of;
use std::process::Command;
use tgsi::diag::Diagnostic;
use tgsi::ir::{Interp, Location, SemanticName};
use tgsi::render::job::{prepare, run, Request, Source};
use tgsi::render::mesh::{Draw, Topology};
use tgsi::render::pipeline::{draw, DrawConfig};
use tgsi::render::stage::{FsInput, FsInterface, QuadBatch, QuadOutputs, VsInterface, VsOutput};
use tgsi::render::vertices::parse;
use tgsi::render::Framebuffer;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vertex-cases/");

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn case_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(CASES)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".vertices.json"));
    for n in names.iter_mut() {
        *n = n.trim_end_matches(".vertices.json").to_string();
    }
    names.sort();
    names
}

/// softpipe's pixels as raw bits, row 0 = bottom.
fn softpipe_bits(name: &str) -> Vec<[u32; 4]> {
    let bytes = std::fs::read(format!("{CASES}{name}.f32")).expect("f32");
    bytes
        .chunks_exact(16)
        .map(|p| {
            [0, 1, 2, 3]
                .map(|c| u32::from_le_bytes([p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3]]))
        })
        .collect()
}

/// The first differing pixels of `ours` (rows from the top, as image files) against softpipe's.
fn differences(name: &str, ours: &[[u32; 4]], w: usize, h: usize) -> Vec<String> {
    let theirs = softpipe_bits(name);
    assert_eq!(theirs.len(), w * h, "{name}: softpipe's image size");
    let mut bad = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let a = ours[y * w + x];
            let b = theirs[(h - 1 - y) * w + x];
            if a != b {
                bad.push(format!(
                    "({x}, {} from the bottom): ours {:?}, softpipe {:?}",
                    h - 1 - y,
                    a.map(f32::from_bits),
                    b.map(f32::from_bits)
                ));
            }
        }
    }
    bad
}

#[test]
fn vertex_cases_match_softpipe_bit_for_bit() {
    let names = case_names();
    assert!(names.len() >= 10, "only {} cases in {CASES}", names.len());
    let mut failures = Vec::new();
    for name in &names {
        let base = format!("{CASES}{name}");
        let (fs, vs, vertices) = (
            read(&format!("{base}.tgsi")),
            read(&format!("{base}.vs.tgsi")),
            read(&format!("{base}.vertices.json")),
        );
        let json: serde_json::Value =
            serde_json::from_str(&read(&format!("{base}.json"))).expect("json");
        let (w, h) = (
            json["width"].as_u64().unwrap_or(0) as u32,
            json["height"].as_u64().unwrap_or(0) as u32,
        );
        let req = Request {
            fs: &fs,
            vs: Some(&vs),
            vertices: Some(&vertices),
            width: w,
            height: h,
            constants: constants_of(&json),
            ..Request::default()
        };
        let (job, diags) = prepare(&req);
        let Some(job) = job else {
            failures.push(format!(
                "{name}: {:?}",
                diags.iter().map(|d| &d.diagnostic.message).collect::<Vec<_>>()
            ));
            continue;
        };
        let out = run(&job, None, &mut tgsi::exec::NoTextures, job.default_budget())
            .unwrap_or_else(|d| panic!("{name}: {}", d.diagnostic.message));
        let ours: Vec<[u32; 4]> = tgsi::render::image_io::f32_pixels(&out.framebuffer.f32_bytes())
            .iter()
            .map(|p| p.map(f32::to_bits))
            .collect();
        let bad = differences(name, &ours, w as usize, h as usize);
        if !bad.is_empty() {
            failures.push(format!(
                "{name}: {} pixels differ, first {:?}",
                bad.len(),
                &bad[..bad.len().min(3)]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_cli_renders_a_vertices_file_as_softpipe_does() {
    // The flat-shaded strip with the first vertex provoking, through `tgsi render --vertices`.
    let base = format!("{CASES}strip_first");
    let out = crate::scratch::dir("vertices").join("strip.f32");
    let status = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(["render", &format!("{base}.tgsi"), "--vs", &format!("{base}.vs.tgsi")])
        .args(["--vertices", &format!("{base}.vertices.json"), "--size", "32x32", "-o"])
        .arg(&out)
        .output()
        .expect("run tgsi");
    assert_eq!(status.status.code(), Some(0), "{}", String::from_utf8_lossy(&status.stderr));
    let bytes = std::fs::read(&out).expect("output");
    let _ = std::fs::remove_file(&out);
    let ours: Vec<[u32; 4]> = bytes
        .chunks_exact(16)
        .map(|p| {
            [0, 1, 2, 3]
                .map(|c| u32::from_le_bytes([p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3]]))
        })
        .collect();
    let bad = differences("strip_first", &ours, 32, 32);
    assert!(bad.is_empty(), "{} pixels differ, first {:?}", bad.len(), bad.first());
}

/// The reader's error for `text`: code, 1-based line and column, message.
fn error_of(text: &str) -> (&'static str, u32, u32, String) {
    let fs = "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], IMM[0]\nIMM[0] FLT32 { 1, 0, 0, 1 }\nEND\n";
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n";
    let req = Request {
        fs,
        vs: Some(vs),
        vertices: Some(text),
        width: 4,
        height: 4,
        ..Request::default()
    };
    let (job, diags) = prepare(&req);
    assert!(job.is_none(), "{text} was accepted");
    let d =
        diags.iter().find(|d| d.source == Source::Vertices).expect("a diagnostic about the file");
    (d.diagnostic.code, d.diagnostic.line, d.diagnostic.column, d.diagnostic.message.clone())
}

const GOOD_ATTRS: &str = r#""attributes": [{"name": "p", "location": 0, "components": 2}]"#;

#[test]
fn problems_in_a_vertices_file_have_their_line_and_column() {
    // Syntax: no ':' after "vertices": line 2, column 32, the '[' (two spaces, 12 characters of
    // "attributes", ": [], " and 10 of "vertices", a space).
    let (code, line, col, _) = error_of("{\n  \"attributes\": [], \"vertices\" []\n}");
    assert_eq!((code, line, col), ("R006", 2, 32));
    // A vertex with three values for two components: line 3, column 8 (its list's '[').
    let text =
        format!("{{{GOOD_ATTRS},\n\"vertices\": [{{\"p\": [0, 1]}},\n {{\"p\": [0, 1, 2]}}]}}");
    let (code, line, col, message) = error_of(&text);
    assert_eq!((code, line, col), ("R006", 3, 8), "{message}");
    assert!(message.contains("3 values") && message.contains("2 components"), "{message}");
    // A mode the renderer does not draw: line 2, column 21 (the string after `"mode": `).
    let text = format!(
        "{{{GOOD_ATTRS}, \"vertices\": [{{\"p\": [0, 1]}}],\n \"draws\": [{{\"mode\": \"LINES\", \"first\": 0, \"count\": 1}}]}}"
    );
    let (code, line, col, message) = error_of(&text);
    assert_eq!((code, line, col), ("R006", 2, 21), "{message}");
    assert!(message.contains("TRIANGLE_FAN"), "{message}");
    // A draw past the last vertex, a float attribute given a string, an unknown attribute.
    let draw_past = format!(
        "{{{GOOD_ATTRS}, \"vertices\": [{{\"p\": [0, 1]}}], \"draws\": [{{\"mode\": \"TRIANGLES\", \"first\": 0, \"count\": 3}}]}}"
    );
    assert!(error_of(&draw_past).3.contains("reads vertices 0..3 but the file has 1"));
    let text = format!("{{{GOOD_ATTRS}, \"vertices\": [{{\"p\": [0, \"one\"]}}]}}");
    assert!(error_of(&text).3.contains("0x and 8 hex digits"));
    let text = format!("{{{GOOD_ATTRS}, \"vertices\": [{{\"q\": [0, 1]}}]}}");
    assert!(error_of(&text).3.contains("no attribute is named 'q'"));
    // Out of range: an integer kind's limits, a float beyond f32, a location past the limit.
    let ints = r#"{"attributes": [{"name": "i", "location": 0, "components": 1, "kind": "i"}], "vertices": [{"i": [2147483648]}]}"#;
    assert!(error_of(ints).3.contains("not a whole number"));
    let huge = format!("{{{GOOD_ATTRS}, \"vertices\": [{{\"p\": [1e39, 0]}}]}}");
    assert!(error_of(&huge).3.contains("beyond the range of a 32-bit float"));
    let far = r#"{"attributes": [{"name": "p", "location": 32, "components": 2}], "vertices": []}"#;
    assert_eq!(error_of(far).0, "R007");
}

#[test]
fn limits_are_checked_while_reading() {
    // One vertex more than the limit; reported at the vertex that crosses it.
    let n = tgsi::limits::MAX_VERTICES + 1;
    let text = format!("{{{GOOD_ATTRS}, \"vertices\": [{}]}}", vec!["{\"p\":[0,0]}"; n].join(","));
    let (code, _, _, message) = error_of(&text);
    assert_eq!(code, "R007");
    assert!(message.contains(&format!("more than {} vertices", n - 1)), "{message}");
    // Draws reading more vertices in all than the limit (each one within the file).
    let per_draw = 6000u64;
    let draws = tgsi::limits::MAX_DRAWN_VERTICES / per_draw + 1;
    assert!(draws as usize <= tgsi::limits::MAX_DRAWS);
    let verts = vec!["{\"p\":[0,0]}"; per_draw as usize].join(",");
    let one = format!("{{\"mode\":\"TRIANGLES\",\"first\":0,\"count\":{per_draw}}}");
    let text = format!(
        "{{{GOOD_ATTRS}, \"vertices\": [{verts}], \"draws\": [{}]}}",
        vec![one.as_str(); draws as usize].join(",")
    );
    assert_eq!(error_of(&text).0, "R007");
    // Nesting beyond the reader's depth, in a member it would skip.
    let depth = tgsi::limits::MAX_JSON_DEPTH;
    let text = format!(
        "{{\"note\": {}{}, {GOOD_ATTRS}, \"vertices\": []}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert_eq!(error_of(&text).0, "R007");
}

#[test]
fn attributes_fill_missing_components_and_locations_as_gl() {
    // Location 2 with one float component, location 0 with two signed integers; location 1 is
    // named by no attribute. GL fills (0, 0, 0, 1): 1.0 for floats, the integer 1 otherwise.
    let mesh = parse(
        r#"{"vertices": [{"f": [2.5], "i": [-1, 7]}], "note": "members in any order",
            "attributes": [{"name": "f", "location": 2, "components": 1},
                           {"name": "i", "location": 0, "components": 2, "kind": "i", "source": "x"}]}"#,
    )
    .expect("a good file");
    assert_eq!(mesh.attributes, 3);
    let bits: Vec<[u32; 4]> = mesh.vertices.iter().map(|v| v.map(f32::to_bits)).collect();
    assert_eq!(
        bits,
        vec![
            [0xFFFF_FFFF, 7, 0, 1],
            [0, 0, 0, 1.0f32.to_bits()],
            [2.5f32.to_bits(), 0, 0, 1.0f32.to_bits()],
        ]
    );
    // No draws: one list over every vertex; the defaults are CCW and the last vertex.
    assert_eq!(mesh.draws, vec![Draw { topology: Topology::TriangleList, first: 0, count: 1 }]);
    assert_eq!(mesh.front_face, tgsi::render::mesh::FrontFace::Ccw);
    assert_eq!(mesh.provoking, tgsi::render::mesh::Provoking::Last);
    // A byte-order mark before the object is read past.
    let mesh = parse("\u{feff}{\"attributes\": [], \"vertices\": [{}, {}, {}]}").expect("BOM");
    assert_eq!((mesh.vertex_count(), mesh.attributes), (3, 1));
    // Raw bits in strings, for any kind.
    let mesh = parse(
        r#"{"attributes": [{"name": "u", "location": 0, "components": 1, "kind": "u"}],
            "vertices": [{"u": ["0x7fc00001"]}, {"u": [4294967295]}]}"#,
    )
    .expect("a good file");
    assert_eq!(mesh.vertices[0][0].to_bits(), 0x7FC0_0001);
    assert_eq!(mesh.vertices[1][0].to_bits(), 0xFFFF_FFFF);
}

#[test]
fn primitive_ids_count_from_zero_in_each_draw() {
    // A triangle list of two triangles and a strip of two, side by side (each covers its own
    // quarter of an 8x8 target); the fragment stage writes PRIM_ID as the red channel. GL: the
    // ids of one draw count its primitives from 0, so both draws show 0 and 1.
    let mesh = parse(
        r#"{"attributes": [{"name": "p", "location": 0, "components": 2}],
            "vertices": [{"p": [-1, -1]}, {"p": [0, -1]}, {"p": [-1, 0]},
                         {"p": [-1, 0]}, {"p": [0, -1]}, {"p": [0, 0]},
                         {"p": [0, 0]}, {"p": [1, 0]}, {"p": [0, 1]}, {"p": [1, 1]}],
            "draws": [{"mode": "TRIANGLES", "first": 0, "count": 6},
                      {"mode": "TRIANGLE_STRIP", "first": 6, "count": 4}]}"#,
    )
    .expect("a good file");
    let vs_if = VsInterface {
        input_registers: 1,
        output_registers: 1,
        outputs: vec![VsOutput { register: 0, semantic: SemanticName::Position, index: 0 }],
        uv_wildcard: None,
    };
    let mut vs = |i: &[[f32; 4]],
                  _: usize,
                  n: usize,
                  o: &mut [[f32; 4]],
                  _: usize|
     -> Result<(), Diagnostic> {
        o[..n].copy_from_slice(&i[..n]);
        Ok(())
    };
    let fs_if = FsInterface {
        inputs: vec![FsInput {
            register: 0,
            semantic: Some((SemanticName::PrimId, 0)),
            interp: Interp::Constant,
            location: Location::Center,
            usage_mask: 1,
        }],
        input_registers: 1,
        output_registers: 1,
        colors: vec![(0, 0)],
        ..FsInterface::default()
    };
    let mut fs = |b: &QuadBatch, o: &mut QuadOutputs| -> Result<(), Diagnostic> {
        let n = b.quads.len();
        for q in 0..n {
            o.values[q] = [b.primitive_id as f32; 4].map(f32::to_bits);
            for c in 1..4 {
                o.values[c * n + q] = [1.0f32.to_bits(); 4];
            }
        }
        Ok(())
    };
    let mut fb = Framebuffer::new(8, 8, 1).unwrap();
    let mut warnings = Vec::new();
    draw(&mut fb, &mesh, &vs_if, &mut vs, &fs_if, &mut fs, &DrawConfig::default(), &mut warnings)
        .unwrap();
    // Window (x, y), y from the bottom. Lower-left quarter: triangle 0 below the diagonal from
    // (0, 4) to (4, 0), triangle 1 above it. Upper-right quarter: strip triangles 0 and 1 split
    // by the diagonal from (4, 8) to (8, 4), 0 below it.
    let red = |x: u32, y: u32| fb.pixel(0, x, y)[0];
    assert_eq!((red(0, 0), red(3, 3)), (0.0, 1.0));
    assert_eq!((red(4, 4), red(7, 7)), (0.0, 1.0));
    // Nothing drawn elsewhere: alpha stays 0.
    assert_eq!(fb.pixel(0, 6, 1)[3], 0.0);
}

#[test]
fn the_inspector_sees_the_files_vertices() {
    // The vertex table of a job drawing a vertices file: one row per vertex of the file, drawn
    // or not (the fourth is in no draw), with the attributes as the file gives them — the
    // integer one as its bits — and the vertex shader's outputs: OUT[1] = IN[1] + IN[1] (UADD,
    // 32-bit wrapping: 5 + 5 = 10, −3 + −3 = −6, and the filled w 1 + 1 = 2).
    use tgsi::render::inspect::{trace_vertex, vertex_table};
    let vs = "VERT\nDCL IN[0..1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
              MOV OUT[0], IN[0]\nUADD OUT[1], IN[1], IN[1]\nEND\n";
    let fs = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nI2F OUT[0], IN[0]\nEND\n";
    let vertices = r#"{"attributes": [{"name": "p", "location": 0, "components": 2},
                                      {"name": "n", "location": 1, "components": 1, "kind": "i"}],
        "vertices": [{"p": [-1, -1], "n": [5]}, {"p": [1, -1], "n": [-3]},
                     {"p": [-1, 1], "n": [0]}, {"p": [1, 1], "n": [7]}],
        "draws": [{"mode": "TRIANGLES", "first": 0, "count": 3}]}"#;
    let req = Request {
        fs,
        vs: Some(vs),
        vertices: Some(vertices),
        width: 4,
        height: 4,
        ..Request::default()
    };
    let (job, diags) = prepare(&req);
    let job = job.unwrap_or_else(|| panic!("{diags:?}"));
    let budget = job.default_budget();
    let table = vertex_table(&job, &mut tgsi::exec::NoTextures, budget).expect("table");
    assert_eq!(table.vertex_count(), 4);
    let row = |v: usize, r: usize| table.inputs[v * table.input_registers + r].map(f32::to_bits);
    assert_eq!(row(1, 0), [1.0f32, -1.0, 0.0, 1.0].map(f32::to_bits));
    assert_eq!(row(1, 1), [(-3i32) as u32, 0, 0, 1]);
    let out = |v: usize| table.outputs[v * table.output_registers + 1].map(f32::to_bits);
    assert_eq!(out(0), [10, 0, 0, 2]);
    assert_eq!(out(1), [(-6i32) as u32, 0, 0, 2]);
    assert_eq!(out(3), [14, 0, 0, 2]);
    let t = trace_vertex(&job, 3, &mut tgsi::exec::NoTextures, budget).expect("trace");
    assert_eq!(t.vertex, 3);
}
