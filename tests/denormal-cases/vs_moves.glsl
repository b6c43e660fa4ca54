#version 330 core
in vec2 v_uv;
flat in vec4 v_r0;
flat in vec4 v_r1;
flat in vec4 v_r2;
flat in vec4 v_r3;
out vec4 o_color;
void main() {
  int px = int(v_uv.x * 4.0);
  o_color = px == 0 ? v_r0 : px == 1 ? v_r1 : px == 2 ? v_r2 : v_r3;
}
