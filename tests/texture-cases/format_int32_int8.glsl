#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform usampler2D u_u;
uniform isampler2D u_i;
void main() {
  uvec4 a = texelFetch(u_u, ivec2(v_uv * 4.0), 0);
  ivec4 b = texelFetch(u_i, ivec2(v_uv * 4.0), 0);
  o_color = vec4(float(a.x), float(a.w), float(b.y), float(b.w));
}
