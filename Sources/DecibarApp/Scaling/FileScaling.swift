import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// Set by SIGINT or SIGTERM while a file is scaled; the work then stops and leaves nothing.
private let scalingInterrupted = Atomic<Bool>(false)

/// `decibar scale`: a file made longer or shorter by a factor with seed 001's interpolation
/// (`LinearTimeScaler`), each channel on its own and the layout kept, written through the ffmpeg
/// program in the format OUT's extension names. It streams: a block of samples at a time from the
/// decoder through the scaler to the encoder, so memory stays small however long the file.
public struct FileScaling {
    let input: String
    let output: String
    let format: ScaleOutputFormat
    let factor: Double
    let singleChannel: Bool
    let sampleFormat: SampleFormat?
    /// Rubber Band's offline stretch instead of the seed's interpolation: the pitch stays.
    let keepsPitch: Bool

    public init(input: String, output: String, format: ScaleOutputFormat, factor: Double, singleChannel: Bool, sampleFormat: SampleFormat?,
                keepsPitch: Bool = false) {
        self.input = input
        self.output = output
        self.format = format
        self.factor = factor
        self.singleChannel = singleChannel
        self.sampleFormat = sampleFormat
        self.keepsPitch = keepsPitch
    }

    /// One pass: what the decoder held, and whether the output is complete.
    private enum Pass {
        case done(inputFrames: Int, outputFrames: Int)
        /// The length the file's header gave was wrong: this many frames are really there.
        case lengthWas(Int)
    }

    public func run() throws {
        scalingInterrupted.store(false, ordering: .relaxed)
        let previous = (signal(SIGINT) { _ in scalingInterrupted.store(true, ordering: .relaxed) },
                        signal(SIGTERM) { _ in scalingInterrupted.store(true, ordering: .relaxed) })
        defer {
            signal(SIGINT, previous.0)
            signal(SIGTERM, previous.1)
        }
        guard ChildProcess.findProgram("ffmpeg") != nil else {
            throw CommandFailure(message: "scale needs the ffmpeg program to write \(format.fileExtension) (apt-get install ffmpeg)")
        }
        PartialOutput.removeStale(for: output)
        let start = MonotonicClock.now()
        // The control points depend on the length: the header's, checked as the file is read. A
        // header that was wrong (or silent) costs one more pass with the length counted.
        var length: Int?
        var result: (inputFrames: Int, outputFrames: Int, rate: Int)?
        for _ in 0 ..< 3 where result == nil {
            let (decoder, download) = try open()
            defer { download?.cancel() }
            if keepsPitch, download == nil, let plan = piecewisePlan(decoder, length: length) {
                switch try scalePiecewise(decoder, plan: plan) {
                case .done(let inputFrames, let outputFrames): result = (inputFrames, outputFrames, decoder.sampleRate)
                case .lengthWas: length = try count(decoder)
                }
                continue
            }
            if keepsPitch {
                // Rubber Band studies the whole file first, which counts it too.
                var stage = try study()
                if case .done(let inputFrames, let outputFrames) = try scale(decoder, inputFrames: stage.studiedFrames, stage: &stage) {
                    result = (inputFrames, outputFrames, decoder.sampleRate)
                }
                break
            }
            guard let frames = length ?? decoder.estimatedFrameCount.map(Int.init) else {
                length = try count(decoder)
                continue
            }
            var stage = LinearTimeScaler(ramp: TimeScaleRamp(inputCount: frames, factor: factor), channelCount: singleChannel ? 1 : decoder.channelCount)
            switch try scale(decoder, inputFrames: frames, stage: &stage) {
            case .done(let inputFrames, let outputFrames): result = (inputFrames, outputFrames, decoder.sampleRate)
            case .lengthWas(let actual): length = actual
            }
        }
        guard let result else { throw CommandFailure(message: "\(input.escapingControlCharacters): its length kept changing while it was read") }
        let elapsed = MonotonicClock.now() - start
        let seconds = { (frames: Int) in TimeLabel.text(seconds: Double(frames) / Double(result.rate)) }
        writeError(String(format: "scaled %@ (%@) by %g to %@ (%@) in %.1f s", input.escapingControlCharacters, seconds(result.inputFrames),
                          factor, output.escapingControlCharacters, seconds(result.outputFrames), elapsed))
    }

