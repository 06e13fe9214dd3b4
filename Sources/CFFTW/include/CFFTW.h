#include <fftw3.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CFFTW_H
#define DECIBAR_CFFTW_H

#include <CLoader.h>

#define DECIBAR_FFTW_FUNCTIONS(X) \
    X(fftwf_alloc_real) X(fftwf_alloc_complex) X(fftwf_plan_dft_r2c_1d) \
    X(fftwf_destroy_plan) X(fftwf_execute) X(fftwf_free)

typedef struct { DECIBAR_FFTW_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarFFTW;

const DecibarFFTW *decibar_fftw_load(char *message, int size);

#endif
