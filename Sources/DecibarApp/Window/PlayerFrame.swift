import DecibarCore
import DecibarRender

/// Draws one frame of the player: a video's picture, the bars over or under it, and the scrubber.
/// The player's window and `render` both draw through this, so a render looks like the window.
struct PlayerFrame {
    let visualizer: Visualizer
    let pictures: PictureRenderer
    let scrubber: ScrubberView

    func draw(layout: PlayLayout, area: PictureLayout, scrubberState: ScrubberView.State, now: Double) {
        BarRenderer.clear(to: visualizer.clearColor)
        if area.picture != nil, area.barsTop == 0, let circle = visualizer.radialMiddle(width: layout.width, height: area.barsHeight) {
            // Radial bars: the picture (a track's cover) fills the circle in their middle.
            pictures.drawRound(in: circle, canvasWidth: layout.width, canvasHeight: layout.height)
        } else if let rect = area.picture {
            pictures.draw(in: rect, canvasWidth: layout.width, canvasHeight: layout.height)
        }
        // The bars' band starts `barsTop` down: drawing as if the window were that much shorter
        // (its top cut off) moves everything the visualizer draws down by as much.
        visualizer.draw(width: layout.width, height: area.barsHeight, windowHeight: layout.height - area.barsTop, now: now)
        scrubber.draw(scrubberState, layout: layout)
    }

    /// A composed video's frame (`render` with a cover or a title): the backdrop, cover and text,
    /// the bars in their band (radial bars ringing the cover), and the slim scrubber.
    func drawComposed(_ composed: ComposedView, scrubberState: ScrubberView.State, now: Double) {
        let layout = composed.layout
        let (width, height) = (layout.play.width, layout.play.height)
        BarRenderer.clear(to: visualizer.clearColor)
        composed.draw(canvasWidth: width, canvasHeight: height)
        if var circle = visualizer.radialMiddle(width: width, height: layout.barsHeight) {
            circle.y += layout.barsTop
            composed.drawRound(in: circle, canvasWidth: width, canvasHeight: height)
        }
        visualizer.draw(width: width, height: layout.barsHeight, windowHeight: height - layout.barsTop, now: now)
        if layout.showsProgress { scrubber.draw(scrubberState, layout: layout.play) }
    }
}
