#include "CPipeWire.h"

#include <CLoader.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pipewire/extensions/metadata.h>
#include <pipewire/filter.h>
#include <pipewire/pipewire.h>
#include <spa/param/audio/raw.h>

// Only these are exported functions; everything else used here is inline in PipeWire's headers.
#define DECIBAR_PIPEWIRE_FUNCTIONS(X) \
    X(pw_init) X(pw_get_library_version) \
    X(pw_thread_loop_new) X(pw_thread_loop_get_loop) X(pw_thread_loop_start) X(pw_thread_loop_stop) \
    X(pw_thread_loop_destroy) X(pw_thread_loop_lock) X(pw_thread_loop_unlock) X(pw_thread_loop_signal) \
    X(pw_thread_loop_timed_wait) \
    X(pw_context_new) X(pw_context_destroy) X(pw_context_get_data_loop) X(pw_data_loop_get_loop) X(pw_context_connect) X(pw_core_disconnect) \
    X(pw_properties_new) X(pw_properties_set) X(pw_properties_setf) X(pw_properties_free) \
    X(pw_filter_new) X(pw_filter_add_listener) X(pw_filter_add_port) X(pw_filter_connect) X(pw_filter_destroy) \
    X(pw_filter_get_dsp_buffer) X(pw_filter_get_node_id) X(pw_filter_update_properties) \
    X(pw_proxy_destroy)

typedef struct { DECIBAR_PIPEWIRE_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarPipeWire;

DECIBAR_DEFINE_LOADER(pipewire, DecibarPipeWire, "libpipewire-0.3.so.0", "libpipewire", DECIBAR_PIPEWIRE_FUNCTIONS)

_Static_assert(sizeof(decibar_pw_property) == sizeof(struct spa_dict_item), "a property is a spa_dict_item");

static const DecibarPipeWire *pw;
static pthread_once_t initialized = PTHREAD_ONCE_INIT;

static void initialize(void) { pw->pw_init(NULL, NULL); }

int decibar_pw_load(char *message, int size) {
    const DecibarPipeWire *table = decibar_pipewire_load(message, size);
    if (!table) return 0;
    pw = table;
    pthread_once(&initialized, initialize);
    return 1;
}

const char *decibar_pw_library_version(void) { return pw ? pw->pw_get_library_version() : ""; }

struct decibar_pw_client {
    struct pw_thread_loop *loop;
    struct pw_loop *main_loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    struct pw_metadata *metadata;
    uint32_t metadata_id;
    struct spa_hook metadata_listener;
    // The capture node: a filter with one mono float input port per channel (PipeWire's own DSP
    // format, so nothing converts in between), and room to interleave one cycle.
    struct pw_filter *filter;
    struct spa_hook filter_listener;
    void *ports[SPA_AUDIO_MAX_CHANNELS];
    uint32_t channels;
    uint32_t reported_rate;
    float *interleaved;
    decibar_pw_callbacks callbacks;
    void *user;
    int started;
    // The connection broke (no answer will come), and the round trip that free waits for.
    int broken;
    int closing_seq;
    int closing_done;
};

// The "default" metadata: the default sink and source, by name.
static int on_metadata_property(void *data, uint32_t subject, const char *key, const char *type, const char *value) {
    (void)type;
    decibar_pw_client *client = data;
    if (subject == PW_ID_CORE) client->callbacks.default_changed(client->user, key, value);
    return 0;
}

static const struct pw_metadata_events metadata_events = {
    PW_VERSION_METADATA_EVENTS,
    .property = on_metadata_property,
};

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                      const struct spa_dict *props) {
    (void)permissions;
    (void)version;
    decibar_pw_client *client = data;
    if (client->callbacks.default_changed && strcmp(type, PW_TYPE_INTERFACE_Metadata) == 0 && props && !client->metadata) {
        const char *name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
        if (name && strcmp(name, "default") == 0) {
            client->metadata = pw_registry_bind(client->registry, id, type, PW_VERSION_METADATA, 0);
            if (client->metadata) {
                client->metadata_id = id;
                pw_metadata_add_listener(client->metadata, &client->metadata_listener, &metadata_events, client);
            }
        }
    }
    const decibar_pw_property *items = props ? (const decibar_pw_property *)props->items : NULL;
    client->callbacks.global(client->user, id, type, items, props ? props->n_items : 0);
}

static void on_global_remove(void *data, uint32_t id) {
    decibar_pw_client *client = data;
    if (client->metadata && id == client->metadata_id) {
        spa_hook_remove(&client->metadata_listener);
        pw->pw_proxy_destroy((struct pw_proxy *)client->metadata);
        client->metadata = NULL;
        if (client->callbacks.default_changed) client->callbacks.default_changed(client->user, NULL, NULL);
    }
    client->callbacks.global_removed(client->user, id);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_global,
    .global_remove = on_global_remove,
};

