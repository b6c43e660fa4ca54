//! `tgsi check` passes ⇔ `tgsi run` / `render` / the AGAL export accept the program: the
//! validator decides structure and limits once (`valid::analyse`) and every later stage takes
//! its result. These tests feed the corpus and generated control-flow edge cases to both sides
//! and fail on any disagreement.

use std::path::Path;
use tgsi::ir::{Processor, Shader};

/// What the validator says (errors?) and what the execution entry point says.
fn verdicts(shader: &Shader) -> (bool, Result<(), String>) {
    let check_fails = tgsi::valid::check(shader, &Default::default()).iter().any(|d| d.is_error());
    let run = tgsi::exec::build(shader).map(|_| ()).map_err(|all| {
        let first = all.iter().find(|d| d.is_error()).or(all.first());
        first.map_or("?".into(), |d| format!("{} {}", d.code, d.message))
    });
    (check_fails, run)
}

/// Fails with a description when check and the execution path disagree on `text`.
fn agree(name: &str, text: &str) -> Result<(), String> {
    let parsed = tgsi::text::parse(text);
    let Some(shader) = parsed.shader else { return Ok(()) }; // the parser refused: both refuse
    let (check_fails, run) = verdicts(&shader);
    match (&run, check_fails) {
        (Ok(()), true) => return Err(format!("{name}: check reports errors but run accepts")),
        (Err(why), false) => return Err(format!("{name}: check passes but run refuses: {why}")),
        (Err(why), true) if !why.starts_with('V') => {
            return Err(format!("{name}: refused by a later stage, not the validator: {why}"))
        }
        _ => {}
    }
    // The render pipeline takes fragment shaders alone (fragment-only mode).
    if shader.processor == Processor::Fragment {
        let req =
            tgsi::render::job::Request { fs: text, width: 4, height: 4, ..Default::default() };
        let (job, diags) = tgsi::render::job::prepare(&req);
        let render_ok = job.is_some();
        if render_ok == check_fails {
            let why = diags.iter().map(|d| d.diagnostic.code).collect::<Vec<_>>();
            return Err(format!(
                "{name}: check {} but render {} ({why:?})",
                if check_fails { "fails" } else { "passes" },
                if render_ok { "accepts" } else { "refuses" }
            ));
        }
    }
    // The AGAL export refuses what the validator refuses (its own refusals are about AGAL).
    if matches!(shader.processor, Processor::Fragment | Processor::Vertex) && check_fails {
        let e = tgsi::agal::lower::export_checked(&shader, &Default::default());
        if e.program.is_some() {
            return Err(format!("{name}: check fails but the AGAL export produced a program"));
        }
    }
    Ok(())
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let root = Path::new(corpus!());
    let mut out = Vec::new();
    let mut dirs = vec![root.join("softpipe"), root.join("third-party"), root.join("piglit")];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "tgsi") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn check_and_run_agree_on_every_corpus_program() {
    let files = corpus_files();
    assert!(files.len() >= 50, "only {} corpus files found", files.len());
    let mut problems = Vec::new();
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        if let Err(e) = agree(&f.display().to_string(), &text) {
            problems.push(e);
        }
    }
    assert!(problems.is_empty(), "{} disagreements:\n{}", problems.len(), problems.join("\n"));
}

/// `depth` nested blocks of each kind in `kinds`, outermost first, around one MOV.
fn nested(kinds: &[(&str, usize)]) -> String {
    let mut t = String::from(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nIMM[0] INT32 {1, 0, 0, 0}\n",
    );
    let mut closers = Vec::new();
    for &(kind, depth) in kinds {
        for _ in 0..depth {
            match kind {
                "IF" => {
                    t.push_str("UIF IMM[0].xxxx\n");
                    closers.push("ENDIF\n");
                }
                "LOOP" => {
                    t.push_str("BGNLOOP\n");
                    closers.push("BRK\nENDLOOP\n");
                }
                _ => {
                    t.push_str("SWITCH IMM[0].xxxx\nCASE IMM[0].xxxx\n");
                    closers.push("BRK\nENDSWITCH\n");
                }
            }
        }
    }
    t.push_str("MOV OUT[0], IN[0]\n");
    while let Some(c) = closers.pop() {
        t.push_str(c);
    }
    t.push_str("END\n");
    t
}

