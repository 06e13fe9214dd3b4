#include "CReference.h"
#include <math.h>

void decibar_reference_levels(const float *interleaved, int frames, int channels,
                              double *sumSquares, float *peaks) {
    const int total = frames * channels;
    for (int channel = 0; channel < channels; channel++) {
        // Float partials like the Swift code; no -ffast-math, so neither side may reorder the sum.
        float sum = 0.0f;
        float largest = 0.0f;
        for (int index = channel; index < total; index += channels) {
            const float sample = interleaved[index];
            sum += sample * sample;
            const float magnitude = fabsf(sample);
            if (magnitude > largest) largest = magnitude;
        }
        sumSquares[channel] += (double)sum;
        if (largest > peaks[channel]) peaks[channel] = largest;
    }
}
