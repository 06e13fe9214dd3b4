#version 330 core
in vec4 rectColour;
out vec4 fragmentColour;

void main() {
    fragmentColour = rectColour;
}
