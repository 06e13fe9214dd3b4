#include "CPulse.h"

DECIBAR_DEFINE_LOADER(pulse, DecibarPulse, "libpulse.so.0", "libpulse", DECIBAR_PULSE_FUNCTIONS)
