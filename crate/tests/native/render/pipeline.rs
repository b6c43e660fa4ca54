//! Pipeline tests with Rust closures as shader stages: clipping, fill rule, perspective-correct
//! and flat interpolation, FACE/BCOLOR, linkage warnings, depth testing with the cube, row
//! ranges and fragment-only rendering. Every expectation is computed here from a formula or
//! written by hand.

use tgsi::diag::Diagnostic;
use tgsi::ir::{Interp, Location, SemanticName};
use tgsi::render::mesh::{self, Mesh, Topology};
use tgsi::render::pipeline::{draw, fragment_only_vertex_stage, DrawConfig};
use tgsi::render::stage::{
    FragmentStage, FsInput, FsInterface, QuadBatch, QuadOutputs, VsInterface, VsOutput,
};
use tgsi::render::Framebuffer;

/// A mesh of separate triangles with (position, attribute) per vertex.
fn tri_mesh(verts: &[([f32; 4], [f32; 4])]) -> Mesh {
    let mut vertices = Vec::new();
    for (p, a) in verts {
        vertices.push(*p);
        vertices.push(*a);
    }
    Mesh::new("test", 2, vertices, (0..verts.len() as u32).collect(), Topology::TriangleList)
}

/// VS interface: OUT[0] = POSITION, OUT[1..] = the given semantics; the stage copies IN[n] to
/// OUT[n].
fn pass_through_vs(extra: &[(SemanticName, u32)]) -> VsInterface {
    let mut outputs = vec![VsOutput { register: 0, semantic: SemanticName::Position, index: 0 }];
    for (i, &(s, k)) in extra.iter().enumerate() {
        outputs.push(VsOutput { register: i as u32 + 1, semantic: s, index: k });
    }
    VsInterface {
        input_registers: extra.len() + 1,
        output_registers: extra.len() + 1,
        outputs,
        uv_wildcard: None,
    }
}

fn copy_vs(
    input: &[[f32; 4]],
    ni: usize,
    count: usize,
    out: &mut [[f32; 4]],
    no: usize,
) -> Result<(), Diagnostic> {
    for v in 0..count {
        for r in 0..no.min(ni) {
            out[v * no + r] = input[v * ni + r];
        }
    }
    Ok(())
}

/// FS interface with the given inputs and COLOR[0] = OUT[0].
fn fs_with(inputs: &[(SemanticName, u32, Interp)]) -> FsInterface {
    FsInterface {
        inputs: inputs
            .iter()
            .enumerate()
            .map(|(i, &(s, k, interp))| FsInput {
                register: i as u32,
                semantic: Some((s, k)),
                interp,
                location: Location::Center,
                usage_mask: 0xF,
            })
            .collect(),
        input_registers: inputs.len(),
        output_registers: 1,
        colors: vec![(0, 0)],
        ..FsInterface::default()
    }
}

/// Fragment stage: OUT[0] = IN[0].
fn copy_fs(b: &QuadBatch, out: &mut QuadOutputs) -> Result<(), Diagnostic> {
    let nq = b.quads.len();
    for c in 0..4 {
        for q in 0..nq {
            out.values[c * nq + q] = b.input(0, c, q).map(f32::to_bits);
        }
    }
    Ok(())
}

fn render(
    mesh: &Mesh,
    vs_if: &VsInterface,
    fs_if: &FsInterface,
    w: u32,
    h: u32,
    depth: bool,
) -> (Framebuffer, Vec<Diagnostic>) {
    let mut fb = Framebuffer::new(w, h, 1).unwrap();
    let mut warnings = Vec::new();
    let mut vs = copy_vs;
    let mut fs = copy_fs;
    let cfg = DrawConfig { rows: None, depth_test: depth, ..DrawConfig::default() };
    draw(&mut fb, mesh, vs_if, &mut vs, fs_if, &mut fs, &cfg, &mut warnings).unwrap();
    (fb, warnings)
}

