#version 330 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler3D u_vol;
void main() {
  o_color = texture(u_vol, vec3(v_uv, v_uv.y * 0.75 + 0.125));
}
