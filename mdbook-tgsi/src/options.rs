//! The words after `tgsi` in a fence's info string (and after the file in `{{#tgsi FILE …}}`):
//! `width=200 editable label="A ramp" constants="0:0=1,0,0,1"`. Each maps to an attribute of the
//! `<tgsi-shader>` element (web/widget/package/README.md, "Attributes") except `vs=FILE` (a
//! vertex shader file, relative to the chapter) and `hide-source` (no code block under the
//! widget). Values are checked here as the widget would read them, so a typo fails the build
//! instead of showing an error box to readers.

use tgsi::render::options::parse_const;
use tgsi::texture::sampler::WRAP_NAMES;

/// One word: its text with the quotes taken out, where its first unquoted `=` is (a byte
/// offset in `text`), and its column in the line (0-based, in characters).
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    pub text: String,
    pub eq: Option<usize>,
    pub col: usize,
}

/// A problem with one word, at its column (0-based, in characters).
#[derive(Clone, Debug, PartialEq)]
pub struct WordError {
    pub message: String,
    pub col: usize,
}

impl WordError {
    fn new(message: impl Into<String>, col: usize) -> WordError {
        WordError { message: message.into(), col }
    }
}

/// Splits `s` into words at unquoted spaces and tabs. `"…"` and `'…'` quote (inside double
/// quotes `\"` and `\\` stand for `"` and `\`); `first_col` is the column of `s` in its line.
pub fn words(s: &str, first_col: usize) -> Result<Vec<Word>, WordError> {
    let mut out = Vec::new();
    let mut chars = s.chars().enumerate().peekable();
    loop {
        while chars.next_if(|&(_, c)| c == ' ' || c == '\t').is_some() {}
        let Some(&(start, _)) = chars.peek() else { break };
        let mut word = Word { text: String::new(), eq: None, col: first_col + start };
        while let Some(&(i, c)) = chars.peek() {
            if c == ' ' || c == '\t' {
                break;
            }
            chars.next();
            match c {
                '"' | '\'' => {
                    let mut closed = false;
                    while let Some((_, q)) = chars.next() {
                        if q == c {
                            closed = true;
                            break;
                        }
                        if c == '"'
                            && q == '\\'
                            && chars.peek().is_some_and(|&(_, n)| n == '"' || n == '\\')
                        {
                            if let Some((_, n)) = chars.next() {
                                word.text.push(n);
                            }
                            continue;
                        }
                        word.text.push(q);
                    }
                    if !closed {
                        return Err(WordError::new(
                            format!("the quote {c} opened here is never closed"),
                            first_col + i,
                        ));
                    }
                }
                '=' if word.eq.is_none() => {
                    word.eq = Some(word.text.len());
                    word.text.push('=');
                }
                _ => word.text.push(c),
            }
        }
        out.push(word);
    }
    Ok(out)
}

/// What the words ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The element's attributes in the order written: name and value (`None`: a bare flag).
    pub attributes: Vec<(String, Option<String>)>,
    /// `vs=FILE`: the file and the column of the word.
    pub vs: Option<(String, usize)>,
    /// `hide-source`: the widget alone, without the code block.
    pub hide_source: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// A bare word, no value (`editable`).
    Flag,
    /// Pixels, 1 to 1024.
    Size,
    /// One of the listed words.
    OneOf(&'static [&'static str]),
    /// `B:I=X,Y,Z,W` items separated by `;` or spaces (the engine's `--const` syntax).
    Constants,
    /// `UNIT=SOURCE[,option…]` items separated by `;` or spaces.
    Textures,
    /// Seconds, a finite number.
    Seconds,
    /// Any text (`label`, and the URLs `playground` and `poster`).
    Text,
    /// `vs=FILE`.
    VertexFile,
    /// `hide-source`.
    HideSource,
}

