import Hummingbird
@_spi(Scanner) import LiveState

/// Writes response bodies with LiveState's `JSONWriter`: compact, members in order.
enum JSONResponse {
    static let headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]

    /// A response whose body is `value` as JSON.
    static func make(_ value: Value, status: HTTPResponse.Status = .ok, capacity: Int = 1024) -> Response {
        var writer = JSONWriter(capacity: capacity)
        writer.write(value)
        return make(bytes: writer.bytes, status: status)
    }

    /// A JSON Schema document (`application/schema+json`).
    static func makeSchema(_ value: Value) -> Response {
        var writer = JSONWriter(capacity: 8192)
        writer.write(value)
        return make(bytes: writer.bytes, headers: [.contentType: "application/schema+json"])
    }

    /// A response whose body is JSON text already written.
    static func make(bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = Self.headers) -> Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
