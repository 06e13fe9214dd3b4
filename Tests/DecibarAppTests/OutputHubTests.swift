import DecibarApp
import DecibarAudio
import DecibarCore
import DecibarTestSupport
import Foundation
import Glibc
import Testing

/// The outputs of `--send` in process, to real UDP sockets on loopback: audio handed over ahead of
/// time (as a player's is) must leave in datagrams when it is heard.
@Suite("Outputs in process: WLED audio sync, DDP and OSC datagrams on loopback", .serialized)
struct OutputHubTests {
    /// Buffers of a 48 kHz stereo signal, stamped with when each is heard: silence with bursts of
    /// a -6 dBFS 1 kHz tone at `bursts` (start, length), to `end`.
    static func signal(start: Double, bursts: [(at: Double, length: Double)], end: Double) -> [AudioBuffer] {
        let rate = 48_000.0
        var buffers: [AudioBuffer] = []
        var frame: Int64 = 0
        while Double(frame) / rate < end - start {
            let samples = (0 ..< 256).flatMap { index -> [Float] in
                let time = start + Double(frame + Int64(index)) / rate
                let burst = bursts.first { time >= $0.at && time < $0.at + $0.length }
                let value = burst.map { Float(0.5 * sin(2 * Double.pi * 1000 * (time - $0.at))) } ?? 0
                return [value, value]
            }
            var buffer = AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48_000, startFrame: frame)
            frame += 256
            buffer.captureTime = start + Double(frame) / rate
            buffers.append(buffer)
        }
        return buffers
    }

    typealias Datagram = DatagramReceiver.Datagram

    /// Runs a hub sending to `urls` (with `PORT` replaced by the receiver's) while bursts are heard:
    /// one of 0.4 s at 0.6 s, then five short ones (0.1 s), each a little off the one before in
    /// phase with the packets. Returns the datagrams and when each burst was heard.
    static func send(_ urls: [String], display: DisplaySettings = DisplaySettings()) throws -> (datagrams: [Datagram], bursts: [Double]) {
        let receiver = try DatagramReceiver()
        let targets = try urls.map { try OutputTarget(url: $0.replacingOccurrences(of: "PORT", with: String(receiver.port))) }
        let hub = try OutputHub(targets: targets, display: display, rate: 60, heardDelay: { 0 }) { Issue.record("notice: \($0)") }
        var bursts: [(at: Double, length: Double)] = [(0.6, 0.4)]
        for index in 0 ..< 5 {
            let step = Double(index)
            bursts.append((1.6 + 0.4 * step + 0.0037 * step, 0.1))
        }
        // Made before the clock starts (slow under a sanitizer), then stamped from it.
        let buffers = signal(start: 0, bursts: bursts, end: 4.4)
        let start = HostClock.now() + 0.2
        for var buffer in buffers {
            buffer.captureTime += start
            hub.add(buffer)
        }
        bursts = bursts.map { (start + $0.at, $0.length) }
        while HostClock.now() < start + 4.6 { usleep(20_000) }
        hub.stop()
        receiver.stop()
        return (receiver.received, bursts.map { $0.at })
    }

    /// One run of the three kinds together (each test reads its own datagrams from it).
    static let together = Result { try send(["wled://127.0.0.1:PORT", "ddp://127.0.0.1:PORT?pixels=60", "osc://127.0.0.1:PORT"]) }

    /// For each burst, the first datagram after the one before it where `shows` holds: how long
    /// after the burst was heard it left.
    static func lateness(_ datagrams: [Datagram], bursts: [Double], shows: (Datagram) -> Bool) -> [Double] {
        bursts.compactMap { burst in datagrams.first { $0.time > burst - 0.05 && shows($0) }.map { $0.time - burst } }
    }

    static func float(_ bytes: [UInt8], at offset: Int) -> Float { DatagramReceiver.littleEndianFloat(bytes, at: offset) }

    @Test("WLED: 44-byte V2 datagrams at 50 a second; each burst's packet leaves within 10 ms of it being heard (a burst moves the send onto it); channel 7 and 1000 Hz for the tone; silence zeros")
    func wled() throws {
        let (all, bursts) = try Self.together.get()
        let datagrams = all.filter { $0.bytes.starts(with: Array("00002".utf8)) }
        #expect(datagrams.allSatisfy { $0.bytes.count == 44 && Array($0.bytes[0 ..< 6]) == Array("00002".utf8) + [0] })
        let span = (datagrams.last?.time ?? 0) - (datagrams.first?.time ?? 0)
        let rate = Double(datagrams.count - 1) / span
        #expect(abs(rate - 50) < 2, "\(rate) a second")
        // sampleRaw follows the peak at once; the channels settle over an FFT window.
        let late = Self.lateness(datagrams, bursts: bursts) { Self.float($0.bytes, at: 8) > 100 }
        print("wled: each burst left \(late.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ")) ms after it was heard")
        #expect(late.count == bursts.count)
        #expect(late.allSatisfy { abs($0) <= 0.010 }, "\(late)")
        let settled = try #require(datagrams.first { $0.time > bursts[0] + 0.1 })
        #expect(abs(Self.float(settled.bytes, at: 40) - 1000) <= 50, "FFT_MajorPeak \(Self.float(settled.bytes, at: 40))")
        let channels = Array(settled.bytes[18 ..< 34])
        #expect(channels[7] > 200 && channels.enumerated().allSatisfy { $0.offset == 7 || $0.element < channels[7] }, "\(channels)")
        let before = datagrams.filter { $0.time < bursts[0] - 0.05 }
        #expect(!before.isEmpty && before.allSatisfy { Array($0.bytes[18 ..< 34]) == [UInt8](repeating: 0, count: 16) })
        let after = datagrams.filter { $0.time > bursts[bursts.count - 1] + 1.2 }
        #expect(!after.isEmpty && after.allSatisfy { Array($0.bytes[18 ..< 34]) == [UInt8](repeating: 0, count: 16) && $0.bytes[8 ..< 12] == [0, 0, 0, 0] })
    }

    @Test("DDP: 60 pixels in one packet at 60 a second, dark before the first burst, lit within 10 ms of it being heard, dark again after")
    func ddp() throws {
        let (all, bursts) = try Self.together.get()
        let datagrams = all.filter { $0.bytes.first == 0x41 }
        #expect(datagrams.allSatisfy { $0.bytes.count == 10 + 180 && $0.bytes[0] == 0x41 && $0.bytes[2] == 0x0B && $0.bytes[9] == 180 })
        let span = (datagrams.last?.time ?? 0) - (datagrams.first?.time ?? 0)
        #expect(abs(Double(datagrams.count - 1) / span - 60) < 2)
        func isLit(_ datagram: Datagram) -> Bool { datagram.bytes[10...].contains { $0 > 0 } }
        let late = try #require(Self.lateness(datagrams, bursts: [bursts[0]], shows: isLit).first)
        print("ddp: the burst left \(String(format: "%.1f", late * 1000)) ms after it was heard")
        #expect(abs(late) <= 0.010)
        #expect(datagrams.filter { $0.time < bursts[0] - 0.02 }.allSatisfy { !isLit($0) })
        #expect(datagrams.filter { $0.time > bursts[bursts.count - 1] + 1.2 }.allSatisfy { !isLit($0) })
    }

    @Test("OSC: /decibar/levels ffff reads the tone's RMS (-9.03 dBFS) and peak (-6.02) within 0.1 dB, each burst within 10 ms of being heard; bands and loudness come too; offset=50 sends 50 ms later")
    func osc() throws {
        func levels(_ datagrams: [Datagram]) -> [(time: Double, values: [Float])] {
            let address = Array("/decibar/levels".utf8) + [0]  // 16 bytes: already a multiple of 4
            return datagrams.compactMap { datagram in
                let bytes = datagram.bytes
                guard bytes.count == 16 + 8 + 16, Array(bytes[0 ..< 16]) == address, Array(bytes[16 ..< 22]) == Array(",ffff".utf8) + [0] else { return nil }
                let values = (0 ..< 4).map { index in
                    Float(bitPattern: (0 ..< 4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[24 + 4 * index + $1]) })
                }
                return (datagram.time, values)
            }
        }
        let (all, bursts) = try Self.together.get()
        let datagrams = all.filter { $0.bytes.starts(with: Array("/decibar".utf8)) }
        let lines = levels(datagrams)
        #expect(datagrams.contains { $0.bytes.starts(with: Array("/decibar/bands".utf8)) })
        #expect(datagrams.contains { $0.bytes.starts(with: Array("/decibar/loudness".utf8)) })
        let during = lines.filter { $0.time > bursts[0] + 0.05 && $0.time < bursts[0] + 0.35 }
        #expect(!during.isEmpty)
        for line in during {
            #expect(abs(line.values[0] + 9.03) < 0.1 && abs(line.values[1] + 9.03) < 0.1, "\(line.values)")
            #expect(abs(line.values[2] + 6.02) < 0.1 && abs(line.values[3] + 6.02) < 0.1, "\(line.values)")
        }
        let onTime = Self.lateness(datagrams.filter { levels([$0]).count == 1 }, bursts: bursts) { levels([$0])[0].values[2] > -20 }
        print("osc: each burst left \(onTime.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ")) ms after it was heard")
        #expect(onTime.count == bursts.count && onTime.allSatisfy { abs($0) <= 0.010 }, "\(onTime)")
        let (delayed, delayedBursts) = try Self.send(["osc://127.0.0.1:PORT?offset=50"])
        let later = Self.lateness(delayed.filter { levels([$0]).count == 1 }, bursts: delayedBursts) { levels([$0])[0].values[2] > -20 }
        let shift = later.reduce(0, +) / Double(max(1, later.count)) - onTime.reduce(0, +) / Double(max(1, onTime.count))
        print("osc: with offset=50 \(later.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ")) ms")
        #expect(later.count == delayedBursts.count && abs(shift - 0.05) <= 0.005, "moved by \(shift * 1000) ms")
    }
}
