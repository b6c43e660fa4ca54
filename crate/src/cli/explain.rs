//! `tgsi explain OPCODE [--lane ROW]...`: one opcode's page of the reference in the terminal,
//! from the same table and page data as the site (`reference::facts`, `reference::entry`), with
//! its lane table (or the lanes given) run now through the engine (`reference::lanes`).

use super::args::ExplainArgs;
use crate::opcode::Opcode;
use crate::reference::{self, lanes, Live};

/// Columns the prose is wrapped to.
const WIDTH: usize = 96;

pub fn run(args: &ExplainArgs) -> i32 {
    let Some(opcode) = args.opcode.as_deref().filter(|_| !args.list) else {
        print!("{}", list());
        return 0;
    };
    let Some(op) = opcode_of(opcode) else {
        let word = opcode.trim();
        let hint = Opcode::one_edit_away(&word.to_ascii_uppercase())
            .map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
        eprintln!("tgsi explain: `{word}` is not an opcode of the table{hint}");
        return 2;
    };
    match page(op, &args.lane) {
        Ok((text, differs)) => {
            print!("{text}");
            differs as i32
        }
        Err(e) => {
            eprintln!("tgsi explain: {e}");
            2
        }
    }
}

/// Every opcode by family (`reference::facts::FAMILIES`), wrapped, and how to read one.
fn list() -> String {
    let mut out = String::new();
    for &(category, title) in reference::facts::FAMILIES {
        let names: Vec<&str> =
            Opcode::all().filter(|o| o.info().category == category).map(Opcode::name).collect();
        if !names.is_empty() {
            section(&mut out, title, &names.join(" "));
        }
    }
    out.push_str("\nOne of them: tgsi explain OPCODE\n");
    out.trim_start().to_string()
}

/// The opcode a word names, in any case; also the opcode of an instruction line as dumps print
/// it (`  3: MAD_SAT TEMP[0], …`: the number and the `_SAT` are not part of the name).
fn opcode_of(text: &str) -> Option<Opcode> {
    let mut words = text.split_whitespace();
    let mut word = words.next()?;
    if word.ends_with(':') && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit()) {
        word = words.next()?;
    }
    let word = word.trim_end_matches(',');
    Opcode::from_name(word).or_else(|| {
        let upper = word.to_ascii_uppercase();
        upper.strip_suffix("_SAT").and_then(Opcode::from_name)
    })
}

/// The page of `op`, and whether a lane differs from its expected value; `Err` for a lane
/// that does not parse or run, or lanes given to an opcode without a lane table.
fn page(op: Opcode, lanes_given: &[String]) -> Result<(String, bool), String> {
    let Some(entry) = reference::entry(op) else {
        return Err(format!("{} has no reference entry", op.name()));
    };
    if lanes_given.len() > 4 {
        return Err(format!("at most four --lane (one quad), not {}", lanes_given.len()));
    }
    // The lanes first: a lane that does not parse or run is reported before anything else.
    let live = match &entry.live {
        Live::Lanes { program, rows: reference_rows } => {
            let rows: Vec<&str> = if lanes_given.is_empty() {
                reference_rows.to_vec()
            } else {
                lanes_given.iter().map(String::as_str).collect()
            };
            match lane_table(op, program, &rows) {
                Ok(t) => Some((t, lanes::program_of(op, program))),
                Err(e) => return Err(format!("{}: {e}", op.name())),
            }
        }
        Live::Example { why, .. } if !lanes_given.is_empty() => {
            return Err(format!("{} has no lane table: {why}", op.name()));
        }
        Live::Example { .. } => None,
    };
    let info = op.info();
    let facts = reference::facts::facts(op, entry);
    let mut out = format!("{}: {}\n", info.name, info.summary);
    let label_width = facts.list.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    for (label, text) in &facts.list {
        let lead = format!("  {label:<label_width$}  ");
        out.push_str(&wrap(text, &lead, &" ".repeat(lead.len())));
    }
    section(&mut out, "Formula", info.formula);
    section(&mut out, "Edge cases", entry.edge);
    section(&mut out, "tgsi.rst and tgsi_exec", &facts.mesa);
    section(&mut out, "AGAL", &facts.agal);
    if info.is_legacy() {
        section(&mut out, "Replaced by", info.replacement);
    }
    let related: Vec<&str> =
        reference::related(entry).into_iter().filter_map(|r| r.ok()).map(|o| o.name()).collect();
    if !related.is_empty() {
        section(&mut out, "Related", &related.join(" "));
    }
    let status = match (live, &entry.live) {
        (Some(((table, differs), program)), _) => {
            let what = if lanes_given.is_empty() {
                "the reference's, expected values derived by hand"
            } else {
                "the ones given"
            };
            out.push_str(&format!("\nLanes ({what}), run now as one quad\n{table}"));
            out.push_str("\nLane program\n");
            for line in program.lines() {
                out.push_str(&format!("  {line}\n"));
            }
            differs
        }
        (None, Live::Example { why, text, .. }) => {
            if let Some(t) = reference::texlanes::of(op) {
                // The page runs these on its built-in textures, which live in the page.
                section(
                    &mut out,
                    "Texture lanes",
                    &format!(
                        "On the built-in textures `{}`: {}. Expected values derived by hand; the \
                         reference page runs them through the engine's sampler.",
                        t.textures, t.shows
                    ),
                );
                out.push_str(&columns(
                    std::iter::once(["lane", "inputs", "expected"].map(String::from)).chain(
                        t.rows.iter().enumerate().map(|(lane, r)| {
                            let (inputs, expected) = r.split_once("=>").unwrap_or((r, ""));
                            [lane.to_string(), inputs.trim().into(), expected.trim().into()]
                        }),
                    ),
                ));
            }
            let label = reference::facts::example_label(op);
            section(&mut out, "Example", &format!("{label}: {why}."));
            for line in text.lines() {
                out.push_str(&format!("  {line}\n"));
            }
            false
        }
        (None, Live::Lanes { .. }) => false,
    };
    out.push_str(&format!(
        "\nThe reference page: reference/#{} (tgsi reference --out DIR writes the site)\n",
        op.name()
    ));
    Ok((out, status))
}

