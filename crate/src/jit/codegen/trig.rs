//! SIN and COS in the module: the interpreter's formula (`exec/ops/trig.rs`, [`reduce`], then
//! [`crate::exec::ops::trig::from_reduced`]'s steps) run on `f64x2` locals, two lanes of the
//! quad in each, instead of a host call per quad; its constants are read from the module's
//! constant table. A quad with a lane the formula does not take (magnitude 120 or more, NaN)
//! calls the lane import, the interpreter's whole function, instead.

use super::alu::lane_bytes;
use super::*;
use crate::exec::ops::trig::{cosine_poly, finish, reduce, sine_poly, Arith64, REDUCED_BELOW};

/// [`Arith64`] on the module's locals: each value is two `f64x2` locals (lanes 0–1 and 2–3).
struct Emit<'a, 'p> {
    g: &'a mut Gen<'p>,
}

type Pair = [u32; 2];

fn splat_u64(v: u64) -> I<'static> {
    I::V128Const(((v as u128) << 64 | v as u128) as i128)
}

impl Emit<'_, '_> {
    fn set(&mut self) -> u32 {
        let l = self.g.local();
        self.g.e(I::LocalSet(l));
        l
    }
    /// `op` on each half of `args`.
    fn each(&mut self, args: &[Pair], op: impl Fn(&mut Gen) + Copy) -> Pair {
        [0, 1].map(|h| {
            for a in args {
                self.g.e(I::LocalGet(a[h]));
            }
            op(self.g);
            self.set()
        })
    }
}

impl Arith64 for Emit<'_, '_> {
    type V = Pair;
    fn constant(&mut self, c: f64) -> Pair {
        let b = c.to_bits() as u128;
        self.g.load_constant(b << 64 | b);
        let l = self.set();
        [l, l]
    }
    fn add(&mut self, a: Pair, b: Pair) -> Pair {
        self.each(&[a, b], |g| g.e(I::F64x2Add))
    }
    fn sub(&mut self, a: Pair, b: Pair) -> Pair {
        self.each(&[a, b], |g| g.e(I::F64x2Sub))
    }
    fn mul(&mut self, a: Pair, b: Pair) -> Pair {
        self.each(&[a, b], |g| g.e(I::F64x2Mul))
    }
    fn trunc(&mut self, a: Pair) -> Pair {
        self.each(&[a], |g| g.e(I::F64x2Trunc))
    }
    fn floor(&mut self, a: Pair) -> Pair {
        self.each(&[a], |g| g.e(I::F64x2Floor))
    }
    fn and_bits(&mut self, a: Pair, m: u64) -> Pair {
        self.each(&[a], move |g| {
            g.e(splat_u64(m));
            g.e(I::V128And);
        })
    }
    fn shl_bits(&mut self, a: Pair, s: u32) -> Pair {
        self.each(&[a], move |g| {
            g.e(I::I32Const(s as i32));
            g.e(I::I64x2Shl);
        })
    }
    fn xor_bits(&mut self, a: Pair, b: Pair) -> Pair {
        self.each(&[a, b], |g| g.e(I::V128Xor))
    }
    fn select_nonzero(&mut self, m: Pair, a: Pair, b: Pair) -> Pair {
        self.each(&[a, b, m], |g| {
            g.e(splat_u64(0));
            g.e(I::I64x2Ne);
            g.e(I::V128Bitselect);
        })
    }
    fn select_zero(&mut self, x: Pair, a: Pair, b: Pair) -> Pair {
        self.each(&[a, b, x], |g| {
            g.e(splat_u64(0));
            g.e(I::F64x2Eq);
            g.e(I::V128Bitselect);
        })
    }
}

impl Gen<'_> {
    /// [`crate::exec::ops::trig::from_reduced`] of the two `f64x2` locals `x`, computing only the
    /// polynomial the quadrants ask for when all four lanes ask for the same one (neighbouring
    /// pixels mostly do): the select of the general case picks the same value either way.
    fn sin_cos_inline(&mut self, x: Pair, cos: bool) -> Pair {
        let red = reduce(&mut Emit { g: self }, x, cos);
        let v = [self.local(), self.local()];
        let store = |g: &mut Self, p: Pair| {
            for h in 0..2 {
                g.e(I::LocalGet(p[h]));
                g.e(I::LocalSet(v[h]));
            }
        };
        // Any lane odd (cosine polynomial)?
        self.e(I::LocalGet(red.odd[0]));
        self.e(I::LocalGet(red.odd[1]));
        self.e(I::V128Or);
        self.e(I::V128AnyTrue);
        self.e(I::If(BlockType::Empty));
        // Every lane odd? (`odd` is 0 or 1 in each 64-bit lane.)
        self.e(I::LocalGet(red.odd[0]));
        self.e(I::LocalGet(red.odd[1]));
        self.e(I::V128And);
        self.e(I::I64x2AllTrue);
        self.e(I::If(BlockType::Empty));
        let c = cosine_poly(&mut Emit { g: self }, &red);
        store(self, c);
        self.e(I::Else);
        let mut em = Emit { g: self };
        let s = sine_poly(&mut em, &red);
        let c = cosine_poly(&mut em, &red);
        let both = em.select_nonzero(red.odd, c, s);
        store(self, both);
        self.e(I::End);
        self.e(I::Else);
        let s = sine_poly(&mut Emit { g: self }, &red);
        store(self, s);
        self.e(I::End);
        finish(&mut Emit { g: self }, x, &red, v, cos)
    }

    /// Pushes SIN (or COS, `w`) of each lane of local `a`.
    pub(super) fn sin_cos(&mut self, w: Which, a: u32) {
        self.e(I::LocalGet(a));
        self.e(I::F32x4Abs);
        self.e(splat_u32(REDUCED_BELOW.to_bits()));
        self.e(I::F32x4Lt);
        self.e(I::I32x4AllTrue);
        self.e(I::If(BlockType::Result(ValType::V128)));
        let mut x = [0; 2];
        for (h, x) in x.iter_mut().enumerate() {
            self.e(I::LocalGet(a));
            if h == 1 {
                self.e(I::LocalGet(a));
                self.e(I::I8x16Shuffle(lane_bytes([2, 3, 2, 3])));
            }
            self.e(I::F64x2PromoteLowF32x4);
            *x = self.local();
            self.e(I::LocalSet(*x));
        }
        let r = self.sin_cos_inline(x, w == Which::Cos);
        self.e(I::LocalGet(r[0]));
        self.e(I::F32x4DemoteF64x2Zero);
        self.e(I::LocalGet(r[1]));
        self.e(I::F32x4DemoteF64x2Zero);
        self.e(I::I8x16Shuffle(lane_bytes([0, 1, 4, 5])));
        self.e(I::Else);
        self.lane_call(w, &[a]);
        self.e(I::End);
    }
}
