#version 330 core
#extension GL_ARB_gpu_shader5 : require
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_tex[3];
void main() {
  int i = int(v_uv.x * 5.0) % 3;
  o_color = texture(u_tex[i], v_uv);
}
