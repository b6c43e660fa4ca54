#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_tex;
void main() {
  o_color = textureOffset(u_tex, v_uv, ivec2(-2, 3));
}
