import DecibarAudio
import Foundation
import Testing

/// What the decoder reads: only regular files (or bytes in memory), checked before FFmpeg sees them.
@Suite("Decoder input")
struct AudioFileInputTests {
    func reason(_ path: String) -> String? {
        do {
            _ = try AudioFileDecoder(path: path)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("FIFOs, devices, folders, loops and empty files are refused without waiting, each with its reason")
    func notRegularFiles() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/pipe.wav", 0o644)
        symlink(folder + "/b.wav", folder + "/a.wav")
        symlink(folder + "/a.wav", folder + "/b.wav")
        _ = FileManager.default.createFile(atPath: folder + "/empty.wav", contents: Data())
        let start = TestRig.now()
        #expect(reason(folder + "/pipe.wav") == "is a named pipe (FIFO), not a file")
        #expect(reason("/dev/zero") == "is a device, not a file")
        #expect(reason(folder) == "is a directory")
        #expect(reason(folder + "/a.wav") == "too many symbolic links (a loop?)")
        #expect(reason(folder + "/empty.wav") == "file is empty")
        #expect(reason(folder + "/missing.wav") == "no such file")
        #expect(TestRig.now() - start < 1)
    }

    @Test("bytes in memory decode exactly as the same file does")
    func fromBytes() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tone.flac"
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1", "-ac", "2", path])
        func decode(_ decoder: AudioFileDecoder) throws -> [Float] {
            var samples: [Float] = []
            while try decoder.read({ samples.append(contentsOf: $0) }) {}
            return samples
        }
        let fromFile = try decode(try AudioFileDecoder(path: path))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let fromMemory = try AudioFileDecoder(bytes: bytes, name: "tone.flac")
        #expect(fromMemory.sampleRate == 44100 && fromMemory.channelCount == 2 && fromMemory.byteCount == Int64(bytes.count))
        #expect(try decode(fromMemory) == fromFile)
        #expect(fromFile.count == 44100 * 2)
    }

    @Test("a length a header claims sizes nothing: the reservation is bounded by the file's size")
    func lyingLength() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = try MalformedCorpus(in: folder)
        for label in ["mp3 whose Xing header claims 0xFFFFFFFF frames", "RF64 whose ds64 chunk claims 9e15 bytes"] {
            let item = try #require(corpus.items.first { $0.label == label })
            let decoder = try AudioFileDecoder(path: item.path)
            #expect((decoder.estimatedFrameCount ?? 0) > 1_000_000_000, "\(label): the claim")
            #expect(decoder.frameCountForReservation <= decoder.byteCount * 64, "\(label)")
            var frames = 0
            while try decoder.read({ frames += $0.count / decoder.channelCount }) {}
            #expect(abs(frames - 44100) < 3000, "\(label): \(frames) frames decoded")
        }
    }
}
