#version 330 core
in vec2 pictureCoordinate;
in vec2 shapeCoordinate;
out vec4 fragmentColor;

uniform sampler2D picture;
uniform bool round;   // cut to the circle the rectangle holds (cover art in the middle of radial bars)
uniform float edge;   // the round edge's softness, as a share of the diameter
uniform bool keepsAlpha;  // the picture's own transparency (a watermark); otherwise opaque

void main() {
    float alpha = 1.0;
    if (round) {
        float distance = length(shapeCoordinate - 0.5) * 2.0;
        alpha = 1.0 - smoothstep(1.0 - edge, 1.0, distance);
    }
    vec4 texel = texture(picture, pictureCoordinate);
    fragmentColor = vec4(texel.rgb, keepsAlpha ? alpha * texel.a : alpha);
}
