import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// Outputs and files with more than two channels: 7.1 taps, 7- and 8-channel playback, and files
/// with more channels than a buffer carries.
@Suite("Multichannel audio")
struct MultichannelTests {
    /// A 440 Hz tone at amplitude 0.5 in every channel, in the layout `layout` (an ffmpeg pan layout).
    func tone(_ path: String, layout: String, channels: Int, seconds: Double = 2) throws {
        let routes = (0 ..< channels).map { "c\($0)=c0" }.joined(separator: "|")
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
                            "-af", "volume=4,pan=\(layout)|\(routes)", path])
    }

    @Test("a 7.1 output can be tapped: levels reads all eight channels")
    func tapSevenOne() throws {
        let server = try PrivatePulseServer()
        try server.pactl("load-module", "module-null-sink", "sink_name=surround", "rate=48000", "channels=8",
                         "channel_map=surround-71", "format=float32le", "norewinds=1")
        let music = server.directory + "/eight.wav"
        try tone(music, layout: "7.1", channels: 8, seconds: 6)
        let player = try server.play(music, sink: "surround")
        defer { player.kill() }
        let outcome = try TestRig.decibar(["levels", "--source", "surround", "--duration", "2", "--rate", "4"],
                                          environment: server.environment, timeout: 20)
        #expect(outcome.status == 0, "\(outcome)")
        let lines = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").compactMap { LevelsLine(String($0)) }
        #expect(lines.count >= 4, "\(outcome)")
        let loud = try #require(lines.last)
        #expect(loud.channels == 8)
        // paplay leaves the channel map to the server; what arrives must be sound on most channels.
        #expect(loud.rmsDB.filter { $0 > -40 }.count >= 6, "\(loud.rmsDB)")
    }

    @Test("7- and 8-channel files play, each channel to its speaker", arguments: [("6.1", 7), ("7.1", 8)])
    func playSurround(layout: String, channels: Int) throws {
        let server = try PrivatePulseServer()
        try server.pactl("load-module", "module-null-sink", "sink_name=surround", "rate=48000", "channels=8",
                         "channel_map=surround-71", "format=float32le", "norewinds=1")
        try server.pactl("set-default-sink", "surround")
        let file = server.directory + "/surround.flac"
        try tone(file, layout: layout, channels: channels)
        let recording = server.directory + "/heard.raw"
        let recorder = try server.record(from: "surround.monitor", channels: 8, channelMap: "surround-71", to: recording)
        defer { recorder.kill() }
        let outcome = try TestRig.decibar(["play", file, "--size", "160x100", "--exit-at-end"], environment: server.environment, timeout: 20)
        #expect(outcome.status == 0 && outcome.errorLines.isEmpty, "\(outcome)")
        usleep(300_000)
        recorder.kill()
        let samples = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Peak per recorded channel: the tone (0.5) reaches every speaker the file has.
        var peaks = [Float](repeating: 0, count: 8)
        for (index, sample) in samples.enumerated() { peaks[index % 8] = max(peaks[index % 8], abs(sample)) }
        let sounding = peaks.filter { $0 > 0.4 }.count
        #expect(sounding >= channels - 1, "peaks per channel \(peaks)")
    }

    @Test("a 32-channel file is folded into 8 channels at the same level; levels and peaks read it")
    func thirtyTwoChannels() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/many.wav"
        let result = try TestRig.run("sox", ["-n", "-r", "48000", "-c", "32", "-b", "16", path, "synth", "1", "sine", "1000", "vol", "0.5"])
        #expect(result.status == 0, "\(result.error)")
        let decoder = try AudioFileDecoder(path: path)
        #expect(decoder.channelCount == 8)
        #expect(decoder.speakerPositions == [.frontLeft, .frontRight, .frontCenter, .lowFrequency, .backLeft, .backRight, .sideLeft, .sideRight])
        let outcome = try TestRig.decibar(["levels", "--file", path, "--rate", "1"])
        #expect(outcome.status == 0, "\(outcome)")
        let line = try #require(String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").last.flatMap { LevelsLine(String($0)) })
        #expect(line.channels == 8)
        // Four identical channels averaged into each: still a -6 dBFS sine (RMS -9.03).
        #expect(line.reads(rms: -9.03, peak: -6.02, tolerance: 0.05), "\(line.rmsDB) \(line.peakDB)")
        let peaks = try TestRig.decibar(["peaks", path, "-o", folder + "/many.dat"])
        #expect(peaks.status == 0, "\(peaks)")
    }
}
