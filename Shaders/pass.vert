#version 330 core
// A rectangle covering the viewport, for user fragment shaders: two triangles as a strip, with
// `uv` from (0,0) at the bottom left to (1,1) at the top right.
out vec2 uv;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    uv = corner;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
