import DecibarCore
import Testing

@Suite("PipeWire's graph as the native tap sees it: sources and the links to make")
struct AudioGraphTests {
    private static let node = "PipeWire:Interface:Node"
    private static let port = "PipeWire:Interface:Port"
    private static let link = "PipeWire:Interface:Link"

    /// A sink `viz` (id 40) with two playback inputs and two monitor outputs, a microphone `mic` (50),
    /// mono, and the tap's own node (60) with its two inputs.
    private func graph() -> AudioGraph {
        var graph = AudioGraph()
        graph.add(id: 40, type: Self.node, properties: ["media.class": "Audio/Sink", "node.name": "viz", "node.description": "Null Output"])
        graph.add(id: 41, type: Self.port, properties: ["node.id": "40", "port.direction": "in", "audio.channel": "FL", "port.id": "0"])
        graph.add(id: 42, type: Self.port, properties: ["node.id": "40", "port.direction": "in", "audio.channel": "FR", "port.id": "1"])
        // Listed out of order: the order on the node (port.id) is what counts.
        graph.add(id: 44, type: Self.port, properties: ["node.id": "40", "port.direction": "out", "port.monitor": "true", "audio.channel": "FR", "port.id": "1"])
        graph.add(id: 43, type: Self.port, properties: ["node.id": "40", "port.direction": "out", "port.monitor": "true", "audio.channel": "FL", "port.id": "0"])
        graph.add(id: 50, type: Self.node, properties: ["media.class": "Audio/Source", "node.name": "mic", "node.nick": "Microphone"])
        graph.add(id: 51, type: Self.port, properties: ["node.id": "50", "port.direction": "out", "audio.channel": "MONO", "port.id": "0"])
        graph.add(id: 60, type: Self.node, properties: ["media.class": "Stream/Input/Audio", "node.name": "decibar-tap"])
        graph.add(id: 61, type: Self.port, properties: ["node.id": "60", "port.direction": "in", "audio.channel": "FL", "port.id": "0"])
        graph.add(id: 62, type: Self.port, properties: ["node.id": "60", "port.direction": "in", "audio.channel": "FR", "port.id": "1"])
        return graph
    }

    @Test("the default sink's monitor, a sink or source by name, with or without .monitor; nothing for unknown names or video")
    func sources() throws {
        var graph = graph()
        #expect(graph.source(named: nil) == nil, "no default yet")
        graph.defaultSinkName = "viz"
        let monitor = try #require(graph.source(named: nil))
        #expect(monitor.name == "viz.monitor" && monitor.description == "Monitor of Null Output")
        #expect(monitor.ports.map(\.id) == [43, 44] && monitor.positions == ["FL", "FR"])
        #expect(graph.source(named: "viz") == monitor && graph.source(named: "viz.monitor") == monitor)
        let microphone = try #require(graph.source(named: "mic"))
        #expect(microphone.name == "mic" && microphone.description == "Microphone" && microphone.positions == ["MONO"])
        #expect(graph.source(named: "nope") == nil && graph.source(named: "mic.monitor") == nil)
        let camera = graph.add(id: 70, type: Self.node, properties: ["media.class": "Video/Source", "node.name": "camera"])
        let link = graph.add(id: 71, type: "PipeWire:Interface:Link", properties: [:])
        #expect(!camera && !link)
        #expect(graph.inputPorts(of: 60).map(\.id) == [61, 62])
    }

    @Test("a node that goes takes its ports; the default sink gone means no source")
    func removal() {
        var graph = graph()
        graph.defaultSinkName = "viz"
        let sinkRemoved = graph.remove(id: 40)
        #expect(sinkRemoved)
        #expect(graph.ports[43] == nil && graph.ports[41] == nil && graph.ports[61] != nil)
        #expect(graph.source(named: nil) == nil)
        let first = graph.remove(id: 51), second = graph.remove(id: 51), unknown = graph.remove(id: 999)
        #expect(first && !second && !unknown)
    }

    @Test("links: channel to channel, mono to every input, everything into a mono input, unpositioned in order")
    func links() {
        let graph = graph()
        let inputs = graph.inputPorts(of: 60)
        typealias Link = AudioGraph.Link
        #expect(AudioGraph.links(from: graph.outputPorts(of: 40, monitor: true), to: inputs) == [Link(output: 43, input: 61), Link(output: 44, input: 62)])
        #expect(AudioGraph.links(from: graph.outputPorts(of: 50, monitor: false), to: inputs) == [Link(output: 51, input: 61), Link(output: 51, input: 62)])
        #expect(AudioGraph.links(from: graph.outputPorts(of: 40, monitor: true), to: [inputs[0]]) == [Link(output: 43, input: 61), Link(output: 44, input: 61)])
        let aux = [AudioGraph.Port(id: 1, node: 9, isOutput: true, isMonitor: false, channel: "AUX0", index: 0),
                   AudioGraph.Port(id: 2, node: 9, isOutput: true, isMonitor: false, channel: "AUX1", index: 1)]
        #expect(AudioGraph.links(from: aux, to: inputs) == [Link(output: 1, input: 61), Link(output: 2, input: 62)])
        #expect(AudioGraph.links(from: [], to: inputs).isEmpty && AudioGraph.links(from: aux, to: []).isEmpty)
    }

