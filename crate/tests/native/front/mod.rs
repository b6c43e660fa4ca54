mod corpus;
mod decimal;
mod diagnostics;
mod fuzz;
mod logs;
mod opcodes;
