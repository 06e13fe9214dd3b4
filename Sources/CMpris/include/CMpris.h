// The MPRIS 2 interfaces as sd-bus vtables. sd-bus describes an object with tables built by
// macros over a bit-field struct, which Swift cannot express, so the tables live here and every
// entry calls back into Swift through the three functions of a DecibarMprisTarget.
#ifndef DECIBAR_CMPRIS_H
#define DECIBAR_CMPRIS_H

#include <CSystemd.h>
// The bus thread sleeps in poll(); an eventfd wakes it when the player has news.
#include <sys/eventfd.h>

typedef struct DecibarMprisTarget {
    void *owner;
    // Appends the value of `property` to `reply`; returns >= 0 or a negative errno.
    int (*get_property)(void *owner, const char *interface, const char *property, sd_bus_message *reply);
    // Reads the new value of `property` from `value`; returns >= 0 or a negative errno.
    int (*set_property)(void *owner, const char *interface, const char *property, sd_bus_message *value);
    // Reads the arguments of `member` from `call`; returns >= 0 (an empty reply is sent) or a
    // negative errno, with `error` set when there is a message for the caller.
    int (*call_method)(void *owner, const char *interface, const char *member, sd_bus_message *call, sd_bus_error *error);
    // Like call_method, for a method with an answer: appends it to `reply`, which is then sent.
    int (*answer_method)(void *owner, const char *member, sd_bus_message *call, sd_bus_message *reply, sd_bus_error *error);
} DecibarMprisTarget;

// org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player; their userdata is a DecibarMprisTarget.
const sd_bus_vtable *decibar_mpris_root_vtable(void);
const sd_bus_vtable *decibar_mpris_player_vtable(void);
// org.mpris.MediaPlayer2.TrackList.
const sd_bus_vtable *decibar_mpris_track_list_vtable(void);

#endif
