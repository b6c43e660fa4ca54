//! The preprocessor protocol, read as plain JSON (no dependency on the `mdbook` crate): mdBook
//! writes `[context, book]` to standard input and reads the book back from standard output.
//! The book is walked generically: its items are under `sections` (mdBook 0.4) or `items`
//! (0.5); a chapter is `{"Chapter": {...}}` with `content`, `path`, `source_path` and
//! `sub_items`; separators and part titles are other variants and pass through. Only a
//! chapter's `content` changes: every other field is written back as it came.

use crate::chapter::{self, Chapter};
use crate::report::Problem;
use serde_json::{Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

/// The keys of `[preprocessor.tgsi]` that mdBook itself reads.
const MDBOOK_KEYS: &[&str] = &["command", "before", "after", "renderer", "renderers", "optional"];

/// What the context says.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The book's folder.
    pub root: PathBuf,
    /// The source folder as book.toml names it (`src`), for messages.
    pub src_shown: String,
    /// The source folder on disk.
    pub src_dir: PathBuf,
    /// `[preprocessor.tgsi] assets`: a package folder to take the widget's files from.
    pub assets: Option<PathBuf>,
    /// Things worth a warning (unknown keys, an mdBook version not tested).
    pub warnings: Vec<String>,
}

/// The book after the rewrite.
#[derive(Debug)]
pub struct Outcome {
    pub book: Value,
    pub widgets: usize,
    pub problems: Vec<Problem>,
}

/// Reads mdBook's input: the settings and the book.
pub fn parse_input(input: &str) -> Result<(Settings, Value), String> {
    let value: Value =
        serde_json::from_str(input).map_err(|e| format!("cannot read mdBook's input: {e}"))?;
    let Value::Array(mut pair) = value else {
        return Err("mdBook's input is not a [context, book] pair".to_string());
    };
    if pair.len() != 2 {
        return Err("mdBook's input is not a [context, book] pair".to_string());
    }
    let book = pair.pop().unwrap_or(Value::Null);
    let context = pair.pop().unwrap_or(Value::Null);
    Ok((settings(&context)?, book))
}

fn settings(ctx: &Value) -> Result<Settings, String> {
    let root =
        ctx.get("root").and_then(Value::as_str).ok_or("mdBook's context has no root folder")?;
    let root = PathBuf::from(root);
    let config = ctx.get("config");
    let src_shown = config
        .and_then(|c| c.get("book"))
        .and_then(|b| b.get("src"))
        .and_then(Value::as_str)
        .unwrap_or("src")
        .replace('\\', "/")
        .trim_end_matches('/')
        .to_string();
    let src_dir = root.join(&src_shown);
    let mut warnings = Vec::new();
    let mut assets = None;
    if let Some(table) = config.and_then(|c| c.get("preprocessor")).and_then(|p| p.get("tgsi")) {
        let table = table.as_object().ok_or("[preprocessor.tgsi] is not a table")?;
        for (key, value) in table {
            match key.as_str() {
                "assets" => {
                    let dir = value.as_str().ok_or("[preprocessor.tgsi] assets must be a folder's path")?;
                    assets = Some(root.join(dir));
                }
                k if MDBOOK_KEYS.contains(&k) => {}
                k => warnings.push(format!("[preprocessor.tgsi] has an unknown key '{k}' (this preprocessor reads 'assets')")),
            }
        }
    }
    if let Some(version) = ctx.get("mdbook_version").and_then(Value::as_str) {
        if !(version.starts_with("0.4.") || version.starts_with("0.5.")) {
            warnings.push(format!("mdbook-tgsi is made for mdBook 0.4 (and reads 0.5's book); this is mdBook {version}"));
        }
    }
    Ok(Settings { root, src_shown, src_dir, assets, warnings })
}

