import Foundation

/// A session bus of the test's own (dbus-daemon with the standard session policy), stopped when
/// the bus goes, so that player names and signals are the test's alone.
final class PrivateSessionBus {
    let directory: String
    let address: String
    private let daemon: Process

    init() throws {
        directory = try TestRig.temporaryDirectory()
        address = "unix:path=\(directory)/bus"
        daemon = Process(tool: "dbus-daemon", arguments: ["--config-file=/usr/share/dbus-1/session.conf", "--address=\(address)",
                                                          "--nofork", "--nopidfile"],
                         environment: [:], output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try daemon.startAlone()
        let environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        guard TestRig.wait(timeout: 5, until: { (try? TestRig.run("busctl", ["--user", "list"], environment: environment))?.status == 0 }) else {
            daemon.terminate()
            throw RigError("the session bus did not start")
        }
    }

    deinit {
        daemon.terminate()
        // Not waitUntilExit: it may wait for a run loop that this thread does not run. One that
        // does not end on SIGTERM is killed: nothing a test started may outlive it.
        if !TestRig.wait(timeout: 5, until: { [daemon] in !daemon.isRunning }) { daemon.kill() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }
}
