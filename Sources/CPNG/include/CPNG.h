// libpng's simplified API, for writing screenshots and PNG frames.
#include <png.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CPNG_H
#define DECIBAR_CPNG_H

#include <CLoader.h>

// Composite macros do not import into Swift.
static inline png_uint_32 decibar_png_format_rgba(void) { return PNG_FORMAT_RGBA; }

#define DECIBAR_PNG_FUNCTIONS(X) \
    X(png_image_begin_read_from_memory) X(png_image_finish_read) X(png_image_free) \
    X(png_image_write_to_memory)

typedef struct { DECIBAR_PNG_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarPNG;

const DecibarPNG *decibar_png_load(char *message, int size);

#endif
