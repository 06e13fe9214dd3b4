// libwayland-client and libwayland-egl, opened on first use (see CLoader.h), and the
// wlr-layer-shell protocol (protocols/, compiled by wayland-scanner: Scripts/make-wayland-protocols.sh).
//
// A protocol's requests are static inline functions that call libwayland-client and name its
// interface tables, which a library opened on first use cannot provide to the linker. So, before
// the protocol headers: the functions they call are the table's pointers, and the interfaces they
// name are copies the loader fills (at fixed addresses, as the scanner's tables need).
#ifndef DECIBAR_CWAYLAND_H
#define DECIBAR_CWAYLAND_H

#include <CLoader.h>
#include <wayland-client-core.h>
#include <wayland-egl-core.h>

#define DECIBAR_WAYLAND_FUNCTIONS(X) \
    X(wl_display_connect) X(wl_display_disconnect) X(wl_display_get_fd) X(wl_display_dispatch_pending) \
    X(wl_display_flush) X(wl_display_roundtrip) X(wl_display_prepare_read) X(wl_display_read_events) \
    X(wl_display_cancel_read) X(wl_display_get_error) X(wl_proxy_marshal_flags) X(wl_proxy_add_listener) \
    X(wl_proxy_destroy) X(wl_proxy_get_version) X(wl_proxy_get_user_data) X(wl_proxy_set_user_data)

typedef struct { DECIBAR_WAYLAND_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarWayland;

// Filled by decibar_wayland_load; read by the protocol functions below.
extern DecibarWayland decibar_wayland;

// Loads libwayland-client and copies its interfaces. The table, or NULL with a one-line reason.
const DecibarWayland *decibar_wayland_load(char *message, int size);

#define DECIBAR_WAYLAND_EGL_FUNCTIONS(X) X(wl_egl_window_create) X(wl_egl_window_destroy) X(wl_egl_window_resize)

typedef struct { DECIBAR_WAYLAND_EGL_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarWaylandEGL;

const DecibarWaylandEGL *decibar_wayland_egl_load(char *message, int size);

#define wl_proxy_marshal_flags (decibar_wayland.wl_proxy_marshal_flags)
#define wl_proxy_add_listener (decibar_wayland.wl_proxy_add_listener)
#define wl_proxy_destroy (decibar_wayland.wl_proxy_destroy)
#define wl_proxy_get_version (decibar_wayland.wl_proxy_get_version)
#define wl_proxy_get_user_data (decibar_wayland.wl_proxy_get_user_data)
#define wl_proxy_set_user_data (decibar_wayland.wl_proxy_set_user_data)

// The interfaces used; the copies are defined in interfaces.c.
#define wl_registry_interface decibar_wl_registry_interface
#define wl_compositor_interface decibar_wl_compositor_interface
#define wl_surface_interface decibar_wl_surface_interface
#define wl_region_interface decibar_wl_region_interface
#define wl_callback_interface decibar_wl_callback_interface
#define wl_output_interface decibar_wl_output_interface
// Named by the layer shell's get_popup, which is never sent: a stand-in with the name alone.
#define xdg_popup_interface decibar_xdg_popup_interface

#include <wayland-client-protocol.h>
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
// The layer surface's wake-up (Window.wakeEventLoop).
#include <sys/eventfd.h>

// Binding a global names its interface, whose address Swift cannot take.
static inline struct wl_compositor *decibar_bind_compositor(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return (struct wl_compositor *)wl_registry_bind(registry, name, &wl_compositor_interface, version);
}
static inline struct wl_output *decibar_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return (struct wl_output *)wl_registry_bind(registry, name, &wl_output_interface, version);
}
static inline struct zwlr_layer_shell_v1 *decibar_bind_layer_shell(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return (struct zwlr_layer_shell_v1 *)wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface, version);
}

#endif
