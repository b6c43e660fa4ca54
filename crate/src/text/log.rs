//! Shaders inside pasted text: what a driver developer has in hand is a log, not a file —
//! `tgsi_dump` output among other lines, virgl's `VREND_DEBUG=tgsi` ("TGSI received:"),
//! lines that start with a timestamp or a context name, several shaders in one paste.
//!
//! [`find`] locates every shader: a line whose text (after a prefix) is a processor name
//! (`FRAG`, `VERT`, …) up to the next line that is `END` (with or without tgsi_dump's
//! instruction number). The prefix of the header line — everything before the processor
//! name — is taken off the shader's other lines that start with the same text, or with text
//! of the same shape (bracketed fields such as `[12:03:44.120]` and `name:` labels, whose
//! contents change from line to line). [`isolate`] then blanks everything of the paste that is
//! not the shader, byte for byte, so the parser's spans — hence every diagnostic's line and
//! column — are those of the paste.

use crate::ir::Processor;

/// One shader found in a paste.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub processor: Processor,
    /// Its lines in the paste, 0-based: the header line to the END line, inclusive.
    pub first_line: usize,
    pub last_line: usize,
    /// Instructions between the header and END (lines with an opcode after their number or
    /// after the declarations; an estimate for listing, not the parser's count).
    pub instructions: usize,
    /// Per line of the shader (from `first_line`), the bytes of prefix taken off.
    prefixes: Vec<usize>,
}

impl Found {
    /// Whether any of its lines carried a prefix.
    pub fn prefixed(&self) -> bool {
        self.prefixes.iter().any(|&p| p > 0)
    }
}

const PROCESSORS: [(&str, Processor); 6] = [
    ("FRAG", Processor::Fragment),
    ("VERT", Processor::Vertex),
    ("GEOM", Processor::Geometry),
    ("TESS_CTRL", Processor::TessCtrl),
    ("TESS_EVAL", Processor::TessEval),
    ("COMP", Processor::Compute),
];

/// The processor a line names, and the length of the prefix before the name: the line's text
/// ends with the name, preceded by nothing, a blank, `:` or `]`.
fn header(line: &str) -> Option<(Processor, usize)> {
    let t = line.trim_end();
    PROCESSORS.iter().find_map(|&(name, p)| {
        let prefix = t.strip_suffix(name)?;
        let ok = prefix.is_empty()
            || prefix.ends_with(|c: char| c.is_whitespace() || c == ':' || c == ']');
        ok.then_some((p, prefix.len()))
    })
}

/// How many bytes at the start of `line` are a prefix like `prefix` (the header line's): the
/// same text, or the same sequence of bracketed fields and `word:` labels.
fn prefix_len(line: &str, prefix: &str) -> usize {
    if prefix.is_empty() {
        return 0;
    }
    if line.starts_with(prefix) {
        return prefix.len();
    }
    let (mut p, mut l) = (prefix, line);
    loop {
        let (pt, lt) = (p.trim_start(), l.trim_start());
        if pt.is_empty() {
            return line.len() - lt.len();
        }
        (p, l) = (pt, lt);
        let field = |s: &str| -> Option<usize> {
            let close = match s.chars().next()? {
                '[' => ']',
                '(' => ')',
                '<' => '>',
                _ => {
                    // `word:` (no blank inside the word).
                    let end = s.find(|c: char| c.is_whitespace() || c == ':')?;
                    return (end > 0 && s[end..].starts_with(':')).then_some(end + 1);
                }
            };
            s.find(close).map(|i| i + 1)
        };
        match (field(p), field(l)) {
            (Some(a), Some(b)) => {
                p = &p[a..];
                l = &l[b..];
            }
            _ => return 0,
        }
    }
}

/// Whether a shader line (prefix taken off) is the END instruction.
fn is_end(text: &str) -> bool {
    let t = text.trim();
    let t = match t.split_once(':') {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest.trim(),
        _ => t,
    };
    t == "END"
}

