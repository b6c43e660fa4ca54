#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_mip;
void main() {
  o_color = texture(u_mip, v_uv * (floor(v_uv.x * 4.0) + 1.0));
}
