//! JSON texture descriptions, image files and `U=FILE` bindings (docs/textures.md).

use tgsi::texture::desc::{self, RgbaImage};
use tgsi::texture::desc_image::{load_png, save_png};
use tgsi::texture::format::unorm8_to_float;
use tgsi::texture::sampler::{CompareFunc, Filter, MipFilter, Swizzle, Wrap};
use tgsi::texture::{Dim, Format};

fn no_image(name: &str) -> Result<RgbaImage, String> {
    Err(format!("unexpected image {name}"))
}

fn texel(u: &tgsi::texture::TextureUnit, level: usize, x: i32, y: i32, z: i32) -> [f32; 4] {
    u.texture.levels[level].get(x, y, z).unwrap_or([u32::MAX; 4]).map(f32::from_bits)
}

fn tmp_dir(name: &str) -> std::path::PathBuf {
    crate::scratch::dir(&format!("texture-{name}"))
}

#[test]
fn inline_2d_with_sampler_state() {
    let json = r#"{ "target": "2D", "format": "RG8", "width": 2, "height": 1,
        "texels": [[0, 255], [51, 102]],
        "swizzle": "grba",
        "sampler": { "min_filter": "LINEAR_MIPMAP_NEAREST", "mag_filter": "NEAREST",
                     "wrap_s": "MIRRORED_REPEAT", "wrap_t": "clamp_to_border",
                     "border_color": [1, 0.5, 0.25, 0], "lod_bias": 0.5, "min_lod": -2, "max_lod": 3,
                     "compare": "GREATER" } }"#;
    let u = desc::parse_description(json, &no_image).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((u.texture.dim, u.texture.format), (Dim::D2, Format::Rg8));
    // RG → (r, g, 0, 1), 8-bit values through softpipe's reciprocal multiply
    assert_eq!(texel(&u, 0, 1, 0, 0), [unorm8_to_float(51), unorm8_to_float(102), 0.0, 1.0]);
    let s = u.sampler;
    assert_eq!(
        (s.min_filter, s.mip_filter, s.mag_filter),
        (Filter::Linear, MipFilter::Nearest, Filter::Nearest)
    );
    assert_eq!(s.wrap, [Wrap::MirroredRepeat, Wrap::ClampToBorder, Wrap::Repeat]);
    assert_eq!(
        (s.border_color, s.lod_bias, s.min_lod, s.max_lod),
        ([1.0, 0.5, 0.25, 0.0], 0.5, -2.0, 3.0)
    );
    assert_eq!(s.compare, Some(CompareFunc::Greater));
    assert_eq!(u.view.swizzle, [Swizzle::G, Swizzle::R, Swizzle::B, Swizzle::A]);
}

#[test]
fn cube_faces_layers_and_generated_mips() {
    let face = |v: u32| {
        format!(
            r#"{{"face": "{}", "texels": [{v},{v},{v},{v}]}}"#,
            ["+X", "-X", "+Y", "-Y", "+Z", "-Z"][v as usize]
        )
    };
    let images: Vec<String> = (0..6).map(face).collect();
    let json = format!(
        r#"{{"target": "CUBE", "format": "R32F", "width": 2, "height": 2, "generate_mipmaps": true,
        "images": [{}]}}"#,
        images.join(",")
    );
    let u = desc::parse_description(&json, &no_image).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(u.texture.num_levels(), 2);
    // face −Y (3) holds 3.0; the generated 1×1 level averages four 3.0 texels
    assert_eq!(texel(&u, 0, 1, 1, 3)[0], 3.0);
    assert_eq!(texel(&u, 1, 0, 0, 5)[0], 5.0);
    // 2D array, flat list of values, bits given as hex strings
    let json = r#"{"target": "2D_ARRAY", "format": "R32UI", "width": 1, "height": 1, "layers": 2,
        "images": [{"layer": 0, "texels": [7]}, {"layer": 1, "texels": ["0xffffffff"]}]}"#;
    let u = desc::parse_description(json, &no_image).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(u.texture.levels[0].get(0, 0, 1).map(|t| t[0]), Some(u32::MAX));
}

#[test]
fn oracle_files_bind_by_unit() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/texture-cases/shadow_2d.textures.json");
    let (unit, u) = desc::load_binding(&format!("1={path}")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(unit, 1);
    assert_eq!(u.sampler.compare, Some(CompareFunc::Greater));
    assert_eq!(u.texture.format, Format::Depth32F);
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(desc::parse_description(&text, &no_image).is_err(), "two textures need a unit");
}

