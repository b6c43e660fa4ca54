//! JSON texture descriptions and `U=FILE` bindings (schema in `docs/textures.md`).
//!
//! A description gives the target, format, size, levels, layers or cube faces, texel data
//! (inline or image files) and the sampler state. The file format of the softpipe oracle
//! (`tgsi-oracle-textures/1`, several textures with their units) is accepted as well, so the
//! conformance cases feed the same file to Mesa and to us. Texel rows go bottom-up (row 0 is
//! t = 0); image files are read upright (their top row is t = 1).

use crate::ir::LineIndex;
use crate::json::tree::{self, Object, Value};

use super::format::{Format, StoredValue};
use super::image::{Dim, Texture};
use super::sampler::{
    parse_min_filter, CompareFunc, Filter, MipFilter, SamplerState, Swizzle, TextureUnit, Wrap,
    WRAP_NAMES,
};

pub use super::desc_image::RgbaImage;

/// Something that can turn an image reference (a file name) into pixels.
pub type ImageLoader<'a> = &'a dyn Fn(&str) -> Result<RgbaImage, String>;

/// Parses one texture description (or an oracle file holding exactly one texture).
pub fn parse_description(json: &str, images: ImageLoader) -> Result<TextureUnit, String> {
    parse_description_charged(json, images, &mut TextureBytes::job())
}

/// [`parse_description`] drawing from a render job's texture bytes.
pub fn parse_description_charged(
    json: &str,
    images: ImageLoader,
    budget: &mut TextureBytes,
) -> Result<TextureUnit, String> {
    let all = parse_all_charged(json, images, budget)?;
    match all.len() {
        1 => all.into_iter().next().map(|(_, u)| u).ok_or_else(|| "no texture".to_string()),
        n => Err(format!("the file describes {n} textures; bind one with its unit (U=FILE)")),
    }
}

/// Parses every texture of a description file with its unit (an oracle file may hold several;
/// a single description has unit 0 unless it says `"unit"`).
pub fn parse_all(json: &str, images: ImageLoader) -> Result<Vec<(u32, TextureUnit)>, String> {
    parse_all_charged(json, images, &mut TextureBytes::job())
}

/// [`parse_all`] drawing from the byte budget of a whole render job (every unit's textures,
/// from every file, share one [`TextureBytes`]).
pub fn parse_all_charged(
    json: &str,
    images: ImageLoader,
    budget: &mut TextureBytes,
) -> Result<Vec<(u32, TextureUnit)>, String> {
    // The tree takes up to about 16 times its text (a list of one-digit numbers): the text's
    // length is checked first, as a shader's is.
    crate::limits::check_input(json).map_err(|d| format!("texture description: {}", d.message))?;
    let v = tree::parse(json).map_err(|d| {
        let (line, column) = LineIndex::new(json).line_col(d.span.start);
        format!("texture description is not JSON: {} (line {line}, column {column})", d.message)
    })?;
    let obj = v.as_object().ok_or("texture description must be a JSON object")?;
    // Every texture draws from the job's byte budget, checked before each is allocated.
    if let Some(list) = obj.get("textures") {
        let list = list.as_array().ok_or("\"textures\" must be a list")?;
        // Every texture's shape first, the total checked, and only then any texel allocated.
        let mut plans = Vec::new();
        for (i, t) in list.iter().enumerate() {
            let t = t.as_object().ok_or_else(|| format!("textures[{i}] must be an object"))?;
            let unit = uint(t, "unit")?.unwrap_or(i as u32);
            let p = plan(t, images).map_err(|e| format!("textures[{i}]: {e}"))?;
            budget.charge(p.bytes()?)?;
            plans.push((i, unit, p));
        }
        let mut out = Vec::new();
        for (i, unit, p) in plans {
            out.push((unit, build(p, images).map_err(|e| format!("textures[{i}]: {e}"))?));
        }
        return Ok(out);
    }
    let unit = uint(obj, "unit")?.unwrap_or(0);
    Ok(vec![(unit, parse_texture(obj, images, budget)?)])
}

