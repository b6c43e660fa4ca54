#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_tex;
void main() {
  float q = v_uv.x + 0.5;
  o_color = textureProj(u_tex, vec3(v_uv * 2.0, q));
}
