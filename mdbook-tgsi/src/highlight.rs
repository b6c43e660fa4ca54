//! The shader's text under a widget, highlighted at build time.
//!
//! mdBook's highlight.js has no TGSI grammar: a `language-tgsi` block is left plain and logs "Could
//! not find the language 'tgsi'" on every page that has one. So the text is written as HTML with
//! a `<span class="hljs-…">` around each word, number, swizzle, label and comment, in a
//! `<code class="nohighlight hljs tgsi-source">`: highlight.js skips a block with a
//! `nohighlight` class and no `language-`/`lang-` class (highlight.js 10's `highlightBlock`
//! looks for those first, and warns about a language it does not know), and mdBook's themes
//! colour the `hljs-…` classes.
//!
//! Words are classified as the playground's editor does it (web/tgsi-lang.js), from the engine's
//! own vocabulary (`tgsi::text::vocabulary`): the processors, `DCL`, `IMM` and `PROPERTY` are
//! headers; then opcodes (and an opcode with `_SAT`); register files; semantics; every other
//! word of the vocabulary (interpolations, texture targets, immediate types, properties…) is a
//! modifier. Two differences from the editor: a label (`0:`) is looked for before a number
//! (the editor's number rule takes its digits first, so it never shows one), and a word that
//! starts with a digit (`2D`, `2D_ARRAY`) is one word when the vocabulary has it.

use std::collections::HashSet;
use std::sync::OnceLock;
use tgsi::text::vocabulary::vocabulary;

/// What a piece of shader text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A processor (`FRAG`), `DCL`, `IMM` or `PROPERTY`.
    Header,
    /// An opcode, with or without `_SAT`.
    Opcode,
    /// A register file (`OUT`, `TEMP`, `CONST`).
    File,
    /// A semantic (`COLOR`, `POSITION`, `GENERIC`).
    Semantic,
    /// Any other word of the language (`PERSPECTIVE`, `FLT32`, `2D`, `FLOAT`).
    Modifier,
    /// A decimal, float or hex number, with its sign.
    Number,
    /// `.xyzw`, `.x`, `.rgba`.
    Swizzle,
    /// An instruction's label, `12:`.
    Label,
    /// `;` to the end of the line.
    Comment,
}

impl Class {
    /// The highlight.js class mdBook's themes colour for it (README.md, "Highlighting", has the
    /// colours of each theme).
    pub fn hljs(self) -> &'static str {
        match self {
            Class::Header => "hljs-keyword",
            Class::Opcode => "hljs-title",
            Class::File => "hljs-name",
            Class::Semantic => "hljs-string",
            Class::Modifier => "hljs-variable",
            Class::Number => "hljs-number",
            Class::Swizzle => "hljs-attr",
            Class::Label => "hljs-symbol",
            Class::Comment => "hljs-comment",
        }
    }
}

/// The engine's words, grouped as the editor groups them.
struct Words {
    headers: HashSet<&'static str>,
    opcodes: HashSet<&'static str>,
    files: HashSet<&'static str>,
    semantics: HashSet<&'static str>,
    modifiers: HashSet<&'static str>,
}

/// The words that open a statement, besides the processors.
const STATEMENT_WORDS: [&str; 3] = ["DCL", "IMM", "PROPERTY"];

fn words() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| {
        let v = vocabulary();
        let mut headers: HashSet<&'static str> = v.processors.iter().copied().collect();
        headers.extend(STATEMENT_WORDS);
        let modifiers = [
            &v.interpolations,
            &v.locations,
            &v.immediate_types,
            &v.texture_targets,
            &v.return_types,
            &v.memory_kinds,
            &v.memory_qualifiers,
            &v.properties,
            &v.property_values,
            &v.keywords,
        ]
        .into_iter()
        .flatten()
        .copied()
        .filter(|w| !STATEMENT_WORDS.contains(w))
        .collect();
        Words {
            headers,
            opcodes: v.opcodes.iter().copied().collect(),
            files: v.files.iter().copied().collect(),
            semantics: v.semantics.iter().copied().collect(),
            modifiers,
        }
    })
}

