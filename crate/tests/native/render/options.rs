//! The shared render entry (`render::options::read`): what both shells' options become (the
//! job's request, the texture bindings) and the diagnostic of each kind of bad option.

use tgsi::render::job::Request;
use tgsi::render::job::Source;
use tgsi::render::options::{read, ConstValue, RenderOptions};
use tgsi::render::uniforms::Builtins;
use tgsi::texture::desc::{RgbaImage, TextureData, TextureSpec};
use tgsi::texture::sampler::{CompareFunc, Filter, Wrap};
use tgsi::texture::Format;

const FS: &str = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1, 0, 0, 1 }\nMOV OUT[0], IMM[0]\nEND\n";

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn description(unit: u32, json: &str, options: &[&str]) -> TextureSpec {
    TextureSpec {
        unit,
        data: TextureData::Description(json.to_string()),
        options: strings(options),
        images: None,
    }
}

fn image(unit: u32, width: u32, height: u32, rgba: Vec<u8>) -> TextureSpec {
    TextureSpec {
        unit,
        data: TextureData::Image(RgbaImage { width, height, rgba }),
        options: Vec::new(),
        images: None,
    }
}

/// `(code, message)` of every diagnostic, each checked to be an error about the render.
fn problems(options: &RenderOptions) -> Vec<(&'static str, String)> {
    let setup = read(options);
    for d in &setup.diagnostics {
        assert_eq!(d.source, Source::Render, "{d:?}");
        assert!(d.diagnostic.is_error(), "{d:?}");
    }
    setup.diagnostics.iter().map(|d| (d.diagnostic.code, d.diagnostic.message.clone())).collect()
}

fn texel(t: &tgsi::texture::TextureUnit, x: i32, y: i32) -> [u32; 4] {
    t.texture.levels[0].get(x, y, 0).unwrap_or([u32::MAX; 4])
}

#[test]
fn good_options_become_the_request_and_the_bindings() {
    let (consts, vs_consts, gs_consts) =
        (strings(&["0:1=1,2,3,4"]), strings(&["2=0x3f800000"]), strings(&["1:0=5"]));
    // A 1x1 RGBA8 description (bound with nearest and clamp), a 2x1 image (its default
    // sampler), and the second texture of the oracle file shadow_2d (its unit 1).
    let oracle = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/texture-cases/shadow_2d.textures.json"
    ))
    .unwrap_or_default();
    let textures = [
        description(
            2,
            r#"{"width": 1, "height": 1, "texels": [[10, 20, 30, 255]]}"#,
            &["nearest", "clamp"],
        ),
        image(5, 2, 1, vec![1, 2, 3, 4, 5, 6, 7, 8]),
        description(1, &oracle, &[]),
    ];
    let options = RenderOptions {
        frame: Request {
            fs: FS,
            mesh: Some("quad"),
            width: 8,
            height: 4,
            builtins: Builtins { time: 1.5, frame: 3, ..Builtins::default() },
            ..Request::default()
        },
        consts: &consts,
        vs_consts: &vs_consts,
        gs_consts: &gs_consts,
        textures: &textures,
        ..RenderOptions::default()
    };
    let setup = read(&options);
    assert!(setup.diagnostics.is_empty() && !setup.has_errors(), "{:?}", setup.diagnostics);
    let r = &setup.request;
    assert_eq!((r.fs, r.mesh, r.vs, r.width, r.height), (FS, Some("quad"), None, 8, 4));
    let bits = |v: [f32; 4]| v.map(f32::to_bits);
    assert_eq!(r.constants, [ConstValue { buffer: 0, index: 1, bits: bits([1.0, 2.0, 3.0, 4.0]) }]);
    assert_eq!(r.vs_constants, [ConstValue { buffer: 0, index: 2, bits: [0x3f80_0000, 0, 0, 0] }]);
    assert!(r.fs_constants.is_empty());
    assert_eq!(
        r.gs_constants,
        [ConstValue { buffer: 1, index: 0, bits: bits([5.0, 0.0, 0.0, 0.0]) }]
    );
    // The frame's size reaches the built-in uniforms with the time and frame given.
    assert_eq!(
        r.builtins,
        Builtins { width: 8, height: 4, time: 1.5, frame: 3, ..Builtins::default() }
    );
    let units: Vec<u32> = setup.textures.units.keys().copied().collect();
    assert_eq!(units, [1, 2, 5]);
    let described = &setup.textures.units[&2];
    assert_eq!(
        (described.sampler.mag_filter, described.sampler.wrap[0]),
        (Filter::Nearest, Wrap::ClampToEdge)
    );
    assert_eq!(
        texel(described, 0, 0),
        [10, 20, 30, 255].map(|b| tgsi::texture::format::unorm8_to_float(b).to_bits())
    );
    // The image's bytes, left to right (one row: upright and bottom-up are the same).
    let pixels = &setup.textures.units[&5];
    assert_eq!(
        texel(pixels, 1, 0),
        [5, 6, 7, 8].map(|b| tgsi::texture::format::unorm8_to_float(b).to_bits())
    );
    let oracle_unit = &setup.textures.units[&1];
    assert_eq!(
        (oracle_unit.texture.format, oracle_unit.sampler.compare),
        (Format::Depth32F, Some(CompareFunc::Greater))
    );
}

