#version 330 core
// One instance per bar around a circle: a wedge from `inner` out `length` pixels, `width` radians
// wide, at `angle` radians clockwise from the top. Pixels have a top-left origin.
layout(location = 0) in vec4 bar; // angle, inner radius, length, angular width

uniform vec2 canvasSize;
uniform vec2 center;

out vec2 canvasPosition;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    float angle = bar.x + (corner.x - 0.5) * bar.w;
    float radius = bar.y + corner.y * bar.z;
    vec2 pixel = center + radius * vec2(sin(angle), -cos(angle));
    canvasPosition = pixel;
    gl_Position = vec4(pixel.x / canvasSize.x * 2.0 - 1.0, 1.0 - pixel.y / canvasSize.y * 2.0, 0.0, 1.0);
}