/// Generated edge cases: (name, program, whether check must accept it).
fn edge_cases() -> Vec<(String, String, bool)> {
    let mut v = Vec::new();
    for kind in ["IF", "LOOP", "SWITCH"] {
        v.push((format!("32 {kind}"), nested(&[(kind, 32)]), true));
        v.push((format!("33 {kind}"), nested(&[(kind, 33)]), false));
    }
    // The case that used to pass check and fail to compile (the interpreter counted 64 in all).
    v.push((
        "32 loops + 32 IF + 1 SWITCH".into(),
        nested(&[("LOOP", 32), ("IF", 32), ("SWITCH", 1)]),
        true,
    ));
    v.push(("32 of each".into(), nested(&[("IF", 32), ("LOOP", 32), ("SWITCH", 32)]), true));
    v.push(("33 IF inside loops".into(), nested(&[("LOOP", 2), ("IF", 33)]), false));
    let fs = |body: &str| {
        format!("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nIMM[0] INT32 {{1, 0, 0, 0}}\n{body}")
    };
    let cases: &[(&str, &str, bool)] = &[
        // The case that used to fail check (V110) and run fine.
        ("subroutine before END", "BGNSUB\nRET\nENDSUB\nMOV OUT[0], IN[0]\nEND\n", false),
        ("subroutine after END", "CAL :3\nMOV OUT[0], IN[0]\nEND\nBGNSUB\nRET\nENDSUB\n", true),
        ("subroutine inside IF", "UIF IMM[0].xxxx\nBGNSUB\nENDSUB\nENDIF\nEND\n", false),
        (
            "subroutines calling each other",
            "CAL :3\nMOV OUT[0], IN[0]\nEND\nBGNSUB\nCAL :6\nENDSUB\nBGNSUB\nRET\nENDSUB\n",
            true,
        ),
        ("recursion", "CAL :3\nMOV OUT[0], IN[0]\nEND\nBGNSUB\nCAL :3\nENDSUB\n", false),
        ("mutual recursion", "CAL :3\nEND\nBGNSUB\nCAL :5\nENDSUB\nBGNSUB\nCAL :2\nENDSUB\n", false),
        ("CAL to no subroutine", "CAL :0\nMOV OUT[0], IN[0]\nEND\n", false),
        ("CAL past the end", "CAL :99\nMOV OUT[0], IN[0]\nEND\n", false),
        ("ENDIF without IF", "ENDIF\nMOV OUT[0], IN[0]\nEND\n", false),
        ("ELSE without IF", "ELSE\nEND\n", false),
        ("two ELSE", "UIF IMM[0].xxxx\nELSE\nELSE\nENDIF\nEND\n", false),
        ("misordered ends", "BGNLOOP\nUIF IMM[0].xxxx\nENDLOOP\nENDIF\nEND\n", false),
        ("IF never closed", "UIF IMM[0].xxxx\nMOV OUT[0], IN[0]\nEND\n", false),
        ("loop never closed", "BGNLOOP\nMOV OUT[0], IN[0]\nEND\n", false),
        ("empty IF", "UIF IMM[0].xxxx\nENDIF\nMOV OUT[0], IN[0]\nEND\n", true),
        ("empty IF/ELSE", "UIF IMM[0].xxxx\nELSE\nENDIF\nMOV OUT[0], IN[0]\nEND\n", true),
        ("empty loop with BRK", "BGNLOOP\nBRK\nENDLOOP\nMOV OUT[0], IN[0]\nEND\n", true),
        ("empty SWITCH", "SWITCH IMM[0].xxxx\nENDSWITCH\nMOV OUT[0], IN[0]\nEND\n", true),
        (
            "DEFAULT first",
            "SWITCH IMM[0].xxxx\nDEFAULT\nBRK\nCASE IMM[0].xxxx\nBRK\nENDSWITCH\nMOV OUT[0], IN[0]\nEND\n",
            true,
        ),
        ("two DEFAULT", "SWITCH IMM[0].xxxx\nDEFAULT\nDEFAULT\nENDSWITCH\nEND\n", false),
        ("BRK outside loops", "BRK\nMOV OUT[0], IN[0]\nEND\n", false),
        ("CONT outside loops", "CONT\nEND\n", false),
        ("CONT in a SWITCH", "SWITCH IMM[0].xxxx\nCASE IMM[0].xxxx\nCONT\nENDSWITCH\nEND\n", false),
        ("CASE outside SWITCH", "CASE IMM[0].xxxx\nEND\n", false),
        ("RET in main", "UIF IMM[0].xxxx\nRET\nENDIF\nMOV OUT[0], IN[0]\nEND\n", true),
        ("BRK in a subroutine outside loops", "CAL :2\nEND\nBGNSUB\nBRK\nENDSUB\n", false),
        ("no END", "MOV OUT[0], IN[0]\n", false),
        ("two END", "MOV OUT[0], IN[0]\nEND\nEND\n", false),
        ("instruction after END", "END\nMOV OUT[0], IN[0]\n", false),
        ("BRA", "BRA :0\nEND\n", false),
    ];
    for (name, body, ok) in cases {
        v.push((name.to_string(), fs(body), *ok));
    }
    // Call chains at the depth limit and one over.
    for (n, ok) in [(32usize, true), (33, false)] {
        let mut t = String::from("CAL :2\nEND\n");
        for k in 0..n {
            if k + 1 < n {
                t.push_str(&format!("BGNSUB\nCAL :{}\nENDSUB\n", 2 + 3 * (k + 1)));
            } else {
                t.push_str("BGNSUB\nMOV OUT[0], IN[0]\nENDSUB\n");
            }
        }
        v.push((format!("call chain {n}"), fs(&t), ok));
    }
    v
}

