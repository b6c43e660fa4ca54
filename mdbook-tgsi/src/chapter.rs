//! One chapter: each ```tgsi block and `{{#tgsi FILE}}` line becomes a widget (and, unless
//! `hide-source`, the shader as a code block under it), its shaders checked; a chapter with a
//! widget gets the script tag that loads the element. Problems are collected, not thrown: the
//! whole book is read before the build fails, so an author sees every problem at once.

use crate::check::{self, Source};
use crate::html;
use crate::options::{self, Options, Word};
use crate::report::{Footer, Place, Problem};
use crate::scan::{self, Fence, Found, Include};
use std::io;
use std::path::{Path, PathBuf};

/// A chapter as the preprocessor sees it.
pub struct Chapter<'a> {
    pub content: &'a str,
    /// The chapter's file as shown in messages (`src/guide/intro.md`).
    pub file: String,
    /// The folder its files (`{{#tgsi FILE}}`, `vs=FILE`) are relative to, on disk.
    pub dir: PathBuf,
    /// The same folder as shown in messages (`src/guide`).
    pub shown_dir: String,
    /// How many folders below the book's root its page is.
    pub depth: usize,
}

/// A chapter after the rewrite.
#[derive(Debug)]
pub struct Rewritten {
    pub content: String,
    pub widgets: usize,
    pub problems: Vec<Problem>,
}

/// Reads a file of the book (a closure, so the tests need no disk).
pub type Reader<'r> = dyn FnMut(&Path) -> io::Result<String> + 'r;

/// Rewrites a chapter.
pub fn rewrite(ch: &Chapter, read: &mut Reader) -> Rewritten {
    let raw: Vec<&str> = ch.content.split_inclusive('\n').collect();
    let lines = scan::lines(ch.content);
    let mut out = String::with_capacity(ch.content.len() * 2);
    let mut problems = Vec::new();
    let mut widgets = 0;
    let mut next = 0;
    for found in scan::scan(&lines) {
        let (first, last, made) = match &found {
            Found::Fence(f) => {
                (f.open, f.close.unwrap_or(f.last), fence(ch, &lines, f, read, &mut problems))
            }
            Found::Include(inc) => (inc.line, inc.line, include(ch, inc, read, &mut problems)),
        };
        for line in raw.get(next..first).unwrap_or(&[]) {
            out.push_str(line);
        }
        match made {
            Some(markdown) => {
                widgets += 1;
                out.push_str(&markdown);
            }
            None => {
                for line in raw.get(first..=last).unwrap_or(&[]) {
                    out.push_str(line);
                }
            }
        }
        next = last + 1;
    }
    for line in raw.get(next..).unwrap_or(&[]) {
        out.push_str(line);
    }
    if widgets > 0 {
        // At the top: the one place that is surely outside every block of the chapter.
        out.insert_str(0, &html::script_tag(ch.depth));
    }
    Rewritten { content: out, widgets, problems }
}

/// The chapter's place of a 0-based line and column.
fn here(ch: &Chapter, line: usize, col: usize) -> Place {
    Place { file: ch.file.clone(), line: line as u32 + 1, col: col as u32 + 1 }
}

/// Reads option words, or records why not.
fn read_options(
    ch: &Chapter,
    line: usize,
    words: &[Word],
    problems: &mut Vec<Problem>,
) -> Option<Options> {
    options::parse(words)
        .map_err(|e| problems.push(Problem::error(here(ch, line, e.col), e.message)))
        .ok()
}

/// A ```tgsi block.
fn fence(
    ch: &Chapter,
    lines: &[&str],
    f: &Fence,
    read: &mut Reader,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    let words = match options::words(&f.info, f.info_col) {
        Ok(w) => w,
        Err(e) => {
            problems.push(Problem::error(here(ch, f.open, e.col), e.message));
            return None;
        }
    };
    let (language, rest) = words.split_first()?;
    if language.text != "tgsi" {
        problems.push(Problem::error(
            here(ch, f.open, language.col),
            format!(
                "separate the options from 'tgsi' with spaces: {}{}",
                f.marker,
                language.text.replace(',', " ")
            ),
        ));
        return None;
    }
    let opts = read_options(ch, f.open, rest, problems)?;
    if f.close.is_none() {
        problems.push(Problem::error(
            here(ch, f.open, f.indent),
            format!(
                "this {}tgsi block is never closed: end it with a line of {}",
                f.marker, f.marker
            ),
        ));
        return None;
    }
    let (text, removed) = scan::fence_content(lines, f);
    let fs = Source {
        text,
        file: ch.file.clone(),
        first_line: f.open as u32 + 2,
        removed,
        context: Vec::new(),
    };
    widget(ch, f.open, &opts, fs, f.base, read, problems)
}

