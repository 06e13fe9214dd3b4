#version 330 core
// Milkdrop transition "blend": a cross-fade, eased at both ends so neither picture jumps.
// Every transition shader reads the same inputs (see MilkdropTransitionRenderer): the outgoing
// and incoming presets' pictures, how far the change has gone (0 to 1), four numbers in 0..1 that
// vary its shape from change to change, and the picture's size in pixels.
in vec2 uv;
out vec4 fragmentColor;

uniform sampler2D outgoing;
uniform sampler2D incoming;
uniform float progress;
uniform vec4 variation;
uniform vec2 size;

void main() {
    float amount = smoothstep(0.0, 1.0, progress);
    fragmentColor = vec4(mix(texture(outgoing, uv).rgb, texture(incoming, uv).rgb, amount), 1.0);
}
