#include <SDL2/SDL_ttf.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CSDL2TTF_H
#define DECIBAR_CSDL2TTF_H

#include <CLoader.h>

#define DECIBAR_TTF_FUNCTIONS(X) \
    X(TTF_CloseFont) X(TTF_Init) X(TTF_OpenFont) X(TTF_OpenFontIndex) \
    X(TTF_RenderUTF8_Blended) X(TTF_WasInit) X(TTF_GlyphIsProvided32) X(TTF_FontAscent) \
    X(TTF_SetFontDirection) X(TTF_SetFontScriptName)

typedef struct { DECIBAR_TTF_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarTTF;

const DecibarTTF *decibar_ttf_load(char *message, int size);

#endif