/// Rewrites every chapter of the book.
pub fn rewrite(settings: &Settings, mut book: Value) -> Result<Outcome, String> {
    let items = match book.as_object_mut() {
        Some(b) if b.contains_key("sections") => b.get_mut("sections"),
        Some(b) => b.get_mut("items"),
        None => None,
    }
    .filter(|items| items.is_array())
    .ok_or("the book has no list of 'sections' (mdBook 0.4) or 'items' (0.5)")?;
    let mut widgets = 0;
    let mut problems = Vec::new();
    let mut read = |p: &Path| fs::read_to_string(p);
    walk(items, &mut |ch| {
        let Some(content) = ch.get("content").and_then(Value::as_str) else { return };
        if !content.contains("tgsi") {
            return;
        }
        let done = chapter::rewrite(&describe(settings, ch, content), &mut read);
        widgets += done.widgets;
        problems.extend(done.problems);
        if done.widgets > 0 {
            ch.insert("content".to_string(), Value::String(done.content));
        }
    });
    Ok(Outcome { book, widgets, problems })
}

/// Calls `f` on every chapter, depth first.
fn walk(items: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(items) = items.as_array_mut() else { return };
    for item in items {
        let Some(ch) = item.get_mut("Chapter").and_then(Value::as_object_mut) else { continue };
        f(ch);
        if let Some(sub) = ch.get_mut("sub_items") {
            walk(sub, f);
        }
    }
}

