#![allow(clippy::approx_constant)] // 1.442695 is tgsi_exec's LG2 literal, on purpose.
//! Float opcodes: expected values come from the tgsi.rst / tgsi_exec formulas evaluated here
//! (tgsi_exec.c `micro_*`).
use crate::exec_support::*;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

#[test]
fn add_mul_div_sub_follow_ieee() {
    let a = [1.5, -0.0, INF, 1e-40];
    let b = [2.25, 0.0, -INF, 1e-40];
    assert_f(op_f("ADD", &[a, b]), [3.75, 0.0, NAN, 2.0 * 1e-40f32]);
    assert_f(op_f("MUL", &[a, b]), [1.5 * 2.25, -0.0, -INF, 0.0]);
    assert_f(
        op_f("DIV", &[[1.0, -1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 3.0]]),
        [INF, -INF, NAN, 1.0 / 3.0],
    );
    assert_f(op_f("SUB", &[a, b]), [-0.75, -0.0, INF, 0.0]);
}

#[test]
fn mad_is_not_fused_and_fma_is() {
    // a*b rounds before the add: with a = 1 + 2^-12, a*a = 1 + 2^-11 + 2^-24 is not representable.
    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    let mad = op_f("MAD", &[[a; 4], [a; 4], [c; 4]])[0];
    let fma = op_f("FMA", &[[a; 4], [a; 4], [c; 4]])[0];
    assert_eq!(mad, a * a + c);
    assert_eq!(fma, 2f32.powi(-24));
    assert_ne!(mad, fma);
}

#[test]
fn lrp_uses_a_times_b_minus_c_plus_c() {
    let (a, b, c) = (0.3f32, 7.0f32, -2.5f32);
    assert_f(op_f("LRP", &[[a; 4], [b; 4], [c; 4]]), [a * (b - c) + c; 4]);
}

