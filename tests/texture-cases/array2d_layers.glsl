#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2DArray u_arr;
void main() {
  o_color = texture(u_arr, vec3(v_uv, v_uv.x * 4.0 - 0.7));
}
