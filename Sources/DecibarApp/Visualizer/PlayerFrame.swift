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
        if let rect = area.picture { pictures.draw(in: rect, canvasWidth: layout.width, canvasHeight: layout.height) }
        // The bars' band starts `barsTop` down: drawing as if the window were that much shorter
        // (its top cut off) moves everything the visualizer draws down by as much.
        visualizer.draw(width: layout.width, height: area.barsHeight, windowHeight: layout.height - area.barsTop, now: now)
        scrubber.draw(scrubberState, layout: layout)
    }
}
