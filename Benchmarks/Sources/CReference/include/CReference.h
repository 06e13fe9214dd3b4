#ifndef DECIBAR_C_REFERENCE_H
#define DECIBAR_C_REFERENCE_H

/// Adds one block of interleaved samples to per-channel running totals: the sum of squares
/// (float partial sum per block, added to a double) and the largest |sample|.
/// The same arithmetic as LevelProcessor.process, so the two can be timed against each other.
void decibar_reference_levels(const float *interleaved, int frames, int channels,
                              double *sumSquares, float *peaks);

#endif
