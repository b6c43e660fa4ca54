mod corpus;
mod diagnostics;
mod fuzz;
mod logs;
mod opcodes;
