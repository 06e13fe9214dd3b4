// Rubber Band Library: time-stretching and pitch-shifting (its C API, so no C++ interop is needed).
#include <rubberband/rubberband-c.h>