/// A `{{#tgsi FILE OPTIONS}}` line.
fn include(
    ch: &Chapter,
    inc: &Include,
    read: &mut Reader,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    let at = |col: usize| here(ch, inc.line, col);
    // "{{", spaces, "#tgsi": `scan` found them.
    let after_braces = inc.text.get(2..).unwrap_or("");
    let spaces = after_braces.len() - after_braces.trim_start_matches([' ', '\t']).len();
    let args_start = 2 + spaces + "#tgsi".len();
    let args_and_end = inc.text.get(args_start..).unwrap_or("");
    let Some(end) = args_and_end.find("}}") else {
        problems.push(Problem::error(at(inc.col), "this {{#tgsi …}} is not closed with }}"));
        return None;
    };
    if !args_and_end[end + 2..].trim().is_empty() {
        problems.push(Problem::error(
            at(inc.col),
            "put {{#tgsi …}} on a line of its own: there is text after its }}",
        ));
        return None;
    }
    let args = &args_and_end[..end];
    let args_col = inc.col + inc.text.get(..args_start).map_or(0, |t| t.chars().count());
    let words = match options::words(args, args_col) {
        Ok(w) => w,
        Err(e) => {
            problems.push(Problem::error(at(e.col), e.message));
            return None;
        }
    };
    let Some((file, rest)) = words.split_first() else {
        problems.push(Problem::error(
            at(inc.col),
            "{{#tgsi}} names no shader file: {{#tgsi path/to/shader.tgsi OPTIONS}}",
        ));
        return None;
    };
    if file.eq.is_some() {
        problems.push(Problem::error(
            at(file.col),
            format!(
                "the shader file comes first, before the options: {{{{#tgsi FILE {}}}}}",
                file.text
            ),
        ));
        return None;
    }
    let opts = read_options(ch, inc.line, rest, problems)?;
    let (text, shown) = read_file(ch, &file.text, at(file.col), read, problems)?;
    let fs = Source {
        text,
        file: shown,
        first_line: 1,
        removed: Vec::new(),
        context: vec![Footer {
            kind: "note",
            place: at(inc.col),
            text: "included here".to_string(),
        }],
    };
    widget(ch, inc.line, &opts, fs, inc.base, read, problems)
}

/// Reads a file named relative to the chapter: its text (line ends made `\n`) and its name as
/// shown in messages.
fn read_file(
    ch: &Chapter,
    name: &str,
    at: Place,
    read: &mut Reader,
    problems: &mut Vec<Problem>,
) -> Option<(String, String)> {
    let shown = shown_path(&ch.shown_dir, name);
    match read(&ch.dir.join(name)) {
        Ok(text) => Some((text.replace("\r\n", "\n"), shown)),
        Err(e) => {
            problems.push(Problem::error(at, format!("cannot read {shown}: {e}")));
            None
        }
    }
}

