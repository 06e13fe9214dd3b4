#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
