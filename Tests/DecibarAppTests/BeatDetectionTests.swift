import DecibarApp
import DecibarCore
import DecibarTestSupport
import Foundation
import Synchronization
import Testing

/// `levels --mode beats --file` on material whose beats are known to the sample.
@Suite("Beats in files: clicks, a band, a tempo change")
struct BeatDetectionTests {
    struct Line {
        var time: Double
        var isBeat: Bool
        var bpm: Double?
        var confidence: Double
    }

    /// The lines `levels --mode beats --file` writes for `path`.
    static func lines(of path: String) throws -> [Line] {
        var settings = LevelsSettings()
        settings.mode = .beats
        let collected = Mutex<[UInt8]>([])
        try FileLevels(path: path, rate: 10, duration: nil, settings: settings) { bytes in
            collected.withLock { $0.append(contentsOf: bytes) }
        }.run()
        return try collected.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map { text in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            return Line(time: try #require((object["t"] as? NSNumber)?.doubleValue), isBeat: object["beat"] as? Bool == true,
                        bpm: (object["bpm"] as? NSNumber)?.doubleValue, confidence: try #require((object["confidence"] as? NSNumber)?.doubleValue))
        }
    }

    @Test("click tracks at 60, 90, 120, 128 and 174 BPM: F >= 0.95 from 5 s, median offset within 15 ms, the last bpm within 0.5",
          arguments: [60, 90, 120, 128, 174])
    func clicks(bpm: Int) throws {
        let folder = try TemporaryFolder()
        let material = try BeatMaterial(["clicks", "\(bpm)"], name: "clicks.wav", in: folder.path)
        let lines = try Self.lines(of: material.path)
        let score = material.score(lines.filter(\.isBeat).map(\.time))
        let last = lines.last { $0.bpm != nil }?.bpm
        print("clicks \(bpm): \(score), last bpm \(last.map { String(format: "%.2f", $0) } ?? "none")")
        #expect(score.f >= 0.95, "\(score)")
        #expect(abs(score.medianOffset) <= 0.015, "\(score)")
        #expect(abs((last ?? 0) - Double(bpm)) <= 0.5, "last bpm \(String(describing: last))")
    }

    @Test("a band at 97 BPM (kick, snare on 2 and 4, hats, bass, pad; a quiet intro, a louder chorus): F >= 0.9 from 5 s, median offset within 15 ms, bpm within 0.5")
    func band() throws {
        let folder = try TemporaryFolder()
        let material = try BeatMaterial(["band", "97"], name: "band.wav", in: folder.path)
        let lines = try Self.lines(of: material.path)
        let score = material.score(lines.filter(\.isBeat).map(\.time))
        let last = lines.last { $0.bpm != nil }?.bpm
        print("band 97: \(score), last bpm \(last.map { String(format: "%.2f", $0) } ?? "none")")
        #expect(score.f >= 0.9, "\(score)")
        #expect(abs(score.medianOffset) <= 0.015, "\(score)")
        #expect(abs((last ?? 0) - 97) <= 0.5, "last bpm \(String(describing: last))")
    }

    /// The click of a note stopped short comes before every kick, weaker than the kick but clear
    /// of the rest: the beats must stay on the kicks, not move onto what sounds first.
    @Test("a band whose held bass stops dead a tenth of a beat before each kick, at 97 and 120 BPM: F >= 0.9 from 5 s, median offset within 15 ms of the kicks",
          arguments: [97, 120])
    func heldBass(bpm: Int) throws {
        let folder = try TemporaryFolder()
        let material = try BeatMaterial(["band", "\(bpm)", "--bass", "held"], name: "held.wav", in: folder.path)
        let lines = try Self.lines(of: material.path)
        let score = material.score(lines.filter(\.isBeat).map(\.time))
        print("band \(bpm), held bass: \(score)")
        #expect(score.f >= 0.9, "\(score)")
        #expect(abs(score.medianOffset) <= 0.015, "\(score)")
    }

    @Test("no line tells a tempo before the tracker is sure of it (two beats heard in a row): a bpm only at confidence 0.35 and up, and on every line from 5 s on")
    func tempoOnceSure() throws {
        let folder = try TemporaryFolder()
        let material = try BeatMaterial(["clicks", "120"], name: "clicks.wav", in: folder.path)
        let lines = try Self.lines(of: material.path)
        let early = lines.filter { $0.bpm != nil && $0.confidence < 0.35 }
        #expect(early.isEmpty, "\(early.map { "t \($0.time): \($0.bpm ?? 0) BPM at confidence \($0.confidence)" })")
        #expect(lines.filter { $0.time >= 5 }.allSatisfy { $0.bpm != nil })
    }

    @Test("clicks from 120 to 140 BPM at 15 s: F >= 0.85 from 5 s after the change, bpm 140 within 0.5")
    func tempoChange() throws {
        let folder = try TemporaryFolder()
        let material = try BeatMaterial(["clicks", "120", "--to", "140", "--at", "15"], name: "change.wav", in: folder.path)
        let lines = try Self.lines(of: material.path)
        let score = material.score(lines.filter(\.isBeat).map(\.time), from: 20)
        let last = lines.last { $0.bpm != nil }?.bpm
        print("120 to 140: \(score), last bpm \(last.map { String(format: "%.2f", $0) } ?? "none")")
        #expect(score.f >= 0.85, "\(score)")
        #expect(abs((last ?? 0) - 140) <= 0.5, "last bpm \(String(describing: last))")
    }
}
