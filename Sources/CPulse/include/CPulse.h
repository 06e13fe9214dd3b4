#include <pulse/pulseaudio.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CPULSE_H
#define DECIBAR_CPULSE_H

#include <CLoader.h>

#define DECIBAR_PULSE_FUNCTIONS(X) \
    X(pa_channel_map_init) X(pa_channel_map_init_extend) X(pa_channel_map_init_stereo) \
    X(pa_channel_map_valid) X(pa_context_connect) X(pa_context_disconnect) \
    X(pa_context_errno) X(pa_context_get_server_info) X(pa_context_get_sink_info_by_name) \
    X(pa_context_get_sink_info_list) X(pa_context_get_sink_input_info) X(pa_context_get_sink_input_info_list) X(pa_context_get_source_info_by_name) X(pa_context_get_source_info_list) \
    X(pa_context_get_state) X(pa_context_new_with_proplist) X(pa_context_set_sink_input_volume) \
    X(pa_context_set_state_callback) X(pa_context_set_subscribe_callback) X(pa_context_subscribe) \
    X(pa_context_unref) X(pa_cvolume_set) X(pa_gettimeofday) \
    X(pa_operation_get_state) X(pa_operation_unref) X(pa_proplist_free) X(pa_proplist_gets) X(pa_proplist_new) \
    X(pa_proplist_sets) X(pa_sample_spec_valid) X(pa_stream_begin_write) \
    X(pa_stream_cancel_write) X(pa_stream_connect_playback) X(pa_stream_connect_record) \
    X(pa_stream_cork) X(pa_stream_disconnect) X(pa_stream_drain) \
    X(pa_stream_drop) X(pa_stream_flush) X(pa_stream_get_index) \
    X(pa_stream_get_latency) X(pa_stream_get_state) X(pa_stream_get_timing_info) \
    X(pa_stream_new) X(pa_stream_peek) X(pa_stream_readable_size) \
    X(pa_stream_set_buffer_attr) X(pa_stream_set_monitor_stream) X(pa_stream_set_read_callback) X(pa_stream_set_state_callback) \
    X(pa_stream_set_underflow_callback) X(pa_stream_set_write_callback) X(pa_stream_unref) X(pa_stream_update_timing_info) \
    X(pa_stream_writable_size) X(pa_stream_write) X(pa_strerror) \
    X(pa_threaded_mainloop_free) X(pa_threaded_mainloop_get_api) X(pa_threaded_mainloop_in_thread) X(pa_threaded_mainloop_lock) \
    X(pa_threaded_mainloop_new) X(pa_threaded_mainloop_set_name) X(pa_threaded_mainloop_signal) \
    X(pa_threaded_mainloop_start) X(pa_threaded_mainloop_stop) X(pa_threaded_mainloop_unlock) \
    X(pa_threaded_mainloop_wait) X(pa_timeval_add)

typedef struct { DECIBAR_PULSE_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarPulse;

const DecibarPulse *decibar_pulse_load(char *message, int size);

#endif
