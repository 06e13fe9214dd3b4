#include "CFFmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static DecibarFFmpeg table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

// The sonames of the headers we were built against, so a mismatched library is never loaded.
static void *open_library(const char *name, int major) {
    char file[64];
    snprintf(file, sizeof file, "lib%s.so.%d", name, major);
    void *handle = dlopen(file, RTLD_NOW | RTLD_GLOBAL);
    if (!handle && !failure[0]) snprintf(failure, sizeof failure, "cannot load FFmpeg (%s): %s", file, dlerror());
    return handle;
}

static void load(void) {
    void *avutil = open_library("avutil", LIBAVUTIL_VERSION_MAJOR);
    void *swresample = open_library("swresample", LIBSWRESAMPLE_VERSION_MAJOR);
    void *avcodec = open_library("avcodec", LIBAVCODEC_VERSION_MAJOR);
    void *avformat = open_library("avformat", LIBAVFORMAT_VERSION_MAJOR);
    void *swscale = open_library("swscale", LIBSWSCALE_VERSION_MAJOR);
    if (!avutil || !swresample || !avcodec || !avformat || !swscale) return;
#define DECIBAR_FFMPEG_RESOLVE(library, name) \
    table.name = (__typeof__(name) *)dlsym(library, #name); \
    if (!table.name && !failure[0]) snprintf(failure, sizeof failure, "cannot load FFmpeg: lib%s has no %s", #library, #name);
    DECIBAR_FFMPEG_FUNCTIONS(DECIBAR_FFMPEG_RESOLVE)
#undef DECIBAR_FFMPEG_RESOLVE
}

const DecibarFFmpeg *decibar_ffmpeg_load(char *message, int size) {
    pthread_once(&once, load);
    if (!failure[0]) return &table;
    if (message && size > 0) snprintf(message, (size_t)size, "%s", failure);
    return NULL;
}
