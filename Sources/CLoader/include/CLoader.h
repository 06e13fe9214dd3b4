// Opening a C library on first use instead of at process start.
//
// A library linked directly is mapped and relocated at every start of decibar, by every command:
// `decibar ctl toggle` from a hotkey paid for SDL, GL, FFTW, Rubber Band and the rest. Each
// adapter's C module instead lists the functions it uses (an X-macro), gets a table with one
// pointer per function, of exactly its type, and fills it on first use with dlopen/dlsym.
#ifndef DECIBAR_CLOADER_H
#define DECIBAR_CLOADER_H

#include <pthread.h>

typedef struct {
    // The library's soname (its major version: a mismatched one is never loaded).
    const char *soname;
    const char *what;
    const char *const *names;
    int count;
    void **slots;
    pthread_mutex_t lock;
    // 0 not tried, 1 loaded, -1 failed (with `failure`).
    int state;
    char failure[256];
} DecibarLibrary;

// Loads the library once (any thread, any number of calls). Returns 1, or 0 with a one-line reason
// in `message`.
int decibar_library_load(DecibarLibrary *library, char *message, int size);

// One table member per function, named as the function, of exactly its type.
#define DECIBAR_TABLE_MEMBER(name) __typeof__(name) *name;
#define DECIBAR_TABLE_NAME(name) #name,

// Defines `const Type *decibar_<prefix>_load(char *message, int size)`: the filled table, or NULL.
#define DECIBAR_DEFINE_LOADER(prefix, Type, soname_, what_, FUNCTIONS) \
    static const char *const prefix##_names[] = { FUNCTIONS(DECIBAR_TABLE_NAME) }; \
    static Type prefix##_table; \
    static DecibarLibrary prefix##_library = { \
        .soname = soname_, .what = what_, .names = prefix##_names, \
        .count = (int)(sizeof prefix##_names / sizeof *prefix##_names), \
        .slots = (void **)&prefix##_table, .lock = PTHREAD_MUTEX_INITIALIZER }; \
    const Type *decibar_##prefix##_load(char *message, int size) { \
        _Static_assert(sizeof(Type) == sizeof prefix##_names / sizeof *prefix##_names * sizeof(void *), "one pointer per name"); \
        return decibar_library_load(&prefix##_library, message, size) ? &prefix##_table : 0; \
    }

#endif
