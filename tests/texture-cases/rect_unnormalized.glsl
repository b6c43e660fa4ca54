#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2DRect u_lin;
uniform sampler2DRect u_near;
void main() {
  vec2 c = v_uv * vec2(6.0, 4.0) - 0.5;
  o_color = vec4(texture(u_lin, c).xy, texture(u_near, c).xy);
}