static void on_core_done(void *data, uint32_t id, int seq) {
    decibar_pw_client *client = data;
    if (id != PW_ID_CORE) return;
    if (client->closing_seq && seq == client->closing_seq) {
        client->closing_done = 1;
        pw->pw_thread_loop_signal(client->loop, false);
        return;
    }
    client->callbacks.synced(client->user, seq);
}

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    decibar_pw_client *client = data;
    char text[256];
    snprintf(text, sizeof text, "%s (%s)", message ? message : "error", strerror(res < 0 ? -res : res));
    // The connection broke: EPIPE on a hang-up, ECONNRESET (or another of these) when the socket
    // breaks while being read. Other errors, even on the core (ENOENT: a proxy the server had
    // already dropped, such as a link whose port went), leave the connection up.
    int lost = res == -EPIPE || res == -ECONNRESET || res == -ENOTCONN || res == -ECONNABORTED || res == -ESHUTDOWN
               || res == -EIO;
    if (id == PW_ID_CORE && lost) {
        client->broken = 1;
        pw->pw_thread_loop_signal(client->loop, false);
    }
    client->callbacks.error(client->user, id == PW_ID_CORE && lost, text);
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_core_done,
    .error = on_core_error,
};

static void on_filter_state(void *data, enum pw_filter_state old, enum pw_filter_state state, const char *error) {
    (void)old;
    decibar_pw_client *client = data;
    client->callbacks.state(client->user, (int)state, error);
}

#define DECIBAR_PW_MAX_FRAMES 8192u

// On the loop thread: the rate the data thread saw change.
static int report_format(struct spa_loop *loop, bool async, uint32_t seq, const void *data, size_t size, void *user_data) {
    (void)loop;
    (void)async;
    (void)seq;
    (void)size;
    decibar_pw_client *client = user_data;
    const uint32_t *format = data;
    client->callbacks.format(client->user, format[0], format[1]);
    return 0;
}

// On the loop thread: the node's latency property, which the graph takes at its next
// recalculation. A request made for a capture since closed is dropped.
struct quantum_request {
    struct pw_filter *filter;
    uint32_t quantum;
};

static int set_quantum(struct spa_loop *loop, bool async, uint32_t seq, const void *data, size_t size, void *user_data) {
    (void)loop;
    (void)async;
    (void)seq;
    (void)size;
    decibar_pw_client *client = user_data;
    const struct quantum_request *request = data;
    if (!client->filter || client->filter != request->filter) return 0;
    char latency[32];
    snprintf(latency, sizeof latency, "%u/48000", request->quantum);
    struct spa_dict_item item = SPA_DICT_ITEM_INIT(PW_KEY_NODE_LATENCY, latency);
    struct spa_dict dict = SPA_DICT_INIT(&item, 1);
    pw->pw_filter_update_properties(client->filter, NULL, &dict);
    return 0;
}

// Runs on PipeWire's real-time data thread once a graph cycle: no allocation, no lock, no log.
static void on_filter_process(void *data, struct spa_io_position *position) {
    decibar_pw_client *client = data;
    if (!position || client->channels == 0) return;
    uint32_t frames = SPA_MIN((uint32_t)position->clock.duration, DECIBAR_PW_MAX_FRAMES);
    uint32_t rate = position->clock.rate.denom;
    if (frames == 0 || rate == 0) return;
    if (rate != client->reported_rate) {
        // Said on the loop thread, without waiting for it (the arguments are copied).
        client->reported_rate = rate;
        uint32_t format[2] = { rate, client->channels };
        pw_loop_invoke(client->main_loop, report_format, 0, format, sizeof format, false, client);
    }
    uint32_t channels = client->channels;
    for (uint32_t channel = 0; channel < channels; channel++) {
        const float *in = pw->pw_filter_get_dsp_buffer(client->ports[channel], frames);
        float *out = client->interleaved + channel;
        if (in) {
            for (uint32_t frame = 0; frame < frames; frame++) out[frame * channels] = in[frame];
        } else {
            for (uint32_t frame = 0; frame < frames; frame++) out[frame * channels] = 0;
        }
    }
    uint32_t quantum = client->callbacks.samples(client->user, client->interleaved, frames, channels, rate,
                                                 (int64_t)position->clock.nsec, (int64_t)position->clock.delay);
    // Asked on the loop thread, without waiting for it (the value is copied).
    if (quantum != 0) {
        struct quantum_request request = { client->filter, quantum };
        pw_loop_invoke(client->main_loop, set_quantum, 0, &request, sizeof request, false, client);
    }
}

static const struct pw_filter_events filter_events = {
    PW_VERSION_FILTER_EVENTS,
    .state_changed = on_filter_state,
    .process = on_filter_process,
};

