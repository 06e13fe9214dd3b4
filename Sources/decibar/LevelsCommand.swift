import ArgumentParser
import DecibarAudio
import DecibarCore
import Foundation

extension Decibar {
    struct Levels: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print RMS and peak levels as JSON lines, without a window.",
            discussion: """
                One object per line: {"t": seconds, "channels": N, "rms_db": [..], "peak_db": [..]}.
                Levels are dBFS per channel (floor -160); each line covers every sample since the \
                previous line. Live, t is seconds since start and a line is printed only when audio \
                arrived; status changes (device switched, server gone) are reported on stderr.
                With --file, the file is analysed as fast as possible and t is the time in the file.
                With --mode spectrum, a first line {"band_edges_hz": [..], "bands": N, "sample_rate": .., \
                "channels": ..} names the bands, then each line is {"t": .., "bands_db": [..]}: the \
                newest 4096-sample window's band levels (dB, flat for pink noise), all of the first \
                channel's bands low to high, then the second's (at most two channels).
                """)

        @OptionGroup var source: SourceOption

        @Option(name: .long, help: ArgumentHelp("Analyse this audio file instead of a live source.", valueName: "path"))
        var file: String?

        @Option(name: .long, help: ArgumentHelp("levels (RMS and peak per channel) or spectrum (band levels).", valueName: "levels|spectrum"))
        var mode: LevelsMode = .levels

        @Option(name: .long, help: ArgumentHelp("Bands per channel in spectrum mode (fewer when low bands must merge to hold an FFT bin).", valueName: "n"))
        var bands = 32

        @Option(name: .long, help: ArgumentHelp("Lines per second (of file time with --file).", valueName: "hz"))
        var rate: Double = 30

        @Option(name: .long, help: ArgumentHelp(
            "Stop after this many seconds (of file time with --file). Default: until interrupted, or the end of the file.",
            valueName: "seconds"))
        var duration: Double?

        func validate() throws {
            if source.source != nil && file != nil {
                throw ValidationError("--source and --file cannot be used together")
            }
            guard (1...1024).contains(bands) else { throw ValidationError("--bands must be between 1 and 1024") }
            guard rate.isFinite, rate >= 0.001, rate <= 1000 else {
                throw ValidationError("--rate must be between 0.001 and 1000 lines per second")
            }
            if let duration, !(duration.isFinite && duration > 0) {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            if let source = source.source, source.isEmpty {
                throw ValidationError("--source needs a name (see 'decibar devices')")
            }
        }

        func run() throws {
            if let file {
                try FileLevels(path: file, rate: rate, duration: duration, lines: LineMaker(mode: mode, bands: bands)).run()
            } else {
                try LiveLevels(target: source.source.map(TapTarget.named) ?? .defaultSinkMonitor,
                               rate: rate, duration: duration, lines: LineMaker(mode: mode, bands: bands)).run()
            }
        }
    }
}

/// `levels --file`: decode, re-chunk and measure as fast as the decoder goes.
struct FileLevels {
    let path: String
    let rate: Double
    let duration: Double?
    var lines: LineMaker

    func run() throws {
        let decoder: AudioFileDecoder
        do {
            decoder = try AudioFileDecoder(path: path)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let sampleRate = Double(decoder.sampleRate)
        let lastFrame = duration.map { Int64(saturating: ($0 * sampleRate).rounded()) } ?? Int64.max
        var rechunker = Rechunker(channelCount: decoder.channelCount, sampleRate: decoder.sampleRate)
        var processor = LevelProcessor(channelCount: decoder.channelCount)
        var framesDone: Int64 = 0
        var framesSinceLine = 0
        var linesWritten = 0
        var nextLineFrame = Int64(saturating: (sampleRate / rate).rounded())

        var lines = self.lines
        func consume(_ buffer: AudioBuffer) {
            guard framesDone < lastFrame else { return }
            if lines.needsLevels { processor.process(buffer) }
            lines.add(buffer)
            framesDone += Int64(buffer.frameCount)
            framesSinceLine += buffer.frameCount
            if framesDone >= nextLineFrame || framesDone >= lastFrame {
                lines.write(time: Double(framesDone) / sampleRate, reading: processor.takeReading())
                framesSinceLine = 0
                linesWritten += 1
                nextLineFrame = Int64(saturating: (Double(linesWritten + 1) * sampleRate / rate).rounded())
            }
        }

        do {
            while framesDone < lastFrame, try decoder.read({ samples in rechunker.append(samples, emit: consume) }) {}
        } catch {
            throw CommandFailure(message: error.description)
        }
        rechunker.flush(emit: consume)
        if framesSinceLine > 0 {
            lines.write(time: Double(framesDone) / sampleRate, reading: processor.takeReading())
        }
    }
}

/// `levels` on a live source: a line for every 1/rate seconds of audio captured, written by the
/// task that drains the tap, so no extra thread wakes up on a timer between deliveries.
struct LiveLevels {
    static let fragmentDuration = 0.05

