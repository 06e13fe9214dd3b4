#include "CSixel.h"

DECIBAR_DEFINE_LOADER(sixel, DecibarSixel, "libsixel.so.1", "libsixel", DECIBAR_SIXEL_FUNCTIONS)
