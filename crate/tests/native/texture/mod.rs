mod batched;
mod case_files;
mod cases;
mod desc;
mod opcodes;
mod pipeline;
mod sampling;
