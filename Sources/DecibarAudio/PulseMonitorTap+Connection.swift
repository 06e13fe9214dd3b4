import CPulse

// The context's life: connect, notice the server leaving, retry with backoff.
extension PulseMonitorTap {
    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Opens a new context; called with the lock held or on the mainloop thread.
    func connect() {
        guard !isStopped, context == nil else { return }
        setStatus(.connecting)
        guard let context = mainloop.makeContext() else {
            scheduleRetry(reason: "cannot create a PulseAudio context")
            return
        }
        self.context = context
        pulseFunctions.pa_context_set_state_callback!(context, { context, userData in
            guard let context, let userData else { return }
            Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue().contextStateChanged(context)
        }, userData)
        // Ended once the context is ready or failed (FileModeMask says why).
        connectTurn = FileModeMask.takeTurn()
        if pulseFunctions.pa_context_connect!(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            let reason = pulseErrorText(pulseFunctions.pa_context_errno!(context))
            closeContext()
            scheduleRetry(reason: reason)
        }
    }

    private func contextStateChanged(_ changed: OpaquePointer) {
        guard changed == context, !isStopped else { return }
        let state = pulseFunctions.pa_context_get_state!(changed)
        if state == PA_CONTEXT_READY || state.isFinished { connectTurn?.end() }
        if state == PA_CONTEXT_READY {
            retryDelay = Self.initialRetryDelay
            subscribeToChanges()
            chooseDevice()
        } else if state.isFinished {
            let reason = pulseErrorText(pulseFunctions.pa_context_errno!(changed))
            // The context cannot be freed inside its own callback; the retry timer does it.
            scheduleRetry(reason: reason)
        }
    }

    private func subscribeToChanges() {
        guard let context else { return }
        pulseFunctions.pa_context_set_subscribe_callback!(context, { context, event, index, userData in
            guard let context, let userData else { return }
            Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue().serverChanged(context, event: event, index: index)
        }, userData)
        let streams = appSelection != nil ? PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue : 0
        let mask = PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
            | PA_SUBSCRIPTION_MASK_SOURCE.rawValue | streams
        if let operation = pulseFunctions.pa_context_subscribe!(context, pa_subscription_mask_t(rawValue: mask), nil, nil) {
            pulseFunctions.pa_operation_unref!(operation)
        }
    }

    private func serverChanged(_ changed: OpaquePointer, event: pa_subscription_event_type_t, index: UInt32) {
        guard changed == context, !isStopped else { return }
        let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        if appSelection != nil {
            // A sink's state changes whenever streams come and go; only new and removed sinks matter.
            if facility != PA_SUBSCRIPTION_EVENT_SINK.rawValue || kind != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue {
                appEvent(facility: facility, kind: kind, index: index)
            }
            return
        }
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            // The default sink may have changed.
            if target == .defaultSinkMonitor { chooseDevice() }
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
            // A device came or went: worth another look only while we have none.
            if kind != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue, stream == nil { chooseDevice() }
        default:
            break
        }
    }

    /// Drops the context and tries again later, each time waiting a little longer (up to 0.8 s).
    func scheduleRetry(reason: String) {
        guard !isStopped, retryTimer == nil else { return }
        setStatus(.waitingForServer(reason: reason))
        let delay = retryDelay
        retryDelay = min(Self.maximumRetryDelay, retryDelay * 2)
        retryTimer = mainloop.scheduleTimer(after: delay, userData: userData) { _, _, _, userData in
            guard let userData else { return }
            let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
            if let timer = tap.retryTimer {
                tap.mainloop.cancelTimer(timer)
                tap.retryTimer = nil
            }
            tap.closeStream()
            tap.closeContext()
            tap.connect()
        }
    }

    /// Disconnects and frees the context; its callbacks are cleared first so none arrive later.
    func closeContext() {
        closeCaptures()
        connectTurn?.end()
        connectTurn = nil
        guard let context else { return }
        releaseContext(context)
        self.context = nil
    }
}