fn uint(o: &Object, key: &str) -> Result<Option<u32>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| *n <= u64::from(u32::MAX))
            .map(|n| Some(n as u32))
            .ok_or_else(|| format!("\"{key}\" must be a non-negative integer")),
    }
}

fn float(o: &Object, key: &str) -> Result<Option<f32>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => value_f32(v).map(Some).ok_or_else(|| format!("\"{key}\" must be a number")),
    }
}

fn value_f32(v: &Value) -> Option<f32> {
    match v {
        Value::Number(n) => Some(n.as_f64() as f32),
        Value::String(s) => parse_hex_bits(s).map(f32::from_bits),
        _ => None,
    }
}

fn parse_hex_bits(s: &str) -> Option<u32> {
    let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    u32::from_str_radix(h, 16).ok()
}

fn string<'a>(o: &'a Object, key: &str) -> Result<Option<&'a str>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("\"{key}\" must be a string")),
    }
}

/// A texture description read up to its shape, before any texel is allocated.
struct Plan<'a> {
    o: &'a Object,
    dim: Dim,
    format: Format,
    width: u32,
    height: u32,
    depth: u32,
    layers: u32,
    levels: u32,
    generate: bool,
    image_list: Vec<ImageEntry<'a>>,
    first_file: Option<(String, RgbaImage)>,
}

impl Plan<'_> {
    /// Bytes the texture will take (every level, layer and face).
    fn bytes(&self) -> Result<u64, String> {
        let texels = Texture::planned_texels(
            self.dim,
            self.width,
            self.height,
            self.depth,
            self.layers,
            self.levels,
        )?;
        Ok(texels.saturating_mul(crate::texture::image::TEXEL_BYTES))
    }
}

fn parse_texture(
    o: &Object,
    images: ImageLoader,
    budget: &mut TextureBytes,
) -> Result<TextureUnit, String> {
    let p = plan(o, images)?;
    budget.charge(p.bytes()?)?;
    build(p, images)
}

/// The texel bytes a render job's textures may still take: every unit of one render (all its
/// description files, images and page textures) shares one, of `limits::MAX_TEXTURE_BYTES` in
/// all, charged before each texture's texels are allocated.
#[derive(Debug)]
pub struct TextureBytes {
    left: u64,
    limit: u64,
}

impl TextureBytes {
    /// A budget of `limit` bytes (at most `limits::MAX_TEXTURE_BYTES`).
    pub fn new(limit: u64) -> TextureBytes {
        let limit = limit.min(crate::limits::MAX_TEXTURE_BYTES);
        TextureBytes { left: limit, limit }
    }

    /// The budget of one render job.
    pub fn job() -> TextureBytes {
        TextureBytes::new(crate::limits::MAX_TEXTURE_BYTES)
    }

    /// Takes `bytes`, or says the limit is reached.
    pub fn charge(&mut self, bytes: u64) -> Result<(), String> {
        if bytes > self.left {
            return Err(format!(
                "the textures need more than {} in all (the limit of one render's textures)",
                human_bytes(self.limit)
            ));
        }
        self.left -= bytes;
        Ok(())
    }
}

