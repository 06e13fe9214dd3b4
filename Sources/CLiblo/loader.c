#include "CLiblo.h"

DECIBAR_DEFINE_LOADER(liblo, DecibarLiblo, "liblo.so.7", "liblo", DECIBAR_LIBLO_FUNCTIONS)