    let target: TapTarget
    let rate: Double
    let duration: Double?
    let lines: LineMaker

    func run() throws {
        let tap: PulseMonitorTap
        do {
            // 50 ms of audio per delivery: far fewer wake-ups than 256-frame fragments (this is most
            // of what a headless reader costs). Every line still covers every sample, and its t is
            // when its last sample was captured, so lines that arrive together keep their times.
            tap = try PulseMonitorTap(target: target, bufferLimit: 1024, fragmentDuration: Self.fragmentDuration)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let start = MonotonicClock.now()
        let rate = self.rate
        let buffers = tap.buffers
        let lineMaker = lines
        let writer = Task.detached(priority: .high) {
            var lines = lineMaker
            var processor = LevelProcessor(channelCount: 2)
            var frames = 0.0
            var lineEnd: Double?
            var lastTime = 0.0
            for await buffer in buffers {
                if lines.needsLevels { processor.process(buffer) }
                lines.add(buffer)
                frames += Double(buffer.frameCount)
                let framesPerLine = Double(buffer.sampleRate) / rate
                // A line closes on the first buffer that reaches its end; ends advance by exactly
                // 1/rate of audio, so the line rate does not drift.
                if frames >= lineEnd ?? framesPerLine {
                    let captured = buffer.captureTime > 0 ? buffer.captureTime : MonotonicClock.now()
                    // After a stall the server hands over a backlog whose capture times are worked
                    // back from its arrival; t never goes back for it.
                    lastTime = max(lastTime, captured - start)
                    lines.write(time: lastTime, reading: processor.takeReading())
                    lineEnd = max((lineEnd ?? framesPerLine) + framesPerLine, frames)
                }
            }
        }
        defer {
            tap.stop()
            writer.cancel()
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
    private func waitForFirstDevice(_ tap: PulseMonitorTap) throws {
        let deadline = MonotonicClock.now() + 5
        var status = tap.status
        while true {
            switch status {
            case .capturing:
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

/// Buffers are dropped only when the reader falls far behind; say so when it happened.
func reportDroppedBuffers(_ tap: PulseMonitorTap) {
    let dropped = tap.droppedBufferCount
    if dropped > 0 {
        writeError("\(dropped) of \(dropped + tap.deliveredBufferCount) audio buffers were dropped because the reader fell behind")
    }
}

/// Reports each change of tap status on stderr, once.
struct StatusReporter {
    private var last: TapStatus?

    mutating func report(_ status: TapStatus) {
        // Retries pass through `connecting` each time and may give another reason ("terminated",
        // then "refused"): one line per outage is enough.
        if case .waitingForServer = status, case .waitingForServer = last { return }
        guard status != .connecting, status != last else { return }
        last = status
        switch status {
        case .connecting: break
        case .capturing(let device):
            writeError("listening to \(device.description) (\(device.name), \(device.sampleRate) Hz, \(device.channelCount) ch)")
        case .waitingForServer(let reason):
            writeError("waiting for audio server (\(reason))")
        case .waitingForDevice(let reason):
            writeError("waiting for a device: \(reason)")
        }
    }
}
