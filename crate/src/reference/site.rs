//! The static reference site: one HTML page with a section per opcode (anchor `#NAME`), an
//! index grouped by the table's `Category`, and `data.json` (what the page's script needs to
//! search and to run the lane tables live). Everything comes from the opcode table and the
//! page data ([`super::entry`]); `tgsi reference --out DIR` writes the files, the page's script
//! and style are `web/reference.js` and `web/reference.css`.

use super::facts::FAMILIES;
use super::{entry, lanes, Entry, Live};
use crate::opcode::{Category, Opcode, ValType};
use serde::Serialize;

/// The files of the site: (name, contents), written into one directory.
pub fn files() -> Vec<(&'static str, String)> {
    vec![("index.html", page()), ("data.json", data())]
}

/// The anchor of a family in the index.
pub fn family_anchor(c: Category) -> String {
    format!("family-{c:?}")
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Inline `code` spans of the prose (text between backticks).
fn prose(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in esc(s).split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{part}</code>"));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The rendered example of a lane-table opcode with 32-bit operands: the opcode applied to the
/// pixel's (u, v) mapped to [−2, 2] (floats) or [−8, 8] (integers), the result shown as colour.
/// Doubles and 64-bit integers take (u, v) as a channel pair each (F2D / F2I64) and convert
/// back to float for the colour. `None` for opcodes with their own lane program.
pub fn render_program(op: Opcode) -> Option<String> {
    let info = op.info();
    let e = entry(op)?;
    if let Some((text, _)) = crate::reference::own_render(op) {
        return Some(text.to_string());
    }
    match &e.live {
        // Fragment examples are drawn when the widget can bind what they sample (built-in
        // textures only) and running them is defined (not the bindless X008 ones).
        Live::Example { text, textures, why } => {
            let samples = text.contains("SAMP[") || text.contains("SVIEW[");
            let drawable = text.starts_with("FRAG")
                && (!samples || !textures.is_empty())
                && !why.contains("X008");
            return drawable.then(|| text.to_string());
        }
        Live::Lanes { program, .. } if !program.is_empty() => return None,
        Live::Lanes { .. } => {}
    }
    if info.num_dst != 1 || info.num_src == 0 || info.is_legacy() && info.num_src > 3 {
        return None;
    }
    let int = |t: ValType| matches!(t, ValType::Int | ValType::Uint);
    let float = |t: ValType| matches!(t, ValType::Float | ValType::Untyped);
    let wide = |t: ValType| matches!(t, ValType::Int64 | ValType::Uint64);
    let srcs: Vec<ValType> = (0..info.num_src as usize).map(|i| info.src_type(i)).collect();
    let known = |t: ValType| float(t) || int(t) || wide(t) || t == ValType::Double;
    if !srcs.iter().all(|&t| known(t)) || !known(info.dst_type) {
        return None;
    }
    let swz = ["TEMP[0]", "TEMP[0].yxwz", "TEMP[0].xxyy", "TEMP[0].yyxx"];
    let iswz = ["TEMP[1]", "TEMP[1].yxwz", "TEMP[1].xxyy", "TEMP[1].yyxx"];
    // Doubles and 64-bit integers are channel pairs (xy, zw): u in the first, v in the second.
    let dswz = ["TEMP[3]", "TEMP[3].zwxy", "TEMP[3].xyxy", "TEMP[3].zwzw"];
    let wswz = ["TEMP[4]", "TEMP[4].zwxy", "TEMP[4].xyxy", "TEMP[4].zwzw"];
    let ints = srcs.iter().any(|&t| int(t) || wide(t));
    let doubles = srcs.contains(&ValType::Double);
    let wides = srcs.iter().any(|&t| wide(t));
    let int_dst = int(info.dst_type) || wide(info.dst_type);
    let mut s = String::from(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..5]\n",
    );
    s.push_str(if int_dst {
        "IMM[0] FLT32 { 4.0, -2.0, 1.0, 0.0625 }\n"
    } else {
        "IMM[0] FLT32 { 4.0, -2.0, 1.0, 0.0 }\n"
    });
    if ints {
        s.push_str("IMM[1] FLT32 { 16.0, -8.0, 0.0, 0.0 }\n");
    }
    let mut n = 0;
    let mut line = |s: &mut String, text: String| {
        s.push_str(&format!("{n:3}: {text}\n"));
        n += 1;
    };
    line(&mut s, "MAD TEMP[0], IN[0].xyxy, IMM[0].xxxx, IMM[0].yyyy".into());
    if ints {
        line(&mut s, "MAD TEMP[5], IN[0].xyxy, IMM[1].xxxx, IMM[1].yyyy".into());
        line(&mut s, "F2I TEMP[1], TEMP[5]".into());
    }
    if doubles {
        line(&mut s, "F2D TEMP[3], TEMP[0]".into());
    }
    if wides {
        line(&mut s, "F2I64 TEMP[4], TEMP[5]".into());
    }
    let ops: Vec<&str> = srcs
        .iter()
        .enumerate()
        .map(|(i, &t)| match t {
            ValType::Double => dswz[i],
            t if wide(t) => wswz[i],
            t if int(t) => iswz[i],
            _ => swz[i],
        })
        .collect();
    line(&mut s, format!("{} TEMP[2], {}", info.name, ops.join(", ")));
    let pair = doubles || wides || matches!(info.dst_type, ValType::Double) || wide(info.dst_type);
    match info.dst_type {
        ValType::Double => line(&mut s, "D2F TEMP[2], TEMP[2]".into()),
        // A ~0 / 0 flag reads as unsigned, so true is bright.
        ValType::Int if info.formula.contains("~0") => line(&mut s, "U2F TEMP[2], TEMP[2]".into()),
        ValType::Int => line(&mut s, "I2F TEMP[2], TEMP[2]".into()),
        ValType::Uint => line(&mut s, "U2F TEMP[2], TEMP[2]".into()),
        ValType::Int64 => line(&mut s, "I642F TEMP[2], TEMP[2]".into()),
        ValType::Uint64 => line(&mut s, "U642F TEMP[2], TEMP[2]".into()),
        _ => {}
    }
    if int_dst {
        line(&mut s, "MUL TEMP[2], TEMP[2], IMM[0].wwww".into());
    }
    // A pair result converts to two floats (x from xy, y from zw).
    // Pair compares leave their flags in x and z (tgsi_exec's layout, see DSLT).
    let flags = (doubles || wides) && info.formula.contains("~0");
    line(
        &mut s,
        match (pair, flags) {
            (_, true) => "MOV OUT[0], TEMP[2].xzwx",
            (true, false) => "MOV OUT[0], TEMP[2].xyyx",
            _ => "MOV OUT[0], TEMP[2]",
        }
        .into(),
    );
    line(&mut s, "MOV OUT[0].w, IMM[0].zzzz".into());
    line(&mut s, "END".into());
    Some(s)
}

/// The built-in textures a rendered example samples (the widget's `textures` syntax), or "".
fn example_textures(e: &Entry) -> &'static str {
    match &e.live {
        Live::Example { textures, .. } => textures,
        _ => "",
    }
}

