//! Integer, unsigned, bitwise, bitfield and conversion opcodes. Expected values are the
//! tgsi.rst / tgsi_exec formulas written out by hand (tgsi_exec.c `micro_*`).
use crate::exec_support::*;

const MIN: i32 = i32::MIN;
const M: u32 = u32::MAX;

#[test]
fn signed_division_by_zero_and_overflow() {
    // IDIV by 0 → 0 (tgsi_exec); INT_MIN / −1 wraps to INT_MIN (documented choice).
    assert_eq!(op_i("IDIV", &[[7, -7, 5, MIN], [2, 2, 0, -1]]), [3, -3, 0, MIN]);
    // MOD by 0 → all ones; INT_MIN % −1 = 0; sign follows the dividend.
    assert_eq!(op_i("MOD", &[[7, -7, 5, MIN], [3, 3, 0, -1]]), [1, -1, -1, 0]);
}

#[test]
fn unsigned_division_by_zero_gives_all_ones() {
    assert_eq!(op_u("UDIV", &[[7, 0, 5, M], [2, 0, 0, 16]]), [3, M, M, M / 16]);
    assert_eq!(op_u("UMOD", &[[7, 0, 5, M], [2, 0, 0, 16]]), [1, M, M, 15]);
}

#[test]
fn add_mul_mad_wrap() {
    assert_eq!(op_u("UADD", &[[M, 1, 2, 0x8000_0000], [1, 2, M, 0x8000_0000]]), [0, 3, 1, 0]);
    assert_eq!(op_u("UMUL", &[[0x10000, 3, M, 0], [0x10000, 5, M, 9]]), [0, 15, 1, 0]);
    assert_eq!(op_u("UMAD", &[[2, M, 3, 0], [3, 2, 4, 0], [1, 3, M, 5]]), [7, 1, 11, 5]);
    assert_eq!(op_i("IMUL_HI", &[[MIN, -1, 0x4000_0000, 3], [2, -1, 4, 5]]), [-1, 0, 1, 0]);
    assert_eq!(op_u("UMUL_HI", &[[M, 0x8000_0000, 3, 0], [M, 4, 5, 0]]), [M - 1, 2, 0, 0]);
}

#[test]
fn negate_abs_sign_min_max() {
    assert_eq!(op_i("INEG", &[[5, -5, 0, MIN]]), [-5, 5, 0, MIN]);
    assert_eq!(op_i("IABS", &[[5, -5, 0, MIN]]), [5, 5, 0, MIN]);
    assert_eq!(op_i("ISSG", &[[5, -5, 0, MIN]]), [1, -1, 0, -1]);
    assert_eq!(op_i("IMIN", &[[5, -5, 0, MIN], [3, 3, 0, 0]]), [3, -5, 0, MIN]);
    assert_eq!(op_i("IMAX", &[[5, -5, 0, MIN], [3, 3, 0, 0]]), [5, 3, 0, 0]);
    assert_eq!(op_u("UMIN", &[[5, M, 0, 1], [3, 3, 0, 0]]), [3, 3, 0, 0]);
    assert_eq!(op_u("UMAX", &[[5, M, 0, 1], [3, 3, 0, 0]]), [5, M, 0, 1]);
}

#[test]
fn integer_negate_modifier_is_twos_complement() {
    // `-SRC` on an integer op is integer negation (tgsi_exec.c `fetch_source`, `micro_ineg`), not a
    // sign-bit flip.
    let text = "FRAG\nDCL IN[0..1]\nDCL OUT[0]\nUADD OUT[0], IN[0], -IN[1]\nEND";
    let r = eval_bits(text, &[[10, 10, 0, 5], [3, 0, 1, 5]]);
    assert_eq!(r, [7, 10, M, 0]);
}

#[test]
fn comparisons_give_all_ones() {
    assert_eq!(op_u("ISGE", &[[1, M, 5, 0], [1, 0, 6, 0]]), [M, 0, 0, M]);
    assert_eq!(op_u("ISLT", &[[1, M, 5, 0], [1, 0, 6, 0]]), [0, M, M, 0]);
    assert_eq!(op_u("USEQ", &[[1, M, 5, 0], [1, 0, 6, 0]]), [M, 0, 0, M]);
    assert_eq!(op_u("USNE", &[[1, M, 5, 0], [1, 0, 6, 0]]), [0, M, M, 0]);
    assert_eq!(op_u("USGE", &[[1, M, 5, 0], [1, 0, 6, 0]]), [M, M, 0, M]);
    assert_eq!(op_u("USLT", &[[1, M, 5, 0], [1, 0, 6, 0]]), [0, 0, M, 0]);
}

#[test]
fn shifts_mask_the_count_to_five_bits() {
    assert_eq!(op_u("SHL", &[[1, 1, 1, 3], [31, 32, 33, 0]]), [0x8000_0000, 1, 2, 3]);
    assert_eq!(
        op_u("USHR", &[[0x8000_0000; 4], [31, 32, 33, 4]]),
        [1, 0x8000_0000, 0x4000_0000, 0x0800_0000]
    );
    assert_eq!(op_i("ISHR", &[[MIN; 4], [31, 32, 33, 4]]), [-1, MIN, MIN >> 1, MIN >> 4]);
}

