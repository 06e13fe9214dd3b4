#version 330 core
// Milkdrop transition "plasma": a field of crossing waves (moving as the change goes on, laid out
// by `variation`) and a threshold rising through it; the incoming preset shows where the field
// is below the threshold, so it spreads in from the field's valleys with soft edges.
in vec2 uv;
out vec4 fragmentColor;

uniform sampler2D outgoing;
uniform sampler2D incoming;
uniform float progress;
uniform vec4 variation;
uniform vec2 size;

void main() {
    float aspect = size.x / max(size.y, 1.0);
    vec2 p = (uv - 0.5) * vec2(aspect, 1.0) * 6.0;
    float phase = 6.2831853 * variation.w + progress * 3.0;
    float field = sin(p.x * (0.8 + variation.x) + phase)
                + sin(p.y * (0.9 + variation.y) - phase * 0.7)
                + sin((p.x + p.y) * (0.6 + variation.z) + phase * 1.3)
                + sin(length(p + vec2(variation.y - 0.5, variation.x - 0.5) * 4.0) * 1.5 - phase);
    // -4..4 to 0..1.
    field = field * 0.125 + 0.5;
    float edge = 0.08;
    float threshold = mix(-edge, 1.0 + edge, progress);
    float amount = 1.0 - smoothstep(threshold - edge, threshold + edge, field);
    fragmentColor = vec4(mix(texture(outgoing, uv).rgb, texture(incoming, uv).rgb, amount), 1.0);
}
