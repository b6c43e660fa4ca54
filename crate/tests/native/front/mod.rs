mod corpus;
mod diagnostics;
mod fuzz;
mod opcodes;
