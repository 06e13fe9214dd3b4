#include <SDL2/SDL.h>
// The X11 side of a window (for asking whether a compositor runs, which SDL cannot tell).
#include <SDL2/SDL_syswm.h>
