//! Every native integration test in one binary (one link of the crate instead of one per file),
//! one module per stage: `cargo test -p tgsi --test native <stage>::<topic>`, e.g.
//! `cargo test -p tgsi --test native exec::flow` or `--test native conformance`.
//! Browser tests are the other binary, `crate/tests/web/`.
#![cfg(not(target_arch = "wasm32"))]

#[macro_use]
mod corpus;

mod agal_common;
mod exec_support;
mod rng;
mod scratch;
mod support;
mod valid_support;

mod agal;
mod cli;
mod compute;
mod conformance;
mod denormals;
mod diff;
mod doubles;
mod exec;
mod front;
mod fuzz_smoke;
mod geometry;
mod int64s;
mod jit;
mod layering;
mod limits;
mod reference;
mod render;
mod resource;
mod snapshots;
mod texture;
mod valid;