/// A titled paragraph, wrapped and indented by two spaces.
fn section(out: &mut String, title: &str, text: &str) {
    out.push_str(&format!("\n{title}\n"));
    for paragraph in text.lines() {
        out.push_str(&wrap(paragraph, "  ", "  "));
    }
}

/// `text` in lines of at most [`WIDTH`] characters (a longer word alone on its line), the
/// first starting with `first`, the others with `rest`.
fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > WIDTH {
            out.push_str(&format!("{line}\n"));
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&format!("{line}\n"));
    out
}

/// The rows run as the lanes of one quad: a table of inputs, expected and computed values, and
/// whether some lane differs from its expected value.
fn lane_table(op: Opcode, program: &str, rows: &[&str]) -> Result<(String, bool), String> {
    // A row as typed may leave out its expected value: then nothing is expected.
    let parse = |r: &str| match r.contains("=>") {
        true => lanes::parse_row(op, r),
        false => lanes::parse_row(op, &format!("{r} => _")),
    };
    let parsed: Vec<lanes::Row> = rows
        .iter()
        .map(|r| parse(r).map_err(|e| format!("lane '{r}': {e}")))
        .collect::<Result<_, _>>()?;
    // As many sources as the lane program reads: the most any of the reference's rows gives.
    let most = match reference::entry(op).map(|e| &e.live) {
        Some(Live::Lanes { rows: own, .. }) => {
            own.iter().filter_map(|r| parse(r).ok()).map(|r| r.inputs.len()).max().unwrap_or(0)
        }
        _ => 0,
    };
    if let Some((r, _)) = rows.iter().zip(&parsed).find(|(_, p)| p.inputs.len() > most) {
        return Err(format!("lane '{r}': the lane program reads {most} sources"));
    }
    let text = lanes::program_of(op, program);
    let run = lanes::run(&text, &parsed);
    if let Some(e) = run.error {
        return Err(format!("the lane program did not run: {} [{}]", e.message, e.code));
    }
    let out = run.outputs.first().copied().unwrap_or_default();
    let mut cells = vec![["lane", "inputs", "expected", "computed", ""].map(String::from)];
    let mut differs = false;
    for (lane, (row, parsed)) in rows.iter().zip(&parsed).enumerate() {
        let (inputs, expected) = row.split_once("=>").unwrap_or((row, "_"));
        let killed = run.killed >> lane & 1 != 0;
        let computed =
            if killed { "killed".to_string() } else { lanes::format_lane(op, out[lane]) };
        let verdict = match parsed.expected {
            None => killed,
            Some(cells) => {
                !killed && cells.iter().zip(out[lane]).all(|(&c, b)| lanes::matches(c, b))
            }
        };
        let nothing_expected =
            parsed.expected.is_some_and(|c| c.iter().all(|c| c.kind == lanes::Kind::Any));
        let mark = match (nothing_expected, verdict) {
            (true, _) => "",
            (false, true) => "= expected",
            (false, false) => "differs",
        };
        differs |= !nothing_expected && !verdict;
        cells.push([
            lane.to_string(),
            inputs.trim().to_string(),
            expected.trim().to_string(),
            computed,
            mark.to_string(),
        ]);
    }
    Ok((columns(cells), differs))
}

