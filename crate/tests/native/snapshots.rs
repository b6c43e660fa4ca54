//! Snapshot tests of every text the `tgsi` command prints: help, diagnostics (parser, validator,
//! linkage, interpreter), formatted TGSI, AGAL assembly and disassembly.
//!
//! Each case runs the real binary from the repository root and compares its exit status,
//! standard output and standard error with `tests/snapshots/NAME.snap`. On a difference (or a
//! missing snapshot) the test writes `NAME.snap.new` next to it and fails; review the changes
//! with `bash scripts/snapshots.sh` (shows each diff) and accept them with
//! `bash scripts/snapshots.sh --accept`. A snapshot is accepted only after reading it: it is
//! a record of reviewed output, so a change of wording shows up as a failing test.

use std::path::{Path, PathBuf};
use std::process::Command;

/// (snapshot name, arguments). Paths are relative to the repository root; `OUT` (with any
/// extension after it) is replaced by a scratch file whose contents are not part of the snapshot,
/// and `CORPUS` by the corpus (shown as `CORPUS` again in the snapshot).
const CASES: &[(&str, &[&str])] = &[
    ("help", &["--help"]),
    ("no_arguments", &[]),
    ("unknown_subcommand", &["frobnicate"]),
    ("render_unknown_option", &["render", "--colour", "x.tgsi"]),
    ("render_help", &["render", "--help"]),
    ("trace_help", &["trace", "--help"]),
    ("reference_without_out", &["reference"]),
    ("reference_out", &["reference", "--out", "OUT-reference"]),
    ("reference_help", &["reference", "--help"]),
    ("explain_help", &["explain", "--help"]),
    ("explain_list", &["explain", "--list"]),
    ("explain_list_and_opcode", &["explain", "--list", "ADD"]),
    // The reference's lane table of UDIV, run: the expected values are the page data's, derived
    // by hand (and asserted by the reference tests).
    ("explain_udiv", &["explain", "udiv"]),
    // Lanes given: 7 / 2 = 3; 7 / 0 = ~0 = 4294967295 (tgsi_exec); 1 / 1 = 1, not 2: exit 1.
    (
        "explain_lanes",
        &["explain", "UDIV", "--lane", "7, 2 => 3", "--lane", "7, 0", "--lane", "1, 1 => 2"],
    ),
    // A dumped instruction line names its opcode (the number and _SAT are not part of it).
    ("explain_dump_line", &["explain", "  3: MAD_SAT TEMP[0], IN[0], IN[1], IN[2]"]),
    ("explain_example", &["explain", "TEX"]),
    ("explain_unknown", &["explain", "MULL"]),
    ("explain_bad_lane", &["explain", "ADD", "--lane", "1, x"]),
    ("explain_lanes_without_table", &["explain", "TEX", "--lane", "0"]),
    ("fmt_help", &["fmt", "--help"]),
    ("check_help", &["check", "--help"]),
    ("bench_help", &["bench", "--help"]),
    ("run_help", &["run", "--help"]),
    ("diff_help", &["diff", "--help"]),
    // One quad in the interpreter, the compiling tier and the AGAL executor (diff::backends).
    (
        "trace_backends",
        &[
            "trace",
            "tests/diff-pairs/mad_mul_add.a.tgsi",
            "--size",
            "4x4",
            "--pixel",
            "1,2",
            "--backends",
        ],
    ),
    (
        "trace_backends_refused",
        &[
            "trace",
            "tests/diff-pairs/fma_mad.b.tgsi",
            "--size",
            "4x4",
            "--pixel",
            "0,0",
            "--backends",
        ],
    ),
    // tgsi diff on pairs of tests/diff-pairs/ (the README there gives each answer).
    ("diff_same", &["diff", "tests/diff-pairs/swizzle.a.tgsi", "tests/diff-pairs/swizzle.b.tgsi"]),
    ("diff_fma", &["diff", "tests/diff-pairs/fma_mad.a.tgsi", "tests/diff-pairs/fma_mad.b.tgsi"]),
    (
        "diff_loop",
        &["diff", "tests/diff-pairs/loop_bound.a.tgsi", "tests/diff-pairs/loop_bound.b.tgsi"],
    ),
    (
        "diff_compute",
        &["diff", "tests/diff-pairs/cs_plus_zero.a.tgsi", "tests/diff-pairs/cs_plus_zero.b.tgsi"],
    ),
    (
        "diff_interface",
        &["diff", "tests/diff-pairs/vs_mask.a.tgsi", "tests/snapshots/inputs/vs_out.tgsi"],
    ),
    // Shaders that loop forever: both alike (notes, nothing compared), or only A.
    (
        "diff_endless",
        &["diff", "tests/snapshots/inputs/endless.tgsi", "tests/snapshots/inputs/endless.tgsi"],
    ),
    (
        "diff_stops",
        &["diff", "tests/snapshots/inputs/endless.tgsi", "tests/diff-pairs/loop_bound.a.tgsi"],
    ),
    (
        "diff_kinds",
        &["diff", "tests/diff-pairs/neg_zero.a.tgsi", "tests/diff-pairs/vs_mask.a.tgsi"],
    ),
    (
        "diff_errors",
        &[
            "diff",
            "--format",
            "short",
            "tests/snapshots/inputs/undeclared.tgsi",
            "tests/diff-pairs/neg_zero.a.tgsi",
        ],
    ),
    (
        "diff_several",
        &["diff", "tests/snapshots/inputs/paste.log", "tests/diff-pairs/neg_zero.a.tgsi"],
    ),
    (
        "diff_bad_trials",
        &[
            "diff",
            "--trials",
            "lots",
            "tests/diff-pairs/neg_zero.a.tgsi",
            "tests/diff-pairs/neg_zero.b.tgsi",
        ],
    ),
    ("agal_help", &["agal", "--help"]),
    ("agal_asm_help", &["agal-asm", "--help"]),
    ("agal_dis_help", &["agal-dis", "--help"]),
    ("completions_help", &["completions", "--help"]),
    ("version", &["--version"]),
    ("render_missing_shader", &["render", "-o", "OUT.png"]),
    ("check_bad_format", &["check", "--format", "fancy", "tests/snapshots/inputs/flow.tgsi"]),
    // A log holding two shaders, the second with timestamp and context prefixes (text::log).
    ("fmt_list_paste", &["fmt", "--list", "tests/snapshots/inputs/paste.log"]),
    ("fmt_several_paste", &["fmt", "tests/snapshots/inputs/paste.log"]),
    ("fmt_index_paste", &["fmt", "--index", "2", "tests/snapshots/inputs/paste.log"]),
    ("check_short_paste", &["check", "--format", "short", "tests/snapshots/inputs/paste.log"]),
    (
        "check_rich_paste_index",
        &["check", "--format", "rich", "--index", "2", "tests/snapshots/inputs/paste.log"],
    ),
    ("check_paste_bad_index", &["check", "--index", "3", "tests/snapshots/inputs/paste.log"]),
    // Driver logs: virgl's VREND_DEBUG=shader and Mesa's ST_DEBUG=tgsi (front::logs).
    ("fmt_list_vrend", &["fmt", "--list", "tests/snapshots/inputs/vrend.log"]),
    ("check_short_vrend", &["check", "--format", "short", "tests/snapshots/inputs/vrend.log"]),
    ("fmt_list_st_debug", &["fmt", "--list", "tests/snapshots/inputs/st_debug.log"]),
    // Diagnostics of a set of bad programs in every --format.
    (
        "check_rich_undeclared",
        &["check", "--format", "rich", "tests/snapshots/inputs/undeclared.tgsi"],
    ),
    (
        "check_json_undeclared",
        &["check", "--format", "json", "tests/snapshots/inputs/undeclared.tgsi"],
    ),
    ("check_rich_flow", &["check", "--format", "rich", "tests/snapshots/inputs/flow.tgsi"]),
    ("check_json_flow", &["check", "--format", "json", "tests/snapshots/inputs/flow.tgsi"]),
    ("check_rich_syntax", &["check", "--format", "rich", "tests/snapshots/inputs/syntax.tgsi"]),
    ("check_json_syntax", &["check", "--format", "json", "tests/snapshots/inputs/syntax.tgsi"]),
    (
        "check_short_duplicate",
        &["check", "--format", "short", "tests/snapshots/inputs/duplicate.tgsi"],
    ),
    (
        "check_rich_duplicate",
        &["check", "--format", "rich", "tests/snapshots/inputs/duplicate.tgsi"],
    ),
    (
        "check_json_duplicate",
        &["check", "--format", "json", "tests/snapshots/inputs/duplicate.tgsi"],
    ),
    // The rich format's count line: a clean shader, every shader of a paste, a linked pair.
    ("check_rich_clean", &["check", "--format", "rich", "tests/snapshots/inputs/loop.tgsi"]),
    ("check_rich_paste", &["check", "--format", "rich", "tests/snapshots/inputs/paste.log"]),
    (
        "check_rich_link",
        &[
            "check",
            "--format",
            "rich",
            "--link",
            "tests/snapshots/inputs/vs_out.tgsi",
            "tests/snapshots/inputs/fs_in.tgsi",
        ],
    ),
    (
        "render_rich_errors",
        &["render", "--format", "rich", "tests/snapshots/inputs/undeclared.tgsi", "-o", "OUT.png"],
    ),
    (
        "render_rich_job",
        &[
            "render",
            "--format",
            "rich",
            "tests/snapshots/inputs/fs_in.tgsi",
            "--mesh",
            "cube",
            "-o",
            "OUT.png",
        ],
    ),
    (
        "render_json_job",
        &[
            "render",
            "--format",
            "json",
            "tests/snapshots/inputs/fs_in.tgsi",
            "--mesh",
            "cube",
            "-o",
            "OUT.png",
        ],
    ),
    (
        "run_json_budget",
        &[
            "run",
            "tests/snapshots/inputs/loop.tgsi",
            "--grid",
            "1",
            "--block",
            "1",
            "--budget",
            "1000",
            "--format",
            "json",
        ],
    ),
    (
        "agal_rich_refusal",
        &["agal", "--format", "rich", "tests/snapshots/inputs/loop.tgsi", "-o", "OUT"],
    ),
    (
        "render_vertices_error",
        &[
            "render",
            "tests/snapshots/inputs/fs_in.tgsi",
            "--vs",
            "tests/snapshots/inputs/vs_out.tgsi",
            "--vertices",
            "tests/snapshots/inputs/bad.vertices.json",
            "-o",
            "OUT.png",
        ],
    ),
    // A bad constant and a bad texture: the shared render entry's R004 and R005 (usage: 2).
    (
        "render_bad_options",
        &[
            "render",
            "tests/snapshots/inputs/fs_in.tgsi",
            "--const",
            "0:1=1,x",
            "--texture",
            "1=tests/snapshots/inputs/bad.texture.json",
            "-o",
            "OUT.png",
        ],
    ),
    ("check_syntax_errors", &["check", "tests/snapshots/inputs/syntax.tgsi"]),
    ("check_undeclared", &["check", "tests/snapshots/inputs/undeclared.tgsi"]),
    ("check_flow", &["check", "tests/snapshots/inputs/flow.tgsi"]),
    ("check_extensions", &["check", "tests/snapshots/inputs/comments.tgsi"]),
    (
        "check_link",
        &[
            "check",
            "--link",
            "tests/snapshots/inputs/vs_out.tgsi",
            "tests/snapshots/inputs/fs_in.tgsi",
        ],
    ),
    ("check_missing_file", &["check", "tests/snapshots/inputs/no_such_file.tgsi"]),
    ("fmt_mesa_extensions", &["fmt", "--style", "mesa", "tests/snapshots/inputs/comments.tgsi"]),
    ("fmt_exact_extensions", &["fmt", "--style", "exact", "tests/snapshots/inputs/comments.tgsi"]),
    (
        "run_budget",
        &[
            "run",
            "tests/snapshots/inputs/loop.tgsi",
            "--grid",
            "1,1,1",
            "--block",
            "1,1,1",
            "--budget",
            "1000",
        ],
    ),
    ("render_errors", &["render", "tests/snapshots/inputs/undeclared.tgsi", "-o", "OUT.png"]),
    (
        "render_timeout",
        &[
            "render",
            "tests/snapshots/inputs/endless.tgsi",
            "--timeout",
            "1",
            "--budget",
            "2199023255552",
            "-o",
            "OUT.png",
        ],
    ),
    ("agal_asm_arith", &["agal", "CORPUS/softpipe/01_arith.tgsi", "--asm", "-o", "OUT"]),
    ("agal_layout_arith", &["agal", "CORPUS/softpipe/01_arith.tgsi", "--layout", "-o", "OUT"]),
    (
        "agal_refusals_mandelbrot",
        &["agal", "CORPUS/softpipe/26_mandelbrot.tgsi", "--asm", "-o", "OUT"],
    ),
    ("agal_refusal", &["agal", "tests/snapshots/inputs/loop.tgsi", "-o", "OUT"]),
    ("agal_dis", &["agal-dis", "CORPUS/agal/f01_tex_2d_basic.bin"]),
    (
        "trace_if_else",
        &[
            "trace",
            "CORPUS/softpipe/08_if_else.tgsi",
            "--vs",
            "CORPUS/softpipe/08_if_else.vs.tgsi",
            "--size",
            "8x8",
            "--pixel",
            "3,4",
        ],
    ),
    (
        "trace_loop_lanes",
        &[
            "trace",
            "tests/snapshots/inputs/trace_loop.tgsi",
            "--size",
            "4x4",
            "--pixel",
            "1,2",
            "--lanes",
        ],
    ),
    (
        "trace_loop_json",
        &[
            "trace",
            "tests/snapshots/inputs/trace_loop.tgsi",
            "--size",
            "4x4",
            "--pixel",
            "1,2",
            "--json",
        ],
    ),
    (
        "trace_texture",
        &[
            "trace",
            "CORPUS/softpipe/21_tex_linear.tgsi",
            "--vs",
            "CORPUS/softpipe/21_tex_linear.vs.tgsi",
            "--texture",
            "0=CORPUS/softpipe/21_tex_linear.png",
            "--size",
            "16x16",
            "--pixel",
            "5,5",
            "--lanes",
        ],
    ),
    (
        "trace_budget",
        &[
            "trace",
            "tests/snapshots/inputs/trace_forever.tgsi",
            "--size",
            "2x2",
            "--pixel",
            "0,0",
            "--budget",
            "12",
        ],
    ),
    (
        "trace_outside",
        &["trace", "tests/snapshots/inputs/trace_loop.tgsi", "--size", "4x4", "--pixel", "4,0"],
    ),
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn snapshot_dir() -> PathBuf {
    repo_root().join("tests/snapshots")
}

/// What one run printed, in the snapshot's text form. Output written with `-o OUT` goes to a
/// scratch file, so binary AGAL bytes never reach the snapshot.
fn run_case(name: &str, args: &[&str]) -> String {
    let scratch =
        std::env::temp_dir().join(format!("tgsi-snapshot-{}-{}", std::process::id(), name));
    let corpus = std::fs::canonicalize(corpus!()).expect("the corpus exists");
    let corpus = corpus.display().to_string();
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if let Some(ext) = a.strip_prefix("OUT") {
                format!("{}{ext}", scratch.display())
            } else {
                a.replace("CORPUS", &corpus)
            }
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(&args)
        .current_dir(repo_root())
        .env_remove("NO_COLOR")
        .output()
        .expect("the tgsi binary runs");
    for a in &args {
        if a.starts_with(&scratch.display().to_string()) {
            let _ = std::fs::remove_file(a);
            // `tgsi reference --out` writes a directory.
            let _ = std::fs::remove_dir_all(a);
        }
    }
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains("tgsi-snapshot-") {
                a.replace(&scratch.display().to_string(), "OUT")
            } else {
                a.replace(&corpus, "CORPUS")
            }
        })
        .collect();
    let text = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .replace(&scratch.display().to_string(), "OUT")
            .replace(&corpus, "CORPUS")
    };
    format!(
        "$ tgsi {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        shown.join(" "),
        out.status.code().map_or("signal".into(), |c| c.to_string()),
        text(&out.stdout),
        text(&out.stderr)
    )
}

