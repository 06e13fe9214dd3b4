#version 330 core
// A video frame in a pixel rectangle (top-left origin), as a strip of two triangles.
uniform vec4 rect;        // x, y, width, height
uniform vec2 canvasSize;
uniform bool bottomRowFirst; // a texture OpenGL drew into, rather than one uploaded top row first
uniform vec2 cropScale;   // the share of the picture shown across and down (1, 1: all of it)

out vec2 pictureCoordinate;
out vec2 shapeCoordinate; // 0...1 across the rectangle, for a round mask

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 pixel = rect.xy + corner * rect.zw;
    shapeCoordinate = corner;
    // Rows are uploaded top row first, so the texture's first row is the picture's top.
    vec2 uv = bottomRowFirst ? vec2(corner.x, 1.0 - corner.y) : corner;
    pictureCoordinate = 0.5 + (uv - 0.5) * cropScale;
    gl_Position = vec4(pixel.x / canvasSize.x * 2.0 - 1.0, 1.0 - pixel.y / canvasSize.y * 2.0, 0.0, 1.0);
}