/// The widget for a checked fragment shader (and `vs=`'s vertex shader), with the code
/// block(s) under it; `None` (and the problems recorded) when a shader has an error.
fn widget(
    ch: &Chapter,
    line: usize,
    opts: &Options,
    fs: Source,
    base: usize,
    read: &mut Reader,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    let vs = match &opts.vs {
        Some((name, col)) => {
            let at = here(ch, line, *col);
            let (text, shown) = read_file(ch, name, at.clone(), read, problems)?;
            let note = Footer {
                kind: "note",
                place: at,
                text: "the vertex shader (vs=) of this widget".to_string(),
            };
            Some(Source {
                text,
                file: shown,
                first_line: 1,
                removed: Vec::new(),
                context: vec![note],
            })
        }
        None => None,
    };
    let found = check::check(&fs, vs.as_ref());
    let failed = found.iter().any(Problem::is_error);
    problems.extend(found);
    if failed {
        return None;
    }
    let pad = " ".repeat(base);
    let mut out =
        html::widget(&opts.attributes, &fs.text, vs.as_ref().map(|v| v.text.as_str()), &pad);
    if !opts.hide_source {
        if let Some(vs) = &vs {
            out.push_str(&html::code_block(&vs.text, &pad));
        }
        out.push_str(&html::code_block(&fs.text, &pad));
    }
    Some(out)
}

