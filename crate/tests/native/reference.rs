//! The opcode reference (`tgsi::reference`): every opcode of the table has page data, every
//! example and lane program validates without diagnostics (legacy opcodes: only the legacy
//! warning), and every lane table's hand-derived rows are what the engine computes, through
//! the page's own quad path (`exec::quad::run_quad`).

use tgsi::opcode::Opcode;
use tgsi::reference::{self, lanes, Live};

/// Diagnostics of `text` other than the legacy-opcode warning of a legacy `op`.
fn diagnostics(op: Opcode, text: &str) -> Vec<String> {
    let parsed = tgsi::text::parse(text);
    let mut found = parsed.diagnostics;
    if let Some(shader) = &parsed.shader {
        found.extend(tgsi::valid::check(shader, &Default::default()));
    }
    found
        .into_iter()
        .filter(|d| !(lanes::is_legacy(op) && d.code == "P106"))
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

#[test]
fn every_opcode_has_exactly_one_entry() {
    let mut missing = Vec::new();
    for &op in Opcode::ALL {
        match reference::entries().filter(|e| e.op == op).count() {
            1 => {}
            n => missing.push(format!("{} has {n} entries", op.name())),
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert_eq!(reference::entries().count(), Opcode::ALL.len());
}

#[test]
fn related_opcodes_name_rows_of_the_table() {
    let bad: Vec<String> = reference::entries()
        .flat_map(|e| {
            reference::related(e)
                .into_iter()
                .filter_map(move |r| r.err().map(|w| format!("{}: {w}", e.op.name())))
        })
        .collect();
    assert!(bad.is_empty(), "unknown related opcodes: {bad:?}");
}

#[test]
fn every_example_and_lane_program_validates_cleanly() {
    let mut problems = Vec::new();
    for e in reference::entries() {
        let text = match &e.live {
            Live::Lanes { program, .. } => lanes::program_of(e.op, program),
            Live::Example { text, why, .. } => {
                assert!(!why.is_empty(), "{}: an example needs its reason", e.op.name());
                text.to_string()
            }
        };
        let found = diagnostics(e.op, &text);
        if !found.is_empty() {
            problems.push(format!("{}: {found:?}\n{text}", e.op.name()));
        }
        let refused = matches!(&e.live, Live::Example { why, .. } if why.contains("refuses"));
        if !text.contains(e.op.name()) && !refused {
            problems.push(format!("{}: its program does not use it", e.op.name()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn every_lane_table_matches_its_hand_derived_rows() {
    let mut failures = Vec::new();
    let mut tables = 0;
    for e in reference::entries() {
        if let Live::Lanes { program, rows } = &e.live {
            tables += 1;
            if let Err(msg) = lanes::check(e.op, program, rows) {
                failures.push(msg);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tables} lane tables differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_wrong_expectation_fails_the_check() {
    // The check can fail: 2 × 3 is not 7, and a NaN expectation does not accept a number.
    assert!(lanes::check(Opcode::MUL, "", &["2, 3 => 7", "1, 1 => 1", "1, 1 => 1", "1, 1 => 1"])
        .is_err());
    assert!(lanes::check(Opcode::MUL, "", &["2, 3 => nan", "1, 1 => 1", "1, 1 => 1", "1, 1 => 1"])
        .is_err());
    assert!(lanes::check(Opcode::MUL, "", &["2, 3 => 6", "1, 1 => 1", "1, 1 => 1", "1, 1 => 1"])
        .is_ok());
}

#[test]
fn rows_read_literals_in_the_operand_types() {
    let r = lanes::parse_row(Opcode::UADD, "4294967295, 0x10 => -1").unwrap();
    assert_eq!(r.inputs[0][0].bits, u32::MAX);
    assert_eq!(r.inputs[1][3].bits, 16);
    assert_eq!(r.expected.unwrap()[0].bits, u32::MAX);
    // A double fills both pairs, low word first.
    let r = lanes::parse_row(Opcode::DADD, "1.5, 0 => 1.5").unwrap();
    let bits = 1.5f64.to_bits();
    assert_eq!([r.inputs[0][0].bits, r.inputs[0][1].bits], [bits as u32, (bits >> 32) as u32]);
    assert_eq!(r.inputs[0][2].bits, bits as u32);
    assert!(lanes::parse_row(Opcode::MUL, "1, x => 2").is_err());
    assert!(lanes::parse_row(Opcode::MUL, "1, 2").is_err());
}

#[test]
fn every_rendered_example_validates_cleanly() {
    let mut problems = Vec::new();
    let mut drawn = 0;
    for &op in Opcode::ALL {
        if let Some(text) = reference::site::render_program(op) {
            drawn += 1;
            let found = diagnostics(op, &text);
            if !found.is_empty() {
                problems.push(format!("{}: {found:?}\n{text}", op.name()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    assert!(drawn > 200, "only {drawn} opcodes have a rendered example");
}

#[test]
fn every_opcode_has_a_rendered_example_or_a_reason() {
    let mut problems = Vec::new();
    for &op in Opcode::ALL {
        let drawn = reference::site::render_program(op).is_some();
        match (drawn, reference::no_render_reason(op)) {
            (false, None) => {
                problems.push(format!("{}: no rendered example and no reason", op.name()))
            }
            (true, Some(_)) => {
                problems.push(format!("{}: a rendered example and a reason", op.name()))
            }
            (false, Some(why)) if why.trim().is_empty() => {
                problems.push(format!("{}: an empty reason", op.name()))
            }
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `programs/reference/` holds the hand-written rendered examples and nothing else: every file
/// there is the program some opcode's section draws, named after one of that example's opcodes
/// (its first), and no two files hold the same one.
#[test]
fn every_reference_program_file_is_a_rendered_example() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/reference"));
    let mut files = 0;
    let mut problems = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for entry in std::fs::read_dir(dir).expect("programs/reference") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".tgsi") else {
            problems.push(format!("{name}: not a .tgsi file"));
            continue;
        };
        files += 1;
        let text = std::fs::read_to_string(&path).expect("a program file");
        if let Some(other) = seen.insert(text.clone(), name.clone()) {
            problems.push(format!("{name}: the program of {other} again"));
        }
        let op = Opcode::ALL.iter().find(|op| op.name().eq_ignore_ascii_case(stem));
        match op.and_then(|&op| reference::own_render(op)) {
            Some((drawn, _)) if drawn == text => {}
            Some(_) => {
                problems.push(format!("{name}: {} draws another program", stem.to_uppercase()))
            }
            None => problems.push(format!("{name}: no opcode named {stem} draws it")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(files >= 20, "only {files} rendered examples in programs/reference");
}

/// Every example program of the reference (an opcode with no lane table) is a file of
/// `programs/reference-examples/`, named after its opcode (`emit.gs` serves EMIT and ENDPRIM,
/// one geometry shader showing both), and every file there is such an example.
#[test]
fn every_reference_example_is_a_program_file_and_every_file_an_example() {
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../programs/reference-examples"
    ));
    let mut files = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("programs/reference-examples") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        files.insert(name, std::fs::read_to_string(&path).expect("a program file"));
    }
    let mut problems = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for e in reference::entries() {
        let Live::Example { text, .. } = &e.live else { continue };
        let found = files.iter().find(|(_, t)| t == text).map(|(n, _)| n.clone());
        let Some(name) = found else {
            problems.push(format!("{}: its example is not a file", e.op.name()));
            continue;
        };
        let opcode = name.split('.').next().unwrap_or("");
        let named = opcode.eq_ignore_ascii_case(e.op.name())
            || (name == "emit.gs.tgsi" && e.op == Opcode::ENDPRIM);
        if !named {
            problems.push(format!("{}: its example is {name}", e.op.name()));
        }
        used.insert(name);
    }
    for name in files.keys().filter(|n| !used.contains(*n)) {
        problems.push(format!("{name}: no opcode shows it"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(used.len() >= 50, "only {} example files", used.len());
}

#[test]
fn the_reason_for_no_rendered_example_is_on_the_page() {
    let files = reference::site::files();
    let html = &files.iter().find(|(name, _)| *name == "index.html").expect("index.html").1;
    let load = html.find("id=\"LOAD\"").expect("LOAD section");
    let end = load + html[load..].find("</section>").expect("section end");
    assert!(html[load..end].contains("class=\"no-render\""), "{}", &html[load..end]);
    let udiv = html.find("id=\"DADD\"").expect("DADD section");
    let end = udiv + html[udiv..].find("</section>").expect("section end");
    assert!(html[udiv..end].contains("<tgsi-shader"), "{}", &html[udiv..end]);
}

#[test]
fn the_site_has_a_section_and_an_index_link_per_opcode() {
    let files = reference::site::files();
    let page = &files.iter().find(|f| f.0 == "index.html").expect("index.html").1;
    for &op in Opcode::ALL {
        let n = op.name();
        assert!(page.contains(&format!("<section id=\"{n}\"")), "no section for {n}");
        assert!(page.contains(&format!("<li><a href=\"#{n}\">{n}</a>")), "no index link for {n}");
    }
}

#[test]
fn compute_examples_leave_the_hand_derived_buffers() {
    use tgsi::exec::{dispatch, Constants, Machine, NoTextures, Resources};
    let words = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let mut problems = Vec::new();
    for check in reference::buffer_checks() {
        let Some(Live::Example { text, .. }) = reference::entry(check.op).map(|e| &e.live) else {
            panic!("{}: a buffer check needs an example", check.op.name());
        };
        let parsed = tgsi::text::parse(text);
        let shader = parsed.shader.expect("the example parses");
        let program = tgsi::exec::build(&shader).expect("the example compiles");
        let mut resources = Resources::new();
        resources.buffers.insert(0, words(&check.before));
        let mut machine = Machine::new();
        let run = dispatch(
            &mut machine,
            &program,
            &Constants::default(),
            &mut NoTextures,
            &mut resources,
            [1, 1, 1],
            None,
        );
        if let Err(e) = run {
            problems.push(format!("{}: {}", check.op.name(), e.diagnostic.message));
            continue;
        }
        let after: Vec<u32> = resources.buffers[&0]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if after != check.after {
            problems.push(format!(
                "{}: expected {:?}, got {after:?}",
                check.op.name(),
                check.after
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(reference::buffer_checks().len() >= 15);
}

#[test]
fn weighted_opcodes_say_what_the_budget_charges() {
    // docs/limits.md: a texture instruction that reads texels is charged 128 per quad, POW 4,
    // ADD and the TXQ query 1 (no note).
    let files = reference::site::files();
    let page = &files.iter().find(|f| f.0 == "index.html").expect("index.html").1;
    let section = |n: &str| {
        let start = page.find(&format!("<section id=\"{n}\"")).expect("a section");
        let end = page[start..].find("</section>").map_or(page.len(), |e| start + e);
        page[start..end].to_string()
    };
    assert!(section("TEX").contains("<dt>Budget</dt><dd>128 quad-instructions"));
    assert!(section("POW").contains("<dt>Budget</dt><dd>4 quad-instructions"));
    for n in ["ADD", "TXQ", "BGNLOOP"] {
        assert!(!section(n).contains("<dt>Budget</dt>"), "{n}");
    }
}

#[test]
fn every_texture_lane_program_validates_and_its_table_is_on_the_page() {
    let files = reference::site::files();
    let page = &files.iter().find(|f| f.0 == "index.html").expect("index.html").1;
    let data = &files.iter().find(|f| f.0 == "data.json").expect("data.json").1;
    let json: serde_json::Value = serde_json::from_str(data).expect("data.json parses");
    let mut problems = Vec::new();
    for t in reference::texlanes::all() {
        let n = t.op.name();
        let found = diagnostics(t.op, t.program);
        if !found.is_empty() {
            problems.push(format!("{n}: {found:?}\n{}", t.program));
        }
        if !t.program.contains(n) {
            problems.push(format!("{n}: its texture lane program does not use it"));
        }
        for r in t.rows {
            if let Err(e) = reference::texlanes::parse_row(t.op, r) {
                problems.push(format!("{n}: {e}"));
            }
        }
        if !page.contains(&format!("<div class=\"tex-lanes\" data-op=\"{n}\">")) {
            problems.push(format!("{n}: no texture lane table on the page"));
        }
        let entry = json.as_array().and_then(|a| a.iter().find(|e| e["name"] == n));
        if entry.and_then(|e| e["tex"]["rows"].as_array()).map(|r| r.len()) != Some(4) {
            problems.push(format!("{n}: data.json has no texture rows"));
        }
    }
    // A texture opcode without a table says why in its section.
    for op in Opcode::all().filter(|o| reference::texlanes::of(*o).is_none()) {
        let Some(why) = reference::texlanes::reason_for_none(op) else { continue };
        let n = op.name();
        let start = page.find(&format!("<section id=\"{n}\"")).unwrap_or(page.len());
        let end = page[start..].find("</section>").map_or(page.len(), |e| start + e);
        if !page[start..end].contains(&format!("<p class=\"no-tex-lanes\">{why}.</p>")) {
            problems
                .push(format!("{n}: the reason for no texture lane table is not in its section"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn data_json_carries_each_results_type_from_the_table() {
    let files = reference::site::files();
    let data = &files.iter().find(|f| f.0 == "data.json").expect("data.json").1;
    let json: serde_json::Value = serde_json::from_str(data).expect("data.json parses");
    let dst = |name: &str| {
        json.as_array()
            .and_then(|a| a.iter().find(|e| e["name"] == name))
            .map(|e| e["dst"].as_str().unwrap_or("").to_string())
    };
    // Every row's word is its table type's (the page orders int / hex / float by it).
    use tgsi::opcode::ValType;
    for &op in Opcode::ALL {
        let want = match op.info().dst_type {
            ValType::Float => "float",
            ValType::Int => "int",
            ValType::Uint => "uint",
            ValType::Double => "double",
            ValType::Int64 => "int64",
            ValType::Uint64 => "uint64",
            ValType::Untyped => "untyped",
        };
        assert_eq!(dst(op.name()).as_deref(), Some(want), "{}", op.name());
    }
    // tgsi.rst: UDIV's result is unsigned, IMAX's signed, U2I64's a 64-bit integer pair.
    assert_eq!(dst("UDIV").as_deref(), Some("uint"));
    assert_eq!(dst("IMAX").as_deref(), Some("int"));
    assert_eq!(dst("U2I64").as_deref(), Some("int64"));
    assert_eq!(dst("ADD").as_deref(), Some("float"));
}

/// `lanes::format_lane` (the `tgsi explain` computed column) writes values back in the row
/// syntax: read as an expected value by `parse_row`, each gives the very bits it was written
/// from, for every result type and the special patterns (±0, ±∞, NaNs with payloads, the
/// smallest and largest denormals and normals, integer extremes).
#[test]
fn a_formatted_lane_reads_back_to_its_bits() {
    let words: [u32; 14] = [
        0,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
        0x0000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x7f7f_ffff,
        0x3dcc_cccd,
        0x4b80_0000,
        0x3880_0000,
    ];
    // MUL: float; MOD: int; AND: uint; DADD: double; I64MIN / U64ADD: 64-bit pairs.
    for op in [Opcode::MUL, Opcode::MOD, Opcode::AND] {
        for &w in &words {
            let lanes = [w, w ^ 1, w, w];
            for bits in [[w; 4], lanes] {
                let text = lanes::format_lane(op, bits);
                let row = lanes::parse_row(op, &format!("0, 0 => {text}")).expect(&text);
                let cells = row.expected.expect("a value");
                assert_eq!(cells.map(|c| c.bits), bits, "{} {text}", op.name());
            }
        }
    }
    let doubles: [u64; 9] = [
        0,
        1 << 63,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0001,
        1,
        0x000f_ffff_ffff_ffff,
        0x3fb9_9999_9999_999a,
        0x7fef_ffff_ffff_ffff,
        0x8000_0000_0000_0001,
    ];
    for op in [Opcode::DADD, Opcode::I64MIN, Opcode::U64ADD] {
        for &d in &doubles {
            let split = |v: u64| [v as u32, (v >> 32) as u32];
            let [lo, hi] = split(d);
            let [lo2, hi2] = split(d ^ 2);
            for bits in [[lo, hi, lo, hi], [lo, hi, lo2, hi2]] {
                let text = lanes::format_lane(op, bits);
                let row = lanes::parse_row(op, &format!("0, 0 => {text}")).expect(&text);
                let cells = row.expected.expect("a value");
                assert_eq!(cells.map(|c| c.bits), bits, "{} {text}", op.name());
            }
        }
    }
    // By hand: 0.1f32 is 0x3dcccccd and prints as 0.1; 2^-149 as 1e-45; a NaN as its bits.
    assert_eq!(lanes::format_lane(Opcode::MUL, [0x3dcc_cccd; 4]), "0.1");
    assert_eq!(lanes::format_lane(Opcode::MUL, [1; 4]), "1e-45");
    assert_eq!(lanes::format_lane(Opcode::MUL, [0xffc0_0001; 4]), "0xffc00001");
    assert_eq!(lanes::format_lane(Opcode::MOD, [u32::MAX, 1, 2, 3]), "(-1 1 2 3)");
}
