// Each vtable's first entry points at libsystemd's format marker, a variable the linker would
// have to resolve when decibar starts. sd-bus only checks that the pointer is set (the marker's
// value, 242, names the format these headers describe), so a marker of our own lets libsystemd
// open on first use.
#define sd_bus_object_vtable_format decibar_sd_bus_object_vtable_format
#include "CMpris.h"
const unsigned decibar_sd_bus_object_vtable_format = 242;

#include <errno.h>

// Called back only on a bus that libsystemd opened: its table is loaded.

static int get_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)error;
    DecibarMprisTarget *target = userdata;
    return target->get_property(target->owner, interface, property, reply);
}

static int set_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)error;
    DecibarMprisTarget *target = userdata;
    return target->set_property(target->owner, interface, property, value);
}

static int call_method(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    DecibarMprisTarget *target = userdata;
    int result = target->call_method(target->owner, decibar_systemd_load(0, 0)->sd_bus_message_get_interface(call),
                                     decibar_systemd_load(0, 0)->sd_bus_message_get_member(call), call, error);
    if (result < 0) return result;
    // sd_bus_reply_method_return is variadic: Swift cannot call it.
    return decibar_systemd_load(0, 0)->sd_bus_reply_method_return(call, NULL);
}

static int answer_method(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    DecibarMprisTarget *target = userdata;
    const DecibarSystemd *systemd = decibar_systemd_load(0, 0);
    sd_bus_message *reply = NULL;
    int result = systemd->sd_bus_message_new_method_return(call, &reply);
    if (result < 0) return result;
    result = target->answer_method(target->owner, systemd->sd_bus_message_get_member(call), call, reply, error);
    // A bus of NULL: the one the call came on.
    if (result >= 0) result = systemd->sd_bus_send(NULL, reply, NULL);
    systemd->sd_bus_message_unref(reply);
    return result;
}

#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define CONSTANT SD_BUS_VTABLE_PROPERTY_CONST

static const sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", get_property, 0, CONSTANT),
    SD_BUS_PROPERTY("CanRaise", "b", get_property, 0, CONSTANT),
    SD_BUS_PROPERTY("HasTrackList", "b", get_property, 0, CONSTANT),
    SD_BUS_PROPERTY("Identity", "s", get_property, 0, CONSTANT),
    SD_BUS_PROPERTY("DesktopEntry", "s", get_property, 0, CONSTANT),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", get_property, 0, CONSTANT),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", get_property, 0, CONSTANT),
    SD_BUS_VTABLE_END
};

static const sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Seek", "x", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SetPosition", "ox", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("OpenUri", "s", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", get_property, 0, CHANGES),
    SD_BUS_WRITABLE_PROPERTY("LoopStatus", "s", get_property, set_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", get_property, set_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Shuffle", "b", get_property, set_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Metadata", "a{sv}", get_property, 0, CHANGES),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", get_property, set_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    // Position changes all the time: clients ask for it, and are told of jumps by Seeked.
    SD_BUS_PROPERTY("Position", "x", get_property, 0, 0),
    SD_BUS_PROPERTY("MinimumRate", "d", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("MaximumRate", "d", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanGoNext", "b", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanGoPrevious", "b", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanPlay", "b", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanPause", "b", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanSeek", "b", get_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanControl", "b", get_property, 0, CONSTANT),
    SD_BUS_VTABLE_END
};

static const sd_bus_vtable track_list_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("GetTracksMetadata", "ao", "aa{sv}", answer_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("AddTrack", "sob", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("RemoveTrack", "o", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("GoTo", "o", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("TrackListReplaced", "aoo", 0),
    SD_BUS_SIGNAL("TrackAdded", "a{sv}o", 0),
    SD_BUS_SIGNAL("TrackRemoved", "o", 0),
    SD_BUS_SIGNAL("TrackMetadataChanged", "oa{sv}", 0),
    // The specification's rule: a change of Tracks is told by TrackListReplaced, never with its value.
    SD_BUS_PROPERTY("Tracks", "ao", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
    SD_BUS_PROPERTY("CanEditTracks", "b", get_property, 0, CONSTANT),
    SD_BUS_VTABLE_END
};

const sd_bus_vtable *decibar_mpris_root_vtable(void) { return root_vtable; }
const sd_bus_vtable *decibar_mpris_track_list_vtable(void) { return track_list_vtable; }
const sd_bus_vtable *decibar_mpris_player_vtable(void) { return player_vtable; }
