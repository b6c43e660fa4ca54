//! The shader model (IR) shared by every stage: parser, printer, validator, interpreter, AGAL.

pub mod names;
pub mod operand;
pub mod shader;
pub mod span;

pub use names::*;
pub use operand::*;
pub use shader::*;
pub use span::{LineIndex, Span};
