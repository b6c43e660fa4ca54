//! The parser's diagnostics suite: each `tests/diagnostics/NAME.tgsi` is a malformed (or
//! extension-using) input and `NAME.expected` lists exactly the diagnostics it must produce,
//! one per line: `LINE:COL-ENDLINE:ENDCOL: severity: message [CODE]`, then `shader: yes|no`.
//! Regenerate the expectations with `UPDATE_EXPECT=1 cargo test -p tgsi --test native front::diagnostics` and
//! review the diff.

use std::path::Path;
use tgsi::text;

fn render(src: &str) -> String {
    let parsed = text::parse(src);
    let mut out = String::new();
    for d in &parsed.diagnostics {
        out.push_str(&format!(
            "{}:{}-{}:{}: {}: {} [{}]\n",
            d.line,
            d.column,
            d.end_line,
            d.end_column,
            d.severity.word(),
            d.message,
            d.code
        ));
    }
    out.push_str(if parsed.shader.is_some() { "shader: yes\n" } else { "shader: no\n" });
    out
}

#[test]
fn diagnostics_match_expectations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/diagnostics");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tgsi"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 20, "diagnostics suite has only {} inputs", inputs.len());
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for input in inputs {
        let src = String::from_utf8_lossy(&std::fs::read(&input).unwrap()).into_owned();
        let got = render(&src);
        let expected_path = input.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!("{}\n--- expected\n{}--- got\n{}", input.display(), want, got));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
