#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform samplerCube u_cube;
void main() {
  vec3 d = vec3(v_uv.x * 2.0 - 1.0, v_uv.y * 2.0 - 1.0, v_uv.x - v_uv.y);
  o_color = texture(u_cube, d);
}
