// libFuzzer target: Milkdrop presets, through what guards libprojectM and then libprojectM itself,
// as `--mode milkdrop` shows a preset: the bytes are checked (`PresetCheck`, what the app asks of
// a file before loading it); accepted, they are written to a .milk file, loaded, and drawn for
// two frames with a little audio, offscreen (EGL surfaceless, as `decibar render` draws).
//
// One canvas and one renderer serve every input, each loading its preset over the last one's
// (what a playlist does): a renderer made for each input (libprojectM's engine, textures, worker
// thread and idle preset again) ran 5 inputs a second where this runs 40. An input is then not
// always alone in what it reaches (the last picture is in the feedback texture, and libprojectM's
// parser keeps some state from one preset to the next): a crash is confirmed by running its
// reproducer alone.
//
// The plug-in is the one beside this binary (Scripts/fuzz.sh builds it with coverage and
// AddressSanitizer); libprojectM under it is Debian's, uninstrumented. What a preset did inside it
// reaches libFuzzer as what Decibar sees of it (`observe`): every accepted preset takes the same
// path through Decibar's own code.
import CMilkdrop
import DecibarCore
import DecibarRender
import Foundation

private let width = 160, height = 90

nonisolated(unsafe) private var canvas: OffscreenCanvas?
nonisolated(unsafe) private var renderer: MilkdropRenderer?
nonisolated(unsafe) private var presetPath = ""
nonisolated(unsafe) private var clock = 0.0
/// A frame's audio at 44.1 kHz and 60 frames a second: a tone and a kick, so presets hear bass and beats.
private let audio: [Float] = (0 ..< 735).map { index in
    let time = Float(index) / 44_100
    return 0.3 * sinf(2 * .pi * 220 * time) + (index < 200 ? 0.6 * sinf(2 * .pi * 55 * time) : 0)
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutableRawPointer) -> Int32 {
    let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let plugin = (binary as NSString).deletingLastPathComponent + "/" + MilkdropRenderer.pluginName
    var message = [CChar](repeating: 0, count: 512)
    // Opened now, before libFuzzer counts its modules, and from here: the first path given is the one used.
    guard decibar_milkdrop_load(plugin, &message, Int32(message.count)) != nil else {
        fail("no plug-in: " + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    // In TMPDIR: removed at exit, which a crash skips (Scripts/fuzz.sh gives a folder it removes).
    let folder = FileManager.default.temporaryDirectory.path + "/decibar-fuzz-milk-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    presetPath = folder + "/input.milk"
    atexit { try? FileManager.default.removeItem(atPath: (presetPath as NSString).deletingLastPathComponent) }
    do {
        canvas = try OffscreenCanvas(width: width, height: height)
        // The app's mesh, frame rate and data folder (MilkdropVisual, PresetLibrary).
        renderer = try MilkdropRenderer(shaders: ShaderLibrary(), width: width, height: height, mesh: (32, 24), fps: 60,
                                        dataDirectory: "/usr/share/projectM", seed: 1, clock: clock)
    } catch {
        fail(error.description)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMilkPreset(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard PresetCheck.problem(in: bytes) == nil, let renderer else { return 0 }
    guard FileManager.default.createFile(atPath: presetPath, contents: Data(buffer: bytes)) else { fail("cannot write \(presetPath)") }
    let loaded = renderer.loadPreset(presetPath)
    if let problem = loaded.problem {
        precondition(!problem.isEmpty, "a preset refused says why")
        observe(problem: problem, missingTextures: loaded.missingTextures, frames: [])
        return 0
    }
    var frames: [[UInt8]] = []
    for _ in 0 ..< 2 {
        clock += 1.0 / 60
        audio.withUnsafeBufferPointer { renderer.addAudio(left: $0, right: $0) }
        // A frame that fails says why; the app then stops drawing Milkdrop, which is no crash.
        do {
            try renderer.draw(clock: clock, in: PixelRect(x: 0, y: 0, width: width, height: height), canvasWidth: width, canvasHeight: height)
            frames.append(canvas?.readRGBA() ?? [])
        } catch {
            observe(problem: error.description, missingTextures: loaded.missingTextures, frames: frames)
            return 0
        }
    }
    observe(problem: nil, missingTextures: loaded.missingTextures, frames: frames)
    return 0
}

/// Tells libFuzzer what libprojectM did with a preset, as far as Decibar sees it: the words of
/// why it refused one, the textures it found nowhere, how many colors its frames hold and how
/// many pixels moved between them. Each is counted by a branch taken once an item, and libFuzzer
/// tells hit counts apart in powers of two (1, 2, 3, 4-7, ... 128+), so a preset that draws with
/// more colors, moves more, or is refused otherwise is new coverage. The picture moves with the
/// clock as well: a count near a power of two may differ from one run of the same input to the next.
private func observe(problem: String?, missingTextures: [String], frames: [[UInt8]]) {
    var items = 0
    if let problem {
        for word in problem.split(separator: " ").prefix(200) {
            if word.contains(where: \.isNumber) { items += 1 } else { items += 2 }
        }
    }
    for name in missingTextures where !name.isEmpty { items += 1 }
    for frame in frames {
        // Colors at 3 bits a channel: 512 at most.
        var colors = Set<Int>()
        var pixel = 0
        while pixel + 3 < frame.count {
            if colors.insert(Int(frame[pixel] >> 5) << 6 | Int(frame[pixel + 1] >> 5) << 3 | Int(frame[pixel + 2] >> 5)).inserted { items += 1 }
            pixel += 4
        }
    }
    if frames.count == 2, frames[0].count == frames[1].count {
        var moved = 0
        for index in stride(from: 0, to: frames[0].count, by: 4) where frames[0][index ..< index + 3] != frames[1][index ..< index + 3] {
            moved += 1
        }
        // Its powers of two, one a pass: 14 400 pixels at most.
        while moved > 0 {
            moved >>= 1
            items += 1
        }
    }
    // What counts is how often each branch was taken, not the sum.
    _ = items
}

private func fail(_ reason: String) -> Never {
    FileHandle.standardError.write(Data("FuzzMilkPreset: \(reason)\n".utf8))
    exit(1)
}
