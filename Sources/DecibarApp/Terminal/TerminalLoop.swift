import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The terminal's frame loop: reads keys, mouse reports and the terminal's answers, follows its
/// size (SIGWINCH), moves the picture on by the measured `dt`, and hands the changed cells (and,
/// with kitty's graphics or sixel, the image) to the writer at the frame rate. At rest (nothing
/// moves) it writes nothing and sleeps until input, a signal or sound.
struct TerminalLoop {
    let device: TerminalDevice
    let source: TerminalView.Source
    var display: DisplaySettings
    var configuration: Configuration
    /// The player on the session bus (playerctl, media keys), as play's window is.
    var media: MediaBridge?
    private var keys: KeyBindings
    private var pictures: TextPictures
    /// The mode shown, drawn in characters or by the renderer.
    private var mode: VisualMode
    private var rendered: RenderedPicture?
    private var sixel: SixelEncoder?
    private var graphics = TerminalGraphics.text
    private var parser = TerminalInputParser()
    private var abilities = TerminalAbilities()
    private var painter = CellPainter(colorDepth: .palette16)
    private var grid = CellGrid(width: 0, height: 0)
    private var output: [UInt8] = []
    private var overlay = StatusOverlay()
    private var notice: (text: String, until: Double)?
    private var quits = false

    init(device: TerminalDevice, source: TerminalView.Source, display: DisplaySettings, configuration: Configuration) {
        self.device = device
        self.source = source
        self.display = display
        self.configuration = configuration
        keys = KeyBindings(configuration.keys)
        pictures = TextPictures(display: display)
        mode = display.mode
    }

    static let beginFrame = Array("\u{1B}[?2026h".utf8)
    static let endFrame = Array("\u{1B}[?2026l".utf8)
    static let restTimeout = TerminalView.restTimeout
    /// kitty scales the image to the cells: it is drawn at most this wide (the bytes a frame are the limit).
    static let kittyWidth = 480
    /// A sixel image is shown at its own size: drawn at most this wide.
    static let sixelWidth = 1280

    /// Pictures of real pixels (kitty, sixel): every mode through the renderer.
    private var drawsPixels: Bool { graphics == .kitty || graphics == .sixel }
    private var usesRenderer: Bool { drawsPixels || !TextPictures.draws(mode) }

