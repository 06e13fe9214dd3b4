// A Shadertoy shader (paste it on shadertoy.com with iChannel0 set to a sound, or run it here:
// decibar live --shader Shaders/examples/spectrum-ring.glsl).
// The spectrum wrapped around a glowing ring, lows at the top; the waveform traced inside it.
// Reads iChannel0 (row 0 the spectrum, row 1 the waveform); u_beat is Decibar's own (0 elsewhere).

const float PI = 3.14159265;

// The spectrum on a log-like scale: more of the ring for the lows, where music lives.
float spectrum(float t) {
    return texture(iChannel0, vec2(pow(t, 2.0) * 0.7 + 0.005, 0.25)).r;
}

float wave(float t) {
    return texture(iChannel0, vec2(t, 0.75)).r - 0.5;
}

vec3 palette(float t) {
    return 0.55 + 0.45 * cos(2.0 * PI * (vec3(0.0, 0.33, 0.67) + t));
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 p = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    float radius = length(p);
    // 0 at the top, going round both ways: the two halves mirror each other.
    float angle = atan(p.x, p.y);
    float around = abs(angle) / PI;
    float level = pow(spectrum(around), 1.3);
    float inner = 0.42 + 0.03 * u_beat;
    float outer = inner + 0.05 + 0.45 * level;
    vec3 color = vec3(0.01, 0.01, 0.03);
    // The bars: 96 slices of the ring, with a thin gap between them.
    float slice = fract(around * 48.0);
    float gap = smoothstep(0.0, 0.12, slice) * smoothstep(1.0, 0.88, slice);
    float inside = smoothstep(inner - 0.004, inner, radius) * smoothstep(outer + 0.004, outer, radius);
    vec3 hue = palette(0.6 * around + 0.05 * iTime);
    color += hue * inside * gap * (0.5 + level);
    // A soft glow beyond the bars' tips.
    color += hue * 0.35 * level * exp(-12.0 * max(0.0, radius - outer));
    // The waveform, a circle that ripples inside the ring.
    float traced = inner * 0.8 + 0.2 * wave(around);
    color += vec3(0.8, 0.9, 1.0) * exp(-pow((radius - traced) * 160.0, 2.0)) * 0.9;
    // A faint disc in the middle that breathes with the bass.
    color += palette(0.05 * iTime + 0.5) * 0.08 * spectrum(0.02) * smoothstep(inner * 0.8, 0.0, radius);
    fragColor = vec4(pow(color, vec3(0.9)), 1.0);
}