/// The widget's meshes (web/widget/package/README.md).
pub const MESHES: &[&str] = &["fullscreen", "quad", "cube", "sphere"];
/// The widget's themes.
pub const THEMES: &[&str] = &["light", "dark", "auto"];
/// The widget's built-in textures (`BUILTIN_TEXTURES` in web/textures.js; a test compares).
pub const BUILTIN_TEXTURES: &[&str] = &["checker", "gradient", "noise", "mip-levels", "cube-faces"];
/// Largest width or height the widget draws.
pub const MAX_SIZE: u32 = 1024;

const OPTIONS: &[(&str, Kind)] = &[
    ("width", Kind::Size),
    ("height", Kind::Size),
    ("mesh", Kind::OneOf(MESHES)),
    ("constants", Kind::Constants),
    ("textures", Kind::Textures),
    ("time", Kind::Seconds),
    ("autoplay", Kind::Flag),
    ("paused", Kind::Flag),
    ("controls", Kind::Flag),
    ("editable", Kind::Flag),
    ("inspect", Kind::Flag),
    ("agal", Kind::Flag),
    ("poster", Kind::Text),
    ("label", Kind::Text),
    ("theme", Kind::OneOf(THEMES)),
    ("playground", Kind::Text),
    ("vs", Kind::VertexFile),
    ("hide-source", Kind::HideSource),
];

/// The option names, in the order the README lists them.
pub fn option_names() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().map(|(name, _)| *name)
}

/// The names that become attributes of the element (all but `vs` and `hide-source`).
pub fn attribute_names() -> impl Iterator<Item = &'static str> {
    OPTIONS
        .iter()
        .filter(|(_, k)| !matches!(k, Kind::VertexFile | Kind::HideSource))
        .map(|(name, _)| *name)
}

/// Reads option words (each `NAME` or `NAME=VALUE`).
pub fn parse(words: &[Word]) -> Result<Options, WordError> {
    let mut options = Options::default();
    let mut seen: Vec<&str> = Vec::new();
    for w in words {
        let (name, value) = match w.eq {
            Some(eq) => (&w.text[..eq], Some(&w.text[eq + 1..])),
            None => (w.text.as_str(), None),
        };
        let Some(&(name, kind)) = OPTIONS.iter().find(|(n, _)| *n == name) else {
            return Err(WordError::new(unknown(name), w.col));
        };
        if seen.contains(&name) {
            return Err(WordError::new(format!("'{name}' is given twice"), w.col));
        }
        seen.push(name);
        let value = match (kind, value) {
            (Kind::Flag | Kind::HideSource, Some(_)) => {
                return Err(WordError::new(
                    format!("'{name}' takes no value: write it alone"),
                    w.col,
                ))
            }
            (Kind::Flag | Kind::HideSource, None) => None,
            (_, None) | (_, Some("")) => {
                return Err(WordError::new(
                    format!("'{name}' needs a value: {name}={}", example(kind)),
                    w.col,
                ))
            }
            (_, Some(v)) => Some(v),
        };
        if let Some(v) = value {
            check_value(name, kind, v).map_err(|m| WordError::new(m, w.col))?;
        }
        match kind {
            Kind::HideSource => options.hide_source = true,
            Kind::VertexFile => options.vs = value.map(|v| (v.to_string(), w.col)),
            _ => options.attributes.push((name.to_string(), value.map(str::to_string))),
        }
    }
    Ok(options)
}

fn unknown(name: &str) -> String {
    let list: Vec<&str> = option_names().collect();
    match name {
        "src" => "'src' is not an option here: the shader is the block's text, or include a file \
                  with {{#tgsi FILE}}"
            .to_string(),
        "vs-src" => {
            "'vs-src' is not an option here: give a vertex shader file as vs=FILE".to_string()
        }
        "" => format!("an option has no name (options: {})", list.join(", ")),
        _ => format!("unknown option '{name}' (options: {})", list.join(", ")),
    }
}

