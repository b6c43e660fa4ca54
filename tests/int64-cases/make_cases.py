#!/usr/bin/env python3
"""Writes the 64-bit integer cases of this folder and renders each with Mesa's softpipe oracle
(Mesa 22.3.6 softpipe, kept outside this repository; softpipe exposes GL_ARB_gpu_shader_int64
in its 3.3 context):

    ORACLE=ORACLE_DIR/oracle.py python3 make_cases.py

Each case is a 4x2 frame. Pixel column k evaluates two 64-bit expressions on input set k and
writes each result's raw bits as two float channels (low word, high word, through
unpackUint2x32), so the comparison is exact to the last bit. The inputs come as bit patterns
through uint uniforms (the low and high words of two values per uvec4) so that the compiler
cannot fold them. Files per case: NAME.glsl, then from the oracle NAME.tgsi, NAME.vs.tgsi,
NAME.json (constants with exact bits), NAME.f32 (row 0 = bottom) and NAME.png.
"""
import os, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def words(x):
    b = struct.unpack("<II", struct.pack("<q", x))
    return b[0], b[1]


# Input sets (a, b, c) as signed 64-bit integers, one per pixel column. No divisor is 0 and no
# division is INT64_MIN / -1 (undefined in GLSL; softpipe's C division would trap).
SETS = [
    (123456789012345, -987654321, 7),
    (-(2 ** 63), 3, 69),                       # INT64_MIN; a shift count of 69
    (-5, 2 ** 32 + 1, -2),
    (2 ** 63 - 1, 2, -(2 ** 40) - 3),          # INT64_MAX
]

CASES = {
    "add_mul": ["a + b", "a * c"],
    "sub_neg": ["a - c", "-b"],
    "div_mod": ["a / b", "a % c"],
    "udiv_umod": ["int64_t(ua / ub)", "int64_t(ua % uc)"],
    "shifts": ["a << int(c & 63l)", "a >> int(b & 63l)"],
    "ushift": ["int64_t(ua >> uint(c & 63l))", "int64_t(ub << uint(a & 63l))"],
    "compare": ["int64_t(a < b) + int64_t(a >= c) * 2l + int64_t(a == a) * 4l",
                "int64_t(ua < ub) + int64_t(a != c) * 8l"],
    "min_max": ["min(a, b)", "int64_t(max(ua, uc))"],
    "abs_sign": ["abs(c)", "sign(a) * 16l + sign(c)"],
    "convert": ["int64_t(float(b))", "int64_t(double(a) * 0.5lf)"],
    "to_float": ["int64_t(floatBitsToInt(float(a)))", "doubleBitsToInt64(double(ub))"],
}

HEAD = ("#version 330 core\n#extension GL_ARB_gpu_shader_int64 : require\n"
        "#extension GL_ARB_gpu_shader_fp64 : require\n"
        "in vec2 v_uv;\nout vec4 o_color;\nuniform uvec4 u_a;\nuniform uvec4 u_b;\nuniform uvec4 u_c;\n"
        "uniform uvec4 u_a2;\nuniform uvec4 u_b2;\nuniform uvec4 u_c2;\n"
        "int64_t pick(uvec4 v, int px) {\n"
        "  uvec2 w = px == 0 ? v.xy : px == 1 ? v.zw : uvec2(0u);\n  return int64_t(packUint2x32(w));\n}\n")


def glsl(exprs):
    return (HEAD + "void main() {\n  int px = int(v_uv.x * 4.0);\n"
            "  int hi = px >> 1;\n  int k = px & 1;\n"
            "  int64_t a = hi == 0 ? pick(u_a, k) : pick(u_a2, k);\n"
            "  int64_t b = hi == 0 ? pick(u_b, k) : pick(u_b2, k);\n"
            "  int64_t c = hi == 0 ? pick(u_c, k) : pick(u_c2, k);\n"
            "  uint64_t ua = uint64_t(a), ub = uint64_t(b), uc = uint64_t(c);\n"
            "  uvec2 r0 = unpackUint2x32(uint64_t(%s));\n  uvec2 r1 = unpackUint2x32(uint64_t(%s));\n"
            "  o_color = uintBitsToFloat(uvec4(r0, r1));\n}\n" % tuple(exprs))


def main():
    oracle = os.environ.get("ORACLE")
    only = set(sys.argv[1:])
    for name, exprs in CASES.items():
        if only and name not in only:
            continue
        with open(os.path.join(HERE, name + ".glsl"), "w") as f:
            f.write(glsl(exprs))
        print(name)
        if oracle:
            args = []
            for i, u in enumerate("abc"):
                for half, suffix in ((0, ""), (1, "2")):
                    w = words(SETS[2 * half][i]) + words(SETS[2 * half + 1][i])
                    args += ["--uuniform", "u_%s%s=%s" % (u, suffix, ",".join(str(x) for x in w))]
            subprocess.run(["python3", oracle, os.path.join(HERE, name + ".glsl"), "--size", "4x2",
                            "--out", os.path.join(HERE, name)] + args, check=True)


if __name__ == "__main__":
    main()
