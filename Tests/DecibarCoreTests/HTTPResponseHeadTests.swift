import DecibarCore
import Testing

struct HTTPResponseHeadTests {
    @Test("a 200 is the whole file from 0; a 206 starts at its range and states the total")
    func ranges() {
        let whole = HTTPResponseHead(status: 200, contentLength: 7_200_000, contentRange: "bytes 100-199/7200000")
        #expect(whole.bodyStart == 0 && whole.totalLength == 7_200_000)
        let part = HTTPResponseHead(status: 206, contentLength: 100, contentRange: "bytes 5694178-7199999/7200000")
        #expect(part.bodyStart == 5_694_178 && part.totalLength == 7_200_000)
        let unknown = HTTPResponseHead(status: 206, contentRange: "bytes 10-19/*")
        #expect(unknown.bodyStart == 10 && unknown.totalLength == nil)
        for broken in ["bytes 20-10/100", "bytes 0-99/50", "items 0-1/2", "bytes x-1/2", "bytes 0-1"] {
            let head = HTTPResponseHead(status: 206, contentRange: broken)
            #expect(head.bodyStart == 0 && head.totalLength == nil, "\(broken)")
        }
        #expect(HTTPResponseHead(status: 200).totalLength == nil, "a radio or a chunked body states no length")
    }

    @Test("the validator is the ETag, else Last-Modified")
    func validator() {
        #expect(HTTPResponseHead(status: 200, entityTag: "\"abc\"", lastModified: "Mon").validator == "\"abc\"")
        #expect(HTTPResponseHead(status: 200, lastModified: "Mon").validator == "Mon")
        #expect(HTTPResponseHead(status: 200).validator == nil)
    }
}
