#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_rg;
void main() {
  o_color = texture(u_rg, v_uv * 1.25);
}
