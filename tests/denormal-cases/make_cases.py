#!/usr/bin/env python3
"""Writes the denormal cases of this folder (softpipe's floating-point environment, see
docs/interpreter.md) and renders each with Mesa's softpipe oracle:

    ORACLE=ORACLE_DIR/oracle.py python3 make_cases.py

(ORACLE_DIR = a build of the softpipe-tex oracle around Mesa 22.3.6 softpipe, kept outside
this repository, whose oracle.py takes a custom vertex shader.) Each case is a 4x2 frame; pixel column k evaluates four expressions (the four output
channels) on input set k, whose floats come as bit patterns through uint uniforms so that the
GLSL compiler cannot fold them. `fs_*` cases compute in the fragment shader (tgsi_exec) of a
draw whose triangle needs clipping (the oracle's oversized triangle); `fsq_*` cases are the
same fragment shaders drawn as a quad inside the view (NAME.vertices.json), which softpipe
shades inside the draw call, under the draw module's DAZ/FTZ; `vs_*` cases compute in the
vertex shader (the draw module) and pass the results to the fragment shader in flat
varyings, which it only selects.
Files per case: NAME.glsl (+ NAME.vs.glsl, NAME.vertices.json), then from the oracle NAME.tgsi, NAME.vs.tgsi,
NAME.json (the fragment stage's constants with exact bits;
NAME.vs-consts.json holds the vertex stage's), NAME.f32 (row 0 = bottom) and NAME.png.
"""
import json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Input sets (a, b, c) as binary32 bit patterns, one per pixel column.
SETS = [
    (0x00000001, 0x3F800000, 0x00000000),  # a = smallest denormal, b = 1, c = +0
    (0x0D800000, 0x30800000, 0x80400000),  # a = 2^-100, b = 2^-30 (a*b = 2^-130), c = -2^-127
    (0x80400000, 0x3F000000, 0x00000003),  # a = -2^-127, b = 0.5, c = 3 * 2^-149
    (0x00800000, 0x3F7FFFFF, 0x807FFFFF),  # a = FLT_MIN, b = 1 - 2^-24, c = -largest denormal
]

CASES = {
    # arithmetic whose inputs or results are denormal
    "arith": ["a + c", "a * b", "a - c", "c * b"],
    "mad_div": ["a * b + c", "a / b", "c * 2.0 + a", "dot(vec2(a, c), vec2(b, b))"],
    # moves, sign modifiers and bit casts
    "moves": ["a", "-a", "abs(c)", "uintBitsToFloat(floatBitsToUint(a) + 1u)"],
    # comparisons, min/max, sign
    "compare": ["float(a > 0.0)", "max(a, c)", "min(a, c)", "sign(c)"],
    # conversions and rounding
    "convert": ["float(int(a * 4.0e38))", "fract(c)", "ceil(a)", "trunc(c * 2.0)"],
    # sqrt, reciprocal square root, exp2/log2 around the denormal range
    "transcendental": ["sqrt(abs(c))", "exp2(-140.0 + b)", "inversesqrt(abs(a))", "log2(abs(c))"],
    # sin, cos and pow of denormals (the C library's own paths for tiny and subnormal inputs)
    "pow_trig": ["sin(a)", "cos(c)", "pow(abs(a), b)", "pow(abs(c), b)"],
    # piglit's fs-underflow-*-compare-zero: a product or power that underflows, compared with 0
    "underflow": ["float(abs(a) * b * 2.0e-30 == 0.0)", "float(pow(abs(b), 200.0) == 0.0)",
                  "float(a * b != 0.0)", "float(c + a != 0.0)"],
}
HEAD = "#version 330 core\n"
UNIS = "uniform uvec4 u_a;\nuniform uvec4 u_b;\nuniform uvec4 u_c;\n"


# Cases of each stage (the last two only in the fragment stage's two draws).
STAGE_CASES = {"fs": list(CASES), "fsq": list(CASES), "vs": [n for n in CASES if n not in ("underflow", "pow_trig")]}

# The fsq_* draw: a triangle strip over the whole view, every vertex inside it.
QUAD_VS = (HEAD + "layout(location = 0) in vec2 a_pos;\nout vec2 v_uv;\nvoid main() {\n"
           "  v_uv = a_pos * 0.5 + 0.5;\n  gl_Position = vec4(a_pos, 0.0, 1.0);\n}\n")
