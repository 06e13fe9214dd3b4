import DecibarCore
import Testing

@Suite("Control protocol")
struct ControlProtocolTests {
    func parse(_ text: String) -> ControlRequest.Parsed { ControlRequest.parse(Array(text.utf8)) }

    @Test("requests are read with their ids and typed arguments")
    func requests() {
        #expect(parse(#"{"command": ["seek", 90, "absolute"], "request_id": 7}"#) ==
                .request(ControlRequest(id: 7, command: .seek(seconds: 90, relative: false))))
        #expect(parse(#"{"command": ["seek", -5]}"#) == .request(ControlRequest(id: 0, command: .seek(seconds: -5, relative: true))))
        #expect(parse(#"{"command": ["open", ["/a.flac", "/b.flac"], "append"], "request_id": 1}"#) ==
                .request(ControlRequest(id: 1, command: .open(paths: ["/a.flac", "/b.flac"], append: true))))
        #expect(parse(#"{"command": ["set", "theme", "fire"]}"#) == .request(ControlRequest(command: .set(key: "theme", value: .string("fire")))))
        #expect(parse(#"{"command": ["subscribe", "levels", 60]}"#) ==
                .request(ControlRequest(command: .subscribe(Subscription(kind: .levels, rate: 60)))))
        #expect(parse(#"{"command":["get_status"],"request_id":-3}"#) == .request(ControlRequest(id: -3, command: .getStatus)))
        #expect(parse(#"{"command": ["zoom", 8]}"#) == .request(ControlRequest(command: .zoom(factor: 8))))
        #expect(parse(#"{"command": ["ab_loop", 10, 12.5]}"#) == .request(ControlRequest(command: .abLoop(start: 10, end: 12.5))))
        #expect(parse(#"{"command": ["ab_loop", "off"]}"#) == .request(ControlRequest(command: .abLoopOff)))
        #expect(parse(#"{"command": ["chapter", "previous"]}"#) == .request(ControlRequest(command: .chapter(forward: false))))
    }

    @Test("blank lines and # comments get no reply")
    func ignored() {
        #expect(parse("") == .ignored)
        #expect(parse("   ") == .ignored)
        #expect(parse("# a note") == .ignored)
    }

    @Test("bad lines are answered with mpv's error strings and keep their request id when it could be read")
    func failures() {
        func code(_ text: String) -> (ControlFailure.Code, Int64)? {
            if case .failure(let failure, let id) = parse(text) { return (failure.code, id) }
            return nil
        }
        #expect(code("not json")! == (.invalidParameter, 0))
        #expect(code("[1, 2]")! == (.invalidParameter, 0))
        #expect(code(#"{"command": "seek"}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": [], "request_id": 4}"#)! == (.invalidParameter, 4))
        #expect(code(#"{"command": ["seek", "x"], "request_id": 5}"#)! == (.invalidParameter, 5))
        #expect(code(#"{"command": ["seek", 1, "sideways"]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["show", 1]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["zoom", 0]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["zoom", "sideways"]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["zoom"]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["ab_loop", 12, 10]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["ab_loop", "on"]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["ab_loop", -1, 10]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["chapter", "sideways"]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["subscribe", "levels", 1000]}"#)! == (.invalidParameter, 0))
        #expect(code(#"{"command": ["fly"], "request_id": 9}"#)! == (.unknownCommand, 9))
        #expect(code(#"{"command": ["get_status"], "request_id": 1.5}"#)! == (.invalidParameter, 0))
        // Deep nesting is refused before decoding; brackets inside strings do not count.
        #expect(code("{\"command\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}")! == (.invalidParameter, 0))
        #expect(parse(#"{"command": ["open", "/[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[.flac"]}"#) ==
                .request(ControlRequest(command: .open(paths: ["/[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[.flac"], append: false))))
        // Invalid UTF-8 inside a string is not JSON.
        #expect(code("{\"command\": [\"open\", \"\u{FF}\"]}".replacingOccurrences(of: "\u{FF}", with: "")) != nil)
        #expect(ControlRequest.parse([0x7B, 0x22, 0xFF, 0x22, 0x7D]) == .failure(ControlFailure(.invalidParameter, "not a JSON object (one per line, UTF-8)"), id: 0))
    }

    @Test("an unknown command suggests the closest one")
    func suggestion() {
        guard case .failure(let failure, _) = parse(#"{"command": ["get_stauts"]}"#) else { Issue.record("accepted"); return }
        #expect(failure.message == #"no command "get_stauts" (did you mean get_status?)"#)
    }

    @Test("lines are split at newlines (CRLF too); an over-long line is reported once and skipped to its end")
    func splitting() {
        var splitter = ControlLineSplitter(maximumLineLength: 8)
        var pieces: [ControlLineSplitter.Piece] = []
        splitter.append(Array("ab\r\ncd".utf8)) { pieces.append($0) }
        splitter.append(Array("e\n0123456789abcdef".utf8)) { pieces.append($0) }
        splitter.append(Array("ghij\nok\n".utf8)) { pieces.append($0) }
        #expect(pieces == [.line(Array("ab".utf8)), .line(Array("cde".utf8)), .tooLong, .line(Array("ok".utf8))])
        #expect(splitter.pendingCount == 0)
    }

    @Test("replies and events are compact JSON with sorted keys; level events carry the levels line as it is")
    func messages() {
        #expect(String(decoding: ControlMessage.success(id: 7, data: .number(1)), as: UTF8.self) == #"{"data":1,"error":"success","request_id":7}"# + "\n")
        #expect(String(decoding: ControlMessage.failure(id: 2, ControlFailure(.unknownCommand, "no \"x\"")), as: UTF8.self) ==
                #"{"error":"unknown command","message":"no \"x\"","request_id":2}"# + "\n")
        let line = Array(#"{"t": 0.100, "channels": 2, "rms_db": [-9.03, -9.03], "peak_db": [-6.02, -6.02]}"#.utf8) + [10]
        let event = ControlMessage.event("levels", line: line)
        #expect(String(decoding: event, as: UTF8.self) == #"{"event":"levels","data":{"t": 0.100, "channels": 2, "rms_db": [-9.03, -9.03], "peak_db": [-6.02, -6.02]}}"# + "\n")
        #expect(ControlMessage.lineData(of: event.dropLast(), event: "levels") == line)
        #expect(ControlMessage.lineData(of: event.dropLast(), event: "spectrum") == nil)
        #expect(JSONValue.string("a\u{1}\n\"é").text == #""a\u0001\n\"é""#)
        #expect(JSONValue.number(.nan).text == "null")
        #expect(JSONValue.number(0.25).text == "0.25")
    }
}
