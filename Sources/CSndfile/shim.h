// libsndfile: WAV, AIFF and FLAC read sample-exactly, for the overview (libpulse loads it anyway).
#include <sndfile.h>
