/// A line of text cut into runs of one direction, in the order they are drawn from left to right:
/// the part of the Unicode bidirectional algorithm a title or a caption needs. A line whose first
/// strong letter is Hebrew or Arabic reads right to left, its runs laid from the right; numbers
/// and Latin words inside it keep their own order; spaces and punctuation between two runs of one
/// direction take it, and otherwise the line's. (No explicit embeddings or mirrored brackets.)
/// Each run is shaped on its own (HarfBuzz, through SDL_ttf), right-to-left runs with their script.
public struct TextRuns: Sendable, Equatable {
    public struct Run: Sendable, Equatable {
        public var text: String
        public var rightToLeft: Bool
        /// The OpenType script of a right-to-left run ("Arab" or "Hebr"); nil for left-to-right.
        public var script: String?

        public init(text: String, rightToLeft: Bool, script: String? = nil) {
            self.text = text
            self.rightToLeft = rightToLeft
            self.script = script
        }
    }

    /// The line's direction: its first strong letter's.
    public let rightToLeft: Bool
    /// Left to right as drawn; each run's own text in reading order.
    public let runs: [Run]

    private enum Kind { case left, right, number, neutral }

    public init(_ line: String) {
        let scalars = Array(line.unicodeScalars)
        let kinds = scalars.map(Self.kind)
        let paragraphRight = kinds.first { $0 == .left || $0 == .right } == .right
        rightToLeft = paragraphRight
        // Resolve each scalar to a direction. Numbers read left to right, but count as the
        // letters before them for the spaces around (so "عدد 12" keeps its space in the Arabic).
        var resolved = [Bool](repeating: paragraphRight, count: scalars.count)
        var previousStrong: Bool? = nil
        for index in scalars.indices {
            switch kinds[index] {
            case .left: resolved[index] = false; previousStrong = false
            case .right: resolved[index] = true; previousStrong = true
            case .number: resolved[index] = false
            case .neutral:
                let before = previousStrong ?? paragraphRight
                let after = Self.nextStrong(kinds, from: index + 1, numbersAs: before) ?? paragraphRight
                resolved[index] = before == after ? before : paragraphRight
            }
        }
        // A number inside right-to-left text is its own left-to-right run, between right-to-left ones.
        var logical: [Run] = []
        for index in scalars.indices {
            let right = resolved[index]
            if let last = logical.last, last.rightToLeft == right {
                logical[logical.count - 1].text.unicodeScalars.append(scalars[index])
            } else {
                logical.append(Run(text: String(scalars[index]), rightToLeft: right))
            }
        }
        for index in logical.indices where logical[index].rightToLeft {
            logical[index].script = logical[index].text.unicodeScalars.contains { Self.isArabic($0.value) } ? "Arab" : "Hebr"
        }
        runs = paragraphRight ? logical.reversed() : logical
    }

    /// The direction of the next strong letter from `start` (a number counts as `numbersAs`).
    private static func nextStrong(_ kinds: [Kind], from start: Int, numbersAs: Bool) -> Bool? {
        for kind in kinds[start...] {
            switch kind {
            case .left: return false
            case .right: return true
            case .number: return numbersAs
            case .neutral: continue
            }
        }
        return nil
    }

    private static func kind(_ scalar: Unicode.Scalar) -> Kind {
        let value = scalar.value
        // Digits first: Arabic-Indic ones read left to right as well.
        if scalar.properties.generalCategory == .decimalNumber { return .number }
        if isArabic(value) || (0x0590 ... 0x05FF).contains(value) || (0xFB1D ... 0xFB4F).contains(value) { return .right }
        if scalar.properties.isAlphabetic { return .left }
        return .neutral
    }

    private static func isArabic(_ value: UInt32) -> Bool {
        (0x0600 ... 0x06FF).contains(value) || (0x0750 ... 0x077F).contains(value) || (0x08A0 ... 0x08FF).contains(value)
            || (0xFB50 ... 0xFDFF).contains(value) || (0xFE70 ... 0xFEFF).contains(value)
    }
}
