import CPulse
import Dispatch

/// A libpulse threaded mainloop: one thread that runs every PulseAudio callback.
///
/// Code outside that thread must hold the lock while touching PulseAudio objects.
// Unchecked: libpulse's threaded mainloop is made to be used from any thread through its lock;
// the pointer is only ever used through that API.
final class PulseMainloop: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Nil when libpulse cannot be loaded (`pulseLibrary.failure` says why) or the thread cannot start.
    init?() {
        guard pulseLibrary.table != nil, let mainloop = pulseFunctions.pa_threaded_mainloop_new!() else { return nil }
        pointer = mainloop
        pulseFunctions.pa_threaded_mainloop_set_name!(mainloop, "decibar-pulse")
        guard pulseFunctions.pa_threaded_mainloop_start!(mainloop) >= 0 else {
            pulseFunctions.pa_threaded_mainloop_free!(mainloop)
            return nil
        }
    }

    // Never nil for a running mainloop.
    var api: UnsafeMutablePointer<pa_mainloop_api> { pulseFunctions.pa_threaded_mainloop_get_api!(pointer)! }

    /// Whether this is the mainloop's own thread, where every callback runs with the lock held.
    var isCurrentThread: Bool { pulseFunctions.pa_threaded_mainloop_in_thread!(pointer) != 0 }

    /// Runs `body` with the mainloop locked. On the mainloop's own thread the lock is already held
    /// (libpulse aborts if that thread takes it again): there an object whose owner let go while
    /// a callback held it ends, and its `stop` runs inside that callback.
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        if isCurrentThread { return try body() }
        pulseFunctions.pa_threaded_mainloop_lock!(pointer)
        defer { pulseFunctions.pa_threaded_mainloop_unlock!(pointer) }
        return try body()
    }

    /// Wakes a thread blocked in `wait()`; call from callbacks.
    func signal() { pulseFunctions.pa_threaded_mainloop_signal!(pointer, 0) }

    /// Releases the lock until `signal()`; call with the lock held.
    func wait() { pulseFunctions.pa_threaded_mainloop_wait!(pointer) }

    /// Stops the thread and frees the loop. Every context and stream must already be gone.
    func shutDown() {
        guard !isCurrentThread else {
            // A thread cannot wait for its own end: another stops it once this callback returns.
            DispatchQueue.global().async { self.shutDown() }
            return
        }
        pulseFunctions.pa_threaded_mainloop_stop!(pointer)
        pulseFunctions.pa_threaded_mainloop_free!(pointer)
    }

    /// Schedules `callback` once after `delay` seconds on the mainloop thread; call with the lock held.
    func scheduleTimer(after delay: Double, userData: UnsafeMutableRawPointer,
                       callback: pa_time_event_cb_t) -> OpaquePointer? {
        var when = timeval()
        pulseFunctions.pa_gettimeofday!(&when)
        pulseFunctions.pa_timeval_add!(&when, pa_usec_t(max(0, delay) * 1_000_000))
        return api.pointee.time_new(api, &when, callback, userData)
    }

    /// Sets a timer from `scheduleTimer` (fired or not) to fire again after `delay` seconds; call with the lock held.
    func restartTimer(_ timer: OpaquePointer, after delay: Double) {
        var when = timeval()
        pulseFunctions.pa_gettimeofday!(&when)
        pulseFunctions.pa_timeval_add!(&when, pa_usec_t(max(0, delay) * 1_000_000))
        api.pointee.time_restart(timer, &when)
    }

    /// Cancels a timer from `scheduleTimer`; call with the lock held.
    func cancelTimer(_ timer: OpaquePointer) {
        api.pointee.time_free(timer)
    }

    /// A context that fails fast when no server runs, instead of trying to spawn one.
    /// The context's name is the application name the server shows (pavucontrol, `pactl list`).
    func makeContext() -> OpaquePointer? {
        let properties = pulseFunctions.pa_proplist_new!()
        defer { pulseFunctions.pa_proplist_free!(properties) }
        pulseFunctions.pa_proplist_sets!(properties, PA_PROP_APPLICATION_NAME, "Decibar")
        pulseFunctions.pa_proplist_sets!(properties, PA_PROP_APPLICATION_ID, "org.decibar.Decibar")
        pulseFunctions.pa_proplist_sets!(properties, PA_PROP_APPLICATION_ICON_NAME, "audio-x-generic")
        return pulseFunctions.pa_context_new_with_proplist!(api, "Decibar", properties)
    }
}

/// Disconnects and frees a context, clearing its callbacks first so none arrive afterwards.
/// Call with the mainloop locked (or on its thread), never from that context's own callback.
func releaseContext(_ context: OpaquePointer) {
    pulseFunctions.pa_context_set_state_callback!(context, nil, nil)
    pulseFunctions.pa_context_set_subscribe_callback!(context, nil, nil)
    pulseFunctions.pa_context_disconnect!(context)
    pulseFunctions.pa_context_unref!(context)
}

/// libpulse's text for an error code.
func pulseErrorText(_ code: Int32) -> String {
    pulseFunctions.pa_strerror!(code).map { String(cString: $0) } ?? "error \(code)"
}

extension pa_context_state_t {
    var isFinished: Bool { self == PA_CONTEXT_FAILED || self == PA_CONTEXT_TERMINATED }
}

extension pa_stream_state_t {
    var isFinished: Bool { self == PA_STREAM_FAILED || self == PA_STREAM_TERMINATED }
}
