import DecibarCore
import Testing

@Suite("RMS and peak in dBFS")
struct LevelProcessorTests {
    @Test("a full-scale sine reads RMS -3.01 dBFS and peak 0.00 dBFS")
    func fullScaleSine() {
        let reading = Signals.reading(of: Signals.sine(amplitude: 1))
        for channel in 0 ..< 2 {
            #expect(abs(reading.rmsDB[channel] - -3.01) < 0.005)
            #expect(abs(reading.peakDB[channel] - 0.00) < 0.005)
        }
        #expect(reading.frameCount == 48000)
    }

    @Test("a -6 dBFS sine (amplitude 0.5) reads RMS -9.03 and peak -6.02")
    func halfScaleSine() {
        let reading = Signals.reading(of: Signals.sine(amplitude: 0.5))
        #expect(abs(reading.rmsDB[0] - -9.03) < 0.005)
        #expect(abs(reading.peakDB[0] - -6.02) < 0.005)
        #expect(abs(reading.combinedRMSDB - -9.03) < 0.005)
        #expect(abs(reading.combinedPeakDB - -6.02) < 0.005)
    }

    @Test("a negative-only pulse reads its magnitude, not the signed maximum")
    func negativePulse() {
        var samples = [Float](repeating: 0, count: 512)
        samples[300] = -0.8 // frame 150, left channel
        let reading = Signals.reading(of: samples)
        #expect(abs(reading.peakDB[0] - -1.94) < 0.005)
        #expect(reading.peakDB[1] == -160)
    }

    @Test("silence reads the -160 dB floor, never NaN or -infinity")
    func silence() {
        let reading = Signals.reading(of: [Float](repeating: 0, count: 1024))
        #expect(reading.rmsDB == [-160, -160])
        #expect(reading.peakDB == [-160, -160])
        #expect(reading.combinedRMSDB == -160)
        var empty = LevelProcessor(channelCount: 2)
        #expect(empty.takeReading().rmsDB == [-160, -160])
    }

    @Test("NaN and infinite samples do not produce NaN levels")
    func brokenSamples() {
        let reading = Signals.reading(of: [Float.nan, 0.5, -.infinity, 0.25])
        for value in reading.rmsDB + reading.peakDB { #expect(!value.isNaN) }
    }

    @Test("channels are measured separately")
    func perChannel() {
        var samples = Signals.sine(amplitude: 0.5)
        for index in stride(from: 1, to: samples.count, by: 2) { samples[index] = 0 }
        let reading = Signals.reading(of: samples)
        #expect(abs(reading.rmsDB[0] - -9.03) < 0.005)
        #expect(reading.rmsDB[1] == -160)
        // Mean power of both channels: half of a -9.03 dB sine is -12.04 dB.
        #expect(abs(reading.combinedRMSDB - -12.04) < 0.005)
    }

    @Test("a reading covers every buffer since the previous one")
    func coversEveryBuffer() {
        var processor = LevelProcessor(channelCount: 1)
        // 1500 Hz: exactly 8 periods in 256 frames, so the loud buffer alone reads -3.01 dB.
        let loud = Signals.buffers(Signals.sine(amplitude: 1, frequency: 1500, seconds: 256.0 / 48000, channels: 1),
                                   channels: 1)
        let quiet = Signals.buffers([Float](repeating: 0, count: 256 * 3), channels: 1)
        for buffer in loud + quiet { processor.process(buffer) }
        let reading = processor.takeReading()
        #expect(reading.frameCount == 1024)
        // One loud buffer in four: RMS is 6.02 dB below the sine's -3.01.
        #expect(abs(reading.rmsDB[0] - -9.03) < 0.01)
        #expect(abs(reading.peakDB[0]) < 0.005)
        // The next reading starts afresh.
        #expect(processor.takeReading().frameCount == 0)
    }

    @Test("decibel conversions")
    func decibels() {
        #expect(Decibels.fromAmplitude(1) == 0)
        #expect(Decibels.fromAmplitude(0) == -160)
        #expect(Decibels.fromAmplitude(-1) == -160)
        #expect(Decibels.fromAmplitude(.nan) == -160)
        #expect(abs(Decibels.fromAmplitude(0.1) - -20) < 1e-5)
        #expect(abs(Decibels.fromPower(0.01) - -20) < 1e-5)
        #expect(abs(Decibels.toAmplitude(-6.0206) - 0.5) < 1e-4)
    }
}
