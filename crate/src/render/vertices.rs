//! Custom geometry: a vertices file (`tgsi render --vertices FILE.json`, the wasm `vertices`
//! option) read into a [`Mesh`]. The format is the softpipe oracle's (docs/render.md,
//! "Custom vertices"):
//!
//! ```json
//! { "attributes": [{ "name": "a_pos", "location": 0, "components": 2, "kind": "f" }],
//!   "vertices": [{ "a_pos": [-1, -1] }, { "a_pos": [1, -1] }, { "a_pos": [0, 1] }],
//!   "draws": [{ "mode": "TRIANGLES", "first": 0, "count": 3 }],
//!   "front_face": "CCW", "provoking_vertex": "LAST" }
//! ```
//!
//! An attribute's `location` is the vertex shader's `IN` index. Float attributes (`kind` "f")
//! hold 32-bit floats; integer ones ("i", "u") reach the shader as their raw 32-bit bits. A value
//! may also be a string "0xXXXXXXXX": the bits as given. Components an attribute leaves out read
//! (0, 0, 0, 1) — 1.0 for floats, the integer 1 for integer attributes — and so does every
//! location no attribute names. Members the reader does not know are skipped.

use super::mesh::{Draw, FrontFace, Mesh, Provoking, Topology};
use crate::diag::Diagnostic;
use crate::ir::Span;
use crate::json::{self, Kind, Reader, OVER_LIMIT};
use crate::limits::{MAX_DRAWN_VERTICES, MAX_DRAWS, MAX_VERTEX_ATTRIBUTES, MAX_VERTICES};
use crate::text::decimal;

/// The name [`parse`] gives the mesh.
pub const MESH_NAME: &str = "vertices";

/// How an attribute's values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeKind {
    Float,
    Int,
    Uint,
}

/// One declared attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub name: String,
    pub location: usize,
    pub components: usize,
    pub kind: AttributeKind,
}

fn over_limit(message: String, span: Span) -> Diagnostic {
    Diagnostic::error(OVER_LIMIT, message, span)
}

/// Reads a whole non-negative number (for locations, counts and indices).
fn whole(r: &mut Reader, what: &str) -> Result<(u64, Span), Diagnostic> {
    let (text, span) = r.number()?;
    match decimal::parse_f64(text) {
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64 => Ok((v as u64, span)),
        _ => {
            Err(json::error(format!("{what} must be a whole number from 0 to {}", u32::MAX), span))
        }
    }
}

/// Reads one attribute value as 32 bits of `kind`.
fn value(r: &mut Reader, kind: AttributeKind) -> Result<u32, Diagnostic> {
    if r.peek()? == Kind::String {
        let (s, span) = r.string()?;
        let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).filter(|h| h.len() == 8);
        return hex.and_then(|h| u32::from_str_radix(h, 16).ok()).ok_or_else(|| {
            json::error("a value given as a string must be 0x and 8 hex digits (raw bits)", span)
        });
    }
    let (text, span) = match r.peek()? {
        Kind::Number => r.number()?,
        other => {
            let start = r.position();
            r.skip()?;
            return Err(json::error(
                format!("expected a number or \"0xXXXXXXXX\", found {}", other.name()),
                Span::new(start, r.position()),
            ));
        }
    };
    match kind {
        AttributeKind::Float => {
            let v = decimal::parse_f32(text)
                .ok_or_else(|| json::error("not a number a 32-bit float can hold", span))?;
            if v.is_finite() {
                Ok(v.to_bits())
            } else {
                let hint = "(an infinity is \"0x7f800000\" or \"0xff800000\")";
                Err(json::error(
                    format!("{text} is beyond the range of a 32-bit float {hint}"),
                    span,
                ))
            }
        }
        AttributeKind::Int | AttributeKind::Uint => {
            let (lo, hi) = if kind == AttributeKind::Int {
                (i64::from(i32::MIN), i64::from(i32::MAX))
            } else {
                (0, i64::from(u32::MAX))
            };
            match decimal::parse_f64(text) {
                Some(v) if v.fract() == 0.0 && (lo as f64..=hi as f64).contains(&v) => {
                    Ok(if v < 0.0 { v as i32 as u32 } else { v as u32 })
                }
                _ => Err(json::error(
                    format!(
                        "{text} is not a whole number from {lo} to {hi} (the attribute is {})",
                        if kind == AttributeKind::Int { "signed" } else { "unsigned" }
                    ),
                    span,
                )),
            }
        }
    }
}

/// Reads one of the words of `choices` (case as written) and returns its value.
fn choice<T: Copy>(r: &mut Reader, what: &str, choices: &[(&str, T)]) -> Result<T, Diagnostic> {
    let (s, span) = r.string()?;
    choices.iter().find(|(word, _)| *word == s).map(|&(_, v)| v).ok_or_else(|| {
        let words: Vec<&str> = choices.iter().map(|(w, _)| *w).collect();
        json::error(format!("{what} '{s}' is not one of {}", words.join(", ")), span)
    })
}

