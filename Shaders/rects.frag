#version 330 core
in vec4 rectColor;
out vec4 fragmentColor;

void main() {
    fragmentColor = rectColor;
}
