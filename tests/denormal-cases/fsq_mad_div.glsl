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
  r[0] = a * b + c;
  r[1] = a / b;
  r[2] = c * 2.0 + a;
  r[3] = dot(vec2(a, c), vec2(b, b));
  o_color = r;
}