/// `dir/name` as shown in messages, with `.` and `..` worked out where they can be.
pub fn shown_path(dir: &str, name: &str) -> String {
    let name = name.replace('\\', "/");
    let joined = if name.starts_with('/') { name } else { format!("{dir}/{name}") };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." if !parts.is_empty() => {}
            ".." if parts.last().is_some_and(|p| !p.is_empty() && *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const FS: &str = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    const VS: &str = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";

    fn chapter(content: &str, depth: usize) -> Chapter<'_> {
        Chapter {
            content,
            file: "src/guide/ch.md".to_string(),
            dir: PathBuf::from("/book/src/guide"),
            shown_dir: "src/guide".to_string(),
            depth,
        }
    }

    fn run(content: &str, files: &[(&str, &str)]) -> Rewritten {
        let files: HashMap<PathBuf, String> =
            files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect();
        let mut read = |p: &Path| {
            files.get(p).cloned().ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
        };
        rewrite(&chapter(content, 1), &mut read)
    }

    fn errors(r: &Rewritten) -> Vec<String> {
        r.problems.iter().filter(|p| p.is_error()).map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_fence_becomes_a_widget_and_its_code_block() {
        let md =
            format!("# Title\n\nText.\n```tgsi width=64 height=32 editable\n{FS}```\nAfter.\n");
        let r = run(&md, &[]);
        assert_eq!(errors(&r), Vec::<String>::new());
        assert_eq!(r.widgets, 1);
        // The source block is html::code_block's (html.rs tests its form).
        let expected = format!(
            "<script type=\"module\" src=\"../tgsi-shader/tgsi-shader.js\"></script>\n\n# Title\n\nText.\n\n<tgsi-shader width=\"64\" height=\"32\" editable>\n\n<script type=\"text/x-tgsi\">\n{FS}</script>\n\n</tgsi-shader>\n\n{}After.\n",
            html::code_block(FS, "")
        );
        assert_eq!(r.content, expected);
    }

    #[test]
    fn hide_source_leaves_the_code_block_out() {
        let r = run(&format!("```tgsi hide-source\n{FS}```\n"), &[]);
        assert_eq!(r.widgets, 1);
        assert!(!r.content.contains("<pre>") && !r.content.contains("```"), "{}", r.content);
    }

    #[test]
    fn a_chapter_without_widgets_is_unchanged() {
        let md =
            "# T\n\n```text\n```tgsi\n```\n\n    ```tgsi\n    FRAG\n    ```\nno newline at the end";
        let r = run(md, &[]);
        assert_eq!((r.content.as_str(), r.widgets, r.problems.len()), (md, 0, 0));
    }

    #[test]
    fn an_error_is_reported_at_the_chapters_line() {
        // Lines of the chapter: 1 "# T", 2 "", 3 the fence, 4 FRAG, 5 DCL OUT, 6 the bad MOV.
        let md =
            "# T\n\n```tgsi\nFRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[7]\n  1: END\n```\n";
        let r = run(md, &[]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        // Column 18: the T of TEMP[7] (see check.rs).
        assert!(e[0].starts_with("src/guide/ch.md:6:18: error: "), "{}", e[0]);
        // The chapter is left as it was (the build fails anyway).
        assert_eq!(r.content, md);
    }

    #[test]
    fn an_option_error_names_the_fence_line_and_the_options_column() {
        // "```tgsi width=64 colour=red": `colour` starts at column 18 (1-based) of line 2.
        let r = run(&format!("x\n```tgsi width=64 colour=red\n{FS}```\n"), &[]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].starts_with("src/guide/ch.md:2:18: error: unknown option 'colour'"),
            "{}",
            e[0]
        );
        let r = run(&format!("```tgsi,editable\n{FS}```\n"), &[]);
        assert!(
            errors(&r)[0]
                .contains("separate the options from 'tgsi' with spaces: ```tgsi editable"),
            "{:?}",
            errors(&r)
        );
    }

    #[test]
    fn an_unclosed_tgsi_fence_is_an_error() {
        let r = run(&format!("a\n\n```tgsi\n{FS}"), &[]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].starts_with("src/guide/ch.md:3:1: error: this ```tgsi block is never closed"),
            "{}",
            e[0]
        );
    }

    #[test]
    fn an_include_becomes_a_widget_of_the_files_text() {
        let md = "Intro\n{{#tgsi ../shaders/blue.tgsi width=16 label=\"Blue\"}}\nMore\n";
        let r = run(md, &[("/book/src/guide/../shaders/blue.tgsi", FS)]);
        assert_eq!(errors(&r), Vec::<String>::new());
        assert_eq!(r.widgets, 1);
        assert!(
            r.content.contains("\n<tgsi-shader width=\"16\" label=\"Blue\">\n"),
            "{}",
            r.content
        );
        assert!(
            r.content.contains(&format!("<script type=\"text/x-tgsi\">\n{FS}</script>")),
            "{}",
            r.content
        );
        assert!(r.content.contains(&html::code_block(FS, "")), "{}", r.content);
        assert!(r.content.starts_with("<script type=\"module\" src=\"../tgsi-shader/tgsi-shader.js\"></script>\n\nIntro\n\n<tgsi-shader"), "{}", r.content);
        assert!(r.content.ends_with("</code></pre>\n\nMore\n"), "{}", r.content);
        assert!(!r.content.contains("{{#tgsi"));
    }

    #[test]
    fn an_include_error_names_the_file_and_line_and_where_it_was_included() {
        // Line 3 of bad.tgsi holds TEMP[7] at column 18; the {{#tgsi}} is line 2 of the chapter.
        let bad = "FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[7]\n  1: END\n";
        let r = run("x\n  {{#tgsi bad.tgsi}}\n", &[("/book/src/guide/bad.tgsi", bad)]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with("src/guide/bad.tgsi:3:18: error: "), "{}", e[0]);
        assert!(e[0].ends_with("\nsrc/guide/ch.md:2:3: note: included here"), "{}", e[0]);
    }

    #[test]
    fn include_mistakes() {
        let cases = [
            (
                "{{#tgsi missing.tgsi}}",
                "src/guide/ch.md:1:9: error: cannot read src/guide/missing.tgsi",
            ),
            ("{{#tgsi}}", "src/guide/ch.md:1:1: error: {{#tgsi}} names no shader file"),
            (
                "{{#tgsi a.tgsi}} trailing",
                "src/guide/ch.md:1:1: error: put {{#tgsi …}} on a line of its own",
            ),
            ("{{#tgsi a.tgsi", "src/guide/ch.md:1:1: error: this {{#tgsi …}} is not closed"),
            ("{{#tgsi width=3 a.tgsi}}", "src/guide/ch.md:1:9: error: the shader file comes first"),
            ("{{#tgsi a.tgsi wide}}", "src/guide/ch.md:1:16: error: unknown option 'wide'"),
        ];
        for (md, want) in cases {
            let r = run(md, &[("/book/src/guide/a.tgsi", FS)]);
            let e = errors(&r);
            assert_eq!(e.len(), 1, "{md}: {e:?}");
            assert!(e[0].starts_with(want), "{md}: {}", e[0]);
        }
    }

    #[test]
    fn vs_adds_the_vertex_shader_and_its_code_block() {
        let r = run(
            &format!("```tgsi mesh=quad vs=quad.vs.tgsi\n{FS}```\n"),
            &[("/book/src/guide/quad.vs.tgsi", VS)],
        );
        assert_eq!(errors(&r), Vec::<String>::new());
        let vs_at = r.content.find("<script type=\"text/x-tgsi-vs\">\nVERT").expect("vs script");
        let fs_at = r.content.find("<script type=\"text/x-tgsi\">\nFRAG").expect("fs script");
        assert!(vs_at < fs_at);
        let vs_code = r.content.find(&html::code_block(VS, "")).expect("vs code block");
        let fs_code = r.content.find(&html::code_block(FS, "")).expect("fs code block");
        assert!(fs_at < vs_code && vs_code < fs_code);
        assert!(!r.content.contains("vs="), "{}", r.content);
        // A vs file that is a fragment shader: R100 in that file, with a note at the option.
        let r = run(&format!("```tgsi vs=x.tgsi\n{FS}```\n"), &[("/book/src/guide/x.tgsi", FS)]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].starts_with(
                "src/guide/x.tgsi:1:1: error: expected a VERT shader here, found FRAG [R100]"
            ),
            "{}",
            e[0]
        );
        assert!(e[0].contains("src/guide/ch.md:1:9: note: the vertex shader"), "{}", e[0]);
    }

    #[test]
    fn a_widget_in_a_list_item_keeps_the_items_indentation() {
        let md = format!(
            "1. Step\n\n   ```tgsi\n{}   ```\n",
            FS.lines().map(|l| format!("   {l}\n")).collect::<String>()
        );
        let r = run(&md, &[]);
        assert_eq!(errors(&r), Vec::<String>::new());
        assert!(
            r.content.contains("\n   <tgsi-shader>\n\n   <script type=\"text/x-tgsi\">\n   FRAG\n"),
            "{}",
            r.content
        );
        assert!(r.content.contains(&html::code_block(FS, "   ")), "{}", r.content);
        assert!(r.content.contains("\n   <pre><code class=\""), "{}", r.content);
    }

    #[test]
    fn every_problem_of_a_chapter_is_reported() {
        let md = "```tgsi wide\nFRAG\n```\n{{#tgsi none.tgsi}}\n```tgsi\nFRAG\n  0: MOVE\n```\n";
        let r = run(md, &[]);
        assert_eq!(errors(&r).len(), 3, "{:?}", errors(&r));
    }

    #[test]
    fn random_markdown_never_panics() {
        // Pieces of fences, directives, lists, quotes and non-ASCII text, put together by a
        // fixed linear congruential sequence: 3000 chapters.
        const PIECES: &[&str] = &[
            "```",
            "~~~",
            "````",
            "tgsi",
            "tgsi,",
            " ",
            "   ",
            "    ",
            "\t",
            "\n",
            "\r\n",
            "{{#tgsi",
            "{{ #tgsi",
            "}}",
            "- ",
            "1. ",
            "> ",
            "é",
            "\"",
            "'",
            "=",
            "width=",
            "label=\"a b",
            "vs=",
            "hide-source",
            "FRAG\n",
            "DCL OUT[0], COLOR\n",
            "  0: MOV OUT[0], IMM[0]\n",
            "END\n",
            "</",
            "`",
            "\\",
            "a.tgsi",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..3000 {
            let n = next() % 40;
            let md: String = (0..n).map(|_| PIECES[next() % PIECES.len()]).collect();
            let r = run(&md, &[("/book/src/guide/a.tgsi", FS)]);
            assert!(
                r.widgets > 0 || r.content == md || r.problems.iter().any(Problem::is_error),
                "{md:?}"
            );
        }
    }

    #[test]
    fn shown_paths_work_out_dots() {
        assert_eq!(shown_path("src/guide", "a.tgsi"), "src/guide/a.tgsi");
        assert_eq!(shown_path("src/guide", "./x/../b.tgsi"), "src/guide/b.tgsi");
        assert_eq!(shown_path("src/guide", "../../../c.tgsi"), "../c.tgsi"); // lint-paths: allow (a book's path)
        assert_eq!(shown_path("src", "/abs/d.tgsi"), "/abs/d.tgsi");
        assert_eq!(shown_path("src", "sub\\e.tgsi"), "src/sub/e.tgsi");
    }
}
