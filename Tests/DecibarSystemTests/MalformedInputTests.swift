import Foundation
import Synchronization
import Testing

/// Every command that reads files, against the whole malformed corpus: each answers each input in
/// bounded time with status 0, or with one line and a non-zero status (and never more than one line
/// either way); never a signal or a hang.
@Suite("Malformed inputs")
struct MalformedInputTests {
    /// One command to try on a file; `out` is a fresh path for what it writes.
    struct Command: Sendable {
        var name: String
        var arguments: @Sendable (_ file: String, _ out: String) -> [String]
    }

    static let commands: [Command] = [
        Command(name: "levels") { file, _ in ["levels", "--file", file, "--rate", "10"] },
        Command(name: "levels-spectrum") { file, _ in ["levels", "--file", file, "--rate", "10", "--mode", "spectrum"] },
        Command(name: "levels-loudness") { file, _ in ["levels", "--file", file, "--rate", "10", "--mode", "loudness"] },
        Command(name: "levels-beats") { file, _ in ["levels", "--file", file, "--mode", "beats"] },
        Command(name: "peaks") { file, out in ["peaks", file, "-o", out + ".json"] },
        Command(name: "render") { file, out in
            ["render", file, "-o", out + "/", "--size", "64x64", "--fps", "4", "--duration", "1", "--mode", "spectrum"]
        },
        Command(name: "play") { file, _ in ["play", file, "--size", "160x100", "--exit-after", "0.15", "--mode", "meter"] },
    ]

    @Test("levels --file (every mode), peaks, render and play answer every malformed input in bounded time, in one line or with success")
    func corpus() async throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try PrivatePulseServer()
        let corpus = try MalformedCorpus(in: folder)
        let outputs = folder + "/outputs"
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: false)
        let environment = server.environment.merging(["XDG_CACHE_HOME": folder + "/cache"]) { $1 }

        let runs = corpus.items.enumerated().flatMap { index, item in Self.commands.map { (index, item, $0) } }
        let results = Results()
        @Sendable func runLane(_ lane: Int, of lanes: Int) {
            for run in stride(from: lane, to: runs.count, by: lanes) {
                let (index, item, command) = runs[run]
                let out = outputs + "/\(command.name)-\(index)"
                let what = "\(command.name) on \(item.label)"
                do {
                    let outcome = try TestRig.decibar(command.arguments(item.path, out), environment: environment, timeout: 60)
                    // One line at most, whatever the status: a bad file's error is the only thing said.
                    if !outcome.isOrderly || outcome.errorLines.count > 1 { results.failures.withLock { $0.append("\(what): \(outcome)") } }
                    results.slowest.withLock { if outcome.seconds > $0.seconds { $0 = (outcome.seconds, what) } }
                } catch {
                    results.failures.withLock { $0.append("\(what): could not run: \(error)") }
                }
            }
        }
        // Three at a time on two cores (each play waits out its --exit-after), on threads of their
        // own: the test waits without holding one of the concurrency pool's few threads.
        let lanes = 3
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for lane in 0 ..< lanes {
                Thread {
                    runLane(lane, of: lanes)
                    if results.finishedLanes.withLock({ $0 += 1; return $0 }) == lanes { done.resume() }
                }.start()
            }
        }
        let problems = results.failures.withLock { $0 }
        #expect(problems.isEmpty, "\(problems.count) of \(runs.count) runs:\n\(problems.joined(separator: "\n"))")
        let (seconds, what) = results.slowest.withLock { $0 }
        #expect(seconds < 30, "slowest: \(what) took \(seconds) s")
        // Whatever failed left nothing half-written.
        let leftovers = TestRig.partials(in: outputs) + TestRig.partials(in: folder)
        #expect(leftovers.isEmpty, "\(leftovers)")
        print("malformed inputs: \(runs.count) runs on \(corpus.items.count) inputs; slowest \(what) in \(String(format: "%.2f", seconds)) s")
    }

    /// What the lanes found, shared between their threads.
    final class Results: Sendable {
        let failures = Mutex<[String]>([])
        let slowest = Mutex((seconds: 0.0, what: ""))
        let finishedLanes = Mutex(0)
    }
}
