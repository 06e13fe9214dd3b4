// libsndfile: WAV, AIFF and FLAC read sample-exactly, for the overview; opened on first use (see
// CLoader.h).
#ifndef DECIBAR_CSNDFILE_H
#define DECIBAR_CSNDFILE_H

#include <sndfile.h>
#include <CLoader.h>

#define DECIBAR_SNDFILE_FUNCTIONS(X) \
    X(sf_open_fd) X(sf_close) X(sf_readf_float) X(sf_seek) X(sf_error) X(sf_error_number)

typedef struct { DECIBAR_SNDFILE_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarSndfile;

const DecibarSndfile *decibar_sndfile_load(char *message, int size);

#endif
