#version 330 core
in vec4 v_smooth;
out vec4 o_color;
void main() {
  o_color = gl_FrontFacing ? vec4(0.0, 1.0, v_smooth.z, 1.0) : vec4(1.0, 0.0, v_smooth.x, 0.5);
}