const KINDS: [(&str, AttributeKind); 3] =
    [("f", AttributeKind::Float), ("i", AttributeKind::Int), ("u", AttributeKind::Uint)];
const MODES: [(&str, Topology); 3] = [
    ("TRIANGLES", Topology::TriangleList),
    ("TRIANGLE_STRIP", Topology::TriangleStrip),
    ("TRIANGLE_FAN", Topology::TriangleFan),
];
const FRONT_FACES: [(&str, FrontFace); 2] = [("CCW", FrontFace::Ccw), ("CW", FrontFace::Cw)];
const PROVOKING: [(&str, Provoking); 2] = [("FIRST", Provoking::First), ("LAST", Provoking::Last)];

fn attributes(r: &mut Reader) -> Result<Vec<Attribute>, Diagnostic> {
    let mut list: Vec<Attribute> = Vec::new();
    r.array(|r, i| {
        let mut name = None;
        let mut location = None;
        let mut components = None;
        let mut kind = AttributeKind::Float;
        let span = r.object(|r, key, _| {
            match key {
                "name" => name = Some(r.string()?),
                "location" => location = Some(whole(r, "location")?),
                "components" => components = Some(whole(r, "components")?),
                "kind" => kind = choice(r, "kind", &KINDS)?,
                _ => {
                    r.skip()?;
                }
            }
            Ok(())
        })?;
        let missing = |m: &str| json::error(format!("attribute {i} has no \"{m}\""), span);
        let (name, name_span) = name.ok_or_else(|| missing("name"))?;
        let (location, loc_span) = location.ok_or_else(|| missing("location"))?;
        let (components, comp_span) = components.ok_or_else(|| missing("components"))?;
        if location >= MAX_VERTEX_ATTRIBUTES as u64 {
            return Err(over_limit(
                format!(
                    "location {location} is past the last vertex attribute ({})",
                    MAX_VERTEX_ATTRIBUTES - 1
                ),
                loc_span,
            ));
        }
        if !(1..=4).contains(&components) {
            return Err(json::error("components must be 1, 2, 3 or 4", comp_span));
        }
        if list.iter().any(|a| a.name == name) {
            return Err(json::error(format!("a second attribute named '{name}'"), name_span));
        }
        if let Some(a) = list.iter().find(|a| a.location as u64 == location) {
            return Err(json::error(
                format!("attribute '{}' already has location {location}", a.name),
                loc_span,
            ));
        }
        list.push(Attribute {
            name,
            location: location as usize,
            components: components as usize,
            kind,
        });
        Ok(())
    })?;
    Ok(list)
}

/// Reads the vertex list into `mesh.vertices` (every location filled).
fn vertices(
    r: &mut Reader,
    attrs: &[Attribute],
    slots: usize,
) -> Result<Vec<[f32; 4]>, Diagnostic> {
    let mut out: Vec<[f32; 4]> = Vec::new();
    r.array(|r, v| {
        if v >= MAX_VERTICES {
            r.peek()?;
            let at = r.position();
            return Err(over_limit(
                format!("more than {MAX_VERTICES} vertices"),
                Span::new(at, at + 1),
            ));
        }
        let base = out.len();
        out.resize(base + slots, [0.0, 0.0, 0.0, 1.0]);
        let mut given = vec![false; attrs.len()];
        let span = r.object(|r, key, key_span| {
            let Some((k, a)) = attrs.iter().enumerate().find(|(_, a)| a.name == key) else {
                return Err(json::error(
                    format!("vertex {v}: no attribute is named '{key}'"),
                    key_span,
                ));
            };
            match given.get_mut(k) {
                Some(seen) if !*seen => *seen = true,
                _ => return Err(json::error(format!("vertex {v} gives '{key}' twice"), key_span)),
            }
            // Missing components read (0, 0, 0, 1) in the attribute's own kind.
            let one = if a.kind == AttributeKind::Float { 1.0f32.to_bits() } else { 1 };
            let mut bits = [0, 0, 0, one];
            let mut n = 0;
            let list = r.array(|r, c| {
                let b = value(r, a.kind)?;
                if let Some(slot) = bits.get_mut(c).filter(|_| c < a.components) {
                    *slot = b;
                }
                n = c + 1;
                Ok(())
            })?;
            if n != a.components {
                return Err(json::error(
                    format!(
                        "vertex {v}: '{key}' has {n} values; the attribute has {} components",
                        a.components
                    ),
                    list,
                ));
            }
            if let Some(slot) = out.get_mut(base + a.location) {
                *slot = bits.map(f32::from_bits);
            }
            Ok(())
        })?;
        if let Some((a, _)) = attrs.iter().zip(&given).find(|(_, seen)| !**seen) {
            return Err(json::error(format!("vertex {v} has no '{}'", a.name), span));
        }
        Ok(())
    })?;
    Ok(out)
}

