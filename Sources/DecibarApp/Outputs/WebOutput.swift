import DecibarCore

/// The web page: each tick, the bars as the window would draw them on each page's canvas (the
/// same layout, heights and colors), and a `/levels` line.
final class WebOutput: Output {
    let target: OutputTarget
    let needs: OutputNeeds = []
    let server: WebPageServer
    private let layout: BarLayout
    private let background: String
    private var rects: [PixelRect] = []
    private let start: Double

    /// nil when the page cannot be served (said in one line).
    init?(target: OutputTarget, display: DisplaySettings, notice: @escaping @Sendable (String) -> Void) {
        var target = target
        // Beyond loopback a token is needed: one is made when none was given (the URL says it).
        if !target.isLoopback && target.token == nil { target.token = Self.makeToken() }
        guard let server = WebPageServer.start(target, notice: notice) else { return nil }
        self.target = target
        self.server = server
        layout = display.barLayout
        // Where the window shows its background, the page is transparent unless it is opaque.
        background = display.background == .opaque ? Self.hex(display.barTheme.background) : "transparent"
        start = MonotonicClock.now()
        notice("the page is at \(server.pageURL)")
    }

    deinit { server.close() }

    func send(_ lane: OutputLane, now: Double) {
        guard server.clientCount > 0 else { return }
        let values = lane.state.barValues
        let theme = lane.theme
        let frames = server.pageSizes.map { size -> (size: PixelSize, text: String) in
            layout.rects(for: values, width: size.width, height: size.height, into: &rects)
            let axis = layout.growthAxis(canvasHeight: size.height)
            var text = "{\"bg\":\"\(background)\",\"center\":\"\(Self.hex(theme.center))\",\"tip\":\"\(Self.hex(theme.tip))\","
            text += "\"axis\":[\(Int(axis.baseline.rounded())),\(Int(axis.reach.rounded()))],\"w\":\(size.width),\"h\":\(size.height),\"bars\":["
            text += rects.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: ",")
            text += "]}"
            return (size, text)
        }
        let line = LevelLine.json(time: now - start, reading: lane.reading) + "\n"
        server.broadcast(frames: frames, line: line)
    }

    var statusLine: @Sendable () -> String {
        let (target, server) = (target, server)
        return { "\(target.url): the page at \(server.pageURL), \(server.clientCount) client(s), \(server.sentFrames.load(ordering: .relaxed)) frames sent, \(server.droppedFrames.load(ordering: .relaxed)) dropped" }
    }

    /// 22 random letters and digits (about 131 bits).
    static func makeToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0 ..< 22).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    static func hex(_ color: Color) -> String {
        func byte(_ value: Float) -> String {
            let byte = Int((Swift.min(1, Swift.max(0, value)) * 255).rounded())
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue)
    }
}
