//! Image files as texel data: decoded RGBA8 pixels (PNG via the `png` crate on native builds;
//! the page decodes images itself and hands over the same [`RgbaImage`]). Files are read
//! upright: their top row becomes the texture's top row (t = 1), so rows are flipped into the
//! bottom-up order of texture storage.

use super::format::{Format, Kind, StoredValue};
use super::image::{Dim, Texture};

/// 8-bit RGBA pixels, top row first (as stored in image files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl RgbaImage {
    /// The pixel at column x of file row `row` (0 = top).
    fn pixel(&self, x: u32, row: u32) -> [u8; 4] {
        let i = (row as usize * self.width as usize + x as usize) * 4;
        match self.rgba.get(i..i + 4) {
            Some(p) => [p[0], p[1], p[2], p[3]],
            None => [0, 0, 0, 0],
        }
    }

    /// Texels in storage order (row 0 = bottom = the file's last row), converted to `format`:
    /// 8-bit formats store the bytes, float formats their UNORM8 value, integer formats the
    /// integers 0..255. Channels beyond the format's count are dropped.
    pub fn texels_bottom_up(&self, format: Format) -> Vec<[u32; 4]> {
        let n = format.components();
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize);
        for y in 0..self.height {
            let row = self.height - 1 - y;
            for x in 0..self.width {
                let p = self.pixel(x, row);
                let decoded: Vec<u32> = (0..n)
                    .map(|c| {
                        let byte = p.get(c).copied().unwrap_or(0);
                        match format.kind() {
                            Kind::Half | Kind::Float => {
                                super::format::unorm8_to_float(byte).to_bits()
                            }
                            _ => format.decode_channel(StoredValue::Int(i64::from(byte)), c == 3),
                        }
                    })
                    .collect();
                out.push(format.expand(&decoded));
            }
        }
        out
    }

    /// A one-level RGBA8 2D texture of this image.
    pub fn to_texture(&self) -> Result<Texture, String> {
        let mut t = Texture::new(Dim::D2, Format::Rgba8, self.width, self.height, 1, 1, 1)?;
        let texels = self.texels_bottom_up(Format::Rgba8);
        if let Some(level) = t.levels.get_mut(0) {
            level.texels = texels;
        }
        Ok(t)
    }
}

/// Reads a PNG file (any colour type and bit depth) as RGBA8.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_png(path: &std::path::Path) -> Result<RgbaImage, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("{name}: not a readable PNG: {e}"))?;
    let (w, h) = (reader.info().width, reader.info().height);
    if u64::from(w) * u64::from(h) > super::image::MAX_TEXELS
        || w > super::image::MAX_SIZE
        || h > super::image::MAX_SIZE
    {
        return Err(format!("{name}: image {w}x{h} is too large"));
    }
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("{name}: {e}"))?;
    let data = buf.get(..info.buffer_size()).unwrap_or(&[]);
    let px = (w as usize) * (h as usize);
    let mut rgba = Vec::with_capacity(px * 4);
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err(format!("{name}: palette PNG was not expanded")),
    };
    for p in data.chunks(channels).take(px) {
        let px4 = match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => [0, 0, 0, 0],
        };
        rgba.extend_from_slice(&px4);
    }
    rgba.resize(px * 4, 0);
    Ok(RgbaImage { width: w, height: h, rgba })
}

/// Writes RGBA8 pixels (top row first) as a PNG — used by tests to make image files.
#[cfg(not(target_arch = "wasm32"))]
pub fn save_png(path: &std::path::Path, img: &RgbaImage) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(&img.rgba).map_err(|e| e.to_string())
}