    private func open() throws(CommandFailure) -> (AudioFileDecoder, StreamDownload?) {
        do {
            return try MediaOpener.decoder(for: input)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    private var interruption: CommandFailure {
        CommandFailure(message: "interrupted; nothing was written to \(output.escapingControlCharacters)", status: 130)
    }

    /// The file's frames, counted by decoding it (no header said).
    private func count(_ decoder: AudioFileDecoder) throws(CommandFailure) -> Int {
        var frames = 0
        let channels = decoder.channelCount
        do {
            while try decoder.read({ frames += $0.count / channels }) {
                if scalingInterrupted.load(ordering: .relaxed) { throw interruption }
            }
        } catch let error as AudioFileError {
            throw CommandFailure(message: error.description)
        } catch {
            throw error as! CommandFailure
        }
        return frames
    }

    /// `--keep-pitch`'s first pass: the whole file through Rubber Band's study.
    private func study() throws -> PitchKeepingScaler {
        let (decoder, download) = try open()
        defer { download?.cancel() }
        let channels = singleChannel ? 1 : decoder.channelCount
        guard var stage = PitchKeepingScaler(sampleRate: decoder.sampleRate, channelCount: channels, factor: factor) else {
            throw CommandFailure(message: "\(input.escapingControlCharacters): Rubber Band cannot stretch \(decoder.sampleRate) Hz \(channels)-channel audio")
        }
        var merged: [Float] = []
        var progress = ProgressBar(total: max(1, decoder.estimatedFrameCount.map(Int.init) ?? 1), unit: "s", scale: Double(decoder.sampleRate),
                                   label: "studying")
        defer { progress.finish() }
        do {
            while try decoder.read({ block in
                if singleChannel && decoder.channelCount > 1 {
                    Self.merge(block, channels: decoder.channelCount, into: &merged)
                    merged.withUnsafeBufferPointer { stage.study($0) }
                } else {
                    stage.study(block)
                }
            }) {
                if scalingInterrupted.load(ordering: .relaxed) { throw interruption }
                progress.update(done: stage.studiedFrames)
            }
        } catch let error as AudioFileError {
            throw CommandFailure(message: error.description)
        }
        stage.finishStudy()
        return stage
    }

    private func scale<Stage: ScalingStage>(_ decoder: AudioFileDecoder, inputFrames: Int, stage scaler: inout Stage) throws -> Pass {
        var merged: [Float] = []
        return try encode(decoder, inputFrames: inputFrames) { emit, progress, check in
            while try decoder.read({ block in
                if singleChannel && decoder.channelCount > 1 {
                    Self.merge(block, channels: decoder.channelCount, into: &merged)
                    merged.withUnsafeBufferPointer { scaler.process($0, emit: emit) }
                } else {
                    scaler.process(block, emit: emit)
                }
            }) {
                try check()
                progress.update(done: min(scaler.receivedFrames, inputFrames))
            }
            progress.finish()
            scaler.finish(emit: emit)
            try check()
            guard scaler.receivedFrames == inputFrames else {
                if keepsPitch {
                    throw CommandFailure(message: "\(input.escapingControlCharacters): its length changed between the two passes (\(inputFrames) frames, then \(scaler.receivedFrames))")
                }
                return .lengthWas(scaler.receivedFrames)
            }
            return .done(inputFrames: inputFrames, outputFrames: scaler.emittedFrames)
        }
    }

    /// `--keep-pitch` in pieces on every core, for a file (not a stream) long enough to cut, on a
    /// machine with more than one core; nil otherwise.
    private func piecewisePlan(_ decoder: AudioFileDecoder, length: Int?) -> PitchScalingPlan? {
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, 16)
        guard threads > 1, let frames = length ?? decoder.estimatedFrameCount.map(Int.init), frames > 0 else { return nil }
        let plan = PitchScalingPlan(inputCount: frames, factor: factor, sampleRate: decoder.sampleRate)
        return plan.pieces.count > 1 ? plan : nil
    }

    private func scalePiecewise(_ decoder: AudioFileDecoder, plan: PitchScalingPlan) throws -> Pass {
        let channels = singleChannel ? 1 : decoder.channelCount
        let scaling = PiecewisePitchScaling(input: input, plan: plan, sampleRate: decoder.sampleRate, channelCount: decoder.channelCount,
                                            mergesChannels: singleChannel, threadCount: min(ProcessInfo.processInfo.activeProcessorCount, 16),
                                            isInterrupted: { scalingInterrupted.load(ordering: .relaxed) })
        var converted = [Double](repeating: 0, count: 4096 * channels)
        return try encode(decoder, inputFrames: plan.inputCount) { emit, progress, check in
            var emitted = 0
            do {
                try scaling.run(progress: { progress.update(done: $0) }) { block in
                    for start in stride(from: 0, to: block.count, by: converted.count) {
                        let count = min(converted.count, block.count - start)
                        for index in 0 ..< count { converted[index] = Double(block[start + index]) }
                        converted.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0 ..< count])) }
                    }
                    emitted += block.count / channels
                }
            } catch let failure as PiecewisePitchScaling.Failure where failure.isLengthChange {
                return .lengthWas(0)
            } catch let failure as PiecewisePitchScaling.Failure {
                try check()
                throw CommandFailure(message: failure.message)
            }
            progress.finish()
            try check()
            return .done(inputFrames: plan.inputCount, outputFrames: emitted)
        }
    }

    /// Runs the ffmpeg encoder for OUT while `produce` hands it samples; `check` throws when the
    /// run was interrupted or the encoder failed. The output is committed only when all is done.
    private func encode(_ decoder: AudioFileDecoder, inputFrames: Int,
                        produce: (_ emit: (UnsafeBufferPointer<Double>) -> Void, _ progress: inout ProgressBar, _ check: () throws -> Void) throws -> Pass) throws -> Pass {
        let channels = singleChannel ? 1 : decoder.channelCount
        guard channels <= format.maximumChannels else {
            throw CommandFailure(message: "-o \(output.escapingControlCharacters): .\(format.fileExtension) holds at most \(format.maximumChannels) channels; \(input.escapingControlCharacters) has \(channels) (--single-channel merges them)", status: 2)
        }
        let positions = singleChannel ? [SpeakerPosition.frontCenter] : decoder.speakerPositions
        let samples = encodedFormat(decoder)
        let isInterrupted = { scalingInterrupted.load(ordering: .relaxed) }

        let partial = try PartialOutput(destination: output, kind: .file, fileExtension: format.fileExtension, keepsOpen: false, protecting: [input])
        let ffmpeg = try ChildProcess("ffmpeg", arguments: arguments(samples: samples, rate: decoder.sampleRate, positions: positions, to: partial.path),
                                      feedsInput: true, isInterrupted: isInterrupted,
                                      missing: "scale needs the ffmpeg program (apt-get install ffmpeg)")
        var encoder = SampleEncoder(format: samples)
        var progress = ProgressBar(total: max(1, inputFrames), unit: "s", scale: Double(decoder.sampleRate))
        var writeFailure: ChildProcess.WriteOutcome?
        func emit(_ block: UnsafeBufferPointer<Double>) {
            guard writeFailure == nil else { return }
            let outcome = encoder.encode(block) { ffmpeg.write($0) }
            if outcome != .written { writeFailure = outcome }
        }
        func check() throws {
            if isInterrupted() { throw interruption }
            if let writeFailure { throw failure(writeFailure, ffmpeg) }
        }
        let pass: Pass
        do {
            pass = try produce(emit, &progress, check)
            if case .lengthWas = pass {
                ffmpeg.stop()
                partial.discard()
                return pass
            }
            let status = ffmpeg.finish()
            if isInterrupted() { throw interruption }
            guard status == 0 else { throw CommandFailure(message: "ffmpeg could not write \(output.escapingControlCharacters): \(ffmpeg.lastErrorLine)") }
            try partial.commit()
        } catch {
            progress.finish()
            ffmpeg.stop()
            partial.discard()
            if let failure = error as? CommandFailure { throw failure }
            if let failure = error as? AudioFileError { throw CommandFailure(message: failure.description) }
            throw CommandFailure(message: "cannot scale \(input.escapingControlCharacters): \(error)")
        }
        return pass
    }

    private func failure(_ outcome: ChildProcess.WriteOutcome, _ ffmpeg: ChildProcess) -> CommandFailure {
        switch outcome {
        case .interrupted: interruption
        case .stalled: CommandFailure(message: "ffmpeg stopped reading for \(Int(ffmpeg.writeTimeout)) s; nothing was written to \(output.escapingControlCharacters)")
        default: CommandFailure(message: "ffmpeg could not write \(output.escapingControlCharacters): \(ffmpeg.lastErrorLine)")
        }
    }

    /// The samples handed to the encoder: `--sample-format`, else the input's depth; lossy
    /// encoders get floats, and FLAC (16 or 24 bits here) integers.
    private func encodedFormat(_ decoder: AudioFileDecoder) -> SampleFormat {
        guard format.isLossless else { return .f32 }
        let wanted = sampleFormat ?? decoder.storedSampleFormat
        if format.codec == "flac" { return wanted == .s16 ? .s16 : .s24 }
        return wanted
    }

    private func arguments(samples: SampleFormat, rate: Int, positions: [SpeakerPosition], to path: String) -> [String] {
        // 24-bit samples travel as 32-bit words (their low byte 0), which ffmpeg's raw input takes.
        let raw = samples == .f32 ? "f32le" : samples == .s16 ? "s16le" : "s32le"
        var arguments = ["-v", "error", "-nostdin", "-y", "-f", raw, "-ar", "\(rate)", "-ch_layout", SpeakerPosition.layoutName(positions),
                         "-i", "pipe:0", "-c:a", format.codec(for: samples)]
        if samples == .s24 && format.codec == "flac" { arguments += ["-sample_fmt", "s32", "-bits_per_raw_sample", "24"] }
        let encodedRate = format.sampleRate(for: rate)
        if encodedRate != rate { arguments += ["-ar", "\(encodedRate)"] }
        switch format.codec {
        case "aac": arguments += ["-b:a", "192k"]
        case "libmp3lame": arguments += ["-q:a", "2"]
        case "libvorbis": arguments += ["-q:a", "5"]
        case "libopus": arguments += ["-b:a", "160k"]
        default: break
        }
        return arguments + ["-f", format.container, "file:" + path]
    }

    /// The channels of each frame averaged into one.
    static func merge(_ block: UnsafeBufferPointer<Float>, channels: Int, into merged: inout [Float]) {
        merged.removeAll(keepingCapacity: true)
        let scale = 1 / Float(channels)
        var index = 0
        while index + channels <= block.count {
            var sum: Float = 0
            for channel in 0 ..< channels { sum += block[index + channel] }
            merged.append(sum * scale)
            index += channels
        }
    }
}
