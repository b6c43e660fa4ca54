#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2DArray u_arr;
void main() {
  ivec3 s = textureSize(u_arr, int(v_uv.x * 6.0));
  o_color = vec4(vec3(s) / 32.0, 1.0);
}
