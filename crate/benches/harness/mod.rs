//! The benchmarks' own timing loop (`harness = false` targets include it with `#[path]`): a
//! group of named cases, each warmed up, then timed in samples of equal iteration counts, and
//! reported as the median time per iteration with the fastest and slowest sample and, when the
//! group has a throughput, the median rate. It replaces a benchmarking library whose
//! dependencies (a regular-expression engine among them) every `cargo test` and clippy run
//! compiled although only `cargo bench` uses them.
//!
//! `cargo bench -p tgsi --bench NAME [-- FILTER]`: only the cases whose name contains FILTER.

// Each benchmark is its own crate and uses only part of this module.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// What one iteration processes, for the rate column.
#[derive(Clone, Copy)]
pub enum Throughput {
    Bytes(u64),
    Elements(u64),
}

/// A named group of cases sharing sample settings; cases are run as they are added.
pub struct Group {
    name: String,
    filter: Option<String>,
    samples: usize,
    measurement: Duration,
    warm_up: Duration,
    throughput: Option<Throughput>,
}

impl Group {
    /// A group with 10 samples over about 3 s after 0.5 s of warm-up; the filter is the first
    /// command-line argument that is not a flag (`cargo bench` passes `--bench`).
    pub fn new(name: &str) -> Group {
        Group {
            name: name.to_string(),
            filter: std::env::args().skip(1).find(|a| !a.starts_with('-')),
            samples: 10,
            measurement: Duration::from_secs(3),
            warm_up: Duration::from_millis(500),
            throughput: None,
        }
    }

    pub fn sample_size(&mut self, n: usize) -> &mut Group {
        self.samples = n.max(2);
        self
    }

    pub fn measurement_time(&mut self, d: Duration) -> &mut Group {
        self.measurement = d;
        self
    }

    pub fn warm_up_time(&mut self, d: Duration) -> &mut Group {
        self.warm_up = d;
        self
    }

    pub fn throughput(&mut self, t: Throughput) -> &mut Group {
        self.throughput = Some(t);
        self
    }

    /// Times `f` (one iteration per call) and prints one line; skipped when the filter does not
    /// match `group/case`.
    pub fn bench<R>(&mut self, case: &str, mut f: impl FnMut() -> R) {
        let full = format!("{}/{}", self.name, case);
        if self.filter.as_ref().is_some_and(|want| !full.contains(want.as_str())) {
            return;
        }
        // Warm-up: also how long one iteration takes, to size the samples.
        let started = Instant::now();
        let mut runs = 0u64;
        while runs == 0 || started.elapsed() < self.warm_up {
            std::hint::black_box(f());
            runs += 1;
        }
        let per_iteration = started.elapsed().as_secs_f64() / runs as f64;
        let budget = self.measurement.as_secs_f64() / self.samples as f64;
        let iterations = ((budget / per_iteration.max(1e-9)) as u64).max(1);
        let mut seconds: Vec<f64> = (0..self.samples)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..iterations {
                    std::hint::black_box(f());
                }
                t.elapsed().as_secs_f64() / iterations as f64
            })
            .collect();
        seconds.sort_by(f64::total_cmp);
        let median = seconds[seconds.len() / 2];
        let rate = match self.throughput {
            Some(Throughput::Elements(n)) => format!("  {}", per_second(n as f64 / median, "elem")),
            Some(Throughput::Bytes(n)) => format!("  {}", per_second(n as f64 / median, "B")),
            None => String::new(),
        };
        println!(
            "{full:<40} {} [{} … {}]{rate}  ({} samples × {iterations})",
            duration(median),
            duration(seconds[0]),
            duration(seconds[seconds.len() - 1]),
            seconds.len(),
        );
    }
}

/// A time with a unit that keeps three or four significant digits.
fn duration(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.3} µs", s * 1e6)
    } else {
        format!("{:.1} ns", s * 1e9)
    }
}

/// A rate with a decimal prefix.
fn per_second(r: f64, unit: &str) -> String {
    match r {
        r if r >= 1e9 => format!("{:.3} G{unit}/s", r / 1e9),
        r if r >= 1e6 => format!("{:.3} M{unit}/s", r / 1e6),
        r if r >= 1e3 => format!("{:.3} K{unit}/s", r / 1e3),
        r => format!("{r:.1} {unit}/s"),
    }
}
