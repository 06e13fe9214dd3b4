/// A command a control client sends, its arguments checked (mpv's JSON IPC is the model: the name
/// first, then positional arguments).
public enum ControlCommand: Sendable, Equatable {
    case getStatus
    case show
    case hide
    case toggleWindow
    /// `["set", "theme", "fire"]`: a config key (`display.theme`, or `theme` when that is unique).
    case set(key: String, value: JSONValue)
    /// `["get", "theme"]`: a key's value as the daemon uses it.
    case get(key: String)
    /// `["open", "a.flac"]`, `["open", ["a.flac", "b.flac"], "append"]`.
    case open(paths: [String], append: Bool)
    case play
    case pause
    case cyclePause
    case stop
    /// `["seek", 90, "absolute"]`; relative (the default) moves from the playhead.
    case seek(seconds: Double, relative: Bool)
    case next
    case previous
    /// `["chapter", "next"]` or `"previous"`: the next chapter's start, or back as a CD player does.
    case chapter(forward: Bool)
    /// `["preset", "next"]`, `"previous"`, `"random"`, `"lock"`, `"unlock"`, or a preset's
    /// name or path.
    case preset(PresetRequest)
    /// `["zoom", 8]`: the scrubber shows an eighth of the track around the playhead; 1 all of it.
    case zoom(factor: Double)
    /// `["ab_loop", 10, 12]`: the stretch from 10 s to 12 s plays over and over, from 10 s now;
    /// `["ab_loop", "off"]` plays on.
    case abLoop(start: Double, end: Double)
    case abLoopOff
    case subscribe(Subscription)
    /// Without a kind: every subscription of the connection.
    case unsubscribe(Subscription.Kind?)
    case reloadConfig
    /// `["screenshot", "/tmp/shot.png"]`: the next frame the window draws, as a PNG.
    case screenshot(path: String)
    case quit
    case protocolVersion
    /// `["mode", "next"]`, `"previous"` or a mode's name: what the window draws.
    case mode(ModeRequest)
    /// `["shader", "next"]`: the next shader of the user's folder.
    case nextShader
    /// `["volume", -5, "relative"]`: the player's volume in percent; a relative move by whole steps
    /// lands on the steps' grid, as the keys do.
    case volume(Adjustment)
    /// `["rate", 0.25, "relative"]`, or `["rate", "normal"]`: rate 1 and pitch 0.
    case rate(Adjustment)
    case normalSpeed
    /// `["pitch", 100, "relative"]`, in cents.
    case pitch(Adjustment)
    /// `["fullscreen"]`: in or out of fullscreen.
    case fullscreen
    /// `["cycle", "loop"]`: a choice's next word, a switch's other value (a key by path or name).
    case cycle(key: String)
    /// `["close"]`: what closing the window does (live and play end; the daemon hides it).
    case close
    /// `["zoom", "in"]` or `"out"`: the scrubber shows half (twice) as much around the playhead.
    case zoomStep(inward: Bool)
    /// `["ab_loop", "a"]` or `"b"`: the A-B loop's start or end at the playhead.
    case abLoopMark(start: Bool)
    /// `["keys"]`: the window's key list over the picture (what `decibar keys` prints, for the
    /// window as it is now), its next page, or away again.
    case keys
    /// `["stats"]`: the frame and source figures over the picture for a few seconds;
    /// `["stats", "toggle"]` keeps them until asked again.
    case stats(toggles: Bool)
    /// `["picker", "presets"]`: a list over the picture to choose from (`PickerKind`); `"next"`
    /// opens the one after the list shown, `"close"` closes it.
    case picker(PickerRequest)

    /// The names a client sends, in the order docs/protocol.md documents them.
    public static let names = [
        "get_status", "show", "hide", "toggle_window", "set", "get", "open", "play", "pause", "cycle_pause",
        "stop", "seek", "next", "previous", "chapter", "preset", "zoom", "ab_loop", "subscribe", "unsubscribe", "reload_config", "screenshot", "quit", "protocol_version",
        "mode", "shader", "volume", "rate", "pitch", "fullscreen", "cycle", "close", "keys", "stats", "picker",
    ]

    /// The protocol's version: raised when a command or reply changes incompatibly.
    public static let currentProtocolVersion = 1