#[test]
fn each_bad_option_is_its_diagnostic_and_the_good_ones_stay() {
    // Constants: R004 with the constant parser's own words, the good ones kept in order.
    let consts = strings(&["0:1=1", "0:2=x", "3=2"]);
    let fs_consts = strings(&["99:0=1"]);
    let options = RenderOptions {
        frame: Request { fs: FS, width: 4, height: 4, ..Request::default() },
        consts: &consts,
        fs_consts: &fs_consts,
        ..RenderOptions::default()
    };
    let setup = read(&options);
    assert_eq!(
        setup.request.constants.iter().map(|c| c.index).collect::<Vec<_>>(),
        [1, 3],
        "the bad constant is left out"
    );
    assert!(setup.request.fs_constants.is_empty());
    assert_eq!(
        problems(&options),
        [
            (
                "R004",
                "bad constant value 'x' in '0:2=x': a decimal float or 0x and 8 hex digits".into()
            ),
            (
                "R004",
                "constant CONST[99][0] is out of range (buffers 0..31, registers 0..4095)".into()
            ),
        ]
    );

    // Textures: R005 naming the unit, one per texture, the good one still bound.
    let textures = [
        description(3, "not json", &[]),
        description(4, r#"{"width": 2, "texels": [[0, 0, 0, 0]]}"#, &[]),
        // A description naming an image file where no files are read (the page).
        description(6, r#"{"file": "photo.png"}"#, &[]),
        description(7, r#"{"width": 1, "texels": [[0, 0, 0, 0]]}"#, &["bilinear"]),
        image(8, 2, 2, vec![0; 12]),
        description(
            9,
            r#"{"textures": [{"unit": 0, "width": 1, "texels": [[0,0,0,0]]}, {"unit": 1, "width": 1, "texels": [[0,0,0,0]]}]}"#,
            &[],
        ),
        image(10, 1, 1, vec![9, 9, 9, 9]),
    ];
    let options = RenderOptions {
        frame: Request { fs: FS, width: 4, height: 4, ..Request::default() },
        textures: &textures,
        ..RenderOptions::default()
    };
    let found = problems(&options);
    let codes: Vec<&str> = found.iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, ["R005"; 6]);
    let wanted = [
        "texture for unit 3: texture description is not JSON: ",
        "texture for unit 4: ",
        "texture for unit 6: image 'photo.png': no image files are read here; give the texels inline",
        "texture for unit 7: unknown texture option \"bilinear\"",
        "texture for unit 8: 12 bytes of RGBA8 pixels given, 2x2 needs 16",
        "texture for unit 9: the file describes 2 textures, none for unit 9",
    ];
    for ((_, message), want) in found.iter().zip(wanted) {
        assert!(message.starts_with(want), "{message:?} does not start with {want:?}");
    }
    assert!(found[1].1.contains("1 texels given, 2 needed"), "{}", found[1].1);
    let setup = read(&options);
    assert_eq!(setup.textures.units.keys().copied().collect::<Vec<_>>(), [10]);
}
