#version 330 core
// One textured rectangle (a rendered label), placed in whole pixels with a top-left origin.
uniform vec4 labelRect; // x, y, width, height
uniform vec2 canvasSize;

out vec2 textureCoordinate;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 pixel = labelRect.xy + corner * labelRect.zw;
    textureCoordinate = corner; // the label's rows are stored top first
    gl_Position = vec4(pixel.x / canvasSize.x * 2.0 - 1.0, 1.0 - pixel.y / canvasSize.y * 2.0, 0.0, 1.0);
}
