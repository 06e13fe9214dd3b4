#version 330 core
// A vertical gradient from the centre line out to the tips, the same above and below.
// Worked out per pixel: interpolating |distance| between a bar's corners would be flat.
uniform vec2 canvasSize;
uniform vec4 centreColour;
uniform vec4 tipColour;

out vec4 fragmentColour;

void main() {
    float middle = canvasSize.y * 0.5;
    float fromCentre = clamp(abs(gl_FragCoord.y - middle) / middle, 0.0, 1.0);
    fragmentColour = mix(centreColour, tipColour, fromCentre);
}
