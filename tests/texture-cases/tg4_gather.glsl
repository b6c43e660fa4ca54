#version 330 core
#extension GL_ARB_gpu_shader5 : require
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_tex;
void main() {
  o_color = textureGather(u_tex, v_uv * 1.5 - 0.25, 1);
}