/// What the rendered example of `op` shows.
fn caption(op: Opcode, e: &Entry) -> String {
    if let Some((_, shows)) = crate::reference::own_render(op) {
        return shows.to_string();
    }
    let info = op.info();
    let pair = |t: ValType| matches!(t, ValType::Double | ValType::Int64 | ValType::Uint64);
    match e.live {
        Live::Example { .. } => "the example above".into(),
        _ if pair(info.dst_type) || (0..info.num_src as usize).any(|i| pair(info.src_type(i))) => {
            "the opcode applied to each pixel's (u, v) mapped to [−2, 2] (integer operands: [−8, 8]), each made a double or 64-bit pair with F2D / F2I64, the result converted back to float as colour".into()
        }
        _ => "the opcode applied to each pixel's (u, v) mapped to [−2, 2] (integer operands: [−8, 8]), result as colour".into(),
    }
}

fn section(op: Opcode, e: &Entry) -> String {
    let info = op.info();
    let name = info.name;
    let mut h = format!(
        "<section id=\"{name}\" class=\"op\" data-op=\"{name}\" data-family=\"{}\">\n<h2><a href=\"#{name}\">{name}</a> <span class=\"summary\">{}</span></h2>\n",
        family_anchor(info.category),
        esc(info.summary)
    );
    let facts = super::facts::facts(op, e);
    // The picture first, beside the facts: it is in view when the page opens at the anchor.
    if let Some(fs) = render_program(op) {
        let textures = match example_textures(e) {
            "" => String::new(),
            t => format!(" textures=\"{}\"", esc(t)),
        };
        h.push_str(&format!(
            "<div class=\"render\"><tgsi-shader width=\"128\" height=\"128\" label=\"{name} example\"{textures}><script type=\"text/x-tgsi\">\n{}</script></tgsi-shader>\n<p class=\"caption\">Rendered by the widget on this page: {}.</p></div>\n",
            // Script content is raw text in HTML (no entities); TGSI never holds `</`.
            fs.replace("</", "<\\/"),
            esc(&caption(op, e))
        ));
    } else if let Some(why) = crate::reference::no_render_reason(op) {
        h.push_str(&format!("<p class=\"no-render\">No rendered example: {}.</p>\n", esc(why)));
    }
    h.push_str("<dl class=\"facts\">\n");
    for (label, text) in &facts.list {
        h.push_str(&format!("<dt>{label}</dt><dd>{}</dd>\n", prose(text)));
    }
    h.push_str("</dl>\n");
    h.push_str(&format!("<h3>Formula</h3>\n<pre class=\"formula\">{}</pre>\n", esc(info.formula)));
    h.push_str(&format!("<h3>Edge cases</h3>\n<p class=\"edge\">{}</p>\n", prose(e.edge)));
    h.push_str(&format!(
        "<h3>tgsi.rst and tgsi_exec</h3>\n<p class=\"mesa\">{}</p>\n",
        prose(&facts.mesa)
    ));
    h.push_str(&format!("<h3>AGAL</h3>\n<p class=\"agal\">{}</p>\n", prose(&facts.agal)));
    if info.is_legacy() {
        h.push_str(&format!(
            "<h3>Replaced by</h3>\n<p class=\"replacement\">{}</p>\n",
            prose(info.replacement)
        ));
    }
    let related: Vec<String> = super::related(e)
        .into_iter()
        .filter_map(|r| r.ok())
        .map(|o| format!("<a href=\"#{0}\">{0}</a>", o.name()))
        .collect();
    if !related.is_empty() {
        h.push_str(&format!("<h3>Related</h3>\n<p class=\"related\">{}</p>\n", related.join(" ")));
    }
    h.push_str("<h3>Live</h3>\n");
    match &e.live {
        Live::Lanes { program, rows } => {
            h.push_str(&format!(
                "<p>The four lanes of one quad run <code>{name}</code>; edit an input and the engine recomputes the lane. Expected values are derived by hand from the formula and asserted by the tests.</p>\n<div class=\"lanes\" data-op=\"{name}\">\n<table class=\"static\"><thead><tr><th>lane</th><th>inputs</th><th>expected</th></tr></thead><tbody>\n"
            ));
            for (i, r) in rows.iter().enumerate() {
                let (ins, exp) = r.split_once("=>").unwrap_or((r, ""));
                h.push_str(&format!(
                    "<tr><td>{i}</td><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
                    esc(ins.trim()),
                    esc(exp.trim())
                ));
            }
            h.push_str("</tbody></table>\n</div>\n");
            h.push_str(&format!(
                "<details><summary>Lane program</summary><pre class=\"program\">{}</pre></details>\n",
                esc(&lanes::program_of(op, program))
            ));
        }
        Live::Example { why, text, .. } => {
            if let Some(t) = super::texlanes::of(op) {
                h.push_str(&tex_lanes(op, t));
            } else if let Some(why) = super::texlanes::reason_for_none(op) {
                h.push_str(&format!("<p class=\"no-tex-lanes\">{}.</p>\n", esc(why)));
            }
            h.push_str(&format!(
                "<p class=\"not-lanes\">{}: {}.</p>\n<pre class=\"program\">{}</pre>\n",
                super::facts::example_label(op),
                esc(why),
                esc(text)
            ));
            if let Some(b) = super::buffer_check(op) {
                let row = |w: &[u32; 8]| {
                    w.iter().map(|x| format!("<td><code>0x{x:08x}</code></td>")).collect::<String>()
                };
                h.push_str(&format!(
                    "<p>One block of four invocations (thread ids 0 to 3) on an eight-word <code>BUFFER[0]</code>; the words after the run are derived by hand and asserted by the tests; the engine row is the page's engine running the example:</p>\n<table class=\"buffer\" data-op=\"{name}\"><tr class=\"before\"><th>before</th>{}</tr><tr class=\"after\"><th>after</th>{}</tr></table>\n",
                    row(&b.before),
                    row(&b.after),
                    name = op.name()
                ));
            }
        }
    }
    h.push_str("</section>\n");
    h
}

