import DecibarAudio
import DecibarCore

/// Turns the audio of one line into its text: levels, or band levels from the newest window
/// (printing the band header first, and again if the rate or channel count changes).
struct LineMaker {
    let mode: LevelsMode
    let bands: Int
    /// Spectrum lines: the analysis as it is instead of the window's smoothing.
    let raw: Bool
    /// Spectrum lines: the level of an empty bar, where smoothed levels stop.
    let floorDB: Float
    /// Made with the analyzer, one analysis window long; none in levels mode.
    private var history: SampleHistory?
    private var analyzer: SpectrumAnalyzer?
    private var smoother: SpectrumSmoother?
    /// Loudness lines only.
    private let loudness: LoudnessMeter?
    private var lastTime: Double?
    private var format: (rate: Int, channels: Int) = (0, 0)
    /// Status-bar lines (waybar, ascii) from the spectrum and the levels.
    private var feed: StatusBarFeed?
    private var rmsDB: [Float] = []
    private var peakDB: [Float] = []
    /// Where lines go: standard output, or a daemon's subscriber.
    private let output: ([UInt8]) -> Void
    /// Beat lines: the beats found.
    private var beats = BeatFinder()
    /// Stereo lines: correlation, balance and width.
    private var stereo = StereoMeter()

    init(_ settings: LevelsSettings, output: @escaping ([UInt8]) -> Void = { writeBytes($0) }) {
        self.output = output
        mode = settings.mode
        bands = settings.bands
        raw = settings.raw
        floorDB = settings.floorDB
        loudness = settings.mode == .loudness && settings.feed == nil ? LoudnessMeter(exact: settings.exactLoudness) : nil
        feed = settings.feed.map { StatusBarFeed(format: $0, barCount: settings.bands, asciiMax: settings.asciiMax) }
    }

    /// Whether lines need RMS and peak levels (spectrum lines do not).
    var needsLevels: Bool { mode == .levels || feed != nil }
    private var analyzesSpectrum: Bool { mode == .spectrum || feed != nil }

    /// Beat lines are written as beats are found, not at the line rate; `time` maps the buffers'
    /// clock (see `BeatFinder`) to the lines' (file time, or capture time since the start).
    mutating func add(_ buffer: AudioBuffer, time: (Double) -> Double) {
        guard mode == .beats else {
            add(buffer)
            return
        }
        beats.add(buffer) { event in
            line.removeAll(keepingCapacity: true)
            BeatLine.append(time: time(event.time), isBeat: event.isBeat, bpm: event.bpm, confidence: event.confidence, to: &line)
            output(line)
        }
    }

    mutating func add(_ buffer: AudioBuffer) {
        loudness?.add(buffer)
        if mode == .stereo { stereo.add(buffer) }
        guard analyzesSpectrum else { return }
        if buffer.sampleRate != format.rate || buffer.channelCount != format.channels {
            format = (buffer.sampleRate, buffer.channelCount)
            analyzer = SpectrumAnalyzer(sampleRate: buffer.sampleRate, bandCount: bands, channelCount: min(2, buffer.channelCount))
            // Exactly one analysis window of history: the smallest ring to keep warm in cache.
            history = SampleHistory(capacity: analyzer?.bands.fftLength ?? AudioFeed.historyLength, channelCount: 2)
            smoother = analyzer.map { SpectrumSmoother(bands: $0.bands, channelCount: $0.channelCount, floorDB: floorDB) }
            lastTime = nil
            if let analyzer, feed == nil {
                output(Array((SpectrumLine.header(bands: analyzer.bands, channels: analyzer.channelCount) + "\n").utf8))
            }
        }
        history?.append(buffer)
    }

    private var line: [UInt8] = []

    /// Writes the line for the audio since the last one to the output. `reading` is taken
    /// only in levels mode (taking one resets the processor, and spectrum lines do not use it).
    mutating func write(time: Double, reading: @autoclosure () -> LevelReading) {
        guard mode != .beats else { return }
        if mode == .stereo {
            line.removeAll(keepingCapacity: true)
            StereoLine.append(time: time, reading: stereo.reading, to: &line)
            output(line)
            return
        }
        if let loudness {
            line.removeAll(keepingCapacity: true)
            LoudnessLine.append(time: time, reading: loudness.reading, to: &line)
            output(line)
            return
        }
        guard analyzesSpectrum, let analyzer, let history else {
            guard feed == nil else { return }
            line.removeAll(keepingCapacity: true)
            LevelLine.append(time: time, reading: reading(), to: &line)
            output(line)
            return
        }
        var levels = analyzer.analyze { channel, destination in history.copyLatest(channel: channel, into: destination) }
        if !raw, smoother != nil {
            // The smoothing steps by the time between lines, as the window's does by its frame time.
            smoother?.advance(toward: levels, dt: time - (lastTime ?? 0))
            levels = smoother?.levels ?? levels
        }
        lastTime = time
        if feed != nil {
            let levelReading = reading()
            rmsDB.removeAll(keepingCapacity: true)
            peakDB.removeAll(keepingCapacity: true)
            for channel in 0 ..< levelReading.channelCount {
                rmsDB.append(levelReading.rmsDB(channel: channel))
                peakDB.append(levelReading.peakDB(channel: channel))
            }
            if let text = feed?.line(time: time, bands: levels, rmsDB: rmsDB, peakDB: peakDB) { output(text) }
            return
        }
        line.removeAll(keepingCapacity: true)
        SpectrumLine.append(time: time, levels: levels, to: &line)
        output(line)
    }
}

extension LevelsSettings {
    /// Loudness lines need libebur128, opened on first use: without it, say so before starting.
    func checkLibraries() throws(CommandFailure) {
        if mode == .loudness && feed == nil, let failure = LoudnessMeter.libraryFailure {
            throw CommandFailure(message: "loudness needs libebur128: \(failure)")
        }
    }
}
