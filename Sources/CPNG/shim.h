// libpng's simplified API, for writing screenshots and PNG frames.
#include <png.h>

// Composite macros do not import into Swift.
static inline png_uint_32 decibar_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
