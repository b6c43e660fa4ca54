//! The markdown a widget becomes.
//!
//! mdBook passes raw HTML through, but CommonMark ends an HTML block that starts with a custom
//! tag (`<tgsi-shader …>`) at the first blank line, and a shader may hold blank lines. So the
//! element is written as three HTML blocks: the opening tag on its own line, each `<script>`
//! (a block that runs to the line holding `</script>`, blank lines and all) and the closing
//! tag, separated by blank lines. The browser's parser sees one element with its script
//! children. No `</` is left in a script's text (it becomes `<\/`), so nothing in a shader can
//! end its script, or the HTML block, early; in TGSI that pair can only be in a `;` comment.
//!
//! The shader's source under the widget is a `<pre><code>` HTML block of highlighted text
//! ([`code_block`]).
//!
//! Every line is indented by `pad`, the list item's content column, so a widget in a list item
//! stays in that item.

use crate::highlight;

/// `&`, `<`, `>`, `"` and `'` as character references, for an attribute value.
pub fn escape_attribute(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A shader's text as a script element's content: `</` written `<\/`.
pub fn escape_script(text: &str) -> String {
    text.replace("</", "<\\/")
}

/// Appends `text`'s lines, each indented by `pad` (blank lines stay empty).
fn push_lines(out: &mut String, text: &str, pad: &str) {
    for line in text.lines() {
        if !line.trim().is_empty() {
            out.push_str(pad);
        }
        out.push_str(line);
        out.push('\n');
    }
}

fn push_script(out: &mut String, kind: &str, text: &str, pad: &str) {
    out.push('\n');
    out.push_str(&format!("{pad}<script type=\"{kind}\">\n"));
    push_lines(out, &escape_script(text), pad);
    out.push_str(&format!("{pad}</script>\n"));
}

/// The `<tgsi-shader>` element with its attributes (bare names for flags) and shader scripts,
/// between blank lines.
pub fn widget(
    attributes: &[(String, Option<String>)],
    fs: &str,
    vs: Option<&str>,
    pad: &str,
) -> String {
    let mut tag = String::from("<tgsi-shader");
    for (name, value) in attributes {
        tag.push(' ');
        tag.push_str(name);
        if let Some(v) = value {
            tag.push_str(&format!("=\"{}\"", escape_attribute(v)));
        }
    }
    tag.push('>');
    let mut out = format!("\n{pad}{tag}\n");
    if let Some(vs) = vs {
        push_script(&mut out, "text/x-tgsi-vs", vs, pad);
    }
    push_script(&mut out, "text/x-tgsi", fs, pad);
    out.push_str(&format!("\n{pad}</tgsi-shader>\n\n"));
    out
}

/// The classes of a shader's source block: `nohighlight` (and no `language-` class) makes
/// mdBook's highlight.js leave it as it is, without a warning; `hljs` gives it the theme's code
/// colours before book.js adds that class to every block; `tgsi-source` names it for a book's
/// own CSS.
pub const SOURCE_CLASSES: &str = "nohighlight hljs tgsi-source";

/// `text` as a code block the way mdBook writes one (`<pre><code>`, so its copy button and
/// styles apply), highlighted here (highlight.rs), as one HTML block between blank lines. The
/// block is a `<pre>` HTML block, which runs to the line holding `</pre>` (blank lines and
/// all); every `<` of the text is written `&lt;`, so nothing in it can end the block early.
pub fn code_block(text: &str, pad: &str) -> String {
    let mut out = format!("\n{pad}<pre><code class=\"{SOURCE_CLASSES}\">");
    for (i, line) in text.lines().enumerate() {
        if i > 0 && !line.trim().is_empty() {
            out.push_str(pad);
        }
        out.push_str(&highlight::line_html(line));
        out.push('\n');
    }
    if out.ends_with('\n') {
        out.push_str(pad);
    }
    out.push_str("</code></pre>\n\n");
    out
}

/// The module that defines `<tgsi-shader>`, for a page `depth` folders below the book's root.
pub fn script_tag(depth: usize) -> String {
    format!(
        "<script type=\"module\" src=\"{}tgsi-shader/tgsi-shader.js\"></script>\n\n",
        "../".repeat(depth)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_escaped() {
        assert_eq!(
            escape_attribute(r#"a "b" & <c> 'd'"#),
            "a &quot;b&quot; &amp; &lt;c&gt; &#39;d&#39;"
        );
    }

    #[test]
    fn a_widget_is_three_kinds_of_html_block() {
        let attrs = vec![
            ("width".to_string(), Some("200".to_string())),
            ("editable".to_string(), None),
            ("label".to_string(), Some("\"x\"".to_string())),
        ];
        let fs = "FRAG\n\n; a </script> in a comment\n  0: END\n";
        assert_eq!(
            widget(&attrs, fs, None, ""),
            "\n<tgsi-shader width=\"200\" editable label=\"&quot;x&quot;\">\n\n<script type=\"text/x-tgsi\">\nFRAG\n\n; a <\\/script> in a comment\n  0: END\n</script>\n\n</tgsi-shader>\n\n"
        );
    }

    #[test]
    fn a_vertex_shader_comes_first_and_a_pad_indents_every_line_but_blank_ones() {
        let out = widget(&[], "FRAG\n\nEND\n", Some("VERT\nEND\n"), "   ");
        assert_eq!(
            out,
            "\n   <tgsi-shader>\n\n   <script type=\"text/x-tgsi-vs\">\n   VERT\n   END\n   </script>\n\n   <script type=\"text/x-tgsi\">\n   FRAG\n\n   END\n   </script>\n\n   </tgsi-shader>\n\n"
        );
    }

    #[test]
    fn the_source_is_a_highlighted_pre_block_that_keeps_its_lines() {
        // The classes, each line's spans (highlight.rs tests them one by one), the text's last
        // line ending kept before </code> as mdBook keeps it, and a blank line left empty.
        assert_eq!(
            code_block("FRAG\n\n  0: END\n", ""),
            "\n<pre><code class=\"nohighlight hljs tgsi-source\"><span class=\"hljs-keyword\">FRAG</span>\n\n  <span class=\"hljs-symbol\">0:</span> <span class=\"hljs-title\">END</span>\n</code></pre>\n\n"
        );
        // In a list item every line but blank ones, and the closing tags, are indented by the
        // item's content column; a `<` in a comment cannot close the block.
        assert_eq!(
            code_block("FRAG\n; </pre>\n", "   "),
            "\n   <pre><code class=\"nohighlight hljs tgsi-source\"><span class=\"hljs-keyword\">FRAG</span>\n   <span class=\"hljs-comment\">; &lt;/pre&gt;</span>\n   </code></pre>\n\n"
        );
        assert_eq!(
            code_block("", "  "),
            "\n  <pre><code class=\"nohighlight hljs tgsi-source\"></code></pre>\n\n"
        );
    }

    #[test]
    fn the_script_path_climbs_to_the_books_root() {
        assert_eq!(
            script_tag(0),
            "<script type=\"module\" src=\"tgsi-shader/tgsi-shader.js\"></script>\n\n"
        );
        assert_eq!(
            script_tag(2),
            "<script type=\"module\" src=\"../../tgsi-shader/tgsi-shader.js\"></script>\n\n" // lint-paths: allow (a book's path)
        );
    }
}
