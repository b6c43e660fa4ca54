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
  r[0] = float(abs(a) * b * 2.0e-30 == 0.0);
  r[1] = float(pow(abs(b), 200.0) == 0.0);
  r[2] = float(a * b != 0.0);
  r[3] = float(c + a != 0.0);
  o_color = r;
}
