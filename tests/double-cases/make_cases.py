#!/usr/bin/env python3
"""Writes the double-precision cases of this folder and renders each with Mesa's softpipe
oracle (Mesa 22.3.6 softpipe, kept outside this repository; softpipe exposes
GL_ARB_gpu_shader_fp64 in its 3.3 context):

    ORACLE=ORACLE_DIR/oracle.py python3 make_cases.py

Each case is a 4x2 frame. Pixel column k evaluates two double expressions on input set k and
writes each result's raw bits as two float channels (low word, high word, through
unpackDouble2x32), so the comparison is exact to the last bit of the double. The inputs come as
bit patterns through uint uniforms (u_a, u_b, u_c: the low and high words of two doubles per
uvec4) so the compiler cannot fold them. Files per case: NAME.glsl, then from the oracle
NAME.tgsi, NAME.vs.tgsi, NAME.json (constants with exact bits), NAME.f32 (row 0 = bottom), .png.
"""
import os, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def words(x):
    b = struct.unpack("<II", struct.pack("<d", x))
    return b[0], b[1]


# Input sets (a, b, c) as doubles, one per pixel column.
SETS = [
    (1.0 / 3.0, 2.5, -0.75),
    (-1234.5678, 1e-3, 7.0),
    (2.0 ** -1040, -3.25, 0.5),      # a denormal double
    (1e300, -1e-300, -2.5),
]

CASES = {
    "add_mul": ["a + b", "a * b"],
    "sub_div": ["a - c", "a / b"],
    "fma_mad": ["fma(a, b, c)", "a * b + c"],
    "sqrt_rsq": ["sqrt(abs(b))", "inversesqrt(abs(a))"],
    "rcp_abs": ["1.0lf / a", "abs(c) + -a"],
    "min_max": ["min(a, b)", "max(a, c)"],
    "compare": ["double(a < b) + double(a >= c) * 2.0lf + double(a == a) * 4.0lf", "double(a != c) + double(b < c) * 8.0lf"],
    "round": ["floor(b) + trunc(c) * 16.0lf", "ceil(c) + roundEven(b) * 16.0lf"],
    "fract_sign": ["fract(a)", "sign(c) + sign(a) * 4.0lf"],
    "ldexp_frexp": ["ldexp(b, int(c * 4.0lf))", "frexp_m(a)"],
    "convert": ["double(float(a)) + double(int(c * 3.0lf))", "double(uint(abs(b) * 100.0lf)) + double(-int(b))"],
    "mod_mix": ["mod(a, b)", "mix(a, b, c)"],
}

HEAD = ("#version 330 core\n#extension GL_ARB_gpu_shader_fp64 : require\n"
        "in vec2 v_uv;\nout vec4 o_color;\nuniform uvec4 u_a;\nuniform uvec4 u_b;\nuniform uvec4 u_c;\n"
        "double frexp_m(double x) { int e; double m = frexp(x, e); return m + double(e) * 1024.0lf; }\n"
        "double pick(uvec4 v, int px) {\n"
        "  uvec2 w = px == 0 ? v.xy : px == 1 ? v.zw : uvec2(0u);\n  return packDouble2x32(w);\n}\n")


def glsl(exprs):
    return (HEAD + "void main() {\n  int px = int(v_uv.x * 4.0);\n"
            "  int hi = px >> 1;\n  int k = px & 1;\n"
            "  double a = hi == 0 ? pick(u_a, k) : pick(u_a2, k);\n"
            "  double b = hi == 0 ? pick(u_b, k) : pick(u_b2, k);\n"
            "  double c = hi == 0 ? pick(u_c, k) : pick(u_c2, k);\n"
            "  uvec2 r0 = unpackDouble2x32(%s);\n  uvec2 r1 = unpackDouble2x32(%s);\n"
            "  o_color = uintBitsToFloat(uvec4(r0, r1));\n}\n" % tuple(exprs)).replace(
        "uniform uvec4 u_c;\n", "uniform uvec4 u_c;\nuniform uvec4 u_a2;\nuniform uvec4 u_b2;\nuniform uvec4 u_c2;\n")


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
