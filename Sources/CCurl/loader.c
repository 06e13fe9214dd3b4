#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static DecibarCurl decibar_curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];

// libcurl's ABI has been soname 4 since 2006; the development package's libcurl.so points to it.
static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load libcurl (libcurl.so.4): %s", dlerror());
        return;
    }
#define DECIBAR_CURL_RESOLVE(name) \
    decibar_curl.name = (__typeof__(name) *)dlsym(library, #name); \
    if (!decibar_curl.name && !failure[0]) snprintf(failure, sizeof failure, "cannot load libcurl: it has no %s", #name);
    DECIBAR_CURL_FUNCTIONS(DECIBAR_CURL_RESOLVE)
#undef DECIBAR_CURL_RESOLVE
}

const DecibarCurl *decibar_curl_load(char *message, int size) {
    pthread_once(&once, load);
    if (!failure[0]) return &decibar_curl;
    if (message && size > 0) snprintf(message, (size_t)size, "%s", failure);
    return NULL;
}

const DecibarCurl *decibar_curl_functions(void) { return &decibar_curl; }