#[test]
fn check_and_run_agree_on_control_flow_edge_cases() {
    let mut problems = Vec::new();
    for (name, text, ok) in edge_cases() {
        let shader = tgsi::text::parse(&text).shader.expect("edge cases parse");
        let (check_fails, _) = verdicts(&shader);
        if check_fails == ok {
            problems.push(format!("{name}: check {}", if ok { "refuses" } else { "accepts" }));
        }
        if let Err(e) = agree(&name, &text) {
            problems.push(e);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The two reported disagreements, through the real binary: `check` and `run` give the same
/// answer with the same code.
#[test]
fn the_cli_gives_one_answer_for_check_and_run() {
    let dir = crate::scratch::dir("agree");
    let comp = |body: &str| {
        format!("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL TEMP[0]\nIMM[0] INT32 {{1, 0, 0, 0}}\n{body}")
    };
    let sub_first = comp("BGNSUB\nRET\nENDSUB\nMOV TEMP[0], IMM[0]\nEND\n");
    let mut deep = String::new();
    let mut close = String::new();
    for _ in 0..32 {
        deep.push_str("BGNLOOP\n");
        close.push_str("BRK\nENDLOOP\n");
    }
    for _ in 0..32 {
        deep.push_str("UIF IMM[0].xxxx\n");
        close.insert_str(0, "ENDIF\n");
    }
    let nested = comp(&format!(
        "{deep}SWITCH IMM[0].xxxx\nCASE IMM[0].xxxx\nMOV TEMP[0], IMM[0]\nBRK\nENDSWITCH\n{close}END\n"
    ));
    for (name, text, want) in [("sub_first", sub_first, 1), ("nested", nested, 0)] {
        let path = dir.join(format!("{name}.tgsi"));
        std::fs::write(&path, text).expect("write");
        let tgsi = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_tgsi"))
                .args(args)
                .output()
                .expect("tgsi runs")
        };
        let p = path.to_str().expect("utf-8 path");
        let check = tgsi(&["check", p]);
        let run = tgsi(&["run", p, "--grid", "1"]);
        assert_eq!(check.status.code(), Some(want), "{name}: check");
        assert_eq!(
            run.status.code(),
            Some(want),
            "{name}: run: {}",
            String::from_utf8_lossy(&run.stdout)
        );
        if want == 1 {
            let code = |o: &std::process::Output| {
                let s = String::from_utf8_lossy(&o.stdout).to_string()
                    + &String::from_utf8_lossy(&o.stderr);
                s.lines()
                    .find(|l| l.contains("error"))
                    .and_then(|l| l.rsplit('[').next())
                    .map(str::to_string)
            };
            assert_eq!(code(&check), code(&run), "{name}: same first error code");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
