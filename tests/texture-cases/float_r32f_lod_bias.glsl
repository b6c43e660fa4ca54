#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_f;
void main() {
  o_color = texture(u_f, v_uv * 0.75 + 0.0625);
}
