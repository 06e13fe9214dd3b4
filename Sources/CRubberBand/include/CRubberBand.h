// Rubber Band Library: time-stretching and pitch-shifting (its C API, so no C++ interop is needed).
#include <rubberband/rubberband-c.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CRUBBERBAND_H
#define DECIBAR_CRUBBERBAND_H

#include <CLoader.h>

#define DECIBAR_RUBBERBAND_FUNCTIONS(X) \
    X(rubberband_new) X(rubberband_delete) X(rubberband_get_engine_version) \
    X(rubberband_set_max_process_size) X(rubberband_get_time_ratio) X(rubberband_set_time_ratio) \
    X(rubberband_get_pitch_scale) X(rubberband_set_pitch_scale) X(rubberband_get_preferred_start_pad) \
    X(rubberband_get_start_delay) X(rubberband_get_samples_required) X(rubberband_available) \
    X(rubberband_set_expected_input_duration) X(rubberband_reset) X(rubberband_study) \
    X(rubberband_process) X(rubberband_retrieve)

typedef struct { DECIBAR_RUBBERBAND_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarRubberBand;

const DecibarRubberBand *decibar_rubberband_load(char *message, int size);

#endif