#[test]
fn bitwise_ops() {
    assert_eq!(op_u("AND", &[[0xF0F0, M, 0, 6], [0xFF00, 5, M, 3]]), [0xF000, 5, 0, 2]);
    assert_eq!(op_u("OR", &[[0xF0F0, M, 0, 6], [0xFF00, 5, M, 3]]), [0xFFF0, M, M, 7]);
    assert_eq!(op_u("XOR", &[[0xF0F0, M, 0, 6], [0xFF00, 5, M, 3]]), [0x0FF0, !5, M, 5]);
    assert_eq!(op_u("NOT", &[[0, M, 5, 0x8000_0000]]), [M, 0, !5, 0x7fff_ffff]);
}

#[test]
fn bitfield_extract_and_insert() {
    // UBFE(value, offset, bits) = (v << (32 - o - b)) >> (32 - b), or v >> o when o + b = 32.
    assert_eq!(
        op_u("UBFE", &[[0xABCD_1234; 4], [4, 0, 28, 8], [8, 0, 4, 24]]),
        [0x23, 0, 0xA, 0xABCD12]
    );
    // IBFE sign-extends from the window's top bit.
    assert_eq!(
        op_i("IBFE", &[[0x0000_0F00, 0x0000_0F00, 0x0000_0700, -1], [8, 8, 8, 0], [4, 3, 4, 0]]),
        [-1, -1, 7, 0]
    );
    // BFI(base, insert, offset, bits)
    assert_eq!(
        op_u("BFI", &[[0xFFFF_FFFF; 4], [0, 0x5, 0, 0], [4, 8, 0, 0], [4, 4, 0, 16]]),
        [0xFFFF_FF0F, 0xFFFF_F5FF, M, 0xFFFF_0000]
    );
}

#[test]
fn bit_counting() {
    assert_eq!(op_u("BREV", &[[1, 0x8000_0000, 0xF0, 0]]), [0x8000_0000, 1, 0x0F00_0000, 0]);
    assert_eq!(op_u("POPC", &[[0, M, 0xF0F0, 1]]), [0, 32, 8, 1]);
    assert_eq!(op_i("LSB", &[[0, 1, 0x80, MIN]]), [-1, 0, 7, 31]);
    assert_eq!(op_i("UMSB", &[[0, 1, 0x80, MIN]]), [-1, 0, 7, 31]);
    // IMSB: highest bit differing from the sign; −1 for 0 and −1.
    assert_eq!(op_i("IMSB", &[[0, -1, 0x80, -2]]), [-1, -1, 7, 0]);
}

#[test]
fn conversions_and_their_undefined_cases() {
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    assert_eq!(
        op_u("F2I", &[f([1.9, -1.9, f32::NAN, 3e9])]).map(|x| x as i32),
        [1, -1, 0, i32::MAX]
    );
    assert_eq!(
        op_u("F2I", &[f([-3e9, f32::INFINITY, f32::NEG_INFINITY, -0.0])]).map(|x| x as i32),
        [MIN, i32::MAX, MIN, 0]
    );
    assert_eq!(op_u("F2U", &[f([1.9, -1.9, f32::NAN, 5e9])]), [1, 0, 0, M]);
    let r = op_bits("I2F", &[[(-3i32) as u32, 16_777_217, MIN as u32, 0]]).map(f32::from_bits);
    assert_f(r, [-3.0, 16_777_216.0, -2147483648.0, 0.0]);
    let r = op_bits("U2F", &[[M, 3, 0, 1]]).map(f32::from_bits);
    assert_f(r, [4294967296.0, 3.0, 0.0, 1.0]);
}

#[test]
fn address_loads_floor_round_and_move() {
    // An address register is only read as an index (V205), so each result is observed through
    // IMM[ADDR[0].x+2], where IMM[k] holds k: the output is the loaded value + 2.
    let with = |load: &str| {
        let mut t = String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL ADDR[0]\n");
        for k in 0..6 {
            t.push_str(&format!("IMM UINT32 {{{k}, {k}, {k}, {k}}}\n"));
        }
        // Four test values in IN[0].xyzw load ADDR[0].xyzw; channel c reads through ADDR[0].c.
        t.push_str(&format!("{load} ADDR[0], IN[0]\n"));
        for c in ["x", "y", "z", "w"] {
            t.push_str(&format!("MOV OUT[0].{c}, IMM[ADDR[0].{c}+2].xxxx\n"));
        }
        t.push_str("END");
        t
    };
    // ARL floors: 0.0 → 0, -1.5 → -2, 2.5 → 2, 3.99 → 3.
    let r = eval_bits(&with("ARL"), &[[0.0f32, -1.5, 2.5, 3.99].map(f32::to_bits)]);
    assert_eq!(r, [0, -2, 2, 3].map(|a: i32| (a + 2) as u32));
    // ARR = (int)floor(x + 0.5) as tgsi_exec: halves round up: 0.5 → 1, -1.5 → -1, 2.5 → 3.
    let r = eval_bits(&with("ARR"), &[[0.5f32, -1.5, 2.5, 3.4].map(f32::to_bits)]);
    assert_eq!(r, [1, -1, 3, 3].map(|a: i32| (a + 2) as u32));
}
