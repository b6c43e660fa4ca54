//! `tgsi trace FS.tgsi [every option of render] --pixel X,Y [--json] [--lanes]`: what the
//! fragment shader did for one pixel of the image `tgsi render` would draw with the same
//! options, instruction by instruction (`render::inspect`). X from the left, Y from the top, as
//! in the PNG. Exit status: 0 traced, 1 diagnostics (or a pixel no primitive covers), 2 usage.

use super::args::TraceArgs;
use super::render::{read_common, read_inputs, USAGE as RENDER_USAGE};
use super::report::{Printer, Stream};
use crate::ir::LineIndex;
use crate::render::inspect::{in_image_order, source_text, trace_pixel, PixelTrace};
use crate::render::job;

const USAGE: &str =
    "usage: tgsi trace FS.tgsi [render options] --pixel X,Y [--json] [--lanes] [--backends]";

pub fn run(args: &TraceArgs) -> i32 {
    let printer = Printer::new(&args.diag, Stream::Stderr);
    let Some((x, y)) = args.pixel.as_deref().and_then(|p| {
        let (x, y) = p.split_once(',')?;
        Some((x.trim().parse::<u32>().ok()?, y.trim().parse::<u32>().ok()?))
    }) else {
        eprintln!(
            "tgsi trace: --pixel X,Y is required (X from the left, Y from the top)\n{}",
            USAGE
        );
        return 2;
    };
    let inputs = match read_inputs(&args.frame, "trace", RENDER_USAGE) {
        Ok(i) => i,
        Err(status) => return status,
    };
    let common = match read_common(&inputs, &args.frame, &printer, "trace") {
        Ok(c) => c,
        Err(status) => return status,
    };
    // The traced frame's budget: the default of a frame of its size unless given.
    let budget =
        match super::render::frame_budget(args.budget.as_deref(), inputs.size, "trace", USAGE) {
            Ok(n) => n,
            Err(status) => return status,
        };
    let (prepared, diags) = job::prepare(&common.request);
    let Some(mut job) = prepared else {
        common.print(&printer, "trace", &diags);
        return 1;
    };
    let mut textures = common.textures.clone();
    let t = match trace_pixel(&job, x, y, &mut textures, budget) {
        Ok(t) => t,
        Err(d) => {
            common.print(&printer, "trace", &[d]);
            return 1;
        }
    };
    let lines = LineIndex::new(&inputs.fs);
    if args.json {
        println!("{}", t.to_json(&inputs.fs, &lines));
    } else {
        print!("{}", to_text(&t, &inputs.fs, &lines, args.lanes));
    }
    if args.backends && !args.json {
        let compiled = crate::jit::accelerator(&job.fs, true);
        let mut textures = common.textures.clone();
        match crate::diff::backends::gather(
            &inputs.fs,
            &mut job,
            compiled,
            x,
            y,
            &mut textures,
            budget,
        ) {
            Ok(b) => print!("\n{}", crate::diff::backends::text(&b)),
            Err(e) => eprintln!("tgsi trace: --backends: {e}"),
        }
    }
    // A stopped frame is reported as render reports it, after the trace that led there.
    match &t.stopped {
        Some(d) => {
            common.print(
                &printer,
                "trace",
                &[job::SourcedDiagnostic { source: job::Source::Fragment, diagnostic: d.clone() }],
            );
            1
        }
        None => 0,
    }
}

/// Bits as the instruction means them, with the hex beside.
fn value(bits: u32, ty: &str) -> String {
    match ty {
        "int" | "int64" => format!("{} (0x{:08x})", bits as i32, bits),
        "uint" | "uint64" => format!("{} (0x{:08x})", bits, bits),
        "double" => format!("0x{:08x}", bits),
        _ => format!("{} (0x{:08x})", f32::from_bits(bits), bits),
    }
}

/// Bits as the instruction means them, short (for source operands).
fn short(bits: u32, ty: &str) -> String {
    match ty {
        "int" | "int64" => (bits as i32).to_string(),
        "uint" | "uint64" => bits.to_string(),
        "double" => format!("0x{bits:08x}"),
        _ => f32::from_bits(bits).to_string(),
    }
}