    /// Runs until q, Ctrl+C, the end of the list (player) or a signal; the signal that ended it, if one did.
    mutating func run() throws -> Int32? {
        let probed = TerminalAbilities.probe(device, parser: &parser, environment: ProcessInfo.processInfo.environment)
        abilities = probed.abilities
        painter.colorDepth = abilities.colorDepth
        graphics = abilities.graphics(display[ConfigSchema.display.graphics])
        if graphics == .sixel {
            do { sixel = try SixelEncoder() } catch { throw CommandFailure(message: error.description) }
        }
        let writer = TerminalFrameWriter(output: device.output)
        defer { writer.stop() }
        let fps = display.fps ?? (drawsPixels ? 30 : 60)
        let period = 1 / fps
        var pending = probed.typed
        var size = device.size
        var resized = true
        var lastFrame = MonotonicClock.now()
        var nextFrame = lastFrame
        var resting = false
        var number = 0
        if case .player(let player) = source { player.session.open(from: 0) }
        while !quits {
            let waitUntil = resting ? MonotonicClock.now() + Self.restTimeout : nextFrame
            guard let bytes = device.read(timeout: max(0, waitUntil - MonotonicClock.now())) else { return SIGHUP }
            pending += parser.feed(bytes)
            if bytes.isEmpty && parser.isWaiting { pending += parser.flush() }
            if let signal = TerminalSignals.endingSignal { return signal }
            if TerminalSignals.takeResize() { resized = true }
            let now = MonotonicClock.now()
            if !pending.isEmpty {
                handle(pending, now: now)
                pending.removeAll(keepingCapacity: true)
                resting = false
            }
            if writer.hasFailed { return SIGHUP }
            if now < nextFrame && !resized && !resting { continue }
            // A frame: its time measured, never assumed.
            let dt = number == 0 ? 0 : now - lastFrame
            lastFrame = now
            nextFrame = max(nextFrame + period, now + period / 2)
            number += 1
            if resized {
                size = device.size
                if abilities.pixelWidth == 0 || size.pixelWidth > 0 { (abilities.pixelWidth, abilities.pixelHeight) = (size.pixelWidth, size.pixelHeight) }
                grid.fill(.blank, width: size.columns, height: size.rows)
                painter.invalidate()
                output.append(contentsOf: Self.clearScreen)
                resized = false
            }
            var pictureRows = size.rows
            var playerMoves = false
            switch source {
            case .live(let tap, let feed, _, let avOffset):
                feed.delay = tap.sinkLatency + avOffset
                overlay.update(tap.status, at: now)
            case .player(let player):
                for request in media?.takeRequests() ?? [] {
                    switch request {
                    case .raise: break
                    case .quit: return nil
                    case .open(let path):
                        player.session.append([path])
                        player.session.open(from: player.session.files.count - 1)
                    default: player.session.handle(request)
                    }
                }
                player.tick(now: now)
                media?.publish(player.session)
                if player.session.isOver { return nil }
                pictureRows = player.layout(columns: size.columns, rows: size.rows)
                playerMoves = player.isMoving
            }
            // Beats are looked for only when the picture shows them (the accent, a renderer's picture that follows them).
            let wantsBeats = display.beatAccent || (usesRenderer && rendered?.visualizer.usesBeats != false)
            switch source {
            case .live(_, _, let pump, _): if pump.findsBeats != wantsBeats { pump.findsBeats = wantsBeats }
            case .player(let player): if player.session.findsBeats != wantsBeats { player.session.findsBeats = wantsBeats }
            }
            let pictureArea = PixelRect(x: 0, y: 0, width: size.columns, height: pictureRows)
            let atRestPicture: Bool
            if usesRenderer {
                do {
                    try prepareRenderer(area: pictureArea)
                } catch {
                    // The renderer cannot start here: back to the bars, said in one line.
                    say(error.message, now: now)
                    mode = VisualMode(registered: "bars")
                    pictures.show(mode)
                    graphics = .text
                    continue
                }
                rendered?.frame(feed: source.feed, dt: dt, now: now, fps: fps)
                atRestPicture = rendered?.visualizer.isAtRest ?? true
            } else {
                let reading = pictures.release(source.feed, heardBy: now)
                pictures.update(reading: reading, feed: source.feed, dt: dt, now: now, columns: size.columns)
                atRestPicture = pictures.isAtRest
            }
            let message = notice.flatMap { $0.until > now ? StatusOverlay.Message(text: $0.text, opacity: 1, isProminent: false) : nil }
                ?? overlay.message(at: now).flatMap { $0.opacity > 0.3 ? $0 : nil }
            // At rest: no redraw, and sleep until input or sound (the pump wakes the loop).
            let atRest = atRestPicture && !playerMoves && message == nil && output.isEmpty
            if case .live(_, _, let pump, _) = source { pump.isResting = atRest }
            resting = atRest && number > 1
            // The terminal is still taking the last frame: this one is dropped, not queued.
            guard writer.isIdle else { continue }
            grid.fill(.blank)
            if !usesRenderer {
                pictures.draw(in: pictureArea, into: &grid)
            } else if !drawsPixels {
                rendered?.drawHalfBlocks(in: pictureArea, into: &grid)
            }
            if case .player(let player) = source { player.draw(theme: pictures.theme, into: &grid) }
            if let message { Self.write(message, columns: size.columns, rows: pictureRows, into: &grid) }
            let start = output.count
            if abilities.synchronizedOutput { output.append(contentsOf: Self.beginFrame) }
            var changed = painter.paint(grid, into: &output)
            if drawsPixels, let rendered, !(atRestPicture && number > 2) {
                appendImage(rendered, area: pictureArea)
                changed = true
            }
            if abilities.synchronizedOutput { output.append(contentsOf: Self.endFrame) }
            if !changed && start == 0 {
                output.removeAll(keepingCapacity: true)
                continue
            }
            _ = writer.offer(&output)
        }
        return nil
    }

