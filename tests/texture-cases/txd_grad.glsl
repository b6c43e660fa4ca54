#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_mip;
void main() {
  o_color = textureGrad(u_mip, v_uv, vec2(v_uv.x * 0.25, 0.0), vec2(0.0, v_uv.y * 0.125));
}
