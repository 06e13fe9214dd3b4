#version 330 core
// An example for --shader-dir: soft glowing columns that breathe with the music.
// Uniforms Decibar sets (declare the ones you use):
//   sampler2D bars      one texel per bar, red = value 0...1, left to right
//   int barCount        how many bars
//   vec2 resolution     the drawing area in pixels
//   float time          seconds since start, wrapped every hour
//   vec4 background, centerColor, tipColor   the theme's colors
//   float u_beat        1 when a beat is heard, halving every 80 ms
//   float u_beat_phase  0 at a beat, rising to 1 where the next is expected
//   float u_bpm         the tempo (0 while none is known)
// `uv` runs from (0,0) at the bottom left to (1,1) at the top right.
in vec2 uv;

uniform sampler2D bars;
uniform int barCount;
uniform vec2 resolution;
uniform float time;
uniform vec4 background;
uniform vec4 centerColor;
uniform vec4 tipColor;
uniform float u_beat;
uniform float u_beat_phase;
uniform float u_bpm;

out vec4 color;

void main() {
    float value = texture(bars, vec2(uv.x, 0.5)).r;
    // Distance from the center line, 0 in the middle, 1 at the top and bottom edges.
    float fromCenter = abs(uv.y - 0.5) * 2.0;
    // Inside the column: the theme's gradient; outside: a glow that fades with distance.
    float inside = step(fromCenter, value);
    // The glow breathes once per beat when there is a tempo (slowly with the clock when not),
    // and flares as each beat is heard.
    float breath = u_bpm > 0.0 ? cos(6.2831853 * u_beat_phase) : sin(time * 2.0);
    float glow = exp(-12.0 * max(0.0, fromCenter - value)) * (0.35 + 0.15 * breath + 0.5 * u_beat);
    // Thin dark gaps between bars.
    float slot = fract(uv.x * float(barCount));
    float gap = smoothstep(0.0, 0.08, slot) * smoothstep(1.0, 0.92, slot);
    vec4 bar = mix(centerColor, tipColor, fromCenter);
    color = mix(background, bar, clamp(inside * gap + glow * gap, 0.0, 1.0));
}
