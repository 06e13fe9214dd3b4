import Foundation
import Testing

/// `levels --mode spectrum` on pink noise: the drawn (smoothed) band levels are flat down to the
/// lowest bands and keep the input's power; `--raw` is each line's own analysis.
@Suite("Spectrum lines on pink noise")
struct PinkNoiseSpectrumTests {
    struct Lines {
        let bandCount: Int
        /// The first channel's band levels, one row per line.
        let rows: [[Double]]

        init(_ output: Data) throws {
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            let first = try #require(lines.first)
            let header = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            let count = try #require(header["bands"] as? Int)
            bandCount = count
            rows = try lines.dropFirst().map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let levels = try #require(object["bands_db"] as? [Double])
                return Array(levels.prefix(count))
            }
        }

        func median(band: Int, skipping: Int) -> Double {
            let values = rows.dropFirst(skipping).map { $0[band] }.sorted()
            return values[values.count / 2]
        }

        /// The mean power of a band, in dB.
        func meanPower(band: Int, skipping: Int) -> Double {
            let values = rows.dropFirst(skipping).map { pow(10, $0[band] / 10) }
            return 10 * log10(values.reduce(0, +) / Double(values.count))
        }
    }

    @Test("60 lines a second: the two lowest bands' median within 1 dB of all bands', every band's mean power within 0.5 dB of the raw analysis'",
          arguments: [44100, 48000, 96000])
    func flatAndUnbiased(rate: Int) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/pink.wav"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "anoisesrc=color=pink:sample_rate=\(rate):amplitude=0.3:seed=7:duration=20", file])
        #expect(made.status == 0, "\(made.error)")
        let common = ["levels", "--file", file, "--mode", "spectrum", "--rate", "60"]
        let drawn = try TestRig.run(TestRig.decibar, common)
        let raw = try TestRig.run(TestRig.decibar, common + ["--raw"])
        #expect(drawn.status == 0 && raw.status == 0, "\(drawn.error) \(raw.error)")
        let smoothed = try Lines(drawn.output), analysis = try Lines(raw.output)
        #expect(smoothed.rows.count == 1200 && analysis.rows.count == 1200)
        // The first second settles the smoothing.
        let skip = 60
        let medians = (0 ..< smoothed.bandCount).map { smoothed.median(band: $0, skipping: skip) }
        let all = medians.sorted()[medians.count / 2]
        for band in 0 ..< 2 {
            #expect(abs(medians[band] - all) <= 1.0, "\(rate) Hz: band \(band) median \(medians[band] - all) dB from all bands'")
        }
        for band in 0 ..< smoothed.bandCount {
            let difference = smoothed.meanPower(band: band, skipping: skip) - analysis.meanPower(band: band, skipping: skip)
            #expect(abs(difference) <= 0.5, "\(rate) Hz: band \(band) mean power \(difference) dB from the analysis'")
        }
        // The raw lines are the plain analysis: the lowest band flickers as one FFT bin does, the
        // drawn one far less.
        func flicker(_ lines: Lines) -> Double {
            let steps = zip(lines.rows.dropFirst(skip), lines.rows.dropFirst(skip + 1)).map { $1[0] - $0[0] }
            let mean = steps.reduce(0, +) / Double(steps.count)
            return (steps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(steps.count)).squareRoot()
        }
        #expect(flicker(smoothed) < flicker(analysis) / 5, "\(rate) Hz: lowest band flicker \(flicker(smoothed)) vs raw \(flicker(analysis))")
    }

    @Test("--raw and --floor are for spectrum lines, and not together")
    func flags() throws {
        for arguments in [["--raw"], ["--floor", "-60"], ["--mode", "spectrum", "--raw", "--floor", "-60"],
                          ["--mode", "spectrum", "--floor", "-5"], ["--mode", "spectrum", "--floor", "nan"]] {
            let result = try TestRig.run(TestRig.decibar, ["levels", "--file", "/nonexistent.wav"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.status)")
            let oneLine = result.error.hasPrefix("decibar: --") && result.error.filter { $0 == "\n" }.count == 1
            #expect(oneLine, "\(arguments): \(result.error)")
        }
    }
}