/// A texture lane table: the static rows (the page's script runs them on the built-in
/// textures and adds, per lane, the LOD chosen and the texels read with their weights).
fn tex_lanes(op: Opcode, t: &super::texlanes::TexLanes) -> String {
    let name = op.name();
    let mut h = format!(
        "<p>The four lanes of one quad run <code>{name}</code> on the built-in textures <code>{}</code> through the engine's sampler: {}. Per lane: the coordinates in, the LOD chosen, the texels read with their weights, and the result. Expected values are derived by hand from the texel values and the filter formula and asserted by the tests; edit an input and the engine recomputes the lane.</p>\n<div class=\"tex-lanes\" data-op=\"{name}\">\n<table class=\"static\"><thead><tr><th>lane</th><th>inputs</th><th>expected</th></tr></thead><tbody>\n",
        esc(t.textures),
        esc(t.shows)
    );
    for (i, r) in t.rows.iter().enumerate() {
        let (ins, exp) = r.split_once("=>").unwrap_or((r, ""));
        h.push_str(&format!(
            "<tr><td>{i}</td><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
            esc(ins.trim()),
            esc(exp.trim())
        ));
    }
    h.push_str("</tbody></table>\n</div>\n");
    h.push_str(&format!(
        "<details><summary>Lane program</summary><pre class=\"tex-program\">{}</pre></details>\n",
        esc(t.program)
    ));
    h
}