/// `512 MiB`, `20000 bytes`: a limit as a person reads it.
fn human_bytes(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

fn plan<'a>(o: &'a Object, images: ImageLoader) -> Result<Plan<'a>, String> {
    let target = string(o, "target")?.unwrap_or("2D");
    let dim = Dim::from_name(target).ok_or_else(|| format!("unknown target \"{target}\""))?;
    let fname = string(o, "format")?.or(string(o, "internal_format")?).unwrap_or("RGBA8");
    let format = Format::from_name(fname).ok_or_else(|| {
        format!("unknown format \"{fname}\" (known: {})", Format::all_names().join(", "))
    })?;
    let image_list = collect_images(o)?;
    // size: given, or taken from the first image file
    let mut width = uint(o, "width")?;
    let mut height = uint(o, "height")?;
    let mut first_file: Option<(String, RgbaImage)> = None;
    if width.is_none() {
        if let Some(file) = image_list.iter().find_map(|i| i.file.clone()) {
            let img = images(&file)?;
            width = Some(img.width);
            height = height.or(Some(img.height));
            first_file = Some((file, img));
        }
    }
    let width = width.ok_or("\"width\" is missing")?;
    let height = height.unwrap_or(1);
    let depth = uint(o, "depth")?.unwrap_or(1);
    let layers = uint(o, "layers")?.unwrap_or(1);
    let given_levels = image_list.iter().map(|i| i.level.saturating_add(1)).max().unwrap_or(1);
    let generate = o.get("generate_mipmaps").and_then(Value::as_bool).unwrap_or(false);
    let levels = uint(o, "levels")?.or(uint(o, "num_levels")?).unwrap_or(if generate {
        32
    } else {
        given_levels
    });
    let levels = levels.max(given_levels);
    Ok(Plan {
        o,
        dim,
        format,
        width,
        height,
        depth,
        layers,
        levels,
        generate,
        image_list,
        first_file,
    })
}

fn build(p: Plan, images: ImageLoader) -> Result<TextureUnit, String> {
    let Plan {
        o,
        dim,
        format,
        width,
        height,
        depth,
        layers,
        levels,
        generate,
        image_list,
        first_file,
    } = p;
    let mut tex = Texture::new(dim, format, width, height, depth, layers, levels)?;
    for img in &image_list {
        fill_image(&mut tex, img, images, first_file.as_ref())?;
    }
    if generate {
        tex.generate_mipmaps(levels);
    }
    let sampler = match o.get("sampler") {
        Some(Value::Object(s)) => parse_sampler(s)?,
        Some(Value::Null) | None => SamplerState {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            ..SamplerState::default()
        },
        Some(_) => return Err("\"sampler\" must be an object".into()),
    };
    let mut sampler = sampler;
    if format.is_integer() {
        // integer textures take an integer border colour (glTexParameterIiv): keep its bits
        sampler.border_color = sampler.border_color.map(|c| f32::from_bits(c as i32 as u32));
    }
    let mut unit = TextureUnit::new(tex, sampler);
    unit.view.first_level = uint(o, "base_level")?.unwrap_or(0);
    unit.view.last_level = uint(o, "max_level")?.unwrap_or(u32::MAX);
    if let Some(sw) = o.get("swizzle") {
        unit.view.swizzle = parse_swizzle(sw)?;
    }
    unit.normalize_view();
    Ok(unit)
}

/// One image entry of a description. Its texels stay in the parsed description (borrowed, not
/// copied).
struct ImageEntry<'a> {
    level: u32,
    layer: u32,
    face: Option<u32>,
    texels: Option<&'a Value>,
    file: Option<String>,
}

fn collect_images(o: &Object) -> Result<Vec<ImageEntry<'_>>, String> {
    let mut out = Vec::new();
    if let Some(t) = o.get("texels") {
        out.push(ImageEntry { level: 0, layer: 0, face: None, texels: Some(t), file: None });
    }
    if let Some(f) = string(o, "file")? {
        out.push(ImageEntry {
            level: 0,
            layer: 0,
            face: None,
            texels: None,
            file: Some(f.to_string()),
        });
    }
    if let Some(list) = o.get("images") {
        let list = list.as_array().ok_or("\"images\" must be a list")?;
        for (i, img) in list.iter().enumerate() {
            let img = img.as_object().ok_or_else(|| format!("images[{i}] must be an object"))?;
            let face = match img.get("face") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(
                    super::cube::FACE_NAMES
                        .iter()
                        .position(|n| n.eq_ignore_ascii_case(s))
                        .ok_or_else(|| format!("images[{i}]: unknown face \"{s}\""))?
                        as u32,
                ),
                Some(v) => Some(
                    v.as_u64()
                        .filter(|f| *f < 6)
                        .ok_or_else(|| format!("images[{i}]: face must be 0..5"))?
                        as u32,
                ),
            };
            out.push(ImageEntry {
                level: uint(img, "level")?.unwrap_or(0),
                layer: uint(img, "layer")?.unwrap_or(0),
                face,
                texels: img.get("texels"),
                file: string(img, "file")?.map(str::to_string),
            });
        }
    }
    if out.is_empty() {
        return Err("no texel data: give \"texels\", \"file\" or \"images\"".into());
    }
    Ok(out)
}

