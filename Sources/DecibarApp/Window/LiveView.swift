import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The live window's frame loop. It owns the process main thread (SDL wants the thread that
/// opened the window); audio arrives through the feed from the concurrency pool.
public struct LiveView {
    let target: TapTarget
    let display: DisplaySettings
    /// Added to the sink's measured latency (may be negative), seconds.
    let avOffset: Double

    /// `source` names a source or sink (its monitor); nil follows the default output's monitor.
    public init(source: String?, display: DisplaySettings, avOffset: Double) {
        target = source.map(TapTarget.named) ?? .defaultSinkMonitor
        self.display = display
        self.avOffset = avOffset
    }

    public func run() throws {
        let window = try FrameLoop.openWindow(options: display)
        let visualizer: Visualizer
        do {
            let shaders = try ShaderLibrary()
            visualizer = try Visualizer(options: display, shaders: shaders,
                                        labelSize: max(11, window.drawableSize.height / 48), now: MonotonicClock.now())
        } catch {
            throw CommandFailure(message: error.description)
        }
        let tap: PulseMonitorTap
        do {
            // A recording keeps 256-frame deliveries throughout: a sound after silence must not arrive late.
            tap = try PulseMonitorTap(target: target, relaxesInSilence: display.record == nil, measuresSinkLatency: true)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let feed = AudioFeed()
        let pump = FeedPump(tap.buffers, into: feed)
        defer {
            tap.stop()
            pump.cancel()
            reportDroppedBuffers(tap)
        }
        tap.start()

        let screen = LiveScreen(tap: tap, feed: feed, pump: pump, avOffset: avOffset, text: LiveScreen.makeText(for: window))
        let recorder = try display.record.map { path in
            try Recorder(path: path, fps: display.recordFPS, width: window.drawableSize.width, height: window.drawableSize.height)
        }
        try FrameLoop(window: window, options: display, recorder: recorder).run { frame in
            for case .key(let key) in frame.events { visualizer.handle(key) }
            screen.frame(&frame, window: window, visualizer: visualizer, recorder: recorder)
        }
    }
}
