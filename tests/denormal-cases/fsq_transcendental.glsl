#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform uvec4 u_a;
uniform uvec4 u_b;
uniform uvec4 u_c;
void main() {
  int px = int(v_uv.x * 4.0);
  float a = uintBitsToFloat(u_a[px]);
  float b = uintBitsToFloat(u_b[px]);
  float c = uintBitsToFloat(u_c[px]);
  vec4 r = vec4(0.0);
  r[0] = sqrt(abs(c));
  r[1] = exp2(-140.0 + b);
  r[2] = inversesqrt(abs(a));
  r[3] = log2(abs(c));
  o_color = r;
}
