//! Logs as drivers print them (`tests/snapshots/inputs/`): virglrenderer's `VREND_DEBUG=shader`
//! ("NAME: TGSI received:NAME: FRAG", then the rest of `tgsi_dump`'s text unprefixed, then the
//! GLSL it made) and Mesa state tracker's `ST_DEBUG=tgsi` (plain `tgsi_dump` listings among
//! GLSL IR and other lines). Every shader is found with its lines, parses and validates, and the
//! dump-rounded immediate of the virgl log (0.3333, `%10.4f`) gets P109.

use tgsi::text;

fn read(name: &str) -> String {
    let path = format!("{}/../tests/snapshots/inputs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the log reads")
}

/// (processor, first line, last line) of each shader found (lines from 1), and each one's
/// warnings' codes after it parsed and validated without errors.
fn shaders(log: &str) -> Vec<(&'static str, usize, usize, Vec<&'static str>)> {
    let found = text::log::find(log);
    assert!(!text::log::is_plain(log, &found));
    found
        .iter()
        .map(|f| {
            let isolated = text::log::isolate(log, f);
            let parsed = text::parse(&isolated);
            let shader = parsed.shader.expect("it parses");
            let mut diags = parsed.diagnostics;
            diags.extend(tgsi::valid::check(&shader, &tgsi::valid::Options::default()));
            assert!(!tgsi::diag::has_errors(&diags), "{diags:?}");
            let codes = diags.iter().map(|d| d.code).collect();
            (f.processor.name(), f.first_line + 1, f.last_line + 1, codes)
        })
        .collect()
}

#[test]
fn a_virgl_shader_log_gives_each_shader_and_warns_of_its_rounded_immediate() {
    // Lines counted by hand in the file: FRAG's header on line 2 (after the renderer's first
    // line), END on 10; VERT's header on 16, END on 20.
    let got = shaders(&read("vrend.log"));
    assert_eq!(got, vec![("FRAG", 2, 10, vec!["P109"]), ("VERT", 16, 20, vec![])]);
}

#[test]
fn a_state_tracker_dump_gives_each_of_its_three_shaders() {
    let got = shaders(&read("st_debug.log"));
    assert_eq!(
        got,
        vec![("FRAG", 7, 15, vec![]), ("VERT", 17, 30, vec![]), ("FRAG", 33, 37, vec![])]
    );
}

/// The page's problems list for a pasted log (`valid::report::validate_log`, the engine's
/// `validateLog`): what `tgsi check` reports for it, at the log's lines; a plain shader gives
/// what `validate` gives.
#[test]
fn validating_a_log_checks_each_shader_at_the_logs_lines() {
    use tgsi::valid::report::{validate, validate_log};
    let where_ = |d: &[tgsi::diag::JsDiagnostic]| -> Vec<(&str, usize, usize)> {
        d.iter().map(|d| (d.code, d.line as usize, d.column as usize)).collect()
    };
    // tgsi check --format short tests/snapshots/inputs/vrend.log: 7:19 P109 (snapshot).
    assert_eq!(where_(&validate_log(&read("vrend.log"))), vec![("P109", 7, 19)]);
    assert_eq!(where_(&validate_log(&read("st_debug.log"))), vec![]);
    // The paste snapshot's log: its FRAG reads TEMP[3] undeclared (check_short_paste.snap).
    let paste = read("paste.log");
    let got = where_(&validate_log(&paste));
    assert!(got.iter().any(|&(c, l, _)| c == "V005" && l == 6), "{got:?}");
    let plain = "FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[0]\n  1: END\n";
    assert_eq!(where_(&validate_log(plain)), where_(&validate(plain)));
    assert!(!validate(plain).is_empty());
}
