import Foundation
import Testing
@testable import DecibarCore

@Suite("Automatic sensitivity")
struct AutoSensitivityTests {
    @Test("the first music sets the reference at once; a level there fills the headroom, one span below is empty")
    func firstMusic() {
        var sensitivity = AutoSensitivity()
        #expect(sensitivity.referenceDB == nil)
        // Before any music, the plain window below 0 dBFS.
        #expect(abs(sensitivity.normalized(0, fullScale: 0.4) - 0.95 * 0.4) < 1e-6)
        sensitivity.advance(loudestDB: -8, levelDB: -20, dt: 1.0 / 60)
        #expect(sensitivity.referenceDB == -8)
        #expect(abs(sensitivity.normalized(-8, fullScale: 0.4) - 0.95 * 0.4) < 1e-6)
        #expect(sensitivity.normalized(-32, fullScale: 0.4) == 0)
        #expect(abs(sensitivity.normalized(-20, fullScale: 1) - 0.95 * 0.5) < 1e-6)
        // Louder than the reference may fill the bar, never more.
        #expect(abs(sensitivity.normalized(40, fullScale: 0.4) - 0.4) < 1e-6)
        #expect(sensitivity.normalized(-.infinity, fullScale: 0.4) == 0)
    }

    @Test("below the gate, and with no audio, the reference holds")
    func gate() {
        var sensitivity = AutoSensitivity()
        sensitivity.advance(loudestDB: -6, levelDB: -18, dt: 0.016)
        for _ in 0 ..< 600 {
            sensitivity.advance(loudestDB: -50, levelDB: -61, dt: 0.016)
            sensitivity.advance(loudestDB: -50, levelDB: nil, dt: 0.016)
            sensitivity.advance(loudestDB: -.infinity, levelDB: -.infinity, dt: 0.016)
        }
        #expect(sensitivity.referenceDB == -6)
    }

    @Test("it rises in 0.1 s and falls in 6 s (one-pole), the same at 30, 60 and 144 frames a second", arguments: [30.0, 60, 144])
    func times(fps: Double) throws {
        var sensitivity = AutoSensitivity()
        sensitivity.advance(loudestDB: -20, levelDB: -30, dt: 1 / fps)
        for _ in 0 ..< Int(0.1 * fps) { sensitivity.advance(loudestDB: -10, levelDB: -20, dt: 1 / fps) }
        let risen = try #require(sensitivity.referenceDB)
        // -10 - 10·e^(-1) after one time constant (the frame count rounds 14.4 down at 144 fps).
        let expectedRise = fps == 144 ? -10 - 10 * exp(-14.0 / 144 / 0.1) : -10 - 10 * exp(-1)
        #expect(abs(Double(risen) - expectedRise) < 1e-3, "\(risen)")
        for _ in 0 ..< Int(6 * fps) { sensitivity.advance(loudestDB: -40, levelDB: -50, dt: 1 / fps) }
        let fallen = try #require(sensitivity.referenceDB)
        let expectedFall = -40 + (Double(risen) + 40) * exp(-1)
        #expect(abs(Double(fallen) - expectedFall) < 1e-2, "\(fallen)")
    }

    @Test("a quiet passage after loud music is lifted: a -40 dBFS sine half-fills a bar within 5 s; hiss is never lifted past -45 dB")
    func quietAfterLoud() throws {
        var sensitivity = AutoSensitivity()
        for _ in 0 ..< 600 { sensitivity.advance(loudestDB: -1, levelDB: -12, dt: 1.0 / 60) }
        for _ in 0 ..< 300 { sensitivity.advance(loudestDB: -40, levelDB: -43, dt: 1.0 / 60) }
        // Reference after 5 s: -40 + 39·e^(-5/6) = -23.05 dB; the sine's peak sits 17 dB under it.
        let reference = try #require(sensitivity.referenceDB)
        #expect(abs(reference - (-40 + 39 * Float(exp(-5.0 / 6)))) < 0.01)
        #expect(sensitivity.normalized(-40, fullScale: 1) > 0.25)
        for _ in 0 ..< 6000 { sensitivity.advance(loudestDB: -55, levelDB: -58, dt: 1.0 / 60) }
        #expect(abs(try #require(sensitivity.referenceDB) - -45) < 0.01)
    }

    @Test("fixed sensitivity is a plain gain in dB; off is the plain mapping")
    func fixed() {
        #expect(Sensitivity.automatic.fixedGain == nil)
        #expect(Sensitivity.off.fixedGain == 1)
        #expect(abs(Sensitivity.fixed(decibels: 6).fixedGain! - 1.99526) < 1e-4)
        #expect(abs(Sensitivity.fixed(decibels: -20).fixedGain! - 0.1) < 1e-6)
    }
}
