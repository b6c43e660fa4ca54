#version 330 core
#extension GL_ARB_texture_cube_map_array : require
in vec2 v_uv;
out vec4 o_color;
uniform samplerCubeArray u_ca;
void main() {
  vec3 d = vec3(v_uv.x * 2.0 - 1.0, v_uv.y * 2.0 - 1.0, -0.5);
  o_color = texture(u_ca, vec4(d, v_uv.x * 3.0 - 0.5));
}
