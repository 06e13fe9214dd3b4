#include "CMilkdrop.h"

#include <pthread.h>
#include <stdio.h>

static char milkdrop_path[4096];
static pthread_mutex_t milkdrop_path_lock = PTHREAD_MUTEX_INITIALIZER;

DECIBAR_DEFINE_LOADER(milkdrop_plugin, DecibarMilkdrop, milkdrop_path, "Decibar's Milkdrop plug-in", DECIBAR_MILKDROP_FUNCTIONS)

const DecibarMilkdrop *decibar_milkdrop_load(const char *path, char *message, int size) {
    pthread_mutex_lock(&milkdrop_path_lock);
    if (milkdrop_path[0] == 0) snprintf(milkdrop_path, sizeof milkdrop_path, "%s", path);
    pthread_mutex_unlock(&milkdrop_path_lock);
    return decibar_milkdrop_plugin_load(message, size);
}
