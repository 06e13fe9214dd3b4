import Foundation

/// An X server of a test's own (Xvfb), for tests that send input to a window or kill the server
/// under it. It takes the first free display number and is stopped when released. It runs without
/// `-noreset`, as `xvfb-run` and `xinit` servers do: it resets whenever its last client leaves, and
/// the windows opened on it must cope with that.
final class PrivateDisplay {
    let process: Process
    let display: String

    /// - Parameter resets: as described above; false for a desktop's server, which a window
    ///   manager holds (a client that polls before it connects would otherwise reset the server
    ///   under its first connection).
    init(size: String = "1280x720x24", resets: Bool = true) throws {
        // Output to a pipe read only for the number: Xvfb prints it when it is ready for clients.
        let announced = Pipe()
        process = Process(tool: "Xvfb", arguments: ["-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp"] + (resets ? [] : ["-noreset"]),
                          environment: [:], output: announced, errors: FileHandle.nullDevice)
        try process.startAlone()
        var number = ""
        let deadline = TestRig.now() + 10
        while !number.hasSuffix("\n") {
            guard TestRig.now() < deadline, process.isRunning else {
                process.kill()
                throw RigError("Xvfb did not start")
            }
            number += String(decoding: announced.fileHandleForReading.availableData, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asked to end first: Xvfb then removes its socket in /tmp/.X11-unix, which one killed
    /// outright leaves behind (three of them after a whole test run).
    deinit {
        if process.isRunning { process.terminate() }
        let deadline = TestRig.now() + 2
        while process.isRunning && TestRig.now() < deadline { usleep(5_000) }
        guard process.isRunning else { return }
        process.kill()
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X" + display.dropFirst())
    }

    /// xdotool on this display (input goes to this display's windows alone); its output, trimmed.
    @discardableResult
    func xdotool(_ arguments: [String]) throws -> String {
        let result = try TestRig.run("xdotool", arguments, environment: ["DISPLAY": display])
        return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits for the window of process `pid` and returns its X id (found by process, not title).
    func window(of pid: Int32, timeout: Double = 20) throws -> String {
        let deadline = TestRig.now() + timeout
        while TestRig.now() < deadline {
            if let id = try xdotool(["search", "--pid", "\(pid)", "--classname", "^decibar$"]).split(separator: "\n").first {
                return String(id)
            }
            usleep(50_000)
        }
        throw RigError("the player window did not appear")
    }
}