    static let clearScreen = Array("\u{1B}[0m\u{1B}[2J".utf8)

    /// The renderer at the size the picture takes: the cells' pixels (kitty: fewer, scaled up by
    /// the terminal), or two pixels a cell for half blocks.
    private mutating func prepareRenderer(area: PixelRect) throws(CommandFailure) {
        let (width, height) = pixelSize(for: area)
        if let rendered, rendered.width == width, rendered.height == height {
            if rendered.visualizer.mode != mode {
                do { try rendered.visualizer.show(mode) } catch { throw CommandFailure(message: error.description) }
            }
            return
        }
        rendered = nil
        rendered = try RenderedPicture(display: display, width: width, height: height, mode: mode)
        painter.invalidate()
    }

    private func pixelSize(for area: PixelRect) -> (width: Int, height: Int) {
        guard drawsPixels else { return (area.width, area.height * 2) }
        // The cells' pixels, from the terminal's text area (a common 10x20 where it does not say).
        let cellWidth = abilities.pixelWidth > 0 ? max(1, abilities.pixelWidth / max(1, grid.width)) : 10
        let cellHeight = abilities.pixelHeight > 0 ? max(1, abilities.pixelHeight / max(1, grid.height)) : 20
        // A sixel image reaching the last row would scroll the screen: it stops a row short.
        let rows = graphics == .sixel && area.y + area.height >= grid.height ? max(1, area.height - 1) : area.height
        var (width, height) = (area.width * cellWidth, rows * cellHeight)
        let limit = graphics == .kitty ? Self.kittyWidth : Self.sixelWidth
        if width > limit {
            height = height * limit / width
            width = limit
        }
        return (max(2, width), max(2, height))
    }

    /// The picture as an image at the top left of its area.
    private mutating func appendImage(_ rendered: RenderedPicture, area: PixelRect) {
        let pixels = rendered.readPixels()
        switch graphics {
        case .kitty:
            CellPainter.appendMove(x: area.x, y: area.y, to: &output)
            KittyImage.append(pixels, width: rendered.width, height: rendered.height, columns: area.width, rows: area.height, to: &output)
        case .sixel:
            guard let sixel else { break }
            // Bands of whole cell rows, each a sixel image with a palette of its own: a terminal
            // keeps each image's colour registers apart, so the picture shows up to 8 × 256
            // colours. (One image when it was scaled down and its rows are not whole cells.)
            let rows = area.y + area.height >= grid.height ? max(1, area.height - 1) : area.height
            let cellHeight = rendered.height / rows
            let bands = cellHeight * rows == rendered.height ? min(Self.sixelBands, rows) : 1
            let rowsPerBand = bands == 1 ? rows : (rows + bands - 1) / bands
            var row = 0
            while row < rows {
                let count = min(rowsPerBand, rows - row)
                CellPainter.appendMove(x: area.x, y: area.y + row, to: &output)
                let pixelRows = bands == 1 ? 0 ..< rendered.height : row * cellHeight ..< (row + count) * cellHeight
                _ = sixel.encode(pixels, width: rendered.width, height: rendered.height, rows: pixelRows, into: &output)
                row += count
            }
        default: break
        }
    }

    static let sixelBands = 8

    /// A waiting message in the middle of the picture; a device's name or a key's change in the top row.
    private static func write(_ message: StatusOverlay.Message, columns: Int, rows: Int, into grid: inout CellGrid) {
        let text = message.text.count > columns - 2 ? String(message.text.prefix(max(0, columns - 3))) + "…" : message.text
        let width = text.unicodeScalars.count + 2
        let x = message.isProminent ? max(0, (columns - width) / 2) : 0
        let y = message.isProminent ? rows / 2 : 0
        grid.fill(x: x, y: y, width: width, height: 1, with: .blank)
        grid.write(text, x: x + 1, y: y, foreground: 0xE8ECF4)
    }

