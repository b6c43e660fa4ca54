#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_mip;
void main() {
  vec2 k = vec2(floor(v_uv.x * 8.0) + 0.5, floor(v_uv.y * 4.0) + 1.0);
  o_color = texture(u_mip, v_uv * k);
}
