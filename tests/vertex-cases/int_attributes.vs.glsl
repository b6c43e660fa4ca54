#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in ivec4 a_int;
layout(location = 2) in uvec4 a_uint;
flat out ivec4 v_int;
flat out uvec4 v_uint;
void main() {
  gl_Position = vec4(a_pos, 0.0, 1.0);
  v_int = a_int;
  v_uint = a_uint;
}
