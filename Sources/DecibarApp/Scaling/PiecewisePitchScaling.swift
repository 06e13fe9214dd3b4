import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// `scale --keep-pitch` on several cores: the file is cut in time (`PitchScalingPlan`), one
/// thread per core takes the next piece, reads it with its own decoder and stretches it with its
/// own Rubber Band (offline: the piece studied, then processed; all channels together, so the
/// stereo image is kept), and the calling thread joins the pieces in order (`PieceAssembler`).
/// At most one piece per thread waits beyond the one being joined, so memory stays a few pieces
/// however long the file.
struct PiecewisePitchScaling {
    let input: String
    let plan: PitchScalingPlan
    let sampleRate: Int
    let channelCount: Int
    /// Average the file's channels into one before stretching (`--single-channel`).
    let mergesChannels: Bool
    let threadCount: Int
    let isInterrupted: @Sendable () -> Bool

    /// What went wrong in a worker, said to the user as it is.
    struct Failure: Error {
        let message: String
        /// The file does not hold the frames its header gave: it must be counted and cut again.
        var isLengthChange = false
    }

    /// The pieces' outputs as they are done, and the room for more.
    private final class Shared: Sendable {
        let outputs = Mutex<[Int: Result<[Float], Failure>]>([:])
        let done: [DispatchSemaphore]
        let room: DispatchSemaphore
        let nextPiece = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)

        init(pieces: Int, room: Int) {
            done = (0 ..< pieces).map { _ in DispatchSemaphore(value: 0) }
            // Made at 0 and raised: libdispatch traps when a semaphore goes away below the value it
            // was made with, which a stopped run leaves it.
            self.room = DispatchSemaphore(value: 0)
            for _ in 0 ..< room { self.room.signal() }
        }
    }

    /// Stretches every piece and hands the joined output, `plan.outputCount` frames, to `emit`.
    func run(progress: (Int) -> Void, emit: (UnsafeBufferPointer<Float>) -> Void) throws(Failure) {
        let shared = Shared(pieces: plan.pieces.count, room: threadCount + 1)
        let workers = (0 ..< threadCount).map { number in
            let job = self
            let thread = Thread { job.work(shared) }
            thread.name = "decibar-stretch-\(number)"
            thread.stackSize = 1 << 20
            return thread
        }
        workers.forEach { $0.start() }
        defer {
            // Stop the workers and wait for them: none outlives the command.
            shared.stopped.store(true, ordering: .releasing)
            for _ in 0 ..< threadCount { shared.room.signal() }
            for _ in 0 ..< threadCount { shared.finished.wait() }
        }
        var assembler = PieceAssembler(plan: plan, channelCount: outputChannels, sampleRate: sampleRate)
        for piece in plan.pieces {
            while shared.done[piece.index].wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if isInterrupted() { throw Failure(message: "interrupted") }
            }
            let result = shared.outputs.withLock { $0.removeValue(forKey: piece.index) }
            shared.room.signal()
            guard let result else { throw Failure(message: "a piece of the stretch was lost") }
            let output = try result.get()
            assembler.add(output, emit: emit)
            progress(piece.end)
        }
        assembler.finish(emit: emit)
    }

    private var outputChannels: Int { mergesChannels ? 1 : channelCount }

    /// A worker: pieces in turn until none is left or the run stops.
    private func work(_ shared: Shared) {
        defer { shared.finished.signal() }
        var decoder: AudioFileDecoder?
        while true {
            shared.room.wait()
            guard !shared.stopped.load(ordering: .acquiring) else { return }
            let index = shared.nextPiece.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < plan.pieces.count else { return }
            let result: Result<[Float], Failure>
            do {
                if decoder == nil {
                    do {
                        decoder = try AudioFileDecoder(path: input)
                    } catch {
                        throw Failure(message: error.description)
                    }
                }
                result = .success(try stretch(plan.pieces[index], decoder: decoder!, shared: shared))
            } catch let failure as Failure {
                // The joining thread meets it in order and stops the others.
                result = .failure(failure)
            } catch {
                result = .failure(Failure(message: "\(input.escapingControlCharacters): \(error)"))
            }
            shared.outputs.withLock { $0[index] = result }
            shared.done[index].signal()
        }
    }

    /// One piece: its input studied, then processed, its whole output collected.
    private func stretch(_ piece: PitchScalingPlan.Piece, decoder: AudioFileDecoder, shared: Shared) throws(Failure) -> [Float] {
        let channels = outputChannels
        let length = piece.readEnd - piece.readStart
        guard let stretcher = TimeStretcher(sampleRate: sampleRate, channelCount: channels, mode: .offline, timeRatio: plan.factor) else {
            throw Failure(message: "\(input.escapingControlCharacters): Rubber Band cannot stretch \(sampleRate) Hz \(channels)-channel audio")
        }
        var merged: [Float] = []
        func read(_ body: (UnsafeBufferPointer<Float>, Bool) -> Void) throws(Failure) {
            do {
                try decoder.seek(toFrame: Int64(piece.readStart))
                var position = piece.readStart
                while position < piece.readEnd {
                    if shared.stopped.load(ordering: .relaxed) || isInterrupted() { throw Failure(message: "interrupted") }
                    var wanted = piece.readEnd - position
                    let more = try decoder.read { block in
                        let frames = min(block.count / channelCount, wanted)
                        guard frames > 0 else { return }
                        let part = UnsafeBufferPointer(rebasing: block[0 ..< frames * channelCount])
                        position += frames
                        wanted -= frames
                        let isLast = position == piece.readEnd
                        if mergesChannels && channelCount > 1 {
                            FileScaling.merge(part, channels: channelCount, into: &merged)
                            merged.withUnsafeBufferPointer { body($0, isLast) }
                        } else {
                            body(part, isLast)
                        }
                    }
                    guard more || position == piece.readEnd else {
                        throw Failure(message: "\(input.escapingControlCharacters): it ended at frame \(position), before the \(plan.inputCount) its header gave",
                                      isLengthChange: true)
                    }
                }
                // The last piece ends where the file does, or the header's length was short.
                if piece.readEnd == plan.inputCount {
                    var extra = 0
                    while extra == 0, try decoder.read({ extra += $0.count }) {}
                    if extra > 0 { throw Failure(message: "\(input.escapingControlCharacters): it goes on past its header's length", isLengthChange: true) }
                }
            } catch let failure as Failure {
                throw failure
            } catch let error as AudioFileError {
                throw Failure(message: error.description)
            } catch {
                throw Failure(message: "\(input.escapingControlCharacters): \(error)")
            }
        }
        try read { block, isLast in stretcher.study(block, isFinal: isLast) }
        let expected = Int((Double(length) * plan.factor).rounded()) + 1024
        var output = [Float]()
        output.reserveCapacity(expected * channels)
        var retrieved = [Float](repeating: 0, count: 8192 * channels)
        func drain() {
            while stretcher.available > 0 {
                let frames = retrieved.withUnsafeMutableBufferPointer { stretcher.retrieve(into: $0.baseAddress!, frames: 8192) }
                guard frames > 0 else { break }
                output.append(contentsOf: retrieved[0 ..< frames * channels])
            }
        }
        try read { block, isLast in
            stretcher.process(block, isFinal: isLast)
            drain()
        }
        drain()
        return output
    }
}
