import DecibarAudio
import DecibarCore
import Foundation
import Synchronization
import Testing

/// Rate and pitch while playing, heard on a real server: what the player sends is recorded from
/// the null sink's monitor and measured (length, frequency, gaps, where audio lands in the file).
@Suite("Rate and pitch while playing, recorded from the monitor", .serialized)
struct RateAndPitchTests {
    static let sampleRate = 48000.0

    func samples(at path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The left channel of an interleaved stereo recording.
    func left(_ interleaved: [Float]) -> [Float] {
        stride(from: 0, to: interleaved.count - 1, by: 2).map { interleaved[$0] }
    }

    /// The frequency of a steady tone from its rising zero crossings between `from` and `to`.
    func frequency(of signal: [Float], from: Int, to: Int) -> Double {
        var crossings: [Double] = []
        for index in max(1, from)..<min(to, signal.count) where signal[index - 1] < 0 && signal[index] >= 0 {
            // Where the line between the two samples crosses zero.
            let a = Double(signal[index - 1]), b = Double(signal[index])
            crossings.append(Double(index - 1) + a / (a - b))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / Self.sampleRate)
    }

    /// The longest stretch (frames) inside `range` where every sample is quieter than `threshold`.
    func longestQuiet(_ signal: [Float], in range: Range<Int>, threshold: Float) -> Int {
        longestQuietRun(signal, in: range, threshold: threshold).length
    }

    /// The longest run under `threshold`, and the index where it ends (which of the changes it followed).
    func longestQuietRun(_ signal: [Float], in range: Range<Int>, threshold: Float) -> (length: Int, end: Int) {
        var longest = (length: 0, end: range.lowerBound), run = 0
        for index in range {
            run = abs(signal[index]) < threshold ? run + 1 : 0
            if run > longest.length { longest = (run, index + 1) }
        }
        return longest
    }

    /// Plays `file` through a player on `server`, recording the monitor; `during` runs while it
    /// plays (after `play()`); returns the left channel of the recording once the track ended.
    func playAndRecord(_ file: String, on server: PrivatePulseServer, rate: Double = 1, pitch: Double = 0,
                       timeout: Double, during: (PulsePlayer) throws -> Void = { _ in },
                       finished: (PulsePlayer) -> Void = { _ in }) throws -> [Float] {
        let recording = server.directory + "/recorded-\(UUID().uuidString).raw"
        let recorder = try server.record(to: recording)
        let wanted = RateAndPitch(rate: rate, pitch: pitch)
        let player = try PulsePlayer(source: try FilePlaybackSource(path: file), server: server.serverAddress,
                                     rate: wanted.rate, pitchScale: wanted.pitchScale)
        #expect(player.canStretch)
        player.play()
        try during(player)
        #expect(TestRig.wait(timeout: timeout) { player.isFinished }, "the track did not end in \(timeout) s")
        usleep(300_000)
        finished(player)
        recorder.kill()
        player.stop()
        return left(try samples(at: recording))
    }

    /// The first and last samples louder than `threshold`.
    func soundSpan(_ signal: [Float], threshold: Float = 0.05) -> (first: Int, last: Int)? {
        guard let first = signal.firstIndex(where: { abs($0) > threshold }),
              let last = signal.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return (first, last)
    }

    /// Stretches of silence (at least 1 ms below `threshold`) inside `range`: where the server ran
    /// dry. A steady tone is never that quiet for so long.
    func gaps(in signal: [Float], range: Range<Int>, threshold: Float = 0.05) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var start: Int?
        for index in range {
            if abs(signal[index]) < threshold {
                if start == nil { start = index }
            } else if let begun = start {
                if index - begun >= 48 { found.append(begun ..< index) }
                start = nil
            }
        }
        return found
    }

