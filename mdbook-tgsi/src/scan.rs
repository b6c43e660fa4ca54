//! Finds, line by line, the places of a chapter this preprocessor rewrites: fenced code blocks
//! whose info string's first word is `tgsi`, and `{{#tgsi …}}` lines. It follows CommonMark's
//! fence rules (``` or ~~~, three or more, at most three spaces of indentation; the closing fence
//! the same character, at least as long, nothing after it; a backtick fence's info string has no
//! backtick; an unclosed fence runs to the end of its container) and skips what is code already:
//! the inside of every other fence and indented code blocks. List items are followed by the
//! column their content starts at, so a fence inside an item is found and its lines are read
//! without the item's indentation. Block quotes are not followed: a fence inside `>` stays an
//! ordinary code block.

/// A line without its line ending.
fn strip_eol(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// The lines of `text`, without their line endings.
pub fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').map(strip_eol).collect()
}

/// Columns of leading spaces and tabs (a tab to the next multiple of 4) and the bytes they take.
fn indentation(line: &str) -> (usize, usize) {
    let mut cols = 0;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b' ' => cols += 1,
            b'\t' => cols += 4 - cols % 4,
            _ => return (cols, i),
        }
    }
    (cols, line.len())
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}

/// A fenced code block whose info string starts with `tgsi`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fence {
    /// The opening fence's line (0-based).
    pub open: usize,
    /// The closing fence's line; `None` when the block runs to the end of its container.
    pub close: Option<usize>,
    /// The last line of the block's content (`open` when it has none).
    pub last: usize,
    /// The column the container's content starts at (a list item's), 0 outside lists.
    pub base: usize,
    /// The opening fence's indentation in columns: each content line loses up to this many
    /// leading spaces.
    pub indent: usize,
    /// The fence's character and length, e.g. "```".
    pub marker: String,
    /// The info string, trimmed.
    pub info: String,
    /// The info string's column in its line (0-based, in characters).
    pub info_col: usize,
}

/// A `{{#tgsi …}}` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Include {
    /// Its line (0-based).
    pub line: usize,
    /// The column the container's content starts at, 0 outside lists.
    pub base: usize,
    /// The line after its indentation.
    pub text: String,
    /// The column of `text` in the line (0-based, in characters).
    pub col: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    Fence(Fence),
    Include(Include),
}

/// An opening fence: its character, length and the info string's byte offset.
fn opening(rest: &str) -> Option<(u8, usize, &str)> {
    let c = *rest.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = rest.bytes().take_while(|&b| b == c).count();
    let info = &rest[n..];
    if n < 3 || (c == b'`' && info.contains('`')) {
        return None;
    }
    Some((c, n, info))
}

/// Whether `rest` (a line after its indentation) closes a fence of `c` × `n`.
fn closes(rest: &str, c: u8, n: usize) -> bool {
    let run = rest.bytes().take_while(|&b| b == c).count();
    run >= n && is_blank(&rest[run..])
}

/// A list item's marker at the start of `rest`: the content column relative to the marker's
/// start (marker width plus 1 to 4 spaces), or `None`.
fn list_marker(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    let width = match b.first()? {
        b'-' | b'+' | b'*' => 1,
        b'0'..=b'9' => {
            let digits = b.iter().take_while(|b| b.is_ascii_digit()).count();
            match b.get(digits) {
                Some(b'.' | b')') if digits <= 9 => digits + 1,
                _ => return None,
            }
        }
        _ => return None,
    };
    let after = &rest[width..];
    if after.is_empty() {
        return Some(width + 1);
    }
    let spaces = after.bytes().take_while(|&b| b == b' ').count();
    match spaces {
        0 => None,
        _ if is_blank(after) => Some(width + 1),
        1..=4 => Some(width + spaces),
        _ => Some(width + 1),
    }
}

/// Whether the first word of an info string is `tgsi` (or `tgsi,…`, which the options reader
/// then refuses with a hint).
pub fn is_tgsi_info(info: &str) -> bool {
    let first = info.split([' ', '\t']).next().unwrap_or("");
    first == "tgsi" || first.starts_with("tgsi,")
}

/// Whether a line (after its indentation) is meant as a `{{#tgsi …}}` directive.
fn is_include(rest: &str) -> bool {
    let Some(inner) = rest.strip_prefix("{{") else { return false };
    let inner = inner.trim_start_matches([' ', '\t']);
    inner.strip_prefix("#tgsi").is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '}']))
}

