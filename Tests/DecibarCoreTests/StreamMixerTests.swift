import DecibarCore
import Testing

@Suite("Summing the streams of the apps listened to")
struct StreamMixerTests {
    /// What the mixer emitted: every sample (silence as zeros) and how it came (frames, silent).
    final class Output {
        var samples: [Float] = []
        var pieces: [(frames: Int, silent: Bool)] = []
        var emit: StreamMixer.Emit {
            { samples, frames in
                self.pieces.append((frames, samples == nil))
                if let samples { self.samples += samples } else { self.samples += [Float](repeating: 0, count: frames * 2) }
            }
        }
        var frames: Int { samples.count / 2 }
    }

    /// Stereo frames whose left and right samples are both `value`.
    func frames(_ count: Int, _ value: Float) -> [Float] { [Float](repeating: value, count: count * 2) }

    func append(_ mixer: StreamMixer, _ samples: [Float], to lane: Int, at now: Double, _ output: Output) {
        samples.withUnsafeBufferPointer { mixer.append($0, frames: samples.count / 2, to: lane, now: now, emit: output.emit) }
    }

    @Test("one stream passes through unchanged, at once")
    func oneStream() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        let lane = try! #require(mixer.openLane())
        let samples = (0..<512).map { Float($0) / 1000 }
        append(mixer, samples, to: lane, at: 1, output)
        #expect(output.samples == samples)
        #expect(mixer.position == 256)
        #expect(mixer.queuedFrames(on: lane) == 0)
    }

    @Test("two streams are summed sample by sample; the mix waits for the later one")
    func twoStreams() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        let a = mixer.openLane()!, b = mixer.openLane()!
        append(mixer, frames(300, 0.25), to: a, at: 1.000, output)
        // b has not delivered yet: it does not hold a back before its first delivery.
        #expect(output.frames == 300)
        append(mixer, frames(200, 0.5), to: b, at: 1.001, output)
        append(mixer, frames(200, 0.25), to: a, at: 1.002, output)
        // Now both play: 200 frames of a + b are ready.
        #expect(output.frames == 500)
        #expect(Array(output.samples[600..<1000]) == frames(200, 0.75))
        #expect(mixer.queuedFrames(on: b) == 0)
        append(mixer, frames(100, 0.5), to: b, at: 1.003, output)
        // a has nothing queued: the mix waits for it (b is 100 frames ahead).
        #expect(output.frames == 500)
        #expect(mixer.queuedFrames(on: b) == 100)
    }

    @Test("a stream silent for longer than the patience stops holding the others back")
    func stalledStream() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        let a = mixer.openLane()!, b = mixer.openLane()!
        append(mixer, frames(100, 0.5), to: b, at: 1.000, output)
        append(mixer, frames(100, 0.25), to: a, at: 1.000, output)
        #expect(output.frames == 100)
        append(mixer, frames(400, 0.25), to: a, at: 1.020, output)
        #expect(output.frames == 100)
        #expect(abs(mixer.nextStallCheck(after: 1.020)! - 1.050) < 1e-9)
        mixer.mix(now: 1.049, emit: output.emit)
        #expect(output.frames == 100)
        mixer.mix(now: 1.051, emit: output.emit)
        // b stalled: a's 500 frames go out alone.
        #expect(output.frames == 600)
        #expect(Array(output.samples[200...]) == frames(500, 0.25))
        #expect(abs(mixer.nextStallCheck(after: 1.051)! - 1.070) < 1e-9)
    }

    @Test("a closed stream's queued frames are still mixed: nothing lost at its edge")
    func closedStreamFlushes() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        let a = mixer.openLane()!, b = mixer.openLane()!
        append(mixer, frames(100, 0.5), to: b, at: 1.000, output)
        append(mixer, frames(300, 0.25), to: a, at: 1.000, output)
        #expect(output.frames == 100)
        mixer.closeLane(a, now: 1.001, emit: output.emit)
        // a ended with 300 frames queued; b still plays and has none: they wait for b.
        #expect(output.frames == 100)
        append(mixer, frames(50, 0.5), to: b, at: 1.002, output)
        #expect(output.frames == 150)
        #expect(Array(output.samples[200..<300]) == frames(50, 0.75))
        mixer.closeLane(b, now: 1.003, emit: output.emit)
        // Nobody plays: what is left (250 frames of a) goes out, and both lanes are free.
        #expect(output.frames == 400)
        #expect(Array(output.samples[300...]) == frames(250, 0.25))
        #expect(mixer.openLaneCount == 0)
    }

    @Test("with nothing playing the clock emits silence: 4800 frames for 0.1 s at 48 kHz, and at most a second at once")
    func silenceByTheClock() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        mixer.mix(now: 10.0, emit: output.emit)
        #expect(output.frames == 0)
        mixer.mix(now: 10.1, emit: output.emit)
        #expect(output.frames == 4800)
        #expect(output.pieces.allSatisfy { $0.silent })
        mixer.mix(now: 10.25, emit: output.emit)
        #expect(output.frames == 12000)
        mixer.mix(now: 15, emit: output.emit)
        #expect(output.frames == 12000 + 48000)
        // Counted again from there, not caught up.
        mixer.mix(now: 15.01, emit: output.emit)
        #expect(output.frames == 12000 + 48000 + 480)
    }

    @Test("after a stream ends, time goes on in silence from its last frames, not from its start")
    func silenceAfterStream() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        mixer.mix(now: 1.0, emit: output.emit)
        let a = mixer.openLane()!
        append(mixer, frames(4800, 0.25), to: a, at: 2.0, output)
        mixer.closeLane(a, now: 2.0, emit: output.emit)
        #expect(output.frames == 4800)
        mixer.mix(now: 2.05, emit: output.emit)
        #expect(output.frames == 4800 + 2400)
        #expect(Array(output.samples[(4800 * 2)...]).allSatisfy { $0 == 0 })
    }

    @Test("16 lanes at most; a freed lane is taken again")
    func laneLimit() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let lanes = (0..<16).compactMap { _ in mixer.openLane() }
        #expect(lanes == Array(0..<16))
        #expect(mixer.openLane() == nil)
        mixer.closeLane(5, now: 1, emit: { _, _ in })
        #expect(mixer.openLane() == 5)
    }

    @Test("a stream far ahead of a late one moves the mix on instead of losing its frames")
    func overflow() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, capacity: 1000, patience: 10)
        let output = Output()
        let a = mixer.openLane()!, b = mixer.openLane()!
        append(mixer, frames(10, 0.5), to: b, at: 1.0, output)
        append(mixer, frames(10, 0.25), to: a, at: 1.0, output)
        append(mixer, frames(2500, 0.25), to: a, at: 1.0, output)
        // b's 10 frames went out alone; then b (patient, silent) holds the mix, and a's 2510
        // frames do not fit in 1000: the mix moves on, and nothing of a is lost.
        #expect(output.frames + mixer.queuedFrames(on: a) == 2520)
        #expect(mixer.queuedFrames(on: a) == 1000)
        #expect(output.samples.filter { $0 == 0.25 }.count == 1510 * 2)
    }

    @Test("a hole is queued as silence")
    func hole() {
        let mixer = StreamMixer(channelCount: 2, sampleRate: 48000, patience: 0.05)
        let output = Output()
        let a = mixer.openLane()!
        mixer.append(nil, frames: 300, to: a, now: 1, emit: output.emit)
        #expect(output.frames == 300)
        #expect(output.samples.allSatisfy { $0 == 0 })
    }
}

