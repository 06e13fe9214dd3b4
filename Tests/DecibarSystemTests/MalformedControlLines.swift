import DecibarCore
import Foundation

/// A small deterministic generator (SplitMix64), so a corpus is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Lines a broken or hostile client sends: binary garbage, truncated and mutated requests, wrong
/// types, deep nesting, huge numbers, invalid UTF-8, and lines longer than the 64 KiB limit.
/// None contains a newline (each is one line).
enum MalformedControlLines {
    static let seeds = [
        #"{"command": ["seek", 90, "absolute"], "request_id": 7}"#,
        #"{"command": ["set", "theme", "fire"]}"#,
        #"{"command": ["subscribe", "levels", 30]}"#,
        #"{"command": ["open", ["/x.flac"], "append"]}"#,
        #"{"command": ["get", "bars"], "request_id": 1}"#,
        #"{"command": ["unsubscribe"]}"#,
    ]

    static func line(using generator: inout SeededGenerator) -> [UInt8] {
        var line: [UInt8]
        switch Int.random(in: 0 ..< 10, using: &generator) {
        case 0:
            line = (0 ..< Int.random(in: 1 ..< 200, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        case 1:
            let seed = Array(seeds.randomElement(using: &generator)!.utf8)
            line = Array(seed.prefix(Int.random(in: 0 ..< seed.count, using: &generator)))
        case 2:
            var seed = Array(seeds.randomElement(using: &generator)!.utf8)
            for _ in 0 ..< Int.random(in: 1 ... 4, using: &generator) {
                seed[Int.random(in: 0 ..< seed.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            line = seed
        case 3:
            let depth = Int.random(in: 100 ... 5000, using: &generator)
            line = Array(#"{"command": "#.utf8) + [UInt8](repeating: 0x5B, count: depth) + [UInt8](repeating: 0x5D, count: depth) + [0x7D]
        case 4:
            let values = ["1e400", "-0", "null", "true", "\"\\ud800\"", "{}", "[]", "\"\"", "18446744073709551616", "1.5"]
            line = Array(#"{"command": ["seek", \#(values.randomElement(using: &generator)!)], "request_id": \#(values.randomElement(using: &generator)!)}"#.utf8)
        case 5:
            line = [UInt8](repeating: UInt8(ascii: "a"), count: ControlLineSplitter.maximumLineLength + Int.random(in: 1 ... 5000, using: &generator))
        case 6:
            line = Array(#"{"command": ["set", "\#(["bars", "theme", "nope", "display.size", "floor"].randomElement(using: &generator)!)", \#(["-1", "\"x\"", "[1,2]", "1e9", "{}"].randomElement(using: &generator)!)]}"#.utf8)
        case 7:
            line = Array(#"{"command": ["\#(ControlCommand.names.randomElement(using: &generator)!)", 1, "two", [3], {"four": 4}]}"#.utf8)
        case 8:
            line = [0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC]
        default:
            line = Array("{\"command\": [\"hide\"], \"request_id\": \"seven\"}".utf8)
        }
        return line.map { $0 == 10 ? 32 : $0 }
    }
}
