//! AGAL (Adobe Stage3D) bytecode: model, encoder/decoder, assembler, disassembler, validator and
//! the TGSI → AGAL export (`agal.md`).
//!
//! ```text
//!  text ──asm::assemble──▶ Program ──codec::encode──▶ bytes ──codec::decode──▶ Program
//!                              │  └──disasm::disassemble──▶ text
//!                              └──validate::validate──▶ findings with Flash error numbers
//! ```

pub mod asm;
pub mod bytecode;
pub mod codec;
pub mod disasm;
pub mod exec;
pub mod flow;
pub mod lower;
pub mod validate;

pub use asm::{assemble, Assembled};
pub use bytecode::*;
pub use codec::{decode, encode, DecodeError};
pub use disasm::disassemble;
pub use flow::validate_link;
pub use validate::{validate, Finding};
