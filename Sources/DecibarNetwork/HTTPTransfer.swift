import CCurl
import DecibarCore
import Foundation
import Synchronization

/// One HTTP(S) GET through libcurl, run to its end on the calling thread: the response's head is
/// handed over once, then its body piece by piece.
///
/// libcurl does the protocol (redirects, TLS, ranges, chunked bodies, SHOUTcast's `ICY 200 OK`),
/// so nothing here parses HTTP. This is the only Swift code that imports it.
public enum HTTPTransfer {
    /// Runs `request`. `head` sees the final response's head before any of its body (return false
    /// to stop there); `body` sees each piece (return false to stop). A status of 400 or more ends
    /// the transfer with `.status`. Returns normally when the body is complete or a callback
    /// stopped it; `isCancelled` is asked at least once a second, and a cancel throws `.cancelled`.
    public static func run(_ request: HTTPRequest,
                           head: (HTTPResponseHead) -> Bool,
                           body: (UnsafeRawBufferPointer) -> Bool,
                           isCancelled: @escaping () -> Bool) throws(HTTPError) {
        if let failure = libraryFailure { throw HTTPError(.network, failure) }
        guard let handle = curl.curl_easy_init!() else { throw HTTPError(.network, "cannot start an HTTP client (out of memory)") }
        defer { curl.curl_easy_cleanup!(handle) }
        var failure: HTTPError?
        withoutActuallyEscaping(head) { head in
            withoutActuallyEscaping(body) { body in
                let context = TransferContext(handle: handle, head: head, body: body, isCancelled: isCancelled)
                failure = perform(request, handle: handle, context: context)
            }
        }
        if let failure { throw failure }
    }

    /// Loads libcurl and sets it up, once; why that failed, or nil.
    private static let libraryFailure: String? = {
        var message = [CChar](repeating: 0, count: 256)
        guard let table = decibar_curl_load(&message, Int32(message.count)) else {
            return String(cMessage: message)
        }
        _ = table.pointee.curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return nil
    }()

    /// libcurl's functions (loaded: every caller is behind `libraryFailure`).
    private static var curl: DecibarCurl { decibar_curl_functions().pointee }

    private static func perform(_ request: HTTPRequest, handle: UnsafeMutableRawPointer, context: TransferContext) -> HTTPError? {
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headers: UnsafeMutablePointer<curl_slist>?
        var aliases: UnsafeMutablePointer<curl_slist>?
        defer {
            curl.curl_slist_free_all!(headers)
            curl.curl_slist_free_all!(aliases)
        }
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        return errorText.withUnsafeMutableBufferPointer { errorBuffer -> HTTPError? in
            _ = decibar_curl_set_string(handle, CURLOPT_URL, request.url)
            _ = decibar_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = decibar_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            _ = decibar_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            _ = decibar_curl_set_long(handle, CURLOPT_MAXREDIRS, request.maximumRedirects)
            _ = decibar_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = decibar_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
            // No byte for this long (including while waiting for the head) ends the transfer.
            _ = decibar_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = decibar_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(request.stallTimeout.rounded(.up))))
            _ = decibar_curl_set_string(handle, CURLOPT_USERAGENT, request.userAgent)
            // The bytes as sent: a compressed body would not be seekable by byte offset.
            _ = decibar_curl_set_pointer(handle, CURLOPT_ACCEPT_ENCODING, nil)
            if request.start > 0 || request.end != nil {
                let range = "\(request.start)-" + (request.end.map(String.init) ?? "")
                _ = decibar_curl_set_string(handle, CURLOPT_RANGE, range)
            }
            if request.asksForStreamTitles { headers = curl.curl_slist_append!(headers, "Icy-MetaData: 1") }
            if let validator = request.ifRange { headers = curl.curl_slist_append!(headers, "If-Range: \(validator)") }
            if headers != nil { _ = decibar_curl_set_list(handle, CURLOPT_HTTPHEADER, headers) }
            // SHOUTcast v1 answers with this status line instead of HTTP's.
            aliases = curl.curl_slist_append!(nil, "ICY")
            _ = decibar_curl_set_list(handle, CURLOPT_HTTP200ALIASES, aliases)
            _ = decibar_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
            _ = decibar_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, opaque in
                guard let data, let opaque else { return 0 }
                let context = Unmanaged<TransferContext>.fromOpaque(opaque).takeUnretainedValue()
                context.headerLine(UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            }
            _ = decibar_curl_set_pointer(handle, CURLOPT_HEADERDATA, opaque)
            _ = decibar_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, opaque in
                guard let data, let opaque else { return 0 }
                let context = Unmanaged<TransferContext>.fromOpaque(opaque).takeUnretainedValue()
                // Anything but the full count makes libcurl stop with CURLE_WRITE_ERROR.
                return context.received(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
            }
            _ = decibar_curl_set_pointer(handle, CURLOPT_WRITEDATA, opaque)
            _ = decibar_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            _ = decibar_curl_set_progress_callback(handle) { opaque, _, _, _, _ in
                guard let opaque else { return 1 }
                return Unmanaged<TransferContext>.fromOpaque(opaque).takeUnretainedValue().isCancelled() ? 1 : 0
            }
            _ = decibar_curl_set_pointer(handle, CURLOPT_XFERINFODATA, opaque)

