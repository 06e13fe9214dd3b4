import DecibarCore
import Foundation
import Testing

@Suite("Spectrogram and scope: axis, columns, layout")
struct SpectrogramCoreTests {
    @Test("the log axis: 20 Hz at 0, 632 Hz in the middle, 20 kHz at 1, and back")
    func axis() {
        let axis = FrequencyAxis()
        #expect(abs(axis.fraction(ofHertz: 20)) < 1e-12)
        #expect(abs(axis.fraction(ofHertz: 20_000) - 1) < 1e-12)
        #expect(abs(axis.fraction(ofHertz: 2000) - 2.0 / 3) < 1e-12)
        #expect(abs(axis.hertz(atFraction: 0.5) - 20 * 1000.0.squareRoot()) < 1e-9)
    }

    @Test("a column: a full-scale sine on a bin reads about 0 dB on its row and far less two octaves away; silence is -200")
    func column() {
        let length = 512
        var analysis = SpectrogramAnalysis(sampleRate: 48000, rowCount: 64, transform: PlainDFT(length: length))
        // Bin 32 of 512 at 48 kHz: 3000 Hz.
        let sine = (0 ..< length).map { Float(sin(2 * Double.pi * 32 * Double($0) / Double(length))) }
        var column = [Float](repeating: 0, count: 64)
        sine.withUnsafeBufferPointer { samples in column.withUnsafeMutableBufferPointer { analysis.column(of: samples, into: $0) } }
        let row = Int(FrequencyAxis().fraction(ofHertz: 3000) * 64)
        // The Hann window's main lobe sums to 1: its middle bin holds 2/3 of it (-1.76 dB).
        #expect(abs(column[row] - 10 * log10(Float(2) / 3)) < 0.05, "\(column[row])")
        #expect(column.indices.max { column[$0] < column[$1] } == row)
        let farRow = Int(FrequencyAxis().fraction(ofHertz: 750) * 64)
        #expect(column[farRow] < -100)
        let silence = [Float](repeating: 0, count: length)
        silence.withUnsafeBufferPointer { samples in column.withUnsafeMutableBufferPointer { analysis.column(of: samples, into: $0) } }
        #expect(column.allSatisfy { $0 == SpectrogramAnalysis.silence })
    }

    @Test("a file's history: entries merge in pairs at the limit, and columns average power")
    func history() {
        var history = SpectrogramHistory(rowCount: 1, limit: 4)
        for power: Float in [1, 3, 5, 7, 9] { [power].withUnsafeBufferPointer { history.add($0) } }
        // 1,3,5,7 filled the limit: merged to 2, 6; then 9 waits as half of an entry of two blocks.
        #expect(history.powers == [2, 6] && history.blocksPerEntry == 2 && history.entryCount == 3)
        let columns = history.columns(count: 3)
        #expect(columns.map { ($0 * 1000).rounded() / 1000 } == [10 * log10(Float(2)), 10 * log10(Float(6)), 10 * log10(Float(9))].map { ($0 * 1000).rounded() / 1000 })
        // Fewer columns than entries: each the mean of those under it.
        #expect(abs(history.columns(count: 1)[0] - 10 * log10(Float(17) / 3)) < 1e-4)
    }

    @Test("time ticks: a round step that leaves each label room")
    func timeTicks() {
        #expect(TimeTicks.make(seconds: 64, width: 1200, labelWidth: 40).map(\.seconds) == stride(from: 0.0, through: 60, by: 5).map { $0 })
        #expect(TimeTicks.make(seconds: 600, width: 1200, labelWidth: 40).map(\.text).prefix(3) == ["0:00", "1:00", "2:00"])
        #expect(TimeTicks.make(seconds: 0.5, width: 600, labelWidth: 40).map(\.text) == ["0.0 s", "0.1 s", "0.2 s", "0.3 s", "0.4 s", "0.5 s"])
    }

    @Test("the layout: the plot takes the height, ticks at the axis's rows from 20 Hz (bottom) to 20 kHz (top)")
    func layout() {
        let layout = SpectrogramLayout(width: 1000, height: 501, textWidth: 24, textHeight: 12, legendTextWidth: 30)
        #expect(layout.plot.y == 0 && layout.plot.height == 501)
        #expect(layout.position(ofHertz: 20) == 500 && layout.position(ofHertz: 20_000) == 0)
        let ticks = layout.ticks { text in (text.count * 7, 12) }
        #expect(ticks.map(\.text) == ["20", "50", "100", "200", "500", "1k", "2k", "5k", "10k", "20k"])
        #expect(ticks.allSatisfy { $0.tick.x + $0.tick.width == layout.plot.x })
        #expect(layout.legend.x > layout.plot.x + layout.plot.width && layout.legend.x + layout.legend.width <= 1000)
        // Crowded (a short picture): labels that would overlap are left out, never the 20 Hz one.
        let short = SpectrogramLayout(width: 1000, height: 60, textWidth: 24, textHeight: 12, legendTextWidth: 30).ticks { text in (text.count * 7, 12) }
        #expect(short.first?.text == "20" && short.count < 10)
    }

