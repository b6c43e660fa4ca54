//! The render options both shells give, read once: [`read`] turns what `tgsi render` / `bench` /
//! `trace` and the wasm `render` calls hold (texts, size, `B:I=X,Y,Z,W` constants per stage,
//! textures per unit, built-in uniforms) into the job's [`Request`], the texture bindings and
//! the diagnostics (`R004` a bad constant, `R005` a texture that cannot be built), so a bad
//! option reads the same from both. Also `--size WxH` and the constant syntax itself.

pub use super::job::ConstValue;
use super::job::{render_error, Request, SourcedDiagnostic};
use super::uniforms::Builtins;
use crate::texture::bind::Bindings;
use crate::texture::desc::{TextureBytes, TextureSpec};

/// A frame's width and height when none is given.
pub const DEFAULT_SIZE: u32 = 256;

/// Everything a render is asked for, as both shells hold it: the frame (shaders, mesh or
/// vertices, size, built-ins) as the job takes it, and the constants and textures still as text.
#[derive(Default)]
pub struct RenderOptions<'a> {
    /// The request, but for its constants (filled from the strings below) and the built-ins'
    /// width and height (set from the frame's).
    pub frame: Request<'a>,
    /// `B:I=X,Y,Z,W` strings: every stage's, then each stage's own (set after the shared ones).
    pub consts: &'a [String],
    pub vs_consts: &'a [String],
    pub fs_consts: &'a [String],
    pub gs_consts: &'a [String],
    /// One texture per unit (a unit given twice: the last one is bound).
    pub textures: &'a [TextureSpec],
}

/// What [`read`] made of the options.
pub struct RenderSetup<'a> {
    pub request: Request<'a>,
    pub textures: Bindings,
    /// One `R004` per bad constant and one `R005` per texture that could not be built, in order.
    pub diagnostics: Vec<SourcedDiagnostic>,
}

impl RenderSetup<'_> {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.diagnostic.is_error())
    }
}

/// Reads the options: every constant and texture is tried, so all bad ones are reported at
/// once; a bad one is left out of the request.
pub fn read<'a>(options: &RenderOptions<'a>) -> RenderSetup<'a> {
    let mut diagnostics = Vec::new();
    let mut constants = |list: &[String]| {
        let mut values = Vec::new();
        for c in list {
            match parse_const(c) {
                Ok(v) => values.push(v),
                Err(e) => diagnostics.push(render_error("R004", e)),
            }
        }
        values
    };
    let frame = &options.frame;
    let request = Request {
        constants: constants(options.consts),
        vs_constants: constants(options.vs_consts),
        fs_constants: constants(options.fs_consts),
        gs_constants: constants(options.gs_consts),
        builtins: Builtins { width: frame.width, height: frame.height, ..frame.builtins },
        ..frame.clone()
    };
    let mut textures = Bindings::new();
    // Every unit's textures share one byte budget, charged before their texels are allocated.
    let mut bytes = TextureBytes::job();
    for t in options.textures {
        match t.bind(&mut bytes) {
            Ok(unit) => textures.bind(t.unit, unit),
            Err(e) => diagnostics
                .push(render_error("R005", format!("texture for unit {}: {}", t.unit, e))),
        }
    }
    RenderSetup { request, textures, diagnostics }
}

/// Parses `WxH` (both at least 1).
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad size '{}': expected WxH, for example 256x256", s);
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// Largest constant buffer and register accepted (tgsi_exec's limits: 32 buffers of 4096).
pub const MAX_CONST_BUFFER: u32 = 31;
pub const MAX_CONST_INDEX: u32 = crate::limits::MAX_CONST_REGISTERS as u32 - 1;

/// Parses `B:I=X,Y,Z,W` or `I=X,Y,Z,W` (buffer 0). Each value is a decimal float or `0x` and
/// 8 hex digits taken as raw bits; fewer than four values leave the rest 0.
pub fn parse_const(s: &str) -> Result<ConstValue, String> {
    let (slot, values) =
        s.split_once('=').ok_or_else(|| format!("bad constant '{}': expected B:I=X,Y,Z,W", s))?;
    let (buffer, index) = match slot.split_once(':') {
        Some((b, i)) => (b.trim(), i.trim()),
        None => ("0", slot.trim()),
    };
    let buffer: u32 =
        buffer.parse().map_err(|_| format!("bad constant buffer '{}' in '{}'", buffer, s))?;
    let index: u32 =
        index.parse().map_err(|_| format!("bad constant register '{}' in '{}'", index, s))?;
    if buffer > MAX_CONST_BUFFER || index > MAX_CONST_INDEX {
        return Err(format!(
            "constant CONST[{}][{}] is out of range (buffers 0..{}, registers 0..{})",
            buffer, index, MAX_CONST_BUFFER, MAX_CONST_INDEX
        ));
    }
    let parts: Vec<&str> = values.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 4 {
        return Err(format!("bad constant '{}': give one to four values", s));
    }
    let mut bits = [0u32; 4];
    for (slot, p) in bits.iter_mut().zip(parts.iter()) {
        *slot = parse_word(p).ok_or_else(|| {
            format!("bad constant value '{}' in '{}': a decimal float or 0x and 8 hex digits", p, s)
        })?;
    }
    Ok(ConstValue { buffer, index, bits })
}

fn parse_word(p: &str) -> Option<u32> {
    if let Some(hex) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
        if hex.len() == 8 {
            return u32::from_str_radix(hex, 16).ok();
        }
        return None;
    }
    crate::text::decimal::parse_f32(p).map(f32::to_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512x256"), Ok((512, 256)));
        assert!(parse_size("0x4").is_err());
        assert!(parse_size("12").is_err());
    }

    #[test]
    fn constants() {
        let c = parse_const("0:4=1,0,-1,64").unwrap();
        assert_eq!(
            c,
            ConstValue {
                buffer: 0,
                index: 4,
                bits: [1.0f32.to_bits(), 0, (-1.0f32).to_bits(), 64.0f32.to_bits()]
            }
        );
        let c = parse_const("3=0x3f800000,0xFFFFFFFF,2.5,0").unwrap();
        assert_eq!((c.buffer, c.index), (0, 3));
        assert_eq!(c.bits, [0x3f80_0000, 0xFFFF_FFFF, 2.5f32.to_bits(), 0]);
        assert!(parse_const("0:1=0x123,0,0,0").is_err());
        assert!(parse_const("99:1=0").is_err());
        assert!(parse_const("1=a").is_err());
    }
}
