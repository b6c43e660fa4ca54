//! Resource limits of the default `tgsi_exec` profile (values from `tgsi_exec.h` and Gallium's
//! `PIPE_MAX_*`, see `docs/diagnostics.md`) and hostile programs: huge ranges, deep nesting and
//! long programs give diagnostics in bounded time, never panics.

use crate::valid_support::*;
use std::time::Instant;
use tgsi::valid::{check, Options};

#[test]
fn v501_temporaries() {
    // TGSI_EXEC_NUM_TEMPS = 4096: TEMP[4095] is the last one.
    clean("FRAG\nDCL TEMP[0..4095]\nMOV TEMP[4095], TEMP[0]\nEND\n");
    // "DCL TEMP[0..4096]": the error points at the range, whose bracket opens at column 9.
    expect("FRAG\nDCL TEMP[0..4096]\nMOV TEMP[4096], TEMP[0]\nEND\n", &[("V501", 2, 9)]);
}

#[test]
fn huge_range_is_one_diagnostic_in_no_time() {
    let start = Instant::now();
    let d = diags(
        "FRAG\nDCL TEMP[0..4000000000]\nDCL OUT[0], COLOR\nMOV OUT[0], TEMP[3999999999]\nEND\n",
    );
    assert_eq!(d.iter().map(|x| x.code).collect::<Vec<_>>(), vec!["V501"]);
    assert!(start.elapsed().as_millis() < 2000);
    // Linkage with a huge semantic range stays bounded too.
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0..4000000000], GENERIC[0]\nMOV OUT[0], IN[0]\nEND\n";
    let fs = "FRAG\nDCL IN[0..4000000000], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[7]\nEND\n";
    let start = Instant::now();
    let (v, f) = link(vs, fs);
    // OUT[7] (GENERIC[7]) is never written: one L002, computed without expanding the ranges.
    assert_eq!(triples(&f).iter().map(|t| t.0).collect::<Vec<_>>(), vec!["L002"], "{:?}", v);
    assert!(start.elapsed().as_millis() < 2000);
}

#[test]
fn v502_to_v509_register_limits() {
    // Each declaration is also unused (V011 at column 1); the limit error points at the
    // register bracket: "DCL CONST[" puts it at column 10, "DCL IN[" at 7, "DCL OUT[" at 8,
    // "DCL SAMP[" at 9, "DCL SVIEW[" at 10, "DCL ADDR[" at 9, "DCL SV[" at 7.
    expect("FRAG\nDCL CONST[0..4096]\nEND\n", &[("V011", 2, 1), ("V502", 2, 10)]);
    // CONST[32][0]: buffer 32 is beyond the 32 buffers 0..31; the first bracket opens at 10.
    expect("FRAG\nDCL CONST[32][0]\nEND\n", &[("V011", 2, 1), ("V502", 2, 10)]);
    expect("VERT\nDCL IN[80]\nEND\n", &[("V011", 2, 1), ("V503", 2, 7)]);
    expect("VERT\nDCL OUT[80], GENERIC[0]\nEND\n", &[("V011", 2, 1), ("V504", 2, 8)]);
    expect("FRAG\nDCL SAMP[32]\nEND\n", &[("V011", 2, 1), ("V505", 2, 9)]);
    expect("FRAG\nDCL SVIEW[128], 2D, FLOAT\nEND\n", &[("V011", 2, 1), ("V505", 2, 10)]);
    expect("FRAG\nDCL ADDR[3]\nEND\n", &[("V011", 2, 1), ("V508", 2, 9)]);
    expect("COMP\nDCL SV[8], THREAD_ID\nEND\n", &[("V011", 2, 1), ("V509", 2, 7)]);
    let d = no_errors(
        "FRAG\nDCL CONST[31][4095]\nDCL SAMP[31]\nDCL SVIEW[127], 2D, FLOAT\nDCL ADDR[2]\nEND\n",
    );
    assert!(d.iter().all(|x| x.code == "V011"));
}

#[test]
fn unknown_profile_warns_and_falls_back() {
    let s = parse("FRAG\nEND\n");
    let d = check(&s, &Options { profile: Some("nonsense".into()) });
    assert_eq!(d.iter().map(|x| x.code).collect::<Vec<_>>(), vec!["V500"]);
    let d = check(&s, &Options { profile: Some("tgsi_exec".into()) });
    assert!(d.is_empty());
}

#[test]
fn v510_call_depth() {
    // A chain of 33 subroutines, each calling the next: 33 nested calls > 32.
    let n = 33;
    let mut text = String::from("FRAG\nCAL :2\nEND\n");
    // Subroutine k occupies instructions 2+3k (BGNSUB), 3+3k (CAL or NOP), 4+3k (ENDSUB).
    for k in 0..n {
        let body = if k + 1 < n { format!("CAL :{}", 2 + 3 * (k + 1)) } else { "NOP".to_string() };
        text.push_str(&format!("BGNSUB\n{}\nENDSUB\n", body));
    }
    let d = diags(&text);
    assert_eq!(d.iter().map(|x| x.code).collect::<Vec<_>>(), vec!["V510"]);
}

#[test]
fn long_programs_are_linear() {
    let n = 200_000;
    let text = format!(
        "FRAG\nDCL TEMP[0..1]\nDCL OUT[0], COLOR\n{}MOV OUT[0], TEMP[1]\nEND\n",
        "ADD TEMP[1], TEMP[0], TEMP[1]\n".repeat(n)
    );
    let start = Instant::now();
    let d = diags(&text);
    assert!(d.is_empty(), "{:?}", d.first());
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}
