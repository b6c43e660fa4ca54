#version 330 core
in vec4 v_smooth;
flat in vec4 v_flat;
out vec4 o_color;
void main() { o_color = v_smooth; }
