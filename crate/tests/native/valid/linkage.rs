//! Vertex → fragment linkage by (semantic, index) and channels (the Gallium semantics RFC (mesa-dev)),
//! plus every vertex/fragment pair of the softpipe corpus, which Mesa links and draws.

use crate::valid_support::*;

const VS: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1].xy, GENERIC[0]
DCL OUT[2], GENERIC[5]
MOV OUT[0], IN[0]
MOV OUT[1].xy, IN[0]
MOV OUT[2], IN[0]
END
";

fn codes(d: &[tgsi::diag::Diagnostic]) -> Vec<(&'static str, u32, u32)> {
    triples(d)
}

#[test]
fn l001_input_not_written() {
    // The FS reads GENERIC[1], which the VS never writes: "DCL IN[1], GENERIC[1], …" col 12.
    let fs = "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0].xy, IN[0].xyyy\nMOV OUT[0].zw, IN[1].xxxx\nEND\n";
    let (_, f) = link(VS, fs);
    assert_eq!(codes(&f), vec![("L001", 3, 12)]);
    // Inputs the rasterizer makes need no vertex output.
    let fs_ok = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL IN[1].xy, GENERIC[0], PERSPECTIVE\nDCL IN[2], FACE, CONSTANT\nDCL OUT[0], COLOR\nMOV OUT[0].xy, IN[1].xyyy\nMOV OUT[0].z, IN[0].xxxx\nMOV OUT[0].w, IN[2].xxxx\nEND\n";
    let (_, f) = link(VS, fs_ok);
    assert_eq!(codes(&f), vec![]);
}

#[test]
fn l002_channels_read_but_not_written() {
    // The VS writes GENERIC[0].xy; the FS reads .z through the swizzle of a MOV to .z.
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0].xy, IN[0].xyyy\nMOV OUT[0].z, IN[0].zzzz\nEND\n";
    let (_, f) = link(VS, fs);
    assert_eq!(codes(&f), vec![("L002", 2, 12)]);
    assert!(f[0].message.contains(".z"), "{}", f[0].message);
    // Reading only x and y through the write mask: fine, even with a .xyzw declaration.
    let fs_ok = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0].xy, IN[0].xyzw\nEND\n";
    let (_, f) = link(VS, fs_ok);
    assert_eq!(codes(&f), vec![]);
}

#[test]
fn l003_unused_vertex_outputs_are_notes() {
    let fs = "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0].xy, IN[0].xyyy\nEND\n";
    let (v, _) = link(VS, fs);
    // GENERIC[5] (line 5, "DCL OUT[2], GENERIC[5]" col 13) is unread; POSITION is for the rasterizer.
    assert_eq!(codes(&v), vec![("L003", 5, 13)]);
    assert_eq!(v[0].severity, tgsi::diag::Severity::Note);
    // Neighbour: the fragment shader also reads GENERIC[5]; nothing is left unread.
    let fs_all = "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[5], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0].xy, IN[0].xyyy\nMOV OUT[0].zw, IN[1].xxxx\nEND\n";
    let (v, f) = link(VS, fs_all);
    assert_eq!((codes(&v), codes(&f)), (vec![], vec![]));
}

#[test]
fn l004_bcolor_feeds_only_back_faces() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], BCOLOR\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[0]\nEND\n";
    let fs = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";
    let (v, f) = link(vs, fs);
    assert_eq!(codes(&f), vec![("L004", 2, 12)]);
    assert_eq!(codes(&v), vec![], "BCOLOR is read through COLOR");
    let vs2 = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL OUT[2], BCOLOR\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[0]\nMOV OUT[2], IN[0]\nEND\n";
    let (v, f) = link(vs2, fs);
    assert_eq!((codes(&v), codes(&f)), (vec![], vec![]));
}

#[test]
fn l000_wrong_stages() {
    let fs = "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], OUT[0]\nEND\n";
    let (v, f) = link(fs, fs);
    assert_eq!(codes(&v), vec![("L000", 1, 1)]);
    assert_eq!(codes(&f), vec![]);
    let (v, f) = link(VS, VS);
    assert_eq!((codes(&v), codes(&f)), (vec![], vec![("L000", 1, 1)]));
    // Neighbour: a vertex then a fragment shader.
    let (v, f) = link(VS, fs);
    assert!(v.iter().chain(&f).all(|d| d.code != "L000"));
}

#[test]
fn softpipe_pairs_link_without_errors() {
    let dir = corpus_path("softpipe");
    let mut pairs = 0;
    let mut entries: Vec<_> =
        std::fs::read_dir(&dir).expect("corpus").flatten().map(|e| e.path()).collect();
    entries.sort();
    for vs_path in entries.iter().filter(|p| p.to_string_lossy().ends_with(".vs.tgsi")) {
        let fs_path =
            std::path::PathBuf::from(vs_path.to_string_lossy().replace(".vs.tgsi", ".tgsi"));
        let (Ok(vs), Ok(fs)) =
            (std::fs::read_to_string(vs_path), std::fs::read_to_string(&fs_path))
        else {
            continue;
        };
        let (v, f) = link(&vs, &fs);
        let errors: Vec<_> = v.iter().chain(&f).filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{}: {:#?}", fs_path.display(), errors);
        pairs += 1;
    }
    assert!(pairs >= 25, "only {} pairs found", pairs);
}

/// The plain data the wasm `validate` / `link` return (serialized as JSON-compatible objects).
#[test]
fn wasm_report_shape() {
    let v = tgsi::valid::report::validate("FRAG\nDCL TEMP[0]\nIF TEMP[0].xxxx\nEND\n");
    let json = serde_json::to_value(&v).expect("serializable");
    let d = &json[0];
    assert_eq!(d["code"], "V103");
    assert_eq!(d["severity"], "error");
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(3), Some(1)));
    // "IF TEMP[0].xxxx" is 15 characters: the span ends at column 16 of line 3.
    assert_eq!((d["endLine"].as_u64(), d["endColumn"].as_u64()), (Some(3), Some(16)));
    // Byte offsets: "FRAG\n" (5) + "DCL TEMP[0]\n" (12) = 17.
    assert_eq!((d["span"]["start"].as_u64(), d["span"]["end"].as_u64()), (Some(17), Some(32)));
    assert_eq!(d["related"][0]["line"].as_u64(), Some(4));
    assert!(d["message"].as_str().is_some_and(|m| m.contains("ENDIF")));
    // Parse errors come through too.
    let v = tgsi::valid::report::validate("FRAG\nBOGUS\n");
    assert!(v.iter().any(|d| d.code.starts_with('P') && d.severity == "error"));
    let l = tgsi::valid::report::link(
        VS,
        "FRAG\nDCL IN[0], GENERIC[9], PERSPECTIVE\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
    );
    let json = serde_json::to_value(&l).expect("serializable");
    assert!(json["fs"].as_array().is_some_and(|a| a.iter().any(|d| d["code"] == "L001")));
    assert!(json["vs"].as_array().is_some_and(|a| a.iter().any(|d| d["code"] == "L003")));
}
