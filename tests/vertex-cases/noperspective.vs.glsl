#version 330 core
layout(location = 0) in vec4 a_pos;
layout(location = 1) in float a_value;
out float v_persp;
noperspective out float v_linear;
void main() {
  gl_Position = a_pos;
  v_persp = a_value;
  v_linear = a_value;
}
