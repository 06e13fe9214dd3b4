#version 330 core
// Milkdrop transition "circle": the incoming preset shows through a circle growing from a point
// near the middle (where, from `variation`) until it covers the picture; its edge is soft and
// lit a little, so the circle reads as a shape, not a cut-out.
in vec2 uv;
out vec4 fragmentColor;

uniform sampler2D outgoing;
uniform sampler2D incoming;
uniform float progress;
uniform vec4 variation;
uniform vec2 size;

void main() {
    float aspect = size.x / max(size.y, 1.0);
    vec2 center = mix(vec2(0.3), vec2(0.7), variation.xy);
    vec2 scaled = vec2(aspect, 1.0);
    // The farthest corner is where the circle has covered everything.
    float reach = 0.0;
    for (int corner = 0; corner < 4; corner++) {
        vec2 point = vec2(float(corner & 1), float(corner >> 1));
        reach = max(reach, length((point - center) * scaled));
    }
    float edge = 0.06;
    float radius = mix(-edge, reach + edge, smoothstep(0.0, 1.0, progress));
    float distanceOut = length((uv - center) * scaled) - radius;
    float inside = 1.0 - smoothstep(-edge, edge, distanceOut);
    vec3 color = mix(texture(outgoing, uv).rgb, texture(incoming, uv).rgb, inside);
    float rim = 1.0 - abs(distanceOut) / edge;
    color += 0.25 * max(rim, 0.0) * (1.0 - progress);
    fragmentColor = vec4(color, 1.0);
}
