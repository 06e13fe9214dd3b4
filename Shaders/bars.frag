#version 330 core
// A vertical gradient from the line the bars grow from (the center, the bottom or the top) out
// to their tips. The distance is taken per pixel from the interpolated canvas y: interpolating
// |distance| between a bar's corners would be flat, and gl_FragCoord would ignore where the
// canvas sits in the window.
in float canvasY;

uniform float baseline; // canvas pixels from the top
uniform float reach;    // pixels from the baseline to the furthest tip
uniform vec4 centerColor;
uniform vec4 tipColor;

out vec4 fragmentColor;

void main() {
    float fromBase = clamp(abs(canvasY - baseline) / max(reach, 1.0), 0.0, 1.0);
    fragmentColor = mix(centerColor, tipColor, fromBase);
}
