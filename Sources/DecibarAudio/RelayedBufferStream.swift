import DecibarCore
import Dispatch
import Foundation

/// An `AudioBufferStream` fed from a sound server's (real-time) thread: that thread's `send` only
/// stores the batch and signals, and a thread of normal priority (`name`) hands the batches to the
/// reader. Handing them over directly took a lock the reader also takes, and a reader preempted
/// while it held it kept the server's thread waiting: under load, the player's stream ran dry.
enum RelayedBufferStream {
    static func make(bufferLimit: Int, name: String) -> (stream: AudioBufferStream, handOver: AudioHandOver) {
        let semaphore = DispatchSemaphore(value: 0)
        let (stream, handOver, relay) = AudioBufferStream.makeRelayed(bufferLimit: bufferLimit) { semaphore.signal() }
        // Ends once the producer has finished and everything is handed over.
        let thread = Thread {
            repeat { semaphore.wait() } while relay.deliverWaiting()
        }
        thread.name = name
        thread.start()
        return (stream, handOver)
    }
}