    @Test("the live state makes a column per 240 samples heard, however they come in buffers, each from the newest samples")
    func steadyColumns() {
        func state(bufferFrames: Int, total: Int) -> SpectrogramState {
            var state = SpectrogramState { rate in SpectrogramAnalysis(sampleRate: rate, rowCount: 8, transform: PlainDFT(length: 16)) }
            var start = 0
            while start < total {
                let count = min(bufferFrames, total - start)
                // A ramp, so each column's block shows where it was cut.
                let samples = (0 ..< count).flatMap { frame in [Float(start + frame), Float(start + frame)] }
                state.add(AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48000, startFrame: Int64(start)))
                start += count
            }
            return state
        }
        // 48000 frames: 200 columns, whether they come 256 or 100 at a time, and the same columns.
        let a = state(bufferFrames: 256, total: 48000), b = state(bufferFrames: 100, total: 48000)
        #expect(a.made == 200 && b.made == 200)
        #expect(a.columns == b.columns && a.newest == b.newest)
        #expect(a.columns.contains { $0 > SpectrogramAnalysis.silence })
    }

    @Test("the scope: mono up the middle, opposite sides across, left alone up the left diagonal")
    func scopePoints() {
        let layout = StereoScopeLayout(width: 800, height: 400, textHeight: 12)
        let side = layout.scope.width, center = (layout.scope.x + side / 2, layout.scope.y + side / 2)
        let mono = layout.point(left: 0.5, right: 0.5, gain: 1), inverted = layout.point(left: 0.5, right: -0.5, gain: 1)
        let left = layout.point(left: 1, right: 0, gain: 1)
        #expect(mono.x == center.0 && mono.y < center.1 - side / 5)
        #expect(inverted.y == center.1 && inverted.x < center.0 - side / 5)
        #expect(left.x < center.0 && left.y < center.1 && abs((center.0 - left.x) - (center.1 - left.y)) <= 1)
        #expect(layout.point(left: 1, right: 1, gain: 1).y == layout.scope.y)
        #expect(StereoScopeLayout.x(of: -1, on: layout.correlation) == layout.correlation.x)
        #expect(StereoScopeLayout.x(of: 1, on: layout.correlation) == layout.correlation.x + layout.correlation.width - 1)
    }
}

@Suite("Radial layout")
struct RadialLayoutTests {
    @Test("bar i of n at 360°·(i + ½)/n clockwise from the top, from the inner radius out by its value")
    func bars() {
        let layout = RadialLayout(innerRadius: 0.1, gap: 0.25, rotation: 0)
        let circle = layout.circle(width: 1000, height: 600)
        #expect(circle.x == 500 && circle.y == 300 && circle.inner == 100 && abs(circle.outer - 276) < 1e-9)
        let first = layout.bar(0, of: 4, value: 1, width: 1000, height: 600)
        #expect(abs(first.angle - Double.pi / 4) < 1e-12 && first.inner == 100 && abs(first.length - 176) < 1e-9)
        #expect(abs(first.angularWidth - 0.75 * Double.pi / 2) < 1e-12)
        #expect(layout.bar(2, of: 4, value: 0, width: 1000, height: 600).length == 2)
        // The top of the circle, and a quarter turn clockwise: to the right.
        let top = layout.point(angle: 0, radius: 100, width: 1000, height: 600)
        let right = layout.point(angle: Double.pi / 2, radius: 100, width: 1000, height: 600)
        #expect(abs(top.x - 500) < 1e-9 && abs(top.y - 200) < 1e-9 && abs(right.x - 600) < 1e-9 && abs(right.y - 300) < 1e-9)
        // Turned by 90°: the first bar starts a quarter further.
        let turned = RadialLayout(innerRadius: 0.1, gap: 0.25, rotation: 90).bar(0, of: 4, value: 1, width: 1000, height: 600)
        #expect(abs(turned.angle - 3 * Double.pi / 4) < 1e-12)
        // Too short for the inner radius: it shrinks to 0.6 of the outer.
        #expect(abs(RadialLayout(innerRadius: 0.4).circle(width: 1000, height: 200).inner - 0.6 * 92) < 1e-9)
    }
}
