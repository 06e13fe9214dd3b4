import DecibarAudio
import DecibarCore
import Foundation

/// `levels` on a live source: a line for every 1/rate seconds of audio captured, written by the
/// task that drains the tap, so no extra thread wakes up on a timer between deliveries.
public struct LiveLevels {
    static let fragmentDuration = 0.05

    /// Audio per delivery for lines at `rate`: 50 ms, or one line's worth for slower lines (up to
    /// 100 ms: loudness at 10 lines a second wakes half as often, and no line waits longer).
    /// Beats are told as soon as they are found, whatever the line rate: 10 ms.
    static func fragmentDuration(rate: Double, mode: LevelsMode = .levels) -> Double {
        mode == .beats ? beatFragmentDuration : min(0.1, max(fragmentDuration, 1 / rate))
    }
    static let beatFragmentDuration = 0.01

    let target: TapTarget
    let rate: Double
    let duration: Double?
    let settings: LevelsSettings

    /// `source` names a source or sink (its monitor); nil follows the default output's monitor.
    /// Apps named in `apps` are listened to alone (on `source`'s output only, if given).
    /// Where the analysis is also sent (`--send`), at `outputRate` ticks a second, and the look of
    /// what is drawn there (bars on LEDs, the page).
    var outputs: [OutputTarget] = []
    var outputRate = OutputHub.displayRate
    var display = DisplaySettings()
    /// How the tap reaches the server (`--backend`).
    public var backend = AudioBackendChoice.auto

    public init(source: String?, apps: AppSelection = AppSelection(), rate: Double, duration: Double?, settings: LevelsSettings) {
        target = TapTarget(source: source, apps: apps)
        self.rate = rate
        self.duration = duration
        self.settings = settings
    }

    /// The same, also sending to `outputs`.
    public init(source: String?, apps: AppSelection = AppSelection(), rate: Double, duration: Double?, settings: LevelsSettings,
                outputs: [OutputTarget], outputRate: Double, display: DisplaySettings) {
        self.init(source: source, apps: apps, rate: rate, duration: duration, settings: settings)
        self.outputs = outputs
        self.outputRate = outputRate
        self.display = display
    }

    public func run() throws {
        try settings.checkLibraries()
        let tap: any LiveTap
        do {
            // 50 to 100 ms of audio per delivery: far fewer wake-ups than 256-frame fragments (this is most
            // of what a headless reader costs). Every line still covers every sample, and its t is
            // when its last sample was captured, so lines that arrive together keep their times.
            // Outputs are sent when the audio is heard: they need the sink's latency, and fragments
            // no longer than a tick of theirs.
            let fragment = outputs.isEmpty ? Self.fragmentDuration(rate: rate, mode: settings.mode) : Self.beatFragmentDuration
            tap = try LiveTaps.open(backend: backend, target: target, bufferLimit: 1024, fragmentDuration: fragment,
                                    measuresSinkLatency: !outputs.isEmpty, priority: RealtimePriority.tap,
                                    notice: { writeError($0) })
        } catch {
            throw CommandFailure(message: error.description)
        }
        let start = MonotonicClock.now()
        let rate = self.rate
        let buffers = tap.buffers
        // The maker is made in the task that uses it: it holds an analyzer that only that task may touch.
        let settings = self.settings
        let hub = try OutputHub.starting(outputs, display: display, rate: outputRate, heardDelay: { tap.sinkLatency })
        let writer = Task.detached(priority: .high) {
            var lines = LiveLines(settings: settings, rate: rate, start: start)
            var beats = BeatFinder()
            await buffers.forEach { buffer in
                if let hub {
                    hub.add(buffer)
                    beats.add(buffer, told: hub.beatListener())
                }
                lines.add(buffer)
            }
        }
        defer {
            tap.stop()
            writer.cancel()
            hub?.stop()
            reportDroppedBuffers(tap)
        }
        tap.start()
        try waitForFirstDevice(tap)

        // The main thread sleeps until the tap's status changes (reported on stderr) or the
        // duration ends: at rest it never wakes, which matters to a reader that costs < 1 % of a core.
        var reporter = StatusReporter()
        let end = duration.map { start + $0 } ?? .infinity
        var status = tap.status
        reporter.report(status)
        while MonotonicClock.now() < end {
            status = tap.waitForStatus(otherThan: status, until: end)
            reporter.report(status)
        }
    }

    /// At start, a missing server or a misspelt source is an error; later, both are waited out.
    private func waitForFirstDevice(_ tap: any LiveTap) throws {
        let deadline = MonotonicClock.now() + 5
        var status = tap.status
        while true {
            switch status {
            case .capturing, .waitingForApp:
                // An app that does not play yet is waited for quietly: its level is silence.
                return
            case .waitingForServer(let reason):
                throw CommandFailure(message: "no audio server: \(reason)")
            case .waitingForDevice(let reason) where target != .defaultSinkMonitor:
                throw CommandFailure(message: reason)
            case .connecting, .waitingForDevice:
                guard MonotonicClock.now() < deadline else {
                    if case .waitingForDevice(let reason) = status { throw CommandFailure(message: reason) }
                    throw CommandFailure(message: "the audio server did not answer within 5 s")
                }
                status = tap.waitForStatus(otherThan: status, until: deadline)
            }
        }
    }
}
