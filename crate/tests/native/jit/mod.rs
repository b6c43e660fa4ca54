//! The compiling tier (`src/jit/`, docs/jit.md): generated modules are valid WebAssembly, and
//! running a program through them gives, bit for bit, what the interpreter gives — outputs,
//! kill masks and the work (the budget's count, quad-instructions) — on the corpus, on opcodes with special values and on
//! seeded random programs with flow control; budget exhaustion gives the interpreter's
//! diagnostic at the same budget.
//!
//! The interpreter is the reference (it is conformance-tested against softpipe). One allowance,
//! the same as `exec::fast_vs_general`: where both results are NaN, sign and payload may differ
//! (which NaN an operation returns depends on operand order, which LLVM may commute).

mod cli;
mod colours;
mod constants;
mod differential;
mod flow;
mod flushing;
mod pairs;
mod random;
mod staging;
mod stop;
mod validate;
