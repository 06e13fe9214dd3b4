import Foundation

/// Busy loops until `stop`: each a shell spinning at normal priority, as a parallel build makes.
final class BusyLoops {
    private let loops: [Process]

    init(count: Int) throws {
        loops = try (0 ..< count).map { _ in
            let loop = Process(tool: "sh", arguments: ["-c", "while :; do :; done"], environment: [:],
                               output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
            try loop.startAlone()
            return loop
        }
    }

    func stop() { loops.forEach { $0.kill() } }

    deinit { stop() }
}
