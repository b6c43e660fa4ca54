//! Hostile and mangled input: the validator (and linkage) must answer with diagnostics, never
//! panic. Deterministic mutations (a fixed linear congruential generator) of every softpipe
//! shader: lines dropped, duplicated, swapped, and numbers replaced by extreme values. Only
//! texts that still parse reach the validator, which is what it will see in the playground.

use crate::valid_support::corpus_path;
use tgsi::valid::{check, link, match_blocks, Options};

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const EXTREMES: [&str; 6] = ["0", "4294967295", "4000000000", "65536", "218", "31"];

fn mutate(text: &str, rng: &mut Lcg) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let n = lines.len();
        if n < 2 {
            break;
        }
        let i = 1 + rng.below(n - 1); // keep the header
        match rng.below(5) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = 1 + rng.below(n - 1);
                lines.swap(i, j);
            }
            3 => {
                // Replace the first number on the line by an extreme value.
                let l = &lines[i];
                if let Some(p) = l.find(|c: char| c.is_ascii_digit()) {
                    let end = l[p..].find(|c: char| !c.is_ascii_digit()).map_or(l.len(), |e| p + e);
                    let v = EXTREMES[rng.below(EXTREMES.len())];
                    lines[i] = format!("{}{}{}", &l[..p], v, &l[end..]);
                }
            }
            _ => {
                let flow = [
                    "IF TEMP[0].xxxx",
                    "ENDIF",
                    "ELSE",
                    "BGNLOOP",
                    "ENDLOOP",
                    "BRK",
                    "CONT",
                    "CAL :3",
                    "RET",
                    "END",
                    "BGNSUB",
                    "ENDSUB",
                    "SWITCH TEMP[0].xxxx",
                    "CASE TEMP[0].xxxx",
                    "DEFAULT",
                    "ENDSWITCH",
                ];
                lines.insert(i, flow[rng.below(flow.len())].to_string());
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn mutated_corpus_never_panics() {
    let dir = corpus_path("softpipe");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("corpus").flatten().map(|e| e.path()).collect();
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "tgsi"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    let mut rng = Lcg(0x5eed);
    let (mut validated, mut with_errors) = (0, 0);
    for round in 0..12 {
        for (k, t) in texts.iter().enumerate() {
            let m = mutate(t, &mut rng);
            let parsed = tgsi::text::parse(&m);
            let Some(s) = parsed.shader else { continue };
            let d = check(&s, &Options::default());
            let _ = match_blocks(&s);
            // Link against a neighbour, whatever its stage.
            if let Some(other) =
                texts.get((k + round) % texts.len()).and_then(|o| tgsi::text::parse(o).shader)
            {
                let _ = link(&other, &s);
                let _ = link(&s, &other);
            }
            validated += 1;
            with_errors += usize::from(d.iter().any(|x| x.is_error()));
        }
    }
    assert!(validated > 100, "only {} mutants parsed", validated);
    eprintln!("{} mutants validated, {} with errors", validated, with_errors);
}

#[test]
fn pathological_shapes() {
    let cases = [
        "FRAG\n".to_string(),
        "FRAG\nEND\nEND\nEND\n".to_string(),
        format!("FRAG\n{}", "ENDIF\n".repeat(10_000)),
        format!("FRAG\n{}", "ELSE\n".repeat(10_000)),
        format!("FRAG\nDCL TEMP[0]\n{}END\n", "SWITCH TEMP[0].xxxx\nDEFAULT\n".repeat(5_000)),
        format!("FRAG\nEND\n{}", "BGNSUB\nCAL :1\nENDSUB\n".repeat(5_000)),
        "FRAG\nCAL :4294967295\nEND\n".to_string(),
        "FRAG\nDCL TEMP[4294967295]\nMOV TEMP[4294967295], TEMP[4294967295]\nEND\n".to_string(),
        "FRAG\nDCL CONST[0..4294967295][0..4294967295]\nDCL OUT[0], COLOR\nMOV OUT[0], CONST[4294967295][4294967295]\nEND\n".to_string(),
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0..4294967295], GENERIC[4294967295]\nEND\n".to_string(),
    ];
    for text in &cases {
        let start = std::time::Instant::now();
        let parsed = tgsi::text::parse(text);
        if let Some(s) = parsed.shader {
            let _ = check(&s, &Options::default());
            let _ = link(&s, &s);
        }
        assert!(start.elapsed().as_secs() < 10, "slow on {:.40}", text);
    }
}
