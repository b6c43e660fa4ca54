#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_mip;
void main() {
  o_color = textureLod(u_mip, v_uv * 1.5 - 0.25, v_uv.x * 6.0 - 1.0);
}
