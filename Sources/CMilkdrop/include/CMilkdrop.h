// Decibar's Milkdrop plug-in (libdecibar-milkdrop.so, Sources/MilkdropPlugin), opened on first use
// like every library (CLoader.h) but from a path: it is installed beside decibar, not on the
// linker's path.
#ifndef DECIBAR_CMILKDROP_H
#define DECIBAR_CMILKDROP_H

#include <CLoader.h>
#include "decibar_milkdrop.h"

#define DECIBAR_MILKDROP_FUNCTIONS(X) \
    X(decibar_milkdrop_create) X(decibar_milkdrop_destroy) X(decibar_milkdrop_resize) \
    X(decibar_milkdrop_load_preset) X(decibar_milkdrop_add_audio) X(decibar_milkdrop_render) \
    X(decibar_milkdrop_set_clock) X(decibar_milkdrop_add_engine)

typedef struct { DECIBAR_MILKDROP_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarMilkdrop;

// Loads the plug-in at `path` (the first call's path is the one tried; later calls return that
// outcome). The table, or NULL with a one-line reason in `message`.
const DecibarMilkdrop *decibar_milkdrop_load(const char *path, char *message, int size);

#endif
