// libFuzzer target: what the daemon does with the bytes a control client sends. The splitter cuts
// them into lines (the first byte picks a chunk size, so lines also arrive split across reads),
// each line is parsed into a request or a failure, and whatever JSON parses writes back to the same
// value. Any input must give replies or nothing, never a crash.
import DecibarCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0]) % 64 + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var splitter = ControlLineSplitter(maximumLineLength: 4096)
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + chunk)
        splitter.append(Array(bytes[start ..< end])) { piece in
            guard case .line(let line) = piece else { return }
            precondition(line.count <= 4096 && !line.contains(UInt8(ascii: "\n")))
            switch ControlRequest.parse(line) {
            case .request(let request):
                if case .set(let key, let value) = request.command {
                    var configuration = Configuration()
                    _ = try? configuration.set(key, to: value)
                }
            case .failure(let failure, _):
                _ = ControlMessage.failure(id: 0, failure)
            case .ignored:
                break
            }
            if let value = JSONValue(parsing: line) {
                var text: [UInt8] = []
                value.append(to: &text)
                precondition(JSONValue(parsing: text) == value, "JSON written back reads back the same")
            }
        }
        start = end
    }
    return 0
}
