import Foundation

/// `decibar term` on a pseudo-terminal of the test's own, driven by Python's `pty` module (a
/// child with the pty as its controlling terminal, which a Swift test process cannot fork). It
/// answers the terminal queries as told, reads everything written (or stops reading for a while,
/// as a stalled SSH link does), sends q and reports what it saw.
struct PseudoTerminal {
    /// What the driver does, step by step.
    enum Step {
        /// Reads for this long, keeping the bytes.
        case read(Double)
        /// Reads nothing for this long.
        case stall(Double)
        /// Reads for this long and counts the bytes apart (the n-th count).
        case count(Double)
    }

    struct Result {
        /// Every byte written, in order, and how many of them came before q was sent.
        var output: Data
        var beforeQuit: Int
        /// Bytes read in each `.count` step.
        var counts: [Int]
        /// The process's resident memory in bytes before each step and after the last.
        var sizes: [Int]
        /// Exit status (negative: the signal), and seconds from q to the exit.
        var status: Int
        var quitSeconds: Double
    }

    static let driver = #"""
    import os, pty, sys, time, select, struct, fcntl, termios, json
    plan = json.loads(sys.argv[1]); out_path = sys.argv[2]; args = sys.argv[3:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(args[0], args)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 30, 100, 800, 600))
    out = bytearray(); counts = []; pending = b''
    def answer(data):
        global pending
        pending = (pending + data)[-64:]
        if b'\x1b[?2026$p' in pending and plan['sync']:
            os.write(fd, b'\x1b[?2026;2$y'); pending = pending.replace(b'\x1b[?2026$p', b'')
        if b'\x1b[c' in pending:
            os.write(fd, b'\x1b[?62;22c'); pending = pending.replace(b'\x1b[c', b'')
    def read_for(seconds):
        got = 0; end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.02)
            if r:
                try: data = os.read(fd, 65536)
                except OSError: return got
                out.extend(data); got += len(data); answer(data)
        return got
    def rss():
        try:
            for line in open('/proc/%d/status' % pid):
                if line.startswith('VmRSS:'): return int(line.split()[1]) * 1024
        except OSError: pass
        return 0
    sizes = []
    for kind, seconds in plan['steps']:
        sizes.append(rss())
        if kind == 'read': read_for(seconds)
        elif kind == 'stall': time.sleep(seconds)
        else: counts.append(read_for(seconds))
    sizes.append(rss())
    quit_offset = len(out); os.write(fd, b'q'); quit_at = time.time()
    status = None
    while time.time() < quit_at + 10:
        read_for(0.05)
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else -os.WTERMSIG(code); break
    if status is None:
        os.kill(pid, 9); os.waitpid(pid, 0); status = -999
    open(out_path, 'wb').write(out)
    print(json.dumps({'counts': counts, 'status': status, 'quit': time.time() - quit_at, 'offset': quit_offset, 'sizes': sizes}))
    """#

    /// Runs `decibar term` with `arguments` through `steps`; `answersSync`: whether the terminal
    /// says it has synchronized output (DECRQM 2026). DA1 is answered without sixel either way.
    static func run(_ arguments: [String], environment: [String: String], answersSync: Bool, steps: [Step]) throws -> Result {
        let folder = try TestRig.temporaryDirectory()
        let plan: [String: Any] = [
            "sync": answersSync,
            "steps": steps.map { step -> [Any] in
                switch step {
                case .read(let seconds): ["read", seconds]
                case .stall(let seconds): ["stall", seconds]
                case .count(let seconds): ["count", seconds]
                }
            },
        ]
        let planText = String(decoding: try JSONSerialization.data(withJSONObject: plan), as: UTF8.self)
        let outputPath = folder + "/output"
        let ran = try TestRig.run("python3", ["-c", driver, planText, outputPath, TestRig.decibar, "term"] + arguments,
                                  environment: environment.merging(["TERM": "xterm-256color"]) { $1 })
        guard ran.status == 0,
              let report = try JSONSerialization.jsonObject(with: ran.output) as? [String: Any],
              let counts = report["counts"] as? [Int], let status = report["status"] as? Int, let quit = report["quit"] as? Double,
              let offset = report["offset"] as? Int, let sizes = report["sizes"] as? [Int] else {
            throw RigError("the pty driver failed: \(ran.error)")
        }
        return Result(output: try Data(contentsOf: URL(fileURLWithPath: outputPath)), beforeQuit: offset, counts: counts, sizes: sizes, status: status, quitSeconds: quit)
    }
}