/// Every tgsi fence and `{{#tgsi}}` line of `lines`, in order.
pub fn scan(lines: &[&str]) -> Vec<Found> {
    let mut found = Vec::new();
    // Content columns of the open list items, innermost last.
    let mut items: Vec<usize> = Vec::new();
    // The fence being read: its character, length, container column and whether it is ours.
    let mut open: Option<(u8, usize, usize, Option<Fence>)> = None;
    for (i, &line) in lines.iter().enumerate() {
        let blank = is_blank(line);
        let (mut indent, mut bytes) = indentation(line);
        if let Some((c, n, base, fence)) = open.take() {
            let container_ended = !blank && indent < base;
            if !container_ended {
                if indent.saturating_sub(base) <= 3 && closes(&line[bytes..], c, n) {
                    if let Some(mut f) = fence {
                        f.close = Some(i);
                        found.push(Found::Fence(f));
                    }
                } else {
                    let fence = fence.map(|mut f| {
                        f.last = i;
                        f
                    });
                    open = Some((c, n, base, fence));
                }
                continue;
            }
            // A line left of the item's content ends the item, and the fence with it.
            if let Some(f) = fence {
                found.push(Found::Fence(f));
            }
        }
        if blank {
            continue;
        }
        while items.last().is_some_and(|&col| indent < col) {
            items.pop();
        }
        let mut base = items.last().copied().unwrap_or(0);
        if indent.saturating_sub(base) >= 4 {
            // Indented code, or a paragraph's continuation: nothing of ours either way.
            continue;
        }
        let mut rest = &line[bytes..];
        if let Some(width) = list_marker(rest) {
            let col = indent + width;
            items.push(col);
            base = col;
            bytes += rest.len().min(width);
            indent = col;
            rest = &line[bytes..];
            if is_blank(rest) {
                continue;
            }
        }
        if let Some((c, n, info)) = opening(rest) {
            let info_bytes = bytes + n + (info.len() - info.trim_start().len());
            let info = info.trim();
            let ours = is_tgsi_info(info).then(|| Fence {
                open: i,
                close: None,
                last: i,
                base,
                indent,
                marker: char::from(c).to_string().repeat(n),
                info: info.to_string(),
                info_col: line[..info_bytes].chars().count(),
            });
            open = Some((c, n, base, ours));
            continue;
        }
        if is_include(rest) {
            found.push(Found::Include(Include {
                line: i,
                base,
                text: rest.trim_end().to_string(),
                col: line[..bytes].chars().count(),
            }));
        }
    }
    if let Some((_, _, _, Some(f))) = open {
        found.push(Found::Fence(f));
    }
    found
}

