// Draws display frames of one mode offscreen, nothing else: run under heaptrack by
// Scripts/bench-frame-allocations.sh, which tells the allocations of Decibar's own code apart from
// those of the OpenGL driver. Usage: FrameDriver MODE FRAMES, MODE a --mode, radial (bars around a
// circle) or shadertoy:FILE (bars mode drawn by that Shadertoy shader).
import DecibarApp
import DecibarCore
import DecibarRender
import Glibc

let arguments = CommandLine.arguments
let shader = arguments.count == 3 && arguments[1].hasPrefix("shadertoy:") ? String(arguments[1].dropFirst(10)) : nil
let modeName = arguments.count == 3 && (arguments[1] == "radial" || shader != nil) ? "bars" : arguments.count == 3 ? arguments[1] : ""
guard arguments.count == 3, let mode = VisualMode(rawValue: modeName), let frames = Int(arguments[2]) else {
    print("usage: FrameDriver MODE|radial|shadertoy:FILE FRAMES")
    exit(2)
}
let canvas = try OffscreenCanvas(width: 1280, height: 720)
var settings = DisplaySettings()
settings.mode = mode
settings.caps = true
if arguments[1] == "radial" { settings.arrangement = .radial }
settings.shader = shader
let visualizer = try Visualizer(options: settings, shaders: try ShaderLibrary(), labelSize: 14, now: 0)
// A 220 Hz tone with a beat on the left, 330 Hz on the right: bars, bands and meters all move.
var samples = [Float](repeating: 0, count: 512 * 4096)
for frame in 0 ..< 256 * 4096 {
    let t = Float(frame) / 48_000
    samples[2 * frame] = 0.5 * sinf(2 * .pi * 220 * t) * (0.3 + 0.7 * abs(sinf(2 * .pi * 2 * t)))
    samples[2 * frame + 1] = 0.4 * sinf(2 * .pi * 330 * t)
}
var rechunker = Rechunker(channelCount: 2, sampleRate: 48_000)
var audio: [AudioBuffer] = []
samples.withUnsafeBufferPointer { all in rechunker.append(all) { audio.append($0) } }
let feed = AudioFeed()
var next = 0
for _ in 0 ..< frames {
    for _ in 0 ..< 4 {
        var buffer = audio[next % audio.count]
        buffer.captureTime = Double(next + 1) * 256 / 48_000
        feed.add(buffer)
        next += 1
    }
    let now = Double(next) * 256 / 48_000
    visualizer.update(reading: feed.release(heardBy: now), feed: feed, dt: 1.0 / 60, now: now, canvasWidth: 1280)
    BarRenderer.clear(to: visualizer.clearColor)
    visualizer.draw(width: 1280, height: 720, windowHeight: 720, now: now)
}
canvas.finish()
