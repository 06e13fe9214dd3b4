#include "CSndfile.h"

DECIBAR_DEFINE_LOADER(sndfile, DecibarSndfile, "libsndfile.so.1", "libsndfile", DECIBAR_SNDFILE_FUNCTIONS)