QUAD_VERTICES = {
    "attributes": [{"name": "a_pos", "location": 0, "components": 2, "kind": "f"}],
    "vertices": [{"a_pos": p} for p in ([-1, -1], [1, -1], [-1, 1], [1, 1])],
    "draws": [{"mode": "TRIANGLE_STRIP", "first": 0, "count": 4}],
}


def fs_case(exprs):
    body = "\n".join("  r[%d] = %s;" % (i, e) for i, e in enumerate(exprs))
    return (HEAD + "in vec2 v_uv;\nout vec4 o_color;\n" + UNIS + "void main() {\n"
            "  int px = int(v_uv.x * 4.0);\n"
            "  float a = uintBitsToFloat(u_a[px]);\n  float b = uintBitsToFloat(u_b[px]);\n"
            "  float c = uintBitsToFloat(u_c[px]);\n  vec4 r = vec4(0.0);\n" + body +
            "\n  o_color = r;\n}\n"), None


def fsq_case(exprs):
    return fs_case(exprs)[0], QUAD_VS


def vs_case(exprs):
    outs = "".join("flat out vec4 v_r%d;\n" % k for k in range(4))
    lines = []
    for k in range(4):
        vals = ", ".join(re.sub(r"\b([abc])\b", lambda m: m.group(1) + str(k), e) for e in exprs)
        lines.append("  float a%d = uintBitsToFloat(u_a[%d]), b%d = uintBitsToFloat(u_b[%d]), "
                     "c%d = uintBitsToFloat(u_c[%d]);\n  v_r%d = vec4(%s);" % (k, k, k, k, k, k, k, vals))
    vs = (HEAD + "layout(location = 0) in vec2 a_pos;\nout vec2 v_uv;\n" + UNIS + outs +
          "void main() {\n  v_uv = a_pos * 0.5 + 0.5;\n  gl_Position = vec4(a_pos, 0.0, 1.0);\n" +
          "\n".join(lines) + "\n}\n")
    ins = "".join("flat in vec4 v_r%d;\n" % k for k in range(4))
    fs = (HEAD + "in vec2 v_uv;\n" + ins + "out vec4 o_color;\nvoid main() {\n"
          "  int px = int(v_uv.x * 4.0);\n"
          "  o_color = px == 0 ? v_r0 : px == 1 ? v_r1 : px == 2 ? v_r2 : v_r3;\n}\n")
    return fs, vs


def main():
    oracle = os.environ.get("ORACLE")
    only = set(sys.argv[1:])
    for stage, make in (("fs", fs_case), ("fsq", fsq_case), ("vs", vs_case)):
        for name in STAGE_CASES[stage]:
            exprs = CASES[name]
            full = "%s_%s" % (stage, name)
            if only and full not in only:
                continue
            fs, vs = make(exprs)
            with open(os.path.join(HERE, full + ".glsl"), "w") as f:
                f.write(fs)
            if stage == "fsq":
                with open(os.path.join(HERE, full + ".vertices.json"), "w") as f:
                    json.dump(QUAD_VERTICES, f, indent=1)
            if vs:
                with open(os.path.join(HERE, full + ".vs.glsl"), "w") as f:
                    f.write(vs)
            if stage == "vs":
                # The oracle's .json lists the fragment stage's constants only. The vertex
                # stage's: one vec4 slot per active uniform in declaration order (oracle README
                # item 2), written in the same form as NAME.vs-consts.json.
                used = [k for k, letter in enumerate("abc")
                        if any(re.search(r"\b%s\b" % letter, e) for e in exprs)]
                consts = {"CONST[0][%d]" % slot: {"name": "u_" + "abc"[k],
                                                  "raw": ["0x%08x" % s[k] for s in SETS]}
                          for slot, k in enumerate(used)}
                with open(os.path.join(HERE, full + ".vs-consts.json"), "w") as f:
                    json.dump({"consts": consts}, f, indent=1)
            print(full)
            if oracle:
                col = lambda i: ",".join(str(s[i]) for s in SETS)
                cmd = ["python3", oracle, os.path.join(HERE, full + ".glsl"), "--size", "4x2",
                       "--out", os.path.join(HERE, full), "--uuniform", "u_a=" + col(0),
                       "--uuniform", "u_b=" + col(1), "--uuniform", "u_c=" + col(2)]
                subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
