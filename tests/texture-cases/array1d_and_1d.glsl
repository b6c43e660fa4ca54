#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler1DArray u_arr;
uniform sampler1D u_line;
void main() {
  vec4 a = texture(u_arr, vec2(v_uv.x, v_uv.y * 3.0));
  vec4 b = texture(u_line, v_uv.y * 1.25);
  o_color = vec4(a.xy, b.xy);
}
