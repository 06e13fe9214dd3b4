#version 330 core
// Milkdrop transition "zoom": the outgoing picture rushes outward from a point near the middle,
// blurred along the rays from it, while the incoming one arrives magnified from the same point
// and shrinks to its own size. Only the outgoing picture is blurred, by four taps, each pixel's
// taps shifted by its own fraction of a step (the steps between taps become a grain the blur
// hides), and a picture whose share is nothing is not read: the software renderer pays for every
// tap (eight taps a picture cost 2.5 times a preset's frame at 1280x720; these, under 2.2).
in vec2 uv;
out vec4 fragmentColor;

uniform sampler2D outgoing;
uniform sampler2D incoming;
uniform float progress;
uniform vec4 variation;
uniform vec2 size;

const int taps = 4;

void main() {
    vec2 center = mix(vec2(0.4), vec2(0.6), variation.xy);
    float amount = smoothstep(0.3, 0.7, progress);
    // Out: 1x to 3x; in: 2x to 1x (magnified, so no sample falls outside the picture).
    float outZoom = 1.0 + 2.0 * progress * progress;
    float inZoom = mix(2.0, 1.0, smoothstep(0.0, 1.0, progress));
    float blur = 0.3 * sin(3.14159265 * min(1.0, progress * 1.4));
    float shift = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
    vec3 from = vec3(0.0);
    if (amount < 1.0) {
        for (int tap = 0; tap < taps; tap++) {
            float scale = outZoom * (1.0 - blur * (float(tap) + shift) / float(taps));
            from += texture(outgoing, center + (uv - center) / scale).rgb;
        }
        from /= float(taps);
    }
    vec3 to = amount > 0.0 ? texture(incoming, center + (uv - center) / inZoom).rgb : vec3(0.0);
    fragmentColor = vec4(mix(from, to, amount), 1.0);
}
