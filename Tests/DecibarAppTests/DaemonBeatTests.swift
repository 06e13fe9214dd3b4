import DecibarCore
import DecibarTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import DecibarApp

/// The daemon's beats on a player whose output hands the pump what the test delivers: beat
/// finding only while something needs beats, and nothing of the old audio told after a seek.
@Suite("Daemon: beats of a steered player", .serialized)
struct DaemonBeatTests {
    /// A daemon playing a track through steered parts; its output takes what the test delivers.
    static func playing(config: String = "") throws -> (rig: DaemonUnderTest, output: SteeredOutput) {
        let rig = try DaemonUnderTest(config: config)
        let parts = SteeredPlayerParts()
        parts.deliversAudio = true
        rig.daemon.playerParts = parts
        _ = try rig.execute(.open(paths: ["clicks.wav"], append: false))
        return (rig, try #require(parts.output))
    }

    /// Whether the open track's pump has taken `count` buffers within 5 s.
    static func taken(_ count: Int, by rig: DaemonUnderTest) -> Bool {
        let deadline = MonotonicClock.now() + 5
        func taken() -> Int { rig.daemon.session?.feedPump?.counts.taken.load(ordering: .acquiring) ?? 0 }
        while taken() < count && MonotonicClock.now() < deadline { usleep(2_000) }
        return taken() >= count
    }

    static func lookedAt(_ rig: DaemonUnderTest) -> Int { rig.daemon.session?.feedPump?.counts.lookedAtForBeats.load(ordering: .relaxed) ?? -1 }

    /// The beat lines (`"beat": true`) among the events a client was sent.
    static func beats(_ events: [(name: String, members: [String: JSONValue])]) -> [[String: JSONValue]] {
        events.filter { $0.name == "beats" }.compactMap { $0.members["data"]?.object }.filter { $0["beat"] == .bool(true) }
    }

    static func tempo(_ rig: DaemonUnderTest) throws -> JSONValue? {
        try rig.execute(.getStatus)?.object?["tempo"]?.object?["bpm"]
    }

    @Test("with nothing that needs beats the player's pump looks for none and the status has no tempo; a beats subscriber starts beat finding (its beats, a tempo of 120), and its leaving stops it")
    func beatFindingOnlyWhenWanted() throws {
        let (rig, output) = try Self.playing()
        let clicks = ClickTrack(bpm: 120)
        // Heard already (told at once): 1000 buffers are 5.3 s.
        let heardAt = MonotonicClock.now() - 20
        func deliver(from index: Int, count: Int) {
            output.deliver(clicks.buffers(from: Int64(index * 256), count: count, heardAt: heardAt + Double(index * 256) / 48_000))
        }
        deliver(from: 0, count: 1000)
        #expect(Self.taken(1000, by: rig))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!rig.daemon.wantsBeats)
        #expect(Self.lookedAt(rig) == 0, "\(Self.lookedAt(rig)) buffers looked at for beats")
        #expect(try Self.tempo(rig) == .null)

        _ = try rig.execute(.subscribe(Subscription(kind: .beats)))
        #expect(rig.daemon.wantsBeats)
        deliver(from: 1000, count: 1000)
        #expect(Self.taken(2000, by: rig))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(Self.lookedAt(rig) == 1000)
        let told = Self.beats(rig.takeEvents())
        // (It starts afresh: the tempo after 3 s, then each beat.)
        #expect(told.count >= 4, "\(told.count) beats told")
        #expect(abs(((try Self.tempo(rig))?.number ?? 0) - 120) < 0.5)

        _ = try rig.execute(.unsubscribe(.beats))
        #expect(!rig.daemon.wantsBeats)
        deliver(from: 2000, count: 200)
        #expect(Self.taken(2200, by: rig))
        #expect(Self.lookedAt(rig) == 1000)
    }

    @Test("after a seek no beat found before it reaches a beats subscriber or the lights: not one found ahead and waiting to be heard, nor one in old audio still on its way to the pump")
    func seekDropsOldBeats() throws {
        let wled = try DatagramReceiver()
        defer { wled.stop() }
        let (rig, output) = try Self.playing(config: "[outputs]\nsend = [\"wled://127.0.0.1:\(wled.port)\"]\n")
        _ = try rig.execute(.subscribe(Subscription(kind: .beats)))
        let clicks = ClickTrack(bpm: 120)
        // The click at 5 s is heard 1.5 s from now (finding beats in 5 s of audio takes a debug
        // build a few tenths of a second, and several seconds under ThreadSanitizer); up to it,
        // the beat is followed.
        let lead = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 1.5 : 6
        let origin = MonotonicClock.now() + lead - 5
        output.deliver(clicks.buffers(from: 0, count: 946, heardAt: origin))
        #expect(Self.taken(946, by: rig))
        // The seek comes halfway between two heard clicks: a hit sent just after it then belongs
        // to audio after it, however long the finding took (a click heard as the seek came was
        // rightly marked, and read as a mark after the seek). Not before 3.75 s: eight beats are
        // heard by then and three found ahead wait (with a sanitizer's lead the audio taken is not
        // heard yet, and the seek came before any beat was).
        let heardNow = MonotonicClock.now() - origin
        var between = max(3.75, (heardNow / 0.5).rounded(.down) * 0.5 + 0.25)
        if between - heardNow < 0.02 { between += 0.5 }
        while MonotonicClock.now() < origin + between { usleep(2_000) }
        #expect(rig.daemon.announcer.waitingCount >= 1, "no beat found ahead (the seek at \(between) s)")
        #expect(Self.beats(rig.takeEvents()).count >= 2)

        let seekAt = MonotonicClock.now()
        _ = try rig.execute(.seek(seconds: 20, relative: false))
        // Old audio still on its way (its click at 5.5 s), then the new, from the target, silent.
        output.deliver(clicks.buffers(from: 946 * 256, count: 120, heardAt: origin + Double(946 * 256) / 48_000))
        let target = Int64(20 * 48_000)
        output.deliver((0 ..< 200).map { index in
            var buffer = AudioBuffer(interleaved: [Float](repeating: 0, count: 512), channelCount: 2, sampleRate: 48_000,
                                     startFrame: target + Int64(index * 256))
            buffer.captureTime = seekAt + 0.1 + Double((index + 1) * 256) / 48_000
            return buffer
        })
        #expect(Self.taken(946 + 120 + 200, by: rig))
        // Past the old clicks at 5 and 5.5 s.
        while MonotonicClock.now() < origin + 5.8 { usleep(10_000) }
        let late = Self.beats(rig.takeEvents())
        #expect(late.isEmpty, "beats told after the seek: \(late)")
        let marks = wled.received.filter { $0.time > seekAt && $0.bytes.count == 44 && $0.bytes[16] == 1 }
        #expect(marks.isEmpty, "\(marks.count) WLED packets marked a hit after the seek, \(marks.map { String(format: "%.3f", $0.time - seekAt) }) s after it")
    }
}
