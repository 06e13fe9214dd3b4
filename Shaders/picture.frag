#version 330 core
in vec2 pictureCoordinate;
out vec4 fragmentColor;

uniform sampler2D picture;

void main() {
    fragmentColor = vec4(texture(picture, pictureCoordinate).rgb, 1.0);
}
