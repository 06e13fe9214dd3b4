#version 330 core
// Plain colored rectangles in whole pixels (top-left origin): scrubber columns, playhead, overlays.
layout(location = 0) in vec4 rect;   // x, y, width, height
layout(location = 1) in vec4 color;

uniform vec2 canvasSize;

out vec4 rectColor;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 pixel = rect.xy + corner * rect.zw;
    rectColor = color;
    gl_Position = vec4(pixel.x / canvasSize.x * 2.0 - 1.0, 1.0 - pixel.y / canvasSize.y * 2.0, 0.0, 1.0);
}
