#version 330 core
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_gpu_shader_fp64 : require
in vec2 v_uv;
out vec4 o_color;
uniform uvec4 u_a;
uniform uvec4 u_b;
uniform uvec4 u_c;
uniform uvec4 u_a2;
uniform uvec4 u_b2;
uniform uvec4 u_c2;
int64_t pick(uvec4 v, int px) {
  uvec2 w = px == 0 ? v.xy : px == 1 ? v.zw : uvec2(0u);
  return int64_t(packUint2x32(w));
}
void main() {
  int px = int(v_uv.x * 4.0);
  int hi = px >> 1;
  int k = px & 1;
  int64_t a = hi == 0 ? pick(u_a, k) : pick(u_a2, k);
  int64_t b = hi == 0 ? pick(u_b, k) : pick(u_b2, k);
  int64_t c = hi == 0 ? pick(u_c, k) : pick(u_c2, k);
  uint64_t ua = uint64_t(a), ub = uint64_t(b), uc = uint64_t(c);
  uvec2 r0 = unpackUint2x32(uint64_t(a / b));
  uvec2 r1 = unpackUint2x32(uint64_t(a % c));
  o_color = uintBitsToFloat(uvec4(r0, r1));
}
