import Foundation
import Testing

/// The test runner `make test` uses (Scripts/run-tests.py), run on this very test binary with the
/// probes of `RunnerProbes` enabled: a second run must really run the failed test again, all its
/// cases, and anything short of a pass there must fail the whole run.
@Suite("The test runner")
struct RunnerTests {
    /// Runs the runner with `arguments`; its status, its own lines (standard output; the tests
    /// report on standard error) and the probes' runs.
    /// The runner on the probes. Unless `hostShare` or `hostBurst` is given, what the host takes
    /// (steal) excuses no failure: these tests judge the runner's own rules, on whatever host runs them.
    private func runner(_ arguments: [String], probeFolder: String? = nil, hostShare: String = "101", hostBurst: String = "101") throws
        -> (status: Int32, output: String, runs: [String]) {
        let folder = try probeFolder ?? TestRig.temporaryDirectory()
        defer { if probeFolder == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let result = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/run-tests.py", "--tests", CommandLine.arguments[0],
                                                 "--timeline", folder + "/timeline.txt", "--host-share", hostShare,
                                                 "--host-burst", hostBurst] + arguments,
                                     // The crash probe's trap would start Swift's backtracer, which under
                                     // AddressSanitizer hangs reading the crashed process: it is not what is tested.
                                     environment: ["DECIBAR_RUNNER_PROBE": folder, "SWIFT_BACKTRACE": "enable=no",
                                                   "RUN_TESTS_EXTRA_STEAL": folder + "/steal"])
        let runs = ((try? String(contentsOfFile: folder + "/runs", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (result.status, String(decoding: result.output, as: UTF8.self), runs)
    }

    /// The runner's closing lines: everything after its last line that starts with `marker`.
    private func closing(_ output: String, after marker: String) -> [String] {
        let lines = output.split(separator: "\n").map(String.init)
        guard let index = lines.lastIndex(where: { $0.hasPrefix(marker) }) else { return [] }
        return Array(lines[(index + 1)...])
    }

    @Test("a test that fails once passes on its second run, all of its cases run again, and it is named at the end")
    func failsOnce() throws {
        let run = try runner(["--filter", "RunnerProbes/failsOnce"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.runs == ["failsOnce-1", "failsOnce-2", "failsOnce-1", "failsOnce-2"])
        #expect(run.output.contains("second run of DecibarSystemTests.RunnerProbes/failsOnce(case:)/RunnerProbes.swift:"))
        #expect(run.output.contains("ran 1 test (2 cases), passed"))
        let named = closing(run.output, after: "run-tests: passed: 1 tests ran; these needed a second run:")
        #expect(named.count == 1 && named[0].hasPrefix("  ↻ DecibarSystemTests.RunnerProbes/failsOnce(case:)/"), "\(run.output)")
    }

    @Test("a test that failed twice while the host took the cores runs once more, once the host takes less; passing then, it passes the run, named apart from the tests' own second runs")
    func starvedByHost() throws {
        let run = try runner(["--filter", "RunnerProbes/starvedTwice"], hostShare: "5")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.runs == ["starvedTwice", "starvedTwice", "starvedTwice"], "\(run.output)")
        #expect(run.output.contains("run-tests: 1 of them failed while the host took at least 5 % of the cores"), "\(run.output)")
        #expect(run.output.contains(" in half a second): running DecibarSystemTests.RunnerProbes/starvedTwice()/"), "\(run.output)")
        #expect(run.output.contains("run 3 of DecibarSystemTests.RunnerProbes/starvedTwice()/"), "\(run.output)")
        // Listed apart from the tests' own second runs, with what the host took.
        #expect(run.output.contains("run-tests: passed: 1 tests ran, none needed a second run of its own\n"), "\(run.output)")
        let named = closing(run.output, after: "run-tests: run again because the host took at least 5 % of the cores")
        #expect(named.count == 1 && named[0].hasPrefix("  ⏸ DecibarSystemTests.RunnerProbes/starvedTwice()/") && named[0].contains("; the host took "),
                "\(run.output)")
    }

    /// The host's steal in one burst: a fifth of both cores for half a second, under 5 % over the test.
    @Test("a test that failed while the host took the cores in one burst is the host's; with --host-burst above 100 it is the test's own")
    func starvedInABurst() throws {
        let run = try runner(["--filter", "RunnerProbes/burstOnce"], hostShare: "5", hostBurst: "20")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.runs == ["burstOnce", "burstOnce"], "\(run.output)")
        #expect(run.output.contains("run-tests: 1 of them failed while the host took at least 5 % of the cores (or 20 % in half a second)"),
                "\(run.output)")
        let named = closing(run.output, after: "run-tests: run again because the host took at least 5 % of the cores (or 20 % in half a second)")
        #expect(named.count == 1 && named[0].hasPrefix("  ⏸ DecibarSystemTests.RunnerProbes/burstOnce()/"), "\(run.output)")
        // The mean alone (4 % or less here) excuses nothing: the same run is the test's own second run.
        let own = try runner(["--filter", "RunnerProbes/burstOnce"], hostShare: "5")
        #expect(own.status == 0 && own.runs == ["burstOnce", "burstOnce"], "\(own.output)")
        let ownNamed = closing(own.output, after: "run-tests: passed: 1 tests ran; these needed a second run:")
        #expect(ownNamed.count == 1 && ownNamed[0].hasPrefix("  ↻ DecibarSystemTests.RunnerProbes/burstOnce()/"), "\(own.output)")
    }

    @Test("a test that always fails is run again and fails the run")
    func alwaysFails() throws {
        let run = try runner(["--filter", "RunnerProbes/alwaysFails"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.runs == ["alwaysFails", "alwaysFails"])
        let named = closing(run.output, after: "run-tests: failed again:")
        #expect(named.count == 1 && named[0].contains("RunnerProbes/alwaysFails()/") && named[0].contains("the probe fails every time"),
                "\(run.output)")
    }

    @Test("a second run that runs fewer tests than failed (here: the test is skipped) fails the run")
    func skippedAgain() throws {
        let run = try runner(["--filter", "RunnerProbes/skippedAgain"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.runs == ["skippedAgain"])
        let named = closing(run.output, after: "run-tests: failed again:")
        #expect(named.count == 1 && named[0].contains("the second run ran 0 test(s)"), "\(run.output)")
    }

    @Test("a test process that dies mid-run fails the run and names the test it was running")
    func crashes() throws {
        let run = try runner(["--filter", "RunnerProbes/crashes"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.runs == ["crashes"])
        #expect(run.output.contains("before the run finished (tests still running: DecibarSystemTests.RunnerProbes/crashes()/"), "\(run.output)")
    }

    @Test("a process a test leaves running (even one that ignores SIGTERM) fails the run, is named and is killed")
    func leavesProcess() throws {
        let run = try runner(["--filter", "RunnerProbes/leavesProcess"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.runs == ["leavesProcess"])
        let named = closing(run.output, after: "run-tests: 1 process(es) started by the tests were still running at the end")
        #expect(named.count == 1 && named[0].contains("sleep 600"), "\(run.output)")
        let pid = named.first.flatMap { Int32($0.split(separator: "\t").first?.split(separator: " ").last ?? "") }
        #expect(pid.map { kill($0, 0) != 0 } == true, "the process left behind still runs: \(run.output)")
    }

    @Test("an orphan a test leaves that ends during the run is reaped then, not left a zombie until the run ends")
    func reapsOrphans() throws {
        let run = try runner(["--filter", "RunnerProbes/orphanEnds"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.runs == ["orphanEnds"], "\(run.output)")
    }

    /// What the runner named as still running: PID and the name its PID file gives.
    private func stopped(_ output: String) -> [(pid: Int32, name: String)] {
        output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard line.hasPrefix("  ✘ "), fields.count == 3, let pid = Int32(fields[0].dropFirst(4)) else { return nil }
            return (pid, String(fields[2].dropFirst().prefix { $0 != "," && $0 != ")" }))
        }
    }

    /// Whether `pid` runs (a process that ended but is not reaped yet does not).
    private func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = stat.split(separator: ")").last?.split(separator: " ").first else { return false }
        return state != "Z"
    }

    @Test("a test process that dies with a private PipeWire running: the run stops and names its four processes by their PID files, and removes its scratch folder")
    func crashesWithServer() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try runner(["--filter", "RunnerProbes/crashesWithServer"], probeFolder: folder)
        #expect(run.status == 1, "\(run.output)")
        let server = try String(contentsOfFile: folder + "/notes", encoding: .utf8).trimmingCharacters(in: .newlines)
        let named = stopped(run.output)
        #expect(Set(named.map(\.name)).isSuperset(of: ["pipewire", "wireplumber", "pipewire-pulse", "dbus-daemon"]), "\(run.output)")
        #expect(!named.contains { isRunning($0.pid) }, "still running after the run: \(run.output)")
        #expect(!FileManager.default.fileExists(atPath: server), "\(server) is still there")
        let base = (server as NSString).lastPathComponent
        #expect(run.output.contains("scratch folders of test processes that did not remove them") && run.output.contains(base), "\(run.output)")
    }

    @Test("a runner killed mid-run leaves its scratch folder and a private PipeWire: the next run stops and names them, and removes the folder")
    func killedRunner() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = Process(tool: "python3", arguments: [TestRig.packageRoot + "/Scripts/run-tests.py", "--tests", CommandLine.arguments[0],
                                                         "--timeline", folder + "/timeline.txt", "--filter", "RunnerProbes/waitsWithServer"],
                            environment: ["DECIBAR_RUNNER_PROBE": folder], output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try first.startAlone()
        #expect(TestRig.wait(timeout: 30) { FileManager.default.fileExists(atPath: folder + "/notes") }, "the probe's server never started")
        let server = try String(contentsOfFile: folder + "/notes", encoding: .utf8).trimmingCharacters(in: .newlines)
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let pids = try ["pipewire", "wireplumber", "pipewire-pulse", "dbus-daemon"].map {
            try #require(Int32(String(contentsOfFile: "\(server)/\($0).pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        #expect(pids.allSatisfy(isRunning), "the server did not outlive its runner")
        let next = try runner(["--filter", "RunnerProbes/failsOnce"])
        #expect(next.output.contains("an earlier run ended without cleaning up"), "\(next.output)")
        let named = stopped(next.output)
        // The four, and the test process that was waiting.
        #expect(Set(pids).isSubset(of: Set(named.map(\.pid))) && named.count >= 5, "\(next.output)")
        #expect(!pids.contains(where: isRunning), "still running after the next run: \(next.output)")
        #expect(!FileManager.default.fileExists(atPath: server), "\(server) is still there")
    }

    @Test("a failed test is shown with how long it ran, and the timeline names each test")
    func timeline() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/run-tests.py", "--tests", CommandLine.arguments[0],
                                                 "--timeline", folder + "/timeline.txt", "--filter", "RunnerProbes/(alwaysFails|failsOnce)"],
                                     environment: ["DECIBAR_RUNNER_PROBE": folder])
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(output.contains("RunnerProbes/alwaysFails()/") && output.contains("      ran 0."), "\(output)")
        let lines = ((try? String(contentsOfFile: folder + "/timeline.txt", encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("tests   DecibarSystemTests.RunnerProbes/") }, "\(lines)")
        // With how busy the cores were and what the host took meanwhile, on every line and beside the failure.
        #expect(lines.allSatisfy { $0.contains("% busy, ") && $0.contains("% to the host, at most ") && $0.hasSuffix(" %)") }, "\(lines)")
        #expect(output.contains("% in half a second)\n"), "\(output)")
    }

    @Test("with a filter, --beside runs its own tests in a second lane (here, with --beside-here, in this environment) where no thread can be raised to real-time, --alone its own after both, and the others only in the first")
    func besideUnderFilter() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/run-tests.py", "--tests", CommandLine.arguments[0],
                                                 "--timeline", folder + "/timeline.txt", "--filter", "RunnerProbes/(failsOnce|leavesProcess|skippedAgain|raisesThread)",
                                                 "--beside", "RunnerProbes/(failsOnce|raisesThread)", "--beside-here", "--alone", "RunnerProbes/leavesProcess"],
                                     environment: ["DECIBAR_RUNNER_PROBE": folder])
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(output.contains("at the lowest priority in this environment (RunnerProbes/(failsOnce|raisesThread)), took"), "\(output)")
        // The lane's players cannot take turns with the timed tests' real-time threads (where they
        // could, a stretched player beside kept a tap's thread from the cores: graph cycles lost).
        let notes = (try? String(contentsOfFile: folder + "/notes", encoding: .utf8)) ?? ""
        #expect(notes == "real-time refused\n", "\(notes)")
        // Outside the lane, the same probe's thread is raised (this test runs as root, or with
        // RLIMIT_RTPRIO): what the lane refuses, it refuses by its own doing.
        #expect(RunnerProbe.canRaiseThread(), "a thread of the test process could not be raised either")
        let lines = ((try? String(contentsOfFile: folder + "/timeline.txt", encoding: .utf8)) ?? "").split(separator: "\n")
        // Each lane and its test, without the test's line in the file.
        let lanes = Set(lines.map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).prefix(2).joined(separator: " ").replacing(#/:\d+:\d+$/#, with: "")
        })
        #expect(lanes == ["beside DecibarSystemTests.RunnerProbes/failsOnce(case:)/RunnerProbes.swift",
                          "beside DecibarSystemTests.RunnerProbes/raisesThread()/RunnerProbes.swift",
                          "alone DecibarSystemTests.RunnerProbes/leavesProcess()/RunnerProbes.swift",
                          "timed DecibarSystemTests.RunnerProbes/skippedAgain()/RunnerProbes.swift"], "\(lines)")
        // The alone lane starts only once the others have ended.
        let starts = lines.map { line in line.split(separator: " ", omittingEmptySubsequences: true) }
        let aloneStart = starts.first { $0.count > 2 && $0[2] == "alone" }.flatMap { Double($0[0]) } ?? -1
        let othersEnd = starts.filter { $0.count > 2 && $0[2] != "alone" }.compactMap { Double($0[1]) }.max() ?? .infinity
        #expect(aloneStart >= othersEnd, "\(lines)")
    }

    @Test("more failures than --max-reruns are not run again, and fail the run")
    func tooMany() throws {
        let run = try runner(["--max-reruns", "1", "--filter", "RunnerProbes/(failsOnce|alwaysFails)"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("run-tests: 2 test(s) failed on the first run:"))
        #expect(run.output.contains("more than 1 failures; not running them again"))
        #expect(run.runs.sorted() == ["alwaysFails", "failsOnce-1", "failsOnce-2"])
    }
}
