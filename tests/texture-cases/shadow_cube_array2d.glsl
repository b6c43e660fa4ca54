#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform samplerCubeShadow u_cube;
uniform sampler2DArrayShadow u_arr;
void main() {
  vec3 d = vec3(v_uv.x * 2.0 - 1.0, v_uv.y * 2.0 - 1.0, 0.5);
  float a = texture(u_cube, vec4(d, v_uv.x));
  float b = texture(u_arr, vec4(v_uv, v_uv.y * 2.0, v_uv.x));
  o_color = vec4(a, b, 0.0, 1.0);
}
