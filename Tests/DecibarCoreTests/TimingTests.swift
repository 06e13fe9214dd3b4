import DecibarCore
import Testing

@Suite("Line clock of decibar levels")
struct LineClockTests {
    /// Lines closed over `buffers` buffers of `frames` frames.
    func closes(rate: Double, sampleRate: Int, frames: Int, buffers: Int) -> [Int] {
        var clock = LineClock(rate: rate)
        return (1 ... buffers).filter { _ in clock.add(frames: frames, sampleRate: sampleRate) }
    }

    @Test("a line every 1/rate of audio, on the first buffer that reaches its end")
    func ends() {
        // 10 lines a second at 48 kHz: ends at 4800, 9600, ... frames; buffers of 256 reach them at
        // buffers 19 (4864), 38 (9728), 57 (14592), 75 (19200).
        #expect(closes(rate: 10, sampleRate: 48000, frames: 256, buffers: 75) == [19, 38, 57, 75])
    }

    @Test("no drift: 30 lines a second for a minute at 44.1 kHz gives 1800 lines")
    func noDrift() {
        let buffers = 60 * 44100 / 256
        #expect(closes(rate: 30, sampleRate: 44100, frames: 256, buffers: buffers).count == 1800 - 1)
        #expect(closes(rate: 30, sampleRate: 44100, frames: 256, buffers: buffers + 2).count == 1800)
    }

    @Test("a buffer past several ends closes one line, and the next starts from it")
    func noBursts() {
        // 1000 lines a second at 48 kHz is a line per 48 frames: one line per 256-frame buffer.
        #expect(closes(rate: 1000, sampleRate: 48000, frames: 256, buffers: 10) == Array(1 ... 10))
        // A backlog of 0.5 s in one delivery, at 10 lines a second: one line, then the next at the
        // next 0.1 s point of the grid (0.6 s), not at once.
        var clock = LineClock(rate: 10)
        let closed = [clock.add(frames: 24000, sampleRate: 48000), clock.add(frames: 4799, sampleRate: 48000),
                      clock.add(frames: 1, sampleRate: 48000)]
        #expect(closed == [true, false, true])
    }

    @Test("frames since the last line, and times that never go back")
    func pendingAndTime() {
        var clock = LineClock(rate: 10)
        _ = clock.add(frames: 1000, sampleRate: 48000)
        #expect(clock.framesSinceLine == 1000)
        clock.closeLine()
        #expect(clock.framesSinceLine == 0)
        let times = [clock.lineTime(1.0), clock.lineTime(0.7), clock.lineTime(1.2)]
        #expect(times == [1.0, 1.0, 1.2])
    }
}

@Suite("Recording timeline")
struct RecordingTimelineTests {
    @Test("frames fill slots by the time their audio reaches; a stutter repeats, a fast display drops")
    func slots() {
        var timeline = RecordingTimeline(fps: 30)
        // No audio yet: the clock leads. The first frame fills slot 0; 1/60 s later slot 1 (at
        // 1/30 s) is not due yet and the frame is dropped; after a 0.1 s stutter slots 1, 2 and 3
        // are due at once, all filled by that frame; the end fills up to its own time (slot 15).
        let filled = [timeline.slotsForFrame(drawnAt: 100.0), timeline.slotsForFrame(drawnAt: 100.0 + 1.0 / 60),
                      timeline.slotsForFrame(drawnAt: 100.11)]
        #expect(filled == [1, 0, 3])
        #expect(timeline.slotsFilled == 4)
        let last = timeline.slotsToFinish(at: 100.51)
        #expect(last == 12)
    }

    @Test("with audio flowing, a frame counts at the time its audio reaches, not when it was drawn")
    func audioTime() {
        var timeline = RecordingTimeline(fps: 10)
        // The first frame, before any audio: slot 0.
        let first = timeline.slotsForFrame(drawnAt: 5.0)
        // Audio heard up to 5.15 s; a frame drawn at 5.3 s shows audio to 5.15 s, which fills only
        // slot 1 (5.1 s). By the clock alone it would have filled slots 1 to 3.
        _ = timeline.silenceBefore(startFrame: 0, frameCount: 4800, sampleRate: 48000, heardAt: 5.15)
        let second = timeline.slotsForFrame(drawnAt: 5.3)
        #expect([first, second] == [1, 1])
    }

    @Test("contiguous audio follows on; a jump is placed by when it was heard, with silence between")
    func audioGaps() {
        var timeline = RecordingTimeline(fps: 30)
        // 256 frames at 48 kHz heard by 1.0 s; the next buffer is contiguous (no silence whatever
        // jitter its time stamp has); then a seek: the new position's first buffer is heard 0.5 s
        // after the previous one ended; last, a buffer heard before what is placed gets no silence.
        let previousEnd = 1.0 + 256.0 / 48000
        let gaps = [timeline.silenceBefore(startFrame: 0, frameCount: 256, sampleRate: 48000, heardAt: 1.0),
                    timeline.silenceBefore(startFrame: 256, frameCount: 256, sampleRate: 48000, heardAt: previousEnd + 0.003),
                    timeline.silenceBefore(startFrame: 96000, frameCount: 256, sampleRate: 48000, heardAt: previousEnd + 0.5 + 256.0 / 48000)]
        #expect(gaps == [0, 0, 24000])
        #expect(timeline.audioFramesPlaced == 512 + 24000 + 256)
        let overlap = timeline.silenceBefore(startFrame: 500_000, frameCount: 256, sampleRate: 48000, heardAt: 0.5)
        #expect(overlap == 0)
    }

    @Test("the audio's offset from the first frame")
    func offset() {
        var timeline = RecordingTimeline(fps: 30)
        #expect(timeline.audioOffset == nil)
        _ = timeline.slotsForFrame(drawnAt: 2.0)
        _ = timeline.silenceBefore(startFrame: 0, frameCount: 4800, sampleRate: 48000, heardAt: 2.35)
        #expect(abs((timeline.audioOffset ?? 0) - 0.25) < 1e-9)
        // The next buffer heard 5 ms sooner than following on implies: the first came late.
        _ = timeline.silenceBefore(startFrame: 4800, frameCount: 256, sampleRate: 48000, heardAt: 2.35 + 256.0 / 48000 - 0.005)
        #expect(abs((timeline.audioOffset ?? 0) - 0.245) < 1e-9)
        // One heard later moves nothing.
        _ = timeline.silenceBefore(startFrame: 5056, frameCount: 256, sampleRate: 48000, heardAt: 2.36)
        #expect(abs((timeline.audioOffset ?? 0) - 0.245) < 1e-9)
    }
}
