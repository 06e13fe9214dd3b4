#include "CRubberBand.h"

DECIBAR_DEFINE_LOADER(rubberband, DecibarRubberBand, "librubberband.so.2", "Rubber Band", DECIBAR_RUBBERBAND_FUNCTIONS)
