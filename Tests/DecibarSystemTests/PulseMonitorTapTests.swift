import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// Each test talks to its own private server, named explicitly (the process environment is left alone).
@Suite("PulseMonitorTap in process")
struct PulseMonitorTapTests {
    static let reader = DedicatedThreadExecutor(name: "tap-test-reader")

    func withServer(_ body: (PrivatePulseServer) async throws -> Void) async throws {
        try await body(try PrivatePulseServer())
    }

    @Test("a reader that falls behind by the whole limit loses the newer buffers, counted; memory stays bounded")
    func boundedStream() async throws {
        try await withServer { server in
            let tap = try PulseMonitorTap(bufferLimit: 16, server: server.serverAddress)
            tap.start()
            defer { tap.stop() }
            // Nobody reads for a second: about 188 buffers arrive, 16 are kept.
            let deadline = HostClock.now() + 1
            while HostClock.now() < deadline { usleep(10_000) }
            guard case .capturing(let device) = tap.status else {
                Issue.record("tap is \(tap.status)")
                return
            }
            #expect(device.name == "viz.monitor")
            #expect(tap.deliveredBufferCount + tap.droppedBufferCount >= 150)
            #expect(tap.droppedBufferCount >= tap.deliveredBufferCount - 16)
            #expect(tap.droppedBufferCount > 100)
        }
    }

    @Test("every buffer is exactly 256 frames at the device's rate and channel count, in order")
    func exactBuffers() async throws {
        try await withServer { server in
            // Room for 85 s of buffers: other tests (renders, players) can keep this reader off the
            // CPU for a while, and this test is about exact, contiguous buffers, not the drop policy.
            let tap = try PulseMonitorTap(bufferLimit: 16384, server: server.serverAddress)
            tap.start()
            defer { tap.stop() }
            // Read on a thread of the test's own, whatever the other tests do with the pool.
            // Drops are counted on that thread, between the reader's first and last buffer: before,
            // they say how late the reader started; after, how late the pool (which other tests
            // may hold for minutes) lets this test go on, while the tap keeps capturing.
            let (received, droppedWhileReading) = await withTaskExecutorPreference(Self.reader) {
                var received: [AudioBuffer] = []
                var droppedBeforeReading = 0
                for await buffer in tap.buffers {
                    if received.isEmpty { droppedBeforeReading = tap.droppedBufferCount }
                    received.append(buffer)
                    if received.count == 100 { break }
                }
                return (received, tap.droppedBufferCount - droppedBeforeReading)
            }
            #expect(received.allSatisfy { $0.frameCount == 256 && $0.channelCount == 2 && $0.sampleRate == 48000 })
            // Consecutive start frames: nothing lost or repeated between buffers.
            for (earlier, later) in zip(received, received.dropFirst()) { #expect(later.startFrame == earlier.startFrame + 256) }
            // Capture times rise with the audio.
            #expect(zip(received, received.dropFirst()).allSatisfy { $0.captureTime <= $1.captureTime })
            #expect(droppedWhileReading == 0)
        }
    }

    @Test("a status watcher sleeps until the status changes, and no longer than its deadline")
    func statusWait() async throws {
        try await withServer { server in
            let tap = try PulseMonitorTap(server: server.serverAddress)
            defer { tap.stop() }
            // Nothing starts the tap: the status stays put, so the wait ends at its deadline.
            let before = HostClock.now()
            #expect(tap.waitForStatus(otherThan: .connecting, until: before + 0.3) == .connecting)
            let waited = HostClock.now() - before
            #expect(waited >= 0.29 && waited < 1.5)

            // Started, it leaves `connecting` for `capturing` and the watcher returns with it.
            tap.start()
            var status = TapStatus.connecting
            let deadline = HostClock.now() + 5
            while HostClock.now() < deadline {
                status = tap.waitForStatus(otherThan: status, until: deadline)
                if case .capturing = status { break }
            }
            guard case .capturing(let device) = status else {
                Issue.record("tap is \(status)")
                return
            }
            #expect(device.name == "viz.monitor")
            #expect(HostClock.now() < deadline)

            // The server goes away: the change wakes the watcher well before its deadline.
            let stopped = HostClock.now()
            server.stop()
            let next = tap.waitForStatus(otherThan: status, until: stopped + 10)
            #expect(next != status)
            #expect(HostClock.now() - stopped < 5)
        }
    }
}
