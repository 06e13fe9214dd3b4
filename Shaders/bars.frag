#version 330 core
// A vertical gradient that runs from the centre line out to the tips, the same above and below.
in float heightFromCentre;

uniform vec4 centreColour;
uniform vec4 tipColour;

out vec4 fragmentColour;

void main() {
    float t = smoothstep(0.0, 0.9, heightFromCentre);
    fragmentColour = mix(centreColour, tipColour, t);
}