/// A chapter's file, folder and depth from its JSON.
fn describe<'a>(settings: &Settings, ch: &Map<String, Value>, content: &'a str) -> Chapter<'a> {
    let path_of = |key: &str| ch.get(key).and_then(Value::as_str).map(|p| p.replace('\\', "/"));
    let source = path_of("source_path").or_else(|| path_of("path"));
    let parts = |p: &str| -> Vec<String> {
        p.split('/').filter(|s| !s.is_empty() && *s != ".").map(str::to_string).collect()
    };
    let (file, dir_parts) = match &source {
        Some(p) => {
            let mut parts = parts(p);
            parts.pop();
            (format!("{}/{}", settings.src_shown, p.trim_start_matches("./")), parts)
        }
        None => {
            let name = ch.get("name").and_then(Value::as_str).unwrap_or("?");
            (format!("{} (chapter '{name}')", settings.src_shown), Vec::new())
        }
    };
    let page = path_of("path").or(source);
    let depth = page.map(|p| parts(&p).len().saturating_sub(1)).unwrap_or(0);
    let mut dir = settings.src_dir.clone();
    let mut shown_dir = settings.src_shown.clone();
    for part in &dir_parts {
        dir.push(part);
        shown_dir = format!("{shown_dir}/{part}");
    }
    Chapter { content, file, dir, shown_dir, depth }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A book in mdBook 0.4.52's own shape (its context and config as mdBook 0.4.52 wrote them
    /// for tests/docs-tools/book, captured by a preprocessor that saved its input), with a part
    /// title, a chapter with a nested chapter, a separator and a draft chapter.
    pub const INPUT: &str = r##"[{"root":"/books/demo","config":{"book":{"authors":[],"language":"en","src":"src","title":"Demo"},"build":{"build-dir":"book","create-missing":false,"extra-watch-dirs":[],"use-default-preprocessors":true},"output":{"html":{}},"preprocessor":{"tgsi":{"before":["links"],"command":"mdbook-tgsi"}}},"renderer":"html","mdbook_version":"0.4.52"},{"sections":[{"PartTitle":"Shaders"},{"Chapter":{"name":"Intro","content":"# Intro\n\n```tgsi width=8 height=8\nFRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n```\n","number":[1],"sub_items":[{"Chapter":{"name":"Deep","content":"```tgsi hide-source\nFRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n```\n","number":[1,1],"sub_items":[],"path":"guide/deep/deep.md","source_path":"guide/deep/deep.md","parent_names":["Intro"]}}],"path":"intro.md","source_path":"intro.md","parent_names":[]}},"Separator",{"Chapter":{"name":"Plain","content":"# Plain\n\n```text\ntgsi\n```\n","number":[2],"sub_items":[],"path":"plain.md","source_path":"plain.md","parent_names":[]}},{"Chapter":{"name":"Draft","content":"","number":null,"sub_items":[],"path":null,"source_path":null,"parent_names":[]}}],"__non_exhaustive":null}]"##;

    #[test]
    fn settings_come_from_the_context() {
        let (s, _) = parse_input(INPUT).unwrap();
        assert_eq!(s.root, PathBuf::from("/books/demo"));
        assert_eq!(s.src_shown, "src");
        assert_eq!(s.src_dir, PathBuf::from("/books/demo/src"));
        assert_eq!(s.assets, None);
        assert_eq!(s.warnings, Vec::<String>::new());
        let other = INPUT
            .replace(
                r#""command":"mdbook-tgsi""#,
                r#""command":"mdbook-tgsi","assets":"node_modules/tgsi-shader","asset":"x""#,
            )
            .replace(r#""src":"src""#, r#""src":"book-src/""#)
            .replace("0.4.52", "0.6.0");
        let (s, _) = parse_input(&other).unwrap();
        assert_eq!(s.assets, Some(PathBuf::from("/books/demo/node_modules/tgsi-shader")));
        assert_eq!(s.src_shown, "book-src");
        assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for input in [
            "",
            "{}",
            "[]",
            "[1]",
            "[{}, {}]",
            r#"[{"root": 1}, {}]"#,
            "[{\"root\":\"/\"}, 7]",
            "[{\"root\":\"/\"}, {\"sections\": 7}]",
        ] {
            let outcome = parse_input(input).and_then(|(s, b)| rewrite(&s, b));
            if let Ok(o) = outcome {
                assert_eq!(o.widgets, 0, "{input}");
            }
        }
    }

    #[test]
    fn every_chapter_is_rewritten_and_everything_else_kept() {
        let (s, book) = parse_input(INPUT).unwrap();
        let before = book.clone();
        let out = rewrite(&s, book).unwrap();
        assert_eq!(out.problems, []);
        assert_eq!(out.widgets, 2);
        let sections = out.book["sections"].as_array().unwrap();
        let old = before["sections"].as_array().unwrap();
        assert_eq!(sections.len(), 5);
        assert_eq!(sections[0], old[0]);
        assert_eq!(sections[2], old[2]);
        assert_eq!(sections[3], old[3], "the chapter without a widget is unchanged");
        assert_eq!(sections[4], old[4]);
        let intro = &sections[1]["Chapter"];
        let deep = &intro["sub_items"][0]["Chapter"];
        // Intro's page is at the root; Deep's is two folders down (guide/deep/deep.html).
        assert!(intro["content"]
            .as_str()
            .unwrap()
            .starts_with("<script type=\"module\" src=\"tgsi-shader/tgsi-shader.js\"></script>"));
        assert!(deep["content"].as_str().unwrap().starts_with(
            "<script type=\"module\" src=\"../../tgsi-shader/tgsi-shader.js\"></script>" // lint-paths: allow (a book's path)
        ));
        // Deep's widget is hide-source; Intro's has its source block.
        assert!(!deep["content"].as_str().unwrap().contains("<pre>"));
        assert!(intro["content"].as_str().unwrap().contains("<pre><code class="));
        for key in ["name", "number", "path", "source_path", "parent_names"] {
            assert_eq!(intro[key], old[1]["Chapter"][key], "{key}");
            assert_eq!(deep[key], old[1]["Chapter"]["sub_items"][0]["Chapter"][key], "{key}");
        }
        assert_eq!(out.book["__non_exhaustive"], Value::Null);
    }

    #[test]
    fn mdbook_0_5s_items_are_read_too() {
        let input = INPUT.replace(r#"{"sections":"#, r#"{"items":"#).replace("0.4.52", "0.5.1");
        let (s, book) = parse_input(&input).unwrap();
        assert_eq!(s.warnings, Vec::<String>::new());
        let out = rewrite(&s, book).unwrap();
        assert_eq!(out.widgets, 2);
    }

    #[test]
    fn problems_name_the_file_under_the_source_folder() {
        let input = INPUT.replacen("  0: MOV OUT[0], IMM[0]", "  0: MOV OUT[0], TEMP[7]", 2);
        let (s, book) = parse_input(&input).unwrap();
        let out = rewrite(&s, book).unwrap();
        let errors: Vec<String> =
            out.problems.iter().filter(|p| p.is_error()).map(|p| p.place.to_string()).collect();
        // Intro: "# Intro", "", the fence, FRAG, DCL, IMM, then the MOV on line 7; Deep: the
        // fence, FRAG, DCL, IMM, then the MOV on line 5. TEMP starts at column 18.
        assert_eq!(errors, ["src/intro.md:7:18", "src/guide/deep/deep.md:5:18"]);
    }
}
