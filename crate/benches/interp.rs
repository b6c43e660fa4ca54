//! Interpreter benchmark (Criterion). Filled in by the interpreter work.
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    c.bench_function("version", |b| b.iter(tgsi::version));
}

criterion_group!(benches, bench);
criterion_main!(benches);
