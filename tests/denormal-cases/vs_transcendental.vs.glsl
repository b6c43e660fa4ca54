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
  v_r0 = vec4(sqrt(abs(c0)), exp2(-140.0 + b0), inversesqrt(abs(a0)), log2(abs(c0)));
  float a1 = uintBitsToFloat(u_a[1]), b1 = uintBitsToFloat(u_b[1]), c1 = uintBitsToFloat(u_c[1]);
  v_r1 = vec4(sqrt(abs(c1)), exp2(-140.0 + b1), inversesqrt(abs(a1)), log2(abs(c1)));
  float a2 = uintBitsToFloat(u_a[2]), b2 = uintBitsToFloat(u_b[2]), c2 = uintBitsToFloat(u_c[2]);
  v_r2 = vec4(sqrt(abs(c2)), exp2(-140.0 + b2), inversesqrt(abs(a2)), log2(abs(c2)));
  float a3 = uintBitsToFloat(u_a[3]), b3 = uintBitsToFloat(u_b[3]), c3 = uintBitsToFloat(u_c[3]);
  v_r3 = vec4(sqrt(abs(c3)), exp2(-140.0 + b3), inversesqrt(abs(a3)), log2(abs(c3)));
}