static void set_message(char *message, int size, const char *what, int code) {
    if (message && size > 0) snprintf(message, (size_t)size, "%s: %s", what, strerror(code));
}

decibar_pw_client *decibar_pw_client_new(const char *name, const char *remote, const decibar_pw_callbacks *callbacks,
                                         void *user, char *message, int size) {
    if (!pw) {
        set_message(message, size, "libpipewire is not loaded", ENOSYS);
        return NULL;
    }
    decibar_pw_client *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    client->callbacks = *callbacks;
    client->user = user;
    client->metadata_id = SPA_ID_INVALID;
    client->loop = pw->pw_thread_loop_new(name, NULL);
    if (!client->loop) {
        set_message(message, size, "cannot start PipeWire's client thread", errno);
        free(client);
        return NULL;
    }
    client->main_loop = pw->pw_thread_loop_get_loop(client->loop);
    // No configuration files' modules beyond what a client needs: the protocol and client-node.
    client->context = pw->pw_context_new(pw->pw_thread_loop_get_loop(client->loop), NULL, 0);
    if (!client->context) {
        set_message(message, size, "cannot set up a PipeWire client", errno);
        pw->pw_thread_loop_destroy(client->loop);
        free(client);
        return NULL;
    }
    struct pw_properties *props = NULL;
    if (remote && *remote) props = pw->pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL);
    client->core = pw->pw_context_connect(client->context, props, 0);
    if (!client->core) {
        set_message(message, size, "cannot connect to PipeWire", errno);
        pw->pw_context_destroy(client->context);
        pw->pw_thread_loop_destroy(client->loop);
        free(client);
        return NULL;
    }
    pw_core_add_listener(client->core, &client->core_listener, &core_events, client);
    client->registry = pw_core_get_registry(client->core, PW_VERSION_REGISTRY, 0);
    if (client->registry)
        pw_registry_add_listener(client->registry, &client->registry_listener, &registry_events, client);
    return client;
}

// On the data thread, once, before its first cycle (see decibar_pw_callbacks.data_thread).
static int on_data_thread(struct spa_loop *loop, bool async, uint32_t seq, const void *data, size_t size, void *user_data) {
    (void)loop;
    (void)async;
    (void)seq;
    (void)data;
    (void)size;
    decibar_pw_client *client = user_data;
    client->callbacks.data_thread(client->user);
    return 0;
}

int decibar_pw_client_start(decibar_pw_client *client) {
    int result = pw->pw_thread_loop_start(client->loop);
    if (result >= 0) client->started = 1;
    // The context's data thread runs from its creation; this is queued to it, not waited for.
    if (result >= 0 && client->callbacks.data_thread) {
        struct pw_loop *data_loop = pw->pw_data_loop_get_loop(pw->pw_context_get_data_loop(client->context));
        pw_loop_invoke(data_loop, on_data_thread, 0, NULL, 0, false, client);
    }
    return result < 0 ? -result : 0;
}

void decibar_pw_client_free(decibar_pw_client *client) {
    if (!client) return;
    // PipeWire's metadata module holds back every change of the metadata from all its listeners
    // while a bind of it waits for the session manager's answer, and a client that leaves before
    // that answer leaves it waiting for good: nobody would hear the default move again. The
    // server handles none of this client's messages until the answer, so one round trip first.
    pw->pw_thread_loop_lock(client->loop);
    if (client->started && client->metadata && !client->broken) {
        client->closing_done = 0;
        client->closing_seq = pw_core_sync(client->core, PW_ID_CORE, 0);
        while (!client->closing_done && !client->broken && client->closing_seq >= 0)
            if (pw->pw_thread_loop_timed_wait(client->loop, 1) != 0) break;
    }
    pw->pw_thread_loop_unlock(client->loop);
    pw->pw_thread_loop_stop(client->loop);
    decibar_pw_capture_close(client);
    if (client->metadata) {
        spa_hook_remove(&client->metadata_listener);
        pw->pw_proxy_destroy((struct pw_proxy *)client->metadata);
    }
    if (client->registry) {
        spa_hook_remove(&client->registry_listener);
        pw->pw_proxy_destroy((struct pw_proxy *)client->registry);
    }
    spa_hook_remove(&client->core_listener);
    pw->pw_core_disconnect(client->core);
    pw->pw_context_destroy(client->context);
    pw->pw_thread_loop_destroy(client->loop);
    free(client->interleaved);
    free(client);
}

void decibar_pw_client_lock(decibar_pw_client *client) { pw->pw_thread_loop_lock(client->loop); }
void decibar_pw_client_unlock(decibar_pw_client *client) { pw->pw_thread_loop_unlock(client->loop); }

