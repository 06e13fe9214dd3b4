import Foundation

/// An endless radio on loopback (Scripts/icy-radio.py): an MP3 sent over and over at its bit rate,
/// with ICY stream titles ("Song 1", "Song 2"... every 5 s). Killed when it goes.
final class RadioServer {
    let port: Int
    private let process: Process

    init(mp3 path: String, bytesPerSecond: Int, directory: String) throws {
        let portFile = directory + "/radio.port"
        process = Process(tool: "python3", arguments: [TestRig.packageRoot + "/Scripts/icy-radio.py", path, "\(bytesPerSecond)", portFile],
                          environment: [:], output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try process.startAlone()
        var found: Int?
        _ = TestRig.wait(timeout: 10) {
            found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            return found != nil
        }
        guard let found else {
            kill(process.processIdentifier, SIGKILL)
            throw RigError("the test radio did not start")
        }
        port = found
    }

    deinit {
        // SIGKILL: a child started from a test thread may have SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }

    var url: String { "http://127.0.0.1:\(port)/radio" }
}
