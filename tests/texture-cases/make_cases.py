#!/usr/bin/env python3
"""Writes the texture conformance cases of this folder: for each case NAME.glsl and
NAME.textures.json (format tgsi-oracle-textures/1, the texture description of the softpipe-tex
oracle: the project's GLSL renderer around Mesa 22.3.6 softpipe, which is not part of this
repository; ORACLE_DIR is a build of it, whose texspec.py writes the description).

Then render each with Mesa's softpipe:
    for f in tests/texture-cases/*.glsl; do
        python3 ORACLE_DIR/oracle.py "$f" --size 32x32 --out "${f%.glsl}"; done
which adds NAME.tgsi, NAME.vs.tgsi, NAME.f32 (row 0 = bottom), NAME.png and NAME.json.
Texel values are chosen so that every level, layer and face is recognisable by colour.
"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))

# distinct colour per mip level / layer / face (RGBA8)
PALETTE = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 0, 255), (0, 255, 255),
           (255, 255, 255), (128, 64, 32)]


def level_size(w, h, d, target, level):
    w2 = max(1, w >> level)
    h2 = 1 if target in ("1D", "1D_ARRAY") else max(1, h >> level)
    d2 = max(1, d >> level) if target == "3D" else 1
    return w2, h2, d2


def rgba8_texel(key, x, y, z):
    """A texel of image `key` (level/layer/face index): the key's colour, darker on a checker,
    with an alpha that varies by position."""
    r, g, b = PALETTE[key % len(PALETTE)]
    dark = ((x ^ y ^ z) & 1) == 1
    f = (lambda c: c // 2) if dark else (lambda c: c)
    return [f(r), f(g), f(b), (40 + 23 * x + 57 * y + 11 * z + 31 * key) % 256]


def texture(name, unit, uniforms, target, fmt, w, h=1, d=1, layers=1, levels=1, sampler=None,
            texel=None, swizzle=None, base_level=0, max_level=None):
    comps = {"RGBA8": 4, "R8": 1, "RGBA8UI": 4, "RGBA8I": 4, "RGBA32UI": 4, "RGBA32I": 4,
             "RGBA32F": 4, "RG32F": 2, "R32F": 1, "DEPTH_COMPONENT32F": 1}[fmt]
    texel = texel or (lambda key, x, y, z: rgba8_texel(key, x, y, z))
    cube = target in ("CUBE", "CUBE_ARRAY")
    faces = list(range(6)) if cube else [None]
    images = []
    for lvl in range(levels):
        lw, lh, ld = level_size(w, h, d, target, lvl)
        for layer in range(layers):
            for face in faces:
                key = lvl if not (cube or layers > 1) else (lvl * 7 + layer * 6 + (face or 0) if cube else lvl * 3 + layer)
                tx = [texel(key, x, y, z) for z in range(ld) for y in range(lh) for x in range(lw)]
                img = {"level": lvl, "layer": layer, "face": face, "width": lw, "height": lh, "depth": ld,
                       "texels": tx}
                if face is not None:
                    img["face_name"] = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"][face]
                images.append(img)
    s = {"min_filter": "NEAREST", "mag_filter": "NEAREST", "wrap_s": "REPEAT", "wrap_t": "REPEAT",
         "wrap_r": "REPEAT", "border_color": [0.25, 0.5, 1.0, 0.75], "lod_bias": 0.0, "min_lod": -1000.0,
         "max_lod": 1000.0, "compare_mode": "NONE", "compare_func": "LEQUAL", "max_anisotropy": 1.0}
    s.update(sampler or {})
    return {"name": name, "unit": unit, "sampler_uniforms": uniforms, "target": target,
            "internal_format": fmt, "components": comps, "width": w, "height": h, "depth": d,
            "layers": layers, "num_levels": levels, "base_level": base_level,
            "max_level": levels - 1 if max_level is None else max_level,
            "swizzle": swizzle or ["RED", "GREEN", "BLUE", "ALPHA"], "sampler": s, "images": images}


TRILINEAR = {"min_filter": "LINEAR_MIPMAP_LINEAR", "mag_filter": "LINEAR"}
CASES = {}


def case(name, glsl, textures):
    CASES[name] = (glsl, textures)


HEAD = "#version 330 core\nin vec2 v_uv;\nout vec4 o_color;\n"

case("txl_mip_levels", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  o_color = textureLod(u_mip, v_uv * 1.5 - 0.25, v_uv.x * 6.0 - 1.0);\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5, sampler=TRILINEAR)])

case("tex_mip_implicit", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  vec2 k = vec2(floor(v_uv.x * 8.0) + 0.5, floor(v_uv.y * 4.0) + 1.0);\n"
     "  o_color = texture(u_mip, v_uv * k);\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5, sampler=TRILINEAR)])

case("tex_mip_nearest", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  vec2 k = vec2(floor(v_uv.x * 8.0) + 0.5, floor(v_uv.y * 4.0) + 1.0);\n"
     "  o_color = texture(u_mip, v_uv * k);\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5,
              sampler={"min_filter": "LINEAR_MIPMAP_NEAREST", "mag_filter": "NEAREST"})])

case("txb_bias_clamp", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  o_color = texture(u_mip, v_uv, v_uv.y * 8.0 - 2.0);\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5,
              sampler=dict(TRILINEAR, lod_bias=0.5, min_lod=0.25, max_lod=3.5))])

case("txd_grad", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  o_color = textureGrad(u_mip, v_uv, vec2(v_uv.x * 0.25, 0.0), vec2(0.0, v_uv.y * 0.125));\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5,
              sampler={"min_filter": "LINEAR_MIPMAP_LINEAR", "mag_filter": "LINEAR", "lod_bias": 1.0})])

case("txp_proj", HEAD + "uniform sampler2D u_tex;\nvoid main() {\n"
     "  float q = v_uv.x + 0.5;\n"
     "  o_color = textureProj(u_tex, vec3(v_uv * 2.0, q));\n}\n",
     [texture("tex", 0, ["u_tex"], "2D", "RGBA8", 8, 8, sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR"})])

case("txf_fetch_levels", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  ivec2 p = ivec2(v_uv * 20.0) - 2;\n"
     "  o_color = texelFetch(u_mip, p, int(v_uv.y * 6.0));\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5)])

case("txf_offset", HEAD + "uniform sampler2D u_tex;\nvoid main() {\n"
     "  o_color = texelFetchOffset(u_tex, ivec2(v_uv * 8.0), 0, ivec2(-2, 3));\n}\n",
     [texture("tex", 0, ["u_tex"], "2D", "RGBA8", 8, 8)])

case("tex_offset", HEAD + "uniform sampler2D u_tex;\nvoid main() {\n"
     "  o_color = textureOffset(u_tex, v_uv, ivec2(-2, 3));\n}\n",
     [texture("tex", 0, ["u_tex"], "2D", "RGBA8", 8, 8, sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR"})])

case("txq_size", HEAD + "uniform sampler2DArray u_arr;\nvoid main() {\n"
     "  ivec3 s = textureSize(u_arr, int(v_uv.x * 6.0));\n"
     "  o_color = vec4(vec3(s) / 32.0, 1.0);\n}\n",
     [texture("arr", 0, ["u_arr"], "2D_ARRAY", "RGBA8", 16, 8, layers=3, levels=5)])

case("tg4_gather", HEAD.replace("core\n", "core\n#extension GL_ARB_gpu_shader5 : require\n", 1) +
     "uniform sampler2D u_tex;\nvoid main() {\n"
     "  o_color = textureGather(u_tex, v_uv * 1.5 - 0.25, 1);\n}\n",
     [texture("tex", 0, ["u_tex"], "2D", "RGBA8", 4, 4)])

def depth_texel(key, x, y, z):
    return [(x * 8 + y + 0.5) / 64.0]

case("shadow_2d", HEAD + "uniform sampler2DShadow u_lin;\nuniform sampler2DShadow u_near;\nvoid main() {\n"
     "  vec3 c = vec3(v_uv, v_uv.y * 0.75 + 0.125);\n"
     "  o_color = vec4(texture(u_lin, c), texture(u_near, c), 0.0, 1.0);\n}\n",
     [texture("lin", 0, ["u_lin"], "2D", "DEPTH_COMPONENT32F", 8, 8, texel=depth_texel,
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "compare_mode": "COMPARE_REF_TO_TEXTURE",
                       "compare_func": "LEQUAL"}),
      texture("near", 1, ["u_near"], "2D", "DEPTH_COMPONENT32F", 8, 8, texel=depth_texel,
              sampler={"compare_mode": "COMPARE_REF_TO_TEXTURE", "compare_func": "GREATER"})])

case("cube_faces", HEAD + "uniform samplerCube u_cube;\nvoid main() {\n"
     "  vec3 d = vec3(v_uv.x * 2.0 - 1.0, v_uv.y * 2.0 - 1.0, v_uv.x - v_uv.y);\n"
     "  o_color = texture(u_cube, d);\n}\n",
     [texture("cube", 0, ["u_cube"], "CUBE", "RGBA8", 4, 4,
              sampler={"wrap_s": "CLAMP_TO_EDGE", "wrap_t": "CLAMP_TO_EDGE", "wrap_r": "CLAMP_TO_EDGE"})])

case("cube_mip", HEAD + "uniform samplerCube u_cube;\nvoid main() {\n"
     "  vec3 d = vec3(v_uv.x * 2.0 - 1.0, 1.0, v_uv.y * 2.0 - 1.0) * (v_uv.x + 0.25);\n"
     "  o_color = texture(u_cube, d);\n}\n",
     [texture("cube", 0, ["u_cube"], "CUBE", "RGBA8", 16, 16, levels=5,
              sampler=dict(TRILINEAR, wrap_s="CLAMP_TO_EDGE", wrap_t="CLAMP_TO_EDGE", wrap_r="CLAMP_TO_EDGE"))])

case("tex3d_linear", HEAD + "uniform sampler3D u_vol;\nvoid main() {\n"
     "  o_color = texture(u_vol, vec3(v_uv, v_uv.y * 0.75 + 0.125));\n}\n",
     [texture("vol", 0, ["u_vol"], "3D", "RGBA8", 8, 8, 4,
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "wrap_r": "CLAMP_TO_EDGE"})])

case("array2d_layers", HEAD + "uniform sampler2DArray u_arr;\nvoid main() {\n"
     "  o_color = texture(u_arr, vec3(v_uv, v_uv.x * 4.0 - 0.7));\n}\n",
     [texture("arr", 0, ["u_arr"], "2D_ARRAY", "RGBA8", 8, 8, layers=3,
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR"})])

case("array1d_and_1d", HEAD + "uniform sampler1DArray u_arr;\nuniform sampler1D u_line;\nvoid main() {\n"
     "  vec4 a = texture(u_arr, vec2(v_uv.x, v_uv.y * 3.0));\n"
     "  vec4 b = texture(u_line, v_uv.y * 1.25);\n"
     "  o_color = vec4(a.xy, b.xy);\n}\n",
     [texture("arr", 0, ["u_arr"], "1D_ARRAY", "RGBA8", 8, layers=3,
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR"}),
      texture("line", 1, ["u_line"], "1D", "RGBA8", 8, sampler={"wrap_s": "MIRRORED_REPEAT"})])

# The mirror-clamp modes (GL_ARB_texture_mirror_clamp_to_edge, GL_EXT_texture_mirror_clamp);
# legacy CLAMP needs a compatibility context the oracle does not have (docs/textures.md).
for wrap in ["REPEAT", "CLAMP_TO_EDGE", "CLAMP_TO_BORDER", "MIRRORED_REPEAT", "MIRROR_CLAMP_TO_EDGE",
             "MIRROR_CLAMP", "MIRROR_CLAMP_TO_BORDER"]:
    s = {"wrap_s": wrap, "wrap_t": wrap, "wrap_r": wrap}
    case("wrap_" + wrap.lower(), HEAD + "uniform sampler2D u_near;\nuniform sampler2D u_lin;\nvoid main() {\n"
         "  vec2 c = v_uv * 3.0 - 1.0;\n"
         "  o_color = vec4(texture(u_near, c).xy, texture(u_lin, c).xy);\n}\n",
         [texture("near", 0, ["u_near"], "2D", "RGBA8", 5, 3, sampler=s),
          texture("lin", 1, ["u_lin"], "2D", "RGBA8", 5, 3, sampler=dict(s, min_filter="LINEAR", mag_filter="LINEAR"))])

def int_texel(key, x, y, z):
    return [x * 10 + y, 200 - x, y * 7, 255]

def sint_texel(key, x, y, z):
    return [x * 1000 - 3000, -y * 77, x - y, 1 - x * y]

case("int_textures", HEAD + "uniform usampler2D u_u;\nuniform isampler2D u_i;\nvoid main() {\n"
     "  uvec4 a = texelFetch(u_u, ivec2(v_uv * 4.0), 0);\n"
     "  ivec4 b = texture(u_i, v_uv);\n"
     "  o_color = vec4(float(a.x), float(a.y), float(b.x), float(b.y));\n}\n",
     [texture("u", 0, ["u_u"], "2D", "RGBA8UI", 4, 4, texel=int_texel),
      texture("i", 1, ["u_i"], "2D", "RGBA32I", 4, 4, texel=sint_texel)])

case("rect_unnormalized", HEAD + "uniform sampler2DRect u_lin;\nuniform sampler2DRect u_near;\nvoid main() {\n"
     "  vec2 c = v_uv * vec2(6.0, 4.0) - 0.5;\n"
     "  o_color = vec4(texture(u_lin, c).xy, texture(u_near, c).xy);\n}\n",
     [texture("lin", 0, ["u_lin"], "RECT", "RGBA8", 5, 3,
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "wrap_s": "CLAMP_TO_EDGE", "wrap_t": "CLAMP_TO_EDGE"}),
      texture("near", 1, ["u_near"], "RECT", "RGBA8", 5, 3,
              sampler={"wrap_s": "CLAMP_TO_BORDER", "wrap_t": "CLAMP_TO_BORDER"})])

case("swizzle_base_level", HEAD + "uniform sampler2D u_mip;\nvoid main() {\n"
     "  o_color = texture(u_mip, v_uv * (floor(v_uv.x * 4.0) + 1.0));\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5, base_level=1, max_level=3,
              swizzle=["BLUE", "ONE", "RED", "ZERO"],
              sampler=dict(TRILINEAR, min_lod=0.5, max_lod=1.75))])

case("float_r32f_lod_bias", HEAD + "uniform sampler2D u_f;\nvoid main() {\n"
     "  o_color = texture(u_f, v_uv * 0.75 + 0.0625);\n}\n",
     [texture("f", 0, ["u_f"], "2D", "R32F", 4, 4, levels=3, texel=lambda k, x, y, z: [x * 0.25 + y * 4.0 + k * 100.0],
              sampler=dict(TRILINEAR, lod_bias=1.25))])

case("shadow_cube_array2d", HEAD + "uniform samplerCubeShadow u_cube;\nuniform sampler2DArrayShadow u_arr;\nvoid main() {\n"
     "  vec3 d = vec3(v_uv.x * 2.0 - 1.0, v_uv.y * 2.0 - 1.0, 0.5);\n"
     "  float a = texture(u_cube, vec4(d, v_uv.x));\n"
     "  float b = texture(u_arr, vec4(v_uv, v_uv.y * 2.0, v_uv.x));\n"
     "  o_color = vec4(a, b, 0.0, 1.0);\n}\n",
     [texture("cube", 0, ["u_cube"], "CUBE", "DEPTH_COMPONENT32F", 4, 4,
              texel=lambda k, x, y, z: [(k * 16 + y * 4 + x + 0.5) / 128.0],
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "compare_mode": "COMPARE_REF_TO_TEXTURE",
                       "compare_func": "LEQUAL", "wrap_s": "CLAMP_TO_EDGE", "wrap_t": "CLAMP_TO_EDGE"}),
      texture("arr", 1, ["u_arr"], "2D_ARRAY", "DEPTH_COMPONENT32F", 4, 4, layers=2,
              texel=lambda k, x, y, z: [(k * 16 + y * 4 + x + 0.5) / 32.0],
              sampler={"compare_mode": "COMPARE_REF_TO_TEXTURE", "compare_func": "GEQUAL"})])

case("txd_cube_3d", HEAD + "uniform samplerCube u_cube;\nuniform sampler3D u_vol;\nvoid main() {\n"
     "  vec3 d = vec3(v_uv.x * 2.0 - 1.0, 1.0, v_uv.y * 2.0 - 1.0);\n"
     "  vec4 a = textureGrad(u_cube, d, vec3(v_uv.x * 0.5, 0.0, 0.0), vec3(0.0, 0.0, v_uv.y * 0.25));\n"
     "  vec4 b = textureGrad(u_vol, vec3(v_uv, 0.5), vec3(v_uv.x * 0.5, 0.0, 0.0), vec3(0.0, 0.0, v_uv.y));\n"
     "  o_color = vec4(a.xy, b.xy);\n}\n",
     [texture("cube", 0, ["u_cube"], "CUBE", "RGBA8", 16, 16, levels=5,
              sampler=dict(TRILINEAR, wrap_s="CLAMP_TO_EDGE", wrap_t="CLAMP_TO_EDGE")),
      texture("vol", 1, ["u_vol"], "3D", "RGBA8", 8, 8, 8, levels=4,
              sampler={"min_filter": "NEAREST_MIPMAP_LINEAR", "mag_filter": "NEAREST"})])

case("tg4_offset_shadow", HEAD.replace("core\n", "core\n#extension GL_ARB_gpu_shader5 : require\n", 1) +
     "uniform sampler2D u_tex;\nuniform sampler2DShadow u_depth;\nvoid main() {\n"
     "  vec4 a = textureGatherOffset(u_tex, v_uv, ivec2(1, -1), 0);\n"
     "  vec4 b = textureGather(u_depth, v_uv * 1.25, 0.5);\n"
     "  o_color = vec4(a.x, a.w, b.x, b.z);\n}\n",
     [texture("tex", 0, ["u_tex"], "2D", "RGBA8", 4, 4),
      texture("depth", 1, ["u_depth"], "2D", "DEPTH_COMPONENT32F", 4, 4,
              texel=lambda k, x, y, z: [(y * 4 + x + 0.5) / 16.0],
              sampler={"compare_mode": "COMPARE_REF_TO_TEXTURE", "compare_func": "LESS",
                       "wrap_s": "CLAMP_TO_BORDER", "wrap_t": "CLAMP_TO_BORDER", "border_color": [0.875, 0.0, 0.0, 0.0]})])

case("txl_offset_txb_cube", HEAD + "uniform sampler2D u_mip;\nuniform samplerCube u_cube;\nvoid main() {\n"
     "  vec4 a = textureLodOffset(u_mip, v_uv, v_uv.y * 4.0, ivec2(3, -2));\n"
     "  vec4 b = texture(u_cube, vec3(1.0, v_uv * 2.0 - 1.0), v_uv.x * 4.0 - 1.0);\n"
     "  o_color = vec4(a.xz, b.xy);\n}\n",
     [texture("mip", 0, ["u_mip"], "2D", "RGBA8", 16, 16, levels=5,
              sampler={"min_filter": "NEAREST_MIPMAP_NEAREST", "mag_filter": "LINEAR"}),
      texture("cube", 1, ["u_cube"], "CUBE", "RGBA8", 8, 8, levels=4,
              sampler=dict(TRILINEAR, wrap_s="CLAMP_TO_EDGE", wrap_t="CLAMP_TO_EDGE"))])

case("cube_array", HEAD.replace("core\n", "core\n#extension GL_ARB_texture_cube_map_array : require\n", 1) +
     "uniform samplerCubeArray u_ca;\nvoid main() {\n"
     "  vec3 d = vec3(v_uv.x * 2.0 - 1.0, v_uv.y * 2.0 - 1.0, -0.5);\n"
     "  o_color = texture(u_ca, vec4(d, v_uv.x * 3.0 - 0.5));\n}\n",
     [texture("ca", 0, ["u_ca"], "CUBE_ARRAY", "RGBA8", 4, 4, layers=2,
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "wrap_s": "CLAMP_TO_EDGE", "wrap_t": "CLAMP_TO_EDGE"})])

case("shadow_1d_rect_proj", HEAD + "uniform sampler1DShadow u_line;\nuniform sampler2DRectShadow u_rect;\n"
     "uniform sampler2DShadow u_flat;\nvoid main() {\n"
     "  float a = texture(u_line, vec3(v_uv.x, 0.0, v_uv.y));\n"
     "  float b = texture(u_rect, vec3(v_uv * 4.0, 0.5));\n"
     "  float c = textureProj(u_flat, vec4(v_uv, 0.5, 1.0) * (v_uv.x + 0.5));\n"
     "  o_color = vec4(a, b, c, 1.0);\n}\n",
     [texture("line", 0, ["u_line"], "1D", "DEPTH_COMPONENT32F", 8, texel=lambda k, x, y, z: [(x + 0.5) / 8.0],
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "compare_mode": "COMPARE_REF_TO_TEXTURE",
                       "compare_func": "LEQUAL", "wrap_s": "CLAMP_TO_EDGE"}),
      texture("rect", 1, ["u_rect"], "RECT", "DEPTH_COMPONENT32F", 4, 4, texel=lambda k, x, y, z: [(x * 4 + y + 0.5) / 16.0],
              sampler={"compare_mode": "COMPARE_REF_TO_TEXTURE", "compare_func": "GREATER",
                       "wrap_s": "CLAMP_TO_EDGE", "wrap_t": "CLAMP_TO_EDGE"}),
      texture("flat", 2, ["u_flat"], "2D", "DEPTH_COMPONENT32F", 4, 4, texel=lambda k, x, y, z: [(y * 4 + x + 0.5) / 16.0],
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "compare_mode": "COMPARE_REF_TO_TEXTURE",
                       "compare_func": "LEQUAL"})])

case("lodq_query", HEAD.replace("core\n", "core\n#extension GL_ARB_texture_query_lod : require\n", 1) +
     "uniform sampler2D u_lin;\nuniform sampler2D u_near;\nvoid main() {\n"
     "  vec2 c = v_uv * vec2(floor(v_uv.x * 8.0) + 0.5, floor(v_uv.y * 4.0) + 1.0);\n"
     "  o_color = vec4(textureQueryLOD(u_lin, c), textureQueryLOD(u_near, c));\n}\n",
     [texture("lin", 0, ["u_lin"], "2D", "RGBA8", 16, 16, levels=5, sampler=dict(TRILINEAR, lod_bias=0.25, max_lod=2.5)),
      texture("near", 1, ["u_near"], "2D", "RGBA8", 16, 16, levels=5,
              sampler={"min_filter": "NEAREST_MIPMAP_NEAREST", "mag_filter": "NEAREST", "min_lod": 0.5})])

case("indirect_sampler", HEAD.replace("core\n", "core\n#extension GL_ARB_gpu_shader5 : require\n", 1) +
     "uniform sampler2D u_tex[3];\nvoid main() {\n"
     "  int i = int(v_uv.x * 5.0) % 3;\n"
     "  o_color = texture(u_tex[i], v_uv);\n}\n",
     [texture("a", 0, ["u_tex[0]"], "2D", "RGBA8", 4, 4, texel=lambda k, x, y, z: rgba8_texel(0, x, y, z)),
      texture("b", 1, ["u_tex[1]"], "2D", "RGBA8", 4, 4, texel=lambda k, x, y, z: rgba8_texel(1, x, y, z),
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR"}),
      texture("c", 2, ["u_tex[2]"], "2D", "RGBA8", 4, 4, texel=lambda k, x, y, z: rgba8_texel(2, x, y, z))])

case("format_r8", HEAD + "uniform sampler2D u_r8;\nvoid main() {\n  o_color = texture(u_r8, v_uv * 1.25);\n}\n",
     [texture("r8", 0, ["u_r8"], "2D", "R8", 4, 4, texel=lambda k, x, y, z: [(x * 67 + y * 29) % 256],
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "wrap_s": "MIRRORED_REPEAT"})])

case("format_rg32f", HEAD + "uniform sampler2D u_rg;\nvoid main() {\n  o_color = texture(u_rg, v_uv * 1.25);\n}\n",
     [texture("rg", 0, ["u_rg"], "2D", "RG32F", 4, 4, texel=lambda k, x, y, z: [x * 0.375 - 0.5, y * 1.25 + x * 0.0625],
              sampler={"min_filter": "LINEAR", "mag_filter": "LINEAR", "wrap_t": "CLAMP_TO_EDGE"})])

case("format_int32_int8", HEAD + "uniform usampler2D u_u;\nuniform isampler2D u_i;\nvoid main() {\n"
     "  uvec4 a = texelFetch(u_u, ivec2(v_uv * 4.0), 0);\n"
     "  ivec4 b = texelFetch(u_i, ivec2(v_uv * 4.0), 0);\n"
     "  o_color = vec4(float(a.x), float(a.w), float(b.y), float(b.w));\n}\n",
     [texture("u", 0, ["u_u"], "2D", "RGBA32UI", 4, 4, texel=lambda k, x, y, z: [4000000000 - x * 12345, 7, y, x * 100000 + 3]),
      texture("i", 1, ["u_i"], "2D", "RGBA8I", 4, 4, texel=lambda k, x, y, z: [x, -128 + y * 50, 3, 127 - x * 60])])


def main():
    only = set(sys.argv[1:])
    for name, (glsl, textures) in CASES.items():
        if only and name not in only:
            continue
        with open(os.path.join(HERE, name + ".glsl"), "w") as f:
            f.write(glsl)
        spec = {"format": "tgsi-oracle-textures/1",
                "conventions": "texture description of the softpipe-tex oracle (Mesa 22.3.6 softpipe), see docs/textures.md",
                "seamless_cube_map": False,
                "textures": textures}
        if not os.environ.get("ORACLE_DIR"):
            sys.exit("set ORACLE_DIR to a build of the softpipe-tex oracle (Mesa 22.3.6 softpipe; "
                     "kept outside this repository)")
        sys.path.insert(0, os.environ["ORACLE_DIR"])
        import texspec
        texspec.write_textures_json(os.path.join(HERE, name + ".textures.json"), spec)
        print(name)


if __name__ == "__main__":
    main()