fn fill_image(
    tex: &mut Texture,
    img: &ImageEntry,
    images: ImageLoader,
    preloaded: Option<&(String, RgbaImage)>,
) -> Result<(), String> {
    let (w, h, slices) = tex.level_size(img.level);
    // `face` as `{:?}` prints an `Option<u32>`, without the library's Debug builders.
    let face = match img.face {
        Some(f) => format!("Some({f})"),
        None => "None".to_string(),
    };
    let where_ = format!("level {} layer {} face {face}", img.level, img.layer);
    // slices covered by this image: a 3D level has all its depth in one image
    let (z0, depth) = match tex.dim {
        Dim::D3 => (0, slices),
        Dim::Cube | Dim::CubeArray => {
            let face = img.face.ok_or_else(|| format!("{where_}: cube images need \"face\""))?;
            (u64::from(img.layer) * 6 + u64::from(face), 1)
        }
        _ => (u64::from(img.layer), 1),
    };
    if z0 + u64::from(depth) > u64::from(slices) {
        return Err(format!("{where_}: layer out of range"));
    }
    let z0 = z0 as u32;
    let format = tex.format;
    let n = format.components();
    let values: Vec<[u32; 4]> = if let Some(t) = img.texels {
        texel_values(t, n, format).map_err(|e| format!("{where_}: {e}"))?
    } else if let Some(file) = &img.file {
        if depth != 1 {
            return Err(format!("{where_}: 3D textures need inline texels, not image files"));
        }
        let pic = match preloaded {
            Some((name, p)) if name == file => p.clone(),
            _ => images(file)?,
        };
        if pic.width != w || pic.height != h {
            return Err(format!(
                "{where_}: image {file} is {}x{}, the level needs {w}x{h}",
                pic.width, pic.height
            ));
        }
        pic.texels_bottom_up(format)
    } else {
        return Err(format!("{where_}: no texels"));
    };
    let need = (w * h * depth) as usize;
    if values.len() != need {
        return Err(format!(
            "{where_}: {} texels given, {need} needed ({w}x{h}x{depth})",
            values.len()
        ));
    }
    let level = tex
        .levels
        .get_mut(img.level as usize)
        .ok_or_else(|| format!("{where_}: level out of range"))?;
    for (i, v) in values.into_iter().enumerate() {
        let i = i as u32;
        level.set(i % w, (i / w) % h, z0 + i / (w * h), v);
    }
    Ok(())
}

/// Texels as a list of lists (one per texel) or a flat list of `n`-value groups.
fn texel_values(v: &Value, n: usize, format: Format) -> Result<Vec<[u32; 4]>, String> {
    let list = v.as_array().ok_or("\"texels\" must be a list")?;
    let mut flat: Vec<StoredValue> = Vec::with_capacity(list.len() * n);
    for item in list {
        match item {
            Value::Array(texel) => {
                if texel.len() != n {
                    return Err(format!(
                        "a {} texel has {n} values, got {}",
                        format.name(),
                        texel.len()
                    ));
                }
                for x in texel {
                    flat.push(stored(x)?);
                }
            }
            x => flat.push(stored(x)?),
        }
    }
    if !flat.len().is_multiple_of(n) {
        return Err(format!("{} values is not a whole number of {n}-value texels", flat.len()));
    }
    Ok(flat
        .chunks(n)
        .map(|ch| {
            let decoded: Vec<u32> =
                ch.iter().enumerate().map(|(c, v)| format.decode_channel(*v, c == 3)).collect();
            format.expand(&decoded)
        })
        .collect())
}