/// A fence's content: each line with up to `indent` leading spaces taken off, and how many
/// characters were taken off each.
pub fn fence_content(lines: &[&str], fence: &Fence) -> (String, Vec<u32>) {
    let mut text = String::new();
    let mut removed = Vec::new();
    let first = fence.open + 1;
    let end = fence.close.unwrap_or(fence.last + 1).max(first);
    for line in lines.get(first..end).unwrap_or(&[]) {
        let n = line.bytes().take(fence.indent).take_while(|&b| b == b' ').count();
        text.push_str(&line[n..]);
        text.push('\n');
        removed.push(n as u32);
    }
    (text, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fences(text: &str) -> Vec<Fence> {
        scan(&lines(text))
            .into_iter()
            .filter_map(|f| match f {
                Found::Fence(f) => Some(f),
                Found::Include(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_tgsi_fence_and_its_info_string() {
        let text = "# T\n\n```tgsi width=2 editable\nFRAG\n  0: END\n```\nafter\n";
        let f = fences(text);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].open, f[0].close, f[0].last), (2, Some(5), 4));
        assert_eq!(f[0].info, "tgsi width=2 editable");
        assert_eq!(f[0].info_col, 3);
        assert_eq!(f[0].marker, "```");
        let (content, removed) = fence_content(&lines(text), &f[0]);
        assert_eq!(content, "FRAG\n  0: END\n");
        assert_eq!(removed, [0, 0]);
    }

    #[test]
    fn other_languages_and_words_that_only_start_with_tgsi_are_left_alone() {
        let text = "```text\nFRAG\n```\n```rust\nx\n```\n```tgsi-vs\nVERT\n```\n```tgsis\n```\n```\nplain\n```\n";
        assert!(fences(text).is_empty());
        assert!(is_tgsi_info("tgsi"));
        assert!(is_tgsi_info("tgsi\twidth=1"));
        assert!(is_tgsi_info("tgsi,editable"));
        assert!(!is_tgsi_info("tgsi2"));
        assert!(!is_tgsi_info(""));
    }

    #[test]
    fn a_tgsi_fence_inside_another_fence_is_text_of_that_fence() {
        // A longer backtick fence holds a ```tgsi line as text; so does a tilde fence, which
        // backticks cannot close; an info string with a backtick is not a fence at all.
        let text = "````markdown\n```tgsi\nFRAG\n```\n````\n~~~\n```tgsi\n```\n~~~\n```tgsi a=`b`\nFRAG\n```\n";
        let f = fences(text);
        // Only the last "```" line opens a fence (an unclosed, empty one), and it is not ours.
        assert!(f.is_empty(), "{f:?}");
        let text = "~~~~ tgsi\nFRAG\n~~~\n```\n~~~~~\nafter\n";
        let f = fences(text);
        assert_eq!(f.len(), 1);
        // "~~~" is shorter than "~~~~" and "```" is the other character: the fence closes at
        // "~~~~~", line 4.
        assert_eq!(f[0].close, Some(4));
        assert_eq!(fence_content(&lines(text), &f[0]).0, "FRAG\n~~~\n```\n");
    }

    #[test]
    fn closing_fences_follow_commonmark() {
        // "``` x" has text after it (no close); "    ```" is indented four spaces (no close);
        // "   ````  " closes (three spaces, longer, trailing spaces).
        let text = "```tgsi\n``` x\n    ```\n   ````  \n";
        let f = fences(text);
        assert_eq!(f[0].close, Some(3));
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        let f = fences("text\n```tgsi\nFRAG\n  0: END\n");
        assert_eq!((f[0].open, f[0].close, f[0].last), (1, None, 3));
    }

    #[test]
    fn an_indented_fence_loses_its_indentation_from_each_line() {
        let text = "  ```tgsi\n  FRAG\n   DCL OUT[0], COLOR\n END\n  ```\n";
        let f = fences(text);
        assert_eq!(f[0].indent, 2);
        let (content, removed) = fence_content(&lines(text), &f[0]);
        assert_eq!(content, "FRAG\n DCL OUT[0], COLOR\nEND\n");
        assert_eq!(removed, [2, 2, 1]);
    }

    #[test]
    fn indented_code_is_not_a_fence() {
        let text = "para\n\n    ```tgsi\n    FRAG\n    ```\n\n    {{#tgsi a.tgsi}}\n";
        assert!(scan(&lines(text)).is_empty());
    }

    #[test]
    fn a_fence_in_a_list_item_is_found_and_read_without_the_items_indentation() {
        let text = "1. Step:\n\n   ```tgsi\n   FRAG\n     0: END\n   ```\n2. Next\n";
        let f = fences(text);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].base, f[0].indent), (3, 3));
        assert_eq!(fence_content(&lines(text), &f[0]).0, "FRAG\n  0: END\n");
        // Nested items: the inner item's content starts at column 4 ("  - " then the text), so
        // a fence indented 4 there is not indented code.
        let text = "- a\n  - b\n\n    ```tgsi\n    FRAG\n    ```\n";
        let f = fences(text);
        assert_eq!((f[0].base, f[0].indent), (4, 4));
        // A fence on the item's own line.
        let f = fences("- ```tgsi\n  FRAG\n  ```\n");
        assert_eq!((f[0].open, f[0].close, f[0].base), (0, Some(2), 2));
        // A line left of the item's content ends the item and its fence.
        let f = fences("- ```tgsi\n  FRAG\nnot in the item\n");
        assert_eq!((f[0].close, f[0].last), (None, 1));
    }

    #[test]
    fn block_quotes_are_not_followed() {
        assert!(fences("> ```tgsi\n> FRAG\n> ```\n").is_empty());
    }

    #[test]
    fn include_lines_outside_code() {
        let text = "{{#tgsi a.tgsi width=4}}\n```\n{{#tgsi b.tgsi}}\n```\n  {{ #tgsi c.tgsi }}\n\\{{#tgsi d.tgsi}}\n{{#tgsic e}}\nsee {{#tgsi f}}\n{{#tgsi}}\n";
        let found = scan(&lines(text));
        let inc: Vec<(usize, &str, usize)> = found
            .iter()
            .filter_map(|f| match f {
                Found::Include(i) => Some((i.line, i.text.as_str(), i.col)),
                Found::Fence(_) => None,
            })
            .collect();
        assert_eq!(
            inc,
            [(0, "{{#tgsi a.tgsi width=4}}", 0), (4, "{{ #tgsi c.tgsi }}", 2), (8, "{{#tgsi}}", 0)]
        );
    }

    #[test]
    fn crlf_lines() {
        let text = "```tgsi\r\nFRAG\r\n```\r\n";
        let f = fences(text);
        assert_eq!(f[0].close, Some(2));
        assert_eq!(fence_content(&lines(text), &f[0]).0, "FRAG\n");
    }
}
