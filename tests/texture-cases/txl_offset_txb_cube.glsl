#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_mip;
uniform samplerCube u_cube;
void main() {
  vec4 a = textureLodOffset(u_mip, v_uv, v_uv.y * 4.0, ivec2(3, -2));
  vec4 b = texture(u_cube, vec3(1.0, v_uv * 2.0 - 1.0), v_uv.x * 4.0 - 1.0);
  o_color = vec4(a.xz, b.xy);
}
