#include "CFFTW.h"

DECIBAR_DEFINE_LOADER(fftw, DecibarFFTW, "libfftw3f.so.3", "FFTW", DECIBAR_FFTW_FUNCTIONS)