fn example(kind: Kind) -> &'static str {
    match kind {
        Kind::Size => "256",
        Kind::OneOf(words) => words.first().copied().unwrap_or("…"),
        Kind::Constants => "\"0:0=1,0,0,1\"",
        Kind::Textures => "0=checker",
        Kind::Seconds => "1.5",
        Kind::Text => "\"…\"",
        Kind::VertexFile => "shader.vs.tgsi",
        Kind::Flag | Kind::HideSource => "",
    }
}

fn check_value(name: &str, kind: Kind, v: &str) -> Result<(), String> {
    match kind {
        Kind::Size => match v.parse::<u32>() {
            Ok(n) if (1..=MAX_SIZE).contains(&n) => Ok(()),
            _ => Err(format!("{name}={v}: give a whole number of pixels from 1 to {MAX_SIZE}")),
        },
        Kind::OneOf(words) if words.contains(&v) => Ok(()),
        Kind::OneOf(words) => Err(format!("{name}={v}: one of {}", words.join(", "))),
        Kind::Constants => {
            for item in items(v) {
                parse_const(item).map_err(|e| format!("constants: {e}"))?;
            }
            Ok(())
        }
        Kind::Textures => items(v).try_for_each(check_texture),
        Kind::Seconds => match v.parse::<f64>() {
            Ok(t) if t.is_finite() => Ok(()),
            _ => Err(format!("{name}={v}: give a number of seconds, for example 1.5")),
        },
        Kind::Text | Kind::VertexFile | Kind::Flag | Kind::HideSource => Ok(()),
    }
}

/// The items of a `constants` or `textures` value: separated by `;` or spaces, as the widget
/// splits them.
fn items(v: &str) -> impl Iterator<Item = &str> {
    v.split([';', ' ', '\t']).filter(|s| !s.is_empty())
}

