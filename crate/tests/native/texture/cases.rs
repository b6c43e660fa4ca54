//! Direct conformance harness: feeds the sampler with the coordinates each case's TGSI computes
//! and compares with the pixels Mesa's softpipe rendered (`tests/texture-cases/`, and the corpus
//! shaders 20_tex_nearest / 21_tex_linear). The few ALU instructions before each texture
//! instruction are written out by hand below, in binary32 with separate roundings as tgsi_exec
//! (MAD is not fused). Expected values are softpipe's pixels, bit for bit.
//!
//! Fragment quads: lane l sits at GL pixel (2i + (l & 1), 2j + (l >> 1)), so lanes 2, 3 are the
//! upper row, matching softpipe's derivative rule (docs/textures.md "How a sample is computed": LOD, TXF).

use std::collections::BTreeMap;

use tgsi::ir::TextureTarget;
use tgsi::texture::desc;
use tgsi::texture::fetch;
use tgsi::texture::sample::{query_lod, sample_quad, Control, Request};
use tgsi::texture::TextureUnit;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/texture-cases/");
const CORPUS: &str = corpus!("/softpipe/");

type Units = BTreeMap<u32, TextureUnit>;
/// Per-lane uv → per-lane RGBA bits.
type Shader<'a> = &'a dyn Fn(&Units, [[f32; 4]; 2]) -> [[u32; 4]; 4];

fn no_image(name: &str) -> Result<desc::RgbaImage, String> {
    Err(format!("no image files in cases ({name})"))
}

fn load_units(name: &str) -> Units {
    let text = std::fs::read_to_string(format!("{CASES}{name}.textures.json"))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    desc::parse_all(&text, &no_image)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_iter()
        .collect()
}

fn read_f32(path: &str) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

