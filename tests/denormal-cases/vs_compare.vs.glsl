#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
uniform uvec4 u_a;
uniform uvec4 u_b;
uniform uvec4 u_c;
flat out vec4 v_r0;
flat out vec4 v_r1;
flat out vec4 v_r2;
flat out vec4 v_r3;
void main() {
  v_uv = a_pos * 0.5 + 0.5;
  gl_Position = vec4(a_pos, 0.0, 1.0);
  float a0 = uintBitsToFloat(u_a[0]), b0 = uintBitsToFloat(u_b[0]), c0 = uintBitsToFloat(u_c[0]);
  v_r0 = vec4(float(a0 > 0.0), max(a0, c0), min(a0, c0), sign(c0));
  float a1 = uintBitsToFloat(u_a[1]), b1 = uintBitsToFloat(u_b[1]), c1 = uintBitsToFloat(u_c[1]);
  v_r1 = vec4(float(a1 > 0.0), max(a1, c1), min(a1, c1), sign(c1));
  float a2 = uintBitsToFloat(u_a[2]), b2 = uintBitsToFloat(u_b[2]), c2 = uintBitsToFloat(u_c[2]);
  v_r2 = vec4(float(a2 > 0.0), max(a2, c2), min(a2, c2), sign(c2));
  float a3 = uintBitsToFloat(u_a[3]), b3 = uintBitsToFloat(u_b[3]), c3 = uintBitsToFloat(u_c[3]);
  v_r3 = vec4(float(a3 > 0.0), max(a3, c3), min(a3, c3), sign(c3));
}
