/// What a PipeWire server's registry says about its audio nodes and ports, and which links make a
/// tap hear what it should. Pure: the native tap feeds it the globals it is told about and makes the
/// links it plans.
public struct AudioGraph: Sendable, Equatable {
    public struct Node: Sendable, Equatable {
        public let id: UInt32
        /// `Audio/Sink`, `Audio/Source`, `Stream/Output/Audio`...
        public let mediaClass: String
        public let name: String
        public let description: String
        public let appName: String?
        public let appBinary: String?
    }

    public struct Port: Sendable, Equatable {
        public let id: UInt32
        public let node: UInt32
        public let isOutput: Bool
        /// A sink's monitor port: what the sink plays, as an output.
        public let isMonitor: Bool
        /// Its position, e.g. `FL`; `MONO` for a single channel.
        public let channel: String
        /// Its order on the node (`port.id`).
        public let index: Int

        public init(id: UInt32, node: UInt32, isOutput: Bool, isMonitor: Bool, channel: String, index: Int) {
            self.id = id
            self.node = node
            self.isOutput = isOutput
            self.isMonitor = isMonitor
            self.channel = channel
            self.index = index
        }
    }

    /// A link from an output port to an input port.
    public struct Link: Sendable, Hashable {
        public let output: UInt32
        public let input: UInt32
        public init(output: UInt32, input: UInt32) {
            self.output = output
            self.input = input
        }
    }

    /// A link the server holds, as the two nodes it joins.
    public struct NodeLink: Sendable, Equatable {
        public let output: UInt32
        public let input: UInt32
    }

    public private(set) var nodes: [UInt32: Node] = [:]
    public private(set) var ports: [UInt32: Port] = [:]
    /// The links the server holds, by id, as the nodes they join: where each stream plays.
    public private(set) var nodeLinks: [UInt32: NodeLink] = [:]
    /// The default sink's name, from the `default` metadata.
    public var defaultSinkName: String?

    public init() {}

    /// Takes a global the registry announced; other kinds than nodes and ports are ignored.
    /// Returns whether the graph changed.
    @discardableResult
    public mutating func add(id: UInt32, type: String, properties: [String: String]) -> Bool {
        if type.hasSuffix(":Interface:Node") {
            guard let mediaClass = properties["media.class"], mediaClass.contains("Audio") else { return false }
            let name = properties["node.name"] ?? "node \(id)"
            nodes[id] = Node(id: id, mediaClass: mediaClass, name: name,
                             description: properties["node.description"] ?? properties["node.nick"] ?? name,
                             appName: properties["application.name"], appBinary: properties["application.process.binary"])
            return true
        }
        if type.hasSuffix(":Interface:Port") {
            guard let node = properties["node.id"].flatMap({ UInt32($0) }), let direction = properties["port.direction"] else { return false }
            ports[id] = Port(id: id, node: node, isOutput: direction == "out", isMonitor: properties["port.monitor"] == "true",
                             channel: properties["audio.channel"] ?? "", index: properties["port.id"].flatMap { Int($0) } ?? Int(id))
            return true
        }
        if type.hasSuffix(":Interface:Link") {
            guard let output = properties["link.output.node"].flatMap({ UInt32($0) }),
                  let input = properties["link.input.node"].flatMap({ UInt32($0) }) else { return false }
            nodeLinks[id] = NodeLink(output: output, input: input)
            return true
        }
        return false
    }

    /// Forgets a global that went away; returns whether it was a node, port or link.
    @discardableResult
    public mutating func remove(id: UInt32) -> Bool {
        if nodes.removeValue(forKey: id) != nil {
            ports = ports.filter { $0.value.node != id }
            return true
        }
        return ports.removeValue(forKey: id) != nil || nodeLinks.removeValue(forKey: id) != nil
    }

    /// Forgets everything (the server went away).
    public mutating func clear() {
        self = AudioGraph()
    }

    /// What a tap on `target` listens to: the node and the output ports to link, in channel order.
    public struct Source: Sendable, Equatable {
        public let node: Node
        public let ports: [Port]
        /// How the source is named to a user, and how PulseAudio names it (`viz.monitor` for a sink).
        public let name: String
        public let description: String
        public var positions: [String] { ports.map(\.channel) }
    }

