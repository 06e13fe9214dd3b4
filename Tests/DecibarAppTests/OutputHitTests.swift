import DecibarAudio
import DecibarCore
import DecibarTestSupport
import Foundation
import Glibc
import Testing
@testable import DecibarApp

/// What the lights mark as a hit (WLED's samplePeak, OSC's /beat): each burst from a track's first
/// sound until the beat is followed, then each beat. Real datagrams on loopback, audio handed over
/// a little ahead of being heard with its beats found on the way, as a player's pump does.
@Suite("Outputs in process: the hits WLED marks, from the first click", .serialized)
struct OutputHitTests {
    typealias Datagram = DatagramReceiver.Datagram

    /// Hands `buffers` (stamped with when they are heard) to a hub sending to `urls`, each `ahead`
    /// seconds before it is heard, its beats found as the feed pump finds them; returns what came.
    static func send(_ buffers: [AudioBuffer], to urls: [String], ahead: Double = 0.15) throws -> [Datagram] {
        let receiver = try DatagramReceiver()
        let targets = try urls.map { try OutputTarget(url: $0.replacingOccurrences(of: "PORT", with: String(receiver.port))) }
        let hub = try OutputHub(targets: targets, display: DisplaySettings(), rate: 60, heardDelay: { 0 }) { Issue.record("notice: \($0)") }
        var finder = BeatFinder()
        for buffer in buffers {
            let wait = buffer.captureTime - buffer.duration - ahead - MonotonicClock.now()
            if wait > 0 { usleep(useconds_t(wait * 1e6)) }
            hub.add(buffer)
            finder.add(buffer) { event in
                if event.isBeat { hub.addBeat(at: event.time, bpm: event.bpm ?? 0, confidence: event.confidence) }
            }
        }
        let end = (buffers.last?.captureTime ?? 0) + 0.2
        while MonotonicClock.now() < end { usleep(10_000) }
        hub.stop()
        receiver.stop()
        return receiver.received
    }

    /// WLED packets with samplePeak set.
    static func marks(_ datagrams: [Datagram]) -> [Double] {
        datagrams.filter { $0.bytes.count == AudioSyncPacket.size && $0.bytes.starts(with: Array("00002".utf8)) && $0.bytes[16] == 1 }.map(\.time)
    }

    @Test("120 BPM clicks from the first one: at least 12 of the 13 clicks of 6.5 s marked, the first within 50 ms of being heard, nothing else marked; OSC's /beat comes with them")
    func fromTheFirstClick() throws {
        let clicks = ClickTrack(bpm: 120)
        // Made before the clock starts, then stamped from it.
        let buffers = clicks.buffers(from: 0, count: Int(6.6 * 48_000 / 256), heardAt: 0)
        let start = MonotonicClock.now() + 0.3
        let stamped = buffers.map { buffer in
            var buffer = buffer
            buffer.captureTime += start
            return buffer
        }
        let datagrams = try Self.send(stamped, to: ["wled://127.0.0.1:PORT", "osc://127.0.0.1:PORT"])
        let marks = Self.marks(datagrams)
        let heard = (0 ..< 13).map { start + Double(clicks.beatFrame($0)) / 48_000 }
        let marked = heard.filter { click in marks.contains { $0 >= click - 0.005 && $0 <= click + 0.05 } }
        print("hits: \(marked.count) of \(heard.count) clicks marked; marks after each click: "
              + heard.map { click in marks.first { $0 >= click - 0.005 }.map { String(format: "%.1f", ($0 - click) * 1000) } ?? "-" }.joined(separator: ", ") + " ms")
        #expect(marked.count >= 12, "\(marked.count) of 13 clicks marked")
        #expect(marked.first == heard.first, "the first click is not marked")
        #expect(marks.count <= heard.count + 1, "\(marks.count) marks for \(heard.count) clicks")
        let beats = datagrams.filter { $0.bytes.starts(with: Array("/decibar/beat".utf8) + [0]) }.map(\.time)
        #expect(heard.filter { click in beats.contains { abs($0 - click) <= 0.05 } }.count >= 12, "\(beats.count) /beat messages")
    }

    @Test("a busy band (hats and bass on every eighth, snare on 2 and 4): once the beat is followed, the beats are marked, not the onsets between them")
    func beatsOnceFollowed() throws {
        let folder = try TemporaryFolder()
        let material = try BeatMaterial(["band", "120"], name: "band.wav", in: folder.path)
        // The chorus (from 24 s), 8 s of it: float stereo at 48 kHz after a 44-byte header.
        let data = try Data(contentsOf: URL(fileURLWithPath: material.path))
        let first = 24 * 48_000, frames = 8 * 48_000
        let samples: [Float] = data.withUnsafeBytes { raw in
            (0 ..< frames * 2).map { raw.loadUnaligned(fromByteOffset: 44 + 4 * (2 * first + $0), as: Float.self) }
        }
        let start = MonotonicClock.now() + 0.3
        let buffers = stride(from: 0, to: frames, by: 256).map { frame in
            var buffer = AudioBuffer(interleaved: samples[2 * frame ..< 2 * (frame + 256)], channelCount: 2, sampleRate: 48_000,
                                     startFrame: Int64(frame))
            buffer.captureTime = start + Double(frame + 256) / 48_000
            return buffer
        }
        let marks = Self.marks(try Self.send(buffers, to: ["wled://127.0.0.1:PORT"]))
        let beats = material.beats.map { start + $0 - 24 }
        // Followed well before 5 s of it.
        let late = marks.filter { $0 >= start + 5 }
        let offBeat = late.filter { mark in !beats.contains { abs(mark - $0) <= 0.03 } }
        let missed = beats.filter { $0 >= start + 5 && $0 < start + 7.9 }.filter { beat in !late.contains { abs($0 - beat) <= 0.03 } }
        print("hits: \(late.count) marks from 5 s on, \(offBeat.count) off the beat, \(missed.count) beats missed")
        #expect(offBeat.isEmpty, "marks between the beats at \(offBeat.map { String(format: "%.3f", $0 - start) })")
        #expect(missed.count <= 1, "beats not marked at \(missed.map { String(format: "%.3f", $0 - start) })")
    }
}