/// Reads a vertices file. Errors carry the span of the offending text (`R006`, or `R007` for a
/// limit of `limits`).
pub fn parse(text: &str) -> Result<Mesh, Diagnostic> {
    crate::limits::check_input(text)?;
    // First the whole text's syntax, and where each member's value starts: the members may
    // come in any order, and the vertices can only be read once the attributes are known.
    let mut at: [Option<(usize, Span)>; 5] = [None; 5];
    const KEYS: [&str; 5] = ["attributes", "vertices", "draws", "front_face", "provoking_vertex"];
    // A byte-order mark before the object is allowed (editors write one).
    let mut r = Reader::at(text, if text.starts_with('\u{feff}') { 3 } else { 0 });
    if r.peek()? != Kind::Object {
        let start = r.position();
        return Err(json::error("a vertices file is one JSON object", Span::new(start, start + 1)));
    }
    let whole_span = r.object(|r, key, key_span| {
        let start = r.position();
        if let Some(slot) = KEYS.iter().position(|k| *k == key).and_then(|k| at.get_mut(k)) {
            if slot.is_some() {
                return Err(json::error(format!("\"{key}\" is given twice"), key_span));
            }
            *slot = Some((start, key_span));
        }
        r.skip().map(|_| ())
    })?;
    r.end()?;
    let brace = whole_span.start as usize;
    let missing =
        |key: &str| json::error(format!("the file has no \"{key}\""), Span::new(brace, brace + 1));

    let (start, _) = at[0].ok_or_else(|| missing("attributes"))?;
    let attrs = attributes(&mut Reader::at(text, start))?;
    let slots = attrs.iter().map(|a| a.location + 1).max().unwrap_or(1);

    let (start, _) = at[1].ok_or_else(|| missing("vertices"))?;
    let vertices = vertices(&mut Reader::at(text, start), &attrs, slots)?;
    let count = vertices.len() / slots;

    let draws = match at[2] {
        Some((start, _)) => draws(&mut Reader::at(text, start), count)?,
        // No draws: the vertices as a list of triangles.
        None => vec![Draw { topology: Topology::TriangleList, first: 0, count }],
    };
    let front_face = match at[3] {
        Some((start, _)) => choice(&mut Reader::at(text, start), "front_face", &FRONT_FACES)?,
        None => FrontFace::Ccw,
    };
    let provoking = match at[4] {
        Some((start, _)) => choice(&mut Reader::at(text, start), "provoking_vertex", &PROVOKING)?,
        None => Provoking::Last,
    };
    Ok(Mesh {
        name: MESH_NAME,
        attributes: slots,
        vertices,
        indices: (0..count as u32).collect(),
        draws,
        front_face,
        provoking,
        wants_depth: false,
    })
}

fn draws(r: &mut Reader, vertex_count: usize) -> Result<Vec<Draw>, Diagnostic> {
    let mut out = Vec::new();
    let mut drawn = 0u64;
    r.array(|r, i| {
        if i >= MAX_DRAWS {
            r.peek()?;
            let at = r.position();
            return Err(over_limit(format!("more than {MAX_DRAWS} draws"), Span::new(at, at + 1)));
        }
        let (mut mode, mut first, mut count) = (None, None, None);
        let span = r.object(|r, key, _| {
            match key {
                "mode" => mode = Some(choice(r, "mode", &MODES)?),
                "first" => first = Some(whole(r, "first")?),
                "count" => count = Some(whole(r, "count")?),
                _ => {
                    r.skip()?;
                }
            }
            Ok(())
        })?;
        let missing = |m: &str| json::error(format!("draw {i} has no \"{m}\""), span);
        let topology = mode.ok_or_else(|| missing("mode"))?;
        let (first, _) = first.ok_or_else(|| missing("first"))?;
        let (count, count_span) = count.ok_or_else(|| missing("count"))?;
        if first + count > vertex_count as u64 {
            return Err(json::error(
                format!(
                    "draw {i} reads vertices {first}..{} but the file has {vertex_count}",
                    first + count
                ),
                span,
            ));
        }
        drawn += count;
        if drawn > MAX_DRAWN_VERTICES {
            return Err(over_limit(
                format!("the draws read more than {MAX_DRAWN_VERTICES} vertices in all"),
                count_span,
            ));
        }
        out.push(Draw { topology, first: first as usize, count: count as usize });
        Ok(())
    })?;
    Ok(out)
}
