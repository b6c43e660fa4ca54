//! 64-bit integers through `render`: the oracle cases of `tests/int64-cases/` (softpipe's
//! pixels, every result written as its two raw 32-bit words, made by `make_cases.py` there from
//! GLSL with ARB_gpu_shader_int64) compared bit for bit: I64/U64 arithmetic, division and
//! remainder, shifts, comparisons, MIN/MAX, I64ABS/I64SSG and the conversions to and from float
//! and double. (The compiling tier leaves 64-bit opcodes to the interpreter, so both engines
//! draw them with the interpreter.)

use crate::denormals::compare_case;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/int64-cases/");

macro_rules! oracle_cases {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            compare_case(CASES, stringify!($name), &[]);
        }
    )*};
}

oracle_cases!(
    add_mul, sub_neg, div_mod, udiv_umod, shifts, ushift, compare, min_max, abs_sign, convert,
    to_float,
);
