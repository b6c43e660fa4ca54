#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_tex;
void main() {
  o_color = texelFetchOffset(u_tex, ivec2(v_uv * 8.0), 0, ivec2(-2, 3));
}
