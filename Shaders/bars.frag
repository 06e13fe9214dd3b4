#version 330 core
// A vertical gradient from the canvas's centre line out to the tips, the same above and below.
// The distance is taken per pixel from the interpolated canvas y: interpolating |distance|
// between a bar's corners would be flat, and gl_FragCoord would ignore where the canvas sits.
in float canvasY;

uniform vec2 canvasSize;
uniform vec4 centreColour;
uniform vec4 tipColour;

out vec4 fragmentColour;

void main() {
    float middle = canvasSize.y * 0.5;
    float fromCentre = clamp(abs(canvasY - middle) / middle, 0.0, 1.0);
    fragmentColour = mix(centreColour, tipColour, fromCentre);
}
