import DecibarCore
import Testing

@Suite("Outputs: URLs, WLED audio sync, DDP frames, the light strip")
struct OutputCoreTests {
    @Test("each kind of URL reads with its defaults, port, host, offset, pixels, prefix and token")
    func urls() throws {
        let wled = try OutputTarget(url: "wled://")
        #expect(wled.kind == .wled && wled.host == nil && wled.port == 11988 && wled.offset == 0)
        let unicast = try OutputTarget(url: "wled://192.168.1.40:12000?offset=-30")
        #expect(unicast.host == "192.168.1.40" && unicast.port == 12000 && unicast.offset == -0.03)
        let ddp = try OutputTarget(url: "ddp://192.168.1.40?pixels=60")
        #expect(ddp.kind == .ddp && ddp.port == 4048 && ddp.pixels == 60)
        let osc = try OutputTarget(url: "osc://127.0.0.1:9000")
        #expect(osc.kind == .osc && osc.port == 9000 && osc.prefix == "/decibar")
        let lights = try OutputTarget(url: "OSC://localhost:9000?prefix=/lights/left&offset=120")
        #expect(lights.prefix == "/lights/left" && lights.offset == 0.12 && lights.host == "localhost")
        let page = try OutputTarget(url: "http://127.0.0.1:8642/")
        #expect(page.kind == .http && page.port == 8642 && page.isLoopback && page.token == nil)
        let v6 = try OutputTarget(url: "http://[::1]:8642")
        #expect(v6.host == "::1" && v6.isLoopback)
        let shared = try OutputTarget(url: "http://0.0.0.0:8642?token=s3cret-token")
        #expect(!shared.isLoopback && shared.token == "s3cret-token")
        #expect(shared.description == "http://0.0.0.0:8642?token=s3cret-token")
    }

