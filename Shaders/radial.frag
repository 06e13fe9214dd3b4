#version 330 core
// Radial bars: the theme's gradient from the inner radius (center color) out to the furthest tip
// (tip color), by each pixel's distance from the center; or one solid color (the caps).
in vec2 canvasPosition;

uniform vec2 center;
uniform float inner;
uniform float outer;
uniform vec4 centerColor;
uniform vec4 tipColor;
uniform bool solid;

out vec4 fragmentColor;

void main() {
    float fromBase = clamp((length(canvasPosition - center) - inner) / max(outer - inner, 1.0), 0.0, 1.0);
    fragmentColor = solid ? tipColor : mix(centerColor, tipColor, fromBase);
}
