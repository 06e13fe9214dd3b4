#include "CFontconfig.h"

DECIBAR_DEFINE_LOADER(fontconfig, DecibarFontconfig, "libfontconfig.so.1", "fontconfig", DECIBAR_FONTCONFIG_FUNCTIONS)
