import Foundation

/// Material whose beat times are known to the sample, written by `Scripts/make-beats.py`, and
/// the score of beats found in it.
public struct BeatMaterial {
    public let path: String
    /// The true beat times (s).
    public let beats: [Double]

    /// Writes `arguments` (`["clicks", "120"]`, `["band", "97"]`, …) with the script, or finds
    /// them written already: the script is deterministic, so material is kept in a folder of the
    /// temporary directory under its arguments and the script's hash, and made once for all the
    /// suites that use it. (`name` and `folder` are where it is made first.)
    public init(_ arguments: [String], name: String, in folder: String) throws {
        let script = try Data(contentsOf: URL(fileURLWithPath: Self.script))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in script { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let cache = NSTemporaryDirectory() + "decibar-beat-material"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let key = arguments.joined(separator: "_").replacingOccurrences(of: "-", with: "") + "-" + String(hash, radix: 16)
        var path = cache + "/" + key + ".wav"
        if !FileManager.default.fileExists(atPath: path) {
            let made = folder + "/" + name
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.script)
            process.arguments = [arguments[0], arguments[1], made] + arguments.dropFirst(2)
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw MaterialError(message: "make-beats.py \(arguments): \(message)") }
            // The beats first, the audio last: a file found means both are whole. (On another
            // file system, the material stays where it was made.)
            if rename(made + ".beats", path + ".beats") != 0 || rename(made, path) != 0 { path = made }
        }
        self.path = path
        beats = try String(contentsOfFile: path + ".beats", encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
    }

    struct MaterialError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    public static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/make-beats.py").path
    }

    /// The `t` of each beat line (`"beat": true`) of `levels --mode beats` among `lines`.
    public static func beatTimes(inLines lines: [String]) -> [Double] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["beat"] as? Bool == true else { return nil }
            return (object["t"] as? NSNumber)?.doubleValue
        }
    }

    /// The first number of each line of `text` (aubiotrack's beats).
    public static func times(in text: String) -> [Double] {
        text.split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
    }

    public struct Score: CustomStringConvertible, Sendable {
        public var f: Double
        public var precision: Double
        public var recall: Double
        /// Median of found minus true, over the matches (s).
        public var medianOffset: Double
        public var description: String {
            String(format: "F %.3f (precision %.3f, recall %.3f), median offset %+.1f ms", f, precision, recall, medianOffset * 1000)
        }
    }

    /// F-measure of `found` against the true beats from `start` on: a found beat within
    /// `tolerance` of a true one matches it, each at most once, nearest pairs first.
    public func score(_ found: [Double], from start: Double = 5, tolerance: Double = 0.07) -> Score {
        let truth = beats.filter { $0 >= start }
        let candidates = found.filter { $0 >= (truth.first ?? start) - tolerance }
        var pairs: [(distance: Double, truth: Int, found: Int)] = []
        for (i, t) in truth.enumerated() {
            for (j, f) in candidates.enumerated() where abs(f - t) <= tolerance { pairs.append((abs(f - t), i, j)) }
        }
        pairs.sort { $0.distance < $1.distance }
        var usedTruth = Set<Int>(), usedFound = Set<Int>(), offsets: [Double] = []
        for pair in pairs where !usedTruth.contains(pair.truth) && !usedFound.contains(pair.found) {
            usedTruth.insert(pair.truth)
            usedFound.insert(pair.found)
            offsets.append(candidates[pair.found] - truth[pair.truth])
        }
        let precision = candidates.isEmpty ? 0 : Double(offsets.count) / Double(candidates.count)
        let recall = truth.isEmpty ? 0 : Double(offsets.count) / Double(truth.count)
        let f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        offsets.sort()
        let median = offsets.isEmpty ? .nan : offsets[offsets.count / 2]
        return Score(f: f, precision: precision, recall: recall, medianOffset: median)
    }
}
