#include "CLoader.h"

#include <dlfcn.h>
#include <stdio.h>

int decibar_library_load(DecibarLibrary *library, char *message, int size) {
    pthread_mutex_lock(&library->lock);
    if (library->state == 0) {
        library->state = -1;
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            snprintf(library->failure, sizeof library->failure, "cannot load %s (%s): %s", library->what, library->soname, dlerror());
        } else {
            library->state = 1;
            for (int i = 0; i < library->count; i++) {
                library->slots[i] = dlsym(handle, library->names[i]);
                if (!library->slots[i]) {
                    snprintf(library->failure, sizeof library->failure, "cannot load %s: %s has no %s", library->what,
                             library->soname, library->names[i]);
                    library->state = -1;
                    break;
                }
            }
        }
    }
    int loaded = library->state == 1;
    if (!loaded && message && size > 0) snprintf(message, (size_t)size, "%s", library->failure);
    pthread_mutex_unlock(&library->lock);
    return loaded;
}
