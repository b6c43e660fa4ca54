//! The softpipe texture cases are well-formed: every `.tgsi` parses with the front end, every
//! texture instruction names a unit described in `.textures.json`, its target fits that
//! texture's shape, and SHADOW targets go with comparing samplers (and only they).

use std::collections::BTreeMap;

use tgsi::ir::{File, TextureTarget};
use tgsi::texture::{desc, Dim, TextureUnit};

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/texture-cases/");

fn fits(target: TextureTarget, dim: Dim) -> bool {
    use TextureTarget::*;
    match target {
        Tex1D | Shadow1D => dim == Dim::D1,
        Array1D | Shadow1DArray => dim == Dim::D1Array,
        Tex2D | Shadow2D => dim == Dim::D2,
        Rect | ShadowRect => dim == Dim::Rect,
        Array2D | Shadow2DArray => dim == Dim::D2Array,
        Tex3D => dim == Dim::D3,
        Cube | ShadowCube => dim == Dim::Cube,
        CubeArray | ShadowCubeArray => dim == Dim::CubeArray,
        _ => false,
    }
}

#[test]
fn cases_parse_and_match_their_textures() {
    let mut names: Vec<String> = std::fs::read_dir(CASES)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".glsl"));
    names.sort();
    assert!(names.len() >= 31, "cases found: {}", names.len());
    for name in names {
        let stem = name.trim_end_matches(".glsl");
        let text = std::fs::read_to_string(format!("{CASES}{stem}.tgsi"))
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let parsed = tgsi::text::parse(&text);
        let shader = parsed.shader.unwrap_or_else(|| panic!("{stem}: {:?}", parsed.diagnostics));
        let json =
            std::fs::read_to_string(format!("{CASES}{stem}.textures.json")).unwrap_or_default();
        let units: BTreeMap<u32, TextureUnit> = desc::parse_all(&json, &|n| Err(n.to_string()))
            .unwrap_or_else(|e| panic!("{stem}: {e}"))
            .into_iter()
            .collect();
        let mut sampled = 0;
        for inst in &shader.instructions {
            let Some(target) = inst.texture else { continue };
            let Some(samp) = inst.src.iter().find(|s| s.reg.file == File::Samp) else { continue };
            let index = samp.reg.index.offset as u32;
            let unit =
                units.get(&index).unwrap_or_else(|| panic!("{stem}: SAMP[{index}] has no texture"));
            assert!(
                fits(target, unit.texture.dim),
                "{stem}: {target} on a {:?} texture",
                unit.texture.dim
            );
            assert_eq!(
                target.is_shadow(),
                unit.sampler.compare.is_some(),
                "{stem}: {target} and compare state"
            );
            sampled += 1;
        }
        assert!(sampled > 0, "{stem}: no texture instruction");
    }
}
