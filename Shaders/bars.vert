#version 330 core
// One instance per bar. The rectangle arrives in whole pixels with a top-left origin
// (the same numbers the layout code and its tests use), so bar heights are exact.
layout(location = 0) in vec4 barRect; // x, y, width, height

uniform vec2 canvasSize;

out float canvasY; // pixels from the top of the canvas; linear, so it interpolates exactly

void main() {
    // Two triangles as a strip: corners (0,0) (1,0) (0,1) (1,1).
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 pixel = barRect.xy + corner * barRect.zw;
    canvasY = pixel.y;
    vec2 ndc = vec2(pixel.x / canvasSize.x * 2.0 - 1.0, 1.0 - pixel.y / canvasSize.y * 2.0);
    gl_Position = vec4(ndc, 0.0, 1.0);
}
