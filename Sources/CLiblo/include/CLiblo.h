// liblo: Open Sound Control messages. Decibar builds and serializes them with liblo and sends the
// bytes on a socket of its own (liblo's own sockets block and look names up on every send).
#include <lo/lo_lowlevel.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CLIBLO_H
#define DECIBAR_CLIBLO_H

#include <CLoader.h>

#define DECIBAR_LIBLO_FUNCTIONS(X) \
    X(lo_message_new) X(lo_message_free) X(lo_message_add_float) X(lo_message_get_argv) \
    X(lo_message_length) X(lo_message_serialise)

typedef struct { DECIBAR_LIBLO_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarLiblo;

const DecibarLiblo *decibar_liblo_load(char *message, int size);

#endif
