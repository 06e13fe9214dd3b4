import DecibarApp
import Foundation
import Synchronization
import Testing

/// Tests that fail on purpose, for the test runner's own test (`RunnerTests`). They run only when
/// `DECIBAR_RUNNER_PROBE` names a folder, which only that test sets for the runner it starts; the
/// folder keeps what must survive from the first run to the second, and a line per case run.
@Suite("Runner probes", .enabled(if: RunnerProbe.folder != nil, "only the runner's own test enables them"))
struct RunnerProbes {
    @Test("fails on its first run and passes on its second (only its second case fails)", arguments: [1, 2])
    func failsOnce(case number: Int) throws {
        let isSecondRun = try RunnerProbe.ran("failsOnce-\(number)")
        if number == 2 && !isSecondRun { Issue.record("the probe fails on its first run") }
    }

    @Test("fails every time")
    func alwaysFails() throws {
        _ = try RunnerProbe.ran("alwaysFails")
        Issue.record("the probe fails every time")
    }

    @Test("ends the test process")
    func crashes() throws {
        _ = try RunnerProbe.ran("crashes")
        fatalError("the probe ends the test process")
    }

    @Test("passes, but leaves a process running that ignores SIGTERM")
    func leavesProcess() throws {
        _ = try RunnerProbe.ran("leavesProcess")
        let child = Process(tool: "sh", arguments: ["-c", "trap '' TERM; exec sleep 600"], environment: [:],
                            output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try child.startAlone()
    }

    /// A shell that starts `sleep` and ends at once: the sleep is an orphan the runner adopts.
    @Test("leaves an orphan that ends after 0.2 s; it is reaped (gone from /proc) within 3 s")
    func orphanEnds() throws {
        _ = try RunnerProbe.ran("orphanEnds")
        let shell = try TestRig.run("sh", ["-c", "sleep 0.2 > /dev/null 2>&1 & echo $!"])
        let pid = String(decoding: shell.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !pid.isEmpty else { throw RigError("the shell did not name its sleep") }
        #expect(TestRig.wait(timeout: 3) { !FileManager.default.fileExists(atPath: "/proc/\(pid)") },
                "the orphan \(pid) was not reaped: \((try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?.prefix(80) ?? "")")
    }

    @Test("fails on its first run and is skipped on its second", .enabled(if: !RunnerProbe.hasRun("skippedAgain")))
    func skippedAgain() throws {
        _ = try RunnerProbe.ran("skippedAgain")
        Issue.record("the probe fails on its first run")
    }

    /// The steal the runner reads is /proc/stat's plus the jiffies in `steal` (the runner's test
    /// names that file in RUN_TESTS_EXTRA_STEAL): this probe adds a second of both cores to it.
    @Test("fails on its first two runs while the host takes the cores, passes on its third")
    func starvedTwice() throws {
        let runs = RunnerProbe.runCount("starvedTwice")
        _ = try RunnerProbe.ran("starvedTwice")
        guard runs < 2 else { return }
        try RunnerProbe.addSteal(200)
        usleep(1_200_000)
        Issue.record("the probe fails while the host takes the cores")
    }

    /// A burst: 40 jiffies at once (a core for 0.4 s) in a 6 s run, 3 % of both cores over it.
    @Test("fails on its first run after the host took the cores in one burst, passes on its second")
    func burstOnce() throws {
        guard !(try RunnerProbe.ran("burstOnce")) else { return }
        usleep(1_000_000)
        try RunnerProbe.addSteal(40)
        usleep(5_000_000)
        Issue.record("the probe fails after the host took the cores for a moment")
    }

    /// As Decibar's players raise their threads (without asking rtkit: no system bus here).
    @Test("notes whether a thread of its own could be raised to real-time, as the player raises its own")
    func raisesThread() throws {
        _ = try RunnerProbe.ran("raisesThread")
        try RunnerProbe.note("real-time \(RunnerProbe.canRaiseThread() ? "allowed" : "refused")")
    }

    @Test("starts a private PipeWire, then ends the test process without stopping it")
    func crashesWithServer() throws {
        _ = try RunnerProbe.ran("crashesWithServer")
        let server = try PrivatePulseServer(kind: .pipewire)
        try RunnerProbe.note(server.directory)
        fatalError("the probe ends the test process with its server running")
    }

    @Test("starts a private PipeWire and waits (for its runner to be killed)")
    func waitsWithServer() throws {
        _ = try RunnerProbe.ran("waitsWithServer")
        let server = try PrivatePulseServer(kind: .pipewire)
        try RunnerProbe.note(server.directory)
        sleep(120)
    }
}

enum RunnerProbe {
    static var folder: String? { ProcessInfo.processInfo.environment["DECIBAR_RUNNER_PROBE"] }

    /// Whether `name` ran before in this folder.
    static func hasRun(_ name: String) -> Bool { runCount(name) > 0 }

    /// How many times the probe `name` ran so far.
    static func runCount(_ name: String) -> Int {
        guard let folder else { return 0 }
        return ((try? String(contentsOfFile: folder + "/runs", encoding: .utf8)) ?? "").split(separator: "\n").count { $0 == name }
    }

    /// Adds `jiffies` to the steal the runner reads (its RUN_TESTS_EXTRA_STEAL file).
    static func addSteal(_ jiffies: Int) throws {
        guard let folder else { throw RigError("DECIBAR_RUNNER_PROBE is not set") }
        let path = folder + "/steal"
        let taken = Int((try? String(contentsOfFile: path, encoding: .utf8)) ?? "") ?? 0
        try String(taken + jiffies).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Whether a new thread of this process can be raised to real-time as Decibar raises its own
    /// (directly, not through rtkit). The thread ends with the answer.
    static func canRaiseThread() -> Bool {
        let raised = Mutex<Bool?>(nil)
        Thread { raised.withLock { $0 = RealtimePriority(usesRealtimeKit: false).raiseCurrentThread() } }.start()
        _ = TestRig.wait(timeout: 5) { raised.withLock { $0 } != nil }
        return raised.withLock { $0 } ?? false
    }

    /// Writes `line` to the folder's notes, for the runner's test to read.
    static func note(_ line: String) throws {
        guard let folder else { throw RigError("DECIBAR_RUNNER_PROBE is not set") }
        let old = (try? String(contentsOfFile: folder + "/notes", encoding: .utf8)) ?? ""
        try (old + line + "\n").write(toFile: folder + "/notes", atomically: true, encoding: .utf8)
    }

    /// Notes a run of `name`; whether it ran before.
    static func ran(_ name: String) throws -> Bool {
        guard let folder else { throw RigError("DECIBAR_RUNNER_PROBE is not set") }
        let before = hasRun(name)
        let file = FileHandle(forWritingAtPath: folder + "/runs") ?? {
            _ = FileManager.default.createFile(atPath: folder + "/runs", contents: nil)
            return FileHandle(forWritingAtPath: folder + "/runs")!
        }()
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data((name + "\n").utf8))
        return before
    }
}
