import DecibarRender
import DecibarTestSupport
import Foundation
import Testing

/// Shaders as written on shadertoy.com, drawn by `render` with the audio texture a browser's
/// Web Audio AnalyserNode would give them.
@Suite("Shadertoy shaders", .enabled(if: TestRig.canRun(needing: .display), "needs Mesa (make test has it)"))
struct ShadertoyTests {
    static let rate = 48000
    static let fps = 25

    /// Red: the spectrum row of iChannel0; green: the waveform row.
    static let rowsShader = """
        // Shows iChannel0 as it is: red the spectrum row, green the waveform row.
        void mainImage(out vec4 fragColor, in vec2 fragCoord) {
            float x = fragCoord.x / iResolution.x;
            fragColor = vec4(texture(iChannel0, vec2(x, 0.25)).r, texture(iChannel0, vec2(x, 0.75)).r, 0.0, 1.0);
        }
        """

    /// Music-like stereo, 16-bit: a chord whose notes come and go, a kick every half second, and
    /// a hi-hat of noise; left and right differ, so the mix to mono counts.
    static func music(seconds: Double) -> (left: [Int16], right: [Int16]) {
        var random = SeededGenerator(seed: 3)
        let count = Int(seconds * Double(rate))
        var left = [Int16](repeating: 0, count: count), right = left
        for index in 0 ..< count {
            let t = Double(index) / Double(rate)
            let swell = 0.5 + 0.5 * sin(2 * Double.pi * 0.7 * t)
            let chord = 0.2 * sin(2 * Double.pi * 220 * t) + 0.12 * swell * sin(2 * Double.pi * 1000 * t)
                + 0.06 * sin(2 * Double.pi * 3300 * t)
            let sinceKick = t.truncatingRemainder(dividingBy: 0.5)
            let kick = 0.5 * exp(-sinceKick * 18) * sin(2 * Double.pi * (60 + 90 * exp(-sinceKick * 30)) * sinceKick)
            let hat = 0.05 * exp(-(t + 0.25).truncatingRemainder(dividingBy: 0.5) * 60) * Double.random(in: -1 ... 1, using: &random)
            left[index] = Int16(max(-32767, min(32767, (chord + kick + hat) * 32767)))
            right[index] = Int16(max(-32767, min(32767, (0.6 * chord + kick - hat) * 32767)))
        }
        return (left, right)
    }

    static func wav(left: [Int16], right: [Int16]) -> Data {
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        var samples = Data(capacity: left.count * 4)
        for (l, r) in zip(left, right) { samples += le(l) + le(r) }
        var data = Data("RIFF".utf8) + le(UInt32(36 + samples.count)) + Data("WAVEfmt ".utf8) + le(UInt32(16))
        data += le(UInt16(1)) + le(UInt16(2)) + le(UInt32(rate)) + le(UInt32(rate * 4)) + le(UInt16(4)) + le(UInt16(16))
        return data + Data("data".utf8) + le(UInt32(samples.count)) + samples
    }

    /// The bytes a browser's AnalyserNode gives, computed here from its specification with a plain
    /// DFT in double precision: for each frame, the spectrum row (first 512 bins) and the waveform row.
    struct Analyser {
        var smoothed = [Double](repeating: 0, count: 512)
        let window = (0 ..< 2048).map { 0.42 - 0.5 * cos(2 * Double.pi * Double($0) / 2048) + 0.08 * cos(4 * Double.pi * Double($0) / 2048) }
        let cosines = (0 ..< 2048).map { cos(2 * Double.pi * Double($0) / 2048) }
        let sines = (0 ..< 2048).map { sin(2 * Double.pi * Double($0) / 2048) }

        mutating func frame(_ block: [Double]) -> (spectrum: [Int], wave: [Int]) {
            let windowed = zip(block, window).map { $0 * $1 }
            var spectrum: [Int] = []
            for bin in 0 ..< 512 {
                var real = 0.0, imaginary = 0.0
                for (index, value) in windowed.enumerated() {
                    let phase = (bin * index) & 2047
                    real += value * cosines[phase]
                    imaginary -= value * sines[phase]
                }
                let magnitude = (real * real + imaginary * imaginary).squareRoot() / 2048
                smoothed[bin] = 0.8 * smoothed[bin] + 0.2 * magnitude
                let scaled = 255 * (20 * log10(smoothed[bin]) + 100) / 70
                spectrum.append(scaled.isFinite ? Int(max(0, min(255, scaled.rounded(.down)))) : 0)
            }
            let wave = block.suffix(512).map { Int(max(0, min(255, (128 * (1 + $0)).rounded(.down)))) }
            return (spectrum, wave)
        }
    }

