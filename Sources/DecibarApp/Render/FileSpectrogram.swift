import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// `decibar spectrogram FILE -o OUT.png`: a picture of a whole file's spectrogram, like
/// `sox spectrogram` and spek: time across, a log frequency axis with its labels, the file's
/// name above, times below and a dB legend at the right. Every sample counts: Hann-windowed
/// 4096-point blocks overlapping by at least half, averaged in power into each column.
public struct FileSpectrogram {
    let file: String
    let output: String
    let display: DisplaySettings

    public init(file: String, output: String, display: DisplaySettings) {
        self.file = file
        self.output = output
        self.display = display
    }

    /// The smallest picture its axes and legend fit.
    static let smallest = PixelSize(width: 200, height: 120)

    /// What the settings' kinds cannot check: a PNG that never replaces the input, big enough
    /// for the axes.
    public static func check(output: String, file: String, settings: Configuration) throws(CommandFailure) {
        func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
        guard output.lowercased().hasSuffix(".png") else { throw usage("-o must end in .png") }
        do { try OutputPath.check(output, option: "-o", kind: .file, inputs: [file]) } catch { throw usage(error.description) }
        let size = settings[ConfigSchema.display.size]
        guard size.width >= smallest.width && size.height >= smallest.height else {
            throw usage("--size must be at least \(smallest.text) for the axes to fit")
        }
    }

    public func run() throws {
        let (width, height) = (display.size.width, display.size.height)
        let analyzed = try SpectrogramOverview.analyze(path: file, columns: width)
        guard analyzed.frames > 0 else { throw CommandFailure(message: "\(file.escapingControlCharacters): no audio in it") }
        let history = analyzed.history
        let png = try draw(history: history, seconds: Double(analyzed.frames) / Double(analyzed.sampleRate), sampleRate: analyzed.sampleRate,
                           width: width, height: height)
        let partial = try PartialOutput(destination: output, protecting: [file])
        try partial.write(png)
        try partial.commit()
    }

    /// The picture, as PNG bytes.
    private func draw(history: SpectrogramHistory, seconds: Double, sampleRate: Int, width: Int, height: Int) throws -> [UInt8] {
        do {
            let canvas = try OffscreenCanvas(width: width, height: height)
            let shaders = try ShaderLibrary()
            let textSize = max(11, min(width, height) / 45)
            let labels = try TextRenderer(shaders: shaders, pixelSize: textSize)
            let rects = try RectRenderer(shaders: shaders)
            let renderer = try SpectrogramRenderer(shaders: shaders)
            let theme = display.barTheme
            let colors = display[SpectrogramSettings.rows.colorMap].table(count: 256, theme: theme)
            renderer.setColorMap(colors)
            let lineHeight = labels.size(of: "0").height
            let top = lineHeight + 8, bottom = lineHeight + 10
            let floorText = String(Int(display[SpectrogramSettings.rows.floor].rounded()))
            let layout = SpectrogramLayout(width: width - 8, height: height - top - bottom, textWidth: labels.size(of: "20k").width,
                                           textHeight: lineHeight, legendTextWidth: max(labels.size(of: floorText).width, labels.size(of: "0 dB").width))
            func shifted(_ rect: PixelRect) -> PixelRect { PixelRect(x: rect.x, y: rect.y + top, width: rect.width, height: rect.height) }
            let plot = shifted(layout.plot)
            let columns = history.columns(count: plot.width)
            let background = theme.background
            BarRenderer.clear(to: background)
            renderer.upload(columns, rows: SpectrogramState.rowCount, capacity: plot.width, newest: plot.width - 1, count: plot.width,
                            floorDB: Float(display[SpectrogramSettings.rows.floor]))
            renderer.draw(in: plot, canvasWidth: width, canvasHeight: height, newest: plot.width - 1, shown: plot.width, vertical: false)
            var shapes: [(PixelRect, Color)] = []
            let ticks = layout.ticks { text in let size = labels.size(of: text); return (size.width, size.height) }
            for tick in ticks { shapes.append((shifted(tick.tick), FrequencyLabels.color)) }
            let legend = shifted(layout.legend)
            for step in 0 ..< 64 {
                let y0 = legend.y + legend.height * (63 - step) / 64, y1 = legend.y + legend.height * (64 - step) / 64
                shapes.append((PixelRect(x: legend.x, y: y0, width: legend.width, height: y1 - y0), colors[step * 4]))
            }
            let timeTicks = TimeTicks.make(seconds: seconds, width: plot.width, labelWidth: labels.size(of: "00:00").width)
            for tick in timeTicks {
                let x = plot.x + Int((tick.seconds / seconds * Double(plot.width - 1)).rounded())
                shapes.append((PixelRect(x: x, y: plot.y + plot.height, width: 1, height: 4), FrequencyLabels.color))
            }
            rects.draw(shapes, canvasWidth: width, canvasHeight: height)
            for tick in ticks {
                labels.draw(tick.text, x: tick.textX, y: tick.textY + top, color: FrequencyLabels.color, canvasWidth: width, canvasHeight: height)
            }
            for tick in timeTicks {
                let x = plot.x + Int((tick.seconds / seconds * Double(plot.width - 1)).rounded())
                let size = labels.size(of: tick.text)
                labels.draw(tick.text, x: min(max(0, x - size.width / 2), width - size.width), y: plot.y + plot.height + 6,
                            color: FrequencyLabels.color, canvasWidth: width, canvasHeight: height)
            }
            labels.draw("0 dB", x: legend.x + legend.width + 4, y: legend.y - lineHeight / 2, color: FrequencyLabels.color, canvasWidth: width, canvasHeight: height)
            labels.draw(floorText, x: legend.x + legend.width + 4, y: legend.y + legend.height - lineHeight / 2, color: FrequencyLabels.color,
                        canvasWidth: width, canvasHeight: height)
            let title = OutputPath.name(of: file) + "   " + TimeLabel.text(seconds: seconds) + "   " + String(sampleRate) + " Hz"
            labels.draw(title, x: plot.x, y: 3, color: FrequencyLabels.color, canvasWidth: width, canvasHeight: height)
            labels.endFrame()
            return try PNGImage.encode(rgba: canvas.readRGBA(), width: width, height: height, flipVertically: true)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }
}
