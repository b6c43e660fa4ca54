#version 330 core
#extension GL_ARB_texture_query_lod : require
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_lin;
uniform sampler2D u_near;
void main() {
  vec2 c = v_uv * vec2(floor(v_uv.x * 8.0) + 0.5, floor(v_uv.y * 4.0) + 1.0);
  o_color = vec4(textureQueryLOD(u_lin, c), textureQueryLOD(u_near, c));
}