/// Pixel centre of (x, y) (row 0 at the bottom) in normalized device coordinates.
fn ndc(x: u32, y: u32, w: u32, h: u32) -> (f64, f64) {
    ((x as f64 + 0.5) / w as f64 * 2.0 - 1.0, (y as f64 + 0.5) / h as f64 * 2.0 - 1.0)
}

/// Screen-space barycentrics of p in the 2-D triangle (a, b, c).
fn bary(p: (f64, f64), a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> [f64; 3] {
    let d = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    let l1 = ((p.0 - a.0) * (c.1 - a.1) - (p.1 - a.1) * (c.0 - a.0)) / d;
    let l2 = ((b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)) / d;
    [1.0 - l1 - l2, l1, l2]
}

/// Pixels further than this (in barycentric terms) from every edge are checked.
const MARGIN: f64 = 0.02;

#[test]
fn near_plane_clipping_keeps_the_visible_part_with_right_values() {
    // C lies beyond the near plane (z = −3 < −w). The plane z = −w cuts A→C and B→C at t = 1/3,
    // so the visible part is the band of the triangle with ndc y < −1/3.
    let a = [-1.0, -1.0, 0.0, 1.0];
    let b = [1.0, -1.0, 0.0, 1.0];
    let c = [0.0, 1.0, -3.0, 1.0];
    let mesh = tri_mesh(&[(a, a), (b, b), (c, c)]);
    let (w, h) = (48, 48);
    let (fb, _) = render(
        &mesh,
        &pass_through_vs(&[(SemanticName::Generic, 0)]),
        &fs_with(&[(SemanticName::Generic, 0, Interp::Perspective)]),
        w,
        h,
        false,
    );
    let mut checked = 0;
    for y in 0..h {
        for x in 0..w {
            let p = ndc(x, y, w, h);
            let l = bary(p, (-1.0, -1.0), (1.0, -1.0), (0.0, 1.0));
            let px = fb.pixel(0, x, y);
            let inside = l.iter().all(|v| *v > MARGIN) && p.1 < -1.0 / 3.0 - 0.02;
            let outside = l.iter().any(|v| *v < -MARGIN) || p.1 > -1.0 / 3.0 + 0.02;
            if inside {
                // The attribute is the clip position: z = −3·λC (w = 1 everywhere, so linear).
                assert!(
                    (px[2] as f64 - (-3.0 * l[2])).abs() < 1e-5,
                    "pixel {},{}: z {} vs {}",
                    x,
                    y,
                    px[2],
                    -3.0 * l[2]
                );
                assert!((px[0] as f64 - p.0).abs() < 1e-5);
                checked += 1;
            } else if outside {
                assert_eq!(px, [0.0; 4], "pixel {},{} should be empty", x, y);
            }
        }
    }
    assert!(checked > 200, "only {} pixels checked", checked);
}

#[test]
fn side_clipping_keeps_values_right_across_the_viewport_edge() {
    // A triangle far beyond the right and top sides, with w = 2 at one vertex: after clipping,
    // the interpolated clip-space x/w must still equal the pixel centre's ndc x.
    let a = [-0.5, -0.5, 0.0, 1.0];
    let b = [6.0, -1.0, 0.0, 2.0];
    let c = [-0.5, 3.0, 0.0, 1.0];
    let ndc_of = |v: [f32; 4]| ((v[0] / v[3]) as f64, (v[1] / v[3]) as f64);
    // Attribute = (x, y, 0, w): x/w interpolated perspective-correctly is ndc x.
    let mesh = tri_mesh(&[(a, a), (b, b), (c, c)]);
    let (w, h) = (40, 40);
    let (fb, _) = render(
        &mesh,
        &pass_through_vs(&[(SemanticName::Generic, 0)]),
        &fs_with(&[(SemanticName::Generic, 0, Interp::Perspective)]),
        w,
        h,
        false,
    );
    let mut checked = 0;
    for y in 0..h {
        for x in 0..w {
            let p = ndc(x, y, w, h);
            let l = bary(p, ndc_of(a), ndc_of(b), ndc_of(c));
            if l.iter().all(|v| *v > MARGIN) {
                let px = fb.pixel(0, x, y);
                // Perspective-correct interpolation of x and w separately gives x/w = ndc x.
                assert!(
                    (px[0] as f64 / px[3] as f64 - p.0).abs() < 1e-4,
                    "pixel {},{}: {:?}",
                    x,
                    y,
                    px
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 300);
}

#[test]
fn two_triangles_sharing_an_edge_cover_every_pixel_once() {
    // Diagonal through pixel centres (y = x in window space) and a fan of eight triangles around
    // an off-grid centre (the fan's outline is the whole viewport): each pixel centre must be counted exactly once.
    let fan_around = |centre: [f32; 2]| -> Vec<[f32; 2]> {
        let ring = [
            [-1.0f32, -1.0],
            [0.2, -1.0],
            [1.0, -1.0],
            [1.0, 0.3],
            [1.0, 1.0],
            [-0.4, 1.0],
            [-1.0, 1.0],
            [-1.0, 0.25],
        ];
        (0..8).flat_map(|i| [centre, ring[i], ring[(i + 1) % 8]]).collect()
    };
    // Centre (8.5, 8.5) in window space: the spokes to the corners run through pixel centres.
    for verts in [
        fan_around([0.0625, 0.0625]),
        vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]],
        fan_around([0.1, -0.07]),
    ] {
        let verts: Vec<([f32; 4], [f32; 4])> =
            verts.iter().map(|p| ([p[0], p[1], 0.0, 1.0], [0.0; 4])).collect();
        let mesh = tri_mesh(&verts);
        let (w, h) = (16, 16);
        let mut counts = vec![0u32; (w * h) as usize];
        let mut fb = Framebuffer::new(w, h, 1).unwrap();
        let mut vs = copy_vs;
        let mut fs = |b: &QuadBatch, _: &mut QuadOutputs| -> Result<(), Diagnostic> {
            for q in &b.quads {
                for lane in 0..4 {
                    if q.coverage & (1 << lane) != 0 {
                        counts[((q.y + (lane >> 1)) * w + q.x + (lane & 1)) as usize] += 1;
                    }
                }
            }
            Ok(())
        };
        let vs_if = pass_through_vs(&[(SemanticName::Generic, 0)]);
        let fs_if = fs_with(&[]);
        draw(
            &mut fb,
            &mesh,
            &vs_if,
            &mut vs,
            &fs_if,
            &mut fs,
            &DrawConfig::default(),
            &mut Vec::new(),
        )
        .unwrap();
        assert!(counts.iter().all(|&c| c == 1), "coverage counts: {:?}", counts);
    }
}

#[test]
fn perspective_linear_and_flat_interpolation() {
    // Vertices with w = 1, 2, 3 and attribute a = 0, 1, 2 (in x of the attribute).
    let verts = [
        ([-0.8, -0.8, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]),
        ([1.6, -1.6, 0.0, 2.0], [1.0, 0.0, 0.0, 1.0]),
        ([0.0, 2.4, 0.0, 3.0], [2.0, 0.0, 0.0, 1.0]),
    ];
    let mesh = tri_mesh(&verts);
    let (w, h) = (32, 32);
    let screen = [(-0.8, -0.8), (0.8, -0.8), (0.0, 0.8)];
    let ws = [1.0, 2.0, 3.0];
    let a = [0.0, 1.0, 2.0];
    for interp in [Interp::Perspective, Interp::Linear, Interp::Constant] {
        let (fb, _) = render(
            &mesh,
            &pass_through_vs(&[(SemanticName::Generic, 0)]),
            &fs_with(&[(SemanticName::Generic, 0, interp)]),
            w,
            h,
            false,
        );
        let mut checked = 0;
        for y in 0..h {
            for x in 0..w {
                let l = bary(ndc(x, y, w, h), screen[0], screen[1], screen[2]);
                if l.iter().any(|v| *v < MARGIN) {
                    continue;
                }
                let expected = match interp {
                    // Σ λi·ai/wi / Σ λi/wi.
                    Interp::Perspective => {
                        (0..3).map(|i| l[i] * a[i] / ws[i]).sum::<f64>()
                            / (0..3).map(|i| l[i] / ws[i]).sum::<f64>()
                    }
                    Interp::Linear => (0..3).map(|i| l[i] * a[i]).sum::<f64>(),
                    // Flat: the provoking (last) vertex.
                    _ => 2.0,
                };
                let got = fb.pixel(0, x, y)[0] as f64;
                assert!(
                    (got - expected).abs() < 2e-5,
                    "{:?} pixel {},{}: {} vs {}",
                    interp,
                    x,
                    y,
                    got,
                    expected
                );
                checked += 1;
            }
        }
        assert!(checked > 100);
    }
}

#[test]
fn face_and_bcolor() {
    // Left triangle counter-clockwise (front), right one clockwise (back). COLOR = red,
    // BCOLOR = blue; the fragment shader outputs (COLOR.xyz, FACE.x).
    let red = [1.0, 0.0, 0.0, 1.0];
    let blue = [0.0, 0.0, 1.0, 1.0];
    let v = |x: f32, y: f32| [x, y, 0.0, 1.0];
    let tris =
        [v(-0.9, -0.5), v(-0.1, -0.5), v(-0.5, 0.5), v(0.1, -0.5), v(0.5, 0.5), v(0.9, -0.5)];
    let mut vertices = Vec::new();
    for p in tris {
        vertices.extend_from_slice(&[p, red, blue]);
    }
    let mesh = Mesh::new("t", 3, vertices, (0..6).collect(), Topology::TriangleList);
    let vs_if = pass_through_vs(&[(SemanticName::Color, 0), (SemanticName::BColor, 0)]);
    let fs_if = fs_with(&[
        (SemanticName::Color, 0, Interp::Color),
        (SemanticName::Face, 0, Interp::Constant),
    ]);
    let mut fb = Framebuffer::new(32, 32, 1).unwrap();
    let mut fs = |b: &QuadBatch, out: &mut QuadOutputs| -> Result<(), Diagnostic> {
        let nq = b.quads.len();
        for q in 0..nq {
            for c in 0..3 {
                out.values[c * nq + q] = b.input(0, c, q).map(f32::to_bits);
            }
            out.values[3 * nq + q] = b.input(1, 0, q).map(f32::to_bits);
        }
        Ok(())
    };
    draw(
        &mut fb,
        &mesh,
        &vs_if,
        &mut copy_vs,
        &fs_if,
        &mut fs,
        &DrawConfig::default(),
        &mut Vec::new(),
    )
    .unwrap();
    // Centroids: left (−0.5, −1/6) → pixel (8, 13); right (0.5, −1/6) → pixel (24, 13).
    assert_eq!(fb.pixel(0, 8, 13), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(fb.pixel(0, 24, 13), [0.0, 0.0, 1.0, -1.0]);
}

#[test]
fn missing_inputs_read_0001_with_a_warning() {
    let mesh = mesh::fullscreen();
    let vs_if = pass_through_vs(&[]);
    let fs_if = fs_with(&[(SemanticName::Generic, 5, Interp::Perspective)]);
    let (fb, warnings) = render(&mesh, &vs_if, &fs_if, 8, 8, false);
    assert_eq!(fb.pixel(0, 3, 4), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code, "R101");
    assert!(warnings[0].message.contains("GENERIC[5]"));
}

#[test]
fn cube_with_depth_test_shows_the_nearest_face() {
    // Orthographic view along z: clip = (x, y, s·z, 1) for the unit cube (|x|,|y|,|z| ≤ 0.5).
    // With s = 1 the z = −0.5 face (normal −z) is nearest; with s = −1 the +z face is nearest
    // and is submitted before the −z face, so only the depth test keeps it. The side faces are
    // edge-on. Colour = normal; pixels outside the square |ndc| < 0.5 stay (0, 0, 0, 0).
    for (s, expected_normal) in [(1.0f32, -1.0f32), (-1.0, 1.0)] {
        let cube = mesh::cube();
        // The mesh has three attributes; POSITION and GENERIC[0] come out.
        let vs_if =
            VsInterface { input_registers: 3, ..pass_through_vs(&[(SemanticName::Generic, 0)]) };
        let mut vs = |input: &[[f32; 4]],
                      ni: usize,
                      count: usize,
                      out: &mut [[f32; 4]],
                      no: usize|
         -> Result<(), Diagnostic> {
            for v in 0..count {
                let p = input[v * ni];
                out[v * no] = [p[0], p[1], s * p[2], 1.0];
                out[v * no + 1] = input[v * ni + 1];
            }
            Ok(())
        };
        let fs_if = fs_with(&[(SemanticName::Generic, 0, Interp::Perspective)]);
        let (w, h) = (32, 32);
        let mut fb = Framebuffer::new(w, h, 1).unwrap();
        let cfg = DrawConfig { rows: None, depth_test: true, ..DrawConfig::default() };
        draw(&mut fb, &cube, &vs_if, &mut vs, &fs_if, &mut copy_fs, &cfg, &mut Vec::new()).unwrap();
        for y in 0..h {
            for x in 0..w {
                let (px, py) = ndc(x, y, w, h);
                let got = fb.pixel(0, x, y);
                if px.abs() < 0.5 && py.abs() < 0.5 {
                    assert_eq!(got, [0.0, 0.0, expected_normal, 0.0], "s={} pixel {},{}", s, x, y);
                    // Depth: window z = (s·z_face)·0.5 + 0.5 with s·z_face = −0.5 → 0.25.
                    assert_eq!(fb.depth_at(x, y), 0.25);
                } else {
                    assert_eq!(got, [0.0; 4], "pixel {},{}", x, y);
                }
            }
        }
    }
}

#[test]
fn row_ranges_render_the_same_rows_as_a_full_draw() {
    let mesh = mesh::sphere(8, 12);
    // The mesh has three attributes; POSITION and GENERIC[0] come out.
    let vs_if =
        VsInterface { input_registers: 3, ..pass_through_vs(&[(SemanticName::Generic, 0)]) };
    let fs_if = fs_with(&[(SemanticName::Generic, 0, Interp::Perspective)]);
    let (full, _) = render(&mesh, &vs_if, &fs_if, 24, 20, true);
    let mut parts = Framebuffer::new(24, 20, 1).unwrap();
    for rows in [0..6, 6..13, 13..20] {
        let cfg = DrawConfig { rows: Some(rows), depth_test: true, ..DrawConfig::default() };
        draw(&mut parts, &mesh, &vs_if, &mut copy_vs, &fs_if, &mut copy_fs, &cfg, &mut Vec::new())
            .unwrap();
    }
    for y in 0..20 {
        for x in 0..24 {
            assert_eq!(full.pixel(0, x, y), parts.pixel(0, x, y), "pixel {},{}", x, y);
        }
    }
}

#[test]
fn fragment_only_inputs_are_pixel_centre_uv() {
    for (w, h) in [(64u32, 64u32), (48, 40)] {
        let (vs_if, mut vs) = fragment_only_vertex_stage();
        let fs_if = fs_with(&[(SemanticName::TexCoord, 3, Interp::Perspective)]);
        let mut fb = Framebuffer::new(w, h, 1).unwrap();
        let mut warnings = Vec::new();
        draw(
            &mut fb,
            &mesh::fullscreen(),
            &vs_if,
            &mut vs,
            &fs_if,
            &mut copy_fs,
            &DrawConfig::default(),
            &mut warnings,
        )
        .unwrap();
        assert!(warnings.is_empty());
        for y in 0..h {
            for x in 0..w {
                let got = fb.pixel(0, x, y);
                let u = (x as f32 + 0.5) / w as f32;
                let v = (y as f32 + 0.5) / h as f32;
                if w == 64 {
                    assert_eq!(got, [u, v, 0.0, 1.0]);
                } else {
                    assert!(
                        (got[0] - u).abs() <= 2.0 * f32::EPSILON
                            && (got[1] - v).abs() <= 2.0 * f32::EPSILON,
                        "{:?} vs {},{}",
                        got,
                        u,
                        v
                    );
                }
            }
        }
    }
}

/// A fragment stage that records, per shaded batch, whether the pipeline asked for denormals to
/// be flushed, and the primitive id.
#[derive(Default)]
struct FlushLog {
    flushing: bool,
    batches: Vec<(u32, bool)>,
}

impl FragmentStage for FlushLog {
    fn shade(&mut self, b: &QuadBatch, _out: &mut QuadOutputs) -> Result<(), Diagnostic> {
        self.batches.push((b.primitive_id, self.flushing));
        Ok(())
    }
    fn flush_denormals(&mut self, on: bool) -> bool {
        self.flushing = on;
        on
    }
}

/// The draw module clip-tests a triangle list 4095 vertices (1365 triangles) at a time
/// (draw_pt_vsplit.c: its middle end takes 4096 vertices; draw_split_tmp.h keeps whole
/// triangles), and only a chunk with no vertex outside the view is shaded inside the draw call,
/// flushing denormals. 1366 copies of a triangle covering pixel (0, 0): the first chunk holds
/// triangles 0..=1364, the second triangle 1365 alone.
#[test]
fn each_chunk_of_a_draw_flushes_denormals_only_when_no_vertex_is_outside_the_view() {
    let inside = [[-1.0, -1.0, 0.0, 1.0], [1.0, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, 1.0]];
    let run = |outside_triangle: usize| {
        let mut verts = Vec::new();
        for t in 0..1366 {
            for (k, p) in inside.iter().enumerate() {
                // The third vertex of the chosen triangle: x = 3 > w, beyond the right plane.
                let p = if t == outside_triangle && k == 1 { [3.0, -1.0, 0.0, 1.0] } else { *p };
                verts.push((p, [0.0; 4]));
            }
        }
        let mesh = tri_mesh(&verts);
        let mut fb = Framebuffer::new(2, 2, 1).unwrap();
        let mut fs = FlushLog::default();
        let cfg = DrawConfig::default();
        let (vs_if, fs_if) = (pass_through_vs(&[]), fs_with(&[]));
        let stats =
            draw(&mut fb, &mesh, &vs_if, &mut copy_vs, &fs_if, &mut fs, &cfg, &mut Vec::new())
                .unwrap();
        let flushed = |prims: std::ops::Range<u32>| {
            let of: Vec<bool> =
                fs.batches.iter().filter(|(p, _)| prims.contains(p)).map(|&(_, f)| f).collect();
            assert!(!of.is_empty(), "no batch of primitives {prims:?}");
            assert!(of.iter().all(|&f| f == of[0]), "one chunk, one mode");
            of[0]
        };
        (flushed(0..1365), flushed(1365..1366), stats.flushed_quads)
    };
    // The third number: quads shaded flushing, one per triangle inside the view (it covers
    // pixels (0, 0), (1, 0) and (0, 1) of the 2x2 frame: one quad).
    assert_eq!(run(usize::MAX), (true, true, 1366), "every vertex inside");
    assert_eq!(run(7), (false, true, 1), "a vertex outside in the first chunk");
    assert_eq!(run(1364), (false, true, 1), "the first chunk's last triangle");
    assert_eq!(run(1365), (true, false, 1365), "the second chunk's triangle");
}
