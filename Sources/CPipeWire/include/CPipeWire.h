// libpipewire-0.3, opened on first use (see CLoader.h), behind a small C API.
//
// Most of PipeWire's client API is inline functions and macros over method tables (the registry,
// the core's sync and create_object, metadata, SPA pods), which Swift cannot call. This target
// wraps the few that a capture needs; PipeWire's own headers stay inside pipewire.c.
#ifndef DECIBAR_CPIPEWIRE_H
#define DECIBAR_CPIPEWIRE_H

#include <stdint.h>

typedef struct decibar_pw_client decibar_pw_client;

// One property of a global (layout of PipeWire's spa_dict_item).
typedef struct {
    const char *key;
    const char *value;
} decibar_pw_property;

// Everything but `samples` is called on the client's loop thread.
typedef struct {
    // A global appeared (a node, a port, metadata...), with its properties.
    void (*global)(void *user, uint32_t id, const char *type, const decibar_pw_property *properties, uint32_t count);
    void (*global_removed)(void *user, uint32_t id);
    // A value of the "default" metadata changed (a NULL key: all were cleared). NULL: the client
    // leaves the metadata alone.
    void (*default_changed)(void *user, const char *key, const char *value);
    // The answer to decibar_pw_client_sync.
    void (*synced)(void *user, int sequence);
    // The server went away (`fatal`: the connection is over), or refused something asked of it.
    void (*error)(void *user, int fatal, const char *message);
    // The capture node: its state (see decibar_pw_state), and its rate and channels when they change.
    void (*state)(void *user, int state, const char *error);
    void (*format)(void *user, uint32_t rate, uint32_t channels);
    // One graph cycle, interleaved float, on PipeWire's real-time data thread (not the loop's):
    // `now` is the cycle's monotonic time in nanoseconds and `delay` the frames its driver says
    // lie between it and the device. Returns the frames a cycle the node should ask for from now
    // on (its latency, changed on the loop thread), or 0 for no change.
    uint32_t (*samples)(void *user, const float *samples, uint32_t frames, uint32_t channels, uint32_t rate, int64_t now,
                        int64_t delay);
    // Once on that data thread, as the loop thread starts and before any cycle can wait on it: where
    // to raise its priority (which may take a round trip to rtkit). NULL: nothing.
    void (*data_thread)(void *user);
} decibar_pw_callbacks;

enum decibar_pw_state {
    DECIBAR_PW_STATE_ERROR = -1,
    DECIBAR_PW_STATE_UNCONNECTED = 0,
    DECIBAR_PW_STATE_CONNECTING = 1,
    DECIBAR_PW_STATE_PAUSED = 2,
    DECIBAR_PW_STATE_STREAMING = 3,
};

// Loads libpipewire and initializes it; 1, or 0 with a one-line reason in `message`.
int decibar_pw_load(char *message, int size);

// Connects to the PipeWire server (`remote`, or NULL for the usual one: $PIPEWIRE_REMOTE, then
// pipewire-0 in $XDG_RUNTIME_DIR); NULL with a reason when none answers. Nothing is called back
// before decibar_pw_client_start.
decibar_pw_client *decibar_pw_client_new(const char *name, const char *remote, const decibar_pw_callbacks *callbacks,
                                         void *user, char *message, int size);
// Starts the loop thread: callbacks begin. 0 or an errno.
int decibar_pw_client_start(decibar_pw_client *client);
// Stops the loop thread and frees everything. Not from a callback.
void decibar_pw_client_free(decibar_pw_client *client);
// Calls from another thread than the loop's hold this lock.
void decibar_pw_client_lock(decibar_pw_client *client);
void decibar_pw_client_unlock(decibar_pw_client *client);
// Asks the server to answer with `synced` once everything sent before is done; the sequence number.
int decibar_pw_client_sync(decibar_pw_client *client);

// Opens the capture node: `channels` with the positions in `positions` ("FL,FR"), at the graph's
// rate, asking for `quantum` frames a cycle. Linked by nobody but decibar_pw_client_link. 0 or an errno.
int decibar_pw_capture_open(decibar_pw_client *client, const char *node_name, uint32_t channels, const char *positions,
                            uint32_t quantum);
void decibar_pw_capture_close(decibar_pw_client *client);
// The capture node's id in the registry (0xffffffff until it has one).
uint32_t decibar_pw_capture_node_id(decibar_pw_client *client);

// A link from an output port to an input port; a handle for decibar_pw_client_unlink, or NULL. A
// passive link never makes its output run: it carries what plays anyway.
void *decibar_pw_client_link(decibar_pw_client *client, uint32_t output_port, uint32_t input_port, int passive);
void decibar_pw_client_unlink(decibar_pw_client *client, void *link);

// The library's version, e.g. "0.3.65".
const char *decibar_pw_library_version(void);

#endif
