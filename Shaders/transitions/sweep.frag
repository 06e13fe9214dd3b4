#version 330 core
// Milkdrop transition "sweep": a soft straight edge crosses the picture at an angle (from
// `variation`), the incoming preset behind it.
in vec2 uv;
out vec4 fragmentColor;

uniform sampler2D outgoing;
uniform sampler2D incoming;
uniform float progress;
uniform vec4 variation;
uniform vec2 size;

void main() {
    float aspect = size.x / max(size.y, 1.0);
    float angle = 6.2831853 * variation.x;
    vec2 direction = vec2(cos(angle), sin(angle));
    vec2 scaled = vec2(aspect, 1.0);
    // Where along the sweep this point is: 0 at the first corner it reaches, 1 at the last.
    float half_extent = 0.5 * (abs(direction.x) * aspect + abs(direction.y));
    float along = (dot((uv - 0.5) * scaled, direction) + half_extent) / (2.0 * half_extent);
    float edge = 0.12;
    float front = mix(-edge, 1.0 + edge, smoothstep(0.0, 1.0, progress));
    float amount = 1.0 - smoothstep(front - edge, front + edge, along);
    fragmentColor = vec4(mix(texture(outgoing, uv).rgb, texture(incoming, uv).rgb, amount), 1.0);
}