@Suite("Which apps are heard")
struct AppSelectionTests {
    @Test("an app matches by application.name or binary, in any case; exclusions win")
    func matching() {
        let selection = AppSelection(apps: ["spotify", "Firefox"], excludedApps: ["FIREFOX-ESR"])
        #expect(selection.includes(name: "Spotify", binary: "spotify"))
        #expect(selection.includes(name: nil, binary: "SPOTIFY"))
        #expect(!selection.includes(name: "Firefox", binary: "firefox-esr"))
        #expect(!selection.includes(name: "mpv", binary: "mpv"))
        #expect(!selection.includes(name: nil, binary: nil))
        let everythingBut = AppSelection(excludedApps: ["Discord"])
        #expect(everythingBut.includes(name: "mpv", binary: "mpv"))
        #expect(everythingBut.includes(name: nil, binary: nil))
        #expect(!everythingBut.includes(name: "discord", binary: "Discord"))
        #expect(AppSelection().isEmpty && !everythingBut.isEmpty)
    }

    @Test("the summary names what is heard")
    func summary() {
        #expect(AppSelection(apps: ["spotify"]).summary == "spotify")
        #expect(AppSelection(apps: ["mpv", "firefox"]).summary == "mpv and firefox")
        #expect(AppSelection(apps: ["a", "b", "c"]).summary == "a, b and c")
        #expect(AppSelection(excludedApps: ["Discord"]).summary == "everything but Discord")
        #expect(AppSelection(apps: ["mpv"], excludedApps: ["Discord"]).summary == "mpv but not Discord")
        #expect(AppSelection(apps: ["spotify"]).waitingText == "waiting for spotify")
        #expect(AppSelection(excludedApps: ["Discord"]).waitingText == "nothing plays (everything but Discord)")
    }
}
