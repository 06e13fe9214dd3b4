// libsystemd: sd_notify (service readiness and status for systemd) and sd-bus (MPRIS, RealtimeKit), opened on
// first use (see CLoader.h).
#ifndef DECIBAR_CSYSTEMD_H
#define DECIBAR_CSYSTEMD_H

#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#include <CLoader.h>

#define DECIBAR_SYSTEMD_FUNCTIONS(X) \
    X(sd_notify) X(sd_bus_open_user) X(sd_bus_flush_close_unref) X(sd_bus_request_name) \
    X(sd_bus_add_object_vtable) X(sd_bus_emit_properties_changed_strv) X(sd_bus_error_set) \
    X(sd_bus_get_events) X(sd_bus_get_fd) X(sd_bus_get_timeout) X(sd_bus_process) X(sd_bus_send) \
    X(sd_bus_message_new_signal) X(sd_bus_message_unref) X(sd_bus_message_append_basic) \
    X(sd_bus_message_append_strv) X(sd_bus_message_open_container) X(sd_bus_message_close_container) \
    X(sd_bus_message_read_basic) X(sd_bus_message_get_interface) X(sd_bus_message_get_member) \
    X(sd_bus_reply_method_return) X(sd_bus_message_new_method_return) X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) X(sd_bus_emit_signal) \
    X(sd_bus_open_system) X(sd_bus_message_new_method_call) X(sd_bus_call) X(sd_bus_error_free) \
    X(sd_bus_get_property_trivial)

typedef struct { DECIBAR_SYSTEMD_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarSystemd;

const DecibarSystemd *decibar_systemd_load(char *message, int size);

#endif