/// One line per executed instruction: where, what, the exec mask (lanes 0..3), and the
/// channels it wrote in this pixel's lane (all four lanes with `--lanes`).
pub fn to_text(t: &PixelTrace, text: &str, lines: &LineIndex, lanes: bool) -> String {
    const PLACES: [&str; 4] = ["top-left", "top-right", "bottom-left", "bottom-right"];
    // Which order the numbers below are in: a learner reading `(a, b, c, d)` should not take
    // one pixel's channels for the quad's lanes.
    let legend = if lanes {
        "values and exec masks list the quad's lanes top-left, top-right, bottom-left, \
         bottom-right"
    } else {
        "values are this pixel's channels (--lanes shows all four pixels); exec masks list the \
         quad's lanes top-left, top-right, bottom-left, bottom-right"
    };
    let mut s = format!(
        "pixel ({}, {}) is the {} pixel of the quad at ({}, {}); {legend}\n",
        t.pixel[0],
        t.pixel[1],
        PLACES.get(t.position).unwrap_or(&"?"),
        t.quad[0],
        t.quad[1]
    );
    for step in &t.trace.steps {
        let (line, col) = lines.line_col(step.span.start);
        let mask: String = in_image_order([0, 1, 2, 3])
            .iter()
            .map(|&l| if step.exec_mask >> l & 1 != 0 { '1' } else { '0' })
            .collect();
        s.push_str(&format!(
            "{:4}  {:>4}:{:<3} {:<40} exec {}",
            step.pc,
            line,
            col,
            source_text(text, step.span),
            mask
        ));
        if let Some(i) = step.iteration {
            s.push_str(&format!("  iteration {i}"));
        }
        if let Some(why) = step.off.get(t.lane).copied().flatten() {
            s.push_str(&format!("  (this pixel: {})", why.describe()));
        } else if step.kill_mask >> t.lane & 1 != 0 {
            s.push_str("  killed");
        }
        s.push('\n');
        if lanes {
            for src in &step.sources {
                let v: Vec<String> = (0..4)
                    .map(|c| {
                        let l = in_image_order(src.values[c]).map(|b| short(b, src.ty));
                        l.join(" ")
                    })
                    .collect();
                s.push_str(&format!("        reads {} = [{}]\n", src.operand, v.join(" | ")));
            }
        } else if step.exec_mask >> t.lane & 1 != 0 {
            for src in &step.sources {
                let v = src.values.map(|c| short(c[t.lane], src.ty));
                s.push_str(&format!(
                    "        reads {} = ({}, {}, {}, {})\n",
                    src.operand, v[0], v[1], v[2], v[3]
                ));
            }
        }
        if let Some(sample) = &step.sample {
            if lanes {
                for (place, l) in in_image_order([0, 1, 2, 3]).iter().enumerate() {
                    let name = PLACES.get(place).unwrap_or(&"?");
                    s.push_str(&format!("        samples {name}: {}\n", sample.describe_lane(*l)));
                }
            } else if step.exec_mask >> t.lane & 1 != 0 {
                s.push_str(&format!("        samples: {}\n", sample.describe_lane(t.lane)));
            }
        }
        for w in &step.writes {
            if lanes {
                let all: Vec<String> =
                    in_image_order(w.bits).iter().map(|&b| value(b, w.ty)).collect();
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
                    value(w.bits[t.lane], w.ty),
                    value(w.before[t.lane], w.ty)
                ));
            }
        }
    }
    if t.truncated {
        s.push_str(&format!(
            "trace truncated at {} steps ({} more were run)\n",
            t.trace.steps.len(),
            t.trace.dropped
        ));
    }
    for o in &t.outputs {
        let sem = o.semantic.as_ref().map_or(String::new(), |(n, i)| format!(" {n}[{i}]"));
        let v: Vec<String> = o.bits.iter().map(|&b| value(b, "float")).collect();
        s.push_str(&format!("{}{} = ({})\n", o.register, sem, v.join(", ")));
    }
    s
}
