/// Turns the bytes a terminal sends into `TerminalInput`: keys (letters, Ctrl and Alt chords, the
/// arrows and function keys in their CSI and SS3 forms), SGR mouse reports and the answers to our
/// queries. A sequence split across reads is kept until the rest comes; a lone Esc is a key only
/// when nothing follows it (`flush`, after a short wait), since it also starts every sequence.
public struct TerminalInputParser: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether bytes are held waiting for the rest of a sequence (or to tell Esc from one).
    public var isWaiting: Bool { !pending.isEmpty }

    /// The inputs `bytes` complete.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [TerminalInput] where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var inputs: [TerminalInput] = []
        var index = 0
        while index < pending.count {
            guard let (input, length) = Self.parse(pending, from: index) else { break }
            if let input { inputs.append(input) }
            index += length
        }
        pending.removeFirst(index)
        return inputs
    }

    /// What is held is taken as it stands: a lone Esc is the Esc key (Alt chords and sequences
    /// arrive in one read).
    public mutating func flush() -> [TerminalInput] {
        defer { pending.removeAll() }
        guard pending.first == 0x1B else { return [] }
        return pending.count == 1 ? [.key(KeyChord("esc"))] : []
    }

    /// One input at `start` and its length; nil when it is not complete yet. An input of no
    /// meaning to us (an unknown sequence) is skipped as a nil input of its length.
    static func parse(_ bytes: [UInt8], from start: Int) -> (TerminalInput?, Int)? {
        let byte = bytes[start]
        if byte == 0x1B {
            guard start + 1 < bytes.count else { return nil }
            let next = bytes[start + 1]
            switch next {
            case UInt8(ascii: "["): return parseCSI(bytes, from: start)
            case UInt8(ascii: "O"):
                guard start + 2 < bytes.count else { return nil }
                return (ss3Key(bytes[start + 2]).map { .key($0) }, 3)
            case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
                return parseString(bytes, from: start)
            case 0x1B:
                return (.key(KeyChord("esc")), 1)
            default:
                // Alt and a key: the key with Alt held.
                guard let (input, length) = parse(bytes, from: start + 1) else { return nil }
                if case .key(let chord)? = input { return (.key(KeyChord(chord.key, chord.modifiers.union(.alt))), length + 1) }
                return (input, length + 1)
            }
        }
        if let chord = controlKey(byte) { return (.key(chord), 1) }
        // UTF-8: the length from the lead byte.
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard start + length <= bytes.count else { return nil }
        guard let text = String(validating: bytes[start..<start + length], as: UTF8.self) else { return (nil, 1) }
        if text == " " { return (.key(KeyChord("space")), 1) }
        let chord = try? KeyChord(parsing: text)
        return (chord.map { .key($0) }, length)
    }

    private static func controlKey(_ byte: UInt8) -> KeyChord? {
        switch byte {
        case 0x0D, 0x0A: KeyChord("enter")
        case 0x09: KeyChord("tab")
        case 0x7F, 0x08: KeyChord("backspace")
        case 0x00: KeyChord("space", .ctrl)
        case 0x01...0x1A: KeyChord(String(UnicodeScalar(UInt8(ascii: "a") + byte - 1)), .ctrl)
        default: nil
        }
    }

    private static func ss3Key(_ final: UInt8) -> KeyChord? {
        switch final {
        case UInt8(ascii: "A"): KeyChord("up")
        case UInt8(ascii: "B"): KeyChord("down")
        case UInt8(ascii: "C"): KeyChord("right")
        case UInt8(ascii: "D"): KeyChord("left")
        case UInt8(ascii: "H"): KeyChord("home")
        case UInt8(ascii: "F"): KeyChord("end")
        case UInt8(ascii: "P"): KeyChord("f1")
        case UInt8(ascii: "Q"): KeyChord("f2")
        case UInt8(ascii: "R"): KeyChord("f3")
        case UInt8(ascii: "S"): KeyChord("f4")
        case UInt8(ascii: "M"): KeyChord("kpenter")
        default: nil
        }
    }

    /// APC, DCS and OSC strings, to ST (`ESC \`) or BEL: kitty's graphics answers come as APC.
    private static func parseString(_ bytes: [UInt8], from start: Int) -> (TerminalInput?, Int)? {
        var index = start + 2
        while index < bytes.count {
            if bytes[index] == 0x07 { return (stringInput(bytes, start, index), index + 1 - start) }
            if bytes[index] == 0x1B {
                guard index + 1 < bytes.count else { return nil }
                if bytes[index + 1] == UInt8(ascii: "\\") { return (stringInput(bytes, start, index), index + 2 - start) }
            }
            index += 1
        }
        // A string never ended: give up on it past a sane length rather than hold every key behind it.
        return bytes.count - start > 4096 ? (nil, bytes.count - start) : nil
    }

    private static func stringInput(_ bytes: [UInt8], _ start: Int, _ end: Int) -> TerminalInput? {
        guard bytes[start + 1] == UInt8(ascii: "_"), start + 2 < end, bytes[start + 2] == UInt8(ascii: "G") else { return nil }
        let body = String(decoding: bytes[(start + 3)..<end], as: UTF8.self)
        guard let semicolon = body.firstIndex(of: ";") else { return .graphicsReply(ok: false) }
        return .graphicsReply(ok: body[body.index(after: semicolon)...].hasPrefix("OK"))
    }

    private static func parseCSI(_ bytes: [UInt8], from start: Int) -> (TerminalInput?, Int)? {
        var index = start + 2
        // Parameter and intermediate bytes, then a final byte in 0x40...0x7E.
        while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
            guard bytes[index] >= 0x20 else { return (nil, index - start) }
            index += 1
        }
        guard index < bytes.count else { return bytes.count - start > 64 ? (nil, bytes.count - start) : nil }
        let final = bytes[index]
        let length = index + 1 - start
        let body = bytes[(start + 2)..<index]
        let leader = body.first.flatMap { (0x3C...0x3F).contains($0) ? $0 : nil }
        let numbers = body.dropFirst(leader == nil ? 0 : 1).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { part in
            part.reduce(0) { value, digit in (0x30...0x39).contains(digit) ? min(100_000, value * 10 + Int(digit - 0x30)) : value }
        }
        switch (leader, final) {
        case (UInt8(ascii: "<"), UInt8(ascii: "M")), (UInt8(ascii: "<"), UInt8(ascii: "m")):
            return (mouse(numbers, released: final == UInt8(ascii: "m")).map { .mouse($0) }, length)
        case (UInt8(ascii: "?"), UInt8(ascii: "c")):
            return (.primaryAttributes(numbers), length)
        case (UInt8(ascii: "?"), UInt8(ascii: "y")) where numbers.count >= 2:
            return (.modeReport(mode: numbers[0], state: numbers[1]), length)
        case (nil, UInt8(ascii: "t")) where numbers.count >= 3 && numbers[0] == 4:
            return (.textAreaPixels(width: numbers[2], height: numbers[1]), length)
        case (nil, _):
            return (csiKey(numbers, final: final).map { .key($0) }, length)
        default:
            return (nil, length)
        }
    }

    private static func mouse(_ numbers: [Int], released: Bool) -> TerminalMouse? {
        guard numbers.count >= 3, numbers[1] >= 1, numbers[2] >= 1 else { return nil }
        let code = numbers[0]
        let (column, row, shift) = (numbers[1] - 1, numbers[2] - 1, code & 4 != 0)
        if code & 64 != 0 {
            guard !released else { return nil }
            return TerminalMouse(action: code & 1 == 0 ? .wheelUp : .wheelDown, button: 3, column: column, row: row, shift: shift)
        }
        let button = code & 3
        let action: TerminalMouse.Action = code & 32 != 0 ? .motion : released ? .release : .press
        return TerminalMouse(action: action, button: button, column: column, row: row, shift: shift)
    }

    private static func csiKey(_ numbers: [Int], final: UInt8) -> KeyChord? {
        // `CSI 1 ; m X`: m - 1 holds Shift (1), Alt (2), Ctrl (4).
        var modifiers: KeyChord.Modifiers = []
        if numbers.count >= 2, numbers[1] > 1 {
            let bits = numbers[1] - 1
            if bits & 1 != 0 { modifiers.insert(.shift) }
            if bits & 2 != 0 { modifiers.insert(.alt) }
            if bits & 4 != 0 { modifiers.insert(.ctrl) }
        }
        let name: String?
        if final == UInt8(ascii: "~") {
            let functionKeys = [15: "f5", 17: "f6", 18: "f7", 19: "f8", 20: "f9", 21: "f10", 23: "f11", 24: "f12"]
            switch numbers.first ?? 0 {
            case 1, 7: name = "home"
            case 2: name = "insert"
            case 3: name = "delete"
            case 4, 8: name = "end"
            case 5: name = "pgup"
            case 6: name = "pgdwn"
            case let number: name = functionKeys[number]
            }
        } else if final == UInt8(ascii: "Z") {
            return KeyChord("tab", modifiers.union(.shift))
        } else {
            name = ss3Key(final)?.key
        }
        return name.map { KeyChord($0, modifiers) }
    }
}