/// Every shader of `text`, in order. A header with no END before the next header (or the end of
/// the text) is not a shader. Linear in the length of the text.
pub fn find(text: &str) -> Vec<Found> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((processor, plen)) = header(lines[i]) else {
            i += 1;
            continue;
        };
        let prefix = &lines[i][..plen];
        let mut prefixes = vec![plen];
        let mut instructions = 0;
        let mut end = None;
        for (k, line) in lines.iter().enumerate().skip(i + 1) {
            let p = prefix_len(line, prefix);
            let body = &line[p..];
            prefixes.push(p);
            if is_end(body) {
                end = Some(k);
                break;
            }
            // Another header ends the attempt (so each line is scanned once: linear time).
            if header(body).is_some() && !body.trim_start().starts_with("PROPERTY") {
                break;
            }
            if opcode_word(body).is_some_and(|w| !matches!(w, "DCL" | "IMM" | "PROPERTY")) {
                instructions += 1;
            }
        }
        let Some(mut last) = end else {
            i += 1;
            continue;
        };
        // Subroutines follow the main program's END (`CAL :6` … `6: BGNSUB`): instruction lines
        // right after it, blank lines between them, belong to the shader too.
        let mut pending = Vec::new();
        for (k, line) in lines.iter().enumerate().skip(last + 1) {
            let p = prefix_len(line, prefix);
            let body = &line[p..];
            if body.trim().is_empty() {
                pending.push(p);
                continue;
            }
            let Some(word) = opcode_word(body) else { break };
            if header(body).is_some() || crate::opcode::Opcode::from_name(word).is_none() {
                break;
            }
            prefixes.append(&mut pending);
            prefixes.push(p);
            instructions += 1;
            last = k;
        }
        out.push(Found { processor, first_line: i, last_line: last, instructions, prefixes });
        i = last + 1;
    }
    out
}

/// The first word of a shader line after tgsi_dump's instruction number (`  6: BGNSUB`), if it
/// is written in capitals as opcodes and statements are.
fn opcode_word(body: &str) -> Option<&str> {
    let t = body.trim_start();
    let t = match t.split_once(':') {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            rest.trim_start()
        }
        _ => t,
    };
    let end = t
        .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(t.len());
    (end > 0 && t.starts_with(|c: char| c.is_ascii_uppercase())).then(|| &t[..end])
}

/// The paste with everything but `found`'s shader blanked: other lines and each shader line's
/// prefix become spaces (line ends and the byte count are kept), so spans into the result are
/// spans into the paste.
pub fn isolate(text: &str, found: &Found) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.split_inclusive('\n').enumerate() {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let keep_from = if (found.first_line..=found.last_line).contains(&k) {
            found.prefixes.get(k - found.first_line).copied().unwrap_or(0).min(body.len())
        } else {
            body.len()
        };
        // Blank whole characters (a prefix ends on a character boundary; the rest of a blanked
        // line too), keeping the byte count: multi-byte characters become as many spaces.
        out.extend(std::iter::repeat_n(' ', keep_from));
        out.push_str(&body[keep_from..]);
        out.push_str(nl);
    }
    out
}

/// The shader's own text: its lines with their prefixes taken off (what a user picking it from
/// a paste wants in the editor).
pub fn shader_text(text: &str, found: &Found) -> String {
    let mut out = String::new();
    for (k, line) in text
        .split('\n')
        .enumerate()
        .skip(found.first_line)
        .take(found.last_line - found.first_line + 1)
    {
        let p = found.prefixes.get(k - found.first_line).copied().unwrap_or(0).min(line.len());
        out.push_str(line[p..].trim_end_matches('\r'));
        out.push('\n');
    }
    out
}