/// One `textures` item as the widget's reader takes it: `UNIT=SOURCE[,option…]`, UNIT 0..31,
/// SOURCE a built-in texture or an image URL, the options sampler words.
fn check_texture(item: &str) -> Result<(), String> {
    let wraps = WRAP_NAMES.iter().map(|(_, _, word)| *word);
    let words: Vec<&str> =
        ["nearest", "linear", "mipmap"].into_iter().chain(wraps).chain(["shadow"]).collect();
    let bad = || {
        format!(
            "textures: '{item}' is not UNIT=SOURCE[,OPTION…] with UNIT 0..31 (options: {})",
            words.join(", ")
        )
    };
    let (unit, rest) = item.split_once('=').ok_or_else(bad)?;
    let unit_ok = (1..=2).contains(&unit.len())
        && unit.bytes().all(|b| b.is_ascii_digit())
        && unit.parse::<u32>().is_ok_and(|u| u <= 31);
    if !unit_ok {
        return Err(bad());
    }
    let mut parts = rest.split(',');
    let source = parts.next().unwrap_or("");
    if source.is_empty() {
        return Err(bad());
    }
    for opt in parts {
        if !words.contains(&opt) {
            return Err(format!(
                "textures: unknown sampler option '{opt}' in '{item}' (options: {})",
                words.join(", ")
            ));
        }
    }
    let is_name = source.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
    if is_name && !BUILTIN_TEXTURES.contains(&source) {
        return Err(format!(
            "textures: '{source}' is neither a built-in texture ({}) nor an image URL",
            BUILTIN_TEXTURES.join(", ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(s: &str) -> Result<Options, WordError> {
        parse(&words(s, 0)?)
    }

    #[test]
    fn words_split_at_spaces_and_keep_quoted_spaces() {
        let w = words(r#"width=200  label="A ramp, lit" 'x y'=z e"\"q\"""#, 5).unwrap();
        let texts: Vec<&str> = w.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["width=200", "label=A ramp, lit", "x y=z", "e\"q\""]);
        // Columns: "width=200" is 9 characters and two spaces follow, so "label" starts at
        // 5 + 11; `label="A ramp, lit"` is 19 characters and one space follows: "'x y'" at
        // 5 + 31; "'x y'=z" is 7 and one space: `e` at 5 + 39.
        let cols: Vec<usize> = w.iter().map(|w| w.col).collect();
        assert_eq!(cols, [5, 16, 36, 44]);
        assert_eq!(w[0].eq, Some(5));
        assert_eq!(w[1].eq, Some(5));
        // The quoted '=' of "x y" is not the separator: the one after the quote is.
        assert_eq!(w[2].eq, Some(3));
        assert_eq!(w[3].eq, None);
    }

    #[test]
    fn an_unclosed_quote_is_an_error_at_the_quote() {
        let e = words(r#"a label="open"#, 10).unwrap_err();
        assert_eq!(e.col, 10 + 8);
        assert!(e.message.contains("never closed"), "{}", e.message);
    }

    #[test]
    fn options_map_to_attributes_in_order() {
        let o = parse_str(r#"height=100 width=200 editable label="A & B" constants="0:0=1,0,0,1;1=0.5" vs=quad.tgsi hide-source"#)
            .unwrap();
        assert_eq!(
            o.attributes,
            [
                ("height".to_string(), Some("100".to_string())),
                ("width".to_string(), Some("200".to_string())),
                ("editable".to_string(), None),
                ("label".to_string(), Some("A & B".to_string())),
                ("constants".to_string(), Some("0:0=1,0,0,1;1=0.5".to_string())),
            ]
        );
        // "vs=" follows 74 characters: height=100 (10) width=200 (9) editable (8)
        // label="A & B" (13) constants="0:0=1,0,0,1;1=0.5" (29) and five spaces.
        assert_eq!(o.vs, Some(("quad.tgsi".to_string(), 74)));
        assert!(o.hide_source);
    }

    #[test]
    fn every_widget_attribute_of_the_readme_is_an_option() {
        for name in [
            "width",
            "height",
            "mesh",
            "constants",
            "textures",
            "time",
            "autoplay",
            "paused",
            "controls",
            "editable",
            "inspect",
            "agal",
            "label",
            "theme",
            "playground",
            "poster",
        ] {
            assert!(attribute_names().any(|n| n == name), "{name}");
        }
    }

    #[test]
    fn bad_options_say_what_is_wrong_at_their_column() {
        let cases = [
            ("editable colour=red", 9, "unknown option 'colour'"),
            ("width=0", 0, "from 1 to 1024"),
            ("width=1025", 0, "from 1 to 1024"),
            ("width=12px", 0, "whole number"),
            ("height", 0, "'height' needs a value"),
            ("editable=yes", 0, "takes no value"),
            ("width=2 width=3", 8, "given twice"),
            ("mesh=teapot", 0, "one of fullscreen, quad, cube, sphere"),
            ("theme=blue", 0, "one of light, dark, auto"),
            ("time=soon", 0, "seconds"),
            ("time=inf", 0, "seconds"),
            ("constants=0:0=1,x", 0, "bad constant value 'x'"),
            ("constants=99:0=1", 0, "out of range"),
            ("textures=0=marble", 0, "neither a built-in texture"),
            ("textures=32=checker", 0, "UNIT 0..31"),
            ("textures=0=checker,blurry", 0, "unknown sampler option 'blurry'"),
            ("src=a.tgsi", 0, "not an option here"),
            ("label=", 0, "needs a value"),
        ];
        for (text, col, message) in cases {
            let e = parse_str(text).unwrap_err();
            assert_eq!(e.col, col, "{text}: {}", e.message);
            assert!(e.message.contains(message), "{text}: {}", e.message);
        }
    }

    #[test]
    fn good_values_pass() {
        for text in [
            "width=1 height=1024",
            "mesh=sphere theme=dark time=0.25",
            "constants=\"0:0=1,0,0,1; 0:1=0x3f800000\"",
            "textures=\"0=checker,nearest;1=https://example.org/a.png,clamp,mipmap 2=gradient,mirror-edge,shadow\"",
            "autoplay paused controls inspect agal",
            "playground=https://example.org/play/ poster=poster.png",
        ] {
            assert!(parse_str(text).is_ok(), "{text}: {:?}", parse_str(text));
        }
    }
}
