#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform samplerCube u_cube;
uniform sampler3D u_vol;
void main() {
  vec3 d = vec3(v_uv.x * 2.0 - 1.0, 1.0, v_uv.y * 2.0 - 1.0);
  vec4 a = textureGrad(u_cube, d, vec3(v_uv.x * 0.5, 0.0, 0.0), vec3(0.0, 0.0, v_uv.y * 0.25));
  vec4 b = textureGrad(u_vol, vec3(v_uv, 0.5), vec3(v_uv.x * 0.5, 0.0, 0.0), vec3(0.0, 0.0, v_uv.y));
  o_color = vec4(a.xy, b.xy);
}
