//! Operands of instructions: registers, indirect addressing, swizzles and write masks.

use super::names::File;
use super::span::Span;
use serde::Serialize;

/// A set of channels x, y, z, w as bits 0..3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct WriteMask(pub u8);

impl WriteMask {
    pub const XYZW: WriteMask = WriteMask(0xF);
    pub const NONE: WriteMask = WriteMask(0);
    pub fn has(self, channel: usize) -> bool {
        self.0 & (1 << channel) != 0
    }
    pub fn is_full(self) -> bool {
        self.0 & 0xF == 0xF
    }
    /// `.xz` style suffix; empty for a full mask.
    pub fn suffix(self) -> String {
        if self.is_full() {
            return String::new();
        }
        let mut s = String::from(".");
        for c in 0..4 {
            if self.has(c) {
                s.push(CHANNEL_NAMES[c]);
            }
        }
        s
    }
}

impl Default for WriteMask {
    fn default() -> Self {
        WriteMask::XYZW
    }
}

/// Lower-case channel letters in order.
pub const CHANNEL_NAMES: [char; 4] = ['x', 'y', 'z', 'w'];

/// Which source channel feeds each of the four result channels (0 = x … 3 = w).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Swizzle(pub [u8; 4]);

impl Swizzle {
    pub const IDENTITY: Swizzle = Swizzle([0, 1, 2, 3]);
    pub fn is_identity(self) -> bool {
        self == Swizzle::IDENTITY
    }
    pub fn letters(self) -> String {
        self.0.iter().map(|&c| CHANNEL_NAMES[c as usize & 3]).collect()
    }
}

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::IDENTITY
    }
}

/// `ADDR[1].y` inside an index: the register whose per-lane integer value is added to the offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct IndirectAddr {
    /// Normally `Addr`; Mesa's parser accepts any file name here (the validator checks it).
    pub file: File,
    pub index: u32,
    /// Channel 0..3 read from the address register (default x).
    pub component: u8,
    pub span: Span,
}

/// One bracket of a register reference: `[5]`, `[ADDR[0].x+3]`, `[ADDR[0].x-1](2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Bracket {
    /// The constant part: the direct index, or the offset added to the indirect address.
    pub offset: i64,
    pub indirect: Option<IndirectAddr>,
    /// The `(n)` array id that may follow the bracket; 0 when absent.
    pub array_id: u32,
    pub span: Span,
}

impl Bracket {
    pub fn direct(index: i64) -> Bracket {
        Bracket { offset: index, indirect: None, array_id: 0, span: Span::default() }
    }
}

/// A register reference `FILE[index]` or `FILE[dimension][index]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RegRef {
    pub file: File,
    /// The first of two brackets: constant buffer number, GS input vertex, …
    pub dimension: Option<Bracket>,
    pub index: Bracket,
    pub span: Span,
}

/// A destination operand: register and write mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DstOperand {
    pub reg: RegRef,
    pub write_mask: WriteMask,
    pub span: Span,
}

/// A source operand: optional negate and absolute value around a swizzled register.
/// Absolute value is applied first, then negation (`-|x|`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SrcOperand {
    pub reg: RegRef,
    pub swizzle: Swizzle,
    pub negate: bool,
    pub absolute: bool,
    pub span: Span,
}

/// A texel offset operand `IMM[0].xyz` of a texture instruction (swizzle of three channels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TexOffset {
    pub reg: RegRef,
    pub swizzle: [u8; 3],
    pub span: Span,
}