    /// `graph()` plus a sink `other` (45) and three apps' streams: alpha (80) playing to viz, beta
    /// (90) to other, and gamma (100), whose ports are there but which no sink has yet.
    private func graphWithApps() -> AudioGraph {
        var graph = graph()
        graph.add(id: 45, type: Self.node, properties: ["media.class": "Audio/Sink", "node.name": "other"])
        for (id, name) in [(80, "alpha"), (90, "beta"), (100, "gamma")] {
            graph.add(id: UInt32(id), type: Self.node, properties: ["media.class": "Stream/Output/Audio", "node.name": name,
                                                                    "application.name": name.capitalized, "application.process.binary": name])
            for (offset, channel) in ["FL", "FR"].enumerated() {
                graph.add(id: UInt32(id + 1 + offset), type: Self.port,
                          properties: ["node.id": "\(id)", "port.direction": "out", "audio.channel": channel, "port.id": "\(offset)"])
            }
        }
        graph.add(id: 85, type: Self.link, properties: ["link.output.node": "80", "link.input.node": "40"])
        graph.add(id: 95, type: Self.link, properties: ["link.output.node": "90", "link.input.node": "45"])
        // The tap's own link from alpha is not an output alpha plays to.
        graph.add(id: 86, type: Self.link, properties: ["link.output.node": "80", "link.input.node": "60"])
        graph.defaultSinkName = "viz"
        return graph
    }

    @Test("apps: by name or binary to any output (a stream with no output yet too), exclusions on the default output, an output named keeps to it")
    func apps() {
        var graph = graphWithApps()
        let heard = { (apps: [String], excluded: [String], output: String?) in
            graph.streams(heardBy: AppSelection(apps: apps, excludedApps: excluded), output: output).map(\.id)
        }
        #expect(graph.sinks(fedBy: 80).map(\.name) == ["viz"] && graph.sinks(fedBy: 100).isEmpty)
        #expect(heard(["Alpha"], [], nil) == [80])
        #expect(heard(["beta", "GAMMA"], [], nil) == [90, 100])
        #expect(heard([], ["beta"], nil) == [80], "the default output's streams but beta; gamma's output is not known")
        #expect(heard([], ["alpha"], nil) == [])
        #expect(heard(["alpha", "beta", "gamma"], [], "other.monitor") == [90])
        #expect(heard(["alpha", "beta", "gamma"], [], "other") == [90])
        #expect(heard(["alpha"], ["Alpha"], nil) == [], "an exclusion wins")
        graph.defaultSinkName = "other"
        #expect(heard([], ["alpha"], nil) == [90])
        // Alpha moves to other: its link to viz goes, one to other comes.
        graph.remove(id: 85)
        #expect(heard(["alpha"], [], "viz") == [] && heard(["alpha"], [], nil) == [80])
        graph.add(id: 87, type: Self.link, properties: ["link.output.node": "80", "link.input.node": "45"])
        #expect(heard(["alpha"], [], "other") == [80])
        typealias Link = AudioGraph.Link
        #expect(graph.links(feeding: graph.streams(heardBy: AppSelection(apps: ["alpha", "beta"]), output: nil), into: 60)
                == [Link(output: 81, input: 61), Link(output: 82, input: 62), Link(output: 91, input: 61), Link(output: 92, input: 62)])
    }

    @Test("the default metadata's value: the name in its JSON, escapes kept; nil for anything else")
    func metadataValue() {
        #expect(AudioGraph.name(inMetadataValue: #"{"name":"viz"}"#) == "viz")
        #expect(AudioGraph.name(inMetadataValue: #"{ "name": "alsa_output.pci-0000_00_1f.3.analog-stereo" }"#) == "alsa_output.pci-0000_00_1f.3.analog-stereo")
        #expect(AudioGraph.name(inMetadataValue: #"{"name":"a \"b\""}"#) == #"a "b""#)
        #expect(AudioGraph.name(inMetadataValue: nil) == nil)
        #expect(AudioGraph.name(inMetadataValue: "") == nil)
        #expect(AudioGraph.name(inMetadataValue: #"{"name":""}"#) == nil)
        #expect(AudioGraph.name(inMetadataValue: #"{"name": 5}"#) == nil)
        #expect(AudioGraph.name(inMetadataValue: #"{"name":"unterminated"#) == nil)
    }
}
