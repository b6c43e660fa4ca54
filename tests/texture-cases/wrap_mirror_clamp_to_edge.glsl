#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_near;
uniform sampler2D u_lin;
void main() {
  vec2 c = v_uv * 3.0 - 1.0;
  o_color = vec4(texture(u_near, c).xy, texture(u_lin, c).xy);
}
