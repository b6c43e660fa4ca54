#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_mip;
void main() {
  ivec2 p = ivec2(v_uv * 20.0) - 2;
  o_color = texelFetch(u_mip, p, int(v_uv.y * 6.0));
}
