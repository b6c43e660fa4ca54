//! Interpreter benchmark (Criterion): the interpreter alone on softpipe corpus shaders and on a
//! straight-line arithmetic kernel, reported as pixel-instructions per second (throughput
//! "elements" = executed instructions × pixels). Run: `cargo bench -p tgsi --bench interp`.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tgsi::exec::{compile, Batch, Constants, Machine, Program};

#[path = "../tests/exec_support/mod.rs"]
#[allow(dead_code)]
mod exec_support;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/softpipe");

fn load(name: &str) -> Option<Program> {
    let text = std::fs::read_to_string(format!("{}/{}.tgsi", CORPUS, name)).ok()?;
    compile(&exec_support::build(&text)).ok()
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
    img.batches.iter_mut().map(|b| m.run(p, b, consts).map_or(0, |s| s.instructions * 4 * s.quads)).sum()
}

fn straight_line() -> Program {
    let mut text = String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..3]\nIMM FLT32 {0.5, 1.25, -0.75, 2.0}\nMOV TEMP[0], IN[0]\n");
    for i in 0..64 {
        let line = match i % 4 {
            0 => "MAD TEMP[1], TEMP[0], IMM[0], IMM[1]\n",
            1 => "MUL TEMP[2], TEMP[1], TEMP[0].yzwx\n",
            2 => "ADD TEMP[0], TEMP[2], -IMM[2]\n",
            _ => "MAX TEMP[0], TEMP[0], IMM[2].xxxx\n",
        };
        text.push_str(line);
    }
    text.push_str("MOV OUT[0], TEMP[0]\nEND\n");
    compile(&exec_support::build(&text)).expect("kernel compiles")
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

fn bench(c: &mut Criterion) {
    if std::env::var_os("TGSI_BENCH_CPU").is_some() {
        let mut cases: Vec<(String, Program)> = vec![("straight_line_64".into(), straight_line())];
        for name in ["01_arith", "03_trig", "09_for_loop", "26_mandelbrot", "28_matrix"] {
            if let Some(p) = load(name) {
                cases.push((name.into(), p));
            }
        }
        for quads in [16usize, 64] {
            for (name, p) in &cases {
                if let Some(r) = per_cpu_second(p, quads, 2.0) {
                    println!("cpu-time {}/batch{}: {:.0} M pixel-instructions per CPU-second", name, quads, r / 1e6);
                }
            }
        }
        return;
    }
    let consts = Constants::default();
    let mut group = c.benchmark_group("interp");
    group.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
    let mut cases: Vec<(String, Program)> = vec![("straight_line_64".into(), straight_line())];
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
            group.bench_function(format!("{}/batch{}", name, quads), |b| b.iter(|| work(p, &mut img, &consts)));
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
