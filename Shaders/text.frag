#version 330 core
// Labels are rendered white with coverage in alpha; tint them here so one texture serves any color.
in vec2 textureCoordinate;

uniform sampler2D label;
uniform vec4 textColor;

out vec4 fragmentColor;

void main() {
    float coverage = texture(label, textureCoordinate).a;
    fragmentColor = vec4(textColor.rgb, textColor.a * coverage);
}
