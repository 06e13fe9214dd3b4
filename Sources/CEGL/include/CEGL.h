// EGL, for drawing without a window or a display (decibar render) and into a Wayland layer surface.
#include <EGL/egl.h>
#include <EGL/eglext.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CEGL_H
#define DECIBAR_CEGL_H

#include <CLoader.h>

// Cast macros do not import into Swift.
static inline EGLDisplay decibar_egl_no_display(void) { return EGL_NO_DISPLAY; }
static inline EGLContext decibar_egl_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface decibar_egl_no_surface(void) { return EGL_NO_SURFACE; }
static inline void *decibar_egl_default_display(void) { return EGL_DEFAULT_DISPLAY; }

#define DECIBAR_EGL_FUNCTIONS(X) \
    X(eglBindAPI) X(eglChooseConfig) X(eglCreateContext) \
    X(eglDestroyContext) X(eglGetDisplay) X(eglGetError) \
    X(eglGetPlatformDisplay) X(eglInitialize) X(eglMakeCurrent) \
    X(eglTerminate) X(eglCreateWindowSurface) X(eglDestroySurface) X(eglSwapBuffers) \
    X(eglSwapInterval) X(eglGetConfigAttrib) X(eglGetCurrentContext)

typedef struct { DECIBAR_EGL_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarEGL;

const DecibarEGL *decibar_egl_load(char *message, int size);

#endif
