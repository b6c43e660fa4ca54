#version 330 core
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_smooth;
flat out vec4 v_flat;
void main() {
  gl_Position = a_pos;
  v_smooth = a_color;
  v_flat = a_color;
}
