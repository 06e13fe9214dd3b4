import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// `decibar scale` on real files made by ffmpeg, its outputs decoded again by FFmpeg.
@Suite("decibar scale")
struct ScaleCommandTests {
    struct Decoded {
        var samples: [Float]
        var channels: Int
        var sampleRate: Int
        var positions: [SpeakerPosition]
        var stored: SampleFormat
        var frames: Int { samples.count / channels }
    }

    func decode(_ path: String) throws -> Decoded {
        let decoder = try AudioFileDecoder(path: path)
        var samples: [Float] = []
        while try decoder.read({ samples.append(contentsOf: $0) }) {}
        return Decoded(samples: samples, channels: decoder.channelCount, sampleRate: decoder.sampleRate,
                       positions: decoder.speakerPositions, stored: decoder.storedSampleFormat)
    }

    /// Makes audio with ffmpeg's lavfi `expression` (one per channel, `|`-separated).
    func make(_ path: String, _ expression: String, seconds: Double, rate: Int = 48000, extra: [String] = []) throws {
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                              "aevalsrc=\(expression):s=\(rate):d=\(seconds)"] + extra + [path])
        #expect(made.status == 0, "\(made.error)")
    }

    /// A channel's frequency from its zero crossings over the middle of the signal (sub-sample exact).
    func frequency(_ decoded: Decoded, channel: Int) -> Double {
        let values = stride(from: channel, to: decoded.samples.count, by: decoded.channels).map { Double(decoded.samples[$0]) }
        let start = values.count / 10, end = values.count - values.count / 10
        var crossings: [Double] = []
        for index in start + 1 ..< end where values[index - 1] < 0 && values[index] >= 0 {
            crossings.append(Double(index - 1) + values[index - 1] / (values[index - 1] - values[index]))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / Double(decoded.sampleRate))
    }

    /// Seed 001's `scaleToD` on a whole array, as the unit tests write it.
    static func wholeArray(_ samples: [Double], length: Int) -> [Double] {
        var control: [Double]
        if length > samples.count {
            let denominator = Double(length - 1) / Double(samples.count - 1)
            control = (0 ..< length).map { n in
                let x = Double(n) / denominator
                let t = min(max(x - x.rounded(.down), 0), 1)
                return x.rounded(.down) + t * t * (3 - 2 * t)
            }
        } else {
            let end = Double(samples.count - 1)
            control = (0 ..< length).map { length > 1 ? Double($0) * (end / Double(length - 1)) : 0 }
        }
        if control.count > 1 { control[control.count - 1] = Double(samples.count - 1) }
        let padded = samples + [0]
        return control.map { point in
            let b = Int(point), a = point - Double(Int(point))
            return padded[b] + a * (padded[b + 1] - padded[b])
        }
    }

    func scale(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let result = try TestRig.run(TestRig.decibar, ["scale"] + arguments)
        return (result.status, result.error)
    }

    @Test("a 10 s stereo 440/660 Hz file at --factor 2 lasts exactly 20 s, both tones an octave down")
    func stretchesByTwo() throws {
        let folder = try TestRig.temporaryDirectory()
        try make(folder + "/tones.wav", "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t)", seconds: 10)
        let result = try scale([folder + "/tones.wav", "-o", folder + "/slow.wav", "--factor", "2"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("scaled") && result.error.split(separator: "\n").count == 1, "\(result.error)")
        let slow = try decode(folder + "/slow.wav")
        #expect(slow.frames == 960_000 && slow.channels == 2 && slow.sampleRate == 48000)
        let left = frequency(slow, channel: 0), right = frequency(slow, channel: 1)
        #expect(abs(left / 220 - 1) < 0.01 && abs(right / 330 - 1) < 0.01, "\(left) Hz and \(right) Hz")
    }

    @Test("with --keep-pitch, the 10 s 440/660 Hz file at --factor 2 lasts exactly 20 s with both tones where they were (± 1 %), 8 channels stay 8")
    func keepsPitch() throws {
        let folder = try TestRig.temporaryDirectory()
        try make(folder + "/tones.wav", "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t)", seconds: 10)
        let result = try scale([folder + "/tones.wav", "-o", folder + "/slow.flac", "--factor", "2", "--keep-pitch"])
        #expect(result.status == 0, "\(result.error)")
        let slow = try decode(folder + "/slow.flac")
        #expect(slow.frames == 960_000 && slow.channels == 2 && slow.sampleRate == 48000, "\(slow.frames) frames")
        let left = frequency(slow, channel: 0), right = frequency(slow, channel: 1)
        #expect(abs(left / 440 - 1) <= 0.01 && abs(right / 660 - 1) <= 0.01, "\(left) Hz and \(right) Hz")
        // Loud all through: stretched, not padded with silence.
        let lastSecond = slow.samples.suffix(96_000).map { abs($0) }.max() ?? 0
        #expect(lastSecond > 0.3, "the last second peaks at \(lastSecond)")

        let surround = folder + "/surround.wav"
        try make(surround, (0 ..< 8).map { "0.3*sin(2*PI*\(200 + 100 * $0)*t)" }.joined(separator: "|"), seconds: 2,
                 extra: ["-af", "aformat=channel_layouts=7.1"])
        #expect(try scale([surround, "-o", folder + "/surround-short.wav", "--factor", "0.5", "--keep-pitch"]).status == 0)
        let short = try decode(folder + "/surround-short.wav")
        let original = try decode(surround)
        #expect(short.channels == 8 && short.frames == 48_000 && short.positions == original.positions)
        #expect(abs(frequency(short, channel: 7) / 900 - 1) <= 0.01, "channel 8 at \(frequency(short, channel: 7)) Hz")
    }

    /// RMS (all channels) of `frames` frames from `start`, in dB.
    static func rmsDB(_ decoded: Decoded, from start: Int, frames: Int) -> Double {
        var sum = 0.0
        for index in start * decoded.channels ..< (start + frames) * decoded.channels { sum += Double(decoded.samples[index] * decoded.samples[index]) }
        return 10 * log10(max(sum / Double(frames * decoded.channels), 1e-20))
    }

    /// The output frames where `scale --keep-pitch` hands from one piece to the next.
    static func joins(inputFrames: Int, factor: Double) -> [Int] {
        let plan = PitchScalingPlan(inputCount: inputFrames, factor: factor, sampleRate: 48000)
        return (1 ..< plan.pieces.count).map { plan.joinOutput($0) }
    }

    @Test("--keep-pitch in pieces: a 40 s 440/660 Hz file at 1.5 lasts exactly 60 s, and at each join the tone neither dips nor clicks")
    func piecesJoinOnTone() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try make(folder + "/tones.flac", "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t)", seconds: 40)
        let result = try scale([folder + "/tones.flac", "-o", folder + "/slow.flac", "--factor", "1.5", "--keep-pitch"])
        #expect(result.status == 0, "\(result.error)")
        let slow = try decode(folder + "/slow.flac")
        #expect(slow.frames == 2_880_000 && slow.channels == 2, "\(slow.frames) frames")
        let joins = Self.joins(inputFrames: 1_920_000, factor: 1.5)
        #expect(joins.count >= 2, "\(joins)")
        // A steady tone, so every 10 ms window reads the same level; an unaligned crossfade dips it.
        let steady = Self.rmsDB(slow, from: 480_000, frames: 480)
        // The largest step between samples of a 0.5 sine at 660 Hz: 0.5 * 2 pi * 660 / 48000.
        let largestStep = 0.5 * 2 * Double.pi * 660 / 48000
        for join in joins {
            for start in stride(from: join - 4800, to: join + 4800, by: 480) {
                let level = Self.rmsDB(slow, from: start, frames: 480)
                #expect(abs(level - steady) < 0.3, "join at \(join): \(level) dB at \(start) against \(steady) dB")
            }
            for channel in 0 ..< 2 {
                var jump: Float = 0
                for frame in join - 4800 ..< join + 4800 {
                    jump = max(jump, abs(slow.samples[frame * 2 + channel] - slow.samples[(frame - 1) * 2 + channel]))
                }
                #expect(Double(jump) < largestStep * 1.15, "join at \(join), channel \(channel): a step of \(jump)")
            }
        }
    }

    @Test("--keep-pitch in pieces on music: at each join no level step against one whole stretch (rubberband -3) and no click")
    func piecesJoinOnMusic() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = try MusicLibrary.path(of: MusicLibrary.songs[1])
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", song, "-t", "30", "-ar", "48000", "-ac", "2", folder + "/song.wav"])
        #expect(made.status == 0, "\(made.error)")
        let result = try scale([folder + "/song.wav", "-o", folder + "/slow.wav", "--factor", "1.5", "--keep-pitch"])
        #expect(result.status == 0, "\(result.error)")
        let reference = try TestRig.run("rubberband", ["-3", "--ignore-clipping", "-q", "-t", "1.5", folder + "/song.wav", folder + "/whole.wav"])
        #expect(reference.status == 0, "\(reference.error)")
        let slow = try decode(folder + "/slow.wav"), whole = try decode(folder + "/whole.wav")
        #expect(slow.frames == 2_160_000, "\(slow.frames) frames")
        // The level half a second before and after each join, against the whole stretch's: a step
        // at the join would change the difference. (Shorter windows differ by where each stretcher
        // puts a drum hit, a few milliseconds either way, which is not what is tested here.)
        func largestStep(_ decoded: Decoded, around frame: Int, within frames: Int) -> Float {
            var largest: Float = 0
            for index in (frame - frames) * decoded.channels ..< (frame + frames) * decoded.channels {
                largest = max(largest, abs(decoded.samples[index] - decoded.samples[index - decoded.channels]))
            }
            return largest
        }
        let joins = Self.joins(inputFrames: 1_440_000, factor: 1.5)
        #expect(joins.count == 1)
        for join in joins {
            let before = Self.rmsDB(slow, from: join - 24_000, frames: 24_000) - Self.rmsDB(whole, from: join - 24_000, frames: 24_000)
            let after = Self.rmsDB(slow, from: join, frames: 24_000) - Self.rmsDB(whole, from: join, frames: 24_000)
            #expect(abs(before) < 1 && abs(after) < 1 && abs(after - before) < 0.5, "join at \(join): \(before) dB before, \(after) dB after")
            // A click is a step between samples far beyond what the music itself has there.
            let atJoin = largestStep(slow, around: join, within: 480), music = largestStep(whole, around: join, within: 4800)
            #expect(atJoin <= music, "join at \(join): a step of \(atJoin) where the music's largest is \(music)")
        }
    }

    @Test("the written samples are the seed's interpolation of the decoded input, rounded half to even", arguments: [1.5, 0.7, 2.25])
    func samplesAreExact(factor: Double) throws {
        let folder = try TestRig.temporaryDirectory()
        try make(folder + "/in.wav", "0.6*sin(2*PI*(300+900*t)*t)|0.3*sin(2*PI*1234*t)+0.2*sin(2*PI*97*t)", seconds: 0.25)
        let result = try scale([folder + "/in.wav", "-o", folder + "/out.wav", "--factor", "\(factor)"])
        #expect(result.status == 0, "\(result.error)")
        let input = try decode(folder + "/in.wav"), output = try decode(folder + "/out.wav")
        #expect(output.stored == .s16 && output.channels == 2)
        let length = Int(Double(input.frames) * factor)
        #expect(output.frames == length)
        for channel in 0 ..< 2 {
            let original = stride(from: channel, to: input.samples.count, by: 2).map { Double(input.samples[$0]) * 32768 }
            let expected = Self.wholeArray(original, length: length).map { max(-32768, min(32767, $0.rounded(.toNearestOrEven))) }
            let written = stride(from: channel, to: output.samples.count, by: 2).map { (Double(output.samples[$0]) * 32768).rounded() }
            let firstDifference = zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(written.count == expected.count && firstDifference == nil, "channel \(channel): \(String(describing: firstDifference))")
        }
    }

    @Test("a 7.1 file keeps its 8 channels and their layout; --single-channel gives one; 24 bits stay 24 bits")
    func channelsAndDepth() throws {
        let folder = try TestRig.temporaryDirectory()
        let expression = (1 ... 8).map { "0.4*sin(2*PI*\(100 * $0)*t)" }.joined(separator: "|")
        try make(folder + "/surround.flac", expression, seconds: 2, extra: ["-channel_layout", "7.1", "-sample_fmt", "s32", "-bits_per_raw_sample", "24"])
        let input = try decode(folder + "/surround.flac")
        #expect(input.channels == 8 && input.stored == .s24)
        #expect(try scale([folder + "/surround.flac", "-o", folder + "/wide.flac", "--factor", "1.5"]).status == 0)
        let wide = try decode(folder + "/wide.flac")
        #expect(wide.channels == 8 && wide.positions == input.positions && wide.stored == .s24)
        #expect(wide.frames == Int(Double(input.frames) * 1.5))
        #expect(abs(frequency(wide, channel: 7) / (800 / 1.5) - 1) < 0.01)
        #expect(try scale([folder + "/surround.flac", "-o", folder + "/wide.wav", "--factor", "1.5"]).status == 0)
        let wav = try decode(folder + "/wide.wav")
        #expect(wav.channels == 8 && wav.positions == input.positions && wav.stored == .s24)

        #expect(try scale([folder + "/surround.flac", "-o", folder + "/mono.wav", "--factor", "0.5", "--single-channel"]).status == 0)
        let mono = try decode(folder + "/mono.wav")
        #expect(mono.channels == 1 && mono.frames == input.frames / 2)
        #expect(try scale([folder + "/surround.flac", "-o", folder + "/float.caf", "--factor", "1", "--sample-format", "f32"]).status == 0)
        #expect(try decode(folder + "/float.caf").stored == .f32)
    }

    @Test("every output extension decodes, two channels, twice as long", arguments: ["wav", "flac", "aiff", "caf", "m4a", "aac", "mp4", "mp3", "ogg", "opus"])
    func everyExtension(fileExtension: String) throws {
        let folder = try TestRig.temporaryDirectory()
        try make(folder + "/in.wav", "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*660*t)", seconds: 2, rate: 44100)
        let result = try scale([folder + "/in.wav", "-o", folder + "/out." + fileExtension, "--factor", "2"])
        #expect(result.status == 0, "\(result.error)")
        let out = try decode(folder + "/out." + fileExtension)
        let seconds = Double(out.frames) / Double(out.sampleRate)
        #expect(out.channels == 2 && abs(seconds - 4) < 0.1, "\(out.channels) channels, \(seconds) s")
        #expect(abs(frequency(out, channel: 0) / 220 - 1) < 0.01)
    }

    @Test("an extension it cannot write becomes .m4a, said in one line; bad input gives one line and a status")
    func fallbackAndErrors() throws {
        let folder = try TestRig.temporaryDirectory()
        try make(folder + "/in.wav", "0.5*sin(2*PI*440*t)", seconds: 1)
        let fallback = try scale([folder + "/in.wav", "-o", folder + "/out.wma", "--factor", "1.5"])
        #expect(fallback.status == 0 && fallback.error.contains("out.m4a"), "\(fallback.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.wma"))
        #expect(abs(Double(try decode(folder + "/out.m4a").frames) / 48000 - 1.5) < 0.1)

        for (arguments, status) in [([folder + "/missing.wav", "-o", folder + "/x.wav", "--factor", "2"], Int32(1)),
                                    ([folder + "/in.wav", "-o", folder + "/x.wav", "--factor", "0"], 2),
                                    ([folder + "/in.wav", "-o", folder + "/x.wav", "--factor", "11"], 2),
                                    ([folder + "/in.wav", "-o", folder + "/x.flac", "--factor", "2", "--sample-format", "f32"], 2),
                                    ([folder + "/in.wav", "-o", folder + "/in.wav", "--factor", "2"], 2)] {
            let result = try scale(arguments)
            #expect(result.status == status && result.error.split(separator: "\n").count == 1, "\(arguments): \(result.status) \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.wav") && !FileManager.default.fileExists(atPath: folder + "/x.flac"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["in.wav", "out.m4a"])
    }

    @Test("a scale interrupted by SIGINT leaves nothing at OUT (and --keep-pitch, stopped while its pieces are stretched on every core)",
          arguments: [(SIGINT, false), (SIGTERM, false), (SIGINT, true)])
    func interrupted(signal: Int32, keepsPitch: Bool) throws {
        let folder = try TestRig.temporaryDirectory()
        // ffmpeg's sine sources: minutes of audio made in a second or two, where an expression takes seconds.
        let seconds = keepsPitch ? 120 : 600
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=440:r=48000:d=\(seconds)",
                                              "-f", "lavfi", "-i", "sine=550:r=48000:d=\(seconds)", "-filter_complex", "amerge=inputs=2",
                                              "-compression_level", "0", folder + "/long.flac"])
        #expect(made.status == 0, "\(made.error)")
        let running = try RunningCommand(["scale", folder + "/long.flac", "-o", folder + "/out.flac", "--factor", "1.5"] + (keepsPitch ? ["--keep-pitch"] : []),
                                         environment: [:])
        #expect(TestRig.wait(timeout: 10) { (try? FileManager.default.contentsOfDirectory(atPath: folder).count) == 2 }, "no partial appeared")
        usleep(200_000)
        kill(running.process.processIdentifier, signal)
        let status = running.waitForExit(timeout: 10)
        #expect(status == 130, "\(String(describing: status)) \(running.standardError)")
        #expect(running.standardError.contains("interrupted"), "\(running.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["long.flac"])
    }
}
