#version 330 core
flat in ivec4 v_int;
flat in uvec4 v_uint;
out vec4 o_color;
void main() {
  o_color = vec4(float(v_int.x) / 8.0 + float(v_int.y), float(v_int.z) + float(v_int.w) * 2.0,
                 float(v_uint.x) + float(v_uint.y >> 28u), uintBitsToFloat(v_uint.w));
}