    /// Reads a command from its JSON array form.
    public init(arguments: [JSONValue]) throws(ControlFailure) {
        guard let name = arguments.first?.string else {
            throw ControlFailure(.invalidParameter, "the command must be an array starting with the command's name")
        }
        let rest = Array(arguments.dropFirst())
        func count(_ range: ClosedRange<Int>) throws(ControlFailure) {
            guard range.contains(rest.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw ControlFailure(.invalidParameter, "\(name) takes \(expected) argument\(range.upperBound == 1 ? "" : "s"), not \(rest.count)")
            }
        }
        func text(_ index: Int, _ what: String) throws(ControlFailure) -> String {
            guard let value = rest[index].string else {
                throw ControlFailure(.invalidParameter, "\(name): \(what) must be a string, not \(rest[index].kindName)")
            }
            return value
        }
        switch name {
        case "get_status": try count(0...0); self = .getStatus
        case "show": try count(0...0); self = .show
        case "hide": try count(0...0); self = .hide
        case "toggle_window": try count(0...0); self = .toggleWindow
        case "play": try count(0...0); self = .play
        case "pause": try count(0...0); self = .pause
        case "cycle_pause": try count(0...0); self = .cyclePause
        case "stop": try count(0...0); self = .stop
        case "next": try count(0...0); self = .next
        case "previous": try count(0...0); self = .previous
        case "reload_config": try count(0...0); self = .reloadConfig
        case "quit": try count(0...0); self = .quit
        case "protocol_version": try count(0...0); self = .protocolVersion
        case "fullscreen": try count(0...0); self = .fullscreen
        case "close": try count(0...0); self = .close
        case "keys": try count(0...0); self = .keys
        case "stats":
            try count(0...1)
            guard rest.isEmpty || rest[0].string == "toggle" else { throw ControlFailure(.invalidParameter, "stats: say toggle, or nothing") }
            self = .stats(toggles: !rest.isEmpty)
        case "picker":
            try count(1...1)
            let word = try text(0, "the list")
            switch word {
            case "next": self = .picker(.next)
            case "close": self = .picker(.close)
            default:
                guard let kind = PickerKind(rawValue: word) else {
                    throw ControlFailure(.invalidParameter, "picker: say \((PickerKind.allCases.map(\.rawValue) + ["next", "close"]).joined(separator: ", ")), not \(word.quotedForMessage)")
                }
                self = .picker(.open(kind))
            }
        case "mode":
            try count(1...1)
            let word = try text(0, "the mode")
            self = .mode(word == "next" ? .next : word == "previous" ? .previous : .named(word))
        case "shader":
            try count(1...1)
            guard try text(0, "the shader") == "next" else { throw ControlFailure(.invalidParameter, "shader: say next") }
            self = .nextShader
        case "cycle":
            try count(1...1)
            self = .cycle(key: try text(0, "the key"))
        case "volume", "rate", "pitch":
            try count(1...2)
            if name == "rate", rest.count == 1, rest[0].string == "normal" {
                self = .normalSpeed
                return
            }
            guard let amount = rest[0].number, amount.isFinite, Swift.abs(amount) < 1e6 else {
                throw ControlFailure(.invalidParameter, "\(name): the amount must be a number" + (name == "rate" ? ", or normal" : ""))
            }
            var relative = false
            if rest.count == 2 {
                switch try text(1, "the flag") {
                case "relative": relative = true
                case "absolute": relative = false
                case let other: throw ControlFailure(.invalidParameter, "\(name): the flag must be relative or absolute, not \(other.quotedForMessage)")
                }
            }
            let adjustment: Adjustment = relative ? .by(amount) : .to(amount)
            self = name == "volume" ? .volume(adjustment) : name == "rate" ? .rate(adjustment) : .pitch(adjustment)
        case "screenshot":
            try count(1...1)
            let path = try text(0, "the path")
            guard path.hasPrefix("/") else { throw ControlFailure(.invalidParameter, "screenshot: give a full path (the daemon has its own working folder)") }
            self = .screenshot(path: path)
        case "set":
            try count(2...2)
            self = .set(key: try text(0, "the key"), value: rest[1])
        case "get":
            try count(1...1)
            self = .get(key: try text(0, "the key"))
        case "open":
            try count(1...2)
            let paths: [String]
            switch rest[0] {
            case .string(let path): paths = [path]
            case .array(let values):
                var list: [String] = []
                for value in values {
                    guard let path = value.string else { throw ControlFailure(.invalidParameter, "open: every path must be a string") }
                    list.append(path)
                }
                paths = list
            default: throw ControlFailure(.invalidParameter, "open: give a path or an array of paths, not \(rest[0].kindName)")
            }
            guard !paths.isEmpty, paths.allSatisfy({ !$0.isEmpty }) else { throw ControlFailure(.invalidParameter, "open: a path is empty") }
            var append = false
            if rest.count == 2 {
                switch try text(1, "the flag") {
                case "append": append = true
                case "replace": append = false
                case let other: throw ControlFailure(.invalidParameter, "open: the flag must be replace or append, not \(other.quotedForMessage)")
                }
            }
            self = .open(paths: paths, append: append)
        case "seek":
            try count(1...2)
            guard let seconds = rest[0].number, seconds.isFinite, Swift.abs(seconds) < 1e9 else {
                throw ControlFailure(.invalidParameter, "seek: the position must be a number of seconds")
            }
            var relative = true
            if rest.count == 2 {
                switch try text(1, "the flag") {
                case "relative": relative = true
                case "absolute": relative = false
                case let other: throw ControlFailure(.invalidParameter, "seek: the flag must be relative or absolute, not \(other.quotedForMessage)")
                }
            }
            self = .seek(seconds: seconds, relative: relative)
        case "chapter":
            try count(1...1)
            switch try text(0, "the direction") {
            case "next": self = .chapter(forward: true)
            case "previous": self = .chapter(forward: false)
            case let other: throw ControlFailure(.invalidParameter, "chapter: say next or previous, not \(other.quotedForMessage)")
            }
        case "preset":
            try count(0...1)
            // Without a word: the name of the preset shown.
            if rest.isEmpty {
                self = .preset(.shown)
                return
            }
            let word = try text(0, "the preset")
            guard !word.isEmpty else { throw ControlFailure(.invalidParameter, "preset: say next, previous, random, lock, unlock, or a preset") }
            self = .preset(PresetRequest(word))
        case "zoom":
            try count(1...1)
            if let word = rest[0].string, word == "in" || word == "out" {
                self = .zoomStep(inward: word == "in")
                return
            }
            guard let factor = rest[0].number, factor.isFinite, factor > 0 else {
                throw ControlFailure(.invalidParameter, "zoom: the factor must be a positive number (1 shows the whole track)")
            }
            self = .zoom(factor: factor)
        case "ab_loop":
            try count(1...2)
            if rest.count == 1 {
                switch rest[0].string {
                case "off": self = .abLoopOff
                case "a": self = .abLoopMark(start: true)
                case "b": self = .abLoopMark(start: false)
                default: throw ControlFailure(.invalidParameter, "ab_loop: give the start and end in seconds, a or b (at the playhead), or off")
                }
                return
            }
            guard let start = rest[0].number, let end = rest[1].number, start.isFinite, end.isFinite, start >= 0 else {
                throw ControlFailure(.invalidParameter, "ab_loop: the start and end must be numbers of seconds")
            }
            guard end - start >= ABLoop.minimumSeconds else {
                throw ControlFailure(.invalidParameter, "ab_loop: the end must come at least \(ABLoop.minimumSeconds) s after the start")
            }
            self = .abLoop(start: start, end: end)
        case "subscribe":
            try count(1...3)
            guard let kind = Subscription.Kind(rawValue: try text(0, "the kind")) else {
                throw ControlFailure(.invalidParameter, "subscribe: the kind must be \(Subscription.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var subscription = Subscription(kind: kind)
            if rest.count >= 2 {
                guard let rate = rest[1].number, Subscription.rates.contains(rate) else {
                    throw ControlFailure(.invalidParameter, "subscribe: the rate must be a number of events per second from 0.1 to 240")
                }
                subscription.rate = rate
            }
            if rest.count == 3 {
                guard let bands = rest[2].number, bands == bands.rounded(), (1...1024).contains(bands) else {
                    throw ControlFailure(.invalidParameter, "subscribe: the band count must be a whole number from 1 to 1024")
                }
                subscription.bands = Int(bands)
            }
            self = .subscribe(subscription)
        case "unsubscribe":
            try count(0...1)
            if rest.isEmpty {
                self = .unsubscribe(nil)
            } else {
                guard let kind = Subscription.Kind(rawValue: try text(0, "the kind")) else {
                    throw ControlFailure(.invalidParameter, "unsubscribe: no such kind of subscription")
                }
                self = .unsubscribe(kind)
            }
        default:
            let suggestion = Spelling.closest(to: name, among: Self.names).map { " (did you mean \($0)?)" } ?? ""
            throw ControlFailure(.unknownCommand, "no command \(name.quotedForMessage)\(suggestion)")
        }
    }
}

extension String {
    /// Quoted and cut to a length fit for a one-line message.
    public var quotedForMessage: String {
        let cut = count > 40 ? String(prefix(40)) + "..." : self
        return "\"" + cut.escapingControlCharacters + "\""
    }
}

/// What `mode` asks of the window.
public enum ModeRequest: Sendable, Equatable {
    case next, previous
    case named(String)
}

/// What `picker` asks of the window.
public enum PickerRequest: Sendable, Equatable {
    case open(PickerKind)
    /// The list after the one shown (the first when none is).
    case next
    case close
}

/// A new value, or a move from the present one.
public enum Adjustment: Sendable, Equatable {
    case to(Double)
    case by(Double)

    /// The value after the change: a move by a whole number of `step`s lands on their grid.
    public func applied(to value: Double, step: Double) -> Double {
        switch self {
        case .to(let target): return target
        case .by(let amount):
            let steps = amount / step
            guard steps == steps.rounded() else { return value + amount }
            return ((value + amount) / step).rounded() * step
        }
    }
}

/// What `preset` asks of the preset playlist (of a mode that has one).
public enum PresetRequest: Sendable, Equatable {
    case next, previous, random, lock, unlock
    /// The lock on when off, off when on (the l key).
    case toggleLock
    /// The preset shown a favourite, or no longer one (the * key).
    case toggleFavourite
    /// Nothing moves: the reply names the preset shown.
    case shown
    /// A preset by name (its file name without .milk) or path.
    case named(String)

    public init(_ word: String) {
        switch word {
        case "next": self = .next
        case "previous": self = .previous
        case "random": self = .random
        case "lock": self = .lock
        case "unlock": self = .unlock
        case "toggle-lock": self = .toggleLock
        case "toggle-favourite": self = .toggleFavourite
        default: self = .named(word)
        }
    }
}
