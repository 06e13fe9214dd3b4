// Tells ThreadSanitizer what Synchronization.Mutex's slow paths do, for `make tsan`.
//
// Swift's Mutex on Linux takes and gives its lock word with atomics in the caller's code (which
// ThreadSanitizer sees), but under contention it waits in the kernel (FUTEX_LOCK_PI), and the
// kernel hands the lock over by writing the word itself. ThreadSanitizer sees no release and no
// acquire there, and reports races on data that the mutex does protect. Preloaded, this library
// wraps the slow paths: it announces an acquire on the mutex's address after `_lockSlow` (and a
// successful `_tryLockSlow`), and a release before `_unlockSlow`. Nothing is silenced: data
// touched outside the mutex is still reported (the self-check plants such a race).
//
// The wrapped functions use Swift's calling convention: the mutex (`self`) arrives in the
// context register. In a process without ThreadSanitizer (ffmpeg, pactl) the hooks are absent
// and the wrappers only forward.
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

#define SWIFT __attribute__((swiftcall))
#define SELF __attribute__((swift_context))

typedef SWIFT void (*LockSlow)(uint32_t, SELF void *);
typedef SWIFT bool (*TryLockSlow)(SELF void *);
typedef SWIFT void (*UnlockSlow)(SELF void *);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

SWIFT void decibar_lock_slow(uint32_t owner, SELF void *self) __asm__(LOCK_SLOW);
SWIFT void decibar_lock_slow(uint32_t owner, SELF void *self) {
    static LockSlow real;
    if (!real) real = (LockSlow)next(LOCK_SLOW);
    real(owner, self);
    if (__tsan_acquire) __tsan_acquire(self);
}

SWIFT bool decibar_try_lock_slow(SELF void *self) __asm__(TRY_LOCK_SLOW);
SWIFT bool decibar_try_lock_slow(SELF void *self) {
    static TryLockSlow real;
    if (!real) real = (TryLockSlow)next(TRY_LOCK_SLOW);
    bool locked = real(self);
    if (locked && __tsan_acquire) __tsan_acquire(self);
    return locked;
}

SWIFT void decibar_unlock_slow(SELF void *self) __asm__(UNLOCK_SLOW);
SWIFT void decibar_unlock_slow(SELF void *self) {
    static UnlockSlow real;
    if (!real) real = (UnlockSlow)next(UNLOCK_SLOW);
    if (__tsan_release) __tsan_release(self);
    real(self);
}
