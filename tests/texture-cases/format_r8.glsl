#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_r8;
void main() {
  o_color = texture(u_r8, v_uv * 1.25);
}
