import Foundation
import Testing

@Suite("levels --file")
struct FileLevelsTests {
    @Test("a -6 dBFS tone file reads -9.03 / -6.02, with t in file time, in any format",
          arguments: ["wav", "flac", "ogg", "mp3", "m4a"])
    func toneFile(format: String) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/tone.wav"
        try TestRig.makeTone(at: wav, amplitude: 0.5, seconds: 2)
        var file = wav
        if format != "wav" {
            file = folder + "/tone." + format
            let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", wav, file])
            #expect(made.status == 0, "\(made.error)")
        }
        let result = try TestRig.run(TestRig.decibar, ["levels", "--file", file, "--rate", "10"])
        #expect(result.status == 0, "\(result.error)")
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { LevelsLine(String($0)) }
        #expect(lines.count == 20)
        // Lines close on the first 256-frame buffer past each tenth of a second.
        for (index, line) in lines.enumerated() {
            #expect(abs(line.time - Double(index + 1) / 10) < 256.0 / 48000 + 1e-3, "line \(index) at \(line.time)")
        }
        #expect(abs((lines.last?.time ?? 0) - 2.0) < 0.001)
        let lossless = format == "wav" || format == "flac"
        // Lossy codecs are checked away from the edges, where their filters ring.
        for line in lines.dropFirst().dropLast() {
            #expect(line.channels == 2)
            #expect(line.reads(rms: -9.03, peak: -6.02, tolerance: lossless ? 0.02 : 0.5), "\(line.rmsDB) \(line.peakDB)")
        }
    }

    @Test("--mode spectrum: a header of band edges, then band levels where a tone lights its own band in each channel")
    func spectrum() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Left 1 kHz at -6 dBFS, right 5 kHz at -20 dBFS.
        let file = folder + "/two.wav"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=0.5*sin(2*PI*1000*t)|0.1*sin(2*PI*5000*t):s=48000:d=1", file])
        #expect(made.status == 0, "\(made.error)")
        let result = try TestRig.run(TestRig.decibar, ["levels", "--file", file, "--mode", "spectrum", "--bands", "24", "--rate", "4"])
        #expect(result.status == 0, "\(result.error)")
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let edges = try #require(header["band_edges_hz"] as? [Double])
        let bandCount = try #require(header["bands"] as? Int)
        #expect(header["sample_rate"] as? Int == 48000 && header["channels"] as? Int == 2)
        #expect(edges.count == bandCount + 1 && edges.first == 40 && edges.last == 16000)
        #expect(lines.count == 5)
        for line in lines.dropFirst() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let levels = try #require(object["bands_db"] as? [Double])
            #expect(levels.count == 2 * bandCount)
            let left = Array(levels[..<bandCount]), right = Array(levels[bandCount...])
            let leftBand = try #require(edges.indices.dropLast().first { edges[$0] <= 1000 && 1000 < edges[$0 + 1] })
            let rightBand = try #require(edges.indices.dropLast().first { edges[$0] <= 5000 && 5000 < edges[$0 + 1] })
            #expect(left.indices.max { left[$0] < left[$1] } == leftBand)
            #expect(right.indices.max { right[$0] < right[$1] } == rightBand)
            #expect(left[leftBand] - right[rightBand] > 10, "\(left[leftBand]) vs \(right[rightBand])")
        }
    }

    @Test("--mode stereo: mono correlates +1, inverted -1, two noises about 0, left alone balances -1",
          arguments: [("mono", "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*440*t)"),
                      ("inverted", "0.5*sin(2*PI*440*t)|-0.5*sin(2*PI*440*t)"),
                      ("noises", ""),
                      ("left", "0.5*sin(2*PI*440*t)|0")])
    func stereo(name: String, expression: String) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/\(name).flac"
        // aevalsrc's random() is the same on both channels: two noise sources, merged, are not.
        let input = expression.isEmpty
            ? ["-f", "lavfi", "-i", "anoisesrc=a=0.3:seed=1:r=48000:d=3", "-f", "lavfi", "-i", "anoisesrc=a=0.3:seed=2:r=48000:d=3",
               "-filter_complex", "[0][1]amerge=inputs=2"]
            : ["-f", "lavfi", "-i", "aevalsrc=\(expression):s=48000:d=3"]
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin"] + input + [file])
        #expect(made.status == 0, "\(made.error)")
        let result = try TestRig.run(TestRig.decibar, ["levels", "--file", file, "--mode", "stereo", "--rate", "10"])
        #expect(result.status == 0, "\(result.error)")
        let lines = try String(decoding: result.output, as: UTF8.self).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double], "\(line)")
        }
        #expect(lines.count == 30)
        #expect(lines.allSatisfy { Set($0.keys) == ["t", "correlation", "balance", "width"] })
        // Past the first second, the 300 ms window holds only the file's sound.
        for line in lines.dropFirst(10) {
            let correlation = line["correlation"] ?? .nan, balance = line["balance"] ?? .nan, width = line["width"] ?? .nan
            switch name {
            case "mono": #expect(correlation >= 0.99 && abs(balance) < 0.01 && width < 0.01, "\(line)")
            case "inverted": #expect(correlation <= -0.99 && width > 0.99, "\(line)")
            case "noises": #expect(abs(correlation) < 0.1 && abs(width - 0.5) < 0.05, "\(line)")
            default: #expect(balance == -1 && correlation == 0, "\(line)")
            }
        }
    }

    @Test("--duration stops at that much file time")
    func duration() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.5, seconds: 3)
        let result = try TestRig.run(TestRig.decibar, ["levels", "--file", folder + "/tone.wav", "--duration", "1", "--rate", "4"])
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { LevelsLine(String($0)) }
        // 12 000-frame ticks close on 256-frame buffers: 0.251, 0.501, 0.752, then the stop at 1.0.
        #expect(lines.count == 4)
        for (line, tick) in zip(lines, [0.25, 0.5, 0.75, 1.0]) { #expect(abs(line.time - tick) < 0.006, "\(line.time)") }
    }

    @Test("missing, empty and garbage files give one line and status 1")
    func badFiles() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/empty.flac", contents: Data()))
        // Seeded bytes: truly random ones now and then look to FFmpeg like a container with no
        // audio track, which is reported as such (also one line) but is not what this checks.
        #expect(FileManager.default.createFile(atPath: folder + "/noise.mp3", contents: Data(pseudoRandomBytes(count: 20000, seed: 5))))
        for (name, reason) in [("absent.wav", "no such file"), ("empty.flac", "file is empty"),
                               ("noise.mp3", "not an audio file")] {
            let result = try TestRig.run(TestRig.decibar, ["levels", "--file", folder + "/" + name])
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("decibar: \(folder)/\(name): \(reason)"), "\(result.error)")
            #expect(result.error.split(separator: "\n").count == 1)
            #expect(result.output.isEmpty)
        }
    }
}
