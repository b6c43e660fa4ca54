#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2DShadow u_lin;
uniform sampler2DShadow u_near;
void main() {
  vec3 c = vec3(v_uv, v_uv.y * 0.75 + 0.125);
  o_color = vec4(texture(u_lin, c), texture(u_near, c), 0.0, 1.0);
}
