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
  r[0] = sin(a);
  r[1] = cos(c);
  r[2] = pow(abs(a), b);
  r[3] = pow(abs(c), b);
  o_color = r;
}
