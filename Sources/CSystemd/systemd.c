#include "CSystemd.h"

DECIBAR_DEFINE_LOADER(systemd, DecibarSystemd, "libsystemd.so.0", "libsystemd", DECIBAR_SYSTEMD_FUNCTIONS)
