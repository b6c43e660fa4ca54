//! Double-precision (`tgsi.rst` "Double ISA"), 64-bit integer and pack/unpack opcodes. A double
//! or 64-bit value lives in a channel pair, low word first (xy = value 0, zw = value 1).
use crate::exec_support::*;

fn d2(a: f64, b: f64) -> [u32; 4] {
    let (x, y) = (a.to_bits(), b.to_bits());
    [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32]
}
fn u2(a: u64, b: u64) -> [u32; 4] {
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}
fn as_d(r: [u32; 4]) -> (f64, f64) {
    (
        f64::from_bits(r[0] as u64 | (r[1] as u64) << 32),
        f64::from_bits(r[2] as u64 | (r[3] as u64) << 32),
    )
}
fn as_u(r: [u32; 4]) -> (u64, u64) {
    (r[0] as u64 | (r[1] as u64) << 32, r[2] as u64 | (r[3] as u64) << 32)
}

#[test]
fn double_arithmetic() {
    let (a, b) = (d2(1.5, -2.0), d2(0.25, 3.0));
    assert_eq!(as_d(op_bits("DADD", &[a, b])), (1.75, 1.0));
    assert_eq!(as_d(op_bits("DMUL", &[a, b])), (0.375, -6.0));
    assert_eq!(as_d(op_bits("DDIV", &[a, b])), (6.0, -2.0 / 3.0));
    assert_eq!(as_d(op_bits("DMIN", &[a, b])), (0.25, -2.0));
    assert_eq!(as_d(op_bits("DMAX", &[a, b])), (1.5, 3.0));
    assert_eq!(as_d(op_bits("DABS", &[a])), (1.5, 2.0));
    // DABS is `d >= 0 ? d : -d` (tgsi_exec): −0 stays −0.
    assert_eq!(as_d(op_bits("DABS", &[d2(-0.0, -0.5)])).0.to_bits(), (-0.0f64).to_bits());
    // glibc fmin/fmax (tgsi_exec's DMIN/DMAX): equal zeros give the second operand; NaN is ignored.
    let (m0, m1) = as_d(op_bits("DMIN", &[d2(0.0, f64::NAN), d2(-0.0, 4.0)]));
    assert_eq!((m0.to_bits(), m1), ((-0.0f64).to_bits(), 4.0));
    let (m0, m1) = as_d(op_bits("DMAX", &[d2(-0.0, 4.0), d2(0.0, f64::NAN)]));
    assert_eq!((m0.to_bits(), m1), (0.0f64.to_bits(), 4.0));
    assert_eq!(as_d(op_bits("DNEG", &[a])), (-1.5, 2.0));
    assert_eq!(as_d(op_bits("DRCP", &[d2(4.0, 0.0)])), (0.25, f64::INFINITY));
    assert_eq!(as_d(op_bits("DSQRT", &[d2(2.0, 9.0)])), (2f64.sqrt(), 3.0));
    assert_eq!(as_d(op_bits("DRSQ", &[d2(4.0, 16.0)])), (0.5, 0.25));
    // DMAD is a·b + c with two roundings; DFMA one.
    let x = 1.0 + 2f64.powi(-30);
    let c = -(1.0 + 2f64.powi(-29));
    assert_eq!(as_d(op_bits("DMAD", &[d2(x, 1.0), d2(x, 1.0), d2(c, 1.0)])).0, x * x + c);
    assert_eq!(as_d(op_bits("DFMA", &[d2(x, 1.0), d2(x, 1.0), d2(c, 1.0)])).0, 2f64.powi(-60));
}

#[test]
fn double_rounding_and_sign() {
    let v = d2(-2.5, 3.5);
    assert_eq!(as_d(op_bits("DFLR", &[v])), (-3.0, 3.0));
    assert_eq!(as_d(op_bits("DCEIL", &[v])), (-2.0, 4.0));
    assert_eq!(as_d(op_bits("DTRUNC", &[v])), (-2.0, 3.0));
    assert_eq!(as_d(op_bits("DROUND", &[v])), (-2.0, 4.0));
    assert_eq!(as_d(op_bits("DFRAC", &[v])), (0.5, 0.5));
    assert_eq!(as_d(op_bits("DSSG", &[d2(-0.0, -7.0)])), (0.0, -1.0));
    assert_eq!(as_d(op_bits("DLDEXP", &[d2(1.5, 1.0), [3, 0, (-2i32) as u32, 0]])), (12.0, 0.25));
}

