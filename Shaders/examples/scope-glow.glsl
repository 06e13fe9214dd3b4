// A Shadertoy shader (decibar live --shader Shaders/examples/scope-glow.glsl, or paste it on
// shadertoy.com with a sound on iChannel0): the waveform as a glowing oscilloscope trace across
// a grid, its color set by where the spectrum's energy is, brighter on the beat (Decibar's u_beat).

float wave(float x) {
    return texture(iChannel0, vec2(x, 0.75)).r * 2.0 - 1.0;
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy;
    float aspect = iResolution.x / iResolution.y;
    // The spectrum's center of mass: low music glows warm, bright music cool.
    float weight = 0.0, total = 0.0;
    for (int i = 0; i < 8; i++) {
        float x = (float(i) + 0.5) / 16.0;
        float level = texture(iChannel0, vec2(x, 0.25)).r;
        weight += level * x;
        total += level;
    }
    float center = total > 0.0 ? weight / total : 0.1;
    vec3 hue = mix(vec3(1.0, 0.45, 0.1), vec3(0.2, 0.7, 1.0), smoothstep(0.05, 0.25, center));
    // Distance to the trace: to the segments joining its samples around this column, so steep
    // stretches stay lines. x is scaled by the aspect so distances are round.
    vec2 here = vec2(uv.x * aspect, uv.y) * 2.0 - vec2(aspect, 1.0);
    float nearest = 10.0;
    float step = 4.0 / iResolution.x;
    vec2 previous = vec2(0.0);
    for (int i = -4; i <= 4; i++) {
        float x = uv.x + float(i) * step;
        vec2 point = vec2(x * aspect * 2.0 - aspect, clamp(1.3 * wave(x), -0.98, 0.98));
        if (i > -4) {
            vec2 segment = point - previous;
            float along = clamp(dot(here - previous, segment) / dot(segment, segment), 0.0, 1.0);
            nearest = min(nearest, length(here - previous - along * segment));
        }
        previous = point;
    }
    float thickness = 2.0 / iResolution.y;
    float glow = exp(-nearest / (thickness * (4.0 + 8.0 * u_beat)));
    float core = smoothstep(thickness * 1.5, 0.0, nearest);
    // The scope's grid: ten divisions across, eight up.
    vec2 grid = abs(fract(vec2(uv.x * 10.0, uv.y * 8.0) + 0.5) - 0.5) / fwidth(vec2(uv.x * 10.0, uv.y * 8.0));
    float lines = 1.0 - min(min(grid.x, grid.y), 1.0);
    vec3 color = vec3(0.01, 0.015, 0.02) + vec3(0.05, 0.07, 0.08) * lines;
    // Behind the trace, the spectrum rises from the bottom as a faint glow of the same color.
    float level = texture(iChannel0, vec2(pow(uv.x, 2.0) * 0.5, 0.25)).r;
    color += hue * 0.18 * smoothstep(level * level, 0.0, uv.y) * level;
    color += hue * glow * 0.8 + vec3(1.0) * core * 0.9;
    // A vignette, as on a tube.
    color *= 1.0 - 0.6 * pow(length(uv - 0.5) * 1.3, 3.0);
    fragColor = vec4(color, 1.0);
}
