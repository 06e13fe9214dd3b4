#version 330 core
// Labels are rendered white with coverage in alpha; tint them here so one texture serves any color.
in vec2 textureCoordinate;

uniform sampler2D label;
uniform vec4 textColor;
// An opaque panel the label is drawn on (alpha 1), mixed here instead of blended; alpha 0: none.
uniform vec4 backdrop;

out vec4 fragmentColor;

void main() {
    float coverage = texture(label, textureCoordinate).a;
    if (backdrop.a > 0.0) {
        fragmentColor = vec4(mix(backdrop.rgb, textColor.rgb, textColor.a * coverage), 1.0);
    } else {
        fragmentColor = vec4(textColor.rgb, textColor.a * coverage);
    }
}
