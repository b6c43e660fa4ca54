//! The SIMD quad interpreter: registers of four 128-bit channel vectors (one lane per pixel of
//! a 2x2 quad), execution masks and stacks as tgsi_exec (Mesa's `tgsi_exec.h`/`tgsi_exec.c`).
//!
//! ```text
//! ir::Shader ──compile──▶ Program ──Machine::run(&Program, &mut Batch, &Constants)──▶ outputs
//! ```
//! A [`Batch`] holds N quads in SoA layout; each decoded instruction runs over all of them before
//! the next one (`design.md` "The interpreter"). See `docs/interpreter.md`.

pub mod accel;
mod bindings;
pub mod compile;
pub mod compute;
pub mod direct;
mod dispatch;
mod fast;
pub mod flow;
pub mod frame;
pub mod geometry;
pub mod io;
pub mod kernels;
pub mod lanes;
pub mod lend;
pub mod machine;
pub mod memory;
pub mod ops;
pub mod parallel;
mod prewrite;
pub mod probe;
pub mod program;
pub mod quad;
pub mod regs;
pub mod rows;
mod runs;
mod setup;
pub mod trace;
pub mod work;

pub use accel::{AccelEnv, Accelerator, MakeAccelerator};
pub use compile::{build, compile, compile_with};
pub use compute::dispatch;
pub use frame::{
    FrameBudget, Stop, ACCELERATED_WORK_CAP, STOP_CHECK_INTERVAL, TIME_LIMIT_MIN_WORK,
};
pub use geometry::{run_geometry, GeometryInfo, GeometryOutput};
pub use io::{
    Batch, Coef, Constants, Interpolation, NoTextures, SampleRequest, SystemValues, TextureHooks,
    SAMPLE_BATCH,
};
pub use lanes::Lanes;
pub use machine::{ExecError, Machine, RunStats, DEFAULT_BUDGET};
pub use memory::{EmittedPrimitive, ImageBuffer, ImageFormat, Resources};
pub use parallel::{dispatch_threads, Fewer, Threads, ThreadsUsed};
pub use probe::Probe;
pub use program::Program;
pub use rows::{Rows, RowsMut};
pub use trace::{LaneOff, Trace, TraceSource, TraceStep, TraceWrite};
