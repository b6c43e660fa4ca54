//! Image files: PNG (RGBA8, top row first) and raw `.f32` (little-endian float32 RGBA, top row
//! first) output, PNG input for textures, and `.f32` reading for comparisons.

#[cfg(not(target_arch = "wasm32"))]
use super::framebuffer::Framebuffer;

/// An 8-bit RGBA image read from a file, rows top first.
#[derive(Clone, Debug, PartialEq)]
pub struct Rgba8Image {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[u8; 4]>,
}

/// Writes target 0 as `.png` or `.f32`, chosen by the file extension.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_image(path: &str, fb: &Framebuffer) -> Result<(), String> {
    let lower = path.to_ascii_lowercase();
    let bytes = if lower.ends_with(".f32") {
        fb.f32_bytes()
    } else if lower.ends_with(".png") {
        encode_png(fb.width, fb.height, &fb.rgba8_rows(0..fb.height))?
    } else {
        return Err(format!("cannot tell the output format of '{}': use .png or .f32", path));
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {}", path, e))
}

/// Writes colour buffer `target` (COLOR[target]) as `.png` or `.f32`, chosen by the extension.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_target(path: &str, fb: &Framebuffer, target: usize) -> Result<(), String> {
    if target == 0 {
        return write_image(path, fb);
    }
    let lower = path.to_ascii_lowercase();
    let bytes = if lower.ends_with(".f32") {
        fb.target_f32_bytes(target)
    } else if lower.ends_with(".png") {
        encode_png(fb.width, fb.height, &fb.target_rgba8(target))?
    } else {
        return Err(format!("cannot tell the output format of '{}': use .png or .f32", path));
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {}", path, e))
}

/// Writes the depth buffer: `.f32` as one little-endian float per pixel, `.png` as grey
/// ([`super::framebuffer::unorm8`] of the depth: 0 black, 1.0 white) with alpha 255. Rows top
/// first.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_depth(path: &str, fb: &Framebuffer) -> Result<(), String> {
    let depth = fb.depth_top_first();
    let lower = path.to_ascii_lowercase();
    let bytes = if lower.ends_with(".f32") {
        depth.iter().flat_map(|d| d.to_le_bytes()).collect()
    } else if lower.ends_with(".png") {
        let grey: Vec<u8> = depth
            .iter()
            .flat_map(|&d| {
                let g = super::framebuffer::unorm8(d);
                [g, g, g, 255]
            })
            .collect();
        encode_png(fb.width, fb.height, &grey)?
    } else {
        return Err(format!("cannot tell the depth format of '{}': use .png or .f32", path));
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {}", path, e))
}

/// PNG bytes of an RGBA8 image (rows top first).
#[cfg(not(target_arch = "wasm32"))]
pub fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(rgba).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Reads a PNG file of any colour type into RGBA8 (16-bit channels keep their high byte).
#[cfg(not(target_arch = "wasm32"))]
pub fn read_png(path: &str) -> Result<Rgba8Image, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {}", path, e))?;
    decode_png(&bytes).map_err(|e| format!("{}: {}", path, e))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn decode_png(bytes: &[u8]) -> Result<Rgba8Image, String> {
    let mut dec = png::Decoder::new(bytes);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| e.to_string())?;
    let (w, h) = (reader.info().width, reader.info().height);
    if w == 0 || h == 0 || (w as u64 * h as u64) > super::framebuffer::MAX_PIXELS {
        return Err(format!("image size {}x{} is not supported", w, h));
    }
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let data = buf.get(..frame.buffer_size()).unwrap_or(&[]);
    let channels = match frame.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("indexed PNG was not expanded".into()),
    };
    let pixels = data
        .chunks_exact(channels)
        .map(|p| match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => [0, 0, 0, 255],
        })
        .collect::<Vec<_>>();
    if pixels.len() != (w * h) as usize {
        return Err("truncated PNG data".into());
    }
    Ok(Rgba8Image { width: w, height: h, pixels })
}

/// Decodes raw little-endian float32 data into RGBA pixels (trailing bytes ignored).
pub fn f32_pixels(bytes: &[u8]) -> Vec<[f32; 4]> {
    bytes
        .chunks_exact(16)
        .map(|p| {
            [0, 1, 2, 3]
                .map(|c| f32::from_le_bytes([p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3]]))
        })
        .collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip() {
        let rgba = vec![255, 0, 0, 255, 0, 255, 0, 128];
        let bytes = encode_png(2, 1, &rgba).unwrap();
        let img = decode_png(&bytes).unwrap();
        assert_eq!(img.pixels, vec![[255, 0, 0, 255], [0, 255, 0, 128]]);
    }

    #[test]
    fn f32_decoding() {
        let mut b = Vec::new();
        for v in [1.0f32, 2.0, 3.0, 4.0] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        assert_eq!(f32_pixels(&b), vec![[1.0, 2.0, 3.0, 4.0]]);
    }
}
