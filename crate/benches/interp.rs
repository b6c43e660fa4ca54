//! Interpreter benchmark: the interpreter alone on softpipe corpus shaders and on a
//! straight-line arithmetic kernel, reported as pixel-instructions per second (throughput
//! "elements" = executed instructions × pixels). Run: `cargo bench -p tgsi --bench interp`.
#[path = "harness/mod.rs"]
mod harness;

use harness::{Group, Throughput};
use std::time::Duration;
use tgsi::exec::{build, Batch, Constants, Machine, Program};

#[macro_use]
#[path = "../tests/native/corpus.rs"]
mod corpus;
#[path = "../tests/native/exec_support/mod.rs"]
mod exec_support;

const CORPUS: &str = corpus!("/softpipe");

fn load(name: &str) -> Option<Program> {
    let text = std::fs::read_to_string(format!("{}/{}.tgsi", CORPUS, name)).ok()?;
    build(&exec_support::build(&text)).ok()
}

/// A 64x64 image as 64 batches of 16 quads (8x8 pixel tiles), inputs filled once.
struct Image {
    batches: Vec<Batch>,
}

fn image(p: &Program, quads_per_batch: usize) -> Image {
    let total_quads = 32 * 32;
    let mut batches = Vec::new();
    for b in 0..total_quads / quads_per_batch {
        let mut batch = Batch::new(p, quads_per_batch);
        for q in 0..quads_per_batch {
            let qi = b * quads_per_batch + q;
            let (x0, y0) = ((qi % 32) * 2, (qi / 32) * 2);
            for r in 0..p.input_count() as usize {
                let v = [0, 1, 2, 3].map(|l| {
                    let (x, y) = (x0 + (l & 1), y0 + (l >> 1));
                    [(x as f32 + 0.5) / 64.0, (y as f32 + 0.5) / 64.0, 0.5, 1.0]
                });
                batch.set_input_f32(r, q, v);
            }
        }
        batches.push(batch);
    }
    Image { batches }
}

/// Pixel-instructions executed for one image (dispatches × 4 lanes × quads).
fn work(p: &Program, img: &mut Image, consts: &Constants) -> u64 {
    let mut m = Machine::new();
    img.batches
        .iter_mut()
        .map(|b| m.run(p, b, consts).map_or(0, |s| s.instructions * 4 * s.quads))
        .sum()
}

/// 64 single-channel instructions (the shape Mesa's compiler mostly emits: one channel each).
fn straight_line_x() -> Program {
    let mut text = String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..3]\nIMM[0] FLT32 {0.5, 1.25, -0.75, 2.0}\nMOV TEMP[0], IN[0]\n");
    for i in 0..64 {
        let line = match i % 4 {
            0 => "MAD TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n",
            1 => "MUL TEMP[2].x, TEMP[1].xxxx, TEMP[0].yyyy\n",
            2 => "ADD TEMP[3].x, TEMP[2].xxxx, -IMM[0].zzzz\n",
            _ => "MAX TEMP[0].x, TEMP[3].xxxx, IMM[0].zzzz\n",
        };
        text.push_str(line);
    }
    text.push_str("MOV OUT[0], TEMP[0]\nEND\n");
    build(&exec_support::build(&text)).expect("kernel compiles")
}

fn straight_line() -> Program {
    let mut text = String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..3]\nIMM[0] FLT32 {0.5, 1.25, -0.75, 2.0}\nMOV TEMP[0], IN[0]\n");
    for i in 0..64 {
        let line = match i % 4 {
            0 => "MAD TEMP[1], TEMP[0], IMM[0], IMM[0].yzwx\n",
            1 => "MUL TEMP[2], TEMP[1], TEMP[0].yzwx\n",
            2 => "ADD TEMP[0], TEMP[2], -IMM[0].zwxy\n",
            _ => "MAX TEMP[0], TEMP[0], IMM[0].zzzz\n",
        };
        text.push_str(line);
    }
    text.push_str("MOV OUT[0], TEMP[0]\nEND\n");
    build(&exec_support::build(&text)).expect("kernel compiles")
}