#[test]
fn double_comparisons_write_x_and_z() {
    let m = u32::MAX;
    assert_eq!(op_bits("DSLT", &[d2(1.0, 5.0), d2(2.0, 5.0)]), [m, 0, 0, 0]);
    assert_eq!(op_bits("DSGE", &[d2(1.0, 5.0), d2(2.0, 5.0)]), [0, 0, m, 0]);
    assert_eq!(op_bits("DSEQ", &[d2(1.0, f64::NAN), d2(1.0, f64::NAN)]), [m, 0, 0, 0]);
    assert_eq!(op_bits("DSNE", &[d2(1.0, f64::NAN), d2(1.0, f64::NAN)]), [0, 0, m, 0]);
}

#[test]
fn double_conversions() {
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    assert_eq!(as_d(op_bits("F2D", &[f([1.5, -0.25, 9.0, 9.0])])), (1.5, -0.25));
    let r = op_bits("D2F", &[d2(1.0 + 2f64.powi(-40), -3.0)]);
    assert_eq!([f32::from_bits(r[0]), f32::from_bits(r[1])], [1.0, -3.0]);
    assert_eq!(as_d(op_bits("I2D", &[[(-7i32) as u32, 7, 0, 0]])), (-7.0, 7.0));
    assert_eq!(as_d(op_bits("U2D", &[[u32::MAX, 7, 0, 0]])), (4294967295.0, 7.0));
    assert_eq!(op_bits("D2I", &[d2(-7.9, 1e20)])[..2], [(-7i32) as u32, i32::MAX as u32]);
    assert_eq!(op_bits("D2U", &[d2(7.9, -1.0)])[..2], [7, 0]);
}

#[test]
fn double_negate_modifier_flips_the_high_word() {
    let text = "FRAG\nDCL IN[0..1]\nDCL OUT[0]\nDADD OUT[0], -IN[0], IN[1]\nEND";
    let r = eval_bits(text, &[d2(1.5, -2.0), d2(0.5, 0.5)]);
    assert_eq!(as_d(r), (-1.0, 2.5));
}

#[test]
fn int64_arithmetic_and_division_by_zero() {
    let (a, b) = (u2(u64::MAX, 10), u2(1, 3));
    assert_eq!(as_u(op_bits("U64ADD", &[a, b])), (0, 13));
    // 2^40 · 2^30 = 2^70 ≡ 0 mod 2^64.
    assert_eq!(as_u(op_bits("U64MUL", &[u2(1 << 40, 3), u2(1 << 30, 5)])), (0, 15));
    assert_eq!(as_u(op_bits("U64DIV", &[u2(100, 7), u2(7, 0)])), (14, u64::MAX));
    assert_eq!(as_u(op_bits("U64MOD", &[u2(100, 7), u2(7, 0)])), (2, u64::MAX));
    let n = |v: i64| v as u64;
    assert_eq!(
        as_u(op_bits("I64DIV", &[u2(n(-100), n(i64::MIN)), u2(7, n(-1))])),
        (n(-14), n(i64::MIN))
    );
    assert_eq!(as_u(op_bits("I64DIV", &[u2(5, 5), u2(0, 0)])), (0, 0));
    assert_eq!(as_u(op_bits("I64MOD", &[u2(n(-100), 5), u2(7, 0)])), (n(-2), u64::MAX));
    assert_eq!(as_u(op_bits("I64ABS", &[u2(n(-5), n(i64::MIN))])), (5, n(i64::MIN)));
    assert_eq!(as_u(op_bits("I64NEG", &[u2(5, 0)])), (n(-5), 0));
    assert_eq!(as_u(op_bits("I64SSG", &[u2(n(-5), 0)])), (n(-1), 0));
    assert_eq!(as_u(op_bits("I64MIN", &[u2(n(-5), 3), u2(2, 4)])), (n(-5), 3));
    assert_eq!(as_u(op_bits("U64MIN", &[u2(n(-5), 3), u2(2, 4)])), (2, 3));
    assert_eq!(as_u(op_bits("I64MAX", &[u2(n(-5), 3), u2(2, 4)])), (2, 4));
    assert_eq!(as_u(op_bits("U64MAX", &[u2(n(-5), 3), u2(2, 4)])), (n(-5), 4));
}

#[test]
fn int64_shifts_mask_to_six_bits_and_use_x_then_y() {
    assert_eq!(as_u(op_bits("U64SHL", &[u2(1, 1), [63, 64, 0, 0]])), (1 << 63, 1));
    assert_eq!(as_u(op_bits("U64SHR", &[u2(1 << 63, 1 << 63), [63, 65, 0, 0]])), (1, 1 << 62));
    assert_eq!(
        as_u(op_bits("I64SHR", &[u2(1 << 63, 1 << 63), [63, 1, 0, 0]])),
        (u64::MAX, 0xC000_0000_0000_0000)
    );
}