    @Test("iChannel0 is Web Audio's: at frame k, row 0 is the AnalyserNode's bytes (smoothed over frames 0...k) and row 1 the newest 512 samples, each within 2")
    func audioTextureMatchesAnalyser() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seconds = 1.2
        let (left, right) = Self.music(seconds: seconds)
        try Self.wav(left: left, right: right).write(to: URL(fileURLWithPath: folder + "/music.wav"))
        try Self.rowsShader.write(toFile: folder + "/rows.glsl", atomically: true, encoding: .utf8)
        let result = try TestRig.run(TestRig.decibar, ["render", folder + "/music.wav", "--shader", folder + "/rows.glsl",
                                                       "--size", "512x512", "--fps", String(Self.fps), "-o", folder + "/frames/"])
        #expect(result.status == 0, "\(result.error)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").filter { $0.hasSuffix(".png") }.sorted()
        #expect(frames.count == Int(seconds * Double(Self.fps)))
        let mono = zip(left, right).map { 0.5 * (Double($0) / 32768 + Double($1) / 32768) }
        var analyser = Analyser()
        var worst = (spectrum: 0, wave: 0)
        for (k, name) in frames.enumerated() {
            // What is heard by k/fps: every 256-frame buffer that has begun (render's feed).
            let heardEnd = min(mono.count, (k * Self.rate / Self.fps / 256 + 1) * 256)
            let block = (0 ..< 2048).map { heardEnd - 2048 + $0 }.map { $0 >= 0 ? mono[$0] : 0 }
            let expected = analyser.frame(block)
            let image = try PNGImage.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/frames/" + name))))
            #expect(image.width == 512)
            // The top row of the picture (the scrubber is below it).
            let red = (0 ..< 512).map { Int(image.pixels[$0 * 4]) }, green = (0 ..< 512).map { Int(image.pixels[$0 * 4 + 1]) }
            let spectrumError = zip(red, expected.spectrum).map { abs($0 - $1) }.max() ?? 0
            let waveError = zip(green, expected.wave).map { abs($0 - $1) }.max() ?? 0
            worst = (max(worst.spectrum, spectrumError), max(worst.wave, waveError))
        }
        #expect(worst.spectrum <= 2 && worst.wave <= 2, "largest differences: spectrum \(worst.spectrum), waveform \(worst.wave)")
        // A 1 kHz tone alone peaks in bin 43 (1000 / 23.44 Hz) of the texture's spectrum row. At -40 dBFS,
        // so that its bins stay under -30 dB, where the bytes clip at 255.
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.01, frequency: 1000, seconds: 1)
        let tone = try TestRig.run(TestRig.decibar, ["render", folder + "/tone.wav", "--shader", folder + "/rows.glsl",
                                                     "--size", "512x512", "--fps", "10", "-o", folder + "/tone/"])
        #expect(tone.status == 0, "\(tone.error)")
        let image = try PNGImage.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/tone/frame-000006.png"))))
        let red = (0 ..< 512).map { Int(image.pixels[$0 * 4]) }
        let peak = red.indices.max { red[$0] < red[$1] } ?? -1
        #expect(peak == 43 && red[43] < 255 && red[43] > red[42] && red[43] > red[44], "the tone peaks in bin \(peak): \(red[40 ... 46])")
    }

    @Test("a Shadertoy shader that does not compile: the compiler's message with the file's own line, and render fails")
    func compileError() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.5, seconds: 1)
        try "// line 1\n\nvoid mainImage(out vec4 fragColor, in vec2 fragCoord) {\n    fragColor = vec4(notDeclared);\n}\n"
            .write(toFile: folder + "/broken.glsl", atomically: true, encoding: .utf8)
        let result = try TestRig.run(TestRig.decibar, ["render", folder + "/tone.wav", "--shader", folder + "/broken.glsl",
                                                       "--size", "320x240", "-o", folder + "/frames/"])
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("broken.glsl") == true && lines.first?.contains("0:4(") == true, "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/frames"))
    }
}