#[test]
fn cli_output_matches_reviewed_snapshots() {
    let dir = snapshot_dir();
    let mut failures = Vec::new();
    for (name, args) in CASES {
        let got = run_case(name, args);
        assert!(!got.contains("panicked"), "{name}: the CLI panicked:\n{got}");
        let path = dir.join(format!("{name}.snap"));
        let new_path = dir.join(format!("{name}.snap.new"));
        match std::fs::read_to_string(&path) {
            Ok(want) if want == got => {
                let _ = std::fs::remove_file(&new_path);
            }
            Ok(_) => {
                std::fs::write(&new_path, &got).expect("write .snap.new");
                failures.push(format!("{name}: output changed"));
            }
            Err(_) => {
                std::fs::write(&new_path, &got).expect("write .snap.new");
                failures.push(format!("{name}: no snapshot yet"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} snapshot(s) differ; review with `bash scripts/snapshots.sh`, accept with \
         `bash scripts/snapshots.sh --accept`:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// Every snapshot file belongs to a case: a renamed or removed case leaves no stale snapshot.
#[test]
fn every_snapshot_has_a_case() {
    for entry in std::fs::read_dir(snapshot_dir()).expect("tests/snapshots exists") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "snap") {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            assert!(CASES.iter().any(|(n, _)| *n == stem), "stale snapshot {}", path.display());
        }
    }
}