fn stored(v: &Value) -> Result<StoredValue, String> {
    match v {
        Value::Number(n) => Ok(match n.as_i64() {
            Some(i) => StoredValue::Int(i),
            None => StoredValue::Float(n.as_f64()),
        }),
        Value::String(s) => parse_hex_bits(s)
            .map(StoredValue::Bits)
            .ok_or_else(|| format!("bad texel value \"{s}\" (use 0xXXXXXXXX)")),
        _ => Err(format!("bad texel value: {} (use a number or \"0xXXXXXXXX\")", json_kind(v))),
    }
}

/// What a texel value that is neither a number nor a string is, for its message: the value is
/// not echoed (a list may be long, and its floats would need a JSON float printer of their own).
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(true) => "true",
        Value::Bool(false) => "false",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
        Value::Number(_) | Value::String(_) => "a value",
    }
}

fn parse_swizzle(v: &Value) -> Result<[Swizzle; 4], String> {
    let words: Vec<String> = match v {
        Value::String(s) => s.chars().map(|c| c.to_string()).collect(),
        Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or("?").to_string()).collect(),
        _ => return Err("\"swizzle\" must be a string like \"rgba\" or a list".into()),
    };
    if words.len() != 4 {
        return Err("\"swizzle\" needs 4 selectors".into());
    }
    let mut out = Swizzle::IDENTITY;
    for (slot, w) in out.iter_mut().zip(&words) {
        *slot = Swizzle::from_name(w).ok_or_else(|| format!("unknown swizzle selector \"{w}\""))?;
    }
    Ok(out)
}

/// Parses a sampler object. Missing fields: NEAREST filters, no mipmapping, REPEAT, border
/// (0, 0, 0, 0), bias 0, LOD range −1000..1000, no comparison (the oracle's defaults).
pub fn parse_sampler(s: &Object) -> Result<SamplerState, String> {
    let mut st = SamplerState {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        ..SamplerState::default()
    };
    if let Some(f) = string(s, "filter")? {
        let f = Filter::from_name(f).ok_or_else(|| format!("unknown filter \"{f}\""))?;
        st.mag_filter = f;
        st.min_filter = f;
    }
    if let Some(f) = string(s, "min_filter")? {
        let (img, mip) =
            parse_min_filter(f).ok_or_else(|| format!("unknown min_filter \"{f}\""))?;
        st.min_filter = img;
        st.mip_filter = mip;
    }
    if let Some(f) = string(s, "mag_filter")? {
        st.mag_filter =
            Filter::from_name(f).ok_or_else(|| format!("unknown mag_filter \"{f}\""))?;
    }
    if let Some(f) = string(s, "mip_filter")? {
        st.mip_filter =
            MipFilter::from_name(f).ok_or_else(|| format!("unknown mip_filter \"{f}\""))?;
    }
    if let Some(w) = string(s, "wrap")? {
        st.wrap = [Wrap::from_name(w).ok_or_else(|| format!("unknown wrap \"{w}\""))?; 3];
    }
    for (i, key) in ["wrap_s", "wrap_t", "wrap_r"].iter().enumerate() {
        if let Some(w) = string(s, key)? {
            st.wrap[i] = Wrap::from_name(w).ok_or_else(|| format!("unknown {key} \"{w}\""))?;
        }
    }
    if let Some(b) = s.get("border_color") {
        let a =
            b.as_array().filter(|a| a.len() == 4).ok_or("\"border_color\" must be 4 numbers")?;
        for (slot, x) in st.border_color.iter_mut().zip(a) {
            *slot = value_f32(x).ok_or("\"border_color\" must be 4 numbers")?;
        }
    }
    st.lod_bias = float(s, "lod_bias")?.unwrap_or(0.0);
    st.min_lod = float(s, "min_lod")?.unwrap_or(-1000.0);
    st.max_lod = float(s, "max_lod")?.unwrap_or(1000.0);
    let func = match string(s, "compare_func")?.or(string(s, "compare")?) {
        Some(f) => Some(
            CompareFunc::from_name(f).ok_or_else(|| format!("unknown compare function \"{f}\""))?,
        ),
        None => None,
    };
    st.compare = match string(s, "compare_mode")? {
        Some(m) if m.eq_ignore_ascii_case("NONE") => None,
        Some(m) if m.eq_ignore_ascii_case("COMPARE_REF_TO_TEXTURE") => {
            Some(func.unwrap_or(CompareFunc::LessEqual))
        }
        Some(m) => return Err(format!("unknown compare_mode \"{m}\"")),
        None if s.contains_key("compare") => func,
        None => None,
    };
    Ok(st)
}