#[test]
fn set_on_compare_gives_one_or_zero_and_nan_is_false() {
    let a = [1.0, 2.0, NAN, -0.0];
    let b = [2.0, 2.0, 1.0, 0.0];
    assert_f(op_f("SLT", &[a, b]), [1.0, 0.0, 0.0, 0.0]);
    assert_f(op_f("SGE", &[a, b]), [0.0, 1.0, 0.0, 1.0]);
    assert_f(op_f("SEQ", &[a, b]), [0.0, 1.0, 0.0, 1.0]);
    assert_f(op_f("SNE", &[a, b]), [1.0, 0.0, 1.0, 0.0]);
    assert_f(op_f("SGT", &[a, b]), [0.0, 0.0, 0.0, 0.0]);
    assert_f(op_f("SLE", &[a, b]), [1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn float_set_compares_give_all_ones() {
    let a = [1.0, 2.0, NAN, -0.0];
    let b = [2.0, 2.0, 1.0, 0.0];
    let m = u32::MAX;
    let bits = |v: [f32; 4]| v.map(f32::to_bits);
    assert_eq!(op_bits("FSLT", &[bits(a), bits(b)]), [m, 0, 0, 0]);
    assert_eq!(op_bits("FSGE", &[bits(a), bits(b)]), [0, m, 0, m]);
    assert_eq!(op_bits("FSEQ", &[bits(a), bits(b)]), [0, m, 0, m]);
    assert_eq!(op_bits("FSNE", &[bits(a), bits(b)]), [m, 0, m, 0]);
}

#[test]
fn rounding_family() {
    let x = [2.5, -2.5, -0.3, 3.5];
    assert_f(op_f("ROUND", &[x]), [2.0, -2.0, -0.0, 4.0]);
    assert_f(op_f("FLR", &[x]), [2.0, -3.0, -1.0, 3.0]);
    assert_f(op_f("CEIL", &[x]), [3.0, -2.0, -0.0, 4.0]);
    assert_f(op_f("TRUNC", &[x]), [2.0, -2.0, -0.0, 3.0]);
    // FRC = x - floor(x)
    assert_f(op_f("FRC", &[x]), [0.5, 0.5, -0.3f32 - (-1.0), 0.5]);
    assert_f(op_f("SSG", &[[-3.0, 0.0, -0.0, NAN]]), [-1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn min_max_ignore_nan_like_fminf() {
    assert_f(op_f("MIN", &[[1.0, NAN, -INF, 3.0], [2.0, 5.0, 0.0, NAN]]), [1.0, 5.0, -INF, 3.0]);
    assert_f(op_f("MAX", &[[1.0, NAN, -INF, 3.0], [2.0, 5.0, 0.0, NAN]]), [2.0, 5.0, 0.0, 3.0]);
}

#[test]
fn min_max_signed_zeros_follow_glibc_minss_maxss() {
    // glibc's x86-64 fminf/fmaxf use minss/maxss: equal operands give the second one.
    assert_f(op_f("MIN", &[[0.0, -0.0, 1.0, 1.0], [-0.0, 0.0, 1.0, 1.0]]), [-0.0, 0.0, 1.0, 1.0]);
    assert_f(op_f("MAX", &[[0.0, -0.0, 1.0, 1.0], [-0.0, 0.0, 1.0, 1.0]]), [-0.0, 0.0, 1.0, 1.0]);
    assert_f(op_f("MAX", &[[NAN, 1.0, NAN, 1.0], [NAN, NAN, -INF, 1.0]]), [NAN, 1.0, -INF, 1.0]);
}

#[test]
fn cmp_and_ucmp_select() {
    assert_f(op_f("CMP", &[[-1.0, 0.0, -0.0, NAN], [1.0; 4], [2.0; 4]]), [1.0, 2.0, 2.0, 2.0]);
    let r = op_bits("UCMP", &[[0, 1, u32::MAX, 0x8000_0000], [7; 4], [9; 4]]);
    assert_eq!(r, [9, 7, 7, 7]);
}

#[test]
fn replicated_transcendentals_match_tgsi_exec_formulas() {
    let x = 0.7f32;
    let v = [x, 100.0, 100.0, 100.0];
    assert_f(op_f("RCP", &[v]), [1.0 / x; 4]);
    assert_f(op_f("RSQ", &[v]), [1.0 / x.sqrt(); 4]);
    assert_f(op_f("SQRT", &[v]), [x.sqrt(); 4]);
    assert_f(op_f("EX2", &[v]), [2f32.powf(x); 4]);
    // LG2 is logf(x) * 1.442695f, not log2f.
    assert_f(op_f("LG2", &[v]), [x.ln() * 1.442695f32; 4]);
    assert_f(op_f("SIN", &[v]), [x.sin(); 4]);
    assert_f(op_f("COS", &[v]), [x.cos(); 4]);
    assert_f(op_f("POW", &[v, [3.5; 4]]), [x.powf(3.5); 4]);
    assert_f(op_f("RCP", &[[0.0; 4]]), [INF; 4]);
    assert_f(op_f("RCP", &[[-0.0; 4]]), [-INF; 4]);
    assert_f(op_f("RSQ", &[[-1.0; 4]]), [NAN; 4]);
    assert_f(op_f("LG2", &[[0.0; 4]]), [-INF; 4]);
}

#[test]
fn dot_products_accumulate_in_order() {
    let a = [1.0, 2.0, 3.0, 4.0];
    let b = [5.0, 6.0, 7.0, 8.0];
    assert_f(op_f("DP2", &[a, b]), [17.0; 4]);
    assert_f(op_f("DP3", &[a, b]), [38.0; 4]);
    assert_f(op_f("DP4", &[a, b]), [70.0; 4]);
    assert_f(op_f("DPH", &[a, b]), [46.0; 4]);
    assert_f(op_f("DP2A", &[a, b, [0.5, 9.0, 9.0, 9.0]]), [17.5; 4]);
}

#[test]
fn channel_ops_lit_exp_log_dst_xpd() {
    // LIT: (1, max(x,0), x>0 ? max(y,0)^clamp(w,±128) : 0, 1)
    assert_f(op_f("LIT", &[[2.0, 3.0, 0.0, 2.0]]), [1.0, 2.0, 9.0, 1.0]);
    assert_f(op_f("LIT", &[[-2.0, 3.0, 0.0, 2.0]]), [1.0, 0.0, 0.0, 1.0]);
    assert_f(op_f("LIT", &[[1.0, 0.5, 0.0, 300.0]]), [1.0, 1.0, 0.5f32.powf(128.0), 1.0]);
    // NaN exponent: fminf(NaN, 128) = 128, so z = max(y, 0)^128.
    assert_f(op_f("LIT", &[[1.0, 0.5, 0.0, NAN]]), [1.0, 1.0, 0.5f32.powf(128.0), 1.0]);
    // EXP: (2^floor x, x - floor x, 2^x, 1)
    assert_f(op_f("EXP", &[[2.5, 0.0, 0.0, 0.0]]), [4.0, 0.5, 2f32.powf(2.5), 1.0]);
    // LOG of |x|: (floor log2, |x| / 2^floor, log2, 1)
    let l = (10f32).ln() * 1.442695;
    assert_f(op_f("LOG", &[[-10.0, 0.0, 0.0, 0.0]]), [l.floor(), 10.0 / 8.0, l, 1.0]);
    assert_f(op_f("DST", &[[9.0, 2.0, 3.0, 9.0], [9.0, 5.0, 9.0, 7.0]]), [1.0, 10.0, 3.0, 7.0]);
    assert_f(op_f("XPD", &[[1.0, 0.0, 0.0, 5.0], [0.0, 1.0, 0.0, 5.0]]), [0.0, 0.0, 1.0, 1.0]);
}

#[test]
fn saturate_clamps_and_maps_nan_to_zero() {
    assert_f(op_f("MOV_SAT", &[[-1.0, 0.5, 7.0, NAN]]), [0.0, 0.5, 1.0, 0.0]);
    assert_f(
        op_f("ADD_SAT", &[[0.25, -3.0, 1.0, INF], [0.25, 0.0, 0.5, 0.0]]),
        [0.5, 0.0, 1.0, 1.0],
    );
    // fminf(fmaxf(-0, 0), 1): glibc's fmaxf gives its second operand for equal zeros → +0.
    assert_f(op_f("MOV_SAT", &[[-0.0, -INF, 1.0, 0.999]]), [0.0, 0.0, 1.0, 0.999]);
}

#[test]
fn source_modifiers_are_float_for_float_ops() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nADD OUT[0], -|IN[0]|, IN[0].wzyx\nEND";
    let r = eval_bits(text, &[[2f32, -3.0, 0.0, 1.0].map(f32::to_bits)]).map(f32::from_bits);
    // -|x| + swizzled x
    assert_f(r, [-2.0 + 1.0, -3.0 + 0.0, -0.0 + -3.0, -1.0 + 2.0]);
}

#[test]
fn ldexp_scales_by_powers_of_two() {
    let r = op_bits(
        "LDEXP",
        &[[1.5f32, 1.0, 3.0, 1.0].map(f32::to_bits), [3, (-149i32) as u32, 200, (-3i32) as u32]],
    );
    assert_f(r.map(f32::from_bits), [12.0, f32::from_bits(1), INF, 0.125]);
}

#[test]
fn legacy_float_opcodes_follow_the_2010_formulas() {
    assert_f(op_f("SUB", &[[5.0; 4], [2.0; 4]]), [3.0; 4]);
    assert_f(op_f("ABS", &[[-5.0, 5.0, -0.0, -INF]]), [5.0, 5.0, 0.0, INF]);
    assert_f(op_f("CND", &[[1.0; 4], [2.0; 4], [0.6, 0.5, 0.4, 1.0]]), [1.0, 2.0, 2.0, 1.0]);
    assert_f(op_f("CLAMP", &[[-1.0, 0.5, 2.0, 0.0], [0.0; 4], [1.0; 4]]), [0.0, 0.5, 1.0, 0.0]);
    assert_f(
        op_f("SAD", &[[1.0, 5.0, 0.0, 0.0], [3.0, 2.0, 0.0, 0.0], [1.0; 4]]),
        [3.0, 4.0, 1.0, 1.0],
    );
    assert_f(op_f("SFL", &[[1.0; 4], [1.0; 4]]), [0.0; 4]);
    assert_f(op_f("STR", &[[1.0; 4], [1.0; 4]]), [1.0; 4]);
    assert_f(op_f("SCS", &[[0.5; 4]]), [0.5f32.cos(), 0.5f32.sin(), 0.0, 1.0]);
    let inv = 1.0 / (9.0f32 + 16.0).sqrt();
    assert_f(op_f("NRM", &[[3.0, 4.0, 0.0, 9.0]]), [3.0 * inv, 4.0 * inv, 0.0, 1.0]);
    assert_f(op_f("NRM4", &[[3.0, 0.0, 0.0, 4.0]]), [3.0 * (1.0 / 5.0f32); 4]);
    // RCC clamps 1/x into [5.42101e-20, 1.884467e19] keeping the sign.
    assert_f(op_f("RCC", &[[0.0; 4]]), [1.884467e19; 4]);
    assert_f(op_f("RCC", &[[-4.0; 4]]), [-0.25; 4]);
    // RFL: 2 (a·b)/(a·a) a − b; here k = -2, so z = -2·0 − 0 = −0.
    assert_f(op_f("RFL", &[[0.0, 1.0, 0.0, 0.0], [1.0, -1.0, 0.0, 0.0]]), [-1.0, -1.0, -0.0, 1.0]);
    // X2D: (a.x + b.x c.x + b.y c.y, a.y + b.x c.z + b.y c.w, same, same)
    assert_f(
        op_f("X2D", &[[1.0, 2.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0], [5.0, 6.0, 7.0, 8.0]]),
        [40.0, 55.0, 40.0, 55.0],
    );
}