/// CPU seconds used by this thread so far (utime + stime from /proc; Linux only). The machine
/// the numbers in docs/interpreter.md come from is shared, so wall time undercounts a core.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Pixel-instructions per CPU-second over about `secs` of CPU time.
fn per_cpu_second(p: &Program, quads: usize, secs: f64) -> Option<f64> {
    let consts = Constants::default();
    let mut img = image(p, quads);
    let start = thread_cpu_seconds()?;
    let mut done = 0u64;
    loop {
        done += work(p, &mut img, &consts);
        let t = thread_cpu_seconds()? - start;
        if t >= secs {
            return Some(done as f64 / t);
        }
    }
}

fn main() {
    if let Some(filter) = std::env::var_os("TGSI_BENCH_CPU") {
        let filter = filter.to_string_lossy().into_owned();
        let mut cases: Vec<(String, Program)> = vec![
            ("straight_line_64".into(), straight_line()),
            ("straight_line_64_x".into(), straight_line_x()),
        ];
        for name in ["01_arith", "03_trig", "09_for_loop", "26_mandelbrot", "28_matrix"] {
            if let Some(p) = load(name) {
                cases.push((name.into(), p));
            }
        }
        if filter == "1" || filter == "calibration" {
            // Calibration: the bare memory work of one 4-channel ADD over a batch of 64 quads
            // (compute pass + store pass per channel), with no interpreter around it.
            {
                use tgsi::exec::lanes::{fmap2, Lanes};
                let nq = 64;
                let (a, b) = (vec![Lanes::splat_f(1.0); nq * 4], vec![Lanes::splat_f(2.0); nq * 4]);
                let (mut r, mut d) = (vec![Lanes::ZERO; nq], vec![Lanes::ZERO; nq * 4]);
                if let Some(start) = thread_cpu_seconds() {
                    let mut n = 0u64;
                    loop {
                        for _ in 0..10_000 {
                            for c in 0..4 {
                                fmap2(
                                    &mut r,
                                    &a[c * nq..c * nq + nq],
                                    &b[c * nq..c * nq + nq],
                                    |x, y| x + y,
                                );
                                d[c * nq..c * nq + nq].copy_from_slice(&r);
                            }
                            n += (nq * 4) as u64;
                            std::hint::black_box(&mut d);
                        }
                        let t = thread_cpu_seconds().unwrap_or(start) - start;
                        if t >= 2.0 {
                            println!("cpu-time calibration (bare 4-channel add+store, no dispatch): {:.0} M pixel-instructions per CPU-second", n as f64 / t / 1e6);
                            break;
                        }
                    }
                }
            }
        }
        for quads in [16usize, 64] {
            for (name, p) in
                cases.iter().filter(|(n, _)| filter == "1" || n.contains(filter.as_str()))
            {
                if let Some(r) = per_cpu_second(p, quads, 2.0) {
                    println!(
                        "cpu-time {}/batch{}: {:.0} M pixel-instructions per CPU-second",
                        name,
                        quads,
                        r / 1e6
                    );
                }
            }
        }
        return;
    }
    let consts = Constants::default();
    let mut group = Group::new("interp");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let mut cases: Vec<(String, Program)> = vec![
        ("straight_line_64".into(), straight_line()),
        ("straight_line_64_x".into(), straight_line_x()),
    ];
    for name in ["01_arith", "03_trig", "09_for_loop", "26_mandelbrot", "28_matrix"] {
        if let Some(p) = load(name) {
            cases.push((name.into(), p));
        }
    }
    for quads in [16usize, 64] {
        for (name, p) in &cases {
            let mut img = image(p, quads);
            let per_image = work(p, &mut img, &consts);
            group.throughput(Throughput::Elements(per_image));
            group.bench(&format!("{}/batch{}", name, quads), || work(p, &mut img, &consts));
        }
    }
}
