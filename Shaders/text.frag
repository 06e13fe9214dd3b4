#version 330 core
// Labels are rendered white with coverage in alpha; tint them here so one texture serves any colour.
in vec2 textureCoordinate;

uniform sampler2D label;
uniform vec4 textColour;

out vec4 fragmentColour;

void main() {
    float coverage = texture(label, textureCoordinate).a;
    fragmentColour = vec4(textColour.rgb, textColour.a * coverage);
}
