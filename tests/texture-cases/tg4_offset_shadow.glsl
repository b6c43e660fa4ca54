#version 330 core
#extension GL_ARB_gpu_shader5 : require
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_tex;
uniform sampler2DShadow u_depth;
void main() {
  vec4 a = textureGatherOffset(u_tex, v_uv, ivec2(1, -1), 0);
  vec4 b = textureGather(u_depth, v_uv * 1.25, 0.5);
  o_color = vec4(a.x, a.w, b.x, b.z);
}