/// Where a bound texture's texels come from, as the shells hand them over: the CLI reads the
/// file, the page passes the description's text or pixels it decoded itself.
pub enum TextureData {
    /// A JSON description (docs/textures.md), or an oracle file of several textures (the
    /// binding's unit picks one).
    Description(String),
    /// RGBA8 pixels, top row first (a 2D texture, read upright).
    Image(RgbaImage),
}

/// Reads the image files a description names.
pub type OwnedImageLoader = Box<dyn Fn(&str) -> Result<RgbaImage, String>>;

/// One texture binding: `SAMP[unit]`, its texels and the option words of `U=FILE,…`
/// ([`apply_options`]).
pub struct TextureSpec {
    pub unit: u32,
    pub data: TextureData,
    pub options: Vec<String>,
    /// Reads the images a description names (relative to its file); `None` where there are no
    /// files (the page), and such a description is refused.
    pub images: Option<OwnedImageLoader>,
}

impl TextureSpec {
    /// Builds the texture, charging `budget` before its texels are allocated.
    pub fn bind(&self, budget: &mut TextureBytes) -> Result<TextureUnit, String> {
        let no_files = |name: &str| -> Result<RgbaImage, String> {
            Err(format!("image '{name}': no image files are read here; give the texels inline"))
        };
        let images: ImageLoader = self.images.as_deref().unwrap_or(&no_files);
        let mut unit = match &self.data {
            TextureData::Description(json) => {
                let mut all = parse_all_charged(json, images, budget)?;
                // An oracle file may hold several textures: the one of this unit (or its only one).
                let n = all.len();
                let pick =
                    if n == 1 { Some(0) } else { all.iter().position(|(u, _)| *u == self.unit) };
                match pick {
                    Some(i) => all.swap_remove(i).1,
                    None => {
                        return Err(format!(
                            "the file describes {n} textures, none for unit {}",
                            self.unit
                        ))
                    }
                }
            }
            TextureData::Image(img) => {
                let texels = Texture::planned_texels(Dim::D2, img.width, img.height, 1, 1, 1)?;
                // Charged as stored (as a description's texels are), not as the file's bytes.
                budget.charge(texels.saturating_mul(super::image::TEXEL_BYTES))?;
                let want = texels.saturating_mul(4);
                if img.rgba.len() as u64 != want {
                    return Err(format!(
                        "{} bytes of RGBA8 pixels given, {}x{} needs {want}",
                        img.rgba.len(),
                        img.width,
                        img.height
                    ));
                }
                TextureUnit::new(img.to_texture()?, SamplerState::default())
            }
        };
        let words: Vec<&str> = self.options.iter().map(String::as_str).collect();
        apply_options(&mut unit, &words)?;
        Ok(unit)
    }
}

/// `U=FILE[,nearest|linear][,repeat|clamp|mirror|border][,mipmap]`: binds an image file (PNG,
/// a 2D texture, read upright) or a JSON description to texture unit U. For a JSON file with
/// several textures, the one whose `unit` is U is taken. Native only (reads files).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_binding(spec: &str) -> Result<(u32, TextureUnit), String> {
    load_binding_charged(spec, &mut TextureBytes::job())
}

