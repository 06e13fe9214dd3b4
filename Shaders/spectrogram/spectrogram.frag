#version 330 core
// A spectrogram from a ring of columns: `columns` holds one texture row per column (its texels the
// frequency rows, low to high, already in the color map's colors), `newest` the ring row made last.
// The plot's newest edge is the right (or, vertical, the bottom); its lows are at the bottom (left).
in vec2 uv;
out vec4 color;

uniform sampler2D columns;
uniform float newest;
uniform float capacity;
uniform float shown;
uniform float rowCount;
uniform int vertical;

void main() {
    float along = vertical == 1 ? uv.y : uv.x;
    float across = vertical == 1 ? uv.x : uv.y;
    // `along` runs 0 at the oldest column shown to 1 at the newest.
    float column = newest - (1.0 - along) * (shown - 1.0);
    float v = (mod(column, capacity) + 0.5) / capacity;
    float u = (across * (rowCount - 1.0) + 0.5) / rowCount;
    color = vec4(texture(columns, vec2(u, v)).rgb, 1.0);
}
