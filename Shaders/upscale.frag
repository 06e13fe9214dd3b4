#version 330 core
// A picture drawn at a fraction of its size (a costly preset or shader), scaled up to it, a little
// sharper than bilinear: the sampling point is pulled toward the nearest texel's center by a
// smoothstep of the distance (by `sharpness`, 0: plain bilinear), so an edge keeps a short step
// instead of a ramp as wide as a texel. One filtered tap: on Mesa's software renderer a
// 1280x720 pass costs 5.3 ms (plain bilinear 4.8), where four separate fetches cost 10.8 and a
// five-tap unsharp mask more. The shader is kept this short on purpose: llvmpipe draws a simple
// one-tap shader on a fast path that a general one (picture.frag's, 10 ms) misses.
in vec2 pictureCoordinate;
out vec4 fragmentColor;

uniform sampler2D picture;
uniform float sharpness;
uniform bool keepsAlpha;  // the picture's own transparency (drawn over the canvas); otherwise opaque

void main() {
    vec2 size = vec2(textureSize(picture, 0));
    vec2 position = pictureCoordinate * size - 0.5;
    vec2 corner = floor(position);
    vec2 f = position - corner;
    f = mix(f, f * f * (3.0 - 2.0 * f), sharpness);
    vec4 texel = texture(picture, (corner + 0.5 + f) / size);
    fragmentColor = vec4(texel.rgb, keepsAlpha ? texel.a : 1.0);
}
