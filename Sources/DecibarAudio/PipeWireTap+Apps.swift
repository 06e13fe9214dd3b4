import DecibarCore

// Listening to apps: the one capture node, linked passively to each matching stream's output
// ports as soon as they are in the registry (before the stream runs, so its first sample is
// heard), unlinked when the stream goes or moves out of what is heard. PipeWire mixes what
// several streams send into one input. On PipeWire's loop thread, like the rest of the routing.
extension PipeWireTap {
    func routeApps(_ selection: AppSelection, output: String?) {
        // Captured in the layout of the output heard (the streams' own adapters convert to it),
        // or stereo before there is one.
        let layout = graph.source(named: output)?.positions ?? ["FL", "FR"]
        guard openCapture(positions: layout, for: selection.summary) else { return }
        guard let node = captureNode, node != UInt32.max else { return }
        heardStreams = graph.streams(heardBy: selection, output: output).filter { $0.id != node }
        // Passive: a stream that does not play is not started by the tap, and nothing plays
        // just because the tap listens.
        relink(to: graph.links(feeding: heardStreams, into: node), passive: true)
        announceApps(selection)
    }

    /// Capturing while a stream is linked; otherwise waiting for one (the node still runs, so
    /// the levels read silence). Said once the node's ports are in the registry: from then on a
    /// new stream is linked the moment its own ports are.
    func announceApps(_ selection: AppSelection) {
        guard let node = captureNode, node != UInt32.max, graph.inputPorts(of: node).count == capturePositions.count else { return }
        guard let format, !links.isEmpty else {
            setStatus(.waitingForApp(selection.waitingText))
            return
        }
        setStatus(.capturing(TapDevice(name: selection.summary, description: selection.summary,
                                       sampleRate: format.rate, channelCount: format.channels)))
    }
}
