import Foundation

/// A tmux server of the test's own (its own socket, no config file) holding one window of
/// `columns`×`rows` running a plain shell: what `decibar term` is started in, read back with
/// `capture-pane`, and stopped (with everything in it) when it goes.
final class PrivateTmux {
    let directory: String
    let socket: String
    private let client: Process
    /// The shell's prompt, to see it come back.
    static let prompt = "term-test$ "

    init(columns: Int, rows: Int, environment: [String: String]) throws {
        directory = try TestRig.temporaryDirectory()
        socket = directory + "/tmux.sock"
        var arguments = ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)"]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(name)=\(value)"] }
        arguments += ["env", "PS1=\(Self.prompt)", "sh"]
        // Not waited for through a pipe: the server it starts keeps its client's descriptors, so a
        // reader would wait for their end as long as the server runs. The server is ready when it answers.
        client = Process(tool: "tmux", arguments: arguments, environment: environment, output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try client.startAlone()
        let socket = socket
        guard TestRig.wait(timeout: 10, until: { (try? TestRig.run("tmux", ["-S", socket, "has-session"]))?.status == 0 }) else {
            throw RigError("tmux did not start")
        }
        // The session's own size, whatever client attaches (none does).
        _ = try tmux(["set-option", "-g", "window-size", "manual"])
        guard TestRig.wait(timeout: 5, until: { (try? self.capture())?.contains(Self.prompt.trimmingCharacters(in: .whitespaces)) == true }) else {
            throw RigError("tmux's shell did not start")
        }
    }

    deinit {
        _ = try? TestRig.run("tmux", ["-S", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try TestRig.run("tmux", ["-S", socket] + arguments)
        guard result.status == 0 else { throw RigError("tmux \(arguments.joined(separator: " ")): \(result.error)") }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// Types `line` and Enter into the shell.
    func run(_ line: String) throws { try tmux(["send-keys", "-l", line]); try tmux(["send-keys", "Enter"]) }

    /// Keys by tmux's names (`q`, `C-c`).
    func key(_ name: String) throws { try tmux(["send-keys", name]) }

    /// Bytes as the terminal would send them (a mouse report).
    func send(bytes: [UInt8]) throws { try tmux(["send-keys", "-H"] + bytes.map { String(format: "%02x", $0) }) }

    /// The screen's text; with `escapes`, its colours and attributes as SGR sequences.
    func capture(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
    }

    /// A pane's format variable (`alternate_on`, `cursor_flag`, `mouse_sgr_flag`, `pane_pid`...).
    func value(_ name: String) throws -> String {
        try tmux(["display-message", "-p", "#{\(name)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(columns: Int, rows: Int) throws { try tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"]) }

    /// The PID of the command running in the pane's shell (the shell's only child).
    func commandPID() throws -> Int32? {
        let shell = try value("pane_pid")
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }
}
