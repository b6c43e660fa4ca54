#!/usr/bin/env python3
"""Writes the custom-geometry conformance cases of this folder and, with --oracle DIR, renders
them with Mesa's softpipe (DIR: a build of the softpipe-tex oracle, the project's GLSL renderer
around Mesa 22.3.6 softpipe, kept outside this repository).

For each case NAME this writes NAME.glsl (fragment shader), NAME.vs.glsl (vertex shader) and
NAME.vertices.json (the vertex format of the oracle README, `location` = the vertex shader's
TGSI IN index). The oracle then adds NAME.tgsi, NAME.vs.tgsi, NAME.f32 (RGBA32F, row 0 =
bottom), NAME.png, NAME.nir and NAME.json. The native test `render::vertices` renders each case
with `--vertices` and compares every pixel with NAME.f32, bit for bit.

    python3 tests/vertex-cases/make_cases.py [--oracle DIR] [NAME...]

Every coordinate is a multiple of 1/16 (the oracle wants values exact in binary32).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = "32x32"
CASES = {}


def case(name, vs, fs, vertices):
    CASES[name] = (vs, fs, vertices)


def attr(name, location, components, kind="f"):
    return {"name": name, "location": location, "components": components, "kind": kind}


def draw(mode, first, count):
    return {"mode": mode, "first": first, "count": count}


def geometry(attributes, vertices, draws, front_face="CCW", provoking="LAST"):
    return {"attributes": attributes, "vertices": vertices, "draws": draws,
            "front_face": front_face, "provoking_vertex": provoking}


HEAD = "#version 330 core\n"

# A position (2 components: z and w fill in as 0 and 1) and a colour per vertex; a flat copy of
# the colour shows which vertex provokes each triangle.
VS_COLOR = HEAD + """layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_smooth;
flat out vec4 v_flat;
void main() {
  gl_Position = a_pos;
  v_smooth = a_color;
  v_flat = a_color;
}
"""
FS_SMOOTH = HEAD + """in vec4 v_smooth;
flat in vec4 v_flat;
out vec4 o_color;
void main() { o_color = v_smooth; }
"""
FS_FLAT_AND_SMOOTH = HEAD + """in vec4 v_smooth;
flat in vec4 v_flat;
out vec4 o_color;
void main() { o_color = vec4(v_flat.xyz, v_smooth.x * 0.5 + v_smooth.y); }
"""


def colored(points, colors):
    return [{"a_pos": p, "a_color": c} for p, c in zip(points, colors)]


COLOR_ATTRS = [attr("a_pos", 0, 2), attr("a_color", 1, 4)]
PALETTE = [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0],
           [0.0, 1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0], [0.5, 0.25, 0.75, 1.0], [0.25, 0.75, 0.5, 1.0]]

# Two separate triangles: one with a horizontal bottom edge (a tie when set-up sorts by y), one
# with a vertical edge; the list's last two vertices make no triangle and are left out.
case("triangles", VS_COLOR, FS_SMOOTH, geometry(
    COLOR_ATTRS,
    colored([[-0.875, -0.875], [0.5, -0.875], [-0.5, 0.75],
             [0.75, -0.5], [0.75, 0.875], [-0.25, 0.625], [0.0, 0.0], [0.5, 0.5]], PALETTE),
    [draw("TRIANGLES", 0, 8)]))

# A strip of six vertices (four triangles, the odd ones reordered), flat colour from the last
# vertex of each triangle, then the same strip with the first vertex provoking.
STRIP = [[-0.875, -0.75], [-0.625, 0.75], [-0.25, -0.875], [0.125, 0.625], [0.375, -0.625],
         [0.875, 0.875]]
case("strip_last", VS_COLOR, FS_FLAT_AND_SMOOTH, geometry(
    COLOR_ATTRS, colored(STRIP, PALETTE), [draw("TRIANGLE_STRIP", 0, 6)]))
case("strip_first", VS_COLOR, FS_FLAT_AND_SMOOTH, geometry(
    COLOR_ATTRS, colored(STRIP, PALETTE), [draw("TRIANGLE_STRIP", 0, 6)], provoking="FIRST"))

# A fan around a hub below the centre, drawn from the second vertex of the list (the first is
# skipped), last and first vertex provoking.
FAN = [[0.9375, 0.9375], [0.0, -0.25], [0.875, -0.5], [0.75, 0.5], [0.0, 0.875], [-0.75, 0.625],
       [-0.875, -0.625]]
case("fan_last", VS_COLOR, FS_FLAT_AND_SMOOTH, geometry(
    COLOR_ATTRS, colored(FAN, PALETTE), [draw("TRIANGLE_FAN", 1, 6)]))
case("fan_first", VS_COLOR, FS_FLAT_AND_SMOOTH, geometry(
    COLOR_ATTRS, colored(FAN, PALETTE), [draw("TRIANGLE_FAN", 1, 6)], provoking="FIRST"))

# gl_FrontFacing: one counter-clockwise and one clockwise triangle, and a strip whose triangles
# all keep the winding of its first; the same file with each front face.
FS_FACING = HEAD + """in vec4 v_smooth;
out vec4 o_color;
void main() {
  o_color = gl_FrontFacing ? vec4(0.0, 1.0, v_smooth.z, 1.0) : vec4(1.0, 0.0, v_smooth.x, 0.5);
}
"""
FACING_POINTS = [[-0.875, 0.125], [-0.125, 0.125], [-0.5, 0.875],      # counter-clockwise
                 [0.125, 0.125], [0.5, 0.875], [0.875, 0.125],         # clockwise
                 [-0.875, -0.875], [-0.875, -0.125], [0.0, -0.875], [0.0, -0.125], [0.875, -0.75]]
FACING_DRAWS = [draw("TRIANGLES", 0, 6), draw("TRIANGLE_STRIP", 6, 5)]
case("front_ccw", VS_COLOR, FS_FACING, geometry(
    COLOR_ATTRS, colored(FACING_POINTS, PALETTE * 2), FACING_DRAWS))
case("front_cw", VS_COLOR, FS_FACING, geometry(
    COLOR_ATTRS, colored(FACING_POINTS, PALETTE * 2), FACING_DRAWS, front_face="CW"))

# Perspective-correct against screen-linear interpolation: clip positions with w from 1 to 4
# (x and y scaled by w, so the triangle stays inside the viewport) and one value per vertex
# interpolated both ways.
VS_W = HEAD + """layout(location = 0) in vec4 a_pos;
layout(location = 1) in float a_value;
out float v_persp;
noperspective out float v_linear;
void main() {
  gl_Position = a_pos;
  v_persp = a_value;
  v_linear = a_value;
}
"""
FS_W = HEAD + """in float v_persp;
noperspective in float v_linear;
out vec4 o_color;
void main() { o_color = vec4(v_persp, v_linear, v_persp - v_linear, gl_FragCoord.w); }
"""


def with_w(x, y, w):
    return [x * w, y * w, 0.0, w]


case("noperspective", VS_W, FS_W, geometry(
    [attr("a_pos", 0, 4), attr("a_value", 1, 1)],
    [{"a_pos": with_w(-0.875, -0.875, 1.0), "a_value": [0.0]},
     {"a_pos": with_w(0.875, -0.75, 4.0), "a_value": [1.0]},
     {"a_pos": with_w(-0.75, 0.875, 2.0), "a_value": [0.5]},
     {"a_pos": with_w(0.875, 0.875, 0.5), "a_value": [0.25]}],
    [draw("TRIANGLE_STRIP", 0, 4)]))

# Integer attributes: signed with two components (z and w read 0 and the integer 1) and
# unsigned with four, through flat varyings (the last vertex provokes); the fragment shader
# shows them as floats and passes one unsigned value through as raw bits.
VS_INT = HEAD + """layout(location = 0) in vec2 a_pos;
layout(location = 1) in ivec4 a_int;
layout(location = 2) in uvec4 a_uint;
flat out ivec4 v_int;
flat out uvec4 v_uint;
void main() {
  gl_Position = vec4(a_pos, 0.0, 1.0);
  v_int = a_int;
  v_uint = a_uint;
}
"""
FS_INT = HEAD + """flat in ivec4 v_int;
flat in uvec4 v_uint;
out vec4 o_color;
void main() {
  o_color = vec4(float(v_int.x) / 8.0 + float(v_int.y), float(v_int.z) + float(v_int.w) * 2.0,
                 float(v_uint.x) + float(v_uint.y >> 28u), uintBitsToFloat(v_uint.w));
}
"""
case("int_attributes", VS_INT, FS_INT, geometry(
    [attr("a_pos", 0, 2), attr("a_int", 1, 2, "i"), attr("a_uint", 2, 4, "u")],
    [{"a_pos": [-0.875, -0.875], "a_int": [-5, 100000], "a_uint": [1, 4294967295, 0, 1065353216]},
     {"a_pos": [0.875, -0.875], "a_int": [7, -2147483648], "a_uint": [2, 2147483648, 0, 1073741824]},
     {"a_pos": [-0.875, 0.875], "a_int": [2147483647, 3], "a_uint": [3, 268435456, 0, 3212836864]},
     {"a_pos": [0.875, 0.875], "a_int": [-1, 0], "a_uint": [4000000000, 0, 0, 1056964608]}],
    [draw("TRIANGLE_STRIP", 0, 4)]))

# Several draws into one picture, later ones over earlier ones (no depth test). (softpipe draws
# nothing at all when the fragment shader reads gl_PrimitiveID without a geometry shader, so the
# primitive ids of each draw are checked by hand in the pipeline tests instead.)
MULTI = [[-0.875, -0.875], [0.375, -0.875], [-0.875, 0.375],          # draw 0: a triangle
         [0.375, 0.875], [-0.875, -0.875],                              # unused
         [-0.5, -0.5], [0.875, -0.5], [-0.5, 0.125], [0.875, 0.125], [-0.5, 0.875], [0.875, 0.875],
         [0.0, 0.0], [0.75, -0.875], [0.875, -0.25], [0.125, 0.75]]
case("multi_draw", VS_COLOR, FS_SMOOTH, geometry(
    COLOR_ATTRS, colored(MULTI, PALETTE * 2),
    [draw("TRIANGLES", 0, 3), draw("TRIANGLE_STRIP", 5, 6), draw("TRIANGLE_FAN", 11, 4)]))


def main():
    args = sys.argv[1:]
    oracle = None
    if args[:1] == ["--oracle"]:
        oracle, args = args[1], args[2:]
    only = set(args)
    for name, (vs, fs, vertices) in CASES.items():
        if only and name not in only:
            continue
        base = os.path.join(HERE, name)
        with open(base + ".glsl", "w") as f:
            f.write(fs)
        with open(base + ".vs.glsl", "w") as f:
            f.write(vs)
        with open(base + ".vertices.json", "w") as f:
            f.write(json.dumps(vertices, indent=1) + "\n")
        if oracle:
            subprocess.run([sys.executable, os.path.join(oracle, "oracle.py"), base + ".glsl",
                            "--size", SIZE, "--out", base], check=True)
        print(name)


if __name__ == "__main__":
    main()
