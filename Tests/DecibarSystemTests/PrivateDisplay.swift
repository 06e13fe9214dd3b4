import Foundation

/// An X server of a test's own (Xvfb), for tests that send input to a window or kill the server
/// under it. It takes the first free display number and is stopped when released. It runs without
/// `-noreset`, as `xvfb-run` and `xinit` servers do: it resets whenever its last client leaves, and
/// the windows opened on it must cope with that.
final class PrivateDisplay {
    let process: Process
    let display: String

    init(size: String = "1280x720x24") throws {
        // Output to a pipe read only for the number: Xvfb prints it when it is ready for clients.
        let announced = Pipe()
        process = Process(tool: "Xvfb", arguments: ["-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp"],
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

    deinit { process.kill() }
}
