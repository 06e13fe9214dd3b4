#version 330 core
// Milkdrop transition "warp": both pictures are twisted around a point near the middle, most at
// the middle of the change and most near that point, while one fades into the other; the twist
// turns one way or the other (from `variation`).
in vec2 uv;
out vec4 fragmentColor;

uniform sampler2D outgoing;
uniform sampler2D incoming;
uniform float progress;
uniform vec4 variation;
uniform vec2 size;

vec2 twisted(vec2 point, vec2 center, float turn, vec2 scaled) {
    vec2 offset = (point - center) * scaled;
    float falloff = max(0.0, 1.0 - length(offset) / 0.9);
    float angle = turn * falloff * falloff;
    float c = cos(angle);
    float s = sin(angle);
    return center + vec2(c * offset.x - s * offset.y, s * offset.x + c * offset.y) / scaled;
}

void main() {
    float aspect = size.x / max(size.y, 1.0);
    vec2 scaled = vec2(aspect, 1.0);
    vec2 center = mix(vec2(0.4), vec2(0.6), variation.xy);
    float direction = variation.z < 0.5 ? -1.0 : 1.0;
    float strength = 4.0 * sin(3.14159265 * progress);
    // The outgoing picture winds up as it leaves; the incoming one unwinds as it arrives.
    vec3 from = texture(outgoing, twisted(uv, center, direction * strength, scaled)).rgb;
    vec3 to = texture(incoming, twisted(uv, center, -direction * strength, scaled)).rgb;
    fragmentColor = vec4(mix(from, to, smoothstep(0.25, 0.75, progress)), 1.0);
}
