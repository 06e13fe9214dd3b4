import DecibarCore
import Foundation

/// Clicks at a steady tempo, as 256-frame buffers of 48 kHz stereo the way a player hands them
/// over: numbered from a start frame and stamped with when each one's last frame is heard. A click
/// (a 1.5 kHz tone and a burst of noise, falling away in a few ms; every fourth louder and higher)
/// starts on each beat, the first at frame 0.
struct ClickTrack {
    static let sampleRate = 48_000
    let bpm: Double

    /// The frame where beat `index` starts.
    func beatFrame(_ index: Int) -> Int64 { Int64((Double(index) * 60 / bpm * Double(Self.sampleRate)).rounded()) }

    /// The sample at `frame` (counted from the first click).
    func sample(at frame: Int64) -> Float {
        guard frame >= 0 else { return 0 }
        var index = Int(Double(frame) / (60 / bpm * Double(Self.sampleRate)))
        if beatFrame(index) > frame { index -= 1 }
        let since = Double(frame - beatFrame(index)) / Double(Self.sampleRate)
        guard since < 0.03 else { return 0 }
        let accented = index % 4 == 0
        // Seeded noise: the same frame always sounds the same.
        var noise = UInt64(truncatingIfNeeded: frame) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        noise ^= noise >> 33
        let white = Double(noise % 2001) / 1000 - 1
        let tone = sin(2 * Double.pi * (accented ? 2500 : 1500) * since) * exp(-since / 0.006)
        return Float((accented ? 0.5 : 0.3) * (tone + 0.3 * white * exp(-since / 0.002)))
    }

    /// `count` buffers from `startFrame` of the track; the buffer holding `startFrame` ends being
    /// heard at `heardAt + 256 / rate` (so frame f is heard at `heardAt + (f - startFrame) / rate`).
    /// `fileFrame` numbers the buffers (a seek's target, say) where it differs from the track's frame.
    func buffers(from startFrame: Int64, count: Int, heardAt: Double, fileFrame: Int64? = nil) -> [AudioBuffer] {
        let frames = AudioBuffer.frameCapacity
        return (0 ..< count).map { index in
            let first = startFrame + Int64(index * frames)
            let samples = (0 ..< frames).flatMap { offset -> [Float] in
                let value = sample(at: first + Int64(offset))
                return [value, value]
            }
            var buffer = AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: Self.sampleRate,
                                     startFrame: (fileFrame ?? startFrame) + Int64(index * frames))
            buffer.captureTime = heardAt + Double((index + 1) * frames) / Double(Self.sampleRate)
            return buffer
        }
    }
}
