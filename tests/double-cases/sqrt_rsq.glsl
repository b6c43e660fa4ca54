#version 330 core
#extension GL_ARB_gpu_shader_fp64 : require
in vec2 v_uv;
out vec4 o_color;
uniform uvec4 u_a;
uniform uvec4 u_b;
uniform uvec4 u_c;
uniform uvec4 u_a2;
uniform uvec4 u_b2;
uniform uvec4 u_c2;
double frexp_m(double x) { int e; double m = frexp(x, e); return m + double(e) * 1024.0lf; }
double pick(uvec4 v, int px) {
  uvec2 w = px == 0 ? v.xy : px == 1 ? v.zw : uvec2(0u);
  return packDouble2x32(w);
}
void main() {
  int px = int(v_uv.x * 4.0);
  int hi = px >> 1;
  int k = px & 1;
  double a = hi == 0 ? pick(u_a, k) : pick(u_a2, k);
  double b = hi == 0 ? pick(u_b, k) : pick(u_b2, k);
  double c = hi == 0 ? pick(u_c, k) : pick(u_c2, k);
  uvec2 r0 = unpackDouble2x32(sqrt(abs(b)));
  uvec2 r1 = unpackDouble2x32(inversesqrt(abs(a)));
  o_color = uintBitsToFloat(uvec4(r0, r1));
}