#[test]
fn int64_comparisons_and_conversions() {
    let m = u32::MAX;
    let n = |v: i64| v as u64;
    assert_eq!(op_bits("I64SLT", &[u2(n(-1), 1), u2(0, 1)]), [m, 0, 0, 0]);
    assert_eq!(op_bits("U64SLT", &[u2(n(-1), 1), u2(0, 2)]), [0, 0, m, 0]);
    assert_eq!(op_bits("U64SEQ", &[u2(5, 6), u2(5, 7)]), [m, 0, 0, 0]);
    assert_eq!(op_bits("U64SNE", &[u2(5, 6), u2(5, 7)]), [0, 0, m, 0]);
    assert_eq!(op_bits("I64SGE", &[u2(5, n(-6)), u2(5, 7)]), [m, 0, 0, 0]);
    assert_eq!(op_bits("U64SGE", &[u2(4, n(-6)), u2(5, 7)]), [0, 0, m, 0]);
    assert_eq!(as_u(op_bits("I2I64", &[[(-2i32) as u32, 2, 0, 0]])), (n(-2), 2));
    assert_eq!(as_u(op_bits("U2I64", &[[u32::MAX, 2, 0, 0]])), (u32::MAX as u64, 2));
    assert_eq!(
        as_u(op_bits("F2I64", &[[(-3.5f32).to_bits(), 1e19f32.to_bits(), 0, 0]])),
        (n(-3), n(i64::MAX))
    );
    assert_eq!(
        as_u(op_bits("F2U64", &[[(-3.5f32).to_bits(), 1e19f32.to_bits(), 0, 0]])),
        (0, 1e19f32 as u64)
    );
    let r = op_bits("U642F", &[u2(1 << 40, 3)]);
    assert_eq!([f32::from_bits(r[0]), f32::from_bits(r[1])], [2f32.powi(40), 3.0]);
    let r = op_bits("I642F", &[u2(n(-8), 3)]);
    assert_eq!([f32::from_bits(r[0]), f32::from_bits(r[1])], [-8.0, 3.0]);
    assert_eq!(as_d(op_bits("I642D", &[u2(n(-8), 3)])), (-8.0, 3.0));
    assert_eq!(as_d(op_bits("U642D", &[u2(u64::MAX, 3)])), (18446744073709551615.0, 3.0));
    assert_eq!(as_u(op_bits("D2I64", &[d2(-8.7, 1e30)])), (n(-8), n(i64::MAX)));
    assert_eq!(as_u(op_bits("D2U64", &[d2(8.7, -1.0)])), (8, 0));
}

#[test]
fn pack_formulas() {
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    // PK2H: f16(x) | f16(y) << 16. 1.0 = 0x3C00, -2.0 = 0xC000, 65520 rounds to inf 0x7C00.
    assert_eq!(op_bits("PK2H", &[f([1.0, -2.0, 0.0, 0.0])]), [0xC000_3C00; 4]);
    assert_eq!(op_bits("PK2H", &[f([65520.0, 2f32.powi(-24), 0.0, 0.0])]), [0x0001_7C00; 4]);
    // PK2US: round(clamp(x,0,1)·65535)
    assert_eq!(op_bits("PK2US", &[f([0.5, 2.0, 0.0, 0.0])]), [(0xFFFF << 16) | 32768; 4]);
    // PK4B: round(clamp(x,-1,1)·127) as bytes
    assert_eq!(op_bits("PK4B", &[f([1.0, -1.0, 0.5, -3.0])]), [0x81_40_81_7F; 4]);
    // PK4UB: round(clamp(x,0,1)·255)
    assert_eq!(op_bits("PK4UB", &[f([1.0, 0.0, 0.5, -3.0])]), [0x00_80_00_FF; 4]);
}

#[test]
fn unpack_formulas() {
    let r = op_bits("UP2H", &[[0xC000_3C00, 0, 0, 0]]).map(f32::from_bits);
    assert_eq!(r, [1.0, -2.0, 1.0, -2.0]);
    let r = op_bits("UP2H", &[[0x7C00_0001, 0, 0, 0]]).map(f32::from_bits);
    assert_eq!(r, [2f32.powi(-24), f32::INFINITY, 2f32.powi(-24), f32::INFINITY]);
    let r = op_bits("UP2US", &[[0xFFFF_0000, 0, 0, 0]]).map(f32::from_bits);
    assert_eq!(r, [0.0, 1.0, 0.0, 1.0]);
    let r = op_bits("UP4B", &[[0x80_81_7F_00, 0, 0, 0]]).map(f32::from_bits);
    assert_eq!(r, [0.0, 1.0, -1.0, -1.0]);
    let r = op_bits("UP4UB", &[[0xFF_80_00_33, 0, 0, 0]]).map(f32::from_bits);
    assert_eq!(r, [51.0 / 255.0, 0.0, 128.0 / 255.0, 1.0]);
}