/// [`load_binding`] drawing from a render job's texture bytes (several `--texture` flags).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_binding_charged(
    spec: &str,
    budget: &mut TextureBytes,
) -> Result<(u32, TextureUnit), String> {
    let read = read_binding(spec)?;
    let unit = read.bind(budget).map_err(|e| format!("{}: {e}", binding_path(spec)))?;
    Ok((read.unit, unit))
}

/// The file of a `U=FILE,…` binding, for messages.
#[cfg(not(target_arch = "wasm32"))]
fn binding_path(spec: &str) -> &str {
    spec.split_once('=').map_or("", |(_, rest)| rest.split(',').next().unwrap_or("").trim())
}

/// Reads what `U=FILE[,OPTION]...` names: the unit, the file (a JSON description's text with a
/// loader for the images it names, or a PNG's pixels) and the option words; the texture itself
/// is built by [`TextureSpec::bind`]. Errors are the binding's syntax and the file's reading.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_binding(spec: &str) -> Result<TextureSpec, String> {
    let (u, rest) =
        spec.split_once('=').ok_or_else(|| format!("expected U=FILE, got \"{spec}\""))?;
    let unit: u32 =
        u.trim().parse().map_err(|_| format!("texture unit \"{u}\" is not a number"))?;
    let mut parts = rest.split(',');
    let path = parts.next().unwrap_or("").trim();
    if path.is_empty() {
        return Err("missing file name after U=".into());
    }
    let options: Vec<String> = parts.map(|p| p.trim().to_string()).collect();
    if path.to_ascii_lowercase().ends_with(".json") {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let dir = std::path::Path::new(path).parent().map(|p| p.to_path_buf()).unwrap_or_default();
        let images: OwnedImageLoader =
            Box::new(move |name: &str| super::desc_image::load_png(&dir.join(name)));
        Ok(TextureSpec {
            unit,
            data: TextureData::Description(text),
            options,
            images: Some(images),
        })
    } else {
        let img = super::desc_image::load_png(std::path::Path::new(path))?;
        Ok(TextureSpec { unit, data: TextureData::Image(img), options, images: None })
    }
}

/// Applies the `,nearest`/`,linear`/`,mipmap` options, the wrap words of [`WRAP_NAMES`]
/// (`,clamp` is clamp to edge here; `,gl-clamp` is legacy GL_CLAMP) and `,shadow` (depth
/// comparison with LEQUAL).
pub fn apply_options(unit: &mut TextureUnit, options: &[&str]) -> Result<(), String> {
    for opt in options.iter().filter(|o| !o.is_empty()) {
        if let Some(f) = Filter::from_name(opt) {
            unit.sampler.mag_filter = f;
            unit.sampler.min_filter = f;
        } else if opt.eq_ignore_ascii_case("mipmap") {
            let mut tex = (*unit.texture).clone();
            tex.generate_mipmaps(32);
            unit.texture = std::sync::Arc::new(tex);
            unit.sampler.mip_filter = MipFilter::Linear;
            unit.view.last_level = u32::MAX;
            unit.normalize_view();
        } else if let Some(w) = Wrap::from_word(opt) {
            unit.sampler.wrap = [w; 3];
        } else if opt.eq_ignore_ascii_case("shadow") {
            // Depth comparison, reference <= texel red passes (the JSON's "compare": "LEQUAL").
            unit.sampler.compare = Some(CompareFunc::LessEqual);
        } else {
            let words: Vec<&str> = WRAP_NAMES.iter().map(|(_, _, w)| *w).collect();
            return Err(format!(
                "unknown texture option \"{opt}\" (nearest, linear, {}, mipmap, shadow)",
                words.join(", ")
            ));
        }
    }
    Ok(())
}