    @Test("a bad URL is one sentence that quotes it and says what is wrong",
          arguments: [
              ("foo://x", "foo://x: unknown kind of output \"foo\""),
              ("192.168.1.40", "192.168.1.40: an output is wled://"),
              ("ddp://1.2.3.4", "ddp://1.2.3.4: DDP needs the strip's length: ddp://HOST?pixels=N"),
              ("ddp://1.2.3.4?pixels=0", "pixels must be 1 to 16384"),
              ("osc://127.0.0.1", "OSC needs a port: osc://HOST:PORT"),
              ("osc://127.0.0.1:70000", "the port must be 1 to 65535"),
              ("osc://127.0.0.1:9000?prefix=lights", "prefix must be an OSC address"),
              ("wled://?offset=5000", "offset must be -1000 to 1000 ms"),
              ("wled://?pixels=3", "wled:// takes no \"pixels\" (it takes offset)"),
              ("http://127.0.0.1", "the web page needs a port"),
              ("http://127.0.0.1:8642/page", "no path, user or spaces"),
              ("http://h:1?token=short", "token must be at least 8"),
              ("ddp://?pixels=3", "it needs a host"),
              ("osc://::1:9000", "write an IPv6 address in brackets"),
          ])
    func badURLs(url: String, message: String) {
        #expect(throws: ConfigFailure.self) { try OutputTarget(url: url) }
        do {
            _ = try OutputTarget(url: url)
        } catch {
            #expect(error.message.hasPrefix(url + ": "), "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("outputs.send takes a list, one URL or URLs between commas, and names the bad one")
    func setting() throws {
        let key = ConfigSchema.outputs.send.key
        #expect(key.optionName == "--send" && key.path == "outputs.send")
        #expect(try key.check(.string("wled://, osc://127.0.0.1:9000")) == .array([.string("wled://"), .string("osc://127.0.0.1:9000")]))
        #expect(try key.check(.string(#"["ddp://h?pixels=3"]"#)) == .array([.string("ddp://h?pixels=3")]))
        #expect(throws: ConfigFailure("outputs.send: osc://h: OSC needs a port: osc://HOST:PORT")) { try key.check(.string("osc://h")) }
    }

    @Test("a WLED V2 packet: 44 bytes, the header, little-endian floats at 8, 12, 36 and 40, peak, counter and channels")
    func audioSyncPacket() {
        var packet = AudioSyncPacket()
        packet.sampleRaw = 128
        packet.sampleSmooth = 2
        packet.isPeak = true
        packet.counter = 7
        packet.channels = (0 ..< 16).map { UInt8($0 * 16) }
        packet.magnitude = 1
        packet.majorPeak = 1000
        var bytes: [UInt8] = []
        packet.encode(into: &bytes)
        #expect(bytes.count == 44)
        #expect(Array(bytes[0 ..< 8]) == [0x30, 0x30, 0x30, 0x30, 0x32, 0, 0, 0])
        #expect(Array(bytes[8 ..< 12]) == [0, 0, 0, 0x43])      // 128.0
        #expect(Array(bytes[12 ..< 16]) == [0, 0, 0, 0x40])     // 2.0
        #expect(bytes[16] == 1 && bytes[17] == 7)
        #expect(Array(bytes[18 ..< 34]) == (0 ..< 16).map { UInt8($0 * 16) })
        #expect(Array(bytes[34 ..< 36]) == [0, 0])
        #expect(Array(bytes[36 ..< 40]) == [0, 0, 0x80, 0x3F])  // 1.0
        #expect(Array(bytes[40 ..< 44]) == [0, 0, 0x7A, 0x44])  // 1000.0
    }

    @Test("audio sync: a -6 dBFS 1 kHz tone fills channel 7 (254) and nothing else above 11, its peak at 1000 Hz; silence zeros everything")
    func audioSyncScaling() {
        var sync = AudioSync()
        var channels = [Float](repeating: -60, count: 16)
        channels[7] = -6
        for _ in 0 ..< 50 { sync.advance(peakDB: -6, channelDB: channels, strongest: (1000, -6), beat: false, dt: 0.02) }
        var packet = sync.packet
        #expect(packet.channels[7] == 254)
        // 54 dB below the top: 254 × 10^(-54/40) = 11.3.
        #expect(packet.channels.enumerated().allSatisfy { $0.offset == 7 || $0.element <= 11 }, "\(packet.channels)")
        #expect(packet.majorPeak == 1000 && packet.magnitude == 4000)
        // The level at the reference: WLED's gain target, 0.86 of 255.
        #expect(packet.sampleRaw == 219)
        #expect(packet.sampleSmooth > 200 && packet.sampleSmooth <= 219)
        #expect(!packet.isPeak)
        sync.advance(peakDB: -6, channelDB: channels, strongest: (1000, -6), beat: true, dt: 0.02)
        #expect(sync.packet.isPeak)
        // A beat told in the quiet packet just after its click is still a beat.
        sync.advance(peakDB: -.infinity, channelDB: channels, strongest: nil, beat: true, dt: 0.004)
        #expect(sync.packet.isPeak)
        let counter = sync.packet.counter
        for _ in 0 ..< 150 { sync.advance(peakDB: -.infinity, channelDB: [Float](repeating: -160, count: 16), strongest: nil, beat: true, dt: 0.02) }
        packet = sync.packet
        #expect(packet.channels == [UInt8](repeating: 0, count: 16))
        #expect(packet.sampleRaw == 0 && packet.sampleSmooth == 0 && packet.magnitude == 0 && packet.majorPeak == 0 && !packet.isPeak)
        #expect(packet.counter == counter &+ 150)
    }

    @Test("audio sync moves alike at 20 and 50 packets a second: channels after 0.1 s of a tone within 2 of each other")
    func audioSyncRateIndependent() {
        func channel(after seconds: Double, every dt: Double) -> Int {
            var sync = AudioSync()
            var channels = [Float](repeating: -160, count: 16)
            sync.advance(peakDB: -20, channelDB: channels, strongest: nil, beat: false, dt: dt)
            channels[3] = -20
            for _ in 0 ..< Int((seconds / dt).rounded()) { sync.advance(peakDB: -20, channelDB: channels, strongest: nil, beat: false, dt: dt) }
            return Int(sync.packet.channels[3])
        }
        #expect(abs(channel(after: 0.1, every: 0.02) - channel(after: 0.1, every: 0.05)) <= 2)
    }

    @Test("audio sync: packets no audio reached (a late delivery) carry the tone for 0.1 s, then read silence")
    func audioSyncGap() {
        var sync = AudioSync()
        var channels = [Float](repeating: -60, count: 16)
        channels[7] = -6
        for _ in 0 ..< 50 { sync.advance(peakDB: -6, channelDB: channels, strongest: (1000, -6), beat: false, dt: 0.02) }
        let raw = sync.packet.sampleRaw
        for _ in 0 ..< 4 {
            sync.advance(peakDB: nil, channelDB: channels, strongest: (1000, -6), beat: false, dt: 0.02)
            #expect(sync.packet.majorPeak == 1000 && sync.packet.sampleRaw == raw)
        }
        sync.advance(peakDB: nil, channelDB: channels, strongest: (1000, -6), beat: false, dt: 0.04)
        #expect(sync.packet.majorPeak == 0 && sync.packet.sampleRaw == 0)
        // Audio again: heard at once.
        sync.advance(peakDB: -6, channelDB: channels, strongest: (1000, -6), beat: false, dt: 0.02)
        #expect(sync.packet.majorPeak == 1000 && sync.packet.sampleRaw == raw)
    }

    @Test("DDP: 500 pixels in two packets of 480 and 20 pixels, offsets and lengths in bytes, push on the last; sequence 1 to 15")
    func ddpPackets() {
        var packets = DDPPacketizer(pixelCount: 500)
        let rgb = (0 ..< 1500).map { UInt8($0 % 251) }
        packets.frame(rgb)
        #expect(packets.packets.count == 2)
        let first = packets.packets[0], second = packets.packets[1]
        #expect(first.count == 1450 && second.count == 70)
        #expect(Array(first[0 ..< 10]) == [0x40, 1, 0x0B, 1, 0, 0, 0, 0, 0x05, 0xA0])
        #expect(Array(second[0 ..< 10]) == [0x41, 1, 0x0B, 1, 0, 0, 0x05, 0xA0, 0, 60])
        #expect(Array(first[10...]) == Array(rgb[0 ..< 1440]))
        #expect(Array(second[10...]) == Array(rgb[1440...]))
        for _ in 0 ..< 14 { packets.frame(rgb) }
        #expect(packets.packets[0][1] == 15)
        packets.frame(rgb)
        #expect(packets.packets[0][1] == 1 && packets.packets[1][1] == 1)
    }

    @Test("the strip: each pixel shows the bar under it, the tip's color of its height, as bright as it is tall; silence is dark")
    func lightStrip() {
        let theme = BarTheme(background: Color(hex: 0), center: Color(red: 1, green: 0, blue: 0), tip: Color(red: 0, green: 0, blue: 1))
        var strip = LightStrip(pixelCount: 6)
        strip.paint([0, 0.5, 1], theme: theme)
        #expect(strip.bytes == [0, 0, 0, 0, 0, 0, 64, 0, 64, 64, 0, 64, 0, 0, 255, 0, 0, 255])
        strip.paint([0, 0, 0], theme: theme)
        #expect(strip.isDark)
    }

    @Test("WLED's channel edges become bins at 48 kHz (2048-point FFT); the strongest frequency lies between bins")
    func channelBands() {
        let bands = SpectrumBands(sampleRate: 48_000, edges: AudioSyncPacket.channelEdges, fftLength: 2048)
        #expect(bands.count == 16)
        // 23.4375 Hz a bin: 43 Hz → bin 2, 86 Hz → bin 4, 129 Hz → bin 6.
        #expect(bands.bins[0] == 2 ..< 4 && bands.bins[1] == 4 ..< 6)
        #expect(bands.band(containing: 1000) == 7)
        var power = [Float](repeating: 0, count: 1025)
        power[42] = 1
        power[41] = 0.25
        power[43] = 0.25
        let peak = power.withUnsafeBufferPointer { bands.strongest(in: $0, upTo: 11_025) }
        #expect(abs(peak.hertz - 42 * bands.binWidth) < 1e-9)
        #expect(abs(peak.decibels - 1.761) < 0.01)  // 10·log10(1.5)
        power[43] = 1
        let between = power.withUnsafeBufferPointer { bands.strongest(in: $0, upTo: 11_025) }
        #expect(abs(between.hertz - 42.5 * bands.binWidth) < 1e-6)
    }
}
