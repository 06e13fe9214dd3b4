#include <SDL2/SDL.h>
// The X11 side of a window (for asking whether a compositor runs, which SDL cannot tell, and for
// making it part of the desktop: window type and state, input shape, monitors).
#include <SDL2/SDL_syswm.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/shape.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CSDL2_H
#define DECIBAR_CSDL2_H

#include <CLoader.h>

#define DECIBAR_SDL_FUNCTIONS(X) \
    X(SDL_CaptureMouse) X(SDL_ConvertSurfaceFormat) X(SDL_CreateWindow) \
    X(SDL_Delay) X(SDL_DestroyWindow) X(SDL_EventState) X(SDL_FreeSurface) \
    X(SDL_GL_CreateContext) X(SDL_GL_DeleteContext) X(SDL_GL_GetAttribute) \
    X(SDL_GL_GetDrawableSize) X(SDL_GL_MakeCurrent) X(SDL_GL_SetAttribute) X(SDL_GL_SetSwapInterval) \
    X(SDL_GL_SwapWindow) X(SDL_GetBasePath) X(SDL_GetCurrentDisplayMode) \
    X(SDL_GetCurrentVideoDriver) X(SDL_GetError) X(SDL_GetModState) X(SDL_GetTicks64) \
    X(SDL_GetWindowDisplayIndex) X(SDL_GetWindowSize) X(SDL_GetWindowTitle) \
    X(SDL_GetWindowWMInfo) X(SDL_HideWindow) X(SDL_InitSubSystem) \
    X(SDL_LoadFile) X(SDL_PollEvent) X(SDL_PushEvent) \
    X(SDL_QuitSubSystem) X(SDL_RWFromFile) X(SDL_RWclose) \
    X(SDL_RaiseWindow) X(SDL_RegisterEvents) X(SDL_SetClipboardText) X(SDL_SetHint) \
    X(SDL_SetWindowFullscreen) X(SDL_SetWindowPosition) X(SDL_SetWindowSize) X(SDL_SetWindowTitle) X(SDL_ShowWindow) \
    X(SDL_WaitEventTimeout) X(SDL_free) X(SDL_getenv)

typedef struct { DECIBAR_SDL_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarSDL;

const DecibarSDL *decibar_sdl_load(char *message, int size);

#define DECIBAR_X11_FUNCTIONS(X) \
    X(XAllocWMHints) X(XChangeProperty) X(XCloseDisplay) X(XDefaultRootWindow) X(XDefaultScreen) \
    X(XDisplayHeight) X(XDisplayWidth) X(XFlush) X(XFree) X(XGetAtomName) X(XGetSelectionOwner) X(XGetWindowAttributes) \
    X(XInternAtom) X(XLowerWindow) X(XOpenDisplay) X(XQueryTree) X(XRaiseWindow) X(XSelectInput) X(XSetIOErrorHandler) X(XSetWMHints)

typedef struct { DECIBAR_X11_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarX11;

const DecibarX11 *decibar_x11_load(char *message, int size);

// Input shapes (click-through).
#define DECIBAR_XFIXES_FUNCTIONS(X) X(XFixesCreateRegion) X(XFixesDestroyRegion) X(XFixesSetWindowShapeRegion)

typedef struct { DECIBAR_XFIXES_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarXFixes;

const DecibarXFixes *decibar_xfixes_load(char *message, int size);

// Monitors by name.
#define DECIBAR_XRANDR_FUNCTIONS(X) X(XRRFreeMonitors) X(XRRGetMonitors)

typedef struct { DECIBAR_XRANDR_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarXRandR;

const DecibarXRandR *decibar_xrandr_load(char *message, int size);

#endif
