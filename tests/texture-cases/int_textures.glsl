#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform usampler2D u_u;
uniform isampler2D u_i;
void main() {
  uvec4 a = texelFetch(u_u, ivec2(v_uv * 4.0), 0);
  ivec4 b = texture(u_i, v_uv);
  o_color = vec4(float(a.x), float(a.y), float(b.x), float(b.y));
}