/// Rows of cells as aligned columns, two spaces apart, indented by two.
fn columns<const N: usize>(rows: impl IntoIterator<Item = [String; N]>) -> String {
    let rows: Vec<[String; N]> = rows.into_iter().collect();
    let widths: Vec<usize> =
        (0..N).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    let mut table = String::new();
    for r in &rows {
        let line: Vec<String> = r.iter().zip(&widths).map(|(s, &w)| format!("{s:<w$}")).collect();
        table.push_str(&format!("  {}\n", line.join("  ").trim_end()));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opcode_has_a_page_whose_lanes_run_as_expected() {
        for info in crate::opcode::OPCODES {
            let op = Opcode::from_name(info.name).expect("a name of the table");
            let (text, differs) = page(op, &[]).unwrap_or_else(|e| panic!("{e}"));
            assert!(!differs, "{}: a lane differs from the reference's\n{text}", info.name);
            assert!(text.starts_with(&format!("{}: ", info.name)));
        }
    }

    #[test]
    fn wraps_by_characters_with_a_hanging_indent() {
        // 30 words of 3 characters (two of them 3-byte "−"): 2 + 30·4 − 1 = 121 characters
        // in one line; at 96 the first line takes 2 + 23·4 − 1 = 93 (a 24th word would end at
        // 97), the second the other 7 words after 4 spaces: 4 + 7·4 − 1 = 31.
        let text = ["a−b"; 30].join(" ");
        let out = wrap(&text, "  ", "    ");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(lines[0].chars().count(), 93);
        assert_eq!(lines[1].chars().count(), 31);
        assert!(lines[1].starts_with("    a−b"));
        // A word longer than a line stands alone on its own line.
        let long = "x".repeat(120);
        assert_eq!(wrap(&format!("a {long} b"), "", ""), format!("a\n{long}\nb\n"));
    }

    #[test]
    fn the_list_names_every_opcode_once() {
        let text = list();
        for &op in Opcode::ALL {
            let n = text.split_whitespace().filter(|w| *w == op.name()).count();
            assert_eq!(n, 1, "{} is listed {n} times", op.name());
        }
    }

    #[test]
    fn reads_the_opcode_of_a_word_or_a_dumped_instruction() {
        assert_eq!(opcode_of("udiv"), Some(Opcode::UDIV));
        assert_eq!(opcode_of("  3: MAD_SAT TEMP[0], IN[0], IN[1], IN[2]"), Some(Opcode::MAD));
        assert_eq!(opcode_of("ADD,"), Some(Opcode::ADD));
        assert_eq!(opcode_of("3:"), None);
        assert_eq!(opcode_of("FROB"), None);
        assert_eq!(opcode_of(""), None);
    }

    #[test]
    fn lanes_given_are_run_and_compared_by_hand() {
        // 7 / 2 = 3; 7 / 0 = ~0 (tgsi_exec); 1 / 1 = 1, not the 2 this row expects.
        let rows = ["7, 2 => 3".to_string(), "7, 0".to_string(), "1, 1 => 2".to_string()];
        let (text, differs) = page(Opcode::UDIV, &rows).expect("runs");
        assert!(differs);
        assert!(text.contains("  0     7, 2    3         3           = expected\n"), "{text}");
        assert!(text.contains("  1     7, 0    _         4294967295\n"), "{text}");
        assert!(text.contains("  2     1, 1    2         1           differs\n"), "{text}");
        let five = vec!["1, 1".to_string(); 5];
        assert!(page(Opcode::UDIV, &five).is_err());
        assert!(page(Opcode::UDIV, &["1, x".to_string()]).is_err());
        assert!(page(Opcode::TEX, &["1".to_string()]).is_err());
        // UDIV's lane program reads two sources, not three.
        let e = page(Opcode::UDIV, &["1, 2, 3".to_string()]).err().unwrap_or_default();
        assert!(e.contains("reads 2 sources"), "{e}");
    }
}
