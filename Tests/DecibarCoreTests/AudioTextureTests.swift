import DecibarCore
import Foundation
import Testing

/// A plain DFT standing in for FFTW: the texture's arithmetic is the point here.
final class PlainDFT: PowerSpectrumTransform {
    let length: Int
    private var input: [Float]
    /// The last input and its power (before `scale`): a block given again is not transformed again.
    private var last: (input: [Float], power: [Float])?

    init(length: Int) {
        self.length = length
        input = [Float](repeating: 0, count: length)
    }

    func powerSpectrum(into power: UnsafeMutableBufferPointer<Float>, scale: Float, fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        input.withUnsafeMutableBufferPointer { fill($0) }
        if let last, last.input == input {
            for bin in 0 ..< power.count { power[bin] = last.power[bin] * scale }
            return
        }
        var unscaled = [Float](repeating: 0, count: power.count)
        defer { last = (input, unscaled) }
        for bin in 0 ..< power.count {
            var real = 0.0, imaginary = 0.0
            for (index, value) in input.enumerated() {
                let phase = 2 * Double.pi * Double(bin * index % length) / Double(length)
                real += Double(value) * cos(phase)
                imaginary -= Double(value) * sin(phase)
            }
            unscaled[bin] = Float(real * real + imaginary * imaginary)
            power[bin] = unscaled[bin] * scale
        }
    }
}

@Suite("Shadertoy's audio texture and shader wrapping")
struct AudioTextureTests {
    /// A sine on bin 43's center (43 · 48000 / 2048 = 1007.8125 Hz).
    func sine(amplitude: Double) -> [Float] {
        (0 ..< 2048).map { Float(amplitude * sin(2 * Double.pi * 43 * Double($0) / 2048)) }
    }

    @Test("silence: the spectrum row is 0 and the waveform row 128")
    func silence() {
        var texture = AudioTexture(transform: PlainDFT(length: 2048))
        texture.update(samples: [Float](repeating: 0, count: 2048))
        #expect(texture.bytes.prefix(512).allSatisfy { $0 == 0 })
        #expect(texture.bytes.suffix(512).allSatisfy { $0 == 128 })
    }

    @Test("a sine of 0.001 on bin 43: 45 after one frame (0.2 of its 0.00021), settling at 96 (-73.6 dB)")
    func smoothingAndScale() {
        var texture = AudioTexture(transform: PlainDFT(length: 2048))
        let block = sine(amplitude: 0.001)
        texture.update(samples: block)
        // |X|/N of a bin-centered sine under Blackman: amplitude · 0.42 / 2; smoothed 0.2 of it.
        #expect(texture.bytes[43] == 45)
        #expect(texture.bytes.prefix(512).indices.max { texture.bytes[$0] < texture.bytes[$1] } == 43)
        for _ in 0 ..< 200 { texture.update(samples: block) }
        #expect(texture.bytes[43] == 96)
        texture.reset()
        texture.update(samples: block)
        #expect(texture.bytes[43] == 45)
    }

    @Test("the waveform row: 128·(1 + sample) of the newest 512, rounded down and clamped")
    func waveform() {
        var texture = AudioTexture(transform: PlainDFT(length: 2048))
        var block = [Float](repeating: 0.9, count: 2048)
        block[1536] = 0.5
        block[1537] = -1
        block[1538] = 1
        block[1539] = -0.25
        block[2047] = 0.001
        texture.update(samples: block)
        #expect(Array(texture.bytes[512 ..< 516]) == [192, 0, 255, 96])
        #expect(texture.bytes[1023] == 128)
        #expect(texture.bytes[600] == 243)
    }

    @Test("a Shadertoy shader is told from Decibar's own, comments aside")
    func detection() {
        #expect(ShadertoySource.isShadertoy("void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }"))
        #expect(!ShadertoySource.isShadertoy("#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0); }"))
        #expect(!ShadertoySource.isShadertoy("void main ( ) { } // mainImage"))
        #expect(ShadertoySource.isShadertoy("/* void main() */\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(0.0); }"))
        #expect(!ShadertoySource.isShadertoy("// mainImage\nvoid main() {}"))
    }

    @Test("the wrapped shader: a #version first, the user's text right after #line 1, then main")
    func wrapping() {
        let user = "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }"
        let wrapped = ShadertoySource.wrap(user)
        #expect(wrapped.hasPrefix("#version 330 core\n"))
        #expect(wrapped.contains("#line 1\n" + user + "\nvoid main() {"))
        #expect(wrapped.contains("uniform sampler2D iChannel0;") && wrapped.contains("uniform float u_beat;"))
    }
}