            let result = curl.curl_easy_perform!(handle)
            // A body-less answer (a 404 with no page, a 204) never reached the write callback.
            if result == CURLE_OK, !context.headDelivered { _ = context.deliverHead() }
            if let failure = context.failure { return failure }
            if context.stopped && result == CURLE_WRITE_ERROR { return nil }
            if context.isCancelled() && (result == CURLE_ABORTED_BY_CALLBACK || result == CURLE_WRITE_ERROR) {
                return HTTPError(.cancelled, "cancelled")
            }
            guard result == CURLE_OK else {
                let detail = String(cString: errorBuffer.baseAddress!)
                return HTTPError(kind(of: result), describe(result, detail: detail, request: request))
            }
            return nil
        }
    }

    private static func kind(of result: CURLcode) -> HTTPError.Kind {
        switch result {
        case CURLE_OPERATION_TIMEDOUT: .timeout
        case CURLE_TOO_MANY_REDIRECTS: .redirects
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .resolve
        case CURLE_COULDNT_CONNECT: .refused
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE: .tls
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: .badAddress
        default: .network
        }
    }

    /// libcurl's own words where they say it best, shortened to what a user acts on.
    private static func describe(_ result: CURLcode, detail: String, request: HTTPRequest) -> String {
        switch result {
        case CURLE_OPERATION_TIMEDOUT:
            return detail.contains("Connection timed out") || detail.contains("Connection timeout")
                ? "no connection within \(seconds(request.connectTimeout))"
                : "the server sent nothing for \(seconds(request.stallTimeout)) (timed out)"
        case CURLE_TOO_MANY_REDIRECTS: return "too many redirects (more than \(request.maximumRedirects); a loop?)"
        case CURLE_COULDNT_RESOLVE_HOST: return "host not found"
        case CURLE_COULDNT_CONNECT: return "connection refused"
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return "the connection closed before the end" + (detail.isEmpty ? "" : " (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL: return "only http:// and https:// addresses can be played"
        case CURLE_URL_MALFORMAT: return "not a valid address"
        default:
            let text = detail.isEmpty ? (curl.curl_easy_strerror!(result).map { String(cString: $0) } ?? "error \(result.rawValue)") : detail
            return text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// What the C callbacks reach: the caller's closures and the state of the response.
private final class TransferContext {
    let handle: UnsafeMutableRawPointer
    let head: (HTTPResponseHead) -> Bool
    let body: (UnsafeRawBufferPointer) -> Bool
    let isCancelled: () -> Bool
    private var statusLine = ""
    private(set) var headDelivered = false
    /// A callback asked to stop (not an error).
    private(set) var stopped = false
    private(set) var failure: HTTPError?

    init(handle: UnsafeMutableRawPointer, head: @escaping (HTTPResponseHead) -> Bool,
         body: @escaping (UnsafeRawBufferPointer) -> Bool, isCancelled: @escaping () -> Bool) {
        self.handle = handle
        self.head = head
        self.body = body
        self.isCancelled = isCancelled
    }

    /// Keeps the status line of the latest response (a redirect chain has one per response) for its
    /// reason phrase; libcurl keeps the header fields.
    func headerLine(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.starts(with: "HTTP/".utf8) || bytes.starts(with: "ICY ".utf8) else { return }
        statusLine = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func field(_ name: String) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard decibar_curl_functions().pointee.curl_easy_header!(handle, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK,
              let value = found?.pointee.value else { return nil }
        return String(cString: value)
    }

    func deliverHead() -> Bool {
        headDelivered = true
        var status = 0
        _ = decibar_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafeMutablePointer<CChar>?
        _ = decibar_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &location)
        // "HTTP/1.1 404 Not Found": the words after the code.
        let reason = statusLine.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init) ?? ""
        let parsed = HTTPResponseHead(
            status: status, reason: reason, finalURL: location.map { String(cString: $0) } ?? "",
            contentLength: field("Content-Length").flatMap { Int64($0) },
            contentRange: field("Content-Range"), entityTag: field("ETag"), lastModified: field("Last-Modified"),
            contentType: field("Content-Type"), acceptsRanges: field("Accept-Ranges").map { $0.lowercased() == "bytes" } ?? false,
            streamTitleInterval: field("icy-metaint").flatMap { Int($0) }, stationName: field("icy-name"))
        if status >= 400 {
            failure = HTTPError(.status(status), "HTTP \(status)" + (reason.isEmpty ? "" : " \(reason)"))
            return false
        }
        if !head(parsed) {
            stopped = true
            return false
        }
        return true
    }

    func received(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !headDelivered, !deliverHead() { return false }
        if isCancelled() { return false }
        if !body(bytes) {
            stopped = true
            return false
        }
        return true
    }
}
