// The writable copies of libwayland-client's interfaces that CWayland.h names (declared there as
// const, which is why this file does not include it).
#include <wayland-util.h>

struct wl_interface decibar_wl_registry_interface;
struct wl_interface decibar_wl_compositor_interface;
struct wl_interface decibar_wl_surface_interface;
struct wl_interface decibar_wl_region_interface;
struct wl_interface decibar_wl_callback_interface;
struct wl_interface decibar_wl_output_interface;
struct wl_interface decibar_xdg_popup_interface = { "xdg_popup", 1, 0, 0, 0, 0 };

// Copies each named interface out of the loaded library; 0 with the missing name in `missing`.
int decibar_wayland_copy_interfaces(void *(*find)(const char *name), const char **missing) {
    struct { const char *name; struct wl_interface *copy; } wanted[] = {
        { "wl_registry_interface", &decibar_wl_registry_interface },
        { "wl_compositor_interface", &decibar_wl_compositor_interface },
        { "wl_surface_interface", &decibar_wl_surface_interface },
        { "wl_region_interface", &decibar_wl_region_interface },
        { "wl_callback_interface", &decibar_wl_callback_interface },
        { "wl_output_interface", &decibar_wl_output_interface },
    };
    for (unsigned i = 0; i < sizeof wanted / sizeof *wanted; i++) {
        const struct wl_interface *found = find(wanted[i].name);
        if (!found) { *missing = wanted[i].name; return 0; }
        *wanted[i].copy = *found;
    }
    return 1;
}
