//! `tgsi trace FS.tgsi [every option of render] --pixel X,Y [--json] [--lanes]`: what the
//! fragment shader did for one pixel of the image `tgsi render` would draw with the same
//! options, instruction by instruction (`render::inspect`). X from the left, Y from the top, as
//! in the PNG. Exit status: 0 traced, 1 diagnostics (or a pixel no primitive covers), 2 usage.

use super::render::{read_common, USAGE as RENDER_USAGE};
use super::Args;
use crate::ir::LineIndex;
use crate::render::inspect::{trace_pixel, PixelTrace};
use crate::render::job;
use serde_json::json;

const USAGE: &str = "usage: tgsi trace FS.tgsi [render options] --pixel X,Y [--json] [--lanes]";

pub fn run(args: &Args) -> i32 {
    let known = [
        "vs", "gs", "mesh", "size", "const", "texture", "time", "budget", "pixel", "json", "lanes",
    ];
    if let Some(bad) = args.unknown(&known) {
        eprintln!("tgsi trace: unknown option '--{}'\n{}", bad, USAGE);
        return 2;
    }
    let Some((x, y)) = args.value("pixel").and_then(|p| {
        let (x, y) = p.split_once(',')?;
        Some((x.trim().parse::<u32>().ok()?, y.trim().parse::<u32>().ok()?))
    }) else {
        eprintln!(
            "tgsi trace: --pixel X,Y is required (X from the left, Y from the top)\n{}",
            USAGE
        );
        return 2;
    };
    let common = match read_common(args, "trace", RENDER_USAGE) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let budget = match args.value("budget") {
        None => crate::limits::DEFAULT_FRAME_BUDGET,
        Some(b) => match b
            .parse::<u64>()
            .map_err(|_| format!("'{b}' is not a number"))
            .and_then(crate::limits::check_budget)
        {
            Ok(n) => n,
            Err(e) => {
                eprintln!("tgsi trace: --budget: {}\n{}", e, USAGE);
                return 2;
            }
        },
    };
    let (prepared, diags) = job::prepare(&common.request());
    let Some(job) = prepared else {
        common.print("trace", &diags);
        return 1;
    };
    let mut textures = common.textures.clone();
    let t = match trace_pixel(&job, x, y, &mut textures, budget) {
        Ok(t) => t,
        Err(d) => {
            common.print("trace", &[d]);
            return 1;
        }
    };
    let lines = LineIndex::new(&common.fs);
    if args.flag("json") {
        println!("{}", to_json(&t, &common.fs, &lines));
    } else {
        print!("{}", to_text(&t, &common.fs, &lines, args.flag("lanes")));
    }
    0
}

/// The instruction as written in the source.
fn source_text(text: &str, span: crate::ir::Span) -> String {
    text.get(span.start as usize..span.end as usize).unwrap_or("").trim().to_string()
}

/// The JSON contract of the README: pixel, quad, lane, steps, outputs, truncated; every value
/// as unsigned 32-bit bits, lanes in the interpreter's order.
pub fn to_json(t: &PixelTrace, text: &str, lines: &LineIndex) -> String {
    let steps: Vec<_> = t
        .trace
        .steps
        .iter()
        .map(|s| {
            let (line, col) = lines.line_col(s.span.start);
            let exec_mask = [0, 1, 2, 3].map(|l| s.exec_mask >> l & 1 != 0);
            let kill_mask = [0, 1, 2, 3].map(|l| s.kill_mask >> l & 1 != 0);
            json!({
                "pc": s.pc,
                "line": line,
                "col": col,
                "text": source_text(text, s.span),
                "exec_mask": exec_mask,
                "kill_mask": kill_mask,
                "writes": s.writes.iter().map(|w| json!({
                    "reg": w.register,
                    "chan": w.channel.to_string(),
                    "before": w.before,
                    "after": w.bits,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let outputs: Vec<_> = t
        .outputs
        .iter()
        .map(|o| {
            json!({
                "reg": o.register,
                "semantic": o.semantic.as_ref().map(|(n, _)| n.clone()),
                "semantic_index": o.semantic.as_ref().map(|(_, i)| *i),
                "bits": o.bits,
            })
        })
        .collect();
    json!({
        "pixel": t.pixel,
        "quad": t.quad,
        "lane": t.lane,
        "steps": steps,
        "outputs": outputs,
        "truncated": t.truncated,
    })
    .to_string()
}

fn value(bits: u32) -> String {
    format!("{} (0x{:08x})", f32::from_bits(bits), bits)
}

/// One line per executed instruction: where, what, the exec mask (lanes 0..3), and the
/// channels it wrote in this pixel's lane (all four lanes with `--lanes`).
pub fn to_text(t: &PixelTrace, text: &str, lines: &LineIndex, lanes: bool) -> String {
    let mut s = format!(
        "pixel ({}, {}) is lane {} of the quad at ({}, {})\n",
        t.pixel[0], t.pixel[1], t.lane, t.quad[0], t.quad[1]
    );
    for step in &t.trace.steps {
        let (line, col) = lines.line_col(step.span.start);
        let mask: String =
            (0..4).map(|l| if step.exec_mask >> l & 1 != 0 { '1' } else { '0' }).collect();
        s.push_str(&format!(
            "{:4}  {:>4}:{:<3} {:<40} exec {}",
            step.pc,
            line,
            col,
            source_text(text, step.span),
            mask
        ));
        if step.kill_mask >> t.lane & 1 != 0 {
            s.push_str("  killed");
        }
        s.push('\n');
        for w in &step.writes {
            if lanes {
                let all: Vec<String> = w.bits.iter().map(|&b| value(b)).collect();
                s.push_str(&format!(
                    "        {}.{} = [{}]\n",
                    w.register,
                    w.channel,
                    all.join(", ")
                ));
            } else {
                s.push_str(&format!(
                    "        {}.{} = {}  (was {})\n",
                    w.register,
                    w.channel,
                    value(w.bits[t.lane]),
                    value(w.before[t.lane])
                ));
            }
        }
    }
    if t.truncated {
        s.push_str(&format!("trace truncated at {} steps\n", t.trace.steps.len()));
    }
    for o in &t.outputs {
        let sem = o.semantic.as_ref().map_or(String::new(), |(n, i)| format!(" {n}[{i}]"));
        let v: Vec<String> = o.bits.iter().map(|&b| value(b)).collect();
        s.push_str(&format!("{}{} = ({})\n", o.register, sem, v.join(", ")));
    }
    s
}
