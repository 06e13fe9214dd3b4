// libcurl: HTTP(S) downloads for streamed tracks.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these wrappers
// fix the argument's type, one per kind of option.
#include <curl/curl.h>

static inline CURLcode decibar_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*decibar_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*decibar_curl_progress_callback)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                              curl_off_t uploadTotal, curl_off_t uploaded);

static inline CURLcode decibar_curl_set_data_callback(CURL *handle, CURLoption option, decibar_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode decibar_curl_set_progress_callback(CURL *handle, decibar_curl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode decibar_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode decibar_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode decibar_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
