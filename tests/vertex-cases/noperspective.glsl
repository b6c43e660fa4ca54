#version 330 core
in float v_persp;
noperspective in float v_linear;
out vec4 o_color;
void main() { o_color = vec4(v_persp, v_linear, v_persp - v_linear, gl_FragCoord.w); }
