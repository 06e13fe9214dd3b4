// EGL, for drawing without a window or a display (decibar render).
#include <EGL/egl.h>
#include <EGL/eglext.h>

// Cast macros do not import into Swift.
static inline EGLDisplay decibar_egl_no_display(void) { return EGL_NO_DISPLAY; }
static inline EGLContext decibar_egl_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface decibar_egl_no_surface(void) { return EGL_NO_SURFACE; }
static inline void *decibar_egl_default_display(void) { return EGL_DEFAULT_DISPLAY; }
