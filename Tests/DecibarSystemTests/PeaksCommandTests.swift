import Foundation
import Testing

@Suite("decibar peaks")
struct PeaksCommandTests {
    /// The file's samples as ffmpeg decodes them: interleaved float32.
    func decodeWithFFmpeg(_ path: String, channels: Int) throws -> [Float] {
        let result = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "f32le", "-acodec", "pcm_f32le", "-"])
        #expect(result.status == 0)
        return result.output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// audiowaveform's 16-bit value of a sample, computed here independently of the program.
    func sixteenBit(_ sample: Float) -> Int { Int(max(-32768, min(32767, (sample * 32767).rounded()))) }

    func expectedValues(_ samples: [Float], channels: Int, samplesPerPixel: Int, eightBit: Bool) -> [Int] {
        let frames = samples.count / channels
        var values: [Int] = []
        for start in stride(from: 0, to: frames, by: samplesPerPixel) {
            for channel in 0 ..< channels {
                var low = Float.infinity, high = -Float.infinity
                for frame in start ..< min(frames, start + samplesPerPixel) {
                    low = min(low, samples[frame * channels + channel])
                    high = max(high, samples[frame * channels + channel])
                }
                for value in [sixteenBit(low), sixteenBit(high)] { values.append(eightBit ? value / 256 : value) }
            }
        }
        return values
    }

    func makeFixture(_ folder: String) throws -> String {
        // Stereo with different content per channel, and a length that is not a multiple of 256.
        let path = folder + "/music.flac"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=0.8*sin(2*PI*220*t)*sin(2*PI*0.5*t)|0.3*sin(2*PI*1000*t)+0.2*sin(2*PI*37*t):s=44100:d=3.1234",
                                              "-c:a", "flac", path])
        #expect(made.status == 0, "\(made.error)")
        return path
    }

    @Test(".dat output equals an independent min/max over ffmpeg's decode, with audiowaveform's header",
          arguments: [(256, 16), (512, 8), (1000, 16)])
    func binary(samplesPerPixel: Int, bits: Int) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try makeFixture(folder)
        let out = folder + "/peaks.dat"
        let result = try TestRig.run(TestRig.decibar, ["peaks", file, "-o", out, "--samples-per-pixel", "\(samplesPerPixel)", "--bits", "\(bits)"])
        #expect(result.status == 0, "\(result.error)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        func int32(_ offset: Int) -> Int { Int(Int32(bitPattern: UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24)) }
        let samples = try decodeWithFFmpeg(file, channels: 2)
        let frames = samples.count / 2
        #expect(frames == 137_742) // 3.1234 s at 44.1 kHz
        let length = (frames + samplesPerPixel - 1) / samplesPerPixel
        #expect(int32(0) == 2)                     // version 2: more than one channel
        #expect(int32(4) == (bits == 8 ? 1 : 0))   // flags: bit 0 set for 8-bit
        #expect(int32(8) == 44100)
        #expect(int32(12) == samplesPerPixel)
        #expect(int32(16) == length)
        #expect(int32(20) == 2)
        let size = bits == 8 ? 1 : 2
        #expect(bytes.count == 24 + length * 2 * 2 * size)
        let stored: [Int] = stride(from: 24, to: bytes.count, by: size).map { offset in
            size == 1 ? Int(Int8(bitPattern: bytes[offset])) : Int(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
        }
        #expect(stored == expectedValues(samples, channels: 2, samplesPerPixel: samplesPerPixel, eightBit: bits == 8))
    }

    @Test("JSON output has audiowaveform's fields and the same data")
    func json() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try makeFixture(folder)
        let out = folder + "/peaks.json"
        let result = try TestRig.run(TestRig.decibar, ["peaks", file, "-o", out, "--bits", "8"])
        #expect(result.status == 0, "\(result.error)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix(#"{"version":2,"channels":2,"sample_rate":44100,"samples_per_pixel":256,"bits":8,"length":539,"data":["#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let data = try #require(object["data"] as? [Int])
        #expect(data == expectedValues(try decodeWithFFmpeg(file, channels: 2), channels: 2, samplesPerPixel: 256, eightBit: true))
    }

    @Test("peaks - reads a pipe: a FLAC piped in gives the file's own overview; garbage or nothing gives one line; 20 minutes piped in are held as their overview, not their audio")
    func standardInput() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try makeFixture(folder)
        let fromFile = try TestRig.run(TestRig.decibar, ["peaks", file, "-o", folder + "/file.json"])
        #expect(fromFile.status == 0, "\(fromFile.error)")
        let piped = try TestRig.run(TestRig.decibar, ["peaks", "-", "-o", folder + "/pipe.json"],
                                    input: try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(piped.status == 0, "\(piped.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/pipe.json")) == Data(contentsOf: URL(fileURLWithPath: folder + "/file.json")))
        for input in [Data("not audio at all\n".utf8), Data()] {
            let bad = try TestRig.run(TestRig.decibar, ["peaks", "-", "-o", folder + "/bad.json"], input: input)
            #expect(bad.status == 1 && bad.error == "decibar: standard input: not an audio file or unsupported format\n", "\(bad.error)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/bad.json"))
        }
        // 20 minutes of stereo (460 MB as floats) through a pipe: the process's peak memory, polled.
        let script = """
            ffmpeg -v error -nostdin -f lavfi -i 'sine=frequency=440:sample_rate=48000:duration=1200' -ac 2 -compression_level 0 -f flac - \
              | "$0" peaks - -o "$1" & pid=$!
            high=0
            while kill -0 $pid 2>/dev/null; do
              now=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null); [ -n "$now" ] && [ "$now" -gt "$high" ] && high=$now
              sleep 0.05
            done
            wait $pid && echo "$high"
            """
        let hour = try TestRig.run("bash", ["-c", script, TestRig.decibar, folder + "/hour.json"])
        let highKiB = Int(String(decoding: hour.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        print("peaks: 20 minutes piped in, peak memory \(highKiB / 1024) MiB")
        // Its overview is 225 000 pairs a channel (under 4 MB): far from the audio's 460 MB.
        // (AddressSanitizer keeps 256 MiB of freed memory in quarantine on top.)
        let bound = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == "address" ? 400 : 120
        #expect(hour.status == 0 && highKiB > 0 && highKiB < bound * 1024, "\(highKiB) KiB: \(hour.error)")
        let text = try String(contentsOfFile: folder + "/hour.json", encoding: .utf8)
        #expect(text.contains(#""length":225000,"#))
    }

    @Test("bad input: missing file, unknown extension, bad bits")
    func badInput() throws {
        let missing = try TestRig.run(TestRig.decibar, ["peaks", "/nonexistent.wav", "-o", "/tmp/x.json"])
        #expect(missing.status == 1 && missing.error == "decibar: /nonexistent.wav: no such file\n")
        for arguments in [["peaks", "a.wav", "-o", "x.png"], ["peaks", "a.wav", "-o", "x.dat", "--bits", "12"],
                          ["peaks", "a.wav", "-o", "x.dat", "--samples-per-pixel", "1"]] {
            let result = try TestRig.run(TestRig.decibar, arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.split(separator: "\n").count == 1)
        }
    }
}