/// Whether `text` is read as it is: it holds no shader the finder sees (a shader without END,
/// a fragment: the parser says what it is), or one shader and nothing else (blank lines and `;`
/// comments aside, which the parser reads).
pub fn is_plain(text: &str, found: &[Found]) -> bool {
    let one = match found {
        [] => return true,
        [one] => one,
        _ => return false,
    };
    !one.prefixed()
        && text.split('\n').enumerate().all(|(k, line)| {
            let t = line.trim();
            (one.first_line..=one.last_line).contains(&k) || t.is_empty() || t.starts_with(';')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIRGL: &str = "vrend_create_shader: ctx 3\nTGSI received:\nFRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\nsome other line\n";

    #[test]
    fn a_shader_between_other_lines() {
        let found = find(VIRGL);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].first_line, found[0].last_line), (2, 5));
        assert_eq!(found[0].processor, Processor::Fragment);
        assert_eq!(found[0].instructions, 1);
        assert!(!found[0].prefixed() && !is_plain(VIRGL, &found));
        let iso = isolate(VIRGL, &found[0]);
        assert_eq!(iso.len(), VIRGL.len());
        assert_eq!(iso.lines().nth(2), Some("FRAG"));
        assert!(iso.lines().next().is_some_and(|l| l.trim().is_empty()));
    }

    #[test]
    fn prefixes_of_the_same_shape_are_taken_off() {
        let log =
            "[12:00:01.5] ctx1: VERT\n[12:00:01.6] ctx1: DCL IN[0]\n[12:00:01.7] ctx1:   0: END\n";
        let found = find(log);
        assert_eq!(found.len(), 1);
        assert!(found[0].prefixed());
        let iso = isolate(log, &found[0]);
        let lines: Vec<&str> = iso.lines().map(str::trim).collect();
        assert_eq!(lines, ["VERT", "DCL IN[0]", "0: END"]);
        // The shape's blanks go with the prefix (tgsi_dump's indentation after it too).
        assert_eq!(shader_text(log, &found[0]), "VERT\nDCL IN[0]\n0: END\n");
    }

    #[test]
    fn several_shaders_and_a_header_without_end() {
        let text = "VERT\n  0: END\nshader type FRAG\nFRAG\nDCL OUT[0], COLOR\nEND\n";
        let found = find(text);
        let spans: Vec<(usize, usize)> =
            found.iter().map(|f| (f.first_line, f.last_line)).collect();
        // "shader type FRAG" starts a header whose END is never reached before the next one.
        assert_eq!(spans, [(0, 1), (3, 5)]);
    }

    #[test]
    fn headers_without_end_take_linear_time() {
        let text = "shader type FRAG\n".repeat(200_000);
        assert!(find(&text).is_empty());
        let text = "FRAG\nDCL TEMP[0]\n".repeat(100_000);
        assert!(find(&text).is_empty());
    }

    /// Random pastes made of the pieces the finder looks at (headers, END, prefixes, brackets,
    /// colons, multi-byte characters, CR): no panic, and every result keeps the paste's length
    /// and lines.
    #[test]
    fn random_pastes_never_panic() {
        const PIECES: [&str; 16] = [
            "FRAG", "VERT", "END", "  0: END", "[", "]", "(", ")", ":", " ", "\n", "\r\n", "é",
            "日本", "ctx1: ", "[12:00] ",
        ];
        let mut seed = 0x2545_f491_u32;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(seed % 40) {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                text.push_str(PIECES[(seed >> 16) as usize % PIECES.len()]);
            }
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            for f in find(&text) {
                let iso = isolate(&text, &f);
                assert_eq!(iso.len(), text.len(), "{text:?}");
                assert_eq!(iso.matches('\n').count(), text.matches('\n').count(), "{text:?}");
                let own = shader_text(&text, &f);
                assert_eq!(own.lines().count(), f.last_line - f.first_line + 1, "{text:?}");
            }
            let _ = is_plain(&text, &find(&text));
        }
    }

    #[test]
    fn subroutines_after_end_belong_to_the_shader() {
        let text = "FRAG\nDCL TEMP[0]\n  0: CAL :2\n  1: END\n\n  2: BGNSUB\n  3:   RET\n  4: ENDSUB\nlog line\n";
        let found = find(text);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].first_line, found[0].last_line), (0, 7));
        assert!(!is_plain(text, &found), "a log line follows");
        assert!(is_plain(&text.replace("log line\n", ""), &find(&text.replace("log line\n", ""))));
    }

    #[test]
    fn a_plain_file_is_read_as_it_is() {
        let text = "; a comment\nFRAG\nDCL OUT[0], COLOR\nEND\n\n";
        assert!(is_plain(text, &find(text)));
    }
}
