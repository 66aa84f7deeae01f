import Hummingbird
@_spi(Scanner) import LiveState

/// Writes response bodies with LiveState's `JSONWriter`: compact, members in order.
enum JSONResponse {
    /// The `Content-Type` of every JSON answer.
    static let contentType = "application/json; charset=utf-8"
    static let headers: HTTPFields = [.contentType: contentType]

    /// `value` as JSON text.
    static func bytes(_ value: Value, capacity: Int = 1024) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.write(value)
        return writer.bytes
    }

    /// A response whose body is `value` as JSON.
    static func make(_ value: Value, status: HTTPResponse.Status = .ok, capacity: Int = 1024) -> Response {
        make(bytes: bytes(value, capacity: capacity), status: status)
    }

    /// A JSON Schema document (`application/schema+json`).
    static func makeSchema(_ value: Value) -> Response {
        make(bytes: bytes(value, capacity: 8192), headers: [.contentType: "application/schema+json"])
    }

    /// A response whose body is JSON text already written.
    static func make(bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = Self.headers) -> Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