    /// Keys run their commands from the key table (Ctrl+C quits, as in any terminal program);
    /// mouse reports go to the player's scrubber.
    private mutating func handle(_ inputs: [TerminalInput], now: Double) {
        let player: TerminalPlayer? = if case .player(let player) = source { player } else { nil }
        for input in inputs {
            switch input {
            case .key(let chord):
                if chord == KeyChord("c", .ctrl) {
                    quits = true
                    continue
                }
                guard let command = keys.command(for: chord, in: KeyBindings.contexts(mode: mode, player: player != nil)) else { continue }
                do {
                    try perform(command, player: player)
                } catch {
                    say(error.message, now: now)
                }
            case .mouse(let mouse): player?.handle(mouse, now: now)
            default: break
            }
        }
    }

    private mutating func perform(_ command: ControlCommand, player: TerminalPlayer?) throws(ControlFailure) {
        switch command {
        case .close, .quit: quits = true
        case .mode(let request):
            let all = VisualMode.allCases
            let current = all.firstIndex(of: mode) ?? 0
            switch request {
            case .next: show(all[(current + 1) % all.count])
            case .previous: show(all[(current + all.count - 1) % all.count])
            case .named(let name):
                guard let named = VisualMode(rawValue: name) else {
                    throw ControlFailure(.invalidParameter, "mode: no mode \(name.quotedForMessage); the modes are \(all.map(\.rawValue).joined(separator: ", "))")
                }
                show(named)
            }
        case .set(let name, let value): try set(try Self.key(named: name), to: value, player: player)
        case .cycle(let name):
            let key = try Self.key(named: name)
            let current: JSONValue = key == ConfigSchema.display.mode.key ? .string(mode.rawValue)
                : (usesRenderer ? rendered?.visualizer.currentValue(of: key) : nil) ?? configuration[key] ?? .null
            let next: JSONValue
            do { next = try key.cycled(from: current) } catch { throw ControlFailure(.invalidParameter, error.message) }
            try set(key, to: next, player: player)
        default:
            if usesRenderer, let rendered, try rendered.visualizer.perform(command) { return }
            if let player, try player.session.perform(command) { return }
            throw ControlFailure(.commandFailed, "this key's command is for a window: the terminal draws no lists, stats or screenshots")
        }
    }

    private mutating func show(_ mode: VisualMode) {
        self.mode = mode
        pictures.show(mode)
        say("mode: \(mode.rawValue)", now: MonotonicClock.now())
    }

    /// A setting changed by a key: the picture is made again from it (the player's take it at once).
    private mutating func set(_ key: ConfigKey, to value: JSONValue, player: TerminalPlayer?) throws(ControlFailure) {
        var changed = configuration
        do { try changed.set(key, to: value) } catch { throw ControlFailure(.invalidParameter, error.message) }
        configuration = changed
        if key == ConfigSchema.display.mode.key {
            show(DisplaySettings(configuration: changed).mode)
        } else if key.section == ConfigSection.display.rawValue {
            display = DisplaySettings(configuration: changed)
            pictures = TextPictures(display: display)
            pictures.show(mode)
            rendered = nil
            painter.invalidate()
        } else if let player {
            let rows = ConfigSchema.player
            switch key {
            case rows.loop.key: player.session.loop = changed[rows.loop]
            case rows.volume.key: player.session.setVolume(changed[rows.volume])
            default: throw ControlFailure(.commandFailed, "set: \(key.path) takes effect when decibar term starts again")
            }
        }
        say("\(key.path) = \((changed[key] ?? .null).text)", now: MonotonicClock.now())
    }

    private mutating func say(_ text: String, now: Double) {
        notice = (text, now + TerminalView.noticeSeconds)
    }

    private static func key(named name: String) throws(ControlFailure) -> ConfigKey {
        do { return try ConfigSchema.key(named: name) } catch { throw ControlFailure(.optionNotFound, error.message) }
    }
}