    /// Plays a `seconds`-long 440 Hz tone at `rate` and `pitch` and checks how long it lasted
    /// and the frequency heard. A stretch of silence the player counted as a dropout (the server
    /// ran dry: this process was not scheduled in time, on a busy machine) is not part of how
    /// long it played; one it did not count fails.
    func expectTone(seconds: Double, rate: Double = 1, pitch: Double = 0, lasts expected: Double, at hertz: Double) throws {
        let server = try PrivatePulseServer()
        let file = server.directory + "/tone.wav"
        try TestRig.makeTone(at: file, amplitude: 0.5, frequency: 440, seconds: seconds)
        var dropouts = 0
        let heard = try playAndRecord(file, on: server, rate: rate, pitch: pitch, timeout: expected + 5, finished: { dropouts = $0.dropoutCount })
        let span = try #require(soundSpan(heard), "nothing was heard")
        let silences = gaps(in: heard, range: span.first ..< span.last)
        #expect(silences.count <= dropouts, "\(silences.count) stretches of silence, \(dropouts) dropouts counted")
        let silent = silences.reduce(0) { $0 + $1.count }
        let played = Double(span.last - span.first - silent) / Self.sampleRate
        #expect(abs(played - expected) <= 0.05, "played in \(played) s")
        // The frequency over the longest stretch without a gap, less half a second at each end.
        let edges = [span.first] + silences.flatMap { [$0.lowerBound, $0.upperBound] } + [span.last]
        let stretches = stride(from: 0, to: edges.count, by: 2).map { edges[$0] ..< edges[$0 + 1] }
        let longest = try #require(stretches.max { $0.count < $1.count })
        let tone = frequency(of: heard, from: longest.lowerBound + 24000, to: longest.upperBound - 24000)
        #expect(abs(tone / hertz - 1) <= 0.01, "the tone is at \(tone) Hz")
        print("rate \(rate), pitch \(pitch): \(seconds) s played in \(played) s at \(tone) Hz" + (silences.isEmpty ? "" : ", \(silences.count) dropout(s) left out"))
    }

    @Test("at rate 2 a 20 s file plays in 10 s ± 50 ms, and its 440 Hz tone stays at 440 Hz ± 1 %")
    func doubleRate() throws {
        try expectTone(seconds: 20, rate: 2, lasts: 10, at: 440)
    }

    @Test("at pitch +1200 cents a 440 Hz tone reads 880 Hz ± 1 % and plays at normal speed")
    func octaveUp() throws {
        try expectTone(seconds: 4, pitch: 1200, lasts: 4, at: 880)
    }

    @Test("changing the rate in the middle of playback (from normal, up, down, back) leaves no gap over 10 ms and no click")
    func changeWithoutGap() throws {
        let server = try PrivatePulseServer()
        let file = server.directory + "/tone.wav"
        try TestRig.makeTone(at: file, amplitude: 0.5, frequency: 440, seconds: 6)
        let heard = try playAndRecord(file, on: server, timeout: 10) { player in
            usleep(1_200_000)
            // From normal speed: the stretcher starts here, primed with what was just played.
            player.setTimeAndPitch(rate: 1.5, pitchScale: 1)
            usleep(700_000)
            player.setTimeAndPitch(rate: 0.75, pitchScale: Double.pow(2, 300 / 1200))
            usleep(700_000)
            player.setTimeAndPitch(rate: 1, pitchScale: 1)
        }
        let span = try #require(soundSpan(heard), "nothing was heard")
        // A 440 Hz tone at 0.5 is under 0.05 for 0.07 ms around each zero crossing: longer is a gap.
        let quiet = longestQuietRun(heard, in: span.first..<span.last, threshold: 0.05)
        let gap = Double(quiet.length) / Self.sampleRate
        // The changes are asked 1.2, 1.9 and 2.6 s into playback: where it ended tells which one it followed.
        #expect(gap < 0.010, "a gap of \(gap * 1000) ms, ending \(Double(quiet.end - span.first) / Self.sampleRate) s into the sound")
        // A click is a jump between neighbouring samples far beyond the tone's steepest slope
        // (2π · 880 Hz (after the pitch change) · 0.5 / 48000 ≈ 0.058).
        let steps = zip(heard[span.first..<span.last], heard[(span.first + 1)...]).map { abs($0 - $1) }
        let jump = steps.max() ?? 0
        let at = Double(steps.firstIndex(of: jump) ?? 0) / Self.sampleRate
        #expect(jump < 0.1, "a jump of \(jump) between neighbouring samples, \(at) s into the sound")
        let loudest = heard[span.first..<span.last].map { abs($0) }.max() ?? 0
        #expect(loudest < 0.6, "peaks at \(loudest)")
        print("rate changes: longest gap \(gap * 1000) ms, largest step \(jump), peak \(loudest)")
    }

