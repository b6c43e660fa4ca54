#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler1DShadow u_line;
uniform sampler2DRectShadow u_rect;
uniform sampler2DShadow u_flat;
void main() {
  float a = texture(u_line, vec3(v_uv.x, 0.0, v_uv.y));
  float b = texture(u_rect, vec3(v_uv * 4.0, 0.5));
  float c = textureProj(u_flat, vec4(v_uv, 0.5, 1.0) * (v_uv.x + 0.5));
  o_color = vec4(a, b, c, 1.0);
}
