// A Shadertoy shader (decibar live --shader Shaders/examples/aurora.glsl, or paste it on
// shadertoy.com with a sound on iChannel0): curtains of light over a dark horizon, their height
// and brightness following the bass, the mids and the highs.

float band(float from, float to) {
    // The mean of the spectrum row between two texture coordinates.
    float sum = 0.0;
    for (int i = 0; i < 4; i++) {
        sum += texture(iChannel0, vec2(mix(from, to, (float(i) + 0.5) / 4.0), 0.25)).r;
    }
    return sum / 4.0;
}

float curtain(vec2 p, float offset, float speed, float height) {
    float ripple = sin(p.x * 3.0 + iTime * speed + offset) * 0.08 + sin(p.x * 7.3 - iTime * speed * 1.7 + offset) * 0.03;
    float edge = 0.15 + ripple;
    float above = p.y - edge;
    // Bright at its lower edge, fading upward over `height`, in vertical rays that drift.
    float rays = 0.55 + 0.45 * sin(p.x * 55.0 + 3.0 * sin(p.x * 5.0 + iTime * speed) + offset);
    return smoothstep(0.0, 0.015, above) * exp(-above / max(height, 0.02)) * rays;
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 p = fragCoord / iResolution.y;
    p.x -= 0.5 * iResolution.x / iResolution.y;
    float bass = band(0.0, 0.03), mids = band(0.03, 0.15), highs = band(0.15, 0.5);
    vec3 sky = mix(vec3(0.0, 0.01, 0.03), vec3(0.02, 0.03, 0.09), p.y);
    vec3 color = sky;
    color += vec3(0.1, 0.9, 0.5) * curtain(p, 0.0, 0.3, 0.05 + 0.3 * bass * bass) * (0.15 + 0.8 * bass * bass);
    color += vec3(0.2, 0.5, 1.0) * curtain(p + vec2(0.3, -0.08), 2.0, 0.45, 0.04 + 0.25 * mids * mids) * (0.1 + 0.8 * mids * mids);
    color += vec3(0.9, 0.3, 0.8) * curtain(p + vec2(-0.2, -0.16), 4.0, 0.6, 0.03 + 0.2 * highs * highs) * (0.1 + 0.8 * highs * highs);
    // Stars, dimmed where the light is.
    vec2 cell = floor(fragCoord / 3.0);
    float star = step(0.997, fract(sin(dot(cell, vec2(12.9898, 78.233))) * 43758.5453));
    color += star * 0.6 * smoothstep(0.3, 0.6, p.y) / (1.0 + 4.0 * length(color - sky));
    // The horizon: hills in silhouette.
    float hills = 0.12 + 0.04 * sin(p.x * 4.0) + 0.02 * sin(p.x * 11.0 + 1.0);
    color = mix(color, vec3(0.0, 0.005, 0.01), smoothstep(hills + 0.003, hills, p.y));
    fragColor = vec4(color, 1.0);
}
