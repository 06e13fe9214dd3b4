#include "CGL.h"

DECIBAR_DEFINE_LOADER(gl, DecibarGL, "libGL.so.1", "OpenGL", DECIBAR_GL_FUNCTIONS)
