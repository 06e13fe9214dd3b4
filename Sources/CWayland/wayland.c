#include "CWayland.h"

#include <dlfcn.h>
#include <stdio.h>

// The interface tables generated from protocols/*.xml, compiled here under CWayland.h's names.
#include "protocols/wlr-layer-shell-unstable-v1-protocol.c"

int decibar_wayland_copy_interfaces(void *(*find)(const char *name), const char **missing);

DecibarWayland decibar_wayland;

static const char *const wayland_names[] = { DECIBAR_WAYLAND_FUNCTIONS(DECIBAR_TABLE_NAME) };
static DecibarLibrary wayland_library = {
    .soname = "libwayland-client.so.0", .what = "libwayland-client", .names = wayland_names,
    .count = (int)(sizeof wayland_names / sizeof *wayland_names), .slots = (void **)&decibar_wayland,
    .lock = PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t copy_lock = PTHREAD_MUTEX_INITIALIZER;
static int copied;  // 0 not yet, 1 done, -1 failed
static char copy_failure[256];

static void *find_in_client_library(const char *name) {
    // Already loaded by decibar_library_load: this only finds it again.
    void *handle = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_NOLOAD);
    return handle ? dlsym(handle, name) : 0;
}

const DecibarWayland *decibar_wayland_load(char *message, int size) {
    _Static_assert(sizeof(DecibarWayland) == sizeof wayland_names / sizeof *wayland_names * sizeof(void *), "one pointer per name");
    if (!decibar_library_load(&wayland_library, message, size)) return 0;
    pthread_mutex_lock(&copy_lock);
    if (copied == 0) {
        const char *missing = 0;
        copied = decibar_wayland_copy_interfaces(find_in_client_library, &missing) ? 1 : -1;
        if (copied < 0) snprintf(copy_failure, sizeof copy_failure, "cannot load libwayland-client: it has no %s", missing);
    }
    int ok = copied == 1;
    if (!ok && message && size > 0) snprintf(message, (size_t)size, "%s", copy_failure);
    pthread_mutex_unlock(&copy_lock);
    return ok ? &decibar_wayland : 0;
}

DECIBAR_DEFINE_LOADER(wayland_egl, DecibarWaylandEGL, "libwayland-egl.so.1", "libwayland-egl", DECIBAR_WAYLAND_EGL_FUNCTIONS)