fn page() -> String {
    let mut h = String::from(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>TGSI opcode reference</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"../web/reference.css\">\n\
         <script type=\"module\" src=\"../web/reference.js\"></script>\n<script type=\"module\" src=\"../web/widget/tgsi-shader.js\"></script>\n</head>\n<body>\n\
         <header>\n<a class=\"home\" href=\"../index.html\">TGSI Playground</a>\n<h1>TGSI opcode reference</h1>\n\
         <div class=\"search\"><input id=\"search\" type=\"search\" placeholder=\"Search opcodes (press /)\" aria-label=\"Search opcodes\" autocomplete=\"off\">\n\
         <ol id=\"results\" role=\"listbox\" aria-label=\"Search results\"></ol></div>\n\
         <p class=\"keys\">Keys: <kbd>/</kbd> search, <kbd>↑</kbd> <kbd>↓</kbd> and <kbd>Enter</kbd> in the results, <kbd>Esc</kbd> leaves the search, <kbd>j</kbd> / <kbd>k</kbd> next / previous opcode.</p>\n</header>\n",
    );
    h.push_str("<nav id=\"index\" aria-label=\"Opcodes by family\">\n<h2>Index</h2>\n");
    for &(cat, title) in FAMILIES {
        let ops: Vec<Opcode> = Opcode::all().filter(|o| o.info().category == cat).collect();
        if ops.is_empty() {
            continue;
        }
        h.push_str(&format!("<h3 id=\"{}\">{title}</h3>\n<ul>\n", family_anchor(cat)));
        for o in ops {
            h.push_str(&format!(
                "<li><a href=\"#{0}\">{0}</a> <span>{1}</span></li>\n",
                o.name(),
                esc(o.info().summary)
            ));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</nav>\n<main>\n");
    for &(cat, _) in FAMILIES {
        for o in Opcode::all().filter(|o| o.info().category == cat) {
            if let Some(e) = entry(o) {
                h.push_str(&section(o, e));
            }
        }
    }
    h.push_str("</main>\n</body>\n</html>\n");
    h
}

#[derive(Serialize)]
struct JsEntry {
    name: &'static str,
    family: String,
    summary: &'static str,
    formula: &'static str,
    /// Search text: edge cases, differences, AGAL notes.
    text: String,
    /// The lane program and the rows' text, for lane tables.
    program: Option<String>,
    rows: Option<[&'static str; 4]>,
    /// The result's type from the table (`int`, `uint`, `float`, …): integer results show
    /// int / hex first.
    dst: &'static str,
    /// A texture lane table: program, textures (widget `textures` syntax) and rows.
    tex: Option<JsTex>,
    /// The rendered example the page draws with the widget, if the opcode has one.
    example: Option<JsExample>,
}

#[derive(Serialize)]
struct JsExample {
    /// The fragment shader.
    program: String,
    /// Built-in textures it samples (widget `textures` syntax), or "".
    textures: &'static str,
    /// What the picture shows.
    caption: String,
}

#[derive(Serialize)]
struct JsTex {
    program: &'static str,
    textures: &'static str,
    rows: [&'static str; 4],
    /// The LOD / level column's words for an opcode the sampler records no trace for.
    level: &'static str,
}

/// The name of a value type in `data.json`.
fn type_word(t: ValType) -> &'static str {
    match t {
        ValType::Float => "float",
        ValType::Int => "int",
        ValType::Uint => "uint",
        ValType::Double => "double",
        ValType::Int64 => "int64",
        ValType::Uint64 => "uint64",
        ValType::Untyped => "untyped",
    }
}

fn data() -> String {
    let rows: Vec<JsEntry> = Opcode::all()
        .filter_map(|o| entry(o).map(|e| (o, e)))
        .map(|(o, e)| {
            let info = o.info();
            let family = FAMILIES.iter().find(|f| f.0 == info.category).map_or("", |f| f.1);
            let (program, rows) = match &e.live {
                Live::Lanes { program, rows } => (Some(lanes::program_of(o, program)), Some(*rows)),
                Live::Example { .. } => (None, None),
            };
            JsEntry {
                name: info.name,
                family: family.to_string(),
                summary: info.summary,
                formula: info.formula,
                text: [e.edge, e.mesa, e.agal, info.replacement].join(" "),
                program,
                rows,
                dst: type_word(info.dst_type),
                tex: super::texlanes::of(o).map(|t| JsTex {
                    program: t.program,
                    textures: t.textures,
                    rows: t.rows,
                    level: t.level,
                }),
                example: render_program(o).map(|program| JsExample {
                    program,
                    textures: example_textures(e),
                    // Shown away from the reference page: no example "above" to point at.
                    caption: match &e.live {
                        Live::Example { .. } => "the opcode reference's example program".into(),
                        _ => caption(o, e),
                    },
                }),
            }
        })
        .collect();
    serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into())
}