    /// The source for the default sink's monitor (`name` nil) or for a named source or sink (a
    /// sink's name, with or without `.monitor`, means its monitor). Nil until it has ports.
    public func source(named name: String?) -> Source? {
        let sinkName = name.map { $0.hasSuffix(".monitor") ? String($0.dropLast(".monitor".count)) : $0 } ?? defaultSinkName
        if let name, !name.hasSuffix(".monitor"), let node = nodes.values.first(where: { $0.name == name && $0.mediaClass.hasPrefix("Audio/Source") }) {
            let outputs = outputPorts(of: node.id, monitor: false)
            return outputs.isEmpty ? nil : Source(node: node, ports: outputs, name: node.name, description: node.description)
        }
        guard let sinkName, let sink = nodes.values.first(where: { $0.name == sinkName && $0.mediaClass.hasPrefix("Audio/Sink") }) else { return nil }
        let monitors = outputPorts(of: sink.id, monitor: true)
        return monitors.isEmpty ? nil : Source(node: sink, ports: monitors, name: "\(sink.name).monitor", description: "Monitor of \(sink.description)")
    }

    /// A node's output ports in their order: its monitor ports, or its own outputs.
    public func outputPorts(of node: UInt32, monitor: Bool) -> [Port] {
        ports.values.filter { $0.node == node && $0.isOutput && $0.isMonitor == monitor }.sorted { ($0.index, $0.id) < ($1.index, $1.id) }
    }

    /// A node's input ports in their order.
    public func inputPorts(of node: UInt32) -> [Port] {
        ports.values.filter { $0.node == node && !$0.isOutput }.sorted { ($0.index, $0.id) < ($1.index, $1.id) }
    }

    /// The links that feed `outputs` into `inputs`: each channel into the input of the same
    /// position; a mono output into every input, and every output into a mono input. Channels with
    /// no position in common (AUX0, AUX1...) go in order.
    public static func links(from outputs: [Port], to inputs: [Port]) -> [Link] {
        guard !outputs.isEmpty, !inputs.isEmpty else { return [] }
        if outputs.count == 1 { return inputs.map { Link(output: outputs[0].id, input: $0.id) } }
        if inputs.count == 1 { return outputs.map { Link(output: $0.id, input: inputs[0].id) } }
        var links: [Link] = []
        for output in outputs {
            for input in inputs where input.channel == output.channel && !input.channel.isEmpty {
                links.append(Link(output: output.id, input: input.id))
            }
        }
        if links.isEmpty {
            links = zip(outputs, inputs).map { Link(output: $0.id, input: $1.id) }
        }
        return links
    }
}

extension AudioGraph {
    /// The sinks a node plays to, by the links the server holds.
    public func sinks(fedBy node: UInt32) -> [Node] {
        Set(nodeLinks.values.filter { $0.output == node }.map(\.input)).sorted()
            .compactMap { nodes[$0] }.filter { $0.mediaClass.hasPrefix("Audio/Sink") }
    }

    /// The apps' playback streams a tap on `selection` hears, in id order.
    ///
    /// `output` (a sink, or its monitor) keeps to the streams playing there; without it, apps are
    /// followed to every output, and exclusions alone mean the default output. A stream not yet
    /// linked to any output is heard when the output does not matter: its first sample is then
    /// heard, whichever output it goes to.
    public func streams(heardBy selection: AppSelection, output: String?) -> [Node] {
        let outputName = output.map { $0.hasSuffix(".monitor") ? String($0.dropLast(".monitor".count)) : $0 }
        return nodes.values.filter { $0.mediaClass == "Stream/Output/Audio" }.sorted { $0.id < $1.id }.filter { stream in
            guard selection.includes(name: stream.appName, binary: stream.appBinary) else { return false }
            let sinks = sinks(fedBy: stream.id)
            if sinks.isEmpty { return outputName == nil && !selection.apps.isEmpty }
            return sinks.contains { sink in
                if let outputName { return sink.name == outputName }
                return !selection.apps.isEmpty || sink.name == defaultSinkName
            }
        }
    }

    /// The links that feed `streams` into the capture node `capture`.
    public func links(feeding streams: [Node], into capture: UInt32) -> [Link] {
        let inputs = inputPorts(of: capture)
        return streams.flatMap { Self.links(from: outputPorts(of: $0.id, monitor: false), to: inputs) }
    }
}

extension AudioGraph {
    /// The name in a `default` metadata value, `{ "name": "alsa_output.pci" }`; nil for anything else.
    public static func name(inMetadataValue value: String?) -> String? {
        guard let value, let key = value.firstRange(of: "\"name\"") else { return nil }
        var rest = value[key.upperBound...].drop { $0 == " " || $0 == "\t" }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.first == "\"" else { return nil }
        var name = ""
        var escaped = false
        for character in rest.dropFirst() {
            if escaped {
                name.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return name.isEmpty ? nil : name
            } else {
                name.append(character)
            }
        }
        return nil
    }
}
