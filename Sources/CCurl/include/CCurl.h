// libcurl: HTTP(S) downloads for streamed tracks, loaded on first use rather than at process start.
//
// libcurl brings TLS, Kerberos, LDAP and SSH libraries with it: loading them at every start cost
// each decibar process about 5 MiB of memory, whether or not it ever fetched an address. As for
// FFmpeg, the functions Decibar uses are reached through pointers that decibar_curl_load() fills.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the wrappers below
// fix the argument's type, one per kind of option.
#ifndef DECIBAR_CCURL_H
#define DECIBAR_CCURL_H

#include <curl/curl.h>

#define DECIBAR_CURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_perform) X(curl_easy_strerror) \
    X(curl_easy_header) X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_slist_append) X(curl_slist_free_all)

// One member per function, named as the function, of exactly its type.
typedef struct {
#define DECIBAR_CURL_MEMBER(name) __typeof__(name) *name;
    DECIBAR_CURL_FUNCTIONS(DECIBAR_CURL_MEMBER)
#undef DECIBAR_CURL_MEMBER
} DecibarCurl;

// Loads libcurl and fills the table; safe from any thread, any number of times (the work happens
// once). Returns the table, or NULL with a one-line reason in `message`.
const DecibarCurl *decibar_curl_load(char *message, int size);
// The table, filled once decibar_curl_load() has succeeded.
const DecibarCurl *decibar_curl_functions(void);

static inline CURLcode decibar_curl_set_long(CURL *handle, CURLoption option, long value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, option, value);
}

typedef size_t (*decibar_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*decibar_curl_progress_callback)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                              curl_off_t uploadTotal, curl_off_t uploaded);

static inline CURLcode decibar_curl_set_data_callback(CURL *handle, CURLoption option, decibar_curl_data_callback value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_progress_callback(CURL *handle, decibar_curl_progress_callback value) {
    return decibar_curl_functions()->curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode decibar_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return decibar_curl_functions()->curl_easy_getinfo(handle, info, value);
}
static inline CURLcode decibar_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return decibar_curl_functions()->curl_easy_getinfo(handle, info, value);
}
static inline CURLcode decibar_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return decibar_curl_functions()->curl_easy_getinfo(handle, info, value);
}

#endif