#[test]
fn png_files_are_read_upright() {
    let dir = tmp_dir("png");
    // 1×2 image: top pixel red, bottom pixel blue
    let img = RgbaImage { width: 1, height: 2, rgba: vec![255, 0, 0, 255, 0, 0, 255, 128] };
    let file = dir.join("two.png");
    save_png(&file, &img).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(load_png(&file).as_ref(), Ok(&img));
    let spec = format!("2={},nearest,clamp", file.display());
    let (unit, u) = desc::load_binding(&spec).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(unit, 2);
    // row 0 (t near 0) is the file's bottom row (blue); the top row (t = 1) is red
    assert_eq!(texel(&u, 0, 0, 0, 0), [0.0, 0.0, 1.0, unorm8_to_float(128)]);
    assert_eq!(texel(&u, 0, 0, 1, 0), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!((u.sampler.mag_filter, u.sampler.wrap[0]), (Filter::Nearest, Wrap::ClampToEdge));
    // a description can refer to the image relative to its own folder
    let json = dir.join("desc.json");
    let _ = std::fs::write(
        &json,
        r#"{"format": "R8", "file": "two.png", "sampler": {"filter": "linear"}}"#,
    );
    let (_, u) = desc::load_binding(&format!("0={},mipmap", json.display()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(texel(&u, 0, 0, 1, 0), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!((u.texture.num_levels(), u.sampler.mip_filter), (2, MipFilter::Linear));
}

#[test]
fn decoded_images_bind_with_options() {
    let img = RgbaImage { width: 2, height: 2, rgba: (0..16).map(|i| i as u8 * 16).collect() };
    // Decoded pixels with the option words of `U=FILE,…`, as the page passes them.
    let bind = |options: &[&str]| {
        let spec = desc::TextureSpec {
            unit: 0,
            data: desc::TextureData::Image(img.clone()),
            options: options.iter().map(|o| o.to_string()).collect(),
            images: None,
        };
        spec.bind(&mut desc::TextureBytes::job())
    };
    let u = bind(&["nearest", "mirror", "mipmap"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (u.sampler.min_filter, u.sampler.wrap[1], u.texture.num_levels()),
        (Filter::Nearest, Wrap::MirroredRepeat, 2)
    );
    // the file's top-left pixel (bytes 0, 16, 32, 48) is the texture's top row (y = 1)
    assert_eq!(texel(&u, 0, 0, 1, 0), [0, 16, 32, 48].map(unorm8_to_float));
    assert!(bind(&["bilinear"]).is_err());
    // `shadow`: depth comparison with LEQUAL (the JSON's "compare": "LEQUAL"); none without it
    assert_eq!(u.sampler.compare, None);
    let s = bind(&["shadow"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.sampler.compare, Some(tgsi::texture::sampler::CompareFunc::LessEqual));
}

#[test]
fn bad_descriptions_are_reported() {
    let cases = [
        (
            "not json",
            "texture description is not JSON: expected a value, found 'n' (line 1, column 1)",
        ),
        (
            "{\"width\": 1,\n  \"texels\": [[0, 0, 0, 0]],\n}",
            "not JSON: expected a member name in double quotes, found '}' (line 3, column 1)",
        ),
        (
            r#"{"width": 1, "texels": [[1e39999, 0, 0, 0]]}"#,
            "a number beyond the range of a double",
        ),
        (r#"{"target": "4D", "width": 1, "texels": [[0,0,0,0]]}"#, "unknown target"),
        (r#"{"format": "RGB9", "width": 1, "texels": [[0,0,0,0]]}"#, "unknown format"),
        (r#"{"width": 2, "height": 1, "texels": [[0,0,0,0]]}"#, "1 texels given, 2 needed"),
        (r#"{"width": 1, "texels": [[0,0,0]]}"#, "has 4 values"),
        (r#"{"width": 1}"#, "no texel data"),
        (r#"{"width": 100000, "height": 100000, "texels": []}"#, "outside"),
        (
            r#"{"width": 4096, "height": 4096, "layers": 64, "target": "2D_ARRAY", "texels": []}"#,
            "too large",
        ),
        (
            r#"{"target": "CUBE", "width": 1, "height": 1, "images": [{"texels": [[0,0,0,0]]}]}"#,
            "need \"face\"",
        ),
        (r#"{"width": 1, "texels": [[0,0,0,0]], "sampler": {"wrap": "sideways"}}"#, "unknown wrap"),
        (
            r#"{"width": 1, "texels": [[0,0,0,0]], "sampler": {"compare_mode": "MAYBE"}}"#,
            "compare_mode",
        ),
        (r#"{"width": 1, "texels": [[0,0,0,0]], "swizzle": "rgbq"}"#, "swizzle"),
        (r#"{"width": 1, "texels": [["0xZZ",0,0,0]]}"#, "bad texel value"),
        // Neither a number nor a string: named, not echoed.
        (
            r#"{"width": 1, "texels": [[[1.5, 2], 0, 0, 0]]}"#,
            "bad texel value: a list (use a number or \"0xXXXXXXXX\")",
        ),
        (r#"{"width": 1, "texels": [[0, {"r": 1e300}, 0, 0]]}"#, "bad texel value: an object"),
        (r#"{"width": 1, "texels": [[0, 0, true, 0]]}"#, "bad texel value: true"),
        (r#"{"width": 1, "texels": [[0, 0, 0, null]]}"#, "bad texel value: null"),
        (r#"{"width": 1, "images": [{"layer": 3, "texels": [[0,0,0,0]]}]}"#, "layer out of range"),
        (
            r#"{"target": "CUBE", "width": 1, "height": 1, "images": [{"layer": 4294967295, "face": 5, "texels": [[0,0,0,0]]}]}"#,
            "layer out of range",
        ),
        (r#"{"width": 1, "images": [{"level": 4294967295, "texels": [[0,0,0,0]]}]}"#, "level"),
    ];
    // Longer than the input limit: refused before it is read (16 MiB of spaces after a valid one).
    let long = format!("{{\"width\": 1, \"texels\": [[0,0,0,0]]}}{}", " ".repeat(16 << 20));
    let error = desc::parse_description(&long, &no_image).err().unwrap_or_default();
    assert!(
        error
            .starts_with("texture description: the input is 16777251 bytes; the limit is 16777216"),
        "{error}"
    );
    for (json, want) in cases {
        match desc::parse_description(json, &no_image) {
            Ok(_) => panic!("accepted {json}"),
            Err(e) => assert!(e.contains(want), "{json}: {e}"),
        }
    }
    for spec in ["x.png", "a=x.png", "0=", "0=/nonexistent/x.png", "0=/nonexistent/x.json"] {
        assert!(desc::load_binding(spec).is_err(), "{spec}");
    }
}

#[test]
fn every_example_in_the_docs_parses() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/textures.md"))
        .unwrap_or_default();
    let start = doc.find("### One example per target").unwrap_or_else(|| panic!("section missing"));
    let block = doc[start..].split("```").nth(1).unwrap_or("").trim_start_matches("json");
    let photo = |_: &str| Ok(RgbaImage { width: 4, height: 4, rgba: vec![200; 64] });
    let mut targets = Vec::new();
    for value in serde_json::Deserializer::from_str(block).into_iter::<serde_json::Value>() {
        let value = value.unwrap_or_else(|e| panic!("docs example is not JSON: {e}"));
        let u = desc::parse_description(&value.to_string(), &photo)
            .unwrap_or_else(|e| panic!("{value}: {e}"));
        targets.push(u.texture.dim);
    }
    // one example per target
    for dim in [
        Dim::Buffer,
        Dim::D1,
        Dim::D2,
        Dim::D3,
        Dim::Cube,
        Dim::Rect,
        Dim::D1Array,
        Dim::D2Array,
        Dim::CubeArray,
        Dim::D2Msaa,
        Dim::D2ArrayMsaa,
    ] {
        assert!(targets.contains(&dim), "no docs example for {dim:?}");
    }
}

/// The page's wrap words (web/textures.js `WRAP_NAMES`) are the engine's: the same word → GL
/// name pairs as `texture::sampler::WRAP_NAMES`, so every menu entry and share-link word means
/// what `--texture U=FILE,word` means.
#[test]
fn page_wrap_words_are_the_engines() {
    let js = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/textures.js"))
        .expect("web/textures.js");
    let start = js.find("const WRAP_NAMES = {").expect("WRAP_NAMES in textures.js");
    let body = &js[start..start + js[start..].find("};").expect("end of WRAP_NAMES")];
    let mut page: Vec<(String, String)> = Vec::new();
    for entry in body.trim_start_matches("const WRAP_NAMES = {").split(',') {
        let Some((k, v)) = entry.split_once(':') else { continue };
        let clean = |s: &str| s.trim().trim_matches(|c| c == '\'' || c == '"').to_string();
        page.push((clean(k), clean(v)));
    }
    let engine: Vec<(String, String)> = tgsi::texture::sampler::WRAP_NAMES
        .iter()
        .map(|(_, gl, word)| (word.to_string(), gl.to_string()))
        .collect();
    let (mut a, mut b) = (page.clone(), engine.clone());
    a.sort();
    b.sort();
    assert_eq!(a, b, "web/textures.js WRAP_NAMES vs texture::sampler::WRAP_NAMES");
}

/// What the shells bind (`TextureSpec`, read by `render::options`): an image is charged as it
/// is stored, 16 bytes a texel as a description's texels are, not the 4 of its pixels: two 2x2
/// images (64 bytes each) do not both fit in 100 bytes, where 16 bytes each would have.
#[test]
fn bound_images_are_charged_as_stored() {
    use tgsi::texture::desc::{TextureBytes, TextureData, TextureSpec};
    let spec = TextureSpec {
        unit: 0,
        data: TextureData::Image(RgbaImage { width: 2, height: 2, rgba: vec![7; 16] }),
        options: vec!["nearest".into()],
        images: None,
    };
    let mut bytes = TextureBytes::new(100);
    let first = spec.bind(&mut bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (first.sampler.mag_filter, texel(&first, 0, 1, 1, 0)),
        (Filter::Nearest, [unorm8_to_float(7); 4])
    );
    let second = spec.bind(&mut bytes).err().unwrap_or_default();
    assert!(second.contains("more than 100 bytes in all"), "{second}");
}
