//! Finding 6 of the resource review: the AGAL assembler reported spans past the end of the
//! input for some truncated lines. Every diagnostic of every prefix of every corpus AGAL file
//! (and of each line cut at every byte) must lie within the text it was given.

use tgsi::agal::{self, ShaderKind};

#[test]
fn every_span_of_every_truncated_corpus_line_is_inside_the_input() {
    let dir = std::path::Path::new(corpus!("/agal"));
    let mut checked = 0usize;
    for entry in std::fs::read_dir(dir).expect("corpus/agal").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "agal") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let kind = if path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('v'))
        {
            ShaderKind::Vertex
        } else {
            ShaderKind::Fragment
        };
        // Each line on its own, cut at every character boundary, then the whole file cut.
        let mut inputs: Vec<String> = Vec::new();
        for line in text.lines() {
            for (i, _) in line.char_indices() {
                inputs.push(line[..i].to_string());
            }
        }
        for (i, _) in text.char_indices().step_by(7) {
            inputs.push(text[..i].to_string());
        }
        for input in inputs {
            for version in [1, 2, 3] {
                let a = agal::asm::assemble(&input, kind, version);
                for e in &a.errors {
                    assert!(
                        (e.span.start as usize) <= input.len()
                            && (e.span.end as usize) <= input.len(),
                        "{}: span {:?} past the end ({} bytes) of {:?}: {}",
                        path.display(),
                        e.span,
                        input.len(),
                        input,
                        e.message
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} inputs");
}
