#include "CPNG.h"

DECIBAR_DEFINE_LOADER(png, DecibarPNG, "libpng16.so.16", "libpng", DECIBAR_PNG_FUNCTIONS)