/// Runs `shader` over every quad of a W×H frame and counts pixels that differ from `expected`.
#[allow(clippy::needless_range_loop)]
fn compare(name: &str, units: &Units, expected: &[u32], w: usize, h: usize, shader: Shader) {
    assert_eq!(expected.len(), w * h * 4, "{name}: pixel count");
    let mut bad = Vec::new();
    for j in 0..h / 2 {
        for i in 0..w / 2 {
            let mut uv = [[0f32; 4]; 2];
            for l in 0..4 {
                let (x, y) = (2 * i + (l & 1), 2 * j + (l >> 1));
                uv[0][l] = (x as f32 + 0.5) / w as f32;
                uv[1][l] = (y as f32 + 0.5) / h as f32;
            }
            let out = shader(units, uv);
            for l in 0..4 {
                let (x, y) = (2 * i + (l & 1), 2 * j + (l >> 1));
                let want = &expected[(y * w + x) * 4..(y * w + x) * 4 + 4];
                // all-ones bits mark a pixel the harness does not check (undefined in softpipe)
                if out[l] != [u32::MAX; 4] && want != out[l] {
                    bad.push(format!(
                        "({x},{y}) want {:?} got {:?}",
                        want.iter().map(|b| f32::from_bits(*b)).collect::<Vec<_>>(),
                        out[l].map(f32::from_bits)
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} of {} pixels differ, first: {:?}",
        bad.len(),
        w * h,
        &bad[..bad.len().min(6)]
    );
}

fn run(name: &str, shader: Shader) {
    let units = load_units(name);
    let expected = read_f32(&format!("{CASES}{name}.f32"));
    compare(name, &units, &expected, 32, 32, shader);
}

fn unit(units: &Units, n: u32) -> &TextureUnit {
    units.get(&n).unwrap_or_else(|| panic!("no unit {n}"))
}

/// Filtered sample of unit `n`: `rgba[channel][lane]`.
fn tex(units: &Units, n: u32, coords: [[f32; 4]; 5], control: Control) -> [[f32; 4]; 4] {
    let u = unit(units, n);
    sample_quad(u, &u.sampler, &Request::new(coords, control), None)
}

/// Transposes `rgba[channel][lane]` into per-lane bits.
fn lanes(c: [[f32; 4]; 4]) -> [[u32; 4]; 4] {
    [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|ch| c[ch][l].to_bits()))
}

/// Per-lane (x, y, z, w) from two 2-channel results: (a.x, a.y, b.x, b.y).
fn xy_xy(a: [[f32; 4]; 4], b: [[f32; 4]; 4]) -> [[u32; 4]; 4] {
    [0, 1, 2, 3].map(|l| [a[0][l], a[1][l], b[0][l], b[1][l]].map(f32::to_bits))
}

fn map4(v: [f32; 4], f: impl Fn(f32) -> f32) -> [f32; 4] {
    v.map(f)
}

const Z: [f32; 4] = [0.0; 4];

fn imm(bits: u32) -> f32 {
    f32::from_bits(bits)
}

#[test]
fn corpus_20_tex_nearest_and_21_tex_linear() {
    // The oracle's built-in texture: 4x4 RGBA8, texel (i, j) = (85i, 85j, 255·((i^j)&1), 255),
    // j = 0 the bottom row; unit 0 NEAREST / REPEAT (20), LINEAR / REPEAT (21).
    let texels: Vec<String> = (0..16)
        .map(|n| {
            format!(
                "[{}, {}, {}, 255]",
                85 * (n % 4),
                85 * (n / 4),
                255 * (((n % 4) ^ (n / 4)) & 1)
            )
        })
        .collect();
    // 20: MAD uv·2 − 0.3 (0xBE99999A); 21: MAD uv·1.5 − 0.25 (0xBE800000)
    for (name, filter, scale, add) in [
        ("20_tex_nearest", "NEAREST", 2.0f32, 3197737370u32),
        ("21_tex_linear", "LINEAR", 1.5, 3196059648),
    ] {
        let json = format!(
            r#"{{"target": "2D", "format": "RGBA8", "width": 4, "height": 4, "texels": [{}],
               "sampler": {{"filter": "{filter}", "wrap": "REPEAT"}}}}"#,
            texels.join(",")
        );
        let u = desc::parse_description(&json, &no_image).unwrap_or_else(|e| panic!("{e}"));
        let units: Units = [(0, u)].into_iter().collect();
        let expected = read_f32(&format!("{CORPUS}{name}.f32"));
        compare(name, &units, &expected, 64, 64, &|u, uv| {
            let c = uv.map(|v| map4(v, |x| x * scale + imm(add)));
            lanes(tex(u, 0, [c[0], c[1], Z, Z, Z], Control::Implicit))
        });
    }
}

#[test]
fn txl_mip_levels() {
    // MAD TEMP[0], IN[0].xyxx, (1.5, 1.5, 1.5, 6), (−0.25, −0.25, −0.25, −1); TXL
    run("txl_mip_levels", &|u, uv| {
        let s = map4(uv[0], |x| x * 1.5 - 0.25);
        let t = map4(uv[1], |x| x * 1.5 - 0.25);
        let lod = map4(uv[0], |x| x * 6.0 + -1.0);
        lanes(tex(u, 0, [s, t, s, Z, lod], Control::Explicit))
    });
}

/// MUL k = uv·(8, 4); FLR; ADD (0.5, 1); MUL uv·k; TEX 2D.
fn mip_scaled(u: &Units, uv: [[f32; 4]; 2]) -> [[u32; 4]; 4] {
    let kx = map4(uv[0], |x| (x * 8.0).floor() + 0.5);
    let ky = map4(uv[1], |y| (y * 4.0).floor() + 1.0);
    let s = [0, 1, 2, 3].map(|l| uv[0][l] * kx[l]);
    let t = [0, 1, 2, 3].map(|l| uv[1][l] * ky[l]);
    lanes(tex(u, 0, [s, t, Z, Z, Z], Control::Implicit))
}

#[test]
fn tex_mip_implicit() {
    run("tex_mip_implicit", &mip_scaled);
}

#[test]
fn tex_mip_nearest() {
    run("tex_mip_nearest", &mip_scaled);
}

#[test]
fn txb_bias_clamp() {
    // MAD TEMP[0].w, IN[0].y, 8, −2; TXB (bias in c1)
    run("txb_bias_clamp", &|u, uv| {
        let b = map4(uv[1], |y| y * 8.0 + -2.0);
        lanes(tex(u, 0, [uv[0], uv[1], uv[0], Z, b], Control::Bias))
    });
}

#[test]
fn txd_grad() {
    // ddx = (x·0.25, 0), ddy = (0, y·0.125); TXD
    run("txd_grad", &|u, uv| {
        let un = unit(u, 0);
        let mut req = Request::new([uv[0], uv[1], uv[1], Z, Z], Control::Gradients);
        req.derivs[0][0] = map4(uv[0], |x| x * 0.25);
        req.derivs[1][1] = map4(uv[1], |y| y * 0.125);
        req.target = Some(TextureTarget::Tex2D);
        lanes(sample_quad(un, &un.sampler, &req, None))
    });
}

#[test]
fn txp_proj() {
    // q = x + 0.5; (s, t) = uv·2; TXP divides s, t by q (tgsi_exec micro_div)
    run("txp_proj", &|u, uv| {
        let q = map4(uv[0], |x| x + 0.5);
        let s = [0, 1, 2, 3].map(|l| uv[0][l] * 2.0 / q[l]);
        let t = [0, 1, 2, 3].map(|l| uv[1][l] * 2.0 / q[l]);
        lanes(tex(u, 0, [s, t, Z, Z, q], Control::Implicit))
    });
}

#[test]
fn txf_fetch_levels() {
    // (i, j, lod) = F2I(uv·(20, 20, 6)); (i, j) −= 2; TXF with lod in w
    run("txf_fetch_levels", &|u, uv| {
        let i = uv[0].map(|x| (x * 20.0) as i32 - 2);
        let j = uv[1].map(|y| (y * 20.0) as i32 - 2);
        let lod = uv[1].map(|y| (y * 6.0) as i32);
        let r = fetch::fetch_quad(unit(u, 0), i, j, [0; 4], lod, [0; 3]);
        [0, 1, 2, 3].map(|l| [r[0][l], r[1][l], r[2][l], r[3][l]])
    });
}

#[test]
fn txf_offset() {
    run("txf_offset", &|u, uv| {
        let i = uv[0].map(|x| (x * 8.0) as i32);
        let j = uv[1].map(|y| (y * 8.0) as i32);
        let r = fetch::fetch_quad(unit(u, 0), i, j, [0; 4], [0; 4], [-2, 3, -2]);
        [0, 1, 2, 3].map(|l| [r[0][l], r[1][l], r[2][l], r[3][l]])
    });
}

#[test]
fn tex_offset() {
    run("tex_offset", &|u, uv| {
        let un = unit(u, 0);
        let mut req = Request::new([uv[0], uv[1], uv[1], Z, Z], Control::Implicit);
        req.offsets = [-2, 3, -2];
        lanes(sample_quad(un, &un.sampler, &req, None))
    });
}

#[test]
fn txq_size() {
    // level = F2I(x·6) of lane 0 (one level per quad); I2F; DIV by 32; w = 1.
    // Level 5 does not exist (5 levels): softpipe leaves the result uninitialised there, so
    // those quads are skipped (we answer zeros, see fetch::dims).
    run("txq_size", &|u, uv| {
        let level = (uv[0][0] * 6.0) as i32;
        if level >= 5 {
            return [[u32::MAX; 4]; 4];
        }
        let d = fetch::dims(unit(u, 0), level);
        let v = [d[0] as f32 / 32.0, d[1] as f32 / 32.0, d[2] as f32 / 32.0, 1.0].map(f32::to_bits);
        [v; 4]
    });
}

#[test]
fn tg4_gather() {
    // MAD uv·1.5 − 0.25 (0xBE800000); TG4 component 1
    run("tg4_gather", &|u, uv| {
        let s = map4(uv[0], |x| x * 1.5 + imm(3196059648));
        let t = map4(uv[1], |x| x * 1.5 + imm(3196059648));
        lanes(tex(u, 0, [s, t, Z, Z, Z], Control::Gather(1)))
    });
}

#[test]
fn shadow_2d() {
    // ref = y·0.75 + 0.125 in src0.z; linear LEQUAL (unit 0) and nearest GREATER (unit 1)
    run("shadow_2d", &|u, uv| {
        let r = map4(uv[1], |y| y * 0.75 + 0.125);
        let a = tex(u, 0, [uv[0], uv[1], r, Z, Z], Control::Implicit);
        let b = tex(u, 1, [uv[0], uv[1], r, Z, Z], Control::Implicit);
        [0, 1, 2, 3].map(|l| [a[0][l], b[0][l], 0.0, 1.0].map(f32::to_bits))
    });
}

/// tgsi_exec LRP: a·(b − c) + c.
fn lrp(a: f32, b: f32, c: f32) -> f32 {
    a * (b - c) + c
}

#[test]
fn cube_faces() {
    // LRP xy = uv·(1 − (−1)) + (−1); z = x − y
    run("cube_faces", &|u, uv| {
        let x = map4(uv[0], |v| lrp(v, 1.0, -1.0));
        let y = map4(uv[1], |v| lrp(v, 1.0, -1.0));
        let z = [0, 1, 2, 3].map(|l| uv[0][l] - uv[1][l]);
        lanes(tex(u, 0, [x, y, z, Z, Z], Control::Implicit))
    });
}

#[test]
fn cube_mip() {
    // (lrp(x), 1, lrp(y)) · (x + 0.25)
    run("cube_mip", &|u, uv| {
        let k = map4(uv[0], |v| v + 0.25);
        let x = [0, 1, 2, 3].map(|l| lrp(uv[0][l], 1.0, -1.0) * k[l]);
        let y = k;
        let z = [0, 1, 2, 3].map(|l| lrp(uv[1][l], 1.0, -1.0) * k[l]);
        lanes(tex(u, 0, [x, y, z, x, Z], Control::Implicit))
    });
}

#[test]
fn tex3d_linear() {
    run("tex3d_linear", &|u, uv| {
        let r = map4(uv[1], |y| y * 0.75 + 0.125);
        lanes(tex(u, 0, [uv[0], uv[1], r, Z, Z], Control::Implicit))
    });
}

#[test]
fn array2d_layers() {
    // layer = x·4 − 0.7 (0xBF333333)
    run("array2d_layers", &|u, uv| {
        let layer = map4(uv[0], |x| x * 4.0 + imm(3207803699));
        lanes(tex(u, 0, [uv[0], uv[1], layer, Z, Z], Control::Implicit))
    });
}

#[test]
fn array1d_and_1d() {
    // (y·3, y·1.25); 1D array at (x, y·3); 1D at y·1.25; out = (a.xy, b.xy)
    run("array1d_and_1d", &|u, uv| {
        let layer = map4(uv[1], |y| y * 3.0);
        let s1 = map4(uv[1], |y| y * 1.25);
        let a = tex(u, 0, [uv[0], layer, Z, Z, Z], Control::Implicit);
        let b = tex(u, 1, [s1, Z, Z, Z, Z], Control::Implicit);
        xy_xy(a, b)
    });
}

fn wrap_case(name: &str) {
    // c = uv·3 − 1; out = (nearest.xy, linear.xy)
    run(name, &|u, uv| {
        let s = map4(uv[0], |x| x * 3.0 + -1.0);
        let t = map4(uv[1], |x| x * 3.0 + -1.0);
        let a = tex(u, 0, [s, t, Z, Z, Z], Control::Implicit);
        let b = tex(u, 1, [s, t, Z, Z, Z], Control::Implicit);
        xy_xy(a, b)
    });
}

#[test]
fn wrap_repeat() {
    wrap_case("wrap_repeat");
}
#[test]
fn wrap_clamp_to_edge() {
    wrap_case("wrap_clamp_to_edge");
}
#[test]
fn wrap_clamp_to_border() {
    wrap_case("wrap_clamp_to_border");
}
#[test]
fn wrap_mirrored_repeat() {
    wrap_case("wrap_mirrored_repeat");
}
#[test]
fn wrap_mirror_clamp() {
    wrap_case("wrap_mirror_clamp");
}
#[test]
fn wrap_mirror_clamp_to_edge() {
    wrap_case("wrap_mirror_clamp_to_edge");
}
#[test]
fn wrap_mirror_clamp_to_border() {
    wrap_case("wrap_mirror_clamp_to_border");
}

#[test]
fn int_textures() {
    // TXF of RGBA8UI at F2I(uv·4), U2F; TEX of RGBA32I (nearest), I2F
    run("int_textures", &|u, uv| {
        let i = uv[0].map(|x| (x * 4.0) as i32);
        let j = uv[1].map(|y| (y * 4.0) as i32);
        let a = fetch::fetch_quad(unit(u, 0), i, j, i, [0; 4], [0; 3]);
        let b = tex(u, 1, [uv[0], uv[1], uv[1], Z, Z], Control::Implicit);
        [0, 1, 2, 3].map(|l| {
            [
                a[0][l] as f32,
                a[1][l] as f32,
                b[0][l].to_bits() as i32 as f32,
                b[1][l].to_bits() as i32 as f32,
            ]
            .map(f32::to_bits)
        })
    });
}

#[test]
fn rect_unnormalized() {
    // c = uv·(6, 4) − 0.5 (0xBF000000)
    run("rect_unnormalized", &|u, uv| {
        let s = map4(uv[0], |x| x * 6.0 + -0.5);
        let t = map4(uv[1], |y| y * 4.0 + -0.5);
        let a = tex(u, 0, [s, t, Z, Z, Z], Control::Implicit);
        let b = tex(u, 1, [s, t, Z, Z, Z], Control::Implicit);
        xy_xy(a, b)
    });
}

#[test]
fn swizzle_base_level() {
    // k = floor(x·4) + 1; uv·k
    run("swizzle_base_level", &|u, uv| {
        let k = map4(uv[0], |x| (x * 4.0).floor() + 1.0);
        let s = [0, 1, 2, 3].map(|l| uv[0][l] * k[l]);
        let t = [0, 1, 2, 3].map(|l| uv[1][l] * k[l]);
        lanes(tex(u, 0, [s, t, Z, Z, Z], Control::Implicit))
    });
}

#[test]
fn float_r32f_lod_bias() {
    // uv·0.75 + 0.0625
    run("float_r32f_lod_bias", &|u, uv| {
        let s = map4(uv[0], |x| x * 0.75 + 0.0625);
        let t = map4(uv[1], |x| x * 0.75 + 0.0625);
        lanes(tex(u, 0, [s, t, Z, Z, Z], Control::Implicit))
    });
}

#[test]
fn lodq_matches_the_implicit_lod_used() {
    // Not a softpipe case (GLSL 3.30 has no textureQueryLod): λ of a quad whose s changes by
    // 1/32 per pixel on a 16-texel texture is log2(0.5) = −1; the used LOD clamps to 0.
    let units = load_units("tex_mip_implicit");
    let u = unit(&units, 0);
    let s = [0.0, 1.0 / 32.0, 0.0, 1.0 / 32.0];
    let r = query_lod(u, &u.sampler, &[s, Z, Z, Z, Z]);
    assert_eq!(r[1], [-1.0; 4]);
    assert_eq!(r[0], [0.0; 4]);
}

#[test]
fn shadow_cube_array2d() {
    // cube: (x·2 − 1, y·2 − 1, 0.5), ref x in c0 (src0.w); 2D array: layer y·2, ref x in c0
    run("shadow_cube_array2d", &|u, uv| {
        let dx = map4(uv[0], |x| x * 2.0 + -1.0);
        let dy = map4(uv[1], |y| y * 2.0 + -1.0);
        let a = tex(u, 0, [dx, dy, [0.5; 4], uv[0], Z], Control::Implicit);
        let layer = map4(uv[1], |y| y * 2.0);
        let b = tex(u, 1, [uv[0], uv[1], layer, uv[0], Z], Control::Implicit);
        [0, 1, 2, 3].map(|l| [a[0][l], b[0][l], 0.0, 1.0].map(f32::to_bits))
    });
}

#[test]
fn txd_cube_3d() {
    // cube at (x·2 − 1, 1, y·2 − 1), d/dx = (x·0.5, 0, 0), d/dy = (0, 0, y·0.25);
    // 3D at (x, y, 0.5), d/dx = (x·0.5, 0, 0), d/dy = (0, 0, y)
    run("txd_cube_3d", &|u, uv| {
        let grad = |n: u32, target: TextureTarget, coords: [[f32; 4]; 5], ddy_r: [f32; 4]| {
            let un = unit(u, n);
            let mut req = Request::new(coords, Control::Gradients);
            req.derivs[0][0] = map4(uv[0], |x| x * 0.5);
            req.derivs[2][1] = ddy_r;
            req.target = Some(target);
            sample_quad(un, &un.sampler, &req, None)
        };
        let cx = map4(uv[0], |x| x * 2.0 + -1.0);
        let cz = map4(uv[1], |y| y * 2.0 + -1.0);
        let a = grad(0, TextureTarget::Cube, [cx, [1.0; 4], cz, Z, Z], map4(uv[1], |y| y * 0.25));
        let b = grad(1, TextureTarget::Tex3D, [uv[0], uv[1], [0.5; 4], Z, Z], uv[1]);
        xy_xy(a, b)
    });
}

#[test]
fn tg4_offset_shadow() {
    // TG4 of component 0 at uv with offset (1, −1); shadow gather (LESS, ref 0.5) at uv·1.25
    run("tg4_offset_shadow", &|u, uv| {
        let un = unit(u, 0);
        let mut req = Request::new([uv[0], uv[1], Z, Z, Z], Control::Gather(0));
        req.offsets = [1, -1, 1];
        let a = sample_quad(un, &un.sampler, &req, None);
        let s = map4(uv[0], |x| x * 1.25);
        let t = map4(uv[1], |y| y * 1.25);
        let b = tex(u, 1, [s, t, [0.5; 4], Z, Z], Control::Gather(0));
        [0, 1, 2, 3].map(|l| [a[0][l], a[3][l], b[0][l], b[2][l]].map(f32::to_bits))
    });
}

#[test]
fn txl_offset_txb_cube() {
    // TXL at uv, LOD y·4, offset (3, −2); TXB cube at (1, x·2 − 1, y·2 − 1) with bias x·4 − 1
    run("txl_offset_txb_cube", &|u, uv| {
        let un = unit(u, 0);
        let mut req =
            Request::new([uv[0], uv[1], uv[0], Z, map4(uv[1], |y| y * 4.0)], Control::Explicit);
        req.offsets = [3, -2, 3];
        let a = sample_quad(un, &un.sampler, &req, None);
        let cy = map4(uv[0], |x| x * 2.0 + -1.0);
        let cz = map4(uv[1], |y| y * 2.0 + -1.0);
        let bias = map4(uv[0], |x| x * 4.0 + -1.0);
        let b = tex(u, 1, [[1.0; 4], cy, cz, Z, bias], Control::Bias);
        [0, 1, 2, 3].map(|l| [a[0][l], a[2][l], b[0][l], b[1][l]].map(f32::to_bits))
    });
}

#[test]
fn cube_array() {
    // MAD (x·2 − 1, y·2 − 1, ·, x·3 − 0.5); z = −0.5; layer in c0 (src0.w)
    run("cube_array", &|u, uv| {
        let dx = map4(uv[0], |x| x * 2.0 + -1.0);
        let dy = map4(uv[1], |y| y * 2.0 + -1.0);
        let layer = map4(uv[0], |x| x * 3.0 + -0.5);
        lanes(tex(u, 0, [dx, dy, [-0.5; 4], layer, Z], Control::Implicit))
    });
}

#[test]
fn shadow_1d_rect_proj() {
    // SHADOW1D: s = x, ref = y (src0.z); SHADOWRECT at uv·4, ref 0.5;
    // TXP SHADOW2D: (x, y, 0.5, 1)·k with k = x + 0.5, then s, t and ref divided by w
    run("shadow_1d_rect_proj", &|u, uv| {
        let a = tex(u, 0, [uv[0], uv[0], uv[1], Z, Z], Control::Implicit);
        let s4 = map4(uv[0], |x| x * 4.0);
        let t4 = map4(uv[1], |y| y * 4.0);
        let b = tex(u, 1, [s4, t4, [0.5; 4], Z, Z], Control::Implicit);
        let k = map4(uv[0], |x| x + 0.5);
        let (mut s, mut t, mut r) = (Z, Z, Z);
        for l in 0..4 {
            let w = 1.0 * k[l];
            s[l] = uv[0][l] * k[l] / w;
            t[l] = uv[1][l] * k[l] / w;
            r[l] = 0.5 * k[l] / w;
        }
        let c = tex(u, 2, [s, t, r, Z, Z], Control::Implicit);
        [0, 1, 2, 3].map(|l| [a[0][l], b[0][l], c[0][l], 1.0].map(f32::to_bits))
    });
}

#[test]
fn lodq_query() {
    // c = uv·(floor(x·8) + 0.5, floor(y·4) + 1); LODQ → (level used, λ) for two samplers
    run("lodq_query", &|u, uv| {
        let kx = map4(uv[0], |x| (x * 8.0).floor() + 0.5);
        let ky = map4(uv[1], |y| (y * 4.0).floor() + 1.0);
        let s = [0, 1, 2, 3].map(|l| uv[0][l] * kx[l]);
        let t = [0, 1, 2, 3].map(|l| uv[1][l] * ky[l]);
        let q = |n: u32| {
            let un = unit(u, n);
            query_lod(un, &un.sampler, &[s, t, Z, Z, Z])
        };
        let (a, b) = (q(0), q(1));
        [0, 1, 2, 3].map(|l| [a[0][l], a[1][l], b[0][l], b[1][l]].map(f32::to_bits))
    });
}

#[test]
fn indirect_sampler() {
    // i = min(F2I(x·5) % 3, 2); TEX … SAMP[ADDR[2].x]: tgsi_exec samples the whole quad with the
    // unit of the first active lane (lane 0 here: all lanes are covered). Quads (18, 19) and
    // (24, 25) straddle a change of i, so lane 1 reads lane 0's unit there.
    run("indirect_sampler", &|u, uv| {
        let i = ((uv[0][0] * 5.0) as i32 as u32 % 3).min(2);
        lanes(tex(u, i, [uv[0], uv[1], uv[1], Z, Z], Control::Implicit))
    });
}

fn scaled_tex(name: &str) {
    // MUL uv·1.25; TEX 2D — the result shows the (r, 0, 0, 1) / (r, g, 0, 1) component fill
    run(name, &|u, uv| {
        let s = map4(uv[0], |x| x * 1.25);
        let t = map4(uv[1], |y| y * 1.25);
        lanes(tex(u, 0, [s, t, Z, Z, Z], Control::Implicit))
    });
}

#[test]
fn format_r8() {
    scaled_tex("format_r8");
}

#[test]
fn format_rg32f() {
    scaled_tex("format_rg32f");
}

#[test]
fn format_int32_int8() {
    // TXF at F2I(uv·4), LOD 0; U2F of RGBA32UI .x, .w; I2F of RGBA8I .y, .w
    run("format_int32_int8", &|u, uv| {
        let i = uv[0].map(|x| (x * 4.0) as i32);
        let j = uv[1].map(|y| (y * 4.0) as i32);
        let a = fetch::fetch_quad(unit(u, 0), i, j, i, [0; 4], [0; 3]);
        let b = fetch::fetch_quad(unit(u, 1), i, j, i, [0; 4], [0; 3]);
        [0, 1, 2, 3].map(|l| {
            [a[0][l] as f32, a[3][l] as f32, b[1][l] as i32 as f32, b[3][l] as i32 as f32]
                .map(f32::to_bits)
        })
    });
}
