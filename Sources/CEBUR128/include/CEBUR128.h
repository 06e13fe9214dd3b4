// libebur128: EBU R128 / ITU-R BS.1770 loudness and true peak.
#include <ebur128.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CEBUR128_H
#define DECIBAR_CEBUR128_H

#include <CLoader.h>

#define DECIBAR_EBUR128_FUNCTIONS(X) \
    X(ebur128_init) X(ebur128_destroy) X(ebur128_add_frames_float) \
    X(ebur128_loudness_window) X(ebur128_loudness_global) \
    X(ebur128_loudness_range) X(ebur128_true_peak) X(ebur128_prev_true_peak)

typedef struct { DECIBAR_EBUR128_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarEBUR128;

const DecibarEBUR128 *decibar_ebur128_load(char *message, int size);

#endif