/// A word's class (case does not matter), or `None` for a word the language does not have.
pub fn classify_word(word: &str) -> Option<Class> {
    let w = words();
    let upper = word.to_ascii_uppercase();
    let word = upper.as_str();
    let base = word.strip_suffix("_SAT").unwrap_or(word);
    if w.headers.contains(word) {
        Some(Class::Header)
    } else if w.opcodes.contains(word) || w.opcodes.contains(base) {
        Some(Class::Opcode)
    } else if w.files.contains(word) {
        Some(Class::File)
    } else if w.semantics.contains(word) {
        Some(Class::Semantic)
    } else if w.modifiers.contains(word) {
        Some(Class::Modifier)
    } else {
        None
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn count(bytes: &[u8], from: usize, f: impl Fn(u8) -> bool) -> usize {
    bytes.get(from..).unwrap_or(&[]).iter().take_while(|&&b| f(b)).count()
}

/// An exponent (`e5`, `E-3`) at `at`: its length, 0 when there is none.
fn exponent(b: &[u8], at: usize) -> usize {
    if !matches!(b.get(at), Some(b'e' | b'E')) {
        return 0;
    }
    let sign = usize::from(matches!(b.get(at + 1), Some(b'+' | b'-')));
    let digits = count(b, at + 1 + sign, |c| c.is_ascii_digit());
    if digits == 0 {
        0
    } else {
        1 + sign + digits
    }
}

/// A number at `at`, as the editor reads one: an optional `-`, then `0x` and hex digits, or
/// digits with an optional `.`, more digits and an exponent, or `.` and digits with an optional
/// exponent. Its length, 0 when there is none.
fn number(b: &[u8], at: usize) -> usize {
    let sign = usize::from(b.get(at) == Some(&b'-'));
    let start = at + sign;
    let hex_digits = count(b, start + 2, |c| c.is_ascii_hexdigit());
    if b.get(start) == Some(&b'0')
        && matches!(b.get(start + 1), Some(b'x' | b'X'))
        && hex_digits > 0
    {
        return sign + 2 + hex_digits;
    }
    let int = count(b, start, |c| c.is_ascii_digit());
    let len = if int > 0 {
        let mut end = start + int;
        if b.get(end) == Some(&b'.') {
            end += 1 + count(b, end + 1, |c| c.is_ascii_digit());
        }
        end + exponent(b, end) - start
    } else if b.get(start) == Some(&b'.') {
        let frac = count(b, start + 1, |c| c.is_ascii_digit());
        if frac == 0 {
            return 0;
        }
        1 + frac + exponent(b, start + 1 + frac)
    } else {
        return 0;
    };
    sign + len
}

/// A swizzle at `at` (`.` and one to four of `xyzwrgba`, not followed by a word character): its
/// length, 0 when there is none.
fn swizzle(b: &[u8], at: usize) -> usize {
    if b.get(at) != Some(&b'.') {
        return 0;
    }
    let letters = count(b, at + 1, |c| b"xyzwrgbaXYZWRGBA".contains(&c));
    let end = at + 1 + letters;
    if (1..=4).contains(&letters) && !b.get(end).copied().is_some_and(is_word_byte) {
        1 + letters
    } else {
        0
    }
}

/// A line's pieces in order, each with its class (`None`: plain text). Together they are the
/// line.
pub fn tokens(line: &str) -> Vec<(Option<Class>, &str)> {
    let b = line.as_bytes();
    let mut out: Vec<(Option<Class>, &str)> = Vec::new();
    let mut plain_from: Option<usize> = None;
    let mut at = 0;
    while at < b.len() {
        let (class, len) = token(line, at);
        match class {
            None => {
                plain_from.get_or_insert(at);
            }
            Some(c) => {
                if let Some(from) = plain_from.take() {
                    out.push((None, &line[from..at]));
                }
                out.push((Some(c), &line[at..at + len]));
            }
        }
        at += len;
    }
    if let Some(from) = plain_from {
        out.push((None, &line[from..]));
    }
    out
}

/// The token at byte `at` of `line` (a character boundary): its class and length in bytes
/// (at least one character).
fn token(line: &str, at: usize) -> (Option<Class>, usize) {
    let b = line.as_bytes();
    let first = b[at];
    if first == b';' {
        return (Some(Class::Comment), b.len() - at);
    }
    if first.is_ascii_digit() {
        let digits = count(b, at, |c| c.is_ascii_digit());
        if b.get(at + digits) == Some(&b':') {
            return (Some(Class::Label), digits + 1);
        }
        let run = count(b, at, is_word_byte);
        if let Some(class) = classify_word(&line[at..at + run]) {
            return (Some(class), run);
        }
    }
    let n = number(b, at);
    if n > 0 {
        return (Some(Class::Number), n);
    }
    let n = swizzle(b, at);
    if n > 0 {
        return (Some(Class::Swizzle), n);
    }
    if first.is_ascii_alphabetic() || first == b'_' {
        let run = count(b, at, is_word_byte);
        return (classify_word(&line[at..at + run]), run);
    }
    let len = line[at..].chars().next().map_or(1, char::len_utf8);
    (None, len)
}

/// `&`, `<` and `>` as character references, for text inside an element.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// One line as HTML: each classified piece in a `<span class="hljs-…">`, all text escaped.
pub fn line_html(line: &str) -> String {
    let mut out = String::with_capacity(line.len() * 3);
    for (class, text) in tokens(line) {
        match class {
            Some(c) => {
                out.push_str("<span class=\"");
                out.push_str(c.hljs());
                out.push_str("\">");
                out.push_str(&escape_text(text));
                out.push_str("</span>");
            }
            None => out.push_str(&escape_text(text)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of a line as (class, text), for short expectations.
    fn pieces(line: &str) -> Vec<(Option<Class>, &str)> {
        tokens(line)
    }

    use Class::*;

    #[test]
    fn each_class_of_word_comes_from_the_engines_vocabulary() {
        // FRAG and VERT are processors, DCL/IMM/PROPERTY the statement words: headers.
        for w in ["FRAG", "VERT", "COMP", "DCL", "IMM", "PROPERTY"] {
            assert_eq!(classify_word(w), Some(Header), "{w}");
        }
        // Opcodes of the table, saturated ones and lower case (the editor upper-cases too).
        for w in ["MOV", "TEX", "END", "MOV_SAT", "mad"] {
            assert_eq!(classify_word(w), Some(Opcode), "{w}");
        }
        for w in ["OUT", "IN", "TEMP", "CONST", "SAMP", "SVIEW"] {
            assert_eq!(classify_word(w), Some(File), "{w}");
        }
        // COLOR is a semantic and an interpolation mode: the semantic comes first, as in the
        // editor.
        for w in ["COLOR", "POSITION", "GENERIC"] {
            assert_eq!(classify_word(w), Some(Semantic), "{w}");
        }
        // An interpolation, a location, an immediate type, texture targets (one starting with a
        // digit), a return type, a property and a declaration word.
        for w in [
            "PERSPECTIVE",
            "CENTROID",
            "FLT32",
            "2D",
            "2D_ARRAY",
            "FLOAT",
            "FS_COORD_ORIGIN",
            "ARRAY",
        ] {
            assert_eq!(classify_word(w), Some(Modifier), "{w}");
        }
        // NULL is in Mesa's file enumeration but cannot be written (the vocabulary leaves it
        // out); "colour" and "MOVE" are not TGSI.
        assert_ne!(classify_word("NULL"), Some(File));
        assert_eq!(classify_word("colour"), None);
        assert_eq!(classify_word("MOVE"), None);
    }

    #[test]
    fn a_declaration_line() {
        assert_eq!(
            pieces("DCL IN[0], GENERIC[12], PERSPECTIVE"),
            [
                (Some(Header), "DCL"),
                (None, " "),
                (Some(File), "IN"),
                (None, "["),
                (Some(Number), "0"),
                (None, "], "),
                (Some(Semantic), "GENERIC"),
                (None, "["),
                (Some(Number), "12"),
                (None, "], "),
                (Some(Modifier), "PERSPECTIVE"),
            ]
        );
    }

    #[test]
    fn an_instruction_with_a_label_swizzles_and_a_comment() {
        assert_eq!(
            pieces("  10: MAD_SAT TEMP[0].xy, -IN[1].wzyx, CONST[0][3].x ; scale"),
            [
                (None, "  "),
                (Some(Label), "10:"),
                (None, " "),
                (Some(Opcode), "MAD_SAT"),
                (None, " "),
                (Some(File), "TEMP"),
                (None, "["),
                (Some(Number), "0"),
                (None, "]"),
                (Some(Swizzle), ".xy"),
                (None, ", -"),
                (Some(File), "IN"),
                (None, "["),
                (Some(Number), "1"),
                (None, "]"),
                (Some(Swizzle), ".wzyx"),
                (None, ", "),
                (Some(File), "CONST"),
                (None, "["),
                (Some(Number), "0"),
                (None, "]["),
                (Some(Number), "3"),
                (None, "]"),
                (Some(Swizzle), ".x"),
                (None, " "),
                (Some(Comment), "; scale"),
            ]
        );
    }

    #[test]
    fn numbers_in_every_form() {
        // Signed decimals, a float with an exponent, a fraction without its integer part, hex
        // (raw bits) and an exponent without digits (then it is not part of the number).
        assert_eq!(
            pieces("{ -0.2500, 1.5e-3, .75, 0x3f800000, 2e }"),
            [
                (None, "{ "),
                (Some(Number), "-0.2500"),
                (None, ", "),
                (Some(Number), "1.5e-3"),
                (None, ", "),
                (Some(Number), ".75"),
                (None, ", "),
                (Some(Number), "0x3f800000"),
                (None, ", "),
                (Some(Number), "2"),
                (None, "e }"),
            ]
        );
        // A minus alone is text; "0x" without hex digits is the number 0 and the word "x".
        assert_eq!(pieces("- 0x"), [(None, "- "), (Some(Number), "0"), (None, "x")]);
    }

    #[test]
    fn a_dot_is_a_swizzle_only_when_one_to_four_letters_end_there() {
        // ".xyzwx" has five letters, ".xq" a letter that is not a component, ".xy1" a digit after.
        assert_eq!(pieces(".rgba"), [(Some(Swizzle), ".rgba")]);
        assert_eq!(pieces(".xyzwx .xq .xy1"), [(None, ".xyzwx .xq .xy1")]);
    }

    #[test]
    fn a_texture_declaration_and_a_property() {
        assert_eq!(
            pieces("DCL SVIEW[0], 2D_ARRAY, FLOAT"),
            [
                (Some(Header), "DCL"),
                (None, " "),
                (Some(File), "SVIEW"),
                (None, "["),
                (Some(Number), "0"),
                (None, "], "),
                (Some(Modifier), "2D_ARRAY"),
                (None, ", "),
                (Some(Modifier), "FLOAT"),
            ]
        );
        assert_eq!(
            pieces("PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1"),
            [
                (Some(Header), "PROPERTY"),
                (None, " "),
                (Some(Modifier), "FS_COLOR0_WRITES_ALL_CBUFS"),
                (None, " "),
                (Some(Number), "1"),
            ]
        );
    }

    #[test]
    fn html_is_escaped_inside_and_outside_spans() {
        assert_eq!(
            line_html("  0: MOV OUT[0], IMM[0] ; a < b && c > d"),
            "  <span class=\"hljs-symbol\">0:</span> <span class=\"hljs-title\">MOV</span> \
             <span class=\"hljs-name\">OUT</span>[<span class=\"hljs-number\">0</span>], \
             <span class=\"hljs-keyword\">IMM</span>[<span class=\"hljs-number\">0</span>] \
             <span class=\"hljs-comment\">; a &lt; b &amp;&amp; c &gt; d</span>"
        );
        // Outside a comment (the parser would refuse it, the highlighter must still escape it);
        // the ";" of "&amp;" starts a comment, as it would in the editor.
        assert_eq!(line_html("<b>&x>"), "&lt;b&gt;&amp;x&gt;");
        assert_eq!(line_html("&amp;"), "&amp;amp<span class=\"hljs-comment\">;</span>");
        assert_eq!(escape_text("</pre>"), "&lt;/pre&gt;");
    }

    #[test]
    fn unknown_words_and_other_characters_are_plain_and_nothing_is_lost() {
        assert_eq!(pieces("colour é {x}"), [(None, "colour é {x}")]);
        assert_eq!(pieces(""), []);
        // Pieces of every kind put together by a fixed sequence: the pieces always join back
        // into the line, and none is empty.
        const BITS: &[&str] = &[
            "MOV", "_SAT", " ", "0", ":", ".", "x", "-", "0x", "e", ";", "é", "2D", "[", "<", "&",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            let mut line = String::new();
            for _ in 0..12 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                line.push_str(BITS[(seed >> 33) as usize % BITS.len()]);
            }
            let got = tokens(&line);
            assert!(got.iter().all(|(_, t)| !t.is_empty()), "{line:?}: {got:?}");
            assert_eq!(got.iter().map(|(_, t)| *t).collect::<String>(), line);
        }
    }
}
