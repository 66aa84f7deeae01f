import Hummingbird
import LiveState

/// A request the server refuses, answered as `{"error": {"status", "code", "message"}}`.
///
/// Codes are stable kebab-case strings: `bad-query` (400), `bad-request` (400, a body that is
/// not valid HTTP), `unknown-schema` (404), `unknown-version` (404), `not-found` (404),
/// `method-not-allowed` (405, with `Allow`), `no-fleet` (409), `payload-too-large` (413),
/// `unsupported-media-type` and `unsupported-content-encoding` (415), `internal` (500),
/// `unsupported-transfer-encoding` (501).
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The stable code.
    public var code: String
    /// What went wrong, for people.
    public var message: String
    /// Headers the answer carries besides `Content-Type` (`Allow` on a 405).
    public var headers: HTTPFields = [:]

    /// Creates an error.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - code: The stable code.
    ///   - message: What went wrong; past 1,024 bytes its middle is left out, as a listing of
    ///     findings leaves it out (a 60 KB schema id in the path was echoed whole).
    public init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = Diagnostic.shown(message)
    }

    /// A query parameter that is unknown, repeated or malformed (400).
    static func badQuery(_ message: String) -> APIError {
        APIError(.badRequest, code: "bad-query", message: message)
    }

    /// A schema id the snapshot does not have (404).
    static func unknownSchema(_ id: String, known: [String]) -> APIError {
        APIError(.notFound, code: "unknown-schema",
                 message: "no schema '\(id)'; loaded: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
    }

    /// A version the schema does not have (404): the request is well formed, and names a
    /// resource the server does not hold, as an unknown schema id does.
    static func unknownVersion(_ version: Int, available: [Int]) -> APIError {
        let unknown = Diagnostic.unknownVersion(version, available: available)
        return APIError(.notFound, code: unknown.code.rawValue, message: unknown.message)
    }

    /// `max-drop` for a schema served without a fleet file (409): a valid request that the
    /// server's state cannot answer until it is started with `--fleet`.
    static func noFleet(_ id: String) -> APIError {
        APIError(.conflict, code: "no-fleet", message: "max-drop needs a fleet file for schema '\(id)' (serve --fleet)")
    }

    /// A request line or header that is not valid HTTP (400).
    static func badRequest(_ error: any Error) -> APIError {
        APIError(.badRequest, code: "bad-request", message: "the request is not valid HTTP/1.1: \(error)")
    }

    /// A body that is not valid HTTP: a bad chunk size, a truncated chunk (400).
    static func badRequestBody(_ error: any Error) -> APIError {
        APIError(.badRequest, code: "bad-request", message: "the request body is not valid HTTP/1.1: \(error)")
    }

    /// A body that has not arrived whole within `serve --request-timeout` (408); the connection
    /// closes after the answer.
    static func requestTimeout(_ error: HTTP1ExchangeHandler.RequestTimedOut) -> APIError {
        APIError(.requestTimeout, code: "request-timeout", message: "\(error); send the body at once, or raise --request-timeout")
    }

    /// A method the path does not serve (405); `allow` lists those it does.
    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allow: String) -> APIError {
        var error = APIError(.methodNotAllowed, code: "method-not-allowed", message: "\(path) answers \(allow), not \(method)")
        error.headers[.allow] = allow
        return error
    }

    /// A body whose `Content-Type` the route does not take (415); `expecting` says what it takes.
    static func unsupportedMediaType(_ type: String, expecting: String) -> APIError {
        APIError(.unsupportedMediaType, code: "unsupported-media-type", message: "the body must be \(expecting), not \(type)")
    }

    /// A body with a `Content-Encoding` other than `identity` (415): the server reads bodies as
    /// they are sent, and a compressed one would be read as garbage.
    static func unsupportedContentEncoding(_ encoding: String) -> APIError {
        APIError(.unsupportedMediaType, code: "unsupported-content-encoding",
                 message: "the body must be sent uncompressed (Content-Encoding identity, or none), not Content-Encoding \(encoding)")
    }

    /// A transfer coding other than `chunked` (501, as RFC 9112 §6.1 asks of a server that does
    /// not know the coding): the body is not read.
    static func unsupportedTransferEncoding(_ coding: String) -> APIError {
        APIError(.notImplemented, code: "unsupported-transfer-encoding",
                 message: "the body must be sent with Transfer-Encoding chunked or a Content-Length, not Transfer-Encoding \(coding)")
    }

    /// A body over the limit (413).
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "payload-too-large", message: "the request body is over the limit of \(limit) bytes")
    }

    /// The error as its JSON value.
    public var jsonValue: Value {
        .object([
            .init("error", .object([
                .init("status", .int(Int(status.code))),
                .init("code", .string(code)),
                .init("message", .string(message)),
            ])),
        ])
    }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(jsonValue, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}