int decibar_pw_client_sync(decibar_pw_client *client) { return pw_core_sync(client->core, PW_ID_CORE, 0); }

int decibar_pw_capture_open(decibar_pw_client *client, const char *node_name, uint32_t channels, const char *positions,
                            uint32_t quantum) {
    decibar_pw_capture_close(client);
    if (channels == 0 || channels > SPA_AUDIO_MAX_CHANNELS) return EINVAL;
    if (!client->interleaved) {
        client->interleaved = calloc((size_t)SPA_AUDIO_MAX_CHANNELS * DECIBAR_PW_MAX_FRAMES, sizeof(float));
        if (!client->interleaved) return ENOMEM;
    }
    struct pw_properties *props = pw->pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Audio", PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE, "Music",
        PW_KEY_MEDIA_CLASS, "Stream/Input/Audio", PW_KEY_NODE_NAME, node_name, PW_KEY_APP_NAME, "Decibar",
        // Linked by the tap itself, never by the session manager, and never moved by it.
        PW_KEY_NODE_AUTOCONNECT, "false", PW_KEY_NODE_DONT_RECONNECT, "true",
        // Run by some driver even while nothing links to it: silence reads as silence (a tap on
        // apps that do not play) instead of as no buffers at all.
        PW_KEY_NODE_ALWAYS_PROCESS, "true", NULL);
    if (!props) return ENOMEM;
    pw->pw_properties_setf(props, PW_KEY_NODE_LATENCY, "%u/48000", quantum);
    client->filter = pw->pw_filter_new(client->core, node_name, props);
    if (!client->filter) return errno ? errno : ENOMEM;
    pw->pw_filter_add_listener(client->filter, &client->filter_listener, &filter_events, client);
    // One port per channel, named by its position ("input_FL"); "AUXn" when a position is missing.
    char copy[256];
    snprintf(copy, sizeof copy, "%s", positions ? positions : "");
    char *saved = NULL;
    char *name = strtok_r(copy, ",", &saved);
    for (uint32_t channel = 0; channel < channels; channel++) {
        char position[32], port_name[48];
        if (name) snprintf(position, sizeof position, "%s", name);
        else snprintf(position, sizeof position, "AUX%u", channel);
        snprintf(port_name, sizeof port_name, "input_%s", position);
        struct pw_properties *port_props = pw->pw_properties_new(
            PW_KEY_FORMAT_DSP, "32 bit float mono audio", PW_KEY_PORT_NAME, port_name, PW_KEY_AUDIO_CHANNEL, position, NULL);
        client->ports[channel] = pw->pw_filter_add_port(client->filter, PW_DIRECTION_INPUT, PW_FILTER_PORT_FLAG_MAP_BUFFERS,
                                                        0, port_props, NULL, 0);
        if (!client->ports[channel]) {
            decibar_pw_capture_close(client);
            return ENOMEM;
        }
        if (name) name = strtok_r(NULL, ",", &saved);
    }
    client->channels = channels;
    client->reported_rate = 0;
    int result = pw->pw_filter_connect(client->filter, PW_FILTER_FLAG_RT_PROCESS, NULL, 0);
    if (result < 0) {
        decibar_pw_capture_close(client);
        return -result;
    }
    return 0;
}

void decibar_pw_capture_close(decibar_pw_client *client) {
    if (!client->filter) return;
    spa_hook_remove(&client->filter_listener);
    pw->pw_filter_destroy(client->filter);
    client->filter = NULL;
    client->channels = 0;
    memset(client->ports, 0, sizeof client->ports);
}

uint32_t decibar_pw_capture_node_id(decibar_pw_client *client) {
    return client->filter ? pw->pw_filter_get_node_id(client->filter) : SPA_ID_INVALID;
}

void *decibar_pw_client_link(decibar_pw_client *client, uint32_t output_port, uint32_t input_port, int passive) {
    // object.linger false: the link goes when the tap does.
    struct pw_properties *props = pw->pw_properties_new(
        PW_KEY_LINK_PASSIVE, passive ? "true" : "false", PW_KEY_OBJECT_LINGER, "false", NULL);
    if (!props) return NULL;
    pw->pw_properties_setf(props, PW_KEY_LINK_OUTPUT_PORT, "%u", output_port);
    pw->pw_properties_setf(props, PW_KEY_LINK_INPUT_PORT, "%u", input_port);
    void *link = pw_core_create_object(client->core, "link-factory", PW_TYPE_INTERFACE_Link, PW_VERSION_LINK,
                                       &props->dict, 0);
    pw->pw_properties_free(props);
    return link;
}

void decibar_pw_client_unlink(decibar_pw_client *client, void *link) {
    (void)client;
    if (link) pw->pw_proxy_destroy((struct pw_proxy *)link);
}