    /// A 300 Hz tone at 0.2 with a 5 ms 3 kHz burst (Hann-shaped, 0.5) at 0.1 s and every 0.5 s
    /// after: the bursts tell where in the file the audio heard comes from.
    func makeBurstTrain(_ folder: String, seconds: Int) throws -> String {
        let path = folder + "/bursts.wav"
        let burst = "0.5*sin(2*PI*3000*t)*lt(mod(t+0.4\\,0.5)\\,0.005)*(0.5-0.5*cos(2*PI*mod(t+0.4\\,0.5)/0.005))"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=0.2*sin(2*PI*300*t)+\(burst):s=48000:c=stereo:d=\(seconds)",
                                              "-c:a", "pcm_f32le", path])
        #expect(made.status == 0, "ffmpeg: \(made.error)")
        return path
    }

    /// Where the 3 kHz bursts are (frames, at their centers): the signal is cross-correlated with
    /// the burst's carrier (both phases, over 5 ms), and each peak over half the largest counts.
    func bursts(in signal: [Float], carrier: Double = 3000) -> [Double] {
        let window = 240
        var energy = [Double](repeating: 0, count: signal.count)
        var sumI = 0.0, sumQ = 0.0
        var products: [(Double, Double)] = []
        products.reserveCapacity(signal.count)
        for (index, sample) in signal.enumerated() {
            let phase = 2 * Double.pi * carrier * Double(index) / Self.sampleRate
            let pair = (Double(sample) * cos(phase), Double(sample) * sin(phase))
            products.append(pair)
            sumI += pair.0
            sumQ += pair.1
            if index >= window {
                sumI -= products[index - window].0
                sumQ -= products[index - window].1
            }
            energy[index] = sumI * sumI + sumQ * sumQ
        }
        let threshold = (energy.max() ?? 0) / 4
        var found: [Double] = []
        var index = 0
        while index < energy.count {
            guard energy[index] > threshold else { index += 1; continue }
            // The peak of this burst: the window's end when it holds the burst best.
            let end = min(energy.count, index + window * 2)
            let peak = (index..<end).max { energy[$0] < energy[$1] } ?? index
            found.append(Double(peak) - Double(window) / 2)
            index = end + window
        }
        return found
    }

    @Test("after a seek at rate 1.5 the audio heard continues from the target, within 5 ms of file time")
    func seekAtRate() throws {
        let server = try PrivatePulseServer()
        let file = try makeBurstTrain(server.directory, seconds: 10)
        let target = 5.25
        let heard = try playAndRecord(file, on: server, rate: 1.5, timeout: 10) { player in
            usleep(1_000_000)
            // Paused for the seek, so the recording shows where the new audio starts.
            player.pause()
            usleep(300_000)
            player.seek(toFrame: Int64(target * Self.sampleRate))
            usleep(200_000)
            player.play()
        }
        // The new audio starts after the pause's silence (the 300 Hz tone is never quiet for long).
        let silence = Int(0.2 * Self.sampleRate)
        var landing: Int?
        var run = 0
        for index in heard.indices {
            run = abs(heard[index]) < 0.005 ? run + 1 : 0
            if run >= silence, let next = heard[index...].firstIndex(where: { abs($0) >= 0.005 }) {
                landing = next
                break
            }
        }
        let start = try #require(landing, "no new audio after the pause")
        let after = bursts(in: Array(heard[start...]))
        try #require(after.count >= 3, "bursts after the seek: \(after.count)")
        // The first burst after 5.25 s is the one at 5.6 s; at rate 1.5 it comes 0.35 / 1.5 s in.
        let landed = 5.6 - after[0] / Self.sampleRate * 1.5
        #expect(abs(landed - target) <= 0.005, "the audio after the seek starts at \(landed) s of the file, not \(target)")
        // And it goes on at rate 1.5: the bursts, 0.5 s apart in the file, come 1/3 s apart.
        let spacing = (after[2] - after[0]) / 2 / Self.sampleRate
        #expect(abs(spacing - 0.5 / 1.5) < 0.003, "bursts \(spacing) s apart")
        print("seek at rate 1.5: landed at \(landed) s of the file (target \(target)), bursts \(spacing) s apart")
    }

    /// Plays the burst train at `rate`, tapping the monitor while sampling the player's playhead
    /// (what the screen draws) every few ms; returns, for each burst heard, the playhead at the
    /// moment it was heard minus the burst's time in the file, in seconds.
    func playheadErrors(rate: Double, pitch: Double = 0, server: PrivatePulseServer, file: String) async throws -> [Double] {
        let tap = try PulseMonitorTap(target: .named("viz.monitor"), fragmentDuration: 256 / Self.sampleRate,
                                      server: server.serverAddress)
        tap.start()
        defer { tap.stop() }
        let collected = Mutex<[(time: Double, sample: Float)]>([])
        let reader = Task {
            for await buffer in tap.buffers {
                buffer.withSamples { samples in
                    let count = buffer.frameCount
                    collected.withLock { all in
                        for frame in 0..<count {
                            // When each frame was heard: the last one at captureTime.
                            all.append((buffer.captureTime - Double(count - 1 - frame) / Self.sampleRate,
                                        samples[frame * buffer.channelCount]))
                        }
                    }
                }
            }
        }
        usleep(300_000)
        // From the first frame, as a player opens a track at a rate (a change later joins what
        // was played at normal speed, and the first bursts would be at another pitch).
        let wanted = RateAndPitch(rate: rate, pitch: pitch)
        let player = try PulsePlayer(source: try FilePlaybackSource(path: file), server: server.serverAddress,
                                     rate: wanted.rate, pitchScale: wanted.pitchScale)
        player.play()
        var playheads: [(time: Double, file: Double)] = []
        while !player.isFinished && playheads.count < 4000 {
            playheads.append((HostClock.now(), Double(player.heardFrame) / Self.sampleRate))
            usleep(2000)
        }
        usleep(200_000)
        player.stop()
        tap.stop()
        reader.cancel()
        let heard = collected.withLock { $0 }
        // The bursts move with the pitch.
        let found = bursts(in: heard.map(\.sample), carrier: 3000 * wanted.pitchScale)
        var errors: [Double] = []
        for (number, position) in found.enumerated() {
            let heardAt = heard[Int(position)].time
            guard let after = playheads.firstIndex(where: { $0.time >= heardAt }), after > 0 else { continue }
            let (a, b) = (playheads[after - 1], playheads[after])
            let shown = a.file + (b.file - a.file) * (heardAt - a.time) / max(1e-9, b.time - a.time)
            errors.append(shown - (0.1 + 0.5 * Double(number)))
        }
        return errors
    }

    @Test("the playhead shown matches the file time of the audio heard within 20 ms, at rate 1.5 and at rate 0.75 an octave down as at rate 1")
    func playheadFollowsHeardAudio() async throws {
        let server = try PrivatePulseServer()
        let file = try makeBurstTrain(server.directory, seconds: 6)
        let normal = try await playheadErrors(rate: 1, server: server, file: file)
        let faster = try await playheadErrors(rate: 1.5, server: server, file: file)
        let slowerAndLower = try await playheadErrors(rate: 0.75, pitch: -1200, server: server, file: file)
        #expect(normal.count >= 11 && faster.count >= 11 && slowerAndLower.count >= 11,
                "bursts heard: \(normal.count), \(faster.count) and \(slowerAndLower.count) of 12")
        let worstSlower = slowerAndLower.map(abs).max() ?? 1
        #expect(worstSlower <= 0.020, "at rate 0.75, pitch -1200 the playhead is off by up to \(worstSlower * 1000) ms: \(slowerAndLower)")
        let worstNormal = normal.map(abs).max() ?? 1, worstFaster = faster.map(abs).max() ?? 1
        print("playhead errors (s) at rate 1: \(normal)\nat rate 1.5: \(faster)")
        #expect(worstNormal <= 0.020, "at rate 1 the playhead is off by up to \(worstNormal * 1000) ms: \(normal)")
        #expect(worstFaster <= 0.020, "at rate 1.5 the playhead is off by up to \(worstFaster * 1000) ms: \(faster)")
        print("playhead against heard audio: rate 1 worst \(worstNormal * 1000) ms, rate 1.5 worst \(worstFaster * 1000) ms, "
              + "rate 0.75 an octave down worst \(worstSlower * 1000) ms")
    }
}
